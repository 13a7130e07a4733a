//! Real apps' screens and puzzles (issue 35) as the simulated app draws and judges them: entries
//! at half opacity, givens on grey cells with a same-digit highlight in red ink, a coach mark
//! over the board, levels with several solutions under both completion checks.

use super::geometry::Rect;
use super::palette::Palette;
use super::rules::{CompletionCheck, InputRules, Mistakes};
use super::tests::pixels_like;
use super::*;
use crate::profile::profile;
use sudoku_autoplay::board::Board;
use sudoku_autoplay::solver::{self, Options, Strategy};

fn phone(options: AppOptions, level: u32) -> Phone {
    let mut p = Phone::new(profile("budget").unwrap().clone(), options);
    p.start_level(level).unwrap();
    p
}

fn tap(p: &mut Phone, (x, y): (i32, i32)) {
    p.tap(x, y);
}

fn enter(p: &mut Phone, cell: usize, digit: u8) {
    let (c, k) = (p.layout().cell_center(cell), p.layout().key_center(digit));
    tap(p, c);
    tap(p, k);
}

fn givens(p: &Phone) -> Board {
    Board::parse_line(p.dumpsys()["givens"].as_str().unwrap()).unwrap()
}

fn styled(name: &str, theme: Theme) -> AppOptions {
    AppOptions {
        style: style::Style::by_name(name).unwrap(),
        theme,
        ..AppOptions::default()
    }
}

#[test]
fn faded_entries_are_the_givens_ink_at_half_opacity() {
    for theme in [Theme::Light, Theme::Dark] {
        let mut p = phone(styled("faded", theme), 1);
        let g = givens(&p);
        let cell = (0..81).find(|&c| g.get(c) == 0).unwrap();
        let solution = solver::fast::solve(&g).unwrap();
        enter(&mut p, cell, solution.get(cell));
        let away = (0..81)
            .find(|&c| c / 9 != cell / 9 && c % 9 != cell % 9)
            .unwrap();
        let at = p.layout().cell_center(away);
        tap(&mut p, at);
        let img = p.screenshot();
        let pal = Palette::of(theme);
        let half = style::mix(pal.surface, pal.given, 0.5);
        let r = p.layout().cell(cell);
        assert!(pixels_like(&img, r, half) > 10, "{theme:?}: grey ink");
        assert_eq!(
            pixels_like(&img, r, pal.given),
            0,
            "{theme:?}: not the givens' ink"
        );
        let given = (0..81)
            .find(|&c| g.get(c) != 0 && c / 9 != cell / 9)
            .unwrap();
        assert!(pixels_like(&img, p.layout().cell(given), pal.given) > 10);
    }
}

#[test]
fn shaded_givens_sit_on_grey_and_the_same_digit_turns_red() {
    let mut p = phone(styled("shaded", Theme::Light), 1);
    let g = givens(&p);
    let pal = Palette::of(Theme::Light);
    let sel = (0..81).find(|&c| g.get(c) != 0).unwrap();
    let same = (0..81)
        .find(|&c| c != sel && g.get(c) == g.get(sel))
        .unwrap();
    let other = (0..81)
        .find(|&c| g.get(c) != 0 && g.get(c) != g.get(sel) && c / 9 != sel / 9)
        .unwrap();
    let empty = (0..81).find(|&c| g.get(c) == 0).unwrap();
    let at = p.layout().cell_center(sel);
    tap(&mut p, at);
    let img = p.screenshot();
    let l = p.layout().clone();
    let grey = style::mix(pal.surface, pal.given, style::SHADE_MIX);
    for c in [same, other] {
        assert!(
            pixels_like(&img, l.cell(c), grey) > 100,
            "given {c} on grey"
        );
    }
    assert!(
        pixels_like(&img, l.cell(empty), pal.surface) > 100,
        "empty on white"
    );
    assert!(
        pixels_like(&img, l.cell(same), pal.conflict) > 10,
        "same digit red"
    );
    assert_eq!(pixels_like(&img, l.cell(other), pal.conflict), 0);
    assert!(pixels_like(&img, l.cell(other), pal.given) > 10);
    // An entry: grey ink on white.
    let solution = solver::fast::solve(&g).unwrap();
    enter(&mut p, empty, solution.get(empty));
    let blank = (0..81)
        .find(|&c| g.get(c) == 0 && c != empty && c / 9 != empty / 9)
        .unwrap();
    let at = l.cell_center(blank);
    tap(&mut p, at);
    let img = p.screenshot();
    assert!(
        pixels_like(&img, l.cell(empty), pal.muted) > 10,
        "entry grey"
    );
    assert!(
        pixels_like(&img, l.cell(empty), pal.surface) > 100,
        "on white"
    );
}

#[test]
fn a_coach_mark_covers_the_first_game_until_a_tap_or_back() {
    let options = AppOptions {
        cover: true,
        ..AppOptions::default()
    };
    let mut p = phone(options.clone(), 3);
    assert_eq!(p.dumpsys()["covered"], true);
    let covered = p.screenshot();
    let board = p.layout().board;
    // A thick white stroke over a dimmed board.
    assert!(pixels_like(&covered, board, [255, 255, 255]) > 1000);
    let g = givens(&p);
    let cell = (0..81).find(|&c| g.get(c) == 0).unwrap();
    enter(&mut p, cell, 5);
    let state = p.dumpsys();
    assert_eq!(state["covered"], false);
    assert_eq!(
        state["swallowed_taps"], 1,
        "the first tap was the coach mark's"
    );
    assert_eq!(state["selected"], serde_json::Value::Null);
    assert_ne!(p.screenshot(), covered);
    // Only the first game: the next one opens uncovered; BACK dismisses it too.
    p.start_level(4).unwrap();
    assert_eq!(p.dumpsys()["covered"], false);
    let mut q = phone(options, 3);
    q.key(Key::Back);
    assert_eq!(q.dumpsys()["screen"], "game");
    assert_eq!(q.dumpsys()["covered"], false);
}

/// A second solution of `givens` besides `stored`, from the search's other answer.
fn other_solution(givens: &Board, stored: &Board) -> Board {
    for cell in 0..81 {
        if givens.get(cell) != 0 {
            continue;
        }
        for d in 1..=9 {
            if d == stored.get(cell) {
                continue;
            }
            let mut b = *givens;
            b.set(cell, d);
            if b.validate().is_err() {
                continue;
            }
            let opts = Options {
                max_steps: Some(5_000_000),
                check_unique: false,
            };
            if let Some(s) = solver::search(Strategy::Mrv, &b, &opts, &mut ()).solution() {
                return s;
            }
        }
    }
    panic!("no second solution");
}

fn several(check: CompletionCheck) -> Phone {
    phone(
        AppOptions {
            several_solutions: true,
            seed: 9,
            rules: InputRules {
                check,
                mistakes: Mistakes::None,
                ..InputRules::default()
            },
            ..AppOptions::default()
        },
        12,
    )
}

fn fill(p: &mut Phone, solution: &Board) {
    let g = givens(p);
    for cell in (0..81).filter(|&c| g.get(c) == 0) {
        enter(p, cell, solution.get(cell));
    }
}

#[test]
fn levels_with_several_solutions_under_both_completion_checks() {
    let (stored_givens, stored) = ambiguous::level(12, 9).unwrap();
    let other = other_solution(&stored_givens, &stored);
    assert_ne!(other, stored);
    // By the rules: any full board that keeps them is solved.
    let mut p = several(CompletionCheck::Rules);
    assert_eq!(givens(&p), stored_givens);
    assert!(ambiguous::several(&givens(&p)));
    fill(&mut p, &other);
    assert_eq!(p.dumpsys()["screen"], "complete");
    assert_eq!(p.dumpsys()["solved"], true);
    // Against the stored solution: the other solution's digits are marked wrong, in red.
    let mut p = several(CompletionCheck::Solution);
    fill(&mut p, &other);
    let state = p.dumpsys();
    assert_eq!(state["screen"], "game");
    assert_eq!(state["solved"], false);
    let wrong: Vec<usize> = (0..81).filter(|&c| other.get(c) != stored.get(c)).collect();
    assert_eq!(state["wrong"], serde_json::json!(wrong));
    let img = p.screenshot();
    let red = Palette::of(Theme::Light).conflict;
    assert!(pixels_like(&img, p.layout().cell(wrong[0]), red) > 10);
    // Writing the stored solution's digits there solves it.
    for &cell in &wrong {
        enter(&mut p, cell, stored.get(cell));
    }
    assert_eq!(p.dumpsys()["screen"], "complete");
    assert_eq!(p.dumpsys()["wrong"], serde_json::json!([]));
}

#[test]
fn the_scene_renderer_draws_the_same_classes() {
    let (givens, stored) = ambiguous::level(20, 3).unwrap();
    let mut s = scene::Scene::new(givens);
    let cell = (0..81).find(|&c| givens.get(c) == 0).unwrap();
    s.board.set(cell, stored.get(cell) % 9 + 1);
    let profile = crate::profile::Profile::sized(720, 1280);
    let plain = scene::draw(&profile, &AppOptions::default(), &s);
    let covered = AppOptions {
        cover: true,
        ..AppOptions::default()
    };
    let drawn = scene::draw(&profile, &covered, &s);
    let board = Rect::new(
        drawn.board[0] as i32,
        drawn.board[1] as i32,
        (drawn.board[2] - drawn.board[0]) as i32,
        (drawn.board[3] - drawn.board[1]) as i32,
    );
    assert!(pixels_like(&drawn.image, board, [255, 255, 255]) > 1000);
    assert_ne!(drawn.image, plain.image);
    for name in ["faded", "shaded"] {
        let d = scene::draw(&profile, &styled(name, Theme::Dark), &s);
        assert_ne!(d.image, plain.image, "{name}");
    }
}
