//! Performs a recorded search on the phone: every event as taps, with verification.
//!
//! The search runs on the host first (its events recorded), then each event is performed in
//! order. Every `verify_taps` taps or `verify_interval`, the board on screen is read back and
//! compared with what the search has placed so far; differences (dropped taps, a mis-tap) are
//! repaired and counted, round after round while the rounds make progress. Between
//! verifications a glance every `glance_interval` checks that the board is still there (a
//! game-over screen, a dark screen or another app are noticed within seconds). With
//! `max_visible_steps`, only the first N events are shown and the final digits are then filled
//! directly; with a `budget`, the steps stop being shown too once the rest would end past it at
//! the rate the phone has gone so far (`deadline.rs`).
//!
//! The run succeeds only when the solved board is read back from the screen, or the app's
//! completion screen is recognised positively ([`Seen::Completed`]); the write that completes the
//! board comes right after a verification, so a completion screen cannot hide a wrong digit.
//! A puzzle with several solutions is solved only when the app shows that it takes the board
//! as solved (`several.rs`): the board read back is one solution, maybe not the app's.
//! Anything else that covers the board gets one BACK (a popup), then, if the app may have
//! restarted, the level is opened again and its digits re-entered; otherwise the run stops and
//! names what it saw.

mod deadline;
mod engine;
mod judge;
mod looks;
mod proof;
mod several;
mod stall;
mod verify;

pub use stall::{StallHint, Stalled};

use super::setnum::{Encoder, Layout};
use super::stop::StopFlag;
use super::target::{Incident, Point, Target};
use crate::board::Board;
use crate::solver::Event;
use engine::Performance;
use std::time::Duration;

/// Where performed events are recorded (the session journal).
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
    /// A reconnect or an interruption.
    fn incident(&mut self, _incident: &Incident) -> anyhow::Result<()> {
        Ok(())
    }
    /// The steps shown end before index `end` (the budget's deadline cut them short): the
    /// rest of the solution is filled in directly.
    fn shown_until(&mut self, _end: usize) -> anyhow::Result<()> {
        Ok(())
    }
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

/// Settings of a performance.
#[derive(Debug, Clone)]
pub struct PerformOptions {
    /// Verify after this many taps (0: only at the end).
    pub verify_taps: u64,
    /// ... or after this much time.
    pub verify_interval: Duration,
    /// Check that the board is still there this often (or less often where a screenshot takes
    /// more than an eighth of this; zero: before every step).
    pub glance_interval: Duration,
    /// Show only the first N events, then fill the solution directly.
    pub max_visible_steps: Option<u64>,
    /// The time the performance may take from its start: the steps stop being shown (the rest
    /// of the solution filled in directly) once filling in and the last looks would end past
    /// it at the rate the taps have gone so far (`None`: no limit).
    pub budget: Option<Duration>,
    /// Resume: the events before this index are already on the screen.
    pub start_at: usize,
    /// Look at the screen before the first tap (when resuming).
    pub check_first: bool,
    /// Repair rounds in a row that may leave as many wrong cells as before, before giving up,
    /// on a phone that loses no tap (more where the run has seen taps lost: `stall.rs`).
    pub stalled_rounds: u32,
    /// Raised by Ctrl-C: send the batch of taps under way, then stop.
    pub stop: StopFlag,
}

impl Default for PerformOptions {
    fn default() -> Self {
        PerformOptions {
            verify_taps: 2000,
            verify_interval: Duration::from_secs(30),
            glance_interval: Duration::from_secs(2),
            max_visible_steps: None,
            budget: None,
            start_at: 0,
            check_first: false,
            stalled_rounds: 5,
            stop: StopFlag::default(),
        }
    }
}

/// How the end was recognised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Completion {
    /// The board read back from the screen is the solution.
    ReadBack,
    /// The app's completion screen replaced the board right after the completing write.
    Screen,
}

/// What a performance did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PerformReport {
    /// Events shown as taps (this run).
    pub events_shown: u64,
    /// Events computed on the host but not shown (`max_visible_steps`, the budget).
    pub events_hidden: u64,
    /// The budget's deadline stopped the steps shown short of those planned: the phone was
    /// slower than measured.
    pub deadline_cut: Option<DeadlineCut>,
    pub taps: u64,
    /// Repair writes: cells found wrong on screen and written again (an erase before a write
    /// counts as one too), as the journal counts them.
    pub repairs: u64,
    pub verifications: u64,
    /// Digits written that differ from the solution (what apps count as mistakes).
    pub wrong_digits: u64,
    /// Links lost and restored, and interruptions dealt with (screen off, app in the
    /// background, the level reopened).
    pub reconnects: u64,
    pub interruptions: u64,
    /// How the solved board was recognised; `None` unless the performance succeeded.
    pub completion: Option<Completion>,
    /// The words of the app's end screen (its completion or its game over), quoted.
    pub end_words: Option<String>,
    /// A puzzle with several solutions whose app marked digits of the search's solution
    /// wrong: what it marked, and the solution written last.
    pub rewritten: Option<Box<Rewritten>>,
    pub elapsed: Duration,
}

/// Steps the budget's deadline kept from being shown (the run went slower than the plan's
/// rate).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DeadlineCut {
    /// The steps before this index were shown (counted from the search's first).
    pub shown: u64,
    /// The steps before this index were to be shown.
    pub planned: u64,
    pub budget: Duration,
    /// The taps per second until then, the time spent looking at the screen aside.
    pub rate: f64,
    /// The time spent looking at the screen until then.
    pub looking: Duration,
}

/// Digits of a solution that the app marked wrong (a puzzle with several solutions), and the
/// solution written instead.
#[derive(Debug, Clone, PartialEq)]
pub struct Rewritten {
    /// The digits of the solutions written that the app marked wrong (`(cell, digit)`, in the
    /// order seen), each taken as "not this digit here" for the next solution written.
    pub marked: Vec<(usize, u8)>,
    /// The solution written last.
    pub solution: Board,
}

/// A performance that did not end with a solved board: what it did until then, and why.
#[derive(Debug, thiserror::Error)]
#[error("{error:#}")]
pub struct PerformError {
    pub report: Box<PerformReport>,
    pub error: anyhow::Error,
}

/// Where a performance stands, for progress displays.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Progress {
    pub done: u64,
    pub total: u64,
    pub taps: u64,
    pub repairs: u64,
    pub reconnects: u64,
    pub interruptions: u64,
}

/// Progress callback.
pub type ProgressFn<'a> = dyn FnMut(&Progress) + 'a;

/// A search to perform: the level's givens, its events in order, and the solution they end in.
#[derive(Debug, Clone, Copy)]
pub struct Search<'a> {
    pub givens: Board,
    pub events: &'a [Event],
    pub solution: Board,
}

/// Performs `search`'s events on the target as taps (see the module docs).
pub(crate) fn perform(
    search: &Search<'_>,
    layout: &Layout,
    target: &mut dyn Target,
    journal: &mut dyn Journal,
    options: &PerformOptions,
    progress: &mut ProgressFn<'_>,
) -> Result<PerformReport, PerformError> {
    let &Search {
        givens,
        events,
        solution,
    } = search;
    let start = target.now();
    let several = crate::solver::fast::count_solutions(&givens, 2) > 1;
    let fill_taps = super::plan::fill_taps_per_cell(layout);
    let deadline = options
        .budget
        .map(|b| deadline::Deadline::new(start, b, fill_taps, several));
    let mut r = Performance {
        enc: Encoder::for_givens(layout, &givens),
        target,
        journal,
        options,
        expected: givens,
        givens,
        solution,
        several,
        report: PerformReport::default(),
        taps: Vec::with_capacity(4),
        looks: looks::Looks::new(start, options.glance_interval),
        done: 0,
        total: events.len() as u64,
        keys_unknown: layout.rules.finished_keys == crate::calibration::FinishedKeys::Unknown,
        keys_asked_at: None,
        wrong_since_look: 0,
        incidents_at_look: 0,
        loss: stall::Loss::default(),
        proof: proof::Proof::new(),
        deadline,
    };
    let result = r.run(events, progress);
    // What happened last (a reconnect before the device was given up) is journaled too.
    let noted = r.note_incidents();
    r.report.elapsed = r.target.now().saturating_duration_since(start);
    match result.and(noted) {
        Ok(()) => Ok(r.report),
        Err(error) => {
            r.report.completion = None;
            Err(PerformError {
                report: Box::new(r.report),
                error,
            })
        }
    }
}

/// One search event on `board`: a placement writes its digit, an undo empties its cell.
pub(crate) fn apply(board: &mut Board, ev: Event) {
    match ev {
        Event::Place { cell, digit } => board.set(cell as usize, digit),
        Event::Undo { cell, .. } => board.set(cell as usize, 0),
    }
}

#[cfg(test)]
mod tests;
