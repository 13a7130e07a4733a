//! Replays a recorded search on the phone: every event as taps, with periodic verification.
//!
//! The search runs on the host first (its events recorded), then each event is replayed in
//! order. Every `verify_taps` taps or `verify_interval`, the board on screen is read back and
//! compared with what the search has placed so far; differences (dropped taps, a mis-tap) are
//! repaired and counted. With `max_visible_steps`, only the first N events are shown and the
//! final digits are then filled directly. The last check reads the solved board (or sees the
//! app's completion screen replace it right after the last digit).

use super::setnum::{Encoder, Layout, Point};
use crate::board::{Board, CELLS};
use crate::solver::Event;
use std::time::{Duration, Instant};

/// The phone, as the replay sees it.
pub trait Target {
    /// Queues a tap.
    fn tap(&mut self, p: Point) -> anyhow::Result<()>;
    /// Returns once every queued tap has been carried out.
    fn sync(&mut self) -> anyhow::Result<()>;
    /// Reads the digits on screen; `None` if no board is visible (a dialog covers it).
    fn read(&mut self) -> anyhow::Result<Option<Board>>;
    /// Presses BACK (to dismiss a popup).
    fn back(&mut self) -> anyhow::Result<()>;
}

/// Where replayed events are recorded (the session journal).
pub trait Journal {
    /// Event `index` of the search was sent as `taps`.
    fn event(&mut self, index: usize, event: Event, taps: &[Point]) -> anyhow::Result<()>;
    /// A cell was set directly (repair or final fill) with `taps`.
    fn write(
        &mut self,
        kind: WriteKind,
        cell: usize,
        digit: u8,
        taps: &[Point],
    ) -> anyhow::Result<()>;
}

/// Why a cell was written outside the event stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WriteKind {
    Repair,
    Fill,
}

/// A journal that keeps nothing.
impl Journal for () {
    fn event(&mut self, _: usize, _: Event, _: &[Point]) -> anyhow::Result<()> {
        Ok(())
    }
    fn write(&mut self, _: WriteKind, _: usize, _: u8, _: &[Point]) -> anyhow::Result<()> {
        Ok(())
    }
}

/// Replay settings.
#[derive(Debug, Clone)]
pub struct ReplayOptions {
    /// Verify after this many taps (0: only at the end).
    pub verify_taps: u64,
    /// ... or after this much time.
    pub verify_interval: Duration,
    /// Show only the first N events, then fill the solution directly.
    pub max_visible_steps: Option<u64>,
    /// Resume: the events before this index are already on the screen.
    pub start_at: usize,
    /// Repair rounds per verification before giving up.
    pub repair_rounds: u32,
}

impl Default for ReplayOptions {
    fn default() -> Self {
        ReplayOptions {
            verify_taps: 2000,
            verify_interval: Duration::from_secs(30),
            max_visible_steps: None,
            start_at: 0,
            repair_rounds: 3,
        }
    }
}

/// What a replay did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReplayReport {
    /// Events shown as taps (this run).
    pub events_shown: u64,
    /// Events computed on the host but not shown (`max_visible_steps`).
    pub events_hidden: u64,
    pub taps: u64,
    /// Cells found wrong on screen and written again.
    pub repairs: u64,
    pub verifications: u64,
    /// The last read showed the solution, or the app's completion screen replaced the board
    /// right after the last digit.
    pub completion_seen: bool,
    pub elapsed: Duration,
}

/// Progress callback: (events done, total events, taps sent).
pub type ProgressFn<'a> = dyn FnMut(u64, u64, u64) + 'a;

/// Replays `events` (a search of `puzzle` that ends in `solution`) onto the target.
#[allow(clippy::too_many_arguments)]
pub fn replay(
    puzzle: &Board,
    events: &[Event],
    solution: &Board,
    layout: &Layout,
    target: &mut dyn Target,
    journal: &mut dyn Journal,
    options: &ReplayOptions,
    progress: &mut ProgressFn<'_>,
) -> anyhow::Result<ReplayReport> {
    let start = Instant::now();
    let mut r = Replay {
        enc: Encoder::new(layout),
        target,
        journal,
        options,
        expected: *puzzle,
        puzzle: *puzzle,
        report: ReplayReport::default(),
        taps: Vec::with_capacity(4),
        since_verify: 0,
        last_verify: Instant::now(),
    };
    for ev in &events[..options.start_at.min(events.len())] {
        apply(&mut r.expected, *ev);
    }
    if options.start_at > 0 {
        // Resuming: the screen should show the journaled events; repair what was lost.
        let want = r.expected;
        r.verify(&want)?;
    }
    let total = events.len() as u64;
    let visible_end = options
        .max_visible_steps
        .map_or(events.len(), |n| (n as usize).min(events.len()))
        .max(options.start_at.min(events.len()));
    // The write that completes the board comes after a verification, so a completion dialog
    // that hides the board cannot hide a wrong digit. With every event shown, that write is the
    // search's last event; otherwise the remaining cells are filled directly, one of them last.
    let last_event =
        (visible_end == events.len() && options.start_at < events.len()).then(|| events.len() - 1);
    for (i, &ev) in events
        .iter()
        .enumerate()
        .take(last_event.unwrap_or(visible_end))
        .skip(options.start_at)
    {
        r.send_event(i, ev)?;
        if r.due() {
            let want = r.expected;
            r.verify(&want)?;
        }
        progress(i as u64 + 1, total, r.report.taps);
    }
    r.report.events_hidden = (events.len() - visible_end) as u64;

    let final_cell = match last_event.map(|i| events[i]) {
        Some(Event::Place { cell, .. }) => Some(cell as usize),
        _ => (0..CELLS)
            .rev()
            .find(|&c| r.expected.get(c) != solution.get(c)),
    };
    let mut almost = *solution;
    if let Some(c) = final_cell {
        almost.set(c, r.expected.get(c));
    }
    r.fill(&almost)?;
    r.verify(&almost)?;
    match (last_event, final_cell) {
        (Some(i), _) => {
            r.send_event(i, events[i])?;
            progress(total, total, r.report.taps);
        }
        (None, Some(c)) => r.write(WriteKind::Fill, c, solution.get(c))?,
        (None, None) => {}
    }
    r.target.sync()?;
    r.report.completion_seen = match r.target.read()? {
        None => true,
        Some(b) if b == *solution => true,
        Some(_) => {
            r.verify(solution)?;
            true
        }
    };
    r.report.elapsed = start.elapsed();
    Ok(r.report)
}

fn apply(board: &mut Board, ev: Event) {
    match ev {
        Event::Place { cell, digit } => board.set(cell as usize, digit),
        Event::Undo { cell, .. } => board.set(cell as usize, 0),
    }
}

struct Replay<'a, 'l> {
    enc: Encoder<'l>,
    target: &'a mut dyn Target,
    journal: &'a mut dyn Journal,
    options: &'a ReplayOptions,
    puzzle: Board,
    expected: Board,
    report: ReplayReport,
    taps: Vec<Point>,
    since_verify: u64,
    last_verify: Instant,
}

impl Replay<'_, '_> {
    fn send_taps(&mut self) -> anyhow::Result<()> {
        for &p in &self.taps {
            self.target.tap(p)?;
        }
        let n = self.taps.len() as u64;
        self.report.taps += n;
        self.since_verify += n;
        Ok(())
    }

    fn send_event(&mut self, i: usize, ev: Event) -> anyhow::Result<()> {
        self.taps.clear();
        self.enc.event(ev, &mut self.taps);
        self.send_taps()?;
        apply(&mut self.expected, ev);
        self.report.events_shown += 1;
        self.journal.event(i, ev, &self.taps)
    }

    fn write(&mut self, kind: WriteKind, cell: usize, digit: u8) -> anyhow::Result<()> {
        self.taps.clear();
        let previous = self.expected.get(cell);
        self.enc.write(cell, digit, previous, &mut self.taps);
        self.send_taps()?;
        self.expected.set(cell, digit);
        self.journal.write(kind, cell, digit, &self.taps)
    }

    fn due(&self) -> bool {
        (self.options.verify_taps > 0 && self.since_verify >= self.options.verify_taps)
            || self.last_verify.elapsed() >= self.options.verify_interval
    }

    /// Writes every cell where `expected` differs from `board`.
    fn fill(&mut self, board: &Board) -> anyhow::Result<()> {
        for c in 0..CELLS {
            if self.expected.get(c) != board.get(c) {
                self.write(WriteKind::Fill, c, board.get(c))?;
            }
        }
        Ok(())
    }

    /// Reads the screen, repairs what differs from `want`, and reads again.
    fn verify(&mut self, want: &Board) -> anyhow::Result<()> {
        self.since_verify = 0;
        self.last_verify = Instant::now();
        for round in 0..=self.options.repair_rounds {
            self.target.sync()?;
            self.report.verifications += 1;
            let seen = match self.target.read()? {
                Some(b) => b,
                None => {
                    // A popup may cover the board: BACK once, then look again.
                    self.target.back()?;
                    self.target.sync()?;
                    self.enc.reset();
                    self.target.read()?.ok_or_else(|| {
                        anyhow::anyhow!(
                            "board not visible: something covers the Sudoku board and BACK did not dismiss it \
                             (close it on the phone, then `autoplay resume` the session)"
                        )
                    })?
                }
            };
            let wrong: Vec<usize> = (0..CELLS).filter(|&c| seen.get(c) != want.get(c)).collect();
            if wrong.is_empty() {
                return Ok(());
            }
            if let Some(&c) = wrong.iter().find(|&&c| self.puzzle.get(c) != 0) {
                anyhow::bail!(
                    "the board on screen has {} at the given {} where the puzzle has {}: is this still the same level?",
                    seen.get(c),
                    crate::board::cell_name(c),
                    self.puzzle.get(c)
                );
            }
            if round == self.options.repair_rounds {
                anyhow::bail!(
                    "the board on screen still differs from the search in {} cells ({}) after {} repair rounds: \
                     are the taps landing (check the calibration)?",
                    wrong.len(),
                    wrong
                        .iter()
                        .take(5)
                        .map(|&c| crate::board::cell_name(c))
                        .collect::<Vec<_>>()
                        .join(", "),
                    self.options.repair_rounds
                );
            }
            // What is on screen is the truth now; the selection is unknown after lost taps.
            self.enc.reset();
            for &c in &wrong {
                self.expected.set(c, seen.get(c));
                self.write(WriteKind::Repair, c, want.get(c))?;
                self.report.repairs += 1;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::setnum::{Cancel, InputOrder};
    use crate::solver::{Options, Recorder, Strategy, search};

    /// A cell-first app in memory: a tap on a cell selects it, a keypad tap writes (or, with a
    /// toggle layout, clears a cell holding that digit), erase clears; every `drop_every`-th
    /// tap is lost.
    struct MemoryApp<'a> {
        layout: &'a Layout,
        board: Board,
        givens: Board,
        selected: Option<usize>,
        taps: u64,
        drop_every: u64,
        completed_hides_board: bool,
    }

    impl Target for MemoryApp<'_> {
        fn tap(&mut self, p: Point) -> anyhow::Result<()> {
            self.taps += 1;
            if self.drop_every > 0 && self.taps.is_multiple_of(self.drop_every) {
                return Ok(());
            }
            if let Some(c) = self.layout.cells.iter().position(|&q| q == p) {
                self.selected = Some(c);
            } else if let Some(c) = self.selected.filter(|&c| self.givens.get(c) == 0) {
                let toggles = self.layout.cancel == Cancel::Toggle;
                if let Some(d) = self.layout.keypad.iter().position(|&q| q == p) {
                    let d = d as u8 + 1;
                    let again = toggles && self.board.get(c) == d;
                    self.board.set(c, if again { 0 } else { d });
                } else if self.layout.cancel == Cancel::Erase(p) {
                    self.board.set(c, 0);
                }
            }
            Ok(())
        }
        fn sync(&mut self) -> anyhow::Result<()> {
            Ok(())
        }
        fn read(&mut self) -> anyhow::Result<Option<Board>> {
            let done = self.board.is_solved();
            Ok((!(done && self.completed_hides_board)).then_some(self.board))
        }
        fn back(&mut self) -> anyhow::Result<()> {
            Ok(())
        }
    }

    fn layout() -> Layout {
        crate::play::setnum::test_layout(InputOrder::CellFirst, false)
    }

    const LEET: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn run(
        drop_every: u64,
        hides: bool,
        options: ReplayOptions,
    ) -> (ReplayReport, MemoryApp<'static>) {
        run_on(layout(), drop_every, hides, options)
    }

    fn run_on(
        layout: Layout,
        drop_every: u64,
        hides: bool,
        options: ReplayOptions,
    ) -> (ReplayReport, MemoryApp<'static>) {
        let layout: &'static Layout = Box::leak(Box::new(layout));
        let puzzle = Board::parse(LEET).unwrap();
        let mut rec = Recorder::default();
        let r = search(Strategy::RowMajor, &puzzle, &Options::default(), &mut rec);
        let solution = r.solution().unwrap();
        let mut app = MemoryApp {
            layout,
            board: puzzle,
            givens: puzzle,
            selected: None,
            taps: 0,
            drop_every,
            completed_hides_board: hides,
        };
        let report = replay(
            &puzzle,
            &rec.0,
            &solution,
            layout,
            &mut app,
            &mut (),
            &options,
            &mut |_, _, _| {},
        )
        .unwrap();
        assert_eq!(app.board, solution);
        (report, app)
    }

    #[test]
    fn every_event_becomes_taps() {
        let (report, app) = run(0, true, ReplayOptions::default());
        assert_eq!(report.events_shown, 4208 + 4157);
        assert_eq!(report.repairs, 0);
        assert!(report.completion_seen);
        assert_eq!(report.taps, app.taps);
    }

    #[test]
    fn dropped_taps_are_repaired() {
        let opts = ReplayOptions {
            verify_taps: 500,
            ..ReplayOptions::default()
        };
        let (report, _) = run(97, false, opts);
        assert!(report.repairs > 0, "{report:?}");
        assert!(report.verifications > 2);
    }

    #[test]
    fn toggle_apps_are_erased_by_tapping_the_digit_again_and_repaired_too() {
        let toggle = crate::play::setnum::test_layout(InputOrder::CellFirst, true);
        let (report, app) = run_on(toggle.clone(), 0, true, ReplayOptions::default());
        assert_eq!(report.events_shown, 4208 + 4157);
        assert_eq!(report.taps, app.taps);
        let opts = ReplayOptions {
            verify_taps: 300,
            ..ReplayOptions::default()
        };
        let (report, _) = run_on(toggle, 89, false, opts);
        assert!(report.repairs > 0, "{report:?}");
    }

    #[test]
    fn hidden_steps_are_filled_directly() {
        let opts = ReplayOptions {
            max_visible_steps: Some(100),
            ..ReplayOptions::default()
        };
        let (report, _) = run(0, true, opts);
        assert_eq!(report.events_shown, 100);
        assert_eq!(report.events_hidden, 4208 + 4157 - 100);
    }

    #[test]
    fn resume_skips_what_is_on_screen() {
        let layout = layout();
        let puzzle = Board::parse(LEET).unwrap();
        let mut rec = Recorder::default();
        let solution = search(Strategy::Mrv, &puzzle, &Options::default(), &mut rec)
            .solution()
            .unwrap();
        let mut on_screen = puzzle;
        for ev in &rec.0[..20] {
            apply(&mut on_screen, *ev);
        }
        let mut app = MemoryApp {
            layout: &layout,
            board: on_screen,
            givens: puzzle,
            selected: None,
            taps: 0,
            drop_every: 0,
            completed_hides_board: false,
        };
        let opts = ReplayOptions {
            start_at: 20,
            ..ReplayOptions::default()
        };
        let report = replay(
            &puzzle,
            &rec.0,
            &solution,
            &layout,
            &mut app,
            &mut (),
            &opts,
            &mut |_, _, _| {},
        )
        .unwrap();
        assert_eq!(report.events_shown, rec.0.len() as u64 - 20);
        assert_eq!(app.board, solution);
    }
}
