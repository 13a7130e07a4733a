//! End to end: the player solves levels on the simulated phone through a private real adb
//! server; the phone's own state (`dumpsys sudoku`) and the session journal must agree.

mod common;

use common::{AdbServer, run_with_timeout};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use sudoku_autoplay::board::Board;
use sudoku_autoplay::device::input::InputBackend;
use sudoku_autoplay::device::{Device, Server, select};
use sudoku_autoplay::play::run::{PlayConfig, PlayReport, play};
use sudoku_autoplay::session::{JournalLine, SessionMeta, read_journal, read_runs};
use sudoku_autoplay::sim::app::{AppOptions, Keypad, Theme};
use sudoku_autoplay::sim::{SimConfig, SimHandle, profile, spawn};
use sudoku_autoplay::solver::{Options, Strategy, search};

fn calibration_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("calibration")
}

fn sim(name: &str, theme: Theme, keypad: Keypad, drop_taps: f64) -> SimHandle {
    let mut c = SimConfig::new(profile::profile(name).unwrap().clone());
    c.app = AppOptions {
        theme,
        keypad,
        drop_taps,
        seed: 7,
        ..AppOptions::default()
    };
    spawn(c).unwrap()
}

/// A private adb server connected to the phone, and the phone as the player selects it.
fn connect(sim: &SimHandle) -> (AdbServer, Device) {
    let adb = AdbServer::start();
    adb.connect(&sim.serial());
    let device = select(&Server::new(adb.addr()), None).unwrap();
    (adb, device)
}

fn config(data: &Path, level: u32, strategy: Strategy) -> PlayConfig {
    PlayConfig {
        level: Some(level),
        strategy,
        calibration: None,
        calibration_dir: calibration_dir(),
        input: None,
        pace: Duration::ZERO,
        max_visible_steps: None,
        budget: None,
        max_steps: None,
        verify_taps: 400,
        verify_interval: Duration::from_secs(30),
        data_dir: data.to_path_buf(),
        quiet: true,
    }
}

/// Checks the phone, the journal and the counts after a play.
fn check(sim: &SimHandle, report: &PlayReport, strategy: Strategy) {
    let state = sim.dumpsys();
    assert_eq!(state["solved"], true, "{state}");
    assert_eq!(state["screen"], "complete", "{state}");
    assert_eq!(state["board"].as_str().unwrap(), report.solution.to_line());

    // The taps the phone received are the taps the journal recorded.
    let journal = read_journal(&report.session_dir.join("journal.jsonl")).unwrap();
    assert_eq!(journal.torn_line, None);
    let journal_taps: usize = journal
        .lines
        .iter()
        .map(|l| match l {
            JournalLine::Event { taps, .. } | JournalLine::Write { taps, .. } => taps.len(),
            _ => 0,
        })
        .sum();
    // ... besides the few taps on a given cell that measured the channel's rate for the plan.
    let received = state["taps"].as_u64().unwrap();
    assert_eq!(received, report.replay.taps + report.warmup_taps);
    let plan = report.plan.as_ref().expect("a plan before replaying");
    assert_eq!(plan.steps, report.replay.events_shown);
    assert!(plan.rate > 0.0 && report.warmup_taps >= 3, "{plan:?}");
    assert_eq!(journal_taps as u64, report.replay.taps);
    assert!(
        matches!(journal.lines.last(), Some(JournalLine::End { result, .. }) if result == "solved")
    );

    // The counts are those of `autoplay solve --strategy S` on the same givens.
    let meta = SessionMeta::load(&report.session_dir).unwrap();
    let givens = Board::parse_line(&meta.givens).unwrap();
    let again = search(strategy, &givens, &Options::default(), &mut ());
    assert_eq!(
        (again.stats.placements, again.stats.undos),
        (report.stats.placements, report.stats.undos)
    );
    assert_eq!(
        report.replay.events_shown,
        report.stats.placements + report.stats.undos,
        "every event was shown"
    );
}

#[test]
fn plays_levels_on_two_profiles_both_themes_and_keypads() {
    let data = tempfile::tempdir().unwrap();
    let cases = [
        ("pixel", Theme::Light, Keypad::Row, 1, Strategy::RowMajor),
        ("pixel", Theme::Dark, Keypad::TwoRows, 5, Strategy::Static),
        ("budget", Theme::Dark, Keypad::TwoRows, 2, Strategy::Mrv),
        ("budget", Theme::Light, Keypad::Row, 4, Strategy::RowMajor),
        ("flagship", Theme::Light, Keypad::Row, 3, Strategy::Mrv),
    ];
    for (name, theme, keypad, level, strategy) in cases {
        let sim = sim(name, theme, keypad, 0.0);
        let (_adb, device) = connect(&sim);
        let report = play(
            &device,
            &config(data.path(), level, strategy),
            &mut |_, _, _| {},
        )
        .unwrap_or_else(|e| panic!("{name} {theme:?} {keypad:?} level {level}: {e:#}"));
        check(&sim, &report, strategy);
        // Raw records where the panel can be written (24-byte records on pixel, 16-byte on the
        // 32-bit budget phone); the flagship denies its panel, so `input tap`.
        let expected_input = if name == "flagship" { "Input" } else { "Raw" };
        assert_eq!(
            format!("{:?}", report.input),
            expected_input,
            "{name}: the fastest channel the phone allows"
        );
    }
    let runs = read_runs(&data.path().join("runs.csv")).unwrap();
    assert_eq!(runs.len(), 5);
    assert!(runs.iter().all(|r| r.result == "solved"));
    assert_eq!(runs[0].calls, runs[0].placements + 1);
}

#[test]
fn dropped_taps_are_repaired_and_counted() {
    let data = tempfile::tempdir().unwrap();
    let sim = sim("pixel", Theme::Light, Keypad::Row, 0.05);
    let (_adb, device) = connect(&sim);
    let mut cfg = config(data.path(), 9, Strategy::RowMajor);
    cfg.verify_taps = 150;
    let report = play(&device, &cfg, &mut |_, _, _| {}).unwrap();
    let state = sim.dumpsys();
    assert_eq!(state["solved"], true, "{state}");
    assert!(state["dropped_taps"].as_u64().unwrap() > 0, "{state}");
    assert!(report.replay.repairs > 0, "{:?}", report.replay);
    let runs = read_runs(&data.path().join("runs.csv")).unwrap();
    assert_eq!(runs[0].repairs, report.replay.repairs);
}

#[test]
fn the_binary_plays_and_logs() {
    let data = tempfile::tempdir().unwrap();
    let sim = sim("pixel", Theme::Light, Keypad::Row, 0.0);
    let (adb, _) = connect(&sim);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_autoplay"));
    cmd.args(["--level", "3", "--pace", "0", "--quiet", "-P"])
        .arg(adb.addr().port().to_string())
        .args(["-s", &sim.serial(), "--calibration-dir"])
        .arg(calibration_dir())
        .arg("--data-dir")
        .arg(data.path());
    let out = run_with_timeout(cmd, b"", Duration::from_secs(120));
    assert_eq!(out.code(), 0, "{}\n{}", out.text(), out.stderr);
    assert!(
        out.text()
            .contains("solved and verified: 86 placements, 50 undos, 87 calls"),
        "{}",
        out.text()
    );
    assert_eq!(sim.dumpsys()["solved"], true);

    let mut stats = Command::new(env!("CARGO_BIN_EXE_autoplay"));
    stats.arg("stats").arg("--data-dir").arg(data.path());
    let out = run_with_timeout(stats, b"", Duration::from_secs(30));
    assert_eq!(out.code(), 0, "{}", out.stderr);
    let table = out.text();
    assert!(
        table
            .lines()
            .any(|l| l.trim_start().starts_with("3  rowmajor") && l.contains("86")),
        "{table}"
    );

    // An unknown serial is an error that lists what is connected.
    let mut bad = Command::new(env!("CARGO_BIN_EXE_autoplay"));
    bad.args([
        "--level",
        "3",
        "-P",
        &adb.addr().port().to_string(),
        "-s",
        "nosuchphone",
    ]);
    let out = run_with_timeout(bad, b"", Duration::from_secs(60));
    assert_eq!(out.code(), 1);
    assert!(
        out.stderr
            .contains("device \"nosuchphone\" not found; connected: 127.0.0.1:"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_device_gone_mid_run_fails_fast_and_resume_finishes() {
    let data = tempfile::tempdir().unwrap();
    let sim = sim("pixel", Theme::Light, Keypad::Row, 0.0);
    let (adb, device) = connect(&sim);
    let cfg = config(data.path(), 11, Strategy::RowMajor);

    // Unplug (adb disconnect) after 150 steps.
    let mut unplugged = None;
    let started = std::time::Instant::now();
    let err = play(&device, &cfg, &mut |done, _, _| {
        if done == 150 && unplugged.is_none() {
            adb.adb(&["disconnect", &sim.serial()]);
            unplugged = Some(std::time::Instant::now());
        }
    })
    .expect_err("the phone went away");
    let gave_up = unplugged.expect("unplugged").elapsed();
    assert!(
        gave_up < Duration::from_secs(10),
        "gave up after {gave_up:?}"
    );
    let msg = format!("{err:#}");
    assert!(msg.contains("session recorded in"), "{msg}");
    let runs = read_runs(&data.path().join("runs.csv")).unwrap();
    assert_eq!(runs[0].result, "failed");
    assert!(started.elapsed() < Duration::from_secs(60));

    // Replug and resume: the journaled work is not replayed again.
    adb.connect(&sim.serial());
    let session = std::fs::read_dir(data.path().join("sessions"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let before = sim.dumpsys()["taps"].as_u64().unwrap();
    let report =
        sudoku_autoplay::play::run::resume(&device, &session, &cfg, &mut |_, _, _| {}).unwrap();
    let state = sim.dumpsys();
    assert_eq!(state["solved"], true, "{state}");
    let total = report.stats.placements + report.stats.undos;
    assert!(
        report.replay.events_shown < total - 100,
        "resumed after the journaled steps: {:?}",
        report.replay
    );
    assert_eq!(state["taps"].as_u64().unwrap() - before, report.replay.taps);
    let runs = read_runs(&data.path().join("runs.csv")).unwrap();
    assert_eq!(runs.last().unwrap().result, "solved");
    let journal = read_journal(&session.join("journal.jsonl")).unwrap();
    let starts = journal
        .lines
        .iter()
        .filter(|l| matches!(l, JournalLine::Start { .. }))
        .count();
    assert_eq!(starts, 2, "a second start line marks the resume");
}

#[test]
fn all_devices_play_at_once() {
    let data = tempfile::tempdir().unwrap();
    let a = sim("pixel", Theme::Light, Keypad::Row, 0.0);
    let b = sim("tablet", Theme::Dark, Keypad::Row, 0.0);
    let adb = AdbServer::start();
    adb.connect(&a.serial());
    adb.connect(&b.serial());
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_autoplay"));
    cmd.args([
        "--all-devices",
        "--level",
        "2",
        "--pace",
        "0",
        "--quiet",
        "-P",
    ])
    .arg(adb.addr().port().to_string())
    .arg("--calibration-dir")
    .arg(calibration_dir())
    .arg("--data-dir")
    .arg(data.path());
    let out = run_with_timeout(cmd, b"", Duration::from_secs(180));
    assert_eq!(out.code(), 0, "{}\n{}", out.text(), out.stderr);
    for s in [&a, &b] {
        assert_eq!(s.dumpsys()["solved"], true);
        assert!(
            out.text()
                .contains(&format!("{}: solved and verified", s.serial())),
            "{}",
            out.text()
        );
    }
    assert_eq!(read_runs(&data.path().join("runs.csv")).unwrap().len(), 2);
}

#[test]
fn watch_plays_unplayed_levels_and_stops_on_ctrl_c() {
    let data = tempfile::tempdir().unwrap();
    let sim = sim("pixel", Theme::Light, Keypad::Row, 0.0);
    let (adb, _) = connect(&sim);
    let mut child = Command::new(env!("CARGO_BIN_EXE_autoplay"))
        .args(["watch", "--levels", "1-2", "--pace", "0", "--quiet", "-P"])
        .arg(adb.addr().port().to_string())
        .arg("--calibration-dir")
        .arg(calibration_dir())
        .arg("--data-dir")
        .arg(data.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let runs_path = data.path().join("runs.csv");
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    while read_runs(&runs_path).map_or(0, |r| r.len()) < 2 {
        assert!(
            std::time::Instant::now() < deadline,
            "watch did not play both levels"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let runs = read_runs(&runs_path).unwrap();
    assert_eq!(
        runs.iter().map(|r| r.level).collect::<Vec<_>>(),
        vec![Some(1), Some(2)]
    );
    assert!(runs.iter().all(|r| r.result == "solved"));
    // Ctrl-C: a clean exit.
    Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let status = common::wait_or_kill(&mut child, Duration::from_secs(20), "autoplay watch");
    assert_eq!(status.code(), Some(0));
}

#[test]
fn a_popup_over_the_board_is_dismissed_with_back() {
    let data = tempfile::tempdir().unwrap();
    let mut c = SimConfig::new(profile::profile("pixel").unwrap().clone());
    c.app.popup_after = Some(120);
    let sim = spawn(c).unwrap();
    let (_adb, device) = connect(&sim);
    let mut cfg = config(data.path(), 9, Strategy::RowMajor);
    cfg.verify_taps = 200;
    let report = play(&device, &cfg, &mut |_, _, _| {}).unwrap();
    let state = sim.dumpsys();
    assert_eq!(state["solved"], true, "{state}");
    assert!(
        state["swallowed_taps"].as_u64().unwrap() > 0,
        "the popup ate taps: {state}"
    );
    assert!(
        report.replay.repairs > 0,
        "the swallowed taps were repaired: {:?}",
        report.replay
    );
}

#[test]
fn the_adb_server_killed_mid_run_gives_a_clear_error() {
    let data = tempfile::tempdir().unwrap();
    let sim = sim("pixel", Theme::Light, Keypad::Row, 0.0);
    let (adb, device) = connect(&sim);
    let cfg = config(data.path(), 11, Strategy::RowMajor);
    let started = std::time::Instant::now();
    let err = play(&device, &cfg, &mut |done, _, _| {
        if done == 100 {
            adb.adb(&["kill-server"]);
        }
    })
    .expect_err("no server, no play");
    let msg = format!("{err:#}");
    assert!(
        started.elapsed() < Duration::from_secs(40),
        "no hang: {:?}",
        started.elapsed()
    );
    // The same sentence wherever the server died, with the command that brings it back.
    let again = format!(
        "the adb server at {} stopped answering: start it again with `adb -P {} start-server`",
        adb.addr(),
        adb.addr().port()
    );
    assert!(msg.contains(&again), "{msg}");
}

#[test]
fn level_grid_navigation_pages_through_the_level_list() {
    use sudoku_autoplay::calibration::{Calibration, Navigation};
    use sudoku_autoplay::sim::app::Phone;
    let data = tempfile::tempdir().unwrap();
    // A calibration whose [navigation] is the level list, measured on the app's home and list screens.
    let pixel = profile::profile("pixel").unwrap().clone();
    let layout = Phone::new(pixel, AppOptions::default()).layout().clone();
    let c = |r: &sudoku_autoplay::sim::app::screens::layout::Rect| {
        let (x, y) = r.center();
        [x as u32, y as u32]
    };
    let first = c(&layout.slots[0]);
    let columns = layout
        .slots
        .iter()
        .filter(|s| s.center().1 == layout.slots[0].center().1)
        .count() as u32;
    let rows = layout.slots.len() as u32 / columns;
    let step = [
        c(&layout.slots[1])[0] - first[0],
        c(&layout.slots[columns as usize])[1] - first[1],
    ];
    let mut cal = Calibration::load(&calibration_dir().join("sim-pixel.toml")).unwrap();
    cal.navigation = Some(Navigation::LevelGrid {
        open: vec![c(&layout.level_list)],
        first,
        step,
        columns,
        rows,
        next_page: Some(c(&layout.next_page)),
    });
    let path = data.path().join("grid.toml");
    std::fs::write(&path, cal.to_toml()).unwrap();

    let sim = sim("pixel", Theme::Light, Keypad::Row, 0.0);
    let (_adb, device) = connect(&sim);
    let level = columns * rows + 3; // on the second page
    let mut cfg = config(data.path(), level, Strategy::Mrv);
    cfg.calibration = Some(path);
    play(&device, &cfg, &mut |_, _, _| {}).unwrap();
    let state = sim.dumpsys();
    assert_eq!(state["level"], level, "{state}");
    assert_eq!(state["solved"], true, "{state}");
}

#[test]
fn slow_input_loses_no_taps() {
    let data = tempfile::tempdir().unwrap();
    let mut c = SimConfig::new(profile::profile("pixel").unwrap().clone());
    c.input_latency = Duration::from_millis(200);
    let sim = spawn(c).unwrap();
    let (_adb, device) = connect(&sim);
    let mut cfg = config(data.path(), 1, Strategy::Mrv);
    cfg.input = Some(InputBackend::Input);
    let report = play(&device, &cfg, &mut |_, _, _| {}).unwrap();
    check(&sim, &report, Strategy::Mrv);
    assert_eq!(
        report.replay.repairs, 0,
        "nothing was lost: {:?}",
        report.replay
    );
    assert!(
        report.taps_per_sec < 6.0,
        "the phone set the pace: {:.1} taps/s",
        report.taps_per_sec
    );
}

#[test]
fn the_budget_shows_what_fits_then_fills_the_rest() {
    let data = tempfile::tempdir().unwrap();
    let sim = sim("pixel", Theme::Light, Keypad::Row, 0.0);
    let (_adb, device) = connect(&sim);
    // Level 30: 5,124 row-major placements, about 20,000 taps: far more than a second's worth.
    let mut cfg = config(data.path(), 30, Strategy::RowMajor);
    cfg.budget = Some(Duration::from_secs(1));
    let report = play(&device, &cfg, &mut |_, _, _| {}).unwrap();
    let plan = report.plan.clone().unwrap();
    assert!(
        plan.cut_by_budget && plan.visible_steps < plan.steps,
        "{plan:?}"
    );
    assert_eq!(report.replay.events_shown, plan.visible_steps);
    assert_eq!(report.replay.events_hidden, plan.steps - plan.visible_steps);
    let state = sim.dumpsys();
    assert_eq!(state["solved"], true, "{state}");
    // The session records what was shown, so `autoplay replay` checks the same thing.
    let meta = SessionMeta::load(&report.session_dir).unwrap();
    assert_eq!(meta.max_visible_steps, Some(plan.visible_steps));
}
