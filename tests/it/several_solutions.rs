//! Puzzles with more than one solution (issue 35: apps that blank cells of a full grid at
//! random), on the simulated app with `--several-solutions`: `autoplay --level N` plays them
//! with every step shown, and the run is solved only where the app shows it takes the board:
//! an app that accepts any full board that keeps the rules completes it; an app that checks
//! the entries against the solution it stored marks the others wrong (red), and the player
//! reads those marks, writes the solution without them, and says so. The marks themselves are
//! read on the app's own renders (`Reading::marked_wrong`).

use crate::common::{AdbServer, autoplay_command, run_with_timeout, sim_calibrations};
use autoplay_sim::app::rules::{CompletionCheck, InputRules, Mistakes};
use autoplay_sim::app::scene::{Scene, draw};
use autoplay_sim::app::style::Style;
use autoplay_sim::app::{AppOptions, Theme, ambiguous};
use autoplay_sim::profile::Profile;
use autoplay_sim::{SimConfig, SimHandle, profile, spawn};
use std::time::Duration;
use sudoku_autoplay::board::{Board, CELLS};
use sudoku_autoplay::solver::{Options, Strategy, fast, search};
use sudoku_autoplay::vision;

/// The app's seed (it draws which givens a level loses).
const SEED: u64 = 5;

/// The first level (of the small ones) whose several solutions the row-major search answers
/// with another than the app stored: its number, givens, the search's solution, the app's.
fn level_with_another_solution() -> (u32, Board, Board, Board) {
    (1..=70)
        .find_map(|n| {
            let (givens, stored) = ambiguous::level(n, SEED)?;
            let r = search(Strategy::RowMajor, &givens, &Options::default(), &mut ());
            let ours = r.solution()?;
            (ours != stored && r.stats.placements < 300).then_some((n, givens, ours, stored))
        })
        .expect("a small level whose search writes another solution than the app's")
}

fn sim(rules: InputRules, mistake_limit: Option<u32>) -> SimHandle {
    let mut c = SimConfig::new(profile::profile("pixel").unwrap().clone());
    c.app = AppOptions {
        several_solutions: true,
        seed: SEED,
        rules,
        mistake_limit,
        ..AppOptions::default()
    };
    c.adb_root = c.profile.panel_writable;
    spawn(c).unwrap()
}

/// An app that checks completion by `check`, counting no mistakes.
fn checks(check: CompletionCheck) -> InputRules {
    InputRules {
        check,
        ..InputRules::default()
    }
}

/// `autoplay --level N ARGS` on `sim`, notes shown: its output, and the phone's state; then
/// `autoplay replay` checks the session offline (`replay`: what it must say).
fn play(
    sim: SimHandle,
    level: u32,
    args: &[&str],
    replay: &str,
) -> (crate::common::Out, serde_json::Value) {
    let data = tempfile::tempdir().unwrap();
    let adb = AdbServer::start();
    adb.connect(&sim.serial());
    let mut cmd = autoplay_command();
    cmd.args(["--level", &level.to_string(), "--pace", "0", "-P"])
        .arg(adb.addr().port().to_string())
        .args(["-s", &sim.serial(), "--calibration-dir"])
        .arg(sim_calibrations())
        .arg("--data-dir")
        .arg(data.path())
        .args(args);
    let out = run_with_timeout(cmd, b"", Duration::from_secs(180));
    let state = sim.dumpsys();
    let sessions = data.path().join("sessions");
    let session = std::fs::read_dir(&sessions)
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    let mut check = autoplay_command();
    check.arg("replay").arg(session.path());
    let checked = run_with_timeout(check, b"", Duration::from_secs(60));
    assert!(
        checked.text().contains(replay),
        "{}\n{}",
        checked.text(),
        checked.stderr
    );
    (out, state)
}

#[test]
fn a_level_with_several_solutions_is_solved_where_the_app_takes_any_valid_board() {
    let (level, _, ours, _) = level_with_another_solution();
    let rules = sim(checks(CompletionCheck::Rules), None);
    let (out, state) = play(rules, level, &[], "result:  replays as recorded");
    assert_eq!(out.code(), 0, "{}\n{}", out.text(), out.stderr);
    // The plan says so, and which solution the search writes; every step is shown.
    let plan = format!(
        "the puzzle has more than one solution: the search writes {}",
        ours.to_line()
    );
    assert!(out.stderr.contains(&plan), "{}", out.stderr);
    let text = out.text();
    assert!(
        text.contains("solved and verified (the app's completion screen"),
        "{text}"
    );
    assert!(
        !text.contains("computed on the host only") && !text.contains("marked"),
        "{text}"
    );
    assert_eq!(state["solved"], true, "{state}");
}

#[test]
fn digits_the_app_marks_wrong_are_replaced_by_its_solution() {
    let (level, _, ours, stored) = level_with_another_solution();
    let solution = sim(checks(CompletionCheck::Solution), None);
    let (out, state) = play(solution, level, &[], "result:  replays as recorded");
    assert_eq!(out.code(), 0, "{}\n{}", out.text(), out.stderr);
    let text = out.text();
    let differ = (0..CELLS).filter(|&c| ours.get(c) != stored.get(c)).count();
    assert!(
        text.contains("solved and verified (the app's completion screen")
            && text.contains(&format!(
                "after the app marked {differ} digits of the search's solution wrong"
            )),
        "{text}"
    );
    // The solution printed is the app's.
    assert!(text.contains(&stored.to_string()), "{text}");
    assert_eq!(state["solved"], true, "{state}");
    assert_eq!(state["wrong"], serde_json::json!([]), "{state}");
}

#[test]
fn an_app_that_counts_another_solutions_digits_as_mistakes_ends_the_game_and_is_told_so() {
    // The search that writes only its own solution's digits, on an app that ends the game at
    // the third digit that differs from its stored solution.
    let (level, _, _, _) = level_with_another_solution();
    let rules = InputRules {
        mistakes: Mistakes::Solution,
        ..checks(CompletionCheck::Solution)
    };
    let fast = ["--strategy", "fast"];
    let (out, state) = play(sim(rules, Some(3)), level, &fast, "ended `game-over`");
    assert_eq!(out.code(), 3, "{}\n{}", out.text(), out.stderr);
    assert!(
        out.stderr
            .contains("the puzzle has more than one solution, and apps that check"),
        "{}",
        out.stderr
    );
    assert!(!out.text().contains("solved"), "{}", out.text());
    assert_eq!(state["solved"], false, "{state}");
}

/// Renders the several-solution level's other solution (the app stores the first the solver
/// finds) in `style` and `theme`, `selected` selected, and reads the marks.
fn marks_read(
    style: &str,
    theme: Theme,
    selected: Option<usize>,
) -> (Vec<usize>, Vec<usize>, Board) {
    let (givens, _) = ambiguous::level(12, 9).unwrap();
    let stored = fast::solve(&givens).unwrap();
    let other = fast::another_solution(&givens, &stored).unwrap();
    let options = AppOptions {
        style: Style::by_name(style).unwrap(),
        theme,
        rules: InputRules {
            check: CompletionCheck::Solution,
            ..InputRules::default()
        },
        ..AppOptions::default()
    };
    let scene = Scene {
        board: other,
        selected,
        ..Scene::new(givens)
    };
    let drawn = draw(&Profile::sized(1080, 2400), &options, &scene);
    let reading = vision::read_board(&drawn.image).unwrap();
    assert_eq!(reading.board, other, "{style}");
    let wrong: Vec<usize> = (0..CELLS)
        .filter(|&c| other.get(c) != stored.get(c))
        .collect();
    (reading.marked_wrong(&givens), wrong, other)
}

#[test]
fn entries_in_the_apps_error_ink_are_read_as_marked_wrong() {
    let styles = autoplay_sim::app::style::STYLES
        .iter()
        .chain(autoplay_sim::app::style::MORE_STYLES);
    for style in styles {
        for theme in [Theme::Light, Theme::Dark] {
            let (marked, wrong, _) = marks_read(style.name, theme, None);
            assert_eq!(marked, wrong, "{} {theme:?}", style.name);
        }
    }
    // The selected number's digits in the same red (givens too) are a highlight, not marks.
    let (givens, _) = ambiguous::level(12, 9).unwrap();
    let given = (0..CELLS).find(|&c| givens.get(c) != 0).unwrap();
    let (marked, wrong, board) = marks_read("shaded", Theme::Light, Some(given));
    let lit = board.get(given);
    let unlit: Vec<usize> = wrong.into_iter().filter(|&c| board.get(c) != lit).collect();
    assert_eq!(marked, unlit);
    // A selected entry's cell.
    let entry = (0..CELLS).find(|&c| givens.get(c) == 0).unwrap();
    let (marked, wrong, _) = marks_read("classic", Theme::Light, Some(entry));
    assert_eq!(marked, wrong);
    // No mark where the board holds the app's own solution.
    let scene = Scene {
        board: fast::solve(&givens).unwrap(),
        ..Scene::new(givens)
    };
    let drawn = draw(&Profile::sized(1080, 2400), &AppOptions::default(), &scene);
    let reading = vision::read_board(&drawn.image).unwrap();
    assert_eq!(reading.marked_wrong(&givens), Vec::<usize>::new());
}

/// On a small phone held in landscape, the `actions` style's 8 reads close to a 3 with the
/// digits a calibration harvested (0.89 against 0.86): a doubt of the OCR's, which stopped
/// calibrate's probe and the play of the level's several solutions. The board settles it: the
/// five 8s are drawn alike and unlike the board's 3s (and some have a 3 in their row, column or
/// box). A doubt the board does not settle still stops them.
#[test]
fn a_close_runner_up_that_the_board_rules_out_leaves_no_doubt() {
    let mut profile = profile::profile("small").unwrap().clone();
    profile.rotation = 1;
    let mut phone = autoplay_sim::app::Phone::new(
        profile,
        AppOptions {
            style: Style::by_name("actions").unwrap(),
            seed: 636948,
            several_solutions: true,
            ..AppOptions::default()
        },
    );
    phone.start_level(1).expect("level 1 exists");
    // Read as the calibration made on this screen reads it (with the digits it harvested).
    let frame = phone.screenshot();
    let options = sudoku_autoplay::calibration::CalibrateOptions::default();
    let cal = sudoku_autoplay::calibration::Calibration::from_frame(&frame, &options)
        .unwrap()
        .calibration;
    let reading = cal.read(&frame).unwrap();
    let truth = phone.dumpsys()["givens"].as_str().unwrap().to_string();
    assert_eq!(reading.board.to_line(), truth);
    assert!(
        fast::solutions(&reading.board, 2).count > 1,
        "several solutions"
    );
    let close: Vec<usize> = reading.cell_doubts().filter_map(|d| d.cell).collect();
    assert!(!close.is_empty(), "the 8s read close to a 3");
    let unsettled = |r: &vision::Reading| r.unsettled_doubts(fast::has_no_solution).count();
    assert_eq!(unsettled(&reading), 0, "{:?}", reading.doubts);
    // With every given but the doubted 8s gone, no 3 to compare with and a 3 fits anywhere:
    // nothing settles them.
    let mut open = reading.clone();
    for p in (0..CELLS).filter(|p| !close.contains(p)) {
        open.board.set(p, 0);
    }
    assert_eq!(unsettled(&open), close.len());
}
