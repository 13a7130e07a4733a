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
mod fill;
mod journal;
mod judge;
mod keys;
mod looks;
mod options;
mod proof;
mod puzzle;
mod report;
mod rounds;
mod screen;
mod search;
mod send;
mod several;
mod stall;
mod state;
mod verify;

pub use journal::{Journal, WriteKind};
pub use options::PerformOptions;
pub use report::{
    Completion, DeadlineCut, Ending, IncidentCounts, PerformError, PerformReport, Progress,
    ProgressFn, Rewritten,
};
pub use search::Search;
pub(crate) use search::apply;
pub use stall::{StallHint, Stalled};

use super::setnum::Layout;
use super::target::Target;
use state::Performance;

/// Performs `search`'s events on the target as taps (see the module docs).
pub(crate) fn perform(
    search: &Search<'_>,
    layout: &Layout,
    target: &mut dyn Target,
    journal: &mut dyn Journal,
    options: &PerformOptions,
    progress: &mut ProgressFn<'_>,
) -> Result<PerformReport, PerformError> {
    let mut p = Performance::new(search, layout, target, journal, options);
    let result = engine::run(&mut p, search.events, progress);
    // What happened last (a reconnect before the device was given up) is journaled too.
    let noted = p.note_incidents();
    p.report.elapsed = p.since(p.timing.start);
    match result.and(noted) {
        Ok(()) => Ok(p.report),
        Err(error) => {
            p.report.end.completion = None;
            Err(PerformError {
                report: Box::new(p.report),
                error,
            })
        }
    }
}

#[cfg(test)]
mod tests;
