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
    /// Also draw placements per level (log scale), one series per strategy, as a PNG.
    #[arg(long, value_name = "FILE.png")]
    pub plot: Option<PathBuf>,
}

/// Size of the `--plot` image.
pub const PLOT_SIZE: (u32, u32) = (900, 540);

const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// Draws placements per level on a log scale, one line per strategy, into a PNG.
pub fn plot(rows: &[Row], path: &std::path::Path) -> anyhow::Result<()> {
    use plotters::prelude::*;
    let points: BTreeMap<&str, Vec<(u32, u64)>> =
        rows.iter()
            .filter(|r| r.solved > 0)
            .fold(BTreeMap::new(), |mut m, r| {
                if let Some(level) = r.level {
                    m.entry(r.strategy.as_str())
                        .or_insert_with(Vec::new)
                        .push((level, r.placements.max(1)));
                }
                m
            });
    if points.is_empty() {
        anyhow::bail!(
            "nothing to plot: no solved run of a numbered level in runs.csv (play with --level N)"
        );
    }
    // The bundled font, so no system font is needed; registering twice is harmless.
    plotters::style::register_font("sans-serif", FontStyle::Normal, FONT)
        .map_err(|_| anyhow::anyhow!("the bundled DejaVu font does not load"))?;
    let (w, h) = PLOT_SIZE;
    let mut buf = vec![255u8; (w * h * 3) as usize];
    let draw_err = |e: &dyn std::fmt::Display| anyhow::anyhow!("drawing the plot: {e}");
    {
        let root = BitMapBackend::with_buffer(&mut buf, (w, h)).into_drawing_area();
        let levels = points.values().flatten().map(|p| p.0);
        let (lo, hi) = levels.fold((u32::MAX, 0), |(lo, hi), l| (lo.min(l), hi.max(l)));
        let top = points.values().flatten().map(|p| p.1).max().unwrap_or(1);
        let mut chart = ChartBuilder::on(&root)
            .caption("Execution counts per level", ("sans-serif", 22))
            .margin(14)
            .x_label_area_size(40)
            .y_label_area_size(80)
            .build_cartesian_2d(
                lo.saturating_sub(1)..hi + 1,
                (1u64..top.saturating_mul(2).max(10)).log_scale(),
            )
            .map_err(|e| draw_err(&e))?;
        chart
            .configure_mesh()
            .x_desc("level")
            .y_desc("placements (log)")
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 15))
            .y_label_formatter(&|v| super::thousands(*v))
            .draw()
            .map_err(|e| draw_err(&e))?;
        let colours = [BLUE, RED, GREEN, MAGENTA, CYAN, BLACK];
        for (k, (strategy, pts)) in points.iter().enumerate() {
            let colour = colours[k % colours.len()];
            chart
                .draw_series(LineSeries::new(pts.iter().copied(), colour.stroke_width(2)))
                .map_err(|e| draw_err(&e))?
                .label(*strategy)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                });
            chart
                .draw_series(pts.iter().map(|&p| Circle::new(p, 4, colour.filled())))
                .map_err(|e| draw_err(&e))?;
        }
        chart
            .configure_series_labels()
            .label_font(("sans-serif", 14))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(|e| draw_err(&e))?;
        root.present().map_err(|e| draw_err(&e))?;
    }
    let img = image::RgbImage::from_raw(w, h, buf)
        .ok_or_else(|| anyhow::anyhow!("plot buffer has the wrong size"))?;
    img.save_with_format(path, image::ImageFormat::Png)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
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
    if let Some(png) = &args.plot {
        plot(&rows, png)?;
        eprintln!("plot: {}", png.display());
    }
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if args.json {
        for r in &rows {
            writeln!(out, "{}", serde_json::to_string(r)?)?;
        }
        return Ok(0);
    }
    use super::thousands as t;
    writeln!(
        out,
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
    )?;
    for r in &rows {
        writeln!(
            out,
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
        )?;
    }
    Ok(0)
}
