//! Know how long it will take: the plan of a performance (steps, taps, the expected time at the tap
//! channel's measured rate) and the time budget (`--budget`): as many steps as fit are shown,
//! the rest of the solution is filled in directly.

use super::setnum::{Encoder, Layout, Point};
use crate::board::Board;
use crate::solver::Event;
use crate::text::thousands;
use std::time::Duration;

/// Taps one direct fill of a cell can take at most (select, erase, digit).
const FILL_TAPS_PER_CELL: u64 = 3;

/// What a performance will do, and how long it should take.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// Steps (search events) in all.
    pub steps: u64,
    /// Taps to show every step.
    pub taps: u64,
    /// Steps that will be shown (the rest is filled directly).
    pub visible_steps: u64,
    /// Taps of the shown steps plus at most the direct fill.
    pub visible_taps: u64,
    /// The tap channel's measured rate, taps per second.
    pub rate: f64,
    pub budget: Option<Duration>,
    /// Why steps are hidden: the budget (true) or `--max-visible-steps` (false).
    pub cut_by_budget: bool,
}

impl Plan {
    /// Plans performing `events` (a search of `puzzle`) through `layout` at `rate` taps/s within
    /// `budget`, showing at most `max_visible` steps.
    pub fn new(
        events: &[Event],
        puzzle: &Board,
        layout: &Layout,
        rate: f64,
        budget: Option<Duration>,
        max_visible: Option<u64>,
    ) -> Plan {
        let mut enc = Encoder::for_puzzle(layout, puzzle);
        let mut taps: Vec<Point> = Vec::with_capacity(4);
        // Taps after each step, cumulated.
        let mut cumulative = Vec::with_capacity(events.len());
        let mut total = 0u64;
        let mut board = *puzzle;
        for &ev in events {
            taps.clear();
            enc.event(ev, &board, &mut taps);
            total += taps.len() as u64;
            // A wait for a late clear costs as much as the taps that would fit in it.
            if let Some(wait) = enc.wait.take() {
                total += (wait.as_secs_f64() * rate) as u64;
            }
            cumulative.push(total);
            match ev {
                Event::Place { cell, digit } => board.set(cell as usize, digit),
                Event::Undo { cell, .. } => board.set(cell as usize, 0),
            }
        }
        let fill =
            (puzzle.to_line().bytes().filter(|&b| b == b'.').count() as u64) * FILL_TAPS_PER_CELL;
        let steps = events.len() as u64;
        let mut visible = max_visible.map_or(steps, |m| m.min(steps));
        let mut cut_by_budget = false;
        if let Some(b) = budget {
            let affordable = (b.as_secs_f64() * rate.max(0.0)) as u64;
            let fit = cumulative.partition_point(|&t| t + fill <= affordable) as u64;
            if fit < visible {
                visible = fit;
                cut_by_budget = true;
            }
        }
        let shown = match visible {
            0 => 0,
            v => cumulative[v as usize - 1],
        };
        Plan {
            steps,
            taps: total,
            visible_steps: visible,
            visible_taps: shown + if visible < steps { fill } else { 0 },
            rate,
            budget,
            cut_by_budget,
        }
    }

    /// Expected time to show every step.
    pub(crate) fn full_time(&self) -> Duration {
        secs(self.taps as f64 / self.rate.max(1e-9))
    }

    /// Expected time of what will be shown.
    pub fn time(&self) -> Duration {
        secs(self.visible_taps as f64 / self.rate.max(1e-9))
    }

    /// `level 52: 470,108 steps, about 1.2M taps, about 2 h 10 min at 150 taps/s`, and what the
    /// budget leaves out.
    pub fn describe(&self, level: Option<u32>) -> String {
        let what = level.map_or("this level".to_string(), |l| format!("level {l}"));
        let mut s = format!(
            "{what}: {} steps, about {} taps, about {} at {} taps/s",
            thousands(self.steps),
            approx(self.taps),
            human(self.full_time()),
            rate(self.rate)
        );
        if self.visible_steps < self.steps {
            let why = if self.cut_by_budget {
                format!(
                    "the {} budget (--budget)",
                    human(self.budget.unwrap_or_default())
                )
            } else {
                "--max-visible-steps".to_string()
            };
            s.push_str(&format!(
                "; within {why} the first {} steps are shown (about {}), then the rest of the \
                 solution is filled in directly",
                thousands(self.visible_steps),
                human(self.time())
            ));
        } else if let Some(b) = self.budget {
            s.push_str(&format!(
                "; every step is shown (fits the {} budget)",
                human(b)
            ));
        }
        s
    }
}

fn secs(s: f64) -> Duration {
    Duration::try_from_secs_f64(s).unwrap_or(Duration::MAX)
}

/// `1.2M`, `45k`, `812`.
fn approx(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{:.0}k", n as f64 / 1e3),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

/// A rate for people: `243`, `2.8`.
pub fn rate(r: f64) -> String {
    if r >= 10.0 {
        format!("{r:.0}")
    } else {
        format!("{r:.1}")
    }
}

/// `2 h 10 min`, `4 min 10 s`, `12 s`, `0.4 s`; days past 48 h.
pub fn human(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 10.0 {
        return format!("{s:.1} s");
    }
    let s = s.round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => match s % 60 {
            0 => format!("{} min", s / 60),
            r => format!("{} min {r} s", s / 60),
        },
        3600..172_800 => match s % 3600 / 60 {
            0 => format!("{} h", s / 3600),
            m => format!("{} h {m} min", s / 3600),
        },
        _ => format!("{:.1} days", s as f64 / 86_400.0),
    }
}

/// A `--budget`: a duration, or no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget(pub Option<Duration>);

impl std::str::FromStr for Budget {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        parse_budget(s).map(Budget)
    }
}

/// Parses a `--budget`: `30m`, `2h`, `90s`, `1h30m`, `45` (seconds), or `none` (no limit).
pub(crate) fn parse_budget(text: &str) -> Result<Option<Duration>, String> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    let bad =
        || format!("'{text}' is not a duration: use e.g. 30m, 2h, 1h30m, 90s, or none (no limit)");
    let mut total = 0u64;
    let mut number = String::new();
    for c in t.chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let n: u64 = number.parse().map_err(|_| bad())?;
        number.clear();
        total += n * match c {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            'd' => 86_400,
            _ => return Err(bad()),
        };
    }
    if !number.is_empty() {
        total += number.parse::<u64>().map_err(|_| bad())?;
    }
    if t.is_empty() || total == 0 {
        return Err(bad());
    }
    Ok(Some(Duration::from_secs(total)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::setnum::{InputOrder, test_layout};
    use crate::solver::{Options, Recorder, Strategy, search};

    const LEET: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn events() -> (Board, Vec<Event>) {
        let puzzle = Board::parse(LEET).unwrap();
        let mut rec = Recorder::default();
        search(Strategy::RowMajor, &puzzle, &Options::default(), &mut rec);
        (puzzle, rec.0)
    }

    #[test]
    fn budget_cuts_the_steps_shown() {
        let (puzzle, ev) = events();
        let layout = test_layout(InputOrder::CellFirst, false);
        let all = Plan::new(&ev, &puzzle, &layout, 100.0, None, None);
        assert_eq!(all.steps, 4208 + 4157);
        assert_eq!(all.visible_steps, all.steps);
        assert!(all.taps >= all.steps, "at least a tap per step");
        // 60 s at 100 taps/s: 6,000 taps, fill included.
        let cut = Plan::new(
            &ev,
            &puzzle,
            &layout,
            100.0,
            Some(Duration::from_secs(60)),
            None,
        );
        assert!(cut.cut_by_budget && cut.visible_steps < all.steps);
        assert!(cut.visible_taps <= 6000, "{cut:?}");
        assert!(
            cut.describe(Some(7))
                .contains("within the 1 min budget (--budget) the first")
        );
        // --max-visible-steps stays, and the smaller of the two wins.
        let capped = Plan::new(
            &ev,
            &puzzle,
            &layout,
            100.0,
            Some(Duration::from_secs(3600)),
            Some(50),
        );
        assert_eq!((capped.visible_steps, capped.cut_by_budget), (50, false));
        let text = all.describe(Some(52));
        assert!(text.starts_with("level 52: 8,365 steps, about "), "{text}");
        assert!(text.ends_with(" at 100 taps/s"), "{text}");
    }

    #[test]
    fn budgets_and_durations_read_and_print() {
        assert_eq!(parse_budget("30m"), Ok(Some(Duration::from_secs(1800))));
        assert_eq!(parse_budget("1h30m"), Ok(Some(Duration::from_secs(5400))));
        assert_eq!(parse_budget("90"), Ok(Some(Duration::from_secs(90))));
        assert_eq!(parse_budget("none"), Ok(None));
        for bad in ["", "0", "10x", "m", "-5m"] {
            assert!(parse_budget(bad).is_err(), "{bad}");
        }
        assert_eq!(human(Duration::from_secs(7800)), "2 h 10 min");
        assert_eq!(human(Duration::from_secs(250)), "4 min 10 s");
        assert_eq!(human(Duration::from_millis(400)), "0.4 s");
        assert_eq!(human(Duration::from_secs(86_400 * 3)), "3.0 days");
        assert_eq!(approx(1_234_567), "1.2M");
    }
}
