//! Digit templates: the default bank rendered once from bundled open fonts, and device templates
//! harvested during calibration.

use super::glyph::Glyph;
use ab_glyph::{Font, FontRef, PxScale};
use std::sync::OnceLock;

/// The fonts of the default bank (see `assets/fonts/ocr/README.md` for their licences).
pub const FONTS: &[(&str, &[u8])] = &[
    (
        "DejaVu Sans",
        include_bytes!("../../../../assets/fonts/ocr/DejaVuSans.ttf"),
    ),
    (
        "DejaVu Sans Bold",
        include_bytes!("../../../../assets/fonts/ocr/DejaVuSans-Bold.ttf"),
    ),
    (
        "Roboto",
        include_bytes!("../../../../assets/fonts/ocr/Roboto-Regular.ttf"),
    ),
    (
        "Roboto Bold",
        include_bytes!("../../../../assets/fonts/ocr/Roboto-Bold.ttf"),
    ),
    (
        "Noto Sans",
        include_bytes!("../../../../assets/fonts/ocr/NotoSans-Regular.ttf"),
    ),
    (
        "Noto Sans Bold",
        include_bytes!("../../../../assets/fonts/ocr/NotoSans-Bold.ttf"),
    ),
    (
        "Liberation Sans",
        include_bytes!("../../../../assets/fonts/ocr/LiberationSans-Regular.ttf"),
    ),
    (
        "Liberation Sans Bold",
        include_bytes!("../../../../assets/fonts/ocr/LiberationSans-Bold.ttf"),
    ),
];

/// Pixel size the default templates are rendered at.
const RENDER_PX: f32 = 96.0;
/// Coverage above which a rendered pixel counts as ink when cropping (matches the cell threshold).
pub const INK_LEVEL: f32 = 0.45;

/// One template: a digit's normalised glyph and where it came from.
#[derive(Debug, Clone)]
pub struct Template {
    /// 1..=9.
    pub digit: u8,
    /// A font name, or `keypad` / `board` for device templates.
    pub source: String,
    /// The normalised glyph.
    pub glyph: Glyph,
}

/// The result of matching a glyph.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Match {
    /// Best digit, 1..=9.
    pub digit: u8,
    /// Its normalised cross-correlation, -1..=1.
    pub score: f32,
    /// Best score minus the best score of any other digit.
    pub margin: f32,
    /// The runner-up digit.
    pub runner_up: u8,
}

/// A set of templates.
#[derive(Debug, Clone, Default)]
pub struct TemplateBank {
    /// The templates, any number per digit.
    pub templates: Vec<Template>,
}

impl TemplateBank {
    /// The default bank, rendered from [`FONTS`] on first use and cached.
    pub(crate) fn default_bank() -> &'static TemplateBank {
        static BANK: OnceLock<TemplateBank> = OnceLock::new();
        BANK.get_or_init(|| {
            let mut templates = Vec::new();
            for (name, bytes) in FONTS {
                // The bundled fonts are known-good; a font that fails to parse is skipped.
                if let Ok(font) = FontRef::try_from_slice(bytes) {
                    templates.extend(render_font(&font, name));
                }
            }
            TemplateBank { templates }
        })
    }

    /// Whether every digit 1..=9 has at least one template.
    #[cfg(test)]
    pub(crate) fn is_complete(&self) -> bool {
        (1..=9).all(|d| self.templates.iter().any(|t| t.digit == d))
    }

    /// Matches a glyph against every template; `None` for an empty bank.
    pub(crate) fn classify(&self, glyph: &Glyph) -> Option<Match> {
        self.classify_with(None, glyph)
    }

    /// Matches a glyph against every template of this bank and of `more`, as one bank.
    pub(crate) fn classify_with(
        &self,
        more: Option<&TemplateBank>,
        glyph: &Glyph,
    ) -> Option<Match> {
        let mut best = [f32::MIN; 10];
        let more = more.map_or(&[][..], |m| &m.templates[..]);
        for t in self.templates.iter().chain(more) {
            let s = glyph.ncc(&t.glyph);
            let d = t.digit as usize;
            if d < 10 && s > best[d] {
                best[d] = s;
            }
        }
        let mut order: Vec<usize> = (1..10).filter(|&d| best[d] > f32::MIN).collect();
        order.sort_by(|&a, &b| best[b].total_cmp(&best[a]));
        let &first = order.first()?;
        let (second, second_score) = order.get(1).map_or((0, -1.0), |&d| (d, best[d]));
        Some(Match {
            digit: first as u8,
            score: best[first],
            margin: best[first] - second_score,
            runner_up: second as u8,
        })
    }
}

/// Renders the digits 1..=9 of a font into templates named `name`.
pub(crate) fn render_font(font: &impl Font, name: &str) -> Vec<Template> {
    (1..=9u8)
        .filter_map(|d| {
            let (cov, w, h) = render_digit(font, d, RENDER_PX)?;
            let glyph = Glyph::from_coverage(&cov, w, h)?;
            Some(Template {
                digit: d,
                source: name.to_string(),
                glyph,
            })
        })
        .collect()
}

/// Rasterises digit `d` at `px` pixels and crops it to its ink ([`INK_LEVEL`]).
/// Returns the coverage map and its width and height.
pub(crate) fn render_digit(font: &impl Font, d: u8, px: f32) -> Option<(Vec<f32>, usize, usize)> {
    render_char(font, char::from(b'0' + d), px)
}

/// Rasterises any character like [`render_digit`]; `None` when the font lacks it.
pub(crate) fn render_char(font: &impl Font, ch: char, px: f32) -> Option<(Vec<f32>, usize, usize)> {
    if font.glyph_id(ch).0 == 0 {
        return None;
    }
    let glyph = font
        .glyph_id(ch)
        .with_scale_and_position(PxScale::from(px), ab_glyph::point(0.0, 0.0));
    let outline = font.outline_glyph(glyph)?;
    let b = outline.px_bounds();
    let (w, h) = (
        b.width().ceil() as usize + 1,
        b.height().ceil() as usize + 1,
    );
    let mut cov = vec![0f32; w * h];
    outline.draw(|x, y, c| {
        if let Some(v) = cov.get_mut(y as usize * w + x as usize) {
            *v = c.min(1.0);
        }
    });
    crop_to_ink(&cov, w, h)
}

/// Crops a coverage map to the bounding box of its pixels at or above [`INK_LEVEL`].
fn crop_to_ink(cov: &[f32], w: usize, h: usize) -> Option<(Vec<f32>, usize, usize)> {
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for y in 0..h {
        for x in 0..w {
            if cov[y * w + x] >= INK_LEVEL {
                x0 = x0.min(x);
                x1 = x1.max(x);
                y0 = y0.min(y);
                y1 = y1.max(y);
            }
        }
    }
    if x0 == usize::MAX {
        return None;
    }
    let (cw, ch) = (x1 - x0 + 1, y1 - y0 + 1);
    let mut out = Vec::with_capacity(cw * ch);
    for y in y0..=y1 {
        out.extend_from_slice(&cov[y * w + x0..=y * w + x1]);
    }
    Some((out, cw, ch))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_bank_has_every_digit_of_every_font_and_reads_itself() {
        let bank = TemplateBank::default_bank();
        assert_eq!(bank.templates.len(), FONTS.len() * 9);
        assert!(bank.is_complete());
        for t in &bank.templates {
            let m = bank.classify(&t.glyph).unwrap();
            assert_eq!(m.digit, t.digit, "{} {}", t.source, t.digit);
            assert!(m.score > 0.999);
        }
    }
}
