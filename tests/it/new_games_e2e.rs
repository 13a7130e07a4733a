//! An app without level numbers and with ads (`autoplay sim --new-games --ads`), end to end
//! through the real adb server as a user meets it: a game opened by its words, `autoplay
//! calibrate` with no hint finding the way to new games, then `--new-game hard --games 3`.

use crate::common::{AdbServer, autoplay_command, run_with_timeout};
use autoplay_sim::{SimConfig, profile, spawn};
use std::time::Duration;
use sudoku_autoplay::session::read_runs;

/// Taps the button `words` says, found in `uiautomator dump` as a user's script finds it.
fn tap_words(adb: &AdbServer, serial: &str, words: &str) {
    let dump = adb
        .on(serial, &["shell", "uiautomator dump /dev/tty"])
        .text();
    let node = dump
        .split("<node")
        .find(|n| n.contains(&format!("text=\"{words}\"")))
        .unwrap_or_else(|| panic!("no {words:?} in {dump}"));
    let bounds = node.split("bounds=\"").nth(1).unwrap_or("");
    let n: Vec<u32> = bounds
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|t| t.parse().ok())
        .take(4)
        .collect();
    let (x, y) = ((n[0] + n[2]) / 2, (n[1] + n[3]) / 2);
    adb.on(serial, &["shell", &format!("input tap {x} {y}")]);
    std::thread::sleep(Duration::from_millis(300));
}

#[test]
fn calibrate_finds_the_way_to_new_games_and_three_hard_games_are_played_past_the_ads() {
    let mut c = SimConfig::new(profile::profile("pixel").unwrap().clone());
    c.app.new_games = true;
    c.app.ads = true;
    let sim = spawn(c).unwrap();
    let adb = AdbServer::start();
    let serial = sim.serial();
    adb.connect(&serial);
    tap_words(&adb, &serial, "New Game");
    tap_words(&adb, &serial, "Easy");
    let dir = tempfile::tempdir().unwrap();
    let (cal, data) = (dir.path().join("app.toml"), dir.path().join("data"));
    let port = adb.port.to_string();
    let mut cmd = autoplay_command();
    cmd.args(["calibrate", "-s", &serial, "-P", &port, "--out"])
        .arg(&cal);
    let out = run_with_timeout(cmd, b"", Duration::from_secs(120));
    assert_eq!(out.code(), 0, "{}\n{}", out.text(), out.stderr);
    assert!(
        out.text().contains("found the way to new games"),
        "{}",
        out.text()
    );
    assert_eq!(
        sim.dumpsys()["difficulty"],
        "Easy",
        "the game it found goes on"
    );
    let mut cmd = autoplay_command();
    cmd.args([
        "--new-game",
        "hard",
        "--games",
        "3",
        "--pace",
        "0",
        "--strategy",
        "fast",
    ])
    .args(["-q", "-s", &serial, "-P", &port, "--calibration"])
    .arg(&cal)
    .arg("--data-dir")
    .arg(&data);
    let out = run_with_timeout(cmd, b"", Duration::from_secs(300));
    assert_eq!(out.code(), 0, "{}\n{}", out.text(), out.stderr);
    let state = sim.dumpsys();
    assert_eq!(
        (
            &state["games_won"],
            &state["difficulty"],
            &state["ad_opens"]
        ),
        (&3.into(), &"Hard".into(), &0.into()),
        "{state}"
    );
    three_hard_games_recorded(&data);
}

/// runs.csv's last three rows: solved, Hard, three different puzzles.
fn three_hard_games_recorded(data: &std::path::Path) {
    let runs = read_runs(&data.join("runs.csv")).unwrap();
    let last: Vec<_> = runs.iter().rev().take(3).collect();
    assert!(
        last.iter()
            .all(|r| r.result == "solved" && r.difficulty == "Hard"),
        "{runs:?}"
    );
    let puzzles: std::collections::BTreeSet<&str> =
        last.iter().map(|r| r.puzzle.as_str()).collect();
    assert_eq!(puzzles.len(), 3, "three different puzzles: {runs:?}");
}
