//! sudoku-autoplay: plays Sudoku on an Android phone over ADB, and performs every placement and
//! undo of a backtracking search as real taps, so the search itself shows on the screen.
//!
//! The crate follows the data's path from the phone and back to it:
//!
//! 1. [`device`]: the phone over ADB. [`device::Server`] speaks to the adb server,
//!    [`device::Device`] runs a device's services (shell, exec, screenshots), every Android
//!    command the player runs is one typed call of [`device::android`], and [`device::tap`] is
//!    the tap path: the channel a phone allows ([`device::tap::choose`]) and the
//!    [`device::tap::Tapper`] that sends taps on it (`raw` touch records, `sendevent` or `input
//!    tap` lines, the injector's records, pipelined, and proven carried out).
//! 2. [`capture`]: the bytes of a screenshot (PNG, JPEG, raw `screencap`) become an image.
//! 3. [`vision`]: the board is found and its digits read ([`vision::read_board`] gives a
//!    [`vision::Reading`]: the board, where each cell is, givens vs entries, and doubts);
//!    [`calibration`] stores where an app on a device draws its board and keys, found from a
//!    frame ([`calibration::Calibration`], a versioned TOML file); how it takes taps is found
//!    by [`probe`], which taps the open level through the same seam as [`play`].
//! 4. [`board`] and [`solver`]: the 9x9 [`board::Board`] and the searches
//!    ([`solver::search`] with a [`solver::Strategy`]) that report every placement and undo to
//!    an [`solver::Observer`].
//! 5. [`play`]: search events become taps on the keypad ([`play::setnum`]), performed with
//!    verification and repairs on the [`play::Target`] seam; [`phone`] is that target over ADB,
//!    recovering from lost links and from what real phones do mid-run.
//! 6. [`session`]: what a run did, recorded ([`session::Session`]: a journal, frames; and
//!    `runs.csv`), and drawn offline ([`session::anim`]). Above it, [`recheck`] checks a
//!    recorded session again without a device ([`recheck::check_session`]: today's OCR and
//!    search against what was recorded).
//! 7. [`level`], above them all: one whole level on a device ([`level::play`],
//!    [`level::resume`]) finds the calibration, reads and searches the board, performs it
//!    through [`play`] and records it through [`session`]; [`level::calibrate`] calibrates an
//!    app on a phone.
//!
//! [`video`] records the phone's own screen for a run (`screenrecord`, chained past its limit)
//! into the session, with the search's counts as captions.
//!
//! [`doctor`] asks a phone, changing nothing, what the steps above will meet there (screen, ABI,
//! touch panel, screen state, tap channels, screencap, uiautomator), for people and bug reports.
//!
//! [`adb_packet`] is the ADB transport's wire format, which the player's direct route and the
//! simulated phone share, [`text`] writes numbers and terminal frames for people, and
//! [`remedy`] names what a person can do about a failure as data (the binary words it).
//!
//! This crate is one of the workspace's crates, and the compiler keeps their boundaries: the
//! simulated phone is the crate `autoplay_sim` (`crates/sim`), built on this crate's public API
//! only; the `autoplay` binary at the workspace's top (`src/main.rs`, `src/cli/`) is the only
//! crate that knows both. This library knows neither: it takes values and returns values,
//! never prints (a run's notes reach the caller as [`level::Update`]s), reads no environment
//! variable, names none of the command line's flags (it returns reasons as data), and emits
//! `tracing` events that the binary shows with `-v`. ARCHITECTURE.md's "Layers" says which
//! module may use which.

pub mod adb_packet;
pub mod board;
pub mod calibration;
pub mod capture;
pub mod device;
pub mod doctor;
pub(crate) mod draw;
pub mod level;
pub mod phone;
pub mod play;
pub mod probe;
pub mod recheck;
pub mod remedy;
pub mod session;
pub mod solver;
pub mod text;
pub mod video;
pub mod vision;

#[cfg(test)]
mod real_outputs;
