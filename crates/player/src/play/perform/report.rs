//! What a performance did ([`PerformReport`], with [`PerformError`] where it did not end with
//! a solved board), how it ended, and where it stands for a progress display ([`Progress`]).

use crate::board::Board;
use std::time::Duration;

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
    /// What happened to the phone meanwhile.
    pub incidents: IncidentCounts,
    /// How the performance ended.
    pub end: Ending,
    pub elapsed: Duration,
}

/// Links lost and restored, and interruptions dealt with (screen off, app in the background,
/// the level reopened).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IncidentCounts {
    pub reconnects: u64,
    pub interruptions: u64,
}

/// How a performance ended.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ending {
    /// How the solved board was recognised; `None` unless the performance succeeded.
    pub completion: Option<Completion>,
    /// The words of the app's end screen (its completion or its game over), quoted.
    pub words: Option<String>,
    /// A puzzle with several solutions whose app marked digits of the search's solution
    /// wrong: what it marked, and the solution written last.
    pub rewritten: Option<Box<Rewritten>>,
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
