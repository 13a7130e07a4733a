//! The advice for a stall: repairs that leave as many wrong cells round after round end the run
//! with [`Stalled`], whose [`StallHint`] says what is likely wrong on the phone. The hint is
//! data; the command line words what to run about it.

use super::engine::Performance;
use super::verify::{Rounds, hardly_shown};
use crate::board::{Board, cell_name};
use crate::calibration::{InputMode, Retap};
use std::fmt;

/// The repairs made no progress: the board on the screen still differs from the search.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the board on screen still differs from the search in {} cells ({}) after {} without \
     progress: {hint}",
    cells.len(),
    cells.iter().take(5).map(|&c| cell_name(c)).collect::<Vec<_>>().join(", "),
    crate::text::count(u64::from(*rounds), "repair round")
)]
pub struct Stalled {
    /// The cells that differ.
    pub cells: Vec<usize>,
    /// The rounds without progress.
    pub rounds: u32,
    pub hint: StallHint,
}

/// What is likely wrong when repairs make no progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StallHint {
    /// Every round's look found the phone interrupted (the screen off, the app away): the
    /// taps after it were lost the same way.
    Interrupted,
    /// The app's pencil mode may be on: a lost tap re-tapped the selected cell, which toggles
    /// it in this app.
    PencilMode,
    /// The app may hold a brush: a digit tapped while no cell was selected (after a lost tap)
    /// arms one in this app, and cell taps then write it.
    Brush,
    /// The cells that differ should be empty: erasing does not clear them.
    EraseFails,
    /// Nothing else explains it: the taps may not land where they should.
    TapsAstray,
    /// The digits written before the first look, then a repair round's, did not show where
    /// they were written (fewer than a quarter of them each time, and no progress): the
    /// app does not take taps the way the calibration says (its rules changed since, or it
    /// is another app), or the taps do not land where they should.
    RulesContradicted,
}

/// At least this many digits written in a round before [`StallHint::RulesContradicted`] is
/// concluded from it.
const CONTRADICTED_AFTER: usize = 3;

impl fmt::Display for StallHint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StallHint::Interrupted => {
                "the phone was interrupted again before every round's taps (the screen turned off, \
                 or the app left), so they were lost: set a longer screen timeout (or \"Stay \
                 awake\" in the developer options) and keep other apps from taking the screen"
            }
            StallHint::PencilMode => {
                "the app's pencil mode may be on (a lost tap re-tapped the selected cell, which \
                 toggles it): switch it off on the phone"
            }
            StallHint::Brush => {
                "the app may hold a brush (a digit tapped while no cell was selected, after a lost \
                 tap: cell taps then write it): tap that digit's key again on the phone to drop it"
            }
            StallHint::EraseFails => {
                "those cells should be empty, but erasing does not clear them: check the \
                 calibration's erase key"
            }
            StallHint::TapsAstray => {
                "are the taps landing where they should? Check the calibration, and the touch \
                 panel and tap channel"
            }
            StallHint::RulesContradicted => {
                "the digits the last repairs wrote did not show where they were written: the \
                 app does not take taps the way the calibration says (its input rules or keys), \
                 or the taps do not land where they should"
            }
        })
    }
}

impl Performance<'_, '_> {
    /// The stall of a verification towards `want` whose round left `wrong` cells.
    pub(super) fn stalled(&self, want: &Board, wrong: &[usize], rounds: &Rounds) -> Stalled {
        let rules = &self.enc.layout().rules;
        // Only digits that should be gone: erasing is what fails.
        let hint = if rounds.stalled <= self.options.stalled_rounds {
            // Stopped early by `rules_contradicted`.
            StallHint::RulesContradicted
        } else if rounds.interrupted >= rounds.stalled {
            StallHint::Interrupted
        } else if rules.retap == Retap::Pencil {
            StallHint::PencilMode
        } else if self.enc.layout().mode == InputMode::Both {
            StallHint::Brush
        } else if wrong.iter().all(|&c| want.get(c) == 0) {
            StallHint::EraseFails
        } else {
            StallHint::TapsAstray
        };
        Stalled {
            cells: wrong.to_vec(),
            rounds: rounds.stalled.min(self.options.stalled_rounds),
            hint,
        }
    }

    /// The performance's first look showed hardly any of the digits written before it, and
    /// now, a round without progress after the repair round, the board shows hardly any of
    /// the digits that round wrote (fewer than a quarter, each time): the taps do not do what
    /// the calibration's rules say. Lost taps leave most digits where they were written. Not
    /// concluded where the rules name a trap that explains it (pencil mode, a brush: their own
    /// hints, after the full rounds).
    pub(super) fn rules_contradicted(&self, board: &Board, rounds: &Rounds) -> bool {
        rounds.first_look_missed
            && self.rules_checkable()
            && hardly_shown(board, &rounds.written, CONTRADICTED_AFTER)
    }

    /// Whether taps that show hardly anything can be taken for rules the app contradicts: not
    /// where the calibration's rules name a trap a lost tap springs (pencil mode on a re-tapped
    /// cell, a brush armed by a digit with no cell selected).
    pub(super) fn rules_checkable(&self) -> bool {
        let layout = self.enc.layout();
        layout.rules.retap != Retap::Pencil && layout.mode != InputMode::Both
    }
}
