//! The screenshot corpus in `screenshots/` (e.g. `screenshots/sim/`, made by the simulated
//! phone's app): every `NAME.png` with a `NAME.truth` sidecar (line 1: the 81-char board, `.`
//! empty; line 2: kinds `G`/`U`/`.`) must read exactly: every digit, every empty cell, every
//! given/entered kind; and calibrating from it must find the keypad and read the same board
//! with the calibration, and its erase key is found without `--erase` (or, when the truth's
//! third line says `erase: toggle`, the app has none and calibrate says `toggle`). The corpus is
//! part of the repository: an empty one fails.

use std::path::{Path, PathBuf};
use sudoku_autoplay::calibration::{CalibrateOptions, Calibration, Erase};
use sudoku_autoplay::{capture, vision};

fn corpus() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("screenshots");
    let mut out = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "png")
                && p.with_extension("truth").exists()
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// A corpus screenshot's truth: the board, the kinds, and whether the app has no erase key.
struct Truth {
    board: String,
    kinds: String,
    toggle: bool,
}

#[test]
fn every_corpus_screenshot_reads_exactly() {
    let files = corpus();
    assert!(
        files.len() >= 20,
        "the screenshot corpus under screenshots/ has {} shots with .truth files",
        files.len()
    );
    let mut failures = Vec::new();
    for png in &files {
        let name = png
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let text = std::fs::read_to_string(png.with_extension("truth")).unwrap();
        let mut lines = text.lines();
        let truth = Truth {
            board: lines.next().unwrap_or("").trim().to_string(),
            kinds: lines.next().unwrap_or("").trim().to_string(),
            toggle: lines.next().is_some_and(|l| l.trim() == "erase: toggle"),
        };
        let img = capture::decode(&std::fs::read(png).unwrap()).unwrap();
        let problems = check_reading(&img, &truth)
            .into_iter()
            .chain(check_calibration(&img, &truth));
        failures.extend(problems.map(|p| format!("{name}: {p}")));
    }
    assert!(
        failures.is_empty(),
        "{} of {} screenshots:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
    eprintln!("{} corpus screenshots read exactly", files.len());
}

/// What is wrong with the reading of `img`: digits, kinds, doubts.
fn check_reading(img: &image::RgbaImage, truth: &Truth) -> Vec<String> {
    let (board, kinds) = (truth.board.as_str(), truth.kinds.as_str());
    let reading = match vision::read_board(img) {
        Ok(r) => r,
        Err(e) => return vec![e.to_string()],
    };
    let mut failures = Vec::new();
    let got = reading.board.to_line();
    if got != board {
        let cells: Vec<String> = (0..81)
            .filter(|&i| got.as_bytes()[i] != board.as_bytes()[i])
            .map(|i| {
                format!(
                    "{} read {} expected {}",
                    sudoku_autoplay::board::cell_name(i),
                    got.as_bytes()[i] as char,
                    board.as_bytes()[i] as char
                )
            })
            .collect();
        failures.push(format!("digits: {}", cells.join(", ")));
    }
    if reading.kinds_line() != kinds {
        failures.push(format!("kinds {} expected {kinds}", reading.kinds_line()));
    }
    // Only rule conflicts present in the truth itself may be doubts.
    let truth_conflicts = sudoku_autoplay::board::Board::parse_line(board)
        .map(|b| !b.conflicts().is_empty())
        .unwrap_or(false);
    for d in &reading.doubts {
        if d.cell.is_some() || !truth_conflicts {
            failures.push(format!("unexpected doubt: {}", d.message));
        }
    }
    failures
}

/// What is wrong with calibrating from `img`: with the erase key given, the calibration must
/// read the same board; without, the sim app's erase key (an icon or a letter) is found below
/// the board and away from the digit keys, or calibrate says `toggle` for an app without one.
fn check_calibration(img: &image::RgbaImage, truth: &Truth) -> Vec<String> {
    let mut failures = Vec::new();
    let options = CalibrateOptions {
        erase: Some(Erase::Key([1, 1])),
        ..Default::default()
    };
    match Calibration::from_frame(img, &options) {
        Ok(c) => {
            let again = c.calibration.read(img).unwrap();
            if again.board.to_line() != truth.board || again.kinds_line() != truth.kinds {
                failures.push("reading with its calibration differs".to_string());
            }
        }
        Err(e) => failures.push(format!("calibrate: {e}")),
    }
    match Calibration::from_frame(img, &CalibrateOptions::default()) {
        Ok(c) if truth.toggle => {
            if c.calibration.keypad.erase != Erase::Toggle {
                failures.push(format!(
                    "the app has no erase key, calibrate found {:?}",
                    c.calibration.keypad.erase
                ));
            }
        }
        Ok(c) => {
            let cal = c.calibration;
            let Erase::Key([x, y]) = cal.keypad.erase else {
                failures.push("no erase key found".to_string());
                return failures;
            };
            let below = y > cal.board.rect[3];
            let cell = (cal.board.rect[2] - cal.board.rect[0]) / 9;
            let off_keys = cal
                .keypad
                .digits
                .iter()
                .all(|k| k[0].abs_diff(x) + k[1].abs_diff(y) > cell / 2);
            if !below || !off_keys {
                failures.push(format!(
                    "erase detected at {x},{y}, on the board or a digit key"
                ));
            }
        }
        Err(e) => failures.push(format!("calibrate without --erase: {e}")),
    }
    failures
}
