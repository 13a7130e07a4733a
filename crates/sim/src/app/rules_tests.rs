//! Each input rule (`super::rules`) as tap sequences against a phone: the board, the selection,
//! the brush and the screen afterwards.

use super::rules::*;
use super::*;
use crate::profile::profile;
use std::time::Duration;
use sudoku_autoplay::board::Board;

const LEVEL: u32 = 5;

fn ruled(rules: InputRules, mistake_limit: Option<u32>) -> Phone {
    ruled_style(rules, mistake_limit, style::Style::default())
}

fn ruled_style(rules: InputRules, mistake_limit: Option<u32>, style: style::Style) -> Phone {
    let mut p = Phone::new(
        profile("budget").unwrap().clone(),
        AppOptions {
            rules,
            mistake_limit,
            style,
            ..AppOptions::default()
        },
    );
    p.start_level(LEVEL).unwrap();
    p
}

fn cell(p: &mut Phone, c: usize) {
    let (x, y) = p.layout().cell_center(c);
    p.tap(x, y);
}

/// The key in slot `d` (the key of digit `d` unless keys re-flowed).
fn key(p: &mut Phone, d: u8) {
    let (x, y) = p.layout().key_center(d);
    p.tap(x, y);
}

fn erase(p: &mut Phone) {
    let (x, y) = p.layout().erase.center();
    p.tap(x, y);
}

fn undo(p: &mut Phone) {
    assert!(p.layout().undo.w > 0, "an undo key");
    let (x, y) = p.layout().undo.center();
    p.tap(x, y);
}

fn state(p: &Phone) -> serde_json::Value {
    p.dumpsys()
}

fn board(p: &Phone) -> Board {
    Board::parse_line(state(p)["board"].as_str().unwrap()).unwrap()
}

fn game(p: &Phone) -> &game::Game {
    p.model().game.as_ref().unwrap()
}

/// Empty cells and their solution's digits.
fn empties(p: &Phone) -> Vec<(usize, u8)> {
    let g = game(p);
    (0..81)
        .filter(|&c| !g.is_given(c))
        .map(|c| (c, g.solution.get(c)))
        .collect()
}

/// A wrong digit for `c` that repeats nothing in its row, column or box, if any.
fn wrong_free(p: &Phone, c: usize) -> Option<u8> {
    let g = game(p);
    (1..=9).find(|&d| {
        d != g.solution.get(c)
            && (0..81).all(|o| {
                o == c
                    || g.board.get(o) != d
                    || (o / 9 != c / 9
                        && o % 9 != c % 9
                        && (o / 27, o % 9 / 3) != (c / 27, c % 9 / 3))
            })
    })
}

/// A wrong digit for `c` that repeats a digit of its row.
fn wrong_repeat(p: &Phone, c: usize) -> u8 {
    let g = game(p);
    let row = c / 9;
    (0..9)
        .map(|i| g.board.get(row * 9 + i))
        .find(|&d| d != 0)
        .unwrap()
}

#[test]
fn the_default_rules_are_reported_and_keep_todays_behaviour() {
    let mut p = ruled(InputRules::default(), None);
    let r = &state(&p)["rules"];
    assert_eq!(r["input_order"], "cell-first");
    assert_eq!(r["retap"], "nothing");
    assert_eq!(r["same_digit"], "reenter");
    assert_eq!(r["erase"], "clears");
    assert_eq!(r["mistakes"], "solution");
    assert_eq!(r["completion"], "dialog");
    assert_eq!(r["language"], "english");
    assert_eq!(r["finished_keys"], "shown");
    assert_eq!(r["frame_reads"], false);
    assert_eq!(p.layout().undo, Rect::default(), "no undo key");
    let (c, right) = empties(&p)[0];
    cell(&mut p, c);
    cell(&mut p, c);
    assert_eq!(state(&p)["selected"], c, "a re-tap keeps the selection");
    let wrong = (1..=9).find(|&d| d != right).unwrap();
    key(&mut p, wrong);
    key(&mut p, wrong);
    assert_eq!(
        state(&p)["mistakes"],
        2,
        "the same wrong digit counts again"
    );
    assert_eq!(board(&p).get(c), wrong);
    // The disc style has no erase key: the same digit clears.
    let disc = ruled_style(
        InputRules::default(),
        None,
        style::Style::by_name("disc").unwrap(),
    );
    assert_eq!(state(&disc)["rules"]["same_digit"], "clear");
    assert_eq!(state(&disc)["rules"]["erase"], "absent");
}

use geometry::Rect;

#[test]
fn digit_first_arms_a_brush_and_cells_take_it() {
    let rules = InputRules {
        order: InputOrder::DigitFirst,
        retap_brush: BrushRetap::Clear,
        same_digit: Some(SameDigitAgain::Clear),
        ..InputRules::default()
    };
    let mut p = ruled(rules, None);
    let e = empties(&p);
    let (a, b) = (e[0].0, e[1].0);
    assert!(state(&p)["brush"].is_null(), "no brush at start");
    cell(&mut p, a);
    assert_eq!(
        board(&p).get(a),
        0,
        "a cell tap without a brush does nothing"
    );
    assert!(state(&p)["selected"].is_null(), "and selects nothing");
    key(&mut p, 3);
    assert_eq!(state(&p)["brush"], 3);
    cell(&mut p, a);
    cell(&mut p, b);
    assert_eq!((board(&p).get(a), board(&p).get(b)), (3, 3));
    cell(&mut p, a);
    assert_eq!(board(&p).get(a), 0, "the same digit again clears");
    key(&mut p, 3);
    assert!(state(&p)["brush"].is_null(), "a re-tapped brush is dropped");
    cell(&mut p, a);
    assert_eq!(board(&p).get(a), 0);
    // The erase key arms an eraser.
    erase(&mut p);
    assert_eq!(state(&p)["brush"], "erase");
    cell(&mut p, b);
    assert_eq!(board(&p).get(b), 0);
    // Armed at start.
    let armed = ruled(
        InputRules {
            order: InputOrder::DigitFirstArmed,
            ..rules
        },
        None,
    );
    assert_eq!(state(&armed)["brush"], 1);
}

#[test]
fn both_orders_a_digit_with_no_cell_arms_a_brush() {
    let rules = InputRules {
        order: InputOrder::Both,
        retap: Retap::Deselect,
        retap_brush: BrushRetap::Clear,
        ..InputRules::default()
    };
    let mut p = ruled(rules, None);
    let e = empties(&p);
    let (a, b) = (e[0].0, e[1].0);
    cell(&mut p, a);
    key(&mut p, 4);
    assert_eq!(board(&p).get(a), 4, "cell-first with a cell selected");
    assert_eq!(state(&p)["selected"], a);
    cell(&mut p, a);
    assert!(state(&p)["selected"].is_null(), "a re-tap deselects");
    key(&mut p, 6);
    assert_eq!(state(&p)["brush"], 6, "a digit with no cell arms a brush");
    cell(&mut p, b);
    assert_eq!(board(&p).get(b), 6, "and cells take it");
    assert!(state(&p)["selected"].is_null());
    key(&mut p, 6);
    assert!(state(&p)["brush"].is_null(), "the brush again drops it");
    cell(&mut p, b);
    assert_eq!(state(&p)["selected"], b, "cell-first again");
}

#[test]
fn a_retapped_cell_toggles_pencil_mode() {
    let rules = InputRules {
        retap: Retap::Pencil,
        ..InputRules::default()
    };
    let mut p = ruled(rules, None);
    let (a, _) = empties(&p)[0];
    cell(&mut p, a);
    let plain = p.screenshot();
    cell(&mut p, a);
    assert_eq!(state(&p)["pencil"], true);
    assert_eq!(state(&p)["selected"], a, "still selected");
    assert_ne!(p.screenshot(), plain, "pencil mode shows");
    key(&mut p, 2);
    key(&mut p, 7);
    assert_eq!(board(&p).get(a), 0, "digits become pencil marks");
    assert_eq!(game(&p).notes[a], (1 << 2) | (1 << 7));
    key(&mut p, 2);
    assert_eq!(game(&p).notes[a], 1 << 7, "a mark again removes it");
    cell(&mut p, a);
    assert_eq!(state(&p)["pencil"], false);
    key(&mut p, 2);
    assert_eq!(board(&p).get(a), 2);
}

#[test]
fn the_selection_can_be_cleared_after_each_entry() {
    let rules = InputRules {
        after_entry: SelectionAfterEntry::Clear,
        ..InputRules::default()
    };
    let mut p = ruled(rules, None);
    let (a, _) = empties(&p)[0];
    cell(&mut p, a);
    key(&mut p, 5);
    assert_eq!(board(&p).get(a), 5);
    assert!(state(&p)["selected"].is_null());
    key(&mut p, 6);
    assert_eq!(board(&p).get(a), 5, "the next digit goes nowhere");
}

#[test]
fn the_keypad_comes_up_only_for_a_selected_cell_that_takes_digits() {
    let rules = InputRules {
        keypad_on_select: true,
        ..InputRules::default()
    };
    let mut p = ruled(rules, None);
    let keys_drawn = |p: &mut Phone| {
        let k = p.layout().keys[4];
        let dump = p.ui_dump().unwrap();
        let frame = p.screenshot();
        let (x, y) = k.center();
        let bg = frame.get_pixel((k.x - 2).max(0) as u32, y as u32);
        (
            dump.contains("text=\"5\"") && dump.contains("Erase"),
            frame.get_pixel(x as u32, (k.y + 2) as u32) != bg,
        )
    };
    assert_eq!(keys_drawn(&mut p), (false, false), "no keypad at first");
    let (a, right) = empties(&p)[0];
    key(&mut p, right);
    assert_eq!(
        board(&p).get(a),
        0,
        "a tap where a key would be does nothing"
    );
    // A given selected: still none.
    let given = (0..81).find(|&c| game(&p).is_given(c)).unwrap();
    cell(&mut p, given);
    assert_eq!(keys_drawn(&mut p), (false, false));
    cell(&mut p, a);
    assert_eq!(
        keys_drawn(&mut p),
        (true, true),
        "the keypad for an empty cell"
    );
    key(&mut p, right);
    assert_eq!(board(&p).get(a), right);
    erase(&mut p);
    assert_eq!(board(&p).get(a), 0);
}

#[test]
fn the_same_digit_again_does_nothing_clears_or_clears_late() {
    let mut p = ruled(
        InputRules {
            same_digit: Some(SameDigitAgain::Nothing),
            ..InputRules::default()
        },
        None,
    );
    let (a, right) = empties(&p)[0];
    let wrong = (1..=9).find(|&d| d != right).unwrap();
    cell(&mut p, a);
    key(&mut p, wrong);
    key(&mut p, wrong);
    assert_eq!(board(&p).get(a), wrong);
    assert_eq!(state(&p)["mistakes"], 1, "not counted again");
    assert_eq!(state(&p)["digits_entered"], 1);

    let mut p = ruled(
        InputRules {
            same_digit: Some(SameDigitAgain::Clear),
            ..InputRules::default()
        },
        None,
    );
    cell(&mut p, a);
    key(&mut p, 8);
    key(&mut p, 8);
    assert_eq!(board(&p).get(a), 0);
    assert_eq!(state(&p)["erasures"], 1);

    let mut p = ruled(
        InputRules {
            same_digit: Some(SameDigitAgain::ClearLate),
            ..InputRules::default()
        },
        None,
    );
    let t0 = Instant::now();
    let (x, y) = p.layout().cell_center(a);
    p.tap_at(x, y, t0);
    let (kx, ky) = p.layout().key_center(8);
    p.tap_at(kx, ky, t0);
    p.tap_at(kx, ky, t0 + Duration::from_millis(10));
    assert_eq!(board(&p).get(a), 8, "not yet");
    // Another digit goes in before the late clear, which clears it all the same.
    let (nx, ny) = p.layout().key_center(9);
    p.tap_at(nx, ny, t0 + Duration::from_millis(100));
    assert_eq!(board(&p).get(a), 9);
    p.tick_at(t0 + Duration::from_millis(150));
    assert_eq!(board(&p).get(a), 9);
    p.tick_at(t0 + Duration::from_millis(250));
    assert_eq!(board(&p).get(a), 0, "cleared 190 ms after the tap");
}

#[test]
fn the_erase_key_clears_is_absent_or_does_nothing() {
    let mut p = ruled(
        InputRules {
            erase: EraseRule::Inert,
            ..InputRules::default()
        },
        None,
    );
    let (a, _) = empties(&p)[0];
    cell(&mut p, a);
    key(&mut p, 4);
    erase(&mut p);
    assert_eq!(board(&p).get(a), 4, "an inert erase key");
    assert!(p.ui_dump().unwrap().contains("text=\"Erase\""));

    let mut p = ruled(
        InputRules {
            erase: EraseRule::Absent,
            ..InputRules::default()
        },
        None,
    );
    assert_eq!(p.layout().erase, Rect::default(), "no erase key");
    assert_eq!(state(&p)["rules"]["erase"], "absent");
    assert_eq!(state(&p)["rules"]["same_digit"], "clear");
    cell(&mut p, a);
    key(&mut p, 4);
    key(&mut p, 4);
    assert_eq!(board(&p).get(a), 0, "the same digit clears instead");
}

#[test]
fn correct_digits_are_locked_and_only_undo_takes_them_back() {
    let mut p = ruled(
        InputRules {
            lock_correct: true,
            undo_key: true,
            ..InputRules::default()
        },
        None,
    );
    let (a, right) = empties(&p)[0];
    let wrong = (1..=9).find(|&d| d != right).unwrap();
    cell(&mut p, a);
    key(&mut p, wrong);
    key(&mut p, right);
    assert_eq!(board(&p).get(a), right, "a wrong digit can be overwritten");
    key(&mut p, wrong);
    erase(&mut p);
    assert_eq!(board(&p).get(a), right, "a correct one cannot, nor erased");
    undo(&mut p);
    assert_eq!(board(&p).get(a), wrong, "undo goes back one entry");
    undo(&mut p);
    assert_eq!(board(&p).get(a), 0);
    undo(&mut p);
    assert_eq!(board(&p).get(a), 0, "nothing more to undo");
}

#[test]
fn undo_takes_entries_back_last_in_first_out() {
    let mut p = ruled(
        InputRules {
            undo_key: true,
            ..InputRules::default()
        },
        None,
    );
    let e = empties(&p);
    let (a, b) = (e[0].0, e[1].0);
    cell(&mut p, a);
    key(&mut p, 1);
    key(&mut p, 2);
    cell(&mut p, b);
    key(&mut p, 3);
    erase(&mut p);
    assert_eq!(state(&p)["undo_depth"], 4);
    undo(&mut p);
    assert_eq!(board(&p).get(b), 3, "the erasure undone");
    undo(&mut p);
    assert_eq!(board(&p).get(b), 0);
    undo(&mut p);
    assert_eq!(board(&p).get(a), 1);
    undo(&mut p);
    assert_eq!(board(&p), *levels::level(LEVEL).unwrap());
    assert!(p.ui_dump().unwrap().contains("content-desc=\"Undo\""));
}

#[test]
fn rule_breaking_digits_are_refused_with_an_alert() {
    let mut p = ruled(
        InputRules {
            refuse_conflicts: true,
            mistakes: Mistakes::Rules,
            ..InputRules::default()
        },
        Some(2),
    );
    let (a, _) = empties(&p)[0];
    let bad = wrong_repeat(&p, a);
    cell(&mut p, a);
    key(&mut p, bad);
    assert_eq!(board(&p).get(a), 0, "refused");
    assert_eq!(state(&p)["screen"], "alert");
    assert_eq!(state(&p)["mistakes"], 1);
    let xml = p.ui_dump().unwrap();
    assert!(
        xml.contains("Invalid move") && xml.contains("text=\"OK\""),
        "{xml}"
    );
    key(&mut p, 1);
    p.key(Key::Back);
    assert_eq!(state(&p)["screen"], "alert", "only OK closes it");
    assert_eq!(board(&p).get(a), 0);
    let (x, y) = p.layout().dialog_next.center();
    p.tap(x, y);
    assert_eq!(state(&p)["screen"], "game");
    key(&mut p, bad);
    assert_eq!(
        state(&p)["screen"],
        "game_over",
        "the second mistake ends it"
    );
}

#[test]
fn mistakes_count_against_the_solution_the_rules_or_not_at_all() {
    // Against the rules: a wrong digit that repeats nothing is no mistake.
    let mut p = ruled(
        InputRules {
            mistakes: Mistakes::Rules,
            ..InputRules::default()
        },
        Some(1),
    );
    let (a, b) = {
        let e = empties(&p);
        let a = e
            .iter()
            .find(|&&(c, _)| wrong_free(&p, c).is_some())
            .unwrap()
            .0;
        (a, e.iter().find(|&&(c, _)| c != a).unwrap().0)
    };
    let free = wrong_free(&p, a).unwrap();
    cell(&mut p, a);
    key(&mut p, free);
    assert_eq!(
        (state(&p)["mistakes"].as_u64(), screen(&p)),
        (Some(0), "game".into())
    );
    cell(&mut p, b);
    let bad = wrong_repeat(&p, b);
    key(&mut p, bad);
    assert_eq!(screen(&p), "game_over");

    let mut p = ruled(
        InputRules {
            mistakes: Mistakes::None,
            ..InputRules::default()
        },
        Some(1),
    );
    cell(&mut p, a);
    key(&mut p, free);
    let bad = wrong_repeat(&p, a);
    key(&mut p, bad);
    assert_eq!(
        (state(&p)["mistakes"].as_u64(), screen(&p)),
        (Some(0), "game".into())
    );
}

#[test]
fn a_mistake_limit_shows_its_counter_unless_hidden() {
    let mut p = ruled(
        InputRules {
            language: Language::Turkish,
            ..InputRules::default()
        },
        Some(3),
    );
    let before = p.screenshot();
    assert!(p.ui_dump().unwrap().contains("text=\"Hata: 0/3\""));
    let (a, right) = empties(&p)[0];
    cell(&mut p, a);
    key(&mut p, (1..=9).find(|&d| d != right).unwrap());
    assert!(p.ui_dump().unwrap().contains("text=\"Hata: 1/3\""));
    // Drawn in the app bar.
    let bar = p.layout().app_bar;
    let after = p.screenshot();
    let differs = (bar.x..bar.right())
        .flat_map(|x| (bar.y..bar.bottom()).map(move |y| (x as u32, y as u32)))
        .any(|(x, y)| before.get_pixel(x, y) != after.get_pixel(x, y));
    assert!(differs, "the counter changed in the app bar");
    let mut hidden = ruled(
        InputRules {
            hide_mistakes: true,
            ..InputRules::default()
        },
        Some(3),
    );
    assert!(!hidden.ui_dump().unwrap().contains("0/3"));
    let mut plain = ruled(InputRules::default(), None);
    assert!(!plain.ui_dump().unwrap().contains("Mistakes"));
}

fn screen(p: &Phone) -> String {
    state(p)["screen"].as_str().unwrap().to_string()
}

/// Two wrong digits with a limit of 2: the game over.
fn lose(p: &mut Phone) {
    let (a, right) = empties(p)[0];
    let wrong = (1..=9).find(|&d| d != right).unwrap();
    cell(p, a);
    key(p, wrong);
    key(p, wrong);
    assert_eq!(screen(p), "game_over");
}

#[test]
fn a_game_over_in_russian_is_in_the_a11y_dump_in_each_form() {
    for form in [EndForm::Dialog, EndForm::Screen, EndForm::Line] {
        let mut p = ruled(
            InputRules {
                game_over: form,
                language: Language::Russian,
                ..InputRules::default()
            },
            Some(2),
        );
        lose(&mut p);
        let xml = p.ui_dump().unwrap();
        assert!(xml.contains("text=\"Игра окончена\""), "{form:?}: {xml}");
        assert!(
            xml.contains("Ошибок: 2") && xml.contains("Ещё раз"),
            "{xml}"
        );
        assert_eq!(
            xml.contains("Sudoku board"),
            form == EndForm::Line,
            "{form:?}: only the line keeps the board"
        );
        assert_eq!(state(&p)["end_title"], "Игра окончена");
        // Its Try again button works where it is drawn (once faded in).
        let e = p.layout().end_rects(form);
        std::thread::sleep(std::time::Duration::from_millis(210));
        let shot = p.screenshot();
        let (x, y) = e.primary.center();
        assert!(shot.get_pixel(x as u32, y as u32).0 != shot.get_pixel(0, y as u32).0);
        p.tap(x, y);
        assert_eq!(screen(&p), "game", "{form:?}");
    }
}

#[test]
fn completion_in_turkish_as_a_line_under_the_board_and_as_a_screen() {
    for form in [EndForm::Line, EndForm::Screen, EndForm::Dialog] {
        let mut p = ruled(
            InputRules {
                completion: form,
                language: Language::Turkish,
                ..InputRules::default()
            },
            None,
        );
        for (c, d) in empties(&p) {
            cell(&mut p, c);
            key(&mut p, d);
        }
        assert_eq!(screen(&p), "complete");
        let xml = p.ui_dump().unwrap();
        assert!(xml.contains("text=\"BAŞARILI\""), "{form:?}: {xml}");
        assert!(xml.contains("Bölüm 5 tamamlandı"), "{xml}");
        let (x, y) = p.layout().end_rects(form).primary.center();
        p.tap(x, y);
        assert_eq!(state(&p)["level"], LEVEL + 1, "{form:?}: Next");
    }
}

#[test]
fn random_words_are_picked_per_game_and_reproducible() {
    let titles = |seed: u64| {
        let mut p = Phone::new(
            profile("budget").unwrap().clone(),
            AppOptions {
                rules: InputRules {
                    language: Language::Random,
                    ..InputRules::default()
                },
                mistake_limit: Some(2),
                seed,
                ..AppOptions::default()
            },
        );
        (1..=12)
            .map(|n| {
                p.start_level(n).unwrap();
                lose(&mut p);
                state(&p)["end_title"].as_str().unwrap().to_string()
            })
            .collect::<Vec<_>>()
    };
    let a = titles(7);
    assert_eq!(a, titles(7));
    let distinct: std::collections::HashSet<_> = a.iter().collect();
    assert!(distinct.len() >= 3, "{a:?}");
    for t in &a {
        assert!(RANDOM_WORDS.iter().any(|w| w.over_title == t), "{t}");
    }
}

/// Fills every cell whose solution is `d`; returns another empty cell.
fn finish_digit(p: &mut Phone, d: u8) -> usize {
    for (c, s) in empties(p) {
        if s == d {
            cell(p, c);
            key(p, d);
        }
    }
    empties(p)
        .into_iter()
        .find(|&(c, _)| board(p).get(c) == 0)
        .unwrap()
        .0
}

#[test]
fn finished_keys_hide_grey_or_reflow() {
    let rules = |f| InputRules {
        finished_keys: Some(f),
        ..InputRules::default()
    };
    // Removed: the keys after 4 move up one slot.
    let mut p = ruled(rules(FinishedKeyLook::Removed), None);
    let other = finish_digit(&mut p, 4);
    cell(&mut p, other);
    key(&mut p, 4);
    assert_eq!(board(&p).get(other), 5, "slot 4 now holds the 5");
    key(&mut p, 9);
    assert_eq!(board(&p).get(other), 5, "the last slot is empty");
    let xml = p.ui_dump().unwrap();
    assert!(
        !xml.contains("text=\"4\"") && xml.contains("text=\"9\""),
        "{xml}"
    );
    // Greyed: the key stays and does nothing.
    let mut p = ruled(rules(FinishedKeyLook::Greyed), None);
    let other = finish_digit(&mut p, 4);
    cell(&mut p, other);
    key(&mut p, 4);
    assert_eq!(board(&p).get(other), 0);
    assert!(p.ui_dump().unwrap().contains("text=\"4\" resource-id=\"\" class=\"android.widget.Button\" package=\"org.autoplay.sudoku\" content-desc=\"\" checkable=\"false\" checked=\"false\" clickable=\"true\" enabled=\"false\""));
    // Hidden: gone, the others in place.
    let mut p = ruled(rules(FinishedKeyLook::Hidden), None);
    let other = finish_digit(&mut p, 4);
    cell(&mut p, other);
    key(&mut p, 4);
    assert_eq!(board(&p).get(other), 0);
    key(&mut p, 5);
    assert_eq!(board(&p).get(other), 5);
}

#[test]
fn taps_within_one_frame_see_the_state_before_the_first() {
    let rules = InputRules {
        frame_reads: true,
        ..InputRules::default()
    };
    let mut p = ruled(rules, None);
    let (a, _) = empties(&p)[0];
    let t0 = Instant::now();
    let (cx, cy) = p.layout().cell_center(a);
    let (kx, ky) = p.layout().key_center(6);
    p.tap_at(cx, cy, t0);
    p.tap_at(kx, ky, t0 + Duration::from_millis(10));
    assert_eq!(state(&p)["selected"], a, "the cell tap took effect");
    assert_eq!(board(&p).get(a), 0, "the digit saw no selection");
    p.tap_at(kx, ky, t0 + Duration::from_millis(40));
    assert_eq!(board(&p).get(a), 6, "a frame later it sees it");

    // Digit-first: a brush change and a cell tap in one frame: the old brush is written.
    let mut p = ruled(
        InputRules {
            order: InputOrder::DigitFirstArmed,
            same_digit: Some(SameDigitAgain::Clear),
            frame_reads: true,
            ..InputRules::default()
        },
        None,
    );
    let (x5, y5) = p.layout().key_center(5);
    p.tap_at(x5, y5, t0);
    p.tap_at(cx, cy, t0 + Duration::from_millis(16));
    assert_eq!(board(&p).get(a), 1, "the brush of the last frame");
    assert_eq!(state(&p)["brush"], 5);
    // Same-digit clear read from an old frame: the second tap re-places instead.
    let b = empties(&p)[1].0;
    let (bx, by) = p.layout().cell_center(b);
    let t1 = t0 + Duration::from_millis(100);
    p.tap_at(bx, by, t1);
    p.tap_at(bx, by, t1 + Duration::from_millis(5));
    assert_eq!(board(&p).get(b), 5, "both taps saw an empty cell");
    p.tap_at(bx, by, t1 + Duration::from_millis(50));
    assert_eq!(board(&p).get(b), 0, "a frame later the same digit clears");
}

#[test]
fn end_lines_and_screens_fit_on_every_profile() {
    for prof in crate::profile::PROFILES {
        for style in style::Style::all() {
            for keypad in [KeypadStyle::Row, KeypadStyle::TwoRows, KeypadStyle::Grid] {
                let mut l = screens::layout::ScreenLayout::new(prof, keypad, style);
                l.apply_rules(
                    &InputRules {
                        undo_key: true,
                        ..InputRules::default()
                    },
                    style,
                );
                for form in [EndForm::Line, EndForm::Screen] {
                    let e = l.end_rects(form);
                    for r in [e.title, e.sub, e.home, e.primary] {
                        assert!(
                            r.y >= l.app_bar.bottom() && r.bottom() <= l.content().bottom(),
                            "{} {} {keypad:?} {form:?}: {r:?}",
                            prof.name,
                            style.name
                        );
                    }
                    let (h, q) = (e.home, e.primary);
                    let apart = h.right() <= q.x
                        || q.right() <= h.x
                        || h.bottom() <= q.y
                        || q.bottom() <= h.y;
                    assert!(apart, "{} {form:?}: {h:?} {q:?}", prof.name);
                }
                assert!(l.undo.w > 0 && !l.undo.contains(l.back.center().0, l.back.center().1));
            }
        }
    }
}

#[test]
fn a_style_without_an_erase_key_clears_and_a_hiding_style_hides_finished_keys() {
    let rules = InputRules::default();
    let disc = style::Style::by_name("disc").unwrap();
    let classic = style::Style::default();
    assert_eq!(disc.erase, style::EraseKey::None, "no erase key to tap");
    assert_eq!(
        rules.same_digit(&disc),
        SameDigitAgain::Clear,
        "the same digit again clears"
    );
    assert_eq!(rules.same_digit(&classic), SameDigitAgain::Reenter);
    // Nine 4s on the board: the tinted style hides the key, the classic one shows it.
    let mut g = game::Game::new(1).unwrap();
    let mut fours = (0..81).filter(|&c| g.board.get(c) == 4).count();
    for c in 0..81 {
        if fours < 9 && g.board.get(c) != 4 {
            g.board.set(c, 4);
            fours += 1;
        }
    }
    assert_eq!(g.remaining(4), 0);
    let tinted = style::Style::by_name("tinted").unwrap();
    assert_eq!(game::key_slots(&g, rules.finished_keys(&tinted))[3], None);
    assert_eq!(
        game::key_slots(&g, rules.finished_keys(&classic))[3],
        Some((4, false))
    );
}

#[test]
fn a_dialog_fades_in_over_the_screen_it_covers() {
    let mut p = ruled(InputRules::default(), None);
    let empties = empties(&p);
    let ((last, digit), rest) = empties.split_last().unwrap();
    for &(c, d) in rest {
        cell(&mut p, c);
        key(&mut p, d);
    }
    let before = p.screenshot();
    cell(&mut p, *last);
    key(&mut p, *digit);
    assert_eq!(screen(&p), "complete");
    // The completing digit's first frame: the dialog and its dim have hardly begun.
    let first = p.screenshot();
    let centre = p.layout().dialog.center();
    let (x, y) = (centre.0 as u32, centre.1 as u32);
    let at = |img: &image::RgbaImage| i32::from(img.get_pixel(x, y).0[0]);
    std::thread::sleep(std::time::Duration::from_millis(210));
    let shown = p.screenshot();
    assert!(
        (at(&first) - at(&before)).abs() < (at(&shown) - at(&before)).abs() / 2,
        "{} {} {}",
        at(&before),
        at(&first),
        at(&shown)
    );
}
