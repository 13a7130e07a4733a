//! The exit codes of `autoplay` (docs/reliability.md; the README's "Troubleshooting"), and the
//! one a run that stopped gets.

use sudoku_autoplay::play::stop::{Stop, stop_of};

/// Solved and verified on the screen.
pub const SOLVED: i32 = 0;
/// Any other failure (bad input, a screen that could not be dealt with, ...).
pub const FAILED: i32 = 1;
/// The app ended the game (its mistake limit).
pub const GAME_OVER: i32 = 3;
/// The phone did not come back within `--reconnect-timeout`: resume later.
pub const DEVICE_LOST: i32 = 4;
/// Stopped by Ctrl-C (128 + SIGINT) or SIGTERM (128 + 15): resume later.
pub const SIGINT: i32 = 130;
pub const SIGTERM: i32 = 143;

/// The exit code of a run that stopped for `stop`.
pub fn of_stop(stop: &Stop) -> i32 {
    match stop {
        Stop::GameOver { .. } => GAME_OVER,
        Stop::DeviceLost { .. } => DEVICE_LOST,
        Stop::Interrupted { signal } if *signal == "SIGTERM" => SIGTERM,
        Stop::Interrupted { .. } => SIGINT,
        Stop::Locked | Stop::UnknownScreen { .. } | Stop::NotAccepted { .. } => FAILED,
    }
}

/// The exit code of a run that failed with `e`: its stop's, else [`FAILED`].
pub fn of_error(e: &anyhow::Error) -> i32 {
    stop_of(e).map_or(FAILED, of_stop)
}
