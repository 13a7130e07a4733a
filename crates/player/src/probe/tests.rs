//! The probe on an app in memory ([`FakeApp`]) that takes taps by each rule class: what the
//! probe finds is the app's rule, it writes no wrong digit, and it leaves the board as it found
//! it (but for a digit the app locks).

use super::fake::{FakeApp, Rules};
use super::{Probed, probe};
use crate::board::Board;
use crate::calibration::{
    AfterEntry, BrushRetap, FinishedKeys, InputMode, Retap, RuleKey, SameDigit, TakeBack,
};

/// LeetCode 37's puzzle: one solution, thirty givens.
const LEET: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

fn leet() -> Board {
    Board::parse_line(LEET).unwrap()
}

/// Probes an app with `rules` on `givens` (showing `start`); the probe's findings, and the app.
fn probed_on(rules: Rules, givens: Board, start: Board) -> (anyhow::Result<Probed>, FakeApp) {
    let mut app = FakeApp::new(rules, givens, start);
    let cal = app.calibration();
    let undo = None;
    let probed = probe(&mut app, &cal, undo, &mut |_| {});
    (probed, app)
}

/// Probes an app with `rules` on LEET: the findings, checked to have cost no mistake and to
/// have left the board as it was.
fn probe_rules(rules: Rules) -> Probed {
    let (probed, mut app) = probed_on(rules, leet(), leet());
    let probed = probed.unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(app.mistakes, 0, "the probe wrote a wrong digit");
    if probed.kept.is_none() {
        assert_eq!(
            app.board(),
            leet(),
            "the board is not as the probe found it"
        );
    }
    probed
}

#[test]
fn the_fake_apps_screen_reads_with_its_calibration() {
    let mut app = FakeApp::new(Rules::default(), leet(), leet());
    let cal = app.calibration();
    let frame = super::ProbeTarget::screenshot(&mut app).unwrap();
    assert_eq!(cal.read(&frame).unwrap().board, leet());
    assert_eq!(cal.read_if_visible(&frame).unwrap(), Some(leet()));
}

#[test]
fn input_order_cell_first() {
    let p = probe_rules(Rules::default());
    assert_eq!(p.input.mode, InputMode::CellFirst);
    assert!(
        p.input.seen[&RuleKey::Mode].contains("went in"),
        "{:?}",
        p.input.seen
    );
    // The plain app: nothing special found.
    assert_eq!(
        (p.input.retap, p.input.after_entry, p.input.same_digit),
        (Retap::Nothing, AfterEntry::Keep, Some(SameDigit::Nothing))
    );
    assert_eq!(p.input.take_back, Some(TakeBack::Erase));
    assert!(!p.input.locked && !p.input.frame_reads && p.input.undo.is_none());
}

#[test]
fn input_order_digit_first() {
    let p = probe_rules(Rules {
        mode: InputMode::DigitFirst,
        ..Rules::default()
    });
    assert_eq!(p.input.mode, InputMode::DigitFirst);
    assert!(
        p.input.seen[&RuleKey::Mode].contains("a brush"),
        "{:?}",
        p.input.seen
    );
    assert_eq!(p.input.take_back, Some(TakeBack::Erase));
}

#[test]
fn input_order_both() {
    // Cell-first, but a digit with no cell selected arms a brush: seen once a re-tap deselected
    // the cell.
    let p = probe_rules(Rules {
        mode: InputMode::Both,
        retap: Retap::Deselect,
        brush_retap: BrushRetap::Clear,
        ..Rules::default()
    });
    assert_eq!(
        (p.input.mode, p.input.retap),
        (InputMode::Both, Retap::Deselect)
    );
    assert_eq!(p.input.brush_retap, BrushRetap::Clear);
}

#[test]
fn retap_deselects() {
    let p = probe_rules(Rules {
        retap: Retap::Deselect,
        ..Rules::default()
    });
    assert_eq!(
        (p.input.mode, p.input.retap),
        (InputMode::CellFirst, Retap::Deselect)
    );
}

#[test]
fn retap_toggles_pencil_mode() {
    let p = probe_rules(Rules {
        retap: Retap::Pencil,
        same_digit: Some(SameDigit::Nothing),
        ..Rules::default()
    });
    assert_eq!(p.input.retap, Retap::Pencil);
    assert!(
        p.input.seen[&RuleKey::Retap].contains("pencil"),
        "{:?}",
        p.input.seen
    );
}

#[test]
fn retap_keeps_the_selection() {
    let p = probe_rules(Rules::default());
    assert_eq!(p.input.retap, Retap::Nothing);
}

#[test]
fn the_selection_dropped_after_an_entry() {
    let p = probe_rules(Rules {
        after_entry: AfterEntry::Clear,
        ..Rules::default()
    });
    assert_eq!(p.input.after_entry, AfterEntry::Clear);
    // Where the screen does not show the selection, the probe says so.
    let p = probe_rules(Rules {
        shows_selection: false,
        ..Rules::default()
    });
    assert_eq!(p.input.after_entry, AfterEntry::Unknown);
}

#[test]
fn the_same_digit_again_clears_at_once() {
    let p = probe_rules(Rules {
        same_digit: Some(SameDigit::Clear),
        erase: None,
        ..Rules::default()
    });
    assert_eq!(p.input.same_digit, Some(SameDigit::Clear));
    assert_eq!(p.input.take_back, Some(TakeBack::Digit));
    assert!(p.toggle_confirmed);
}

#[test]
fn the_same_digit_again_clears_late() {
    let p = probe_rules(Rules {
        same_digit: Some(SameDigit::ClearLate),
        erase: None,
        ..Rules::default()
    });
    assert_eq!(p.input.same_digit, Some(SameDigit::ClearLate));
    assert_eq!(p.input.take_back, Some(TakeBack::Digit));
    // Seen by looks 40 ms apart from the end of the tap's own step (50 ms), and a margin of
    // 50 ms added: at least the app's 190 ms.
    let late = p.input.clear_late_ms.unwrap();
    assert!((190..=190 + 40).contains(&late), "{late}");
}

#[test]
fn an_erase_key_that_does_nothing_and_an_undo_key() {
    let p = probe_rules(Rules {
        erase: Some(false),
        undo_key: true,
        ..Rules::default()
    });
    assert!(
        p.input.seen[&RuleKey::Erase].contains("the digit stayed"),
        "{:?}",
        p.input.seen
    );
    assert_eq!(p.input.take_back, Some(TakeBack::Undo));
    assert_eq!(p.input.undo, Some([440, 830]));
    // Erase does not take a right digit back, nor the digit again: locked (undo does).
    assert!(p.input.locked);
}

#[test]
fn an_undo_key_found_by_its_words() {
    let p = probe_rules(Rules {
        undo_key: true,
        ..Rules::default()
    });
    assert_eq!(p.input.undo, Some([440, 830]));
    assert!(
        p.input.seen[&RuleKey::Undo].contains("\"Undo\""),
        "{:?}",
        p.input.seen
    );
    // The erase key was found first: the search's undos erase.
    assert_eq!(p.input.take_back, Some(TakeBack::Erase));
}

#[test]
fn locked_right_digits() {
    // Only undo takes a right digit back.
    let p = probe_rules(Rules {
        lock_correct: true,
        undo_key: true,
        ..Rules::default()
    });
    assert!(p.input.locked);
    assert_eq!(p.input.take_back, Some(TakeBack::Undo));
    // Nothing takes it back: it stays, and the probe names it.
    let (probed, mut app) = probed_on(
        Rules {
            lock_correct: true,
            ..Rules::default()
        },
        leet(),
        leet(),
    );
    let p = probed.unwrap_or_else(|e| panic!("{e:#}"));
    assert!(p.input.locked);
    assert_eq!(p.input.take_back, Some(TakeBack::None));
    let (cell, digit) = p.kept.expect("the locked digit is named");
    assert_eq!(app.board().get(cell), digit);
    assert_eq!(app.mistakes, 0);
}

#[test]
fn taps_read_against_the_last_frame() {
    for mode in [InputMode::CellFirst, InputMode::DigitFirst] {
        let rules = Rules {
            mode,
            same_digit: Some(SameDigit::Clear),
            ..Rules::default()
        };
        let fresh = probe_rules(rules);
        assert!(!fresh.input.frame_reads, "{mode:?}: {:?}", fresh.input.seen);
        let stale = probe_rules(Rules {
            frame_reads: true,
            ..rules
        });
        assert!(stale.input.frame_reads, "{mode:?}: {:?}", stale.input.seen);
        assert!(stale.input.seen[&RuleKey::FrameReads].contains("at once"));
    }
}

#[test]
fn a_brush_dropped_by_its_key() {
    for (retap, found) in [
        (BrushRetap::Clear, BrushRetap::Clear),
        (BrushRetap::Nothing, BrushRetap::Nothing),
    ] {
        let p = probe_rules(Rules {
            mode: InputMode::DigitFirst,
            brush_retap: retap,
            same_digit: Some(SameDigit::Clear),
            erase: None,
            ..Rules::default()
        });
        assert_eq!(p.input.brush_retap, found, "{:?}", p.input.seen);
    }
}

/// LEET's solution with cells emptied: one 2 (a digit one short of nine), two each of 3 to 9
/// and four 1s (the probe's digit), so that the keys after 2's show unfinished digits; the
/// first such board, by the stride between the emptied cells of a digit, that keeps one
/// solution.
fn one_short_of_nine() -> Board {
    let solution = crate::solver::fast::solve(&leet()).unwrap();
    (1..=4)
        .map(|stride| {
            let mut board = solution;
            for (digit, n) in [
                (1u8, 4),
                (2, 1),
                (3, 2),
                (4, 2),
                (5, 2),
                (6, 2),
                (7, 2),
                (8, 2),
                (9, 2),
            ] {
                let cells: Vec<usize> = (0..81).filter(|&c| solution.get(c) == digit).collect();
                for &c in cells.iter().step_by(stride).take(n) {
                    board.set(c, 0);
                }
            }
            board
        })
        .find(|b| crate::solver::fast::solutions(b, 2).count == 1)
        .expect("a board with one solution")
}

#[test]
fn finished_keys_move_up_or_stay() {
    let board = one_short_of_nine();
    for reflow in [true, false] {
        let rules = Rules {
            reflow,
            ..Rules::default()
        };
        let (probed, mut app) = probed_on(rules, board, board);
        let p = probed.unwrap_or_else(|e| panic!("{e:#}"));
        let want = if reflow {
            FinishedKeys::Reflow
        } else {
            FinishedKeys::Stay
        };
        assert_eq!(p.input.finished_keys, want, "{:?}", p.input.seen);
        assert_eq!(app.board(), board);
    }
    // No digit one short of nine: not probed, looked at during the run.
    let p = probe_rules(Rules::default());
    assert_eq!(p.input.finished_keys, FinishedKeys::Unknown);
}

#[test]
fn a_mistake_counter() {
    let p = probe_rules(Rules {
        mistake_limit: Some(3),
        ..Rules::default()
    });
    assert_eq!(p.input.mistake_limit, Some(3));
    assert!(p.input.seen[&RuleKey::MistakeLimit].contains("Mistakes: 0/3"));
    assert_eq!(probe_rules(Rules::default()).input.mistake_limit, None);
}

#[test]
fn keys_that_write_nothing_stop_the_probe_which_says_so() {
    let mut app = FakeApp::new(Rules::default(), leet(), leet());
    let mut cal = app.calibration();
    // A calibration whose keypad is not where the app draws it.
    for key in &mut cal.keypad.digits {
        key[1] += 60;
    }
    let e = format!(
        "{:#}",
        probe(&mut app, &cal, None, &mut |_| {}).unwrap_err()
    );
    assert!(
        e.contains("tried twice") && e.contains("the board is as it was"),
        "{e}"
    );
    assert_eq!(app.board(), leet());
    assert_eq!(app.mistakes, 0);
}

#[test]
fn a_puzzle_with_several_solutions_is_probed_on_a_digit_every_solution_has() {
    // LEET with givens taken out until it has a few solutions; the app stores each of two in
    // turn: the probe's digit is right in both.
    let givens = crate::solver::fast::thinned(&leet(), 4, true);
    let first = crate::solver::fast::solve(&givens).unwrap();
    let other = crate::solver::fast::another_solution(&givens, &first).unwrap();
    for stored in [first, other] {
        let mut app = FakeApp::new(Rules::default(), givens, givens);
        app.solution = stored;
        let cal = app.calibration();
        let probed = probe(&mut app, &cal, None, &mut |_| {});
        probed.unwrap_or_else(|e| panic!("{e:#}"));
        assert_eq!(
            app.mistakes, 0,
            "the probe wrote a digit of another solution"
        );
        assert_eq!(app.board(), givens);
    }
}
