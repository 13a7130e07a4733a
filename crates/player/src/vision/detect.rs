//! Board detection without calibration: finds the 3x3 boxes' lines and the cells in them.
//!
//! Real apps draw grids in many ways: every line solid, only the box lines solid with cell
//! lines faint, dashed or absent, no outer border, a board running edge to edge with the
//! screen, boxes separated by gaps, highlighted rows darker than the cell lines, killer-cage
//! dashes inside the cells. So:
//!
//! 1. The frame is scanned at about 540 pixels across (luma averaged over blocks).
//! 2. A pixel is a *ridge* across one axis when it is darker (or lighter: dark themes) than a
//!    pixel on either side, `k` or `k/2` away: thin lines are ridges, also with a Killer
//!    cage's dashes `k` away alongside; flat areas, the edges of bars and of highlighted rows,
//!    and the insides of thick strokes are not.
//! 3. Long, dense runs of ridge pixels along a row (column) are horizontal (vertical) line
//!    segments; gaps up to about a cell are bridged (a selected cell that hides a piece of a
//!    line). Adjacent segments merge into lines with a thickness and a contrast.
//! 4. On each axis, windows of 10 evenly spaced positions are fitted from pairs of lines, taken
//!    either as neighbouring cell lines or as neighbouring box lines (three cells apart: grids
//!    of box lines only). Two lines a small gap apart count as one (boxes drawn apart). A
//!    window is kept when 8 of its 10 lines are there, or when its two inner box lines are and
//!    they are at least as strong as any cell lines found: the box lines are the skeleton,
//!    cell lines may be missing. Outer lines may be missing (no border); a missing line is
//!    interpolated, and a window whose missing lines would lie off the frame is dropped, so a
//!    board's window cannot slide off the screen.
//! 5. Vertical and horizontal windows pair up when cells are roughly square, each axis's lines
//!    cross the other's extent, and the found lines show along every cell span of the other
//!    axis (a window that adds a phantom row has a span without lines), but one inner span
//!    (a selected cell's row or column painted over the lines).
//!
//! Candidates are ranked; [`detect_all`] returns them with everything seen, for the reader to
//! check close calls against the digits and for the debug overlay.

use super::geometry::BoardGeometry;
use super::gray::Gray;
use image::RgbaImage;

/// A line found in the frame (scan coordinates inside this module, frame pixels outside).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Line {
    /// Centre across the line (y of a horizontal line).
    pub pos: f32,
    /// Thickness in pixels.
    pub thick: f32,
    /// Extent along the line.
    pub start: f32,
    pub end: f32,
    /// Mean luma difference to the pixels beside the line.
    pub contrast: f32,
}

/// A run of ridge pixels in one row (column).
#[derive(Debug, Clone, Copy)]
struct Segment {
    at: u32,
    start: u32,
    end: u32,
}

/// 10 grid positions on one axis: found lines, and interpolated ones.
#[derive(Debug, Clone, PartialEq)]
pub struct AxisFit {
    /// Positions of the 10 lines (frame pixels outside this module).
    pub pos: [f32; 10],
    /// The lines found at each position (up to two: boxes drawn apart).
    pub found: [[Option<usize>; 2]; 10],
    /// Positions with a line.
    pub hits: usize,
    /// Mean cell size.
    pub cell: f32,
    /// Mean distance of the found lines from the fit, in pixels.
    pub err: f32,
    /// How good the window is (more lines, box lines at the box positions).
    pub score: f32,
}

/// A board the grid lines could make.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// Where the board would be.
    pub geometry: BoardGeometry,
    /// How good it is (higher is better).
    pub score: f32,
    /// Column lines (x) and row lines (y) found of 10.
    pub found: (usize, usize),
}

/// Everything board detection saw, in frame pixels: for the overlay and error messages.
#[derive(Debug, Clone, Default)]
pub struct Detection {
    /// Long horizontal lines.
    pub horizontal: Vec<Line>,
    /// Long vertical lines.
    pub vertical: Vec<Line>,
    /// Boards the lines could make, best first.
    pub candidates: Vec<Candidate>,
    /// The best column window and row window found, paired or not.
    pub best_columns: Option<AxisFit>,
    pub best_rows: Option<AxisFit>,
    /// Why the best column and row windows did not make a board (when no candidate).
    pub rejected: Option<String>,
}

/// Tuning constants, in scan pixels.
struct Params {
    k: usize,
    contrast: u8,
    min_len: u32,
    max_gap: u32,
    /// Cell size bounds for columns (x) and rows (y).
    cell_x: (f32, f32),
    cell_y: (f32, f32),
}

impl Params {
    /// The nearer offset of [`ridge`]: half of `k`.
    fn near(&self) -> usize {
        self.k.div_ceil(2)
    }

    fn new(w: usize, h: usize) -> Params {
        let (wf, hf) = (w as f32, h as f32);
        let min_dim = wf.min(hf);
        // A board fills at least a quarter of the smaller side; cells are at most a little
        // wider than a ninth of their axis, and at most 1.45 times as long as the other way.
        let min_cell = (min_dim * 0.25 / 9.0).max(6.0);
        Params {
            k: ((min_dim / 90.0) as usize).max(2),
            contrast: 6,
            min_len: (min_dim * 0.2) as u32,
            // A cell hidden by a selection, plus its lines, at the largest cell size.
            max_gap: (min_dim / 9.0 * 1.3) as u32,
            cell_x: (min_cell, (wf / 9.0 * 1.1).min(hf / 9.0 * 1.45)),
            cell_y: (min_cell, (hf / 9.0 * 1.1).min(wf / 9.0 * 1.45)),
        }
    }
}

/// The scale the frame is scanned at: about 540 pixels across the smaller side.
pub(crate) fn scan_scale(width: u32, height: u32) -> usize {
    ((width.min(height) as f32 / 540.0).round() as usize).max(1)
}

/// Finds every board the frame's grid lines could make, best first, with what was seen.
pub fn detect_all(img: &RgbaImage) -> Detection {
    let s = scan_scale(img.width(), img.height());
    let g = Gray::downscaled(img, s);
    detect_gray(&g, s, (img.width(), img.height()))
}

/// [`detect_all`] on a luma plane scanned at `scale` from a frame of size `frame`.
pub(crate) fn detect_gray(g: &Gray, scale: usize, frame: (u32, u32)) -> Detection {
    let scale = scale as f32;
    let p = Params::new(g.width, g.height);
    let (h_lines, v_lines) = long_lines(g, &p);
    let mut d = Detection::default();
    let mut why = Why::default();
    let v_fits = fit_axis(&v_lines, p.cell_x, g.width, |_| true);
    d.best_columns = v_fits.first().cloned();
    let lines = Lines {
        horizontal: &h_lines,
        vertical: &v_lines,
    };
    let pairs = pair_fits(g, &p, &v_fits, lines, &mut d.best_rows, &mut why);
    d.candidates = confirm(g, &p, pairs, lines, (scale, frame), &mut why);
    if d.candidates.is_empty() {
        d.rejected = why.0.map(|w| w.1);
    }
    d.horizontal = h_lines;
    d.vertical = v_lines;
    d.scale_to_frame(scale);
    d
}

/// The long horizontal and vertical lines of the scan: the two passes are independent, one
/// per core.
fn long_lines(g: &Gray, p: &Params) -> (Vec<Line>, Vec<Line>) {
    let (hs, vs) = std::thread::scope(|scope| {
        let h = scope.spawn(|| horizontal_segments(g, p));
        let vs = vertical_segments(g, p);
        (h.join(), vs)
    });
    let hs = hs.unwrap_or_else(|_| horizontal_segments(g, p));
    (merge(g, p, hs, false), merge(g, p, vs, true))
}

/// The lines of both axes, scan coordinates.
#[derive(Clone, Copy)]
struct Lines<'a> {
    horizontal: &'a [Line],
    vertical: &'a [Line],
}

/// Why no board: the reason given for the best-scoring pair of windows that failed.
#[derive(Default)]
struct Why(Option<(f32, String)>);

impl Why {
    fn reject(&mut self, score: f32, reason: String) {
        if self.0.as_ref().is_none_or(|w| score > w.0) {
            self.0 = Some((score, reason));
        }
    }
}

/// The column and row windows that could make a board (cells roughly square, the column lines
/// running down the rows), with their combined score, best first. `best_rows` keeps the best
/// row window seen.
fn pair_fits<'f>(
    g: &Gray,
    p: &Params,
    v_fits: &'f [AxisFit],
    lines: Lines,
    best_rows: &mut Option<AxisFit>,
    why: &mut Why,
) -> Vec<(f32, &'f AxisFit, AxisFit)> {
    let (h_lines, v_lines) = (lines.horizontal, lines.vertical);
    let mut h_cache: Vec<(Vec<usize>, Vec<AxisFit>)> = Vec::new();
    let mut pairs: Vec<(f32, &AxisFit, AxisFit)> = Vec::new();
    for vf in v_fits.iter().take(16) {
        let (x0, x9) = (vf.pos[0], vf.pos[9]);
        let kept: Vec<usize> = (0..h_lines.len())
            .filter(|&i| covers(&h_lines[i], x0, x9))
            .collect();
        let h_fits = match h_cache.iter().find(|(k, _)| *k == kept) {
            Some((_, f)) => f.clone(),
            None => {
                let f = fit_axis(h_lines, p.cell_y, g.height, |l| covers(l, x0, x9));
                h_cache.push((kept, f.clone()));
                f
            }
        };
        if h_fits.is_empty() {
            why.reject(
                vf.score,
                format!(
                    "no row lines cross the {} column lines found between x {:.0} and {:.0}",
                    vf.hits, x0, x9
                ),
            );
        }
        for hf in h_fits.into_iter().take(8) {
            if best_rows.as_ref().is_none_or(|b| hf.score > b.score) {
                *best_rows = Some(hf.clone());
            }
            if let Err((score, reason)) = pairs_up(vf, &hf, v_lines) {
                why.reject(score, reason);
                continue;
            }
            pairs.push((vf.score + hf.score, vf, hf));
        }
    }
    pairs.sort_by(|a, b| b.0.total_cmp(&a.0));
    pairs
}

/// Whether a column window and a row window make a board: cells roughly square, and the
/// column lines running down the rows. `Err((score, why not))`.
fn pairs_up(vf: &AxisFit, hf: &AxisFit, v_lines: &[Line]) -> Result<(), (f32, String)> {
    let both = vf.score + hf.score;
    let aspect = vf.cell / hf.cell;
    if !(0.69..=1.45).contains(&aspect) {
        return Err((
            both,
            format!(
                "cells would be {:.0} wide and {:.0} tall, too far from square",
                vf.cell, hf.cell
            ),
        ));
    }
    let (y0, y9) = (hf.pos[0], hf.pos[9]);
    let lines: Vec<usize> = vf.found.iter().filter_map(|f| f[0]).collect();
    let crossing = lines
        .iter()
        .filter(|&&i| covers(&v_lines[i], y0, y9))
        .count();
    // The box lines are the skeleton: both inner ones crossing the rows is enough (cell lines
    // may be pieces: edges between tinted and plain cells).
    let skeleton = [3, 6]
        .iter()
        .all(|&n| vf.found[n][0].is_some_and(|i| covers(&v_lines[i], y0, y9)));
    if (crossing * 10 < lines.len() * 6 && !skeleton) || crossing < 2 {
        return Err((
            both,
            format!(
                "only {crossing} of the {} column lines run down the rows between y {y0:.0} and \
                 {y9:.0}",
                lines.len()
            ),
        ));
    }
    Ok(())
}

/// The boards among `pairs` (best first) whose every found line runs through every cell span
/// of the other axis, ranked. This check is the costly one: pairs are checked best first, a
/// few past the first that passes.
fn confirm(
    g: &Gray,
    p: &Params,
    pairs: Vec<(f32, &AxisFit, AxisFit)>,
    lines: Lines,
    (scale, frame): (f32, (u32, u32)),
    why: &mut Why,
) -> Vec<Candidate> {
    let (h_lines, v_lines) = (lines.horizontal, lines.vertical);
    let mut candidates: Vec<Candidate> = Vec::new();
    for (cheap, vf, hf) in pairs {
        if candidates.len() >= 4 {
            break;
        }
        let sv = support(g, p, vf, v_lines, &hf, true);
        let sh = support(g, p, &hf, h_lines, vf, false);
        let (Ok(sv), Ok(sh)) = (sv, sh) else {
            let span = sv.err().or(sh.err()).unwrap_or(0);
            why.reject(
                cheap,
                format!(
                    "the lines do not run through cell span {} of the {} grid",
                    span + 1,
                    if sv.is_err() { "row" } else { "column" }
                ),
            );
            continue;
        };
        let geometry = geometry(vf, v_lines, &hf, h_lines, scale, frame);
        if geometry.check(frame.0, frame.1).is_err()
            || candidates.iter().any(|c| c.geometry == geometry)
        {
            continue;
        }
        candidates.push(Candidate {
            geometry,
            score: cheap + 2.0 * (sv + sh),
            found: (vf.hits, hf.hits),
        });
    }
    candidates.sort_by(|a, b| b.score.total_cmp(&a.score));
    candidates
}

/// A scan position in frame pixels.
fn to_frame(v: f32, scale: f32) -> f32 {
    (v + 0.5) * scale - 0.5
}

/// The board's geometry in the frame from a pair of fits (scan coordinates).
fn geometry(
    vf: &AxisFit,
    v_lines: &[Line],
    hf: &AxisFit,
    h_lines: &[Line],
    scale: f32,
    (width, height): (u32, u32),
) -> BoardGeometry {
    // A band (boxes drawn apart) is as thick as its gap: cell crops must leave it out.
    let thick = |fit: &AxisFit, lines: &[Line]| -> f32 {
        fit.found
            .iter()
            .map(|f| match *f {
                [Some(a), Some(b)] => (lines[a].pos - lines[b].pos).abs() + lines[a].thick,
                [Some(a), None] => lines[a].thick,
                _ => 0.0,
            })
            .fold(1.0, f32::max)
    };
    let round = |fit: &AxisFit, limit: u32| -> [u32; 10] {
        fit.pos
            .map(|v| (to_frame(v, scale).round().max(0.0) as u32).min(limit.saturating_sub(1)))
    };
    BoardGeometry {
        cols: round(vf, width),
        rows: round(hf, height),
        line_width: (thick(vf, v_lines).max(thick(hf, h_lines)) * scale).round() as u32,
    }
}

impl Detection {
    /// Scales the lines and fits from scan pixels to frame pixels.
    fn scale_to_frame(&mut self, s: f32) {
        for l in self.horizontal.iter_mut().chain(self.vertical.iter_mut()) {
            l.pos = to_frame(l.pos, s);
            l.start = to_frame(l.start, s);
            l.end = to_frame(l.end, s);
            l.thick *= s;
        }
        for f in self
            .best_columns
            .iter_mut()
            .chain(self.best_rows.iter_mut())
        {
            f.pos = f.pos.map(|v| to_frame(v, s));
            f.cell *= s;
            f.err *= s;
        }
    }
}

/// Whether the found lines of `fit` run through every cell span of `other` (ends trimmed, to
/// skip the crossings): each span needs two lines (a window has at least two) with ridge
/// pixels along half of it. One inner span may have none: apps paint a selected cell's row
/// (column) over the lines that cross it. `Ok(mean fraction of lines present per span)`, or
/// `Err(span)` for a span without lines (a phantom row or column beyond the board's edge, or a
/// second span without lines).
fn support(
    g: &Gray,
    p: &Params,
    fit: &AxisFit,
    lines: &[Line],
    other: &AxisFit,
    vertical: bool,
) -> Result<f32, usize> {
    let k = p.k as i64;
    let t = p.contrast;
    let (w, h) = (g.width as i64, g.height as i64);
    let at = |x: i64, y: i64| g.data[(y.clamp(0, h - 1) * w + x.clamp(0, w - 1)) as usize];
    let near = p.near() as i64;
    // `u` along the line, `v` across it.
    let is_ridge = |u: i64, v: i64| {
        let px = |d: i64| if vertical { at(v + d, u) } else { at(u, v + d) };
        ridge_at(px(0), [px(-k), px(-near), px(near), px(k)], t)
    };
    // Each found position: the lines there (one, or two for a band).
    let found: Vec<Vec<Line>> = fit
        .found
        .iter()
        .filter(|f| f[0].is_some())
        .map(|f| f.iter().flatten().map(|&i| lines[i]).collect())
        .collect();
    if found.is_empty() {
        return Err(0);
    }
    // Whether line `l` shows along half of `from..to` (stops as soon as that is settled).
    let shows = |l: &Line, from: i64, to: i64| {
        let half = (l.thick / 2.0) as i64 + 1;
        let c = l.pos.round() as i64;
        let len = (to - from) as usize;
        let need = len.div_ceil(2);
        let (mut hits, mut misses) = (0, 0);
        for u in from..to {
            if (c - half..=c + half).any(|v| is_ridge(u, v)) {
                hits += 1;
                if hits >= need {
                    return true;
                }
            } else {
                misses += 1;
                if misses > len - need {
                    return false;
                }
            }
        }
        hits >= need
    };
    let need = 2.min(found.len());
    // The spans at the board's edges first: a phantom row or column fails there at once.
    let mut present = [0usize; 9];
    let mut hidden = false;
    for n in [0, 8, 1, 2, 3, 4, 5, 6, 7] {
        let (a, b) = (other.pos[n], other.pos[n + 1]);
        let trim = (b - a) * 0.15;
        let (from, to) = ((a + trim) as i64, (b - trim) as i64);
        if to <= from {
            return Err(n);
        }
        present[n] = found
            .iter()
            .filter(|band| band.iter().any(|l| shows(l, from, to)))
            .count();
        if present[n] < need.max(1) {
            if hidden || n == 0 || n == 8 {
                return Err(n);
            }
            hidden = true;
        }
    }
    let total: f32 = present.iter().map(|&p| p as f32 / found.len() as f32).sum();
    Ok(total / 9.0)
}

/// Whether a line's extent covers most of `[a, b]`.
fn covers(l: &Line, a: f32, b: f32) -> bool {
    let overlap = l.end.min(b) - l.start.max(a);
    overlap >= 0.6 * (b - a)
}

/// Ridge mask of `mid` against the pixels `k` away on either side (`a`, `b`) and half as far
/// (`a_near`, `b_near`), all the same length: 1 where `mid` is darker (or lighter) than one
/// pixel on each side. The nearer pixels find a line that other marks run alongside (the
/// dashed cages of Killer boards, a cell's frame) where the farther ones fall on those marks.
#[inline]
fn ridge(sides: [&[u8]; 4], mid: &[u8], t: u8, out: &mut [u8]) {
    let [a, a_near, b_near, b] = sides;
    let n = sides
        .iter()
        .map(|s| s.len())
        .fold(out.len().min(mid.len()), usize::min);
    for i in 0..n {
        out[i] = ridge_at(mid[i], [a[i], a_near[i], b_near[i], b[i]], t) as u8;
    }
}

/// [`ridge`] of one pixel `m` against `[a, a_near, b_near, b]`.
#[inline(always)]
fn ridge_at(m: u8, [a, a_near, b_near, b]: [u8; 4], t: u8) -> bool {
    let (a_hi, a_lo) = (a.max(a_near), a.min(a_near));
    let (b_hi, b_lo) = (b.max(b_near), b.min(b_near));
    let dark = (a_hi.saturating_sub(m) > t) & (b_hi.saturating_sub(m) > t);
    let light = (m.saturating_sub(a_lo) > t) & (m.saturating_sub(b_lo) > t);
    dark | light
}

/// Tracks one run of ridge pixels along a row or column. Only hits are fed in: a hit further
/// than `max_gap` from the previous one closes the run and starts a new one.
#[derive(Clone, Copy)]
struct Run {
    start: u32,
    last: u32,
    hits: u32,
}

const NO_RUN: Run = Run {
    start: u32::MAX,
    last: 0,
    hits: 0,
};

impl Run {
    /// Feeds a hit at position `i` of the line at `at`.
    #[inline]
    fn hit(&mut self, i: u32, at: u32, p: &Params, out: &mut Vec<Segment>) {
        if self.start != u32::MAX && i - self.last > p.max_gap {
            self.finish(at, p, out);
        }
        if self.start == u32::MAX {
            self.start = i;
            self.hits = 0;
        }
        self.last = i;
        self.hits += 1;
    }

    /// Closes the run; emits it if long and dense enough.
    fn finish(&mut self, at: u32, p: &Params, out: &mut Vec<Segment>) {
        if self.start != u32::MAX {
            let len = self.last - self.start + 1;
            if len >= p.min_len && self.hits * STEP as u32 * 10 >= len * 6 {
                out.push(Segment {
                    at,
                    start: self.start,
                    end: self.last,
                });
            }
        }
        *self = NO_RUN;
    }
}

/// Pixels along a line are looked at in pairs every `STEP`: a pair counts when both are ridge
/// pixels, which real lines pass and noise (random ridge pixels) does not.
const STEP: usize = 2;

/// Calls `f(i)` for every `i` (a multiple of [`STEP`]) where `a[i] & b[i]` is set; skips zero
/// stretches 32 bytes at a time.
#[inline]
fn for_each_hit(a: &[u8], b: &[u8], mut f: impl FnMut(usize)) {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i < n {
        let end = (i + 32).min(n);
        if a[i..end]
            .iter()
            .zip(&b[i..end])
            .fold(0, |acc, (x, y)| acc | (x & y))
            != 0
        {
            for j in (i..end).step_by(STEP) {
                if a[j] & b[j] != 0 {
                    f(j);
                }
            }
        }
        i = end;
    }
}

/// Runs of ridge pixels along rows (candidate horizontal lines).
fn horizontal_segments(g: &Gray, p: &Params) -> Vec<Segment> {
    let mut out = Vec::new();
    if g.width < 2 {
        return out;
    }
    let mut mask = vec![0u8; g.width];
    for y in p.k..g.height.saturating_sub(p.k) {
        let sides = [
            g.row(y - p.k),
            g.row(y - p.near()),
            g.row(y + p.near()),
            g.row(y + p.k),
        ];
        ridge(sides, g.row(y), p.contrast, &mut mask);
        let mut run = NO_RUN;
        let at = y as u32;
        // A pair: this pixel and the next one along the row.
        let (a, b) = (&mask[..g.width - 1], &mask[1..]);
        for_each_hit(a, b, |x| run.hit(x as u32, at, p, &mut out));
        run.finish(at, p, &mut out);
    }
    out
}

/// Runs of ridge pixels along columns (candidate vertical lines).
fn vertical_segments(g: &Gray, p: &Params) -> Vec<Segment> {
    let mut out = Vec::new();
    let k = p.k;
    if g.width <= 2 * k {
        return out;
    }
    let n = g.width - 2 * k;
    let (mut m0, mut m1) = (vec![0u8; n], vec![0u8; n]);
    let mut runs = vec![NO_RUN; n];
    for y in (0..g.height.saturating_sub(1)).step_by(STEP) {
        // A pair: this row and the next.
        for (row, mask) in [(g.row(y), &mut m0), (g.row(y + 1), &mut m1)] {
            let h = p.near();
            let sides = [
                &row[..n],
                &row[k - h..k - h + n],
                &row[k + h..k + h + n],
                &row[2 * k..],
            ];
            ridge(sides, &row[k..k + n], p.contrast, mask);
        }
        let mut i = 0;
        while i < n {
            let end = (i + 32).min(n);
            if m0[i..end]
                .iter()
                .zip(&m1[i..end])
                .fold(0, |acc, (x, y)| acc | (x & y))
                != 0
            {
                for c in i..end {
                    if m0[c] & m1[c] != 0 {
                        runs[c].hit(y as u32, (c + k) as u32, p, &mut out);
                    }
                }
            }
            i = end;
        }
    }
    for (i, run) in runs.iter_mut().enumerate() {
        run.finish((i + k) as u32, p, &mut out);
    }
    out
}

/// Merges segments on the same or adjacent rows (columns) into lines, and measures each line's
/// contrast against the pixels beside it.
fn merge(g: &Gray, p: &Params, mut segs: Vec<Segment>, vertical: bool) -> Vec<Line> {
    segs.sort_by_key(|s| (s.at, s.start));
    struct Acc {
        first: u32,
        last: u32,
        start: u32,
        end: u32,
        sum: f64,
        n: u32,
    }
    let mut acc: Vec<Acc> = Vec::new();
    for s in segs {
        // Pieces of one line on the same or adjacent rows merge even when a highlight broke
        // the line into pieces that do not overlap.
        let found = acc.iter_mut().rev().take(8).find(|a| a.last + 1 >= s.at);
        match found {
            Some(a) => {
                a.last = s.at;
                a.start = a.start.min(s.start);
                a.end = a.end.max(s.end);
                a.sum += s.at as f64;
                a.n += 1;
            }
            None => acc.push(Acc {
                first: s.at,
                last: s.at,
                start: s.start,
                end: s.end,
                sum: s.at as f64,
                n: 1,
            }),
        }
    }
    let (w, h) = (g.width as i64, g.height as i64);
    let at = |x: i64, y: i64| g.data[(y.clamp(0, h - 1) * w + x.clamp(0, w - 1)) as usize] as f32;
    let mut lines: Vec<Line> = acc
        .into_iter()
        .map(|a| {
            let pos = (a.sum / a.n as f64) as f32;
            let thick = (a.last - a.first + 1) as f32;
            // Contrast: the line's centre against both sides, sampled along it.
            let side = (thick / 2.0).ceil() as i64 + p.k as i64 / 2 + 1;
            let c = pos.round() as i64;
            let samples = 24;
            let mut sum = 0.0;
            for i in 0..samples {
                let u = a.start as i64 + (a.end - a.start) as i64 * i / (samples - 1);
                let (m, l, r) = if vertical {
                    (at(c, u), at(c - side, u), at(c + side, u))
                } else {
                    (at(u, c), at(u, c - side), at(u, c + side))
                };
                sum += ((l + r) / 2.0 - m).abs();
            }
            Line {
                pos,
                thick,
                start: a.start as f32,
                end: a.end as f32,
                contrast: sum / samples as f32,
            }
        })
        .collect();
    lines.sort_by(|a, b| a.pos.total_cmp(&b.pos));
    lines
}

/// The windows of 10 grid positions among the lines passing `keep` (axis length `size`),
/// best first.
fn fit_axis(
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
                    let window: [[Option<usize>; 2]; 10] = std::array::from_fn(|n| at[m + n]);
                    let mids: [f32; 10] = std::array::from_fn(|n| mid[m + n]);
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

/// The lines of one axis that [`fit_axis`] looks at, in order, with their indices among all.
struct AxisLines {
    idx: Vec<usize>,
    lines: Vec<Line>,
    pos: Vec<f32>,
}

/// Slots of a walk from an anchor line (at slot 18): the lines at each, and their centre.
type Walk = ([[Option<usize>; 2]; 37], [f32; 37]);

impl AxisLines {
    fn new(all: &[Line], keep: impl Fn(&Line) -> bool) -> AxisLines {
        let idx: Vec<usize> = (0..all.len()).filter(|&i| keep(&all[i])).collect();
        let lines: Vec<Line> = idx.iter().map(|&i| all[i]).collect();
        let pos: Vec<f32> = lines.iter().map(|l| l.pos).collect();
        AxisLines { idx, lines, pos }
    }

    /// The line nearest to `e`, within `tol`.
    fn nearest(&self, e: f32, tol: f32) -> Option<usize> {
        let pos = &self.pos;
        let j = pos.partition_point(|&q| q < e);
        [j.wrapping_sub(1), j]
            .into_iter()
            .filter(|&j| j < pos.len() && (pos[j] - e).abs() <= tol)
            .min_by(|&a, &b| (pos[a] - e).abs().total_cmp(&(pos[b] - e).abs()))
    }

    /// The line just beyond `q` (walking `up` or down) when it is close and as long: the two
    /// lines of a band between boxes drawn apart.
    fn partner(&self, q: usize, up: bool, cell: f32) -> Option<usize> {
        let r = if up { q + 1 } else { q.checked_sub(1)? };
        let (a, b) = (self.lines.get(r)?, &self.lines[q]);
        let overlap = a.end.min(b.end) - a.start.max(b.start);
        let shorter = (a.end - a.start).min(b.end - b.start);
        ((a.pos - b.pos).abs() <= cell * 0.3 && overlap >= shorter * 0.5).then_some(r)
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
    let nn = pts.len() as f32;
    let (mx, my) = (
        pts.iter().map(|p| p.0).sum::<f32>() / nn,
        pts.iter().map(|p| p.1).sum::<f32>() / nn,
    );
    let sxx: f32 = pts.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f32 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let slope = if sxx > 0.0 { sxy / sxx } else { cell };
    let o = my - slope * mx;
    let err = pts
        .iter()
        .map(|&(n, q)| (q - (o + slope * n)).abs())
        .sum::<f32>()
        / nn;
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

impl Detection {
    /// What was seen, in words, for an error message.
    pub fn summary(&self) -> String {
        let long = |ls: &[Line]| ls.len();
        let mut out = format!(
            "saw {} long horizontal and {} long vertical lines",
            long(&self.horizontal),
            long(&self.vertical)
        );
        let axis = |f: &Option<AxisFit>, name: &str, xy: &str| match f {
            Some(f) => format!(
                "; best {name} grid: {} of 10 lines, cells {:.0} px, {xy} {:.0} to {:.0}",
                f.hits, f.cell, f.pos[0], f.pos[9]
            ),
            None => format!("; no evenly spaced {name} lines"),
        };
        out.push_str(&axis(&self.best_columns, "column", "x"));
        if self.best_columns.is_some() {
            out.push_str(&axis(&self.best_rows, "row", "y"));
        }
        if let Some(why) = &self.rejected {
            out.push_str(&format!("; but {why}"));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_with_dashes_alongside_is_still_a_ridge() {
        // Columns of a scan across a dark line (index 0 of each slice) on white paper: the
        // pixels k away fall on dashes that run alongside (a Killer cage's outline), the
        // nearer ones on paper.
        let (line, paper, dash) = ([40u8], [250u8], [60u8]);
        let mut out = [0u8];
        ridge([&dash, &paper, &paper, &dash], &line, 6, &mut out);
        assert_eq!(out, [1]);
        // Paper all round, as before; a step between two colours is no ridge.
        ridge([&paper, &paper, &paper, &paper], &line, 6, &mut out);
        assert_eq!(out, [1]);
        ridge([&paper, &paper, &line, &line], &line, 6, &mut out);
        assert_eq!(out, [0]);
        // A light line on a dark theme.
        ridge([&line, &line, &line, &line], &paper, 6, &mut out);
        assert_eq!(out, [1]);
    }
}
