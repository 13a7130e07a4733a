//! Real phones' outputs (`tests/data/android/`) replayed through the simulated phone
//! (`--shell-output PREFIX=FILE`: the phone answers that command with the file's bytes) to
//! `autoplay doctor --json`, whose conclusions must match each file's recorded truth.

use crate::common::{AdbServer, autoplay_command, free_port, run_with_timeout};
use autoplay_sim::{SimConfig, profile, spawn};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/android")
}

/// The shell command a corpus folder's files answer.
fn prefix(file: &str) -> &'static str {
    match file.split('/').next().unwrap_or("") {
        "getevent" => "getevent",
        "dumpsys-input" => "dumpsys input",
        "dumpsys-power" => "dumpsys power",
        "dumpsys-window" => "dumpsys window",
        "dumpsys-display" => "dumpsys display",
        "wm-size" => "wm size",
        "getprop" => "getprop",
        "screencap" => "screencap",
        "uiautomator" => "uiautomator",
        "monkey" => "monkey",
        "input-errors" if file.contains("sendevent") => "sendevent",
        "input-errors" if file.contains("dev-input") => "ls",
        "input-errors" => "input",
        other => panic!("corpus folder {other} has no command"),
    }
}

fn doctor(adb: &AdbServer, serial: &str) -> Value {
    let mut cmd = autoplay_command();
    cmd.args(["doctor", "--json", "-s", serial, "-P"])
        .arg(adb.addr().port().to_string());
    let out = run_with_timeout(cmd, b"", Duration::from_secs(60));
    assert_eq!(
        out.code(),
        0,
        "doctor on {serial}: {}\n{}",
        out.text(),
        out.stderr
    );
    serde_json::from_str(&out.text()).unwrap_or_else(|e| panic!("{e}: {}", out.text()))
}

/// Whether the doctor's report says what the truth field says.
fn check(file: &str, report: &Value, key: &str, truth: &toml::Value) {
    let got = |path: &str| report.pointer(path).cloned().unwrap_or(Value::Null);
    let channels = report["channels"].as_array().unwrap();
    let channel = |name: &str| {
        let c = channels.iter().find(|c| c["channel"] == name);
        c.unwrap_or_else(|| panic!("{file}: no {name} channel"))["possible"] == true
    };
    let want_str = || Value::from(truth.as_str().unwrap());
    match key {
        "panel" => assert_eq!(
            got("/touch/panel"),
            want_str(),
            "{file}: {}",
            got("/touch/why")
        ),
        "protocol" => assert_eq!(got("/touch/protocol"), want_str(), "{file}"),
        "max_x" => assert_eq!(got("/touch/max_x"), truth.as_integer().unwrap(), "{file}"),
        "max_y" => assert_eq!(got("/touch/max_y"), truth.as_integer().unwrap(), "{file}"),
        "wakefulness" => assert_eq!(
            got("/state/screen"),
            Value::from(truth.as_str().unwrap().to_lowercase()),
            "{file}"
        ),
        "focus" => match truth.as_str().unwrap() {
            // No app in front: no focus, or a system window's (`NotificationShade`).
            "" => assert!(
                got("/state/focus")
                    .as_str()
                    .is_none_or(|f| !f.contains('/')),
                "{file}: {}",
                got("/state/focus")
            ),
            want => assert_eq!(got("/state/focus"), want, "{file}"),
        },
        "size" => {
            let size: Vec<i64> = truth
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|v| v.as_integer())
                .collect();
            let got_size = [got("/screen/width"), got("/screen/height")];
            assert_eq!(got_size, [size[0], size[1]], "{file}");
        }
        "abi" => assert_eq!(got("/abi/abi"), want_str(), "{file}"),
        "uiautomator" => assert_eq!(got("/uiautomator/status"), want_str(), "{file}"),
        "live_queued" => assert_eq!(got("/input/queued"), truth.as_integer().unwrap(), "{file}"),
        "input_denied" => {
            assert!(!channel("input") && !channel("inject"), "{file}: {report}");
        }
        "sendevent_denied" => assert!(!channel("events"), "{file}: {report}"),
        "starting" => {
            let problem = got("/screen/problem");
            let said = problem.as_str().unwrap_or_default();
            assert!(said.contains("still starting"), "{file}: {problem}");
        }
        _ => unreachable!(),
    }
}

const TRUTHS: [&str; 14] = [
    "panel",
    "protocol",
    "max_x",
    "max_y",
    "wakefulness",
    "focus",
    "size",
    "abi",
    "uiautomator",
    "live_queued",
    "input_denied",
    "sendevent_denied",
    "starting",
    // Checked by `real_getevent_outputs_give_their_panel`'s absence: not decidable.
    "panel_by_reporter",
];

#[test]
fn every_real_output_through_the_sim_to_doctor() {
    let manifest: toml::Table =
        toml::from_str(&std::fs::read_to_string(corpus().join("SOURCES.toml")).unwrap()).unwrap();
    let outputs = manifest["output"].as_array().unwrap();
    let adb = AdbServer::start();
    let mut checked = 0;
    for entry in outputs {
        let file = entry["file"].as_str().unwrap();
        let bytes = std::fs::read(corpus().join(file)).unwrap();
        // A phone whose panel the shell may write (so the events channel is tried), which
        // answers the file's command with the file.
        let mut c = SimConfig::new(profile::profile("budget").unwrap().clone());
        // The other source of the touch panel says nothing (as on a phone that said only this).
        let quiet = match prefix(file) {
            "getevent" => "dumpsys input",
            _ => "getevent",
        };
        c.shell_outputs = vec![
            (prefix(file).to_string(), bytes),
            (quiet.to_string(), Vec::new()),
        ];
        let sim = spawn(c).unwrap();
        adb.connect(&sim.serial());
        let report = doctor(&adb, &sim.serial());
        for key in TRUTHS {
            if let Some(truth) = entry.get(key)
                && key != "panel_by_reporter"
            {
                check(file, &report, key, truth);
                checked += 1;
            }
        }
        adb.adb(&["disconnect", &sim.serial()]);
    }
    assert!(outputs.len() >= 40, "{}", outputs.len());
    assert!(checked >= 35, "only {checked} truths checked");
}

/// A running `autoplay sim` process, killed when dropped.
struct SimProcess(Child);

impl Drop for SimProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The command line's `--shell-output` and `--quirk` reach the phone.
#[test]
fn sim_command_line_replays_a_bug_report() {
    let port = free_port();
    let file = corpus().join("getevent/emulator-11-virtio-multi-touch-getevent.txt");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_autoplay"));
    cmd.args(["sim", "--listen", &format!("127.0.0.1:{port}")])
        .args([
            "--profile",
            "pixel",
            "--quirk",
            "samsung-power",
            "--shell-output",
        ])
        .arg(format!("getevent={}", file.display()))
        .stdout(Stdio::piped());
    let sim = SimProcess(cmd.spawn().unwrap());
    let serial = format!("127.0.0.1:{port}");
    let adb = AdbServer::start();
    adb.connect(&serial);
    let report = doctor(&adb, &serial);
    assert_eq!(report["touch"]["panel"], "/dev/input/event1", "{report}");
    assert_eq!(report["state"]["screen"], "awake");
    let power = adb.on(&serial, &["shell", "dumpsys", "power"]).text();
    assert!(power.contains("getWakefulnessLocked()=Awake"), "{power}");
    drop(sim);
    // A bad PREFIX=FILE is refused with what to write.
    let mut bad = autoplay_command();
    bad.args(["sim", "--shell-output", "getevent"]);
    let out = run_with_timeout(bad, b"", Duration::from_secs(10));
    assert_ne!(out.code(), 0);
    assert!(out.stderr.contains("PREFIX=FILE"), "{}", out.stderr);
}
