//! Connected-component labelling, the crate's one: the 8-connected shapes of the pixels of a
//! plane that pass a test (ink at least this strong, grey below this level, ...).
//!
//! Run-based: each row's runs of passing pixels are joined, through a union-find, with the runs
//! of the row above that they touch (one pixel of slack for diagonals); a shape is then its runs.
//! Scanning rows for runs is one pass over the pixels, with no per-pixel stack as a flood fill
//! needs, and the buffers are kept across calls (the keypad search labels a plane at 40 levels).
//! `imageproc::region_labelling` does the same job pixel by pixel into a `u32` image, which our
//! callers would then scan again for boxes and areas.

/// A connected shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blob {
    /// Bounding box `[x0, y0, x1, y1)`, in the plane's pixels.
    pub bbox: [u32; 4],
    /// Pixels in the shape.
    pub area: u32,
    /// The shape's pixels as runs `(y, x0, x1)` (`x1` exclusive), in scan order.
    pub runs: Vec<(u32, u32, u32)>,
}

/// Labels shapes; keeps its buffers from one plane to the next.
#[derive(Debug, Default)]
pub struct Labeller {
    /// Runs `(y, x0, x1)`, row by row.
    runs: Vec<(u32, u32, u32)>,
    /// Union-find parent per run.
    parent: Vec<u32>,
}

impl Labeller {
    /// Finds the runs of the pixels of `rect = [x0, y0, x1, y1)` (inside the plane) where
    /// `inside` holds, in a `width`-wide row-major plane, and joins the runs that touch.
    pub fn label(
        &mut self,
        plane: &[u8],
        width: usize,
        [x0, y0, x1, y1]: [u32; 4],
        inside: impl Fn(u8) -> bool,
    ) {
        self.runs.clear();
        self.parent.clear();
        let mut prev = 0..0;
        for y in y0..y1 {
            let row = &plane[y as usize * width..][x0 as usize..x1 as usize];
            let start = self.runs.len();
            let mut x = 0;
            while x < row.len() {
                if !inside(row[x]) {
                    x += 1;
                    continue;
                }
                let a = x;
                while x < row.len() && inside(row[x]) {
                    x += 1;
                }
                self.runs.push((y, x0 + a as u32, x0 + x as u32));
            }
            let cur = start..self.runs.len();
            self.parent.extend(cur.start as u32..cur.end as u32);
            // Join with the previous row's runs that touch (8-connected: one pixel of slack).
            let mut j = prev.start;
            for i in cur.clone() {
                let (_, a0, a1) = self.runs[i];
                while j < prev.end && self.runs[j].2 < a0 {
                    j += 1;
                }
                let mut k = j;
                while k < prev.end && self.runs[k].1 <= a1 {
                    self.union(i as u32, k as u32);
                    k += 1;
                }
            }
            prev = cur;
        }
    }

    /// The shapes of the last [`Labeller::label`] for which `keep(bbox, area)` holds, in the
    /// scan order of their first pixels.
    pub fn blobs(&mut self, keep: impl Fn([u32; 4], u32) -> bool) -> Vec<Blob> {
        let n = self.runs.len();
        let mut stats: Vec<([u32; 4], u32)> = Vec::new();
        let mut index = vec![u32::MAX; n];
        for i in 0..n {
            let root = self.find(i as u32) as usize;
            if index[root] == u32::MAX {
                index[root] = stats.len() as u32;
                stats.push(([u32::MAX, u32::MAX, 0, 0], 0));
            }
            let (y, a, b) = self.runs[i];
            let s = &mut stats[index[root] as usize];
            s.0 = [
                s.0[0].min(a),
                s.0[1].min(y),
                s.0[2].max(b),
                s.0[3].max(y + 1),
            ];
            s.1 += b - a;
            index[i] = index[root];
        }
        let mut out: Vec<Option<Blob>> = stats
            .into_iter()
            .map(|(bbox, area)| {
                keep(bbox, area).then(|| Blob {
                    bbox,
                    area,
                    runs: Vec::new(),
                })
            })
            .collect();
        for (i, &run) in self.runs.iter().enumerate() {
            if let Some(b) = out[index[i] as usize].as_mut() {
                b.runs.push(run);
            }
        }
        out.into_iter().flatten().collect()
    }

    fn find(&mut self, mut i: u32) -> u32 {
        while self.parent[i as usize] != i {
            let p = self.parent[i as usize];
            self.parent[i as usize] = self.parent[p as usize];
            i = p;
        }
        i
    }

    fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            let (lo, hi) = (ra.min(rb), ra.max(rb));
            self.parent[hi as usize] = lo;
        }
    }
}

/// The share of a `w` x `h` box that its holes take: the pixels outside the ink that no path
/// of them leads from to the box's edge. Ink is 8-connected, as [`Labeller`] joins it, so the
/// paths out go in 4 directions: a ring whose stroke steps diagonally is still closed. A ring,
/// an O, a 0, a square outline enclose most of their box; a C, an X, an arrow none.
pub fn hole_share(ink: &[bool], w: usize, h: usize) -> f32 {
    if w == 0 || h == 0 || ink.len() != w * h {
        return 0.0;
    }
    // Reached from the edge: every pixel outside the ink on the edge, then their neighbours.
    let mut out = vec![false; w * h];
    let mut stack: Vec<usize> = (0..w * h)
        .filter(|&i| !ink[i] && (i % w == 0 || i % w == w - 1 || i / w == 0 || i / w == h - 1))
        .collect();
    for &i in &stack {
        out[i] = true;
    }
    while let Some(i) = stack.pop() {
        let (x, y) = (i % w, i / w);
        let next = [
            (x > 0).then(|| i - 1),
            (x + 1 < w).then(|| i + 1),
            (y > 0).then(|| i - w),
            (y + 1 < h).then(|| i + w),
        ];
        for j in next.into_iter().flatten() {
            if !ink[j] && !out[j] {
                out[j] = true;
                stack.push(j);
            }
        }
    }
    let holes = (0..w * h).filter(|&i| !ink[i] && !out[i]).count();
    holes as f32 / (w * h) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holes_are_what_the_ink_closes_in() {
        let grid = |rows: &[&str]| -> (Vec<bool>, usize, usize) {
            let ink = rows
                .iter()
                .flat_map(|r| r.bytes().map(|b| b == b'#'))
                .collect();
            (ink, rows[0].len(), rows.len())
        };
        // A ring whose stroke steps diagonally: closed, its inside a hole.
        let (ring, w, h) = grid(&[".##.", "#..#", "#..#", ".##."]);
        assert_eq!(hole_share(&ring, w, h), 4.0 / 16.0);
        // A C: open on the right, no hole.
        let (c, w, h) = grid(&["###", "#..", "###"]);
        assert_eq!(hole_share(&c, w, h), 0.0);
        // An X, and a shape with two holes.
        let (x, w, h) = grid(&["#.#", ".#.", "#.#"]);
        assert_eq!(hole_share(&x, w, h), 0.0);
        let (eight, w, h) = grid(&["###", "#.#", "###", "#.#", "###"]);
        assert_eq!(hole_share(&eight, w, h), 2.0 / 15.0);
    }

    #[test]
    fn diagonal_neighbours_join_and_shapes_come_in_scan_order() {
        // A "V" whose arms meet only diagonally, a dot, and a bar to the right of the dot.
        #[rustfmt::skip]
        let plane: [u8; 6 * 5] = [
            1, 0, 0, 0, 1, 0,
            0, 1, 0, 1, 0, 0,
            0, 0, 1, 0, 0, 0,
            1, 0, 0, 0, 1, 1,
            0, 0, 0, 0, 0, 0,
        ];
        let mut l = Labeller::default();
        l.label(&plane, 6, [0, 0, 6, 5], |v| v == 1);
        let blobs = l.blobs(|_, _| true);
        let boxes: Vec<([u32; 4], u32)> = blobs.iter().map(|b| (b.bbox, b.area)).collect();
        assert_eq!(
            boxes,
            [([0, 0, 5, 3], 5), ([0, 3, 1, 4], 1), ([4, 3, 6, 4], 2)]
        );
        assert_eq!(blobs[2].runs, [(3, 4, 6)]);
        // A window of the plane, and a filter.
        l.label(&plane, 6, [2, 1, 6, 5], |v| v == 1);
        let big = l.blobs(|_, area| area >= 2);
        assert_eq!(
            big.iter().map(|b| b.bbox).collect::<Vec<_>>(),
            [[2, 1, 4, 3], [4, 3, 6, 4]]
        );
    }
}
