//! Separating ink from a crop's own background, and finding the glyph in it.
//!
//! The background colour is the per-channel median of the crop's border, so tinted, selected
//! or highlighted cells work as well as plain ones, in light and dark themes. Ink strength is a
//! pixel's largest channel difference from that colour. Connected components of strong ink are
//! found; components too small for a main digit (pencil marks) and slivers of grid lines along
//! the border are left out.

use image::RgbaImage;

/// Least ink contrast (0..255) for anything to count as ink.
pub const MIN_CONTRAST: u8 = 40;

/// A crop's ink analysis.
#[derive(Debug, Clone)]
pub struct Ink {
    /// Crop width and height.
    pub w: usize,
    pub h: usize,
    /// Background colour.
    pub background: [u8; 3],
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
    pub fn analyse(img: &RgbaImage, rect: [u32; 4]) -> Ink {
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
        let diff = |p: &[u8]| {
            p[0].abs_diff(br)
                .max(p[1].abs_diff(bg))
                .max(p[2].abs_diff(bb))
        };
        // Most cells are empty: a look at every other pixel of every other row settles them.
        let coarse = (0..h)
            .step_by(2)
            .flat_map(|y| row(y).chunks_exact(8).map(|p| diff(&p[..4])))
            .max()
            .unwrap_or(0);
        if coarse < MIN_CONTRAST / 2 {
            return Ink {
                w,
                h,
                background,
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
            w,
            h,
            background,
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
        let (w, h) = (self.w, self.h);
        let mut stack = Vec::new();
        for start in 0..w * h {
            if self.strength[start] < t || self.labels[start] != 0 {
                continue;
            }
            let label = self.components.len() as u32 + 1;
            let mut c = Component {
                bbox: [w, h, 0, 0],
                area: 0,
            };
            self.labels[start] = label;
            stack.push(start);
            while let Some(i) = stack.pop() {
                let (x, y) = (i % w, i / w);
                c.area += 1;
                c.bbox = [
                    c.bbox[0].min(x),
                    c.bbox[1].min(y),
                    c.bbox[2].max(x),
                    c.bbox[3].max(y),
                ];
                for dy in -1i32..=1 {
                    for dx in -1i32..=1 {
                        let (nx, ny) = (x as i32 + dx, y as i32 + dy);
                        if nx < 0 || ny < 0 || nx >= w as i32 || ny >= h as i32 {
                            continue;
                        }
                        let j = ny as usize * w + nx as usize;
                        if self.labels[j] == 0 && self.strength[j] >= t {
                            self.labels[j] = label;
                            stack.push(j);
                        }
                    }
                }
            }
            self.components.push(c);
        }
    }

    /// The main glyph: the tallest component that is at least `min_height` tall and not a sliver
    /// of a grid line along the border, plus the components overlapping it.
    pub fn main_glyph(&self, min_height: usize) -> Option<Found> {
        let sliver = |c: &Component| {
            let touches = c.bbox[0] == 0
                || c.bbox[1] == 0
                || c.bbox[2] + 1 >= self.w
                || c.bbox[3] + 1 >= self.h;
            let thin = c.width().min(c.height()) * 8 <= self.w.min(self.h);
            touches && thin
        };
        let (main_i, main) = self
            .components
            .iter()
            .enumerate()
            .filter(|(_, c)| !sliver(c))
            .max_by_key(|(_, c)| (c.height(), c.area))?;
        if main.height() < min_height {
            return None;
        }
        let pad = self.w.min(self.h) / 12;
        let b = main.bbox;
        let mut found = Found {
            labels: vec![main_i as u32 + 1],
            bbox: b,
        };
        for (i, c) in self.components.iter().enumerate() {
            if i == main_i || sliver(c) {
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
    let mut out = [0u8; 3];
    for c in 0..3 {
        let mut acc = 0;
        for (v, &k) in hist[c].iter().enumerate() {
            acc += k;
            if acc * 2 >= n {
                out[c] = v as u8;
                break;
            }
        }
    }
    out
}
