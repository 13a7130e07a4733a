//! Depth-first guessing on top of [`State::propagate`], counting solutions up to a limit.

use super::Solutions;
use super::branch::{self, Branch};
use super::state::{State, at};
use super::swap::{self, Guess};
use super::triads::Triads;
use crate::board::{Board, CELLS};

/// Counts the solutions of `st` (after propagating it) up to `limit`, keeping the first if
/// `keep_first`. `free` (per band) are the cells a solution may fill differently: not givens,
/// not cells with an excluded digit.
pub(super) fn run(mut st: State, free: [u32; 3], limit: u32, keep_first: bool) -> Solutions {
    let mut search = Search {
        limit,
        keep_first,
        strong: false,
        free,
        path: [Guess::default(); CELLS],
        depth: 0,
        out: Solutions {
            count: 0,
            first: None,
            guesses: 0,
        },
    };
    if limit > 0 {
        descend(&mut st, &mut search);
    }
    search.out
}

/// A search under way: what it was asked, what it found.
struct Search {
    limit: u32,
    keep_first: bool,
    /// Whether the search has turned strong (see [`descend`]).
    strong: bool,
    /// Per band, the cells a solution may fill differently.
    free: [u32; 3],
    /// The cells guessed on the way to the current position (the first `depth`).
    path: [Guess; CELLS],
    depth: usize,
    out: Solutions,
}

/// The most open cells the first propagation may leave for a search to stay light: the hard
/// sets leave 54-61 (forum_hardest) and mostly 49-64 (magictour), the serg set 31-47.
const LIGHT_OPEN: u32 = 48;

/// Guesses after which a light search turns strong all the same.
const LIGHT_GUESSES: u64 = 32;

/// Propagates, then either records a solution or branches.
///
/// A search is *strong* or *light*. Strong: triad passes, and guesses on a digit's place in a
/// band or a stack ([`branch`]); on hard puzzles that takes about 40% fewer guesses than
/// guessing on cells, for more work per guess. Light: no triad passes, and each guess on the
/// first cell with two candidates, the cheapest node there is, which wins where the search is
/// short anyway: puzzles that the first propagation leaves mostly settled (at most
/// [`LIGHT_OPEN`] open cells), typically easy ones and those with several solutions (where
/// finding two takes a few guesses whatever the choice: serg, 20% less time). A light search
/// that runs past [`LIGHT_GUESSES`] guesses turns strong.
fn descend(st: &mut State, search: &mut Search) {
    let strong = search.strong || search.out.guesses >= LIGHT_GUESSES;
    let mut triads = Triads::default();
    let mut pairs = [0; 3];
    let propagated = if strong {
        st.propagate(true, &mut triads, &mut pairs)
    } else {
        st.propagate(false, &mut triads, &mut pairs)
    };
    if propagated.is_err() {
        return;
    }
    if search.out.guesses == 0 && !strong {
        // The root, propagated light: choose the search's kind (a strong search propagates
        // it again, with triad passes).
        let open: u32 = st.open.iter().map(|o| o.count_ones()).sum();
        search.strong = open > LIGHT_OPEN;
        if search.strong {
            return descend(st, search);
        }
    }
    if st.is_solved() {
        let out = &mut search.out;
        out.count += 1;
        if search.keep_first && out.first.is_none() {
            out.first = Board::from_cells(st.grid());
        }
        // Counting to two: a second solution read off the first ends the search.
        let path = &search.path[..search.depth];
        if out.count == 1 && search.limit == 2 && swap::second_solution(st, &search.free, path) {
            out.count = 2;
        }
        return;
    }
    if !strong {
        let band = (0..3).find(|&band| pairs[band] != 0);
        let cell = match band {
            Some(band) => 27 * band + pairs[band].trailing_zeros() as usize,
            None => first_open(st),
        };
        return guess_a_cell(st, cell, search);
    }
    let Some(Branch { digit, ways, count }) = branch::pick(&triads) else {
        let cell = first_open(st);
        return guess_a_cell(st, cell, search);
    };
    // Each way but the last in a copy; the last one in `st` itself.
    let Some((last, rest)) = ways[..count].split_last() else {
        return;
    };
    for way in rest {
        search.out.guesses += 1;
        let mut child = *st;
        child.restrict(digit, way);
        descend(&mut child, search);
        if search.out.count >= search.limit {
            return;
        }
    }
    search.out.guesses += 1;
    st.restrict(digit, last);
    descend(st, search)
}

/// The first open cell ([`CELLS`] if none).
fn first_open(st: &State) -> usize {
    match (0..3).find(|&band| st.open[band] != 0) {
        Some(band) => 27 * band + st.open[band].trailing_zeros() as usize,
        None => CELLS,
    }
}

/// Guesses each candidate of `cell` in turn: each but the last in a copy, the last in `st`
/// itself, which also learns that the earlier ones failed (or were counted) there.
fn guess_a_cell(st: &mut State, cell: usize, search: &mut Search) {
    if cell >= CELLS {
        return;
    }
    let all = digits_of(st, cell);
    let mut digits = all;
    // Nested guesses are on different open cells, so the path never outgrows the board.
    let depth = search.depth;
    let slot = depth.min(CELLS - 1);
    search.depth = slot + 1;
    while digits != 0 {
        let digit = digits.trailing_zeros() as usize;
        digits &= digits - 1;
        search.out.guesses += 1;
        search.path[slot] = Guess {
            cell: cell as u8,
            digit: digit as u8,
            others: (all & !(1 << digit)) as u16,
        };
        if digits == 0 {
            st.place(cell, digit);
            descend(st, search);
            break;
        }
        let mut child = *st;
        child.place(cell, digit);
        descend(&mut child, search);
        if search.out.count >= search.limit {
            break;
        }
        st.eliminate(cell, digit);
    }
    search.depth = depth;
}

/// The candidate digits of `cell` (bit `d` for 0-based digit `d`).
fn digits_of(st: &State, cell: usize) -> u32 {
    let band = cell / 27;
    let pos = cell % 27;
    let mut digits = 0;
    for digit in 0..9 {
        digits |= (st.cand[at(band, digit)] >> pos & 1) << digit;
    }
    digits
}
