//! Why a run stops short of a solved board, as typed errors (each with the word `runs.csv`
//! records, and what the person can do as [`Remedy`]s; the command line gives each its exit
//! code), and the flag that Ctrl-C / SIGTERM raise.

use crate::remedy::Remedy;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Duration;

/// A run that stopped for a reason the user can act on.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Stop {
    /// `several`: the puzzle has more than one solution (the app may count the digits of
    /// another than the one it stored as mistakes).
    #[error("the app ended the game ({what}): {}", game_over_cause(*mistakes, *several))]
    GameOver {
        mistakes: u64,
        what: String,
        several: bool,
    },
    #[error(
        "lost the connection to {serial} while {during} and it did not come back within {:.0} s: \
         {why}",
        waited.as_secs_f64()
    )]
    DeviceLost {
        serial: String,
        during: String,
        waited: Duration,
        why: String,
    },
    #[error("stopped by {signal}")]
    Interrupted { signal: &'static str },
    #[error(
        "the phone is locked with a PIN, pattern or password: unlock it and set its screen timeout \
         longer (or keep it charging with \"Stay awake\" in the developer options)"
    )]
    Locked,
    #[error(
        "{what} is on the screen instead of the Sudoku board, and BACK did not bring the board back"
    )]
    UnknownScreen { what: String },
    /// The puzzle has several solutions, the board shows one of them, and the app did not show
    /// that it takes it as solved (`why`: what it showed, and what could not be done).
    #[error(
        "the board on screen is full and keeps the rules (the puzzle has more than one solution), \
         but the app did not take it as solved: {why}"
    )]
    NotAccepted { why: String },
}

/// Why the app counted mistakes, and what to do on the phone: the search's wrong digits, or
/// (none written) taps that went astray. What to do through the command line is
/// [`Stop::remedies`].
fn game_over_cause(mistakes: u64, several: bool) -> String {
    const LIMIT: &str =
        "Turn off the app's mistake limit (often \"Mistakes limit\" in its settings)";
    if several && mistakes == 0 {
        format!(
            "the puzzle has more than one solution, and apps that check the entries against the \
             one they stored count the digits of another as mistakes. {LIMIT}"
        )
    } else if mistakes == 0 {
        format!(
            "the search wrote no wrong digit, so the app's mistakes are taps that went astray (a \
             tap on a cell that is lost sends the next digit into the cell selected before). \
             {LIMIT}, and check that the taps land"
        )
    } else {
        format!(
            "apps end it after a few wrong digits, and the visible search writes wrong digits by \
             design ({mistakes} sent before the game over was seen). {LIMIT}"
        )
    }
}

impl Stop {
    /// What the person can do through the command line: for a game over, the search that
    /// writes only right digits (or, where none was written, a log of every repair); for a lost
    /// phone, a longer wait.
    pub fn remedies(&self) -> Vec<Remedy> {
        match self {
            Stop::GameOver {
                mistakes: 0,
                several: true,
                ..
            } => Vec::new(),
            Stop::GameOver { mistakes: 0, .. } => vec![Remedy::Verbose],
            Stop::GameOver { .. } => vec![Remedy::RightDigitsOnly],
            Stop::DeviceLost { .. } => vec![Remedy::LongerReconnect],
            Stop::Interrupted { .. }
            | Stop::Locked
            | Stop::UnknownScreen { .. }
            | Stop::NotAccepted { .. } => Vec::new(),
        }
    }

    /// The `result` column of `runs.csv` and the journal's end.
    pub fn result(&self) -> &'static str {
        match self {
            Stop::GameOver { .. } => "game-over",
            Stop::DeviceLost { .. } | Stop::Interrupted { .. } => "interrupted",
            Stop::Locked | Stop::UnknownScreen { .. } | Stop::NotAccepted { .. } => "failed",
        }
    }
}

/// The typed stop in an error's chain (or in a [`RunFailed`]'s error), if any.
pub fn stop_of(e: &anyhow::Error) -> Option<&Stop> {
    match e.downcast_ref::<RunFailed>() {
        Some(f) => stop_of(&f.error),
        None => e.chain().find_map(|c| c.downcast_ref::<Stop>()),
    }
}

/// A run that ended without a solved board after its session was recorded.
#[derive(Debug, thiserror::Error)]
#[error("{error:#}")]
pub struct RunFailed {
    pub session_dir: PathBuf,
    /// The calibration file the run played with: where the taps did not do what it says (the
    /// app's rules changed since, or another app is in front), the reason names it.
    pub calibration: PathBuf,
    pub error: anyhow::Error,
}

/// Raised (from another thread) by Ctrl-C or SIGTERM: the run finishes the batch of taps it is
/// sending, records its end and stops.
#[derive(Debug, Clone, Default)]
pub struct StopFlag(Arc<AtomicI32>);

impl StopFlag {
    /// Records that `signal` (2: SIGINT, 15: SIGTERM) arrived.
    pub fn raise(&self, signal: i32) {
        self.0.store(signal, Ordering::SeqCst);
    }

    /// The stop to report if a signal arrived.
    pub fn check(&self) -> Result<(), Stop> {
        match self.0.load(Ordering::SeqCst) {
            0 => Ok(()),
            15 => Err(Stop::Interrupted { signal: "SIGTERM" }),
            _ => Err(Stop::Interrupted { signal: "Ctrl-C" }),
        }
    }
}

/// The link to the phone was lost and restored: what the screen shows is unknown until it is
/// looked at again, so no tap may follow before that.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "the connection to the phone was lost and restored; the screen must be checked before the next tap"
)]
pub struct Restored;

/// Whether `e` is [`Restored`].
pub fn is_restored(e: &anyhow::Error) -> bool {
    e.downcast_ref::<Restored>().is_some()
}

/// BACK could not be pressed: the target refuses it, and nothing on its screen does what it
/// does. Marks the target's own reason (the error it gives context to), which says what to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("BACK could not be pressed")]
pub struct BackRefused;

/// Whether `e` is marked [`BackRefused`].
pub fn is_back_refused(e: &anyhow::Error) -> bool {
    e.downcast_ref::<BackRefused>().is_some()
}

#[cfg(test)]
mod game_over_tests {
    use super::{Remedy, Stop};

    #[test]
    fn a_game_over_without_wrong_digits_blames_the_taps_not_the_search() {
        let stop = |mistakes| {
            Stop::GameOver {
                mistakes,
                what: "\"Game over\"".into(),
                several: false,
            }
            .to_string()
        };
        let astray = stop(0);
        assert!(astray.contains("taps that went astray"), "{astray}");
        let wrong = stop(7);
        assert!(
            wrong.contains("(7 sent before the game over was seen)"),
            "{wrong}"
        );
        // The search that writes only right digits is offered only where the search wrote
        // wrong ones (the command line's words: `cli::words`' test).
        let remedies = |mistakes| {
            Stop::GameOver {
                mistakes,
                what: String::new(),
                several: false,
            }
            .remedies()
        };
        assert!(!remedies(0).contains(&Remedy::RightDigitsOnly));
        assert_eq!(remedies(7), [Remedy::RightDigitsOnly]);
    }
}
