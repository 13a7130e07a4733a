//! Reading cells, in two passes over the board.
//!
//! 1. [`analyse_cell`]: every cell's ink against its own background (looking inside a filled
//!    disc that holds a digit), and the height of its tallest mark.
//! 2. [`digit_height`]: the board's main digits are the tallest marks that many cells share;
//!    pencil marks (candidates in a 3x3 grid, corner notes) are much smaller. Apps draw digits
//!    from a third to three quarters of the cell, so no fixed size tells them apart.
//! 3. [`read_cell`]: the glyph of a digit-sized mark is normalised and template matched, and
//!    the features that tell givens from entries are measured.

use super::glyph::Glyph;
use super::ink::{Found, Ink};
use super::templates::{Match, TemplateBank};
use image::RgbaImage;

/// A mark shorter than this fraction of the board's digit height is not a digit.
pub const MIN_DIGIT_HEIGHT: f32 = 0.72;
/// Marks of at least this fraction of the digit height, but below [`MIN_DIGIT_HEIGHT`], make
/// an empty cell doubtful.
const NEAR_DIGIT_HEIGHT: f32 = 0.55;
/// Nothing shorter than this fraction of the cell's inner size (the smaller side) is a digit.
const MIN_CELL_FRACTION: f32 = 0.22;

/// Pass 1: a cell's ink.
#[derive(Debug, Clone)]
pub struct CellInk {
    /// The analysis (inside the disc, when there is one).
    pub ink: Ink,
    /// The colour of a filled disc or box behind the digit, when the digit was found in one.
    pub disc: Option<[u8; 3]>,
    /// Height of the tallest mark that could be a digit, in pixels (0: none).
    pub tallest: usize,
}

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
    /// Stroke width relative to the glyph's height (about the same for every digit shape of a
    /// font; bold fonts have more).
    pub weight: f32,
    /// The cell's background colour (its border).
    pub cell_background: [u8; 3],
    /// The colour right around the digit: a disc or tint behind it, else the cell's background.
    pub surround: [u8; 3],
    /// The normalised glyph, for a digit.
    pub glyph: Option<Glyph>,
}

/// Pass 1 on the cell inside `rect` (`[x0, y0, x1, y1)`, lines excluded).
pub(crate) fn analyse_cell(img: &RgbaImage, rect: [u32; 4]) -> CellInk {
    let mut ink = Ink::analyse(img, rect);
    let disc = ink.open_disc(img);
    let min = (ink.w.min(ink.h) as f32 * MIN_CELL_FRACTION).ceil() as usize;
    let tallest = ink.tallest().map_or(0, |(_, h)| h);
    CellInk {
        disc,
        tallest: if tallest >= min.max(3) { tallest } else { 0 },
        ink,
    }
}

/// Pass 2: the height of the board's main digits, in pixels: the tallest height that several
/// cells share (within 15%). `None` when no cell holds a mark of digit size.
pub(crate) fn digit_height(cells: &[CellInk]) -> Option<f32> {
    let mut t: Vec<usize> = cells.iter().map(|c| c.tallest).filter(|&t| t > 0).collect();
    t.sort_unstable_by(|a, b| b.cmp(a));
    // A real board has at least 17 digits; a few taller marks (a gesture trail, a frame) do
    // not outvote them.
    let need = 6.min(t.len().div_ceil(2)).max(1);
    let near = |a: usize, b: usize| b * 100 >= a * 85 && b * 100 <= a * 118;
    let &h = t
        .iter()
        .find(|&&a| t.iter().filter(|&&b| near(a, b)).count() >= need)?;
    let mut same: Vec<usize> = t.iter().copied().filter(|&b| near(h, b)).collect();
    same.sort_unstable();
    Some(same[same.len() / 2] as f32)
}

/// Pass 3: reads a cell analysed by [`analyse_cell`], given the board's digit height.
/// `device` templates join the bank's.
pub(crate) fn read_cell(
    img: &RgbaImage,
    cell: &CellInk,
    digit_height: f32,
    bank: &TemplateBank,
    device: Option<&TemplateBank>,
) -> CellRead {
    let ink = &cell.ink;
    let empty = |confidence: f32| CellRead {
        digit: 0,
        confidence,
        matched: None,
        ink_colour: ink.background,
        contrast: ink.max,
        weight: 0.0,
        cell_background: ink.border,
        surround: ink.background,
        glyph: None,
    };
    let min_h = (digit_height * MIN_DIGIT_HEIGHT).ceil() as usize;
    let found = (cell.tallest > 0)
        .then(|| ink.main_glyph(min_h.max(3)))
        .flatten();
    let Some(found) = found else {
        // How far the tallest mark is from looking like a digit.
        let near = cell.tallest as f32 >= digit_height * NEAR_DIGIT_HEIGHT && cell.tallest > 0;
        return empty(if near { 0.6 } else { 1.0 });
    };
    let (cov, w, h) = ink.coverage(&found);
    let Some(glyph) = Glyph::from_coverage(&cov, w, h) else {
        return empty(0.5);
    };
    // The device's templates and the bank's as one, the best match wins. A device bank holds
    // the board's own font only for the digits its calibration screen showed (the rest come from
    // the keypad, often another font): a glyph of a digit missing there looks more like another
    // digit of its own font than like itself in the keypad's, and the bank's fonts must say so.
    let matched = bank.classify_with(device, &glyph);
    let Some(m) = matched else {
        return empty(0.0);
    };
    CellRead {
        digit: m.digit,
        confidence: m.score.clamp(0.0, 1.0),
        matched: Some(m),
        ink_colour: ink_colour(img, ink, &found),
        contrast: ink.max,
        weight: stroke_width(&cov, w, h) / h as f32,
        cell_background: ink.border,
        surround: cell.disc.unwrap_or_else(|| ink.surround(img, &found)),
        glyph: Some(glyph),
    }
}

/// Mean colour of the glyph's strongest pixels: those of at least three quarters of the
/// glyph's own strongest ink (a brighter mark elsewhere in the cell, or a faint entry beside
/// it, says nothing about this glyph's ink).
fn ink_colour(img: &RgbaImage, ink: &Ink, found: &Found) -> [u8; 3] {
    let [x0, y0, x1, y1] = found.bbox;
    let glyph = |x: usize, y: usize| {
        let i = y * ink.w + x;
        found
            .labels
            .contains(&ink.labels[i])
            .then_some(ink.strength[i])
    };
    let max = (y0..=y1)
        .flat_map(|y| (x0..=x1).filter_map(move |x| glyph(x, y)))
        .max()
        .unwrap_or(ink.max);
    let strong = (max as u32 * 3 / 4) as u8;
    let (mut sum, mut n) = ([0u64; 3], 0u64);
    for y in y0..=y1 {
        for x in x0..=x1 {
            if glyph(x, y).is_some_and(|s| s >= strong) {
                let p = img
                    .get_pixel(ink.origin[0] + x as u32, ink.origin[1] + y as u32)
                    .0;
                for c in 0..3 {
                    sum[c] += p[c] as u64;
                }
                n += 1;
            }
        }
    }
    let n = n.max(1);
    [(sum[0] / n) as u8, (sum[1] / n) as u8, (sum[2] / n) as u8]
}

/// Mean stroke width of a coverage map, in pixels: twice its area over its outline's length
/// (a stroke of length `l` and width `s` has area `l s` and outline `2 l`), which does not
/// depend on the digit's shape.
pub fn stroke_width(cov: &[f32], w: usize, h: usize) -> f32 {
    let at = |x: usize, y: usize| if x < w && y < h { cov[y * w + x] } else { 0.0 };
    let (mut area, mut outline) = (0.0f32, 0.0f32);
    // One pixel of margin all round, so that the outline closes at the box's edges.
    for y in 0..=h {
        for x in 0..=w {
            let v = if x < w && y < h { cov[y * w + x] } else { 0.0 };
            area += v;
            let left = if x > 0 { at(x - 1, y) } else { 0.0 };
            let up = if y > 0 { at(x, y - 1) } else { 0.0 };
            outline += ((v - left).powi(2) + (v - up).powi(2)).sqrt();
        }
    }
    if outline <= 0.0 {
        return 0.0;
    }
    2.0 * area / outline
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stroke_width_of_bars_is_their_width_whatever_their_shape() {
        for (s, len) in [(3usize, 40usize), (6, 40), (4, 25)] {
            // A vertical bar, and an L of the same stroke.
            let (w, h) = (s + 2, len);
            let mut bar = vec![0.0; w * h];
            for y in 0..h {
                for x in 1..=s {
                    bar[y * w + x] = 1.0;
                }
            }
            let got = stroke_width(&bar, w, h);
            assert!((got - s as f32).abs() < s as f32 * 0.2, "bar {s}: {got}");
            let (w, h) = (len, len);
            let mut l = vec![0.0; w * h];
            for y in 0..h {
                for x in 0..w {
                    if x < s || y >= h - s {
                        l[y * w + x] = 1.0;
                    }
                }
            }
            let got = stroke_width(&l, w, h);
            assert!((got - s as f32).abs() < s as f32 * 0.2, "L {s}: {got}");
        }
    }

    #[test]
    fn digit_height_ignores_pencil_marks_and_rare_tall_marks() {
        let cell = |tallest: usize| CellInk {
            ink: Ink {
                origin: [0, 0],
                w: 100,
                h: 100,
                background: [0; 3],
                border: [0; 3],
                strength: Vec::new(),
                max: 0,
                labels: Vec::new(),
                components: Vec::new(),
            },
            disc: None,
            tallest,
        };
        // 20 digits of 40 px, 40 cells of pencil marks of 15 px, two 90 px frames.
        let mut cells: Vec<CellInk> = (0..20).map(|i| cell(39 + i % 3)).collect();
        cells.extend((0..40).map(|_| cell(15)));
        cells.extend([cell(90), cell(92)]);
        let h = digit_height(&cells).unwrap();
        assert!((39.0..=41.0).contains(&h), "{h}");
        assert_eq!(digit_height(&[cell(0), cell(0)]), None);
    }
}
