//! Reading one cell: ink separation, pencil-mark rejection, glyph normalisation and template
//! matching.

use super::glyph::Glyph;
use super::ink::{Found, Ink};
use super::templates::{Match, TemplateBank};
use image::RgbaImage;

/// Main digits are at least this tall, relative to the cell's inner height; pencil marks
/// (candidate digits in a 3x3 grid) are well below it.
pub const MIN_DIGIT_HEIGHT: f32 = 0.38;

/// What one cell holds.
#[derive(Debug, Clone)]
pub struct CellRead {
    /// 0 for an empty cell, else 1..=9.
    pub digit: u8,
    /// Confidence 0..=1: the template score for a digit, how clearly empty for an empty cell.
    pub confidence: f32,
    /// The template match, for a digit.
    pub matched: Option<Match>,
    /// Mean colour of the digit's strongest ink.
    pub ink_colour: [u8; 3],
    /// Ink contrast against the cell background, 0..255.
    pub contrast: u8,
    /// Stroke weight: ink pixels per glyph height squared.
    pub weight: f32,
    /// The normalised glyph, for a digit.
    pub glyph: Option<Glyph>,
}

/// Reads the cell inside `rect` (`[x0, y0, x1, y1)`, lines excluded).
/// `device` templates are preferred when present and they match well.
pub fn read_cell(
    img: &RgbaImage,
    rect: [u32; 4],
    bank: &TemplateBank,
    device: Option<&TemplateBank>,
) -> CellRead {
    let ink = Ink::analyse(img, rect);
    let min_h = (ink.h as f32 * MIN_DIGIT_HEIGHT).ceil() as usize;
    let empty = |confidence: f32| CellRead {
        digit: 0,
        confidence,
        matched: None,
        ink_colour: ink.background,
        contrast: ink.max,
        weight: 0.0,
        glyph: None,
    };
    let Some(found) = ink.main_glyph(min_h.max(3)) else {
        // How far the tallest blob is from looking like a digit.
        let tallest = ink.components.iter().map(|c| c.height()).max().unwrap_or(0) as f32;
        let rel = tallest / ink.h.max(1) as f32;
        let conf = if rel < MIN_DIGIT_HEIGHT * 0.8 {
            1.0
        } else {
            0.6
        };
        return empty(conf);
    };
    let (cov, w, h) = ink.coverage(&found);
    let Some(glyph) = Glyph::from_coverage(&cov, w, h) else {
        return empty(0.5);
    };
    let matched = match device
        .filter(|d| d.is_complete())
        .and_then(|d| d.classify(&glyph))
    {
        Some(m) if m.score >= 0.6 => Some(m),
        _ => bank.classify(&glyph),
    };
    let Some(m) = matched else {
        return empty(0.0);
    };
    let (ink_colour, weight) = ink_stats(img, rect, &ink, &found);
    CellRead {
        digit: m.digit,
        confidence: m.score.clamp(0.0, 1.0),
        matched: Some(m),
        ink_colour,
        contrast: ink.max,
        weight,
        glyph: Some(glyph),
    }
}

/// Mean colour of the glyph's strongest pixels and its stroke weight.
fn ink_stats(img: &RgbaImage, rect: [u32; 4], ink: &Ink, found: &Found) -> ([u8; 3], f32) {
    let strong = (ink.max as u32 * 3 / 4) as u8;
    let t = ink.threshold();
    let (mut sum, mut n, mut area) = ([0u64; 3], 0u64, 0usize);
    let [x0, y0, x1, y1] = found.bbox;
    for y in y0..=y1 {
        for x in x0..=x1 {
            let i = y * ink.w + x;
            if !found.labels.contains(&ink.labels[i]) {
                continue;
            }
            if ink.strength[i] >= t {
                area += 1;
            }
            if ink.strength[i] >= strong {
                let p = img.get_pixel(rect[0] + x as u32, rect[1] + y as u32).0;
                for c in 0..3 {
                    sum[c] += p[c] as u64;
                }
                n += 1;
            }
        }
    }
    let n = n.max(1);
    let colour = [(sum[0] / n) as u8, (sum[1] / n) as u8, (sum[2] / n) as u8];
    let hgt = (y1 - y0 + 1) as f32;
    (colour, area as f32 / (hgt * hgt))
}
