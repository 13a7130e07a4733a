//! The advice for a stall: repairs that leave as many wrong cells round after round end the run
//! with [`Stalled`], whose [`StallHint`] says what is likely wrong on the phone. The hint is
//! data; the command line words what to run about it.
//!
//! How many rounds without progress make a stall follows the share of taps the run has seen
//! lost ([`Loss`]): on a phone that loses one tap in five, a repair fails about one time in two
//! by chance alone, so a handful of failed rounds in a row is no sign of anything; on a phone
//! that loses none, the same rounds mean the taps do not do what they should (a cell that keeps
//! failing the same way), and the run stops after the base number of rounds.

use super::rounds::{Rounds, hardly_shown};
use crate::board::{Board, cell_name};
use crate::calibration::{InputMode, Retap};
use crate::play::setnum::Layout;
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
    /// None of the run's first digits showed on the screen, nor their repairs (`proof.rs`):
    /// the taps do not land at all.
    NothingLands,
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
            StallHint::NothingLands => {
                "none of the first digits written showed on the screen: the taps do not land (the \
                 phone may drop injected input without a word, or a window over the app takes \
                 them, or they go to another touch panel), or the calibration's keys are not where \
                 the app has them"
            }
        })
    }
}

/// The chance, at most, that rounds without progress came from lost taps alone when the run
/// calls them a stall.
const CHANCE: f64 = 1e-4;
/// Taps a repair takes at most (select, erase; select, digit): it fails if any is lost.
const TAPS_PER_REPAIR: i32 = 4;
/// Rounds without progress allowed however lossy the phone.
const MOST_ROUNDS: u32 = 30;
/// A share of taps lost above which the phone is not lossy but broken (the taps do not land):
/// more rounds cannot help.
const BROKEN: f64 = 0.75;

/// The taps the run has seen lost: each cell found wrong at a look took at least one lost tap
/// among those sent since the look before.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Loss {
    /// Taps whose outcome a look has checked, and those of them seen lost.
    checked: u64,
    lost: u64,
    /// Taps sent since the last look.
    pending: u64,
}

impl Loss {
    pub(super) fn sent(&mut self, taps: u64) {
        self.pending += taps;
    }

    /// A look at the board found `wrong` cells.
    pub(super) fn looked(&mut self, wrong: usize) {
        let taps = std::mem::take(&mut self.pending);
        self.checked += taps;
        self.lost += (wrong as u64).min(taps);
    }

    /// The share of taps seen lost.
    pub(super) fn share(&self) -> f64 {
        if self.checked == 0 {
            return 0.0;
        }
        self.lost as f64 / self.checked as f64
    }

    /// Rounds without progress before a stall: `base`, or more where lost taps alone would
    /// often leave that many rounds without progress (at most [`MOST_ROUNDS`]).
    pub(super) fn allowed_rounds(&self, base: u32) -> u32 {
        let p = self.share();
        if p <= 0.0 || p >= BROKEN {
            return base;
        }
        // A round without progress: its repair failed (any of its taps lost).
        let fails = 1.0 - (1.0 - p).powi(TAPS_PER_REPAIR);
        let rounds = (CHANCE.ln() / fails.ln()).ceil();
        (rounds as u32).clamp(base, MOST_ROUNDS.max(base))
    }
}

/// The stall of a verification towards `want` whose round left `wrong` cells, in an app laid
/// out as `layout`, `base` rounds without progress allowed on a phone that loses no tap.
pub(super) fn stalled(
    layout: &Layout,
    base: u32,
    loss: &Loss,
    want: &Board,
    wrong: &[usize],
    rounds: &Rounds,
) -> Stalled {
    let rules = &layout.rules;
    // Only digits that should be gone: erasing is what fails.
    let hint = if rounds.stalled <= base {
        // Stopped early by `rules_contradicted`.
        StallHint::RulesContradicted
    } else if rounds.interrupted >= rounds.stalled {
        StallHint::Interrupted
    } else if rules.retap == Retap::Pencil {
        StallHint::PencilMode
    } else if layout.mode == InputMode::Both {
        StallHint::Brush
    } else if wrong.iter().all(|&c| want.get(c) == 0) {
        StallHint::EraseFails
    } else {
        StallHint::TapsAstray
    };
    Stalled {
        cells: wrong.to_vec(),
        rounds: rounds.stalled.min(loss.allowed_rounds(base)),
        hint,
    }
}

/// The performance's first look showed hardly any of the digits written before it, and now,
/// a round without progress after the repair round, the board shows hardly any of the digits
/// that round wrote (fewer than a quarter, each time): the taps do not do what the
/// calibration's rules say. Lost taps leave most digits where they were written. Only once
/// taps are seen to land (`proven`: a digit somewhere, `proof.rs`; none anywhere is
/// [`StallHint::NothingLands`]), and not where the rules name a trap that explains it (pencil
/// mode, a brush: their own hints, after the full rounds).
pub(super) fn rules_contradicted(
    layout: &Layout,
    proven: bool,
    board: &Board,
    rounds: &Rounds,
) -> bool {
    proven
        && rounds.first_look_missed
        && rules_checkable(layout)
        && hardly_shown(board, &rounds.written, CONTRADICTED_AFTER)
}

/// Whether taps that show hardly anything can be taken for rules the app contradicts: not
/// where the calibration's rules name a trap a lost tap springs (pencil mode on a re-tapped
/// cell, a brush armed by a digit with no cell selected).
pub(super) fn rules_checkable(layout: &Layout) -> bool {
    layout.rules.retap != Retap::Pencil && layout.mode != InputMode::Both
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loss(sent: u64, wrong: usize) -> Loss {
        let mut l = Loss::default();
        l.sent(sent);
        l.looked(wrong);
        l
    }

    #[test]
    fn rounds_follow_the_loss() {
        // No tap lost, or every one: the base.
        assert_eq!(loss(1000, 0).allowed_rounds(5), 5);
        assert_eq!(loss(0, 3).allowed_rounds(5), 5);
        assert_eq!(loss(100, 90).allowed_rounds(5), 5, "taps that do not land");
        // 1%: a repair fails 4% of the time, so five rounds in a row are chance enough.
        assert_eq!(loss(1000, 10).allowed_rounds(5), 5);
        // One tap in five (issue 33, item 6): a repair fails 59% of the time.
        let lossy = loss(1000, 200);
        assert!((lossy.share() - 0.2).abs() < 1e-9);
        assert_eq!(lossy.allowed_rounds(5), 18);
        // Half: capped.
        assert_eq!(loss(1000, 500).allowed_rounds(5), MOST_ROUNDS);
    }

    #[test]
    fn a_look_counts_the_taps_since_the_last() {
        let mut l = Loss::default();
        l.sent(10);
        l.looked(12);
        assert_eq!((l.checked, l.lost), (10, 10), "at most every tap lost");
        l.sent(90);
        l.looked(0);
        assert!((l.share() - 0.1).abs() < 1e-9);
        l.looked(5);
        assert!(
            (l.share() - 0.1).abs() < 1e-9,
            "nothing sent: nothing checked"
        );
    }
}
