//! `autoplay [--level N]`: play a level on the phone, every placement and undo visible.

use super::choice::choice;
use super::dirs::{CalibrationDir, DataDir};
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::time::Duration;
use sudoku_autoplay::calibration::lookup::SearchPath;
use sudoku_autoplay::device::tap::InputBackend;
use sudoku_autoplay::device::{Device, Server, select};
use sudoku_autoplay::level::{PlayConfig, PlayReport, play};
use sudoku_autoplay::play::stop::{RunFailed, Stop, exit, stop_of};
use sudoku_autoplay::play::{Note, Progress, Update};
use sudoku_autoplay::solver::Strategy;

/// Which adb server (like adb's own `-H`, `-P`).
#[derive(Debug, Clone, clap::Args)]
#[command(next_help_heading = "adb server")]
pub struct ServerArgs {
    /// Host of the adb server (a remote server spreads devices over machines).
    #[arg(
        short = 'H',
        long = "host",
        default_value = "127.0.0.1",
        value_name = "HOST"
    )]
    pub host: String,
    /// Port of the adb server.
    #[arg(short = 'P', long = "port", env = "ANDROID_ADB_SERVER_PORT", default_value_t = sudoku_autoplay::device::DEFAULT_PORT, value_name = "PORT")]
    pub port: u16,
}

impl ServerArgs {
    /// The adb server, started first if none answers on a local port (saying so: a new server
    /// knows none of the devices the user's own server had connected).
    pub fn running_server(&self) -> anyhow::Result<Server> {
        let server = self.server()?;
        if server.is_local() && server.version().is_err() {
            eprintln!(
                "no adb server answers on {}: starting one (`{}`; `{}` stops it)",
                server.addr,
                server.adb_command("start-server"),
                server.adb_command("kill-server")
            );
        }
        server.ensure_running()?;
        Ok(server)
    }

    pub fn server(&self) -> anyhow::Result<Server> {
        use std::net::ToSocketAddrs;
        let addr = (self.host.as_str(), self.port)
            .to_socket_addrs()
            .map_err(|e| anyhow::anyhow!("cannot resolve adb server host {:?}: {e}", self.host))?
            .find_map(|a| match a {
                std::net::SocketAddr::V4(v4) => Some(v4),
                _ => None,
            })
            .ok_or_else(|| {
                anyhow::anyhow!("adb server host {:?} has no IPv4 address", self.host)
            })?;
        Ok(Server::new(addr))
    }
}

/// Which device, and through which adb server (like adb's own `-s`, `-H`, `-P`).
#[derive(Debug, Clone, clap::Args)]
#[command(next_help_heading = "Device")]
pub struct AdbArgs {
    /// Device serial, as `adb devices` lists it (default: the only device).
    #[arg(
        short = 's',
        long = "serial",
        env = "ANDROID_SERIAL",
        value_name = "SERIAL"
    )]
    pub serial: Option<String>,
    #[command(flatten)]
    pub server: ServerArgs,
}

impl AdbArgs {
    /// The chosen device (`-s`, `ANDROID_SERIAL`, else the only one), starting the adb server
    /// if needed.
    pub fn device(&self) -> anyhow::Result<Device> {
        self.device_or(None)
    }

    /// Like [`AdbArgs::device`], with `serial` when `-s` is not given.
    pub fn device_or(&self, serial: Option<&str>) -> anyhow::Result<Device> {
        let server = self.server.running_server()?;
        Ok(select(&server, self.serial.as_deref().or(serial))?)
    }
}

/// The search whose every step is played.
#[derive(Debug, Clone, clap::Args)]
#[command(next_help_heading = "Search")]
pub struct SearchArgs {
    /// Search strategy whose every step is shown (rowmajor is the article's).
    #[arg(long, value_parser = choice::<Strategy>(), default_value = "rowmajor")]
    pub strategy: Strategy,
    /// Show only the first N search steps as taps; the rest is searched on the host and the final digits are filled in.
    #[arg(long, value_name = "N")]
    pub max_visible_steps: Option<u64>,
    /// Time budget: show as many search steps as fit in DURATION at the tap channel's measured
    /// rate, then fill the rest of the solution in directly (the plan printed before replaying
    /// says how many). `none` shows every step, however long it takes.
    #[arg(long, value_name = "DURATION", default_value = "30m")]
    pub budget: sudoku_autoplay::play::plan::Budget,
    /// Give up a search after N placements.
    #[arg(long, value_name = "N")]
    pub max_steps: Option<u64>,
}

/// `--budget`'s default, also for `resume` (which has no search options).
const DEFAULT_BUDGET: Option<Duration> = Some(Duration::from_secs(30 * 60));

/// Where the calibration comes from.
#[derive(Debug, Clone, clap::Args)]
#[command(next_help_heading = "Calibration")]
pub struct CalibrationArgs {
    /// Calibration file (default: the one in --calibration-dir matching the device's model and screen).
    #[arg(long, value_name = "FILE")]
    pub calibration: Option<PathBuf>,
    #[command(flatten)]
    pub dir: CalibrationDir,
}

/// How taps are sent and checked, and where the run is recorded.
#[derive(Debug, Clone, clap::Args)]
#[command(next_help_heading = "Taps and records")]
pub struct RunArgs {
    /// How taps are sent: `raw` (binary touch records streamed into the touch panel by one `dd`;
    /// Android 9 and older, or root), `inject` (tap records to one `app_process` injector pushed
    /// to the phone), `events` (`sendevent` lines) or `input` (`input tap` lines: slowest, works
    /// everywhere). Default: the fastest the device allows, in that order; the choice and why is
    /// printed.
    #[arg(long, value_parser = choice::<InputBackend>())]
    pub input: Option<InputBackend>,
    /// Milliseconds between taps (0: as fast as the phone takes them).
    #[arg(long, value_name = "MS", default_value_t = 20)]
    pub pace: u64,
    /// Re-read the board every K taps and repair what differs.
    #[arg(long, value_name = "K", default_value_t = 2000)]
    pub verify_every_taps: u64,
    /// ... or every T seconds.
    #[arg(long, value_name = "T", default_value_t = 30)]
    pub verify_every_secs: u64,
    /// Check every T seconds that the board is still on the screen, so that a game-over
    /// screen, a dark screen or another app is noticed within seconds (less often where a
    /// screenshot takes more than T/8, to keep the checks under an eighth of the time).
    #[arg(long, value_name = "T", default_value_t = 2.0, value_parser = parse_seconds)]
    pub check_board_every_secs: f64,
    /// When the phone's link drops (cable, Wi-Fi, adb server restart), wait this many seconds
    /// for it to come back before giving up (the session can be resumed later).
    #[arg(long, value_name = "SECS", default_value_t = 30.0, value_parser = parse_seconds)]
    pub reconnect_timeout: f64,
    #[command(flatten)]
    pub data: DataDir,
    /// No progress bar.
    #[arg(short, long)]
    pub quiet: bool,
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && (0.0..=86_400.0).contains(&v) => Ok(v),
        _ => Err(format!("'{s}' is not a number of seconds (0 to 86400)")),
    }
}

impl RunArgs {
    /// The play settings: these, the calibration options, `level` and the search (`None`:
    /// rowmajor with no limits, for `resume`, which takes the search from the session).
    /// Fails when no data directory can be found.
    pub fn config(
        &self,
        level: Option<u32>,
        search: Option<&SearchArgs>,
        calibration: Option<PathBuf>,
        calibration_dirs: SearchPath,
    ) -> anyhow::Result<PlayConfig> {
        Ok(PlayConfig {
            level,
            strategy: search.map_or(Strategy::RowMajor, |s| s.strategy),
            calibration,
            calibration_dirs,
            input: self.input,
            pace: Duration::from_millis(self.pace),
            max_visible_steps: search.and_then(|s| s.max_visible_steps),
            budget: search.map_or(DEFAULT_BUDGET, |s| s.budget.0),
            max_steps: search.and_then(|s| s.max_steps),
            verify_taps: self.verify_every_taps,
            verify_interval: Duration::from_secs(self.verify_every_secs.max(1)),
            glance_interval: Duration::from_secs_f64(self.check_board_every_secs),
            reconnect_timeout: Duration::from_secs_f64(self.reconnect_timeout),
            data_dir: self.data.resolve()?,
            ..PlayConfig::default()
        })
    }
}

/// How to play (the command without a subcommand).
#[derive(Debug, Clone, clap::Args)]
#[command(next_help_heading = "Play")]
pub struct PlayArgs {
    /// Open level N first (needs `[navigation]` in the calibration); without it, the open level is played.
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub level: Option<u32>,
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

impl CalibrationArgs {
    /// The play settings of `run` with this calibration, `level` and `search`.
    pub fn config(
        &self,
        run: &RunArgs,
        level: Option<u32>,
        search: &SearchArgs,
    ) -> anyhow::Result<PlayConfig> {
        run.config(
            level,
            Some(search),
            self.calibration.clone(),
            self.dir.search_path(),
        )
    }
}

impl PlayArgs {
    pub fn config(&self) -> anyhow::Result<PlayConfig> {
        self.calibration.config(&self.run, self.level, &self.search)
    }
}

/// A progress bar for a replay: events, taps/s, elapsed, ETA.
pub fn progress_bar(quiet: bool, label: &str) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} steps  {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_prefix(label.to_string());
    bar
}

pub fn run(adb: &AdbArgs, args: &PlayArgs) -> anyhow::Result<i32> {
    let stop = super::signals::install();
    if args.all_devices {
        return run_all(adb, &adb.server.running_server()?, args, stop);
    }
    let device = adb.device()?;
    if !args.run.quiet {
        match args.level {
            Some(l) => eprintln!(
                "playing level {l} on {} with {}",
                device.serial, args.search.strategy
            ),
            None => eprintln!(
                "playing the level open on {} with {} (use --level N to open one; --help for more)",
                device.serial, args.search.strategy
            ),
        }
    }
    let bar = progress_bar(args.run.quiet, &device.serial);
    let mut cfg = args.config()?;
    cfg.stop = stop;
    let r = match play_with_bar(&device, &cfg, &bar, args.run.quiet) {
        Ok(r) => r,
        Err(e) => return Ok(explain_failure(adb, &cfg.data_dir, &e)),
    };
    let s = &r.stats;
    outln!("{}", r.solution)?;
    outln!(
        "solved and verified ({}): {} placements, {} undos, {} calls (search {:.1} ms); {} taps at {} taps/s via {}, \
         {} repairs{}, {} steps shown{}; capture: {}",
        completion(&r.replay),
        sudoku_autoplay::text::thousands(s.placements),
        sudoku_autoplay::text::thousands(s.undos),
        sudoku_autoplay::text::thousands(s.calls()),
        s.elapsed.as_secs_f64() * 1e3,
        sudoku_autoplay::text::thousands(r.replay.taps),
        sudoku_autoplay::play::plan::rate(r.taps_per_sec),
        super::choice::name(r.input),
        sudoku_autoplay::text::thousands(r.replay.repairs),
        super::resume::incidents(&r.replay),
        sudoku_autoplay::text::thousands(r.replay.events_shown),
        if r.replay.events_hidden > 0 {
            format!(
                " ({} computed on the host only)",
                sudoku_autoplay::text::thousands(r.replay.events_hidden)
            )
        } else {
            String::new()
        },
        r.capture
    )?;
    outln!("session: {}", r.session_dir.display())?;
    Ok(0)
}

/// How the solved board was seen, for the summary line.
pub fn completion(r: &sudoku_autoplay::play::ReplayReport) -> &'static str {
    match r.completion {
        Some(sudoku_autoplay::play::Completion::Screen) => "the app's completion screen",
        _ => "the solved board read back",
    }
}

/// Prints a run's note as a line on stderr: the tap channel and the plan unless `--quiet`; a
/// skipped calibration file, and the calibration picked among several, always.
pub fn print_note(note: &Note, quiet: bool) {
    let detail = matches!(note, Note::TapChannel { .. } | Note::Plan { .. });
    if !(quiet && detail) {
        eprintln!("{note}");
    }
}

/// The callback for [`play`] / `resume`: notes printed as they come (above `bar`), the
/// replay's progress on `bar` ([`bar_progress`]).
pub fn updates(bar: &ProgressBar, quiet: bool) -> impl FnMut(&Update) + '_ {
    let mut progress = bar_progress(bar);
    move |update| match update {
        Update::Note(note) => bar.suspend(|| print_note(note, quiet)),
        Update::Progress(p) => progress(p),
    }
}

/// A progress callback for the replay that drives `bar`: steps, taps, the taps/s the
/// phone has carried out (the channel's measured rate: taps are acknowledged only once the
/// phone is done with them), the ETA at that rate for the remaining steps' taps, and the
/// repairs, reconnects and interruptions survived.
pub fn bar_progress(bar: &ProgressBar) -> impl FnMut(&Progress) + '_ {
    let mut first: Option<(std::time::Instant, u64, u64)> = None;
    let mut last: Option<std::time::Instant> = None;
    move |p| {
        let (done, total, taps) = (p.done, p.total, p.taps);
        let (start, done0, taps0) = *first.get_or_insert((std::time::Instant::now(), done, taps));
        if last.is_none_or(|l| l.elapsed() >= Duration::from_millis(100)) || done == total {
            last = Some(std::time::Instant::now());
            bar.set_length(total);
            bar.set_position(done);
            let secs = start.elapsed().as_secs_f64().max(1e-3);
            let rate = taps.saturating_sub(taps0) as f64 / secs;
            let per_step =
                taps.saturating_sub(taps0) as f64 / done.saturating_sub(done0).max(1) as f64;
            let eta = if rate > 0.0 {
                let left = total.saturating_sub(done) as f64 * per_step / rate;
                sudoku_autoplay::play::plan::human(
                    Duration::try_from_secs_f64(left).unwrap_or(Duration::MAX),
                )
            } else {
                "?".to_string()
            };
            let mut msg = format!(
                "{} taps, {rate:.0} taps/s, ETA {eta}",
                sudoku_autoplay::text::thousands(taps)
            );
            for (n, what) in [
                (p.repairs, "repairs"),
                (p.reconnects, "reconnects"),
                (p.interruptions, "interruptions"),
            ] {
                if n > 0 {
                    msg.push_str(&format!(", {n} {what}"));
                }
            }
            bar.set_message(msg);
        }
    }
}

/// Prints why a run stopped, where its session is and how to go on; returns the exit code
/// (README, "Exit codes").
pub fn explain_failure(adb: &AdbArgs, data_dir: &std::path::Path, e: &anyhow::Error) -> i32 {
    eprintln!("error: {e:#}");
    let stop = stop_of(e);
    if let Some(f) = e.downcast_ref::<RunFailed>() {
        let dir = &f.session_dir;
        eprintln!("session: {}", dir.display());
        if dir.join("last.png").exists() && !matches!(stop, Some(Stop::Interrupted { .. })) {
            eprintln!("the last screen seen: {}", dir.join("last.png").display());
        }
        let resume = resume_command(adb, data_dir, dir);
        match stop {
            Some(Stop::GameOver { .. }) => eprintln!(
                "to play it again: add --strategy fast; or turn the app's mistake limit off and run `{resume}`"
            ),
            _ => eprintln!("to continue: {resume}"),
        }
    } else if let Some(Stop::DeviceLost { .. }) = stop {
        eprintln!(
            "nothing was recorded yet: run the same command again once `adb devices` lists the phone as `device`"
        );
    }
    stop.map_or(exit::FAILED, Stop::exit_code)
}

/// The exact `autoplay resume` command for a session, with the adb server and data directory
/// in use.
pub fn resume_command(adb: &AdbArgs, data_dir: &std::path::Path, dir: &std::path::Path) -> String {
    let mut cmd = format!(
        "autoplay resume {}",
        shell_quote(&dir.display().to_string())
    );
    if super::dirs::user_data_dir().as_deref() != Some(data_dir) {
        cmd.push_str(&format!(
            " --data-dir {}",
            shell_quote(&data_dir.display().to_string())
        ));
    }
    if adb.server.host != "127.0.0.1" {
        cmd.push_str(&format!(" -H {}", shell_quote(&adb.server.host)));
    }
    if adb.server.port != sudoku_autoplay::device::DEFAULT_PORT {
        cmd.push_str(&format!(" -P {}", adb.server.port));
    }
    cmd
}

fn shell_quote(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-:=+,".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
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
    let results: Vec<(String, anyhow::Result<PlayReport>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = devices
            .iter()
            .map(|device| {
                let bar = multi.add(progress_bar(args.run.quiet, &device.serial));
                let cfg = &cfg;
                let quiet = args.run.quiet;
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
    });
    let mut code = exit::SOLVED;
    for (serial, r) in &results {
        match r {
            Ok(r) => outln!(
                "{serial}: solved and verified, {} placements, {} undos, {} taps, {} repairs{}",
                sudoku_autoplay::text::thousands(r.stats.placements),
                sudoku_autoplay::text::thousands(r.stats.undos),
                sudoku_autoplay::text::thousands(r.replay.taps),
                sudoku_autoplay::text::thousands(r.replay.repairs),
                super::resume::incidents(&r.replay)
            )?,
            Err(e) => {
                outln!("{serial}: FAILED: {e:#}")?;
                if let Some(f) = e.downcast_ref::<RunFailed>() {
                    outln!(
                        "{serial}: to continue: {}",
                        resume_command(adb, &cfg.data_dir, &f.session_dir)
                    )?;
                }
                // The most telling code: a signal, then the others, then plain failure.
                let c = stop_of(e).map_or(exit::FAILED, Stop::exit_code);
                if code == exit::SOLVED || c > code {
                    code = c;
                }
            }
        }
    }
    Ok(code)
}
