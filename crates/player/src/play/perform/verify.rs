//! Verification and repair: the screen is looked at until it shows what the search has placed
//! so far (or the app's completion screen); each round repairs the cells that differ, and the
//! rounds go on while they make progress (a stall ends the run with [`super::Stalled`]). What
//! a screen that is not the board means is judged in `judge.rs`; a round's state is `rounds.rs`.

use super::journal::WriteKind;
use super::judge::{ended_under_board, on_game_over, on_other};
use super::proof::Proof;
use super::rounds::{Next, Rounds, hardly_shown};
use super::send::write;
use super::stall::{rules_checkable, rules_contradicted, stalled};
use super::state::Performance;
use crate::board::{Board, CELLS, cell_name};
use crate::play::stop::is_restored;
use crate::play::target::Seen;

/// At least this many digits on the board at the performance's first look, before hardly
/// any of them shown counts (`Rounds::first_look_missed`).
const FIRST_LOOK_WRITTEN: usize = 3;

/// Looks at the screen until it shows `want` (or the app's completion screen), repairing
/// what differs round after round while the rounds make progress.
pub(super) fn verify(p: &mut Performance<'_, '_>, want: &Board) -> anyhow::Result<()> {
    let mut rounds = Rounds::new();
    loop {
        let Some((seen, interrupted)) = look_round(p, &mut rounds)? else {
            continue;
        };
        p.report.verifications += 1;
        tracing::trace!(step = p.steps.done, "verifying the screen");
        let next = match seen {
            Seen::Board(board) => on_board(p, want, &board, interrupted, &mut rounds)?,
            Seen::Completed { what } => {
                tracing::debug!(step = p.steps.done, %what, "the app shows its completion screen");
                p.completed(what);
                Next::Done
            }
            Seen::GameOver { what } => on_game_over(p, what, &mut rounds)?,
            Seen::Other { what, in_app } => on_other(p, what, in_app, &mut rounds)?,
        };
        if let Next::Done = next {
            return Ok(());
        }
    }
}

/// One look, once every tap has landed, with the incidents it dealt with journaled:
/// what it saw, and whether the phone had been interrupted (the screen off, the app away).
/// `None` when the link was lost and restored meanwhile: look again.
fn look_round(
    p: &mut Performance<'_, '_>,
    rounds: &mut Rounds,
) -> anyhow::Result<Option<(Seen, bool)>> {
    // The look's time includes the wait for the taps in flight: that is the phone's
    // latency, paid once a look, not each tap's time (`deadline.rs`).
    let started = p.target.now();
    p.timing.looks.verifying(started);
    p.options.stop.check()?;
    let seen = p.target.sync().and_then(|()| {
        // A late clear the taps just asked for falls due first: a look before it sees
        // the digit still there, and the next round's tap would write it back.
        if let Some(rest) = p.enc.late_pending(p.target.now()) {
            p.target.pause(rest);
        }
        p.target.look()
    });
    let before = p.report.incidents;
    p.note_incidents()?;
    let interrupted = p.report.incidents.interruptions > before.interruptions;
    match seen {
        Ok(seen) => {
            // What a look costs, where nothing happened to the phone meanwhile.
            let calm = p.report.incidents == before;
            p.looked(started, calm);
            Ok(Some((seen, interrupted)))
        }
        Err(e) => {
            rounds.restored(e, &mut p.enc)?;
            Ok(None)
        }
    }
}

/// The board is on the screen: done if it shows `want`; else a stall is judged, and the
/// cells that differ repaired.
fn on_board(
    p: &mut Performance<'_, '_>,
    want: &Board,
    board: &Board,
    interrupted: bool,
    rounds: &mut Rounds,
) -> anyhow::Result<Next> {
    rounds.backed = false;
    rounds.before_back = None;
    let wrong_before = p.screen.seen(p.incidents());
    let wrong: Vec<usize> = (0..CELLS)
        .filter(|&c| board.get(c) != want.get(c))
        .collect();
    let checkable = rules_checkable(p.enc.layout());
    let proof = &mut p.landing.proof;
    if let Some(stalled) = proof.check(&p.puzzle.givens, board, &wrong, interrupted, checkable) {
        return Err(stalled.into());
    }
    if wrong.is_empty() {
        p.screen.expected = *want;
        return Ok(Next::Done);
    }
    tracing::debug!(
        step = p.steps.done,
        cells = wrong.len(),
        wrong = %wrong.iter().map(|&c| format!("{}={}", cell_name(c), board.get(c))).collect::<Vec<_>>().join(" "),
        round = rounds.stalled,
        lost = p.landing.loss.share(),
        "the screen differs from the search: repairing"
    );
    check_same_level(&p.puzzle.givens, board, &wrong)?;
    if p.report.verifications == 1 && rounds.best == usize::MAX {
        let givens = &p.puzzle.givens;
        let written: Vec<(usize, u8)> = (0..CELLS)
            .filter(|&c| givens.get(c) == 0 && want.get(c) != 0)
            .map(|c| (c, want.get(c)))
            .collect();
        rounds.first_look_missed = hardly_shown(board, &written, FIRST_LOOK_WRITTEN);
    }
    p.landing.loss.looked(wrong.len());
    if wrong.len() < rounds.best {
        (rounds.best, rounds.stalled, rounds.interrupted) = (wrong.len(), 0, 0);
    } else if let Some(next) =
        no_progress(p, want, board, &wrong, interrupted, wrong_before, rounds)?
    {
        return Ok(next);
    }
    rounds.written = repair(p, want, board, &wrong)?;
    Ok(Next::Again)
}

/// A round without progress: the app may show its end under the board (the first such
/// round; `Some(Again)`: the link was lost meanwhile, look again), digits that did not show
/// may be pencil marks, and too many such rounds (or rules the screen contradicts) stop the
/// run; `None`: repair.
fn no_progress(
    p: &mut Performance<'_, '_>,
    want: &Board,
    board: &Board,
    wrong: &[usize],
    interrupted: bool,
    wrong_before: u64,
    rounds: &mut Rounds,
) -> anyhow::Result<Option<Next>> {
    rounds.stalled += 1;
    if rounds.stalled == 1 && ended_under_board(p, wrong_before, rounds)? {
        return Ok(Some(Next::Again));
    }
    rounds.interrupted += u32::from(interrupted);
    // Where a re-tap toggles pencil mode, digits that did not show may be pencil marks
    // (a lost tap re-tapped the selected cell): the repairs flip the mode first.
    if !interrupted && hardly_shown(board, &rounds.written, 1) {
        p.enc.flip_pencil();
    }
    let (layout, base, loss) = (p.enc.layout(), p.options.stalled_rounds, &p.landing.loss);
    let proven = p.landing.proof == Proof::Proven;
    if rounds.stalled > loss.allowed_rounds(base)
        || (!interrupted && rules_contradicted(layout, proven, board, rounds))
    {
        return Err(stalled(layout, base, loss, want, wrong, rounds).into());
    }
    Ok(None)
}

/// A given that reads as another digit: another level is on the screen.
fn check_same_level(givens: &Board, board: &Board, wrong: &[usize]) -> anyhow::Result<()> {
    if let Some(&c) = wrong.iter().find(|&&c| givens.get(c) != 0) {
        anyhow::bail!(
            "the board on screen has {} at the given {} where the puzzle has {}: is this still the same level?",
            board.get(c),
            cell_name(c),
            givens.get(c)
        );
    }
    Ok(())
}

/// Repairs the `wrong` cells of `board` towards `want`: what is on screen is the truth
/// now. A lost cell tap sends the digit to the cell selected before, so every repair
/// selects its cell again. A lost link ends the round (the next look repairs the rest).
/// Returns the digits written (not the erasures).
fn repair(
    p: &mut Performance<'_, '_>,
    want: &Board,
    board: &Board,
    wrong: &[usize],
) -> anyhow::Result<Vec<(usize, u8)>> {
    for &c in wrong {
        p.screen.expected.set(c, board.get(c));
    }
    // Wrong digits are erased before any digit is written: apps that hide a digit's key
    // once nine of it are on the board (a wrong digit makes nine early) would otherwise
    // refuse the very digit that repairs another cell. Once they are gone, no digit on
    // screen outnumbers the search's, so every key a repair needs is there.
    let erase = wrong
        .iter()
        .filter(|&&c| board.get(c) != 0 && want.get(c) != 0)
        .map(|&c| (c, 0));
    let writes = wrong.iter().map(|&c| (c, want.get(c)));
    let mut written = Vec::new();
    for (c, digit) in erase.chain(writes) {
        p.enc.reset();
        // Every repair write counts (an erase too), as the journal counts them.
        p.report.repairs += 1;
        tracing::debug!(
            cell = %cell_name(c),
            seen = p.screen.expected.get(c),
            want = want.get(c),
            write = digit,
            "repair"
        );
        match write(p, WriteKind::Repair, c, digit) {
            Ok(()) if digit != 0 => written.push((c, digit)),
            Ok(()) => {}
            Err(e) if is_restored(&e) => break,
            Err(e) => return Err(e),
        }
    }
    Ok(written)
}
