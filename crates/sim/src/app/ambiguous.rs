//! Levels with more than one solution (`--several-solutions`), as apps make them that blank
//! cells of a full grid at random without checking that the solution stays unique (issue 35:
//! three of twelve real apps; their screenshots' givens have 2 to 5 solutions). The app keeps
//! the grid it blanked as its stored solution, which a completion check against the solution
//! (`rules::CompletionCheck::Solution`) compares the board with.

use super::levels;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use sudoku_autoplay::board::{Board, CELLS};
use sudoku_autoplay::solver::{self, Options, Strategy, fast};

/// Level `n` with givens blanked (in an order drawn from `seed`) until it has more than one
/// solution: its givens and the app's stored solution (the level's own).
pub fn level(n: u32, seed: u64) -> Option<(Board, Board)> {
    let givens = *levels::level(n)?;
    let solution = fast::solve(&givens)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (u64::from(n) << 40));
    let mut cells: Vec<usize> = (0..CELLS).filter(|&c| givens.get(c) != 0).collect();
    cells.shuffle(&mut rng);
    let mut board = givens;
    for cell in cells {
        board.set(cell, 0);
        if several(&board) {
            return Some((board, solution));
        }
    }
    None
}

/// Whether `board` is proven to have more than one solution.
pub fn several(board: &Board) -> bool {
    let opts = Options {
        max_steps: Some(5_000_000),
        check_unique: true,
    };
    solver::search(Strategy::Mrv, board, &opts, &mut ()).unique == Some(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blanked_levels_have_several_solutions_and_keep_the_stored_one() {
        for n in [1, 20, 45, 70] {
            let (givens, solution) = level(n, 7).unwrap();
            let original = *levels::level(n).unwrap();
            assert!(several(&givens), "level {n}");
            assert!(original.extends(&givens) && givens.filled() < original.filled());
            assert!(
                solution.is_solved() && solution.extends(&givens),
                "level {n}"
            );
            assert_eq!(level(n, 7), Some((givens, solution)), "seeded");
        }
        assert!(
            !several(levels::level(1).unwrap()),
            "the bundled levels are unique"
        );
    }
}
