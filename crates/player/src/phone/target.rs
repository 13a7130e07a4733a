//! The phone as a performance sees it ([`Target`]): taps and screenshots through the [`Link`], and
//! what to do when the board is not on the screen. A dark screen is woken
//! (`KEYCODE_WAKEUP`), a plain lock screen swiped away, the app brought back from the background
//! (`monkey -p PACKAGE`), each counted as an interruption; a secured lock screen stops the run;
//! the app's completion and game-over screens are told apart by their words (read with
//! `uiautomator dump`, judged by `play::words`). It is calibrate's [`ProbeTarget`] too.

use super::link::Link;
use super::navigate::navigate;
use super::wake;
use crate::board::Board;
use crate::calibration::{Calibration, Navigation};
use crate::device::android::{PhoneState, UiNode, UiScreen};
use crate::play::target::Point;
use crate::play::target::{Incident, IncidentKind, Seen, Target};
use crate::play::words::{self, Verdict};
use crate::probe::{ProbeTarget, ScreenWords};
use image::RgbaImage;
use std::time::{Duration, Instant};

/// Hazards dealt with in one look before the screen counts as unknown.
const MAX_FIXES: usize = 4;

/// The phone during a run.
pub struct PhoneTarget<'a> {
    pub link: Link,
    pub calibration: &'a Calibration,
    /// The app's package (to bring it back from the background), when known.
    pub package: Option<String>,
    /// The level and how to open it again if the app restarted.
    pub reopen: Option<(Navigation, u32)>,
    /// Opening the level again is allowed: the app may have restarted (a reconnect, the app
    /// brought back from the background, or a resume).
    pub may_reopen: bool,
    /// The level's givens, once read. They never change during a level, so a frame where one
    /// of them reads as empty shows the board partly covered (a dialog over it), not the board.
    pub givens: Option<Board>,
    /// The last frame read (saved as `last.png`).
    pub last_frame: Option<RgbaImage>,
    /// The words of the game screen when the run began (`uiautomator dump`), digits left out:
    /// words that were not there show that the app put something new on the screen.
    pub first_words: Option<Vec<String>>,
    /// The mistake limit a counter among those words shows ("Mistakes: 0/3").
    pub first_limit: Option<u32>,
}

impl<'a> PhoneTarget<'a> {
    pub fn new(link: Link, calibration: &'a Calibration) -> Self {
        PhoneTarget {
            link,
            calibration,
            package: None,
            reopen: None,
            may_reopen: false,
            givens: None,
            last_frame: None,
            first_words: None,
            first_limit: None,
        }
    }

    /// Remembers the game screen's words the first time the board is seen whole (see
    /// `first_words`); a phone whose words cannot be read goes without.
    fn note_first_words(&mut self) -> anyhow::Result<()> {
        if self.first_words.is_some() {
            return Ok(());
        }
        let (texts, unread) = self.screen_texts()?;
        if unread.is_none() {
            self.first_limit =
                crate::play::words::mistake_counter(&texts).map(|(_, limit, _)| limit);
            self.first_words = Some(texts.iter().map(|t| without_digits(t)).collect());
        }
        Ok(())
    }

    /// The first frame of a run, showing the board: `frame` if it does, else one taken after
    /// waking the screen, unlocking it or bringing the app back, as during the run.
    pub(crate) fn board_frame(&mut self, frame: RgbaImage) -> anyhow::Result<RgbaImage> {
        // The board: its words noted (where the link drops meanwhile, looked at again below).
        if self.calibration.read_if_visible(&frame)?.is_some() && self.note_first_words().is_ok() {
            return Ok(frame);
        }
        let mut tries = 0;
        let mut reopened = 0;
        let seen = loop {
            match self.look() {
                Err(e) if crate::play::stop::is_restored(&e) && tries < 5 => tries += 1,
                // The app, but not its game screen: the level did not open (a tap on its level
                // list lost, say). Open it again, twice at most.
                Ok(Seen::Other { in_app: true, .. }) if self.reopen.is_some() && reopened < 2 => {
                    reopened += 1;
                    self.may_reopen = true;
                    self.reopen()?;
                }
                r => break r?,
            }
        };
        let what = match (seen, self.last_frame.clone()) {
            // (`look` noted the board's words.)
            (Seen::Board(_), Some(frame)) => return Ok(frame),
            (Seen::Board(_), None) => "no frame".to_string(),
            (Seen::Completed { what } | Seen::GameOver { what } | Seen::Other { what, .. }, _) => {
                what
            }
        };
        anyhow::bail!(
            "board not visible: {what} is on the screen, not the Sudoku board where the calibration \
             expects it (is the game screen open?)"
        )
    }

    /// One screenshot; the board if it is where the calibration says and shows this level's
    /// givens.
    fn frame(&mut self) -> anyhow::Result<Framed> {
        let frame = self.link.grab()?;
        let framed = match self.calibration.read_if_visible(&frame)? {
            // The board is not found where the calibration says (board detection can miss a
            // grid whose faint lines highlighted cells hide): read it there all the same; it is
            // this level's board if every given reads as itself.
            None => match (self.givens, self.calibration.read(&frame)) {
                (Some(g), Ok(r)) if shows_all_givens(&g, &r.board) => Framed::Board(r.board),
                _ => Framed::NoBoard,
            },
            Some(board) => match self.givens {
                None => Framed::Board(board),
                Some(g) => match other_puzzle(&g, &board) {
                    Some(what) => Framed::OtherPuzzle(what),
                    None if covers_a_given(&g, &board) => Framed::NoBoard,
                    // A given or two read as another digit are the OCR's slips: givens do
                    // not change.
                    None => Framed::Board(with_givens(&g, board)),
                },
            },
        };
        self.last_frame = Some(frame);
        Ok(framed)
    }

    /// Another puzzle is on the screen: no tap may go into it. The level is opened again (BACK
    /// first, in `verify`, then the navigation).
    fn other_puzzle_seen(&mut self, what: String) -> Seen {
        self.may_reopen = self.reopen.is_some();
        Seen::Other {
            what: format!("another puzzle ({what})"),
            in_app: false,
        }
    }

    /// After an interruption dealt with (`what`): see [`wake::after_interruption`].
    fn after_interruption(&mut self, what: String) -> anyhow::Result<()> {
        wake::after_interruption(&mut self.link, what)
    }

    /// What covers the board (the board is not where the calibration says).
    fn without_board(&mut self) -> anyhow::Result<Result<Seen, ()>> {
        let state = self.link.call("checking the screen", |d| d.phone_state())?;
        let size = (
            self.calibration.device.width,
            self.calibration.device.height,
        );
        if wake::wake(&mut self.link, &state, size)? {
            return Ok(Err(()));
        }
        if super::ad::ad_window(state.focus.as_deref()) {
            return self.close_ad().map(Err);
        }
        if self.bring_app_back(&state)? {
            self.may_reopen = true;
            return Ok(Err(()));
        }
        // The app (or a window we cannot place) is in front without the board: its words.
        let (texts, nodes, unread) = self.screen_dump()?;
        // The app's own window (where its package is not known, any app's window).
        let (window, in_app) = match (&state.focus, state.focused_package()) {
            (_, Some(p)) if self.package.as_deref() == Some(p) => ("the app".to_string(), true),
            (_, Some(p)) => (p.to_string(), self.package.is_none()),
            (Some(w), None) => (format!("the window {w}"), false),
            (None, None) => ("a window".to_string(), false),
        };
        if super::ad::ad_words(&texts) {
            return self.close_ad().map(Err);
        }
        let shows = format!("{window} shows {}", words::quote(&texts, 4));
        let verdict = words::classify(&texts);
        let buttons: Vec<&UiNode> = nodes.iter().filter(|n| n.clickable).collect();
        if let (Verdict::Refused, [button], true) = (verdict, &buttons[..], in_app) {
            // An alert that refused a digit (one that broke a rule: a tap that went astray) and
            // that BACK does not close: its one button.
            let (x, y) = button.center;
            self.link.tap(x, y)?;
            self.after_interruption(format!("{shows}: tapped {:?}", button.words))?;
            return Ok(Err(()));
        }
        Ok(Ok(match verdict {
            Verdict::Completed => Seen::Completed { what: shows },
            Verdict::GameOver => Seen::GameOver { what: shows },
            Verdict::Refused | Verdict::Neither => Seen::Other {
                what: match unread {
                    Some(said) => {
                        format!("{window}, whose text uiautomator could not read ({said})")
                    }
                    None => format!("{window} with {}", words::quote(&texts, 4)),
                },
                in_app,
            },
        }))
    }
}

impl PhoneTarget<'_> {
    /// Closes the ad in front (never tapping its body) and says so.
    fn close_ad(&mut self) -> anyhow::Result<()> {
        let how = super::ad::dismiss_ad(&mut self.link)?;
        self.after_interruption(format!("an ad was in front: {how}"))
    }

    /// Where another app than the game's is in front (by `state`), brings the game's back
    /// (`monkey`) and says so; true if it did.
    fn bring_app_back(&mut self, state: &PhoneState) -> anyhow::Result<bool> {
        let (Some(front), Some(app)) = (state.focused_package(), self.package.clone()) else {
            return Ok(false);
        };
        if front == app {
            return Ok(false);
        }
        let front = front.to_string();
        let launched = self
            .link
            .call("bringing the app back", |d| d.launch(&app))?;
        let how = match launched {
            Ok(()) => format!("brought {app} back"),
            Err(said) => format!("monkey could not bring {app} back ({said})"),
        };
        self.after_interruption(format!("{front} was in front: {how}"))?;
        Ok(true)
    }

    /// The words on the screen (`uiautomator dump`), and what uiautomator said instead where it
    /// could not read them: a screen that keeps animating (a completion's confetti) is asked again
    /// after a pause, a few times, so it is not taken for a screen without words.
    fn screen_texts(&mut self) -> anyhow::Result<(Vec<String>, Option<String>)> {
        self.screen_dump().map(|(texts, _, said)| (texts, said))
    }

    /// [`Self::screen_texts`], with the dump's nodes.
    fn screen_dump(&mut self) -> anyhow::Result<(Vec<String>, Vec<UiNode>, Option<String>)> {
        let mut said = None;
        for attempt in 0..3 {
            if attempt > 0 {
                std::thread::sleep(Duration::from_millis(500));
            }
            match self.link.call("reading the screen's text", |d| d.ui_dump()) {
                Ok(dump) => match dump.screen {
                    Ok(UiScreen { texts, nodes }) => return Ok((texts, nodes, None)),
                    Err(error) => {
                        tracing::debug!(%error, attempt, "uiautomator could not read the screen");
                        said = Some(error);
                    }
                },
                Err(e) if crate::play::stop::is_restored(&e) => return Err(e),
                Err(_) => break,
            }
        }
        Ok((Vec::new(), Vec::new(), said))
    }
}

impl Target for PhoneTarget<'_> {
    fn tap(&mut self, p: Point) -> anyhow::Result<()> {
        self.link.tap(p.0, p.1)
    }

    fn sync(&mut self) -> anyhow::Result<()> {
        self.link.flush()
    }

    /// The host's clock.
    fn now(&self) -> Instant {
        Instant::now()
    }

    fn pause(&mut self, d: Duration) {
        std::thread::sleep(d);
    }

    fn look(&mut self) -> anyhow::Result<Seen> {
        for _ in 0..MAX_FIXES {
            let other = match self.frame()? {
                Framed::Board(board) => {
                    self.note_first_words()?;
                    return Ok(Seen::Board(board));
                }
                Framed::OtherPuzzle(what) => Some(what),
                Framed::NoBoard => None,
            };
            match (self.without_board()?, other) {
                (Err(()), _) => {}
                (Ok(seen), None) => return Ok(seen),
                // A dialog over the board (a completion's, with its title and pictures) can read
                // as other digits in a few given cells: the screen's words tell it apart from
                // another puzzle.
                (Ok(seen @ (Seen::Completed { .. } | Seen::GameOver { .. })), Some(_)) => {
                    return Ok(seen);
                }
                (Ok(_), Some(what)) => return Ok(self.other_puzzle_seen(what)),
            }
        }
        Ok(match self.frame()? {
            Framed::Board(board) => Seen::Board(board),
            Framed::OtherPuzzle(what) => self.other_puzzle_seen(what),
            Framed::NoBoard => Seen::Other {
                what: format!(
                    "a screen that stayed without the board after {MAX_FIXES} attempts to wake, unlock or bring back the app"
                ),
                in_app: false,
            },
        })
    }

    fn glance(&mut self) -> anyhow::Result<bool> {
        Ok(matches!(self.frame()?, Framed::Board(_)))
    }

    fn back(&mut self) -> anyhow::Result<()> {
        // BACK dismisses a popup, but on the game screen many apps leave the level for their
        // level list: opening the level again is then allowed.
        self.may_reopen = self.reopen.is_some();
        super::back::press(&mut self.link)?;
        self.link.flush()?;
        std::thread::sleep(Duration::from_millis(200));
        Ok(())
    }

    fn reopen(&mut self) -> anyhow::Result<bool> {
        let Some((nav, level)) = self.reopen.clone().filter(|_| self.may_reopen) else {
            return Ok(false);
        };
        self.may_reopen = false;
        // The level list is the app's: another app (the launcher) in front hides it.
        let state = self.link.call("checking the screen", |d| d.phone_state())?;
        self.bring_app_back(&state)?;
        navigate(&mut self.link, &nav, level)?;
        self.link
            .interruption(format!("the app was not on level {level}: opened it again"));
        Ok(true)
    }

    fn new_words(&mut self) -> anyhow::Result<Option<String>> {
        let Some(first) = self.first_words.clone() else {
            return Ok(None);
        };
        let (texts, nodes, _) = self.screen_dump()?;
        // Keys that show on the keypad while a cell is selected ("Erase", "Notes") belong to
        // the game screen, not its end: buttons in the keypad's area, or any button while the
        // digit keys are buttons on the screen too.
        let digit_keys = nodes
            .iter()
            .filter(|n| n.clickable && matches!(n.words.trim().as_bytes(), [b'1'..=b'9']))
            .count();
        let (digits, cell) = (
            self.calibration.keypad.digits,
            self.calibration.cell_width(),
        );
        let keys: Vec<String> = nodes
            .iter()
            .filter(|n| n.clickable && (digit_keys >= 5 || in_keypad_area(digits, cell, n.center)))
            .map(|n| without_digits(&n.words))
            .collect();
        let new: Vec<String> = texts
            .into_iter()
            .filter(|t| {
                let w = without_digits(t);
                !w.is_empty() && !first.contains(&w) && !keys.contains(&w)
            })
            .collect();
        Ok((!new.is_empty()).then(|| format!("the app shows {}", words::quote(&new, 4))))
    }

    fn marked_wrong(&mut self) -> anyhow::Result<Vec<usize>> {
        let (Some(frame), Some(givens)) = (&self.last_frame, self.givens) else {
            return Ok(Vec::new());
        };
        Ok(self
            .calibration
            .read(frame)
            .map(|r| r.marked_wrong(&givens))
            .unwrap_or_default())
    }

    fn keys_moved(&mut self, d: u8) -> anyhow::Result<Option<bool>> {
        let shows_it = match self.frame()? {
            Framed::Board(board) => crate::play::setnum::finished(&board, d),
            _ => false,
        };
        let Some(now) = self.last_frame.as_ref().filter(|_| shows_it) else {
            return Ok(None);
        };
        Ok(Some(self.calibration.keys_moved_up(now, d)))
    }

    fn incidents(&mut self) -> Vec<Incident> {
        let incidents = self.link.take_incidents();
        if incidents.iter().any(|i| i.kind == IncidentKind::Reconnect) {
            // After a reconnect the phone or the app may have restarted.
            self.may_reopen = true;
        }
        incidents
    }
}

/// The phone as calibrate's probe taps and looks at it.
impl ProbeTarget for PhoneTarget<'_> {
    fn screenshot(&mut self) -> anyhow::Result<RgbaImage> {
        self.link.grab()
    }

    fn words(&mut self) -> anyhow::Result<Option<ScreenWords>> {
        let dump = self
            .link
            .call("reading the screen's words", |d| d.ui_dump())?;
        Ok(dump.screen.ok().map(|s| ScreenWords {
            texts: s.texts,
            nodes: s.nodes.into_iter().map(|n| (n.words, n.center)).collect(),
        }))
    }
}

/// What one screenshot showed.
enum Framed {
    /// This level's board (its givens where they belong).
    Board(Board),
    /// No board where the calibration says, or one partly covered.
    NoBoard,
    /// A board with other givens: another level or puzzle (what differs).
    OtherPuzzle(String),
}

/// Whether `board` is another puzzle than the one with `givens`: at least three of our givens
/// show other digits (a dialog over the board hides digits, it does not change them; one or two
/// are the OCR's slips). What differs, if so.
fn other_puzzle(givens: &Board, board: &Board) -> Option<String> {
    let differ: Vec<usize> = (0..81)
        .filter(|&c| givens.get(c) != 0 && board.get(c) != 0 && board.get(c) != givens.get(c))
        .collect();
    if differ.len() < 3 {
        return None;
    }
    let &c = differ.first()?;
    Some(format!(
        "{} shows {} where this level's given is {}{}",
        crate::board::cell_name(c),
        board.get(c),
        givens.get(c),
        match differ.len() {
            1 => String::new(),
            n => format!(", and {} more given(s) differ", n - 1),
        }
    ))
}

/// Whether `point` lies in the keypad's area: the box around its digit keys grown by two keys
/// (or two cells, where cells are larger) on every side, a row or column of tools beside them
/// included in either orientation (in landscape the keys are larger than the board's cells).
fn in_keypad_area(keys: [[u32; 2]; 9], cell: u32, (x, y): (u32, u32)) -> bool {
    let pitch = keys
        .iter()
        .flat_map(|a| {
            keys.iter()
                .map(move |b| a[0].abs_diff(b[0]).max(a[1].abs_diff(b[1])))
        })
        .filter(|&d| d > 0)
        .min()
        .unwrap_or(0);
    let margin = 2 * pitch.max(cell);
    let span = |v: [u32; 9]| {
        let (lo, hi) = (v.iter().min().copied(), v.iter().max().copied());
        lo.zip(hi)
            .map(|(lo, hi)| lo.saturating_sub(margin)..=hi + margin)
    };
    let (xs, ys) = (span(keys.map(|k| k[0])), span(keys.map(|k| k[1])));
    xs.zip(ys)
        .is_some_and(|(xs, ys)| xs.contains(&x) && ys.contains(&y))
}

/// A screen text with its digits and the punctuation around them left out (a counter's
/// "Mistakes: 1/3" is the same words as "Mistakes: 0/3").
fn without_digits(t: &str) -> String {
    t.chars()
        .filter(|c| !c.is_ascii_digit())
        .collect::<String>()
        .trim_matches(|c: char| c.is_whitespace() || c.is_ascii_punctuation())
        .to_string()
}

/// `board` with `givens` in their places.
fn with_givens(givens: &Board, mut board: Board) -> Board {
    for c in 0..81 {
        if givens.get(c) != 0 {
            board.set(c, givens.get(c));
        }
    }
    board
}

/// Whether `board` shows every one of `givens` in its place.
fn shows_all_givens(givens: &Board, board: &Board) -> bool {
    (0..81).all(|c| givens.get(c) == 0 || board.get(c) == givens.get(c))
}

/// Whether `board` reads empty where `givens` has a digit: something covers that part of it.
fn covers_a_given(givens: &Board, board: &Board) -> bool {
    (0..81).any(|c| givens.get(c) != 0 && board.get(c) == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_given_read_as_empty_means_the_board_is_covered() {
        let givens = Board::parse(&format!("5{}", ".".repeat(80))).unwrap();
        let mut board = givens;
        board.set(1, 3);
        assert!(!covers_a_given(&givens, &board), "entries may change");
        board.set(0, 0);
        assert!(covers_a_given(&givens, &board));
        board.set(0, 6);
        assert!(
            !covers_a_given(&givens, &board),
            "another digit is another level"
        );
    }

    #[test]
    fn the_keypads_area_reaches_a_tool_row_below_keys_larger_than_cells() {
        // The simulated phone held in landscape: a row of keys 147 px apart beside a board
        // of 89 px cells, "Erase" centred 179 px below them.
        let keys = std::array::from_fn(|i| [980 + 147 * i as u32, 550]);
        assert!(in_keypad_area(keys, 89, (1571, 729)));
        assert!(!in_keypad_area(keys, 89, (1571, 1100)), "far below");
        assert!(!in_keypad_area(keys, 89, (300, 600)), "on the board");
        // Portrait, keys as wide as cells: two of them around the keys.
        let keys = std::array::from_fn(|i| [100 + 110 * i as u32, 1800]);
        assert!(in_keypad_area(keys, 110, (540, 1800 + 2 * 110)));
        assert!(!in_keypad_area(keys, 110, (540, 1800 + 2 * 110 + 1)));
    }
}
