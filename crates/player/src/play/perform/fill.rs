//! Cells written outside the search's events: a board filled in directly (the hidden steps,
//! a solution written again), every cell but the completing one filled and verified before
//! that write, and the look that follows taps whose link was lost (the screen is unknown).

use super::journal::WriteKind;
use super::send::write;
use super::state::Performance;
use super::verify::verify;
use crate::board::{Board, CELLS};
use crate::play::stop::is_restored;

/// After taps were sent: a restored link means the screen is unknown; look and repair.
pub(super) fn after(p: &mut Performance<'_, '_>, sent: anyhow::Result<()>) -> anyhow::Result<()> {
    match sent {
        Ok(()) => Ok(()),
        Err(e) if is_restored(&e) => {
            let want = p.screen.expected;
            verify(p, &want)
        }
        Err(e) => Err(e),
    }
}

/// Writes every cell where what the host believes the screen shows differs from `board`.
fn fill(p: &mut Performance<'_, '_>, board: &Board) -> anyhow::Result<()> {
    for c in 0..CELLS {
        if p.screen.expected.get(c) != board.get(c) {
            let sent = write(p, WriteKind::Fill, c, board.get(c));
            after(p, sent)?;
        }
    }
    Ok(())
}

/// Every cell of the solution right but `last`, which is empty, written and verified; then
/// the completing write may follow: `false` where the app's completion showed meanwhile. A
/// wrong digit left in `last` goes with the others (where a finished digit's key hides, it
/// would block the key of its digit's ninth right place). The completing write selects its
/// cell whatever the encoder believes is selected, from a given cell: a lost cell tap then
/// sends its digit nowhere, so the screen that follows it can only be the completion (or a
/// popup).
pub(super) fn all_but(p: &mut Performance<'_, '_>, last: Option<usize>) -> anyhow::Result<bool> {
    let mut almost = p.puzzle.solution;
    if let Some(c) = last {
        almost.set(c, 0);
    }
    fill(p, &almost)?;
    verify(p, &almost)?;
    if p.ended() {
        return Ok(false);
    }
    p.enc.reset_guarded();
    Ok(true)
}
