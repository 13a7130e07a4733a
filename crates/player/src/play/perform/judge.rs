//! Judging what a screen means for the run when it is not the board to repair: the app's game
//! over, an end shown under a board that stays, and a screen that replaced the board (a popup,
//! which BACK closes; the app's completion or game over in words the player does not know, told
//! by what came right before it; another screen, after which the level is opened again once).
//! Neither inference is made across a reconnect or an interruption.

use super::rounds::{Next, Rounds};
use super::state::Performance;
use crate::play::stop::{Stop, is_back_refused, is_restored};

/// The app's game-over screen: the run stops, unless a resumed run that has not tapped yet
/// finds the level lost before (its mistake limit since turned off): then the level is
/// opened again from its start.
pub(super) fn on_game_over(
    p: &mut Performance<'_, '_>,
    what: String,
    rounds: &mut Rounds,
) -> anyhow::Result<Next> {
    tracing::debug!(%what, "the app ended the game");
    if p.report.taps == 0 && !rounds.reopened && p.target.reopen()? {
        rounds.reopened = true;
        rounds.restart();
        p.note_incidents()?;
        return Ok(Next::Again);
    }
    Err(p.game_over(what))
}

/// A board that stays while repairs change nothing (the first stalled round): the app may
/// show its end under it (a game over as a line, the keypad gone). New words on the screen
/// after a wrong digit are the game over; `Ok(true)` where the link was lost meanwhile
/// (look again before any tap).
pub(super) fn ended_under_board(
    p: &mut Performance<'_, '_>,
    wrong_before: u64,
    rounds: &mut Rounds,
) -> anyhow::Result<bool> {
    match p.target.new_words() {
        Ok(Some(words)) if p.report.wrong_digits > 0 || wrong_before > 0 => Err(p.game_over(words)),
        Ok(Some(words)) => {
            tracing::debug!(%words, "new words on the screen, and no wrong digit written");
            Ok(false)
        }
        Ok(None) => Ok(false),
        Err(e) => rounds.restored(e, &mut p.enc).map(|()| true),
    }
}

/// Anything else covers the board (`what`; `in_app`: a screen of the app itself).
pub(super) fn on_other(
    p: &mut Performance<'_, '_>,
    what: String,
    in_app: bool,
    rounds: &mut Rounds,
) -> anyhow::Result<Next> {
    tracing::debug!(%what, backed = rounds.backed, reopened = rounds.reopened, "the board is not on the screen");
    p.enc.reset();
    if let Some(next) = end_behind_back(p, &what, rounds)? {
        return Ok(next);
    }
    if !rounds.backed {
        // A popup may cover the board: BACK once, then look again.
        rounds.backed = true;
        rounds.before_back = in_app.then_some(what);
        match p.target.back() {
            Ok(()) => rounds.back_refused = None,
            Err(e) if is_restored(&e) => {}
            // Nothing could press BACK (the phone refuses it): no inference from what
            // follows, and the level opened again where it may be, before the stop that
            // says why.
            Err(e) if is_back_refused(&e) => {
                tracing::debug!(error = %format!("{e:#}"), "BACK could not be pressed");
                rounds.before_back = None;
                rounds.back_refused = Some(e);
            }
            Err(e) => return Err(e),
        }
        return Ok(Next::Again);
    }
    if !rounds.reopened && p.target.reopen()? {
        // The app restarted: the level from scratch, then every digit again.
        rounds.reopened = true;
        rounds.backed = false;
        rounds.restart();
        p.note_incidents()?;
        return Ok(Next::Again);
    }
    Err(match rounds.back_refused.take() {
        Some(e) => e.context(format!(
            "{what} is on the screen instead of the Sudoku board"
        )),
        None => Stop::UnknownScreen { what }.into(),
    })
}

/// A screen of the app replaced the board, and BACK did not bring the board back (it
/// changed the screen: a dialog that ignores BACK, or a phone that refused the key, tells
/// nothing): no popup. Right after the write that completed the board, it is the
/// completion; right after wrong digits, the game over (its words, in whatever language,
/// are quoted). Not across a reconnect or an interruption since the board was last seen.
fn end_behind_back(
    p: &mut Performance<'_, '_>,
    what: &str,
    rounds: &mut Rounds,
) -> anyhow::Result<Option<Next>> {
    let undisturbed = p.screen.incidents_at_look == p.incidents();
    let changed = rounds.before_back.as_deref().is_some_and(|w| w != what);
    let Some(words) = rounds.before_back.take().filter(|_| undisturbed && changed) else {
        return Ok(None);
    };
    if p.screen.expected == p.puzzle.solution {
        p.completed(words);
        return Ok(Some(Next::Done));
    }
    if p.screen.wrong_since_look > 0 {
        return Err(p.game_over(words));
    }
    Ok(None)
}
