//! Playing a level from its start: find the calibration, open the level, read and check the
//! board, search it, measure the tap channel and plan, then perform it into a new session.

use super::config::{PlayConfig, PlayReport};
use super::execute::Run;
use super::{Note, Update, tell};
use crate::board::Board;
use crate::calibration::Navigation;
use crate::calibration::lookup::{self, Opening};
use crate::device::Device;
use crate::phone::link::Link;
use crate::phone::navigate::{app_package, nav_package, navigate};
use crate::phone::new_game::open_new_game;
use crate::phone::target::PhoneTarget;
use crate::phone::wake::wake;
use crate::play::forbidden::forbidden;
use crate::play::plan::Plan;
use crate::play::setnum::Layout;
use crate::remedy::{Advised, Remedy};
use crate::session::{DeviceMeta, SESSION_VERSION, Session, SessionMeta, time};
use crate::solver::{self, Event, Options, Outcome, Strategy};
use crate::video::Recorder;
use anyhow::{Context, bail};
use image::RgbaImage;
use std::time::{Instant, SystemTime};

/// Plays one level on `device`. `on` gets the notes on how the run is set up as they come
/// (before the performance starts), then where the performance stands.
pub fn play(
    device: &Device,
    cfg: &PlayConfig,
    on: &mut dyn FnMut(&Update),
) -> anyhow::Result<PlayReport> {
    let mut link = Link::new(device.clone(), cfg.reconnect_timeout, cfg.stop.clone());
    let device_meta = device_meta(&mut link, device)?;
    let size = (device_meta.width, device_meta.height);
    let app = front_app(&mut link, cfg, size)?;
    let phone = lookup::Phone {
        model: &device_meta.model,
        size,
        app: app.as_deref(),
    };
    let found = find_calibrations(cfg, phone, cfg.opening(), on)?;
    let pick = found.pick_before_opening(cfg.opening().is_some(), || link.grab().ok());
    if let lookup::Pick::Made(choice) = &pick {
        say_choice(choice, on);
    }
    // The level, and how to open it again: the picked calibration's way, which the candidates
    // the first frame may still pick among share.
    let reopen = pick.calibration().navigation.clone().zip(cfg.level);
    // The phone opens the tap channel while it opens the level: neither needs the other
    // (started already where no app was in front).
    link.start_channel(cfg.channel, size, cfg.pace);
    open_game(&mut link, cfg, pick.calibration().navigation.as_ref())?;
    let (mut link, first, (first_words, first_limit), choice) =
        first_board(link, pick, reopen.clone(), on)?;
    channel_opened(&mut link, on)?;
    // The phone records while the board is read and searched, so that its video is under way
    // by the first tap.
    let recorder = cfg.record.map(|o| Recorder::start(device.clone(), o));
    let (cal_path, mut cal) = (choice.path, choice.calibration);
    // A mistake counter on the game screen that calibrate did not see (a limit turned on
    // since): the writes are guarded as for the calibration's (`Layout::guards_writes`).
    if cal.input.mistake_limit.is_none() {
        cal.input.mistake_limit = first_limit;
    }
    let (givens, several) = read_givens(&cal, &first)?;
    let package = app_package(&mut link, cal.navigation.as_ref());
    let (events, solution, stats) = search_events(cfg.strategy, &givens, cfg.max_steps)?;

    // What the app forbids and the search needs is said before the first tap.
    let shown = cfg
        .max_visible_steps
        .map_or(events.len(), |n| (n as usize).min(events.len()));
    check_app_allows(&mut link, &cal, &events[..shown], &solution, cfg.strategy)?;

    let written = several.then_some(solution);
    let (plan, warmup_taps) = plan_run(&mut link, cfg, &cal, (&givens, &events, written), on)?;
    // The plan may show fewer steps than asked (a budget).
    let visible = (plan.visible_steps < plan.steps).then_some(plan.visible_steps);
    let cfg = &PlayConfig {
        max_visible_steps: visible,
        ..cfg.clone()
    };

    let run = Run {
        device,
        cfg,
        cal: &cal,
        cal_path: &cal_path,
        givens,
        events: &events,
        solution,
        stats,
    };
    let mut session = Session::create(&cfg.data_dir, run.session_meta(device_meta, &package))?;
    session.save_frame("first", &first)?;
    let mut target = PhoneTarget::new(link, &cal);
    target.package = package;
    target.reopen = reopen;
    target.givens = Some(givens);
    target.first_words = first_words;
    let mut report = run.execute(&mut session, (target, recorder), 0, on)?;
    report.plan = Some(plan);
    report.warmup_taps = warmup_taps;
    Ok(report)
}

impl Run<'_> {
    /// The app's own word for the difficulty `asked` (its spelling on the sheet, where the
    /// calibration knows it).
    fn difficulty_word(&self, asked: &str) -> String {
        match &self.cal.navigation {
            Some(Navigation::NewGame { difficulties, .. }) => difficulties
                .iter()
                .find(|d| d.eq_ignore_ascii_case(asked))
                .cloned()
                .unwrap_or_else(|| asked.to_string()),
            _ => asked.to_string(),
        }
    }

    /// What the new session records of this run, played on `device` in the app `package`.
    fn session_meta(&self, device: DeviceMeta, package: &Option<String>) -> SessionMeta {
        let cal_path = self.cal_path;
        SessionMeta {
            version: SESSION_VERSION,
            created: time::rfc3339(SystemTime::now()),
            device,
            // Absolute, so that `resume` finds it from any directory.
            calibration: std::fs::canonicalize(cal_path)
                .unwrap_or_else(|_| cal_path.to_path_buf())
                .display()
                .to_string(),
            level: self.cfg.level,
            strategy: self.cfg.strategy,
            givens: self.givens.to_line(),
            solution: self.solution.to_line(),
            placements: self.stats.placements,
            undos: self.stats.undos,
            max_visible_steps: self.cfg.max_visible_steps,
            app_package: package.clone(),
            difficulty: self
                .cfg
                .new_game
                .as_deref()
                .map(|d| self.difficulty_word(d)),
        }
    }
}

/// The phone as a session records it: serial, model (empty where unreadable), screen size.
fn device_meta(link: &mut Link, device: &Device) -> anyhow::Result<DeviceMeta> {
    let model = link
        .call("reading the model", |d| d.getprop("ro.product.model"))
        .unwrap_or_default();
    let (width, height) = link.call("reading the screen size", |d| d.screen_size())?;
    Ok(DeviceMeta {
        serial: device.serial.clone(),
        model,
        width,
        height,
    })
}

/// The package of the app in front, where an app's window is (not the lock screen's). A dark
/// or locked screen is woken and unlocked first, as during a run (through the tap channel,
/// started for it where no app is in front), so that the calibration is looked up for the app
/// that will be played.
fn front_app(
    link: &mut Link,
    cfg: &PlayConfig,
    size: (u32, u32),
) -> anyhow::Result<Option<String>> {
    for _ in 0..2 {
        if let Some(app) = link.call("finding the app in front", |d| d.front_package())? {
            return Ok(Some(app));
        }
        let state = link.call("checking the screen", |d| d.phone_state())?;
        // Waking goes through the tap channel, which the run opens anyway.
        link.start_channel(cfg.channel, size, cfg.pace);
        if !wake(link, &state, size)? {
            return Ok(None);
        }
    }
    link.call("finding the app in front", |d| d.front_package())
}

/// The calibrations that may play on `phone` (the one named, else those of the calibration
/// directories; made for the app in front, or for any app; able to open the game as `opening`
/// needs, where it needs to), the unreadable ones said.
pub(super) fn find_calibrations(
    cfg: &PlayConfig,
    phone: lookup::Phone<'_>,
    opening: Option<Opening>,
    on: &mut dyn FnMut(&Update),
) -> anyhow::Result<lookup::Found> {
    let size = phone.size;
    let found = match &cfg.calibration {
        Some(p) => {
            let found = lookup::file(p, phone.app)?;
            // A calibration for another screen would tap beside everything: say so before
            // touching the phone.
            found.candidates[0]
                .calibration
                .check_frame(size.0, size.1)
                .with_context(|| p.display().to_string())?;
            found
        }
        None => lookup::find(&cfg.calibration_dirs, phone),
    };
    for e in &found.broken {
        let error = e.to_string();
        tell(on, Note::SkippedCalibration { error });
    }
    // A level is played under its number, or a new game opened, only if it can be.
    Ok(match opening {
        Some(needs) => found.with_navigation(needs)?,
        None => found.require()?,
    })
}

/// Opens what the configuration asks for: a new game of a difficulty (by the app's words), or
/// level N (by `[navigation]`); nothing where it asks for neither (the open game is played).
fn open_game(link: &mut Link, cfg: &PlayConfig, nav: Option<&Navigation>) -> anyhow::Result<()> {
    match (&cfg.new_game, cfg.level, nav) {
        (Some(d), _, Some(Navigation::NewGame { open, difficulties })) => {
            let known =
                difficulties.is_empty() || difficulties.iter().any(|k| k.eq_ignore_ascii_case(d));
            if !known {
                bail!(
                    "the app offers no {d:?} games: its difficulties are {} (the calibration's [navigation])",
                    difficulties.join(", ")
                );
            }
            open_new_game(link, open, d)
        }
        (None, Some(level), Some(nav)) => navigate(link, nav, level),
        _ => Ok(()),
    }
}

/// The game screen's words when the run began (digits left out), and the mistake limit its
/// counter shows.
type FirstWords = (Option<Vec<String>>, Option<u32>);

/// The first frame that shows the board (the screen woken, the app brought back where need
/// be, the level opened again where `reopen` says how and it did not open), the game screen's
/// words, and the calibration picked (on it, said where there were several, where the pick
/// waited for it).
fn first_board(
    mut link: Link,
    pick: lookup::Pick,
    reopen: Option<(Navigation, u32)>,
    on: &mut dyn FnMut(&Update),
) -> anyhow::Result<(Link, RgbaImage, FirstWords, lookup::Choice)> {
    let measured = link.retry_restored(|link| link.grab())?;
    let mut setup = PhoneTarget::new(link, pick.calibration());
    setup.package = pick
        .package()
        .map(str::to_string)
        .or_else(|| nav_package(pick.calibration().navigation.as_ref()));
    // A level that did not open is opened again (`board_frame`).
    setup.reopen = reopen;
    let first = setup.board_frame(measured)?;
    let first_words = (setup.first_words.take(), setup.first_limit);
    let link = setup.link;
    let waited = matches!(pick, lookup::Pick::Waiting { .. });
    let choice = pick.on_first_frame(&first);
    if waited {
        say_choice(&choice, on);
    }
    Ok((link, first, first_words, choice))
}

/// Says which calibration was picked and why, where there was a choice.
fn say_choice(choice: &lookup::Choice, on: &mut dyn FnMut(&Update)) {
    if let Some(why) = &choice.why {
        let (path, why) = (choice.path.clone(), why.clone());
        tell(on, Note::Calibration { path, why });
    }
}

/// The givens on `first`, read with `cal`: a board that keeps the rules and has a solution, and
/// whether it has more than one. Several are played only where the reading has no doubt about
/// a cell that the puzzle does not settle (else the OCR may have missed a digit).
fn read_givens(
    cal: &crate::calibration::Calibration,
    first: &RgbaImage,
) -> anyhow::Result<(Board, bool)> {
    let givens = cal.read_if_visible(first)?
        .context("board not visible: no Sudoku board where the calibration expects it (is the game screen open?)")?;
    givens.validate().map_err(|c| anyhow::anyhow!("the board read from the screen {c}: check the screenshot in the session, or recalibrate"))?;
    let check = solver::fast::solutions(&givens, 2);
    match check.count {
        0 => bail!("the puzzle on screen has no solution:\n{givens}"),
        1 => Ok((givens, false)),
        _ => {
            let reading = cal.read(first)?;
            let doubts: Vec<&str> = reading
                .unsettled_doubts(solver::fast::has_no_solution)
                .map(|d| d.message.as_str())
                .collect();
            if doubts.is_empty() {
                return Ok((givens, true));
            }
            bail!(
                "the puzzle on screen has more than one solution, and the reading has doubts \
                 ({}): the OCR may have missed a digit:\n{givens}",
                doubts.join("; ")
            )
        }
    }
}

/// Before performing: the channel's rate measured (with the taps spent), the plan (what fits
/// the budget) said.
fn plan_run(
    link: &mut Link,
    cfg: &PlayConfig,
    cal: &crate::calibration::Calibration,
    (givens, events, several): (&Board, &[Event], Option<Board>),
    on: &mut dyn FnMut(&Update),
) -> anyhow::Result<(Plan, u64)> {
    let taps_layout = Layout::of(cal);
    link.keep_taps_apart_on_phone(taps_layout.least_pace());
    let (rate, warmup_taps) =
        link.retry_restored(|link| measure_rate(link, givens, &taps_layout))?;
    let plan = Plan::new(
        events,
        givens,
        &taps_layout,
        rate,
        cfg.budget,
        cfg.max_visible_steps,
    );
    let plan = Plan { several, ..plan };
    let level = cfg.level;
    tell(
        on,
        Note::Plan {
            plan: plan.clone(),
            level,
            done: 0,
        },
    );
    Ok((plan, warmup_taps))
}

/// Refuses, before the first tap, a search the app will not let be shown (`play::forbidden`):
/// its input rules as calibrated, and its mistake counter on the screen now.
fn check_app_allows(
    link: &mut Link,
    cal: &crate::calibration::Calibration,
    shown: &[Event],
    solution: &Board,
    strategy: Strategy,
) -> anyhow::Result<()> {
    let mut counter = || {
        let texts = link
            .call("reading the screen's words", |d| d.ui_dump())
            .ok()
            .and_then(|dump| dump.screen.ok())
            .map(|screen| screen.texts)
            .unwrap_or_default();
        crate::play::words::mistake_counter(&texts)
    };
    match forbidden(&cal.input, shown, solution, strategy, &mut counter) {
        Some(r) => Err(r.into()),
        None => Ok(()),
    }
}

/// Measures the channel's rate with taps on given cells (which change nothing): rounds of
/// 1, 2, 4, ... 32 taps, each flushed, while the next round should still end within about a
/// second and at most 63 taps in all; the rate is the last round's. A fast channel always gets
/// all 63 (the same warm-up on every run), a slow one (`input tap`, a few per second) stops
/// after a second's worth. The taps alternate between two givens, so none re-taps a selected
/// cell (which deselects it or toggles pencil mode in some apps). Returns the rate and the
/// taps spent.
fn measure_rate(link: &mut Link, givens: &Board, layout: &Layout) -> anyhow::Result<(f64, u64)> {
    // The last two givens: the encoder's neutral cells are the first two.
    let cells: Vec<(u32, u32)> = (0..81)
        .rev()
        .filter(|&c| givens.get(c) != 0)
        .take(2)
        .map(|c| layout.cells[c])
        .collect();
    if cells.is_empty() {
        return Ok((1.0, 0));
    }
    let start = Instant::now();
    let (mut round, mut spent) = (1u64, 0u64);
    let rate = loop {
        let t = Instant::now();
        for i in 0..round {
            let (x, y) = cells[(spent + i) as usize % cells.len()];
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

/// Searches `givens` with `strategy`, recording every event.
pub(super) fn search_events(
    strategy: Strategy,
    givens: &Board,
    max_steps: Option<u64>,
) -> anyhow::Result<(Vec<Event>, Board, solver::Stats)> {
    let mut rec = solver::Recorder::default();
    let options = Options {
        max_steps,
        check_unique: false,
    };
    let result = solver::search(strategy, givens, &options, &mut rec);
    match result.outcome {
        Outcome::Solved(s) => Ok((rec.0, s, result.stats)),
        Outcome::BudgetExhausted => Err(Advised::new(
            format!(
                "the {strategy} search stopped after {} placements without a solution",
                crate::text::thousands(result.stats.placements)
            ),
            &[Remedy::MoreSteps],
        )
        .into()),
        Outcome::Unsolvable => bail!("the puzzle on screen has no solution"),
    }
}

/// Opens the tap channel the configuration asks for, and says which it is and why.
pub(super) fn open_channel(
    link: &mut Link,
    cfg: &PlayConfig,
    size: (u32, u32),
    on: &mut dyn FnMut(&Update),
) -> anyhow::Result<()> {
    link.start_channel(cfg.channel, size, cfg.pace);
    channel_opened(link, on)
}

/// Waits for the tap channel [`Link::start_channel`] started, and says which it is and why.
fn channel_opened(link: &mut Link, on: &mut dyn FnMut(&Update)) -> anyhow::Result<()> {
    let channel = link.channel_opened()?;
    tell(
        on,
        Note::TapChannel {
            channel: channel.kind,
            why: channel.why,
        },
    );
    Ok(())
}
