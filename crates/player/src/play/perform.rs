//! Performs a recorded search on the phone: every event as taps, with verification.
//!
//! The search runs on the host first (its events recorded), then each event is performed in
//! order. Every `verify_taps` taps or `verify_interval`, the board on screen is read back and
//! compared with what the search has placed so far; differences (dropped taps, a mis-tap) are
//! repaired and counted, round after round while the rounds make progress. Between
//! verifications a glance every `glance_interval` checks that the board is still there (a
//! game-over screen, a dark screen or another app are noticed within seconds). With
//! `max_visible_steps`, only the first N events are shown and the final digits are then filled
//! directly.
//!
//! The run succeeds only when the solved board is read back from the screen, or the app's
//! completion screen is recognised positively ([`Seen::Completed`]); the write that completes the
//! board comes right after a verification, so a completion screen cannot hide a wrong digit.
//! Anything else that covers the board gets one BACK (a popup), then, if the app may have
//! restarted, the level is opened again and its digits re-entered; otherwise the run stops and
//! names what it saw.

use super::setnum::{Encoder, Layout, Point};
use super::stop::{Stop, StopFlag, is_restored};
use crate::board::{Board, CELLS};
use crate::solver::Event;
use std::time::{Duration, Instant};

/// What the screen shows, as a performance needs to know it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seen {
    /// The board where the calibration says, read.
    Board(Board),
    /// The app's completion screen, recognised positively by its words; `what` quotes it.
    Completed { what: String },
    /// The app ended the game (a game-over screen); `what` quotes it.
    GameOver { what: String },
    /// Anything else: a dialog over the board, another screen; `what` names it. `in_app`: a
    /// screen of the app itself (not another app's, nor another puzzle), whose words are not
    /// known: a popup, or an end screen in words we do not know, which [`perform`] tells apart
    /// by what changed right before it.
    Other { what: String, in_app: bool },
}

/// The phone, as a performance sees it. Any method may fail with [`super::stop::Restored`]: the
/// link was lost and restored, so the screen must be looked at before the next tap.
pub trait Target {
    /// Queues a tap.
    fn tap(&mut self, p: Point) -> anyhow::Result<()>;
    /// Returns once every queued tap has been carried out.
    fn sync(&mut self) -> anyhow::Result<()>;
    /// Looks at the screen (call [`Target::sync`] first), after dealing with what the phone
    /// can deal with on its own (a dark screen, a plain lock screen, the app in the background).
    fn look(&mut self) -> anyhow::Result<Seen>;
    /// A quick look while taps may still be in flight: whether the board is still there.
    fn glance(&mut self) -> anyhow::Result<bool> {
        Ok(matches!(self.look()?, Seen::Board(_)))
    }
    /// Presses BACK (to dismiss a popup).
    fn back(&mut self) -> anyhow::Result<()>;
    /// Opens the level again from scratch if the app may have restarted (after a reconnect, or
    /// when resuming); `Ok(false)` if it cannot or should not.
    fn reopen(&mut self) -> anyhow::Result<bool> {
        Ok(false)
    }
    /// Reconnects and interruptions dealt with since the last call (the performance journals them).
    fn incidents(&mut self) -> Vec<Incident> {
        Vec::new()
    }
    /// The words on the screen that were not on the game screen when the run began (quoted),
    /// where there are any: the app showing something new over or under a board that stays.
    fn new_words(&mut self) -> anyhow::Result<Option<String>> {
        Ok(None)
    }
    /// Digit `d` has just been finished (nine on the board; call [`Target::sync`] first): whether
    /// the keys after its moved up one place, as the keypad shows now. `None` when the screen
    /// does not tell (the board does not show `d` finished).
    fn keys_moved(&mut self, _d: u8) -> anyhow::Result<Option<bool>> {
        Ok(None)
    }
}

/// Where performed events are recorded (the session journal).
pub trait Journal {
    /// Event `index` of the search was sent as `taps`.
    fn event(&mut self, index: usize, event: Event, taps: &[Point]) -> anyhow::Result<()>;
    /// A cell was set directly (repair or final fill) with `taps`.
    fn write(
        &mut self,
        kind: WriteKind,
        cell: usize,
        digit: u8,
        taps: &[Point],
    ) -> anyhow::Result<()>;
    /// A reconnect or an interruption.
    fn incident(&mut self, _incident: &Incident) -> anyhow::Result<()> {
        Ok(())
    }
}

/// Why a cell was written outside the event stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WriteKind {
    Repair,
    Fill,
}

/// Something that happened to the phone during a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Incident {
    pub kind: IncidentKind,
    /// What happened, for the journal.
    pub what: String,
}

/// Kinds of [`Incident`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IncidentKind {
    /// The link to the phone was lost and restored.
    Reconnect,
    /// The phone or the app was taken away from the game and brought back (screen off, app in
    /// the background, level reopened).
    Interruption,
}

/// A journal that keeps nothing.
impl Journal for () {
    fn event(&mut self, _: usize, _: Event, _: &[Point]) -> anyhow::Result<()> {
        Ok(())
    }
    fn write(&mut self, _: WriteKind, _: usize, _: u8, _: &[Point]) -> anyhow::Result<()> {
        Ok(())
    }
}

/// Settings of a performance.
#[derive(Debug, Clone)]
pub struct PerformOptions {
    /// Verify after this many taps (0: only at the end).
    pub verify_taps: u64,
    /// ... or after this much time.
    pub verify_interval: Duration,
    /// Check that the board is still there this often (or less often where a screenshot takes
    /// more than an eighth of this; zero: before every step).
    pub glance_interval: Duration,
    /// Show only the first N events, then fill the solution directly.
    pub max_visible_steps: Option<u64>,
    /// Resume: the events before this index are already on the screen.
    pub start_at: usize,
    /// Look at the screen before the first tap (when resuming).
    pub check_first: bool,
    /// Repair rounds in a row that may leave as many wrong cells as before, before giving up.
    pub stalled_rounds: u32,
    /// Raised by Ctrl-C: send the batch of taps under way, then stop.
    pub stop: StopFlag,
}

impl Default for PerformOptions {
    fn default() -> Self {
        PerformOptions {
            verify_taps: 2000,
            verify_interval: Duration::from_secs(30),
            glance_interval: Duration::from_secs(2),
            max_visible_steps: None,
            start_at: 0,
            check_first: false,
            stalled_rounds: 5,
            stop: StopFlag::default(),
        }
    }
}

/// How the end was recognised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Completion {
    /// The board read back from the screen is the solution.
    ReadBack,
    /// The app's completion screen replaced the board right after the completing write.
    Screen,
}

/// What a performance did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PerformReport {
    /// Events shown as taps (this run).
    pub events_shown: u64,
    /// Events computed on the host but not shown (`max_visible_steps`).
    pub events_hidden: u64,
    pub taps: u64,
    /// Repair writes: cells found wrong on screen and written again (an erase before a write
    /// counts as one too), as the journal counts them.
    pub repairs: u64,
    pub verifications: u64,
    /// Digits written that differ from the solution (what apps count as mistakes).
    pub wrong_digits: u64,
    /// Links lost and restored, and interruptions dealt with (screen off, app in the
    /// background, the level reopened).
    pub reconnects: u64,
    pub interruptions: u64,
    /// How the solved board was recognised; `None` unless the performance succeeded.
    pub completion: Option<Completion>,
    /// The words of the app's end screen (its completion or its game over), quoted.
    pub end_words: Option<String>,
    pub elapsed: Duration,
}

/// A performance that did not end with a solved board: what it did until then, and why.
#[derive(Debug, thiserror::Error)]
#[error("{error:#}")]
pub struct PerformError {
    pub report: PerformReport,
    pub error: anyhow::Error,
}

/// Where a performance stands, for progress displays.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Progress {
    pub done: u64,
    pub total: u64,
    pub taps: u64,
    pub repairs: u64,
    pub reconnects: u64,
    pub interruptions: u64,
}

/// Progress callback.
pub type ProgressFn<'a> = dyn FnMut(&Progress) + 'a;

/// A search to perform: its puzzle, its events in order, and the solution they end in.
#[derive(Debug, Clone, Copy)]
pub struct Search<'a> {
    pub puzzle: Board,
    pub events: &'a [Event],
    pub solution: Board,
}

/// Performs `search`'s events on the target as taps (see the module docs).
pub(crate) fn perform(
    search: &Search<'_>,
    layout: &Layout,
    target: &mut dyn Target,
    journal: &mut dyn Journal,
    options: &PerformOptions,
    progress: &mut ProgressFn<'_>,
) -> Result<PerformReport, PerformError> {
    let &Search {
        puzzle,
        events,
        solution,
    } = search;
    let start = Instant::now();
    let mut r = Performance {
        enc: Encoder::for_puzzle(layout, &puzzle),
        target,
        journal,
        options,
        expected: puzzle,
        puzzle,
        solution,
        report: PerformReport::default(),
        taps: Vec::with_capacity(4),
        since_verify: 0,
        last_verify: Instant::now(),
        last_look: Instant::now(),
        glance_every: options.glance_interval,
        done: 0,
        total: events.len() as u64,
        keys_unknown: layout.rules.finished_keys == crate::calibration::FinishedKeys::Unknown,
        keys_asked_at: None,
        wrong_since_look: 0,
        incidents_at_look: 0,
    };
    let result = r.run(events, progress);
    // What happened last (a reconnect before the device was given up) is journaled too.
    let noted = r.note_incidents();
    r.report.elapsed = start.elapsed();
    match result.and(noted) {
        Ok(()) => Ok(r.report),
        Err(error) => {
            r.report.completion = None;
            Err(PerformError {
                report: r.report,
                error,
            })
        }
    }
}

fn apply(board: &mut Board, ev: Event) {
    match ev {
        Event::Place { cell, digit } => board.set(cell as usize, digit),
        Event::Undo { cell, .. } => board.set(cell as usize, 0),
    }
}

struct Performance<'a, 'l> {
    enc: Encoder<'l>,
    target: &'a mut dyn Target,
    journal: &'a mut dyn Journal,
    options: &'a PerformOptions,
    puzzle: Board,
    solution: Board,
    /// What the host believes the screen shows.
    expected: Board,
    report: PerformReport,
    taps: Vec<Point>,
    since_verify: u64,
    last_verify: Instant,
    last_look: Instant,
    /// The glance interval: the option, or longer where screenshots are slow (a glance costs
    /// at most about an eighth of the time).
    glance_every: Duration,
    done: u64,
    total: u64,
    /// Whether keys move when a digit is finished is still to be seen on the screen.
    keys_unknown: bool,
    /// The verification count when the keypad was last looked at without an answer (the
    /// screen did not show the digit finished): once more only after the next verification.
    keys_asked_at: Option<u64>,
    /// Wrong digits written since the board was last seen: a screen that replaces the board
    /// right after one is the app's game over.
    wrong_since_look: u64,
    /// Reconnects and interruptions when the board was last seen: a screen that follows one
    /// (the app restarted, brought back) tells nothing about the taps before it.
    incidents_at_look: u64,
}

impl Performance<'_, '_> {
    fn run(&mut self, events: &[Event], progress: &mut ProgressFn<'_>) -> anyhow::Result<()> {
        let opts = self.options;
        let start_at = opts.start_at.min(events.len());
        for ev in &events[..start_at] {
            apply(&mut self.expected, *ev);
        }
        self.done = start_at as u64;
        if start_at > 0 || opts.check_first {
            // Resuming: the screen should show the journaled events; repair what was lost.
            let want = self.expected;
            self.verify(&want)?;
        }
        let visible_end = opts
            .max_visible_steps
            .map_or(events.len(), |n| (n as usize).min(events.len()))
            .max(start_at);
        // The write that completes the board comes after a verification, so a completion dialog
        // that hides the board cannot hide a wrong digit. With every event shown, that write is
        // the search's last event; otherwise the remaining cells are filled directly, one of
        // them last.
        let last_event =
            (visible_end == events.len() && start_at < events.len()).then(|| events.len() - 1);
        for (i, &ev) in events
            .iter()
            .enumerate()
            .take(last_event.unwrap_or(visible_end))
            .skip(start_at)
        {
            if self.report.completion.is_some() {
                return Ok(());
            }
            self.check_stop()?;
            // Look before the step's taps, not after them: what the screen turned into since
            // the last look (another app, another level) gets no tap.
            if self.due() {
                let want = self.expected;
                self.verify(&want)?;
            } else if self.last_look.elapsed() >= self.glance_every {
                self.glance()?;
            }
            if self.report.completion.is_some() {
                return Ok(());
            }
            let sent = self.send_event(i, ev);
            self.after(sent)?;
            self.done = i as u64 + 1;
            progress(&self.progress());
        }
        self.report.events_hidden = (events.len() - visible_end) as u64;
        if self.report.completion.is_some() {
            return Ok(());
        }

        let solution = self.solution;
        let final_cell = match last_event.map(|i| events[i]) {
            Some(Event::Place { cell, .. }) => Some(cell as usize),
            _ => (0..CELLS)
                .rev()
                .find(|&c| self.expected.get(c) != solution.get(c)),
        };
        // Every cell right but the last, which is empty: a wrong digit left there by the steps
        // shown goes with the others (where a finished digit's key hides, it would block the
        // key of its digit's ninth right place).
        let mut almost = solution;
        if let Some(c) = final_cell {
            almost.set(c, 0);
        }
        self.fill(&almost)?;
        self.verify(&almost)?;
        if self.report.completion.is_some() {
            return Ok(());
        }
        self.check_stop()?;
        // The completing write selects its cell whatever the encoder believes is selected, from a
        // given cell: a lost cell tap then sends its digit nowhere, so the screen that follows
        // it can only be the completion (or a popup).
        self.enc.reset_guarded();
        let sent = match (last_event, final_cell) {
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
        self.report.completion.get_or_insert(Completion::ReadBack);
        progress(&self.progress());
        Ok(())
    }

    fn progress(&self) -> Progress {
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
    fn note_incidents(&mut self) -> anyhow::Result<()> {
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
    fn after(&mut self, sent: anyhow::Result<()>) -> anyhow::Result<()> {
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
        let Some(d) = (1..9u8).find(|&d| {
            super::setnum::finished(&self.expected, d) && !super::setnum::finished(&self.puzzle, d)
        }) else {
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
            std::thread::sleep(wait);
        }
        let n = self.taps.len() as u64;
        self.report.taps += n;
        self.since_verify += n;
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
        self.enc.event(ev, &self.expected, &mut self.taps);
        let sent = self.send_taps();
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

    fn write(&mut self, kind: WriteKind, cell: usize, digit: u8) -> anyhow::Result<()> {
        // A lost link here is the caller's to look after (a repair round's next look).
        self.learn_keys()?;
        self.taps.clear();
        self.enc.write(cell, digit, &self.expected, &mut self.taps);
        let sent = self.send_taps();
        self.expected.set(cell, digit);
        if digit != 0 && digit != self.solution.get(cell) {
            self.report.wrong_digits += 1;
            self.wrong_since_look += 1;
        }
        self.journal.write(kind, cell, digit, &self.taps)?;
        sent
    }

    fn due(&self) -> bool {
        (self.options.verify_taps > 0 && self.since_verify >= self.options.verify_taps)
            || self.last_verify.elapsed() >= self.options.verify_interval
    }

    /// Is the board still there? If not, a full look (after the taps in flight landed).
    fn glance(&mut self) -> anyhow::Result<()> {
        let started = Instant::now();
        let glanced = self.target.glance();
        // Zero: before every step, as asked.
        let asked = self.options.glance_interval;
        if !asked.is_zero() {
            self.glance_every = asked.max(started.elapsed() * 8);
        }
        self.last_look = Instant::now();
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
    fn completed(&mut self, words: String) {
        self.report.completion = Some(Completion::Screen);
        self.report.end_words = Some(words);
        self.expected = self.solution;
    }

    /// The app ended the game (`words`).
    fn game_over(&mut self, words: String) -> anyhow::Error {
        self.report.end_words = Some(words.clone());
        Stop::GameOver {
            mistakes: self.report.wrong_digits,
            what: words,
        }
        .into()
    }

    /// Looks at the screen until it shows `want` (or the app's completion screen), repairing
    /// what differs round after round while the rounds make progress.
    fn verify(&mut self, want: &Board) -> anyhow::Result<()> {
        let mut best = usize::MAX;
        let mut stalled = 0;
        let mut backed = false;
        // The app's own screen that replaced the board, before BACK was pressed on it.
        let mut before_back: Option<String> = None;
        let mut reopened = false;
        let mut restored = 0;
        // Stalled rounds whose look found the phone interrupted (the screen off, the app away).
        let mut interrupted = 0;
        loop {
            self.since_verify = 0;
            self.last_verify = Instant::now();
            self.last_look = self.last_verify;
            if let Err(stop) = self.options.stop.check() {
                return Err(stop.into());
            }
            let seen = self.target.sync().and_then(|()| {
                // A late clear the taps just asked for falls due first: a look before it sees
                // the digit still there, and the next round's tap would write it back.
                if let Some(rest) = self.enc.late_pending() {
                    std::thread::sleep(rest);
                }
                self.target.look()
            });
            let before = self.report.interruptions;
            self.note_incidents()?;
            let was_interrupted = self.report.interruptions > before;
            let seen = match seen {
                Ok(seen) => seen,
                Err(e) if is_restored(&e) && restored < 20 => {
                    restored += 1;
                    self.enc.reset();
                    continue;
                }
                Err(e) => return Err(e),
            };
            self.report.verifications += 1;
            tracing::trace!(step = self.done, "verifying the screen");
            match seen {
                Seen::Board(board) => {
                    backed = false;
                    before_back = None;
                    self.incidents_at_look = self.report.reconnects + self.report.interruptions;
                    let wrong_before = std::mem::take(&mut self.wrong_since_look);
                    let wrong: Vec<usize> = (0..CELLS)
                        .filter(|&c| board.get(c) != want.get(c))
                        .collect();
                    if wrong.is_empty() {
                        self.expected = *want;
                        return Ok(());
                    }
                    tracing::debug!(
                        step = self.done,
                        cells = wrong.len(),
                        wrong = %wrong.iter().map(|&c| format!("{}={}", crate::board::cell_name(c), board.get(c))).collect::<Vec<_>>().join(" "),
                        round = stalled,
                        "the screen differs from the search: repairing"
                    );
                    if let Some(&c) = wrong.iter().find(|&&c| self.puzzle.get(c) != 0) {
                        anyhow::bail!(
                            "the board on screen has {} at the given {} where the puzzle has {}: is this still the same level?",
                            board.get(c),
                            crate::board::cell_name(c),
                            self.puzzle.get(c)
                        );
                    }
                    if wrong.len() < best {
                        (best, stalled, interrupted) = (wrong.len(), 0, 0);
                    } else {
                        stalled += 1;
                        // Taps that change nothing on a board that stays: the app may show
                        // its end under the board (a game over as a line, the keypad gone).
                        if stalled == 1 {
                            match self.target.new_words() {
                                Ok(Some(words))
                                    if self.report.wrong_digits > 0 || wrong_before > 0 =>
                                {
                                    return Err(self.game_over(words));
                                }
                                Ok(Some(words)) => tracing::debug!(
                                    %words,
                                    "new words on the screen, and no wrong digit written"
                                ),
                                Ok(None) => {}
                                Err(e) if is_restored(&e) && restored < 20 => {
                                    // The link came back: look again before any tap.
                                    restored += 1;
                                    self.enc.reset();
                                    continue;
                                }
                                Err(e) => return Err(e),
                            }
                        }
                        interrupted += u32::from(was_interrupted);
                        if stalled > self.options.stalled_rounds {
                            // Every round's look found the phone interrupted: the taps after it
                            // were lost the same way. Only digits that should be gone: erasing
                            // is what fails.
                            let hint = if interrupted >= stalled {
                                "the phone was interrupted again before every round's taps (the screen \
                                 turned off, or the app left), so they were lost: set a longer screen \
                                 timeout (or \"Stay awake\" in the developer options) and keep other apps \
                                 from taking the screen"
                            } else if self.enc.layout().rules.retap
                                == crate::calibration::Retap::Pencil
                            {
                                "the app's pencil mode may be on (a lost tap re-tapped the selected \
                                 cell, which toggles it): switch it off on the phone, then `autoplay \
                                 resume`"
                            } else if self.enc.layout().order == crate::calibration::InputMode::Both
                            {
                                "the app may hold a brush (a digit tapped while no cell was selected, \
                                 after a lost tap: cell taps then write it): tap that digit's key again \
                                 on the phone to drop it, then `autoplay resume`"
                            } else if wrong.iter().all(|&c| want.get(c) == 0) {
                                "those cells should be empty, but erasing does not clear them: check the \
                                 calibration's erase key (`autoplay calibrate --erase X,Y`, or `--erase toggle` \
                                 where tapping the digit again clears it)"
                            } else {
                                "are the taps landing where they should? Check the calibration (`autoplay \
                                 calibrate`), and the touch panel and tap channel `autoplay doctor` reports (or \
                                 try `--input input`)"
                            };
                            anyhow::bail!(
                                "the board on screen still differs from the search in {} cells ({}) after {} repair \
                                 rounds without progress: {hint}",
                                wrong.len(),
                                wrong
                                    .iter()
                                    .take(5)
                                    .map(|&c| crate::board::cell_name(c))
                                    .collect::<Vec<_>>()
                                    .join(", "),
                                self.options.stalled_rounds
                            );
                        }
                    }
                    // What is on screen is the truth now. A lost cell tap sends the digit to the
                    // cell selected before, so every repair selects its cell again.
                    for &c in &wrong {
                        self.expected.set(c, board.get(c));
                    }
                    // Wrong digits are erased before any digit is written: apps that hide a
                    // digit's key once nine of it are on the board (a wrong digit makes nine
                    // early) would otherwise refuse the very digit that repairs another cell.
                    // Once they are gone, no digit on screen outnumbers the search's, so every
                    // key a repair needs is there.
                    let erase = wrong
                        .iter()
                        .filter(|&&c| board.get(c) != 0 && want.get(c) != 0)
                        .map(|&c| (c, 0));
                    let writes = wrong.iter().map(|&c| (c, want.get(c)));
                    for (c, digit) in erase.chain(writes) {
                        self.enc.reset();
                        // Every repair write counts (an erase too), as the journal counts them.
                        self.report.repairs += 1;
                        tracing::debug!(
                            cell = %crate::board::cell_name(c),
                            seen = self.expected.get(c),
                            want = want.get(c),
                            write = digit,
                            "repair"
                        );
                        let sent = self.write(WriteKind::Repair, c, digit);
                        match sent {
                            Ok(()) => {}
                            Err(e) if is_restored(&e) => break,
                            Err(e) => return Err(e),
                        }
                    }
                }
                Seen::Completed { what } => {
                    tracing::debug!(step = self.done, %what, "the app shows its completion screen");
                    self.completed(what);
                    return Ok(());
                }
                Seen::GameOver { what } => {
                    tracing::debug!(%what, "the app ended the game");
                    if self.report.taps == 0 && !reopened && self.target.reopen()? {
                        // Resuming a lost game (its mistake limit turned off since): again from
                        // the level's start.
                        reopened = true;
                        (best, stalled) = (usize::MAX, 0);
                        self.note_incidents()?;
                        continue;
                    }
                    return Err(self.game_over(what));
                }
                Seen::Other { what, in_app } => {
                    tracing::debug!(%what, backed, reopened, "the board is not on the screen");
                    self.enc.reset();
                    let undisturbed = self.incidents_at_look
                        == self.report.reconnects + self.report.interruptions;
                    // BACK must have changed the screen: a dialog that ignores BACK (or a phone
                    // that refused the key) tells nothing.
                    let changed = before_back.as_ref().is_some_and(|w| *w != what);
                    if let Some(words) = before_back.take().filter(|_| undisturbed && changed) {
                        // A screen of the app replaced the board, and BACK did not bring the
                        // board back: no popup. Right after the write that completed the
                        // board, it is the completion; right after wrong digits, the game over
                        // (its words, in whatever language, are quoted).
                        if self.expected == self.solution {
                            self.completed(words);
                            return Ok(());
                        }
                        if self.wrong_since_look > 0 {
                            return Err(self.game_over(words));
                        }
                    }
                    if !backed {
                        // A popup may cover the board: BACK once, then look again.
                        backed = true;
                        before_back = in_app.then_some(what);
                        match self.target.back() {
                            Ok(()) => {}
                            Err(e) if is_restored(&e) => {}
                            Err(e) => return Err(e),
                        }
                        continue;
                    }
                    if !reopened && self.target.reopen()? {
                        // The app restarted: the level from scratch, then every digit again.
                        reopened = true;
                        backed = false;
                        (best, stalled) = (usize::MAX, 0);
                        self.note_incidents()?;
                        continue;
                    }
                    return Err(Stop::UnknownScreen { what }.into());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::setnum::{Cancel, InputOrder};
    use crate::play::stop::Restored;
    use crate::solver::{Options, Recorder, Strategy, search};

    /// A cell-first app in memory: a tap on a cell selects it, a keypad tap writes (or, with a
    /// toggle layout, clears a cell holding that digit), erase clears; taps can be dropped, a popup can swallow them, the link can drop, the game can
    /// end after too many mistakes.
    struct MemoryApp<'a> {
        layout: &'a Layout,
        board: Board,
        givens: Board,
        solution: Board,
        selected: Option<usize>,
        taps: u64,
        /// Drops taps whose number is in this set (1-based).
        drop: Box<dyn Fn(u64) -> bool>,
        completed_hides_board: bool,
        popup_at: Option<u64>,
        popup: bool,
        restore_at: Option<u64>,
        /// Asking for the screen's words loses the link this many times (then: no new words).
        words_lost: u32,
        /// BACK does not close the popup (a dialog that ignores it, or a phone that refuses
        /// the key).
        stuck_popup: bool,
        mistake_limit: Option<u32>,
        mistakes: u32,
        /// A digit's key does nothing while nine of it are on the board (apps that hide it).
        hide_completed: bool,
        /// A digit tapped again stays (the layout's toggle is a wrong guess).
        retap_keeps: bool,
        /// After the first look, the screen turns off after every look: the taps that follow
        /// are lost, and the next look wakes it (an interruption).
        sleeps_after_look: bool,
        /// The end screens' words are in a language the player does not know, and BACK on them
        /// leaves for the level list.
        foreign_ends: bool,
        left: bool,
        asleep: bool,
        incidents: Vec<Incident>,
        /// A digit tapped again clears its cell this much later, whatever it holds then.
        clear_late: Option<Duration>,
        late_clears: Vec<(Instant, usize)>,
    }

    impl MemoryApp<'_> {
        fn over(&self) -> bool {
            self.mistake_limit.is_some_and(|n| self.mistakes >= n)
        }

        /// The late clears that fell due.
        fn advance(&mut self) {
            let now = Instant::now();
            for &(_, c) in self.late_clears.iter().filter(|(due, _)| *due <= now) {
                self.board.set(c, 0);
            }
            self.late_clears.retain(|(due, _)| *due > now);
        }
    }

    impl Target for MemoryApp<'_> {
        fn tap(&mut self, p: Point) -> anyhow::Result<()> {
            self.advance();
            self.taps += 1;
            if self.restore_at == Some(self.taps) {
                // The link drops with this tap (lost), and comes back.
                self.restore_at = None;
                return Err(Restored.into());
            }
            if (self.drop)(self.taps) || self.popup || self.over() || self.asleep {
                return Ok(());
            }
            if let Some(c) = self.layout.cells.iter().position(|&q| q == p) {
                self.selected = Some(c);
            } else if let Some(c) = self.selected.filter(|&c| self.givens.get(c) == 0) {
                let toggles = self.layout.cancel == Cancel::Toggle && !self.retap_keeps;
                if let Some(d) = self.layout.keypad.iter().position(|&q| q == p) {
                    let d = d as u8 + 1;
                    let placed = (0..CELLS).filter(|&c| self.board.get(c) == d).count();
                    if self.hide_completed && placed == 9 {
                        // The key is hidden: the tap lands on nothing.
                    } else if toggles && self.board.get(c) == d {
                        match self.clear_late {
                            Some(late) => self.late_clears.push((Instant::now() + late, c)),
                            None => self.board.set(c, 0),
                        }
                    } else {
                        self.board.set(c, d);
                        if d != self.solution.get(c) {
                            self.mistakes += 1;
                        }
                    }
                } else if self.layout.cancel == Cancel::Erase(p) {
                    self.board.set(c, 0);
                }
            }
            if self.popup_at == Some(self.taps) {
                self.popup = true;
            }
            Ok(())
        }
        fn sync(&mut self) -> anyhow::Result<()> {
            Ok(())
        }
        fn incidents(&mut self) -> Vec<Incident> {
            std::mem::take(&mut self.incidents)
        }
        fn new_words(&mut self) -> anyhow::Result<Option<String>> {
            if self.words_lost > 0 {
                self.words_lost -= 1;
                return Err(Restored.into());
            }
            Ok(None)
        }
        fn look(&mut self) -> anyhow::Result<Seen> {
            self.advance();
            if self.asleep {
                self.incidents.push(Incident {
                    kind: IncidentKind::Interruption,
                    what: "the screen was off: woke it up".into(),
                });
            }
            self.asleep = self.sleeps_after_look;
            let ended = self.over() || (self.board.is_solved() && self.completed_hides_board);
            Ok(if self.left {
                Seen::Other {
                    what: "\"Επίπεδα\"".into(),
                    in_app: true,
                }
            } else if self.foreign_ends && ended && !self.popup {
                Seen::Other {
                    what: "\"Τέλος\"".into(),
                    in_app: true,
                }
            } else if self.over() {
                Seen::GameOver {
                    what: "\"Game over\"".into(),
                }
            } else if self.popup {
                Seen::Other {
                    what: "\"Rate this app\"".into(),
                    in_app: true,
                }
            } else if self.board.is_solved() && self.completed_hides_board {
                Seen::Completed {
                    what: "\"Well done\"".into(),
                }
            } else {
                Seen::Board(self.board)
            })
        }
        fn back(&mut self) -> anyhow::Result<()> {
            let ended = self.over() || (self.board.is_solved() && self.completed_hides_board);
            if !self.popup && self.foreign_ends && ended {
                self.left = true;
            }
            self.popup &= self.stuck_popup;
            Ok(())
        }
    }

    fn layout() -> Layout {
        crate::play::setnum::test_layout(InputOrder::CellFirst, false)
    }

    const LEET: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn app(layout: &Layout, puzzle: Board, solution: Board) -> MemoryApp<'_> {
        MemoryApp {
            layout,
            board: puzzle,
            givens: puzzle,
            solution,
            selected: None,
            taps: 0,
            drop: Box::new(|_| false),
            completed_hides_board: true,
            popup_at: None,
            popup: false,
            restore_at: None,
            mistake_limit: None,
            mistakes: 0,
            hide_completed: false,
            retap_keeps: false,
            sleeps_after_look: false,
            foreign_ends: false,
            left: false,
            words_lost: 0,
            stuck_popup: false,
            asleep: false,
            incidents: Vec::new(),
            clear_late: None,
            late_clears: Vec::new(),
        }
    }

    fn search_of(strategy: Strategy) -> (Board, Vec<Event>, Board) {
        let puzzle = Board::parse(LEET).unwrap();
        let mut rec = Recorder::default();
        let solution = search(strategy, &puzzle, &Options::default(), &mut rec)
            .solution()
            .unwrap();
        (puzzle, rec.0, solution)
    }

    fn run_with(
        strategy: Strategy,
        options: PerformOptions,
        setup: impl FnOnce(&mut MemoryApp),
    ) -> (Result<PerformReport, PerformError>, Board, u64) {
        run_on(layout(), strategy, options, setup)
    }

    fn run_on(
        layout: Layout,
        strategy: Strategy,
        options: PerformOptions,
        setup: impl FnOnce(&mut MemoryApp),
    ) -> (Result<PerformReport, PerformError>, Board, u64) {
        let (puzzle, events, solution) = search_of(strategy);
        let mut app = app(&layout, puzzle, solution);
        setup(&mut app);
        let r = perform(
            &Search {
                puzzle,
                events: &events,
                solution,
            },
            &layout,
            &mut app,
            &mut (),
            &options,
            &mut |_| {},
        );
        (r, app.board, app.taps)
    }

    fn solved(
        strategy: Strategy,
        options: PerformOptions,
        setup: impl FnOnce(&mut MemoryApp),
    ) -> PerformReport {
        let (puzzle, _, solution) = search_of(strategy);
        let (r, board, taps) = run_with(strategy, options, setup);
        let report = r.unwrap_or_else(|e| panic!("{e:#}: {:?}", e.report));
        assert_eq!(board, solution, "from {puzzle}");
        assert_eq!(report.taps, taps);
        report
    }

    #[test]
    fn every_event_becomes_taps() {
        let report = solved(Strategy::RowMajor, PerformOptions::default(), |_| {});
        assert_eq!(report.events_shown, 4208 + 4157);
        assert_eq!(report.repairs, 0);
        assert_eq!(report.completion, Some(Completion::Screen));
        assert!(
            report.wrong_digits > 1000 && report.wrong_digits <= 4208,
            "{report:?}"
        );
    }

    #[test]
    fn a_dialog_back_does_not_close_is_no_game_over_even_right_after_wrong_digits() {
        let (r, _, _) = run_with(Strategy::RowMajor, PerformOptions::default(), |a| {
            a.popup_at = Some(300);
            a.stuck_popup = true;
        });
        let e = r.expect_err("a stop");
        assert!(
            matches!(
                crate::play::stop::stop_of(&e.error),
                Some(Stop::UnknownScreen { .. })
            ),
            "{:#}",
            e.error
        );
    }

    #[test]
    fn a_link_lost_while_reading_the_screens_words_is_no_error_of_its_own() {
        // Every tap after the 100th is lost: the repairs stall, the screen's words are asked
        // for, the link is lost twice meanwhile; the run ends on the stall, not on the link.
        let (r, _, _) = run_with(Strategy::RowMajor, PerformOptions::default(), |a| {
            a.drop = Box::new(|n| n > 100);
            a.words_lost = 2;
        });
        let e = r.expect_err("a stall");
        assert!(!is_restored(&e.error), "{:#}", e.error);
        assert!(
            format!("{:#}", e.error).contains("repair rounds"),
            "{:#}",
            e.error
        );
    }

    #[test]
    fn end_screens_in_unknown_words_are_told_by_what_came_right_before_them() {
        // Right after the completing write: the completion, its words quoted.
        let report = solved(Strategy::RowMajor, PerformOptions::default(), |a| {
            a.foreign_ends = true;
        });
        assert_eq!(report.completion, Some(Completion::Screen));
        assert_eq!(report.end_words.as_deref(), Some("\"Τέλος\""));
        // ... even with a popup over the board on the last tap: BACK closes it and the board,
        // solved, is read back.
        let (_, events, _) = search_of(Strategy::RowMajor);
        let report = solved(Strategy::RowMajor, PerformOptions::default(), |a| {
            a.foreign_ends = true;
            a.popup_at = Some(events.len() as u64 * 2 - 1);
        });
        assert!(report.completion.is_some(), "{report:?}");
        // Right after wrong digits: the game over, never a solve.
        let (r, _, _) = run_with(Strategy::RowMajor, PerformOptions::default(), |a| {
            a.foreign_ends = true;
            a.mistake_limit = Some(3);
        });
        let e = r.expect_err("a game over");
        assert!(
            matches!(
                crate::play::stop::stop_of(&e.error),
                Some(Stop::GameOver { what, .. }) if what == "\"Τέλος\""
            ),
            "{:#}",
            e.error
        );
        assert_eq!(e.report.completion, None);
    }

    #[test]
    fn toggle_apps_are_erased_by_tapping_the_digit_again_and_repaired_too() {
        let toggle = crate::play::setnum::test_layout(InputOrder::CellFirst, true);
        let (puzzle, _, solution) = search_of(Strategy::RowMajor);
        let (r, board, taps) = run_on(
            toggle.clone(),
            Strategy::RowMajor,
            PerformOptions::default(),
            |_| {},
        );
        let report = r.unwrap_or_else(|e| panic!("{e:#}: {:?}", e.report));
        assert_eq!(board, solution, "from {puzzle}");
        assert_eq!(report.events_shown, 4208 + 4157);
        assert_eq!(report.taps, taps);
        let opts = PerformOptions {
            verify_taps: 300,
            ..PerformOptions::default()
        };
        let (r, board, _) = run_on(toggle, Strategy::RowMajor, opts, |a| {
            a.drop = Box::new(|n| n.is_multiple_of(89))
        });
        let report = r.unwrap_or_else(|e| panic!("{e:#}: {:?}", e.report));
        assert_eq!(board, solution);
        assert!(report.repairs > 0, "{report:?}");
    }

    #[test]
    fn a_toggle_that_does_not_clear_is_named_as_the_erase_key() {
        // Where calibration found no erase key it guesses `toggle`; in an app where a digit
        // tapped again stays, the backtracking's undos leave digits the repairs cannot clear.
        let toggle = crate::play::setnum::test_layout(InputOrder::CellFirst, true);
        let opts = PerformOptions {
            verify_taps: 300,
            ..PerformOptions::default()
        };
        let (r, _, _) = run_on(toggle, Strategy::RowMajor, opts, |a| a.retap_keeps = true);
        let e = r.unwrap_err();
        let text = format!("{e:#}");
        assert!(
            text.contains("erasing does not clear them") && text.contains("--erase X,Y"),
            "{text}"
        );
    }

    #[test]
    fn a_screen_that_sleeps_before_every_rounds_taps_is_named() {
        // Found by the campaign: a screen timeout of 1 s on a phone whose wake, settle and
        // screenshot take longer, so the display is off again when a round's repairs go out.
        let (r, _, _) = run_with(Strategy::Mrv, PerformOptions::default(), |a| {
            a.sleeps_after_look = true;
            a.asleep = true;
        });
        let text = format!("{:#}", r.unwrap_err());
        assert!(
            text.contains("interrupted again before every round")
                && text.contains("screen timeout"),
            "{text}"
        );
    }

    #[test]
    fn the_board_read_back_solved_is_a_completion_too() {
        let report = solved(Strategy::Mrv, PerformOptions::default(), |a| {
            a.completed_hides_board = false
        });
        assert_eq!(report.completion, Some(Completion::ReadBack));
    }

    #[test]
    fn dropped_taps_are_repaired() {
        let opts = PerformOptions {
            verify_taps: 500,
            ..PerformOptions::default()
        };
        let report = solved(Strategy::RowMajor, opts, |a| {
            a.drop = Box::new(|n| n.is_multiple_of(97))
        });
        assert!(report.repairs > 0, "{report:?}");
        assert!(report.verifications > 2);
    }

    #[test]
    fn a_look_waits_for_the_late_clears_the_taps_asked_for() {
        // An app whose digit tapped again clears its cell 20 ms later, looked at after every
        // few taps: a look at once would still see the digits of the undos just sent, and the
        // repair's tap on each would write it back when the clear fell due (the campaign's
        // stall).
        let mut l = crate::play::setnum::test_layout(InputOrder::CellFirst, true);
        l.rules.same_digit = Some(crate::calibration::SameDigit::ClearLate);
        l.rules.clear_late_ms = Some(20);
        let options = PerformOptions {
            verify_taps: 12,
            ..PerformOptions::default()
        };
        let (r, board, _) = run_on(l, Strategy::Static, options, |app| {
            app.clear_late = Some(Duration::from_millis(20));
        });
        let report = r.unwrap();
        assert!(board.is_solved());
        assert_eq!(report.repairs, 0, "{report:?}");
    }

    #[test]
    fn repairs_go_on_while_they_make_progress() {
        // One tap in three lost: a repair round often creates new wrong cells (a lost cell tap
        // sends the digit to the cell selected before), but every few rounds gain.
        for seed in 0..5u64 {
            let opts = PerformOptions {
                verify_taps: 300,
                ..PerformOptions::default()
            };
            let report = solved(Strategy::Mrv, opts, move |a| a.drop = drops(seed, 3));
            assert!(report.repairs > 10, "{report:?}");
        }
    }

    /// Drops tap `n` with probability 1/`one_in`, drawn from `seed`.
    fn drops(seed: u64, one_in: u64) -> Box<dyn Fn(u64) -> bool> {
        Box::new(move |n| {
            let mut z = (n ^ seed << 32).wrapping_add(0x9E37_79B9_7F4A_7C15);
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            (z ^ (z >> 31)).is_multiple_of(one_in)
        })
    }

    #[test]
    fn wrong_digits_are_erased_before_repairs_write_where_completed_keys_hide() {
        // Issue 27, case 3: a lost cell tap sends a right digit into the cell selected before,
        // a wrong digit there. Where the app hides a digit's key once nine are on the board,
        // that wrong digit completes its digit early, and the cell that wants it cannot get it
        // until the wrong one is erased; rewriting cell by cell stalled in a ring of such cells.
        for seed in 0..20u64 {
            let opts = PerformOptions {
                verify_taps: 40,
                ..PerformOptions::default()
            };
            let report = solved(Strategy::Fast, opts, move |a| {
                a.hide_completed = true;
                a.drop = drops(seed, 5);
            });
            assert!(report.repairs > 0, "{report:?}");
        }
    }

    #[test]
    fn a_popup_that_swallows_the_last_tap_is_no_success_until_repaired() {
        let (_, events, _) = search_of(Strategy::Mrv);
        // Every mrv event is a placement of two taps; the popup opens on the last cell tap.
        let last_cell_tap = events.len() as u64 * 2 - 1;
        let report = solved(Strategy::Mrv, PerformOptions::default(), |a| {
            a.popup_at = Some(last_cell_tap)
        });
        assert_eq!(report.repairs, 1, "{report:?}");
        assert_eq!(report.completion, Some(Completion::Screen));
    }

    #[test]
    fn the_completing_write_can_be_a_repair() {
        let (_, events, _) = search_of(Strategy::Mrv);
        let last_digit_tap = events.len() as u64 * 2;
        let report = solved(Strategy::Mrv, PerformOptions::default(), |a| {
            a.drop = Box::new(move |n| n == last_digit_tap)
        });
        assert_eq!(
            (report.repairs, report.completion),
            (1, Some(Completion::Screen))
        );
    }

    #[test]
    fn a_restored_link_is_looked_at_and_repaired() {
        let report = solved(Strategy::RowMajor, PerformOptions::default(), |a| {
            a.restore_at = Some(1001)
        });
        assert!(report.repairs >= 1, "{report:?}");
        assert!(report.verifications >= 2, "{report:?}");
    }

    #[test]
    fn game_over_stops_with_the_mistakes_counted() {
        let opts = PerformOptions {
            glance_interval: Duration::ZERO,
            ..PerformOptions::default()
        };
        let (r, _, _) = run_with(Strategy::RowMajor, opts, |a| a.mistake_limit = Some(3));
        let e = r.unwrap_err();
        match crate::play::stop::stop_of(&e.error) {
            Some(Stop::GameOver { mistakes, .. }) => assert_eq!(*mistakes, 3),
            other => panic!("{other:?}: {e:#}"),
        }
        assert_eq!(e.report.completion, None);
        // fast places only right digits.
        let report = solved(Strategy::Fast, PerformOptions::default(), |a| {
            a.mistake_limit = Some(1)
        });
        assert_eq!(report.wrong_digits, 0);
    }

    #[test]
    fn an_unknown_screen_stops_after_one_back() {
        let (r, _, _) = run_with(Strategy::Mrv, PerformOptions::default(), |a| {
            a.popup_at = Some(10);
            a.mistake_limit = None;
        });
        r.unwrap();
        struct Stuck;
        impl Target for Stuck {
            fn tap(&mut self, _: Point) -> anyhow::Result<()> {
                Ok(())
            }
            fn sync(&mut self) -> anyhow::Result<()> {
                Ok(())
            }
            fn look(&mut self) -> anyhow::Result<Seen> {
                Ok(Seen::Other {
                    what: "the launcher".into(),
                    in_app: false,
                })
            }
            fn back(&mut self) -> anyhow::Result<()> {
                Ok(())
            }
        }
        let layout = layout();
        let (puzzle, events, solution) = search_of(Strategy::Mrv);
        let e = perform(
            &Search {
                puzzle,
                events: &events,
                solution,
            },
            &layout,
            &mut Stuck,
            &mut (),
            &PerformOptions::default(),
            &mut |_| {},
        )
        .unwrap_err();
        assert!(
            matches!(crate::play::stop::stop_of(&e.error), Some(Stop::UnknownScreen { what }) if what == "the launcher"),
            "{e:#}"
        );
    }

    #[test]
    fn a_stop_request_ends_the_performance() {
        let stop = StopFlag::default();
        stop.raise(2);
        let opts = PerformOptions {
            stop,
            ..PerformOptions::default()
        };
        let (r, _, taps) = run_with(Strategy::RowMajor, opts, |_| {});
        let e = r.unwrap_err();
        assert_eq!(
            crate::play::stop::stop_of(&e.error),
            Some(&Stop::Interrupted { signal: "Ctrl-C" })
        );
        assert_eq!(taps, 0);
    }

    #[test]
    fn hidden_steps_are_filled_directly() {
        let opts = PerformOptions {
            max_visible_steps: Some(100),
            ..PerformOptions::default()
        };
        let report = solved(Strategy::RowMajor, opts, |_| {});
        assert_eq!(report.events_shown, 100);
        assert_eq!(report.events_hidden, 4208 + 4157 - 100);
    }

    #[test]
    fn the_last_cell_left_is_emptied_first_where_the_shown_steps_left_a_wrong_digit_in_it() {
        // The steps shown end with a wrong digit in the cell the fill leaves for last: it must
        // be erased with the other wrong ones, or (where a finished digit's key hides) it
        // blocks the key the fill needs for that digit's ninth right place. The campaign's
        // tinted phones stalled so.
        let layout = layout();
        let (puzzle, _, solution) = search_of(Strategy::RowMajor);
        let last = (0..CELLS).rev().find(|&c| puzzle.get(c) == 0).unwrap();
        let wrong = (1..=9).find(|&d| d != solution.get(last)).unwrap();
        let first = (0..CELLS).find(|&c| puzzle.get(c) == 0).unwrap();
        let events = [
            Event::Place {
                cell: last as u8,
                digit: wrong,
            },
            Event::Place {
                cell: first as u8,
                digit: solution.get(first),
            },
        ];
        let mut app = app(&layout, puzzle, solution);
        app.hide_completed = true;
        let opts = PerformOptions {
            max_visible_steps: Some(1),
            ..PerformOptions::default()
        };
        let search = Search {
            puzzle,
            events: &events,
            solution,
        };
        perform(&search, &layout, &mut app, &mut (), &opts, &mut |_| {})
            .unwrap_or_else(|e| panic!("{:#}", e.error));
        assert_eq!(app.board, solution);
    }

    #[test]
    fn resume_skips_what_is_on_screen() {
        let layout = layout();
        let (puzzle, events, solution) = search_of(Strategy::Mrv);
        let mut on_screen = puzzle;
        for ev in &events[..20] {
            apply(&mut on_screen, *ev);
        }
        let mut app = app(&layout, puzzle, solution);
        app.board = on_screen;
        let opts = PerformOptions {
            start_at: 20,
            ..PerformOptions::default()
        };
        let report = perform(
            &Search {
                puzzle,
                events: &events,
                solution,
            },
            &layout,
            &mut app,
            &mut (),
            &opts,
            &mut |_| {},
        )
        .unwrap();
        assert_eq!(report.events_shown, events.len() as u64 - 20);
        assert_eq!(app.board, solution);
    }
}
