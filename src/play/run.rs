//! One level, start to end: connect -> navigate -> capture -> OCR -> validate -> search -> replay
//! every event as taps -> verify -> log (`runs.csv`) and record (session directory).
//!
//! Every device call goes through a [`Link`] (recovery from a lost link), the replay's screen
//! through a [`PhoneTarget`] (hazards: screen off, lock screen, app in the background).

use super::link::Link;
use super::note::{Note, Update};
use super::perform::{ReplayError, ReplayOptions, ReplayReport, replay};
use super::phone::PhoneTarget;
use super::plan::Plan;
use super::setnum::{Cancel, Layout};
use super::stop::{RunFailed, StopFlag, stop_of};
use crate::board::Board;
use crate::calibration::lookup::{self, SearchPath};
use crate::calibration::{Calibration, Erase, Navigation};
use crate::device::Device;
use crate::device::input::InputBackend;
use crate::session::{
    DeviceMeta, JournalLine, RunRecord, SESSION_VERSION, Session, SessionMeta, Totals, append_run,
    read_journal, runs, time,
};
use crate::solver::{self, Event, Options, Outcome, Recorder, Strategy};
use crate::vision;
use anyhow::{Context, bail};
use image::RgbaImage;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

/// Settings of one play.
#[derive(Debug, Clone)]
pub struct PlayConfig {
    /// Level to open first (needs `[navigation]` in the calibration); `None`: the open one.
    pub level: Option<u32>,
    pub strategy: Strategy,
    /// A calibration file; `None`: look one up in `calibration_dirs` by model and screen size.
    pub calibration: Option<PathBuf>,
    /// Where calibrations are looked up (default: `calibration`; the command line passes the
    /// user's directories).
    pub calibration_dirs: SearchPath,
    /// `None`: the fastest channel the device allows (raw, events, input).
    pub input: Option<InputBackend>,
    pub pace: Duration,
    pub max_visible_steps: Option<u64>,
    /// Show as many steps as fit in this time at the channel's measured rate, then fill the
    /// rest directly (`None`: no limit).
    pub budget: Option<Duration>,
    pub max_steps: Option<u64>,
    pub verify_taps: u64,
    pub verify_interval: Duration,
    /// How often to check that the board is still on the screen.
    pub glance_interval: Duration,
    /// How long to wait for a lost device to come back before giving up.
    pub reconnect_timeout: Duration,
    /// Where runs.csv and sessions/ go (default: `autoplay-data`; the command line passes the
    /// user's data directory).
    pub data_dir: PathBuf,
    /// Raised by Ctrl-C / SIGTERM.
    pub stop: StopFlag,
}

impl Default for PlayConfig {
    fn default() -> Self {
        PlayConfig {
            level: None,
            strategy: Strategy::RowMajor,
            calibration: None,
            calibration_dirs: SearchPath::from(PathBuf::from("calibration")),
            input: None,
            pace: Duration::from_millis(20),
            max_visible_steps: None,
            budget: None,
            max_steps: None,
            verify_taps: 2000,
            verify_interval: Duration::from_secs(30),
            glance_interval: Duration::from_secs(2),
            reconnect_timeout: Duration::from_secs(30),
            data_dir: PathBuf::from("autoplay-data"),
            stop: StopFlag::default(),
        }
    }
}

/// What happened, for the summary line.
#[derive(Debug, Clone)]
pub struct PlayReport {
    pub session_dir: PathBuf,
    pub givens: Board,
    pub solution: Board,
    pub stats: solver::Stats,
    pub replay: ReplayReport,
    pub input: InputBackend,
    pub taps_per_sec: f64,
    pub capture: String,
    /// The plan noted before replaying (`None` when resuming).
    pub plan: Option<Plan>,
    /// Taps on a given cell that measured the channel's rate for the plan (not in the journal).
    pub warmup_taps: u64,
}

/// Reads the board if it is where the calibration says; `None` when something covers it.
pub fn read_if_visible(frame: &RgbaImage, cal: &Calibration) -> anyhow::Result<Option<Board>> {
    cal.check_frame(frame.width(), frame.height())
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let Ok(found) = vision::detect_board(frame) else {
        return Ok(None);
    };
    let [x0, y0, x1, y1] = cal.board.rect;
    let tol = (x1.saturating_sub(x0) / 20).max(4) as i64;
    let near = |a: u32, b: u32| (a as i64 - b as i64).abs() <= tol;
    let seen = found.rect();
    if !seen.iter().zip([x0, y0, x1, y1]).all(|(&a, b)| near(a, b)) {
        return Ok(None);
    }
    Ok(Some(cal.read(frame)?.board))
}

/// The tap layout of a calibration.
pub fn layout(cal: &Calibration) -> Layout {
    let geometry = cal.geometry();
    Layout {
        cells: geometry.cell_centers(),
        keypad: cal.keypad.digits.map(|[x, y]| (x, y)),
        order: cal.input.mode,
        cancel: match cal.keypad.erase {
            Erase::Key([x, y]) => Cancel::Erase((x, y)),
            Erase::Toggle => Cancel::Toggle,
        },
    }
}

/// Opens level `level` as the calibration's `[navigation]` says. A link lost and restored on
/// the way starts the navigation again (at most a few times).
pub fn navigate(link: &mut Link, nav: &Navigation, level: u32) -> anyhow::Result<()> {
    link.settle(|link| navigate_once(link, nav, level))
}

fn navigate_once(link: &mut Link, nav: &Navigation, level: u32) -> anyhow::Result<()> {
    match nav {
        Navigation::AmStart { command } => {
            // The template was validated when the calibration was parsed; the level is a number.
            let cmd = command.replace("{level}", &level.to_string());
            let out = link.shell(&format!("opening level {level}"), &cmd)?;
            if out.code != 0 || out.stdout.contains("Error") {
                bail!(
                    "opening level {level} failed: `{cmd}` said: {}",
                    out.stdout.trim()
                );
            }
        }
        Navigation::Taps { taps } => {
            for [x, y] in taps {
                link.tap(*x, *y)?;
            }
        }
        Navigation::LevelGrid {
            open,
            first,
            step,
            columns,
            rows,
            next_page,
        } => {
            for [x, y] in open {
                link.tap(*x, *y)?;
            }
            let columns = (*columns).max(1);
            let per_page = (columns * rows).max(1);
            let index = level - 1;
            let pages = index / per_page;
            if pages > 0 {
                let [nx, ny] = next_page.with_context(|| {
                    format!(
                        "level {level} is on page {} of the level list, but the calibration's [navigation] has no next_page",
                        pages + 1
                    )
                })?;
                for _ in 0..pages {
                    // Let each page draw before the next tap.
                    link.flush()?;
                    std::thread::sleep(Duration::from_millis(200));
                    link.tap(nx, ny)?;
                }
                link.flush()?;
                std::thread::sleep(Duration::from_millis(200));
            }
            let slot = index % per_page;
            link.tap(
                first[0] + slot % columns * step[0],
                first[1] + slot / columns * step[1],
            )?;
        }
    }
    link.flush()?;
    // Give the app a moment to draw the new screen.
    std::thread::sleep(Duration::from_millis(300));
    Ok(())
}

/// The package of the app in front (`dumpsys window`), else the one the `am start` navigation
/// names.
fn app_package(link: &mut Link, nav: Option<&Navigation>) -> Option<String> {
    let from_window = link
        .shell("finding the app's package", "dumpsys window")
        .ok()
        .and_then(|out| {
            super::look::PhoneState::parse(&out.stdout)
                .focused_package()
                .map(str::to_string)
        });
    from_window.or_else(|| nav_package(nav))
}

/// The package an `am start -n PACKAGE/ACTIVITY` navigation names.
fn nav_package(nav: Option<&Navigation>) -> Option<String> {
    match nav {
        Some(Navigation::AmStart { command }) => command
            .split_whitespace()
            .skip_while(|w| *w != "-n")
            .nth(1)
            .and_then(|c| c.split_once('/'))
            .map(|(p, _)| p.to_string()),
        _ => None,
    }
}

/// Searches `givens` with `strategy`, recording every event.
fn search_events(
    strategy: Strategy,
    givens: &Board,
    max_steps: Option<u64>,
) -> anyhow::Result<(Vec<Event>, Board, solver::Stats)> {
    let mut rec = Recorder::default();
    let options = Options {
        max_steps,
        check_unique: false,
    };
    let result = solver::search(strategy, givens, &options, &mut rec);
    match result.outcome {
        Outcome::Solved(s) => Ok((rec.0, s, result.stats)),
        Outcome::BudgetExhausted => bail!(
            "the {strategy} search stopped after {} placements (--max-steps) without a solution",
            crate::text::thousands(result.stats.placements)
        ),
        Outcome::Unsolvable => bail!("the puzzle on screen has no solution"),
    }
}

/// Gives `note` to the caller, and emits it as a `tracing` event.
fn tell(on: &mut dyn FnMut(&Update), note: Note) {
    note.trace();
    on(&Update::Note(note));
}

/// Opens the tap channel the configuration asks for, and says which it is and why.
fn open_channel(
    link: &mut Link,
    cfg: &PlayConfig,
    size: (u32, u32),
    on: &mut dyn FnMut(&Update),
) -> anyhow::Result<()> {
    let channel = link.open_channel(cfg.input, size, cfg.pace)?;
    tell(
        on,
        Note::TapChannel {
            mode: channel.mode,
            why: channel.why,
        },
    );
    Ok(())
}

/// Plays one level on `device`. `on` gets the notes on how the run is set up as they come
/// (before the replay starts), then where the replay stands.
pub fn play(
    device: &Device,
    cfg: &PlayConfig,
    on: &mut dyn FnMut(&Update),
) -> anyhow::Result<PlayReport> {
    let mut link = Link::new(device.clone(), cfg.reconnect_timeout, cfg.stop.clone());
    let model = link
        .call("reading the model", |d| d.getprop("ro.product.model"))
        .unwrap_or_default();
    let size = link.call("reading the screen size", |d| d.screen_size())?;
    let found = match &cfg.calibration {
        Some(p) => {
            let found = lookup::file(p)?;
            // A calibration for another screen would tap beside everything: say so before
            // touching the phone.
            found.candidates[0]
                .calibration
                .check_frame(size.0, size.1)
                .map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))?;
            found
        }
        None => lookup::find(&cfg.calibration_dirs, &model, size),
    };
    for e in &found.broken {
        let error = e.to_string();
        tell(on, Note::SkippedCalibration { error });
    }
    // A level is played under its number only if it can be opened.
    let found = match cfg.level {
        Some(level) => found.with_navigation(&format!("--level {level}"))?,
        None => found.require()?,
    };
    let navigation = found.candidates[0].calibration.navigation.clone();
    open_channel(&mut link, cfg, size, on)?;
    if let (Some(level), Some(nav)) = (cfg.level, &navigation) {
        navigate(&mut link, nav, level)?;
    }

    let probed = link.settle(|link| link.probe_screen())?;
    // The calibrations for one screen size differ in their keypads, not their boards: any one
    // of them finds the board (waking the screen or bringing the app back if need be).
    let board_cal = found.candidates[0].calibration.clone();
    let mut setup = PhoneTarget::new(link, &board_cal);
    setup.package = nav_package(navigation.as_ref());
    let first = setup.board_frame(probed)?;
    let mut link = setup.link;
    let choice = found.pick(Some(&first));
    if let Some(why) = &choice.why {
        let (path, why) = (choice.path.clone(), why.clone());
        tell(on, Note::Calibration { path, why });
    }
    let (cal_path, cal) = (choice.path, choice.calibration);
    let givens = read_if_visible(&first, &cal)?
        .context("board not visible: no Sudoku board where the calibration expects it (is the game screen open?)")?;
    givens.validate().map_err(|c| anyhow::anyhow!("the board read from the screen {c}: check the screenshot in the session, or recalibrate"))?;
    let check = solver::fast::solutions(&givens, 2);
    match check.count {
        0 => bail!("the puzzle on screen has no solution:\n{givens}"),
        2 => bail!(
            "the puzzle on screen has more than one solution (did the OCR miss a digit?):\n{givens}"
        ),
        _ => {}
    }
    let package = app_package(&mut link, navigation.as_ref());
    let (events, solution, stats) = search_events(cfg.strategy, &givens, cfg.max_steps)?;

    // Before replaying: measure the channel's rate, print the plan, fit the budget.
    let taps_layout = layout(&cal);
    let (rate, warmup_taps) = link.settle(|link| measure_rate(link, &givens, &taps_layout))?;
    let plan = Plan::new(
        &events,
        &givens,
        &taps_layout,
        rate,
        cfg.budget,
        cfg.max_visible_steps,
    );
    let level = cfg.level;
    tell(
        on,
        Note::Plan {
            plan: plan.clone(),
            level,
        },
    );
    let visible = (plan.visible_steps < plan.steps).then_some(plan.visible_steps);
    let planned = PlayConfig {
        max_visible_steps: visible,
        ..cfg.clone()
    };
    let cfg = &planned;

    let meta = SessionMeta {
        version: SESSION_VERSION,
        created: time::rfc3339(SystemTime::now()),
        device: DeviceMeta {
            serial: device.serial.clone(),
            model,
            width: size.0,
            height: size.1,
        },
        calibration: cal_path.display().to_string(),
        level: cfg.level,
        strategy: cfg.strategy,
        givens: givens.to_line(),
        solution: solution.to_line(),
        placements: stats.placements,
        undos: stats.undos,
        max_visible_steps: cfg.max_visible_steps,
        app_package: package.clone(),
    };
    let mut session = Session::create(&cfg.data_dir, meta)?;
    session.save_frame("first", &first)?;
    let mut target = PhoneTarget::new(link, &cal);
    target.package = package;
    target.reopen = navigation.zip(cfg.level);
    target.givens = Some(givens);
    let run = Run {
        device,
        cfg,
        cal: &cal,
        givens,
        events: &events,
        solution,
        stats,
    };
    let mut report = run.execute(&mut session, target, 0, on)?;
    report.plan = Some(plan);
    report.warmup_taps = warmup_taps;
    Ok(report)
}

/// The tap channel's rate, measured on the phone with taps on a given cell (selecting a given
/// changes nothing): one tap alone, then as many as take about a second. Returns taps/s and
/// the taps made.
/// Measures the channel's rate with taps on a given cell (which change nothing): rounds of
/// 1, 2, 4, ... 32 taps, each flushed, while the next round should still end within about a
/// second and at most 63 taps in all; the rate is the last round's. A fast channel always gets
/// all 63 (the same warm-up on every run), a slow one (`input tap`, a few per second) stops
/// after a second's worth. Returns the rate and the taps spent.
fn measure_rate(link: &mut Link, givens: &Board, layout: &Layout) -> anyhow::Result<(f64, u64)> {
    let Some(cell) = (0..81).find(|&c| givens.get(c) != 0) else {
        return Ok((1.0, 0));
    };
    let (x, y) = layout.cells[cell];
    let start = Instant::now();
    let (mut round, mut spent) = (1u64, 0u64);
    let rate = loop {
        let t = Instant::now();
        for _ in 0..round {
            link.tap(x, y)?;
        }
        link.flush()?;
        let took = t.elapsed().as_secs_f64().max(1e-6);
        spent += round;
        let next_ends = start.elapsed().as_secs_f64() + 2.0 * took;
        if spent + 2 * round > 63 || next_ends > 1.0 {
            break round as f64 / took;
        }
        round *= 2;
    };
    link.restart_rate();
    Ok((rate, spent))
}

/// Continues an interrupted session from its journal: the events already journaled should be
/// on the screen (checked, and repaired where taps were lost); if the app restarted, the level
/// is opened again and its digits re-entered; then the rest is replayed.
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
    let cal = Calibration::load(&cal_path).with_context(|| {
        format!(
            "the session's calibration is gone: pass --calibration FILE (it was {})",
            meta.calibration
        )
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
        .map_err(|e| anyhow::anyhow!("{}: {e}", cal_path.display()))?;
    open_channel(&mut link, cfg, size, on)?;
    link.settle(|link| link.probe_screen())?;
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
        givens,
        events: &events,
        solution,
        stats,
    };
    run.execute(&mut session, target, done, on)
}

/// A searched level, ready to be replayed into a session.
struct Run<'a> {
    device: &'a Device,
    cfg: &'a PlayConfig,
    cal: &'a Calibration,
    givens: Board,
    events: &'a [Event],
    solution: Board,
    stats: solver::Stats,
}

impl Run<'_> {
    /// Replays from event `start_at`, journals the end, and appends the level's row (summed
    /// over every start of its journal) to `runs.csv`.
    fn execute(
        &self,
        session: &mut Session,
        mut target: PhoneTarget<'_>,
        start_at: usize,
        on: &mut dyn FnMut(&Update),
    ) -> anyhow::Result<PlayReport> {
        let cfg = self.cfg;
        session.journal.start(start_at as u64)?;
        let ropts = ReplayOptions {
            verify_taps: cfg.verify_taps,
            verify_interval: cfg.verify_interval,
            glance_interval: cfg.glance_interval,
            max_visible_steps: cfg.max_visible_steps,
            start_at,
            check_first: target.may_reopen,
            stop: cfg.stop.clone(),
            ..ReplayOptions::default()
        };
        let started = Instant::now();
        let outcome = replay(
            &self.givens,
            self.events,
            &self.solution,
            &layout(self.cal),
            &mut target,
            &mut session.journal,
            &ropts,
            &mut |p| on(&Update::Progress(*p)),
        );
        let replay_ms = started.elapsed().as_secs_f64() * 1e3;
        if let Some(frame) = &target.last_frame {
            session.save_frame("last", frame)?;
        }
        let (report, error) = match outcome {
            Ok(report) => (report, None),
            Err(ReplayError { report, error }) => (report, Some(error)),
        };
        let (result_word, message) = match &error {
            None => ("solved", String::new()),
            Some(e) => (
                stop_of(e).map_or("failed", |s| s.result()),
                format!("{e:#}"),
            ),
        };
        session.journal.end(result_word, &message)?;
        let totals = Totals::of(&read_journal(&session.dir.join("journal.jsonl"))?.lines);
        let s = &self.stats;
        append_run(
            &cfg.data_dir,
            &RunRecord {
                time: time::rfc3339(SystemTime::now()),
                device: format!("{} {}", self.device.serial, session.meta.device.model),
                level: cfg.level,
                strategy: cfg.strategy.name().into(),
                givens: self.givens.filled() as u32,
                placements: s.placements,
                undos: s.undos,
                calls: s.calls(),
                taps: totals.taps,
                repairs: totals.repairs,
                search_ms: s.elapsed.as_secs_f64() * 1e3,
                replay_ms: totals.replay_ms.max(replay_ms),
                result: result_word.into(),
                reconnects: totals.reconnects,
                interruptions: totals.interruptions,
                version: runs::VERSION,
            },
        )?;
        if let Some(error) = error {
            return Err(RunFailed {
                session_dir: session.dir.clone(),
                error,
            }
            .into());
        }
        Ok(PlayReport {
            session_dir: session.dir.clone(),
            givens: self.givens,
            solution: self.solution,
            stats: self.stats,
            replay: report,
            input: target.link.input_mode().unwrap_or(InputBackend::Input),
            taps_per_sec: target.link.taps_per_sec(),
            capture: target.link.capture(),
            plan: None,
            warmup_taps: 0,
        })
    }
}
