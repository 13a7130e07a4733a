//! The groups the features are split into: inks by k-means, a value by Otsu's cut, and the
//! numbers a highlight recolours.

use super::{DigitInk, PLAIN, SAME_INK, TINT, dist, f};

/// Which digits a highlight recolours, per what it recolours.
#[derive(Debug, Clone)]
pub(super) struct Lit {
    /// The ink (and the cells that break a rule: apps paint them red).
    pub ink: Vec<bool>,
    /// The background around the digit (and the cells that break a rule).
    pub back: Vec<bool>,
}

/// The digits whose colours say nothing about their kind: every cell of a number the app
/// highlights, and the cells that break a rule (apps paint them red). A number is highlighted
/// when all its cells are drawn in an ink no other number's cells have (its ink is lit), or on
/// a background that no other number's cells have or several of its cells on a colour of their
/// own that no other digit and no empty cell has (its background is lit), or when no cell of
/// it looks like any cell of another number in both ink and background (both are lit).
/// `tint`: each digit's background distance from the empty cells'.
pub(super) fn highlighted(digits: &[DigitInk], tint: &[f32], conflicting: &[bool]) -> Lit {
    let mut lit = Lit {
        ink: conflicting.to_vec(),
        back: conflicting.to_vec(),
    };
    let same_ink = |a: &DigitInk, b: &DigitInk| dist(f(a.colour), f(b.colour)) < SAME_INK;
    let same_back = |a: &DigitInk, b: &DigitInk| dist(f(a.surround), f(b.surround)) < TINT;
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
        let unlike = |same: &dyn Fn(&DigitInk, &DigitInk) -> bool| {
            with.iter().all(|a| without.iter().all(|b| !same(a, b)))
        };
        let ink = unlike(&same_ink);
        let back = own >= 2 || unlike(&same_back);
        // No cell of this number looks like any cell of another number, in ink and background
        // together: both are taken for lit.
        let both = !ink && !back && unlike(&|a, b| same_ink(a, b) && same_back(a, b));
        for (i, d) in digits.iter().enumerate() {
            if d.digit == value {
                lit.ink[i] |= ink || both;
                lit.back[i] |= back || both;
            }
        }
    }
    lit
}

/// Up to three inks: per digit, its ink's rank by how many digits have it (0: the most
/// common). `None` for one ink.
pub(super) fn inks(cols: &[[f32; 3]]) -> Option<Vec<usize>> {
    // Farthest-point seeds, then a few rounds of k-means.
    let mut centres = seeds(cols)?;
    if centres.len() < 2 {
        return None;
    }
    let member = k_means(cols, &mut centres);
    let count = |k: usize| member.iter().filter(|&&m| m == k).count();
    let mut rank: Vec<usize> = (0..centres.len()).collect();
    rank.sort_by_key(|&k| std::cmp::Reverse(count(k)));
    if count(rank[0]) == cols.len() {
        return None;
    }
    Some(
        member
            .iter()
            .map(|&m| rank.iter().position(|&k| k == m).unwrap_or(0))
            .collect(),
    )
}

/// Up to three seeds for [`inks`]: the first colour, then each colour farthest from the seeds
/// so far while it is another ink. `None` without colours.
fn seeds(cols: &[[f32; 3]]) -> Option<Vec<[f32; 3]>> {
    let mut centres = vec![*cols.first()?];
    let from_centres = |c: [f32; 3], centres: &[[f32; 3]]| {
        centres.iter().map(|k| dist(c, *k)).fold(f32::MAX, f32::min)
    };
    while centres.len() < 3 {
        let far = cols
            .iter()
            .copied()
            .max_by(|a, b| from_centres(*a, &centres).total_cmp(&from_centres(*b, &centres)))?;
        if from_centres(far, &centres) < SAME_INK {
            break;
        }
        centres.push(far);
    }
    Some(centres)
}

/// Eight rounds of k-means from `centres`: each colour's centre.
fn k_means(cols: &[[f32; 3]], centres: &mut [[f32; 3]]) -> Vec<usize> {
    let nearest = |c: [f32; 3], centres: &[[f32; 3]]| {
        (0..centres.len())
            .min_by(|&a, &b| dist(c, centres[a]).total_cmp(&dist(c, centres[b])))
            .unwrap_or(0)
    };
    let mut member = vec![0usize; cols.len()];
    for _ in 0..8 {
        for (m, &c) in member.iter_mut().zip(cols) {
            *m = nearest(c, centres);
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
    member
}

/// Otsu's cut of positive values on a log scale: the threshold with the largest
/// between-group variance. `None` when all values are equal.
pub(super) fn otsu(values: &[f32]) -> Option<f32> {
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
pub(super) fn median(colours: impl Iterator<Item = [f32; 3]>) -> [f32; 3] {
    let v: Vec<[f32; 3]> = colours.collect();
    std::array::from_fn(|c| {
        let mut ch: Vec<f32> = v.iter().map(|p| p[c]).collect();
        ch.sort_by(f32::total_cmp);
        ch.get(ch.len() / 2).copied().unwrap_or(0.0)
    })
}
