//! A second solution read off the first: a rectangle of four cells whose two digits swap.
//!
//! In a solution, take a cell `(r1, c1)` holding `x` and another digit `y`: `y` sits in row `r1`
//! at some column `c2` and in column `c1` at some row `r2`. If `(r2, c2)` holds `x`, the four
//! cells hold `x y / y x`, and where they lie in two boxes (two rows of one band, or two
//! columns of one stack), swapping `x` and `y` in them leaves every row, column and box with
//! the same digits: another solution, as long as none of the four is a given. Where a count
//! stops at two, finding one such rectangle in the first solution ends the search.
//!
//! The rectangles looked for go through the cells guessed on the way to the first solution,
//! with the digits those cells could also have taken: the open cells most likely to have
//! another value in some solution.

use super::state::{State, at};
use super::tables::{ROW, SPREAD};

/// A guess on the way to a solution: a cell, the digit tried, the other digits it could take.
#[derive(Clone, Copy, Default)]
pub(super) struct Guess {
    pub(super) cell: u8,
    pub(super) digit: u8,
    pub(super) others: u16,
}

/// Whether the solution `st` has a rectangle through one of the `path`'s cells with one of
/// its other digits, all four cells in `free` (per band, the cells that may change).
pub(super) fn second_solution(st: &State, free: &[u32; 3], path: &[Guess]) -> bool {
    path.iter().any(|guess| {
        let mut others = guess.others;
        while others != 0 {
            let y = others.trailing_zeros() as usize;
            others &= others - 1;
            if rectangle(st, free, guess.cell as usize, guess.digit as usize, y) {
                return true;
            }
        }
        false
    })
}

/// Whether the solution `st` holds `x` at `cell` and a swappable rectangle with `y` (0-based
/// digits) through it, all in `free`.
fn rectangle(st: &State, free: &[u32; 3], cell: usize, x: usize, y: usize) -> bool {
    let (r1, c1) = (cell / 9, cell % 9);
    let lane = |digit: usize, row: usize| st.cand[at(row / 3, digit)] >> (9 * (row % 3)) & ROW;
    // Where `y` sits in row r1, and in column c1 (the band whose column has it).
    let c2 = lane(y, r1).trailing_zeros() as usize;
    let Some(band) = (0..3).find(|&b| st.cand[at(b, y)] & SPREAD << c1 != 0) else {
        return false;
    };
    let r2 = 3 * band + (st.cand[at(band, y)] & SPREAD << c1).trailing_zeros() as usize / 9;
    let is_free = |row: usize, col: usize| free[row / 3] >> (9 * (row % 3) + col) & 1 != 0;
    let two_boxes = (r1 / 3 == r2 / 3) != (c1 / 3 == c2 / 3);
    c2 < 9
        && two_boxes
        && lane(x, r1) >> c1 & 1 != 0
        && lane(x, r2) >> c2 & 1 != 0
        && is_free(r1, c1)
        && is_free(r1, c2)
        && is_free(r2, c1)
        && is_free(r2, c2)
}

#[cfg(test)]
mod tests {
    use super::super::{count_solutions, parse_line, solutions_excluding, solve};
    use super::*;
    use crate::board::Board;

    /// A rectangle of `grid` that swaps: `(r1, c1, r2, c2)`, two rows of a band.
    fn find_rectangle(grid: &Board) -> Option<(usize, usize, usize, usize)> {
        let at = |r: usize, c: usize| grid.get(9 * r + c);
        for r1 in 0..9 {
            for r2 in r1 + 1..3 * (r1 / 3) + 3 {
                for c1 in 0..9 {
                    for c2 in 0..9 {
                        let swaps = at(r1, c1) == at(r2, c2) && at(r1, c2) == at(r2, c1);
                        if c1 / 3 != c2 / 3 && swaps {
                            return Some((r1, c1, r2, c2));
                        }
                    }
                }
            }
        }
        None
    }

    #[test]
    fn a_rectangle_of_open_cells_is_a_second_solution_and_a_given_stops_it() {
        let (grid, (r1, c1, r2, c2)) = (0..100)
            .map(|seed| solve(&crate::solver::tests::seed_board(seed)).unwrap())
            .find_map(|grid| Some((grid, find_rectangle(&grid)?)))
            .expect("a grid with a rectangle among 100");
        let cells = [9 * r1 + c1, 9 * r1 + c2, 9 * r2 + c1, 9 * r2 + c2];
        let (st, _) = parse_line(&grid.cells().map(|d| b'0' + d));
        let (x, y) = (
            grid.get(cells[0]) as usize - 1,
            grid.get(cells[1]) as usize - 1,
        );
        let guess = Guess {
            cell: cells[0] as u8,
            digit: x as u8,
            others: 1 << y,
        };
        let free_of = |open: &[usize]| {
            let mut free = [0u32; 3];
            for &cell in open {
                free[cell / 27] |= 1 << (cell % 27);
            }
            free
        };
        assert!(second_solution(&st, &free_of(&cells), &[guess]));
        // One of the four a given, or the other digit not among the guess's: no swap.
        for given in 0..4 {
            let mut open = cells.to_vec();
            open.remove(given);
            assert!(!second_solution(&st, &free_of(&open), &[guess]));
        }
        // Any other digit of the cell makes a rectangle of other cells, which are not free.
        let other = Guess {
            others: 0x1FF & !(1 << y) & !(1 << x),
            ..guess
        };
        assert!(!second_solution(&st, &free_of(&cells), &[other]));
        // The puzzle with the four cells open has exactly the two solutions.
        let mut puzzle = grid;
        for &cell in &cells {
            puzzle.set(cell, 0);
        }
        assert_eq!(count_solutions(&puzzle, 2), 2);
        assert_eq!(count_solutions(&puzzle, 3), 2);
        // Without `y` in the first cell (as an app that marked it wrong says), only one.
        let excluded = [(cells[0], y as u8 + 1)];
        assert_eq!(solutions_excluding(&puzzle, &excluded, 2).count, 1);
    }
}
