//! Continuing an interrupted session from its journal.

use super::Update;
use super::config::{PlayConfig, PlayReport};
use super::execute::Run;
use super::start::{open_channel, search_events};
use crate::calibration::Calibration;
use crate::device::Device;
use crate::phone::link::Link;
use crate::phone::navigate::app_package;
use crate::phone::target::PhoneTarget;
use crate::remedy::{Advised, Remedy};
use crate::session::{JournalLine, Session, read_journal};
use anyhow::{Context, bail};
use std::path::{Path, PathBuf};

/// Continues an interrupted session from its journal: the events already journaled should be
/// on the screen (checked, and repaired where taps were lost); if the app restarted, the level
/// is opened again and its digits re-entered; then the rest is performed.
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
    let givens = meta.givens_board()?;
    let (events, solution, stats) = search_events(meta.strategy, &givens, None)?;
    let mut done = 0usize;
    for line in &journal.lines {
        if let JournalLine::Event { i, event, .. } = line {
            let i = *i as usize;
            if events.get(i) != Some(event) {
                bail!(
                    "{}: the journal's step {i} ({event:?}) is not what the {} search does there ({:?}): \
                     the session was recorded by another version; start a new run",
                    dir.display(),
                    meta.strategy,
                    events.get(i)
                );
            }
            done = done.max(i + 1);
        }
    }
    let mut link = Link::new(device.clone(), cfg.reconnect_timeout, cfg.stop.clone());
    let size = link.call("reading the screen size", |d| d.screen_size())?;
    cal.check_frame(size.0, size.1)
        .with_context(|| cal_path.display().to_string())?;
    open_channel(&mut link, cfg, size, on)?;
    link.settle(|link| link.measure_capture())?;
    let mut run_cfg = cfg.clone();
    run_cfg.level = meta.level;
    run_cfg.strategy = meta.strategy;
    run_cfg.max_visible_steps = meta.max_visible_steps;
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
    run.execute(&mut session, target, done, on)
}
