//! Step 2 and 3 of board detection: ridge pixels, and the runs of them along rows and
//! columns merged into lines.

use super::{Line, Params, Segment};
use crate::vision::gray::Gray;

/// Ridge mask of `mid` against the pixels `k` away on either side (`a`, `b`) and half as far
/// (`a_near`, `b_near`), all the same length: 1 where `mid` is darker (or lighter) than one
/// pixel on each side. The nearer pixels find a line that other marks run alongside (the
/// dashed cages of Killer boards, a cell's frame) where the farther ones fall on those marks.
#[inline]
pub(super) fn ridge(sides: [&[u8]; 4], mid: &[u8], t: u8, out: &mut [u8]) {
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
pub(super) fn ridge_at(m: u8, [a, a_near, b_near, b]: [u8; 4], t: u8) -> bool {
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
pub(super) fn horizontal_segments(g: &Gray, p: &Params) -> Vec<Segment> {
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
pub(super) fn vertical_segments(g: &Gray, p: &Params) -> Vec<Segment> {
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
pub(super) fn merge(g: &Gray, p: &Params, mut segs: Vec<Segment>, vertical: bool) -> Vec<Line> {
    segs.sort_by_key(|s| (s.at, s.start));
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
    let mut lines: Vec<Line> = acc.iter().map(|a| a.line(g, p, vertical)).collect();
    lines.sort_by(|a, b| a.pos.total_cmp(&b.pos));
    lines
}

/// Segments merged into one line so far: its first and last rows (columns), its extent
/// along them, and the sum of its rows for the mean.
struct Acc {
    first: u32,
    last: u32,
    start: u32,
    end: u32,
    sum: f64,
    n: u32,
}

impl Acc {
    /// The line, with its contrast: its centre against both sides, sampled along it.
    fn line(&self, g: &Gray, p: &Params, vertical: bool) -> Line {
        let (w, h) = (g.width as i64, g.height as i64);
        let at =
            |x: i64, y: i64| g.data[(y.clamp(0, h - 1) * w + x.clamp(0, w - 1)) as usize] as f32;
        let pos = (self.sum / self.n as f64) as f32;
        let thick = (self.last - self.first + 1) as f32;
        let side = (thick / 2.0).ceil() as i64 + p.k as i64 / 2 + 1;
        let c = pos.round() as i64;
        let samples = 24;
        let mut sum = 0.0;
        for i in 0..samples {
            let u = self.start as i64 + (self.end - self.start) as i64 * i / (samples - 1);
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
            start: self.start as f32,
            end: self.end as f32,
            contrast: sum / samples as f32,
        }
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
