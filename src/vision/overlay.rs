//! Annotated overlays that a person can check: the grid found, the digits read and their
//! confidence, and for calibration the keypad keys and the erase button.

use super::detect::{AxisFit, Detection, Line};
use super::geometry::BoardGeometry;
use super::kinds::Kind;
use super::{MIN_SCORE, Reading};
use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use image::{Rgba, RgbaImage};
use imageproc::drawing::{draw_filled_rect_mut, draw_hollow_circle_mut, draw_line_segment_mut};
use imageproc::rect::Rect as IRect;

const GRID: Rgba<u8> = Rgba([255, 0, 255, 255]);
const GOOD: Rgba<u8> = Rgba([0, 150, 0, 255]);
const FAIR: Rgba<u8> = Rgba([220, 120, 0, 255]);
const BAD: Rgba<u8> = Rgba([220, 0, 0, 255]);

/// Draws the detected grid lines.
pub fn draw_grid(img: &mut RgbaImage, g: &BoardGeometry) {
    let [x0, y0, x1, y1] = g.rect().map(|v| v as f32);
    for &x in &g.cols {
        for dx in [-1.0, 0.0, 1.0] {
            draw_line_segment_mut(img, (x as f32 + dx, y0), (x as f32 + dx, y1), GRID);
        }
    }
    for &y in &g.rows {
        for dy in [-1.0, 0.0, 1.0] {
            draw_line_segment_mut(img, (x0, y as f32 + dy), (x1, y as f32 + dy), GRID);
        }
    }
}

const H_LINE: Rgba<u8> = Rgba([0, 170, 255, 255]);
const V_LINE: Rgba<u8> = Rgba([255, 150, 0, 255]);
const OTHER: Rgba<u8> = Rgba([0, 200, 120, 255]);

/// The overlay of board detection: every long line seen (horizontal blue, vertical orange),
/// the best candidate boards (`chosen`, or else the best by the lines, magenta; others green)
/// and, when there is none, the best column and row grids found (dashed red), with a caption
/// saying what happened.
pub fn detection_overlay(
    img: &RgbaImage,
    d: &Detection,
    chosen: Option<&BoardGeometry>,
) -> RgbaImage {
    let mut out = img.clone();
    let (w, h) = (img.width() as f32, img.height() as f32);
    let thick = |out: &mut RgbaImage, a: (f32, f32), b: (f32, f32), c: Rgba<u8>, n: i32| {
        for o in -(n / 2)..=(n / 2) {
            let o = o as f32;
            if a.0 == b.0 {
                draw_line_segment_mut(out, (a.0 + o, a.1), (b.0 + o, b.1), c);
            } else {
                draw_line_segment_mut(out, (a.0, a.1 + o), (b.0, b.1 + o), c);
            }
        }
    };
    let line = |out: &mut RgbaImage, l: &Line, vertical: bool, c: Rgba<u8>| {
        if vertical {
            thick(out, (l.pos, l.start), (l.pos, l.end), c, 3);
        } else {
            thick(out, (l.start, l.pos), (l.end, l.pos), c, 3);
        }
    };
    for l in &d.horizontal {
        line(&mut out, l, false, H_LINE);
    }
    for l in &d.vertical {
        line(&mut out, l, true, V_LINE);
    }
    let is_board = |k: usize, g: &BoardGeometry| match chosen {
        Some(b) => b == g,
        None => k == 0,
    };
    let label_px = (h / 80.0).max(12.0);
    // The best few, the best drawn last (on top).
    for (k, c) in d.candidates.iter().enumerate().take(6).rev() {
        let board = is_board(k, &c.geometry);
        let colour = if board { GRID } else { OTHER };
        let g = &c.geometry;
        let [x0, y0, x1, y1] = g.rect().map(|v| v as f32);
        for &x in &g.cols {
            thick(&mut out, (x as f32, y0), (x as f32, y1), colour, 1);
        }
        for &y in &g.rows {
            thick(&mut out, (x0, y as f32), (x1, y as f32), colour, 1);
        }
        for (a, b) in [((x0, y0), (x1, y0)), ((x0, y1), (x1, y1))] {
            thick(&mut out, a, b, colour, 5);
        }
        for (a, b) in [((x0, y0), (x0, y1)), ((x1, y0), (x1, y1))] {
            thick(&mut out, a, b, colour, 5);
        }
        label_box(
            &mut out,
            x0 as i32 + 6,
            y0 as i32 + 6 + (label_px + 6.0) as i32 * k as i32,
            label_px,
            colour,
            &format!(
                "{} {:.1}: {}+{} lines",
                if board { "board" } else { "candidate" },
                c.score,
                c.found.0,
                c.found.1
            ),
        );
    }
    if d.candidates.is_empty() {
        let dashed = |out: &mut RgbaImage, fit: &AxisFit, vertical: bool| {
            for &p in &fit.pos {
                let len = if vertical { h } else { w };
                let mut t = 0.0;
                while t < len {
                    let (a, b) = (t, (t + 12.0).min(len));
                    if vertical {
                        thick(out, (p, a), (p, b), BAD, 3);
                    } else {
                        thick(out, (a, p), (b, p), BAD, 3);
                    }
                    t += 24.0;
                }
            }
        };
        if let Some(f) = &d.best_columns {
            dashed(&mut out, f, true);
        }
        if let Some(f) = &d.best_rows {
            dashed(&mut out, f, false);
        }
    }
    let caption = if d.candidates.is_empty() {
        format!("no board: {}", d.summary())
    } else {
        format!(
            "{} candidate board(s); lines: {} horizontal (blue), {} vertical (orange)",
            d.candidates.len(),
            d.horizontal.len(),
            d.vertical.len()
        )
    };
    caption_box(&mut out, &caption);
    out
}

/// Wraps `text` across the top of the image on white boxes.
fn caption_box(img: &mut RgbaImage, text: &str) {
    let px = (img.width() as f32 / 45.0).max(11.0);
    let per_line = ((img.width() as f32 / (px * 0.55)) as usize).max(20);
    let mut y = 4;
    let mut line = String::new();
    let mut lines = Vec::new();
    for word in text.split(' ') {
        if line.len() + word.len() + 1 > per_line && !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    for l in lines {
        label_box(img, 6, y, px, BAD, &l);
        y += px as i32 + 4;
    }
}

/// The overlay of a reading: grid, and per cell the digit read (`G`/`U` kind) and confidence.
pub fn reading_overlay(img: &RgbaImage, reading: &Reading) -> RgbaImage {
    let mut out = img.clone();
    let g = &reading.geometry;
    draw_grid(&mut out, g);
    let (cw, ch) = g.cell_size();
    let px = (ch * 0.28).max(10.0);
    for i in 0..81 {
        let (c, r) = (i % 9, i / 9);
        let (x, y) = (g.cols[c] as i32 + 3, g.rows[r] as i32 + 3);
        let conf = reading.confidence[i];
        let colour = if conf >= 0.85 {
            GOOD
        } else if conf >= MIN_SCORE {
            FAIR
        } else {
            BAD
        };
        let d = reading.board.get(i);
        let label = match reading.kinds[i] {
            Kind::Empty => ".".to_string(),
            k => format!("{d}{}", k.to_char()),
        };
        label_box(&mut out, x, y, px, colour, &label);
        let conf_text = format!("{:.2}", conf);
        label_box(
            &mut out,
            x,
            (g.rows[r + 1] as f32 - px * 0.8 - 4.0) as i32,
            px * 0.7,
            colour,
            &conf_text,
        );
        let _ = cw;
    }
    out
}

/// Marks a tap target with a circle and a label.
pub fn mark_point(
    img: &mut RgbaImage,
    (x, y): (u32, u32),
    radius: i32,
    colour: Rgba<u8>,
    label: &str,
) {
    for r in [radius, radius + 1, radius + 2] {
        draw_hollow_circle_mut(img, (x as i32, y as i32), r, colour);
    }
    label_box(
        img,
        x as i32 + radius + 3,
        y as i32 - radius,
        radius as f32 * 1.2,
        colour,
        label,
    );
}

/// Text on a white box, `px` pixels high, top-left at `(x, y)`.
pub fn label_box(img: &mut RgbaImage, x: i32, y: i32, px: f32, colour: Rgba<u8>, text: &str) {
    let Ok(font) = FontRef::try_from_slice(super::templates::FONTS[1].1) else {
        return;
    };
    let scaled = font.as_scaled(PxScale::from(px));
    let width: f32 = text
        .chars()
        .map(|c| scaled.h_advance(font.glyph_id(c)))
        .sum();
    let (bw, bh) = (width.ceil() as u32 + 4, px.ceil() as u32 + 2);
    draw_filled_rect_mut(
        img,
        IRect::at(x - 2, y - 1).of_size(bw, bh),
        Rgba([255, 255, 255, 255]),
    );
    let mut caret = x as f32;
    for c in text.chars() {
        let id = font.glyph_id(c);
        let glyph = id.with_scale_and_position(
            PxScale::from(px),
            ab_glyph::point(caret, y as f32 + scaled.ascent()),
        );
        caret += scaled.h_advance(id);
        let Some(outline) = font.outline_glyph(glyph) else {
            continue;
        };
        let b = outline.px_bounds();
        outline.draw(|gx, gy, cov| {
            let (px_, py_) = (b.min.x as i32 + gx as i32, b.min.y as i32 + gy as i32);
            if px_ < 0 || py_ < 0 || px_ >= img.width() as i32 || py_ >= img.height() as i32 {
                return;
            }
            let p = img.get_pixel_mut(px_ as u32, py_ as u32);
            let a = cov.clamp(0.0, 1.0);
            for k in 0..3 {
                p.0[k] = (p.0[k] as f32 * (1.0 - a) + colour.0[k] as f32 * a) as u8;
            }
        });
    }
}
