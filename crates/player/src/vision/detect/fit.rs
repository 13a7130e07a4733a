//! Step 4 of board detection: windows of 10 evenly spaced grid positions fitted on one axis.

use super::{AxisFit, Line};

/// The windows of 10 grid positions among the lines passing `keep` (axis length `size`),
/// best first.
pub(super) fn fit_axis(
    all: &[Line],
    (min_cell, max_cell): (f32, f32),
    size: usize,
    keep: impl Fn(&Line) -> bool,
) -> Vec<AxisFit> {
    let axis = AxisLines::new(all, keep);
    let pos = &axis.pos;
    let mut fits: Vec<AxisFit> = Vec::new();
    for i in 0..pos.len() {
        for j in i + 1..pos.len() {
            let d = pos[j] - pos[i];
            if d > max_cell * 3.0 {
                break;
            }
            // The pair as neighbouring cell lines, or as neighbouring box lines.
            for step in [1usize, 3] {
                let cell = d / step as f32;
                if cell < min_cell || cell > max_cell {
                    continue;
                }
                let tol = (0.12 * cell).max(1.5);
                let (at, mid) = axis.walk(i, cell, tol);
                // Line j must be where the hypothesis puts it.
                let j_slot = 18 + step;
                if at[j_slot][0] != Some(j) && at[j_slot][1] != Some(j) {
                    continue;
                }
                // Windows of 10 containing both anchors; box anchors sit on box positions.
                for m in 18usize.saturating_sub(9)..=18 {
                    if m + 9 < j_slot || m + 9 >= 37 {
                        continue;
                    }
                    if step == 3 && (18 - m) % 3 != 0 {
                        continue;
                    }
                    // Boxes drawn apart make bands between boxes only: beside a cell line,
                    // the line beyond is something else (the edge of a row of digit discs).
                    let cell_line = |n: usize| !n.is_multiple_of(3);
                    let window: [[Option<usize>; 2]; 10] =
                        std::array::from_fn(|n| match at[m + n] {
                            [q, Some(_)] if cell_line(n) => [q, None],
                            found => found,
                        });
                    let mids: [f32; 10] = std::array::from_fn(|n| match at[m + n] {
                        [Some(q), Some(_)] if cell_line(n) => axis.pos[q],
                        _ => mid[m + n],
                    });
                    let Some(fit) = window_fit(&window, &mids, &axis.lines, cell, size) else {
                        continue;
                    };
                    if axis.bigger_grid(&fit, &window, i, tol) {
                        continue;
                    }
                    let fit = AxisFit {
                        found: window.map(|f| f.map(|q| q.map(|q| axis.idx[q]))),
                        ..fit
                    };
                    if !fits.iter().any(|f| {
                        (f.pos[0] - fit.pos[0]).abs() < 2.0 && (f.cell - fit.cell).abs() < 1.0
                    }) {
                        fits.push(fit);
                    }
                }
            }
        }
    }
    fits.sort_by(|a, b| b.score.total_cmp(&a.score));
    fits
}

/// `fit` without its cell lines that `keep` refuses, their places interpolated again, or `fit`
/// itself when they are all kept (or too few would be left). `lines` are those `fit.found`
/// points into; `size` the axis length.
pub(super) fn without_cell_lines(
    fit: &AxisFit,
    lines: &[Line],
    size: usize,
    keep: impl Fn(&Line) -> bool,
) -> AxisFit {
    let mut window = fit.found;
    for (n, found) in window.iter_mut().enumerate() {
        if !n.is_multiple_of(3) && found[0].is_some_and(|q| !keep(&lines[q])) {
            *found = [None, None];
        }
    }
    if window == fit.found {
        return fit.clone();
    }
    window_fit(&window, &fit.pos, lines, fit.cell, size).unwrap_or_else(|| fit.clone())
}

/// The lines of one axis that [`fit_axis`] looks at, in order, with their indices among all.
struct AxisLines {
    idx: Vec<usize>,
    lines: Vec<Line>,
    pos: Vec<f32>,
}

/// A line this much weaker than another near the same place is not taken for a grid line.
const FAINT: f32 = 0.3;

/// Slots of a walk from an anchor line (at slot 18): the lines at each, and their centre.
type Walk = ([[Option<usize>; 2]; 37], [f32; 37]);

impl AxisLines {
    fn new(all: &[Line], keep: impl Fn(&Line) -> bool) -> AxisLines {
        let idx: Vec<usize> = (0..all.len()).filter(|&i| keep(&all[i])).collect();
        let lines: Vec<Line> = idx.iter().map(|&i| all[i]).collect();
        let pos: Vec<f32> = lines.iter().map(|l| l.pos).collect();
        AxisLines { idx, lines, pos }
    }

    /// The line nearest to `e`, within `tol`, of those not faint beside another there: the
    /// edge of a row of light digit discs may lie nearer to where a grid line is expected than
    /// the line itself.
    fn nearest(&self, e: f32, tol: f32) -> Option<usize> {
        let (lo, hi) = (
            self.pos.partition_point(|&q| q < e - tol),
            self.pos.partition_point(|&q| q <= e + tol),
        );
        let near = || lo..hi;
        let strength = |q: usize| self.lines[q].contrast * self.lines[q].thick.min(4.0);
        let strongest = near().map(strength).fold(0.0, f32::max);
        near()
            .filter(|&q| strength(q) >= strongest * FAINT)
            .min_by(|&a, &b| (self.pos[a] - e).abs().total_cmp(&(self.pos[b] - e).abs()))
    }

    /// The line just beyond `q` (walking `up` or down) when it is close and as long: the two
    /// lines of a band between boxes drawn apart. Each runs along most of the other: the edge
    /// of a row of digit discs beside a grid line runs along only part of it.
    fn partner(&self, q: usize, up: bool, cell: f32) -> Option<usize> {
        let r = if up { q + 1 } else { q.checked_sub(1)? };
        let (a, b) = (self.lines.get(r)?, &self.lines[q]);
        let overlap = a.end.min(b.end) - a.start.max(b.start);
        let longer = (a.end - a.start).max(b.end - b.start);
        ((a.pos - b.pos).abs() <= cell * 0.3 && overlap >= longer * 0.5).then_some(r)
    }

    /// Walks outwards from line `i` (slot 18 of 37) one cell at a time, following the lines
    /// found.
    fn walk(&self, i: usize, cell: f32, tol: f32) -> Walk {
        let pos = &self.pos;
        let mut at: [[Option<usize>; 2]; 37] = [[None; 2]; 37];
        let mut mid = [0f32; 37];
        at[18] = [Some(i), self.partner(i, true, cell)];
        mid[18] = pos[i];
        for (dir, range) in [(true, 19..37usize), (false, 0..18usize)] {
            let mut prev = match at[18] {
                [Some(_), Some(b)] if dir => pos[b],
                _ => pos[i],
            };
            let order: Vec<usize> = if dir {
                range.collect()
            } else {
                range.rev().collect()
            };
            for slot in order {
                let e = if dir { prev + cell } else { prev - cell };
                match self.nearest(e, tol) {
                    Some(q) => {
                        let band = self.partner(q, dir, cell);
                        at[slot] = [Some(q), band];
                        mid[slot] = band.map_or(pos[q], |b| (pos[q] + pos[b]) / 2.0);
                        prev = band.map_or(pos[q], |b| pos[b]);
                    }
                    None => prev = e,
                }
            }
        }
        (at, mid)
    }

    /// Whether a window of box lines only (anchored on line `anchor`) is part of a bigger grid
    /// of big cells (a chess board, a calendar) rather than a board's skeleton: lines go on at
    /// the box spacing beyond it, or other long lines lie between its box lines.
    fn bigger_grid(
        &self,
        fit: &AxisFit,
        window: &[[Option<usize>; 2]; 10],
        anchor: usize,
        tol: f32,
    ) -> bool {
        let skeleton_only = fit.hits < 8 || (1..9).filter(|&n| window[n][0].is_none()).count() > 1;
        if !skeleton_only {
            return false;
        }
        let anchor = &self.lines[anchor];
        let along = |l: &Line| l.end.min(anchor.end) - l.start.max(anchor.start);
        let long = (anchor.end - anchor.start) * 0.5;
        // A box apart, with a box's tolerance: the big cells may be uneven.
        let goes_on = [fit.pos[0] - 3.0 * fit.cell, fit.pos[9] + 3.0 * fit.cell]
            .iter()
            .any(|&e| {
                self.lines
                    .iter()
                    .any(|l| (l.pos - e).abs() <= 3.0 * tol && along(l) >= long)
            });
        // Nor are there other long lines between the box lines than cell lines.
        let off_grid = self.lines.iter().any(|l| {
            l.pos > fit.pos[0] + tol
                && l.pos < fit.pos[9] - tol
                && along(l) >= long
                && fit.pos.iter().all(|&g| (g - l.pos).abs() > tol)
        });
        goes_on || off_grid
    }
}

/// Fits and scores one window (`window[n]`: the lines at position `n`, `mids[n]` their
/// centre), or `None` when it is not a grid: too few lines, inner box lines missing or weaker
/// than the cell lines, or missing lines that would lie off the frame.
fn window_fit(
    window: &[[Option<usize>; 2]; 10],
    mids: &[f32; 10],
    lines: &[Line],
    cell: f32,
    size: usize,
) -> Option<AxisFit> {
    let has = |n: usize| window[n][0].is_some();
    let hits = (0..10).filter(|&n| has(n)).count();
    // Strength of the line(s) at a position.
    let strength = |n: usize| -> f32 {
        window[n]
            .iter()
            .flatten()
            .map(|&q| lines[q].contrast * lines[q].thick.min(4.0))
            .fold(0.0, f32::max)
    };
    let is_box = |n: usize| n.is_multiple_of(3);
    let boxes: Vec<f32> = (0..10)
        .filter(|&n| is_box(n) && has(n))
        .map(strength)
        .collect();
    let cells: Vec<f32> = (0..10)
        .filter(|&n| !is_box(n) && has(n))
        .map(strength)
        .collect();
    let weakest_box = boxes.iter().cloned().fold(f32::MAX, f32::min);
    let strongest_cell = cells.iter().cloned().fold(0.0, f32::max);
    let skeleton = has(3) && has(6) && weakest_box >= strongest_cell * 0.9;
    let interior_missing = (1..9).filter(|&n| !has(n)).count();
    if (hits < 8 || interior_missing > 1) && !skeleton {
        return None;
    }
    // Least squares over the found positions.
    let pts: Vec<(f32, f32)> = (0..10)
        .filter(|&n| has(n))
        .map(|n| (n as f32, mids[n]))
        .collect();
    let (slope, o, err) = least_squares(&pts, cell);
    let pos: [f32; 10] = std::array::from_fn(|n| {
        if has(n) {
            mids[n]
        } else {
            o + slope * n as f32
        }
    });
    // Missing lines may lie on the frame's edge (a board edge to edge), not beyond it.
    let margin = slope * 0.12;
    if pos[0] < -margin || pos[9] > size as f32 - 1.0 + margin {
        return None;
    }
    if pos.windows(2).any(|w| w[1] - w[0] < slope * 0.5) {
        return None;
    }
    // Box lines stronger than cell lines put the window in phase: a small bonus.
    let phased = !boxes.is_empty() && !cells.is_empty() && weakest_box > strongest_cell * 1.2;
    let score = hits as f32
        + (0..10).filter(|&n| is_box(n) && has(n)).count() as f32
        + if phased { 1.5 } else { 0.0 }
        - 3.0 * err / slope;
    Some(AxisFit {
        pos,
        found: *window,
        hits,
        cell: slope,
        err,
        score,
    })
}

/// The straight line through `pts` (position index, line position) by least squares: its
/// slope (`flat` where the indices do not vary), offset, and mean distance from the points.
fn least_squares(pts: &[(f32, f32)], flat: f32) -> (f32, f32, f32) {
    let nn = pts.len() as f32;
    let (mx, my) = (
        pts.iter().map(|p| p.0).sum::<f32>() / nn,
        pts.iter().map(|p| p.1).sum::<f32>() / nn,
    );
    let sxx: f32 = pts.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f32 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let slope = if sxx > 0.0 { sxy / sxx } else { flat };
    let o = my - slope * mx;
    let err = pts
        .iter()
        .map(|&(n, q)| (q - (o + slope * n)).abs())
        .sum::<f32>()
        / nn;
    (slope, o, err)
}
