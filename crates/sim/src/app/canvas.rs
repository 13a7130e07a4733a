//! Raster primitives on an RGBA buffer: solid and blended rectangles, anti-aliased rounded
//! rectangles and circles, and coverage masks (glyphs). Everything is clipped to the image.

use super::geometry::Rect;
use super::palette::Rgb;

/// A drawable view of an RGBA image (alpha is always 255).
pub struct Canvas<'a> {
    buf: &'a mut [u8],
    w: i32,
    h: i32,
    /// The opacity (0..=255) of what [`Canvas::mask`] draws: text an app draws at reduced
    /// alpha.
    ink_opacity: u32,
}

/// `dst` moved towards `src` by `a / 255`.
#[inline(always)]
fn mix(dst: u8, src: u8, a: u32) -> u8 {
    ((dst as u32 * (255 - a) + src as u32 * a + 127) / 255) as u8
}

impl<'a> Canvas<'a> {
    /// Wraps a `w x h` RGBA buffer.
    pub fn new(buf: &'a mut [u8], w: u32, h: u32) -> Self {
        debug_assert_eq!(buf.len(), w as usize * h as usize * 4);
        Canvas {
            buf,
            w: w as i32,
            h: h as i32,
            ink_opacity: 255,
        }
    }

    /// Sets the opacity (0..=255) of the masks (glyphs) drawn from now on.
    pub fn set_ink_opacity(&mut self, alpha: u8) {
        self.ink_opacity = u32::from(alpha);
    }

    /// The part of `r` inside the image, as (x0, y0, x1, y1).
    fn clip(&self, r: Rect) -> Option<(i32, i32, i32, i32)> {
        let x0 = r.x.max(0);
        let y0 = r.y.max(0);
        let x1 = r.right().min(self.w);
        let y1 = r.bottom().min(self.h);
        (x0 < x1 && y0 < y1).then_some((x0, y0, x1, y1))
    }

    /// Fills `r` with an opaque colour.
    pub fn fill(&mut self, r: Rect, c: Rgb) {
        let Some((x0, y0, x1, y1)) = self.clip(r) else {
            return;
        };
        let px = [c[0], c[1], c[2], 255];
        let row_len = ((x1 - x0) * 4) as usize;
        let first = ((y0 * self.w + x0) * 4) as usize;
        for chunk in self.buf[first..first + row_len].chunks_exact_mut(4) {
            chunk.copy_from_slice(&px);
        }
        for y in y0 + 1..y1 {
            let start = ((y * self.w + x0) * 4) as usize;
            self.buf.copy_within(first..first + row_len, start);
        }
    }

    /// Blends `c` over `r` with opacity `alpha` (0..=255).
    pub fn blend(&mut self, r: Rect, c: Rgb, alpha: u8) {
        let Some((x0, y0, x1, y1)) = self.clip(r) else {
            return;
        };
        let a = alpha as u32;
        for y in y0..y1 {
            let start = ((y * self.w + x0) * 4) as usize;
            let end = ((y * self.w + x1) * 4) as usize;
            for p in self.buf[start..end].chunks_exact_mut(4) {
                p[0] = mix(p[0], c[0], a);
                p[1] = mix(p[1], c[1], a);
                p[2] = mix(p[2], c[2], a);
            }
        }
    }

    /// One pixel with coverage `cov` (0..=255).
    #[inline(always)]
    fn plot(&mut self, x: i32, y: i32, c: Rgb, cov: u32) {
        if cov == 0 || x < 0 || y < 0 || x >= self.w || y >= self.h {
            return;
        }
        let i = ((y * self.w + x) * 4) as usize;
        let p = &mut self.buf[i..i + 4];
        p[0] = mix(p[0], c[0], cov);
        p[1] = mix(p[1], c[1], cov);
        p[2] = mix(p[2], c[2], cov);
    }

    /// Coverage of the pixel at (x, y) by a disc of radius `r` centred at (cx, cy).
    #[inline(always)]
    fn disc_coverage(x: i32, y: i32, cx: f32, cy: f32, r: f32) -> u32 {
        let dx = x as f32 + 0.5 - cx;
        let dy = y as f32 + 0.5 - cy;
        let d = (dx * dx + dy * dy).sqrt();
        ((r - d + 0.5).clamp(0.0, 1.0) * 255.0).round() as u32
    }

    /// Fills `r` with rounded corners of `radius` pixels, anti-aliased.
    pub(crate) fn round_rect(&mut self, r: Rect, radius: i32, c: Rgb) {
        let rad = radius.clamp(0, (r.w.min(r.h) / 2).max(0));
        if rad == 0 {
            return self.fill(r, c);
        }
        self.fill(Rect::new(r.x, r.y + rad, r.w, r.h - 2 * rad), c);
        self.fill(Rect::new(r.x + rad, r.y, r.w - 2 * rad, rad), c);
        self.fill(
            Rect::new(r.x + rad, r.bottom() - rad, r.w - 2 * rad, rad),
            c,
        );
        let radf = rad as f32;
        let corners = [
            (r.x, r.y, r.x as f32 + radf, r.y as f32 + radf),
            (
                r.right() - rad,
                r.y,
                (r.right() - rad) as f32,
                r.y as f32 + radf,
            ),
            (
                r.x,
                r.bottom() - rad,
                r.x as f32 + radf,
                (r.bottom() - rad) as f32,
            ),
            (
                r.right() - rad,
                r.bottom() - rad,
                (r.right() - rad) as f32,
                (r.bottom() - rad) as f32,
            ),
        ];
        for (x0, y0, cx, cy) in corners {
            for y in y0..y0 + rad {
                for x in x0..x0 + rad {
                    self.plot(x, y, c, Self::disc_coverage(x, y, cx, cy, radf));
                }
            }
        }
    }

    /// A rounded rectangle with a `border`-pixel outline in `line` around a `fill` interior.
    pub(crate) fn outlined_round_rect(
        &mut self,
        r: Rect,
        radius: i32,
        border: i32,
        line: Rgb,
        fill: Rgb,
    ) {
        self.round_rect(r, radius, line);
        let inner = Rect::new(
            r.x + border,
            r.y + border,
            r.w - 2 * border,
            r.h - 2 * border,
        );
        self.round_rect(inner, (radius - border).max(0), fill);
    }

    /// A filled, anti-aliased disc.
    pub fn disc(&mut self, cx: f32, cy: f32, r: f32, c: Rgb) {
        let (x0, y0) = ((cx - r - 1.0).floor() as i32, (cy - r - 1.0).floor() as i32);
        let (x1, y1) = ((cx + r + 1.0).ceil() as i32, (cy + r + 1.0).ceil() as i32);
        for y in y0..y1 {
            for x in x0..x1 {
                self.plot(x, y, c, Self::disc_coverage(x, y, cx, cy, r));
            }
        }
    }

    /// Blends a coverage mask (`w` wide, row-major) with its top-left at (x, y).
    pub fn mask(&mut self, x: i32, y: i32, w: u32, coverage: &[u8], c: Rgb) {
        if w == 0 {
            return;
        }
        for (row, line) in coverage.chunks_exact(w as usize).enumerate() {
            let py = y + row as i32;
            if py < 0 || py >= self.h {
                continue;
            }
            for (col, &cov) in line.iter().enumerate() {
                let cov = match self.ink_opacity {
                    255 => cov as u32,
                    a => (cov as u32 * a + 127) / 255,
                };
                self.plot(x + col as i32, py, c, cov);
            }
        }
    }

    /// A polyline through `points`, `width` pixels wide with round ends, anti-aliased.
    pub fn stroke(&mut self, points: &[(f32, f32)], width: f32, c: Rgb) {
        let half = width / 2.0;
        let xs = points.iter().map(|p| p.0);
        let ys = points.iter().map(|p| p.1);
        let (x0, x1) = (
            xs.clone().fold(f32::MAX, f32::min),
            xs.fold(f32::MIN, f32::max),
        );
        let (y0, y1) = (
            ys.clone().fold(f32::MAX, f32::min),
            ys.fold(f32::MIN, f32::max),
        );
        let segments: Vec<_> = points.windows(2).map(|w| (w[0], w[1])).collect();
        for y in (y0 - half - 1.0).floor() as i32..(y1 + half + 1.0).ceil() as i32 {
            for x in (x0 - half - 1.0).floor() as i32..(x1 + half + 1.0).ceil() as i32 {
                let p = (x as f32 + 0.5, y as f32 + 0.5);
                let d = segments
                    .iter()
                    .map(|&(a, b)| distance_to_segment(p, a, b))
                    .fold(f32::MAX, f32::min);
                let cov = ((half - d + 0.5).clamp(0.0, 1.0) * 255.0).round() as u32;
                self.plot(x, y, c, cov);
            }
        }
    }
}

/// The distance from `p` to the segment `a`-`b`.
fn distance_to_segment(p: (f32, f32), a: (f32, f32), b: (f32, f32)) -> f32 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (qx, qy) = (a.0 + t * dx - p.0, a.1 + t * dy - p.1);
    (qx * qx + qy * qy).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_clips_and_blend_mixes() {
        let mut buf = vec![0u8; 4 * 4 * 4];
        let mut c = Canvas::new(&mut buf, 4, 4);
        c.fill(Rect::new(-2, -2, 10, 10), [10, 20, 30]);
        c.blend(Rect::new(0, 0, 4, 4), [255, 255, 255], 255);
        c.round_rect(Rect::new(0, 0, 4, 4), 2, [1, 2, 3]);
        c.disc(100.0, 100.0, 3.0, [9, 9, 9]);
        assert!(
            buf[0] > 1 && buf[0] < 255,
            "the corner pixel is partly covered"
        );
        assert_eq!(&buf[(5 * 4)..(5 * 4 + 3)], &[1, 2, 3]);
        assert_eq!(buf[15 * 4 + 3], 255, "filled pixels are opaque");
    }
}
