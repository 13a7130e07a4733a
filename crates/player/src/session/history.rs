//! What the data directory says about one level on one device: whether `runs.csv` has it
//! solved, and its latest session that did not end solved.

use super::{SessionMeta, read_journal, read_runs};
use std::path::{Path, PathBuf};

/// Whether `DATA/runs.csv` has a solved run of `level` on the device `serial`.
pub(crate) fn solved_before(data_dir: &Path, serial: &str, level: u32) -> bool {
    let prefix = format!("{serial} ");
    read_runs(&data_dir.join("runs.csv")).is_ok_and(|runs| {
        runs.iter().any(|r| {
            r.level == Some(level) && r.result == "solved" && r.device.starts_with(&prefix)
        })
    })
}

/// The latest session of `level` on the device `serial` (in `DATA/sessions`) if its journal
/// does not end solved.
pub(crate) fn interrupted_session(data_dir: &Path, serial: &str, level: u32) -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(data_dir.join("sessions"))
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            SessionMeta::load(p).is_ok_and(|m| m.device.serial == serial && m.level == Some(level))
        })
        .collect();
    dirs.sort();
    let last = dirs.pop()?;
    let journal = read_journal(&last.join("journal.jsonl")).ok()?;
    (!journal.ended_solved()).then_some(last)
}
