//! `journal.jsonl`: the append-only record of a performance, one JSON object per line.

use crate::play::{Incident, IncidentKind, Journal, Point, WriteKind};
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
    /// A (re)start of the performance, e.g. after `autoplay resume`.
    Start { t_ms: u64, from_event: u64 },
    /// The link was lost and restored, or the phone taken away from the game and brought back.
    Incident {
        t_ms: u64,
        what: IncidentKind,
        detail: String,
    },
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

    /// When this writer's times count from.
    pub fn started(&self) -> Instant {
        self.started
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
    fn incident(&mut self, incident: &Incident) -> anyhow::Result<()> {
        let t_ms = self.ms();
        self.line(&JournalLine::Incident {
            t_ms,
            what: incident.kind,
            detail: incident.what.clone(),
        })
    }
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

/// A whole level's counts, summed over every start of its performance (a resumed run's row in
/// `runs.csv` holds the level's, not only the resume's).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Totals {
    pub taps: u64,
    pub repairs: u64,
    pub reconnects: u64,
    pub interruptions: u64,
    /// Time from each start to the last line after it, summed.
    pub perform_ms: f64,
}

impl Totals {
    /// Sums the journal's lines.
    pub fn of(lines: &[JournalLine]) -> Totals {
        let mut t = Totals::default();
        let mut segment: Option<(u64, u64)> = None; // (start, last) t_ms of the current start
        let close = |seg: &mut Option<(u64, u64)>, t: &mut Totals| {
            if let Some((a, b)) = seg.take() {
                t.perform_ms += b.saturating_sub(a) as f64;
            }
        };
        for line in lines {
            let at = match line {
                JournalLine::Start { t_ms, .. } => {
                    close(&mut segment, &mut t);
                    segment = Some((*t_ms, *t_ms));
                    continue;
                }
                JournalLine::Event { t_ms, taps, .. } => {
                    t.taps += taps.len() as u64;
                    *t_ms
                }
                JournalLine::Write {
                    t_ms, why, taps, ..
                } => {
                    t.taps += taps.len() as u64;
                    if *why == WriteKind::Repair {
                        t.repairs += 1;
                    }
                    *t_ms
                }
                JournalLine::Incident { t_ms, what, .. } => {
                    match what {
                        IncidentKind::Reconnect => t.reconnects += 1,
                        IncidentKind::Interruption => t.interruptions += 1,
                    }
                    *t_ms
                }
                JournalLine::End { t_ms, .. } => *t_ms,
            };
            if let Some((_, last)) = &mut segment {
                *last = (*last).max(at);
            }
        }
        close(&mut segment, &mut t);
        t
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
    fn totals_sum_every_start() {
        let ev = |t_ms, n| JournalLine::Event {
            t_ms,
            i: 0,
            event: Event::Place { cell: 0, digit: 1 },
            taps: vec![(1, 1); n],
        };
        let lines = vec![
            JournalLine::Start {
                t_ms: 0,
                from_event: 0,
            },
            ev(10, 2),
            ev(400, 2),
            JournalLine::Incident {
                t_ms: 450,
                what: IncidentKind::Reconnect,
                detail: String::new(),
            },
            // A crash: no end. The resume starts its own clock.
            JournalLine::Start {
                t_ms: 5,
                from_event: 2,
            },
            JournalLine::Write {
                t_ms: 50,
                why: WriteKind::Repair,
                cell: 3,
                digit: 4,
                taps: vec![(1, 1); 2],
            },
            JournalLine::Incident {
                t_ms: 60,
                what: IncidentKind::Interruption,
                detail: String::new(),
            },
            JournalLine::End {
                t_ms: 105,
                result: "solved".into(),
                message: String::new(),
            },
        ];
        assert_eq!(
            Totals::of(&lines),
            Totals {
                taps: 6,
                repairs: 1,
                reconnects: 1,
                interruptions: 1,
                perform_ms: 550.0
            }
        );
    }

    #[test]
    fn writes_and_reads_back_with_a_torn_tail() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let mut w = JournalWriter::create(&path).unwrap();
        w.start(0).unwrap();
        w.event(0, Event::Place { cell: 2, digit: 4 }, &[(10, 20), (30, 40)])
            .unwrap();
        w.write(WriteKind::Repair, 2, 4, &[(30, 40)]).unwrap();
        w.incident(&Incident {
            kind: IncidentKind::Reconnect,
            what: "lost the link".into(),
        })
        .unwrap();
        w.end("interrupted", "stopped by Ctrl-C").unwrap();
        drop(w);
        let r = read_journal(&path).unwrap();
        assert_eq!(r.lines.len(), 5);
        assert_eq!(r.torn_line, None);
        assert!(matches!(r.lines[1], JournalLine::Event { i: 0, .. }));
        assert_eq!(
            Totals::of(&r.lines),
            Totals {
                taps: 3,
                repairs: 1,
                reconnects: 1,
                interruptions: 0,
                perform_ms: Totals::of(&r.lines).perform_ms
            }
        );
        // Drop the last two lines again for the torn-tail check below.
        let text = std::fs::read_to_string(&path).unwrap();
        let keep: Vec<&str> = text.lines().take(3).collect();
        std::fs::write(&path, format!("{}\n", keep.join("\n"))).unwrap();

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
