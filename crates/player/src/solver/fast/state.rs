//! The solver's state: 27 digit-band bitboards, and the propagation that narrows them.
//!
//! `cand[at(b, d)]` holds the cells of band `b` where digit `d + 1` may still go, in the
//! 27-bit layout described in [`super::tables`]. A digit is *placed* in a row of a band when
//! that row has a single candidate cell left.
//!
//! Propagation works per digit-band, on those that changed since their last update (a copy of
//! each, `settled`, tells; comparing is cheaper than tracking dirty bits at every write):
//! 1. locked candidates inside the band ([`LOCKED`]),
//! 2. a row left with one cell places the digit: the cell is taken from the other eight digits
//!    (every time, branch-free: cheaper than remembering which rows were already placed),
//! 3. a box of the band whose candidates lie in one column removes that column from the
//!    digit's two other bands ([`POINTING`]),
//! 4. a column where only one band of the digit has candidates must take it in that band's box:
//!    the box's other columns lose it ([`CLAIMING`]). Each digit-band keeps its columns as of
//!    its last update (`cols`); those of the updated one are fresh, so step 4 is applied to the
//!    two *other* bands: a band's claims are the columns the other two cannot have, so they
//!    are redone whenever one of those changes.
//!
//! Contradictions are reported where they are cheap to see (a digit-band left without a
//! permutation, a cell without a digit); others, like a column with no place left for a
//! digit, only surface later. That is safe: a position with every cell placed and nothing left
//! to update is always a valid grid (each digit-band then holds one cell per row and box, each
//! cell one digit, and pointing has kept each digit's columns apart across bands).
//!
//! Sweeps over all 27 digit-bands (unrolled, so every index is a constant) repeat until one
//! changes nothing. Then a board-wide pass places naked singles (a cell with one digit left)
//! and sweeps start again; when it finds none, a strong search runs a triad pass
//! ([`super::triads`]), and sweeps start again if that removed anything. What remains is left to
//! guessing.

use super::tables::{BAND, CLAIMING, LOCKED, POINTING, ROW, SPREAD, columns, minirows};
use super::triads::Triads;

/// Why propagation stopped: the position has no solution.
pub(super) struct Contradiction;

/// A search position. Small and `Copy`: guessing copies it.
#[derive(Clone, Copy)]
pub(super) struct State {
    /// Candidate cells per digit-band (index [`at`]`(band, digit)`, digit 0-based).
    pub(super) cand: [u32; 27],
    /// Per digit-band, `cand` as its last update left it: a digit-band needs an update when
    /// the two differ.
    settled: [u32; 27],
    /// Per digit-band, the columns of `settled` (a superset of those of `cand`).
    pub(super) cols: [u16; 27],
    /// Per digit-band, the minirows of `settled` ([`minirows`]).
    pub(super) rows: [u16; 27],
    /// Per band, the cells without a placed digit.
    pub(super) open: [u32; 3],
}

/// The index of digit-band (`band`, `digit`) in `cand` and the arrays beside it: a digit's
/// three bands are contiguous (a sweep's order), a band's nine digits three apart. Contiguous,
/// a band's digits were cleared of its placed cells in vector stores, and the updates that
/// followed read them back just after writing single lanes, which a store cannot forward to a
/// wider load: serg 3-4% slower (2026-11-27).
#[inline(always)]
pub(super) const fn at(band: usize, digit: usize) -> usize {
    3 * digit + band
}

/// For each digit-band, the same digit's two other bands.
const OTHER_BANDS: [[usize; 2]; 27] = {
    let mut t = [[0; 2]; 27];
    let mut i = 0;
    while i < 27 {
        t[i] = [i - i % 3 + (i + 1) % 3, i - i % 3 + (i + 2) % 3];
        i += 1;
    }
    t
};

/// Runs `update` on each listed digit-band that changed since its last update, setting
/// `$changed` if any did. The list is unrolled so every update works on constant indices.
macro_rules! sweep {
    ($st:ident, $changed:ident; $($i:literal)*) => {
        $(
            if $st.cand[$i] != $st.settled[$i] {
                $changed = true;
                $st.update($i)?;
            }
        )*
    };
}

impl State {
    /// The empty board: every digit possible everywhere.
    pub(super) fn new() -> Self {
        State {
            cand: [BAND; 27],
            settled: [BAND; 27],
            cols: [ROW as u16; 27],
            rows: [ROW as u16; 27],
            open: [BAND; 3],
        }
    }

    /// Puts digit `digit` (0-based) in `cell` by emptying the rest of its row for that digit.
    /// Nothing is propagated yet.
    #[inline(always)]
    pub(super) fn place(&mut self, cell: usize, digit: usize) {
        let band = cell / 27;
        let bit = 1u32 << (cell % 27);
        let row = ROW << (9 * ((cell % 27) / 9));
        self.cand[at(band, digit)] &= !row | bit;
    }

    /// Removes digit `digit` (0-based) from `cell`.
    #[inline(always)]
    pub(super) fn eliminate(&mut self, cell: usize, digit: usize) {
        self.cand[at(cell / 27, digit)] &= !(1u32 << (cell % 27));
    }

    /// True when every cell has its digit (only meaningful after a successful propagation).
    #[inline(always)]
    pub(super) fn is_solved(&self) -> bool {
        self.open[0] | self.open[1] | self.open[2] == 0
    }

    /// Keeps, for digit `digit` (0-based), only the cells in `masks` (one per band).
    #[inline(always)]
    pub(super) fn restrict(&mut self, digit: usize, masks: &[u32; 3]) {
        for (band, &mask) in masks.iter().enumerate() {
            self.cand[at(band, digit)] &= mask;
        }
    }

    /// Propagates every change since the last updates until nothing more follows. With `strong`
    /// it runs triad passes too and leaves in `triads` the triad occupancy of the final position
    /// unless it is solved; without, it leaves in `pairs` the open cells with two candidates
    /// (per band). Both are for guessing.
    #[inline(always)]
    pub(super) fn propagate(
        &mut self,
        strong: bool,
        triads: &mut Triads,
        pairs: &mut [u32; 3],
    ) -> Result<(), Contradiction> {
        loop {
            let mut changed = true;
            while changed {
                changed = false;
                // Digit-major: a digit's three bands in a row, so what pointing and claiming
                // take from the next bands is picked up in the same sweep.
                sweep!(self, changed;
                    0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26);
            }
            if self.is_solved() {
                return Ok(());
            }
            if !self.naked_singles(pairs)? && (!strong || !self.triads(triads)?) {
                return Ok(());
            }
        }
    }

    /// Steps 1-4 of the module docs for digit-band `i`.
    #[inline(always)]
    fn update(&mut self, i: usize) -> Result<(), Contradiction> {
        let band = i % 3;
        let old = self.cand[i];
        let locked = LOCKED[minirows(old)];
        let cells = old & locked as u32;
        if cells == 0 {
            return Err(Contradiction);
        }

        // Rows with a single cell. `x & (x - 1)` clears the lowest bit of `x`; subtracting
        // SPREAD subtracts 1 from each 9-bit row at once, with no borrow across rows because
        // LOCKED left every row non-empty. A row is single when nothing is left of it.
        let rest = cells & (cells - SPREAD);
        let empty = |row: u32| ((row == 0) as u32).wrapping_neg();
        let placed = cells
            & (empty(rest & ROW) & ROW
                | empty(rest >> 9 & ROW) & ROW << 9
                | empty(rest >> 18) & ROW << 18);
        self.open[band] &= !placed;
        // Take the placed cells from all nine digits of the band (again each time: cheaper
        // than tracking which are new), then give this digit its cells back.
        for digit in 0..9 {
            self.cand[at(band, digit)] &= !placed;
        }
        self.settled[i] = cells;
        self.rows[i] = (locked >> 32) as u16;

        let cols = columns(cells);
        self.cols[i] = cols as u16;
        let [next, last] = OTHER_BANDS[i];
        let (cols_next, cols_last) = (self.cols[next] as usize, self.cols[last] as usize);
        let keep = POINTING[cols];
        self.cand[i] = cells;
        self.cand[next] &= keep & CLAIMING[ROW as usize ^ (cols | cols_last)];
        self.cand[last] &= keep & CLAIMING[ROW as usize ^ (cols | cols_next)];
        Ok(())
    }

    /// For each cell, how many digits are left, as bit-sliced counters: cells with at least
    /// one, two and three candidates.
    #[inline(always)]
    fn counts(&self, band: usize) -> (u32, u32, u32) {
        let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
        for digit in 0..9 {
            let c = self.cand[at(band, digit)];
            three |= two & c;
            two |= one & c;
            one |= c;
        }
        (one, two, three)
    }

    /// Places the digit of every open cell that has a single candidate. Fails on a cell with
    /// none. Returns whether it placed any, and sets `pairs` to the open cells with two.
    #[inline(always)]
    fn naked_singles(&mut self, pairs: &mut [u32; 3]) -> Result<bool, Contradiction> {
        let mut found = false;
        for (band, pairs) in pairs.iter_mut().enumerate() {
            let open = self.open[band];
            // A band with every digit placed has no cell to count (serg: 2% less time).
            if open == 0 {
                *pairs = 0;
                continue;
            }
            let (one, two, three) = self.counts(band);
            *pairs = open & two & !three;
            if open & !one != 0 {
                return Err(Contradiction);
            }
            let mut singles = open & !two;
            found |= singles != 0;
            while singles != 0 {
                let bit = singles & singles.wrapping_neg();
                singles ^= bit;
                let pos = bit.trailing_zeros();
                // The cell's only digit, found without a branch per digit (digit 0 adds 0).
                let mut digit = 0;
                for d in 1..9 {
                    digit += (self.cand[at(band, d)] >> pos & 1) as usize * d;
                }
                self.place(27 * band + pos as usize, digit);
            }
        }
        Ok(found)
    }

    /// The solved grid (0 in any cell without a placed digit).
    pub(super) fn grid(&self) -> [u8; 81] {
        let mut grid = [0u8; 81];
        for digit in 0..9 {
            for band in 0..3 {
                let mut c = self.cand[at(band, digit)] & !self.open[band];
                while c != 0 {
                    grid[27 * band + c.trailing_zeros() as usize] = digit as u8 + 1;
                    c &= c - 1;
                }
            }
        }
        grid
    }
}
