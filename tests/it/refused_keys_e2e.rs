//! End to end through the binary: a phone that refuses input injected from its shell but whose
//! touch panel the shell may write (Android 9 and older with `--inject-denied`): raw taps land,
//! while `input keyevent` and `input swipe` print a `SecurityException`. A popup that only
//! BACK closes goes by the navigation bar's back button, touched; a plain lock screen by a
//! swipe dragged on the touch panel; where nothing on the screen does what BACK does (a phone
//! whose window list names no navigation bar: hardware keys), the run stops naming the setting
//! that lets the shell inject input.

use crate::common::{AdbServer, Out, autoplay_through, run_with_timeout};
use autoplay_sim::app::hazards::LockScreen;
use autoplay_sim::{SimConfig, SimHandle, profile, spawn};
use std::path::Path;
use std::time::Duration;

/// The words of the setting a refusing phone needs (`src/cli/refusal.rs`).
const SETTING: &str = "USB debugging (Security settings)";

/// A refusing phone of `profile`, changed by `change`.
fn refusing(profile: &str, change: impl FnOnce(&mut SimConfig)) -> SimHandle {
    let mut c = SimConfig::new(profile::profile(profile).unwrap().clone());
    c.inject_denied = true;
    change(&mut c);
    spawn(c).unwrap()
}

/// `autoplay --level LEVEL` on `sim` through a private adb server, runs into `data`.
fn play_level(sim: &SimHandle, data: &Path, level: u32) -> Out {
    let adb = AdbServer::start();
    adb.connect(&sim.serial());
    let level = level.to_string();
    let cmd = autoplay_through(&adb, data, &["-s", &sim.serial(), "--level", &level]);
    run_with_timeout(cmd, b"", Duration::from_secs(120))
}

#[test]
fn a_popup_that_needs_back_is_closed_by_the_navigation_bars_back_button() {
    // The case: `--profile budget --inject-denied --popup-after 5`, level 5 (it
    // stopped with "BACK did not bring the board back").
    let data = tempfile::tempdir().unwrap();
    let sim = refusing("budget", |c| c.app.popup_after = Some(5));
    let out = play_level(&sim, data.path(), 5);
    let state = sim.dumpsys();
    let said = format!("{}\n{}\n{state}", out.text(), out.stderr);
    assert_eq!(out.code(), 0, "{said}");
    assert_eq!(state["solved"], true, "{said}");
    assert_eq!(state["level"], 5, "{said}");
    assert!(
        state["swallowed_taps"].as_u64().unwrap() > 0,
        "the popup showed: {said}"
    );
}

#[test]
fn a_lock_screen_is_swiped_away_on_the_touch_panel() {
    // The case: `--profile small --inject-denied --screen-off-after 4 --lock-screen
    // swipe`, level 32 (it stopped with "board not visible"). The display goes off before the
    // run starts here: the run wakes it and must swipe the lock screen away.
    let data = tempfile::tempdir().unwrap();
    let sim = refusing("small", |c| {
        c.app.hazards.screen_off_after = Some(Duration::from_secs(1));
        c.app.hazards.lock_screen = LockScreen::Swipe;
    });
    // (The sim lets its time pass at its next command: the run's first finds the display off.)
    std::thread::sleep(Duration::from_millis(1500));
    let out = play_level(&sim, data.path(), 32);
    let state = sim.dumpsys();
    let said = format!("{}\n{}\n{state}", out.text(), out.stderr);
    assert_eq!(out.code(), 0, "{said}");
    assert_eq!(state["solved"], true, "{said}");
    assert_eq!(state["level"], 32, "{said}");
    assert!(state["screen_offs"].as_u64().unwrap() >= 1, "{said}");
    // The run's only swipe is the one that took the lock screen away.
    assert!(state["swipes"].as_u64().unwrap() >= 1, "{said}");
    assert_eq!(state["keyguard"], false, "{said}");
}

#[test]
fn where_nothing_presses_back_the_stop_names_the_setting() {
    // The same popup on a phone whose window list names no navigation bar (hardware keys, as
    // Android 4.1's sample has it): no touch presses BACK, and the popup has no button.
    let windows = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/android/dumpsys-window/jellybean-sampleui-windows.txt");
    let data = tempfile::tempdir().unwrap();
    let sim = refusing("budget", |c| {
        c.app.popup_after = Some(5);
        c.shell_outputs = vec![(
            "dumpsys window windows".into(),
            std::fs::read(&windows).unwrap(),
        )];
    });
    let out = play_level(&sim, data.path(), 5);
    let state = sim.dumpsys();
    let said = format!("{}\n{}\n{state}", out.text(), out.stderr);
    assert_eq!(out.code(), 1, "{said}");
    assert_eq!(state["screen"], "popup", "{said}");
    assert!(out.stderr.contains(SETTING), "{said}");
    assert!(out.stderr.contains("refuses keys"), "{said}");
}
