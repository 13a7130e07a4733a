//! `autoplay stats`: the per-level table of execution counts from `runs.csv`.

use crate::session::{RunRecord, read_runs};
use std::collections::BTreeMap;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct StatsArgs {
    /// Data directory holding runs.csv and sessions/.
    #[arg(
        long,
        value_name = "DIR",
        default_value = "autoplay-data",
        env = "AUTOPLAY_DATA"
    )]
    pub data_dir: PathBuf,
    /// One JSON object per (level, strategy) row.
    #[arg(long)]
    pub json: bool,
}

/// One row of the table: every run of a level with a strategy.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Row {
    pub level: Option<u32>,
    pub strategy: String,
    pub runs: u64,
    pub solved: u64,
    /// Counts of the latest solved run (the search is deterministic, so every solved run agrees).
    pub placements: u64,
    pub undos: u64,
    pub calls: u64,
    pub taps: u64,
    pub repairs: u64,
    pub search_ms: f64,
    pub replay_ms: f64,
}

/// Groups runs by (level, strategy), levels ascending.
pub fn table(runs: &[RunRecord]) -> Vec<Row> {
    let mut rows: BTreeMap<(Option<u32>, String), Row> = BTreeMap::new();
    for r in runs {
        let row = rows
            .entry((r.level, r.strategy.clone()))
            .or_insert_with(|| Row {
                level: r.level,
                strategy: r.strategy.clone(),
                runs: 0,
                solved: 0,
                placements: r.placements,
                undos: r.undos,
                calls: r.calls,
                taps: 0,
                repairs: 0,
                search_ms: 0.0,
                replay_ms: 0.0,
            });
        row.runs += 1;
        row.repairs += r.repairs;
        if r.result == "solved" {
            row.solved += 1;
            row.placements = r.placements;
            row.undos = r.undos;
            row.calls = r.calls;
            row.taps = r.taps;
            row.search_ms = r.search_ms;
            row.replay_ms = r.replay_ms;
        }
    }
    rows.into_values().collect()
}

pub fn run(args: StatsArgs) -> anyhow::Result<i32> {
    let path = args.data_dir.join("runs.csv");
    if !path.exists() {
        anyhow::bail!(
            "no runs recorded yet: {} does not exist (play a level with `autoplay --level N`, or pass --data-dir)",
            path.display()
        );
    }
    let rows = table(&read_runs(&path)?);
    if args.json {
        for r in &rows {
            println!("{}", serde_json::to_string(r)?);
        }
        return Ok(0);
    }
    use super::thousands as t;
    println!(
        "{:>5}  {:<8} {:>4} {:>6} {:>11} {:>11} {:>11} {:>11} {:>7} {:>10} {:>10}",
        "level",
        "strategy",
        "runs",
        "solved",
        "placements",
        "undos",
        "calls",
        "taps",
        "repairs",
        "search ms",
        "replay s"
    );
    for r in &rows {
        println!(
            "{:>5}  {:<8} {:>4} {:>6} {:>11} {:>11} {:>11} {:>11} {:>7} {:>10.2} {:>10.1}",
            r.level.map_or("-".to_string(), |l| l.to_string()),
            r.strategy,
            r.runs,
            r.solved,
            t(r.placements),
            t(r.undos),
            t(r.calls),
            t(r.taps),
            r.repairs,
            r.search_ms,
            r.replay_ms / 1000.0
        );
    }
    Ok(0)
}
