//! Where calibrations and data live. By default, in the user's directories (XDG on Linux, the
//! platform's places elsewhere, through the `directories` crate), plus a `./calibration` folder
//! in the current directory when there is one (the repository's simulated-phone profiles);
//! `--calibration-dir` / `--data-dir` and their environment variables override. The library
//! never looks these up: it is given the resolved paths.

use anyhow::anyhow;
use directories::ProjectDirs;
use std::path::{Path, PathBuf};
use sudoku_autoplay::calibration::lookup::SearchPath;

/// The name of the user's directories: `~/.config/sudoku-autoplay`, `~/.local/share/sudoku-autoplay`.
const APP: &str = "sudoku-autoplay";

/// The calibration folder read from the current directory, when present.
const LOCAL_CALIBRATION: &str = "calibration";

fn project() -> Option<ProjectDirs> {
    ProjectDirs::from("", "", APP)
}

/// The user's calibrations: `$XDG_CONFIG_HOME/sudoku-autoplay/calibration` on Linux.
pub fn user_calibration_dir() -> Option<PathBuf> {
    project().map(|p| p.config_dir().join("calibration"))
}

/// The user's runs.csv and sessions/: `$XDG_DATA_HOME/sudoku-autoplay` on Linux.
pub fn user_data_dir() -> Option<PathBuf> {
    project().map(|p| p.data_local_dir().to_path_buf())
}

fn shown(dir: Option<PathBuf>) -> String {
    dir.map_or("(none: no home directory)".into(), |d| {
        d.display().to_string()
    })
}

// `--calibration-dir`, declared once for every command that reads or writes calibrations.
#[derive(Debug, Clone, clap::Args)]
pub struct CalibrationDir {
    #[arg(
        long,
        value_name = "DIR",
        env = "AUTOPLAY_CALIBRATION_DIR",
        help = format!(
            "Where calibrations are looked up [default: ./{LOCAL_CALIBRATION} if it exists, and {}]",
            shown(user_calibration_dir())
        )
    )]
    pub calibration_dir: Option<PathBuf>,
}

/// The help of `--calibration-dir` where a calibration is written (`autoplay calibrate`).
pub fn calibration_dir_write_help() -> String {
    format!(
        "Where the calibration is written, as DIR/NAME.toml [default: {}]",
        shown(user_calibration_dir())
    )
}

impl CalibrationDir {
    /// Where calibrations are looked up: the directory given, or `./calibration` (if present)
    /// and the user's calibration directory. `./calibration` is made absolute, so that the
    /// calibration path a session records still holds when it is resumed from elsewhere.
    pub fn search_path(&self) -> SearchPath {
        match &self.calibration_dir {
            Some(dir) => SearchPath::from(dir.clone()),
            None => SearchPath::new(
                Path::new(LOCAL_CALIBRATION)
                    .is_dir()
                    .then(|| std::path::absolute(LOCAL_CALIBRATION).ok())
                    .flatten()
                    .into_iter()
                    .chain(user_calibration_dir()),
            ),
        }
    }

    /// Where a new calibration is written: the directory given, or the user's calibration directory.
    pub fn write_dir(&self) -> anyhow::Result<PathBuf> {
        self.calibration_dir
            .clone()
            .or_else(user_calibration_dir)
            .ok_or_else(|| {
                anyhow!(
                    "no home directory to keep calibrations in: pass --calibration-dir DIR \
                     (or set AUTOPLAY_CALIBRATION_DIR), or --out FILE"
                )
            })
    }
}

// `--data-dir`, declared once for every command that records or reads runs.
#[derive(Debug, Clone, clap::Args)]
pub struct DataDir {
    #[arg(
        long,
        value_name = "DIR",
        env = "AUTOPLAY_DATA",
        help = format!(
            "Data directory: runs.csv and sessions/ [default: {}]",
            shown(user_data_dir())
        )
    )]
    pub data_dir: Option<PathBuf>,
}

impl DataDir {
    /// The directory given, or the user's data directory.
    pub fn resolve(&self) -> anyhow::Result<PathBuf> {
        self.data_dir.clone().or_else(user_data_dir).ok_or_else(|| {
            anyhow!("no home directory to keep runs in: pass --data-dir DIR (or set AUTOPLAY_DATA)")
        })
    }
}
