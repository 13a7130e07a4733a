//! Lookup tables for the band-wise bit tricks, all computed at compile time.
//!
//! A *band* is three rows of the board (rows 0-2, 3-5 or 6-8). For one digit, the cells of a
//! band where that digit may still go fit in 27 bits: bit `9 * row + col`, `row` in 0..3 inside
//! the band, `col` in 0..9. So bits 0-8 are the band's first row, 9-17 its second, 18-26 its
//! third. A *minirow* is the three cells of one row inside one box: bits `9 * row + 3 * stack`
//! up to `+ 2`, where `stack` (0..3) is the box's column of boxes.
//!
//! All tables take a 9-bit index and are therefore 512 entries long.

/// The 27 cells of a band.
pub(super) const BAND: u32 = (1 << 27) - 1;

/// One row of a band (the first; shift by `9 * row` for the others).
pub(super) const ROW: u32 = 0x1FF;

/// The same 9-bit column set repeated in all three rows of a band: `cols * SPREAD`.
pub(super) const SPREAD: u32 = 1 | 1 << 9 | 1 << 18;

/// `ROW_STACKS[bits]`: for the 9 bits of one row, which of its three minirows are non-empty
/// (bit `stack`).
pub(super) static ROW_STACKS: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        let mut s = 0;
        while s < 3 {
            if x & (7 << (3 * s)) != 0 {
                t[x] |= 1 << s;
            }
            s += 1;
        }
        x += 1;
    }
    t
};

/// `LOCKED[occupied]`: the band cells that survive locked-candidate reasoning for one digit.
///
/// `occupied` has bit `3 * row + stack` set when that minirow still has a candidate. In a
/// solution the digit sits once in each row and once in each box of the band, so it picks a
/// minirow per row with all three stacks different: one of the 6 permutations. A minirow that
/// belongs to no permutation made only of occupied minirows cannot hold the digit. That covers
/// pointing and claiming inside the band, and hidden singles in boxes. The entry is the union of
/// the usable permutations' minirows, expanded to their 27 cells; 0 if no permutation fits (the
/// digit cannot be placed: contradiction). Bits 32 and up hold the same minirows as occupancy
/// bits (the `occupied` of what is left).
pub(super) static LOCKED: [u64; 512] = {
    let mut t = [0u64; 512];
    let mut occ = 0;
    while occ < 512 {
        let mut usable = 0;
        let mut p = 0;
        while p < 6 {
            let bits = PERMUTATIONS[p];
            if occ as u32 & bits == bits {
                usable |= bits;
            }
            p += 1;
        }
        t[occ] = minirow_cells(usable) as u64 | (usable as u64) << 32;
        occ += 1;
    }
    t
};

/// The six ways a digit can sit in a band, one minirow per row in three different stacks, as
/// minirow occupancy bits (`3 * row + stack`). Transposed, the same six are the ways it can sit
/// in a stack: one minicolumn per band (bit `3 * band + column`) in three different columns.
pub(super) const PERMUTATIONS: [u32; 6] = {
    const STACKS: [[u32; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u32; 6];
    let mut p = 0;
    while p < 6 {
        t[p] = 1 << STACKS[p][0] | 1 << (3 + STACKS[p][1]) | 1 << (6 + STACKS[p][2]);
        p += 1;
    }
    t
};

/// The band cells of the minirows in `occupied` (bit `3 * row + stack`).
const fn minirow_cells(occupied: u32) -> u32 {
    let mut cells = 0;
    let mut bit = 0;
    while bit < 9 {
        if occupied & 1 << bit != 0 {
            cells |= 7 << (9 * (bit / 3) + 3 * (bit % 3));
        }
        bit += 1;
    }
    cells
}

/// `PERMUTATION_COUNT[occupied]`: how many of the [`PERMUTATIONS`] use only occupied minirows.
pub(super) static PERMUTATION_COUNT: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut occ = 0;
    while occ < 512 {
        let mut p = 0;
        while p < 6 {
            let bits = PERMUTATIONS[p];
            t[occ] += (occ as u32 & bits == bits) as u8;
            p += 1;
        }
        occ += 1;
    }
    t
};

/// `POPCOUNT[bits]`: the number of bits set in a 9-bit value (without the `popcnt` instruction,
/// which the baseline x86-64 target lacks).
pub(super) static POPCOUNT: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = (x as u32).count_ones() as u8;
        x += 1;
    }
    t
};

/// `POINTING[cols]`: given the columns where a digit may go in one band (the band's three rows
/// OR-ed together), the band cells the other two bands keep.
///
/// Every box holds the digit exactly once. If a box's candidates all lie in one column, the
/// digit is in that column inside this band, so no other band can have it in that column
/// (vertical pointing; a placed digit is the special case of a single cell).
pub(super) static POINTING: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut cols = 0;
    while cols < 512 {
        let mut gone = 0u32;
        let mut s = 0;
        while s < 3 {
            let group = (cols as u32 >> (3 * s)) & 7;
            if group.count_ones() == 1 {
                gone |= group << (3 * s);
            }
            s += 1;
        }
        t[cols] = BAND & !(gone * SPREAD);
        cols += 1;
    }
    t
};

/// `CLAIMING[cols]`: given the columns where a digit may go in this band only (no other band
/// has it there), the band cells this band keeps.
///
/// Such a column must take the digit inside this band, i.e. inside the box of this band that
/// the column crosses, so the rest of that box loses the digit (box-line reduction along
/// columns; covers hidden singles in columns). When two claimed columns cross the same box,
/// both are kept here; the contradiction surfaces as the search goes on.
pub(super) static CLAIMING: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut cols = 0;
    while cols < 512 {
        let mut gone = 0u32;
        let mut s = 0;
        while s < 3 {
            let group = (cols as u32 >> (3 * s)) & 7;
            if group != 0 {
                gone |= (7 & !group) << (3 * s);
            }
            s += 1;
        }
        t[cols] = BAND & !(gone * SPREAD);
        cols += 1;
    }
    t
};

/// The 9-bit set of columns where a band mask has any cell.
#[inline(always)]
pub(super) fn columns(band: u32) -> usize {
    ((band | band >> 9 | band >> 18) & ROW) as usize
}

/// The 9-bit minirow occupancy of a band mask (bit `3 * row + stack`), the index of [`LOCKED`].
#[inline(always)]
pub(super) fn minirows(band: u32) -> usize {
    let occupied = ROW_STACKS[(band & ROW) as usize] as usize
        | (ROW_STACKS[(band >> 9 & ROW) as usize] as usize) << 3
        | (ROW_STACKS[(band >> 18 & ROW) as usize] as usize) << 6;
    occupied & 0x1FF // (lets the compiler drop the bounds check)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locked_examples() {
        // Everything open: every minirow is in some permutation.
        assert_eq!(LOCKED[0x1FF], BAND as u64 | 0x1FF << 32);
        // Row 0 only in stack 0: rows 1 and 2 lose stack 0, row 0 keeps only its stack-0 minirow.
        let occ = 0b111_111_001;
        assert_eq!(LOCKED[occ] as u32, 0x7 | (0x1F8 << 9) | (0x1F8 << 18));
        assert_eq!(LOCKED[occ] >> 32, 0b110_110_001);
        // Rows 0 and 1 both only in stack 0: impossible.
        assert_eq!(LOCKED[0b111_001_001], 0);
        // Each permutation alone leaves exactly itself.
        for bits in PERMUTATIONS {
            assert_eq!(PERMUTATION_COUNT[bits as usize], 1);
            assert_eq!(LOCKED[bits as usize] >> 32, bits as u64);
        }
        assert_eq!(PERMUTATION_COUNT[0x1FF], 6);
        assert_eq!(PERMUTATION_COUNT[occ], 2);
        assert_eq!(POPCOUNT[0b101_100_001], 4);
        // A row with nothing: impossible.
        assert_eq!(LOCKED[0b111_000_111], 0);
    }

    #[test]
    fn pointing_and_claiming_examples() {
        // Stack 0 confined to column 1, stack 1 has two columns, stack 2 empty.
        let cols = 0b000_011_010;
        assert_eq!(POINTING[cols], BAND & !(0b10 * SPREAD));
        // Claimed column 4 (stack 1): columns 3 and 5 lose the digit.
        assert_eq!(CLAIMING[1 << 4], BAND & !(0b101_000 * SPREAD));
        assert_eq!(CLAIMING[0], BAND);
    }

    #[test]
    fn helpers() {
        assert_eq!(columns(1 | 1 << 12 | 1 << 26), 0b1_0000_1001);
        assert_eq!(minirows(1 | 1 << 12 | 1 << 26), 0b100_010_001);
    }
}
