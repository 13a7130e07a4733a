//! Performing a searched level into its session: the journal's start and end, the last frame,
//! and the level's row in `runs.csv`.

use super::config::{PlayConfig, PlayReport};
use super::{Note, Update, tell};
use crate::board::Board;
use crate::calibration::Calibration;
use crate::device::Device;
use crate::device::tap::ChannelKind;
use crate::phone::target::PhoneTarget;
use crate::play::setnum::Layout;
use crate::play::stop::{RunFailed, stop_of};
use crate::play::{PerformError, PerformOptions, PerformReport, Search, perform};
use crate::session::{RunRecord, Session, Totals, append_run, read_journal, runs, time};
use crate::solver::{self, Event};
use crate::video::captions::captions;
use crate::video::{self, Recorder};
use std::path::Path;
use std::time::{Instant, SystemTime};

/// A searched level, ready to be performed into a session.
pub(super) struct Run<'a> {
    pub(super) device: &'a Device,
    pub(super) cfg: &'a PlayConfig,
    pub(super) cal: &'a Calibration,
    /// The calibration's file (named when the taps do not do what it says).
    pub(super) cal_path: &'a Path,
    pub(super) givens: Board,
    pub(super) events: &'a [Event],
    pub(super) solution: Board,
    pub(super) stats: solver::Stats,
}

impl Run<'_> {
    /// Performs from event `start_at`, journals the end, and appends the level's row (summed
    /// over every start of its journal) to `runs.csv`.
    pub(super) fn execute(
        &self,
        session: &mut Session,
        (mut target, recorder): (PhoneTarget<'_>, Option<Recorder>),
        start_at: usize,
        on: &mut dyn FnMut(&Update),
    ) -> anyhow::Result<PlayReport> {
        let cfg = self.cfg;
        session.journal.start(start_at as u64)?;
        let recorder = recorder.and_then(|r| attach_video(r, session, on));
        let ropts = PerformOptions {
            start_at,
            check_first: target.may_reopen,
            ..perform_options(cfg)
        };
        let layout = Layout::of(self.cal);
        target.link.keep_taps_apart_on_phone(layout.least_pace());
        let started = Instant::now();
        let search = Search {
            givens: self.givens,
            events: self.events,
            solution: self.solution,
        };
        let outcome = perform(&search, &layout, &mut target, session, &ropts, &mut |p| {
            on(&Update::Progress(*p))
        });
        let perform_ms = started.elapsed().as_secs_f64() * 1e3;
        if let Some(frame) = &target.last_frame {
            session.save_frame("last", frame)?;
        }
        if let Some(recorder) = recorder {
            self.finish_video(recorder, session, on);
        }
        let (report, error) = match outcome {
            Ok(report) => (report, None),
            Err(PerformError { report, error }) => (*report, Some(error)),
        };
        let (result_word, message) = match &error {
            None => ("solved", String::new()),
            Some(e) => (
                stop_of(e).map_or("failed", |s| s.result()),
                format!("{e:#}"),
            ),
        };
        session.journal.end(result_word, &message)?;
        self.record_run(session, result_word, perform_ms)?;
        if let Some(error) = error {
            return Err(RunFailed {
                session_dir: session.dir.clone(),
                calibration: self.cal_path.to_path_buf(),
                error,
            }
            .into());
        }
        Ok(self.play_report(session, &target, report))
    }

    /// Stops the recording and writes the video with the search's counts, and says what came
    /// of it.
    fn finish_video(&self, recorder: Recorder, session: &Session, on: &mut dyn FnMut(&Update)) {
        let journal_us = session
            .journal
            .started()
            .saturating_duration_since(recorder.epoch())
            .as_micros() as u64;
        let end_us = recorder.epoch().elapsed().as_micros() as u64;
        let lines = read_journal(&session.dir.join("journal.jsonl"))
            .map(|j| j.lines)
            .unwrap_or_default();
        let cues = captions(self.events, &lines, journal_us, end_us);
        let note = match video::finish(recorder, &session.dir, &cues) {
            Ok((path, video)) => Note::Video { path, video },
            Err(why) => Note::NoVideo { why },
        };
        tell(on, note);
    }

    /// What a performance that solved the level reports.
    fn play_report(
        &self,
        session: &Session,
        target: &PhoneTarget<'_>,
        report: PerformReport,
    ) -> PlayReport {
        PlayReport {
            session_dir: session.dir.clone(),
            givens: self.givens,
            solution: report
                .end
                .rewritten
                .as_ref()
                .map_or(self.solution, |r| r.solution),
            stats: self.stats,
            performed: report,
            channel: target.link.channel_kind().unwrap_or(ChannelKind::Input),
            taps_per_sec: target.link.taps_per_sec(),
            capture: target.link.capture(),
            plan: None,
            warmup_taps: 0,
        }
    }

    /// The run's line in `runs.csv`: the search's counts, the journal's totals, how it ended.
    fn record_run(&self, session: &Session, result: &str, perform_ms: f64) -> anyhow::Result<()> {
        let totals = Totals::of(&read_journal(&session.dir.join("journal.jsonl"))?.lines);
        let s = &self.stats;
        append_run(
            &self.cfg.data_dir,
            &RunRecord {
                time: time::rfc3339(SystemTime::now()),
                device: format!("{} {}", self.device.serial, session.meta.device.model),
                level: self.cfg.level,
                strategy: self.cfg.strategy.name().into(),
                givens: self.givens.filled() as u32,
                placements: s.placements,
                undos: s.undos,
                calls: s.calls(),
                taps: totals.taps,
                repairs: totals.repairs,
                search_ms: s.elapsed.as_secs_f64() * 1e3,
                perform_ms: totals.perform_ms.max(perform_ms),
                result: result.into(),
                reconnects: totals.reconnects,
                interruptions: totals.interruptions,
                version: runs::VERSION,
                session: session
                    .dir
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                difficulty: session.meta.difficulty.clone().unwrap_or_default(),
                puzzle: self.givens.to_line(),
            },
        )
    }
}

/// The recording, its video written into `session` from now on (`None`, said, where it cannot
/// be).
fn attach_video(
    recorder: Recorder,
    session: &Session,
    on: &mut dyn FnMut(&Update),
) -> Option<Recorder> {
    match recorder.attach(&session.dir) {
        Ok(()) => Some(recorder),
        Err(e) => {
            tell(
                on,
                Note::NoVideo {
                    why: format!("{e:#}"),
                },
            );
            None
        }
    }
}

/// The performance's options that come from the play configuration.
fn perform_options(cfg: &PlayConfig) -> PerformOptions {
    PerformOptions {
        verify_taps: cfg.verify_taps,
        verify_interval: cfg.verify_interval,
        glance_interval: cfg.glance_interval,
        max_visible_steps: cfg.max_visible_steps,
        budget: cfg.budget,
        stop: cfg.stop.clone(),
        ..PerformOptions::default()
    }
}
