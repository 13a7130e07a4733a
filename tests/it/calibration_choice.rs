//! End to end through a private real adb server: a run picks its calibration once, and opens
//! the game the picked calibration's own way (issue 47). Each case is one the first candidate's
//! navigation (by file name) would have opened wrong: an activity that does not exist.

use crate::common::{AdbServer, play_config, sim_calibrations};
use autoplay_sim::app::hazards::LockScreen;
use autoplay_sim::app::{ACTIVITY, PACKAGE};
use autoplay_sim::{SimConfig, SimHandle, profile, spawn};
use std::path::Path;
use sudoku_autoplay::calibration::lookup::SearchPath;
use sudoku_autoplay::device::{Server, select};
use sudoku_autoplay::level::{Note, PlayReport, Update, play};
use sudoku_autoplay::session::SessionMeta;

/// The shipped calibration `name` (of `calibration/`), its text.
fn shipped(name: &str) -> String {
    std::fs::read_to_string(sim_calibrations().join(name)).unwrap()
}

/// `text` made for the app `package` (an `[app]` section before `[board]`).
fn for_app(text: &str, package: &str) -> String {
    text.replacen(
        "\n[board]",
        &format!("\n[app]\npackage = \"{package}\"\n\n[board]"),
        1,
    )
}

/// Opens level 1 on `sim` the way a person would before a run (the app in front, its game
/// screen showing).
fn open_level_one(adb: &AdbServer, sim: &SimHandle) {
    let open = format!("am start -n {PACKAGE}/{ACTIVITY} --ei level 1");
    adb.on(&sim.serial(), &["shell", &open]);
}

/// Plays level 2 on `sim` with the calibrations in `dir`: the report, and what was said of the
/// calibration picked.
fn play_level_two(adb: &AdbServer, dir: &Path, data: &Path) -> (PlayReport, Vec<String>) {
    let device = select(&Server::new(adb.addr()), None).unwrap();
    let cfg = sudoku_autoplay::level::PlayConfig {
        calibration_dirs: SearchPath::from(dir),
        ..play_config(data, 2)
    };
    let mut said = Vec::new();
    let report = play(&device, &cfg, &mut |u| {
        if let Update::Note(Note::Calibration { why, .. }) = u {
            said.push(why.clone());
        }
    })
    .unwrap_or_else(|e| panic!("{e:#}"));
    (report, said)
}

/// The level solved on the phone, played with the calibration file `name`.
fn assert_solved_with(sim: &SimHandle, report: &PlayReport, name: &str) {
    let state = sim.dumpsys();
    assert_eq!(state["solved"], true, "{state}");
    assert_eq!(state["level"], 2, "{state}");
    let meta = SessionMeta::load(&report.session_dir).unwrap();
    assert!(meta.calibration.ends_with(name), "{meta:?}");
}

/// Two calibrations of one app for one screen that open levels each their own way (the first
/// by name names an activity that does not exist) and differ in their keypads: the pick is made
/// before opening, on the game screen as it is (its keypad is the second's), said once, and the
/// level is opened the picked calibration's way.
#[test]
fn calibrations_that_open_levels_differently_are_picked_between_before_opening() {
    let (dir, data) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let other_way = shipped("sim-pixel-two-rows.toml").replace(ACTIVITY, ".Missing");
    std::fs::write(dir.path().join("a-two-rows.toml"), other_way).unwrap();
    std::fs::write(dir.path().join("b-row.toml"), shipped("sim-pixel.toml")).unwrap();
    let adb = AdbServer::start();
    let sim = spawn(SimConfig::new(profile::profile("pixel").unwrap().clone())).unwrap();
    adb.connect(&sim.serial());
    open_level_one(&adb, &sim);

    let (report, said) = play_level_two(&adb, dir.path(), data.path());
    assert_solved_with(&sim, &report, "b-row.toml");
    assert_eq!(said.len(), 1, "one pick, said once: {said:?}");
    assert!(
        said[0].contains("its keypad is where the screen shows one")
            && said[0].contains("a-two-rows.toml (keypad "),
        "{}",
        said[0]
    );
}

/// A run started on a dark, locked screen: the screen is woken and unlocked before the
/// calibrations are looked up, so the app behind the lock screen is known, and the calibration
/// made for another app (first by name, its navigation opening that app) takes no part.
#[test]
fn a_run_started_on_a_locked_screen_picks_for_the_app_behind_it() {
    let (dir, data) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let other = "com.example.other";
    let other_app = for_app(&shipped("sim-pixel.toml"), other).replace(PACKAGE, other);
    std::fs::write(dir.path().join("a-other.toml"), other_app).unwrap();
    let this_app = for_app(&shipped("sim-pixel.toml"), PACKAGE);
    std::fs::write(dir.path().join("b-this.toml"), this_app).unwrap();
    let adb = AdbServer::start();
    let mut c = SimConfig::new(profile::profile("pixel").unwrap().clone());
    c.app.hazards.lock_screen = LockScreen::Swipe;
    let sim = spawn(c).unwrap();
    adb.connect(&sim.serial());
    open_level_one(&adb, &sim);
    adb.on(&sim.serial(), &["shell", "input keyevent KEYCODE_SLEEP"]);
    assert_eq!(sim.dumpsys()["keyguard"], true, "locked before the run");

    let (report, said) = play_level_two(&adb, dir.path(), data.path());
    assert_solved_with(&sim, &report, "b-this.toml");
    let why = said.join("\n");
    assert!(
        why.contains("a-other.toml (made for com.example.other, not org.autoplay.sudoku)"),
        "{why}"
    );
}
