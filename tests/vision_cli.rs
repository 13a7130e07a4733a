//! `autoplay read` and `autoplay calibrate` as a user runs them.

mod vision_support;

use std::process::Command;
use vision_support::*;

fn autoplay(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_autoplay"))
        .args(args)
        .output()
        .expect("runs autoplay")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn read_prints_json_and_writes_debug_files() {
    let dir = tempfile::tempdir().unwrap();
    let shot = dir.path().join("shot.png");
    render(&Style::dark(720, 1520), &scene())
        .0
        .save(&shot)
        .unwrap();
    let debug = dir.path().join("debug");
    let out = autoplay(&[
        "read",
        shot.to_str().unwrap(),
        "--json",
        "--debug-dir",
        debug.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let (board, kinds) = truth(&scene());
    assert_eq!(v["board"], board.as_str());
    assert_eq!(v["kinds"], kinds.as_str());
    assert_eq!(v["confidence"].as_array().unwrap().len(), 81);
    assert_eq!(v["board_rect"].as_array().unwrap().len(), 4);
    assert!(v["ms"].as_f64().unwrap() > 0.0);
    assert!(debug.join("overlay.png").exists());
    assert!(debug.join("cell_r1c1.png").exists() && debug.join("cell_r9c9.png").exists());
    assert!(debug.join("glyph_r1c1_5.png").exists());

    // Human output: the grid, the kinds and the time taken.
    let out = autoplay(&["read", shot.to_str().unwrap()]);
    let s = text(&out.stdout);
    assert!(s.contains(&format!("board: {board}")), "{s}");
    assert!(s.contains(&format!("kinds: {kinds}")), "{s}");
    assert!(s.contains("read in") && s.contains(" ms"), "{s}");
    // The three grids (digits, kinds, confidence) are aligned: each rule's `+` under a `|`.
    let grid: Vec<&str> = s
        .lines()
        .skip_while(|l| !l.starts_with("digits"))
        .skip(1)
        .take(11)
        .collect();
    let at = |line: &str, ch: char| -> Vec<usize> {
        line.char_indices()
            .filter(|&(_, c)| c == ch)
            .map(|(i, _)| i)
            .collect()
    };
    let bars = at(grid[0], '|');
    assert_eq!(bars.len(), 6, "{s}");
    for line in &grid {
        let marks = if line.starts_with('-') {
            at(line, '+')
        } else {
            at(line, '|')
        };
        assert_eq!(marks, bars, "misaligned:\n{s}");
        assert_eq!(
            line.trim_end().len(),
            grid[0].trim_end().len(),
            "misaligned:\n{s}"
        );
    }
}

#[test]
fn strict_fails_on_a_board_that_breaks_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    let shot = dir.path().join("conflict.png");
    let mut sc = scene();
    // Enter a second 5 in row 1.
    let mut e: Vec<u8> = sc.entered.bytes().collect();
    e[3] = b'5';
    sc.entered = String::from_utf8(e).unwrap();
    sc.pencil.retain(|(c, _)| *c != 3);
    render(&Style::light(720, 1520), &sc).0.save(&shot).unwrap();
    let out = autoplay(&["read", shot.to_str().unwrap()]);
    assert!(out.status.success());
    assert!(
        text(&out.stdout).contains("row 1 has two 5s"),
        "{}",
        text(&out.stdout)
    );
    let out = autoplay(&["read", shot.to_str().unwrap(), "--strict"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--strict"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn read_errors_are_clear() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.png");
    std::fs::write(&junk, b"not an image").unwrap();
    let out = autoplay(&["read", junk.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("not a screenshot"),
        "{}",
        text(&out.stderr)
    );
    let blank = dir.path().join("blank.png");
    image::RgbaImage::from_pixel(300, 600, image::Rgba([255, 255, 255, 255]))
        .save(&blank)
        .unwrap();
    let out = autoplay(&["read", blank.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("no Sudoku board found"),
        "{}",
        text(&out.stderr)
    );
    let out = autoplay(&["read", "/nonexistent/shot.png"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("/nonexistent/shot.png"));
}

#[test]
fn calibrate_writes_toml_and_overlay_that_read_uses() {
    let dir = tempfile::tempdir().unwrap();
    let shot = dir.path().join("phone.png");
    render(&Style::light(1080, 2400), &scene())
        .0
        .save(&shot)
        .unwrap();
    let toml = dir.path().join("cal/phone.toml");
    let out = autoplay(&[
        "calibrate",
        "--screenshot",
        shot.to_str().unwrap(),
        "--out",
        toml.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("--erase X,Y"),
        "{}",
        text(&out.stderr)
    );
    let out = autoplay(&[
        "calibrate",
        "--screenshot",
        shot.to_str().unwrap(),
        "--out",
        toml.to_str().unwrap(),
        "--erase",
        "400,1700",
        "--mode",
        "digit-first",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(&toml).unwrap();
    assert!(written.contains("mode = \"digit-first\"") && written.contains("erase = [400, 1700]"));
    assert!(dir.path().join("cal/phone.overlay.png").exists());
    let out = autoplay(&[
        "read",
        shot.to_str().unwrap(),
        "--calibration",
        toml.to_str().unwrap(),
        "--json",
        "--strict",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // A calibration for another screen size is refused.
    let small = dir.path().join("small.png");
    render(&Style::light(720, 1520), &scene())
        .0
        .save(&small)
        .unwrap();
    let out = autoplay(&[
        "read",
        small.to_str().unwrap(),
        "--calibration",
        toml.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("1080x2400"),
        "{}",
        text(&out.stderr)
    );
}
