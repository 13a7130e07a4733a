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
//! where the brush's own key drops the brush, another key is pressed first.

pub use crate::calibration::InputMode as InputOrder;
use crate::calibration::{AfterEntry, BrushRetap, Calibration, Erase, InputSection, Retap};
use crate::solver::Event;

/// A display pixel.
pub type Point = (u32, u32);

/// How a digit is taken back out of a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cancel {
    /// Tap the erase button here.
    Erase(Point),
    /// Tap the same digit again (apps where digits toggle).
    Toggle,
}

/// Where to tap: the 81 cell centres, the keypad's 1..9, and how to erase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    pub cells: [Point; 81],
    pub keypad: [Point; 9],
    pub order: InputOrder,
    pub cancel: Cancel,
    /// The app's input rules (`order` is their `mode`).
    pub rules: InputSection,
}

impl Layout {
    /// The tap layout of a calibration.
    pub fn of(cal: &Calibration) -> Layout {
        Layout {
            cells: cal.geometry().cell_centers(),
            keypad: cal.keypad.digits.map(|[x, y]| (x, y)),
            order: cal.input.mode,
            cancel: match cal.keypad.erase {
                Erase::Key([x, y]) => Cancel::Erase((x, y)),
                Erase::Toggle => Cancel::Toggle,
            },
            rules: cal.input.clone(),
        }
    }
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
}

impl<'a> Encoder<'a> {
    pub fn new(layout: &'a Layout) -> Self {
        Encoder {
            layout,
            selection: Selection::Unknown,
            neutral: [None; 2],
        }
    }

    /// An encoder for `puzzle`: its first given is the neutral cell.
    pub fn for_puzzle(layout: &'a Layout, puzzle: &crate::board::Board) -> Self {
        let mut givens = (0..81).filter(|&c| puzzle.get(c) != 0);
        Encoder {
            neutral: [givens.next(), givens.next()],
            ..Encoder::new(layout)
        }
    }

    /// Forgets the selection (after anything else touched the screen).
    pub fn reset(&mut self) {
        self.selection = Selection::Unknown;
    }

    /// The taps that write `digit` (0: clear) into `cell`, appended to `out`.
    pub fn write(&mut self, cell: usize, digit: u8, previous: u8, out: &mut Vec<Point>) {
        let l = self.layout;
        let (key, key_point) = match (digit, l.cancel) {
            (0, Cancel::Erase(p)) => (Selection::Erase, p),
            (0, Cancel::Toggle) => {
                let d = previous.clamp(1, 9);
                (Selection::Digit(d), l.keypad[(d - 1) as usize])
            }
            (d, _) => (Selection::Digit(d), l.keypad[(d.clamp(1, 9) - 1) as usize]),
        };
        match l.order {
            InputOrder::CellFirst => {
                if self.selection != Selection::Cell(cell as u8) {
                    if self.selection == Selection::Unknown
                        && l.rules.retap != Retap::Nothing
                        && let Some(n) = self.neutral[0].filter(|&n| n != cell)
                    {
                        out.push(l.cells[n]);
                        self.neutral.swap(0, 1);
                    }
                    out.push(l.cells[cell]);
                }
                out.push(key_point);
                self.selection = match l.rules.after_entry {
                    AfterEntry::Keep => Selection::Cell(cell as u8),
                    AfterEntry::Clear => Selection::Nothing,
                };
            }
            InputOrder::DigitFirst => {
                if self.selection != key {
                    // From an unknown brush, the wanted key may be the brush: another key first.
                    if self.selection == Selection::Unknown
                        && l.rules.brush_retap == BrushRetap::Clear
                    {
                        let other = match key {
                            Selection::Digit(d) => l.keypad[(d % 9) as usize],
                            _ => l.keypad[0],
                        };
                        out.push(other);
                    }
                    out.push(key_point);
                    self.selection = key;
                }
                out.push(l.cells[cell]);
            }
        }
    }

    /// The taps of one search event.
    pub fn event(&mut self, ev: Event, out: &mut Vec<Point>) {
        match ev {
            Event::Place { cell, digit } => self.write(cell as usize, digit, 0, out),
            Event::Undo { cell, digit } => self.write(cell as usize, 0, digit, out),
        }
    }
}

/// A 10-pixel grid layout for tests: cell centres at (5 + 10c, 5 + 10r), keys along y = 200,
/// erase (unless `toggle`) at (50, 250).
#[cfg(test)]
pub(crate) fn test_layout(order: InputOrder, toggle: bool) -> Layout {
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
        order,
        cancel: if toggle {
            Cancel::Toggle
        } else {
            Cancel::Erase((50, 250))
        },
        rules: InputSection::new(order),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_layout as layout;

    #[test]
    fn cell_first_skips_reselecting() {
        let l = layout(InputOrder::CellFirst, false);
        let mut e = Encoder::new(&l);
        let mut taps = Vec::new();
        e.event(Event::Place { cell: 10, digit: 3 }, &mut taps);
        e.event(Event::Undo { cell: 10, digit: 3 }, &mut taps);
        e.event(Event::Place { cell: 10, digit: 4 }, &mut taps);
        e.event(Event::Place { cell: 11, digit: 1 }, &mut taps);
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
        let l = layout(InputOrder::CellFirst, true);
        let mut e = Encoder::new(&l);
        let mut taps = Vec::new();
        e.event(Event::Place { cell: 0, digit: 7 }, &mut taps);
        e.event(Event::Undo { cell: 0, digit: 7 }, &mut taps);
        assert_eq!(taps, vec![(5, 5), (65, 200), (65, 200)]);
    }

    #[test]
    fn a_selected_cell_is_never_tapped_again_where_that_deselects() {
        let mut l = layout(InputOrder::CellFirst, false);
        l.rules.retap = Retap::Deselect;
        let mut e = Encoder::new(&l);
        e.neutral = [Some(0), Some(1)];
        let mut taps = Vec::new();
        // From an unknown selection: the given cell 0 first, then the cell.
        e.event(Event::Place { cell: 10, digit: 3 }, &mut taps);
        e.event(Event::Undo { cell: 10, digit: 3 }, &mut taps);
        assert_eq!(taps, vec![(5, 5), (15, 15), (25, 200), (50, 250)]);
        // After a reset (a popup, a repair): the other given (the tap after the first may have
        // been lost), then the cell; never a cell twice in a row.
        e.reset();
        taps.clear();
        e.event(Event::Place { cell: 10, digit: 4 }, &mut taps);
        assert_eq!(taps, vec![(15, 5), (15, 15), (35, 200)]);
        // Where a re-tap is harmless, no extra tap.
        let plain = layout(InputOrder::CellFirst, false);
        let mut e = Encoder::new(&plain);
        e.neutral = [Some(0), Some(1)];
        taps.clear();
        e.event(Event::Place { cell: 10, digit: 3 }, &mut taps);
        assert_eq!(taps, vec![(15, 15), (25, 200)]);
    }

    #[test]
    fn every_write_selects_its_cell_where_the_app_drops_the_selection() {
        let mut l = layout(InputOrder::CellFirst, false);
        l.rules.after_entry = AfterEntry::Clear;
        let mut e = Encoder::new(&l);
        let mut taps = Vec::new();
        e.event(Event::Place { cell: 10, digit: 3 }, &mut taps);
        e.event(Event::Undo { cell: 10, digit: 3 }, &mut taps);
        assert_eq!(taps, vec![(15, 15), (25, 200), (15, 15), (50, 250)]);
    }

    #[test]
    fn a_brush_that_its_key_drops_is_set_through_another_key() {
        let mut l = layout(InputOrder::DigitFirst, false);
        l.rules.brush_retap = BrushRetap::Clear;
        let mut e = Encoder::new(&l);
        let mut taps = Vec::new();
        e.event(Event::Place { cell: 0, digit: 2 }, &mut taps);
        e.event(Event::Place { cell: 1, digit: 2 }, &mut taps);
        assert_eq!(taps, vec![(25, 200), (15, 200), (5, 5), (15, 5)]);
    }

    #[test]
    fn digit_first_keeps_the_brush() {
        let l = layout(InputOrder::DigitFirst, false);
        let mut e = Encoder::new(&l);
        let mut taps = Vec::new();
        e.event(Event::Place { cell: 0, digit: 2 }, &mut taps);
        e.event(Event::Place { cell: 1, digit: 2 }, &mut taps);
        e.event(Event::Undo { cell: 1, digit: 2 }, &mut taps);
        assert_eq!(taps, vec![(15, 200), (5, 5), (15, 5), (50, 250), (15, 5)]);
    }
}
