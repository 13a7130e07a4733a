//! The option groups several commands share: which adb server and device, the search, the
//! calibration, and how taps are sent, checked and recorded.

use super::choice::choice;
use super::dirs::{CalibrationDir, DataDir};
use std::path::PathBuf;
use std::time::Duration;
use sudoku_autoplay::calibration::lookup::SearchPath;
use sudoku_autoplay::device::tap::ChannelKind;
use sudoku_autoplay::device::{Device, DeviceError, Server, select};
use sudoku_autoplay::level::PlayConfig;
use sudoku_autoplay::phone::link::is_network_serial;
use sudoku_autoplay::solver::Strategy;
use sudoku_autoplay::video::RecordOptions;

// The option groups below are flattened into the commands that use them. Their comments are
// plain comments, not doc comments: clap makes a flattened group's doc comment the help text of
// every command that takes it in (`tests/it/front_door.rs` checks each command's help).

// Which adb server (like adb's own `-H`, `-P`).
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

// Which device, and through which adb server (like adb's own `-s`, `-H`, `-P`).
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

    /// The device of a run (a play, a resume), as [`AdbArgs::device_or`]; but a network device
    /// (`HOST:PORT`) named that the server does not list as ready is taken as it is: the run's
    /// link (`phone::link`) connects it again (`adb connect`) and waits for it, as it does when
    /// the phone drops mid-run.
    pub fn run_device(&self, serial: Option<&str>) -> anyhow::Result<Device> {
        let server = self.server.running_server()?;
        let named = self.serial.as_deref().or(serial);
        match (select(&server, named), named) {
            (Err(DeviceError::NotFound { .. } | DeviceError::NotReady { .. }), Some(serial))
                if is_network_serial(serial) =>
            {
                Ok(Device::new(serial.to_string(), server))
            }
            (chosen, _) => Ok(chosen?),
        }
    }
}

// The search whose every step is played.
#[derive(Debug, Clone, clap::Args)]
#[command(next_help_heading = "Search")]
pub struct SearchArgs {
    /// Search strategy whose every step is shown (rowmajor is the article's).
    #[arg(long, value_parser = choice::<Strategy>(), default_value = "rowmajor")]
    pub strategy: Strategy,
    /// Show only the first N search steps as taps; the rest is searched on the host and the final digits are filled in.
    #[arg(long, value_name = "N")]
    pub max_visible_steps: Option<u64>,
    /// Time budget, held as a deadline: show as many search steps as fit in DURATION at the tap
    /// channel's measured rate, then fill the rest of the solution in directly (the plan printed
    /// before playing says how many). The performance ends by the deadline: where the phone (or
    /// this computer) turns out slower than measured, the steps stop earlier, and the summary
    /// says how many were shown of those planned. `none` shows every step, however long it
    /// takes.
    #[arg(long, value_name = "DURATION", default_value = "30m")]
    pub budget: Budget,
    /// Give up a search after N placements.
    #[arg(long, value_name = "N")]
    pub max_steps: Option<u64>,
}

/// `--pace`'s default, milliseconds.
pub const DEFAULT_PACE_MS: u64 = 20;

// Where the calibration comes from.
#[derive(Debug, Clone, clap::Args)]
#[command(next_help_heading = "Calibration")]
pub struct CalibrationArgs {
    /// Calibration file (default: the one in --calibration-dir matching the device's model and screen).
    #[arg(long, value_name = "FILE")]
    pub calibration: Option<PathBuf>,
    #[command(flatten)]
    pub dir: CalibrationDir,
}

// How taps are sent and checked, and where the run is recorded.
#[derive(Debug, Clone, clap::Args)]
#[command(next_help_heading = "Taps and records")]
pub struct RunArgs {
    /// How taps are sent: `raw` (binary touch records streamed into the touch panel by one `dd`;
    /// Android 9 and older, or root), `inject` (tap records to one `app_process` injector pushed
    /// to the phone), `events` (`sendevent` lines) or `input` (`input tap` lines: slowest, works
    /// everywhere). Default: the fastest the device allows, in that order; the choice and why is
    /// printed. (`--channel` is the same option.)
    #[arg(long = "input", alias = "channel", value_parser = choice::<ChannelKind>())]
    pub channel: Option<ChannelKind>,
    /// Milliseconds between taps (0: as fast as the phone takes them).
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_PACE_MS)]
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
    /// Record the phone's own screen for the whole run (`screenrecord`, chained past its
    /// 3-minute limit): `screen.mp4` in the run's session, with the search's counts as captions
    /// (also beside it as `screen.vtt`). A phone that cannot record plays on without a video,
    /// and says why.
    #[arg(long)]
    pub record: bool,
    /// With --record: seconds one `screenrecord` runs before the next takes over (4 to 180, the
    /// phone's limit).
    #[arg(long, value_name = "SECS", default_value_t = 180, value_parser = clap::value_parser!(u64).range(4..=180))]
    pub record_segment: u64,
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
    /// rowmajor with no limits, for `resume`, which takes the search from the session and has
    /// a `--budget` of its own).
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
            channel: self.channel,
            pace: Duration::from_millis(self.pace),
            max_visible_steps: search.and_then(|s| s.max_visible_steps),
            budget: search.and_then(|s| s.budget.0),
            max_steps: search.and_then(|s| s.max_steps),
            verify_taps: self.verify_every_taps,
            verify_interval: Duration::from_secs(self.verify_every_secs.max(1)),
            glance_interval: Duration::from_secs_f64(self.check_board_every_secs),
            reconnect_timeout: Duration::from_secs_f64(self.reconnect_timeout),
            data_dir: self.data.resolve()?,
            record: self.record.then(|| RecordOptions {
                segment: Duration::from_secs(self.record_segment),
                ..RecordOptions::default()
            }),
            ..PlayConfig::default()
        })
    }
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

/// A `--budget`: a duration, or no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget(pub Option<Duration>);

impl std::str::FromStr for Budget {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        parse_budget(s).map(Budget)
    }
}

/// Parses a `--budget`: `30m`, `2h`, `90s`, `1h30m`, `45` (seconds), or `none` (no limit).
fn parse_budget(text: &str) -> Result<Option<Duration>, String> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    let bad =
        || format!("'{text}' is not a duration: use e.g. 30m, 2h, 1h30m, 90s, or none (no limit)");
    let mut total = 0u64;
    let mut number = String::new();
    for c in t.chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let n: u64 = number.parse().map_err(|_| bad())?;
        number.clear();
        total += n * match c {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            'd' => 86_400,
            _ => return Err(bad()),
        };
    }
    if !number.is_empty() {
        total += number.parse::<u64>().map_err(|_| bad())?;
    }
    if t.is_empty() || total == 0 {
        return Err(bad());
    }
    Ok(Some(Duration::from_secs(total)))
}

#[cfg(test)]
mod tests {
    #[test]
    fn budgets_read() {
        use super::parse_budget;
        use std::time::Duration;
        assert_eq!(parse_budget("30m"), Ok(Some(Duration::from_secs(1800))));
        assert_eq!(parse_budget("1h30m"), Ok(Some(Duration::from_secs(5400))));
        assert_eq!(parse_budget("90"), Ok(Some(Duration::from_secs(90))));
        assert_eq!(parse_budget("none"), Ok(None));
        for bad in ["", "0", "10x", "m", "-5m"] {
            assert!(parse_budget(bad).is_err(), "{bad}");
        }
    }
}
