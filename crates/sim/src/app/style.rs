//! App styles: how other Sudoku apps draw their game screen, as presets of `autoplay sim
//! --style NAME`. Real apps mark givens by colour, by weight, by a tinted cell or by a disc behind
//! the digit; draw only the box lines, or no outer border, or the board from edge to edge;
//! lay their keypad out in a row, two rows or a 3x3 grid of light keys on a dark panel, with
//! the count of each digit still to place, hiding a digit's key once all nine are on the board;
//! and erase with a ⌫ key, a trash can, a "C" key, a ✕ key, the word "Erase" in an action row,
//! or by tapping the cell's digit again. Some draw their digits in other fonts and sizes, round
//! the board's card, draw box lines no thicker than cell lines, highlight only the selected
//! cell's row, or use their own colours.
//!
//! Everything a style changes is here, or a `match` on these fields in the layout and the
//! renderer; the game rules and the screens are the same for every style.

use super::canvas::Canvas;
use super::font::Face;
use super::geometry::Rect;
use super::palette::{self, Palette, Rgb};

/// Keypad layouts: one row of 1..9 with erase below, two rows of five with erase (like
/// OpenSudoku), or a 3x3 grid on a panel with erase beside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KeypadStyle {
    #[default]
    Row,
    TwoRows,
    Grid,
}

impl KeypadStyle {
    /// The name `dumpsys` reports.
    pub fn name(self) -> &'static str {
        match self {
            KeypadStyle::Row => "row",
            KeypadStyle::TwoRows => "two-rows",
            KeypadStyle::Grid => "grid",
        }
    }
}

/// How givens differ from the player's digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Givens {
    /// Givens dark, entries blue (the classic look).
    Colour,
    /// Givens bold, entries regular, one colour.
    Weight,
    /// Givens on a tinted cell, one colour and weight.
    Tint,
    /// Givens on a filled disc, entries plain.
    Disc,
    /// Entries in the givens' own ink at half opacity (black and grey on light, white and grey
    /// on dark; issue 35, class 1).
    Faded,
    /// Givens on grey cells, entries in grey ink on the board's colour (issue 35, class 2).
    Shaded,
}

/// The erase key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EraseKey {
    /// "⌫" (with "Erase" when the key is wide).
    Backspace,
    /// A trash can icon.
    Trash,
    /// The letter "C".
    LetterC,
    /// No erase key: tapping the digit a cell holds clears it.
    None,
    /// A "✕" key (the tenth key of two rows, or where the layout puts its erase key).
    Cross,
    /// The word "Erase" under an icon in an action row (Undo, Erase, Notes, Hint) between the
    /// board and the keypad; the other actions do nothing.
    Actions,
}

/// The typefaces of the digits (`Style::faces`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Faces {
    pub given: Face,
    pub entered: Face,
    /// Keypad digits and the action row's words.
    pub keys: Face,
}

/// Which cells a selection tints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Highlights {
    /// The selected cell's row, column and box, and the cells holding its digit.
    Related,
    /// The selected cell's row, column and box.
    Peers,
    /// The selected cell's row.
    Row,
    /// The selected cell; the digits equal to its digit drawn in red, their cells keeping
    /// their background (issue 35, class 2).
    DigitInk,
}

/// One app's look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// `--style NAME`.
    pub name: &'static str,
    /// What it looks like, for `--help`.
    pub about: &'static str,
    pub givens: Givens,
    /// Thin lines between cells (`false`: only the 3x3 box lines).
    pub cell_lines: bool,
    /// The board's outer border.
    pub border: bool,
    /// The board spans the whole screen width.
    pub edge_to_edge: bool,
    /// The keypad layout (`None`: the one of `--keypad`).
    pub keypad: Option<KeypadStyle>,
    /// Each key shows how many of its digit are still to place.
    pub counts: bool,
    /// A key disappears while all nine of its digit are on the board.
    pub hide_completed: bool,
    pub erase: EraseKey,
    /// The digits' typefaces (`None`: DejaVu Sans, givens bold under `Givens::Weight`).
    pub faces: Option<Faces>,
    /// A board digit's ink height, in percent of the cell.
    pub digit_ink: u8,
    /// Box lines as thin as cell lines.
    pub thin_boxes: bool,
    /// Corner radius of the board's card, dp (0: square).
    pub card_radius: u8,
    pub highlight: Highlights,
    /// The style's own colours for the light and dark themes (`None`: the theme's).
    pub palettes: Option<&'static [Palette; 2]>,
}

impl Default for Style {
    fn default() -> Self {
        STYLES[0]
    }
}

/// The classic look, the default.
const CLASSIC: Style = Style {
    name: "classic",
    about: "givens dark and entries blue, full grid, keypad of --keypad, ⌫ erase key",
    givens: Givens::Colour,
    cell_lines: true,
    border: true,
    edge_to_edge: false,
    keypad: None,
    counts: false,
    hide_completed: false,
    erase: EraseKey::Backspace,
    faces: None,
    digit_ink: 64,
    thin_boxes: false,
    card_radius: 0,
    highlight: Highlights::Related,
    palettes: None,
};

/// The presets of the screenshot corpus (`screenshots/sim`), the first the default.
pub const STYLES: &[Style] = &[
    CLASSIC,
    Style {
        name: "bold",
        about: "givens bold, entries regular in one colour; only the box lines; one row of keys \
                with the count left under each digit; a trash-can erase key",
        givens: Givens::Weight,
        cell_lines: false,
        border: true,
        edge_to_edge: false,
        keypad: Some(KeypadStyle::Row),
        counts: true,
        hide_completed: false,
        erase: EraseKey::Trash,
        ..CLASSIC
    },
    Style {
        name: "tinted",
        about: "givens on tinted cells; no outer border; two rows of keys that hide a digit \
                once all nine are placed; a \"C\" erase key",
        givens: Givens::Tint,
        cell_lines: true,
        border: false,
        edge_to_edge: false,
        keypad: Some(KeypadStyle::TwoRows),
        counts: false,
        hide_completed: true,
        erase: EraseKey::LetterC,
        ..CLASSIC
    },
    Style {
        name: "disc",
        about: "givens on grey discs; the board edge to edge; a tight 3x3 grid of light keys on \
                a dark panel; no erase key (tap the digit again to clear a cell)",
        givens: Givens::Disc,
        cell_lines: true,
        border: true,
        edge_to_edge: true,
        keypad: Some(KeypadStyle::Grid),
        counts: false,
        hide_completed: false,
        erase: EraseKey::None,
        ..CLASSIC
    },
];

/// More presets, drawn by the vision tests (`tests/it/vision_*.rs`) and not in the corpus.
pub const MORE_STYLES: &[Style] = &[
    Style {
        name: "actions",
        about: "digits in Roboto, smaller; a selection tints its row only; an action row (Undo, \
                Erase, Notes, Hint: words under icons) between the board and one row of keys",
        keypad: Some(KeypadStyle::Row),
        erase: EraseKey::Actions,
        faces: Some(Faces {
            given: Face::Roboto,
            entered: Face::Roboto,
            keys: Face::Roboto,
        }),
        digit_ink: 52,
        highlight: Highlights::Row,
        ..CLASSIC
    },
    Style {
        name: "held-out",
        about: "digits in fonts the OCR bank has never seen (monospace, light keys), small; a \
                rounded cream card without an outer border, box lines as thin as cell lines; \
                orange entries; two rows of teal keys with a ✕ erase key",
        border: false,
        keypad: Some(KeypadStyle::TwoRows),
        erase: EraseKey::Cross,
        faces: Some(Faces {
            given: Face::MonoBold,
            entered: Face::Mono,
            keys: Face::RobotoLight,
        }),
        digit_ink: 45,
        thin_boxes: true,
        card_radius: 12,
        highlight: Highlights::Row,
        palettes: Some(&palette::HELD_OUT),
        ..CLASSIC
    },
    Style {
        name: "faded",
        about: "entries in the givens' own ink at half opacity (black and grey on light, white \
                and grey on dark), one weight; two rows of keys",
        givens: Givens::Faded,
        keypad: Some(KeypadStyle::TwoRows),
        ..CLASSIC
    },
    Style {
        name: "shaded",
        about: "givens on grey cells, entries in grey on the board's colour; the digits equal to \
                the selected one drawn in red, their cells unchanged; one row of keys, a trash-can erase \
                key",
        givens: Givens::Shaded,
        highlight: Highlights::DigitInk,
        keypad: Some(KeypadStyle::Row),
        erase: EraseKey::Trash,
        ..CLASSIC
    },
];

impl Style {
    /// Every preset: the corpus's, then the others.
    pub fn all() -> impl Iterator<Item = &'static Style> {
        STYLES.iter().chain(MORE_STYLES)
    }

    /// A preset by name.
    pub fn by_name(name: &str) -> Option<Style> {
        Self::all().find(|s| s.name == name).copied()
    }

    /// The preset names.
    pub fn names() -> Vec<&'static str> {
        Self::all().map(|s| s.name).collect()
    }
}

/// Opacity (0..255) of the given ink blended over a given's cell (`Givens::Tint`).
pub const GIVEN_TINT_ALPHA: u8 = 0x22;
/// How far a given's disc goes from the board colour towards the given ink (`Givens::Disc`).
pub const DISC_MIX: f32 = 0.16;
/// The opacity (0..255) of entries in the givens' ink (`Givens::Faded`): about half.
pub const FADED_ALPHA: u8 = 0x80;
/// How far a given's cell goes from the board colour towards the given ink (`Givens::Shaded`).
pub const SHADE_MIX: f32 = 0.12;
/// The dark panel behind a 3x3 keypad, its light keys and their digits (both themes).
pub const PANEL: Rgb = [0x2E, 0x33, 0x3D];
pub const PANEL_KEY: Rgb = [0xEE, 0xF1, 0xF6];
pub const ON_PANEL_KEY: Rgb = [0x1F, 0x23, 0x2A];

/// `a` moved towards `b` by `t` (0..1).
pub fn mix(a: Rgb, b: Rgb, t: f32) -> Rgb {
    std::array::from_fn(|i| (a[i] as f32 + (b[i] as f32 - a[i] as f32) * t).round() as u8)
}

/// Draws a trash can centred in `r`, `size` pixels tall: a handle over a lid over a can with
/// two slots.
pub(crate) fn draw_trash(cv: &mut Canvas, r: Rect, size: i32, ink: Rgb, key: Rgb) {
    let (cx, cy) = r.center();
    let u = (size / 12).max(1);
    let top = cy - size / 2;
    // Handle, lid, can.
    cv.fill(Rect::new(cx - 2 * u, top, 4 * u, u + 1), ink);
    cv.fill(Rect::new(cx - 5 * u, top + u, 10 * u, u + u / 2 + 1), ink);
    let can = Rect::new(cx - 4 * u, top + 3 * u, 8 * u, 9 * u);
    cv.round_rect(can, u, ink);
    for dx in [-2 * u, u] {
        cv.fill(Rect::new(cx + dx, can.y + 2 * u, u, 5 * u), key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_have_unique_names_and_classic_is_the_default() {
        let names = Style::names();
        let mut unique = names.clone();
        unique.dedup();
        assert_eq!(names, unique);
        assert_eq!(Style::default().name, "classic");
        assert_eq!(Style::by_name("disc").unwrap().erase, EraseKey::None);
        assert!(Style::by_name("nope").is_none());
    }
}
