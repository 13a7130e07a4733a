//! The performance itself: the search's events in order as taps, with a look at the screen
//! every so often (a glance, or a verification with repairs: `verify.rs`), the steps stopped
//! where the budget's deadline falls (`deadline.rs`), the hidden steps filled directly
//! (`fill.rs`), and the completing write right after a verification. The top of the
//! performance's files: it calls into the others, none into it.

use super::fill::{after, all_but};
use super::journal::WriteKind;
use super::report::{Completion, DeadlineCut, ProgressFn};
use super::search::apply;
use super::send::{self, learn_keys, write};
use super::several::accepted;
use super::state::Performance;
use super::verify::verify;
use crate::play::stop::is_restored;
use crate::solver::Event;

/// Where the events shown end, and which event writes last.
struct Shown {
    /// The events before this index are shown (the rest is filled directly).
    end: usize,
    /// The write that completes the board comes after a verification, so a completion dialog
    /// that hides the board cannot hide a wrong digit. With every event shown, that write is
    /// the search's last event; otherwise the remaining cells are filled directly, one of
    /// them last.
    last_event: Option<usize>,
}

/// Performs `events` (see the module docs).
pub(super) fn run(
    p: &mut Performance<'_, '_>,
    events: &[Event],
    progress: &mut ProgressFn<'_>,
) -> anyhow::Result<()> {
    let start_at = resume_at(p, events)?;
    let visible_end = p
        .options
        .max_visible_steps
        .map_or(events.len(), |n| (n as usize).min(events.len()))
        .max(start_at);
    let mut shown = Shown {
        end: visible_end,
        last_event: (visible_end == events.len() && start_at < events.len())
            .then(|| events.len() - 1),
    };
    if let Some(cut) = steps(p, events, start_at, &shown, progress)? {
        cut_at(p, cut, shown.end)?;
        shown = Shown {
            end: cut,
            last_event: None,
        };
    }
    p.report.events_hidden = (events.len() - shown.end) as u64;
    if p.ended() {
        return Ok(());
    }
    finish(p, events, &shown, progress)
}

/// Whether the next step would end the performance past the budget's deadline.
fn past_deadline(p: &Performance<'_, '_>) -> bool {
    let Some(deadline) = &p.timing.deadline else {
        return false;
    };
    let cells = p.puzzle.unsolved(&p.screen.expected);
    deadline.passed(p.target.now(), p.report.taps, cells as u64)
}

/// The steps shown end before `end` instead of `planned`: said in the report and the
/// journal (the session's record of the steps shown follows it).
fn cut_at(p: &mut Performance<'_, '_>, end: usize, planned: usize) -> anyhow::Result<()> {
    let now = p.target.now();
    let Some(d) = &p.timing.deadline else {
        return Ok(());
    };
    let cut = DeadlineCut {
        shown: end as u64,
        planned: planned as u64,
        budget: d.budget(),
        rate: d.rate(now, p.report.taps),
        looking: d.looking(),
    };
    tracing::info!(
        ?cut,
        "slower than planned: the steps stop to keep the budget"
    );
    p.report.deadline_cut = Some(cut);
    p.journal.shown_until(end)
}

/// Applies the events already on the screen (resuming at `start_at`) to what the host
/// believes, and checks the screen for them; returns where to start.
fn resume_at(p: &mut Performance<'_, '_>, events: &[Event]) -> anyhow::Result<usize> {
    let start_at = p.options.start_at.min(events.len());
    for ev in &events[..start_at] {
        apply(&mut p.screen.expected, *ev);
    }
    p.steps.done = start_at as u64;
    if start_at > 0 || p.options.check_first {
        // Resuming: the screen should show the journaled events; repair what was lost.
        let want = p.screen.expected;
        verify(p, &want)?;
    }
    Ok(start_at)
}

/// The events shown, but the completing one, each after a look when one is due; stopped
/// before event `i` where the budget's deadline falls there (`Some(i)`).
fn steps(
    p: &mut Performance<'_, '_>,
    events: &[Event],
    start_at: usize,
    shown: &Shown,
    progress: &mut ProgressFn<'_>,
) -> anyhow::Result<Option<usize>> {
    for (i, &ev) in events
        .iter()
        .enumerate()
        .take(shown.last_event.unwrap_or(shown.end))
        .skip(start_at)
    {
        if p.ended() {
            return Ok(None);
        }
        p.check_stop()?;
        // Look before the step's taps, not after them: what the screen turned into since
        // the last look (another app, another level) gets no tap.
        if due(p) {
            let want = p.screen.expected;
            verify(p, &want)?;
        } else if p.since(p.timing.looks.last_look) >= p.timing.looks.glance_every {
            glance(p)?;
        }
        if p.ended() {
            return Ok(None);
        }
        if past_deadline(p) {
            return Ok(Some(i));
        }
        let sent = send_event(p, i, ev);
        after(p, sent)?;
        p.steps.done = i as u64 + 1;
        progress(&p.progress());
    }
    Ok(None)
}

/// Every cell but the last filled and verified, then the completing write, then the
/// solution read back (or the app's completion screen seen).
fn finish(
    p: &mut Performance<'_, '_>,
    events: &[Event],
    shown: &Shown,
    progress: &mut ProgressFn<'_>,
) -> anyhow::Result<()> {
    let solution = p.puzzle.solution;
    let final_cell = match shown.last_event.map(|i| events[i]) {
        Some(Event::Place { cell, .. }) => Some(cell as usize),
        _ => p.puzzle.last_unsolved(&p.screen.expected),
    };
    if !all_but(p, final_cell)? {
        return Ok(());
    }
    p.check_stop()?;
    let sent = match (shown.last_event, final_cell) {
        (Some(i), _) => {
            let sent = send_event(p, i, events[i]);
            p.steps.done = p.steps.total;
            sent
        }
        (None, Some(c)) => write(p, WriteKind::Fill, c, solution.get(c)),
        (None, None) => Ok(()),
    };
    after(p, sent)?;
    verify(p, &solution)?;
    if p.puzzle.several && !p.ended() {
        accepted(p)?;
    }
    p.report.end.completion.get_or_insert(Completion::ReadBack);
    progress(&p.progress());
    Ok(())
}

/// Sends event `i`, the keypad looked at first where keys may move ([`learn_keys`]; where
/// the link was lost and restored meanwhile, the screen is looked at and repaired before the
/// event's taps); whatever happens to its taps, it is journaled and counted as sent (a
/// verification repairs what did not land).
fn send_event(p: &mut Performance<'_, '_>, i: usize, ev: Event) -> anyhow::Result<()> {
    match learn_keys(p) {
        Err(e) if is_restored(&e) => {
            let want = p.screen.expected;
            verify(p, &want)
        }
        r => r,
    }?;
    send::event(p, i, ev)
}

/// A verification is due: every `verify_taps` taps or `verify_interval`, and the first
/// one early, after the run's first digits (`proof.rs`), so that taps that do not land, or
/// that the app does not take as the calibration says, are found before many more are sent.
fn due(p: &Performance<'_, '_>) -> bool {
    let (options, looks) = (p.options, &p.timing.looks);
    (options.verify_taps > 0 && looks.taps >= options.verify_taps)
        || p.since(looks.last_verify) >= options.verify_interval
        || p.landing.proof.due()
}

/// Is the board still there? If not, a full look (after the taps in flight landed).
fn glance(p: &mut Performance<'_, '_>) -> anyhow::Result<()> {
    let started = p.target.now();
    let glanced = p.target.glance();
    let took = p.since(started);
    p.looked(started, false);
    // Zero: before every step, as asked.
    let asked = p.options.glance_interval;
    if !asked.is_zero() {
        p.timing.looks.glance_every = asked.max(took * 8);
    }
    p.timing.looks.last_look = p.target.now();
    match glanced {
        Ok(true) => Ok(()),
        Ok(false) => {
            let want = p.screen.expected;
            verify(p, &want)
        }
        Err(e) => after(p, Err(e)),
    }
}
