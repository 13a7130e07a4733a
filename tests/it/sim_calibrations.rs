//! The calibrations shipped for the simulated phone (`calibration/sim-*.toml`) are what
//! `autoplay calibrate` makes from the phone's own game screen, so they cannot go stale.
//! Regenerate with `cargo test --test it -- --ignored sim_calibrations::`.

use autoplay_sim::app::{ACTIVITY, AppOptions, KeypadStyle, PACKAGE, Phone};
use autoplay_sim::profile::PROFILES;
use std::path::PathBuf;
use sudoku_autoplay::calibration::{CalibrateOptions, Calibration, Erase, Navigation};

fn calibrations() -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for profile in PROFILES {
        for keypad in [KeypadStyle::Row, KeypadStyle::TwoRows] {
            let mut phone = Phone::new(
                profile.clone(),
                AppOptions {
                    keypad,
                    ..AppOptions::default()
                },
            );
            phone.start_level(1).expect("level 1 exists");
            let erase = phone.layout().erase.center();
            let options = CalibrateOptions {
                erase: Some(Erase::Key([erase.0 as u32, erase.1 as u32])),
                model: Some(profile.model.to_string()),
                density: Some(profile.density),
                navigation: Some(Navigation::AmStart {
                    command: format!("am start -n {PACKAGE}/{ACTIVITY} --ei level {{level}}"),
                }),
                ..CalibrateOptions::default()
            };
            let cal = Calibration::from_frame(&phone.screenshot(), &options)
                .unwrap_or_else(|e| panic!("{}: {e}", profile.name))
                .calibration;
            let name = if keypad == KeypadStyle::Row {
                format!("sim-{}.toml", profile.name)
            } else {
                format!("sim-{}-{}.toml", profile.name, keypad.name())
            };
            let text = format!(
                "# The simulated phone's `{}` profile ({}x{}), {} keypad. Made by `autoplay calibrate`;\n\
                 # regenerate with `cargo test --test it -- --ignored sim_calibrations::`.\n{}",
                profile.name,
                profile.width,
                profile.height,
                if keypad == KeypadStyle::Row {
                    "one-row"
                } else {
                    "two-row"
                },
                cal.to_toml()
            );
            out.push((crate::common::sim_calibrations().join(name), text));
        }
    }
    out
}

#[test]
fn shipped_calibrations_are_current() {
    for (path, text) in calibrations() {
        let shipped = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (regenerate: cargo test --test it -- --ignored sim_calibrations::)",
                path.display()
            )
        });
        assert!(
            shipped == text,
            "{} is stale: regenerate with `cargo test --test it -- --ignored sim_calibrations::`",
            path.display()
        );
        Calibration::load(&path).expect("shipped calibration parses");
    }
}

#[test]
#[ignore = "writes calibration/sim-*.toml"]
fn regenerate() {
    for (path, text) in calibrations() {
        std::fs::write(&path, text).unwrap();
    }
}
