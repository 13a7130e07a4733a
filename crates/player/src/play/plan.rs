//! Know how long it will take: the plan of a performance (steps, taps, the expected time at the tap
//! channel's measured rate) and the time budget: as many steps as fit are shown, the rest of
//! the solution is filled in directly.

use super::setnum::{BRUSH_TAPS, Encoder, Guard, Layout, Point};
use crate::board::Board;
use crate::solver::Event;
use std::time::Duration;

/// Taps one direct fill of a cell can take at most (select, erase, digit).
const FILL_TAPS_PER_CELL: u64 = 3;

/// Taps a direct fill of one cell can take at most through `layout`: select, erase, digit, and
/// the guard's taps where every write is guarded (`Layout::guard`).
pub(crate) fn fill_taps_per_cell(layout: &Layout) -> u64 {
    FILL_TAPS_PER_CELL
        + match layout.guard() {
            // Two givens before the cell, and the cell again where a re-tap does nothing.
            Some(Guard::Givens) => 3,
            // The key tapped BRUSH_TAPS times instead of once.
            Some(Guard::Brush) => BRUSH_TAPS as u64 - 1,
            None => 0,
        }
}

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
    /// Why steps are hidden: the budget (true) or the most steps to show (false).
    pub cut_by_budget: bool,
    /// The puzzle has more than one solution: the one the search writes (the app may take
    /// another for solved).
    pub several: Option<Board>,
    /// Every write goes in guarded, the app ending the game after a few mistakes: the guard's
    /// taps are counted in `taps` (see `Layout::guard`).
    pub guarded: Option<Guarded>,
}

/// How a plan's writes are guarded, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Guarded {
    pub guard: Guard,
    /// The app ends the game after this many mistakes.
    pub limit: u32,
}

impl Plan {
    /// Plans performing `events` (a search of `givens`) through `layout` at `rate` taps/s within
    /// `budget`, showing at most `max_visible` steps.
    pub fn new(
        events: &[Event],
        givens: &Board,
        layout: &Layout,
        rate: f64,
        budget: Option<Duration>,
        max_visible: Option<u64>,
    ) -> Plan {
        let mut enc = Encoder::for_givens(layout, givens);
        let mut taps: Vec<Point> = Vec::with_capacity(4);
        // Taps after each step, cumulated.
        let mut cumulative = Vec::with_capacity(events.len());
        let mut total = 0u64;
        let mut board = *givens;
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
        let fill = (givens.to_line().bytes().filter(|&b| b == b'.').count() as u64)
            * fill_taps_per_cell(layout);
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
            several: None,
            guarded: layout
                .guard()
                .zip(layout.rules.mistake_limit)
                .map(|(guard, limit)| Guarded { guard, limit }),
        }
    }

    /// Expected time to show every step.
    pub fn full_time(&self) -> Duration {
        secs(self.taps as f64 / self.rate.max(1e-9))
    }

    /// Expected time of what will be shown.
    pub fn time(&self) -> Duration {
        secs(self.visible_taps as f64 / self.rate.max(1e-9))
    }
}

fn secs(s: f64) -> Duration {
    Duration::try_from_secs_f64(s).unwrap_or(Duration::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calibration::InputMode;
    use crate::play::setnum::test_layout;
    use crate::solver::{Options, Recorder, Strategy, search};

    const LEET: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn events() -> (Board, Vec<Event>) {
        let givens = Board::parse(LEET).unwrap();
        let mut rec = Recorder::default();
        search(Strategy::RowMajor, &givens, &Options::default(), &mut rec);
        (givens, rec.0)
    }

    #[test]
    fn budget_cuts_the_steps_shown() {
        let (givens, ev) = events();
        let layout = test_layout(InputMode::CellFirst, false);
        let all = Plan::new(&ev, &givens, &layout, 100.0, None, None);
        assert_eq!(all.steps, 4208 + 4157);
        assert_eq!(all.visible_steps, all.steps);
        assert!(all.taps >= all.steps, "at least a tap per step");
        // 60 s at 100 taps/s: 6,000 taps, fill included.
        let cut = Plan::new(
            &ev,
            &givens,
            &layout,
            100.0,
            Some(Duration::from_secs(60)),
            None,
        );
        assert!(cut.cut_by_budget && cut.visible_steps < all.steps);
        assert!(cut.visible_taps <= 6000, "{cut:?}");
        // --max-visible-steps stays, and the smaller of the two wins.
        let capped = Plan::new(
            &ev,
            &givens,
            &layout,
            100.0,
            Some(Duration::from_secs(3600)),
            Some(50),
        );
        assert_eq!((capped.visible_steps, capped.cut_by_budget), (50, false));
    }
}
