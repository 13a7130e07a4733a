//! The puzzle performed: the level's givens, the solution being written, and whether the
//! puzzle has more than one solution (then the app decides which one is solved: `several.rs`,
//! which may write another).

use crate::board::{Board, CELLS};
use crate::solver::fast;

/// The puzzle a performance writes.
pub(super) struct Puzzle {
    pub(super) givens: Board,
    /// The solution being written (another one, where the app marked digits of the first).
    pub(super) solution: Board,
    /// The puzzle has more than one solution: the app decides which one is solved.
    pub(super) several: bool,
}

impl Puzzle {
    pub(super) fn new(givens: Board, solution: Board) -> Puzzle {
        Puzzle {
            givens,
            solution,
            several: fast::count_solutions(&givens, 2) > 1,
        }
    }

    /// Whether `digit` written in `cell` is a wrong digit (an erasure never is).
    pub(super) fn wrong(&self, cell: usize, digit: u8) -> bool {
        digit != 0 && digit != self.solution.get(cell)
    }

    /// The cells of `board` that still differ from the solution.
    pub(super) fn unsolved(&self, board: &Board) -> usize {
        (0..CELLS)
            .filter(|&c| board.get(c) != self.solution.get(c))
            .count()
    }

    /// The last cell of `board` that differs from the solution, if any.
    pub(super) fn last_unsolved(&self, board: &Board) -> Option<usize> {
        (0..CELLS)
            .rev()
            .find(|&c| board.get(c) != self.solution.get(c))
    }
}
