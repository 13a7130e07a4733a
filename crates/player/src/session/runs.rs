//! `runs.csv`: one line per run with its execution counts, read and written with the `csv`
//! crate (fields with commas or quotes are quoted, never rewritten).
//!
//! Rows are read by their header's column names, so columns can be added without breaking
//! old files: a missing column takes its default, an unknown one is ignored. Files from
//! before the header named every column (13 or 15 columns, no `version`) are read by
//! position, and rewritten with the current header before a new row is appended to them.
//! A column renamed since (`replay_ms`, format 4 and older: the time spent performing, now
//! `perform_ms`) is read under its new name.

use anyhow::Context;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The format version written in each row's `version` column (rows without one are 1).
pub const VERSION: u32 = 5;

/// The columns of [`RunRecord`] in order, as the header of `runs.csv`.
pub const HEADER: &str = "time,device,level,strategy,givens,placements,undos,calls,taps,repairs,search_ms,perform_ms,result,reconnects,interruptions,version,session,difficulty,puzzle";

/// One run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    #[serde(serialize_with = "microseconds")]
    pub search_ms: f64,
    /// The time spent performing (tapping and looking), summed over the run's starts.
    #[serde(serialize_with = "microseconds")]
    pub perform_ms: f64,
    /// `solved`, `failed`, `interrupted` (Ctrl-C, or the phone gone: resumable), `game-over`.
    pub result: String,
    /// Links lost and restored; interruptions dealt with (screen off, app in the background).
    /// Not recorded before format 2's predecessor added them (0 then).
    #[serde(default)]
    pub reconnects: u64,
    #[serde(default)]
    pub interruptions: u64,
    /// The format the row was written in (`VERSION`; 1 for rows from before this column).
    #[serde(default = "first_version")]
    pub version: u32,
    /// The session directory's name: the rows of one level played, stopped and resumed share it
    /// (empty in rows from before format 3).
    #[serde(default)]
    pub session: String,
    /// The difficulty of a new game in an app without level numbers (empty otherwise, and in
    /// rows from before format 4).
    #[serde(default)]
    pub difficulty: String,
    /// The givens played, one 81-character line (`.` empty; empty in rows from before format 4).
    #[serde(default)]
    pub puzzle: String,
}

/// Milliseconds written to the microsecond (`0.159`, not `0.15945700000000002`).
fn microseconds<S: serde::Serializer>(ms: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((ms * 1000.0).round() / 1000.0)
}

fn first_version() -> u32 {
    1
}

/// Columns renamed since they were written: (old name, current name).
const RENAMED: [(&str, &str); 1] = [("replay_ms", "perform_ms")];

/// A column's current name.
fn current_name(name: &str) -> &str {
    RENAMED
        .iter()
        .find(|(old, _)| *old == name)
        .map_or(name, |(_, new)| new)
}

/// Whether a header is an older one: the current one cut short (written before the columns
/// after it were added), or with a column under its old name.
fn is_older<'a>(header: impl Iterator<Item = &'a str>) -> bool {
    let names: Vec<&str> = header.collect();
    let current: Vec<&str> = HEADER.split(',').collect();
    let renamed = names.iter().any(|&n| current_name(n) != n);
    !names.is_empty()
        && names.len() <= current.len()
        && names
            .iter()
            .zip(&current)
            .all(|(&n, &c)| current_name(n) == c)
        && (names.len() < current.len() || renamed)
}

/// The columns a row is read with: the file's header, or, for an old file whose header is a
/// prefix of the current one (written before columns were added, with rows of either length
/// appended under it), the current columns as far as the row goes.
fn columns_for(
    file_header: &csv::StringRecord,
    row: &csv::StringRecord,
) -> Result<csv::StringRecord, String> {
    let old = is_older(file_header.iter());
    let columns: csv::StringRecord = if old {
        HEADER.split(',').take(row.len()).collect()
    } else {
        file_header.iter().map(current_name).collect()
    };
    if row.len() != columns.len() || old && row.len() < 13 {
        return Err(format!(
            "expected {} fields, found {}",
            if old {
                "13, 15, 16 or 17"
            } else {
                "as many as the header's"
            },
            row.len()
        ));
    }
    Ok(columns)
}

impl RunRecord {
    /// Parses one data line of `runs.csv` by position (the current columns, or the first 13
    /// or 15 of them as old files have).
    pub fn parse(line: &str) -> Result<Self, String> {
        let row = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(line.as_bytes())
            .records()
            .next()
            .ok_or("an empty line")?
            .map_err(|e| e.to_string())?;
        let legacy: csv::StringRecord = HEADER.split(',').take(13).collect();
        from_row(&columns_for(&legacy, &row)?, &row)
    }
}

/// Deserializes a row under its columns; errors name the column.
fn from_row(columns: &csv::StringRecord, row: &csv::StringRecord) -> Result<RunRecord, String> {
    row.deserialize(Some(columns)).map_err(|e| match e.kind() {
        csv::ErrorKind::Deserialize { err, .. } => {
            let name = err
                .field()
                .and_then(|i| columns.get(i as usize))
                .unwrap_or("a field");
            format!("{name}: {}", err.kind())
        }
        _ => e.to_string(),
    })
}

/// Appends a run to `DATA/runs.csv`, writing the header first if the file is new (and
/// rewriting an old file under the current header first).
pub(crate) fn append_run(data_dir: &Path, run: &RunRecord) -> anyhow::Result<()> {
    std::fs::create_dir_all(data_dir)
        .with_context(|| format!("cannot create {}", data_dir.display()))?;
    let path = data_dir.join("runs.csv");
    let exists = path.exists();
    if exists {
        let header = first_line(&path)?;
        if header != HEADER {
            upgrade(&path, &header)?;
        }
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    let mut w = csv::WriterBuilder::new()
        .has_headers(!exists)
        .from_writer(file);
    w.serialize(run)
        .and_then(|()| w.flush().map_err(csv::Error::from))
        .with_context(|| format!("cannot append to {}", path.display()))
}

/// The header line (without its line end).
fn first_line(path: &Path) -> anyhow::Result<String> {
    use std::io::BufRead;
    let mut line = String::new();
    std::fs::File::open(path)
        .map(std::io::BufReader::new)
        .and_then(|mut f| f.read_line(&mut line))
        .with_context(|| format!("cannot read {}", path.display()))?;
    Ok(line.trim_end_matches(['\n', '\r']).to_string())
}

/// Rewrites `path`, whose header is `file_header`, under the current header (every value
/// kept), through a temporary file.
fn upgrade(path: &Path, file_header: &str) -> anyhow::Result<()> {
    if !is_older(file_header.split(',')) {
        anyhow::bail!(
            "{} has columns this autoplay does not know (header {:?}; a newer version wrote it?): \
             not appending to it; move it aside to start a new one",
            path.display(),
            file_header
        );
    }
    let runs = read_runs(path)?;
    let tmp = path.with_extension("csv.tmp");
    {
        let mut w = csv::Writer::from_path(&tmp)
            .with_context(|| format!("cannot write {}", tmp.display()))?;
        for r in &runs {
            w.serialize(r)
                .with_context(|| format!("cannot write {}", tmp.display()))?;
        }
        w.flush()
            .with_context(|| format!("cannot write {}", tmp.display()))?;
    }
    std::fs::rename(&tmp, path).with_context(|| format!("cannot replace {}", path.display()))
}

/// Reads `runs.csv`; errors name the file and line.
pub fn read_runs(path: &Path) -> anyhow::Result<Vec<RunRecord>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_path(path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let mut header: Option<csv::StringRecord> = None;
    let mut out = Vec::new();
    for row in reader.records() {
        let row = row.map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        let line = row.position().map_or(0, |p| p.line());
        if row.iter().all(|f| f.trim().is_empty()) {
            continue;
        }
        let Some(file_header) = &header else {
            if row.get(0) != Some("time") {
                anyhow::bail!(
                    "{}: line {line}: expected the header (time,device,...), found {:?}",
                    path.display(),
                    row.iter().collect::<Vec<_>>().join(",")
                );
            }
            header = Some(row);
            continue;
        };
        let record = columns_for(file_header, &row).and_then(|c| from_row(&c, &row));
        out.push(record.map_err(|e| anyhow::anyhow!("{}: line {line}: {e}", path.display()))?);
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
            perform_ms: 1500.0,
            result: "solved".into(),
            reconnects: 2,
            interruptions: 1,
            version: VERSION,
            session: "20261121-230509-127_0_0_1_5555-L7".into(),
            difficulty: String::new(),
            puzzle: ".".repeat(81),
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
        assert_eq!(
            back[0], run,
            "every value back, the comma in the serial too"
        );
        assert_eq!(back[0].placements, 4208);
        assert_eq!(back[1].level, None);
        assert_eq!((back[0].reconnects, back[0].interruptions), (2, 1));
        // Times are written to the microsecond.
        let dir = tempfile::tempdir().unwrap();
        let noisy = RunRecord {
            search_ms: 0.159_457_000_000_000_02,
            ..run.clone()
        };
        append_run(dir.path(), &noisy).unwrap();
        let written = std::fs::read_to_string(dir.path().join("runs.csv")).unwrap();
        assert!(written.contains(",0.159,1500.0,"), "{written}");
        // A line from before the last two columns.
        let old = RunRecord::parse("t,d,3,rowmajor,45,86,50,87,300,0,0.1,100.0,solved").unwrap();
        assert_eq!((old.taps, old.reconnects, old.version), (300, 0, 1));
        std::fs::write(&path, format!("{text}garbage,line\n")).unwrap();
        let e = read_runs(&path).unwrap_err().to_string();
        assert!(e.contains("runs.csv: line 4: expected as many"), "{e}");
        let bad = format!("{text}t,d,x,rowmajor,45,86,50,87,300,0,0.1,100.0,solved,0,0,3,s,,\n");
        std::fs::write(&path, bad).unwrap();
        let e = read_runs(&path).unwrap_err().to_string();
        assert!(e.contains("line 4: level: "), "{e}");
    }

    #[test]
    fn an_old_file_is_read_by_position_and_upgraded_before_appending() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs.csv");
        // The 13-column header, with rows of 13 and (later) 15 columns appended under it.
        let old = "time,device,level,strategy,givens,placements,undos,calls,taps,repairs,search_ms,replay_ms,result\n\
                   t1,d,3,rowmajor,45,86,50,87,300,0,0.1,100.0,solved\n\
                   t2,d,4,mrv,40,90,10,91,280,1,0.2,90.0,solved,2,1\n";
        std::fs::write(&path, old).unwrap();
        let runs = read_runs(&path).unwrap();
        assert_eq!(runs.len(), 2);
        assert_eq!((runs[0].reconnects, runs[0].version), (0, 1));
        assert_eq!((runs[1].reconnects, runs[1].interruptions), (2, 1));
        let new = RunRecord {
            time: "t3".into(),
            version: VERSION,
            ..runs[1].clone()
        };
        append_run(dir.path(), &new).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(HEADER), "{text}");
        let back = read_runs(&path).unwrap();
        assert_eq!(back, vec![runs[0].clone(), runs[1].clone(), new]);
        // A column this version does not know is ignored when reading; appending is refused.
        let newer: String = text
            .lines()
            .enumerate()
            .map(|(i, l)| format!("{l},{}\n", if i == 0 { "future" } else { "x" }))
            .collect();
        std::fs::write(&path, &newer).unwrap();
        assert_eq!(read_runs(&path).unwrap().len(), 3);
        let e = append_run(dir.path(), &back[2]).unwrap_err().to_string();
        assert!(e.contains("does not know"), "{e}");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            newer,
            "left as it was"
        );
    }

    #[test]
    fn a_format_4_file_reads_its_replay_ms_as_perform_ms_and_is_upgraded() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs.csv");
        let header = HEADER.replace("perform_ms", "replay_ms");
        let row = "t1,d,3,rowmajor,45,86,50,87,300,0,0.1,100.5,solved,0,0,4,s,,";
        std::fs::write(&path, format!("{header}\n{row}\n")).unwrap();
        let runs = read_runs(&path).unwrap();
        assert_eq!((runs[0].perform_ms, runs[0].version), (100.5, 4));
        let new = RunRecord {
            time: "t2".into(),
            version: VERSION,
            ..runs[0].clone()
        };
        append_run(dir.path(), &new).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(&format!("{HEADER}\n")), "{text}");
        assert_eq!(read_runs(&path).unwrap(), vec![runs[0].clone(), new]);
    }
}
