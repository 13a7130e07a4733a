//! `journal.jsonl`: the append-only record of a replay, one JSON object per line.

use crate::play::{Journal, Point, WriteKind};
use crate::solver::Event;
use anyhow::Context;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// One journal line.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum JournalLine {
    /// Search event `i`, sent as `taps`.
    Event {
        t_ms: u64,
        i: u64,
        event: Event,
        taps: Vec<Point>,
    },
    /// A cell written outside the event stream (repair or final fill).
    Write {
        t_ms: u64,
        why: WriteKind,
        cell: u8,
        digit: u8,
        taps: Vec<Point>,
    },
    /// A (re)start of the replay, e.g. after `autoplay resume`.
    Start { t_ms: u64, from_event: u64 },
    /// How the run ended.
    End {
        t_ms: u64,
        result: String,
        message: String,
    },
}

/// Appends lines to a journal file, flushing each one.
pub struct JournalWriter {
    path: PathBuf,
    file: std::fs::File,
    started: Instant,
}

impl JournalWriter {
    pub fn create(path: &Path) -> anyhow::Result<Self> {
        Self::open(path, true)
    }
    pub fn append(path: &Path) -> anyhow::Result<Self> {
        Self::open(path, false)
    }
    fn open(path: &Path, truncate: bool) -> anyhow::Result<Self> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(!truncate)
            .write(true)
            .truncate(truncate)
            .open(path)
            .with_context(|| format!("cannot open the journal {}", path.display()))?;
        Ok(JournalWriter {
            path: path.to_path_buf(),
            file,
            started: Instant::now(),
        })
    }

    pub fn ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    pub fn line(&mut self, line: &JournalLine) -> anyhow::Result<()> {
        let mut text = serde_json::to_string(line)?;
        text.push('\n');
        // One write per line: a crash leaves at most a torn last line, which the reader reports.
        self.file
            .write_all(text.as_bytes())
            .with_context(|| format!("cannot append to {}", self.path.display()))
    }

    pub fn start(&mut self, from_event: u64) -> anyhow::Result<()> {
        let t_ms = self.ms();
        self.line(&JournalLine::Start { t_ms, from_event })
    }

    pub fn end(&mut self, result: &str, message: &str) -> anyhow::Result<()> {
        let t_ms = self.ms();
        self.line(&JournalLine::End {
            t_ms,
            result: result.into(),
            message: message.into(),
        })
    }
}

impl Journal for JournalWriter {
    fn event(&mut self, index: usize, event: Event, taps: &[Point]) -> anyhow::Result<()> {
        let t_ms = self.ms();
        self.line(&JournalLine::Event {
            t_ms,
            i: index as u64,
            event,
            taps: taps.to_vec(),
        })
    }
    fn write(
        &mut self,
        why: WriteKind,
        cell: usize,
        digit: u8,
        taps: &[Point],
    ) -> anyhow::Result<()> {
        let t_ms = self.ms();
        self.line(&JournalLine::Write {
            t_ms,
            why,
            cell: cell as u8,
            digit,
            taps: taps.to_vec(),
        })
    }
}

/// What reading a journal found.
#[derive(Debug, Clone, PartialEq)]
pub struct JournalRead {
    pub lines: Vec<JournalLine>,
    /// A last line cut short (a crash mid-write): its line number. Earlier lines are kept.
    pub torn_line: Option<usize>,
}

impl JournalRead {
    /// Whether the last line is the end of a run that was solved and verified.
    pub fn ended_solved(&self) -> bool {
        matches!(self.lines.last(), Some(JournalLine::End { result, .. }) if result == "solved")
    }
}

/// Parses one journal line (without its newline).
pub fn parse_line(line: &str) -> Result<JournalLine, serde_json::Error> {
    serde_json::from_str(line)
}

/// Reads a journal; a malformed line is an error naming file and line, except a torn last line.
pub fn read_journal(path: &Path) -> anyhow::Result<JournalRead> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut lines = Vec::new();
    let mut raw: Vec<(usize, String)> = Vec::new();
    for (i, l) in std::io::BufReader::new(file).lines().enumerate() {
        let l = l.with_context(|| {
            format!(
                "{}: line {}: cannot read (not UTF-8?)",
                path.display(),
                i + 1
            )
        })?;
        raw.push((i + 1, l));
    }
    let ends_with_newline = std::fs::read(path)
        .map(|b| b.last() == Some(&b'\n'))
        .unwrap_or(true);
    let n = raw.len();
    let mut torn_line = None;
    for (k, (no, l)) in raw.into_iter().enumerate() {
        if l.trim().is_empty() {
            continue;
        }
        match parse_line(&l) {
            Ok(line) => lines.push(line),
            Err(_) if k + 1 == n && !ends_with_newline => torn_line = Some(no),
            Err(e) => anyhow::bail!("{}: line {no}: {e}", path.display()),
        }
    }
    Ok(JournalRead { lines, torn_line })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_and_reads_back_with_a_torn_tail() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let mut w = JournalWriter::create(&path).unwrap();
        w.start(0).unwrap();
        w.event(0, Event::Place { cell: 2, digit: 4 }, &[(10, 20), (30, 40)])
            .unwrap();
        w.write(WriteKind::Repair, 2, 4, &[(30, 40)]).unwrap();
        drop(w);
        let r = read_journal(&path).unwrap();
        assert_eq!(r.lines.len(), 3);
        assert_eq!(r.torn_line, None);
        assert!(matches!(r.lines[1], JournalLine::Event { i: 0, .. }));

        // A crash mid-line: the complete lines survive, the torn one is reported.
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        f.write_all(br#"{"kind":"event","t_ms":5,"i":1,"ev"#)
            .unwrap();
        let r = read_journal(&path).unwrap();
        assert_eq!((r.lines.len(), r.torn_line), (3, Some(4)));

        // Garbage in the middle is an error naming the line.
        std::fs::write(&path, "{\"kind\":\"start\",\"t_ms\":0,\"from_event\":0}\nnot json\n{\"kind\":\"start\",\"t_ms\":0,\"from_event\":0}\n").unwrap();
        let e = read_journal(&path).unwrap_err().to_string();
        assert!(e.contains("journal.jsonl: line 2"), "{e}");
    }
}
