//! Recording what a run did: the session directory and the per-level log `runs.csv`.
//!
//! A session is `DATA/sessions/<time>-<serial>-L<level>/` with
//! - `session.toml`: versioned metadata (device, calibration, level, strategy, givens, solution),
//! - `first.png` / `last.png`: the frames before and after,
//! - `journal.jsonl`: append-only, one JSON object per line, flushed line by line: every performed
//!   event with the taps sent for it, every repair or fill write, and how the run ended.
//!
//! `runs.csv` gets one line per run with the execution counts. [`solved_before`] and
//! [`interrupted_session`] read both for one level on one device.

pub mod anim;
mod history;
pub mod journal;
pub(crate) mod runs;
pub(crate) mod time;

pub(crate) use history::{interrupted_session, solved_before};
pub use journal::{JournalLine, JournalWriter, Totals, read_journal};
pub(crate) use runs::append_run;
pub use runs::{RunRecord, read_runs};

use crate::board::Board;
use crate::play::{Incident, Journal, Point, WriteKind};
use crate::solver::{Event, Strategy};
use anyhow::Context;
use std::path::{Path, PathBuf};

/// The `session.toml` format version this build writes and reads.
pub const SESSION_VERSION: u32 = 1;

/// `session.toml`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionMeta {
    pub version: u32,
    /// RFC 3339 UTC.
    pub created: String,
    pub device: DeviceMeta,
    /// Path of the calibration used, as given.
    pub calibration: String,
    /// The level played, if known.
    pub level: Option<u32>,
    pub strategy: Strategy,
    /// The givens read from the first frame (81 chars, `.` empty).
    pub givens: String,
    pub solution: String,
    pub placements: u64,
    pub undos: u64,
    /// The steps shown, where not every one is (the rest of the solution filled in directly):
    /// the most asked for, or what the budget leaves, as planned or as its deadline cut it
    /// during the run.
    pub max_visible_steps: Option<u64>,
    /// The app's package (seen in front with the board at the start), to bring it back from
    /// the background.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app_package: Option<String>,
    /// The difficulty of a new game opened in an app without level numbers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<String>,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeviceMeta {
    pub serial: String,
    pub model: String,
    pub width: u32,
    pub height: u32,
}

impl SessionMeta {
    pub fn givens_board(&self) -> anyhow::Result<Board> {
        Board::parse_line(&self.givens).context("session.toml: `givens` is not an 81-char board")
    }
    pub(crate) fn solution_board(&self) -> anyhow::Result<Board> {
        Board::parse_line(&self.solution)
            .context("session.toml: `solution` is not an 81-char board")
    }

    /// Reads and checks `DIR/session.toml`.
    pub fn load(dir: &Path) -> anyhow::Result<Self> {
        let path = dir.join("session.toml");
        let text = std::fs::read_to_string(&path).with_context(|| {
            format!(
                "cannot read {} (is this a session directory?)",
                path.display()
            )
        })?;
        Self::parse(&text, &path)
    }

    /// Parses and checks the text of a `session.toml`; `path` is only used in error messages.
    pub fn parse(text: &str, path: &Path) -> anyhow::Result<Self> {
        let meta: SessionMeta = toml::from_str(text).map_err(|e| {
            let at = e
                .span()
                .map(|s| {
                    let line = text[..s.start.min(text.len())].matches('\n').count() + 1;
                    format!(" at line {line}")
                })
                .unwrap_or_default();
            anyhow::anyhow!("{}{at}: {}", path.display(), e.message())
        })?;
        if meta.version > SESSION_VERSION {
            anyhow::bail!(
                "{}: session format version {} is newer than this autoplay understands ({SESSION_VERSION}); upgrade autoplay",
                path.display(),
                meta.version
            );
        }
        meta.givens_board()?;
        meta.solution_board()?;
        Ok(meta)
    }
}

/// A session directory being recorded.
pub struct Session {
    pub dir: PathBuf,
    pub meta: SessionMeta,
    pub journal: JournalWriter,
}

impl Session {
    /// Creates `DATA/sessions/<time>-<serial>-L<level>/` and writes `session.toml`.
    pub fn create(data_dir: &Path, meta: SessionMeta) -> anyhow::Result<Self> {
        let serial: String = meta
            .device
            .serial
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let level = match (meta.level, &meta.difficulty) {
            (Some(l), _) => format!("L{l}"),
            (None, Some(d)) => format!("new-{}", d.replace(|c: char| !c.is_alphanumeric(), "_")),
            (None, None) => "open".to_string(),
        };
        let name = format!(
            "{}-{serial}-{level}",
            time::compact(std::time::SystemTime::now())
        );
        let mut dir = data_dir.join("sessions").join(&name);
        let mut n = 1;
        while dir.exists() {
            n += 1;
            dir = data_dir.join("sessions").join(format!("{name}-{n}"));
        }
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        let session = Session {
            journal: JournalWriter::create(&dir.join("journal.jsonl"))?,
            dir,
            meta,
        };
        session.save_meta()?;
        Ok(session)
    }

    /// Reopens an existing session to append to its journal (for resuming).
    pub(crate) fn reopen(dir: &Path) -> anyhow::Result<Self> {
        let meta = SessionMeta::load(dir)?;
        Ok(Session {
            journal: JournalWriter::append(&dir.join("journal.jsonl"))?,
            dir: dir.to_path_buf(),
            meta,
        })
    }

    pub(crate) fn save_meta(&self) -> anyhow::Result<()> {
        let text = format!(
            "# A sudoku-autoplay session: what a run recorded (its journal: journal.jsonl).\n{}",
            toml::to_string(&self.meta)?
        );
        let path = self.dir.join("session.toml");
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
    }

    /// Saves a frame as `NAME.png` in the session directory.
    pub(crate) fn save_frame(&self, name: &str, frame: &image::RgbaImage) -> anyhow::Result<()> {
        let path = self.dir.join(format!("{name}.png"));
        frame
            .save(&path)
            .with_context(|| format!("cannot write {}", path.display()))
    }
}

/// A performance recorded into the session: its journal, and `session.toml`'s steps shown
/// where the budget's deadline cut them short (so that a check and a resume expect the same).
impl Journal for Session {
    fn event(&mut self, index: usize, event: Event, taps: &[Point]) -> anyhow::Result<()> {
        self.journal.event(index, event, taps)
    }
    fn write(
        &mut self,
        kind: WriteKind,
        cell: usize,
        digit: u8,
        taps: &[Point],
    ) -> anyhow::Result<()> {
        self.journal.write(kind, cell, digit, taps)
    }
    fn incident(&mut self, incident: &Incident) -> anyhow::Result<()> {
        self.journal.incident(incident)
    }
    fn shown_until(&mut self, end: usize) -> anyhow::Result<()> {
        self.meta.max_visible_steps = Some(end as u64);
        self.save_meta()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta() -> SessionMeta {
        SessionMeta {
            version: SESSION_VERSION,
            created: "2026-11-21T23:05:09Z".into(),
            device: DeviceMeta {
                serial: "127.0.0.1:5555".into(),
                model: "Pixel_7".into(),
                width: 1080,
                height: 2400,
            },
            calibration: "calibration/sim-pixel.toml".into(),
            level: Some(3),
            strategy: Strategy::RowMajor,
            givens:
                "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
                    .into(),
            solution:
                "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
                    .into(),
            placements: 4208,
            undos: 4157,
            max_visible_steps: None,
            app_package: Some("org.autoplay.sudoku".into()),
            difficulty: None,
        }
    }

    #[test]
    fn session_round_trip_and_bad_files() {
        let dir = tempfile::tempdir().unwrap();
        let s = Session::create(dir.path(), meta()).unwrap();
        assert!(
            s.dir
                .file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .ends_with("-127_0_0_1_5555-L3")
        );
        assert_eq!(SessionMeta::load(&s.dir).unwrap(), meta());

        let path = s.dir.join("session.toml");
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace("version = 1", "version = 9")).unwrap();
        let e = SessionMeta::load(&s.dir).unwrap_err().to_string();
        assert!(e.contains("newer than this autoplay understands"), "{e}");

        std::fs::write(
            &path,
            text.replace("placements = 4208", "placements = \"many\""),
        )
        .unwrap();
        let e = SessionMeta::load(&s.dir).unwrap_err().to_string();
        assert!(e.contains("session.toml at line"), "{e}");

        std::fs::write(&path, text.replace("53..7", "53x.7")).unwrap();
        let e = format!("{:#}", SessionMeta::load(&s.dir).unwrap_err());
        assert!(e.contains("givens"), "{e}");

        let e = SessionMeta::load(dir.path()).unwrap_err().to_string();
        assert!(e.contains("is this a session directory"), "{e}");
    }

    #[test]
    fn steps_cut_short_during_the_run_are_recorded_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = Session::create(dir.path(), meta()).unwrap();
        s.shown_until(1234).unwrap();
        let meta = SessionMeta::load(&s.dir).unwrap();
        assert_eq!(meta.max_visible_steps, Some(1234));
    }
}
