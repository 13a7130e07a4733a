//! What the host knows of the screen: the board it believes shown (the taps sent so far
//! applied), the keypad (`keys.rs`), and what happened since the board was last seen there:
//! wrong digits written (a screen that replaces the board right after one is the app's game
//! over) and the incidents counted then (a screen after one tells nothing about the taps
//! before it).

use super::keys::Keys;
use crate::board::Board;

/// The screen as the host believes it.
pub(super) struct Screen {
    /// What the host believes the screen shows.
    pub(super) expected: Board,
    /// Wrong digits written since the board was last seen: a screen that replaces the board
    /// right after one is the app's game over.
    pub(super) wrong_since_look: u64,
    /// Reconnects and interruptions when the board was last seen: a screen that follows one
    /// (the app restarted, brought back) tells nothing about the taps before it.
    pub(super) incidents_at_look: u64,
    /// Whether keys move when a digit is finished.
    pub(super) keys: Keys,
}

impl Screen {
    /// The level's `givens` on the screen, nothing seen yet.
    pub(super) fn new(givens: Board, keys: Keys) -> Screen {
        Screen {
            expected: givens,
            wrong_since_look: 0,
            incidents_at_look: 0,
            keys,
        }
    }

    /// The board was seen, `incidents` counted by then: returns the wrong digits written
    /// since it was seen before.
    pub(super) fn seen(&mut self, incidents: u64) -> u64 {
        self.incidents_at_look = incidents;
        std::mem::take(&mut self.wrong_since_look)
    }
}
