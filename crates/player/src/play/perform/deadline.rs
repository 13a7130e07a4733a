//! The time budget held as a deadline while performing. The plan chose how many steps to show
//! from the tap rate measured before the first tap; a phone slower than that (a loaded host, a
//! busy phone) would show them past the budget. So before each step the end is projected as if
//! no more steps were shown: the step's taps and the fill-in of the cells still to write, at
//! the time per tap seen (looks aside, each with its wait for the taps in flight, which is the
//! phone's latency and not each tap's time: over the whole run, or between the last two looks
//! where that is slower, so that a phone turning slow is followed within a look), and the looks at
//! the end, each as long as the slowest verification's look so far. Once that end passes the
//! deadline, the steps stop: the rest of the solution is filled in directly, as past
//! `max_visible_steps` ([`super::Journal::shown_until`] records where). The check comes after
//! the look a step may be due, so only the looks after the fill are to come.

use std::time::{Duration, Instant};

/// The looks after the fill, however few steps are shown: the board filled but for one cell,
/// the board after the completing write, and one more where the app shows its completion
/// instead (a screen without the board is read again and its words asked for).
const END_LOOKS: u32 = 3;

/// The budget, from the performance's start, on the target's clock.
#[derive(Debug, Clone)]
pub(super) struct Deadline {
    start: Instant,
    budget: Duration,
    /// The most taps one cell's fill takes (`plan::fill_taps_per_cell`).
    fill_taps: u64,
    /// The looks after the fill.
    end_looks: u32,
    /// The slowest verification's look so far (the taps in flight carried out, a screenshot
    /// read, its fixes).
    look: Duration,
    /// The time spent looking so far, glances included: not the taps' time.
    looking: Duration,
    /// When the last look ended, and the taps sent by then.
    last: (Instant, u64),
    /// The time per tap between the last two looks, in seconds.
    recent: f64,
}

impl Deadline {
    /// `budget` from `start`, a cell's fill taking at most `fill_taps` taps; `several`: the
    /// puzzle has more than one solution (one more look at the end, the app's verdict).
    pub(super) fn new(start: Instant, budget: Duration, fill_taps: u64, several: bool) -> Deadline {
        Deadline {
            start,
            budget,
            fill_taps,
            end_looks: END_LOOKS + u32::from(several),
            look: Duration::ZERO,
            looking: Duration::ZERO,
            last: (start, 0),
            recent: 0.0,
        }
    }

    pub(super) fn budget(&self) -> Duration {
        self.budget
    }

    /// The time spent looking at the screen so far.
    pub(super) fn looking(&self) -> Duration {
        self.looking
    }

    /// A look at the screen ran from `started` to `ended`, `taps` taps sent by then: a glance,
    /// or a verification's (`full`), where nothing happened to the phone meanwhile.
    pub(super) fn looked(&mut self, started: Instant, ended: Instant, taps: u64, full: bool) {
        let took = ended.saturating_duration_since(started);
        self.looking = self.looking.saturating_add(took);
        if full {
            self.look = self.look.max(took);
        }
        let (since, before) = self.last;
        if taps > before {
            let tapping = started.saturating_duration_since(since);
            self.recent = tapping.as_secs_f64() / (taps - before) as f64;
        }
        self.last = (ended, taps);
    }

    /// The time per tap so far, at `now` after `taps` taps, looks aside (`None` before any).
    fn per_tap(&self, now: Instant, taps: u64) -> Option<f64> {
        let tapping = now
            .saturating_duration_since(self.start)
            .saturating_sub(self.looking);
        (taps > 0).then(|| tapping.as_secs_f64() / taps as f64)
    }

    /// The taps per second so far, looks aside (0 before any).
    pub(super) fn rate(&self, now: Instant, taps: u64) -> f64 {
        self.per_tap(now, taps)
            .filter(|&t| t > 0.0)
            .map_or(0.0, |t| 1.0 / t)
    }

    /// Whether one more step would end the performance past the deadline: it is `now`, `taps`
    /// were sent since the start, and `cells` cells differ from the solution. The step and the
    /// fill-in after it are counted as `cells + 1` cells' fills (a step writes or takes back one
    /// cell), at the time per tap seen; then the looks at the end.
    pub(super) fn passed(&self, now: Instant, taps: u64, cells: u64) -> bool {
        let elapsed = now.saturating_duration_since(self.start);
        if elapsed >= self.budget {
            return true;
        }
        // No tap yet: the first ones tell the rate.
        let Some(per_tap) = self.per_tap(now, taps) else {
            return false;
        };
        let fill = (cells + 1).saturating_mul(self.fill_taps) as f64 * per_tap.max(self.recent);
        let rest = Duration::try_from_secs_f64(fill).unwrap_or(Duration::MAX);
        elapsed
            .saturating_add(rest)
            .saturating_add(self.look * self.end_looks)
            > self.budget
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_end_is_projected_at_the_rate_seen_with_the_slowest_look() {
        let start = Instant::now();
        let mut d = Deadline::new(start, Duration::from_secs(60), 3, false);
        let at = |ms: u64| start + Duration::from_millis(ms);
        // 100 taps/s so far: 50 cells' fills (153 taps with the step's) take 1.53 s.
        assert!(!d.passed(at(58_000), 5800, 50));
        assert!(d.passed(at(59_000), 5900, 50));
        // Looks of 0.5 s and 0.1 s, at 100 taps/s between them: three looks at the end take
        // 1.5 s more, and the taps' rate is that of the rest of the time.
        d.looked(at(1000), at(1500), 100, true);
        d.looked(at(2500), at(2600), 200, true);
        assert_eq!(d.looking(), Duration::from_millis(600));
        assert!((d.rate(at(10_000), 940) - 100.0).abs() < 1e-6);
        assert!(d.passed(at(58_000), 5740, 50));
        assert!(!d.passed(at(56_500), 5590, 50));
        // Before any tap, only the budget itself.
        assert!(!d.passed(at(59_000), 0, 50));
        assert!(d.passed(at(60_000), 0, 50));
        assert_eq!(d.rate(at(1000), 0), 0.0);
    }

    #[test]
    fn several_solutions_leave_one_more_look_at_the_end() {
        let start = Instant::now();
        let at = |ms: u64| start + Duration::from_millis(ms);
        let (mut one, mut several) = (
            Deadline::new(start, Duration::from_secs(60), 3, false),
            Deadline::new(start, Duration::from_secs(60), 3, true),
        );
        one.looked(at(1000), at(2000), 100, true);
        several.looked(at(1000), at(2000), 100, true);
        // 10 ms a tap: 1.53 s of fills, then three looks of 1 s, or four.
        assert!(!one.passed(at(55_000), 5400, 50));
        assert!(several.passed(at(55_000), 5400, 50));
    }

    #[test]
    fn slow_looks_early_do_not_pass_for_slow_taps() {
        // Six taps, then a look of 2 s (a slow screenshot): the taps still go at 100/s, so 50
        // cells' fills take 1.53 s, and three looks 6 s (at the six taps' time with the look,
        // the fills alone would take 52 s).
        let start = Instant::now();
        let at = |ms: u64| start + Duration::from_millis(ms);
        let mut d = Deadline::new(start, Duration::from_secs(12), 3, false);
        d.looked(at(60), at(2060), 6, true);
        assert!(!d.passed(at(2060), 6, 50));
        // A glance is counted apart from the taps, but the looks at the end are
        // verifications'.
        d.looked(at(2060), at(4060), 6, false);
        assert!(!d.passed(at(4060), 6, 50));
        assert!(d.passed(at(4060), 6, 81 * 3));
    }

    #[test]
    fn taps_turning_slow_are_followed_from_the_next_look() {
        // 1,000 taps at 1 ms, then 100 at 20 ms: over the run 2.7 ms a tap, but the fill
        // goes at the last look's 20 ms (153 taps: 3.06 s).
        let start = Instant::now();
        let at = |ms: u64| start + Duration::from_millis(ms);
        let mut d = Deadline::new(start, Duration::from_secs(10), 3, false);
        d.looked(at(1000), at(1000), 1000, true);
        d.looked(at(3000), at(3000), 1100, true);
        assert!(!d.passed(at(6900), 1100, 50));
        assert!(d.passed(at(7000), 1100, 50));
    }
}
