//! What a level is played with ([`PlayConfig`]) and what it did ([`PlayReport`]).

use crate::board::Board;
use crate::calibration::lookup::{Opening, SearchPath};
use crate::device::tap::ChannelKind;
use crate::play::PerformReport;
use crate::play::plan::Plan;
use crate::play::stop::StopFlag;
use crate::solver::{self, Strategy};
use crate::video::RecordOptions;
use std::path::PathBuf;
use std::time::Duration;

/// Settings of one play.
#[derive(Debug, Clone)]
pub struct PlayConfig {
    /// Level to open first (needs `[navigation]` in the calibration); `None`: the open one.
    pub level: Option<u32>,
    /// Open a new game of this difficulty first, by the app's own words (an app without level
    /// numbers; needs a `new-game` `[navigation]`); `None`: no new game.
    pub new_game: Option<String>,
    pub strategy: Strategy,
    /// A calibration file; `None`: look one up in `calibration_dirs` by model and screen size.
    pub calibration: Option<PathBuf>,
    /// Where calibrations are looked up (default: `calibration`; the command line passes the
    /// user's directories).
    pub calibration_dirs: SearchPath,
    /// The tap channel asked for; `None`: the fastest the device allows (the table's order,
    /// `device::tap::choose`).
    pub channel: Option<ChannelKind>,
    pub pace: Duration,
    pub max_visible_steps: Option<u64>,
    /// Show as many steps as fit in this time at the channel's measured rate, then fill the
    /// rest directly (`None`: no limit); held as a deadline during the performance, where the
    /// phone goes slower than measured (`PerformOptions::budget`).
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
    /// Record the phone's screen for the run (`screen.mp4` in the session); `None`: no video.
    pub record: Option<RecordOptions>,
}

impl Default for PlayConfig {
    fn default() -> Self {
        PlayConfig {
            level: None,
            new_game: None,
            strategy: Strategy::RowMajor,
            calibration: None,
            calibration_dirs: SearchPath::from(PathBuf::from("calibration")),
            channel: None,
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
            record: None,
        }
    }
}

impl PlayConfig {
    /// What the run opens before it plays: a new game, level N, or nothing (the open game).
    pub(crate) fn opening(&self) -> Option<Opening> {
        match (&self.new_game, self.level) {
            (Some(d), _) => Some(Opening::NewGame(d.clone())),
            (None, level) => level.map(Opening::Level),
        }
    }
}

/// What happened, for the summary line.
#[derive(Debug, Clone)]
pub struct PlayReport {
    pub session_dir: PathBuf,
    pub givens: Board,
    /// The solution on the screen at the end (the search's, or the one written after the app
    /// marked digits of it wrong).
    pub solution: Board,
    pub stats: solver::Stats,
    /// What performing the search's events on the phone did.
    pub performed: PerformReport,
    /// The tap channel the taps went through.
    pub channel: ChannelKind,
    pub taps_per_sec: f64,
    pub capture: String,
    /// The plan noted before performing (`None` when resuming).
    pub plan: Option<Plan>,
    /// Taps on a given cell that measured the channel's rate for the plan (not in the journal).
    pub warmup_taps: u64,
}
