//! Which level to play next on a device, and whether to play it from its start or resume it
//! (what `autoplay watch` does for every device that appears).

use super::config::{PlayConfig, PlayReport};
use super::start::find_calibrations;
use super::{Note, Update, tell};
use super::{play, resume};
use crate::calibration::lookup::{self, Opening};
use crate::device::Device;
use crate::session::{interrupted_session, solved_before};
use std::path::Path;

/// The levels of `levels`, in their order, that `runs.csv` in `data_dir` does not have solved on
/// the device `serial`.
pub fn next_levels(data_dir: &Path, serial: &str, levels: &[u32]) -> Vec<u32> {
    levels
        .iter()
        .copied()
        .filter(|&l| !solved_before(data_dir, serial, l))
        .collect()
}

/// Plays `level` on `device` with `cfg` (its `level` set to this one): the device's latest
/// session of the level is resumed if it did not end solved (`on` gets a [`Note::Resuming`]
/// first), else the level is played from its start.
pub fn play_or_resume(
    device: &Device,
    cfg: &PlayConfig,
    level: u32,
    on: &mut dyn FnMut(&Update),
) -> anyhow::Result<PlayReport> {
    let cfg = PlayConfig {
        level: Some(level),
        ..cfg.clone()
    };
    match interrupted_session(&cfg.data_dir, &device.serial, level) {
        Some(dir) => {
            let session_dir = dir.clone();
            tell(on, Note::Resuming { session_dir });
            resume(device, &dir, &cfg, on)
        }
        None => play(device, &cfg, on),
    }
}

/// Checks that the calibrations [`play`] would pick among on `phone` can open levels as `needs`
/// says (to play a level by its number). `on` gets a [`Note::SkippedCalibration`] for each
/// calibration file that could not be read.
pub fn check_navigation(
    cfg: &PlayConfig,
    phone: lookup::Phone<'_>,
    needs: Opening,
    on: &mut dyn FnMut(&Update),
) -> anyhow::Result<()> {
    find_calibrations(cfg, phone, Some(needs), on).map(drop)
}
