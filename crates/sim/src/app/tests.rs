//! Behaviour of the app through its public API: taps at display pixels, keys, screenshots.

use super::palette::Palette;
use super::screens::AppScreen;
use super::*;
use crate::profile::profile;
use sudoku_autoplay::board::Board;
use sudoku_autoplay::solver::fast;

fn phone(options: AppOptions) -> Phone {
    Phone::new(profile("budget").unwrap().clone(), options)
}

fn game_on(level: u32) -> Phone {
    let mut p = phone(AppOptions::default());
    p.start_level(level).unwrap();
    p
}

fn tap_at(p: &mut Phone, (x, y): (i32, i32)) {
    p.tap(x, y);
}

fn tap_cell(p: &mut Phone, cell: usize) {
    let at = p.layout().cell_center(cell);
    tap_at(p, at);
}

fn tap_digit(p: &mut Phone, d: u8) {
    let at = p.layout().key_center(d);
    tap_at(p, at);
}

fn tap_erase(p: &mut Phone) {
    let at = p.layout().erase.center();
    tap_at(p, at);
}

fn screen(p: &Phone) -> String {
    p.dumpsys()["screen"].as_str().unwrap().to_string()
}

fn board(p: &Phone) -> Board {
    Board::parse_line(p.dumpsys()["board"].as_str().unwrap()).unwrap()
}

fn givens(p: &Phone) -> Board {
    Board::parse_line(p.dumpsys()["givens"].as_str().unwrap()).unwrap()
}

fn first_empty(p: &Phone) -> usize {
    let g = givens(p);
    (0..81).find(|&c| g.get(c) == 0).unwrap()
}

fn first_given(p: &Phone) -> usize {
    let g = givens(p);
    (0..81).find(|&c| g.get(c) != 0).unwrap()
}

fn solve_by_taps(p: &mut Phone) {
    let g = givens(p);
    let solution = fast::solve(&g).unwrap();
    for cell in 0..81 {
        if g.get(cell) == 0 {
            tap_cell(p, cell);
            tap_digit(p, solution.get(cell));
        }
    }
}

#[test]
fn starts_at_home_and_play_opens_level_one() {
    let mut p = phone(AppOptions::default());
    assert_eq!(screen(&p), "home");
    assert!(p.dumpsys()["level"].is_null());
    let at = p.layout().play.center();
    tap_at(&mut p, at);
    assert_eq!(screen(&p), "game");
    assert_eq!(p.dumpsys()["level"], 1);
    assert_eq!(p.dumpsys()["board"], p.dumpsys()["givens"]);
}

#[test]
fn tap_cell_selects_it() {
    let mut p = game_on(5);
    assert!(p.dumpsys()["selected"].is_null());
    tap_cell(&mut p, 40);
    assert_eq!(p.dumpsys()["selected"], 40);
    tap_cell(&mut p, 80);
    assert_eq!(p.dumpsys()["selected"], 80);
}

#[test]
fn tap_digit_writes_and_overwrites() {
    let mut p = game_on(5);
    let cell = first_empty(&p);
    tap_digit(&mut p, 3);
    assert_eq!(board(&p), givens(&p), "no selection: nothing written");
    tap_cell(&mut p, cell);
    tap_digit(&mut p, 3);
    assert_eq!(board(&p).get(cell), 3);
    tap_digit(&mut p, 7);
    assert_eq!(board(&p).get(cell), 7);
    assert_eq!(p.dumpsys()["digits_entered"], 2);
    assert_eq!(p.dumpsys()["taps"], 4);
}

#[test]
fn erase_clears() {
    let mut p = game_on(5);
    let cell = first_empty(&p);
    tap_cell(&mut p, cell);
    tap_digit(&mut p, 4);
    tap_erase(&mut p);
    assert_eq!(board(&p).get(cell), 0);
    assert_eq!(p.dumpsys()["erasures"], 1);
    tap_erase(&mut p);
    assert_eq!(
        p.dumpsys()["erasures"],
        1,
        "erasing an empty cell is not an erasure"
    );
}

#[test]
fn givens_never_change() {
    let mut p = game_on(5);
    let cell = first_given(&p);
    let before = board(&p);
    tap_cell(&mut p, cell);
    assert_eq!(p.dumpsys()["selected"], cell, "givens can be selected");
    for d in 1..=9 {
        tap_digit(&mut p, d);
    }
    tap_erase(&mut p);
    assert_eq!(board(&p), before);
    assert_eq!(p.dumpsys()["digits_entered"], 0);
}

#[test]
fn completion_dialog_after_correct_fill_then_next_level() {
    let mut p = game_on(1);
    solve_by_taps(&mut p);
    assert_eq!(screen(&p), "complete");
    assert_eq!(p.dumpsys()["solved"], true);
    assert_eq!(p.dumpsys()["completed"], serde_json::json!([1]));
    let at = p.layout().dialog_next.center();
    tap_at(&mut p, at);
    assert_eq!(screen(&p), "game");
    assert_eq!(p.dumpsys()["level"], 2);
    assert_eq!(p.dumpsys()["solved"], false);
    assert_eq!(board(&p), givens(&p));
}

#[test]
fn wrong_full_board_is_not_complete() {
    let mut p = game_on(1);
    let g = givens(&p);
    let solution = fast::solve(&g).unwrap();
    let empties: Vec<usize> = (0..81).filter(|&c| g.get(c) == 0).collect();
    for &cell in &empties {
        tap_cell(&mut p, cell);
        tap_digit(&mut p, solution.get(cell));
    }
    // The last entry was correct and completed it; undo that with a wrong digit first.
    assert_eq!(screen(&p), "complete");
    let mut p = game_on(1);
    let (&last, rest) = empties.split_last().unwrap();
    for &cell in rest {
        tap_cell(&mut p, cell);
        tap_digit(&mut p, solution.get(cell));
    }
    tap_cell(&mut p, last);
    tap_digit(&mut p, solution.get(last) % 9 + 1);
    assert_eq!(board(&p).filled(), 81);
    assert_eq!(screen(&p), "game");
    assert_eq!(p.dumpsys()["solved"], false);
    assert!(p.dumpsys()["conflicts"].as_array().unwrap().len() >= 2);
}

#[test]
fn level_list_pages_and_opens_levels() {
    let mut p = phone(AppOptions::default());
    let at = p.layout().level_list.center();
    tap_at(&mut p, at);
    assert_eq!(screen(&p), "levels");
    assert_eq!(p.dumpsys()["page"], 1);
    assert_eq!(p.dumpsys()["pages"], 4);
    let prev = p.layout().prev_page.center();
    let next = p.layout().next_page.center();
    tap_at(&mut p, prev);
    assert_eq!(p.dumpsys()["page"], 1, "no page before the first");
    for _ in 0..5 {
        tap_at(&mut p, next);
    }
    assert_eq!(p.dumpsys()["page"], 4, "no page after the last");
    // The last page holds levels 61..70: slot 9 is level 70, slot 10 is empty.
    let empty_slot = p.layout().slots[10].center();
    tap_at(&mut p, empty_slot);
    assert_eq!(screen(&p), "levels");
    tap_at(&mut p, prev);
    tap_at(&mut p, prev);
    assert_eq!(p.dumpsys()["page"], 2);
    let slot = p.layout().slots[0].center();
    tap_at(&mut p, slot);
    assert_eq!(screen(&p), "game");
    assert_eq!(p.dumpsys()["level"], 21);
}

#[test]
fn swipes_turn_pages_and_short_swipes_tap() {
    let mut p = phone(AppOptions::default());
    let (x, y) = p.layout().level_list.center();
    p.swipe(x, y, x + 3, y + 2, 80);
    assert_eq!(screen(&p), "levels", "a short swipe is a tap");
    let w = p.profile().width as i32;
    p.swipe(w - 50, 600, 50, 620, 200);
    assert_eq!(p.dumpsys()["page"], 2);
    p.swipe(50, 600, w - 50, 600, 200);
    assert_eq!(p.dumpsys()["page"], 1);
    assert_eq!(p.dumpsys()["swipes"], 2);
}

#[test]
fn a_scrolling_level_list_follows_vertical_swipes() {
    let mut p = phone(AppOptions {
        scrolling_levels: true,
        ..AppOptions::default()
    });
    let at = p.layout().level_list.center();
    tap_at(&mut p, at);
    let shown = |p: &mut Phone| {
        let dump = p.ui_dump().unwrap();
        (1..=70u32)
            .filter(|n| dump.contains(&format!("text=\"{n}\"")))
            .collect::<Vec<_>>()
    };
    let first = shown(&mut p);
    assert_eq!(first[0], 1);
    assert!(!p.ui_dump().unwrap().contains("Next"), "no pages");
    // A swipe up by two rows' pitch shows later levels; one far down ends at level 70.
    let l = p.layout().clone();
    let pitch = l.slots[4].y - l.slots[0].y;
    let x = l.slots[0].center().0;
    p.swipe(x, 1200, x, 1200 - 2 * pitch, 300);
    let later = shown(&mut p);
    assert_eq!(later[0], 9, "{later:?}");
    p.swipe(x, 1800, x, 100, 300);
    p.swipe(x, 1800, x, 100, 300);
    assert_eq!(*shown(&mut p).last().unwrap(), 70);
    // A level's button opens it where it is drawn now.
    let (n, r) = *l.level_buttons(0, p.model().scroll).last().unwrap();
    tap_at(&mut p, r.center());
    assert_eq!(screen(&p), "game");
    assert_eq!(p.dumpsys()["level"], n as u64 + 1);
}

#[test]
fn back_from_game_goes_to_its_level_page_then_home() {
    let mut p = game_on(45);
    p.key(Key::Back);
    assert_eq!(screen(&p), "levels");
    assert_eq!(p.dumpsys()["page"], 3);
    p.key(Key::Back);
    assert_eq!(screen(&p), "home");
    // The app bar arrow and the navigation bar's back do the same.
    p.start_level(2).unwrap();
    let at = p.layout().back.center();
    tap_at(&mut p, at);
    assert_eq!(screen(&p), "levels");
    let at = p.layout().nav_back.center();
    tap_at(&mut p, at);
    assert_eq!(screen(&p), "home");
}

#[test]
fn home_key_shows_the_launcher_and_the_icon_brings_the_game_back() {
    let mut p = game_on(7);
    let cell = first_empty(&p);
    tap_cell(&mut p, cell);
    tap_digit(&mut p, 9);
    p.key(Key::Home);
    assert_eq!(p.dumpsys()["foreground"], false);
    assert_eq!(
        screen(&p),
        "game",
        "the app keeps its state in the background"
    );
    let before = p.screenshot();
    tap_cell(&mut p, cell); // lands on the launcher, not the board
    assert_eq!(p.dumpsys()["ignored_taps"], 1);
    let (icon, _) = super::hazards::launcher_icons(p.layout())
        .into_iter()
        .find(|(_, l)| *l == "Sudoku")
        .unwrap();
    tap_at(&mut p, icon.center());
    assert_eq!(p.dumpsys()["foreground"], true);
    assert_eq!(board(&p).get(cell), 9);
    assert_ne!(p.screenshot(), before);
}

#[test]
fn mistake_limit_ends_the_game_and_hides_the_board() {
    let mut p = phone(AppOptions {
        mistake_limit: Some(2),
        ..AppOptions::default()
    });
    p.start_level(3).unwrap();
    let solution = fast::solve(&givens(&p)).unwrap();
    let cell = first_empty(&p);
    let wrong = (1..=9).find(|&d| d != solution.get(cell)).unwrap();
    tap_cell(&mut p, cell);
    tap_digit(&mut p, solution.get(cell));
    tap_digit(&mut p, wrong);
    assert_eq!(p.dumpsys()["mistakes"], 1);
    tap_digit(&mut p, solution.get(cell));
    assert_eq!(screen(&p), "game", "right digits are no mistakes");
    tap_digit(&mut p, wrong);
    assert_eq!(screen(&p), "game_over");
    let xml = p.ui_dump().unwrap();
    assert!(
        xml.contains("text=\"Game over\"") && xml.contains("You made 2 mistakes"),
        "{xml}"
    );
    assert!(!xml.contains("Sudoku board"), "the board is gone");
    // The game cannot be continued: Play opens a fresh one.
    p.key(Key::Back);
    p.key(Key::Back);
    assert_eq!(screen(&p), "home");
    let at = p.layout().play.center();
    tap_at(&mut p, at);
    assert_eq!(screen(&p), "game");
    assert_eq!(p.dumpsys()["mistakes"], 0);
}

#[test]
fn ui_dump_names_dialogs_the_launcher_and_the_lock_screen() {
    let mut p = phone(AppOptions {
        popup_after: Some(1),
        hazards: super::hazards::HazardOptions {
            lock_screen: super::hazards::LockScreen::Pin,
            ..Default::default()
        },
        ..AppOptions::default()
    });
    p.start_level(1).unwrap();
    assert!(p.ui_dump().unwrap().contains("Sudoku board"));
    tap_cell(&mut p, 0);
    let xml = p.ui_dump().unwrap();
    assert!(
        xml.contains("Rate this app") && !xml.contains("Sudoku board"),
        "{xml}"
    );
    p.key(Key::Back);
    solve_by_taps(&mut p);
    assert!(p.ui_dump().unwrap().contains("Level 1 complete"));
    p.key(Key::Home);
    assert!(
        p.ui_dump()
            .unwrap()
            .contains("package=\"com.android.launcher3\"")
    );
    assert!(p.focus().starts_with("com.android.launcher3/"));
    p.key(Key::Power);
    assert_eq!(p.ui_dump(), None, "nothing to dump on a dark screen");
    assert_eq!(mean_luma(&p.screenshot()), 0.0);
    p.key(Key::Wakeup);
    assert_eq!(p.focus(), "NotificationShade");
    assert!(p.ui_dump().unwrap().contains("Swipe up to unlock"));
}

#[test]
fn start_level_rejects_unknown_levels() {
    let mut p = phone(AppOptions::default());
    for bad in [0, 71, u32::MAX] {
        let err = p.start_level(bad).unwrap_err();
        assert!(err.contains("1..=70"), "{err}");
    }
    assert_eq!(screen(&p), "home");
    p.start_level(70).unwrap();
    assert_eq!(givens(&p).filled(), 17);
}

#[test]
fn popup_swallows_taps_until_back() {
    let mut p = phone(AppOptions {
        popup_after: Some(3),
        ..AppOptions::default()
    });
    p.start_level(3).unwrap();
    let cell = first_empty(&p);
    tap_cell(&mut p, cell);
    tap_digit(&mut p, 1);
    assert_eq!(screen(&p), "game");
    tap_cell(&mut p, 0); // third tap: handled, then the popup opens
    assert_eq!(screen(&p), "popup");
    assert_eq!(p.dumpsys()["under_popup"], "game");
    tap_cell(&mut p, cell);
    tap_digit(&mut p, 2);
    tap_erase(&mut p);
    assert_eq!(board(&p).get(cell), 1, "taps under the popup do nothing");
    assert_eq!(p.dumpsys()["swallowed_taps"], 3);
    p.key(Key::Back);
    assert_eq!(screen(&p), "game");
    tap_cell(&mut p, cell);
    tap_digit(&mut p, 2);
    assert_eq!(board(&p).get(cell), 2);
    assert_eq!(screen(&p), "game", "the popup shows once");
}

#[test]
fn drop_taps_drops_about_p_reproducibly() {
    let run = |seed| {
        let mut p = phone(AppOptions {
            drop_taps: 0.25,
            seed,
            ..AppOptions::default()
        });
        p.start_level(1).unwrap();
        for i in 0..2000 {
            tap_cell(&mut p, i % 81);
        }
        p.dumpsys()["dropped_taps"].as_u64().unwrap()
    };
    let dropped = run(7);
    assert!((400..=600).contains(&dropped), "dropped {dropped} of 2000");
    assert_eq!(run(7), dropped, "same seed, same drops");
    let mut p = game_on(1);
    for _ in 0..100 {
        tap_cell(&mut p, 0);
    }
    assert_eq!(p.dumpsys()["dropped_taps"], 0, "no drops by default");
}

#[test]
fn screenshot_has_profile_size_and_changes_after_a_tap() {
    for name in ["budget", "pixel"] {
        let prof = profile(name).unwrap().clone();
        let mut p = Phone::new(prof.clone(), AppOptions::default());
        p.start_level(1).unwrap();
        let a = p.screenshot();
        assert_eq!(a.dimensions(), (prof.width, prof.height));
        assert!(a == p.screenshot(), "no change, same frame");
        tap_cell(&mut p, 40);
        let b = p.screenshot();
        assert!(a != b, "selecting a cell changes the screen");
    }
}

#[test]
fn frames_are_reproducible_for_a_seed() {
    let shot = |seed| {
        let mut p = phone(AppOptions {
            seed,
            ..AppOptions::default()
        });
        p.screenshot()
    };
    assert!(shot(1) == shot(1));
    assert!(shot(1) != shot(2), "the clock comes from the seed");
}

fn mean_luma(img: &image::RgbaImage) -> f64 {
    let sum: u64 = img
        .pixels()
        .map(|p| (p[0] as u64 * 3 + p[1] as u64 * 6 + p[2] as u64) / 10)
        .sum();
    sum as f64 / (img.width() * img.height()) as f64
}

#[test]
fn dark_theme_background_is_dark() {
    let mut light = game_on(1);
    let mut dark = phone(AppOptions {
        theme: Theme::Dark,
        ..AppOptions::default()
    });
    dark.start_level(1).unwrap();
    let (l, d) = (
        mean_luma(&light.screenshot()),
        mean_luma(&dark.screenshot()),
    );
    assert!(d < 60.0 && l > 180.0, "dark {d}, light {l}");
    assert_eq!(dark.dumpsys()["theme"], "dark");
}

/// Counts pixels in a cell close to `colour`.
pub(super) fn pixels_like(img: &image::RgbaImage, r: geometry::Rect, colour: [u8; 3]) -> usize {
    let mut n = 0;
    for y in r.y..r.bottom() {
        for x in r.x..r.right() {
            let p = img.get_pixel(x as u32, y as u32);
            if (0..3).all(|i| (p[i] as i32 - colour[i] as i32).abs() < 12) {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn given_user_and_conflict_digits_have_their_colours() {
    for show_conflicts in [false, true] {
        let mut p = phone(AppOptions {
            show_conflicts,
            keypad: KeypadStyle::TwoRows,
            ..AppOptions::default()
        });
        p.start_level(1).unwrap();
        let g = givens(&p);
        let given = first_given(&p);
        // A user digit that repeats the given in its row.
        let user = (0..81)
            .find(|&c| g.get(c) == 0 && c / 9 == given / 9)
            .unwrap();
        tap_cell(&mut p, user);
        tap_digit(&mut p, g.get(given));
        tap_cell(&mut p, 80 - user); // move the selection away
        let img = p.screenshot();
        let pal = Palette::of(Theme::Light);
        let l = p.layout().clone();
        assert!(pixels_like(&img, l.cell(given), pal.given) > 20);
        let (want, not) = if show_conflicts {
            (pal.conflict, pal.user)
        } else {
            (pal.user, pal.conflict)
        };
        assert!(
            pixels_like(&img, l.cell(user), want) > 20,
            "{show_conflicts}"
        );
        assert_eq!(pixels_like(&img, l.cell(user), not), 0);
        assert_eq!(pixels_like(&img, l.cell(user), pal.given), 0);
    }
}

#[test]
fn selection_tints_row_column_box_and_equal_digits() {
    let mut p = game_on(1);
    let g = givens(&p);
    let sel = first_given(&p);
    tap_cell(&mut p, sel);
    let img = p.screenshot();
    let pal = Palette::of(Theme::Light);
    let l = p.layout().clone();
    let tinted = |cell: usize, c: [u8; 3]| pixels_like(&img, l.cell(cell), c) > 20;
    assert!(tinted(sel, pal.selected));
    let same = (0..81)
        .find(|&c| c != sel && g.get(c) == g.get(sel))
        .unwrap();
    assert!(tinted(same, pal.same_digit));
    let peer = (0..81)
        .find(|&c| c != sel && c / 9 == sel / 9 && g.get(c) != g.get(sel))
        .unwrap();
    assert!(tinted(peer, pal.peer));
    let far = (0..81)
        .find(|&c| {
            c / 9 != sel / 9
                && c % 9 != sel % 9
                && sudoku_autoplay::board::box_of(c) != sudoku_autoplay::board::box_of(sel)
                && g.get(c) != g.get(sel)
        })
        .unwrap();
    assert!(tinted(far, pal.surface));
}

#[test]
fn dumpsys_reports_the_contract_fields() {
    let p = game_on(1);
    let d = p.dumpsys();
    for key in [
        "screen",
        "level",
        "board",
        "givens",
        "selected",
        "solved",
        "taps",
        "dropped_taps",
        "digits_entered",
        "erasures",
        "theme",
        "keypad",
        "page",
    ] {
        assert!(d.get(key).is_some(), "{key}");
    }
    assert_eq!(d["board"].as_str().unwrap().len(), 81);
    assert_eq!(d["keypad"], "row");
    assert_eq!(p.model().screen, AppScreen::Game);
}

#[test]
fn phone_can_move_between_threads() {
    fn send<T: Send + 'static>() {}
    send::<Phone>();
}

#[test]
fn every_profile_and_layout_renders() {
    for prof in crate::profile::PROFILES {
        for keypad in [KeypadStyle::Row, KeypadStyle::TwoRows] {
            let mut p = Phone::new(
                prof.clone(),
                AppOptions {
                    keypad,
                    ..AppOptions::default()
                },
            );
            let home = p.screenshot();
            p.start_level(70).unwrap();
            let game = p.screenshot();
            assert_eq!(game.dimensions(), (prof.width, prof.height));
            assert!(home != game);
        }
    }
}

#[test]
fn the_action_rows_erase_and_the_cross_key_clear_a_cell() {
    for name in ["actions", "held-out"] {
        let mut p = phone(AppOptions {
            style: style::Style::by_name(name).unwrap(),
            ..AppOptions::default()
        });
        p.start_level(1).unwrap();
        let before = p.screenshot();
        let cell = first_empty(&p);
        tap_cell(&mut p, cell);
        tap_digit(&mut p, 5);
        assert_eq!(board(&p).get(cell), 5, "{name}");
        assert!(p.screenshot() != before);
        tap_erase(&mut p);
        assert_eq!(board(&p).get(cell), 0, "{name}");
    }
}
