//! A puzzle with more than one solution: the board read back shows the solution written, but
//! the app decides which solution is solved. Apps that accept any full board that keeps the
//! rules show their completion; apps that check the entries against the solution they stored
//! mark the others wrong (in an ink of their own) and show nothing. So the run is solved only
//! once the app shows its completion (its screen, or words that say so under a board that
//! stays). Digits it marks wrong are taken as "not this digit here" (and
//! the digits it leaves unmarked as its own), the puzzle is searched again without them, and
//! the new solution is written over them; where no solution is left, or a wrong guess could
//! end the game, or the app shows nothing, the run stops and says so
//! ([`Stop::NotAccepted`]).

use super::fill::{after, all_but};
use super::journal::WriteKind;
use super::report::Rewritten;
use super::send::write;
use super::state::Performance;
use super::verify::verify;
use crate::board::{Board, cell_name};
use crate::play::stop::Stop;
use crate::play::words::{self, Verdict};
use crate::solver::fast;
use std::time::Duration;

/// Solutions written again after marks, at most.
const ROUNDS: usize = 4;
/// Looks at a full board that the app neither completed nor marked, before giving up, and the
/// time between them (an app may show its completion a moment after the last digit).
const LOOKS: u32 = 4;
const APART: Duration = Duration::from_millis(500);

/// What the app showed of the solution on the board.
enum Shown {
    /// Its completion.
    Solved,
    /// These cells' digits marked wrong.
    Marked(Vec<usize>),
    /// Neither, after [`LOOKS`] looks.
    Nothing,
}

/// The solution is on the board (just verified): solved once the app shows its completion;
/// marked digits lead to another solution written (see the module docs).
pub(super) fn accepted(p: &mut Performance<'_, '_>) -> anyhow::Result<()> {
    let mut excluded: Vec<(usize, u8)> = Vec::new();
    let mut round = 0;
    loop {
        let marked = match verdict(p)? {
            Shown::Solved => return Ok(()),
            Shown::Nothing if round == 0 => return Err(not_accepted(p, None).into()),
            Shown::Nothing => {
                let why = "after the solution without them was written, it showed neither its \
                           completion nor a mark";
                return Err(not_accepted(p, Some(why)).into());
            }
            Shown::Marked(cells) => cells,
        };
        let wrong: Vec<(usize, u8)> = marked
            .iter()
            .map(|&c| (c, p.screen.expected.get(c)))
            .collect();
        tracing::info!(marked = %marks(&wrong), "the app marks digits of the solution wrong");
        let solution = p.puzzle.solution;
        let rewritten = p.report.end.rewritten.get_or_insert_with(|| {
            Box::new(Rewritten {
                marked: Vec::new(),
                solution,
            })
        });
        rewritten.marked.extend(&wrong);
        if round == ROUNDS {
            let why = format!(
                "it marked digits of each of {} solutions written",
                ROUNDS + 1
            );
            return Err(not_accepted(p, Some(&why)).into());
        }
        excluded.extend(&wrong);
        let next = without(p, &marked, &excluded)?;
        p.puzzle.solution = next;
        if let Some(r) = p.report.end.rewritten.as_mut() {
            r.solution = next;
        }
        write_solution(p)?;
        if p.ended() {
            return Ok(());
        }
        round += 1;
    }
}

/// Looks (verifying the board) until the app shows its completion or marks digits, at most
/// [`LOOKS`] times.
fn verdict(p: &mut Performance<'_, '_>) -> anyhow::Result<Shown> {
    for look in 0..LOOKS {
        if look > 0 {
            p.target.pause(APART);
            let want = p.puzzle.solution;
            verify(p, &want)?;
        }
        if p.ended() {
            return Ok(Shown::Solved);
        }
        let marked = p.target.marked_wrong()?;
        if !marked.is_empty() {
            return Ok(Shown::Marked(marked));
        }
    }
    // An end shown under a board that stays (the keypad giving way to words): its
    // completion, where its words say so.
    match p.target.new_words()? {
        Some(words) if words::classify(std::slice::from_ref(&words)) == Verdict::Completed => {
            p.completed(words);
            Ok(Shown::Solved)
        }
        _ => Ok(Shown::Nothing),
    }
}

/// A solution of the puzzle with none of `excluded`: first one that keeps the digits the app
/// left unmarked (an app that checks against its solution marks every other), else any.
/// Stops where there is none, or where the app counts mistakes to a limit and the digits
/// are a guess among several solutions.
fn without(
    p: &Performance<'_, '_>,
    marked: &[usize],
    excluded: &[(usize, u8)],
) -> anyhow::Result<Board> {
    let mut kept = p.screen.expected;
    for &c in marked {
        kept.set(c, 0);
    }
    let found = [kept, p.puzzle.givens]
        .iter()
        .map(|b| fast::solutions_excluding(b, excluded, 2))
        .find(|s| s.count > 0);
    let Some(found) = found else {
        return Err(not_accepted(
            p,
            Some(
                "no solution of the puzzle is left without the digits it marked wrong (a mark \
                 misread, or the app's solution breaks the rules)",
            ),
        )
        .into());
    };
    if let (2.., Some(limit)) = (found.count, p.enc.rules().mistake_limit) {
        return Err(not_accepted(
            p,
            Some(&format!(
                "more than one solution is left without them, and the app ends the game \
                 after {limit} mistakes: another guess could end it"
            )),
        )
        .into());
    }
    found
        .first
        .ok_or_else(|| anyhow::anyhow!("the solver found no first solution"))
}

/// Writes the puzzle's solution over the board: every cell but the last that differs, a
/// verification, then the completing write (as the search's end is written).
fn write_solution(p: &mut Performance<'_, '_>) -> anyhow::Result<()> {
    let solution = p.puzzle.solution;
    let last = p.puzzle.last_unsolved(&p.screen.expected);
    if !all_but(p, last)? {
        return Ok(());
    }
    if let Some(c) = last {
        let sent = write(p, WriteKind::Fill, c, solution.get(c));
        after(p, sent)?;
    }
    verify(p, &solution)
}

/// The stop: what the app showed, and `why` nothing more is done.
fn not_accepted(p: &Performance<'_, '_>, why: Option<&str>) -> Stop {
    let marked = p.report.end.rewritten.as_ref().map(|r| r.marked.as_slice());
    let shown = match marked.unwrap_or_default() {
        [] => "it showed no completion and marked no digit wrong".to_string(),
        m => format!("it marked {} wrong", marks(m)),
    };
    Stop::NotAccepted {
        why: match why {
            Some(why) => format!("{shown}; {why}"),
            None => shown,
        },
    }
}

/// `r1c2=5, r3c4=1`.
fn marks(m: &[(usize, u8)]) -> String {
    m.iter()
        .map(|&(c, d)| format!("{}={d}", cell_name(c)))
        .collect::<Vec<_>>()
        .join(", ")
}
