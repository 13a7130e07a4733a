//! `autoplay stats`: the per-level table of execution counts from `runs.csv`.

use plotters::prelude::*;
use std::collections::BTreeMap;
use std::path::PathBuf;
use sudoku_autoplay::session::{RunRecord, read_runs};
use sudoku_autoplay::solver::Strategy;

#[derive(Debug, clap::Args)]
pub struct StatsArgs {
    #[command(flatten)]
    pub data: super::dirs::DataDir,
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

/// How a strategy's series looks: a dark colour that reads on white (Okabe-Ito, darkened), a
/// line style and a marker of its own, so a series drawn over another stays visible.
struct Look {
    colour: RGBColor,
    /// Dash and gap lengths in pixels; `None`: a solid line.
    dash: Option<(u32, u32)>,
    marker: Marker,
}

const LOOKS: [Look; 5] = [
    Look {
        colour: RGBColor(0, 90, 160),
        dash: None,
        marker: Marker::Disc,
    },
    Look {
        colour: RGBColor(200, 75, 0),
        dash: Some((10, 5)),
        marker: Marker::Triangle,
    },
    Look {
        colour: RGBColor(0, 125, 85),
        dash: Some((3, 4)),
        marker: Marker::Square,
    },
    Look {
        colour: RGBColor(20, 20, 20),
        dash: Some((14, 4)),
        marker: Marker::Cross,
    },
    Look {
        colour: RGBColor(160, 60, 130),
        dash: Some((6, 6)),
        marker: Marker::Ring,
    },
];

/// Point markers: filled, hollow and crossed shapes, so one on top of another shows both.
#[derive(Clone, Copy)]
enum Marker {
    Disc,
    Triangle,
    Square,
    Cross,
    Ring,
}

type Area<'a> = DrawingArea<BitMapBackend<'a>, plotters::coord::Shift>;

fn draw_err(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow::anyhow!("drawing the plot: {e}")
}

impl Look {
    /// The marker centred on the pixel `(x, y)`.
    fn mark(&self, area: &Area<'_>, (x, y): (i32, i32)) -> anyhow::Result<()> {
        let hollow = self.colour.stroke_width(2);
        match self.marker {
            Marker::Disc => area.draw(&Circle::new((x, y), 4, self.colour.filled())),
            Marker::Triangle => area.draw(&TriangleMarker::new((x, y), 7, hollow)),
            Marker::Square => area.draw(&Rectangle::new([(x - 5, y - 5), (x + 5, y + 5)], hollow)),
            Marker::Cross => area.draw(&Cross::new((x, y), 5, hollow)),
            Marker::Ring => area.draw(&Circle::new((x, y), 8, hollow)),
        }
        .map_err(draw_err)
    }

    /// A line through the pixels `points`, solid or dashed.
    fn line(&self, area: &Area<'_>, points: Vec<(i32, i32)>) -> anyhow::Result<()> {
        let style = self.colour.stroke_width(2);
        match self.dash {
            None => area.draw(&PathElement::new(points, style)),
            Some((dash, gap)) => area.draw(&plotters::element::DashedPathElement::new(
                points, dash, gap, style,
            )),
        }
        .map_err(draw_err)
    }
}

/// A strategy and its (level, placements) points.
type Series<'a> = (&'a str, Vec<(u32, u64)>);

/// The placements of each strategy's solved runs by level, strategies in a fixed order (so
/// each keeps its look from plot to plot), levels ascending.
fn series(rows: &[Row]) -> anyhow::Result<Vec<Series<'_>>> {
    let mut series: Vec<Series> = Vec::new();
    for r in rows.iter().filter(|r| r.solved > 0) {
        let Some(level) = r.level else { continue };
        let point = (level, r.placements.max(1));
        match series.iter_mut().find(|(s, _)| *s == r.strategy) {
            Some((_, pts)) => pts.push(point),
            None => series.push((r.strategy.as_str(), vec![point])),
        }
    }
    if series.is_empty() {
        anyhow::bail!(
            "nothing to plot: no solved run of a numbered level in runs.csv (play with --level N)"
        );
    }
    let rank = |name: &str| {
        Strategy::ALL
            .iter()
            .position(|s| s.name() == name)
            .unwrap_or(Strategy::ALL.len())
    };
    series.sort_by(|a, b| rank(a.0).cmp(&rank(b.0)).then(a.0.cmp(b.0)));
    for (_, pts) in &mut series {
        pts.sort();
    }
    Ok(series)
}

/// The plot's legend, inside the plot's top left `corner`: a sample of each series' line with
/// its marker, and its strategy.
fn legend(root: &Area<'_>, corner: (i32, i32), series: &[Series<'_>]) -> anyhow::Result<()> {
    let (x0, y0) = (corner.0 + 12, corner.1 + 12);
    let width = 70 + 9 * series.iter().map(|(s, _)| s.len()).max().unwrap_or(0) as i32;
    let height = 10 + 22 * series.len() as i32;
    let frame = [(x0, y0), (x0 + width, y0 + height)];
    root.draw(&Rectangle::new(frame, WHITE.filled()))
        .map_err(draw_err)?;
    root.draw(&Rectangle::new(frame, BLACK.stroke_width(1)))
        .map_err(draw_err)?;
    for (k, (strategy, _)) in series.iter().enumerate() {
        let look = &LOOKS[k % LOOKS.len()];
        let y = y0 + 16 + 22 * k as i32;
        look.line(root, vec![(x0 + 8, y), (x0 + 48, y)])?;
        look.mark(root, (x0 + 28, y))?;
        root.draw(&Text::new(
            strategy.to_string(),
            (x0 + 58, y - 8),
            ("sans-serif", 14),
        ))
        .map_err(draw_err)?;
    }
    Ok(())
}

/// Draws placements per level on a log scale, one series per strategy, into a PNG: each with
/// its own colour, line style and marker; a line joins consecutive levels only.
pub fn plot(rows: &[Row], path: &std::path::Path) -> anyhow::Result<()> {
    let series = series(rows)?;
    // The bundled font, so no system font is needed; registering twice is harmless.
    plotters::style::register_font("sans-serif", FontStyle::Normal, FONT)
        .map_err(|_| anyhow::anyhow!("the bundled DejaVu font does not load"))?;
    let (w, h) = PLOT_SIZE;
    let mut buf = vec![255u8; (w * h * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut buf, (w, h)).into_drawing_area();
        let all = || series.iter().flat_map(|(_, pts)| pts.iter());
        let (lo, hi) = all().fold((u32::MAX, 0), |(lo, hi), p| (lo.min(p.0), hi.max(p.0)));
        let top = all().map(|p| p.1).max().unwrap_or(1);
        let mut chart = ChartBuilder::on(&root)
            .caption("Execution counts per level", ("sans-serif", 22))
            .margin(14)
            .x_label_area_size(40)
            .y_label_area_size(80)
            .build_cartesian_2d(
                lo.saturating_sub(1)..hi + 1,
                (1u64..top.saturating_mul(2).max(10)).log_scale(),
            )
            .map_err(draw_err)?;
        chart
            .configure_mesh()
            .x_desc("level")
            .y_desc("placements (log)")
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 15))
            .y_label_formatter(&|v| sudoku_autoplay::text::thousands(*v))
            .draw()
            .map_err(draw_err)?;
        // Lines first, then every marker on top of every line.
        for (k, (_, pts)) in series.iter().enumerate() {
            let look = &LOOKS[k % LOOKS.len()];
            for run in pts.chunk_by(|a, b| b.0 == a.0 + 1).filter(|r| r.len() > 1) {
                look.line(&root, run.iter().map(|p| chart.backend_coord(p)).collect())?;
            }
        }
        for (k, (_, pts)) in series.iter().enumerate() {
            let look = &LOOKS[k % LOOKS.len()];
            for p in pts {
                look.mark(&root, chart.backend_coord(p))?;
            }
        }
        // The legend, top left inside the plot.
        let corner = chart.backend_coord(&(lo.saturating_sub(1), top.saturating_mul(2).max(10)));
        legend(&root, corner, &series)?;
        root.present().map_err(draw_err)?;
    }
    let img = image::RgbImage::from_raw(w, h, buf)
        .ok_or_else(|| anyhow::anyhow!("plot buffer has the wrong size"))?;
    img.save_with_format(path, image::ImageFormat::Png)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}

/// One row of the table: every run of a level with a strategy; for new games of an app
/// without level numbers, every game of a difficulty with a strategy (its counts the mean of
/// its solved games: each game is another puzzle).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Row {
    pub level: Option<u32>,
    /// The difficulty, for games without a level number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<String>,
    pub strategy: String,
    pub runs: u64,
    pub solved: u64,
    /// Counts of the latest solved run (the search is deterministic, so every solved run agrees).
    pub placements: u64,
    pub undos: u64,
    pub calls: u64,
    /// Taps, repairs, reconnects and interruptions of the whole level, as its latest solved run
    /// (or, before one, its latest run) recorded them: a resumed run's row sums the level.
    pub taps: u64,
    pub repairs: u64,
    pub reconnects: u64,
    pub interruptions: u64,
    pub search_ms: f64,
    pub perform_ms: f64,
}

/// Groups runs by (level, strategy), levels ascending. The rows of one session (a level
/// stopped and resumed) are one run.
pub fn table(runs: &[RunRecord]) -> Vec<Row> {
    let mut rows: BTreeMap<(Option<u32>, Option<String>, String), Row> = BTreeMap::new();
    let mut sessions = std::collections::HashSet::new();
    let mut games: BTreeMap<(Option<String>, String), Vec<&RunRecord>> = BTreeMap::new();
    for r in runs {
        let difficulty =
            (r.level.is_none() && !r.difficulty.is_empty()).then(|| r.difficulty.clone());
        if difficulty.is_some() && r.result == "solved" {
            games
                .entry((difficulty.clone(), r.strategy.clone()))
                .or_default()
                .push(r);
        }
        let row = rows
            .entry((r.level, difficulty.clone(), r.strategy.clone()))
            .or_insert_with(|| Row {
                level: r.level,
                difficulty,
                strategy: r.strategy.clone(),
                runs: 0,
                solved: 0,
                placements: r.placements,
                undos: r.undos,
                calls: r.calls,
                taps: 0,
                repairs: 0,
                reconnects: 0,
                interruptions: 0,
                search_ms: 0.0,
                perform_ms: 0.0,
            });
        if r.session.is_empty() || sessions.insert(r.session.as_str()) {
            row.runs += 1;
        }
        let solved = r.result == "solved";
        if solved || row.solved == 0 {
            row.taps = r.taps;
            row.repairs = r.repairs;
            row.reconnects = r.reconnects;
            row.interruptions = r.interruptions;
        }
        if solved {
            row.solved += 1;
            row.placements = r.placements;
            row.undos = r.undos;
            row.calls = r.calls;
            row.search_ms = r.search_ms;
            row.perform_ms = r.perform_ms;
        }
    }
    for ((difficulty, strategy), solved) in games {
        if let Some(row) = rows.get_mut(&(None, difficulty, strategy)) {
            mean_of(row, &solved);
        }
    }
    rows.into_values().collect()
}

/// A difficulty's row: the mean counts and times of its solved games (each another puzzle).
fn mean_of(row: &mut Row, solved: &[&RunRecord]) {
    let n = solved.len().max(1) as u64;
    let mean = |f: fn(&RunRecord) -> u64| solved.iter().map(|r| f(r)).sum::<u64>().div_ceil(n);
    row.placements = mean(|r| r.placements);
    row.undos = mean(|r| r.undos);
    row.calls = mean(|r| r.calls);
    row.taps = mean(|r| r.taps);
    row.search_ms = solved.iter().map(|r| r.search_ms).sum::<f64>() / n as f64;
    row.perform_ms = solved.iter().map(|r| r.perform_ms).sum::<f64>() / n as f64;
}

pub fn run(args: StatsArgs) -> anyhow::Result<i32> {
    let path = args.data.resolve()?.join("runs.csv");
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
    print_table(&mut out, &rows)?;
    Ok(0)
}

/// The rows as a table, a level and strategy a line.
fn print_table(out: &mut impl std::io::Write, rows: &[Row]) -> std::io::Result<()> {
    use sudoku_autoplay::text::thousands as t;
    writeln!(
        out,
        "{:>5}  {:<8} {:>4} {:>6} {:>11} {:>11} {:>11} {:>11} {:>7} {:>10} {:>12} {:>10} {:>10}",
        "level",
        "strategy",
        "runs",
        "solved",
        "placements",
        "undos",
        "calls",
        "taps",
        "repairs",
        "reconnects",
        "interruptions",
        "search ms",
        "replay s"
    )?;
    for r in rows {
        writeln!(
            out,
            "{:>5}  {:<8} {:>4} {:>6} {:>11} {:>11} {:>11} {:>11} {:>7} {:>10} {:>12} {:>10.2} {:>10.1}",
            match (r.level, &r.difficulty) {
                (Some(l), _) => l.to_string(),
                (None, Some(d)) => d.clone(),
                (None, None) => "?".to_string(),
            },
            r.strategy,
            r.runs,
            r.solved,
            t(r.placements),
            t(r.undos),
            t(r.calls),
            t(r.taps),
            r.repairs,
            r.reconnects,
            r.interruptions,
            r.search_ms,
            r.perform_ms / 1000.0
        )?;
    }
    if rows.iter().any(|r| r.difficulty.is_some()) {
        writeln!(
            out,
            "  a difficulty's line: new games of it (no level number), the mean per solved game"
        )?;
    }
    if rows
        .iter()
        .any(|r| r.level.is_none() && r.difficulty.is_none())
    {
        writeln!(
            out,
            "    ?  the level that was open (played without --level, so its number is unknown)"
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resumed_level_counts_once() {
        let row = |result: &str, taps, repairs, reconnects| {
            RunRecord::parse(&format!(
                "t,d,7,rowmajor,30,100,99,101,{taps},{repairs},0.1,10.0,{result},{reconnects},0,3,s1"
            ))
            .unwrap()
        };
        // Interrupted after 60 taps, then after 120; the second resume's row holds the whole
        // level's 474: one run of the level.
        let t = table(&[
            row("interrupted", 60, 0, 0),
            row("interrupted", 120, 2, 1),
            row("solved", 474, 3, 1),
        ]);
        assert_eq!(t.len(), 1);
        assert_eq!(
            (
                t[0].runs,
                t[0].solved,
                t[0].taps,
                t[0].repairs,
                t[0].reconnects
            ),
            (1, 1, 474, 3, 1)
        );
        // Before any solved run: the latest run's counts so far.
        let t = table(&[row("failed", 50, 1, 0), row("interrupted", 120, 2, 1)]);
        assert_eq!((t[0].solved, t[0].taps, t[0].repairs), (0, 120, 2));
    }

    #[test]
    fn new_games_without_a_level_are_grouped_by_difficulty_with_their_means() {
        let game = |session: &str, difficulty: &str, placements: u64| {
            let mut r =
                RunRecord::parse("t,d,,fast,30,1,0,2,10,0,0.1,10.0,solved,0,0,4,s").unwrap();
            (r.session, r.difficulty, r.placements) =
                (session.into(), difficulty.into(), placements);
            r
        };
        let t = table(&[
            game("a", "Hard", 100),
            game("b", "Hard", 301),
            game("c", "Easy", 40),
        ]);
        let hard = t
            .iter()
            .find(|r| r.difficulty.as_deref() == Some("Hard"))
            .unwrap();
        assert_eq!((hard.runs, hard.solved, hard.placements), (2, 2, 201));
        assert_eq!(t.len(), 2);
        let mut out = Vec::new();
        print_table(&mut out, &t).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains(" Hard  fast") && text.contains("the mean per solved game"),
            "{text}"
        );
    }
}
