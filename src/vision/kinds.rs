//! Given or entered: clustering the digits' ink colour (and, failing that, stroke weight).
//!
//! Apps draw the puzzle's givens and the player's digits differently: usually a neutral colour
//! (black, or white in a dark theme) for givens and a coloured ink (blue, red for conflicts) for
//! entries, sometimes only a different weight. The digits are split in two by colour; the
//! cluster with the less saturated (or, if both are neutral, the higher-contrast) ink is the
//! givens. With no clear colour split, a clear weight split (bolder = given) is used; with
//! neither, every digit is a given.

use serde::Serialize;

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
    pub fn to_char(self) -> char {
        match self {
            Kind::Empty => '.',
            Kind::Given => 'G',
            Kind::Entered => 'U',
        }
    }
}

/// The features of one digit used for clustering.
#[derive(Debug, Clone, Copy)]
pub struct DigitInk {
    /// Cell index.
    pub cell: usize,
    /// The digit read.
    pub digit: u8,
    /// Mean colour of the strongest ink.
    pub colour: [u8; 3],
    /// Contrast against the cell background.
    pub contrast: u8,
    /// Stroke width relative to the glyph height.
    pub weight: f32,
    /// The colour right around the digit (a disc or tint behind it).
    pub surround: [u8; 3],
    /// The cell's background colour.
    pub background: [u8; 3],
}

/// What told givens from entries.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Evidence(pub String);

impl std::fmt::Display for Evidence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Per-channel median of colours (black for none).
pub fn median_colour(colours: &[[u8; 3]]) -> [u8; 3] {
    std::array::from_fn(|c| {
        let mut v: Vec<u8> = colours.iter().map(|p| p[c]).collect();
        v.sort_unstable();
        v.get(v.len() / 2).copied().unwrap_or(0)
    })
}

/// Colours closer than this (largest channel difference) are the same ink.
const SAME_COLOUR: f32 = 48.0;

fn chroma(c: [f32; 3]) -> f32 {
    c.iter().cloned().fold(f32::MIN, f32::max) - c.iter().cloned().fold(f32::MAX, f32::min)
}

fn dist(a: [f32; 3], b: [f32; 3]) -> f32 {
    (0..3).map(|i| (a[i] - b[i]).abs()).fold(0.0, f32::max)
}

/// Classifies digits into given and entered; cells not listed are [`Kind::Empty`].
pub fn classify(digits: &[DigitInk], empty: [u8; 3]) -> ([Kind; 81], Evidence) {
    if std::env::var_os("VISION_TRACE").is_some() {
        eprintln!("empty bg {empty:?}");
        for d in digits {
            eprintln!(
                "{} {} ink {:?} c {} w {:.3} sur {:?} bg {:?}",
                crate::board::cell_name(d.cell),
                d.digit,
                d.colour,
                d.contrast,
                d.weight,
                d.surround,
                d.background
            );
        }
    }
    (classify_old(digits), Evidence("old".into()))
}

fn classify_old(digits: &[DigitInk]) -> [Kind; 81] {
    let mut kinds = [Kind::Empty; 81];
    for d in digits {
        if d.cell < 81 {
            kinds[d.cell] = Kind::Given;
        }
    }
    if digits.len() < 2 {
        return kinds;
    }
    let col = |d: &DigitInk| d.colour.map(|v| v as f32);
    // Seeds: the most neutral, highest-contrast ink, and the ink farthest from it.
    let seed = digits
        .iter()
        .min_by(|a, b| {
            let ka = chroma(col(a)) - a.contrast as f32 * 0.25;
            let kb = chroma(col(b)) - b.contrast as f32 * 0.25;
            ka.total_cmp(&kb)
        })
        .map(col)
        .unwrap_or([0.0; 3]);
    // Farthest-point seeds: up to three inks (givens, entries, conflicts shown in red).
    let mut centres = vec![seed];
    while centres.len() < 3 {
        let Some(far) = digits.iter().map(col).max_by(|a, b| {
            let da = centres
                .iter()
                .map(|c| dist(*a, *c))
                .fold(f32::MAX, f32::min);
            let db = centres
                .iter()
                .map(|c| dist(*b, *c))
                .fold(f32::MAX, f32::min);
            da.total_cmp(&db)
        }) else {
            break;
        };
        if centres
            .iter()
            .map(|c| dist(far, *c))
            .fold(f32::MAX, f32::min)
            < SAME_COLOUR
        {
            break;
        }
        centres.push(far);
    }
    if centres.len() > 1 {
        let mut member = vec![0usize; digits.len()];
        for _ in 0..10 {
            for (m, d) in member.iter_mut().zip(digits) {
                let c = col(d);
                *m = (0..centres.len())
                    .min_by(|&a, &b| dist(c, centres[a]).total_cmp(&dist(c, centres[b])))
                    .unwrap_or(0);
            }
            for (k, centre) in centres.iter_mut().enumerate() {
                let (mut s, mut n) = ([0f32; 3], 0f32);
                for (m, d) in member.iter().zip(digits) {
                    if *m == k {
                        let c = col(d);
                        (0..3).for_each(|i| s[i] += c[i]);
                        n += 1.0;
                    }
                }
                if n > 0.0 {
                    *centre = s.map(|v| v / n);
                }
            }
        }
        let contrast = |k: usize| {
            let v: Vec<f32> = member
                .iter()
                .zip(digits)
                .filter(|(m, _)| **m == k)
                .map(|(_, d)| d.contrast as f32)
                .collect();
            v.iter().sum::<f32>() / v.len().max(1) as f32
        };
        let used: Vec<usize> = (0..centres.len()).filter(|k| member.contains(k)).collect();
        // The givens: the least saturated ink; among near-neutral inks, the highest contrast.
        let least = used
            .iter()
            .map(|&k| chroma(centres[k]))
            .fold(f32::MAX, f32::min);
        let given = used
            .iter()
            .copied()
            .filter(|&k| chroma(centres[k]) < least + 30.0)
            .max_by(|&a, &b| contrast(a).total_cmp(&contrast(b)));
        if let Some(given) = given
            && used.len() > 1
        {
            // Inks as close to the givens' as to any other are givens too.
            for (m, d) in member.iter().zip(digits) {
                let same = *m == given || dist(centres[*m], centres[given]) < SAME_COLOUR;
                kinds[d.cell] = if same { Kind::Given } else { Kind::Entered };
            }
            return kinds;
        }
    }
    // Same colour: try stroke weight.
    let (lo, hi) = digits.iter().fold((f32::MAX, f32::MIN), |(l, h), d| {
        (l.min(d.weight), h.max(d.weight))
    });
    if lo > 0.0 && hi / lo >= 1.3 {
        let mut split = (lo + hi) / 2.0;
        for _ in 0..10 {
            let (mut a, mut na, mut b, mut nb) = (0.0, 0.0, 0.0, 0.0);
            for d in digits {
                if d.weight < split {
                    a += d.weight;
                    na += 1.0;
                } else {
                    b += d.weight;
                    nb += 1.0;
                }
            }
            if na == 0.0 || nb == 0.0 {
                break;
            }
            split = (a / na + b / nb) / 2.0;
        }
        let heavy: Vec<f32> = digits
            .iter()
            .map(|d| d.weight)
            .filter(|&w| w >= split)
            .collect();
        let light: Vec<f32> = digits
            .iter()
            .map(|d| d.weight)
            .filter(|&w| w < split)
            .collect();
        let mean = |v: &[f32]| v.iter().sum::<f32>() / v.len().max(1) as f32;
        if !heavy.is_empty() && !light.is_empty() && mean(&heavy) / mean(&light) >= 1.25 {
            for d in digits {
                kinds[d.cell] = if d.weight >= split {
                    Kind::Given
                } else {
                    Kind::Entered
                };
            }
        }
    }
    kinds
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ink(cell: usize, colour: [u8; 3], weight: f32) -> DigitInk {
        DigitInk {
            cell,
            colour,
            contrast: 200,
            weight,
        }
    }

    #[test]
    fn black_givens_and_blue_entries() {
        let d = [
            ink(0, [20, 20, 20], 0.2),
            ink(1, [30, 90, 200], 0.2),
            ink(2, [25, 25, 25], 0.2),
            ink(3, [200, 40, 40], 0.2),
        ];
        let k = classify(&d);
        assert_eq!(
            k[..5],
            [
                Kind::Given,
                Kind::Entered,
                Kind::Given,
                Kind::Entered,
                Kind::Empty
            ]
        );
    }

    #[test]
    fn same_colour_splits_by_weight_or_is_all_given() {
        let d = [
            ink(0, [0, 0, 0], 0.30),
            ink(1, [0, 0, 0], 0.15),
            ink(2, [0, 0, 0], 0.31),
        ];
        assert_eq!(classify(&d)[..3], [Kind::Given, Kind::Entered, Kind::Given]);
        let d = [ink(0, [0, 0, 0], 0.30), ink(1, [0, 0, 0], 0.29)];
        assert_eq!(classify(&d)[..2], [Kind::Given, Kind::Given]);
    }
}
