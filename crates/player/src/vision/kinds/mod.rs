//! Given or entered, decided per board from how the app draws its digits.
//!
//! Apps mark the puzzle's givens by ink colour (either way round: neutral givens and coloured
//! entries, or the reverse), by weight (bold givens), by a tinted cell or a disc behind the
//! digit, or not at all. So nothing is assumed about the colours; per board, the digits are
//! split into two groups by each feature in turn:
//!
//! - **ink colour**: up to three inks (givens, entries, a third for wrong entries);
//! - **stroke weight**: stroke width over glyph height, normalised per digit shape (a 4 has
//!   more ink than a 7 in every font) with factors measured on the bundled fonts;
//! - **background**: whether the cell or a disc behind the digit has a colour that no empty
//!   cell has (empty cells show the board's plain and highlight colours, never the givens' tint).
//!
//! Highlights would fool the colour features: apps recolour every cell of the selected number
//! and the cells that break a rule. Those cells are left out of the colour evidence (weight is
//! not affected by highlights) and get their kind afterwards.
//!
//! The clearest split wins. Which group holds the givens: the one that forms a puzzle with
//! exactly one solution (when only one does), else the bolder, else the tinted, else the ink
//! with more contrast (less saturated on a tie). A puzzle has at least 17 givens; a split
//! that would leave fewer is not a given/entered split. With no clear split, every digit is a
//! given (a fresh level, or an app that draws both alike), and the evidence says so.

use crate::board::Board;
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
    /// Stroke weight.
    Weight,
    /// A tinted cell or a disc behind the givens.
    Background,
}

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

/// The features of every digit, as the classifier uses them.
struct Features<'a> {
    digits: &'a [DigitInk],
    ink: Vec<[f32; 3]>,
    /// Stroke weight normalised for the digit's shape.
    weight: Vec<f32>,
    /// How far the colour around the digit is from every empty cell's background.
    tint: Vec<f32>,
    /// Left out of the colour features (highlighted numbers, cells breaking a rule).
    left_out: Vec<bool>,
    /// Cells breaking a rule.
    conflicting: Vec<bool>,
    board: Board,
    /// The empty cells' background colour.
    empty: [f32; 3],
}

/// A two-group partition of the digits: per digit `Some(true)` (group A), `Some(false)`
/// (group B), or `None` (not placed by this partition).
type Side = Vec<Option<bool>>;

const FEATURES: [Feature; 3] = [Feature::InkColour, Feature::Weight, Feature::Background];

fn name(f: Feature) -> &'static str {
    match f {
        Feature::InkColour => "ink colour",
        Feature::Weight => "stroke weight",
        Feature::Background => "background",
        Feature::None => "none",
    }
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
    for (feature, side) in fs.candidates() {
        match fs.split(feature, &side) {
            Some((split, evidence)) => {
                for (d, kind) in digits.iter().zip(split) {
                    kinds[d.cell] = kind;
                }
                return (kinds, evidence);
            }
            None => rejected.push(name(feature)),
        }
    }
    let why = if rejected.is_empty() {
        "one style (no ink colour, weight or background sets some digits apart)".to_string()
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

impl<'a> Features<'a> {
    /// Each digit's features, at trace level.
    fn trace(&self) {
        if !tracing::enabled!(tracing::Level::TRACE) {
            return;
        }
        for (i, d) in self.digits.iter().enumerate() {
            tracing::trace!(
                cell = %crate::board::cell_name(d.cell),
                digit = d.digit,
                ink = ?d.colour,
                weight = self.weight[i],
                tint = self.tint[i],
                left_out = self.left_out[i],
                surround = ?d.surround,
                background = ?d.background,
                "digit features"
            );
        }
    }

    /// Every feature proposes a partition; those whose own feature splits them clearly, the
    /// one the features agree on most first.
    fn candidates(&self) -> Vec<(Feature, Side)> {
        let mut candidates: Vec<(f32, Feature, Side)> = FEATURES
            .iter()
            .filter_map(|&feature| {
                let side = self.partition(feature)?;
                (self.separation(feature, &side) >= 1.0).then(|| {
                    let total = FEATURES
                        .iter()
                        .map(|&g| self.separation(g, &side).clamp(0.0, 3.0))
                        .sum::<f32>();
                    (total, feature, side)
                })
            })
            .collect();
        candidates.sort_by(|a, b| b.0.total_cmp(&a.0));
        candidates.into_iter().map(|(_, f, s)| (f, s)).collect()
    }

    /// The kind of every digit by `feature`'s partition `side`, and the evidence; `None` when
    /// it would leave fewer givens than a puzzle has.
    fn split(&self, feature: Feature, side: &Side) -> Option<(Vec<Kind>, Evidence)> {
        let n = self.digits.len();
        // Digits left out of a colour partition are placed by weight when weight tells the
        // groups apart (highlights change colours, not strokes), else by that colour when it
        // clearly matches one group (a highlight that keeps the ink or the disc), else (below)
        // taken for givens: the highlight hides their kind.
        let (wa, wb) = (self.mean_weight(side, true), self.mean_weight(side, false));
        let weight_tells = wa.max(wb) / wa.min(wb).max(1e-6) >= 1.12;
        let placed: Side = (0..n)
            .map(|i| {
                if side[i].is_none() && self.wrong_entry(side, i) {
                    return None;
                }
                side[i]
                    .or_else(|| {
                        weight_tells
                            .then(|| (self.weight[i] - wa).abs() < (self.weight[i] - wb).abs())
                    })
                    .or_else(|| self.matches(feature, side, i))
            })
            .collect();
        let (a_given, direction) = self.direction(&placed);
        // Apps paint wrong entries red, never a given; a number's highlight hides the kind.
        let place = |i: usize| placed[i].unwrap_or(a_given != self.conflicting[i]);
        let givens = (0..n).filter(|&i| place(i) == a_given).count();
        if givens < MIN_GIVENS.min(n) {
            return None;
        }
        let kinds = (0..n)
            .map(|i| {
                if place(i) == a_given {
                    Kind::Given
                } else {
                    Kind::Entered
                }
            })
            .collect();
        let mut detail = format!(
            "split by {}: givens {}, entries {} (givens: {direction})",
            name(feature),
            self.describe(feature, side, a_given),
            self.describe(feature, side, !a_given)
        );
        let out = (0..n).filter(|&i| side[i].is_none()).count();
        if out > 0 {
            detail.push_str(&format!(
                "; {out} highlighted or rule-breaking digit(s) placed by their colour or weight, \
                 else as givens (rule-breaking ones in another ink as entries)"
            ));
        }
        let evidence = Evidence {
            feature,
            direction,
            detail,
        };
        Some((kinds, evidence))
    }

    fn new(digits: &'a [DigitInk], empty: &[[u8; 3]]) -> Features<'a> {
        let mut board = Board::empty();
        for d in digits {
            board.set(d.cell, d.digit);
        }
        // The distinct colours of empty cells: the board's own and its highlights.
        let mut plain: Vec<[f32; 3]> = Vec::new();
        for &e in empty {
            let e = f(e);
            if plain.iter().all(|p| dist(*p, e) >= PLAIN / 2.0) {
                plain.push(e);
            }
        }
        let tint: Vec<f32> = digits
            .iter()
            .map(|d| {
                plain
                    .iter()
                    .map(|p| dist(*p, f(d.surround)))
                    .fold(f32::MAX, f32::min)
            })
            .collect();
        let conflicts: Vec<usize> = board
            .conflicts()
            .iter()
            .flat_map(|c| c.cells.clone())
            .collect();
        let conflicting: Vec<bool> = digits.iter().map(|d| conflicts.contains(&d.cell)).collect();
        Features {
            digits,
            left_out: highlighted(digits, &tint, &conflicting),
            conflicting,
            ink: digits.iter().map(|d| f(d.colour)).collect(),
            weight: digits.iter().map(normalised_weight).collect(),
            tint,
            board,
            empty: median(empty.iter().map(|&e| f(e))),
        }
    }

    /// The digits a feature looks at: weight sees all, colours not the highlighted ones.
    fn sees(&self, feature: Feature, i: usize) -> bool {
        feature == Feature::Weight || !self.left_out[i]
    }

    /// The partition a feature proposes.
    fn partition(&self, feature: Feature) -> Option<Side> {
        let n = self.digits.len();
        match feature {
            Feature::InkColour => {
                let idx: Vec<usize> = (0..n).filter(|&i| self.sees(feature, i)).collect();
                let member = inks(&idx.iter().map(|&i| self.ink[i]).collect::<Vec<_>>())?;
                let mut side = vec![None; n];
                for (k, &i) in idx.iter().enumerate() {
                    side[i] = Some(member[k]);
                }
                Some(side)
            }
            Feature::Weight => {
                let cut = otsu(&self.weight)?;
                Some(self.weight.iter().map(|&w| Some(w >= cut)).collect())
            }
            Feature::Background => {
                // Apps tint the givens: fewer tinted digits than a puzzle has givens are a
                // selection or a highlight, not the givens.
                let tinted = (0..n)
                    .filter(|&i| self.sees(feature, i) && self.tint[i] > TINT)
                    .count();
                (tinted >= MIN_GIVENS).then(|| {
                    (0..n)
                        .map(|i| self.sees(feature, i).then_some(self.tint[i] > TINT))
                        .collect()
                })
            }
            Feature::None => None,
        }
    }

    /// The members of group `a` that `feature` looks at.
    fn group(&self, feature: Feature, side: &Side, a: bool) -> Vec<usize> {
        (0..self.digits.len())
            .filter(|&i| side[i] == Some(a) && self.sees(feature, i))
            .collect()
    }

    /// How clearly `feature` tells the two groups of `side` apart: 1 is just clear, 0 or
    /// less not at all.
    fn separation(&self, feature: Feature, side: &Side) -> f32 {
        let (ga, gb) = (
            self.group(feature, side, true),
            self.group(feature, side, false),
        );
        if ga.is_empty() || gb.is_empty() {
            return 0.0;
        }
        match feature {
            Feature::InkColour => {
                let (ca, cb) = (self.centre(&ga), self.centre(&gb));
                let gap = dist(ca, cb);
                let spread = ga
                    .iter()
                    .map(|&i| dist(self.ink[i], ca))
                    .chain(gb.iter().map(|&i| dist(self.ink[i], cb)))
                    .fold(0.0, f32::max);
                (gap / (SAME_INK * 1.25)).min(gap / (2.5 * spread).max(1.0))
            }
            Feature::Weight => {
                let w = |g: &[usize]| -> Vec<f32> { g.iter().map(|&i| self.weight[i]).collect() };
                let (wa, wb) = (w(&ga), w(&gb));
                let mean = |v: &[f32]| v.iter().sum::<f32>() / v.len() as f32;
                let (bold, light) = if mean(&wa) >= mean(&wb) {
                    (wa, wb)
                } else {
                    (wb, wa)
                };
                let ratio = mean(&bold) / mean(&light);
                let gap = bold.iter().cloned().fold(f32::MAX, f32::min)
                    / light.iter().cloned().fold(0.0, f32::max);
                ((ratio - 1.0) / (BOLDER - 1.0)).min((gap - 1.0) / 0.04)
            }
            Feature::Background => {
                let t = |g: &[usize]| -> (f32, f32) {
                    g.iter().fold((f32::MAX, 0.0f32), |(lo, hi), &i| {
                        (lo.min(self.tint[i]), hi.max(self.tint[i]))
                    })
                };
                let ((lo_a, hi_a), (lo_b, hi_b)) = (t(&ga), t(&gb));
                // One group on tints, the other on the empty cells' colours: the faintest
                // tint stands out from the plainest group's colours by more than a tint.
                let clear =
                    |tinted: f32, plain: f32| ((tinted - plain) / TINT).min(PLAIN / plain.max(1.0));
                clear(lo_a, hi_b).max(clear(lo_b, hi_a))
            }
            Feature::None => 0.0,
        }
    }

    /// The group of `side` that digit `i` clearly belongs to by `feature`, if one.
    fn matches(&self, feature: Feature, side: &Side, i: usize) -> Option<bool> {
        match feature {
            Feature::InkColour => {
                let d = |a: bool| dist(self.ink[i], self.centre(&self.group(feature, side, a)));
                let (da, db) = (d(true), d(false));
                (da.min(db) < SAME_INK / 2.0 && da.max(db) >= SAME_INK).then_some(da < db)
            }
            Feature::Background => {
                let tinted = |a: bool| {
                    let g = self.group(feature, side, a);
                    g.iter().filter(|&&j| self.tint[j] > TINT).count() * 2 > g.len()
                };
                // The tinted group's own colours (a disc looks the same over a highlight).
                let marked: Vec<usize> = (0..self.digits.len())
                    .filter(|&j| side[j].is_some_and(|a| a == tinted(true)) && self.tint[j] > TINT)
                    .collect();
                let marker = |j: usize| {
                    marked.iter().any(|&m| {
                        dist(f(self.digits[j].surround), f(self.digits[m].surround)) < PLAIN
                    })
                };
                // A highlighted number whose other cells show the marker: this one has none
                // (unless it breaks a rule: apps paint those cells).
                let unmarked_peer = !self.conflicting[i]
                    && !marker(i)
                    && (0..self.digits.len()).any(|j| {
                        j != i
                            && side[j].is_none()
                            && self.digits[j].digit == self.digits[i].digit
                            && marker(j)
                    });
                if self.tint[i] <= PLAIN || unmarked_peer {
                    Some(!tinted(true))
                } else if self.tint[i] > TINT {
                    Some(tinted(true))
                } else {
                    None
                }
            }
            Feature::Weight | Feature::None => None,
        }
    }

    /// A digit breaking a rule in an ink neither group has: apps paint wrong entries red.
    fn wrong_entry(&self, side: &Side, i: usize) -> bool {
        let far = |a: bool| {
            let g = self.group(Feature::InkColour, side, a);
            g.is_empty() || dist(self.ink[i], self.centre(&g)) >= SAME_INK
        };
        self.conflicting[i] && far(true) && far(false)
    }

    fn centre(&self, g: &[usize]) -> [f32; 3] {
        median(g.iter().map(|&i| self.ink[i]))
    }

    fn mean_weight(&self, side: &Side, a: bool) -> f32 {
        let g = self.group(Feature::Weight, side, a);
        g.iter().map(|&i| self.weight[i]).sum::<f32>() / g.len().max(1) as f32
    }

    /// Which group holds the givens (`true`: group A), and why.
    fn direction(&self, side: &Side) -> (bool, &'static str) {
        let (ga, gb) = (
            self.group(Feature::Weight, side, true),
            self.group(Feature::Weight, side, false),
        );
        // The givens make a puzzle with exactly one solution; a player's digits rarely do.
        let unique = |g: &[usize]| {
            if g.len() < MIN_GIVENS {
                return false;
            }
            let mut b = Board::empty();
            for &i in g {
                let cell = self.digits[i].cell;
                b.set(cell, self.board.get(cell));
            }
            b.conflicts().is_empty() && crate::solver::fast::count_solutions(&b, 2) == 1
        };
        match (unique(&ga), unique(&gb)) {
            (true, false) => return (true, "they alone have one solution"),
            (false, true) => return (false, "they alone have one solution"),
            _ => {}
        }
        let (wa, wb) = (self.mean_weight(side, true), self.mean_weight(side, false));
        if wa.max(wb) / wa.min(wb).max(1e-6) >= 1.12 {
            return (wa > wb, "the bolder digits");
        }
        let tinted = |g: &[usize]| g.iter().filter(|&&i| self.tint[i] > TINT).count() * 2 > g.len();
        let (ta, tb) = (
            tinted(&self.group(Feature::Background, side, true)),
            tinted(&self.group(Feature::Background, side, false)),
        );
        if ta != tb {
            return (ta, "apps tint the givens' cells");
        }
        let (ia, ib) = (
            self.centre(&self.group(Feature::InkColour, side, true)),
            self.centre(&self.group(Feature::InkColour, side, false)),
        );
        let bg = self.empty;
        let (ca, cb) = ((luma(ia) - luma(bg)).abs(), (luma(ib) - luma(bg)).abs());
        if ca.max(cb) > ca.min(cb) * 1.15 + 10.0 {
            return (ca > cb, "the ink with more contrast");
        }
        (chroma(ia) <= chroma(ib), "the less coloured ink")
    }

    /// Group `a` of `side` in the words of `feature`.
    fn describe(&self, feature: Feature, side: &Side, a: bool) -> String {
        let g = self.group(feature, side, a);
        match feature {
            Feature::InkColour => format!("in {}", hex(self.centre(&g))),
            Feature::Weight => format!("weight {:.2}", self.mean_weight(side, a)),
            Feature::Background => {
                let c = median(g.iter().map(|&i| f(self.digits[i].surround)));
                let tinted = g.iter().filter(|&&i| self.tint[i] > TINT).count() * 2 > g.len();
                if tinted {
                    format!("on a tint or disc {}", hex(c))
                } else {
                    format!("on the empty cells' {}", hex(c))
                }
            }
            Feature::None => String::new(),
        }
    }
}

/// Digits whose colours say nothing about their kind: every cell of a number the app
/// highlights (all cells of one digit drawn in colours no other digit has, or several of its
/// cells on a background that no other digit and no empty cell has), and cells that break a
/// rule (apps paint them red). `tint`: each digit's background distance from the empty cells'.
fn highlighted(digits: &[DigitInk], tint: &[f32], conflicting: &[bool]) -> Vec<bool> {
    let mut out = conflicting.to_vec();
    let same = |a: &DigitInk, b: &DigitInk| {
        dist(f(a.colour), f(b.colour)) < SAME_INK && dist(f(a.surround), f(b.surround)) < TINT
    };
    let near = |a: &DigitInk, b: &DigitInk| dist(f(a.surround), f(b.surround)) < PLAIN;
    for value in 1..=9u8 {
        let (with, without): (Vec<&DigitInk>, Vec<&DigitInk>) =
            digits.iter().partition(|d| d.digit == value);
        if with.is_empty() || with.len() * 2 > digits.len() {
            continue;
        }
        // Cells of this number on a colour of their own (the number's highlight).
        let own = (0..digits.len())
            .filter(|&i| {
                let d = &digits[i];
                d.digit == value && tint[i] > TINT && without.iter().all(|b| !near(d, b))
            })
            .filter(|&i| with.iter().filter(|o| near(&digits[i], o)).count() >= 2)
            .count();
        // No cell of this number looks like any cell of another number.
        if own >= 2 || with.iter().all(|a| without.iter().all(|b| !same(a, b))) {
            for (o, d) in out.iter_mut().zip(digits) {
                if d.digit == value {
                    *o = true;
                }
            }
        }
    }
    out
}

/// Up to three inks: `true` for the digits in the most common ink. `None` for one ink.
fn inks(cols: &[[f32; 3]]) -> Option<Vec<bool>> {
    let first = *cols.first()?;
    // Farthest-point seeds, then a few rounds of k-means.
    let mut centres = vec![first];
    while centres.len() < 3 {
        let far = cols.iter().copied().max_by(|a, b| {
            let da = centres
                .iter()
                .map(|c| dist(*a, *c))
                .fold(f32::MAX, f32::min);
            let db = centres
                .iter()
                .map(|c| dist(*b, *c))
                .fold(f32::MAX, f32::min);
            da.total_cmp(&db)
        })?;
        if centres
            .iter()
            .map(|c| dist(far, *c))
            .fold(f32::MAX, f32::min)
            < SAME_INK
        {
            break;
        }
        centres.push(far);
    }
    if centres.len() < 2 {
        return None;
    }
    let nearest = |c: [f32; 3], centres: &[[f32; 3]]| {
        (0..centres.len())
            .min_by(|&a, &b| dist(c, centres[a]).total_cmp(&dist(c, centres[b])))
            .unwrap_or(0)
    };
    let mut member = vec![0usize; cols.len()];
    for _ in 0..8 {
        for (m, &c) in member.iter_mut().zip(cols) {
            *m = nearest(c, &centres);
        }
        for (k, centre) in centres.iter_mut().enumerate() {
            let m: Vec<[f32; 3]> = cols
                .iter()
                .zip(&member)
                .filter(|(_, m)| **m == k)
                .map(|(c, _)| *c)
                .collect();
            if !m.is_empty() {
                *centre =
                    std::array::from_fn(|ch| m.iter().map(|c| c[ch]).sum::<f32>() / m.len() as f32);
            }
        }
    }
    let count = |k: usize| member.iter().filter(|&&m| m == k).count();
    let main = (0..centres.len()).max_by_key(|&k| count(k))?;
    if count(main) == cols.len() {
        return None;
    }
    Some(member.iter().map(|&m| m == main).collect())
}

/// Otsu's cut of positive values on a log scale: the threshold with the largest
/// between-group variance. `None` when all values are equal.
fn otsu(values: &[f32]) -> Option<f32> {
    let mut sorted: Vec<f32> = values.iter().copied().filter(|w| *w > 0.0).collect();
    sorted.sort_by(f32::total_cmp);
    let logs: Vec<f32> = sorted.iter().map(|w| w.ln()).collect();
    let n = logs.len() as f32;
    let total: f32 = logs.iter().sum();
    let mut best = (0.0f32, 0usize);
    let mut acc = 0.0;
    for k in 1..logs.len() {
        acc += logs[k - 1];
        let (na, nb) = (k as f32, n - k as f32);
        let (ma, mb) = (acc / na, (total - acc) / nb);
        let between = na * nb * (ma - mb).powi(2);
        if between > best.0 {
            best = (between, k);
        }
    }
    let k = best.1;
    (k > 0).then(|| (sorted[k - 1] + sorted[k]) / 2.0)
}

/// Per-channel median of colours.
fn median(colours: impl Iterator<Item = [f32; 3]>) -> [f32; 3] {
    let v: Vec<[f32; 3]> = colours.collect();
    std::array::from_fn(|c| {
        let mut ch: Vec<f32> = v.iter().map(|p| p[c]).collect();
        ch.sort_by(f32::total_cmp);
        ch.get(ch.len() / 2).copied().unwrap_or(0.0)
    })
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
}
