//! Given or entered, decided per board from how the app draws its digits.
//!
//! Apps mark the puzzle's givens by ink colour (either way round: neutral givens and coloured
//! entries, or the reverse), by opacity (entries in the givens' ink at half opacity: black and
//! grey on light, white and grey on dark), by weight (bold givens), by a tinted cell or a disc
//! behind the digit, or not at all. So nothing is assumed about the colours; per board, the
//! digits are split into two groups by each feature in turn:
//!
//! - **ink colour**: up to three inks (givens, entries, a third for wrong entries);
//! - **opacity**: the ink's contrast against the digit's own background, which a highlight
//!   behind the digit does not change (an ink at half opacity has half the contrast on any
//!   background);
//! - **stroke weight**: stroke width over glyph height, normalised per digit shape (a 4 has
//!   more ink than a 7 in every font) with factors measured on the bundled fonts;
//! - **background**: whether the cell or a disc behind the digit has a colour that no empty
//!   cell has (empty cells show the board's plain and highlight colours, never the givens' tint).
//!
//! Highlights would fool the colour features: apps recolour the ink or the background of
//! every cell of the selected number, and the cells that break a rule. Each feature leaves out
//! the digits whose colours it would misread (a recoloured ink fools ink colour and opacity,
//! a recoloured background fools background and opacity; weight sees every digit), and the
//! digits a split leaves out are placed by the other features that tell the groups apart
//! clearly: a given's tinted cell wins over the highlight colour of its ink.
//!
//! The clearest split wins. Which group holds the givens: the one that forms a puzzle with
//! exactly one solution (when only one does), else the bolder, else the tinted, else the ink
//! with more contrast (less saturated on a tie). A puzzle has at least 17 givens; a split
//! that would leave fewer is not a given/entered split. With no clear split, every digit is
//! taken for a given (a fresh level, or an app that draws both alike), the evidence says so,
//! and the reading holds a doubt: on a level in progress some of them are entries.

mod cluster;
mod features;
mod split;

use features::Features;
use serde::Serialize;
use std::sync::OnceLock;

/// What a cell holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Kind {
    /// No digit.
    Empty,
    /// A digit of the puzzle.
    Given,
    /// A digit the player entered.
    Entered,
}

impl Kind {
    /// `.`, `G` or `U` (user).
    pub(crate) fn to_char(self) -> char {
        match self {
            Kind::Empty => '.',
            Kind::Given => 'G',
            Kind::Entered => 'U',
        }
    }
}

/// The features of one digit.
#[derive(Debug, Clone, Copy)]
pub struct DigitInk {
    /// Cell index.
    pub cell: usize,
    /// The digit read, 1..=9.
    pub digit: u8,
    /// Mean colour of the strongest ink.
    pub colour: [u8; 3],
    /// Stroke width relative to the glyph height.
    pub weight: f32,
    /// The colour right around the digit (a disc or tint behind it).
    pub surround: [u8; 3],
    /// The cell's background colour.
    pub background: [u8; 3],
}

/// The feature that told givens from entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Feature {
    /// No feature split the digits: all are givens.
    None,
    /// Ink colour.
    InkColour,
    /// The ink's contrast against its own background (entries at part opacity).
    Opacity,
    /// Stroke weight.
    Weight,
    /// A tinted cell or a disc behind the givens.
    Background,
}

impl Feature {
    /// The feature in words.
    fn name(self) -> &'static str {
        match self {
            Feature::InkColour => "ink colour",
            Feature::Opacity => "opacity",
            Feature::Weight => "stroke weight",
            Feature::Background => "background",
            Feature::None => "none",
        }
    }
}

/// The features that can split the digits.
const FEATURES: [Feature; 4] = [
    Feature::InkColour,
    Feature::Opacity,
    Feature::Weight,
    Feature::Background,
];

/// What told givens from entries, for `read` to report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Evidence {
    /// The feature that split the digits.
    pub feature: Feature,
    /// How the givens' group was chosen among the two.
    pub direction: &'static str,
    /// A sentence for people.
    pub detail: String,
}

impl std::fmt::Display for Evidence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.detail)
    }
}

/// Inks closer than this (largest channel difference) are the same ink.
const SAME_INK: f32 = 48.0;
/// A background differing from every empty cell's by more than this is a tint.
const TINT: f32 = 14.0;
/// Backgrounds within this of an empty cell's are plain.
const PLAIN: f32 = 8.0;
/// Bold over regular weight (normalised) at least this much is a weight split.
const BOLDER: f32 = 1.2;
/// Opaque over faint ink's contrast at least this much is an opacity split (half opacity
/// gives 2).
const OPAQUER: f32 = 1.35;
/// The fewest givens a puzzle can have.
pub const MIN_GIVENS: usize = 17;

fn dist(a: [f32; 3], b: [f32; 3]) -> f32 {
    (0..3).map(|i| (a[i] - b[i]).abs()).fold(0.0, f32::max)
}

fn f(c: [u8; 3]) -> [f32; 3] {
    c.map(|v| v as f32)
}

fn chroma(c: [f32; 3]) -> f32 {
    c.iter().cloned().fold(f32::MIN, f32::max) - c.iter().cloned().fold(f32::MAX, f32::min)
}

fn luma(c: [f32; 3]) -> f32 {
    0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]
}

fn hex(c: [f32; 3]) -> String {
    format!(
        "#{:02x}{:02x}{:02x}",
        c[0].round() as u8,
        c[1].round() as u8,
        c[2].round() as u8
    )
}

/// Builds the table of [`shape_factors`].
pub(super) fn prepare() {
    shape_factors();
}

/// Per-digit stroke weight factors (1..=9 at indices 1..=9): a digit's stroke width over
/// height relative to the mean of its font, averaged over the bundled fonts.
fn shape_factors() -> &'static [f32; 10] {
    static F: OnceLock<[f32; 10]> = OnceLock::new();
    F.get_or_init(|| {
        let mut sum = [0f32; 10];
        let mut n = 0f32;
        for (_, bytes) in super::templates::FONTS {
            let Ok(font) = ab_glyph::FontRef::try_from_slice(bytes) else {
                continue;
            };
            let mut r = [0f32; 10];
            for d in 1..=9u8 {
                if let Some((cov, w, h)) = super::templates::render_digit(&font, d, 64.0) {
                    r[d as usize] = super::ocr::stroke_width(&cov, w, h) / h as f32;
                }
            }
            let mean = r[1..].iter().sum::<f32>() / 9.0;
            if r[1..].iter().all(|&v| v > 0.0) && mean > 0.0 {
                (1..10).for_each(|d| sum[d] += r[d] / mean);
                n += 1.0;
            }
        }
        std::array::from_fn(|d| if d == 0 || n == 0.0 { 1.0 } else { sum[d] / n })
    })
}

/// A digit's stroke weight normalised for its shape.
fn normalised_weight(d: &DigitInk) -> f32 {
    d.weight / shape_factors()[d.digit.clamp(1, 9) as usize]
}

/// Classifies digits into given and entered; cells not listed are [`Kind::Empty`].
/// `empty` holds the background colours of the board's empty cells.
pub(crate) fn classify(digits: &[DigitInk], empty: &[[u8; 3]]) -> ([Kind; 81], Evidence) {
    let mut kinds = [Kind::Empty; 81];
    let digits: Vec<DigitInk> = digits
        .iter()
        .copied()
        .filter(|d| d.cell < 81 && (1..=9).contains(&d.digit))
        .collect();
    for d in &digits {
        kinds[d.cell] = Kind::Given;
    }
    if digits.len() < 2 {
        return (kinds, all_given("fewer than two digits".into()));
    }
    let fs = Features::new(&digits, empty);
    fs.trace();
    let mut rejected = Vec::new();
    let candidates = fs.candidates();
    for chosen in &candidates {
        match fs.split(chosen, &candidates) {
            Some((split, evidence)) => {
                for (d, kind) in digits.iter().zip(split) {
                    kinds[d.cell] = kind;
                }
                return (kinds, evidence);
            }
            None => rejected.push(chosen.feature.name()),
        }
    }
    let why = if rejected.is_empty() {
        "one style (no ink colour, opacity, weight or background sets some digits apart)"
            .to_string()
    } else {
        format!(
            "the {} split would leave fewer than {MIN_GIVENS} givens",
            rejected.join(" and ")
        )
    };
    (kinds, all_given(why))
}

/// The evidence when every digit is taken for a given.
fn all_given(why: String) -> Evidence {
    Evidence {
        feature: Feature::None,
        direction: "",
        detail: format!("every digit is a given: {why}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAIN_BG: [u8; 3] = [255, 255, 255];

    fn ink(cell: usize, digit: u8, colour: [u8; 3], weight: f32) -> DigitInk {
        DigitInk {
            cell,
            digit,
            colour,
            weight,
            surround: PLAIN_BG,
            background: PLAIN_BG,
        }
    }

    /// A board's worth of digits: the 30 givens of a puzzle in style `a`, then 8 of its
    /// solution's digits in style `b`.
    fn board(
        a: impl Fn(usize, u8) -> DigitInk,
        b: impl Fn(usize, u8) -> DigitInk,
    ) -> Vec<DigitInk> {
        const PUZZLE: &str =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        const SOLVED: &str =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
        let digit = |c: usize| SOLVED.as_bytes()[c] - b'0';
        let mut v: Vec<DigitInk> = (0..81)
            .filter(|&c| PUZZLE.as_bytes()[c] != b'.')
            .map(|c| a(c, digit(c)))
            .collect();
        v.extend(
            (0..81)
                .filter(|&c| PUZZLE.as_bytes()[c] == b'.')
                .take(8)
                .map(|c| b(c, digit(c))),
        );
        v
    }

    fn kinds_of(v: &[DigitInk]) -> (Vec<Kind>, Evidence) {
        let (k, e) = classify(v, &[PLAIN_BG]);
        (v.iter().map(|d| k[d.cell]).collect(), e)
    }

    #[test]
    fn colour_splits_either_way_round() {
        for (g, u) in [([20, 20, 20], [30, 90, 200]), ([30, 90, 200], [90, 90, 90])] {
            let v = board(|c, d| ink(c, d, g, 0.13), |c, d| ink(c, d, u, 0.13));
            let (k, e) = kinds_of(&v);
            assert_eq!(e.feature, Feature::InkColour, "{e}");
            assert!(k[..30].iter().all(|&k| k == Kind::Given), "{e}");
            assert!(k[30..].iter().all(|&k| k == Kind::Entered), "{e}");
        }
    }

    #[test]
    fn weight_splits_and_one_style_is_all_givens() {
        let v = board(
            |c, d| ink(c, d, [0, 0, 0], 0.16),
            |c, d| ink(c, d, [0, 0, 0], 0.10),
        );
        let (k, e) = kinds_of(&v);
        assert_eq!(e.feature, Feature::Weight, "{e}");
        assert!(k[30..].iter().all(|&k| k == Kind::Entered));
        let v = board(
            |c, d| ink(c, d, [0, 0, 0], 0.13),
            |c, d| ink(c, d, [0, 0, 0], 0.13),
        );
        let (k, e) = kinds_of(&v);
        assert_eq!(e.feature, Feature::None, "{e}");
        assert!(k.iter().all(|&k| k == Kind::Given));
    }

    #[test]
    fn tints_and_discs_split_also_over_a_highlighted_number() {
        // Givens on a faint grey disc; every 2 on the "same number" highlight, which the
        // given 2s' disc covers and the entered 2s' does not.
        const DISC: [u8; 3] = [219, 220, 221];
        const SAME: [u8; 3] = [201, 210, 238];
        let on = |c, d, bg| DigitInk {
            surround: bg,
            background: bg,
            ..ink(c, d, [37, 41, 49], 0.12)
        };
        let v = board(
            |c, d| on(c, d, DISC),
            |c, d| on(c, d, if d == 2 { SAME } else { PLAIN_BG }),
        );
        let (k, e) = kinds_of(&v);
        assert_eq!(e.feature, Feature::Background, "{e}");
        assert!(k[..30].iter().all(|&k| k == Kind::Given), "{e}");
        assert!(k[30..].iter().all(|&k| k == Kind::Entered), "{k:?} {e}");
    }

    #[test]
    fn a_highlighted_number_is_not_a_group() {
        // Every 5 drawn white on a blue disc: the app's "same number" highlight.
        let v = board(
            |c, d| DigitInk {
                colour: if d == 5 { [255, 255, 255] } else { [0, 0, 0] },
                surround: if d == 5 { [30, 90, 200] } else { PLAIN_BG },
                ..ink(c, d, [0, 0, 0], 0.13)
            },
            |c, d| DigitInk {
                colour: if d == 5 { [255, 255, 255] } else { [0, 0, 0] },
                surround: if d == 5 { [30, 90, 200] } else { PLAIN_BG },
                ..ink(c, d, [0, 0, 0], 0.13)
            },
        );
        let (k, e) = kinds_of(&v);
        assert_eq!(e.feature, Feature::None, "{e}");
        assert!(k.iter().all(|&k| k == Kind::Given));
    }

    #[test]
    fn half_opacity_splits_whatever_highlight_is_behind_the_digits() {
        // Black givens, entries in black at half opacity; three bands of columns highlighted in
        // colours of their own (the empty cells show them too): the entries' inks spread with
        // the highlights, their contrast to the colour behind them does not.
        const BANDS: [[u8; 3]; 3] = [[255, 230, 60], [100, 160, 255], [255, 255, 255]];
        let band = |c: usize| BANDS[c % 9 / 3];
        let half = |b: [u8; 3]| b.map(|v| v / 2);
        let v = board(
            |c, d| DigitInk {
                surround: band(c),
                background: band(c),
                ..ink(c, d, [0, 0, 0], 0.13)
            },
            |c, d| DigitInk {
                surround: band(c),
                background: band(c),
                ..ink(c, d, half(band(c)), 0.13)
            },
        );
        let (k, e) = classify(&v, &BANDS);
        let k: Vec<Kind> = v.iter().map(|d| k[d.cell]).collect();
        assert_eq!(e.feature, Feature::Opacity, "{e}");
        assert!(k[..30].iter().all(|&k| k == Kind::Given), "{e}");
        assert!(k[30..].iter().all(|&k| k == Kind::Entered), "{e}");
    }

    #[test]
    fn a_tinted_given_in_a_highlight_ink_is_a_given() {
        // Givens black on grey cells, entries grey on white; every 5 drawn red, the givens'
        // grey cells unchanged: the background places them.
        const GREY: [u8; 3] = [226, 226, 226];
        let red = [211, 47, 47];
        let v = board(
            |c, d| DigitInk {
                surround: GREY,
                background: GREY,
                ..ink(c, d, if d == 5 { red } else { [20, 20, 20] }, 0.13)
            },
            |c, d| ink(c, d, if d == 5 { red } else { [120, 120, 120] }, 0.13),
        );
        let (k, e) = kinds_of(&v);
        assert!(k[..30].iter().all(|&k| k == Kind::Given), "{k:?} {e}");
        assert!(k[30..].iter().all(|&k| k == Kind::Entered), "{k:?} {e}");
    }
}
