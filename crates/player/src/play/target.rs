//! The seam between the performance and the phone: what a performance taps and looks at
//! ([`Target`]), what it sees ([`Seen`]), and what happened to the phone meanwhile
//! ([`Incident`]). `crate::phone` implements it over ADB; the tests, and the calibration's
//! probe's tests, implement it in memory.

/// A display pixel (x, y), as the phone is held now: where a tap lands.
pub type Point = (u32, u32);

use crate::board::Board;
use std::time::{Duration, Instant};

/// What the screen shows, as a performance needs to know it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seen {
    /// The board where the calibration says, read.
    Board(Board),
    /// The app's completion screen, recognised positively by its words; `what` quotes it.
    Completed { what: String },
    /// The app ended the game (a game-over screen); `what` quotes it.
    GameOver { what: String },
    /// Anything else: a dialog over the board, another screen; `what` names it. `in_app`: a
    /// screen of the app itself (not another app's, nor another puzzle), whose words are not
    /// known: a popup, or an end screen in words we do not know, which [`perform`] tells apart
    /// by what changed right before it.
    Other { what: String, in_app: bool },
}

/// The phone, as a performance sees it. Any method may fail with [`super::stop::Restored`]: the
/// link was lost and restored, so the screen must be looked at before the next tap.
pub trait Target {
    /// Queues a tap.
    fn tap(&mut self, p: Point) -> anyhow::Result<()>;
    /// Returns once every queued tap has been carried out.
    fn sync(&mut self) -> anyhow::Result<()>;
    /// Looks at the screen (call [`Target::sync`] first), after dealing with what the phone
    /// can deal with on its own (a dark screen, a plain lock screen, the app in the background).
    fn look(&mut self) -> anyhow::Result<Seen>;
    /// A quick look while taps may still be in flight: whether the board is still there.
    fn glance(&mut self) -> anyhow::Result<bool> {
        Ok(matches!(self.look()?, Seen::Board(_)))
    }
    /// Presses BACK (to dismiss a popup).
    fn back(&mut self) -> anyhow::Result<()>;
    /// Opens the level again from scratch if the app may have restarted (after a reconnect, or
    /// when resuming); `Ok(false)` if it cannot or should not.
    fn reopen(&mut self) -> anyhow::Result<bool> {
        Ok(false)
    }
    /// Reconnects and interruptions dealt with since the last call (the performance journals them).
    fn incidents(&mut self) -> Vec<Incident> {
        Vec::new()
    }
    /// The words on the screen that were not on the game screen when the run began (quoted),
    /// where there are any: the app showing something new over or under a board that stays.
    fn new_words(&mut self) -> anyhow::Result<Option<String>> {
        Ok(None)
    }
    /// The cells whose digits the app marks wrong (drawn in its error ink) on the screen last
    /// looked at; none where the screen shows no such mark.
    fn marked_wrong(&mut self) -> anyhow::Result<Vec<usize>> {
        Ok(Vec::new())
    }
    /// Digit `d` has just been finished (nine on the board; call [`Target::sync`] first): whether
    /// the keys after its moved up one place, as the keypad shows now. `None` when the screen
    /// does not tell (the board does not show `d` finished).
    fn keys_moved(&mut self, _d: u8) -> anyhow::Result<Option<bool>> {
        Ok(None)
    }
    /// The time now, on the target's clock: the phone's is the host's; a test's may be one it
    /// moves itself (taps and looks that take time), so that what a performance does by the
    /// clock (its looks, the budget's deadline, its waits) is tested without waiting.
    fn now(&self) -> Instant;
    /// Lets `d` pass on the clock of [`Target::now`] (the phone draws, a late clear falls
    /// due): the phone's sleeps; a test's moves its clock.
    fn pause(&mut self, d: Duration);
}

/// Something that happened to the phone during a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Incident {
    pub kind: IncidentKind,
    /// What happened, for the journal.
    pub what: String,
}

/// Kinds of [`Incident`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IncidentKind {
    /// The link to the phone was lost and restored.
    Reconnect,
    /// The phone or the app was taken away from the game and brought back (screen off, app in
    /// the background, level reopened).
    Interruption,
}
