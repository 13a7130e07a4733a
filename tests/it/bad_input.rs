//! Bad input as a user meets it: each case must end in a clear error that says what is wrong and
//! what to do, never a panic. Cases already covered elsewhere are not repeated here:
//! library-level frame errors (`tests/it/vision_capture.rs`), a blank screenshot and `--strict` on a
//! conflicting board (`tests/it/vision_cli.rs`), calibration parse errors with line and column
//! (`tests/it/vision_calibration.rs`), torn and garbled journals (`crates/player/src/session/journal.rs`).

use crate::common::autoplay;
use std::path::Path;
use std::process::Output;
use sudoku_autoplay::calibration::Calibration;

const SHOT: &str = "screenshots/sim/budget-light-row.png";

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs `autoplay ARGS`, expects exit code 1 and returns stderr.
fn fails(args: &[&str]) -> String {
    let out = autoplay(args, b"");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

#[test]
fn read_on_a_cut_png_says_truncated() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(SHOT).unwrap();
    let cut = dir.path().join("cut.png");
    std::fs::write(&cut, &bytes[..bytes.len() / 3]).unwrap();
    let e = fails(&["read", cut.to_str().unwrap()]);
    assert!(
        e.contains("cut.png") && e.contains("PNG") && e.contains("truncated or corrupt"),
        "{e}"
    );
}

#[test]
fn read_on_a_corrupt_png_names_the_chunk_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = std::fs::read(SHOT).unwrap();
    let at = bytes.windows(4).position(|w| w == b"IDAT").unwrap();
    bytes[at + 1] = b'x';
    let bad = dir.path().join("bad.png");
    std::fs::write(&bad, &bytes).unwrap();
    let e = fails(&["read", bad.to_str().unwrap()]);
    assert!(e.contains("bad.png") && e.contains("IxAT"), "{e}");
    assert!(
        !e.contains("ChunkType") && !e.contains("critical:"),
        "no debug dump: {e}"
    );
}

#[test]
fn read_on_a_raw_frame_of_the_wrong_size_says_what_was_expected() {
    let dir = tempfile::tempdir().unwrap();
    // A 16-byte header for 100x50 RGBA_8888, but 100 bytes short of the 20000 pixel bytes.
    let mut raw = Vec::new();
    for v in [100u32, 50, 1, 0] {
        raw.extend_from_slice(&v.to_le_bytes());
    }
    raw.resize(16 + 100 * 50 * 4 - 100, 0x80);
    let short = dir.path().join("short.raw");
    std::fs::write(&short, &raw).unwrap();
    let e = fails(&["read", short.to_str().unwrap()]);
    assert!(
        e.contains("raw screencap frame 100x50") && e.contains("truncated"),
        "{e}"
    );
    assert!(
        e.contains("expected 20012") && e.contains("capture it again"),
        "{e}"
    );

    // Too many bytes for the header (neither a 12- nor a 16-byte header fits).
    raw.resize(16 + 100 * 50 * 4 + 7, 0x80);
    std::fs::write(&short, &raw).unwrap();
    let e = fails(&["read", short.to_str().unwrap()]);
    assert!(e.contains("do not match 20000 pixel bytes"), "{e}");
}

#[test]
fn calibration_for_another_resolution_says_recalibrate() {
    // The budget screenshot is 720x1520; the pixel calibration is for 1080x2400.
    let e = fails(&["read", SHOT, "--calibration", "calibration/sim-pixel.toml"]);
    assert!(
        e.contains("1080x2400") && e.contains("720x1520") && e.contains("recalibrate"),
        "{e}"
    );
}

#[test]
fn malformed_calibration_names_file_line_and_column_through_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    let good = std::fs::read_to_string("calibration/sim-budget.toml").unwrap();
    let line = good
        .lines()
        .position(|l| l.starts_with("line_width = "))
        .unwrap()
        + 1;
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, good.replace("line_width = 5", "line_width = \"5\"")).unwrap();
    let e = fails(&["read", SHOT, "--calibration", bad.to_str().unwrap()]);
    let at = format!("bad.toml:{line}:14:");
    assert!(e.contains(&at), "expected {at} in: {e}");
    assert!(e.contains("autoplay calibrate"), "{e}");
}

fn with_am_start(command: &str) -> String {
    let good = std::fs::read_to_string("calibration/sim-budget.toml").unwrap();
    let start = good.find("command = ").unwrap();
    let end = start + good[start..].find('\n').unwrap();
    format!(
        "{}command = {}{}",
        &good[..start],
        toml_string(command),
        &good[end..]
    )
}

fn toml_string(s: &str) -> String {
    format!(
        "\"{}\"",
        s.replace('\\', "\\\\")
            .replace('"', "\\\"")
            .replace('\n', "\\n")
    )
}

#[test]
fn am_start_template_cannot_smuggle_shell_syntax() {
    let file = Path::new("cal.toml");
    for ok in [
        "am start -n org.autoplay.sudoku/.GameActivity --ei level {level}",
        // A deep link, as some apps take (BEHAVIOUR.md, class 13).
        "am start -a android.intent.action.VIEW -d sudoku://level/{level}",
        "am start -a android.intent.action.VIEW -d sgtpuzzles:solo:3x3:{level}",
    ] {
        assert!(Calibration::parse(&with_am_start(ok), file).is_ok(), "{ok}");
    }
    for bad in [
        "am start --ei level {level}; rm -rf /sdcard",
        "am start --ei level {level} && reboot",
        "am start --ei level {level} | sh",
        "am start --ei level $(reboot){level}",
        "am start --ei level `reboot` {level}",
        "am start --ei level {level}\nreboot",
        "am start --es name 'x' --ei level {level}",
        "am start --ei level {level} > /sdcard/x",
        "am start --ei level {{level}}",
        "am start -d sudoku://x?level={level}&y=1",
        "am start -d sudoku://level/{level}#top",
        "am start -d ~/{level}",
    ] {
        let e = Calibration::parse(&with_am_start(bad), file)
            .expect_err(bad)
            .to_string();
        assert!(
            e.starts_with("cal.toml: [navigation] command contains")
                && e.contains("use only letters, digits"),
            "{bad:?}: {e}"
        );
    }
    let e = Calibration::parse(&with_am_start("am start --ei level 3"), file)
        .unwrap_err()
        .to_string();
    assert!(e.contains("must contain {level}"), "{e}");
    let long = format!("am start {} {{level}}", "a".repeat(600));
    let e = Calibration::parse(&with_am_start(&long), file)
        .unwrap_err()
        .to_string();
    assert!(e.contains("limit 512"), "{e}");
}

#[test]
fn solve_explains_unsolvable_and_ambiguous_puzzles() {
    // Row 1 holds 1..8, and column 9 already has its 9 (r2c9): no digit fits r1c9, yet no rule
    // is broken by the givens.
    let unsolvable = format!("12345678.........9{}", ".".repeat(63));
    let e = fails(&["solve", &unsolvable]);
    assert!(
        e.contains("no solution") && e.contains("check the puzzle for a mistyped or misread digit"),
        "{e}"
    );

    // An empty board has many solutions: `--unique` says so and what it means, and fails.
    let out = autoplay(&["solve", &".".repeat(81), "--unique"], b"");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("NOT unique (several solutions"), "{text}");
    assert!(stderr(&out).contains("lacks givens"), "{}", stderr(&out));
    assert_eq!(out.status.code(), Some(1));

    // Givens that break the rules are named.
    let e = fails(&["solve", &format!("11{}", ".".repeat(79))]);
    assert!(e.contains("row 1 has two 1s"), "{e}");
}
