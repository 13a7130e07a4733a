//! Taps out: a search event's or a direct write's taps encoded, sent, counted and journaled,
//! whatever happens to them (a verification repairs what did not land); and, where keys may
//! move when a digit is finished, the keypad looked at the first time one is.

use super::journal::WriteKind;
use super::search::apply;
use super::state::Performance;
use crate::play::setnum::finished;
use crate::solver::Event;

/// Where keys may move when a digit is finished and that was not seen yet: the first time a
/// digit (other than 9) is finished on the screen, look whether the keys after it moved.
pub(super) fn learn_keys(p: &mut Performance<'_, '_>) -> anyhow::Result<()> {
    let verifications = p.report.verifications;
    if !p.screen.keys.to_ask(verifications) {
        return Ok(());
    }
    let (expected, givens) = (&p.screen.expected, &p.puzzle.givens);
    let Some(d) = (1..9u8).find(|&d| finished(expected, d) && !finished(givens, d)) else {
        return Ok(());
    };
    p.target.sync()?;
    match p.target.keys_moved(d)? {
        Some(moved) => {
            tracing::debug!(digit = d, moved, "the keypad after a finished digit");
            p.enc.reflow = moved;
            p.screen.keys.learned();
        }
        None => p.screen.keys.unanswered(verifications),
    }
    Ok(())
}

/// Sends the taps encoded, after the wait they ask for.
fn send_taps(p: &mut Performance<'_, '_>) -> anyhow::Result<()> {
    if let Some(wait) = p.enc.wait.take() {
        // The app clears a cell late: every tap before is carried out, then it falls due.
        p.target.sync()?;
        p.target.pause(wait);
    }
    let n = p.taps.len() as u64;
    p.report.taps += n;
    p.timing.looks.taps += n;
    p.landing.loss.sent(n);
    for &point in &p.taps {
        p.target.tap(point)?;
    }
    Ok(())
}

/// Sends event `i` (the keypad already looked after: `engine.rs`); whatever happens to its
/// taps, it is journaled and counted as sent.
pub(super) fn event(p: &mut Performance<'_, '_>, i: usize, ev: Event) -> anyhow::Result<()> {
    p.taps.clear();
    p.enc.at(p.target.now());
    p.enc.event(ev, &p.screen.expected, &mut p.taps);
    let sent = send_taps(p);
    if let Event::Place { digit, .. } = ev {
        p.landing.proof.wrote(digit);
    }
    apply(&mut p.screen.expected, ev);
    if let Event::Place { cell, digit } = ev {
        p.count_wrong(cell as usize, digit);
    }
    p.report.events_shown += 1;
    p.journal.event(i, ev, &p.taps)?;
    sent
}

/// Writes `digit` into `cell` directly (a repair or the fill); a lost link here is the
/// caller's to look after (a repair round's next look).
pub(super) fn write(
    p: &mut Performance<'_, '_>,
    kind: WriteKind,
    cell: usize,
    digit: u8,
) -> anyhow::Result<()> {
    learn_keys(p)?;
    p.taps.clear();
    p.enc.at(p.target.now());
    p.enc.write(cell, digit, &p.screen.expected, &mut p.taps);
    let sent = send_taps(p);
    p.landing.proof.wrote(digit);
    p.screen.expected.set(cell, digit);
    p.count_wrong(cell, digit);
    p.journal.write(kind, cell, digit, &p.taps)?;
    sent
}
