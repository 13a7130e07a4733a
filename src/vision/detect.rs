//! Board detection without calibration: finds the 10 + 10 evenly spaced grid lines.
//!
//! 1. A pixel is a *ridge* across one axis when it is darker (or lighter: dark themes) than both
//!    pixels `k` away on either side: thin lines are ridges, flat areas, edges of bars and the
//!    insides of thick strokes are not.
//! 2. Long, dense runs of ridge pixels along a row (column) are horizontal (vertical) line
//!    segments; gaps up to about a cell are bridged, so a selected or tinted cell that hides a
//!    piece of a line does not break it. Adjacent segments merge into lines with a thickness.
//! 3. On each axis, the best run of 10 evenly spaced lines is fitted (at most two may be missing
//!    and are interpolated: boards without an outer border, or a line hidden by a highlight).
//!    The vertical and horizontal fits must agree: the horizontal lines must span the columns,
//!    the vertical ones the rows, and cells must be roughly square.

use super::geometry::BoardGeometry;
use super::gray::Gray;
use image::RgbaImage;

/// A line found in the frame.
#[derive(Debug, Clone, Copy)]
struct Line {
    /// Centre across the line (y of a horizontal line).
    pos: f32,
    /// Thickness in pixels.
    thick: u32,
    /// Extent along the line.
    start: u32,
    end: u32,
}

/// A run of ridge pixels in one row (column).
#[derive(Debug, Clone, Copy)]
struct Segment {
    at: u32,
    start: u32,
    end: u32,
}

/// 10 evenly spaced lines on one axis.
#[derive(Debug, Clone)]
struct Fit {
    pos: [f32; 10],
    line: [Option<usize>; 10],
    hits: usize,
    spacing: f32,
    err: f32,
}

/// Tuning constants, relative to the frame's smaller side.
struct Params {
    k: usize,
    contrast: u8,
    min_len: u32,
    max_gap: u32,
    min_cell: f32,
    max_cell: f32,
}

impl Params {
    fn new(w: usize, h: usize) -> Params {
        let min_dim = w.min(h) as f32;
        Params {
            k: ((min_dim / 90.0) as usize).max(3),
            contrast: 7,
            min_len: (min_dim * 0.2) as u32,
            // A cell hidden by a selection, plus its lines, at the largest cell size.
            max_gap: (min_dim / 9.0 * 1.3) as u32,
            min_cell: (min_dim * 0.25 / 9.0).max(8.0),
            max_cell: min_dim / 9.0 * 1.06,
        }
    }
}

/// Why no board was found, for the error message.
#[derive(Debug, Clone)]
pub struct NotFound {
    /// Long horizontal lines seen.
    pub horizontal: usize,
    /// Long vertical lines seen.
    pub vertical: usize,
    /// Most of the 10 grid lines found evenly spaced, horizontally and vertically.
    pub best: (usize, usize),
}

/// Finds the 9x9 grid in a frame.
pub fn detect(img: &RgbaImage) -> Result<BoardGeometry, NotFound> {
    let gray = Gray::from_rgba(img);
    detect_gray(&gray)
}

/// [`detect`] on a luma plane.
pub fn detect_gray(g: &Gray) -> Result<BoardGeometry, NotFound> {
    let p = Params::new(g.width, g.height);
    // The two passes are independent: one per core.
    let (hs, vs) = std::thread::scope(|scope| {
        let h = scope.spawn(|| horizontal_segments(g, &p));
        let vs = vertical_segments(g, &p);
        (h.join(), vs)
    });
    let hs = hs.unwrap_or_else(|_| horizontal_segments(g, &p));
    let h_lines = merge(hs);
    let v_lines = merge(vs);
    let long = |ls: &[Line]| ls.iter().filter(|l| l.end - l.start >= p.min_len).count();
    let mut not_found = NotFound {
        horizontal: long(&h_lines),
        vertical: long(&v_lines),
        best: (0, 0),
    };

    // Candidate pairs of fits that agree, with a cheap score.
    let v_fits = fit_axis(&v_lines, &p, |_| true);
    let mut h_cache: Vec<(Vec<usize>, Vec<Fit>)> = Vec::new();
    let mut pairs: Vec<(f32, &Fit, Fit)> = Vec::new();
    for vf in v_fits.iter().take(12) {
        not_found.best.1 = not_found.best.1.max(vf.hits);
        if vf.hits < 8 || !plausible(vf) {
            continue;
        }
        let (x0, x9) = (vf.pos[0], vf.pos[9]);
        let kept: Vec<usize> = (0..h_lines.len())
            .filter(|&i| covers(&h_lines[i], x0, x9))
            .collect();
        let h_fits = match h_cache.iter().find(|(k, _)| *k == kept) {
            Some((_, f)) => f.clone(),
            None => {
                let f = fit_axis(&h_lines, &p, |l| covers(l, x0, x9));
                h_cache.push((kept, f.clone()));
                f
            }
        };
        for hf in h_fits.into_iter().take(6) {
            not_found.best.0 = not_found.best.0.max(hf.hits);
            if hf.hits < 8 || !plausible(&hf) {
                continue;
            }
            let aspect = vf.spacing / hf.spacing;
            if !(0.75..=1.34).contains(&aspect) {
                continue;
            }
            let (y0, y9) = (hf.pos[0], hf.pos[9]);
            let v_span = vf
                .line
                .iter()
                .flatten()
                .filter(|&&i| covers(&v_lines[i], y0, y9))
                .count();
            if v_span < 6 {
                continue;
            }
            let cheap = (vf.hits + hf.hits) as f32 - (vf.err + hf.err) * 0.05;
            pairs.push((cheap, vf, hf));
        }
    }
    pairs.sort_by(|a, b| b.0.total_cmp(&a.0));
    // Every found line must run through every cell span of the other axis: a window that adds
    // a phantom row or column (a smaller grid with a line extrapolated, or a borderless board's
    // window shifted by one) has a span without lines. This check is the costly one, so pairs
    // are checked best first, until no remaining pair could beat the best one found.
    let mut best: Option<(f32, Fit, Fit)> = None;
    for (cheap, vf, hf) in pairs {
        if best.as_ref().is_some_and(|b| cheap < b.0) {
            break;
        }
        let sv = support(g, &p, vf, &v_lines, &hf, true);
        let sh = support(g, &p, &hf, &h_lines, vf, false);
        let (Some(sv), Some(sh)) = (sv, sh) else {
            continue;
        };
        let score = cheap - (2.0 - sv - sh);
        if best.as_ref().is_none_or(|b| score > b.0) {
            best = Some((score, vf.clone(), hf));
        }
    }
    let Some((_, vf, hf)) = best else {
        return Err(not_found);
    };
    let thick = |fit: &Fit, lines: &[Line]| {
        fit.line
            .iter()
            .flatten()
            .map(|&i| lines[i].thick)
            .max()
            .unwrap_or(1)
    };
    let round = |fit: &Fit, limit: usize| -> [u32; 10] {
        fit.pos
            .map(|v| (v.round().max(0.0) as u32).min(limit.saturating_sub(1) as u32))
    };
    let geometry = BoardGeometry {
        cols: round(&vf, g.width),
        rows: round(&hf, g.height),
        line_width: thick(&vf, &v_lines).max(thick(&hf, &h_lines)),
    };
    if geometry.check(g.width as u32, g.height as u32).is_err() {
        return Err(not_found);
    }
    Ok(geometry)
}

/// At most one interior line may be missing (hidden by a highlight); outer lines may be
/// missing (boards without a border, or touching the screen edge).
fn plausible(fit: &Fit) -> bool {
    (1..9).filter(|&n| fit.line[n].is_none()).count() <= 1
}

/// Whether the found lines of `fit` run through every cell span of `other` (ends trimmed, to
/// skip the crossings): each span needs at least two lines with ridge pixels along half of it
/// (a highlighted row may hide its thin lines, but not the box lines). `Some(mean fraction of
/// lines present per span)`, or `None` when a span has no lines (a phantom row or column).
fn support(
    g: &Gray,
    p: &Params,
    fit: &Fit,
    lines: &[Line],
    other: &Fit,
    vertical: bool,
) -> Option<f32> {
    let k = p.k as i64;
    let t = p.contrast;
    let (w, h) = (g.width as i64, g.height as i64);
    let at = |x: i64, y: i64| g.data[(y.clamp(0, h - 1) * w + x.clamp(0, w - 1)) as usize];
    let is_ridge = |x: i64, y: i64| {
        let m = at(x, y);
        let (a, b) = if vertical {
            (at(x - k, y), at(x + k, y))
        } else {
            (at(x, y - k), at(x, y + k))
        };
        (a.saturating_sub(m) > t && b.saturating_sub(m) > t)
            || (m.saturating_sub(a) > t && m.saturating_sub(b) > t)
    };
    let found: Vec<(f32, u32)> = fit
        .pos
        .iter()
        .zip(fit.line)
        .filter_map(|(&pos, l)| Some((pos, lines[l?].thick)))
        .collect();
    let mut total = 0.0;
    for n in 0..9 {
        let (a, b) = (other.pos[n], other.pos[n + 1]);
        let trim = (b - a) * 0.15;
        let (from, to) = ((a + trim) as i64, (b - trim) as i64);
        if to <= from || found.is_empty() {
            return None;
        }
        let present = found
            .iter()
            .filter(|&&(pos, thick)| {
                let half = (thick / 2 + 1) as i64;
                let c = pos.round() as i64;
                let hits = (from..to)
                    .filter(|&u| {
                        (c - half..=c + half).any(|v| {
                            if vertical {
                                is_ridge(v, u)
                            } else {
                                is_ridge(u, v)
                            }
                        })
                    })
                    .count();
                hits * 2 >= (to - from) as usize
            })
            .count();
        if present < 2 {
            return None;
        }
        total += present as f32 / found.len() as f32;
    }
    Some(total / 9.0)
}

/// Whether a line's extent covers most of `[a, b]`.
fn covers(l: &Line, a: f32, b: f32) -> bool {
    let overlap = (l.end as f32).min(b) - (l.start as f32).max(a);
    overlap >= 0.6 * (b - a)
}

/// Ridge mask of `mid` against `a` and `b` (same length): 1 where `mid` is darker or lighter than both.
#[inline]
fn ridge(a: &[u8], mid: &[u8], b: &[u8], t: u8, out: &mut [u8]) {
    for i in 0..out.len().min(mid.len()).min(a.len()).min(b.len()) {
        let (m, x, y) = (mid[i], a[i], b[i]);
        let dark = (x.saturating_sub(m) > t) & (y.saturating_sub(m) > t);
        let light = (m.saturating_sub(x) > t) & (m.saturating_sub(y) > t);
        out[i] = (dark | light) as u8;
    }
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
const STEP: usize = 4;

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
    let mut mask = vec![0u8; g.width];
    for y in p.k..g.height.saturating_sub(p.k) {
        ridge(
            g.row(y - p.k),
            g.row(y),
            g.row(y + p.k),
            p.contrast,
            &mut mask,
        );
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
            ridge(&row[..n], &row[k..k + n], &row[2 * k..], p.contrast, mask);
        }
        let n = m0.len().min(m1.len());
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

/// Merges segments on the same or adjacent rows (columns) into lines.
fn merge(mut segs: Vec<Segment>) -> Vec<Line> {
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
    let mut lines: Vec<Line> = acc
        .into_iter()
        .map(|a| Line {
            pos: (a.sum / a.n as f64) as f32,
            thick: a.last - a.first + 1,
            start: a.start,
            end: a.end,
        })
        .collect();
    lines.sort_by(|a, b| a.pos.total_cmp(&b.pos));
    lines
}

/// The best runs of 10 evenly spaced lines among those passing `keep`, best first.
fn fit_axis(all: &[Line], p: &Params, keep: impl Fn(&Line) -> bool) -> Vec<Fit> {
    let idx: Vec<usize> = (0..all.len()).filter(|&i| keep(&all[i])).collect();
    let pos: Vec<f32> = idx.iter().map(|&i| all[i].pos).collect();
    let nearest = |e: f32, tol: f32| -> Option<usize> {
        let j = pos.partition_point(|&q| q < e);
        [j.wrapping_sub(1), j]
            .into_iter()
            .filter(|&j| j < pos.len() && (pos[j] - e).abs() <= tol)
            .min_by(|&a, &b| (pos[a] - e).abs().total_cmp(&(pos[b] - e).abs()))
    };
    let mut fits: Vec<Fit> = Vec::new();
    for i in 0..pos.len() {
        // Neighbouring grid lines are at most a few candidates apart.
        for j in i + 1..pos.len().min(i + 5) {
            let s = pos[j] - pos[i];
            if s < p.min_cell {
                continue;
            }
            if s > p.max_cell {
                break;
            }
            let tol = (0.12 * s).max(2.0);
            // Walk outwards from the pair i (index 0) and j (index 1), following found lines.
            let mut at: [Option<usize>; 19] = [None; 19];
            at[9] = Some(i);
            at[10] = Some(j);
            let mut prev = pos[j];
            for slot in at[11..].iter_mut() {
                let e = prev + s;
                *slot = nearest(e, tol);
                prev = slot.map_or(e, |q| pos[q]);
            }
            prev = pos[i];
            for slot in at[..9].iter_mut().rev() {
                let e = prev - s;
                *slot = nearest(e, tol);
                prev = slot.map_or(e, |q| pos[q]);
            }
            // Every window of 10 indices containing both anchors with enough hits: when outer
            // lines are missing, the window is ambiguous and the orthogonal extents decide.
            for m in 1..=9 {
                let window: Vec<(usize, usize)> =
                    (0..10).filter_map(|n| at[m + n].map(|q| (n, q))).collect();
                if window.len() < 8 {
                    continue;
                }
                let fit = fit_window(&window, &pos, &idx);
                if !fits.iter().any(|f| {
                    (f.pos[0] - fit.pos[0]).abs() < 2.0 && (f.spacing - fit.spacing).abs() < 2.0
                }) {
                    fits.push(fit);
                }
            }
        }
    }
    fits.sort_by(|a, b| b.hits.cmp(&a.hits).then(a.err.total_cmp(&b.err)));
    fits
}

/// Least-squares fit `o + n * s` over the hits `(n, position index)` of a window.
fn fit_window(window: &[(usize, usize)], pos: &[f32], idx: &[usize]) -> Fit {
    let nn = window.len() as f32;
    let (sx, sy) = window
        .iter()
        .fold((0.0, 0.0), |(a, b), &(n, q)| (a + n as f32, b + pos[q]));
    let (mx, my) = (sx / nn, sy / nn);
    let (mut sxy, mut sxx) = (0.0, 0.0);
    for &(n, q) in window {
        sxy += (n as f32 - mx) * (pos[q] - my);
        sxx += (n as f32 - mx) * (n as f32 - mx);
    }
    let slope = sxy / sxx.max(1e-6);
    let o = my - slope * mx;
    let err = window
        .iter()
        .map(|&(n, q)| (pos[q] - (o + slope * n as f32)).abs())
        .sum::<f32>()
        / nn;
    let mut fit = Fit {
        pos: std::array::from_fn(|n| o + slope * n as f32),
        line: [None; 10],
        hits: window.len(),
        spacing: slope,
        err,
    };
    for &(n, q) in window {
        fit.pos[n] = pos[q];
        fit.line[n] = Some(idx[q]);
    }
    fit
}
