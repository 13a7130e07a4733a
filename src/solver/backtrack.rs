//! The classic backtracking framework, iterative, on row/column/box bitmasks.
//!
//! One engine serves the three observed strategies; they differ only in how the cell of each
//! depth is chosen ([`Order`]). Digits are always tried ascending, skipping those already in the
//! cell's row, column or box.

use super::{Observer, Outcome, Stats};
use crate::board::{Board, CELLS, box_of, col_of, row_of};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Order {
    /// Empty cells in row-major order.
    RowMajor,
    /// Empty cells sorted once by initial candidate count, ties row-major.
    Static,
    /// At each depth, the first empty cell (row-major) with strictly the fewest candidates.
    Mrv,
}

const ALL: u16 = 0x1FF;

/// Rows, columns and boxes as 9-bit masks of the digits they hold (bit d-1 for digit d).
struct Units {
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
    grid: [u8; CELLS],
}

/// Per-cell unit indices, so the hot loop does no division.
struct CellUnits {
    row: [u8; CELLS],
    col: [u8; CELLS],
    bx: [u8; CELLS],
}

const CELL_UNITS: CellUnits = {
    let mut t = CellUnits {
        row: [0; CELLS],
        col: [0; CELLS],
        bx: [0; CELLS],
    };
    let mut c = 0;
    while c < CELLS {
        t.row[c] = row_of(c) as u8;
        t.col[c] = col_of(c) as u8;
        t.bx[c] = box_of(c) as u8;
        c += 1;
    }
    t
};

impl Units {
    fn new(board: &Board) -> Self {
        let mut u = Units {
            rows: [0; 9],
            cols: [0; 9],
            boxes: [0; 9],
            grid: *board.cells(),
        };
        for cell in 0..CELLS {
            let d = board.get(cell);
            if d != 0 {
                let bit = 1u16 << (d - 1);
                u.rows[row_of(cell)] |= bit;
                u.cols[col_of(cell)] |= bit;
                u.boxes[box_of(cell)] |= bit;
            }
        }
        u
    }

    #[inline(always)]
    fn candidates(&self, cell: usize) -> u16 {
        let r = CELL_UNITS.row[cell] as usize;
        let c = CELL_UNITS.col[cell] as usize;
        let b = CELL_UNITS.bx[cell] as usize;
        !(self.rows[r] | self.cols[c] | self.boxes[b]) & ALL
    }

    #[inline(always)]
    fn toggle(&mut self, cell: usize, bit: u16) {
        self.rows[CELL_UNITS.row[cell] as usize] ^= bit;
        self.cols[CELL_UNITS.col[cell] as usize] ^= bit;
        self.boxes[CELL_UNITS.bx[cell] as usize] ^= bit;
    }

    /// The first empty cell with strictly the fewest candidates, and those candidates.
    #[inline]
    fn most_constrained(&self) -> (usize, u16) {
        let mut best = (usize::MAX, 0u16);
        let mut best_count = u32::MAX;
        for cell in 0..CELLS {
            if self.grid[cell] == 0 {
                let cand = self.candidates(cell);
                let n = cand.count_ones();
                if n < best_count {
                    best = (cell, cand);
                    best_count = n;
                    if n == 0 {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// What to do with each solution found.
trait Sink {
    /// Returns true to stop the search.
    fn solution(&mut self, grid: &[u8; CELLS]) -> bool;
}

/// Runs the search to its first solution, reporting writes to `observer`.
pub(super) fn run<O: Observer>(
    board: &Board,
    order: Order,
    budget: u64,
    observer: &mut O,
) -> (Outcome, Stats) {
    struct First(Option<Board>);
    impl Sink for First {
        fn solution(&mut self, grid: &[u8; CELLS]) -> bool {
            self.0 = Board::from_cells(*grid);
            true
        }
    }
    let mut first = First(None);
    let (stats, exhausted) = engine(board, order, budget, observer, &mut first);
    let outcome = match first.0 {
        Some(b) => Outcome::Solved(b),
        None if exhausted => Outcome::BudgetExhausted,
        None => Outcome::Unsolvable,
    };
    (outcome, stats)
}

/// Counts solutions up to `limit`, silently. `None` if the budget ran out first.
pub(super) fn count(board: &Board, order: Order, limit: u32, budget: u64) -> Option<u32> {
    struct Counter {
        n: u32,
        limit: u32,
    }
    impl Sink for Counter {
        fn solution(&mut self, _grid: &[u8; CELLS]) -> bool {
            self.n += 1;
            self.n >= self.limit
        }
    }
    let mut counter = Counter { n: 0, limit };
    let (_, exhausted) = engine(board, order, budget, &mut (), &mut counter);
    (!exhausted || counter.n >= limit).then_some(counter.n)
}

/// The search loop. Returns the counts and whether the budget stopped it.
#[inline(always)]
fn engine<O: Observer, S: Sink>(
    board: &Board,
    order: Order,
    budget: u64,
    observer: &mut O,
    sink: &mut S,
) -> (Stats, bool) {
    let mut units = Units::new(board);
    let mut stats = Stats::default();

    // Fixed orders: the cells of each depth, known up front.
    let mut fixed: Vec<usize> = (0..CELLS).filter(|&c| board.get(c) == 0).collect();
    if order == Order::Static {
        fixed.sort_by_key(|&c| units.candidates(c).count_ones());
    }
    let n = fixed.len();
    if n == 0 {
        sink.solution(&units.grid);
        return (stats, false);
    }
    // Per depth: the cell, its untried candidates, and the bit placed there.
    let mut cells = [0usize; CELLS + 1];
    let mut cands = [0u16; CELLS + 1];
    let mut placed = [0u16; CELLS + 1];

    let choose = |units: &Units, depth: usize| -> (usize, u16) {
        if order == Order::Mrv {
            units.most_constrained()
        } else {
            let cell = fixed[depth];
            (cell, units.candidates(cell))
        }
    };

    let mut depth = 0usize;
    (cells[0], cands[0]) = choose(&units, 0);
    loop {
        if cands[depth] == 0 {
            // Dead end: take back the digit of the level above and try its next candidate.
            if depth == 0 {
                return (stats, false);
            }
            depth -= 1;
            let cell = cells[depth];
            let bit = placed[depth];
            units.toggle(cell, bit);
            units.grid[cell] = 0;
            stats.undos += 1;
            observer.undo(cell, bit.trailing_zeros() as u8 + 1);
            continue;
        }
        if stats.placements == budget {
            return (stats, true);
        }
        let cell = cells[depth];
        let bit = cands[depth] & cands[depth].wrapping_neg();
        cands[depth] ^= bit;
        placed[depth] = bit;
        units.toggle(cell, bit);
        let digit = bit.trailing_zeros() as u8 + 1;
        units.grid[cell] = digit;
        stats.placements += 1;
        observer.place(cell, digit);
        depth += 1;
        if depth as u32 > stats.max_depth {
            stats.max_depth = depth as u32;
        }
        if depth == n {
            if sink.solution(&units.grid) {
                return (stats, false);
            }
            // Keep searching for another solution: treat this one as a dead end.
            cands[depth] = 0;
            continue;
        }
        (cells[depth], cands[depth]) = choose(&units, depth);
    }
}
