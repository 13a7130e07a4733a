//! A performance under way: its parts held together ([`Performance`]) and passed to the
//! functions that perform (`send.rs`, `judge.rs`, `verify.rs`, `fill.rs`, `several.rs`,
//! `engine.rs`, each calling only into those before it). Each part is a type of its own: the
//! puzzle (`puzzle.rs`), what the host believes the screen shows (`screen.rs`), whether the
//! taps land (the taps seen lost, `stall.rs`'s `Loss`, and the early proof, `proof.rs`), when
//! the next look is due (`looks.rs`) and the budget's deadline (`deadline.rs`). The methods
//! here touch only the parts: the incidents journaled and counted, the progress, the clock,
//! and the end the app showed.

use super::deadline::Deadline;
use super::journal::Journal;
use super::keys::Keys;
use super::looks::Looks;
use super::options::PerformOptions;
use super::proof::Proof;
use super::puzzle::Puzzle;
use super::report::{Completion, PerformReport, Progress};
use super::screen::Screen;
use super::search::Search;
use super::stall::Loss;
use crate::play::setnum::{Encoder, Layout};
use crate::play::stop::Stop;
use crate::play::target::{IncidentKind, Point, Target};
use std::time::{Duration, Instant};

/// A performance under way: the seam, the settings, and the parts of its state.
pub(super) struct Performance<'a, 'l> {
    pub(super) target: &'a mut dyn Target,
    pub(super) journal: &'a mut dyn Journal,
    pub(super) options: &'a PerformOptions,
    /// Events and writes to taps.
    pub(super) enc: Encoder<'l>,
    /// The taps of the event or write under way.
    pub(super) taps: Vec<Point>,
    pub(super) puzzle: Puzzle,
    pub(super) screen: Screen,
    pub(super) report: PerformReport,
    pub(super) steps: Steps,
    pub(super) landing: Landing,
    pub(super) timing: Timing,
}

/// The search's events performed so far, of all.
pub(super) struct Steps {
    pub(super) done: u64,
    pub(super) total: u64,
}

/// Whether the run's taps land.
pub(super) struct Landing {
    /// The taps seen lost so far (how many repair rounds without progress make a stall).
    pub(super) loss: Loss,
    /// Whether the run's taps are seen to land (`proof.rs`).
    pub(super) proof: Proof,
}

/// The performance on the target's clock.
pub(super) struct Timing {
    /// When the performance began.
    pub(super) start: Instant,
    /// When the next look is due (`looks.rs`).
    pub(super) looks: Looks,
    /// The budget, held while the steps are shown.
    pub(super) deadline: Option<Deadline>,
}

impl<'a, 'l> Performance<'a, 'l> {
    /// The performance of `search` on `target`, laid out as `layout`, not begun.
    pub(super) fn new(
        search: &Search<'_>,
        layout: &'l Layout,
        target: &'a mut dyn Target,
        journal: &'a mut dyn Journal,
        options: &'a PerformOptions,
    ) -> Self {
        let start = target.now();
        let puzzle = Puzzle::new(search.givens, search.solution);
        let fill_taps = crate::play::plan::fill_taps_per_cell(layout);
        let deadline = options
            .budget
            .map(|b| Deadline::new(start, b, fill_taps, puzzle.several));
        Performance {
            enc: Encoder::for_givens(layout, &search.givens),
            target,
            journal,
            options,
            taps: Vec::with_capacity(4),
            screen: Screen::new(search.givens, Keys::new(layout)),
            puzzle,
            report: PerformReport::default(),
            steps: Steps {
                done: 0,
                total: search.events.len() as u64,
            },
            landing: Landing {
                loss: Loss::default(),
                proof: Proof::new(),
            },
            timing: Timing {
                start,
                looks: Looks::new(start, options.glance_interval),
                deadline,
            },
        }
    }

    /// A look ran from `started` until now: the budget's deadline counts it apart from the
    /// taps' time (see [`Deadline::looked`]; `full`: a verification's, where nothing happened
    /// to the phone).
    pub(super) fn looked(&mut self, started: Instant, full: bool) {
        let (now, taps) = (self.target.now(), self.report.taps);
        if let Some(deadline) = self.timing.deadline.as_mut() {
            deadline.looked(started, now, taps, full);
        }
    }

    /// The time since `then`, on the target's clock.
    pub(super) fn since(&self, then: Instant) -> Duration {
        self.target.now().saturating_duration_since(then)
    }

    pub(super) fn progress(&self) -> Progress {
        Progress {
            done: self.steps.done,
            total: self.steps.total,
            taps: self.report.taps,
            repairs: self.report.repairs,
            reconnects: self.report.incidents.reconnects,
            interruptions: self.report.incidents.interruptions,
        }
    }

    /// Reconnects and interruptions so far.
    pub(super) fn incidents(&self) -> u64 {
        self.report.incidents.reconnects + self.report.incidents.interruptions
    }

    /// Ctrl-C: the taps already queued are sent, then the run stops.
    pub(super) fn check_stop(&mut self) -> anyhow::Result<()> {
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
            let counts = &mut self.report.incidents;
            match incident.kind {
                IncidentKind::Reconnect => counts.reconnects += 1,
                IncidentKind::Interruption => counts.interruptions += 1,
            }
            self.journal.incident(&incident)?;
        }
        Ok(())
    }

    /// Digit `digit` went into `cell` as taps: counted where it is wrong.
    pub(super) fn count_wrong(&mut self, cell: usize, digit: u8) {
        if self.puzzle.wrong(cell, digit) {
            self.report.wrong_digits += 1;
            self.screen.wrong_since_look += 1;
        }
    }

    /// The app's completion screen (`words`) ends the performance: the board is solved.
    pub(super) fn completed(&mut self, words: String) {
        self.report.end.completion = Some(Completion::Screen);
        self.report.end.words = Some(words);
        self.screen.expected = self.puzzle.solution;
    }

    /// The app ended the game (`words`).
    pub(super) fn game_over(&mut self, words: String) -> anyhow::Error {
        self.report.end.words = Some(words.clone());
        Stop::GameOver {
            mistakes: self.report.wrong_digits,
            what: words,
            several: self.puzzle.several,
        }
        .into()
    }

    /// Whether the performance has ended (the app's completion seen).
    pub(super) fn ended(&self) -> bool {
        self.report.end.completion.is_some()
    }
}
