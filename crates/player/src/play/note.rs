//! What a play tells its caller while it runs: notes on how the run is set up (said before the
//! performance starts, as they happen), then where the performance stands. The library does not print:
//! the command line shows these, and each note is also a `tracing` event.

use super::perform::Progress;
use super::plan::Plan;
use crate::device::input::InputBackend;
use std::fmt;
use std::path::PathBuf;

/// One update of a running play, for the caller's callback.
#[derive(Debug, Clone)]
pub enum Update {
    /// How the run is set up (before the performance).
    Note(Note),
    /// Where the performance stands.
    Progress(Progress),
}

/// A note on how a run is set up. `Display` is the line the command line prints.
#[derive(Debug, Clone, PartialEq)]
pub enum Note {
    /// A calibration file in the search path that could not be read, so it was skipped.
    SkippedCalibration { error: String },
    /// The tap channel, and why that one.
    TapChannel { mode: InputBackend, why: String },
    /// Several calibrations fit the screen: the one picked, and why.
    Calibration { path: PathBuf, why: String },
    /// What the performance will show, and how long it should take.
    Plan { plan: Plan, level: Option<u32> },
}

impl Note {
    /// Emits the note as a `tracing` event (info: the user is told it anyway).
    pub(crate) fn trace(&self) {
        match self {
            Note::SkippedCalibration { error } => {
                tracing::info!(%error, "calibration file skipped")
            }
            Note::TapChannel { mode, why } => tracing::info!(?mode, %why, "tap channel"),
            Note::Calibration { path, why } => {
                tracing::info!(path = %path.display(), %why, "calibration picked")
            }
            Note::Plan { plan, .. } => tracing::info!(
                steps = plan.steps,
                visible_steps = plan.visible_steps,
                taps = plan.taps,
                taps_per_sec = plan.rate,
                "plan"
            ),
        }
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::SkippedCalibration { error } => write!(f, "warning: skipped {error}"),
            Note::TapChannel { why, .. } => write!(f, "tap channel: {why}"),
            Note::Calibration { why, .. } => write!(f, "calibration: {why}"),
            Note::Plan { plan, level } => write!(f, "plan: {}", plan.describe(*level)),
        }
    }
}
