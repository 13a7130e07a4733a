//! `autoplay read`: read the board in a screenshot.

use anyhow::Context;
use std::path::{Path, PathBuf};
use std::time::Instant;
use sudoku_autoplay::calibration::Calibration;
use sudoku_autoplay::capture;
use sudoku_autoplay::vision::{self, Reading, overlay};

/// Largest screenshot file accepted, in bytes.
const MAX_FILE_BYTES: u64 = 256 << 20;

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples (from the repository's directory):\n  \
    autoplay read screenshots/sim/pixel-light-row.png\n  \
    autoplay read screenshots/sim/pixel-light-row.png --calibration calibration/sim-pixel.toml --json\n  \
    adb exec-out screencap -p > shot.png && autoplay read shot.png --strict --debug-dir /tmp/dbg")]
pub struct ReadArgs {
    /// Screenshot: PNG (also CRLF-mangled), JPEG, or raw `screencap` output.
    file: PathBuf,
    /// Use this calibration's board position and device templates (its screen size must match).
    #[arg(long, value_name = "FILE")]
    calibration: Option<PathBuf>,
    /// Print one JSON object: board, kinds, confidence, board_rect, ms (the reading; decode_ms and
    /// tables_ms apart).
    #[arg(long)]
    json: bool,
    /// Write cell crops, normalised glyphs, an annotated overlay.png and detection.png (the
    /// lines and candidate boards seen; written also when no board is found) into DIR.
    #[arg(long, value_name = "DIR")]
    debug_dir: Option<PathBuf>,
    /// Fail (exit 2) on any doubt: a low-confidence cell or a broken Sudoku rule.
    #[arg(long)]
    strict: bool,
}

/// Reads a screenshot file into an image (with a size cap and a clear error).
pub fn load_image(path: &Path) -> anyhow::Result<capture::Frame> {
    let len = std::fs::metadata(path)
        .with_context(|| format!("cannot read {}", path.display()))?
        .len();
    anyhow::ensure!(
        len <= MAX_FILE_BYTES,
        "{}: {len} bytes is too big for a screenshot (limit {MAX_FILE_BYTES})",
        path.display()
    );
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    capture::decode_frame(&bytes).with_context(|| path.display().to_string())
}

pub fn run(args: ReadArgs) -> anyhow::Result<i32> {
    let t0 = Instant::now();
    let frame = load_image(&args.file)?;
    let decode_ms = t0.elapsed().as_secs_f64() * 1e3;
    let calibration = args
        .calibration
        .as_deref()
        .map(Calibration::load)
        .transpose()?;
    // The font-rendered tables are built once per process (a player builds them once per run):
    // timed apart, so that `ms` is what every further frame costs.
    let t_tables = Instant::now();
    vision::prepare();
    let tables_ms = t_tables.elapsed().as_secs_f64() * 1e3;
    let t1 = Instant::now();
    let result = match &calibration {
        Some(c) => c.read(&frame.image),
        None => vision::read_board(&frame.image),
    };
    let ms = t1.elapsed().as_secs_f64() * 1e3;
    let reading = match result {
        Ok(r) => r,
        Err(e) => {
            // Whatever failed, the debug overlay shows what detection saw.
            if let Some(dir) = &args.debug_dir {
                let detection = match &e {
                    vision::VisionError::NoBoard { detection, .. } => (**detection).clone(),
                    _ => vision::detect::detect_all(&frame.image),
                };
                let p = write_detection(dir, &frame.image, &detection, None)?;
                eprintln!("the lines and boards detection saw: {}", p.display());
            }
            return Err(anyhow::Error::new(e).context(args.file.display().to_string()));
        }
    };
    if let Some(dir) = &args.debug_dir {
        write_debug(dir, &frame.image, &reading)?;
        let detection = vision::detect::detect_all(&frame.image);
        write_detection(dir, &frame.image, &detection, Some(&reading.geometry))?;
    }
    if args.json {
        print_json(&reading, [ms, decode_ms, tables_ms])?;
    } else {
        print_human(&args.file, &frame, &reading, [ms, decode_ms, tables_ms])?;
    }
    if !reading.doubts.is_empty() {
        if args.strict {
            eprintln!(
                "error: --strict: {} doubt(s) about this reading (see above); \
                 recalibrate, or check the screenshot with --debug-dir",
                reading.doubts.len()
            );
            return Ok(2);
        }
        if args.json {
            for d in &reading.doubts {
                eprintln!("warning: {}", d.message);
            }
        }
    }
    Ok(0)
}

/// The reading as one JSON object; `times`: reading, decoding and table building, in ms.
fn print_json(reading: &vision::Reading, times: [f64; 3]) -> std::io::Result<()> {
    let [ms, decode_ms, tables_ms] = times.map(|t| (t * 100.0).round() / 100.0);
    let doubts: Vec<&str> = reading.doubts.iter().map(|d| d.message.as_str()).collect();
    let conf: Vec<f64> = reading
        .confidence
        .iter()
        .map(|&c| (c as f64 * 1000.0).round() / 1000.0)
        .collect();
    let v = serde_json::json!({
        "board": reading.board.to_line(),
        "kinds": reading.kinds_line(),
        "kind_evidence": reading.kind_evidence,
        "confidence": conf,
        "board_rect": reading.geometry.rect(),
        "ms": ms,
        "decode_ms": decode_ms,
        "tables_ms": tables_ms,
        "doubts": doubts,
    });
    outln!("{v}")
}

fn print_human(
    file: &Path,
    frame: &capture::Frame,
    r: &Reading,
    [ms, decode_ms, tables_ms]: [f64; 3],
) -> std::io::Result<()> {
    let (cw, ch) = r.geometry.cell_size();
    outln!(
        "{}: {}x{} {}, board at {:?} (cells {:.0}x{:.0} px)",
        file.display(),
        frame.image.width(),
        frame.image.height(),
        frame.format,
        r.geometry.rect(),
        cw,
        ch
    )?;
    outln!()?;
    let kinds = r.kinds_line();
    let kb: Vec<char> = kinds.chars().collect();
    print_grids(r, &kb)?;
    outln!()?;
    outln!("board: {}", r.board.to_line())?;
    outln!("kinds: {kinds}")?;
    outln!(
        "{} givens, {} entered, {} empty; read in {ms:.2} ms (decode {decode_ms:.2} ms, font \
         tables built once per process {tables_ms:.2} ms)",
        kb.iter().filter(|&&c| c == 'G').count(),
        kb.iter().filter(|&&c| c == 'U').count(),
        kb.iter().filter(|&&c| c == '.').count()
    )?;
    outln!("given or entered: {}", r.kind_evidence)?;
    if r.doubts.is_empty() {
        outln!("no doubts: every cell is confident and the board obeys the Sudoku rules")?;
    } else {
        outln!("doubts:")?;
        for d in &r.doubts {
            outln!("  {}", d.message)?;
        }
    }
    Ok(())
}

/// The digits, their kinds (`kb`, a char per cell) and their confidence, three grids side by
/// side.
fn print_grids(r: &Reading, kb: &[char]) -> std::io::Result<()> {
    outln!("digits                  kinds (G given, U entered)   confidence %")?;
    let digits = r.board.to_string();
    let mut rows = digits.lines().filter(|l| !l.starts_with('-'));
    for row in 0..9 {
        let d = rows.next().unwrap_or_default();
        let mut k = String::new();
        let mut c = String::new();
        for col in 0..9 {
            if col == 3 || col == 6 {
                k.push_str("| ");
                c.push_str("| ");
            }
            k.push(kb[row * 9 + col]);
            k.push(' ');
            c.push_str(&format!(
                "{:>2} ",
                (r.confidence[row * 9 + col] * 100.0).round().min(99.0) as u32
            ));
        }
        let (k, c) = (k.trim_end(), c.trim_end());
        if row == 3 || row == 6 {
            // Each block's rule under its own row: `+` where the row has `|`.
            let rule = |s: &str| -> String {
                s.chars()
                    .map(|ch| if ch == '|' { '+' } else { '-' })
                    .collect()
            };
            outln!("{:<24}{:<29}{}", rule(d), rule(k), rule(c))?;
        }
        outln!("{d:<24}{k:<29}{c}")?;
    }
    Ok(())
}

/// Writes `detection.png`: the lines and candidate boards detection saw. Returns its path.
pub fn write_detection(
    dir: &Path,
    img: &image::RgbaImage,
    d: &vision::detect::Detection,
    chosen: Option<&vision::BoardGeometry>,
) -> anyhow::Result<PathBuf> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let p = dir.join("detection.png");
    overlay::detection_overlay(img, d, chosen)
        .save(&p)
        .with_context(|| format!("cannot write {}", p.display()))?;
    Ok(p)
}

/// Writes `overlay.png`, one crop per cell and the normalised glyph of each digit.
pub fn write_debug(dir: &Path, img: &image::RgbaImage, r: &Reading) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let save = |img: &image::RgbaImage, name: &str| -> anyhow::Result<()> {
        let p = dir.join(name);
        img.save(&p)
            .with_context(|| format!("cannot write {}", p.display()))
    };
    save(&overlay::reading_overlay(img, r), "overlay.png")?;
    for i in 0..81 {
        let name = sudoku_autoplay::board::cell_name(i);
        let [x0, y0, x1, y1] = r.geometry.cell_inner(i);
        let crop = image::imageops::crop_imm(img, x0, y0, x1 - x0, y1 - y0).to_image();
        save(&crop, &format!("cell_{name}.png"))?;
        if let Some(g) = &r.cells[i].glyph {
            let bytes = g.to_bytes();
            let n = vision::glyph::SIZE as u32;
            let gray = image::GrayImage::from_raw(n, n, bytes).context("glyph size")?;
            let rgba = image::DynamicImage::ImageLuma8(gray).into_rgba8();
            save(&rgba, &format!("glyph_{name}_{}.png", r.board.get(i)))?;
        }
    }
    Ok(())
}
