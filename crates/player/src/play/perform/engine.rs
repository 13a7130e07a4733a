//! The performance itself: the search's events in order as taps, with a look at the screen
//! every so often (a glance, or a verification with repairs: `verify.rs`), the steps stopped
//! where the budget's deadline falls (`deadline.rs`), the hidden steps filled directly, and the
//! completing write right after a verification.

use super::deadline::Deadline;
use super::looks::Looks;
use super::proof::Proof;
use super::stall::Loss;
use super::{
    Completion, DeadlineCut, Journal, PerformOptions, PerformReport, Progress, ProgressFn,
    WriteKind, apply,
};
use crate::board::{Board, CELLS};
use crate::play::setnum::{Encoder, finished};
use crate::play::stop::{Stop, is_restored};
use crate::play::target::{IncidentKind, Point, Target};
use crate::solver::Event;
use std::time::{Duration, Instant};

/// A performance under way: the host's idea of the screen, and the counts.
pub(super) struct Performance<'a, 'l> {
    pub(super) enc: Encoder<'l>,
    pub(super) target: &'a mut dyn Target,
    pub(super) journal: &'a mut dyn Journal,
    pub(super) options: &'a PerformOptions,
    pub(super) givens: Board,
    pub(super) solution: Board,
    /// The puzzle has more than one solution: the app decides which one is solved.
    pub(super) several: bool,
    /// What the host believes the screen shows.
    pub(super) expected: Board,
    pub(super) report: PerformReport,
    pub(super) taps: Vec<Point>,
    /// When the next look is due (`looks.rs`).
    pub(super) looks: Looks,
    pub(super) done: u64,
    pub(super) total: u64,
    /// Whether keys move when a digit is finished is still to be seen on the screen.
    pub(super) keys_unknown: bool,
    /// The verification count when the keypad was last looked at without an answer (the
    /// screen did not show the digit finished): once more only after the next verification.
    pub(super) keys_asked_at: Option<u64>,
    /// Wrong digits written since the board was last seen: a screen that replaces the board
    /// right after one is the app's game over.
    pub(super) wrong_since_look: u64,
    /// Reconnects and interruptions when the board was last seen: a screen that follows one
    /// (the app restarted, brought back) tells nothing about the taps before it.
    pub(super) incidents_at_look: u64,
    /// The taps seen lost so far (how many repair rounds without progress make a stall).
    pub(super) loss: Loss,
    /// Whether the run's taps are seen to land (`proof.rs`).
    pub(super) proof: Proof,
    /// The budget, held while the steps are shown.
    pub(super) deadline: Option<Deadline>,
}

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

impl Performance<'_, '_> {
    pub(super) fn run(
        &mut self,
        events: &[Event],
        progress: &mut ProgressFn<'_>,
    ) -> anyhow::Result<()> {
        let start_at = self.resume_at(events)?;
        let visible_end = self
            .options
            .max_visible_steps
            .map_or(events.len(), |n| (n as usize).min(events.len()))
            .max(start_at);
        let mut shown = Shown {
            end: visible_end,
            last_event: (visible_end == events.len() && start_at < events.len())
                .then(|| events.len() - 1),
        };
        if let Some(cut) = self.steps(events, start_at, &shown, progress)? {
            self.cut(cut, shown.end)?;
            shown = Shown {
                end: cut,
                last_event: None,
            };
        }
        self.report.events_hidden = (events.len() - shown.end) as u64;
        if self.report.completion.is_some() {
            return Ok(());
        }
        self.finish(events, &shown, progress)
    }

    /// Whether the next step would end the performance past the budget's deadline.
    fn past_deadline(&self) -> bool {
        let Some(deadline) = &self.deadline else {
            return false;
        };
        let cells = (0..CELLS)
            .filter(|&c| self.expected.get(c) != self.solution.get(c))
            .count();
        deadline.passed(self.target.now(), self.report.taps, cells as u64)
    }

    /// The steps shown end before `end` instead of `planned`: said in the report and the
    /// journal (the session's record of the steps shown follows it).
    fn cut(&mut self, end: usize, planned: usize) -> anyhow::Result<()> {
        let now = self.target.now();
        let Some(d) = &self.deadline else {
            return Ok(());
        };
        let cut = DeadlineCut {
            shown: end as u64,
            planned: planned as u64,
            budget: d.budget(),
            rate: d.rate(now, self.report.taps),
            looking: d.looking(),
        };
        tracing::info!(
            ?cut,
            "slower than planned: the steps stop to keep the budget"
        );
        self.report.deadline_cut = Some(cut);
        self.journal.shown_until(end)
    }

    /// Applies the events already on the screen (resuming at `start_at`) to what the host
    /// believes, and checks the screen for them; returns where to start.
    fn resume_at(&mut self, events: &[Event]) -> anyhow::Result<usize> {
        let start_at = self.options.start_at.min(events.len());
        for ev in &events[..start_at] {
            apply(&mut self.expected, *ev);
        }
        self.done = start_at as u64;
        if start_at > 0 || self.options.check_first {
            // Resuming: the screen should show the journaled events; repair what was lost.
            let want = self.expected;
            self.verify(&want)?;
        }
        Ok(start_at)
    }

    /// The events shown, but the completing one, each after a look when one is due; stopped
    /// before event `i` where the budget's deadline falls there (`Some(i)`).
    fn steps(
        &mut self,
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
            if self.report.completion.is_some() {
                return Ok(None);
            }
            self.check_stop()?;
            // Look before the step's taps, not after them: what the screen turned into since
            // the last look (another app, another level) gets no tap.
            if self.due() {
                let want = self.expected;
                self.verify(&want)?;
            } else if self.since(self.looks.last_look) >= self.looks.glance_every {
                self.glance()?;
            }
            if self.report.completion.is_some() {
                return Ok(None);
            }
            if self.past_deadline() {
                return Ok(Some(i));
            }
            let sent = self.send_event(i, ev);
            self.after(sent)?;
            self.done = i as u64 + 1;
            progress(&self.progress());
        }
        Ok(None)
    }

    /// A look ran from `started` until now: the budget's deadline counts it apart from the
    /// taps' time (see [`Deadline::looked`]; `full`: a verification's, where nothing happened
    /// to the phone).
    pub(super) fn looked(&mut self, started: Instant, full: bool) {
        let (now, taps) = (self.target.now(), self.report.taps);
        if let Some(deadline) = self.deadline.as_mut() {
            deadline.looked(started, now, taps, full);
        }
    }

    /// The time since `then`, on the target's clock.
    pub(super) fn since(&self, then: Instant) -> Duration {
        self.target.now().saturating_duration_since(then)
    }

    /// Every cell but the last filled and verified, then the completing write, then the
    /// solution read back (or the app's completion screen seen).
    fn finish(
        &mut self,
        events: &[Event],
        shown: &Shown,
        progress: &mut ProgressFn<'_>,
    ) -> anyhow::Result<()> {
        let solution = self.solution;
        let final_cell = match shown.last_event.map(|i| events[i]) {
            Some(Event::Place { cell, .. }) => Some(cell as usize),
            _ => (0..CELLS)
                .rev()
                .find(|&c| self.expected.get(c) != solution.get(c)),
        };
        if !self.all_but(final_cell)? {
            return Ok(());
        }
        self.check_stop()?;
        let sent = match (shown.last_event, final_cell) {
            (Some(i), _) => {
                let sent = self.send_event(i, events[i]);
                self.done = self.total;
                sent
            }
            (None, Some(c)) => self.write(WriteKind::Fill, c, solution.get(c)),
            (None, None) => Ok(()),
        };
        self.after(sent)?;
        self.verify(&solution)?;
        if self.several && self.report.completion.is_none() {
            self.accepted()?;
        }
        self.report.completion.get_or_insert(Completion::ReadBack);
        progress(&self.progress());
        Ok(())
    }

    /// Every cell of the solution right but `last`, which is empty, written and verified; then
    /// the completing write may follow: `false` where the app's completion showed meanwhile. A
    /// wrong digit left in `last` goes with the others (where a finished digit's key hides, it
    /// would block the key of its digit's ninth right place). The completing write selects its
    /// cell whatever the encoder believes is selected, from a given cell: a lost cell tap then
    /// sends its digit nowhere, so the screen that follows it can only be the completion (or a
    /// popup).
    pub(super) fn all_but(&mut self, last: Option<usize>) -> anyhow::Result<bool> {
        let mut almost = self.solution;
        if let Some(c) = last {
            almost.set(c, 0);
        }
        self.fill(&almost)?;
        self.verify(&almost)?;
        if self.report.completion.is_some() {
            return Ok(false);
        }
        self.enc.reset_guarded();
        Ok(true)
    }

    pub(super) fn progress(&self) -> Progress {
        Progress {
            done: self.done,
            total: self.total,
            taps: self.report.taps,
            repairs: self.report.repairs,
            reconnects: self.report.reconnects,
            interruptions: self.report.interruptions,
        }
    }

    /// Ctrl-C: the taps already queued are sent, then the run stops.
    fn check_stop(&mut self) -> anyhow::Result<()> {
        if let Err(stop) = self.options.stop.check() {
            let _ = self.target.sync();
            return Err(stop.into());
        }
        Ok(())
    }

    /// Journals the target's reconnects and interruptions.
    pub(super) fn note_incidents(&mut self) -> anyhow::Result<()> {
        for incident in self.target.incidents() {
            tracing::info!(kind = ?incident.kind, what = %incident.what, "incident");
            match incident.kind {
                IncidentKind::Reconnect => self.report.reconnects += 1,
                IncidentKind::Interruption => self.report.interruptions += 1,
            }
            self.journal.incident(&incident)?;
        }
        Ok(())
    }

    /// After taps were sent: a restored link means the screen is unknown; look and repair.
    pub(super) fn after(&mut self, sent: anyhow::Result<()>) -> anyhow::Result<()> {
        match sent {
            Ok(()) => Ok(()),
            Err(e) if is_restored(&e) => {
                let want = self.expected;
                self.verify(&want)
            }
            Err(e) => Err(e),
        }
    }

    /// Where keys may move when a digit is finished and that was not seen yet: the first time
    /// a digit (other than 9) is finished on the screen, look whether the keys after it moved.
    fn learn_keys(&mut self) -> anyhow::Result<()> {
        if !self.keys_unknown || self.keys_asked_at == Some(self.report.verifications) {
            return Ok(());
        }
        let Some(d) = (1..9u8).find(|&d| finished(&self.expected, d) && !finished(&self.givens, d))
        else {
            return Ok(());
        };
        self.target.sync()?;
        match self.target.keys_moved(d)? {
            Some(moved) => {
                tracing::debug!(digit = d, moved, "the keypad after a finished digit");
                self.enc.reflow = moved;
                self.keys_unknown = false;
            }
            None => self.keys_asked_at = Some(self.report.verifications),
        }
        Ok(())
    }

    /// [`Self::learn_keys`] before a search event; where the link was lost and restored
    /// meanwhile, the screen is looked at (and repaired) before the event's taps.
    fn learn_keys_or_look(&mut self) -> anyhow::Result<()> {
        match self.learn_keys() {
            Err(e) if is_restored(&e) => {
                let want = self.expected;
                self.verify(&want)
            }
            r => r,
        }
    }

    fn send_taps(&mut self) -> anyhow::Result<()> {
        if let Some(wait) = self.enc.wait.take() {
            // The app clears a cell late: every tap before is carried out, then it falls due.
            self.target.sync()?;
            self.target.pause(wait);
        }
        let n = self.taps.len() as u64;
        self.report.taps += n;
        self.looks.taps += n;
        self.loss.sent(n);
        for &p in &self.taps {
            self.target.tap(p)?;
        }
        Ok(())
    }

    /// Sends event `i`; whatever happens to its taps, it is journaled and counted as sent (a
    /// verification repairs what did not land).
    fn send_event(&mut self, i: usize, ev: Event) -> anyhow::Result<()> {
        self.learn_keys_or_look()?;
        self.taps.clear();
        self.enc.at(self.target.now());
        self.enc.event(ev, &self.expected, &mut self.taps);
        let sent = self.send_taps();
        if let Event::Place { digit, .. } = ev {
            self.proof_wrote(digit);
        }
        apply(&mut self.expected, ev);
        if let Event::Place { cell, digit } = ev
            && self.solution.get(cell as usize) != digit
        {
            self.report.wrong_digits += 1;
            self.wrong_since_look += 1;
        }
        self.report.events_shown += 1;
        self.journal.event(i, ev, &self.taps)?;
        sent
    }

    pub(super) fn write(&mut self, kind: WriteKind, cell: usize, digit: u8) -> anyhow::Result<()> {
        // A lost link here is the caller's to look after (a repair round's next look).
        self.learn_keys()?;
        self.taps.clear();
        self.enc.at(self.target.now());
        self.enc.write(cell, digit, &self.expected, &mut self.taps);
        let sent = self.send_taps();
        self.proof_wrote(digit);
        self.expected.set(cell, digit);
        if digit != 0 && digit != self.solution.get(cell) {
            self.report.wrong_digits += 1;
            self.wrong_since_look += 1;
        }
        self.journal.write(kind, cell, digit, &self.taps)?;
        sent
    }

    /// A verification is due: every `verify_taps` taps or `verify_interval`, and the first
    /// one early, after the run's first digits (`proof.rs`), so that taps that do not land, or
    /// that the app does not take as the calibration says, are found before many more are sent.
    fn due(&self) -> bool {
        (self.options.verify_taps > 0 && self.looks.taps >= self.options.verify_taps)
            || self.since(self.looks.last_verify) >= self.options.verify_interval
            || self.proof_due()
    }

    /// Is the board still there? If not, a full look (after the taps in flight landed).
    fn glance(&mut self) -> anyhow::Result<()> {
        let started = self.target.now();
        let glanced = self.target.glance();
        let took = self.since(started);
        self.looked(started, false);
        // Zero: before every step, as asked.
        let asked = self.options.glance_interval;
        if !asked.is_zero() {
            self.looks.glance_every = asked.max(took * 8);
        }
        self.looks.last_look = self.target.now();
        match glanced {
            Ok(true) => Ok(()),
            Ok(false) => {
                let want = self.expected;
                self.verify(&want)
            }
            Err(e) => self.after(Err(e)),
        }
    }

    /// Writes every cell where `expected` differs from `board`.
    fn fill(&mut self, board: &Board) -> anyhow::Result<()> {
        for c in 0..CELLS {
            if self.expected.get(c) != board.get(c) {
                let sent = self.write(WriteKind::Fill, c, board.get(c));
                self.after(sent)?;
            }
        }
        Ok(())
    }

    /// The app's completion screen (`words`) ends the performance: the board is solved.
    pub(super) fn completed(&mut self, words: String) {
        self.report.completion = Some(Completion::Screen);
        self.report.end_words = Some(words);
        self.expected = self.solution;
    }

    /// The app ended the game (`words`).
    pub(super) fn game_over(&mut self, words: String) -> anyhow::Error {
        self.report.end_words = Some(words.clone());
        Stop::GameOver {
            mistakes: self.report.wrong_digits,
            what: words,
            several: self.several,
        }
        .into()
    }
}
