//! Search strategies that report every placement and undo to an [`Observer`].
//!
//! The phone performs a search, so a search is a stream of events, not just an answer. The
//! backtracking strategies ([`Strategy::RowMajor`], [`Strategy::Mrv`], [`Strategy::Static`])
//! call [`Observer::place`] exactly where the classic framework writes a digit into an empty
//! cell and [`Observer::undo`] exactly where it takes one back. Observers are generic
//! parameters, so the no-op observer `()` compiles away (see `benches/solvers.rs`).
//!
//! [`Strategy::Fast`] is a bitboard solver (singles, locked candidates, triads, guesses on a
//! digit's place in a band or stack or on a cell with two candidates) that does
//! not track individual writes; as an observed search it reports the fill of its solution, one
//! `place` per empty cell and no undos (the "instant fill" mode).

mod backtrack;
pub mod fast;

use crate::board::{Board, CELLS};
use std::time::{Duration, Instant};

/// Receives the search's writes, in order. Both methods default to doing nothing.
pub trait Observer {
    /// A digit is written into an empty cell (the phone's `setNum`).
    #[inline(always)]
    fn place(&mut self, _cell: usize, _digit: u8) {}
    /// A digit is taken back out of a cell (the phone's `cancelNum`).
    #[inline(always)]
    fn undo(&mut self, _cell: usize, _digit: u8) {}
}

/// The no-op observer.
impl Observer for () {}

impl<O: Observer + ?Sized> Observer for &mut O {
    #[inline(always)]
    fn place(&mut self, cell: usize, digit: u8) {
        (**self).place(cell, digit)
    }
    #[inline(always)]
    fn undo(&mut self, cell: usize, digit: u8) {
        (**self).undo(cell, digit)
    }
}

/// One search event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Event {
    Place { cell: u8, digit: u8 },
    Undo { cell: u8, digit: u8 },
}

/// An observer that keeps every event.
#[derive(Debug, Default, Clone)]
pub struct Recorder(pub Vec<Event>);

impl Observer for Recorder {
    fn place(&mut self, cell: usize, digit: u8) {
        self.0.push(Event::Place {
            cell: cell as u8,
            digit,
        });
    }
    fn undo(&mut self, cell: usize, digit: u8) {
        self.0.push(Event::Undo {
            cell: cell as u8,
            digit,
        });
    }
}

/// How the search chooses the next cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Strategy {
    /// The article's backtracker: empty cells in row-major order, digits 1..9 ascending.
    #[serde(rename = "rowmajor")]
    RowMajor,
    /// Minimum remaining values: the first cell (row-major) with the fewest candidates, recomputed after every placement.
    Mrv,
    /// Cells ordered once by their initial candidate count (ties row-major), then plain backtracking.
    Static,
    /// The fastest solver: bitboards, singles, locked candidates, triads (fills the solution directly).
    Fast,
}

impl Strategy {
    pub const ALL: [Strategy; 4] = [
        Strategy::RowMajor,
        Strategy::Mrv,
        Strategy::Static,
        Strategy::Fast,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Strategy::RowMajor => "rowmajor",
            Strategy::Mrv => "mrv",
            Strategy::Static => "static",
            Strategy::Fast => "fast",
        }
    }
}

impl std::fmt::Display for Strategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Strategy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Strategy::ALL
            .into_iter()
            .find(|st| st.name() == s)
            .ok_or_else(|| {
                format!("unknown strategy {s:?} (expected rowmajor, mrv, static or fast)")
            })
    }
}

/// Search settings.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Stop after this many placements (`None`: no limit).
    pub max_steps: Option<u64>,
    /// Also find out whether the solution is unique (a second, silent search for a second solution).
    pub check_unique: bool,
}

/// Execution counts of one search, up to its first solution.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Digits written into empty cells (`setNum` calls).
    pub placements: u64,
    /// Digits taken back (`cancelNum` calls).
    pub undos: u64,
    /// Deepest number of search-placed digits on the board at once.
    pub max_depth: u32,
    /// Wall time of the search (without the uniqueness check, except for [`Strategy::Fast`],
    /// which looks for a second solution in the same pass).
    pub elapsed: Duration,
}

impl Stats {
    /// The article's "execution count": one call of the recursive search per placement, plus the first.
    pub fn calls(&self) -> u64 {
        self.placements + 1
    }
}

/// How a search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Solved(Board),
    /// The givens admit no solution (they may still obey the rules).
    Unsolvable,
    /// `max_steps` placements were made without reaching a solution.
    BudgetExhausted,
}

/// The result of [`search`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchResult {
    pub outcome: Outcome,
    pub stats: Stats,
    /// `Some(true)` if exactly one solution exists, `Some(false)` if more (only with `check_unique`
    /// and a solved outcome; `None` when not asked or when the budget ran out first).
    pub unique: Option<bool>,
}

impl SearchResult {
    pub fn solution(&self) -> Option<Board> {
        match self.outcome {
            Outcome::Solved(b) => Some(b),
            _ => None,
        }
    }
}

/// Runs `strategy` on `board`, reporting its writes to `observer`.
///
/// The board must obey the rules (see [`Board::validate`]); a board that breaks them is reported
/// as [`Outcome::Unsolvable`].
pub fn search<O: Observer>(
    strategy: Strategy,
    board: &Board,
    options: &Options,
    observer: &mut O,
) -> SearchResult {
    let start = Instant::now();
    let order = match strategy {
        Strategy::RowMajor => backtrack::Order::RowMajor,
        Strategy::Mrv => backtrack::Order::Mrv,
        Strategy::Static => backtrack::Order::Static,
        Strategy::Fast => return fast_search(board, options, observer, start),
    };
    if board.validate().is_err() {
        return SearchResult {
            outcome: Outcome::Unsolvable,
            stats: Stats {
                elapsed: start.elapsed(),
                ..Stats::default()
            },
            unique: None,
        };
    }
    let budget = options.max_steps.unwrap_or(u64::MAX);
    let (outcome, mut stats) = backtrack::run(board, order, budget, observer);
    stats.elapsed = start.elapsed();
    let unique = match (&outcome, options.check_unique) {
        (Outcome::Solved(_), true) => backtrack::count(board, order, 2, budget).map(|n| n == 1),
        _ => None,
    };
    SearchResult {
        outcome,
        stats,
        unique,
    }
}

/// [`Strategy::Fast`] in one pass: the fast solver finds up to two solutions at once when asked
/// for uniqueness (no rule check first either: a board that breaks the rules has none).
fn fast_search<O: Observer>(
    board: &Board,
    options: &Options,
    observer: &mut O,
    start: Instant,
) -> SearchResult {
    let found = fast::solutions(board, if options.check_unique { 2 } else { 1 });
    let elapsed = start.elapsed();
    let Some(solution) = found.first else {
        return SearchResult {
            outcome: Outcome::Unsolvable,
            stats: Stats {
                elapsed,
                ..Stats::default()
            },
            unique: None,
        };
    };
    let mut stats = Stats {
        elapsed,
        ..Stats::default()
    };
    for cell in 0..CELLS {
        if board.get(cell) == 0 {
            observer.place(cell, solution.get(cell));
            stats.placements += 1;
        }
    }
    stats.max_depth = stats.placements as u32;
    SearchResult {
        outcome: Outcome::Solved(solution),
        stats,
        unique: options.check_unique.then_some(found.count == 1),
    }
}

#[cfg(test)]
mod tests;
