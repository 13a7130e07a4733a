//! Where to guess when propagation stalls: a digit's place in a band or a stack.
//!
//! A digit sits in a band in one of six ways (a minirow per row, [`PERMUTATIONS`]), and in a
//! stack in one of six (a minicolumn per band); propagation leaves only the ways its candidates
//! allow. The guess picks, among the three bands and three stacks not yet settled, the one with
//! the fewest ways left over all nine digits, and in it a digit with two ways (else three, else
//! the fewest): each alternative keeps one way. A binary choice that settles three triads at
//! once narrows more than a cell with two candidates: on the hard sets about 20% fewer guesses,
//! and with triad reasoning ([`super::triads`]) about 40% fewer (after tdoku's branching on band
//! configurations).

use super::tables::{BAND, LOCKED, PERMUTATION_COUNT, PERMUTATIONS, POPCOUNT, ROW, SPREAD};
use super::triads::Triads;

/// The first stack's three columns in each band of a 27-bit minicolumn word.
const STACK_COLUMNS: u32 = 7 | 7 << 9 | 7 << 18;

/// A guess: the ways to try, each as masks for the digit's three digit-bands.
pub(super) struct Branch {
    pub(super) digit: usize,
    pub(super) ways: [[u32; 3]; 6],
    pub(super) count: usize,
}

/// The minicolumn occupancy of stack `stack` in a 27-bit minicolumn word, as a 9-bit
/// permutation index (bit `3 * band + column`).
#[inline(always)]
fn stack_occupancy(cols: u32, stack: usize) -> u32 {
    let x = cols >> (3 * stack) & STACK_COLUMNS;
    (x | x >> 6 | x >> 12) & ROW
}

/// The branch for the position `triads` describes, or `None` when every band and stack is
/// settled (then every digit's cells are known).
pub(super) fn pick(triads: &Triads) -> Option<Branch> {
    // The unsettled band or stack with the fewest (digit, triad) occupancies: as good a guide
    // as the number of ways left (their sum over digits), and far cheaper. A settled unit has
    // 27: three digits in each of its nine triads.
    // Branch-free minima (which unit and digit win is unpredictable): keys with the index in
    // the low bits, so ties go to the first.
    let [rows, cols] = triads.count;
    let mut best = u32::MAX;
    for unit in 0..6 {
        let mut total = 0;
        for k in 0..4 {
            let word = if unit < 3 {
                rows[k] >> (9 * unit) & ROW
            } else {
                stack_occupancy(cols[k], unit - 3)
            };
            total += (POPCOUNT[word as usize] as u32) << k;
        }
        let key = if total > 27 {
            total << 3 | unit as u32
        } else {
            u32::MAX
        };
        best = best.min(key);
    }
    if best == u32::MAX {
        return None;
    }
    let unit = (best & 7) as usize;
    let occupied = |digit: usize| {
        if unit < 3 {
            triads.rows[digit] >> (9 * unit) & ROW
        } else {
            stack_occupancy(triads.cols[digit], unit - 3)
        }
    };
    // The digit with the fewest ways, at least two.
    let mut best = u32::MAX;
    for d in 0..9 {
        let n = PERMUTATION_COUNT[occupied(d) as usize] as u32;
        let key = if n >= 2 { n << 4 | d as u32 } else { u32::MAX };
        best = best.min(key);
    }
    if best == u32::MAX {
        return None;
    }
    let digit = (best & 15) as usize;
    let mut branch = Branch {
        digit,
        ways: [[BAND; 3]; 6],
        count: 0,
    };
    let occupied = occupied(digit);
    for bits in PERMUTATIONS {
        // Every permutation is written; only the usable ones are counted.
        let way = &mut branch.ways[branch.count];
        if unit < 3 {
            way[unit] = LOCKED[bits as usize] as u32;
        } else {
            // Band `band` keeps one column of the stack: bit `3 * band + column` of `bits`.
            let stack = unit - 3;
            for (band, mask) in way.iter_mut().enumerate() {
                let column = (bits >> (3 * band) & 7) << (3 * stack);
                *mask = BAND & !(((7 << (3 * stack)) & !column) * SPREAD);
            }
        }
        branch.count += (occupied & bits == bits) as usize;
    }
    Some(branch)
}
