//! Choosing a split of the digits into givens and entries: the partitions the features propose
//! clearly, the place of the digits a partition leaves out, which group holds the givens, and
//! the evidence in words.

use super::features::{Features, Side};
use super::{Evidence, FEATURES, Feature, Kind, MIN_GIVENS, TINT, chroma, luma};
use crate::board::Board;

/// A partition that its own feature tells clearly.
pub(super) struct Proposal {
    pub feature: Feature,
    pub side: Side,
}

impl Features<'_> {
    /// The partitions the features propose that their own feature tells clearly, the one the
    /// features agree on most first (ink colour and opacity read the same pixels: they count
    /// once, by the clearer of the two).
    pub(super) fn candidates(&self) -> Vec<Proposal> {
        let mut candidates: Vec<(f32, Proposal)> = FEATURES
            .iter()
            .filter_map(|&feature| {
                let side = self.partition(feature)?;
                (self.separation(feature, &side) >= 1.0).then(|| {
                    let sep = |g: Feature| self.separation(g, &side).clamp(0.0, 3.0);
                    let total = sep(Feature::InkColour).max(sep(Feature::Opacity))
                        + sep(Feature::Weight)
                        + sep(Feature::Background);
                    (total, Proposal { feature, side })
                })
            })
            .collect();
        candidates.sort_by(|a, b| b.0.total_cmp(&a.0));
        candidates.into_iter().map(|(_, p)| p).collect()
    }

    /// The kind of every digit by the partition `chosen` (the others in `all` place the digits
    /// it leaves out), and the evidence; `None` when it would leave fewer givens than a puzzle
    /// has.
    pub(super) fn split(
        &self,
        chosen: &Proposal,
        all: &[Proposal],
    ) -> Option<(Vec<Kind>, Evidence)> {
        let (feature, side) = (chosen.feature, &chosen.side);
        let n = self.digits.len();
        let placed = self.place_left_out(chosen, all);
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
            feature.name(),
            self.describe(feature, side, a_given),
            self.describe(feature, side, !a_given)
        );
        let out = (0..n).filter(|&i| side[i].is_none()).count();
        if out > 0 {
            detail.push_str(&format!(
                "; {out} highlighted or rule-breaking digit(s) placed by the features that \
                 see them, else as givens (rule-breaking ones in another ink as entries)"
            ));
        }
        let evidence = Evidence {
            feature,
            direction,
            detail,
        };
        Some((kinds, evidence))
    }

    /// `chosen`'s partition with the digits it leaves out placed: by weight when weight tells
    /// the groups apart (highlights change colours, not strokes); a rule-breaking digit in an
    /// ink neither group has (a wrong entry) stays unplaced; the others by another feature
    /// that splits the digits clearly and sees this one (a given's tinted cell under a
    /// recoloured ink), else by `chosen`'s own feature when the digit clearly matches one
    /// group (a highlight that keeps the ink or the disc), else by another feature's match (an
    /// entry's opacity over a highlighted number's background).
    fn place_left_out(&self, chosen: &Proposal, all: &[Proposal]) -> Side {
        let (feature, side) = (chosen.feature, &chosen.side);
        let (wa, wb) = (self.mean_weight(side, true), self.mean_weight(side, false));
        let weight_tells = wa.max(wb) / wa.min(wb).max(1e-6) >= 1.12;
        let others: Vec<(&Proposal, bool)> = all
            .iter()
            .filter(|p| p.feature != feature)
            .filter_map(|p| Some((p, orientation(side, &p.side)?)))
            .collect();
        (0..self.digits.len())
            .map(|i| {
                let by_weight =
                    weight_tells.then(|| (self.weight[i] - wa).abs() < (self.weight[i] - wb).abs());
                let placed = side[i].or(by_weight);
                if placed.is_none() && self.wrong_entry(side, i) {
                    return None;
                }
                let by_other = |p: &Proposal, same: bool, matching: bool| {
                    let a = if matching {
                        self.matches(p.feature, &p.side, i)
                    } else {
                        p.side[i]
                    };
                    a.map(|a| a == same)
                };
                placed
                    .or_else(|| others.iter().find_map(|&(p, s)| by_other(p, s, false)))
                    .or_else(|| self.matches(feature, side, i))
                    .or_else(|| others.iter().find_map(|&(p, s)| by_other(p, s, true)))
            })
            .collect()
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
}

/// How partition `other` lines up with `side`: `Some(true)` when its group A is mostly
/// `side`'s group A, `Some(false)` when it is mostly `side`'s group B, `None` when it does
/// not clearly line up either way.
fn orientation(side: &Side, other: &Side) -> Option<bool> {
    let (mut same, mut flipped) = (0usize, 0usize);
    for (a, b) in side.iter().zip(other) {
        match (a, b) {
            (Some(a), Some(b)) if a == b => same += 1,
            (Some(_), Some(_)) => flipped += 1,
            _ => {}
        }
    }
    if same > 2 * flipped {
        Some(true)
    } else if flipped > 2 * same {
        Some(false)
    } else {
        None
    }
}
