//! Calibration: from a screenshot (board, keypad, harvested templates), TOML round trip, parse
//! errors with file/line/column, and the screen-size check.

use crate::vision_support::*;
use std::path::Path;
use sudoku_autoplay::calibration::{
    CalibrateOptions, Calibration, CalibrationError, Erase, InputMode, Navigation,
};

fn calibrate(
    style: &Style,
    erase: Option<[u32; 2]>,
) -> Result<(Calibration, Rendered), CalibrationError> {
    let r = render_full(style, &scene());
    let options = CalibrateOptions {
        erase: erase.map(Erase::Key),
        mode: InputMode::CellFirst,
        model: Some("Test_Phone".into()),
        density: Some(420),
        navigation: Some(Navigation::AmStart {
            command: "am start -n org.autoplay.sudoku/.GameActivity --ei level {level}".into(),
        }),
        ..CalibrateOptions::default()
    };
    let c = Calibration::from_frame(&r.image, &options)?;
    Ok((c.calibration, r))
}

#[test]
fn calibrates_board_and_keypad_in_both_layouts() {
    for style in [Style::light(1080, 2400), Style::other(833, 1777)] {
        let (cal, r) = calibrate(&style, Some([500, 2000.min(style.height - 1)])).unwrap();
        assert_eq!(
            (cal.device.width, cal.device.height),
            (style.width, style.height)
        );
        for (k, &(x, y)) in cal.keypad.digits.iter().zip(&r.keys) {
            assert!(
                (k[0] as f32 - x).abs() < 8.0 && (k[1] as f32 - y).abs() < 8.0,
                "key at {k:?}, drawn at ({x}, {y})"
            );
        }
        for k in 0..4 {
            assert!(
                cal.board.rect[k].abs_diff(r.rect[k]) <= 4,
                "{:?} {:?}",
                cal.board.rect,
                r.rect
            );
        }
        assert_eq!(
            cal.templates
                .iter()
                .filter(|t| t.source == "keypad")
                .count(),
            9
        );
        // Reading with the calibration gives the same board.
        let reading = cal.read(&r.image).unwrap();
        assert_eq!(reading.board.to_line(), truth(&scene()).0);
        assert!(reading.doubts.is_empty(), "{:?}", reading.doubts);
    }
}

#[test]
fn erase_icon_is_found_without_the_option() {
    // The held-out app's two-row keypad has an "X" erase key as its tenth key.
    let style = Style::other(833, 1777);
    let (cal, r) = calibrate(&style, None).unwrap();
    let kw = style.width as f32 / 5.0;
    let (x, y) = (kw * 4.5, r.keys[5].1);
    let Erase::Key([ex, ey]) = cal.keypad.erase else {
        panic!("erase: {:?}", cal.keypad.erase);
    };
    assert!(!cal.keypad.erase_guessed);
    assert!(
        (ex as f32 - x).abs() < kw * 0.3 && (ey as f32 - y).abs() < kw * 0.3,
        "erase at {ex},{ey}, drawn at {x},{y}"
    );
}

#[test]
fn a_text_erase_key_is_read() {
    // The row keypad's action row: squares over the words "Undo", "Erase", "Notes", "Hint".
    let style = Style::light(720, 1520);
    let (cal, _) = calibrate(&style, None).unwrap();
    let Erase::Key([ex, ey]) = cal.keypad.erase else {
        panic!("erase: {:?}", cal.keypad.erase);
    };
    let x = style.width as f32 * 0.375;
    assert!(
        (ex as f32 - x).abs() < style.width as f32 * 0.08 && ey < cal.keypad.digits[0][1],
        "erase at {ex},{ey}, the word is centred at x {x}"
    );
}

#[test]
fn toml_round_trip_and_frame_size_check() {
    let (cal, _) = calibrate(&Style::light(720, 1520), Some([360, 1400])).unwrap();
    let text = cal.to_toml();
    assert!(text.starts_with("# sudoku-autoplay calibration profile"));
    assert!(text.contains("version = 1"));
    assert!(text.contains("[navigation]\nkind = \"am-start\""), "{text}");
    let back = Calibration::parse(&text, Path::new("x.toml")).unwrap();
    assert_eq!(back, cal);
    assert!(
        !text.contains("retap"),
        "default input rules are not written"
    );
    // The app's input rules round-trip, each with its comment.
    let mut rules = cal.clone();
    rules.input.retap = sudoku_autoplay::calibration::Retap::Deselect;
    rules.input.after_entry = sudoku_autoplay::calibration::AfterEntry::Clear;
    let text = rules.to_toml();
    assert!(text.contains("retap = \"deselect\"") && text.contains("after_entry = \"clear\""));
    assert_eq!(
        Calibration::parse(&text, Path::new("x.toml")).unwrap(),
        rules
    );
    assert!(back.check_frame(720, 1520).is_ok());
    let e = back.check_frame(1080, 2400).unwrap_err().to_string();
    assert!(e.contains("720x1520") && e.contains("1080x2400"), "{e}");
    // Reading a frame of another size with it is refused.
    let other = render(&Style::light(1080, 2400), &scene()).0;
    let e = back.read(&other).unwrap_err();
    assert!(e.to_string().contains("recalibrate"), "{e}");
}

#[test]
fn parse_errors_name_file_line_and_column() {
    let (cal, _) = calibrate(&Style::light(720, 1520), Some([360, 1400])).unwrap();
    let good = cal.to_toml();
    let file = Path::new("calibration/test.toml");
    let err = |text: &str| Calibration::parse(text, file).unwrap_err().to_string();

    // 9 column boundaries instead of 10: the error points at the cols line.
    let cols_line = good.lines().position(|l| l.starts_with("cols = ")).unwrap() + 1;
    let bad = good.replacen("cols = [", "cols = [1, ", 1);
    let e = err(&bad);
    assert!(
        e.starts_with(&format!("calibration/test.toml:{cols_line}:")),
        "{e}"
    );
    assert!(e.contains("expected 10 grid line positions"), "{e}");

    let e = err(&good.replace("version = 1", "version = 2"));
    assert!(
        e.contains("calibration/test.toml:3:") && e.contains("unsupported calibration version 2"),
        "{e}"
    );

    let e = err(&good.replace("mode = \"cell-first\"", "mode = \"sideways\""));
    assert!(
        e.contains("calibration/test.toml:") && e.contains("sideways"),
        "{e}"
    );

    let e = err(&good.replace("[keypad]", "[keypad]\ncolour = 3"));
    assert!(e.contains("unknown field"), "{e}");

    let e = err("version = 1\n[device]\nwidth = 10\n");
    assert!(e.contains("missing field"), "{e}");

    let e = err("this is = not toml [");
    assert!(e.starts_with("calibration/test.toml:1:"), "{e}");

    // Cross-field: a rect that does not match the boundaries, a key off screen.
    let e = err(&good.replacen("rect = [", "rect = [1", 1));
    assert!(e.contains("does not match"), "{e}");
    let e = err(&good.replace("erase = [360, 1400]", "erase = [360, 99999]"));
    assert!(e.contains("erase") && e.contains("off the"), "{e}");
    let e = err(&good.replace("erase = [360, 1400]", "erase = \"tap twice\""));
    assert!(e.contains("\"toggle\""), "{e}");
    let toggle = Calibration::parse(
        &good.replace(
            "erase = [360, 1400]",
            "erase = \"toggle\"\nerase_guessed = true",
        ),
        file,
    )
    .unwrap();
    assert_eq!(toggle.keypad.erase, Erase::Toggle);
    assert!(toggle.keypad.erase_guessed);
    assert_eq!(Calibration::parse(&toggle.to_toml(), file).unwrap(), toggle);
}

#[test]
fn load_reports_missing_file() {
    let e = Calibration::load(Path::new("/nonexistent/cal.toml")).unwrap_err();
    assert!(e.to_string().contains("/nonexistent/cal.toml"), "{e}");
}

/// A screenshot shows the phone's navigation bar, and nothing on it says where the app's window
/// ends. The `disc` style's app has no erase key; at the smaller Display size Settings offers
/// (0.85 of the density, AOSP settingslib `DisplayDensityUtils`) the small phone's bar comes
/// within reach of its keys, and its home circle correlated with a "C" key's glyph at 0.73: it
/// was taken for the erase key, in portrait and in landscape (the bar at the side). A ring is
/// closed, a C is open: no key on the bar is taken for a tool, and the erase is the guessed
/// "toggle". Every profile at that size, held both ways.
#[test]
fn the_navigation_bars_home_circle_is_no_erase_key() {
    use autoplay_sim::app::{AppOptions, Phone, style::Style as AppStyle};
    use sudoku_autoplay::vision::Tool;
    for profile in autoplay_sim::profile::PROFILES {
        for rotation in [0, 1] {
            let mut profile = profile.clone();
            profile.override_density = Some(profile.density * 85 / 100);
            profile.rotation = rotation;
            let what = format!(
                "{} at {} dpi, rotation {rotation}",
                profile.name,
                profile.applied_density()
            );
            let mut phone = Phone::new(
                profile,
                AppOptions {
                    style: AppStyle::by_name("disc").unwrap(),
                    ..AppOptions::default()
                },
            );
            phone.start_level(1).unwrap();
            let bar = phone.layout().nav_bar;
            let c = Calibration::from_frame(&phone.screenshot(), &CalibrateOptions::default())
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(c.calibration.keypad.erase, Erase::Toggle, "{what}");
            assert!(c.calibration.keypad.erase_guessed, "{what}");
            for t in &c.survey.tools {
                let (x, y) = (t.center.0 as i32, t.center.1 as i32);
                let on_bar = x >= bar.x && x < bar.right() && y >= bar.y && y < bar.bottom();
                assert!(
                    !on_bar || t.tool.is_none_or(|tool| tool == Tool::Other),
                    "{what}: the bar's key at {x},{y} taken for {:?} ({})",
                    t.tool,
                    t.evidence
                );
            }
        }
    }
}
