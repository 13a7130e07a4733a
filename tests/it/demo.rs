//! `autoplay demo` as a user runs it: the simulated phone started in-process, played through a
//! private real adb server, or straight over the ADB transport when `adb` is not installed.
//! The demo prints what the phone itself says (`dumpsys sudoku`): solved, and the taps it got.

use crate::common::{AdbServer, Out, free_port, run_with_timeout};
use std::time::Duration;

/// `autoplay demo` on level 3 with the built-in calibration (no calibration directory), run in a
/// temporary directory that is also the user's home (data in its `.local/share/sudoku-autoplay`).
fn demo(port: u16, extra: &[&str], path: Option<&str>) -> (Out, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = crate::common::autoplay_in_home(dir.path());
    cmd.current_dir(dir.path())
        .args(["demo", "--level", "3", "--pace", "0", "--quiet", "-P"])
        .arg(port.to_string())
        .args(extra);
    if let Some(path) = path {
        cmd.env("PATH", path);
    }
    (run_with_timeout(cmd, b"", Duration::from_secs(120)), dir)
}

/// The demo's closing lines: the counts of the search (level 3 with rowmajor) and the phone's word.
fn assert_solved(out: &Out) {
    let text = out.text();
    assert_eq!(out.code(), 0, "{text}\n{}", out.stderr);
    assert!(text.contains("86 placements, 50 undos, 87 calls"), "{text}");
    assert!(text.contains("screen \"complete\", solved true"), "{text}");
}

#[test]
fn demo_without_adb_speaks_the_transport_directly() {
    // No `adb` on PATH and no server on the port: the demo cannot use a server.
    let (out, dir) = demo(free_port(), &[], Some("/nonexistent"));
    assert_solved(&out);
    assert!(
        out.stderr
            .contains("`adb` is not installed, so talking to it directly"),
        "{}",
        out.stderr
    );
    // Without -v (and RUST_LOG), no log lines.
    assert_eq!(log_lines(&out.stderr), Vec::<&str>::new(), "{}", out.stderr);
    // The run is logged like any other, in the user's data directory.
    let data = dir.path().join(".local/share/sudoku-autoplay");
    let runs = std::fs::read_to_string(data.join("runs.csv")).unwrap();
    assert!(
        runs.lines().count() == 2 && runs.contains(",solved"),
        "{runs}"
    );
}

#[test]
fn demo_through_the_adb_server_leaves_it_as_it_was() {
    let adb = AdbServer::start();
    let (out, _dir) = demo(adb.port, &[], None);
    assert_solved(&out);
    assert!(!out.stderr.contains("directly"), "{}", out.stderr);
    // The phone was disconnected again: the server lists nothing.
    let devices = adb.adb(&["devices"]).text();
    assert_eq!(
        devices.lines().filter(|l| l.contains(':')).count(),
        0,
        "{devices}"
    );

    // `--direct` skips the server even though it runs.
    let (out, _dir) = demo(adb.port, &["--direct"], None);
    assert_solved(&out);
    assert!(out.stderr.contains("no adb server"), "{}", out.stderr);
}

/// The lines of stderr that are log events (`TIME LEVEL target: message fields`).
fn log_lines(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .nth(1)
                .is_some_and(|level| ["TRACE", "DEBUG", "INFO", "WARN", "ERROR"].contains(&level))
        })
        .collect()
}

#[test]
fn demo_with_v_logs_the_tap_channel_choice() {
    let (out, _dir) = demo(free_port(), &["--direct", "-v"], None);
    assert_solved(&out);
    let logs = log_lines(&out.stderr);
    // The channel choice is a debug event with its fields; the notes are info events (with
    // --quiet, the "tap channel:" line itself is not printed).
    assert!(
        logs.iter().any(|l| l
            .contains(" DEBUG sudoku_autoplay::device::tap::choose: tap channel chosen")
            && l.contains("channel=Inject")
            && l.contains("why=inject: ")
            && l.contains("raw is not possible on Android 14")),
        "{}",
        out.stderr
    );
    assert!(
        logs.iter()
            .any(|l| l.contains(" INFO ") && l.contains("plan steps=136")),
        "{}",
        out.stderr
    );
    assert!(
        !out.stderr.lines().any(|l| l.starts_with("tap channel: ")),
        "{}",
        out.stderr
    );
    // Trace events need -vv.
    assert!(
        !logs.iter().any(|l| l.contains(" TRACE ")),
        "{}",
        out.stderr
    );
}
