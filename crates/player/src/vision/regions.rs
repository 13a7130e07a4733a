//! Shapes on a screen at every contrast: the connected components of a grey plane thresholded
//! at many levels, in both polarities (dark on light and light on dark).
//!
//! A digit on a key, a key on a panel, an icon on a button and a letter of a word are each a
//! component at some threshold, whatever their colours, and neighbouring keys stay apart even
//! when their gaps are narrow (a fixed local-contrast mask would merge them into one blob). The
//! same shape shows at several neighbouring levels with nearly the same box: those copies are
//! merged into one [`Region`], whose `levels` says how stable it is.

use super::glyph::Glyph;
use super::gray::Gray;
use super::label::Labeller;

/// A shape found at one or more threshold levels.
#[derive(Debug, Clone)]
pub struct Region {
    /// Bounding box `[x0, y0, x1, y1)` in image pixels.
    pub bbox: [u32; 4],
    /// Pixels in the shape.
    pub area: u32,
    /// Darker than its surroundings (`false`: lighter).
    pub dark: bool,
    /// The threshold of the representative copy.
    pub level: u8,
    /// How many threshold levels showed this shape with nearly the same box.
    pub levels: u32,
    /// The shape's pixels, as runs `(y, x0, x1)` (image pixels, `x1` exclusive).
    pub runs: Vec<(u32, u32, u32)>,
}

impl Region {
    /// Width and height.
    pub fn size(&self) -> (u32, u32) {
        (self.bbox[2] - self.bbox[0], self.bbox[3] - self.bbox[1])
    }

    /// Height.
    pub fn height(&self) -> u32 {
        self.bbox[3] - self.bbox[1]
    }

    /// Width.
    pub fn width(&self) -> u32 {
        self.bbox[2] - self.bbox[0]
    }

    /// Centre of the box.
    pub fn center(&self) -> (u32, u32) {
        (
            (self.bbox[0] + self.bbox[2]) / 2,
            (self.bbox[1] + self.bbox[3]) / 2,
        )
    }

    /// The shape as a coverage map over its box (1 inside, 0 outside), row-major.
    #[cfg(test)]
    fn mask(&self) -> Vec<f32> {
        let (w, h) = self.size();
        let mut m = vec![0f32; (w * h) as usize];
        for &(y, x0, x1) in &self.runs {
            let row = (y - self.bbox[1]) * w;
            for x in x0..x1 {
                m[(row + x - self.bbox[0]) as usize] = 1.0;
            }
        }
        m
    }

    /// Whether pixel `(x, y)` is part of the shape.
    pub fn contains(&self, x: u32, y: u32) -> bool {
        let first = self.runs.partition_point(|r| r.0 < y);
        self.runs[first..]
            .iter()
            .take_while(|r| r.0 == y)
            .any(|r| x >= r.1 && x < r.2)
    }

    /// Whether this shape is a part of `other` (the same shape at another level, bigger): shapes
    /// of one polarity are nested or apart, so one shared pixel settles it.
    pub(crate) fn is_part_of(&self, other: &Region) -> bool {
        self.dark == other.dark
            && other.area > self.area
            && self.runs.first().is_some_and(|r| other.contains(r.1, r.0))
    }

    /// Fraction of the box that the shape fills.
    pub fn fill(&self) -> f32 {
        let (w, h) = self.size();
        self.area as f32 / (w * h).max(1) as f32
    }
}

/// The normalised glyph of shapes of one polarity, with anti-aliasing: over their joint box,
/// grey levels between the shapes' ink and their surroundings, within the shapes grown by one
/// pixel (so that neighbours stay out and thin strokes stay whole).
pub fn glyph(gray: &Gray, shapes: &[&Region]) -> Option<Glyph> {
    let first = shapes.first()?;
    let b = shapes.iter().fold(first.bbox, |a, r| {
        [
            a[0].min(r.bbox[0]),
            a[1].min(r.bbox[1]),
            a[2].max(r.bbox[2]),
            a[3].max(r.bbox[3]),
        ]
    });
    let (w, h) = ((b[2] - b[0]) as usize, (b[3] - b[1]) as usize);
    // 2 inside, 1 on the one-pixel rim, 0 outside.
    let mut zone = vec![0u8; w * h];
    for r in shapes {
        for &(y, x0, x1) in &r.runs {
            let row = (y - b[1]) as usize * w;
            for x in x0..x1 {
                zone[row + (x - b[0]) as usize] = 2;
            }
        }
    }
    for y in 0..h {
        for x in 0..w {
            if zone[y * w + x] != 0 {
                continue;
            }
            let near = (y.saturating_sub(1)..(y + 2).min(h))
                .any(|yy| (x.saturating_sub(1)..(x + 2).min(w)).any(|xx| zone[yy * w + xx] == 2));
            if near {
                zone[y * w + x] = 1;
            }
        }
    }
    let px = |i: usize| gray.data[(b[1] as usize + i / w) * gray.width + b[0] as usize + i % w];
    let median = |z: u8| {
        let mut v: Vec<u8> = (0..w * h).filter(|&i| zone[i] == z).map(px).collect();
        v.sort_unstable();
        v.get(v.len() / 2).map(|&m| m as f32)
    };
    let ink = median(2)?;
    let bg = median(0).unwrap_or(if first.dark { 255.0 } else { 0.0 });
    let span = bg - ink;
    let cov: Vec<f32> = (0..w * h)
        .map(|i| match zone[i] {
            0 => 0.0,
            _ if span.abs() < 8.0 => (zone[i] == 2) as u8 as f32,
            _ => ((bg - px(i) as f32) / span).clamp(0.0, 1.0),
        })
        .collect();
    Glyph::from_coverage(&cov, w, h)
}

/// Which shapes to keep.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Least and greatest height, pixels.
    pub min_h: u32,
    pub max_h: u32,
    /// Greatest width, pixels.
    pub max_w: u32,
    /// Least number of pixels.
    pub min_area: u32,
}

impl Limits {
    /// Whether a shape with this box `[x0, y0, x1, y1)` and area is within the limits.
    fn admit(&self, [x0, y0, x1, y1]: [u32; 4], area: u32) -> bool {
        let (w, h) = (x1 - x0, y1 - y0);
        h >= self.min_h && h <= self.max_h && w <= self.max_w && area >= self.min_area
    }
}

/// Distance between threshold levels.
const STEP: usize = 12;

/// The regions of `rect = [x0, y0, x1, y1)` of `gray` whose size is within `limits`, most stable
/// first within equal boxes (see the module documentation).
pub(crate) fn extract(gray: &Gray, rect: [u32; 4], limits: Limits) -> Vec<Region> {
    let x0 = rect[0].min(gray.width as u32);
    let y0 = rect[1].min(gray.height as u32);
    let x1 = rect[2].min(gray.width as u32).max(x0);
    let y1 = rect[3].min(gray.height as u32).max(y0);
    if x1 == x0 || y1 == y0 {
        return Vec::new();
    }
    let mut found: Vec<Region> = Vec::new();
    let mut labeller = Labeller::default();
    for level in (STEP..256 - STEP / 2).step_by(STEP) {
        let t = level as u8;
        for dark in [true, false] {
            let inside = |v: u8| if dark { v < t } else { v >= t };
            labeller.label(&gray.data, gray.width, [x0, y0, x1, y1], inside);
            for c in labeller.blobs(|bbox, area| limits.admit(bbox, area)) {
                found.push(Region {
                    bbox: c.bbox,
                    area: c.area,
                    dark,
                    level: t,
                    levels: 1,
                    runs: c.runs,
                });
            }
        }
    }
    merge_copies(found)
}

/// Merges copies of one shape at neighbouring levels (same polarity, nearly the same box) into
/// the copy at their middle level.
fn merge_copies(mut found: Vec<Region>) -> Vec<Region> {
    found.sort_by_key(|r| (r.dark, r.bbox[0], r.bbox[1], r.level));
    let close = |a: &Region, b: &Region| {
        let tol = (a.height().min(b.height()) / 12).max(1);
        a.dark == b.dark && (0..4).all(|i| a.bbox[i].abs_diff(b.bbox[i]) <= tol)
    };
    let mut groups: Vec<Vec<Region>> = Vec::new();
    'next: for r in found {
        // Groups are in x0 order per polarity: look back only over those that can still match.
        for g in groups.iter_mut().rev() {
            let last = g.last().expect("groups are never empty");
            if last.dark != r.dark || last.bbox[0] + last.height() / 12 + 1 < r.bbox[0] {
                break;
            }
            if close(last, &r) && g.iter().all(|x| x.level != r.level) {
                g.push(r);
                continue 'next;
            }
        }
        groups.push(vec![r]);
    }
    groups
        .into_iter()
        .map(|mut g| {
            g.sort_by_key(|r| r.level);
            let n = g.len() as u32;
            let mut mid = g.swap_remove(g.len() / 2);
            mid.levels = n;
            mid
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A light square with a dark ring inside, on a mid-grey background.
    fn plane() -> Gray {
        let (w, h) = (60usize, 40usize);
        let mut data = vec![128u8; w * h];
        for y in 5..35 {
            for x in 5..35 {
                data[y * w + x] = 240;
            }
        }
        for y in 10..30 {
            for x in 10..30 {
                let ring = !(14..26).contains(&x) || !(14..26).contains(&y);
                if ring {
                    data[y * w + x] = 20;
                }
            }
        }
        // Two bars one pixel apart diagonally: 8-connected, one shape.
        for y in 10..20 {
            data[y * w + 45] = 20;
        }
        for y in 20..30 {
            data[y * w + 46] = 20;
        }
        Gray {
            width: w,
            height: h,
            data,
        }
    }

    #[test]
    fn finds_each_shape_once_in_its_polarity() {
        let limits = Limits {
            min_h: 5,
            max_h: 40,
            max_w: 60,
            min_area: 4,
        };
        let regions = extract(&plane(), [0, 0, 60, 40], limits);
        let dark: Vec<&Region> = regions.iter().filter(|r| r.dark).collect();
        let ring = dark.iter().find(|r| r.bbox == [10, 10, 30, 30]).unwrap();
        assert_eq!(ring.area, 20 * 20 - 12 * 12);
        assert!(ring.levels > 5, "stable over many levels: {}", ring.levels);
        assert!(dark.iter().any(|r| r.bbox == [45, 10, 47, 30]), "{dark:?}");
        let light: Vec<&Region> = regions.iter().filter(|r| !r.dark).collect();
        assert!(light.iter().any(|r| r.bbox == [5, 5, 35, 35]));
        assert!(light.iter().any(|r| r.bbox == [14, 14, 26, 26]), "the hole");
        let mask = ring.mask();
        assert_eq!(mask.iter().filter(|&&v| v > 0.0).count() as u32, ring.area);
        let same = regions
            .iter()
            .filter(|r| r.dark && r.bbox == [10, 10, 30, 30])
            .count();
        assert_eq!(same, 1, "copies merged");
        assert!(ring.contains(10, 10) && !ring.contains(20, 20));
    }
}
