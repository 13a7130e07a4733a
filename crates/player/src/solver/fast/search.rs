//! Depth-first guessing on top of [`State::propagate`], counting solutions up to a limit.

use super::Solutions;
use super::branch::{self, Branch};
use super::state::State;
use super::triads::Triads;
use crate::board::Board;

/// Counts the solutions of `st` (after propagating it) up to `limit`, keeping the first if
/// `keep_first`.
pub(super) fn run(st: State, limit: u32, keep_first: bool) -> Solutions {
    let mut search = Search {
        limit,
        keep_first,
        out: Solutions {
            count: 0,
            first: None,
            guesses: 0,
        },
    };
    if limit > 0 {
        descend(st, &mut search);
    }
    search.out
}

/// A search under way: what it was asked, what it found.
struct Search {
    limit: u32,
    keep_first: bool,
    out: Solutions,
}

/// Propagates, then either records a solution or branches on a digit's place in a band or a
/// stack ([`branch`]).
fn descend(mut st: State, search: &mut Search) {
    let mut triads = Triads::default();
    if st.propagate(&mut triads).is_err() {
        return;
    }
    if st.is_solved() {
        let out = &mut search.out;
        out.count += 1;
        if search.keep_first && out.first.is_none() {
            out.first = Board::from_cells(st.grid());
        }
        return;
    }
    let Some(Branch { digit, ways, count }) = branch::pick(&triads) else {
        return guess_a_cell(st, search);
    };
    // Each way but the last in a copy; the last one in `st` itself.
    let Some((last, rest)) = ways[..count].split_last() else {
        return;
    };
    for way in rest {
        search.out.guesses += 1;
        let mut child = st;
        child.restrict(digit, way);
        descend(child, search);
        if search.out.count >= search.limit {
            return;
        }
    }
    search.out.guesses += 1;
    st.restrict(digit, last);
    descend(st, search)
}

/// The fallback when no band or stack offers a choice, which a propagated position without
/// a contradiction never leaves (see [`branch::pick`]): the first open cell's candidates.
#[cold]
fn guess_a_cell(mut st: State, search: &mut Search) {
    let Some(band) = (0..3).find(|&band| st.open[band] != 0) else {
        return;
    };
    let cell = 27 * band + st.open[band].trailing_zeros() as usize;
    let mut digits = digits_of(&st, cell);
    while digits != 0 {
        let digit = digits.trailing_zeros() as usize;
        digits &= digits - 1;
        search.out.guesses += 1;
        let mut child = st;
        child.place(cell, digit);
        descend(child, search);
        if search.out.count >= search.limit {
            return;
        }
        st.eliminate(cell, digit);
    }
}

/// The candidate digits of `cell` (bit `d` for 0-based digit `d`).
fn digits_of(st: &State, cell: usize) -> u32 {
    let band = cell / 27;
    let pos = cell % 27;
    let mut digits = 0;
    for digit in 0..9 {
        digits |= (st.cand[9 * band + digit] >> pos & 1) << digit;
    }
    digits
}
