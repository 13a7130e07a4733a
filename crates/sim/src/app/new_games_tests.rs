//! An app without levels (`--new-games`) and its ads (`--ads`), through the phone's public
//! API: taps at display pixels, keys, `dumpsys`, `uiautomator dump`.

use super::keys::Key;
use super::*;
use crate::profile::profile;
use std::time::{Duration, Instant};
use sudoku_autoplay::board::Board;
use sudoku_autoplay::solver::fast;

fn phone(ads: bool) -> Phone {
    let options = AppOptions {
        new_games: true,
        ads,
        seed: 3,
        ..AppOptions::default()
    };
    Phone::new(profile("pixel").unwrap().clone(), options)
}

fn state(p: &Phone, key: &str) -> serde_json::Value {
    p.dumpsys()[key].clone()
}

fn tap(p: &mut Phone, r: geometry::Rect) {
    let (x, y) = r.center();
    p.tap(x, y);
}

/// New Game, then difficulty `i` on the sheet.
fn new_game(p: &mut Phone, i: usize) {
    let l = p.layout().clone();
    tap(p, l.play);
    assert_eq!(state(p, "screen"), "difficulty");
    tap(p, l.new_games.rows[i]);
}

fn solve(p: &mut Phone) {
    let l = p.layout().clone();
    let givens = Board::parse_line(state(p, "givens").as_str().unwrap()).unwrap();
    let solution = fast::solve(&givens).unwrap();
    for c in (0..81).filter(|&c| givens.get(c) == 0) {
        tap(p, l.cell(c));
        tap(p, l.keys[solution.get(c) as usize - 1]);
    }
}

#[test]
fn new_games_by_difficulty_continue_and_a_confirmation_before_one_is_thrown_away() {
    let mut p = phone(false);
    let words = |p: &mut Phone| p.ui_dump().unwrap();
    assert!(words(&mut p).contains("text=\"New Game\"") && !words(&mut p).contains("Continue"));
    new_game(&mut p, 2);
    assert_eq!(
        (state(&p, "screen"), state(&p, "difficulty")),
        ("game".into(), "Hard".into())
    );
    assert!(words(&mut p).contains("text=\"Hard\""));
    let first = state(&p, "givens");
    // Home, Continue: the same game.
    p.key(Key::Back);
    assert!(words(&mut p).contains("text=\"Continue\""));
    let r = p.layout().level_list;
    tap(&mut p, r);
    assert_eq!(state(&p, "givens"), first);
    // A new game over one under way asks first; Cancel keeps it.
    p.key(Key::Back);
    new_game(&mut p, 0);
    assert_eq!(state(&p, "screen"), "confirm");
    assert!(words(&mut p).contains("Start a new game?"));
    let r = p.layout().dialog_home;
    tap(&mut p, r);
    let r = p.layout().level_list;
    tap(&mut p, r);
    assert_eq!(state(&p, "givens"), first);
    p.key(Key::Back);
    new_game(&mut p, 0);
    let r = p.layout().dialog_next;
    tap(&mut p, r);
    assert_eq!(state(&p, "difficulty"), "Easy");
    solve(&mut p);
    assert_eq!(state(&p, "screen"), "complete");
    assert_eq!(state(&p, "games_won"), 1);
    assert!(
        words(&mut p).contains("Excellent!") && words(&mut p).contains("You solved a Easy puzzle")
    );
    // The result screen's New Game: the sheet, and a new puzzle without asking.
    let r = p.layout().dialog_next;
    tap(&mut p, r);
    let r = p.layout().new_games.rows[0];
    tap(&mut p, r);
    assert_eq!(state(&p, "screen"), "game");
    assert_ne!(state(&p, "givens"), first);
}

#[test]
fn an_ad_after_each_game_closes_late_and_its_body_opens_the_store() {
    let mut p = phone(true);
    new_game(&mut p, 0);
    assert!(
        p.ui_dump().unwrap().contains("Block Puzzle Jam"),
        "the banner"
    );
    solve(&mut p);
    assert_eq!(state(&p, "screen"), "ad");
    assert!(p.focus().ends_with("com.google.android.gms.ads.AdActivity"));
    assert!(
        !p.ui_dump().unwrap().contains("ImageButton"),
        "no close control yet"
    );
    // BACK does not close it yet; a tap on its body opens the store.
    p.key(Key::Back);
    assert_eq!(state(&p, "screen"), "ad");
    p.tap(540, 1200);
    assert_eq!(state(&p, "ad_opens"), 1);
    assert!(p.focus().starts_with("com.android.vending/"));
    p.key(Key::Back);
    assert_eq!(state(&p, "screen"), "ad", "back from the store: the ad");
    // Its close control, once it shows (taps timed later), closes it: the result screen.
    let later = Instant::now() + Duration::from_secs(8);
    let close = p
        .model
        .ad_showing()
        .map(|a| p.layout().new_games.close[usize::from(a.right)])
        .unwrap();
    let (x, y) = close.center();
    p.tap_at(x, y, later);
    assert_eq!(state(&p, "screen"), "complete");
    assert_eq!(state(&p, "ad_opens"), 1);
}
