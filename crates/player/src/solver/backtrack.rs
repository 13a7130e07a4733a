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
    let mut units = Units::new(board);
    // The empty cells, in row-major order.
    let mut slots = [Slot::default(); CELLS + 1];
    let mut n = 0;
    for (cell, slot) in SLOTS.iter().enumerate() {
        if board.get(cell) == 0 {
            slots[n] = *slot;
            n += 1;
        }
    }
    if n == 0 {
        sink.solution(&units.grid);
        return (Stats::default(), false);
    }
    match order {
        Order::Mrv => engine_mrv(&mut units, n, budget, observer, sink),
        Order::Static => {
            slots[..n].sort_by_key(|&s| units.candidates(s).count_ones());
            engine_fixed(&mut units, &slots[..n], budget, observer, sink)
        }
        Order::RowMajor => engine_fixed(&mut units, &slots[..n], budget, observer, sink),
    }
}

/// Per-depth arrays of the fixed-order loop: 128 long, indexed with `depth & 127`, so the
/// hot loop has no bounds checks (a board has at most 81 empty cells).
const DEPTHS: usize = 128;

/// The loop for a cell order fixed up front (`order`, one slot per depth).
///
/// Its inner loop runs over the candidate digits of one depth only: arriving at a depth, the
/// next depth's candidates without this depth's digit are known (`next`), so a digit that
/// leaves the next depth nothing (a dead end right below) costs a mask and its two events,
/// and the units change only on the way down and back up.
#[inline(always)]
fn engine_fixed<O: Observer, S: Sink>(
    units: &mut Units,
    order: &[Slot],
    budget: u64,
    observer: &mut O,
    sink: &mut S,
) -> (Stats, bool) {
    let n = order.len();
    let mut slots = [Slot::default(); DEPTHS];
    slots[..n].copy_from_slice(order);
    // Per depth: the untried candidates, the digit placed, the next depth's candidates before
    // this depth's digit, and which of those that digit takes away (all if the two cells share
    // a unit, none otherwise).
    let (mut cands, mut placed) = ([0u16; DEPTHS], [0u16; DEPTHS]);
    let mut next = [0u16; DEPTHS];
    let peer = peers_below(&slots[..n]);
    let mut stats = Stats::default();
    cands[0] = units.candidates(slots[0]);
    next[0] = units.candidates(slots[1]);
    let mut depth = 0;
    'depths: loop {
        let d = depth & (DEPTHS - 1);
        let slot = slots[d];
        let cell = slot.cell as usize;
        let mut untried = cands[d];
        while untried != 0 {
            if stats.placements == budget {
                return (stats, true);
            }
            let bit = untried & untried.wrapping_neg();
            untried ^= bit;
            let digit = bit.trailing_zeros() as u8 + 1;
            stats.placements += 1;
            stats.max_depth = stats.max_depth.max(d as u32 + 1);
            observer.place(cell, digit);
            if d + 1 < n {
                let below = next[d] & !(bit & peer[d]);
                if below != 0 {
                    units.toggle(slot, bit);
                    (cands[d], placed[d]) = (untried, bit);
                    depth = d + 1;
                    let d = depth & (DEPTHS - 1);
                    cands[d] = below;
                    next[d] = units.candidates(slots[(d + 1) & (DEPTHS - 1)]);
                    continue 'depths;
                }
            } else {
                placed[d] = bit;
                for (s, &bit) in slots[..n].iter().zip(&placed[..n]) {
                    units.grid[s.cell as usize] = bit.trailing_zeros() as u8 + 1;
                }
                if sink.solution(&units.grid) {
                    return (stats, false);
                }
            }
            // A dead end right below, or a solution to look past: take the digit back.
            stats.undos += 1;
            observer.undo(cell, digit);
        }
        // Every digit tried here: back up and take back the digit above.
        if d == 0 {
            return (stats, false);
        }
        depth = d - 1;
        let d = depth & (DEPTHS - 1);
        let (slot, bit) = (slots[d], placed[d]);
        units.toggle(slot, bit);
        stats.undos += 1;
        observer.undo(slot.cell as usize, bit.trailing_zeros() as u8 + 1);
    }
}

/// Per depth of `slots`, the digits a digit placed there takes from the next depth's cell:
/// all where the two cells share a unit, none otherwise.
fn peers_below(slots: &[Slot]) -> [u16; DEPTHS] {
    let mut peer = [0u16; DEPTHS];
    for (d, w) in slots.windows(2).enumerate() {
        let (a, b) = (w[0], w[1]);
        let shared = a.row == b.row || a.col == b.col || a.bx == b.bx;
        peer[d] = if shared { ALL } else { 0 };
    }
    peer
}

/// The loop for MRV: each depth's cell is the first with the fewest candidates once the depths
/// above are placed.
#[inline(always)]
fn engine_mrv<O: Observer, S: Sink>(
    units: &mut Units,
    n: usize,
    budget: u64,
    observer: &mut O,
    sink: &mut S,
) -> (Stats, bool) {
    let mut stats = Stats::default();
    // Per depth: its cell, its untried candidates, and the bit placed there.
    let mut slots = [Slot::default(); CELLS + 1];
    let mut cands = [0u16; CELLS + 1];
    let mut placed = [0u16; CELLS + 1];
    let mut depth = 0usize;
    (slots[0], cands[0]) = units.most_constrained();
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
            units.grid[slot.cell as usize] = 0;
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
        // MRV looks for empty cells in the grid.
        units.grid[slot.cell as usize] = digit;
        stats.placements += 1;
        observer.place(slot.cell as usize, digit);
        depth += 1;
        stats.max_depth = stats.max_depth.max(depth as u32);
        if depth == n {
            if sink.solution(&units.grid) {
                return (stats, false);
            }
            // Keep searching for another solution: treat this one as a dead end.
            cands[depth] = 0;
            continue;
        }
        (slots[depth], cands[depth]) = units.most_constrained();
    }
}
