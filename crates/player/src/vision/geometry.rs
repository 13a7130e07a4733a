//! Where the 9x9 grid is on the screen: 10 column and 10 row boundaries.

use serde::{Deserialize, Serialize};

/// The board's position in a frame. Boundaries are the centres of the grid lines, in pixels,
/// ascending; cell `(r, c)` lies between `cols[c]..cols[c+1]` and `rows[r]..rows[r+1]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoardGeometry {
    /// x of the 10 vertical grid lines, left to right.
    pub cols: [u32; 10],
    /// y of the 10 horizontal grid lines, top to bottom.
    pub rows: [u32; 10],
    /// Thickness of the thickest grid line seen, in pixels (used to keep lines out of cell crops).
    pub line_width: u32,
}

/// A rectangle `[x0, y0, x1, y1)` in pixels.
pub type Bounds = [u32; 4];

impl BoardGeometry {
    /// The outer rectangle `[x0, y0, x1, y1]` (outer line centres).
    pub fn rect(&self) -> Bounds {
        [self.cols[0], self.rows[0], self.cols[9], self.rows[9]]
    }

    /// Mean cell size (width, height) in pixels.
    pub fn cell_size(&self) -> (f32, f32) {
        (
            (self.cols[9] - self.cols[0]) as f32 / 9.0,
            (self.rows[9] - self.rows[0]) as f32 / 9.0,
        )
    }

    /// The centre of cell `cell` (0..81, row-major): where to tap it.
    pub fn cell_center(&self, cell: usize) -> (u32, u32) {
        let (r, c) = (cell / 9 % 9, cell % 9);
        (
            (self.cols[c] + self.cols[c + 1]) / 2,
            (self.rows[r] + self.rows[r + 1]) / 2,
        )
    }

    /// All 81 cell centres, row-major.
    pub(crate) fn cell_centers(&self) -> [(u32, u32); 81] {
        std::array::from_fn(|i| self.cell_center(i))
    }

    /// Cell `cell` between its grid lines' centres.
    pub fn cell_bounds(&self, cell: usize) -> Bounds {
        let (r, c) = (cell / 9 % 9, cell % 9);
        [
            self.cols[c],
            self.rows[r],
            self.cols[c + 1],
            self.rows[r + 1],
        ]
    }

    /// The inside of cell `cell` with the grid lines and a small margin left out.
    pub fn cell_inner(&self, cell: usize) -> Bounds {
        let (r, c) = (cell / 9 % 9, cell % 9);
        let inset = |a: u32, b: u32| {
            let size = b.saturating_sub(a);
            let m = (self.line_width / 2 + 1 + size / 20).min(size / 4);
            (a + m, b.saturating_sub(m))
        };
        let (x0, x1) = inset(self.cols[c], self.cols[c + 1]);
        let (y0, y1) = inset(self.rows[r], self.rows[r + 1]);
        [x0, y0, x1.max(x0 + 1), y1.max(y0 + 1)]
    }

    /// Checks that boundaries ascend with cells at least 4 pixels and fit in a `width x height` frame.
    pub fn check(&self, width: u32, height: u32) -> Result<(), String> {
        for (name, v, limit) in [("cols", &self.cols, width), ("rows", &self.rows, height)] {
            if v.windows(2).any(|w| w[1] < w[0] + 4) {
                return Err(format!("{name} must ascend by at least 4 pixels: {v:?}"));
            }
            if v[9] >= limit {
                return Err(format!("{name} {v:?} run past the frame's {limit} pixels"));
            }
        }
        Ok(())
    }
}
