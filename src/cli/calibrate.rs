//! `autoplay calibrate --screenshot`: make a calibration profile from a screenshot.

use super::read::load_image;
use crate::calibration::{CalibrateOptions, Calibration, InputMode, Navigation};
use crate::vision::overlay;
use anyhow::Context;
use clap::ValueEnum;
use image::Rgba;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    autoplay calibrate --screenshot shot.png --erase 540,2100 --out calibration/pixel.toml\n  \
    autoplay calibrate --screenshot shot.png --erase 900,2200 --mode digit-first \\\n      \
    --am-start 'am start -n org.autoplay.sudoku/.GameActivity --ei level {level}'")]
pub struct CalibrateArgs {
    /// A screenshot of the game screen with the board and the number pad showing. Without it,
    /// the screen of the device (-s SERIAL, or the only one) is captured.
    #[arg(long, value_name = "FILE")]
    screenshot: Option<PathBuf>,
    /// Where to write the calibration (default: calibration/<screenshot name>.toml).
    /// An annotated overlay is written beside it as <NAME>.overlay.png.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Screen position of the erase key (default: find an erase icon ⌫, ⌦ or ✕ below the board;
    /// text-only erase keys need this option).
    #[arg(long, value_name = "X,Y", value_parser = parse_point)]
    erase: Option<[u32; 2]>,
    /// How the app takes digits: tap the cell then the digit, or the reverse.
    #[arg(long, value_enum, default_value_t = InputMode::CellFirst)]
    mode: InputMode,
    /// Device model to record (informative).
    #[arg(long)]
    model: Option<String>,
    /// Screen density to record (informative).
    #[arg(long)]
    density: Option<u32>,
    /// How to open level N: a shell command containing {level}.
    #[arg(long, value_name = "COMMAND")]
    am_start: Option<String>,
    /// Without --screenshot: the device whose screen is captured.
    #[command(flatten)]
    adb: super::play::AdbArgs,
}

/// Parses `X,Y`.
fn parse_point(s: &str) -> Result<[u32; 2], String> {
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| format!("expected X,Y (two pixel numbers), got {s:?}"))?;
    let num = |v: &str| {
        v.trim()
            .parse::<u32>()
            .map_err(|_| format!("expected X,Y (two pixel numbers), got {s:?}"))
    };
    Ok([num(x)?, num(y)?])
}

pub fn run(mut args: CalibrateArgs) -> anyhow::Result<i32> {
    let (img, source, stem) = match &args.screenshot {
        Some(path) => {
            let frame = load_image(path)?;
            let stem = path
                .file_stem()
                .map_or("device".into(), |s| s.to_string_lossy().into_owned());
            (
                frame.image,
                format!("{}: {}", path.display(), frame.format),
                stem,
            )
        }
        None => {
            let device = args.adb.device()?;
            let (_, frame) = crate::device::screen::Screen::probe(&device)?;
            let model = device.getprop("ro.product.model").unwrap_or_default();
            args.model = args.model.or(Some(model.clone()).filter(|m| !m.is_empty()));
            if args.density.is_none() {
                args.density = device
                    .shell("wm density", crate::device::CALL_TIMEOUT)
                    .ok()
                    .and_then(|o| {
                        o.stdout
                            .rsplit(':')
                            .next()
                            .and_then(|v| v.trim().parse().ok())
                    });
            }
            let stem = if model.is_empty() {
                "device".to_string()
            } else {
                model
            };
            (frame, format!("screen of {}", device.serial), stem)
        }
    };
    let img = &img;
    if let Some([x, y]) = args.erase {
        anyhow::ensure!(
            x < img.width() && y < img.height(),
            "--erase {x},{y} is outside the {}x{} screenshot",
            img.width(),
            img.height()
        );
    }
    let navigation = args.am_start.map(|command| Navigation::AmStart { command });
    let options = CalibrateOptions {
        erase: args.erase,
        mode: args.mode,
        model: args.model,
        density: args.density,
        navigation,
    };
    let cal = Calibration::from_frame(img, &options)
        .with_context(|| format!("calibrating from the {source}"))?;
    let out = args
        .out
        .unwrap_or_else(|| PathBuf::from("calibration").join(format!("{stem}.toml")));
    if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    let c = &cal.calibration;
    std::fs::write(&out, c.to_toml()).with_context(|| format!("cannot write {}", out.display()))?;

    let mut shown = overlay::reading_overlay(img, &cal.reading);
    let r = (cal.reading.geometry.cell_size().0 * 0.25).max(6.0) as i32;
    for k in &cal.keys {
        overlay::mark_point(
            &mut shown,
            k.center,
            r,
            Rgba([0, 160, 0, 255]),
            &k.digit.to_string(),
        );
    }
    let [ex, ey] = c.keypad.erase;
    overlay::mark_point(&mut shown, (ex, ey), r, Rgba([220, 0, 0, 255]), "erase");
    let overlay_path = out.with_extension("overlay.png");
    shown
        .save(&overlay_path)
        .with_context(|| format!("cannot write {}", overlay_path.display()))?;

    outln!("{source}: {}x{}", img.width(), img.height())?;
    outln!(
        "board: {:?}, line width {} px",
        c.board.rect,
        c.board.line_width
    )?;
    let keys: Vec<String> = c
        .keypad
        .digits
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{}@{},{}", i + 1, p[0], p[1]))
        .collect();
    outln!("keypad: {}", keys.join(" "))?;
    let mode = c.input.mode.to_possible_value();
    outln!(
        "erase: {ex},{ey}; input mode: {}",
        mode.as_ref().map_or("?", |m| m.get_name())
    )?;
    outln!(
        "templates harvested: {} ({} from the keypad, {} from the board)",
        c.templates.len(),
        c.templates.iter().filter(|t| t.source == "keypad").count(),
        c.templates.iter().filter(|t| t.source == "board").count()
    )?;
    outln!("board read: {}", cal.reading.board.to_line())?;
    for d in &cal.reading.doubts {
        outln!("  doubt: {}", d.message)?;
    }
    outln!("wrote {} and {}", out.display(), overlay_path.display())?;
    match &c.navigation {
        Some(Navigation::AmStart { command }) => outln!("--level N opens levels with `{command}`")?,
        Some(Navigation::Taps { taps }) => outln!(
            "--level N opens levels with a sequence of {} taps",
            taps.len()
        )?,
        Some(Navigation::LevelGrid { .. }) => outln!("--level N opens levels from the level grid")?,
        None => outln!(
            "--level N cannot open levels yet: {} has no [navigation], so `autoplay` plays the level \
             that is open (recorded as level unknown). To open levels by number, run calibrate again \
             with --am-start 'am start -n PACKAGE/ACTIVITY --ei level {{level}}' (if the app takes an \
             intent), or add a [navigation] section to the file (README: \"Opening levels\").",
            out.display()
        )?,
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    #[test]
    fn points_parse() {
        assert_eq!(super::parse_point("12, 34"), Ok([12, 34]));
        assert!(super::parse_point("12").is_err());
        assert!(super::parse_point("-1,2").is_err());
    }
}
