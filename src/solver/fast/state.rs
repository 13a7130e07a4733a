//! The solver's state: 27 digit-band bitboards, and the propagation that narrows them.
//!
//! `cand[9 * b + d]` holds the cells of band `b` where digit `d + 1` may still go, in the
//! 27-bit layout described in [`super::tables`]. A digit is *placed* in a row of a band when
//! that row has a single candidate cell left.
//!
//! Propagation works per digit-band and only on those that changed (the `dirty` bit set):
//! 1. locked candidates inside the band ([`LOCKED`]),
//! 2. a row left with one cell places the digit: the cell is taken from the other eight digits,
//! 3. a box of the band whose candidates lie in one column removes that column from the
//!    digit's two other bands ([`POINTING`]).
//!
//! When nothing is dirty any more, two board-wide passes look for more: naked singles (a cell
//! with one digit left) and columns claimed by a single band ([`CLAIMING`]). What remains is
//! left to guessing.

use super::tables::{BAND, CLAIMING, LOCKED, POINTING, ROW, ROWS, SPREAD, columns, minirows};

/// Why propagation stopped: the position has no solution.
pub(super) struct Contradiction;

/// A search position. Small and `Copy`: guessing copies it.
#[derive(Clone, Copy)]
pub(super) struct State {
    /// Candidate cells per digit-band (index `9 * band + digit`, digit 0-based): a band's nine
    /// digits are contiguous.
    pub(super) cand: [u32; 27],
    /// Per digit-band, the rows (3 bits) whose placed digit has already been propagated.
    placed_rows: [u8; 27],
    /// Per band, the cells without a placed digit.
    pub(super) open: [u32; 3],
}

/// For each digit-band, the same digit's two other bands.
const OTHER_BANDS: [[u8; 2]; 27] = {
    let mut t = [[0u8; 2]; 27];
    let mut i = 0;
    while i < 27 {
        t[i] = [((i + 9) % 27) as u8, ((i + 18) % 27) as u8];
        i += 1;
    }
    t
};

/// Every digit-band.
pub(super) const ALL_DIRTY: u32 = (1 << 27) - 1;

impl State {
    /// The empty board: every digit possible everywhere.
    pub(super) fn new() -> Self {
        State {
            cand: [BAND; 27],
            placed_rows: [0; 27],
            open: [BAND; 3],
        }
    }

    /// Puts digit `digit` (0-based) in `cell` by emptying the rest of its row for that digit.
    /// Returns the dirty bit of the digit-band; nothing is propagated yet.
    #[inline(always)]
    pub(super) fn place(&mut self, cell: usize, digit: usize) -> u32 {
        let band = cell / 27;
        let bit = 1u32 << (cell % 27);
        let row = ROW << (9 * ((cell % 27) / 9));
        let i = 9 * band + digit;
        self.cand[i] &= !row | bit;
        1 << i
    }

    /// Removes digit `digit` (0-based) from `cell`. Returns the dirty bit of the digit-band.
    #[inline(always)]
    pub(super) fn eliminate(&mut self, cell: usize, digit: usize) -> u32 {
        let i = 9 * (cell / 27) + digit;
        self.cand[i] &= !(1u32 << (cell % 27));
        1 << i
    }

    /// True when every cell has its digit (only meaningful after a successful propagation).
    #[inline(always)]
    pub(super) fn is_solved(&self) -> bool {
        self.open[0] | self.open[1] | self.open[2] == 0
    }

    /// Narrows `cand[j]` to `keep`, marking it dirty if that changed anything.
    #[inline(always)]
    fn narrow(&mut self, j: usize, keep: u32, dirty: &mut u32) {
        let old = self.cand[j];
        let new = old & keep;
        *dirty |= ((new != old) as u32) << j;
        self.cand[j] = new;
    }

    /// Propagates from the dirty digit-bands until nothing more follows.
    pub(super) fn propagate(&mut self, mut dirty: u32) -> Result<(), Contradiction> {
        loop {
            // Round-robin over the dirty digit-bands: the next one at or after the last one
            // updated, wrapping around, so that eliminations batch up before a band is redone.
            let mut next = 0;
            while dirty != 0 {
                let ahead = dirty & (u32::MAX << next);
                let i = if ahead != 0 { ahead } else { dirty }.trailing_zeros() as usize;
                dirty &= !(1 << i);
                next = i;
                self.update(i, &mut dirty)?;
            }
            dirty = self.naked_singles()?;
            if dirty != 0 {
                continue;
            }
            dirty = self.claiming()?;
            if dirty == 0 {
                return Ok(());
            }
        }
    }

    /// Steps 1-3 of the module docs for digit-band `i`.
    #[inline(always)]
    fn update(&mut self, i: usize, dirty: &mut u32) -> Result<(), Contradiction> {
        let band = i / 9;
        let old = self.cand[i];
        let cells = old & LOCKED[minirows(old)];
        if cells == 0 {
            return Err(Contradiction);
        }

        // Rows with a single cell. `x & (x - 1)` clears the lowest bit of `x`; subtracting
        // SPREAD subtracts 1 from each 9-bit row at once, with no borrow across rows because
        // LOCKED left every row non-empty. A row is single when nothing is left of it.
        let rest = cells & (cells - SPREAD);
        let single = (rest & ROW == 0) as usize
            | ((rest >> 9 & ROW == 0) as usize) << 1
            | ((rest >> 18 == 0) as usize) << 2;
        let new = single & !(self.placed_rows[i] as usize);
        if new != 0 {
            self.placed_rows[i] |= new as u8;
            let placed = cells & ROWS[new];
            self.open[band] &= !placed;
            // Take the placed cells from all nine digits of the band (branch-free, constant
            // shifts), then give this digit its cells back.
            let lanes: &mut [u32; 9] = (&mut self.cand[9 * band..9 * band + 9])
                .try_into()
                .expect("nine digits per band");
            let mut changed = 0u32;
            for (k, lane) in lanes.iter_mut().enumerate() {
                changed |= ((*lane & placed != 0) as u32) << k;
                *lane &= !placed;
            }
            *dirty |= (changed << (9 * band)) & !(1 << i);
        }
        self.cand[i] = cells;

        let keep = POINTING[columns(cells)];
        let [next, last] = OTHER_BANDS[i];
        self.narrow(next as usize, keep, dirty);
        self.narrow(last as usize, keep, dirty);
        Ok(())
    }

    /// For each open cell, how many digits are left, as bit-sliced counters: cells with at
    /// least one, at least two and at least three candidates.
    #[inline(always)]
    pub(super) fn counts(&self, band: usize) -> (u32, u32, u32) {
        let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
        for digit in 0..9 {
            let c = self.cand[9 * band + digit];
            three |= two & c;
            two |= one & c;
            one |= c;
        }
        (one, two, three)
    }

    /// Places the digit of every open cell that has a single candidate. Fails on a cell with
    /// none. Returns the dirty digit-bands.
    fn naked_singles(&mut self) -> Result<u32, Contradiction> {
        let mut dirty = 0;
        for band in 0..3 {
            let (one, two, _) = self.counts(band);
            let open = self.open[band];
            if open & !one != 0 {
                return Err(Contradiction);
            }
            let mut singles = open & !two;
            while singles != 0 {
                let bit = singles & singles.wrapping_neg();
                singles ^= bit;
                let cell = 27 * band + bit.trailing_zeros() as usize;
                for digit in 0..9 {
                    if self.cand[9 * band + digit] & bit != 0 {
                        dirty |= self.place(cell, digit);
                        break;
                    }
                }
            }
        }
        Ok(dirty)
    }

    /// Applies [`CLAIMING`] for every digit. Fails on a column with no place for a digit.
    fn claiming(&mut self) -> Result<u32, Contradiction> {
        let mut dirty = 0;
        for digit in 0..9 {
            let c0 = columns(self.cand[digit]);
            let c1 = columns(self.cand[9 + digit]);
            let c2 = columns(self.cand[18 + digit]);
            if c0 | c1 | c2 != ROW as usize {
                return Err(Contradiction);
            }
            let only = [c0 & !(c1 | c2), c1 & !(c0 | c2), c2 & !(c0 | c1)];
            for (band, &cols) in only.iter().enumerate() {
                if cols != 0 {
                    self.narrow(9 * band + digit, CLAIMING[cols], &mut dirty);
                }
            }
        }
        Ok(dirty)
    }

    /// The solved grid (0 in any cell without a placed digit).
    pub(super) fn grid(&self) -> [u8; 81] {
        let mut grid = [0u8; 81];
        for digit in 0..9 {
            for band in 0..3 {
                let mut c = self.cand[9 * band + digit] & !self.open[band];
                while c != 0 {
                    grid[27 * band + c.trailing_zeros() as usize] = digit as u8 + 1;
                    c &= c - 1;
                }
            }
        }
        grid
    }
}
