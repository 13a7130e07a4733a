//! The fast solver: used to verify OCR'd boards, check uniqueness, generate levels, and for
//! instant fill. It does not report individual writes.
//!
//! Candidate bitmasks per cell, naked and hidden singles to a fixed point, then branching on the
//! cell with the fewest candidates (state copied per guess).

use crate::board::{Board, CELLS, Unit, box_of, col_of, row_of, unit_cells};

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
pub fn solutions(board: &Board, limit: u32) -> Solutions {
    let mut out = Solutions {
        count: 0,
        first: None,
        guesses: 0,
    };
    if limit == 0 {
        return out;
    }
    let mut st = State {
        cand: [ALL; CELLS],
        grid: [0; CELLS],
    };
    for cell in 0..CELLS {
        let d = board.get(cell);
        if d != 0 && !st.assign(cell, d) {
            return out;
        }
    }
    recurse(st, limit, &mut out);
    out
}

const ALL: u16 = 0x1FF;

#[derive(Clone, Copy)]
struct State {
    cand: [u16; CELLS],
    grid: [u8; CELLS],
}

struct Peers([[u8; 20]; CELLS]);

const PEERS: Peers = {
    let mut p = [[0u8; 20]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let mut n = 0;
        let mut o = 0;
        while o < CELLS {
            if o != c
                && (row_of(o) == row_of(c) || col_of(o) == col_of(c) || box_of(o) == box_of(c))
            {
                p[c][n] = o as u8;
                n += 1;
            }
            o += 1;
        }
        c += 1;
    }
    Peers(p)
};

impl State {
    /// Places `d` in `cell` and propagates naked singles. False on contradiction.
    fn assign(&mut self, cell: usize, d: u8) -> bool {
        let bit = 1u16 << (d - 1);
        if self.cand[cell] & bit == 0 {
            return false;
        }
        let mut stack = [(0u8, 0u8); CELLS];
        let mut top = 0;
        stack[top] = (cell as u8, d);
        top += 1;
        while top > 0 {
            top -= 1;
            let (c, d) = stack[top];
            let c = c as usize;
            if self.grid[c] == d {
                continue;
            }
            let bit = 1u16 << (d - 1);
            if self.cand[c] & bit == 0 {
                return false;
            }
            self.grid[c] = d;
            self.cand[c] = bit;
            for &p in &PEERS.0[c] {
                let p = p as usize;
                if self.cand[p] & bit != 0 {
                    if self.grid[p] != 0 {
                        return false;
                    }
                    self.cand[p] &= !bit;
                    match self.cand[p].count_ones() {
                        0 => return false,
                        1 => {
                            stack[top] = (p as u8, self.cand[p].trailing_zeros() as u8 + 1);
                            top += 1;
                        }
                        _ => {}
                    }
                }
            }
        }
        true
    }

    /// Hidden singles in every unit, until none is left. False on contradiction.
    fn hidden_singles(&mut self) -> bool {
        loop {
            let mut progress = false;
            for u in 0..27 {
                let unit = match u {
                    0..9 => Unit::Row(u),
                    9..18 => Unit::Col(u - 9),
                    _ => Unit::Box(u - 18),
                };
                let cells = unit_cells(unit);
                let (mut once, mut twice) = (0u16, 0u16);
                for &c in &cells {
                    twice |= once & self.cand[c];
                    once |= self.cand[c];
                }
                if once != ALL {
                    return false;
                }
                let mut singles = once & !twice;
                while singles != 0 {
                    let bit = singles & singles.wrapping_neg();
                    singles ^= bit;
                    let c = cells.iter().copied().find(|&c| self.cand[c] & bit != 0);
                    if let Some(c) = c
                        && self.grid[c] == 0
                    {
                        if !self.assign(c, bit.trailing_zeros() as u8 + 1) {
                            return false;
                        }
                        progress = true;
                    }
                }
            }
            if !progress {
                return true;
            }
        }
    }
}

fn recurse(mut st: State, limit: u32, out: &mut Solutions) {
    if !st.hidden_singles() {
        return;
    }
    let mut best = usize::MAX;
    let mut best_n = 10;
    for c in 0..CELLS {
        if st.grid[c] == 0 {
            let n = st.cand[c].count_ones();
            if n < best_n {
                best = c;
                best_n = n;
                if n == 2 {
                    break;
                }
            }
        }
    }
    if best == usize::MAX {
        out.count += 1;
        if out.first.is_none() {
            out.first = Board::from_cells(st.grid);
        }
        return;
    }
    let mut cands = st.cand[best];
    while cands != 0 {
        let bit = cands & cands.wrapping_neg();
        cands ^= bit;
        out.guesses += 1;
        let mut next = st;
        if next.assign(best, bit.trailing_zeros() as u8 + 1) {
            recurse(next, limit, out);
            if out.count >= limit {
                return;
            }
        }
    }
}
