use super::*;
use crate::board::{Board, CELLS};
use crate::calibration::InputMode;
use crate::play::setnum::Cancel;
use crate::play::stop::{Restored, Stop, StopFlag, is_restored};
use crate::play::target::{Incident, Point};
use crate::play::target::{IncidentKind, Seen};
use crate::solver::Event;
use crate::solver::{Options, Recorder, Strategy, search};
use std::time::Duration;
use std::time::Instant;

/// A cell-first app in memory: a tap on a cell selects it, a keypad tap writes (or, with a
/// toggle layout, clears a cell holding that digit), erase clears; taps can be dropped, a popup
/// can swallow them, the link can drop, the game can end after too many mistakes. Its parts:
/// the game on its screen, the app's rules, the faults a test sets, the phone's state, and a
/// clock of its own.
struct MemoryApp<'a> {
    layout: &'a Layout,
    game: Game,
    rules: AppRules,
    faults: Faults,
    phone: Phone,
    /// A clock of its own, moved by taps, looks and pauses.
    clock: Clock,
}

/// The game on the app's screen.
struct Game {
    board: Board,
    givens: Board,
    solution: Board,
    selected: Option<usize>,
    taps: u64,
    mistakes: u32,
    /// Cells a digit tapped again clears later, and when.
    late_clears: Vec<(Instant, usize)>,
}

/// How the app behaves.
struct AppRules {
    completed_hides_board: bool,
    mistake_limit: Option<u32>,
    /// A digit's key does nothing while nine of it are on the board (apps that hide it).
    hide_completed: bool,
    /// A digit tapped again stays (the layout's toggle is a wrong guess).
    retap_keeps: bool,
    /// The end screens' words are in a language the player does not know, and BACK on them
    /// leaves for the level list.
    foreign_ends: bool,
    /// A digit tapped again clears its cell this much later, whatever it holds then.
    clear_late: Option<Duration>,
    /// The game is complete only with `solution` on the board (else any full valid board).
    checks_solution: bool,
    /// Entries that differ from `solution` are drawn in an error ink.
    marks_wrong: bool,
    /// The words shown under the board once the app takes it as solved (the board stays).
    end_line: Option<&'static str>,
}

/// What goes wrong, as the test sets it.
struct Faults {
    /// Drops taps whose number is in this set (1-based).
    drop: Box<dyn Fn(u64) -> bool>,
    /// A popup shows after this tap.
    popup_at: Option<u64>,
    /// The link drops with this tap (lost), and comes back.
    restore_at: Option<u64>,
    /// Asking for the screen's words loses the link this many times (then: no new words).
    words_lost: u32,
    /// BACK does not close the popup (a dialog that ignores it, or a phone that refuses
    /// the key).
    stuck_popup: bool,
    /// After the first look, the screen turns off after every look: the taps that follow
    /// are lost, and the next look wakes it (an interruption).
    sleeps_after_look: bool,
}

/// The phone's state around the app.
struct Phone {
    popup: bool,
    /// BACK on an end screen left for the level list.
    left: bool,
    asleep: bool,
    incidents: Vec<Incident>,
}

/// A phone's time that the test sets: each tap and each look takes so long; from some tap on,
/// taps may take longer (the phone or the host turned busy).
struct Clock {
    epoch: Instant,
    elapsed: Duration,
    tap: Duration,
    look: Duration,
    /// From this many taps on, each takes this long.
    slower: Option<(u64, Duration)>,
}

impl Clock {
    fn new(tap: Duration, look: Duration) -> Clock {
        Clock {
            epoch: Instant::now(),
            elapsed: Duration::ZERO,
            tap,
            look,
            slower: None,
        }
    }

    /// The time tap number `n` (from 1) takes.
    fn tap(&self, n: u64) -> Duration {
        match self.slower {
            Some((from, slow)) if n >= from => slow,
            _ => self.tap,
        }
    }
}

impl MemoryApp<'_> {
    /// Whether the app takes the board as solved.
    fn complete(&self) -> bool {
        self.game.board.is_solved()
            && (!self.rules.checks_solution || self.game.board == self.game.solution)
    }

    fn over(&self) -> bool {
        self.rules
            .mistake_limit
            .is_some_and(|n| self.game.mistakes >= n)
    }

    /// The late clears that fell due.
    fn advance(&mut self) {
        let now = self.now();
        for &(_, c) in self.game.late_clears.iter().filter(|(due, _)| *due <= now) {
            self.game.board.set(c, 0);
        }
        self.game.late_clears.retain(|(due, _)| *due > now);
    }
}

impl Target for MemoryApp<'_> {
    fn tap(&mut self, p: Point) -> anyhow::Result<()> {
        self.advance();
        self.game.taps += 1;
        self.clock.elapsed += self.clock.tap(self.game.taps);
        if self.faults.restore_at == Some(self.game.taps) {
            // The link drops with this tap (lost), and comes back.
            self.faults.restore_at = None;
            return Err(Restored.into());
        }
        if (self.faults.drop)(self.game.taps)
            || self.phone.popup
            || self.over()
            || self.phone.asleep
        {
            return Ok(());
        }
        if let Some(c) = self.layout.cells.iter().position(|&q| q == p) {
            self.game.selected = Some(c);
        } else if let Some(c) = self.game.selected.filter(|&c| self.game.givens.get(c) == 0) {
            let toggles = self.layout.cancel == Cancel::Toggle && !self.rules.retap_keeps;
            if let Some(d) = self.layout.keypad.iter().position(|&q| q == p) {
                let d = d as u8 + 1;
                let placed = (0..CELLS).filter(|&c| self.game.board.get(c) == d).count();
                if self.rules.hide_completed && placed == 9 {
                    // The key is hidden: the tap lands on nothing.
                } else if toggles && self.game.board.get(c) == d {
                    match self.rules.clear_late {
                        Some(late) => self.game.late_clears.push((self.now() + late, c)),
                        None => self.game.board.set(c, 0),
                    }
                } else {
                    self.game.board.set(c, d);
                    if d != self.game.solution.get(c) {
                        self.game.mistakes += 1;
                    }
                }
            } else if self.layout.cancel == Cancel::Erase(p) {
                self.game.board.set(c, 0);
            }
        }
        if self.faults.popup_at == Some(self.game.taps) {
            self.phone.popup = true;
        }
        Ok(())
    }
    fn sync(&mut self) -> anyhow::Result<()> {
        Ok(())
    }
    fn incidents(&mut self) -> Vec<Incident> {
        std::mem::take(&mut self.phone.incidents)
    }
    fn new_words(&mut self) -> anyhow::Result<Option<String>> {
        if self.faults.words_lost > 0 {
            self.faults.words_lost -= 1;
            return Err(Restored.into());
        }
        Ok(self
            .rules
            .end_line
            .filter(|_| self.complete())
            .map(|w| format!("the app shows \"{w}\"")))
    }
    fn now(&self) -> Instant {
        self.clock.epoch + self.clock.elapsed
    }
    fn pause(&mut self, d: Duration) {
        self.clock.elapsed += d;
    }
    fn look(&mut self) -> anyhow::Result<Seen> {
        self.advance();
        self.clock.elapsed += self.clock.look;
        if self.phone.asleep {
            self.phone.incidents.push(Incident {
                kind: IncidentKind::Interruption,
                what: "the screen was off: woke it up".into(),
            });
        }
        self.phone.asleep = self.faults.sleeps_after_look;
        let ended = self.over() || (self.complete() && self.rules.completed_hides_board);
        Ok(if self.phone.left {
            Seen::Other {
                what: "\"Επίπεδα\"".into(),
                in_app: true,
            }
        } else if self.rules.foreign_ends && ended && !self.phone.popup {
            Seen::Other {
                what: "\"Τέλος\"".into(),
                in_app: true,
            }
        } else if self.over() {
            Seen::GameOver {
                what: "\"Game over\"".into(),
            }
        } else if self.phone.popup {
            Seen::Other {
                what: "\"Rate this app\"".into(),
                in_app: true,
            }
        } else if self.complete() && self.rules.completed_hides_board {
            Seen::Completed {
                what: "\"Well done\"".into(),
            }
        } else {
            Seen::Board(self.game.board)
        })
    }
    fn marked_wrong(&mut self) -> anyhow::Result<Vec<usize>> {
        Ok((0..CELLS)
            .filter(|&c| self.rules.marks_wrong && self.game.givens.get(c) == 0)
            .filter(|&c| {
                self.game.board.get(c) != 0 && self.game.board.get(c) != self.game.solution.get(c)
            })
            .collect())
    }
    fn back(&mut self) -> anyhow::Result<()> {
        let ended = self.over() || (self.complete() && self.rules.completed_hides_board);
        if !self.phone.popup && self.rules.foreign_ends && ended {
            self.phone.left = true;
        }
        self.phone.popup &= self.faults.stuck_popup;
        Ok(())
    }
}

fn layout() -> Layout {
    crate::play::setnum::test_layout(InputMode::CellFirst, false)
}

const LEET: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

fn app(layout: &Layout, givens: Board, solution: Board) -> MemoryApp<'_> {
    MemoryApp {
        layout,
        game: Game {
            board: givens,
            givens,
            solution,
            selected: None,
            taps: 0,
            mistakes: 0,
            late_clears: Vec::new(),
        },
        rules: AppRules {
            completed_hides_board: true,
            mistake_limit: None,
            hide_completed: false,
            retap_keeps: false,
            foreign_ends: false,
            clear_late: None,
            checks_solution: false,
            marks_wrong: false,
            end_line: None,
        },
        faults: Faults {
            drop: Box::new(|_| false),
            popup_at: None,
            restore_at: None,
            words_lost: 0,
            stuck_popup: false,
            sleeps_after_look: false,
        },
        phone: Phone {
            popup: false,
            left: false,
            asleep: false,
            incidents: Vec::new(),
        },
        clock: Clock::new(Duration::ZERO, Duration::ZERO),
    }
}

fn search_of(strategy: Strategy) -> (Board, Vec<Event>, Board) {
    let givens = Board::parse(LEET).unwrap();
    let mut rec = Recorder::default();
    let solution = search(strategy, &givens, &Options::default(), &mut rec)
        .solution()
        .unwrap();
    (givens, rec.0, solution)
}

fn run_with(
    strategy: Strategy,
    options: PerformOptions,
    setup: impl FnOnce(&mut MemoryApp),
) -> (Result<PerformReport, PerformError>, Board, u64) {
    run_on(layout(), strategy, options, setup)
}

fn run_on(
    layout: Layout,
    strategy: Strategy,
    options: PerformOptions,
    setup: impl FnOnce(&mut MemoryApp),
) -> (Result<PerformReport, PerformError>, Board, u64) {
    let (givens, events, solution) = search_of(strategy);
    let mut app = app(&layout, givens, solution);
    setup(&mut app);
    let r = perform(
        &Search {
            givens,
            events: &events,
            solution,
        },
        &layout,
        &mut app,
        &mut (),
        &options,
        &mut |_| {},
    );
    (r, app.game.board, app.game.taps)
}

fn solved(
    strategy: Strategy,
    options: PerformOptions,
    setup: impl FnOnce(&mut MemoryApp),
) -> PerformReport {
    let (givens, _, solution) = search_of(strategy);
    let (r, board, taps) = run_with(strategy, options, setup);
    let report = r.unwrap_or_else(|e| panic!("{e:#}: {:?}", e.report));
    assert_eq!(board, solution, "from {givens}");
    assert_eq!(report.taps, taps);
    report
}

#[test]
fn every_event_becomes_taps() {
    let report = solved(Strategy::RowMajor, PerformOptions::default(), |_| {});
    assert_eq!(report.events_shown, 4208 + 4157);
    assert_eq!(report.repairs, 0);
    assert_eq!(report.end.completion, Some(Completion::Screen));
    assert!(
        report.wrong_digits > 1000 && report.wrong_digits <= 4208,
        "{report:?}"
    );
}

#[test]
fn a_dialog_back_does_not_close_is_no_game_over_even_right_after_wrong_digits() {
    let (r, _, _) = run_with(Strategy::RowMajor, PerformOptions::default(), |a| {
        a.faults.popup_at = Some(300);
        a.faults.stuck_popup = true;
    });
    let e = r.expect_err("a stop");
    assert!(
        matches!(
            crate::play::stop::stop_of(&e.error),
            Some(Stop::UnknownScreen { .. })
        ),
        "{:#}",
        e.error
    );
}

#[test]
fn a_link_lost_while_reading_the_screens_words_is_no_error_of_its_own() {
    // Every tap after the 100th is lost: the repairs stall, the screen's words are asked
    // for, the link is lost twice meanwhile; the run ends on the stall, not on the link.
    let (r, _, _) = run_with(Strategy::RowMajor, PerformOptions::default(), |a| {
        a.faults.drop = Box::new(|n| n > 100);
        a.faults.words_lost = 2;
    });
    let e = r.expect_err("a stall");
    assert!(!is_restored(&e.error), "{:#}", e.error);
    assert!(
        format!("{:#}", e.error).contains("repair rounds"),
        "{:#}",
        e.error
    );
}

#[test]
fn end_screens_in_unknown_words_are_told_by_what_came_right_before_them() {
    // Right after the completing write: the completion, its words quoted.
    let report = solved(Strategy::RowMajor, PerformOptions::default(), |a| {
        a.rules.foreign_ends = true;
    });
    assert_eq!(report.end.completion, Some(Completion::Screen));
    assert_eq!(report.end.words.as_deref(), Some("\"Τέλος\""));
    // ... even with a popup over the board on the last tap: BACK closes it and the board,
    // solved, is read back.
    let (_, events, _) = search_of(Strategy::RowMajor);
    let report = solved(Strategy::RowMajor, PerformOptions::default(), |a| {
        a.rules.foreign_ends = true;
        a.faults.popup_at = Some(events.len() as u64 * 2 - 1);
    });
    assert!(report.end.completion.is_some(), "{report:?}");
    // Right after wrong digits: the game over, never a solve.
    let (r, _, _) = run_with(Strategy::RowMajor, PerformOptions::default(), |a| {
        a.rules.foreign_ends = true;
        a.rules.mistake_limit = Some(3);
    });
    let e = r.expect_err("a game over");
    assert!(
        matches!(
            crate::play::stop::stop_of(&e.error),
            Some(Stop::GameOver { what, .. }) if what == "\"Τέλος\""
        ),
        "{:#}",
        e.error
    );
    assert_eq!(e.report.end.completion, None);
}

#[test]
fn toggle_apps_are_erased_by_tapping_the_digit_again_and_repaired_too() {
    let toggle = crate::play::setnum::test_layout(InputMode::CellFirst, true);
    let (givens, _, solution) = search_of(Strategy::RowMajor);
    let (r, board, taps) = run_on(
        toggle.clone(),
        Strategy::RowMajor,
        PerformOptions::default(),
        |_| {},
    );
    let report = r.unwrap_or_else(|e| panic!("{e:#}: {:?}", e.report));
    assert_eq!(board, solution, "from {givens}");
    assert_eq!(report.events_shown, 4208 + 4157);
    assert_eq!(report.taps, taps);
    let opts = PerformOptions {
        verify_taps: 300,
        ..PerformOptions::default()
    };
    let (r, board, _) = run_on(toggle, Strategy::RowMajor, opts, |a| {
        a.faults.drop = Box::new(|n| n.is_multiple_of(89))
    });
    let report = r.unwrap_or_else(|e| panic!("{e:#}: {:?}", e.report));
    assert_eq!(board, solution);
    assert!(report.repairs > 0, "{report:?}");
}

#[test]
fn a_toggle_that_does_not_clear_is_named_as_the_erase_key() {
    // Where calibration found no erase key it guesses `toggle`; in an app where a digit
    // tapped again stays, the backtracking's undos leave digits the repairs cannot clear.
    let toggle = crate::play::setnum::test_layout(InputMode::CellFirst, true);
    let opts = PerformOptions {
        verify_taps: 300,
        ..PerformOptions::default()
    };
    let (r, _, _) = run_on(toggle, Strategy::RowMajor, opts, |a| {
        a.rules.retap_keeps = true
    });
    let e = r.unwrap_err();
    let text = format!("{e:#}");
    // The erase key is named as the hint (the command line words how to give another:
    // `cli::words`' test).
    assert!(text.contains("erasing does not clear them"), "{text}");
    assert_eq!(
        e.error.downcast_ref::<Stalled>().map(|s| s.hint),
        Some(StallHint::EraseFails),
        "{text}"
    );
}

#[test]
fn rules_the_app_contradicts_stop_after_one_round_without_progress() {
    // The calibration says digit-first; the app takes the cell first (its rules changed, or
    // it is another app): each digit lands in the cell tapped before it.
    let brush = crate::play::setnum::test_layout(InputMode::DigitFirst, false);
    let opts = PerformOptions {
        verify_taps: 300,
        ..PerformOptions::default()
    };
    let (r, _, taps) = run_on(brush, Strategy::RowMajor, opts, |_| {});
    let e = r.unwrap_err();
    let stalled = e
        .error
        .downcast_ref::<Stalled>()
        .unwrap_or_else(|| panic!("{e:#}"));
    assert_eq!(stalled.hint, StallHint::RulesContradicted, "{e:#}");
    assert_eq!(stalled.rounds, 1, "{e:#}");
    // The first look came after at most 100 taps, then one repair round.
    assert!(taps < 100 + 3 * 81, "{taps} taps");
}

#[test]
fn a_screen_that_sleeps_before_every_rounds_taps_is_named() {
    // Found by the campaign: a screen timeout of 1 s on a phone whose wake, settle and
    // screenshot take longer, so the display is off again when a round's repairs go out.
    let (r, _, _) = run_with(Strategy::Mrv, PerformOptions::default(), |a| {
        a.faults.sleeps_after_look = true;
        a.phone.asleep = true;
    });
    let text = format!("{:#}", r.unwrap_err());
    assert!(
        text.contains("interrupted again before every round") && text.contains("screen timeout"),
        "{text}"
    );
}

#[test]
fn the_board_read_back_solved_is_a_completion_too() {
    let report = solved(Strategy::Mrv, PerformOptions::default(), |a| {
        a.rules.completed_hides_board = false
    });
    assert_eq!(report.end.completion, Some(Completion::ReadBack));
}

#[test]
fn dropped_taps_are_repaired() {
    let opts = PerformOptions {
        verify_taps: 500,
        ..PerformOptions::default()
    };
    let report = solved(Strategy::RowMajor, opts, |a| {
        a.faults.drop = Box::new(|n| n.is_multiple_of(97))
    });
    assert!(report.repairs > 0, "{report:?}");
    assert!(report.verifications > 2);
}

#[test]
fn a_look_waits_for_the_late_clears_the_taps_asked_for() {
    // An app whose digit tapped again clears its cell 20 ms later, looked at after every
    // few taps: a look at once would still see the digits of the undos just sent, and the
    // repair's tap on each would write it back when the clear fell due (the campaign's
    // stall).
    let mut l = crate::play::setnum::test_layout(InputMode::CellFirst, true);
    l.rules.same_digit = Some(crate::calibration::SameDigit::ClearLate);
    l.rules.clear_late_ms = Some(20);
    let options = PerformOptions {
        verify_taps: 12,
        ..PerformOptions::default()
    };
    let (r, board, _) = run_on(l, Strategy::Static, options, |app| {
        app.rules.clear_late = Some(Duration::from_millis(20));
    });
    let report = r.unwrap();
    assert!(board.is_solved());
    assert_eq!(report.repairs, 0, "{report:?}");
}

#[test]
fn repairs_go_on_while_they_make_progress() {
    // One tap in three lost: a repair round often creates new wrong cells (a lost cell tap
    // sends the digit to the cell selected before), but every few rounds gain.
    for seed in 0..5u64 {
        let opts = PerformOptions {
            verify_taps: 300,
            ..PerformOptions::default()
        };
        let report = solved(Strategy::Mrv, opts, move |a| a.faults.drop = drops(seed, 3));
        assert!(report.repairs > 10, "{report:?}");
    }
}

/// Drops tap `n` with probability 1/`one_in`, drawn from `seed`.
fn drops(seed: u64, one_in: u64) -> Box<dyn Fn(u64) -> bool> {
    Box::new(move |n| {
        let mut z = (n ^ seed << 32).wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)).is_multiple_of(one_in)
    })
}

#[test]
fn wrong_digits_are_erased_before_repairs_write_where_completed_keys_hide() {
    // Issue 27, case 3: a lost cell tap sends a right digit into the cell selected before,
    // a wrong digit there. Where the app hides a digit's key once nine are on the board,
    // that wrong digit completes its digit early, and the cell that wants it cannot get it
    // until the wrong one is erased; rewriting cell by cell stalled in a ring of such cells.
    for seed in 0..20u64 {
        let opts = PerformOptions {
            verify_taps: 40,
            ..PerformOptions::default()
        };
        let report = solved(Strategy::Fast, opts, move |a| {
            a.rules.hide_completed = true;
            a.faults.drop = drops(seed, 5);
        });
        assert!(report.repairs > 0, "{report:?}");
    }
}

#[test]
fn a_popup_that_swallows_the_last_tap_is_no_success_until_repaired() {
    let (_, events, _) = search_of(Strategy::Mrv);
    // Every mrv event is a placement of two taps; the popup opens on the last cell tap.
    let last_cell_tap = events.len() as u64 * 2 - 1;
    let report = solved(Strategy::Mrv, PerformOptions::default(), |a| {
        a.faults.popup_at = Some(last_cell_tap)
    });
    assert_eq!(report.repairs, 1, "{report:?}");
    assert_eq!(report.end.completion, Some(Completion::Screen));
}

#[test]
fn the_completing_write_can_be_a_repair() {
    let (_, events, _) = search_of(Strategy::Mrv);
    let last_digit_tap = events.len() as u64 * 2;
    let report = solved(Strategy::Mrv, PerformOptions::default(), |a| {
        a.faults.drop = Box::new(move |n| n == last_digit_tap)
    });
    assert_eq!(
        (report.repairs, report.end.completion),
        (1, Some(Completion::Screen))
    );
}

#[test]
fn a_restored_link_is_looked_at_and_repaired() {
    let report = solved(Strategy::RowMajor, PerformOptions::default(), |a| {
        a.faults.restore_at = Some(1001)
    });
    assert!(report.repairs >= 1, "{report:?}");
    assert!(report.verifications >= 2, "{report:?}");
}

#[test]
fn game_over_stops_with_the_mistakes_counted() {
    let opts = PerformOptions {
        glance_interval: Duration::ZERO,
        ..PerformOptions::default()
    };
    let (r, _, _) = run_with(Strategy::RowMajor, opts, |a| {
        a.rules.mistake_limit = Some(3)
    });
    let e = r.unwrap_err();
    match crate::play::stop::stop_of(&e.error) {
        Some(Stop::GameOver { mistakes, .. }) => assert_eq!(*mistakes, 3),
        other => panic!("{other:?}: {e:#}"),
    }
    assert_eq!(e.report.end.completion, None);
    // fast places only right digits.
    let report = solved(Strategy::Fast, PerformOptions::default(), |a| {
        a.rules.mistake_limit = Some(1)
    });
    assert_eq!(report.wrong_digits, 0);
}

#[test]
fn an_unknown_screen_stops_after_one_back() {
    let (r, _, _) = run_with(Strategy::Mrv, PerformOptions::default(), |a| {
        a.faults.popup_at = Some(10);
        a.rules.mistake_limit = None;
    });
    r.unwrap();
    struct Stuck(Instant);
    impl Target for Stuck {
        fn now(&self) -> Instant {
            self.0
        }
        fn pause(&mut self, d: Duration) {
            self.0 += d;
        }
        fn tap(&mut self, _: Point) -> anyhow::Result<()> {
            Ok(())
        }
        fn sync(&mut self) -> anyhow::Result<()> {
            Ok(())
        }
        fn look(&mut self) -> anyhow::Result<Seen> {
            Ok(Seen::Other {
                what: "the launcher".into(),
                in_app: false,
            })
        }
        fn back(&mut self) -> anyhow::Result<()> {
            Ok(())
        }
    }
    let layout = layout();
    let (givens, events, solution) = search_of(Strategy::Mrv);
    let e = perform(
        &Search {
            givens,
            events: &events,
            solution,
        },
        &layout,
        &mut Stuck(Instant::now()),
        &mut (),
        &PerformOptions::default(),
        &mut |_| {},
    )
    .unwrap_err();
    assert!(
        matches!(crate::play::stop::stop_of(&e.error), Some(Stop::UnknownScreen { what }) if what == "the launcher"),
        "{e:#}"
    );
}

#[test]
fn a_stop_request_ends_the_performance() {
    let stop = StopFlag::default();
    stop.raise(2);
    let opts = PerformOptions {
        stop,
        ..PerformOptions::default()
    };
    let (r, _, taps) = run_with(Strategy::RowMajor, opts, |_| {});
    let e = r.unwrap_err();
    assert_eq!(
        crate::play::stop::stop_of(&e.error),
        Some(&Stop::Interrupted { signal: "Ctrl-C" })
    );
    assert_eq!(taps, 0);
}

#[test]
fn hidden_steps_are_filled_directly() {
    let opts = PerformOptions {
        max_visible_steps: Some(100),
        ..PerformOptions::default()
    };
    let report = solved(Strategy::RowMajor, opts, |_| {});
    assert_eq!(report.events_shown, 100);
    assert_eq!(report.events_hidden, 4208 + 4157 - 100);
}

/// A journal that counts the events and keeps where the steps shown were cut.
#[derive(Default)]
struct Counted {
    events: usize,
    shown_until: Option<usize>,
}

impl Journal for Counted {
    fn event(&mut self, _: usize, _: Event, _: &[Point]) -> anyhow::Result<()> {
        self.events += 1;
        Ok(())
    }
    fn write(&mut self, _: WriteKind, _: usize, _: u8, _: &[Point]) -> anyhow::Result<()> {
        Ok(())
    }
    fn shown_until(&mut self, end: usize) -> anyhow::Result<()> {
        self.shown_until = Some(end);
        Ok(())
    }
}

/// Performs the row-major search of LEET (about 14,000 taps) within `budget` on a phone
/// on its own clock (`clock`): the report, the journal, and the app's board.
fn within_budget(budget: Duration, clock: Clock) -> (PerformReport, Counted, Board, Board) {
    let layout = layout();
    let (givens, events, solution) = search_of(Strategy::RowMajor);
    let mut app = app(&layout, givens, solution);
    app.clock = clock;
    let opts = PerformOptions {
        budget: Some(budget),
        ..PerformOptions::default()
    };
    let search = Search {
        givens,
        events: &events,
        solution,
    };
    let mut journal = Counted::default();
    let report = perform(&search, &layout, &mut app, &mut journal, &opts, &mut |_| {})
        .unwrap_or_else(|e| panic!("{:#}", e.error));
    (report, journal, app.game.board, solution)
}

/// Taps of `tap_ms` each and looks of 300 ms.
fn clock(tap_ms: u64) -> Clock {
    Clock::new(Duration::from_millis(tap_ms), Duration::from_millis(300))
}

#[test]
fn the_budget_holds_where_the_phone_is_slower_than_planned() {
    // The plan showed every step (14,000 taps fit 60 s at the rate it measured), but the
    // phone takes 10 ms a tap: the steps stop where the fill-in and the last looks still end
    // within the budget.
    let budget = Duration::from_secs(60);
    let (report, journal, board, solution) = within_budget(budget, clock(10));
    assert_eq!(board, solution);
    assert!(report.elapsed <= budget, "{:?}", report.elapsed);
    let cut = report.deadline_cut.expect("the steps cut short");
    assert_eq!(cut.planned, 4208 + 4157);
    assert_eq!(cut.shown, report.events_shown);
    assert_eq!(report.events_hidden, cut.planned - cut.shown);
    // Most of the budget went to steps, and what was shown is what the journal says.
    assert!(cut.shown > 2000, "{cut:?}");
    assert_eq!(journal.events as u64, cut.shown);
    assert_eq!(journal.shown_until, Some(cut.shown as usize));
}

#[test]
fn the_budget_holds_where_the_phone_turns_slower_during_the_run() {
    // 2 ms a tap (every step fits 60 s), then from the 5,000th tap on 25 ms (a loaded host):
    // the steps go on as long as the rest still fits, and the run ends within the budget.
    let budget = Duration::from_secs(60);
    let mut slowing = clock(2);
    slowing.slower = Some((5000, Duration::from_millis(25)));
    let (report, journal, board, solution) = within_budget(budget, slowing);
    assert_eq!(board, solution);
    assert!(report.elapsed <= budget, "{:?}", report.elapsed);
    // The last steps' time is the budget's: within a few seconds of it.
    assert!(
        report.elapsed >= budget - Duration::from_secs(5),
        "{report:?}"
    );
    let cut = report.deadline_cut.expect("the steps cut short");
    assert_eq!(cut.shown, report.events_shown);
    assert_eq!(journal.shown_until, Some(cut.shown as usize));
    assert!(report.taps > 5000, "{report:?}");
    // The rate said is the taps' over the whole run, looks aside: between the two.
    assert!(cut.rate > 40.0 && cut.rate < 500.0, "{cut:?}");
}

#[test]
fn slow_screenshots_do_not_pass_for_slow_taps() {
    // Looks of 2 s each (a slow phone's screenshots, a verification after the first digits
    // and every 2,000 taps) and taps of 1 ms: the steps all fit 60 s with their looks, so
    // none is cut, though early on the time per tap with the looks counted in is far more.
    let budget = Duration::from_secs(60);
    let (report, _, board, solution) = within_budget(
        budget,
        Clock::new(Duration::from_millis(1), Duration::from_secs(2)),
    );
    assert_eq!(board, solution);
    assert_eq!(report.deadline_cut, None, "{report:?}");
    assert!(report.elapsed <= budget, "{:?}", report.elapsed);
}

#[test]
fn a_phone_as_fast_as_planned_shows_every_step_within_the_budget() {
    let budget = Duration::from_secs(60);
    let (report, journal, board, solution) = within_budget(budget, clock(2));
    assert_eq!(board, solution);
    assert_eq!(report.deadline_cut, None);
    assert_eq!(report.events_shown, 4208 + 4157);
    assert_eq!(journal.shown_until, None);
    assert!(report.elapsed <= budget, "{:?}", report.elapsed);
}

#[test]
fn the_last_cell_left_is_emptied_first_where_the_shown_steps_left_a_wrong_digit_in_it() {
    // The steps shown end with a wrong digit in the cell the fill leaves for last: it must
    // be erased with the other wrong ones, or (where a finished digit's key hides) it
    // blocks the key the fill needs for that digit's ninth right place. The campaign's
    // tinted phones stalled so.
    let layout = layout();
    let (givens, _, solution) = search_of(Strategy::RowMajor);
    let last = (0..CELLS).rev().find(|&c| givens.get(c) == 0).unwrap();
    let wrong = (1..=9).find(|&d| d != solution.get(last)).unwrap();
    let first = (0..CELLS).find(|&c| givens.get(c) == 0).unwrap();
    let events = [
        Event::Place {
            cell: last as u8,
            digit: wrong,
        },
        Event::Place {
            cell: first as u8,
            digit: solution.get(first),
        },
    ];
    let mut app = app(&layout, givens, solution);
    app.rules.hide_completed = true;
    let opts = PerformOptions {
        max_visible_steps: Some(1),
        ..PerformOptions::default()
    };
    let search = Search {
        givens,
        events: &events,
        solution,
    };
    perform(&search, &layout, &mut app, &mut (), &opts, &mut |_| {})
        .unwrap_or_else(|e| panic!("{:#}", e.error));
    assert_eq!(app.game.board, solution);
}

#[test]
fn resume_skips_what_is_on_screen() {
    let layout = layout();
    let (givens, events, solution) = search_of(Strategy::Mrv);
    let mut on_screen = givens;
    for ev in &events[..20] {
        apply(&mut on_screen, *ev);
    }
    let mut app = app(&layout, givens, solution);
    app.game.board = on_screen;
    let opts = PerformOptions {
        start_at: 20,
        ..PerformOptions::default()
    };
    let report = perform(
        &Search {
            givens,
            events: &events,
            solution,
        },
        &layout,
        &mut app,
        &mut (),
        &opts,
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(report.events_shown, events.len() as u64 - 20);
    assert_eq!(app.game.board, solution);
}

/// LEET with givens taken out (in cell order) until it has several solutions; the row-major
/// search's events and solution; and another solution (the app's stored one).
fn several_solutions() -> (Board, Vec<Event>, Board, Board) {
    let givens = crate::solver::fast::thinned(&Board::parse(LEET).unwrap(), 2, false);
    let mut rec = Recorder::default();
    let ours = search(Strategy::RowMajor, &givens, &Options::default(), &mut rec)
        .solution()
        .unwrap();
    let stored = crate::solver::fast::another_solution(&givens, &ours).unwrap();
    (givens, rec.0, ours, stored)
}

/// Performs the row-major search of [`several_solutions`] on an app storing the other
/// solution, set up by `setup`; the app's board at the end, and the solution it stores.
fn run_several(
    setup: impl FnOnce(&mut MemoryApp),
) -> (Result<PerformReport, PerformError>, Board, Board) {
    let layout = layout();
    let (givens, events, ours, stored) = several_solutions();
    assert_ne!(ours, stored);
    let mut app = app(&layout, givens, stored);
    setup(&mut app);
    let search = Search {
        givens,
        events: &events,
        solution: ours,
    };
    let options = PerformOptions::default();
    let r = perform(&search, &layout, &mut app, &mut (), &options, &mut |_| {});
    (r, app.game.board, stored)
}

#[test]
fn several_solutions_any_full_board_the_app_takes_is_solved() {
    let (r, board, _) = run_several(|_| {});
    let report = r.unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(report.end.completion, Some(Completion::Screen));
    assert!(report.end.rewritten.is_none());
    assert!(board.is_solved());
}

#[test]
fn several_solutions_the_digits_the_app_marks_wrong_are_replaced() {
    let (r, board, stored) = run_several(|a| {
        a.rules.checks_solution = true;
        a.rules.marks_wrong = true;
    });
    let report = r.unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(report.end.completion, Some(Completion::Screen));
    assert_eq!(board, stored);
    let rewritten = report.end.rewritten.expect("the marks said");
    assert_eq!(rewritten.solution, stored);
    assert!(!rewritten.marked.is_empty());
    assert!(rewritten.marked.iter().all(|&(c, d)| stored.get(c) != d));
}

#[test]
fn several_solutions_a_board_the_app_neither_completes_nor_marks_is_no_solve() {
    // The solution read back is not enough: the app wants another and shows nothing.
    for ends_on_screen in [true, false] {
        let (r, board, _) = run_several(|a| {
            a.rules.checks_solution = true;
            a.rules.completed_hides_board = ends_on_screen;
        });
        let e = r.expect_err("no solve the app did not show");
        assert!(e.report.end.completion.is_none());
        assert!(board.is_solved());
        let stop = crate::play::stop::stop_of(&e.error);
        assert!(
            matches!(stop, Some(Stop::NotAccepted { why }) if why.contains("no completion")),
            "{:#}",
            e.error
        );
    }
}

#[test]
fn several_solutions_an_end_under_the_board_counts_where_its_words_say_so() {
    let (r, _, _) = run_several(|a| {
        a.rules.completed_hides_board = false;
        a.rules.end_line = Some("Puzzle solved!");
    });
    let report = r.unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(report.end.completion, Some(Completion::Screen));
    assert!(
        report
            .end
            .words
            .is_some_and(|w| w.contains("Puzzle solved!"))
    );
    // Words the player does not know are no completion.
    let (r, _, _) = run_several(|a| {
        a.rules.completed_hides_board = false;
        a.rules.end_line = Some("Τέλος");
    });
    let e = r.expect_err("words that do not say solved");
    assert!(e.report.end.completion.is_none());
}

#[test]
fn taps_that_never_land_stop_the_run_after_a_few() {
    // A phone that drops injected input without a word (Android 10-12 without "USB debugging
    // (Security settings)"), or a window over the app: the first digits are looked for after
    // three writes, and two rounds of their repairs, not after the first verification's
    // thousands of taps.
    let (r, _, _) = run_with(Strategy::RowMajor, PerformOptions::default(), |a| {
        a.faults.drop = Box::new(|_| true)
    });
    let e = r.unwrap_err();
    assert_eq!(
        e.error.downcast_ref::<Stalled>().map(|s| s.hint),
        Some(StallHint::NothingLands),
        "{:#}",
        e.error
    );
    assert!(e.report.taps <= 30, "{:?}", e.report);
    assert_eq!(e.report.verifications, 3, "{:?}", e.report);
    // Taps that land are proven at the first look, which then costs one verification.
    let lossless = solved(Strategy::RowMajor, PerformOptions::default(), |_| {});
    assert!(lossless.repairs == 0, "{lossless:?}");
}
