//! Separating ink from a crop's own background, and finding the glyph in it.
//!
//! The background colour is the per-channel median of the crop's border, so tinted, selected
//! or highlighted cells work as well as plain ones, in light and dark themes. Ink strength is a
//! pixel's largest channel difference from that colour. Connected components of strong ink are
//! found; components too small for a main digit (pencil marks) and slivers of grid lines along
//! the border are left out.

use super::label::Labeller;
use image::RgbaImage;

/// Least ink contrast (0..255) for anything to count as ink.
pub const MIN_CONTRAST: u8 = 40;

/// A crop's ink analysis.
#[derive(Debug, Clone)]
pub struct Ink {
    /// The crop's top-left corner in the image.
    pub origin: [u32; 2],
    /// Crop width and height.
    pub w: usize,
    pub h: usize,
    /// Background colour: the border's, or a disc's after [`Ink::open_disc`].
    pub background: [u8; 3],
    /// The crop border's colour (the cell's own background).
    pub border: [u8; 3],
    /// Per-pixel ink strength, 0..255 (empty when a quick look found no ink at all).
    pub strength: Vec<u8>,
    /// Largest strength.
    pub max: u8,
    /// Per-pixel component label (0 = none).
    pub labels: Vec<u32>,
    /// Components, index = label - 1.
    pub components: Vec<Component>,
}

/// A connected blob of strong ink.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Component {
    /// Bounding box `[x0, y0, x1, y1]` inclusive, crop coordinates.
    pub bbox: [usize; 4],
    /// Pixels.
    pub area: usize,
}

impl Component {
    /// Bounding box height.
    pub fn height(&self) -> usize {
        self.bbox[3] - self.bbox[1] + 1
    }
    /// Bounding box width.
    pub fn width(&self) -> usize {
        self.bbox[2] - self.bbox[0] + 1
    }
}

/// A glyph found in a crop: the components that make it up and their joint box.
#[derive(Debug, Clone)]
pub struct Found {
    /// Labels of the glyph's components.
    pub labels: Vec<u32>,
    /// Joint bounding box, inclusive.
    pub bbox: [usize; 4],
}

impl Ink {
    /// Analyses `rect = [x0, y0, x1, y1)` of `img` (clamped to the image).
    pub(crate) fn analyse(img: &RgbaImage, rect: [u32; 4]) -> Ink {
        let x0 = rect[0].min(img.width());
        let y0 = rect[1].min(img.height());
        let x1 = rect[2].min(img.width()).max(x0);
        let y1 = rect[3].min(img.height()).max(y0);
        let (w, h) = ((x1 - x0) as usize, (y1 - y0) as usize);
        let stride = img.width() as usize * 4;
        let raw = img.as_raw();
        let row = |y: usize| {
            let start = (y0 as usize + y) * stride + x0 as usize * 4;
            &raw[start..start + w * 4]
        };
        let background = border_median(w, h, &row);
        let [br, bg, bb] = background;
        // Most cells are empty: a look at every other pixel of every other row settles them.
        let coarse = (0..h)
            .step_by(2)
            .map(|y| sampled_max(row(y), background))
            .max()
            .unwrap_or(0);
        if coarse < MIN_CONTRAST / 2 {
            return Ink {
                origin: [x0, y0],
                w,
                h,
                background,
                border: background,
                strength: Vec::new(),
                max: coarse,
                labels: Vec::new(),
                components: Vec::new(),
            };
        }
        let mut strength = vec![0u8; w * h];
        let mut max = 0u8;
        for y in 0..h {
            let out = &mut strength[y * w..(y + 1) * w];
            for (s, p) in out.iter_mut().zip(row(y).chunks_exact(4)) {
                *s = p[0]
                    .abs_diff(br)
                    .max(p[1].abs_diff(bg))
                    .max(p[2].abs_diff(bb));
            }
            max = max.max(out.iter().copied().max().unwrap_or(0));
        }
        let mut ink = Ink {
            origin: [x0, y0],
            w,
            h,
            background,
            border: background,
            strength,
            max,
            labels: vec![0; w * h],
            components: Vec::new(),
        };
        if max >= MIN_CONTRAST {
            ink.label();
        }
        ink
    }

    /// Strength at or above which a pixel is strong ink.
    pub fn threshold(&self) -> u8 {
        ((self.max as u32 * 45 / 100) as u8).max(MIN_CONTRAST * 3 / 4)
    }

    /// Labels 8-connected components of strong ink.
    fn label(&mut self) {
        let t = self.threshold();
        let mut labeller = Labeller::default();
        labeller.label(
            &self.strength,
            self.w,
            [0, 0, self.w as u32, self.h as u32],
            |s| s >= t,
        );
        for (i, blob) in labeller.blobs(|_, _| true).into_iter().enumerate() {
            for &(y, x0, x1) in &blob.runs {
                let row = y as usize * self.w;
                self.labels[row + x0 as usize..row + x1 as usize].fill(i as u32 + 1);
            }
            let [x0, y0, x1, y1] = blob.bbox.map(|v| v as usize);
            self.components.push(Component {
                bbox: [x0, y0, x1 - 1, y1 - 1],
                area: blob.area as usize,
            });
        }
    }

    /// Whether a component cannot be (part of) a digit: a sliver of a grid line along the
    /// border, or a frame around the cell (wider than any digit).
    pub(crate) fn rejected(&self, c: &Component) -> bool {
        let touches =
            c.bbox[0] == 0 || c.bbox[1] == 0 || c.bbox[2] + 1 >= self.w || c.bbox[3] + 1 >= self.h;
        let thin = c.width().min(c.height()) * 8 <= self.w.min(self.h);
        (touches && thin) || c.width() * 5 > self.w * 4
    }

    /// The tallest component that could be a digit: `(label, height)`.
    pub(crate) fn tallest(&self) -> Option<(u32, usize)> {
        self.components
            .iter()
            .enumerate()
            .filter(|(_, c)| !self.rejected(c))
            .max_by_key(|(_, c)| (c.height(), c.area))
            .map(|(i, c)| (i as u32 + 1, c.height()))
    }

    /// The main glyph: the tallest component that is at least `min_height` tall and could be a
    /// digit ([`Ink::rejected`]), plus the components overlapping it.
    pub(crate) fn main_glyph(&self, min_height: usize) -> Option<Found> {
        let (main_label, height) = self.tallest()?;
        if height < min_height {
            return None;
        }
        let main_i = main_label as usize - 1;
        let pad = self.w.min(self.h) / 12;
        let b = self.components[main_i].bbox;
        let mut found = Found {
            labels: vec![main_label],
            bbox: b,
        };
        for (i, c) in self.components.iter().enumerate() {
            if i == main_i || self.rejected(c) {
                continue;
            }
            let inside = c.bbox[0] + pad >= b[0]
                && c.bbox[2] <= b[2] + pad
                && c.bbox[1] + pad >= b[1]
                && c.bbox[3] <= b[3] + pad;
            if inside {
                found.labels.push(i as u32 + 1);
                let f = found.bbox;
                found.bbox = [
                    f[0].min(c.bbox[0]),
                    f[1].min(c.bbox[1]),
                    f[2].max(c.bbox[2]),
                    f[3].max(c.bbox[3]),
                ];
            }
        }
        Some(found)
    }

    /// Looks inside a filled disc or box that holds the digit in the background's colour (a
    /// selected or highlighted number drawn light on a dark disc, or the reverse): when the
    /// crop's biggest component is such a disc, the pixels it encloses are re-analysed against
    /// the disc's colour, which becomes [`Ink::background`]. Returns the disc's colour.
    pub(crate) fn open_disc(&mut self, img: &RgbaImage) -> Option<[u8; 3]> {
        let (label, disc) = self.largest_disc()?;
        let outside = self.outside_of(label, &disc);
        if !self.encloses_centred(label, &disc, &outside) {
            return None;
        }
        let colour = self.median_colour(img, label, &disc);
        // Re-analyse the enclosed pixels against the disc's colour; the rest is background.
        let [x0, y0, ..] = disc.bbox;
        let bw = disc.width();
        self.strength.iter_mut().for_each(|s| *s = 0);
        let mut max = 0u8;
        for (j, _) in outside.iter().enumerate().filter(|(_, out)| !**out) {
            let (x, y) = (x0 + j % bw, y0 + j / bw);
            let p = self.pixel(img, x, y);
            let s = (0..3).map(|c| p[c].abs_diff(colour[c])).max().unwrap_or(0);
            self.strength[y * self.w + x] = s;
            max = max.max(s);
        }
        self.background = colour;
        self.max = max;
        self.labels.iter_mut().for_each(|l| *l = 0);
        self.components.clear();
        if max >= MIN_CONTRAST {
            self.label();
        }
        Some(colour)
    }

    /// The crop's biggest component and its label, when it is a filled disc or box: round, at
    /// least 60% of the crop's side across, filling at least 55% of its box.
    fn largest_disc(&self) -> Option<(u32, Component)> {
        let side = self.w.min(self.h);
        let (i, disc) = self
            .components
            .iter()
            .enumerate()
            .max_by_key(|(_, c)| c.area)?;
        let (dw, dh) = (disc.width(), disc.height());
        let round = dw * 5 >= dh * 4 && dh * 5 >= dw * 4;
        if dw * 10 < side * 6 || dh * 10 < side * 6 || !round || disc.area * 20 < dw * dh * 11 {
            return None;
        }
        Some((i as u32 + 1, *disc))
    }

    /// Per pixel of `disc`'s box (row by row), whether it is outside the disc: reachable from
    /// the box's edge without crossing it. The rest are the disc and what it encloses.
    fn outside_of(&self, label: u32, disc: &Component) -> Vec<bool> {
        let [x0, y0, ..] = disc.bbox;
        let (bw, bh) = (disc.width(), disc.height());
        let mut outside = vec![false; bw * bh];
        let mut stack: Vec<usize> = Vec::new();
        let is_disc = |x: usize, y: usize| self.labels[(y0 + y) * self.w + x0 + x] == label;
        for y in 0..bh {
            for x in 0..bw {
                if (x == 0 || y == 0 || x + 1 == bw || y + 1 == bh) && !is_disc(x, y) {
                    outside[y * bw + x] = true;
                    stack.push(y * bw + x);
                }
            }
        }
        while let Some(j) = stack.pop() {
            let (x, y) = (j % bw, j / bw);
            for (nx, ny) in [
                (x.wrapping_sub(1), y),
                (x + 1, y),
                (x, y.wrapping_sub(1)),
                (x, y + 1),
            ] {
                if nx < bw && ny < bh && !outside[ny * bw + nx] && !is_disc(nx, ny) {
                    outside[ny * bw + nx] = true;
                    stack.push(ny * bw + nx);
                }
            }
        }
        outside
    }

    /// Whether `disc` encloses something centred across it, as a disc holds its digit in the
    /// middle. A solid bold glyph (a 4, whose small closed triangle sits left of its middle) is
    /// no disc.
    fn encloses_centred(&self, label: u32, disc: &Component, outside: &[bool]) -> bool {
        let [x0, y0, ..] = disc.bbox;
        let bw = disc.width();
        let enclosed = outside.iter().enumerate().filter(|&(j, &out)| {
            !out && self.labels[(y0 + j / bw) * self.w + x0 + j % bw] != label
        });
        let (hx0, hx1) = enclosed.fold((usize::MAX, 0), |(lo, hi), (j, _)| {
            (lo.min(j % bw), hi.max(j % bw))
        });
        hx0 != usize::MAX && (hx0 + hx1 + 1).abs_diff(bw) * 100 <= bw * 24
    }

    /// The median colour of component `label`'s pixels.
    fn median_colour(&self, img: &RgbaImage, label: u32, disc: &Component) -> [u8; 3] {
        let [x0, y0, x1, y1] = disc.bbox;
        let box_pixels = (y0..=y1).flat_map(|y| (x0..=x1).map(move |x| (x, y)));
        let disc_pixels = box_pixels.filter(|&(x, y)| self.labels[y * self.w + x] == label);
        self.median_at(img, disc_pixels).unwrap_or_default()
    }

    /// The median colour of the crop's pixels `at` (`None` for none).
    fn median_at(
        &self,
        img: &RgbaImage,
        at: impl Iterator<Item = (usize, usize)>,
    ) -> Option<[u8; 3]> {
        let mut hist = [[0u32; 256]; 3];
        let mut n = 0u32;
        for (x, y) in at {
            let p = self.pixel(img, x, y);
            (0..3).for_each(|c| hist[c][p[c] as usize] += 1);
            n += 1;
        }
        (n > 0).then(|| hist.map(|h| median(&h, n)))
    }

    /// The colour of the crop's pixel (`x`, `y`) in `img`.
    fn pixel<'i>(&self, img: &'i RgbaImage, x: usize, y: usize) -> &'i [u8] {
        let stride = img.width() as usize * 4;
        let [ox, oy] = self.origin.map(|v| v as usize);
        let o = (oy + y) * stride + (ox + x) * 4;
        &img.as_raw()[o..o + 3]
    }

    /// The background just around a glyph (a disc or tint behind the digit, or the cell's own
    /// background): the median colour of a ring outside the glyph's box, weak-ink pixels only.
    pub(crate) fn surround(&self, img: &RgbaImage, found: &Found) -> [u8; 3] {
        let [x0, y0, x1, y1] = found.bbox;
        let m = ((y1 - y0 + 1) / 8).max(2);
        let (ox0, oy0) = (x0.saturating_sub(m), y0.saturating_sub(m));
        let (ox1, oy1) = ((x1 + m).min(self.w - 1), (y1 + m).min(self.h - 1));
        let t = self.threshold() / 2;
        let ring = (oy0..=oy1).flat_map(|y| (ox0..=ox1).map(move |x| (x, y)));
        let weak = ring.filter(|&(x, y)| {
            let inside = x >= x0 && x <= x1 && y >= y0 && y <= y1;
            !inside && self.strength.get(y * self.w + x).is_none_or(|&s| s < t)
        });
        self.median_at(img, weak).unwrap_or(self.background)
    }

    /// The glyph's coverage map (0..1) over its bounding box: strong-ink pixels of other
    /// components are blanked; faint anti-aliasing around the glyph is kept.
    pub fn coverage(&self, found: &Found) -> (Vec<f32>, usize, usize) {
        let [x0, y0, x1, y1] = found.bbox;
        let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
        let full = (self.max as f32 * 0.9).max(1.0);
        let mut cov = Vec::with_capacity(w * h);
        for y in y0..=y1 {
            for x in x0..=x1 {
                let i = y * self.w + x;
                let l = self.labels[i];
                let v = if l == 0 || found.labels.contains(&l) {
                    (self.strength[i] as f32 / full).min(1.0)
                } else {
                    0.0
                };
                cov.push(v);
            }
        }
        (cov, w, h)
    }
}

/// The largest channel difference from `background` over every other pixel of an RGBA row
/// (the first, the third, ...), written as a plain maximum over masked bytes so that it
/// compiles to vector instructions.
fn sampled_max(row: &[u8], background: [u8; 3]) -> u8 {
    const N: usize = 32;
    let pattern: [u8; N] = std::array::from_fn(|k| background.get(k % 8).copied().unwrap_or(0));
    let keep: [u8; N] = std::array::from_fn(|k| if k % 8 < 3 { 0xff } else { 0 });
    let mut acc = [0u8; N];
    let mut chunks = row.chunks_exact(N);
    for c in &mut chunks {
        for k in 0..N {
            acc[k] = acc[k].max(c[k].abs_diff(pattern[k]) & keep[k]);
        }
    }
    let rest = chunks.remainder().chunks_exact(8).map(|p| {
        (0..3)
            .map(|c| p[c].abs_diff(background[c]))
            .fold(0, u8::max)
    });
    acc.into_iter().chain(rest).fold(0, u8::max)
}

/// Per-channel median of the 2-pixel border of a `w x h` crop; `row(y)` gives RGBA row `y`.
fn border_median<'a>(w: usize, h: usize, row: &impl Fn(usize) -> &'a [u8]) -> [u8; 3] {
    let mut hist = [[0u32; 256]; 3];
    let mut n = 0u32;
    let ring = 2.min(w / 2).min(h / 2);
    let mut add = |p: &[u8]| {
        for c in 0..3 {
            hist[c][p[c] as usize] += 1;
        }
        n += 1;
    };
    for y in 0..h {
        let r = row(y);
        if y < ring || y + ring >= h {
            r.chunks_exact(4).for_each(&mut add);
        } else {
            r[..ring * 4].chunks_exact(4).for_each(&mut add);
            r[(w - ring) * 4..].chunks_exact(4).for_each(&mut add);
        }
    }
    hist.map(|h| median(&h, n))
}

/// The median of `n` values counted in a histogram.
fn median(hist: &[u32; 256], n: u32) -> u8 {
    let mut acc = 0;
    for (v, &k) in hist.iter().enumerate() {
        acc += k;
        if acc * 2 >= n {
            return v as u8;
        }
    }
    255
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampled_max_looks_at_every_other_pixel_whatever_the_row_width() {
        let mut state = 7u32;
        let bytes: Vec<u8> = (0..4 * 97)
            .map(|_| {
                state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                (state >> 24) as u8
            })
            .collect();
        let background = [120, 60, 200];
        for pixels in [0, 1, 2, 7, 8, 9, 16, 17, 96, 97] {
            let row = &bytes[..4 * pixels];
            let naive = row
                .chunks_exact(8)
                .flat_map(|p| (0..3).map(|c| p[c].abs_diff(background[c])))
                .max()
                .unwrap_or(0);
            assert_eq!(sampled_max(row, background), naive, "{pixels} pixels");
        }
    }
}
