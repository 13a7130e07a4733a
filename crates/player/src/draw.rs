//! Drawing on images for people: lines, rectangles, circles and text, for the overlays
//! ([`crate::vision::overlay`]) and the search's animations ([`crate::session::anim`]).
//!
//! The few shapes these pictures need, drawn as `imageproc` draws them (the same Bresenham
//! lines, midpoint circles and glyph layout), without its linear-algebra dependencies, which
//! took a third of a fresh build.

use ab_glyph::{Font, GlyphId, OutlinedGlyph, PxScale, ScaleFont, point};
use image::{ImageBuffer, Pixel};

/// An image any of these functions draws on.
type Canvas<P> = ImageBuffer<P, Vec<u8>>;

/// A rectangle of `width` x `height` pixels whose top-left pixel is (`left`, `top`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    left: i32,
    top: i32,
    width: u32,
    height: u32,
}

/// The top-left corner of a [`Rect`] to be: `Rect::at(x, y).of_size(w, h)`.
pub struct Corner(i32, i32);

impl Rect {
    pub fn at(left: i32, top: i32) -> Corner {
        Corner(left, top)
    }
}

impl Corner {
    /// The rectangle (at least 1x1).
    pub fn of_size(self, width: u32, height: u32) -> Rect {
        Rect {
            left: self.0,
            top: self.1,
            width: width.max(1),
            height: height.max(1),
        }
    }
}

fn put<P: Pixel<Subpixel = u8>>(canvas: &mut Canvas<P>, x: i32, y: i32, color: P) {
    if let (Ok(x), Ok(y)) = (u32::try_from(x), u32::try_from(y))
        && x < canvas.width()
        && y < canvas.height()
    {
        canvas.put_pixel(x, y, color);
    }
}

/// The pixels of the segment from `start` to `end` (Bresenham), ends included.
fn segment(start: (f32, f32), end: (f32, f32)) -> impl Iterator<Item = (i32, i32)> {
    let ((mut x0, mut y0), (mut x1, mut y1)) = (start, end);
    let steep = (y1 - y0).abs() > (x1 - x0).abs();
    if steep {
        (x0, y0, x1, y1) = (y0, x0, y1, x1);
    }
    if x0 > x1 {
        (x0, y0, x1, y1) = (x1, y1, x0, y0);
    }
    let (dx, dy) = (x1 - x0, (y1 - y0).abs());
    let y_step = if y0 < y1 { 1 } else { -1 };
    let (mut y, mut error) = (y0 as i32, dx / 2.0);
    (x0 as i32..=x1 as i32).map(move |x| {
        let p = if steep { (y, x) } else { (x, y) };
        error -= dy;
        if error < 0.0 {
            y += y_step;
            error += dx;
        }
        p
    })
}

/// Draws the segment from `start` to `end`, as much of it as lies on the image.
pub fn draw_line_segment_mut<P: Pixel<Subpixel = u8>>(
    canvas: &mut Canvas<P>,
    start: (f32, f32),
    end: (f32, f32),
    color: P,
) {
    for (x, y) in segment(start, end) {
        put(canvas, x, y, color);
    }
}

/// Draws the outline of `rect`.
pub fn draw_hollow_rect_mut<P: Pixel<Subpixel = u8>>(canvas: &mut Canvas<P>, rect: Rect, color: P) {
    let (left, top) = (rect.left as f32, rect.top as f32);
    let right = (rect.left + rect.width as i32 - 1) as f32;
    let bottom = (rect.top + rect.height as i32 - 1) as f32;
    draw_line_segment_mut(canvas, (left, top), (right, top), color);
    draw_line_segment_mut(canvas, (left, bottom), (right, bottom), color);
    draw_line_segment_mut(canvas, (left, top), (left, bottom), color);
    draw_line_segment_mut(canvas, (right, top), (right, bottom), color);
}

/// Fills `rect`, as much of it as lies on the image.
pub fn draw_filled_rect_mut<P: Pixel<Subpixel = u8>>(canvas: &mut Canvas<P>, rect: Rect, color: P) {
    let x0 = rect.left.max(0);
    let y0 = rect.top.max(0);
    let x1 = (i64::from(rect.left) + i64::from(rect.width)).min(i64::from(canvas.width()));
    let y1 = (i64::from(rect.top) + i64::from(rect.height)).min(i64::from(canvas.height()));
    for y in i64::from(y0)..y1 {
        for x in i64::from(x0)..x1 {
            canvas.put_pixel(x as u32, y as u32, color);
        }
    }
}

/// Draws a circle's outline of `radius` around `center` (the midpoint algorithm).
pub fn draw_hollow_circle_mut<P: Pixel<Subpixel = u8>>(
    canvas: &mut Canvas<P>,
    center: (i32, i32),
    radius: i32,
    color: P,
) {
    let (x0, y0) = center;
    let (mut x, mut y, mut p) = (0, radius, 1 - radius);
    while x <= y {
        for (dx, dy) in [
            (x, y),
            (y, x),
            (-y, x),
            (-x, y),
            (-x, -y),
            (-y, -x),
            (y, -x),
            (x, -y),
        ] {
            put(canvas, x0 + dx, y0 + dy, color);
        }
        x += 1;
        if p < 0 {
            p += 2 * x + 1;
        } else {
            y -= 1;
            p += 2 * (x - y) + 1;
        }
    }
}

/// Lays `text` out on one line from (0, the font's ascent), handing each outlined glyph to
/// `f`; returns the text's size (width + 1, height) as `imageproc` does.
fn layout(
    scale: PxScale,
    font: &impl Font,
    text: &str,
    mut f: impl FnMut(OutlinedGlyph),
) -> (u32, u32) {
    if text.is_empty() {
        return (0, 0);
    }
    let font = font.as_scaled(scale);
    let mut w = 0.0;
    let mut prev: Option<GlyphId> = None;
    for c in text.chars() {
        let id = font.glyph_id(c);
        let glyph = id.with_scale_and_position(scale, point(w, font.ascent()));
        w += font.h_advance(id);
        if let Some(g) = font.outline_glyph(glyph) {
            if let Some(prev) = prev {
                w += font.kern(id, prev);
            }
            prev = Some(id);
            f(g);
        }
    }
    (
        1 + w.ceil().max(0.0) as u32,
        font.height().ceil().max(0.0) as u32,
    )
}

/// The width and height of `text` drawn at `scale` in `font`.
pub fn text_size(scale: impl Into<PxScale>, font: &impl Font, text: &str) -> (u32, u32) {
    layout(scale.into(), font, text, |_| {})
}

/// Draws `text` in `color` with its top-left at (`x`, `y`): each pixel blended by the glyphs'
/// coverage (through the alpha channel where the image has one), channels truncated to
/// integers as `imageproc` does.
pub fn draw_text_mut<P: Pixel<Subpixel = u8>>(
    canvas: &mut Canvas<P>,
    color: P,
    x: i32,
    y: i32,
    scale: impl Into<PxScale>,
    font: &impl Font,
    text: &str,
) {
    let (width, height) = (canvas.width() as i32, canvas.height() as i32);
    layout(scale.into(), font, text, |g| {
        let bb = g.px_bounds();
        let (sx, sy) = (x + bb.min.x.round() as i32, y + bb.min.y.round() as i32);
        g.draw(|gx, gy, v| {
            let (px, py) = (gx as i32 + sx, gy as i32 + sy);
            if !(0..width).contains(&px) || !(0..height).contains(&py) {
                return;
            }
            let v = v.clamp(0.0, 1.0);
            let pixel = canvas.get_pixel_mut(px as u32, py as u32);
            if P::HAS_ALPHA {
                let c = color.map_with_alpha(|c| c, |a| (f32::from(a) * v) as u8);
                pixel.blend(&c);
            } else {
                *pixel = pixel.map2(&color, |p, c| {
                    (f32::from(p) * (1.0 - v) + f32::from(c) * v) as u8
                });
            }
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{Luma, Rgba, RgbaImage};

    #[test]
    fn segments_cover_both_ends_in_either_direction() {
        let a: Vec<_> = segment((1.0, 1.0), (5.0, 3.0)).collect();
        assert_eq!(a.first(), Some(&(1, 1)));
        assert_eq!(a.last(), Some(&(5, 3)));
        assert_eq!(a.len(), 5);
        let steep: Vec<_> = segment((2.0, 9.0), (2.0, 0.0)).collect();
        assert_eq!(steep.len(), 10);
        assert!(steep.iter().all(|&(x, _)| x == 2));
    }

    #[test]
    fn shapes_off_the_image_are_clipped() {
        let mut img = RgbaImage::new(10, 10);
        let red = Rgba([255, 0, 0, 255]);
        draw_filled_rect_mut(&mut img, Rect::at(-5, 8).of_size(8, 8), red);
        assert_eq!(img.pixels().filter(|p| **p == red).count(), 3 * 2);
        draw_hollow_circle_mut(&mut img, (0, 0), 30, red);
        draw_line_segment_mut(&mut img, (-20.0, 5.0), (30.0, 5.0), red);
        assert!((0..10).all(|x| *img.get_pixel(x, 5) == red));
        let mut outline = RgbaImage::new(10, 10);
        draw_hollow_rect_mut(&mut outline, Rect::at(2, 2).of_size(4, 3), red);
        assert_eq!(outline.pixels().filter(|p| **p == red).count(), 10);
    }

    #[test]
    fn text_is_drawn_within_its_size() {
        let font = ab_glyph::FontRef::try_from_slice(include_bytes!(
            "../../../assets/fonts/DejaVuSans.ttf"
        ))
        .unwrap();
        let (w, h) = text_size(20.0, &font, "r4c7");
        assert!(w > 20 && h >= 20, "{w}x{h}");
        let mut img = image::GrayImage::new(w + 4, h + 4);
        draw_text_mut(&mut img, Luma([255]), 2, 2, 20.0, &font, "r4c7");
        let inked: Vec<(u32, u32)> = img
            .enumerate_pixels()
            .filter(|(_, _, p)| p.0[0] > 0)
            .map(|(x, y, _)| (x, y))
            .collect();
        assert!(inked.len() > 30);
        assert!(inked.iter().all(|&(x, y)| x < w + 3 && y < h + 3));
        assert_eq!(text_size(20.0, &font, ""), (0, 0));
    }
}
