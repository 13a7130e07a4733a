//! Triad reasoning: the three cells of a minirow (or of a minicolumn, the three cells of a
//! column inside one band) hold exactly three different digits.
//!
//! For each digit this pass looks at where it may go at the level of minirows and minicolumns
//! (its *triads*), all 27 of each kind in one 27-bit word per digit:
//! - a digit *occupies* a triad when one of its cells still has the digit as a candidate;
//! - it is *forced* into a triad when it must go there: for a minirow, its row (inside the band)
//!   has candidates in that box only; for a minicolumn, its column has candidates in that band
//!   only.
//!
//! A triad that exactly three digits occupy holds those three: each is forced into it (its row
//! loses the digit outside the triad, and so does its box). A triad into which three digits are
//! forced holds nothing else: the other digits lose it. Fewer than three occupying digits, or
//! more than three forced ones, is a contradiction. Counting runs bit-sliced over the nine
//! digits, for all four kinds at once.
//!
//! This is what the bitboard propagation cannot see, as it works one digit at a time: a naked
//! or hidden triple confined to one minirow or minicolumn. It runs when the cheaper steps stall
//! (like naked singles), and its occupancy words feed the choice of a branch
//! ([`super::branch`]).

use super::state::{Contradiction, State, at};
use super::tables::{BAND, LOCKED, ROW, SPREAD};

/// Bit 0 of every 3-bit group of a 27-bit triad word (the first triad of each row of minirows,
/// or of each box's three minicolumns).
const GROUP_BASES: u32 = 0x124_9249;

/// Where each digit may go at the triad level, as a triad pass saw it (see the module docs).
#[derive(Clone, Copy, Default)]
pub(super) struct Triads {
    /// Per digit, occupied minirows: bit `9 * band + 3 * row + stack`.
    pub(super) rows: [u32; 9],
    /// Per digit, occupied minicolumns: bit `9 * band + column`.
    pub(super) cols: [u32; 9],
    /// How many digits occupy each minirow (`count[0]`) and each minicolumn (`count[1]`), as
    /// binary numbers sliced into words: bit `k` of a triad's count is its bit in word `k`.
    pub(super) count: [[u32; 4]; 2],
}

/// Per 3-bit group of `x` (each group non-empty), the whole group where it has two bits or more.
#[inline(always)]
fn multiple_groups(x: u32) -> u32 {
    let rest = x & (x.wrapping_sub(GROUP_BASES));
    ((rest | rest >> 1 | rest >> 2) & GROUP_BASES) * 7
}

/// Per 3-bit group of `x`, the whole group where it has any bit.
#[inline(always)]
fn any_groups(x: u32) -> u32 {
    ((x | x >> 1 | x >> 2) & GROUP_BASES) * 7
}

/// A 27-bit word of three bands' 9-bit sets, each band moved to the next (0 to 1, 1 to 2, 2 to 0).
#[inline(always)]
fn next_band(x: u32) -> u32 {
    (x << 9 | x >> 18) & BAND
}

/// The minicolumns a digit is forced into: those of its columns (bit `9 * band + column`)
/// that no other band has.
#[inline(always)]
fn forced_columns(cols: u32) -> u32 {
    cols & !(next_band(cols) | next_band(next_band(cols)))
}

/// Bit-sliced binary counters, 64 triads at once: bit `k` of a triad's count is its bit in
/// word `k` (counts up to 15; the solver's never pass 9).
#[derive(Clone, Copy, Default)]
struct Counter([u64; 4]);

impl Counter {
    #[inline(always)]
    fn add(&mut self, x: u64) {
        let [c0, c1, c2, c3] = &mut self.0;
        let carry = *c0 & x;
        *c0 ^= x;
        let carry2 = *c1 & carry;
        *c1 ^= carry;
        *c3 |= *c2 & carry2;
        *c2 ^= carry2;
    }

    /// The triads (of the 32 starting at `shift`) counted exactly three times, and those
    /// counted four times or more.
    #[inline(always)]
    fn three_and_more(&self, shift: u32) -> (u32, u32) {
        let [c0, c1, c2, c3] = self.0.map(|c| (c >> shift) as u32);
        (c0 & c1 & !(c2 | c3), c2 | c3)
    }
}

impl State {
    /// One triad pass (module docs). Fills `triads` with the occupancy it read, and returns
    /// whether it removed any candidate.
    ///
    /// Call it on a settled position (every digit-band updated since its last change): each
    /// row of each digit-band then has a candidate, which the bit tricks rely on.
    pub(super) fn triads(&mut self, triads: &mut Triads) -> Result<bool, Contradiction> {
        // The digits occupying and forced into each triad: minirows (low half) and their
        // forced digits (high half) in one counter, minicolumns in the other.
        let (mut minirows, mut minicols) = (Counter::default(), Counter::default());
        for digit in 0..9 {
            let packed = |words: &[u16; 27]| {
                words[3 * digit] as u32
                    | (words[3 * digit + 1] as u32) << 9
                    | (words[3 * digit + 2] as u32) << 18
            };
            let (rows, cols) = (packed(&self.rows), packed(&self.cols));
            triads.rows[digit] = rows;
            triads.cols[digit] = cols;
            minirows.add(rows as u64 | ((rows & !multiple_groups(rows)) as u64) << 32);
            minicols.add(cols as u64 | (forced_columns(cols) as u64) << 32);
        }
        triads.count = [minirows, minicols].map(|c| c.0.map(|word| word as u32));
        let (rows_three, rows_more) = minirows.three_and_more(0);
        let (rows_forced, rows_overforced) = minirows.three_and_more(32);
        let (cols_three, cols_more) = minicols.three_and_more(0);
        let (cols_forced, cols_overforced) = minicols.three_and_more(32);
        // Fewer than three occupying digits, or more than three forced.
        let short = !(rows_three | rows_more) | !(cols_three | cols_more);
        if short & BAND | rows_overforced | cols_overforced != 0 {
            return Err(Contradiction);
        }
        // Triads with exactly three occupying digits, and with exactly three forced ones. Where
        // both hold, the three are the same digits: nothing to do.
        if (rows_three ^ rows_forced) | (cols_three ^ cols_forced) == 0 {
            return Ok(false);
        }
        for digit in 0..9 {
            let rows = triads.rows[digit];
            let free = rows & multiple_groups(rows);
            // Minirows it loses (three others are forced there), and those it is forced into.
            let lost = rows_forced & free;
            let now = rows_three & free;
            // Forced into a minirow: the rest of its row and of its box go (per band, the three
            // rows of minirows are 3-bit groups; a box is every third bit of them).
            let stacks = (now | now >> 3 | now >> 6) & (7 | 7 << 9 | 7 << 18);
            let keep_rows = rows & !lost & !((any_groups(now) | (stacks * 0x49)) & !now);
            let cols = triads.cols[digit];
            let free = cols & !forced_columns(cols);
            let lost = cols_forced & free;
            let now = cols_three & free;
            // Forced into a minicolumn: its column in the other bands goes, and so do the
            // other columns of its box.
            let gone = next_band(now) | next_band(next_band(now)) | (any_groups(now) & !now);
            let keep_cols = cols & !lost & !gone;
            for band in 0..3 {
                let rows = LOCKED[(keep_rows >> (9 * band) & ROW) as usize] as u32;
                let cols = (keep_cols >> (9 * band) & ROW) * SPREAD;
                self.cand[at(band, digit)] &= rows & cols;
            }
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_helpers() {
        // Groups: 0b011 (two bits), 0b100 (one), 0b001 (one), then empty.
        let x = 0b001_100_011;
        assert_eq!(multiple_groups(x), 0b000_000_111);
        assert_eq!(any_groups(0b000_010_000), 0b000_111_000);
        assert_eq!(next_band(1 | 1 << 20), 1 << 9 | 1 << 2);
    }
}
