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

mod fit;
mod ridges;

use fit::{fit_axis, without_cell_lines};
use ridges::{horizontal_segments, merge, ridge_at, vertical_segments};

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
fn pair_fits(
    g: &Gray,
    p: &Params,
    v_fits: &[AxisFit],
    lines: Lines,
    best_rows: &mut Option<AxisFit>,
    why: &mut Why,
) -> Vec<(f32, AxisFit, AxisFit)> {
    let (h_lines, v_lines) = (lines.horizontal, lines.vertical);
    let mut h_cache: Vec<(Vec<usize>, Vec<AxisFit>)> = Vec::new();
    let mut pairs: Vec<(f32, AxisFit, AxisFit)> = Vec::new();
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
            // Column lines as row lines are taken (those running down most of the rows): the
            // edge of a few light digit discs in a column is not a cell line nobody drew.
            let (y0, y9) = (hf.pos[0], hf.pos[9]);
            let vf = without_cell_lines(vf, v_lines, g.width, |l| covers(l, y0, y9));
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
    pairs: Vec<(f32, AxisFit, AxisFit)>,
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
        let sv = support(g, p, &vf, v_lines, &hf, true);
        let sh = support(g, p, &hf, h_lines, &vf, false);
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
        let geometry = geometry(&vf, v_lines, &hf, h_lines, scale, frame);
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
    let shows = |l: &Line, from: i64, to: i64| shows_along(l, from..to, &is_ridge);
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

/// Whether line `l` shows along half of `span` (`is_ridge(u, v)`: a ridge pixel at `u` along
/// the line, `v` across it); stops as soon as that is settled.
fn shows_along(l: &Line, span: std::ops::Range<i64>, is_ridge: &impl Fn(i64, i64) -> bool) -> bool {
    let half = (l.thick / 2.0) as i64 + 1;
    let c = l.pos.round() as i64;
    let len = (span.end - span.start) as usize;
    let need = len.div_ceil(2);
    let (mut hits, mut misses) = (0, 0);
    for u in span {
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
}

/// Whether a line's extent covers most of `[a, b]`.
fn covers(l: &Line, a: f32, b: f32) -> bool {
    let overlap = l.end.min(b) - l.start.max(a);
    overlap >= 0.6 * (b - a)
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
