//! One level, start to end: connect -> navigate -> capture -> OCR -> validate -> search -> replay
//! every event as taps -> verify -> log (`runs.csv`) and record (session directory).

use super::plan::Plan;
use super::replay::{ReplayOptions, ReplayReport, Target, replay};
use super::setnum::{Cancel, Layout, Point};
use crate::board::Board;
use crate::calibration::{Calibration, Navigation, lookup};
use crate::device::channel;
use crate::device::input::{InputBackend, Tapper, TapperOptions};
use crate::device::screen::Screen;
use crate::device::{CALL_TIMEOUT, Device};
use crate::session::{
    DeviceMeta, JournalLine, RunRecord, SESSION_VERSION, Session, SessionMeta, append_run,
    read_journal, time,
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
    /// A calibration file; `None`: look one up in `calibration_dir` by model and screen size.
    pub calibration: Option<PathBuf>,
    pub calibration_dir: PathBuf,
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
    pub data_dir: PathBuf,
    pub quiet: bool,
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
    /// The plan printed before replaying (`None` when resuming).
    pub plan: Option<Plan>,
    /// Taps on a given cell that measured the channel's rate for the plan (not in the journal).
    pub warmup_taps: u64,
}

/// The phone behind the adb server, as the replay sees it.
pub struct DeviceTarget<'a> {
    pub tapper: Tapper,
    pub screen: Screen,
    pub calibration: &'a Calibration,
    /// The last frame read (saved as `last.png`).
    pub last_frame: Option<RgbaImage>,
}

impl Target for DeviceTarget<'_> {
    fn tap(&mut self, p: Point) -> anyhow::Result<()> {
        Ok(self.tapper.tap(p.0, p.1)?)
    }
    fn sync(&mut self) -> anyhow::Result<()> {
        Ok(self.tapper.flush()?)
    }
    fn read(&mut self) -> anyhow::Result<Option<Board>> {
        let frame = self.screen.grab()?;
        let board = read_if_visible(&frame, self.calibration)?;
        self.last_frame = Some(frame);
        Ok(board)
    }
    fn back(&mut self) -> anyhow::Result<()> {
        Ok(self.tapper.command("input keyevent 4")?)
    }
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
    Ok(Some(vision::read_board(frame, Some(cal))?.board))
}

/// The tap layout of a calibration.
pub fn layout(cal: &Calibration) -> Layout {
    let geometry = cal.geometry();
    Layout {
        cells: geometry.cell_centers(),
        keypad: cal.keypad.digits.map(|[x, y]| (x, y)),
        erase: (cal.keypad.erase[0], cal.keypad.erase[1]),
        order: cal.input.mode,
        cancel: Cancel::Erase,
    }
}

/// Opens level `level` as the calibration's `[navigation]` says.
pub fn navigate(
    device: &Device,
    tapper: &mut Tapper,
    nav: &Navigation,
    level: u32,
) -> anyhow::Result<()> {
    match nav {
        Navigation::AmStart { command } => {
            // The template was validated when the calibration was parsed; the level is a number.
            let cmd = command.replace("{level}", &level.to_string());
            let out = device.shell(&cmd, CALL_TIMEOUT)?;
            if out.code != 0 || out.stdout.contains("Error") {
                bail!(
                    "opening level {level} failed: `{cmd}` said: {}",
                    out.stdout.trim()
                );
            }
        }
        Navigation::Taps { taps } => {
            for [x, y] in taps {
                tapper.tap(*x, *y)?;
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
                tapper.tap(*x, *y)?;
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
                    tapper.flush()?;
                    std::thread::sleep(Duration::from_millis(200));
                    tapper.tap(nx, ny)?;
                }
                tapper.flush()?;
                std::thread::sleep(Duration::from_millis(200));
            }
            let slot = index % per_page;
            tapper.tap(
                first[0] + slot % columns * step[0],
                first[1] + slot / columns * step[1],
            )?;
        }
    }
    tapper.flush()?;
    // Give the app a moment to draw the new screen.
    std::thread::sleep(Duration::from_millis(300));
    Ok(())
}

/// Opens the tap channel: the one asked for if the device allows it, else the fastest that
/// works (raw, events, input); says which and why unless quiet.
fn open_tapper(device: &Device, cfg: &PlayConfig, size: (u32, u32)) -> anyhow::Result<Tapper> {
    let chosen = channel::choose(device, cfg.input)?;
    if !cfg.quiet {
        eprintln!("tap channel: {}", chosen.why);
    }
    let topts = TapperOptions {
        pace: cfg.pace,
        ..TapperOptions::default()
    };
    Ok(Tapper::open(device, chosen, size, topts)?)
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
            result.stats.placements
        ),
        Outcome::Unsolvable => bail!("the puzzle on screen has no solution"),
    }
}

/// Plays one level on `device`. `progress` gets (events done, events total, taps).
pub fn play(
    device: &Device,
    cfg: &PlayConfig,
    progress: &mut dyn FnMut(u64, u64, u64),
) -> anyhow::Result<PlayReport> {
    let model = device.getprop("ro.product.model").unwrap_or_default();
    let size = device.screen_size()?;
    let found = match &cfg.calibration {
        Some(p) => lookup::file(p)?,
        None => lookup::find(&cfg.calibration_dir, &model, size),
    };
    for e in &found.broken {
        eprintln!("warning: skipped {e}");
    }
    // A level is played under its number only if it can be opened.
    let found = match cfg.level {
        Some(level) => found.with_navigation(&format!("--level {level}"))?,
        None => found.require()?,
    };
    let navigation = found.candidates[0].calibration.navigation.clone();
    let mut tapper = open_tapper(device, cfg, size)?;
    if let (Some(level), Some(nav)) = (cfg.level, &navigation) {
        navigate(device, &mut tapper, nav, level)?;
    }

    let (screen, first) = Screen::probe(device)?;
    let choice = found.pick(Some(&first));
    if let Some(why) = &choice.why {
        eprintln!("calibration: {why}");
    }
    let (cal_path, cal) = (choice.path, choice.calibration);
    cal.check_frame(first.width(), first.height())
        .map_err(|e| anyhow::anyhow!("{}: {e}", cal_path.display()))?;
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
    let (events, solution, stats) = search_events(cfg.strategy, &givens, cfg.max_steps)?;

    // Before replaying: measure the channel's rate, print the plan, fit the budget.
    let taps_layout = layout(&cal);
    let (rate, warmup_taps) = measure_rate(&mut tapper, &givens, &taps_layout)?;
    let plan = Plan::new(
        &events,
        &givens,
        &taps_layout,
        rate,
        cfg.budget,
        cfg.max_visible_steps,
    );
    if !cfg.quiet {
        eprintln!("plan: {}", plan.describe(cfg.level));
    }
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
    };
    let mut session = Session::create(&cfg.data_dir, meta)?;
    session.save_frame("first", &first)?;
    let run = Run {
        device,
        cfg,
        cal: &cal,
        givens,
        events: &events,
        solution,
        stats,
    };
    let mut report = run.execute(&mut session, tapper, screen, 0, progress)?;
    report.plan = Some(plan);
    report.warmup_taps = warmup_taps;
    Ok(report)
}

/// The tap channel's rate, measured on the phone with taps on a given cell (selecting a given
/// changes nothing): one tap alone, then as many as take about a second. Returns taps/s and
/// the taps made.
fn measure_rate(
    tapper: &mut Tapper,
    givens: &Board,
    layout: &Layout,
) -> anyhow::Result<(f64, u64)> {
    let Some(cell) = (0..81).find(|&c| givens.get(c) != 0) else {
        return Ok((1.0, 0));
    };
    let (x, y) = layout.cells[cell];
    let t = Instant::now();
    tapper.tap(x, y)?;
    tapper.flush()?;
    let one = t.elapsed().as_secs_f64().max(1e-4);
    let n = (1.0 / one).clamp(2.0, 64.0) as u64;
    let t = Instant::now();
    for _ in 0..n {
        tapper.tap(x, y)?;
    }
    tapper.flush()?;
    let rate = n as f64 / t.elapsed().as_secs_f64().max(1e-6);
    tapper.restart_rate();
    Ok((rate, n + 1))
}

/// Continues an interrupted session from its journal: the events already journaled are on the
/// screen (checked, and repaired where taps were lost), the rest are replayed.
pub fn resume(
    device: &Device,
    dir: &Path,
    cfg: &PlayConfig,
    progress: &mut dyn FnMut(u64, u64, u64),
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
    let size = device.screen_size()?;
    cal.check_frame(size.0, size.1)
        .map_err(|e| anyhow::anyhow!("{}: {e}", cal_path.display()))?;
    let tapper = open_tapper(device, cfg, size)?;
    let (screen, _) = Screen::probe(device)?;
    let mut run_cfg = cfg.clone();
    run_cfg.level = meta.level;
    run_cfg.strategy = meta.strategy;
    run_cfg.max_visible_steps = meta.max_visible_steps;
    let run = Run {
        device,
        cfg: &run_cfg,
        cal: &cal,
        givens,
        events: &events,
        solution,
        stats,
    };
    run.execute(&mut session, tapper, screen, done, progress)
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
    /// Replays from event `start_at`, journals the end, and appends the run to `runs.csv`.
    fn execute(
        &self,
        session: &mut Session,
        tapper: Tapper,
        screen: Screen,
        start_at: usize,
        progress: &mut dyn FnMut(u64, u64, u64),
    ) -> anyhow::Result<PlayReport> {
        let cfg = self.cfg;
        session.journal.start(start_at as u64)?;
        let capture = screen.describe();
        let mut target = DeviceTarget {
            tapper,
            screen,
            calibration: self.cal,
            last_frame: None,
        };
        let ropts = ReplayOptions {
            verify_taps: cfg.verify_taps,
            verify_interval: cfg.verify_interval,
            max_visible_steps: cfg.max_visible_steps,
            start_at,
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
            progress,
        );
        let replay_ms = started.elapsed().as_secs_f64() * 1e3;
        if let Some(frame) = &target.last_frame {
            session.save_frame("last", frame)?;
        }
        let (result_word, message) = match &outcome {
            Ok(_) => ("solved", String::new()),
            Err(e) => ("failed", format!("{e:#}")),
        };
        session.journal.end(result_word, &message)?;
        let report = outcome.as_ref().ok();
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
                taps: report.map_or(target.tapper.taps_done, |r| r.taps),
                repairs: report.map_or(0, |r| r.repairs),
                search_ms: s.elapsed.as_secs_f64() * 1e3,
                replay_ms,
                result: result_word.into(),
            },
        )?;
        let replay_report =
            outcome.with_context(|| format!("session recorded in {}", session.dir.display()))?;
        Ok(PlayReport {
            session_dir: session.dir.clone(),
            givens: self.givens,
            solution: self.solution,
            stats: self.stats,
            replay: replay_report,
            input: target.tapper.mode(),
            taps_per_sec: target.tapper.taps_per_sec(),
            capture,
            plan: None,
            warmup_taps: 0,
        })
    }
}
