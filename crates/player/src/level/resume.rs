//! Continuing an interrupted session from its journal.

use super::config::{PlayConfig, PlayReport};
use super::execute::Run;
use super::start::{open_channel, search_events};
use super::{Note, Update, tell};
use crate::calibration::Calibration;
use crate::device::Device;
use crate::phone::link::Link;
use crate::phone::navigate::app_package;
use crate::phone::target::PhoneTarget;
use crate::play::perform::apply;
use crate::play::plan::Plan;
use crate::play::setnum::Layout;
use crate::remedy::{Advised, Remedy};
use crate::session::{JournalLine, Session, SessionMeta, Totals, read_journal};
use crate::solver::{Event, Strategy};
use crate::video::Recorder;
use anyhow::{Context, bail};
use std::path::{Path, PathBuf};

/// Continues an interrupted session from its journal: the events already journaled should be
/// on the screen (checked, and repaired where taps were lost); if the app restarted, the level
/// is opened again and its digits re-entered; then the rest is performed, as many of its steps
/// shown as fit `cfg.budget` ([`replan`]).
pub fn resume(
    device: &Device,
    dir: &Path,
    cfg: &PlayConfig,
    on: &mut dyn FnMut(&Update),
) -> anyhow::Result<PlayReport> {
    let mut session = Session::reopen(dir)?;
    let meta = session.meta.clone();
    let journal = read_journal(&dir.join("journal.jsonl"))?;
    if let Some(JournalLine::End { result, .. }) = journal.lines.last()
        && result == "solved"
    {
        bail!(
            "{} is already solved and verified; nothing to resume",
            dir.display()
        );
    }
    let (cal_path, cal) = session_calibration(cfg, &meta)?;
    let givens = meta.givens_board()?;
    let (events, solution, stats) = search_events(meta.strategy, &givens, None)?;
    let done = journaled_steps(dir, &journal.lines, &events, meta.strategy)?;
    let mut link = Link::new(device.clone(), cfg.reconnect_timeout, cfg.stop.clone());
    let size = link.call("reading the screen size", |d| d.screen_size())?;
    cal.check_frame(size.0, size.1)
        .with_context(|| cal_path.display().to_string())?;
    open_channel(&mut link, cfg, size, on)?;
    let recorder = cfg.record.map(|o| Recorder::start(device.clone(), o));
    link.retry_restored(|link| link.measure_capture())?;
    let mut run_cfg = cfg.clone();
    run_cfg.level = meta.level;
    run_cfg.strategy = meta.strategy;
    run_cfg.max_visible_steps =
        replan(&mut session, &journal.lines, (&events, done), &cal, cfg, on)?;
    let package = match meta.app_package.clone() {
        Some(p) => Some(p),
        None => app_package(&mut link, cal.navigation.as_ref()),
    };
    let mut target = PhoneTarget::new(link, &cal);
    target.package = package;
    target.reopen = cal.navigation.clone().zip(meta.level);
    target.givens = Some(givens);
    // The app may have restarted since: the level can be opened again.
    target.may_reopen = true;
    let run = Run {
        device,
        cfg: &run_cfg,
        cal: &cal,
        cal_path: &cal_path,
        givens,
        events: &events,
        solution,
        stats,
    };
    run.execute(&mut session, (target, recorder), done, on)
}

/// The calibration to resume with (`cfg`'s, else the session's) and its file.
fn session_calibration(
    cfg: &PlayConfig,
    meta: &SessionMeta,
) -> anyhow::Result<(PathBuf, Calibration)> {
    let cal_path = cfg
        .calibration
        .clone()
        .unwrap_or_else(|| PathBuf::from(&meta.calibration));
    let cal = Calibration::load(&cal_path).map_err(|e| {
        Advised::new(
            format!(
                "the session's calibration is gone (it was {})",
                meta.calibration
            ),
            &[Remedy::CalibrationFile],
        )
        .because(e)
    })?;
    Ok((cal_path, cal))
}

/// How many of the search's `events` the journal's `lines` say were played, each checked
/// against the search (a session recorded by another version is an error).
fn journaled_steps(
    dir: &Path,
    lines: &[JournalLine],
    events: &[Event],
    strategy: Strategy,
) -> anyhow::Result<usize> {
    let mut done = 0usize;
    for line in lines {
        if let JournalLine::Event { i, event, .. } = line {
            let i = *i as usize;
            if events.get(i) != Some(event) {
                bail!(
                    "{}: the journal's step {i} ({event:?}) is not what the {strategy} search does there ({:?}): \
                     the session was recorded by another version; start a new run",
                    dir.display(),
                    events.get(i)
                );
            }
            done = done.max(i + 1);
        }
    }
    Ok(done)
}

/// The steps to show, planned again as a fresh play plans them (`play::plan`): the steps left
/// after the `done` already played, within `cfg.budget`, at the rate the level's taps went so
/// far (the journal's, or `cfg.pace`'s where that is slower; no taps are spent measuring it on
/// a screen that may not show the board yet). The plan is noted, and the session's record of
/// the steps shown follows it. A journal without taps keeps the session's first plan.
fn replan(
    session: &mut Session,
    lines: &[JournalLine],
    (events, done): (&[Event], usize),
    cal: &Calibration,
    cfg: &PlayConfig,
    on: &mut dyn FnMut(&Update),
) -> anyhow::Result<Option<u64>> {
    let totals = Totals::of(lines);
    if totals.taps == 0 || totals.perform_ms <= 0.0 {
        return Ok(session.meta.max_visible_steps);
    }
    let mut rate = totals.taps as f64 / (totals.perform_ms / 1e3);
    if !cfg.pace.is_zero() {
        // The pace asked for now, where it is slower than the level's taps went.
        rate = rate.min(1.0 / cfg.pace.as_secs_f64());
    }
    let mut board = session.meta.givens_board()?;
    for &ev in &events[..done] {
        apply(&mut board, ev);
    }
    let left = &events[done..];
    let plan = Plan::new(left, &board, &Layout::of(cal), rate, cfg.budget, None);
    let shown = (plan.visible_steps < plan.steps).then(|| done as u64 + plan.visible_steps);
    let level = session.meta.level;
    tell(
        on,
        Note::Plan {
            plan,
            level,
            done: done as u64,
        },
    );
    if session.meta.max_visible_steps != shown {
        session.meta.max_visible_steps = shown;
        session.save_meta()?;
    }
    Ok(shown)
}
