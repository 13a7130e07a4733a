//! A phone whose density was overridden: `wm density` prints `Physical density: 420` and then
//! `Override density: 480` (AOSP's `WindowManagerShellCommand`), and the density Android
//! applies, 480, is what `autoplay devices`, `autoplay doctor` and `autoplay calibrate` show,
//! all from one parser (`device::android`).

use crate::common::{AdbServer, autoplay_command, run_with_timeout};
use autoplay_sim::app::{ACTIVITY, PACKAGE};
use autoplay_sim::{SimConfig, profile, spawn};
use std::time::Duration;
use sudoku_autoplay::calibration::Calibration;

#[test]
fn an_overridden_density_is_the_one_applied_everywhere() {
    let mut c = SimConfig::new(profile::profile("pixel").unwrap().clone());
    c.shell_outputs = vec![(
        "wm density".to_string(),
        b"Physical density: 420\nOverride density: 480\n".to_vec(),
    )];
    let sim = spawn(c).unwrap();
    let adb = AdbServer::start();
    adb.connect(&sim.serial());
    let port = adb.addr().port().to_string();
    let cals = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let mut cmd = autoplay_command();
        cmd.args(args).args(["-P", &port]);
        let out = run_with_timeout(cmd, b"", Duration::from_secs(90));
        assert_eq!(out.code(), 0, "{args:?}: {}\n{}", out.text(), out.stderr);
        out.text()
    };

    let devices = run(&["devices"]);
    let line = devices
        .lines()
        .find(|l| l.starts_with(&sim.serial()))
        .unwrap_or_else(|| panic!("{devices}"));
    assert!(line.contains("@480dpi"), "{devices}");
    assert!(!devices.contains("Override"), "{devices}");

    let doctor = run(&["doctor", "--json", "-s", &sim.serial()]);
    let report: serde_json::Value = serde_json::from_str(&doctor).unwrap();
    assert_eq!(report["screen"]["density"], 480, "{report}");

    // The game screen, for calibrate to find the board on.
    let open = format!("am start -n {PACKAGE}/{ACTIVITY} --ei level 1");
    adb.adb(&["-s", &sim.serial(), "shell", &open]);
    let file = cals.path().join("phone.toml");
    let file_arg = file.to_str().unwrap();
    run(&[
        "calibrate",
        "-s",
        &sim.serial(),
        "--no-probe",
        "--out",
        file_arg,
    ]);
    let cal = Calibration::load(&file).unwrap();
    assert_eq!(cal.device.density, Some(480));
}
