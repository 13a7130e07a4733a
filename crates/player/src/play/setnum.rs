//! The setNum / cancelNum layer: search events to taps, through the screen layout.
//!
//! `setNum(cell, d)` = tap the cell (skipped if it is already selected) + tap keypad `d`;
//! `cancelNum(cell)` = tap the cell + tap erase (or tap `d` again, for apps where a digit toggles:
//! the calibration's `erase = "toggle"`).
//! Digit-first apps get the digit (or erase) first, then the cell. Nothing is collapsed: every
//! event becomes taps, so the phone shows exactly what the algorithm does.
//!
//! The app's input rules (the calibration's `[input]`) decide what is safe to tap: where a tap
//! on the selected cell deselects it or flips pencil mode, a cell is never tapped while it may
//! be selected (from an unknown state, a given cell, which the player never selects, is tapped
//! first); where the app drops the selection after an entry, every write selects its cell;
//! where the brush's own key drops the brush, another key is pressed first. Where the app ends
//! the game after a few mistakes, every write is guarded against lost taps ([`Guard`]).

use crate::board::Board;
use crate::calibration::{
    AfterEntry, BrushRetap, Calibration, DEFAULT_CLEAR_LATE_MS, Erase, FinishedKeys, InputMode,
    InputSection, Retap, SameDigit, TakeBack,
};
use crate::solver::Event;
use std::time::{Duration, Instant};

/// A display pixel.
pub use super::target::Point;

/// How far apart taps go out on apps that read taps against their last drawn frame
/// (`[input] frame_reads`): one frame at 60 Hz is 16.7 ms, with room for jitter.
pub const FRAME_GAP: Duration = Duration::from_millis(25);

/// How many times a guarded digit-first write taps the key it makes the brush ([`Guard::Brush`]).
/// A digit key only ever arms its own brush (or, tapped again where the app drops the brush,
/// none), so after these taps the brush is the key's, or none at all, unless every one of them
/// was lost (p^3, as the cell-first guard's three taps).
pub const BRUSH_TAPS: usize = 3;

/// How every write is guarded where the app ends the game after a few mistakes, so that a lost
/// tap cannot write a digit the search did not mean where it did not mean it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Guard {
    /// Cell-first: two given cells tapped before the cell, so that a lost cell tap leaves a
    /// given selected (the digit goes nowhere) rather than the cell written before.
    Givens,
    /// Digit-first: the brush's key tapped [`BRUSH_TAPS`] times, so that a lost key tap does
    /// not leave the brush on the digit before (which the cell tap would write).
    Brush,
}

/// How a digit is taken back out of a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cancel {
    /// Tap the erase button here.
    Erase(Point),
    /// Tap the same digit again (apps where digits toggle).
    Toggle,
    /// Tap the undo key here: the app's last entry back (the search's undos only: they take
    /// digits back last in first out, as the key does).
    Undo(Point),
}

/// Where to tap: the 81 cell centres, the keypad's 1..9, and how to erase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    pub cells: [Point; 81],
    pub keypad: [Point; 9],
    pub mode: InputMode,
    /// How the search's undos are performed.
    pub cancel: Cancel,
    /// How a cell is cleared outside the search's own order (repairs, fills): the erase key, or
    /// the digit again; never the undo key, which takes back whatever came last.
    pub clear: Cancel,
    /// The app's input rules (`mode` is theirs).
    pub rules: InputSection,
}

impl Layout {
    /// The tap layout of a calibration.
    pub fn of(cal: &Calibration) -> Layout {
        let clear = match cal.keypad.erase {
            Erase::Key([x, y]) => Cancel::Erase((x, y)),
            Erase::Toggle => Cancel::Toggle,
        };
        let cancel = match (cal.input.take_back, cal.input.undo, cal.keypad.erase) {
            (Some(TakeBack::Undo), Some([x, y]), _) => Cancel::Undo((x, y)),
            (Some(TakeBack::Digit), _, _) => Cancel::Toggle,
            (Some(TakeBack::Erase), _, Erase::Key([x, y])) => Cancel::Erase((x, y)),
            _ => clear,
        };
        Layout {
            cells: cal.geometry().cell_centers(),
            keypad: cal.keypad.digits.map(|[x, y]| (x, y)),
            mode: cal.input.mode,
            cancel,
            clear,
            rules: cal.input.clone(),
        }
    }

    /// How every write goes in guarded, where the app ends the game after a few mistakes: a
    /// lost tap must not send a digit into the cell selected before (cell-first: [`Encoder`]'s
    /// `neutral` givens, then the cell, then the key), nor write the brush held before
    /// (digit-first: the key [`BRUSH_TAPS`] times, then the cell).
    pub fn guard(&self) -> Option<Guard> {
        self.rules.mistake_limit?;
        Some(match self.mode {
            InputMode::CellFirst | InputMode::Both => Guard::Givens,
            InputMode::DigitFirst => Guard::Brush,
        })
    }

    /// Whether every write goes in guarded ([`Layout::guard`]).
    pub fn guards_writes(&self) -> bool {
        self.guard().is_some()
    }

    /// Where digit `d`'s key is while `board` is on the screen: its own place, or, in apps
    /// whose finished digits' keys go and the keys after them move up (`reflow`), the place of
    /// the `k`-th unfinished digit.
    pub fn key(&self, d: u8, board: &Board, reflow: bool) -> Point {
        let d = d.clamp(1, 9);
        let slot = if reflow {
            (1..d).filter(|&e| finished(board, e)).count() as u8
        } else {
            0
        };
        self.keypad[(d - 1 - slot) as usize]
    }

    /// The least time between taps, as the phone gets them, the app needs (see [`FRAME_GAP`]).
    pub fn least_pace(&self) -> Duration {
        if self.rules.frame_reads {
            FRAME_GAP
        } else {
            Duration::ZERO
        }
    }

    /// How long after a digit is tapped again its cell is cleared, where that happens late.
    fn clears_late(&self) -> Option<Duration> {
        (self.rules.same_digit == Some(SameDigit::ClearLate)).then(|| {
            Duration::from_millis(
                self.rules
                    .clear_late_ms
                    .unwrap_or(DEFAULT_CLEAR_LATE_MS)
                    .into(),
            )
        })
    }
}

/// Whether nine of `d` are on `board`.
pub fn finished(board: &Board, d: u8) -> bool {
    (0..81).filter(|&c| board.get(c) == d).count() >= 9
}

/// What the app has selected: a cell (cell-first apps) or a "brush" (digit-first apps).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Selection {
    #[default]
    Unknown,
    /// Nothing is selected (the app dropped the selection after an entry).
    Nothing,
    Cell(u8),
    Digit(u8),
    Erase,
}

/// Turns events into taps, remembering the app's selection so redundant taps are skipped.
#[derive(Debug, Clone)]
pub struct Encoder<'a> {
    layout: &'a Layout,
    pub selection: Selection,
    /// Two given cells, tapped in turn to leave an unknown selection where re-tapping a
    /// selected cell is not harmless: the player selects no other given (the rate's warm-up
    /// taps the last two), and the one tapped last time is skipped, in case the tap after it
    /// was lost; so this tap is never a re-tap.
    pub neutral: [Option<usize>; 2],
    /// The next write goes in guarded whatever the app's rules (the write that completes the
    /// board): cell-first, from a given cell, so that a lost cell tap sends its digit to a given
    /// (nothing) rather than to the cell selected before; digit-first, with its key tapped
    /// [`BRUSH_TAPS`] times, so that a lost key tap does not write the brush held before.
    guard: bool,
    /// A cell whose digit was tapped again where that clears it late, and when.
    late: Option<(usize, Instant)>,
    /// The time of the taps encoded next, on the performance's clock ([`Encoder::at`]); none:
    /// no late clear is followed (a plan counting taps).
    now: Option<Instant>,
    /// What the next taps must wait for: the phone carries out every tap before, then this
    /// much time passes (a late clear falling due before a digit goes into its cell).
    pub wait: Option<Duration>,
    /// The keys after a finished digit's move up one place (the calibration says so, or the
    /// performance saw it).
    pub reflow: bool,
    /// The next cell-first write starts by tapping a neutral given twice: a deliberate re-tap,
    /// which flips the app's pencil mode where a re-tap toggles it ([`Encoder::flip_pencil`]).
    flip: bool,
}

impl<'a> Encoder<'a> {
    pub fn new(layout: &'a Layout) -> Self {
        Encoder {
            layout,
            selection: Selection::Unknown,
            neutral: [None; 2],
            guard: false,
            late: None,
            now: None,
            wait: None,
            reflow: layout.rules.finished_keys == FinishedKeys::Reflow,
            flip: false,
        }
    }

    /// An encoder for the level with `givens`: its first given is the neutral cell.
    pub fn for_givens(layout: &'a Layout, givens: &Board) -> Self {
        let mut givens = (0..81).filter(|&c| givens.get(c) != 0);
        Encoder {
            neutral: [givens.next(), givens.next()],
            ..Encoder::new(layout)
        }
    }

    /// The layout it encodes for.
    pub fn layout(&self) -> &'a Layout {
        self.layout
    }

    /// The taps encoded next are sent at `now` (the performance's clock): where the app clears
    /// a digit late, the clear is followed from then.
    pub fn at(&mut self, now: Instant) {
        self.now = Some(now);
    }

    /// How long after `now` the last late clear the taps asked for falls due (the app's delay
    /// and a frame or two), if it may still be pending: a look before then still sees the digit.
    pub fn late_pending(&self, now: Instant) -> Option<Duration> {
        let (_, at) = self.late?;
        let due = self.layout.clears_late()? + Duration::from_millis(50);
        due.checked_sub(now.saturating_duration_since(at))
    }

    /// Forgets the selection (after anything else touched the screen).
    pub fn reset(&mut self) {
        self.selection = Selection::Unknown;
    }

    /// Where a re-tap of the selected cell toggles pencil mode, the next cell-first write first
    /// taps a neutral given twice, which flips the mode (a lost tap may have turned it on: the
    /// digits written since show as pencil marks, or not at all).
    pub fn flip_pencil(&mut self) {
        self.flip = self.layout.rules.retap == Retap::Pencil;
    }

    /// The taps [`Encoder::flip_pencil`] asked for, before a write into `cell`: a neutral given
    /// twice. It is not selected (the scheme in `put` never leaves it so unless taps were lost):
    /// the first tap selects it, the second is the re-tap that flips the mode.
    fn flip_taps(&mut self, cell: usize, out: &mut Vec<Point>) {
        if std::mem::take(&mut self.flip)
            && let Some(n) = self.neutral[0].filter(|&n| n != cell)
        {
            out.extend([self.layout.cells[n], self.layout.cells[n]]);
            self.neutral.swap(0, 1);
            self.selection = Selection::Unknown;
        }
    }

    /// Forgets the selection, and starts the next write from a given cell (see `guard`).
    pub fn reset_guarded(&mut self) {
        self.reset();
        self.guard = true;
    }

    /// The taps that write `digit` (0: clear) into `cell` while `board` is on the screen,
    /// appended to `out` (repairs and fills: a clear is the erase key or the digit again).
    pub fn write(&mut self, cell: usize, digit: u8, board: &Board, out: &mut Vec<Point>) {
        let clear = self.layout.clear;
        self.put(cell, digit, board.get(cell), board, clear, out);
    }

    /// The app's input rules the taps follow.
    pub fn rules(&self) -> &crate::calibration::InputSection {
        &self.layout.rules
    }

    /// The taps of one search event while `board` (before it) is on the screen.
    pub fn event(&mut self, ev: Event, board: &Board, out: &mut Vec<Point>) {
        let cancel = self.layout.cancel;
        match ev {
            Event::Place { cell, digit } => {
                let previous = board.get(cell as usize);
                self.put(cell as usize, digit, previous, board, cancel, out)
            }
            Event::Undo { cell, digit } => self.put(cell as usize, 0, digit, board, cancel, out),
        }
    }

    /// The taps that write `digit` (0: take back `previous`) into `cell`, `cancel` taking back.
    fn put(
        &mut self,
        cell: usize,
        digit: u8,
        previous: u8,
        board: &Board,
        cancel: Cancel,
        out: &mut Vec<Point>,
    ) {
        self.wait = None;
        self.await_late_clear(cell);
        let (key, key_point) = match (digit, cancel) {
            (0, Cancel::Undo(p)) => {
                // The app's last entry back: no selection needed, none changed.
                out.push(p);
                return;
            }
            (0, Cancel::Erase(p)) => (Selection::Erase, p),
            (0, Cancel::Toggle) => {
                if self.layout.clears_late().is_some() {
                    self.late = self.now.map(|now| (cell, now));
                }
                let d = previous.clamp(1, 9);
                (Selection::Digit(d), self.layout.key(d, board, self.reflow))
            }
            (d, _) => (Selection::Digit(d), self.layout.key(d, board, self.reflow)),
        };
        match self.layout.mode {
            InputMode::CellFirst | InputMode::Both => {
                self.select_cell(cell, out);
                out.push(key_point);
                self.selection = self.after_entry(cell, key);
            }
            InputMode::DigitFirst => {
                self.select_key(key, key_point, out);
                out.push(self.layout.cells[cell]);
            }
        }
    }

    /// Where a late clear of `cell` may still be due, makes the next taps wait for it to fall
    /// first; forgets a late clear that has fallen.
    fn await_late_clear(&mut self, cell: usize) {
        let (Some((c, at)), Some(now)) = (self.late, self.now) else {
            return;
        };
        let late = self.layout.clears_late().unwrap_or_default();
        let pending = now.saturating_duration_since(at) < late + Duration::from_secs(2);
        if c == cell && pending {
            self.wait = Some(late);
        }
        if c == cell || !pending {
            self.late = None;
        }
    }

    /// The taps that select `cell` before a key, in a cell-first app.
    fn select_cell(&mut self, cell: usize, out: &mut Vec<Point>) {
        let l = self.layout;
        self.flip_taps(cell, out);
        if l.guards_writes() {
            // Both givens, then the cell: only if all three taps are lost does the digit go
            // where it should not (p^3, 0.8% at one tap in five lost). The first given is not
            // the one selected (the cell, or the second given, is, unless taps were lost), so
            // none of these taps re-taps a selected cell.
            let givens = self.neutral.iter().flatten().filter(|&&n| n != cell);
            out.extend(givens.map(|&n| l.cells[n]));
            out.push(l.cells[cell]);
            // Where a re-tap of the selected cell does nothing, the cell again: four taps lost
            // (p^4, 0.16%); and a dialog in front of the board that took every tap since it
            // came up (an alert that refused a digit, closed only by its button) and that the
            // first tap on the cell closes, because its button lies there, leaves the cell it
            // came up over selected: the second tap selects the cell before the key goes in.
            if l.rules.retap == Retap::Nothing {
                out.push(l.cells[cell]);
            }
        } else if self.selection != Selection::Cell(cell as u8) {
            let unsure = l.rules.retap != Retap::Nothing
                || l.rules.after_entry == AfterEntry::Unknown
                || self.guard;
            if self.selection == Selection::Unknown
                && unsure
                && let Some(n) = self.neutral[0].filter(|&n| n != cell)
            {
                out.push(l.cells[n]);
                self.neutral.swap(0, 1);
            }
            out.push(l.cells[cell]);
        }
        self.guard = false;
    }

    /// What a cell-first app has selected after `key` went into `cell`.
    fn after_entry(&self, cell: usize, key: Selection) -> Selection {
        match (self.layout.rules.after_entry, key) {
            (AfterEntry::Keep, _) => Selection::Cell(cell as u8),
            // The erase key is no entry: an app that drops the selection after an entry may
            // keep it after an erase (then a tap on the cell would be a re-tap).
            (AfterEntry::Clear, Selection::Erase) | (AfterEntry::Unknown, _) => Selection::Unknown,
            (AfterEntry::Clear, _) => Selection::Nothing,
        }
    }

    /// The taps that make `key` the brush of a digit-first app, unless it is already. Guarded
    /// ([`Guard::Brush`]), the key is tapped [`BRUSH_TAPS`] times: each tap that lands leaves
    /// the brush on the key (or, where the key drops its own brush, on none: the cell tap then
    /// writes nothing), so the brush before stays only if all of them are lost. Where the brush
    /// is believed the key's, no tap: the guarded write before left it the key's or none.
    fn select_key(&mut self, key: Selection, key_point: Point, out: &mut Vec<Point>) {
        let guarded = std::mem::take(&mut self.guard) || self.layout.guards_writes();
        if self.selection == key {
            return;
        }
        let l = self.layout;
        // From an unknown brush, the wanted key may be the brush: another key first.
        if self.selection == Selection::Unknown && l.rules.brush_retap == BrushRetap::Clear {
            let other = match key {
                Selection::Digit(d) => l.keypad[(d % 9) as usize],
                _ => l.keypad[0],
            };
            out.push(other);
        }
        let times = if guarded { BRUSH_TAPS } else { 1 };
        out.extend(std::iter::repeat_n(key_point, times));
        self.selection = key;
    }
}

/// A 10-pixel grid layout for tests: cell centres at (5 + 10c, 5 + 10r), keys along y = 200,
/// erase (unless `toggle`) at (50, 250).
#[cfg(test)]
pub(crate) fn test_layout(mode: InputMode, toggle: bool) -> Layout {
    let mut cells = [(0, 0); 81];
    for (i, c) in cells.iter_mut().enumerate() {
        *c = (i as u32 % 9 * 10 + 5, i as u32 / 9 * 10 + 5);
    }
    let mut keypad = [(0, 0); 9];
    for (i, k) in keypad.iter_mut().enumerate() {
        *k = (i as u32 * 10 + 5, 200);
    }
    Layout {
        cells,
        keypad,
        mode,
        cancel: if toggle {
            Cancel::Toggle
        } else {
            Cancel::Erase((50, 250))
        },
        clear: if toggle {
            Cancel::Toggle
        } else {
            Cancel::Erase((50, 250))
        },
        rules: InputSection::new(mode),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_layout as layout;

    /// One event's taps with an empty board on the screen.
    fn ev(e: &mut Encoder, event: Event, taps: &mut Vec<Point>) {
        e.event(event, &Board::empty(), taps)
    }

    #[test]
    fn cell_first_skips_reselecting() {
        let l = layout(InputMode::CellFirst, false);
        let mut e = Encoder::new(&l);
        let mut taps = Vec::new();
        ev(&mut e, Event::Place { cell: 10, digit: 3 }, &mut taps);
        ev(&mut e, Event::Undo { cell: 10, digit: 3 }, &mut taps);
        ev(&mut e, Event::Place { cell: 10, digit: 4 }, &mut taps);
        ev(&mut e, Event::Place { cell: 11, digit: 1 }, &mut taps);
        assert_eq!(
            taps,
            vec![
                (15, 15),
                (25, 200),
                (50, 250),
                (35, 200),
                (25, 15),
                (5, 200)
            ]
        );
    }

    #[test]
    fn toggle_cancel_taps_the_digit_again() {
        let l = layout(InputMode::CellFirst, true);
        let mut e = Encoder::new(&l);
        let mut taps = Vec::new();
        ev(&mut e, Event::Place { cell: 0, digit: 7 }, &mut taps);
        ev(&mut e, Event::Undo { cell: 0, digit: 7 }, &mut taps);
        assert_eq!(taps, vec![(5, 5), (65, 200), (65, 200)]);
    }

    #[test]
    fn a_selected_cell_is_never_tapped_again_where_that_deselects() {
        let mut l = layout(InputMode::CellFirst, false);
        l.rules.retap = Retap::Deselect;
        let mut e = Encoder::new(&l);
        e.neutral = [Some(0), Some(1)];
        let mut taps = Vec::new();
        // From an unknown selection: the given cell 0 first, then the cell.
        ev(&mut e, Event::Place { cell: 10, digit: 3 }, &mut taps);
        ev(&mut e, Event::Undo { cell: 10, digit: 3 }, &mut taps);
        assert_eq!(taps, vec![(5, 5), (15, 15), (25, 200), (50, 250)]);
        // After a reset (a popup, a repair): the other given (the tap after the first may have
        // been lost), then the cell; never a cell twice in a row.
        e.reset();
        taps.clear();
        ev(&mut e, Event::Place { cell: 10, digit: 4 }, &mut taps);
        assert_eq!(taps, vec![(15, 5), (15, 15), (35, 200)]);
        // Where a re-tap is harmless, no extra tap.
        let plain = layout(InputMode::CellFirst, false);
        let mut e = Encoder::new(&plain);
        e.neutral = [Some(0), Some(1)];
        taps.clear();
        ev(&mut e, Event::Place { cell: 10, digit: 3 }, &mut taps);
        assert_eq!(taps, vec![(15, 15), (25, 200)]);
    }

    #[test]
    fn every_write_selects_its_cell_where_the_app_drops_the_selection() {
        let mut l = layout(InputMode::CellFirst, false);
        l.rules.after_entry = AfterEntry::Clear;
        let mut e = Encoder::new(&l);
        let mut taps = Vec::new();
        ev(&mut e, Event::Place { cell: 10, digit: 3 }, &mut taps);
        ev(&mut e, Event::Undo { cell: 10, digit: 3 }, &mut taps);
        assert_eq!(taps, vec![(15, 15), (25, 200), (15, 15), (50, 250)]);
        // After the erase key (no entry) the cell may still be selected: where a re-tap
        // deselects, the next write into it starts from a given (a lost write, before).
        l.rules.retap = Retap::Deselect;
        let mut e = Encoder::new(&l);
        e.neutral = [Some(0), Some(1)];
        taps.clear();
        ev(&mut e, Event::Place { cell: 10, digit: 3 }, &mut taps);
        ev(&mut e, Event::Undo { cell: 10, digit: 3 }, &mut taps);
        ev(&mut e, Event::Place { cell: 10, digit: 4 }, &mut taps);
        assert_eq!(
            taps,
            vec![
                (5, 5),
                (15, 15),
                (25, 200),
                (15, 15),
                (50, 250),
                (15, 5),
                (15, 15),
                (35, 200)
            ]
        );
    }

    #[test]
    fn a_brush_that_its_key_drops_is_set_through_another_key() {
        let mut l = layout(InputMode::DigitFirst, false);
        l.rules.brush_retap = BrushRetap::Clear;
        let mut e = Encoder::new(&l);
        let mut taps = Vec::new();
        ev(&mut e, Event::Place { cell: 0, digit: 2 }, &mut taps);
        ev(&mut e, Event::Place { cell: 1, digit: 2 }, &mut taps);
        assert_eq!(taps, vec![(25, 200), (15, 200), (5, 5), (15, 5)]);
    }

    #[test]
    fn digit_first_keeps_the_brush() {
        let l = layout(InputMode::DigitFirst, false);
        let mut e = Encoder::new(&l);
        let mut taps = Vec::new();
        ev(&mut e, Event::Place { cell: 0, digit: 2 }, &mut taps);
        ev(&mut e, Event::Place { cell: 1, digit: 2 }, &mut taps);
        ev(&mut e, Event::Undo { cell: 1, digit: 2 }, &mut taps);
        assert_eq!(taps, vec![(15, 200), (5, 5), (15, 5), (50, 250), (15, 5)]);
    }

    #[test]
    fn undo_key_takes_the_searchs_digits_back_and_repairs_never_use_it() {
        let mut l = layout(InputMode::CellFirst, false);
        l.cancel = Cancel::Undo((80, 250));
        let mut e = Encoder::new(&l);
        let mut b = Board::empty();
        let mut taps = Vec::new();
        e.event(Event::Place { cell: 10, digit: 3 }, &b, &mut taps);
        b.set(10, 3);
        e.event(Event::Undo { cell: 10, digit: 3 }, &b, &mut taps);
        // A repair's clear is the erase key, with its cell selected.
        e.write(10, 0, &b, &mut taps);
        assert_eq!(taps, vec![(15, 15), (25, 200), (80, 250), (50, 250)]);
    }

    #[test]
    fn keys_after_a_finished_digit_move_up_where_the_row_reflows() {
        let mut l = layout(InputMode::CellFirst, false);
        l.rules.finished_keys = FinishedKeys::Reflow;
        // Nine 2s on the board: 3's key is where 2's was.
        let b = Board::parse(
            "2........\n...2.....\n......2..\n.2.......\n....2....\n.......2.\n..2......\n.....2...\n........2",
        )
        .unwrap();
        assert_eq!(l.key(1, &b, true), (5, 200));
        assert_eq!(l.key(3, &b, true), (15, 200));
        assert_eq!(l.key(9, &b, true), (75, 200));
        assert_eq!(l.key(3, &b, false), (25, 200));
        let mut e = Encoder::new(&l);
        let mut taps = Vec::new();
        e.event(Event::Place { cell: 1, digit: 3 }, &b, &mut taps);
        assert_eq!(taps, vec![(15, 5), (15, 200)]);
    }

    #[test]
    fn a_late_clear_falls_due_before_its_cell_is_written_again() {
        let mut l = layout(InputMode::CellFirst, true);
        l.rules.same_digit = Some(SameDigit::ClearLate);
        l.rules.clear_late_ms = Some(190);
        let mut e = Encoder::new(&l);
        e.at(Instant::now());
        let mut b = Board::empty();
        let mut taps = Vec::new();
        e.event(Event::Place { cell: 0, digit: 7 }, &b, &mut taps);
        assert_eq!(e.wait, None);
        b.set(0, 7);
        e.event(Event::Undo { cell: 0, digit: 7 }, &b, &mut taps);
        b.set(0, 0);
        assert_eq!(e.wait, None);
        // Another cell: no wait.
        e.event(Event::Place { cell: 1, digit: 8 }, &b, &mut taps);
        assert_eq!(e.wait, None);
        e.event(Event::Place { cell: 0, digit: 8 }, &b, &mut taps);
        assert_eq!(e.wait, Some(Duration::from_millis(190)));
    }

    #[test]
    fn an_unknown_selection_after_entries_starts_every_write_from_a_given() {
        let mut l = layout(InputMode::CellFirst, false);
        l.rules.after_entry = AfterEntry::Unknown;
        let mut e = Encoder::new(&l);
        e.neutral = [Some(0), Some(1)];
        let mut taps = Vec::new();
        ev(&mut e, Event::Place { cell: 10, digit: 3 }, &mut taps);
        ev(&mut e, Event::Place { cell: 11, digit: 4 }, &mut taps);
        assert_eq!(
            taps,
            vec![(5, 5), (15, 15), (25, 200), (15, 5), (25, 15), (35, 200)]
        );
        // Plain apps: only the completing write starts from a given (reset_guarded).
        let plain = layout(InputMode::CellFirst, false);
        let mut e = Encoder::new(&plain);
        e.neutral = [Some(0), Some(1)];
        taps.clear();
        e.reset_guarded();
        ev(&mut e, Event::Place { cell: 10, digit: 3 }, &mut taps);
        e.reset();
        ev(&mut e, Event::Place { cell: 11, digit: 4 }, &mut taps);
        assert_eq!(taps, vec![(5, 5), (15, 15), (25, 200), (25, 15), (35, 200)]);
    }

    /// Where the app ends the game after a few mistakes, every write (an erase too) starts from
    /// both givens, the cell tapped again each time, so a lost cell tap leaves a given selected.
    #[test]
    fn a_mistake_limit_guards_every_write() {
        let mut l = layout(InputMode::CellFirst, false);
        l.rules.mistake_limit = Some(3);
        assert!(l.guards_writes());
        let mut e = Encoder::new(&l);
        e.neutral = [Some(0), Some(1)];
        let mut taps = Vec::new();
        let b = Board::empty();
        e.write(10, 3, &b, &mut taps);
        e.write(10, 0, &b, &mut taps);
        // A re-tap does nothing here: the cell twice.
        assert_eq!(
            taps,
            vec![
                (5, 5),
                (15, 5),
                (15, 15),
                (15, 15),
                (25, 200),
                (5, 5),
                (15, 5),
                (15, 15),
                (15, 15),
                (50, 250)
            ]
        );
        l.rules.retap = Retap::Deselect;
        let mut e = Encoder::new(&l);
        e.neutral = [Some(0), Some(1)];
        taps.clear();
        e.write(10, 3, &b, &mut taps);
        assert_eq!(taps, vec![(5, 5), (15, 5), (15, 15), (25, 200)]);
        assert_eq!(l.guard(), Some(Guard::Givens));
        l.mode = InputMode::DigitFirst;
        assert_eq!(l.guard(), Some(Guard::Brush));
        l.rules.mistake_limit = None;
        assert_eq!(l.guard(), None);
    }

    /// What a cell-first app has selected after taps on cells (`None`: nothing), from `from`.
    fn selected_after(from: Option<Point>, taps: &[Point], retap: Retap) -> Option<Point> {
        taps.iter().fold(from, |sel, &t| match retap {
            Retap::Deselect if sel == Some(t) => None,
            _ => Some(t),
        })
    }

    /// The guarded taps before a cell-first write's key send the key to the cell, a given or
    /// nowhere, whichever of them are lost (short of all), never to the cell selected before;
    /// where a re-tap does nothing, a dialog that took every tap since it came up (an alert
    /// that refused a digit) and that the first tap on the cell's place closes leaves the key
    /// to the cell too.
    #[test]
    fn the_cell_first_guard_sends_no_key_to_the_cell_selected_before() {
        for retap in [Retap::Nothing, Retap::Deselect] {
            let mut l = layout(InputMode::CellFirst, false);
            l.rules.mistake_limit = Some(3);
            l.rules.retap = retap;
            let mut e = Encoder::new(&l);
            e.neutral = [Some(0), Some(1)];
            let (cell, before) = (l.cells[20], Some(l.cells[30]));
            let mut taps = Vec::new();
            e.write(20, 5, &Board::empty(), &mut taps);
            let cells = &taps[..taps.len() - 1];
            let givens = [l.cells[0], l.cells[1]];
            for lost in 0u32..(1 << cells.len()) - 1 {
                let landed: Vec<Point> = (0..cells.len())
                    .filter(|&i| lost & (1 << i) == 0)
                    .map(|i| cells[i])
                    .collect();
                let sel = selected_after(before, &landed, retap);
                assert!(
                    sel.is_none_or(|s| s == cell || givens.contains(&s)),
                    "{retap:?}: {landed:?} landed: the key goes to {sel:?}"
                );
            }
            if retap == Retap::Nothing {
                let at = cells.iter().position(|&t| t == cell).unwrap();
                let sel = selected_after(before, &cells[at + 1..], retap);
                assert_eq!(sel, Some(cell), "{retap:?}: after the dialog, {cells:?}");
            }
        }
    }

    /// What a digit-first app's brush is after taps on its keys (`None`: no brush), by the
    /// app's rule for a tap on the brush's own key.
    fn brush_after(start: Option<Point>, keys: &[Point], retap: BrushRetap) -> Option<Point> {
        keys.iter().fold(start, |brush, &k| match retap {
            BrushRetap::Clear if brush == Some(k) => None,
            _ => Some(k),
        })
    }

    /// Where a digit-first app ends the game after a few mistakes, each write taps the key it
    /// needs three times: whichever of them are lost, short of all three, the cell tap writes
    /// that key's digit or nothing, never the brush held before, from any brush, whether the
    /// key drops its own brush or not. Where the brush is already the key's, no key tap.
    #[test]
    fn a_mistake_limit_guards_the_brush_of_digit_first_apps() {
        for retap in [BrushRetap::Nothing, BrushRetap::Clear] {
            let mut l = layout(InputMode::DigitFirst, false);
            l.rules.brush_retap = retap;
            l.rules.mistake_limit = Some(3);
            let b = Board::empty();
            let key = l.keypad[4];
            let starts = [
                None,
                Some(key),
                Some(l.keypad[0]),
                Some(l.keypad[5]),
                Some((50, 250)),
            ];
            for selection in [Selection::Unknown, Selection::Digit(1), Selection::Erase] {
                let mut e = Encoder::new(&l);
                e.selection = selection;
                let mut taps = Vec::new();
                e.write(20, 5, &b, &mut taps);
                assert_eq!(taps.last(), Some(&l.cells[20]), "{retap:?} {selection:?}");
                let keys = &taps[..taps.len() - 1];
                let presses = keys.iter().filter(|&&k| k == key).count();
                assert_eq!(presses, 3, "{retap:?} {selection:?}: {taps:?}");
                // Every way to lose taps but all of the key's, from every brush the app may hold.
                for lost in 0u32..1 << keys.len() {
                    let landed: Vec<Point> = (0..keys.len())
                        .filter(|&i| lost & (1 << i) == 0)
                        .map(|i| keys[i])
                        .collect();
                    if !landed.contains(&key) {
                        continue;
                    }
                    for start in starts {
                        let brush = brush_after(start, &landed, retap);
                        assert!(
                            brush.is_none_or(|b| b == key),
                            "{retap:?} {selection:?} from {start:?}, {landed:?} landed: {brush:?}"
                        );
                        // Nothing lost, from the brush believed (any, where unknown): the key's.
                        let believed = match selection {
                            Selection::Digit(d) => start == Some(l.keypad[d as usize - 1]),
                            Selection::Erase => start == Some((50, 250)),
                            _ => true,
                        };
                        if landed.len() == keys.len() && believed {
                            assert_eq!(brush, Some(key), "{retap:?}: nothing lost, from {start:?}");
                        }
                    }
                }
                // The same digit again: the brush is the key's, or none (a write lost).
                taps.clear();
                e.write(21, 5, &b, &mut taps);
                assert_eq!(taps, vec![l.cells[21]]);
            }
        }
    }

    /// Without a mistake limit, the key once; the completing write (`reset_guarded`) is guarded
    /// all the same, so a lost key tap cannot complete the board with another digit.
    #[test]
    fn digit_first_writes_are_guarded_where_the_board_completes() {
        let l = layout(InputMode::DigitFirst, false);
        let mut e = Encoder::new(&l);
        let mut taps = Vec::new();
        let b = Board::empty();
        e.write(0, 2, &b, &mut taps);
        e.write(1, 3, &b, &mut taps);
        assert_eq!(taps, vec![(15, 200), (5, 5), (25, 200), (15, 5)]);
        e.reset_guarded();
        taps.clear();
        e.write(2, 4, &b, &mut taps);
        e.write(3, 5, &b, &mut taps);
        assert_eq!(
            taps,
            vec![(35, 200), (35, 200), (35, 200), (25, 5), (45, 200), (35, 5)]
        );
    }
}
