//! `autoplay calibrate` on the development set of real apps' screenshots in
//! `../shared/real-screens/`, with no options: it must succeed on every shot, and every key
//! centre it finds must lie inside the key as measured by hand in
//! `tests/data/real-screens-keys.toml` (digits 1-9; the erase key, or "toggle" for an app that
//! has none). All failures are collected and reported together. Where the folder is absent (a
//! clone outside the project's workspace) the test is ignored (`build.rs` sets `cfg(dev_set)`):
//! the images are not ours to ship.

use serde::Deserialize;
use std::path::Path;
use sudoku_autoplay::calibration::{CalibrateOptions, Calibration, Erase};
use sudoku_autoplay::capture;

/// `[[shot]]` of the annotations file.
#[derive(Deserialize)]
struct Shot {
    file: String,
    digits: [[u32; 4]; 9],
    erase: Annotated,
}

/// The erase key's rectangle, or `"none"`.
#[derive(Deserialize)]
#[serde(untagged)]
enum Annotated {
    Key([u32; 4]),
    None(#[allow(dead_code)] String),
}

#[derive(Deserialize)]
struct Annotations {
    shot: Vec<Shot>,
}

fn inside([x, y]: [u32; 2], r: [u32; 4]) -> bool {
    x >= r[0] && x < r[2] && y >= r[1] && y < r[3]
}

#[test]
#[cfg_attr(
    not(dev_set),
    ignore = "needs ../shared/real-screens beside the checkout (absent at build time; `touch build.rs` after adding it)"
)]
fn calibrate_finds_every_key_on_every_real_screen() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("../shared/real-screens");
    let text = std::fs::read_to_string(root.join("tests/data/real-screens-keys.toml")).unwrap();
    let annotations: Annotations = toml::from_str(&text).unwrap();
    // Every image of the set is annotated, so a new shot is not silently left out.
    let images: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".png") || n.ends_with(".jpg"))
        .collect();
    for image in &images {
        assert!(
            annotations.shot.iter().any(|s| &s.file == image),
            "{image} has no keys in tests/data/real-screens-keys.toml: measure them"
        );
    }
    let mut failures = Vec::new();
    for shot in &annotations.shot {
        let name = &shot.file;
        let img = capture::decode(&std::fs::read(dir.join(name)).unwrap())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let cal = match Calibration::from_frame(&img, &CalibrateOptions::default()) {
            Ok(c) => c.calibration,
            Err(e) => {
                failures.push(format!("{name}: calibrate failed: {e}"));
                continue;
            }
        };
        for (d, (&p, &r)) in cal.keypad.digits.iter().zip(&shot.digits).enumerate() {
            if !inside(p, r) {
                failures.push(format!(
                    "{name}: key {} found at {p:?}, outside the key {r:?}",
                    d + 1
                ));
            }
        }
        match (&shot.erase, cal.keypad.erase) {
            (Annotated::Key(r), Erase::Key(p)) if inside(p, *r) => {}
            (Annotated::Key(r), found) => {
                failures.push(format!("{name}: erase {found:?}, the erase key is {r:?}"))
            }
            (Annotated::None(_), Erase::Toggle) => {}
            (Annotated::None(_), found) => failures.push(format!(
                "{name}: erase {found:?}, but the app has no erase key"
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures over {} real screens:\n{}",
        failures.len(),
        annotations.shot.len(),
        failures.join("\n")
    );
    eprintln!(
        "calibrate found every key on {} real screens",
        annotations.shot.len()
    );
}
