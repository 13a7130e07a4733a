//! `runs.csv`: one line per run with its execution counts.

use anyhow::Context;
use std::io::Write;
use std::path::Path;

/// The header of `runs.csv`; the columns of [`RunRecord`] in order. Files written before
/// `reconnects` and `interruptions` existed have 13 columns; they read as 0.
pub const HEADER: &str = "time,device,level,strategy,givens,placements,undos,calls,taps,repairs,search_ms,replay_ms,result,reconnects,interruptions";

/// One run.
#[derive(Debug, Clone, PartialEq)]
pub struct RunRecord {
    pub time: String,
    pub device: String,
    pub level: Option<u32>,
    pub strategy: String,
    pub givens: u32,
    pub placements: u64,
    pub undos: u64,
    pub calls: u64,
    pub taps: u64,
    pub repairs: u64,
    pub search_ms: f64,
    pub replay_ms: f64,
    /// `solved`, `failed`, `interrupted` (Ctrl-C, or the phone gone: resumable), `game-over`.
    pub result: String,
    /// Links lost and restored; interruptions dealt with (screen off, app in the background).
    pub reconnects: u64,
    pub interruptions: u64,
}

/// A field with no commas, quotes or newlines (device serials and models are free text).
fn clean(s: &str) -> String {
    s.chars()
        .map(|c| {
            if matches!(c, ',' | '"' | '\n' | '\r') {
                '_'
            } else {
                c
            }
        })
        .collect()
}

impl RunRecord {
    fn to_line(&self) -> String {
        format!(
            "{},{},{},{},{},{},{},{},{},{},{:.3},{:.1},{},{},{}",
            clean(&self.time),
            clean(&self.device),
            self.level.map(|l| l.to_string()).unwrap_or_default(),
            clean(&self.strategy),
            self.givens,
            self.placements,
            self.undos,
            self.calls,
            self.taps,
            self.repairs,
            self.search_ms,
            self.replay_ms,
            clean(&self.result),
            self.reconnects,
            self.interruptions
        )
    }

    /// Parses one data line of `runs.csv` (not the header).
    pub fn parse(line: &str) -> Result<Self, String> {
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 13 && f.len() != 15 {
            return Err(format!("expected 15 fields (or 13), found {}", f.len()));
        }
        let num = |i: usize, name: &str| -> Result<u64, String> {
            f[i].trim()
                .parse()
                .map_err(|_| format!("{name} {:?} is not a number", f[i]))
        };
        let float = |i: usize, name: &str| -> Result<f64, String> {
            f[i].trim()
                .parse()
                .map_err(|_| format!("{name} {:?} is not a number", f[i]))
        };
        Ok(RunRecord {
            time: f[0].into(),
            device: f[1].into(),
            level: if f[2].is_empty() {
                None
            } else {
                Some(num(2, "level")? as u32)
            },
            strategy: f[3].into(),
            givens: num(4, "givens")? as u32,
            placements: num(5, "placements")?,
            undos: num(6, "undos")?,
            calls: num(7, "calls")?,
            taps: num(8, "taps")?,
            repairs: num(9, "repairs")?,
            search_ms: float(10, "search_ms")?,
            replay_ms: float(11, "replay_ms")?,
            result: f[12].into(),
            reconnects: if f.len() > 13 {
                num(13, "reconnects")?
            } else {
                0
            },
            interruptions: if f.len() > 14 {
                num(14, "interruptions")?
            } else {
                0
            },
        })
    }
}

/// Appends a run to `DATA/runs.csv`, writing the header first if the file is new.
pub fn append_run(data_dir: &Path, run: &RunRecord) -> anyhow::Result<()> {
    std::fs::create_dir_all(data_dir)
        .with_context(|| format!("cannot create {}", data_dir.display()))?;
    let path = data_dir.join("runs.csv");
    let new = !path.exists();
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    let mut text = String::new();
    if new {
        text.push_str(HEADER);
        text.push('\n');
    }
    text.push_str(&run.to_line());
    text.push('\n');
    f.write_all(text.as_bytes())
        .with_context(|| format!("cannot append to {}", path.display()))
}

/// Reads `runs.csv`; errors name the file and line.
pub fn read_runs(path: &Path) -> anyhow::Result<Vec<RunRecord>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if i == 0 && line.starts_with("time,") || line.trim().is_empty() {
            continue;
        }
        out.push(
            RunRecord::parse(line)
                .map_err(|e| anyhow::anyhow!("{}: line {}: {e}", path.display(), i + 1))?,
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn append_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let run = RunRecord {
            time: "2026-11-21T23:05:09Z".into(),
            device: "127.0.0.1:5555,evil".into(),
            level: Some(7),
            strategy: "rowmajor".into(),
            givens: 30,
            placements: 4208,
            undos: 4157,
            calls: 4209,
            taps: 12000,
            repairs: 2,
            search_ms: 0.25,
            replay_ms: 1500.0,
            result: "solved".into(),
            reconnects: 2,
            interruptions: 1,
        };
        append_run(dir.path(), &run).unwrap();
        append_run(
            dir.path(),
            &RunRecord {
                level: None,
                ..run.clone()
            },
        )
        .unwrap();
        let path = dir.path().join("runs.csv");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(HEADER));
        let back = read_runs(&path).unwrap();
        assert_eq!(back.len(), 2);
        assert_eq!(back[0].device, "127.0.0.1:5555_evil");
        assert_eq!(back[0].placements, 4208);
        assert_eq!(back[1].level, None);
        assert_eq!((back[0].reconnects, back[0].interruptions), (2, 1));
        // A line from before the last two columns.
        let old = RunRecord::parse("t,d,3,rowmajor,45,86,50,87,300,0,0.1,100.0,solved").unwrap();
        assert_eq!((old.taps, old.reconnects), (300, 0));
        std::fs::write(&path, format!("{text}garbage,line\n")).unwrap();
        let e = read_runs(&path).unwrap_err().to_string();
        assert!(e.contains("runs.csv: line 4: expected 15 fields"), "{e}");
    }
}
