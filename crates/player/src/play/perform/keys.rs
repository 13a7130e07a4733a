//! Whether the keys after a finished digit move up one place, where the calibration does not
//! say: looked for on the screen the first time a digit is finished there (`send.rs`), and
//! asked again only after the next verification where the screen did not tell.

use crate::calibration::FinishedKeys;
use crate::play::setnum::Layout;

/// What is known of the keypad after a finished digit.
pub(super) struct Keys {
    /// Whether keys move when a digit is finished is still to be seen on the screen.
    unknown: bool,
    /// The verification count when the keypad was last looked at without an answer (the
    /// screen did not show the digit finished): once more only after the next verification.
    asked_at: Option<u64>,
}

impl Keys {
    pub(super) fn new(layout: &Layout) -> Keys {
        Keys {
            unknown: layout.rules.finished_keys == FinishedKeys::Unknown,
            asked_at: None,
        }
    }

    /// Whether to look at the keypad now, after `verifications` verifications.
    pub(super) fn to_ask(&self, verifications: u64) -> bool {
        self.unknown && self.asked_at != Some(verifications)
    }

    /// The screen told whether the keys move.
    pub(super) fn learned(&mut self) {
        self.unknown = false;
    }

    /// The screen did not tell, after `verifications` verifications.
    pub(super) fn unanswered(&mut self, verifications: u64) {
        self.asked_at = Some(verifications);
    }
}
