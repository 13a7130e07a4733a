//! What each feature says about the digits of a board: the partition it proposes, how clearly
//! it tells two groups apart, and where it puts a digit another partition left out.

use super::cluster::{Lit, highlighted, inks, median, otsu};
use super::{
    BOLDER, DigitInk, Feature, MIN_GIVENS, OPAQUER, PLAIN, SAME_INK, TINT, dist, f, hex,
    normalised_weight,
};
use crate::board::Board;

/// The features of every digit, as the classifier uses them.
pub(super) struct Features<'a> {
    pub digits: &'a [DigitInk],
    pub ink: Vec<[f32; 3]>,
    /// The ink's contrast against the colour right around the digit.
    pub contrast: Vec<f32>,
    /// Stroke weight normalised for the digit's shape.
    pub weight: Vec<f32>,
    /// How far the colour around the digit is from every empty cell's background.
    pub tint: Vec<f32>,
    /// The digits a highlight recolours (and those breaking a rule).
    pub lit: Lit,
    /// Cells breaking a rule.
    pub conflicting: Vec<bool>,
    pub board: Board,
    /// The empty cells' background colour.
    pub empty: [f32; 3],
}

/// A two-group partition of the digits: per digit `Some(true)` (group A), `Some(false)`
/// (group B), or `None` (not placed by this partition).
pub(super) type Side = Vec<Option<bool>>;

impl<'a> Features<'a> {
    pub(super) fn new(digits: &'a [DigitInk], empty: &[[u8; 3]]) -> Features<'a> {
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
            lit: highlighted(digits, &tint, &conflicting),
            conflicting,
            ink: digits.iter().map(|d| f(d.colour)).collect(),
            contrast: digits
                .iter()
                .map(|d| dist(f(d.colour), f(d.surround)))
                .collect(),
            weight: digits.iter().map(normalised_weight).collect(),
            tint,
            board,
            empty: median(empty.iter().map(|&e| f(e))),
        }
    }

    /// Each digit's features, at trace level.
    pub(super) fn trace(&self) {
        if !tracing::enabled!(tracing::Level::TRACE) {
            return;
        }
        for (i, d) in self.digits.iter().enumerate() {
            tracing::trace!(
                cell = %crate::board::cell_name(d.cell),
                digit = d.digit,
                ink = ?d.colour,
                contrast = self.contrast[i],
                weight = self.weight[i],
                tint = self.tint[i],
                ink_lit = self.lit.ink[i],
                background_lit = self.lit.back[i],
                surround = ?d.surround,
                background = ?d.background,
                "digit features"
            );
        }
    }

    /// The digits a feature looks at: weight sees all, background all but the recoloured
    /// backgrounds, ink colour and opacity neither recoloured inks nor recoloured backgrounds
    /// (apps draw a digit on a highlight in an ink that shows on it).
    pub(super) fn sees(&self, feature: Feature, i: usize) -> bool {
        match feature {
            Feature::Weight => true,
            Feature::Background => !self.lit.back[i],
            Feature::InkColour | Feature::Opacity => !self.lit.ink[i] && !self.lit.back[i],
            Feature::None => false,
        }
    }

    /// The partition a feature proposes.
    pub(super) fn partition(&self, feature: Feature) -> Option<Side> {
        let n = self.digits.len();
        let seen: Vec<usize> = (0..n).filter(|&i| self.sees(feature, i)).collect();
        let by = |member: &dyn Fn(usize) -> bool| -> Side {
            let mut side = vec![None; n];
            for &i in &seen {
                side[i] = Some(member(i));
            }
            side
        };
        match feature {
            Feature::InkColour => {
                let member = inks(&seen.iter().map(|&i| self.ink[i]).collect::<Vec<_>>())?;
                // A third ink that several cells of one number have, and no other number: that
                // number's highlight (givens and entries alike), not a kind.
                let third: Vec<usize> = (0..seen.len())
                    .filter(|&k| member[k] == 2)
                    .map(|k| seen[k])
                    .collect();
                let lit = third.len() >= 2
                    && third
                        .iter()
                        .all(|&i| self.digits[i].digit == self.digits[third[0]].digit);
                let mut side = vec![None; n];
                for (k, &i) in seen.iter().enumerate() {
                    side[i] = (!lit || member[k] != 2).then_some(member[k] == 0);
                }
                Some(side)
            }
            Feature::Opacity => {
                let cut = otsu(&seen.iter().map(|&i| self.contrast[i]).collect::<Vec<_>>())?;
                let side = by(&|i| self.contrast[i] >= cut);
                self.blended(&side).then_some(side)
            }
            Feature::Weight => {
                let cut = otsu(&self.weight)?;
                Some(by(&|i| self.weight[i] >= cut))
            }
            Feature::Background => {
                // Apps tint the givens: fewer tinted digits than a puzzle has givens are a
                // selection or a highlight, not the givens.
                let tinted = seen.iter().filter(|&&i| self.tint[i] > TINT).count();
                (tinted >= MIN_GIVENS).then(|| by(&|i| self.tint[i] > TINT))
            }
            Feature::None => None,
        }
    }

    /// Whether the faint group of an opacity partition (`false`) is the opaque group's ink
    /// (`true`) blended over each digit's own background, as an ink drawn at part opacity is:
    /// its colour lies between the two. Apps may draw in another ink on a highlight (dark on
    /// a light fill in a dark theme): each digit is compared with the opaque ink on its own
    /// background, which is one ink.
    fn blended(&self, side: &Side) -> bool {
        let (opaque, faint) = (
            self.group(Feature::Opacity, side, true),
            self.group(Feature::Opacity, side, false),
        );
        let one_ink = opaque
            .iter()
            .all(|&i| dist(self.ink[i], self.opaque_ink(i, &opaque)) < SAME_INK);
        let on_the_way = faint
            .iter()
            .filter(|&&i| self.opacity(i, self.opaque_ink(i, &opaque)).is_some())
            .count();
        one_ink && on_the_way * 5 >= faint.len() * 4
    }

    /// The ink of the `opaque` digits on digit `i`'s background (all of them where none is).
    fn opaque_ink(&self, i: usize, opaque: &[usize]) -> [f32; 3] {
        let back = f(self.digits[i].surround);
        let here: Vec<usize> = opaque
            .iter()
            .copied()
            .filter(|&j| dist(f(self.digits[j].surround), back) < TINT)
            .collect();
        self.centre(if here.is_empty() { opaque } else { &here })
    }

    /// Digit `i`'s opacity in `ink`: where its colour lies between the colour behind it (0)
    /// and `ink` (1); `None` when it does not lie between them (another ink).
    fn opacity(&self, i: usize, ink: [f32; 3]) -> Option<f32> {
        let back = f(self.digits[i].surround);
        let to: [f32; 3] = std::array::from_fn(|c| ink[c] - back[c]);
        let at: [f32; 3] = std::array::from_fn(|c| self.ink[i][c] - back[c]);
        let len = to.iter().map(|v| v * v).sum::<f32>();
        if len <= 0.0 {
            return None;
        }
        let alpha = (to.iter().zip(&at).map(|(a, b)| a * b).sum::<f32>() / len).clamp(0.0, 1.0);
        let blend: [f32; 3] = std::array::from_fn(|c| back[c] + alpha * to[c]);
        (dist(self.ink[i], blend) < SAME_INK / 2.0).then_some(alpha)
    }

    /// The group of an opacity partition that digit `i` belongs to by its opacity in the
    /// opaque group's ink over whatever is behind it (a highlighted number's background), when
    /// its ink is that ink blended over it.
    fn matches_opacity(&self, side: &Side, i: usize) -> Option<bool> {
        if self.lit.ink[i] {
            return None;
        }
        let (opaque, faint) = (
            self.group(Feature::Opacity, side, true),
            self.group(Feature::Opacity, side, false),
        );
        let alphas: Vec<f32> = faint
            .iter()
            .filter_map(|&j| self.opacity(j, self.opaque_ink(j, &opaque)))
            .collect();
        let faint_alpha = alphas.iter().sum::<f32>() / alphas.len().max(1) as f32;
        let alpha = self.opacity(i, self.opaque_ink(i, &opaque))?;
        Some(alpha >= (1.0 + faint_alpha) / 2.0)
    }

    /// The members of group `a` that `feature` looks at.
    pub(super) fn group(&self, feature: Feature, side: &Side, a: bool) -> Vec<usize> {
        (0..self.digits.len())
            .filter(|&i| side[i] == Some(a) && self.sees(feature, i))
            .collect()
    }

    /// How clearly `feature` tells the two groups of `side` apart: 1 is just clear, 0 or
    /// less not at all.
    pub(super) fn separation(&self, feature: Feature, side: &Side) -> f32 {
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
            Feature::Opacity => ratio_separation(&self.contrast, &ga, &gb, OPAQUER, 0.08),
            Feature::Weight => ratio_separation(&self.weight, &ga, &gb, BOLDER, 0.04),
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
    pub(super) fn matches(&self, feature: Feature, side: &Side, i: usize) -> Option<bool> {
        match feature {
            Feature::InkColour => {
                let d = |a: bool| dist(self.ink[i], self.centre(&self.group(feature, side, a)));
                let (da, db) = (d(true), d(false));
                (da.min(db) < SAME_INK / 2.0 && da.max(db) >= SAME_INK).then_some(da < db)
            }
            Feature::Background => self.matches_background(side, i),
            Feature::Opacity => self.matches_opacity(side, i),
            Feature::Weight | Feature::None => None,
        }
    }

    /// The group of `side` (a background partition) that digit `i` belongs to by the colour
    /// behind it: the marker of the tinted group, or the plain colour of the other.
    fn matches_background(&self, side: &Side, i: usize) -> Option<bool> {
        let feature = Feature::Background;
        let tinted = |a: bool| {
            let g = self.group(feature, side, a);
            g.iter().filter(|&&j| self.tint[j] > TINT).count() * 2 > g.len()
        };
        // The tinted group's own colours (a disc looks the same over a highlight).
        let marked: Vec<usize> = (0..self.digits.len())
            .filter(|&j| side[j].is_some_and(|a| a == tinted(true)) && self.tint[j] > TINT)
            .collect();
        let marker = |j: usize| {
            marked
                .iter()
                .any(|&m| dist(f(self.digits[j].surround), f(self.digits[m].surround)) < PLAIN)
        };
        // A highlighted number whose other cells show the marker: this one has none (unless it
        // breaks a rule: apps paint those cells).
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

    /// A digit breaking a rule in an ink neither group has: apps paint wrong entries red.
    pub(super) fn wrong_entry(&self, side: &Side, i: usize) -> bool {
        let far = |a: bool| {
            let g = self.group(Feature::InkColour, side, a);
            g.is_empty() || dist(self.ink[i], self.centre(&g)) >= SAME_INK
        };
        self.conflicting[i] && far(true) && far(false)
    }

    /// The median ink of the digits `g`.
    pub(super) fn centre(&self, g: &[usize]) -> [f32; 3] {
        median(g.iter().map(|&i| self.ink[i]))
    }

    pub(super) fn mean_weight(&self, side: &Side, a: bool) -> f32 {
        let g = self.group(Feature::Weight, side, a);
        g.iter().map(|&i| self.weight[i]).sum::<f32>() / g.len().max(1) as f32
    }

    /// Group `a` of `side` in the words of `feature`.
    pub(super) fn describe(&self, feature: Feature, side: &Side, a: bool) -> String {
        let g = self.group(feature, side, a);
        match feature {
            Feature::InkColour => format!("in {}", hex(self.centre(&g))),
            Feature::Opacity => {
                let mean = g.iter().map(|&i| self.contrast[i]).sum::<f32>() / g.len().max(1) as f32;
                format!("at contrast {mean:.0} to the colour behind them")
            }
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

/// How clearly a value tells groups `ga` and `gb` apart when one group has more of it (bolder
/// strokes, more contrast): 1 when the means differ by the factor `clear` and the groups do
/// not overlap by less than `margin` (relative).
fn ratio_separation(values: &[f32], ga: &[usize], gb: &[usize], clear: f32, margin: f32) -> f32 {
    let v = |g: &[usize]| -> Vec<f32> { g.iter().map(|&i| values[i]).collect() };
    let (va, vb) = (v(ga), v(gb));
    let mean = |v: &[f32]| v.iter().sum::<f32>() / v.len() as f32;
    let (more, less) = if mean(&va) >= mean(&vb) {
        (va, vb)
    } else {
        (vb, va)
    };
    let ratio = mean(&more) / mean(&less);
    let gap =
        more.iter().cloned().fold(f32::MAX, f32::min) / less.iter().cloned().fold(0.0, f32::max);
    ((ratio - 1.0) / (clear - 1.0)).min((gap - 1.0) / margin)
}
