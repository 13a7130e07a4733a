//! What a play tells its caller while it runs: notes on how the run is set up (said before the
//! performance starts, as they happen) and on what happened to it, then where the performance
//! stands. The library does not print: the command line shows these, and each note is also a
//! `tracing` event.

use crate::device::tap::ChannelKind;
use crate::play::Progress;
use crate::play::plan::Plan;
use crate::video::Recorded;
use std::path::PathBuf;

/// One update of a running play, for the caller's callback.
#[derive(Debug, Clone)]
pub enum Update {
    /// How the run is set up (before the performance).
    Note(Note),
    /// Where the performance stands.
    Progress(Progress),
}

/// A note on how a run is set up, or on what happened to it that the user should know (the
/// command line words it).
#[derive(Debug, Clone, PartialEq)]
pub enum Note {
    /// A calibration file in the search path that could not be read, so it was skipped.
    SkippedCalibration { error: String },
    /// The tap channel, and why that one.
    TapChannel { channel: ChannelKind, why: String },
    /// Several calibrations fit the screen: the one picked, and why.
    Calibration { path: PathBuf, why: String },
    /// What the performance will show, and how long it should take; resuming, of the steps
    /// left after the `done` already played.
    Plan {
        plan: Plan,
        level: Option<u32>,
        done: u64,
    },
    /// Recorded taps sent again go to the screen that is open: the session names no level, or
    /// its calibration (this path) cannot open one.
    LevelNotOpened { calibration: String },
    /// The link to the device dropped and came back while recorded taps were sent again, at
    /// tap `at_tap` (taps in flight may be lost).
    LinkRestored { serial: String, at_tap: usize },
    /// An interrupted session of the level is continued instead of a new play.
    Resuming { session_dir: PathBuf },
    /// The phone's video of the run, written.
    Video { path: PathBuf, video: Recorded },
    /// The run has no video, and why (the phone cannot record, or it could not be written).
    NoVideo { why: String },
}

/// Gives `note` to the caller as an [`Update`], and emits it as a `tracing` event.
pub(crate) fn tell(on: &mut dyn FnMut(&Update), note: Note) {
    note.trace();
    on(&Update::Note(note));
}

impl Note {
    /// Emits the note as a `tracing` event (info: the user is told it anyway).
    pub(crate) fn trace(&self) {
        match self {
            Note::SkippedCalibration { error } => {
                tracing::info!(%error, "calibration file skipped")
            }
            Note::TapChannel { channel, why } => tracing::info!(?channel, %why, "tap channel"),
            Note::Calibration { path, why } => {
                tracing::info!(path = %path.display(), %why, "calibration picked")
            }
            Note::Plan { plan, done, .. } => tracing::info!(
                steps = plan.steps,
                visible_steps = plan.visible_steps,
                taps = plan.taps,
                taps_per_sec = plan.rate,
                resumed_after = done,
                "plan"
            ),
            Note::LevelNotOpened { calibration } => {
                tracing::info!(%calibration, "the level is not opened")
            }
            Note::LinkRestored { serial, at_tap } => {
                tracing::info!(%serial, at_tap, "link restored while resending")
            }
            Note::Resuming { session_dir } => {
                tracing::info!(session = %session_dir.display(), "resuming")
            }
            Note::Video { path, video } => tracing::info!(
                path = %path.display(),
                frames = video.frames,
                secs = video.duration.as_secs_f64(),
                bytes = video.bytes,
                seams = video.seams.len(),
                "video"
            ),
            Note::NoVideo { why } => tracing::info!(%why, "no video"),
        }
    }
}
