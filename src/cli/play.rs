//! `autoplay [--level N]`: play a level on the phone, every placement and undo visible.

use super::args::{AdbArgs, CalibrationArgs, RunArgs, SearchArgs};
use super::exit;
use super::outcome::{completion, explain_failure, incidents, resume_command};
use super::progress::{progress_bar, updates};
use indicatif::{MultiProgress, ProgressBar};
use sudoku_autoplay::device::{Device, Server};
use sudoku_autoplay::level::{PlayConfig, PlayReport, play};
use sudoku_autoplay::play::stop::RunFailed;
use sudoku_autoplay::text::count;

// How to play (the command without a subcommand).
#[derive(Debug, Clone, clap::Args)]
#[command(next_help_heading = "Play")]
pub struct PlayArgs {
    /// Open level N first (needs `[navigation]` in the calibration); without it, the open level is played.
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub level: Option<u32>,
    /// Open a new game of this difficulty first, by the app's own words (case-insensitive:
    /// `--new-game hard`), in an app without level numbers; its calibration knows the way (the
    /// app's New Game and its difficulties: `autoplay calibrate` finds them).
    #[arg(long, value_name = "DIFFICULTY", conflicts_with = "level")]
    pub new_game: Option<String>,
    /// Play N games in a row: N new games of --new-game's difficulty, or with --level L the
    /// levels L, L+1, ... (stops at the first that is not solved).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub games: u32,
    /// Play on every connected device at once (one progress bar each, one runs.csv).
    #[arg(long, conflicts_with = "serial")]
    pub all_devices: bool,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub calibration: CalibrationArgs,
    #[command(flatten)]
    pub run: RunArgs,
}

impl PlayArgs {
    pub fn config(&self) -> anyhow::Result<PlayConfig> {
        let cfg = self
            .calibration
            .config(&self.run, self.level, &self.search)?;
        Ok(PlayConfig {
            new_game: self.new_game.clone(),
            ..cfg
        })
    }
}

pub fn run(adb: &AdbArgs, args: &PlayArgs) -> anyhow::Result<i32> {
    let stop = super::signals::install(super::signals::AFTER_THE_TAPS);
    if args.all_devices {
        return run_all(adb, &adb.server.running_server()?, args, stop);
    }
    let device = adb.run_device(None)?;
    let mut cfg = args.config()?;
    cfg.stop = stop;
    for game in 0..args.games {
        let cfg = PlayConfig {
            level: args.level.map(|l| l.saturating_add(game)),
            ..cfg.clone()
        };
        if args.games > 1 && !args.run.quiet {
            eprintln!("game {} of {}", game + 1, args.games);
        }
        let code = play_one(adb, &device, &cfg, args)?;
        if code != 0 || cfg.stop.check().is_err() {
            return Ok(code);
        }
    }
    Ok(0)
}

/// One game: what is played said, then its summary, or why it failed (its exit code).
fn play_one(
    adb: &AdbArgs,
    device: &Device,
    cfg: &PlayConfig,
    args: &PlayArgs,
) -> anyhow::Result<i32> {
    if !args.run.quiet {
        match (&cfg.new_game, cfg.level) {
            (Some(d), _) => eprintln!(
                "playing a new {d} game on {} with {}",
                device.serial, args.search.strategy
            ),
            (None, Some(l)) => eprintln!(
                "playing level {l} on {} with {}",
                device.serial, args.search.strategy
            ),
            (None, None) => eprintln!(
                "playing the game open on {} with {} (--level N or --new-game DIFFICULTY to open one; --help for more)",
                device.serial, args.search.strategy
            ),
        }
    }
    let bar = progress_bar(args.run.quiet, &device.serial);
    let r = match play_with_bar(device, cfg, &bar, args.run.quiet) {
        Ok(r) => r,
        Err(e) => return Ok(explain_failure(adb, cfg, &e)),
    };
    summary(&r)?;
    Ok(0)
}

/// A solved game's summary lines.
fn summary(r: &PlayReport) -> std::io::Result<()> {
    let s = &r.stats;
    outln!("{}", r.solution)?;
    outln!(
        "solved and verified ({}): {}, {}, {} (search {:.1} ms); {} at {} taps/s via {}, \
         {}{}, {} shown{}; capture: {}",
        completion(&r.performed),
        count(s.placements, "placement"),
        count(s.undos, "undo"),
        count(s.calls(), "call"),
        s.elapsed.as_secs_f64() * 1e3,
        count(r.performed.taps, "tap"),
        sudoku_autoplay::text::rate(r.taps_per_sec),
        super::choice::name(r.channel),
        count(r.performed.repairs, "repair"),
        incidents(&r.performed),
        count(r.performed.events_shown, "step"),
        if r.performed.events_hidden > 0 {
            format!(
                " ({} computed on the host only)",
                sudoku_autoplay::text::thousands(r.performed.events_hidden)
            )
        } else {
            String::new()
        },
        r.capture
    )?;
    if let Some(cut) = &r.performed.deadline_cut {
        outln!(
            "note: {}",
            super::explain::deadline_cut(cut, r.plan.as_ref().map(|p| p.rate))
        )?;
    }
    outln!("session: {}", r.session_dir.display())?;
    Ok(())
}

/// Plays with `bar` showing steps, taps and taps/s, and the run's notes printed ([`updates`]).
pub fn play_with_bar(
    device: &Device,
    cfg: &PlayConfig,
    bar: &ProgressBar,
    quiet: bool,
) -> anyhow::Result<PlayReport> {
    let report = play(device, cfg, &mut updates(bar, quiet));
    bar.finish_and_clear();
    report
}

/// `--all-devices`: one thread and one progress bar per ready device.
fn run_all(
    adb: &AdbArgs,
    server: &Server,
    args: &PlayArgs,
    stop: sudoku_autoplay::play::stop::StopFlag,
) -> anyhow::Result<i32> {
    server.ensure_running()?;
    let devices: Vec<Device> = server
        .devices()?
        .into_iter()
        .filter(|d| d.is_ready())
        .map(|d| Device::new(d.serial, *server))
        .collect();
    if devices.is_empty() {
        return Err(sudoku_autoplay::device::DeviceError::NoDevices.into());
    }
    let multi = MultiProgress::new();
    if args.run.quiet {
        multi.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let mut cfg = args.config()?;
    cfg.stop = stop;
    let results = play_each(&devices, &cfg, &multi, args.run.quiet);
    let mut code = exit::SOLVED;
    for (serial, r) in &results {
        match r {
            Ok(r) => outln!(
                "{serial}: solved and verified, {} placements, {} undos, {} taps, {} repairs{}",
                sudoku_autoplay::text::thousands(r.stats.placements),
                sudoku_autoplay::text::thousands(r.stats.undos),
                sudoku_autoplay::text::thousands(r.performed.taps),
                sudoku_autoplay::text::thousands(r.performed.repairs),
                incidents(&r.performed)
            )?,
            Err(e) => {
                outln!("{serial}: FAILED: {}", super::explain::error_text(e))?;
                if let Some(f) = e.downcast_ref::<RunFailed>() {
                    outln!(
                        "{serial}: to continue: {}",
                        resume_command(adb, &cfg, &f.session_dir)
                    )?;
                }
                // The most telling code: a signal, then the others, then plain failure.
                let c = exit::of_error(e);
                if code == exit::SOLVED || c > code {
                    code = c;
                }
            }
        }
    }
    Ok(code)
}

/// Plays on every device at once, a thread and a progress bar each: per device, its serial
/// and how its play ended.
fn play_each(
    devices: &[Device],
    cfg: &PlayConfig,
    multi: &MultiProgress,
    quiet: bool,
) -> Vec<(String, anyhow::Result<PlayReport>)> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = devices
            .iter()
            .map(|device| {
                let bar = multi.add(progress_bar(quiet, &device.serial));
                scope.spawn(move || {
                    let report = play_with_bar(device, cfg, &bar, quiet);
                    (device.serial.clone(), report)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    ("?".into(), Err(anyhow::anyhow!("a player thread panicked")))
                })
            })
            .collect()
    })
}
