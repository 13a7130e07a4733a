//! Finding the app's number pad: the digits 1..9 read by OCR around the board, fitted to a
//! lattice of keys.
//!
//! Every shape near the board at every contrast ([`super::regions`]) is read as a
//! digit; shapes of one size that form rows of evenly spaced, increasing digits are the keypad:
//! one row of 9, two rows (5+4, 6+3, 7+2 with other keys after the digits), a 3x3 grid, or
//! the same turned on its side. Count labels on keys ("3" with a small "5") are smaller than
//! the key digits and drop out with the size. A key that is missing (apps hide or grey out a
//! digit that is complete) is inferred from the others' spacing. The keypad is looked for
//! below the board first, then beside it (landscape) and above it.

use super::geometry::BoardGeometry;
use super::glyph::Glyph;
use super::gray::Gray;
use super::regions::{self, Limits};
use super::templates::TemplateBank;
use image::RgbaImage;

/// A keypad key found on screen.
#[derive(Debug, Clone)]
pub struct Key {
    /// 1..=9.
    pub digit: u8,
    /// Centre of the digit's glyph: where to tap.
    pub center: (u32, u32),
    /// The glyph's box `[x0, y0, x1, y1)` (for an inferred key: where the glyph should be).
    pub bbox: [u32; 4],
    /// Template score (0 for an inferred key).
    pub score: f32,
    /// The normalised glyph (a device template); `None` for an inferred key.
    pub glyph: Option<Glyph>,
    /// Not seen: placed from the other keys' spacing.
    pub inferred: bool,
}

/// A shape near the board that reads as a digit.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// 1..=9.
    pub digit: u8,
    /// Template score and margin over the runner-up.
    pub score: f32,
    pub margin: f32,
    /// Glyph box `[x0, y0, x1, y1)`.
    pub bbox: [u32; 4],
    /// The normalised glyph.
    pub glyph: Glyph,
}

impl Candidate {
    fn cx(&self) -> f32 {
        (self.bbox[0] + self.bbox[2]) as f32 / 2.0
    }
    fn cy(&self) -> f32 {
        (self.bbox[1] + self.bbox[3]) as f32 / 2.0
    }
    fn h(&self) -> f32 {
        (self.bbox[3] - self.bbox[1]) as f32
    }
}

/// The keypad found.
#[derive(Debug, Clone)]
pub struct Keypad {
    /// Keys 1..9, in order.
    pub keys: [Key; 9],
    /// Distance between neighbouring keys along a row, pixels.
    pub pitch: f32,
    /// Distance between rows (the key height when there is one row), pixels.
    pub row_pitch: f32,
    /// Rows side by side instead of one above the other (a keypad turned on its side).
    pub transposed: bool,
    /// How many keys there are per row, top to bottom (left to right when transposed).
    pub rows: Vec<usize>,
    /// What was uncertain (inferred keys and why they went where they did).
    pub notes: Vec<String>,
}

impl Keypad {
    /// The area a key covers, about: `[x0, y0, x1, y1)` around its centre, one pitch wide and
    /// one row pitch tall (a little less, so neighbours do not overlap); with one row, reaching
    /// three quarters of a pitch below the digit (tall keys carry a count label under it), but
    /// above it no further than beside it: what sits higher (an action row's words over wide
    /// keys) is not the key's.
    pub(crate) fn key_area(&self, k: &Key) -> [u32; 4] {
        let along = self.pitch * 0.48;
        let (before, after) = if self.rows.len() > 1 {
            (self.row_pitch * 0.48, self.row_pitch * 0.48)
        } else if self.transposed {
            (self.pitch * 0.75, self.pitch * 0.75)
        } else {
            (along, self.pitch * 0.75)
        };
        let (cx, cy) = (k.center.0 as f32, k.center.1 as f32);
        let [x0, y0, x1, y1] = if self.transposed {
            [cx - before, cy - along, cx + after, cy + along]
        } else {
            [cx - along, cy - before, cx + along, cy + after]
        };
        [x0.max(0.0) as u32, y0.max(0.0) as u32, x1 as u32, y1 as u32]
    }

    /// The bounding box of all key areas.
    pub fn area(&self) -> [u32; 4] {
        self.keys
            .iter()
            .map(|k| self.key_area(k))
            .fold([u32::MAX, u32::MAX, 0, 0], |a, b| {
                [
                    a[0].min(b[0]),
                    a[1].min(b[1]),
                    a[2].max(b[2]),
                    a[3].max(b[3]),
                ]
            })
    }

    /// A keypad whose key centres are given (by a person): rows are keys level with each other.
    pub(crate) fn from_points(points: [(u32, u32); 9]) -> Keypad {
        let dist =
            |a: (u32, u32), b: (u32, u32)| (a.0 as f32 - b.0 as f32).hypot(a.1 as f32 - b.1 as f32);
        let mut nearest: Vec<f32> = (0..9)
            .map(|i| {
                (0..9)
                    .filter(|&j| j != i)
                    .map(|j| dist(points[i], points[j]))
                    .fold(f32::MAX, f32::min)
            })
            .collect();
        nearest.sort_by(f32::total_cmp);
        let pitch = nearest[4].max(4.0);
        let mut rows = vec![1usize];
        for w in points.windows(2) {
            if (w[1].1 as f32 - w[0].1 as f32).abs() > pitch * 0.5 {
                rows.push(1);
            } else if let Some(last) = rows.last_mut() {
                *last += 1;
            }
        }
        let half = (pitch * 0.2) as u32;
        Keypad {
            keys: std::array::from_fn(|i| {
                let (x, y) = points[i];
                Key {
                    digit: i as u8 + 1,
                    center: (x, y),
                    bbox: [
                        x.saturating_sub(half),
                        y.saturating_sub(half),
                        x + half,
                        y + half,
                    ],
                    score: 0.0,
                    glyph: None,
                    inferred: false,
                }
            }),
            pitch,
            row_pitch: pitch,
            transposed: false,
            rows,
            notes: Vec::new(),
        }
    }

    /// The glyph height of the key digits.
    pub(crate) fn glyph_height(&self) -> f32 {
        let mut h: Vec<u32> = self
            .keys
            .iter()
            .filter(|k| !k.inferred)
            .map(|k| k.bbox[3] - k.bbox[1])
            .collect();
        h.sort_unstable();
        match h.get(h.len() / 2) {
            Some(&v) if v > 0 => v as f32,
            _ => self.pitch * 0.4,
        }
    }
}

/// Why no keypad was found, with what was seen (for the overlay).
#[derive(Debug, Clone)]
pub struct NotFound {
    /// What was seen and what is missing.
    pub message: String,
    /// Every shape that read as a digit.
    pub candidates: Vec<Candidate>,
}

/// Least template score for a keypad digit.
const MIN_KEY_SCORE: f32 = 0.7;
/// Least number of keys that must be seen (the others are inferred).
const MIN_SEEN: usize = 6;

/// The areas around the board where a keypad can be, best first: below, right, left, above.
pub(crate) fn search_areas(img: &RgbaImage, g: &BoardGeometry) -> Vec<[u32; 4]> {
    let (w, h) = img.dimensions();
    let [x0, y0, x1, y1] = g.rect();
    let m = g.line_width + 2;
    let min = (g.cell_size().0.min(g.cell_size().1) * 1.2) as u32;
    [
        [0, y1 + m, w, h],
        [x1 + m, 0, w, h],
        [0, 0, x0.saturating_sub(m), h],
        [0, 0, w, y0.saturating_sub(m)],
    ]
    .into_iter()
    .filter(|a| a[2] > a[0] + min && a[3] > a[1] + min)
    .collect()
}

/// Every shape in `area` that reads as a digit of a plausible key size.
pub fn candidates(gray: &Gray, area: [u32; 4], g: &BoardGeometry) -> Vec<Candidate> {
    let (cw, ch) = g.cell_size();
    let cell = cw.min(ch);
    let limits = Limits {
        min_h: ((cell * 0.14) as u32).max(7),
        max_h: (cell * 1.3) as u32,
        max_w: (cell * 1.3) as u32,
        min_area: 12,
    };
    let bank = TemplateBank::default_bank();
    let mut out = Vec::new();
    for r in regions::extract(gray, area, limits) {
        let (w, h) = r.size();
        // Digits are taller than wide, and ink, not a filled box.
        if w > h + h / 10 || w * 12 < h || r.fill() > 0.85 {
            continue;
        }
        let Some(glyph) = regions::glyph(gray, &[&r]) else {
            continue;
        };
        let Some(m) = bank.classify(&glyph) else {
            continue;
        };
        if m.score >= MIN_KEY_SCORE - 0.1 {
            out.push(Candidate {
                digit: m.digit,
                score: m.score,
                margin: m.margin,
                bbox: r.bbox,
                glyph,
            });
        }
    }
    out
}

/// Finds the keys 1..=9 around the board. The error says what was seen.
pub(crate) fn find_keypad(img: &RgbaImage, geometry: &BoardGeometry) -> Result<Keypad, NotFound> {
    let gray = Gray::from_rgba(img);
    let mut seen: Vec<Candidate> = Vec::new();
    let mut best: Option<(Fit, Vec<Candidate>)> = None;
    for area in search_areas(img, geometry) {
        let cands = candidates(&gray, area, geometry);
        let fit = [false, true]
            .into_iter()
            .filter_map(|t| fit(&cands, t))
            .max_by(|a, b| a.quality().total_cmp(&b.quality()));
        seen.extend(cands.iter().cloned());
        if let Some(f) = fit
            && best.as_ref().is_none_or(|(b, _)| f.quality() > b.quality())
        {
            let full = f.seen() == 9;
            best = Some((f, cands));
            if full {
                break;
            }
        }
    }
    let too_few = |found: usize| NotFound {
        message: format!(
            "number pad not found: {} near the board; a keypad needs at least {MIN_SEEN} of the \
             digits 1-9 in evenly spaced rows of one size",
            describe(&seen, found)
        ),
        candidates: seen.clone(),
    };
    let Some((fit, cands)) = best else {
        return Err(too_few(0));
    };
    if fit.seen() < MIN_SEEN {
        return Err(too_few(fit.seen()));
    }
    fit.into_keypad(&cands, img.dimensions(), geometry)
        .map_err(|message| NotFound {
            message,
            candidates: seen,
        })
}

/// "saw digits 1,2,3 (best fit: 3 in a row)".
fn describe(seen: &[Candidate], fitted: usize) -> String {
    let mut digits: Vec<u8> = seen
        .iter()
        .filter(|c| c.score >= MIN_KEY_SCORE)
        .map(|c| c.digit)
        .collect();
    digits.sort_unstable();
    digits.dedup();
    if digits.is_empty() {
        return "no digit-shaped marks".into();
    }
    let list: Vec<String> = digits.iter().map(|d| d.to_string()).collect();
    format!(
        "saw digit-shaped marks {} (at best {fitted} of them in a keypad layout)",
        list.join(",")
    )
}

/// One key of a fit: a candidate index, in (possibly transposed) coordinates.
#[derive(Debug, Clone, Copy)]
struct Placed {
    cand: usize,
    digit: u8,
    /// Along the row and across rows.
    u: f32,
    v: f32,
}

/// A lattice fit: rows of keys (each row sorted along `u`), all with pitch `pitch`.
#[derive(Debug, Clone)]
struct Fit {
    rows: Vec<Vec<Placed>>,
    pitch: f32,
    transposed: bool,
    glyph_h: f32,
    score: f32,
}

impl Fit {
    fn seen(&self) -> usize {
        self.rows.iter().map(|r| r.len()).sum()
    }

    fn quality(&self) -> f32 {
        self.seen() as f32 * 10.0 + self.score
    }
}

/// The best lattice of keys among the candidates, in rows (`transposed`: in columns).
fn fit(cands: &[Candidate], transposed: bool) -> Option<Fit> {
    let uv = |c: &Candidate| {
        if transposed {
            (c.cy(), c.cx())
        } else {
            (c.cx(), c.cy())
        }
    };
    let good: Vec<usize> = (0..cands.len())
        .filter(|&i| cands[i].score >= MIN_KEY_SCORE && cands[i].margin >= 0.02)
        .collect();
    let mut heights: Vec<f32> = good.iter().map(|&i| cands[i].h()).collect();
    heights.sort_by(f32::total_cmp);
    heights.dedup_by(|a, b| *a <= *b * 1.05);
    let mut best: Option<Fit> = None;
    for &h0 in &heights {
        let set: Vec<usize> = good
            .iter()
            .copied()
            .filter(|&i| (h0 * 0.8..=h0 * 1.25).contains(&cands[i].h()))
            .collect();
        if set.len() < 2 {
            continue;
        }
        let rows = level_rows(cands, set, &uv, h0);
        for pitch in pitches(cands, &rows, &uv, h0) {
            let chains: Vec<Vec<Placed>> = rows
                .iter()
                .map(|r| chain(cands, r, &uv, pitch))
                .filter(|c| !c.is_empty())
                .collect();
            let chosen = stack(&chains, pitch, h0);
            let seen: usize = chosen.iter().map(|r| r.len()).sum();
            if seen < 2 || chosen.iter().all(|r| r.len() < 2) {
                continue;
            }
            let score = chosen.iter().flatten().map(|p| cands[p.cand].score).sum();
            let f = Fit {
                rows: chosen,
                pitch,
                transposed,
                glyph_h: h0,
                score,
            };
            if best.as_ref().is_none_or(|b| f.quality() > b.quality()) {
                best = Some(f);
            }
        }
    }
    best
}

/// Rows of the candidates `set` (glyphs `h0` high): those whose centres are level with each
/// other, each row in order along it.
fn level_rows(
    cands: &[Candidate],
    mut set: Vec<usize>,
    uv: &impl Fn(&Candidate) -> (f32, f32),
    h0: f32,
) -> Vec<Vec<usize>> {
    set.sort_by(|&a, &b| uv(&cands[a]).1.total_cmp(&uv(&cands[b]).1));
    let mut rows: Vec<Vec<usize>> = Vec::new();
    for i in set {
        match rows.last_mut() {
            Some(r) if uv(&cands[i]).1 - uv(&cands[*r.last().unwrap()]).1 <= h0 * 0.4 => r.push(i),
            _ => rows.push(vec![i]),
        }
    }
    for r in &mut rows {
        r.sort_by(|&a, &b| uv(&cands[a]).0.total_cmp(&uv(&cands[b]).0));
    }
    rows
}

/// Candidate key pitches: distances between increasing digits in a row, per digit step, that
/// several pairs agree on.
fn pitches(
    cands: &[Candidate],
    rows: &[Vec<usize>],
    uv: &impl Fn(&Candidate) -> (f32, f32),
    h0: f32,
) -> Vec<f32> {
    let mut values = Vec::new();
    for r in rows {
        for (a, &i) in r.iter().enumerate() {
            for &j in &r[a + 1..] {
                let (ci, cj) = (&cands[i], &cands[j]);
                let steps = cj.digit as i32 - ci.digit as i32;
                let du = uv(cj).0 - uv(ci).0;
                if (1..=3).contains(&steps) && du > h0 * 0.5 {
                    values.push(du / steps as f32);
                }
            }
        }
    }
    values.sort_by(f32::total_cmp);
    let support = |p: f32| values.iter().filter(|&&v| (v - p).abs() <= p * 0.1).count();
    let mut out: Vec<(usize, f32)> = Vec::new();
    for &p in &values {
        if out.iter().any(|&(_, q)| (p - q).abs() <= q * 0.1) {
            continue;
        }
        let near: Vec<f32> = values
            .iter()
            .copied()
            .filter(|&v| (v - p).abs() <= p * 0.1)
            .collect();
        let mean = near.iter().sum::<f32>() / near.len() as f32;
        out.push((support(mean), mean));
    }
    out.sort_by_key(|a| std::cmp::Reverse(a.0));
    out.truncate(4);
    out.into_iter().map(|(_, p)| p).collect()
}

/// The longest run of a row's candidates with increasing digits spaced `pitch` per digit.
fn chain(
    cands: &[Candidate],
    row: &[usize],
    uv: &impl Fn(&Candidate) -> (f32, f32),
    pitch: f32,
) -> Vec<Placed> {
    let n = row.len();
    // best[i]: (keys, score) of the best chain ending at row[i]; prev[i] its predecessor.
    let mut best: Vec<(usize, f32)> = vec![(0, 0.0); n];
    let mut prev: Vec<Option<usize>> = vec![None; n];
    for i in 0..n {
        let ci = &cands[row[i]];
        best[i] = (1, ci.score);
        for j in 0..i {
            let cj = &cands[row[j]];
            let steps = ci.digit as i32 - cj.digit as i32;
            if steps < 1 {
                continue;
            }
            let du = uv(ci).0 - uv(cj).0;
            if (du - steps as f32 * pitch).abs() > pitch * 0.2 {
                continue;
            }
            let cand = (best[j].0 + 1, best[j].1 + ci.score);
            if cand.0 > best[i].0 || (cand.0 == best[i].0 && cand.1 > best[i].1) {
                best[i] = cand;
                prev[i] = Some(j);
            }
        }
    }
    let Some(end) = (0..n).max_by(|&a, &b| {
        best[a]
            .0
            .cmp(&best[b].0)
            .then(best[a].1.total_cmp(&best[b].1))
    }) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut at = Some(end);
    while let Some(i) = at {
        let c = &cands[row[i]];
        let (u, v) = uv(c);
        out.push(Placed {
            cand: row[i],
            digit: c.digit,
            u,
            v,
        });
        at = prev[i];
    }
    out.reverse();
    out
}

/// The best stack of row chains: digits increase from row to row, rows are close together,
/// evenly spaced and overlap along the row.
fn stack(chains: &[Vec<Placed>], pitch: f32, h0: f32) -> Vec<Vec<Placed>> {
    let n = chains.len();
    let first = |c: &Vec<Placed>| c[0];
    let last = |c: &Vec<Placed>| c[c.len() - 1];
    let v = |c: &Vec<Placed>| c.iter().map(|p| p.v).sum::<f32>() / c.len() as f32;
    let span = |c: &Vec<Placed>| (first(c).u, last(c).u);
    let fits = |a: &Vec<Placed>, b: &Vec<Placed>| {
        let dv = v(b) - v(a);
        let (a0, a1) = span(a);
        let (b0, b1) = span(b);
        last(a).digit < first(b).digit
            && dv > h0
            && dv <= pitch.max(h0) * 2.5
            && b0 <= a1 + pitch * 1.5
            && a0 <= b1 + pitch * 1.5
    };
    // Chains are in row order; dp[i]: best stack ending with chain i.
    let mut dp: Vec<(usize, Option<usize>)> = vec![(0, None); n];
    for i in 0..n {
        dp[i] = (chains[i].len(), None);
        for j in 0..i {
            if !fits(&chains[j], &chains[i]) {
                continue;
            }
            // Evenly spaced rows: the gap matches the previous one.
            if let Some(k) = dp[j].1 {
                let (g1, g2) = (v(&chains[j]) - v(&chains[k]), v(&chains[i]) - v(&chains[j]));
                if (g1 - g2).abs() > g1.max(g2) * 0.25 {
                    continue;
                }
            }
            let total = dp[j].0 + chains[i].len();
            if total > dp[i].0 {
                dp[i] = (total, Some(j));
            }
        }
    }
    let Some(end) = (0..n).max_by_key(|&i| dp[i].0) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut at = Some(end);
    while let Some(i) = at {
        out.push(chains[i].clone());
        at = dp[i].1;
    }
    out.reverse();
    out
}

/// Where each digit's key is along and across the rows (`pos[d]`), and in which row (`row_of[d]`),
/// index 1..=9.
#[derive(Debug, Clone, Copy)]
struct Lattice {
    pos: [Option<(f32, f32)>; 10],
    row_of: [Option<usize>; 10],
}

impl Fit {
    /// Keys for every digit, inferring the missing ones from the lattice.
    fn into_keypad(
        self,
        cands: &[Candidate],
        (width, height): (u32, u32),
        board: &BoardGeometry,
    ) -> Result<Keypad, String> {
        let mut lattice = Lattice {
            pos: [None; 10],
            row_of: [None; 10],
        };
        for (r, row) in self.rows.iter().enumerate() {
            for p in row {
                lattice.row_of[p.digit as usize] = Some(r);
                lattice.pos[p.digit as usize] = Some((p.u, p.v));
            }
        }
        let row_v: Vec<f32> = self
            .rows
            .iter()
            .map(|r| r.iter().map(|p| p.v).sum::<f32>() / r.len() as f32)
            .collect();
        let row_pitch = if row_v.len() > 1 {
            (row_v[row_v.len() - 1] - row_v[0]) / (row_v.len() - 1) as f32
        } else {
            self.pitch
        };
        let [x0, y0, x1, y1] = board.rect();
        let (extent_u, centre_u) = if self.transposed {
            (height as f32, (y0 + y1) as f32 / 2.0)
        } else {
            (width as f32, (x0 + x1) as f32 / 2.0)
        };
        let mut notes = Vec::new();
        lattice.fill(self.pitch, extent_u, centre_u, &mut notes)?;
        let keys = self.keys(cands, &lattice);
        if let Some(k) = keys
            .iter()
            .find(|k| k.center.0 >= width || k.center.1 >= height)
        {
            return Err(format!(
                "number pad: key {} would be off the screen at {:?}",
                k.digit, k.center
            ));
        }
        for k in keys.iter().filter(|k| k.inferred) {
            notes.push(format!(
                "key {} not seen (hidden or greyed out?): placed at {},{} from the other keys' spacing",
                k.digit, k.center.0, k.center.1
            ));
        }
        let mut rows: Vec<usize> = vec![0; self.rows.len()];
        for r in lattice.row_of[1..=9].iter().flatten() {
            rows[*r] += 1;
        }
        Ok(Keypad {
            keys,
            pitch: self.pitch,
            row_pitch,
            transposed: self.transposed,
            rows,
            notes,
        })
    }

    /// The keys 1..=9: the candidates seen, the others where the lattice puts them.
    fn keys(&self, cands: &[Candidate], lattice: &Lattice) -> [Key; 9] {
        let half = self.glyph_h / 2.0;
        std::array::from_fn(|i| {
            let d = i as u8 + 1;
            let (u, v) = lattice.pos[d as usize].unwrap_or_default();
            let (x, y) = if self.transposed { (v, u) } else { (u, v) };
            match self.rows.iter().flatten().find(|p| p.digit == d) {
                Some(p) => {
                    let c = &cands[p.cand];
                    Key {
                        digit: d,
                        center: (c.cx() as u32, c.cy() as u32),
                        bbox: c.bbox,
                        score: c.score,
                        glyph: Some(c.glyph.clone()),
                        inferred: false,
                    }
                }
                None => {
                    let (x, y) = (x.max(0.0), y.max(0.0));
                    Key {
                        digit: d,
                        center: (x as u32, y as u32),
                        bbox: [
                            (x - half * 0.6).max(0.0) as u32,
                            (y - half).max(0.0) as u32,
                            (x + half * 0.6) as u32,
                            (y + half) as u32,
                        ],
                        score: 0.0,
                        glyph: None,
                        inferred: true,
                    }
                }
            }
        })
    }
}

impl Lattice {
    /// Fills in the missing digits, each next to a known neighbour, until none is left (along
    /// the rows `extent_u` long, the board's centre at `centre_u`).
    fn fill(
        &mut self,
        pitch: f32,
        extent_u: f32,
        centre_u: f32,
        notes: &mut Vec<String>,
    ) -> Result<(), String> {
        loop {
            let missing: Vec<u8> = (1..=9u8)
                .filter(|&d| self.pos[d as usize].is_none())
                .collect();
            if missing.is_empty() {
                return Ok(());
            }
            let mut progressed = false;
            for d in missing {
                if let Some((at, row)) = self.place(d, pitch, extent_u, centre_u, notes) {
                    self.pos[d as usize] = Some(at);
                    self.row_of[d as usize] = row;
                    progressed = true;
                }
            }
            if !progressed {
                let list: Vec<String> = (1..=9)
                    .filter(|&d| self.pos[d].is_none())
                    .map(|d| d.to_string())
                    .collect();
                return Err(format!(
                    "number pad: digits {} neither seen nor placeable from the other keys' spacing",
                    list.join(",")
                ));
            }
        }
    }

    /// Where the missing digit `d` goes and in which row, when a known key places it.
    fn place(
        &self,
        d: u8,
        pitch: f32,
        extent_u: f32,
        centre_u: f32,
        notes: &mut Vec<String>,
    ) -> Option<((f32, f32), Option<usize>)> {
        let (pos, row_of) = (&self.pos, &self.row_of);
        let di = d as usize;
        let left = (1..di).rev().find(|&e| pos[e].is_some());
        let right = (di + 1..=9).find(|&e| pos[e].is_some());
        // Inside a row: between two keys of the same row.
        if let (Some(a), Some(b)) = (left, right)
            && row_of[a] == row_of[b]
        {
            let (ua, va) = pos[a].unwrap_or_default();
            return Some(((ua + (di - a) as f32 * pitch, va), row_of[a]));
        }
        // At the end of a row: only next to an immediate neighbour.
        let after = (d > 1).then(|| di - 1).filter(|&e| pos[e].is_some());
        let before = (d < 9).then(|| di + 1).filter(|&e| pos[e].is_some());
        let options: Vec<(usize, (f32, f32))> = after
            .map(|e| (e, pos[e].map(|(u, v)| (u + pitch, v))))
            .into_iter()
            .chain(before.map(|e| (e, pos[e].map(|(u, v)| (u - pitch, v)))))
            .filter_map(|(e, p)| Some((e, p?)))
            .filter(|(_, (u, _))| *u >= 0.0 && *u < extent_u)
            .collect();
        let chosen = match options.len() {
            0 => return None,
            1 => options[0],
            _ => {
                // Ends two rows: keep the keypad centred on the board.
                let lopsided = |o: &(usize, (f32, f32))| {
                    let mut us: Vec<f32> = (1..=9).filter_map(|e| pos[e].map(|p| p.0)).collect();
                    us.push(o.1.0);
                    let lo = us.iter().copied().fold(f32::MAX, f32::min);
                    let hi = us.iter().copied().fold(f32::MIN, f32::max);
                    ((lo + hi) / 2.0 - centre_u).abs()
                };
                let (a, b) = (lopsided(&options[0]), lopsided(&options[1]));
                if (a - b).abs() < pitch * 0.25 {
                    notes.push(format!(
                        "key {d} not seen: it could end the row of {} or start the row of {}; \
                         placed after {}",
                        d - 1,
                        d + 1,
                        d - 1
                    ));
                    options[0]
                } else if a < b {
                    options[0]
                } else {
                    options[1]
                }
            }
        };
        Some((chosen.1, row_of[chosen.0]))
    }
}
