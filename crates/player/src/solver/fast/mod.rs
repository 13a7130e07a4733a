//! The fast solver: used to verify OCR'd boards, check uniqueness, generate levels, and for
//! instant fill. It does not report individual writes.
//!
//! Design (after JCZSolve, written from its description, and tdoku's triads and branching):
//! the board is 27 bitboards, one per digit and band of three rows (`state`); table-driven
//! locked candidates, pointing and claiming narrow them, rows and cells left with one candidate
//! place digits (`tables` explains the bit tricks). Propagation is branch-light: a digit-band
//! is redone when it differs from its copy as last settled, and every update does the same work
//! whether or not it finds something (mispredicted branches cost more than the few extra
//! instructions). When that stalls, a strong search also reasons on triads, the three cells of
//! a minirow or minicolumn (`triads`), then guesses on a digit's place in a band or a stack
//! (`branch`); a light one guesses on a cell with two candidates (`search` says which search
//! runs when). Each guess copies the small state. Counting to two, a rectangle of open cells
//! whose digits swap in the first solution is the second (`swap`).
//!
//! Figures against tdoku, JSolve and the `sudoku` crate 0.8 (a JCZSolve port) are in
//! `docs/performance.md` (`benches/peers/run.sh`, `cargo bench --bench solvers`).

mod branch;
mod search;
mod state;
mod swap;
mod tables;
mod triads;

use crate::board::{Board, CELLS, ParseError};
use state::{State, at};
use tables::{BAND, ROW, ROW_STACKS, SPREAD, columns};

/// Result of a solution count: how many (capped at the limit) and the first one found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Solutions {
    pub count: u32,
    pub first: Option<Board>,
    /// Branching decisions taken.
    pub guesses: u64,
}

/// The first solution, or `None` if there is none.
pub fn solve(board: &Board) -> Option<Board> {
    solutions(board, 1).first
}

/// The number of solutions, counting at most `limit`.
pub fn count_solutions(board: &Board, limit: u32) -> u32 {
    solutions(board, limit).count
}

/// Counts solutions up to `limit` (use 2 to check uniqueness) and keeps the first.
///
/// A board that breaks the rules has no solution (count 0).
pub fn solutions(board: &Board, limit: u32) -> Solutions {
    let (st, free) = state_of(board);
    search::run(st, free, limit, true)
}

/// The position of `board`'s givens, not yet propagated, and its open cells per band.
fn state_of(board: &Board) -> (State, [u32; 3]) {
    parse_line(&board.cells().map(|d| b'0' + d))
}

/// Whether `board` has no solution (a repeated digit included).
pub fn has_no_solution(board: &Board) -> bool {
    solutions(board, 1).count == 0
}

/// [`solutions`] of `board` where no cell of `excluded` holds its digit (`(cell, digit)`: "not
/// this digit here", as an app that marks a digit wrong says).
pub fn solutions_excluding(board: &Board, excluded: &[(usize, u8)], limit: u32) -> Solutions {
    let (mut st, mut free) = state_of(board);
    for &(cell, d) in excluded {
        if cell < CELLS && (1..=9).contains(&d) {
            st.eliminate(cell, d as usize - 1);
            // A swap could put the excluded digit back.
            free[cell / 27] &= !(1 << (cell % 27));
        }
    }
    search::run(st, free, limit, true)
}

/// A solution of `board` other than `solution` (one of its solutions), if it has one: the one
/// without `solution`'s digit in the first cell where one differs.
pub fn another_solution(board: &Board, solution: &Board) -> Option<Board> {
    (0..CELLS)
        .filter(|&c| board.get(c) == 0)
        .find_map(|c| solutions_excluding(board, &[(c, solution.get(c))], 1).first)
}

/// `puzzle` with its givens taken out in cell order (or the reverse) until it has `at_least`
/// solutions: a puzzle with several, for the tests.
#[cfg(test)]
pub(crate) fn thinned(puzzle: &Board, at_least: u32, reverse: bool) -> Board {
    let mut board = *puzzle;
    let order: Vec<usize> = if reverse {
        (0..CELLS).rev().collect()
    } else {
        (0..CELLS).collect()
    };
    for c in order {
        board.set(c, 0);
        if count_solutions(&board, at_least) >= at_least {
            break;
        }
    }
    board
}

/// [`solutions`] straight from an 81-byte puzzle line (`1`-`9`; `.` or `0` for empty), parse
/// included.
pub fn solutions_line(line: &[u8], limit: u32) -> Result<Solutions, ParseError> {
    let (st, free) = parse_line(checked_line(line)?);
    Ok(search::run(st, free, limit, true))
}

/// The number of solutions of an 81-byte puzzle line, counting at most `limit`, without
/// keeping any: the throughput entry for puzzle files.
pub fn count_line(line: &[u8], limit: u32) -> Result<u32, ParseError> {
    let (st, free) = parse_line(checked_line(line)?);
    Ok(search::run(st, free, limit, false).count)
}

/// An 81-byte puzzle line of `1`-`9`, `.` and `0`, or why it is not one.
fn checked_line(line: &[u8]) -> Result<&[u8; CELLS], ParseError> {
    let line: &[u8; CELLS] = line
        .try_into()
        .map_err(|_| ParseError::CellCount { found: line.len() })?;
    // Every byte in `.` to `9` but `/` (a loop the compiler turns into vector code).
    let bad = line.iter().fold(false, |bad, &ch| {
        bad | (ch.wrapping_sub(b'.') > 11) | (ch == b'/')
    });
    let first_bad = || {
        let mut cells = line.iter().enumerate();
        cells.find(|&(_, &ch)| !matches!(ch, b'1'..=b'9' | b'.' | b'0'))
    };
    if let Some((cell, &ch)) = bad.then(first_bad).flatten() {
        return Err(ParseError::BadChar {
            line: 1,
            column: cell + 1,
            ch: ch as char,
        });
    }
    Ok(line)
}

/// The position of the givens of a checked puzzle line, not yet propagated, but with what
/// each given settles at once: its digit leaves the rest of its row, column and box (a unit
/// with two givens of a digit keeps neither: no solution), and no other digit stays in its
/// cell. Done here for all givens in a few word operations, it spares the first sweeps most of
/// their work (17_clue: 12% less time). With it, the open cells per band.
fn parse_line(line: &[u8; CELLS]) -> (State, [u32; 3]) {
    // Per band, the open cells (`.` and `0` are below `1`: one compare per cell, no branch),
    // then the cells of each digit, a given at a time (slot `ch & 15`). A write per cell
    // instead, to slots read back at once, made every cell wait for the one before (17_clue's
    // parse 27% slower).
    let mut slots = [[0u32; 3]; 16];
    let mut open = [0u32; 3];
    for (band, cells) in line.chunks_exact(27).enumerate() {
        let givens = cells
            .iter()
            .enumerate()
            .fold(0u32, |m, (pos, &ch)| m | ((ch > b'0') as u32) << pos);
        open[band] = !givens & BAND;
        let mut rest = givens;
        while rest != 0 {
            let pos = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            slots[(cells[pos] & 15) as usize][band] |= 1 << pos;
        }
    }
    let mut st = State::new();
    for digit in 0..9 {
        let given = slots[digit + 1];
        let cols = given.map(|g| columns(g) as u32);
        for band in 0..3 {
            let g = given[band];
            let others = !open[band] & !g;
            let taken = cols[(band + 1) % 3] | cols[(band + 2) % 3];
            let boxes = BOX_CELLS[ROW_STACKS[cols[band] as usize] as usize];
            st.cand[at(band, digit)] = (GIVEN_ROW[(g & ROW) as usize] as u32
                | (GIVEN_ROW[(g >> 9 & ROW) as usize] as u32) << 9
                | (GIVEN_ROW[(g >> 18) as usize] as u32) << 18)
                & !others
                & !(taken * SPREAD)
                & (!boxes | g);
        }
    }
    (st, open)
}

/// The band cells of the boxes in a set of stacks (bit `stack`).
static BOX_CELLS: [u32; 8] = {
    let mut t = [0u32; 8];
    let mut stacks = 0;
    while stacks < 8 {
        let mut s = 0;
        while s < 3 {
            if stacks & 1 << s != 0 {
                t[stacks] |= (7 << (3 * s)) * SPREAD;
            }
            s += 1;
        }
        stacks += 1;
    }
    t
};

/// For one row of a digit-band, what its givens of that digit leave of it: the whole row
/// without any, the given's cell with one, nothing with two or more (no solution).
static GIVEN_ROW: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut row = 0;
    while row < 512 {
        t[row] = match row.count_ones() {
            0 => ROW as u16,
            1 => row as u16,
            _ => 0,
        };
        row += 1;
    }
    t
};

#[cfg(test)]
mod tests;
