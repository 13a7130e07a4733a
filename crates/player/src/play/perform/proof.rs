//! The early proof: a run's first digits are looked for on the screen before the run goes on
//! (after [`PROOF_WRITES`] writes, not after the thousands of taps of the first verification).
//! Taps that do not land at all (a phone that drops injected input without a word, a tap
//! channel into the wrong panel, a window over the app that takes them) then cost a few taps
//! and two repair rounds, not a level of repairs, and the stop says that nothing landed.
//! A tap channel's own checks (`device::tap`) come first; this is what only the screen shows.

use super::stall::{StallHint, Stalled};
use crate::board::{Board, CELLS};

/// Digits written before the first look that must show one of them.
pub(super) const PROOF_WRITES: u32 = 3;
/// Repair rounds after that look that may still show none (on a phone that loses one tap in
/// five, three writes and two rounds of their repairs all lost is about 1 run in 10,000).
const ROUNDS: u32 = 2;

/// Whether the run's taps are proven to land.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Proof {
    /// Not yet: digits written so far, and looks at the board that showed none of them.
    Pending {
        writes: u32,
        looks: u32,
    },
    Proven,
}

impl Proof {
    pub(super) fn new() -> Proof {
        Proof::Pending {
            writes: 0,
            looks: 0,
        }
    }

    /// A digit (not an erase) went out as taps.
    pub(super) fn wrote(&mut self, digit: u8) {
        if let Proof::Pending { writes, .. } = self
            && digit != 0
        {
            *writes += 1;
        }
    }

    /// The first digits are out and no look has shown them yet.
    pub(super) fn due(&self) -> bool {
        matches!(*self, Proof::Pending { writes, looks: 0 } if writes >= PROOF_WRITES)
    }

    /// At a look at the board (`wrong`: the cells that differ from what the search wants, on a
    /// level with `givens`): any digit the run wrote on the screen proves that taps land; none
    /// after [`ROUNDS`] repair rounds is a stall of its own ([`StallHint::NothingLands`]).
    /// `checkable`: the app's rules name no trap that hides digits (`stall::rules_checkable`).
    /// A look that found the phone interrupted (the screen off, the app away) counts for
    /// nothing: the taps after it were lost that way, which the stall names. In an app where
    /// one lost tap leaves a state that hides digits (pencil mode, a brush) the screen proves
    /// nothing either way: the stall's own rounds judge.
    pub(super) fn check(
        &mut self,
        givens: &Board,
        board: &Board,
        wrong: &[usize],
        interrupted: bool,
        checkable: bool,
    ) -> Option<Stalled> {
        let Proof::Pending { writes, looks } = *self else {
            return None;
        };
        if writes == 0 {
            return None;
        }
        // A digit where the level has none, right or wrong, was written by a tap that landed.
        let written = (0..CELLS).any(|c| givens.get(c) == 0 && board.get(c) != 0);
        if written || wrong.is_empty() {
            tracing::debug!(writes, looks, "the first taps are seen on the screen");
            *self = Proof::Proven;
            return None;
        }
        // An app whose state after a lost tap hides digits as they are written (pencil mode
        // turned on by a re-tap, a brush armed) explains the same screen: the stall names it.
        if !checkable {
            *self = Proof::Proven;
            return None;
        }
        if interrupted {
            return None;
        }
        if looks >= ROUNDS {
            return Some(Stalled {
                cells: wrong.to_vec(),
                rounds: looks,
                hint: StallHint::NothingLands,
            });
        }
        tracing::debug!(
            writes,
            looks,
            cells = wrong.len(),
            "none of the first digits on the screen yet"
        );
        *self = Proof::Pending {
            writes,
            looks: looks + 1,
        };
        None
    }
}
