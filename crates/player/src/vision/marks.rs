//! The digits an app marks wrong: entries drawn in an ink of their own, apart from the givens'
//! ink and from the other entries' (apps that check the entries against the solution they
//! stored, or against the rules, paint the others in a colour, mostly red). The player knows
//! the level's givens (they never change), so marks are looked for among the other digits.
//! A number's highlight (every cell of the selected number recoloured, givens too) is not a
//! mark.

use super::Reading;
use crate::board::{Board, CELLS};

/// Inks closer than this (largest channel difference) are one ink.
const SAME_INK: f32 = 48.0;
/// An error ink is a colour: its channels spread at least this much (a grey or a black is an
/// ordinary ink at another opacity).
const COLOURED: f32 = 60.0;

impl Reading {
    /// The cells whose digit (not one of `givens`) is in the app's error ink: an ink far from
    /// the givens' and from most entries', and a colour; none where those digits are a
    /// number's highlight (that number's givens drawn in it too).
    pub fn marked_wrong(&self, givens: &Board) -> Vec<usize> {
        let ink = |c: usize| self.cells[c].ink_colour.map(f32::from);
        let digits = (0..CELLS).filter(|&c| self.board.get(c) != 0);
        let (given, entries): (Vec<usize>, Vec<usize>) = digits.partition(|&c| givens.get(c) != 0);
        let (Some(given_ink), Some(entry_ink)) = (median(&given, ink), median(&entries, ink))
        else {
            return Vec::new();
        };
        let apart = |c: usize| {
            let i = ink(c);
            dist(i, given_ink) >= SAME_INK
                && dist(i, entry_ink) >= SAME_INK
                && chroma(i) >= COLOURED
        };
        // Numbers whose givens are recoloured too: a highlight.
        let lit: Vec<u8> = given
            .iter()
            .filter(|&&c| apart(c))
            .map(|&c| self.board.get(c))
            .collect();
        entries
            .into_iter()
            .filter(|&c| apart(c) && !lit.contains(&self.board.get(c)))
            .collect()
    }
}

/// The per-channel median ink of `cells`, `None` for none.
fn median(cells: &[usize], ink: impl Fn(usize) -> [f32; 3]) -> Option<[f32; 3]> {
    if cells.is_empty() {
        return None;
    }
    Some(std::array::from_fn(|ch| {
        let mut v: Vec<f32> = cells.iter().map(|&c| ink(c)[ch]).collect();
        v.sort_by(f32::total_cmp);
        v[v.len() / 2]
    }))
}

fn dist(a: [f32; 3], b: [f32; 3]) -> f32 {
    (0..3).map(|i| (a[i] - b[i]).abs()).fold(0.0, f32::max)
}

fn chroma(c: [f32; 3]) -> f32 {
    c.iter().copied().fold(f32::MIN, f32::max) - c.iter().copied().fold(f32::MAX, f32::min)
}
