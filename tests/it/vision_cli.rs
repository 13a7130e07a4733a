//! `autoplay read` and `autoplay calibrate` as a user runs them.

use crate::common::{autoplay, text};
use crate::vision_support::*;

#[test]
fn read_prints_json_and_writes_debug_files() {
    let dir = tempfile::tempdir().unwrap();
    let shot = dir.path().join("shot.png");
    render(&Style::dark(720, 1520), &scene())
        .0
        .save(&shot)
        .unwrap();
    let debug = dir.path().join("debug");
    let out = autoplay(
        &[
            "read",
            shot.to_str().unwrap(),
            "--json",
            "--debug-dir",
            debug.to_str().unwrap(),
        ],
        b"",
    );
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
    let out = autoplay(&["read", shot.to_str().unwrap()], b"");
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
    let out = autoplay(&["read", shot.to_str().unwrap()], b"");
    assert!(out.status.success());
    assert!(
        text(&out.stdout).contains("row 1 has two 5s"),
        "{}",
        text(&out.stdout)
    );
    let out = autoplay(&["read", shot.to_str().unwrap(), "--strict"], b"");
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
    let out = autoplay(&["read", junk.to_str().unwrap()], b"");
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
    let out = autoplay(&["read", blank.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("no Sudoku board found"),
        "{}",
        text(&out.stderr)
    );
    let out = autoplay(&["read", "/nonexistent/shot.png"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("/nonexistent/shot.png"));
    // A board under a dimming overlay with a gesture stroke across it is refused, not read.
    let drawn = render_full(&Style::light(1080, 2400), &scene());
    let mut img = drawn.image;
    restyle::cover(
        &mut img,
        drawn.rect,
        0.5,
        Some(restyle::Stroke::across([255; 3])),
    );
    let covered = dir.path().join("covered.png");
    img.save(&covered).unwrap();
    let out = autoplay(&["read", covered.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("is covered"),
        "{}",
        text(&out.stderr)
    );
}

/// A phone's home screen: wallpaper, status bar, a 4x5 grid of app icons with labels, a dock.
/// Evenly spaced, square things, but no Sudoku board.
fn home_screen() -> image::RgbaImage {
    let (w, h) = (1080u32, 2400u32);
    let mut img = image::RgbaImage::from_fn(w, h, |_, y| {
        let t = y as f32 / h as f32;
        image::Rgba([(40.0 + 60.0 * t) as u8, (70.0 + 30.0 * t) as u8, 120, 255])
    });
    fill(&mut img, 0, 0, w as i64, 80, [20, 20, 30]);
    text_at(&mut img, 40.0, 40.0, 58.0, [240, 240, 240], "12:45");
    let colours = [[220, 60, 60], [60, 160, 80], [240, 200, 40], [70, 110, 230]];
    for r in 0..5i64 {
        for c in 0..4i64 {
            let (x, y) = (90 + c * 250, 300 + r * 300);
            fill(
                &mut img,
                x,
                y,
                x + 150,
                y + 150,
                colours[((r + c) % 4) as usize],
            );
            fill(&mut img, x + 45, y + 45, x + 105, y + 105, [250, 250, 250]);
            text_at(
                &mut img,
                34.0,
                x as f32 + 10.0,
                y as f32 + 200.0,
                [250; 3],
                "App",
            );
        }
    }
    fill(&mut img, 40, 2000, w as i64 - 40, 2200, [230, 230, 235]);
    for c in 0..4i64 {
        let x = 100 + c * 240;
        fill(&mut img, x, 2030, x + 140, 2170, colours[c as usize]);
    }
    img
}

#[test]
fn read_failure_writes_what_was_seen() {
    let dir = tempfile::tempdir().unwrap();
    let mut seed = 0x2545_f491_u32;
    let noise = image::RgbaImage::from_fn(540, 1200, |_, _| {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        let v = seed.to_le_bytes();
        image::Rgba([v[0], v[1], v[2], 255])
    });
    let blank = image::RgbaImage::from_pixel(720, 1520, image::Rgba([250, 250, 250, 255]));
    for (name, img) in [("home", home_screen()), ("noise", noise), ("blank", blank)] {
        let shot = dir.path().join(format!("{name}.png"));
        img.save(&shot).unwrap();
        let debug = dir.path().join(format!("debug-{name}"));
        let out = autoplay(
            &[
                "read",
                shot.to_str().unwrap(),
                "--debug-dir",
                debug.to_str().unwrap(),
            ],
            b"",
        );
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {err}");
        // The error names what was seen, never a count of zero rows of a grid it did not find.
        assert!(err.contains("no Sudoku board found"), "{name}: {err}");
        assert!(err.contains("long horizontal"), "{name}: {err}");
        assert!(!err.contains("0 of 10"), "{name}: {err}");
        // The overlay of what detection saw is written, and says so.
        let overlay = debug.join("detection.png");
        assert!(err.contains(overlay.to_str().unwrap()), "{name}: {err}");
        let written = image::open(&overlay).unwrap();
        assert_eq!(
            (written.width(), written.height()),
            img.dimensions(),
            "{name}"
        );
        assert!(
            written.to_rgba8() != img,
            "{name}: the overlay is annotated"
        );
    }
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
    let (shot_s, toml_s) = (shot.to_str().unwrap(), toml.to_str().unwrap());
    let out = autoplay(&["calibrate", "--screenshot", shot_s, "--out", toml_s], b"");
    // The erase key is the word "Erase" in the action row over the keypad.
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("erase: key at "), "{stdout}");
    assert!(stdout.contains("word \"erase\""), "{stdout}");
    let out = autoplay(
        &[
            "calibrate",
            "--screenshot",
            shot_s,
            "--out",
            toml_s,
            "--erase",
            "400,1700",
            "--mode",
            "digit-first",
        ],
        b"",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(&toml).unwrap();
    assert!(written.contains("mode = \"digit-first\"") && written.contains("erase = [400, 1700]"));
    assert!(dir.path().join("cal/phone.overlay.png").exists());
    let out = autoplay(
        &[
            "read",
            shot_s,
            "--calibration",
            toml_s,
            "--json",
            "--strict",
        ],
        b"",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    // A calibration for another screen size is refused.
    let small = dir.path().join("small.png");
    render(&Style::light(720, 1520), &scene())
        .0
        .save(&small)
        .unwrap();
    let out = autoplay(
        &["read", small.to_str().unwrap(), "--calibration", toml_s],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("1080x2400"),
        "{}",
        text(&out.stderr)
    );
}

/// No board: the failure says how to help, and the overlay is written all the same.
#[test]
fn calibrate_without_a_board_says_what_to_give_and_writes_the_overlay() {
    let dir = tempfile::tempdir().unwrap();
    let blank = dir.path().join("blank.png");
    image::RgbaImage::from_pixel(400, 800, image::Rgba([250, 250, 250, 255]))
        .save(&blank)
        .unwrap();
    let failed = dir.path().join("cal/blank.toml");
    let out = autoplay(
        &[
            "calibrate",
            "--screenshot",
            blank.to_str().unwrap(),
            "--out",
            failed.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("--board X0,Y0,X1,Y1") && err.contains("blank.overlay.png"),
        "{err}"
    );
    assert!(dir.path().join("cal/blank.overlay.png").exists() && !failed.exists());
}
