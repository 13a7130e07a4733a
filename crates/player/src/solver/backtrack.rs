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

/// Where a cell's row, column and box sit in [`Units::used`]: row `r` at `r`, column `c` at
/// `9 + c`, box `b` at `18 + b`. Indices are masked with 31 on use, which lets the compiler drop
/// the bounds checks in the hot loop.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    cell: u8,
    row: u8,
    col: u8,
    bx: u8,
}

static SLOTS: [Slot; CELLS] = {
    let mut t = [Slot {
        cell: 0,
        row: 0,
        col: 0,
        bx: 0,
    }; CELLS];
    let mut c = 0;
    while c < CELLS {
        t[c] = Slot {
            cell: c as u8,
            row: row_of(c) as u8,
            col: 9 + col_of(c) as u8,
            bx: 18 + box_of(c) as u8,
        };
        c += 1;
    }
    t
};

/// The digits held by every row, column and box as 9-bit masks (bit d-1 for digit d), and the grid.
struct Units {
    used: [u16; 32],
    grid: [u8; CELLS],
}

impl Units {
    fn new(board: &Board) -> Self {
        let mut u = Units {
            used: [0; 32],
            grid: *board.cells(),
        };
        for (cell, slot) in SLOTS.iter().enumerate() {
            let d = board.get(cell);
            if d != 0 {
                u.toggle(*slot, 1 << (d - 1));
            }
        }
        u
    }

    #[inline(always)]
    fn candidates(&self, s: Slot) -> u16 {
        let u = &self.used;
        !(u[s.row as usize & 31] | u[s.col as usize & 31] | u[s.bx as usize & 31]) & ALL
    }

    #[inline(always)]
    fn toggle(&mut self, s: Slot, bit: u16) {
        self.used[s.row as usize & 31] ^= bit;
        self.used[s.col as usize & 31] ^= bit;
        self.used[s.bx as usize & 31] ^= bit;
    }

    /// The first empty cell with strictly the fewest candidates, and those candidates.
    #[inline]
    fn most_constrained(&self) -> (Slot, u16) {
        let mut best = (SLOTS[0], 0u16);
        let mut best_count = u32::MAX;
        for slot in SLOTS {
            if self.grid[slot.cell as usize] == 0 {
                let cand = self.candidates(slot);
                let n = cand.count_ones();
                if n < best_count {
                    best = (slot, cand);
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
    // One copy of the loop per kind of order, so the hot loop has no order test.
    if order == Order::Mrv {
        engine_for::<O, S, true>(board, order, budget, observer, sink)
    } else {
        engine_for::<O, S, false>(board, order, budget, observer, sink)
    }
}

/// [`engine`] for one kind of order: `MRV` picks each depth's cell as it goes, otherwise the
/// cells of all depths are fixed up front.
#[inline(always)]
fn engine_for<O: Observer, S: Sink, const MRV: bool>(
    board: &Board,
    order: Order,
    budget: u64,
    observer: &mut O,
    sink: &mut S,
) -> (Stats, bool) {
    let mut units = Units::new(board);
    let mut stats = Stats::default();

    // Per depth: the cell (fixed up front unless MRV), its untried candidates, and the bit
    // placed there.
    let mut slots = [Slot::default(); CELLS + 1];
    let mut n = 0;
    for (cell, slot) in SLOTS.iter().enumerate() {
        if board.get(cell) == 0 {
            slots[n] = *slot;
            n += 1;
        }
    }
    if order == Order::Static {
        slots[..n].sort_by_key(|&s| units.candidates(s).count_ones());
    }
    if n == 0 {
        sink.solution(&units.grid);
        return (stats, false);
    }
    let mut cands = [0u16; CELLS + 1];
    let mut placed = [0u16; CELLS + 1];

    let mut depth = 0usize;
    if MRV {
        (slots[0], cands[0]) = units.most_constrained();
    } else {
        cands[0] = units.candidates(slots[0]);
    }
    loop {
        let slot = slots[depth];
        if cands[depth] == 0 {
            // Dead end: take back the digit of the level above and try its next candidate.
            if depth == 0 {
                return (stats, false);
            }
            depth -= 1;
            let slot = slots[depth];
            let bit = placed[depth];
            units.toggle(slot, bit);
            if MRV {
                units.grid[slot.cell as usize] = 0;
            }
            stats.undos += 1;
            observer.undo(slot.cell as usize, bit.trailing_zeros() as u8 + 1);
            continue;
        }
        if stats.placements == budget {
            return (stats, true);
        }
        let bit = cands[depth] & cands[depth].wrapping_neg();
        cands[depth] ^= bit;
        placed[depth] = bit;
        units.toggle(slot, bit);
        let digit = bit.trailing_zeros() as u8 + 1;
        if MRV {
            // MRV looks for empty cells in the grid; fixed orders fill it in at a solution.
            units.grid[slot.cell as usize] = digit;
        }
        stats.placements += 1;
        observer.place(slot.cell as usize, digit);
        depth += 1;
        stats.max_depth = stats.max_depth.max(depth as u32);
        if depth == n {
            if !MRV {
                for d in 0..n {
                    units.grid[slots[d].cell as usize] = placed[d].trailing_zeros() as u8 + 1;
                }
            }
            if sink.solution(&units.grid) {
                return (stats, false);
            }
            // Keep searching for another solution: treat this one as a dead end.
            cands[depth] = 0;
            continue;
        }
        if MRV {
            (slots[depth], cands[depth]) = units.most_constrained();
        } else {
            cands[depth] = units.candidates(slots[depth]);
        }
    }
}
