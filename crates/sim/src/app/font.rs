//! Text: the bundled fonts, rasterised once per (face, character, pixel size) and blended from
//! the cache afterwards. The app draws in DejaVu Sans; app styles may draw their digits in
//! Roboto (a font of the OCR template bank) or in held-out fonts the bank has never seen.

use super::canvas::Canvas;
use super::geometry::Rect;
use super::palette::Rgb;
use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};
use std::collections::HashMap;
use std::sync::OnceLock;

/// DejaVu Sans (Bitstream Vera licence, see `assets/fonts/LICENSE-DejaVu.txt`).
const REGULAR: &[u8] = include_bytes!("../../../../assets/fonts/DejaVuSans.ttf");
const BOLD: &[u8] = include_bytes!("../../../../assets/fonts/DejaVuSans-Bold.ttf");
/// Roboto (Apache-2.0, see `assets/fonts/ocr/README.md`).
const ROBOTO: &[u8] = include_bytes!("../../../../assets/fonts/ocr/Roboto-Regular.ttf");
/// Fonts not in the OCR template bank (see `assets/fonts/held-out/README.md`).
const ROBOTO_LIGHT: &[u8] = include_bytes!("../../../../assets/fonts/held-out/Roboto-Light.ttf");
const MONO: &[u8] = include_bytes!("../../../../assets/fonts/held-out/LiberationMono-Regular.ttf");
const MONO_BOLD: &[u8] =
    include_bytes!("../../../../assets/fonts/held-out/DejaVuSansMono-Bold.ttf");

/// A typeface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Face {
    /// DejaVu Sans, the app's own font.
    Regular,
    /// DejaVu Sans Bold.
    Bold,
    /// Roboto Regular (in the OCR template bank).
    Roboto,
    /// Roboto Light (held out: not in the OCR template bank).
    RobotoLight,
    /// Liberation Mono (held out).
    Mono,
    /// DejaVu Sans Mono Bold (held out).
    MonoBold,
}

fn font(face: Face) -> &'static FontRef<'static> {
    static FONTS: OnceLock<[FontRef<'static>; 6]> = OnceLock::new();
    let fonts = FONTS.get_or_init(|| {
        // Bundled at compile time and exercised by the tests that render each face.
        let parse = |data| FontRef::try_from_slice(data).expect("bundled font parses");
        [
            parse(REGULAR),
            parse(BOLD),
            parse(ROBOTO),
            parse(ROBOTO_LIGHT),
            parse(MONO),
            parse(MONO_BOLD),
        ]
    });
    &fonts[face as usize]
}

/// One rasterised glyph: coverage and its offset from the pen position on the baseline.
#[derive(Debug, Clone)]
struct Mask {
    left: i32,
    top: i32,
    w: u32,
    h: u32,
    coverage: Vec<u8>,
    advance: f32,
}

/// The glyph cache.
#[derive(Debug, Default)]
pub struct Text {
    cache: HashMap<(Face, char, u32), Mask>,
}

impl Text {
    pub fn new() -> Self {
        Self::default()
    }

    fn mask(&mut self, face: Face, ch: char, px: u32) -> &Mask {
        self.cache.entry((face, ch, px)).or_insert_with(|| {
            let f = font(face);
            let scale = PxScale::from(px as f32);
            let id = f.glyph_id(ch);
            let advance = f.as_scaled(scale).h_advance(id);
            let glyph = id.with_scale_and_position(scale, point(0.0, 0.0));
            match f.outline_glyph(glyph) {
                Some(outlined) => {
                    let b = outlined.px_bounds();
                    let (w, h) = (b.width() as u32, b.height() as u32);
                    let mut coverage = vec![0u8; (w * h) as usize];
                    outlined.draw(|x, y, c| {
                        if let Some(v) = coverage.get_mut((y * w + x) as usize) {
                            *v = (c.clamp(0.0, 1.0) * 255.0).round() as u8;
                        }
                    });
                    Mask {
                        left: b.min.x as i32,
                        top: b.min.y as i32,
                        w,
                        h,
                        coverage,
                        advance,
                    }
                }
                None => Mask {
                    left: 0,
                    top: 0,
                    w: 0,
                    h: 0,
                    coverage: Vec::new(),
                    advance,
                },
            }
        })
    }

    /// Whether the font has a glyph for `ch`.
    #[cfg(test)]
    pub(crate) fn has_glyph(face: Face, ch: char) -> bool {
        font(face).glyph_id(ch).0 != 0
    }

    /// Width of `text` in pixels.
    pub fn width(&mut self, face: Face, px: u32, text: &str) -> i32 {
        text.chars()
            .map(|ch| self.mask(face, ch, px).advance)
            .sum::<f32>()
            .round() as i32
    }

    /// Draws `text` with its pen starting at `(x, baseline)`.
    pub fn draw(
        &mut self,
        canvas: &mut Canvas,
        face: Face,
        px: u32,
        text: &str,
        (x, baseline): (i32, i32),
        c: Rgb,
    ) {
        let mut pen = x as f32;
        for ch in text.chars() {
            let m = self.mask(face, ch, px);
            let gx = pen.round() as i32 + m.left;
            canvas.mask(gx, baseline + m.top, m.w, &m.coverage, c);
            pen += m.advance;
        }
    }

    /// Draws one line of `text` centred in `r` (capital letters centred vertically).
    pub fn centered(
        &mut self,
        canvas: &mut Canvas,
        face: Face,
        px: u32,
        text: &str,
        r: Rect,
        c: Rgb,
    ) {
        let w = self.width(face, px, text);
        let (cx, cy) = r.center();
        let baseline = self.baseline(face, px, cy);
        self.draw(canvas, face, px, text, (cx - w / 2, baseline), c);
    }

    /// The baseline that centres capital letters vertically on `cy`.
    pub fn baseline(&mut self, face: Face, px: u32, cy: i32) -> i32 {
        cy + self.ink_height(face, px, 'H') as i32 / 2
    }

    /// The font size (px) at which `ch`'s ink is `ink` pixels tall (at least 4).
    pub(crate) fn px_for_ink(&mut self, face: Face, ch: char, ink: f32) -> u32 {
        let at100 = self.ink_height(face, 100, ch).max(1) as f32;
        ((ink * 100.0 / at100).round() as u32).max(4)
    }

    /// Draws one character with its ink box centred in `r` (board and keypad digits).
    pub fn glyph_centered(
        &mut self,
        canvas: &mut Canvas,
        face: Face,
        px: u32,
        ch: char,
        r: Rect,
        c: Rgb,
    ) {
        let m = self.mask(face, ch, px);
        let x = r.x + (r.w - m.w as i32) / 2;
        let y = r.y + (r.h - m.h as i32) / 2;
        canvas.mask(x, y, m.w, &m.coverage, c);
    }

    /// The ink height of `ch` at `px` (to size digits to a fraction of the cell).
    pub(crate) fn ink_height(&mut self, face: Face, px: u32, ch: char) -> u32 {
        self.mask(face, ch, px).h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fonts_have_the_glyphs_the_app_uses() {
        for ch in "0123456789Level complete←⌫★◁○□‹›".chars() {
            for face in [Face::Regular, Face::Bold] {
                assert!(Text::has_glyph(face, ch) || ch == ' ', "{face:?} {ch:?}");
            }
        }
        let mut t = Text::new();
        let h = t.ink_height(Face::Regular, 100, '8');
        assert!((60..=70).contains(&h), "digit height {h}");
    }

    #[test]
    fn digit_faces_have_digits_and_words_and_size_to_an_ink_height() {
        let mut t = Text::new();
        for face in [Face::Roboto, Face::RobotoLight, Face::Mono, Face::MonoBold] {
            for ch in "0123456789UndoEraseNotesHint".chars() {
                assert!(Text::has_glyph(face, ch), "{face:?} {ch:?}");
            }
            let px = t.px_for_ink(face, '8', 50.0);
            assert!(t.ink_height(face, px, '8').abs_diff(50) <= 2, "{face:?}");
        }
        assert!(Text::has_glyph(Face::Regular, '✕'));
    }
}
