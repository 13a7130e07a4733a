//! `autoplay demo`: no phone needed. Starts the simulated phone in-process on a free loopback
//! port, connects it to the adb server (or, without `adb` or with `--direct`, speaks the ADB
//! transport to it directly), plays a level visibly, and shows the phone's screen live (the board
//! redrawn in the terminal and a PNG refreshed on disk).

use super::args::{CalibrationArgs, RunArgs, SearchArgs, ServerArgs};
use super::choice::choice;
use autoplay_sim::timing::TimingMode;
use autoplay_sim::{SimConfig, profile};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use sudoku_autoplay::device::direct::Direct;
use sudoku_autoplay::device::screen::Screen;
use sudoku_autoplay::device::{Device, DeviceError, Server};
use sudoku_autoplay::level::play;
use sudoku_autoplay::level::{PlayConfig, PlayReport, Update};
use sudoku_autoplay::text::count;

#[derive(Debug, clap::Args)]
#[command(after_help = "Example: autoplay demo --level 3 --strategy rowmajor\n\
    The phone's screen is refreshed in DATA_DIR/demo-screen.png while it plays (see --data-dir).")]
pub struct DemoArgs {
    /// Simulated device profile.
    #[arg(long, default_value = "pixel", value_parser = clap::builder::PossibleValuesParser::new(profile::names()))]
    pub profile: String,
    /// How much the simulated phone's work costs: `phone` (what the profile's real phone
    /// costs: `input` start-up, processes, screenshots, the app's UI time) or `instant`.
    #[arg(long, value_parser = choice::<TimingMode>(), default_value = "phone")]
    pub timing: TimingMode,
    /// Talk to the simulated phone directly over the ADB transport, without an adb server
    /// (what the demo does anyway when `adb` is not installed).
    #[arg(long)]
    pub direct: bool,
    /// Level to play (the simulated app has 70).
    #[arg(short, long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=autoplay_sim::app::levels::LEVEL_COUNT as i64))]
    pub level: u32,
    #[command(flatten)]
    pub adb: ServerArgs,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub calibration: CalibrationArgs,
    #[command(flatten)]
    pub run: RunArgs,
}

/// The demo phone's port, when free: outside 5555-5585, the ports every adb server on the
/// machine scans for emulators (a phone there would show up in each as `emulator-5584`, a
/// second device beside the one the demo connects).
const DEMO_PORT: u16 = 5600;

/// Disconnects the simulated phone from the adb server (and stops a server we started) on drop.
struct Connected {
    server: Server,
    target: String,
    started_server: bool,
}

impl Drop for Connected {
    fn drop(&mut self) {
        let _ = self.server.disconnect(&self.target);
        if self.started_server {
            let _ = std::process::Command::new("adb")
                .args(["-P", &self.server.addr.port().to_string(), "kill-server"])
                .output();
        }
    }
}

/// Outside the repository (no `sim-PROFILE.toml` in the calibration directories, none given):
/// the calibration built into the binary, written into the data directory.
fn use_builtin_calibration(cfg: &mut PlayConfig, profile: &str) -> anyhow::Result<()> {
    let shipped = format!("sim-{profile}.toml");
    let dirs = cfg.calibration_dirs.dirs();
    if cfg.calibration.is_some() || dirs.iter().any(|d| d.join(&shipped).exists()) {
        return Ok(());
    }
    let path = cfg.data_dir.join(&shipped);
    std::fs::create_dir_all(&cfg.data_dir)?;
    std::fs::write(&path, builtin_calibration(profile))?;
    cfg.calibration = Some(path);
    Ok(())
}

pub fn run(args: &DemoArgs) -> anyhow::Result<i32> {
    let profile = profile::profile(&args.profile).ok_or_else(|| {
        anyhow::anyhow!(
            "unknown profile {:?}; choose one of: {}",
            args.profile,
            profile::names().join(", ")
        )
    })?;
    let mut config = SimConfig::new(profile.clone());
    config.timing = args.timing;
    // One port for every demo where it is free, so that runs.csv sees one device, not a new
    // one per run.
    let sim = autoplay_sim::spawn_on(([127, 0, 0, 1], DEMO_PORT).into(), config.clone())
        .or_else(|_| autoplay_sim::spawn(config))?;
    let target = sim.serial();
    eprintln!(
        "simulated phone ({}, {}x{}, {:?} timing) listening on {target}",
        profile.model, profile.width, profile.height, args.timing
    );

    let (device, _connected) = connect(&args.adb, &target, args.direct)?;

    let mut cfg = args
        .calibration
        .config(&args.run, Some(args.level), &args.search)?;
    use_builtin_calibration(&mut cfg, profile.name)?;
    let live_png: PathBuf = cfg.data_dir.join("demo-screen.png");
    std::fs::create_dir_all(&cfg.data_dir)?;
    eprintln!(
        "playing level {} with {} on {target}; live screen: {}",
        args.level,
        cfg.strategy,
        live_png.display()
    );

    // Live view: a thread grabs the phone's screen through adb and redraws the board.
    let stop = Arc::new(AtomicBool::new(false));
    let steps = Arc::new(AtomicU64::new(0));
    let viewer = {
        let (stop, steps, device) = (stop.clone(), steps.clone(), device.clone());
        let png = live_png.clone();
        let quiet = args.run.quiet;
        std::thread::spawn(move || live_view(&device, &png, &stop, &steps, quiet))
    };
    let started = Instant::now();
    let quiet = args.run.quiet;
    let result = play(&device, &cfg, &mut |update| match update {
        Update::Note(note) => super::progress::print_note(note, quiet),
        Update::Progress(p) => steps.store(
            p.done << 32 | p.total.min(u32::MAX as u64),
            Ordering::Relaxed,
        ),
    });
    stop.store(true, Ordering::Relaxed);
    let _ = viewer.join();
    let report = result?;
    print_summary(&report, &cfg, started.elapsed(), &sim.dumpsys())?;
    Ok(0)
}

/// What the demo did, and what the simulated phone says of it (`state`: its `dumpsys`).
fn print_summary(
    report: &PlayReport,
    cfg: &PlayConfig,
    took: Duration,
    state: &serde_json::Value,
) -> anyhow::Result<()> {
    let s = &report.stats;
    outln!("{}", report.solution)?;
    outln!(
        "level {} solved and verified in {:.1} s: {}, {}, {}; {} ({} taps/s via {}), {}",
        cfg.level.unwrap_or(0),
        took.as_secs_f64(),
        count(s.placements, "placement"),
        count(s.undos, "undo"),
        count(s.calls(), "call"),
        count(report.performed.taps, "tap"),
        sudoku_autoplay::text::rate(report.taps_per_sec),
        super::choice::name(report.channel),
        count(report.performed.repairs, "repair")
    )?;
    let warmup = if report.warmup_taps > 0 {
        format!(
            " ({} of them on a given cell, to measure the tap rate for the plan)",
            report.warmup_taps
        )
    } else {
        String::new()
    };
    outln!(
        "the phone says: screen {}, solved {}, {} taps received{warmup}; session recorded in {}",
        state["screen"],
        state["solved"],
        sudoku_autoplay::text::thousands(state["taps"].as_u64().unwrap_or(0)),
        report.session_dir.display()
    )?;
    Ok(())
}

/// The shipped calibration of a simulated profile (one-row keypad).
fn builtin_calibration(profile: &str) -> &'static str {
    match profile {
        "budget" => include_str!("../../calibration/sim-budget.toml"),
        "flagship" => include_str!("../../calibration/sim-flagship.toml"),
        "tablet" => include_str!("../../calibration/sim-tablet.toml"),
        _ => include_str!("../../calibration/sim-pixel.toml"),
    }
}

/// The simulated phone as a device: through the adb server (connected to it, disconnected
/// again on drop), or directly when asked to or when `adb` is not installed.
fn connect(
    adb: &ServerArgs,
    target: &str,
    direct: bool,
) -> anyhow::Result<(Device, Option<Connected>)> {
    let direct_to = || -> anyhow::Result<(Device, Option<Connected>)> {
        Ok((Device::direct(Direct::connect(target.parse()?)?), None))
    };
    if direct {
        eprintln!("talking to it directly over the ADB transport (no adb server)");
        return direct_to();
    }
    let server = adb.server()?;
    let started_server = server.version().is_err();
    match server.ensure_running() {
        Err(DeviceError::NoAdb) => {
            eprintln!(
                "`adb` is not installed, so talking to it directly over the ADB transport; \
                 a real phone needs the adb server (Debian/Ubuntu: `sudo apt-get install adb`)"
            );
            return direct_to();
        }
        other => other?,
    }
    let connected = Connected {
        server,
        target: target.to_string(),
        started_server,
    };
    server.connect(target)?;
    Ok((wait_ready(&server, target)?, Some(connected)))
}

/// Waits until the adb server lists the target as a ready device.
fn wait_ready(server: &Server, serial: &str) -> anyhow::Result<Device> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if server
            .devices()?
            .iter()
            .any(|d| d.serial == serial && d.is_ready())
        {
            return Ok(Device::new(serial, *server));
        }
        if Instant::now() > deadline {
            anyhow::bail!(
                "the adb server did not bring {serial} online within 10 s (see `adb devices`)"
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn live_view(
    device: &Device,
    png: &std::path::Path,
    stop: &AtomicBool,
    steps: &AtomicU64,
    quiet: bool,
) {
    let tty = std::io::stderr().is_terminal() && !quiet;
    let mut redraw = sudoku_autoplay::text::Redraw::default();
    let Ok((screen, _)) = Screen::measure(device) else {
        return;
    };
    while !stop.load(Ordering::Relaxed) {
        if let Ok(frame) = screen.grab() {
            let _ = frame.save(png);
            if tty
                && let Ok(state) =
                    device.shell("dumpsys sudoku", sudoku_autoplay::device::CALL_TIMEOUT)
            {
                let board = serde_json::from_str::<serde_json::Value>(&state.stdout)
                    .ok()
                    .and_then(|v| v["board"].as_str().map(str::to_string))
                    .and_then(|b| sudoku_autoplay::board::Board::parse_line(&b).ok());
                if let Some(b) = board {
                    let v = steps.load(Ordering::Relaxed);
                    let text = format!(
                        "{b}step {} of {}\n",
                        sudoku_autoplay::text::thousands(v >> 32),
                        sudoku_autoplay::text::thousands(v & 0xFFFF_FFFF)
                    );
                    let _ = redraw.draw(&mut std::io::stderr().lock(), &text);
                }
            }
        }
        std::thread::sleep(Duration::from_millis(250));
    }
}
