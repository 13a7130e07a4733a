//! An app without numbered levels (`--new-games`), as the Sudoku apps most people have installed
//! are (Sudoku.com, Sudoku Free, Brainium Sudoku, Fassor Sudoku, and of the apps read in
//! `../shared/real-apps/BEHAVIOUR.md`, DmytroShulha/sudoku's "New game -> difficulty" and
//! nextjedi/SudokuApp's "difficulty / New Game"): a home screen with "New Game" (and "Continue"
//! while a game is in progress), a sheet of difficulties, the game with its difficulty in the
//! header, a confirmation before a game in progress is thrown away, and a result screen with
//! "New Game".
//!
//! Each new game of a difficulty is a fresh puzzle drawn from the sim's seed: one of the
//! bundled levels of that difficulty's band ([`super::levels`], ordered by empty cells and then
//! by the MRV backtracker's placements, so a harder band needs more search), turned into a
//! random isomorph (rows, columns, bands and stacks permuted, maybe transposed, digits
//! relabelled): the same difficulty and one solution, but another puzzle.

use super::levels::{self, LEVEL_COUNT};
use super::seeds::splitmix;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sudoku_autoplay::board::Board;

/// The words of an app without levels' screens.
pub mod words {
    pub const NEW_GAME: &str = "New Game";
    pub const CONTINUE: &str = "Continue";
    pub const CANCEL: &str = "Cancel";
    pub const CONFIRM_TITLE: &str = "Start a new game?";
    pub const CONFIRM_SUB: &str = "Your progress will be lost.";
    pub const START: &str = "Start";
    pub const WON_TITLE: &str = "Excellent!";
    pub const HOME: &str = "Home";
    pub const AD: &str = "Ad";
    pub const INSTALL: &str = "INSTALL";
    pub const BANNER: &str = "Block Puzzle Jam - play free";

    /// The result screen's line under its title.
    pub fn won_sub(difficulty: &str) -> String {
        format!("You solved a {difficulty} puzzle")
    }
}

/// The difficulties on the sheet, easiest first (Sudoku.com's first five).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Difficulty {
    Easy,
    Medium,
    Hard,
    Expert,
    Master,
}

impl Difficulty {
    pub const ALL: [Difficulty; 5] = [
        Difficulty::Easy,
        Difficulty::Medium,
        Difficulty::Hard,
        Difficulty::Expert,
        Difficulty::Master,
    ];

    /// The word the app shows.
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "Easy",
            Difficulty::Medium => "Medium",
            Difficulty::Hard => "Hard",
            Difficulty::Expert => "Expert",
            Difficulty::Master => "Master",
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }

    /// The bundled levels (1-based, inclusive) this difficulty draws from: the levels in
    /// five bands of rising difficulty.
    pub fn band(self) -> (u32, u32) {
        let per = (LEVEL_COUNT / Self::ALL.len()) as u32;
        let first = self.index() as u32 * per + 1;
        (first, first + per - 1)
    }
}

/// Game number `n` (0-based) of `difficulty` in the app seeded `seed`: its givens.
pub fn puzzle(seed: u64, difficulty: Difficulty, n: u64) -> Board {
    let mix = splitmix(seed ^ splitmix(difficulty.index() as u64 + 1) ^ n.wrapping_mul(0x9E37));
    let mut rng = ChaCha8Rng::seed_from_u64(mix);
    let (first, last) = difficulty.band();
    for _ in 0..8 {
        let level = rng.random_range(first..=last);
        if let Some(board) = levels::level(level).and_then(|b| levels::isomorph(b, &mut rng)) {
            return relabelled(&board, &mut rng);
        }
    }
    // The bundled levels all solve (levels' tests), so an isomorph always exists.
    *levels::level(first).unwrap_or(&levels::levels()[0])
}

/// Where an app without levels stands.
#[derive(Debug, Clone, Default)]
pub struct NewGames {
    /// Games started per difficulty (the next one's number).
    pub(crate) started: [u64; 5],
    /// Games won since the app started.
    pub won: u64,
    /// The difficulty picked over a game in progress, while "Start a new game?" asks.
    pub(crate) pending: Option<Difficulty>,
}

/// `board` with its digits relabelled at random (an isomorph's solution reads 1..9 in its
/// first row; a new game's should not).
fn relabelled(board: &Board, rng: &mut ChaCha8Rng) -> Board {
    let mut map = [0u8, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    map[1..].shuffle(rng);
    let mut cells = [0u8; sudoku_autoplay::board::CELLS];
    for (c, v) in cells.iter_mut().enumerate() {
        *v = map[board.get(c) as usize];
    }
    Board::from_cells(cells).unwrap_or(*board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_autoplay::solver::{Options, Strategy, fast, search};

    #[test]
    fn each_new_game_has_one_solution_and_harder_ones_need_more_search() {
        let mut mean = Vec::new();
        for d in Difficulty::ALL {
            let mut total = 0u64;
            let games: Vec<Board> = (0..6).map(|n| puzzle(7, d, n)).collect();
            for g in &games {
                assert_eq!(fast::count_solutions(g, 2), 1, "{d:?} {g}");
                let opts = Options::default();
                total += search(Strategy::Mrv, g, &opts, &mut ()).stats.placements;
            }
            assert!(games.windows(2).any(|w| w[0] != w[1]), "{d:?}: new puzzles");
            mean.push(total / games.len() as u64);
        }
        assert!(mean.windows(2).all(|w| w[0] < w[1]), "{mean:?}");
        assert_eq!(
            puzzle(7, Difficulty::Hard, 3),
            puzzle(7, Difficulty::Hard, 3)
        );
        assert_ne!(
            puzzle(7, Difficulty::Hard, 3),
            puzzle(8, Difficulty::Hard, 3)
        );
    }
}
