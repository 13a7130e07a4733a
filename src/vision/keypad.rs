//! Finding the app's number pad: the digits 1..9 read by OCR below the board.

use super::geometry::BoardGeometry;
use super::glyph::Glyph;
use super::gray::Gray;
use super::ink::Ink;
use super::templates::TemplateBank;
use image::RgbaImage;

/// A keypad key found on screen.
#[derive(Debug, Clone)]
pub struct Key {
    /// 1..=9.
    pub digit: u8,
    /// Centre of the digit's glyph: where to tap.
    pub center: (u32, u32),
    /// The glyph's box `[x0, y0, x1, y1)`.
    pub bbox: [u32; 4],
    /// Template score.
    pub score: f32,
    /// The normalised glyph (a device template).
    pub glyph: Glyph,
}

/// Least template score for a keypad digit.
const MIN_KEY_SCORE: f32 = 0.72;

/// Finds the keys 1..=9 below the board. The error says which digits were (not) found.
pub fn find_keypad(img: &RgbaImage, geometry: &BoardGeometry) -> Result<[Key; 9], String> {
    let (cw, ch) = geometry.cell_size();
    let top = (geometry.rows[9] + geometry.line_width + 2).min(img.height());
    let (w, h) = (img.width() as usize, (img.height() - top) as usize);
    if h < (ch * 0.3) as usize {
        return Err("there is no room below the board for a number pad".into());
    }
    let gray = Gray::from_rgba(img);
    let region = &gray.data[top as usize * w..];
    // A window well under the key size: the band along a key's edge stays away from its glyph.
    let mask = adaptive_mask(region, w, h, ((cw * 0.4) as usize).max(9), 25);
    let boxes = components(&mask, w, h);
    let bank = TemplateBank::default_bank();
    let mut best: [Option<Key>; 9] = Default::default();
    for b in boxes {
        let (bw, bh) = ((b[2] - b[0] + 1) as f32, (b[3] - b[1] + 1) as f32);
        if bh < ch * 0.2 || bh > ch * 1.3 || bw < cw * 0.05 || bw > cw * 1.2 || bw > bh * 1.2 {
            continue;
        }
        let rect = padded(b, w, h, top);
        let ink = Ink::analyse(img, rect);
        // The adaptive mask adds a halo around a glyph: its box is taller than the ink.
        let Some(found) = ink.main_glyph((bh * 0.55) as usize) else {
            continue;
        };
        let (cov, gw, gh) = ink.coverage(&found);
        let Some(glyph) = Glyph::from_coverage(&cov, gw, gh) else {
            continue;
        };
        let Some(m) = bank.classify(&glyph) else {
            continue;
        };
        if m.score < MIN_KEY_SCORE || m.margin < 0.03 {
            continue;
        }
        let f = found.bbox;
        let bbox = [
            rect[0] + f[0] as u32,
            rect[1] + f[1] as u32,
            rect[0] + f[2] as u32 + 1,
            rect[1] + f[3] as u32 + 1,
        ];
        let key = Key {
            digit: m.digit,
            center: ((bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2),
            bbox,
            score: m.score,
            glyph,
        };
        let slot = &mut best[m.digit as usize - 1];
        let height = |k: &Key| k.bbox[3] - k.bbox[1];
        // Keypad digits are the biggest of their kind (counters and hints are smaller).
        if slot.as_ref().is_none_or(|s| {
            height(&key) > height(s) + 2 || (height(&key) + 2 >= height(s) && key.score > s.score)
        }) {
            *slot = Some(key);
        }
    }
    let missing: Vec<String> = (1..=9)
        .filter(|d| best[d - 1].is_none())
        .map(|d| d.to_string())
        .collect();
    if !missing.is_empty() {
        let found: Vec<String> = best.iter().flatten().map(|k| k.digit.to_string()).collect();
        return Err(format!(
            "number pad not found below the board: digits {} not seen (found: {})",
            missing.join(","),
            if found.is_empty() {
                "none".into()
            } else {
                found.join(",")
            }
        ));
    }
    let keys: Vec<Key> = best.into_iter().flatten().collect();
    let mut heights: Vec<u32> = keys.iter().map(|k| k.bbox[3] - k.bbox[1]).collect();
    heights.sort_unstable();
    let median = heights[4];
    if let Some(k) = keys
        .iter()
        .find(|k| (k.bbox[3] - k.bbox[1]) * 10 < median * 6)
    {
        return Err(format!(
            "number pad unclear: digit {} at {:?} is much smaller than the others",
            k.digit, k.center
        ));
    }
    keys.try_into()
        .map_err(|_| "number pad: internal error collecting keys".to_string())
}

/// Pixels differing from their `win x win` neighbourhood mean by more than `t`.
fn adaptive_mask(g: &[u8], w: usize, h: usize, win: usize, t: u32) -> Vec<bool> {
    let mut integral = vec![0u64; (w + 1) * (h + 1)];
    for y in 0..h {
        let mut row = 0u64;
        for x in 0..w {
            row += g[y * w + x] as u64;
            integral[(y + 1) * (w + 1) + x + 1] = integral[y * (w + 1) + x + 1] + row;
        }
    }
    let r = win / 2;
    let mut mask = vec![false; w * h];
    for y in 0..h {
        let (ya, yb) = (y.saturating_sub(r), (y + r + 1).min(h));
        for x in 0..w {
            let (xa, xb) = (x.saturating_sub(r), (x + r + 1).min(w));
            let sum = integral[yb * (w + 1) + xb] + integral[ya * (w + 1) + xa]
                - integral[ya * (w + 1) + xb]
                - integral[yb * (w + 1) + xa];
            let mean = sum / ((yb - ya) * (xb - xa)) as u64;
            mask[y * w + x] = (g[y * w + x] as u64).abs_diff(mean) > t as u64;
        }
    }
    mask
}

/// The image rectangle around component box `b` (inclusive, in the mask of width `w` and height
/// `h` that starts at image row `top`), padded by a fifth of its height plus 2 pixels.
fn padded(b: [usize; 4], w: usize, h: usize, top: u32) -> [u32; 4] {
    let pad = ((b[3] - b[1] + 1) as f32 * 0.2) as usize + 2;
    [
        b[0].saturating_sub(pad) as u32,
        (b[1].saturating_sub(pad)) as u32 + top,
        (b[2] + pad + 1).min(w) as u32,
        (b[3] + pad + 1).min(h) as u32 + top,
    ]
}

/// Bounding boxes (inclusive) of 8-connected components of a mask.
fn components(mask: &[bool], w: usize, h: usize) -> Vec<[usize; 4]> {
    let mut seen = vec![false; w * h];
    let mut out = Vec::new();
    let mut stack = Vec::new();
    for start in 0..w * h {
        if !mask[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let mut b = [w, h, 0, 0];
        while let Some(i) = stack.pop() {
            let (x, y) = (i % w, i / w);
            b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
            for (dx, dy) in [
                (-1i32, -1i32),
                (0, -1),
                (1, -1),
                (-1, 0),
                (1, 0),
                (-1, 1),
                (0, 1),
                (1, 1),
            ] {
                let (nx, ny) = (x as i32 + dx, y as i32 + dy);
                if nx >= 0 && ny >= 0 && (nx as usize) < w && (ny as usize) < h {
                    let j = ny as usize * w + nx as usize;
                    if mask[j] && !seen[j] {
                        seen[j] = true;
                        stack.push(j);
                    }
                }
            }
        }
        out.push(b);
    }
    out
}

/// Characters that erase keys commonly show: ⌫ (erase to the left) and ⌦, ✕, ✖.
const ERASE_ICONS: &[char] = &['\u{232B}', '\u{2326}', '\u{2715}', '\u{2716}'];
/// Least template score for an erase icon.
const MIN_ERASE_SCORE: f32 = 0.8;

/// The erase key's icon templates, rendered once from the bundled fonts that have them.
fn erase_templates() -> &'static [Glyph] {
    static T: std::sync::OnceLock<Vec<Glyph>> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        let mut out = Vec::new();
        for (_, bytes) in super::templates::FONTS {
            let Ok(font) = ab_glyph::FontRef::try_from_slice(bytes) else {
                continue;
            };
            for &ch in ERASE_ICONS {
                if let Some((cov, w, h)) = super::templates::render_char(&font, ch, 96.0)
                    && let Some(g) = Glyph::from_coverage(&cov, w, h)
                {
                    out.push(g);
                }
            }
        }
        out
    })
}

/// Looks for an erase key below the board by its icon (⌫, ⌦, ✕ or ✖ drawn as a glyph):
/// the centre of the best-matching glyph, if one matches well. Text labels are not read.
pub fn find_erase(img: &RgbaImage, geometry: &BoardGeometry, keys: &[Key]) -> Option<(u32, u32)> {
    let (cw, ch) = geometry.cell_size();
    let top = (geometry.rows[9] + geometry.line_width + 2).min(img.height());
    let (w, h) = (img.width() as usize, (img.height() - top) as usize);
    let gray = Gray::from_rgba(img);
    let region = &gray.data[top as usize * w..];
    let mask = adaptive_mask(region, w, h, ((cw * 0.4) as usize).max(9), 25);
    let templates = erase_templates();
    let mut best: Option<(f32, (u32, u32))> = None;
    for b in components(&mask, w, h) {
        let (bw, bh) = ((b[2] - b[0] + 1) as f32, (b[3] - b[1] + 1) as f32);
        if bh < ch * 0.12 || bh > ch * 1.3 || bw < cw * 0.1 || bw > cw * 1.5 {
            continue;
        }
        let rect = padded(b, w, h, top);
        let centre = ((rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2);
        // Not one of the digit keys.
        if keys.iter().any(|k| {
            centre.0 >= k.bbox[0]
                && centre.0 < k.bbox[2]
                && centre.1 >= k.bbox[1]
                && centre.1 < k.bbox[3]
        }) {
            continue;
        }
        let ink = Ink::analyse(img, rect);
        let Some(found) = ink.main_glyph((bh * 0.55) as usize) else {
            continue;
        };
        let (cov, gw, gh) = ink.coverage(&found);
        let Some(glyph) = Glyph::from_coverage(&cov, gw, gh) else {
            continue;
        };
        let score = templates
            .iter()
            .map(|t| glyph.ncc(t))
            .fold(f32::MIN, f32::max);
        if score >= MIN_ERASE_SCORE && best.is_none_or(|(s, _)| score > s) {
            let f = found.bbox;
            let c = (
                rect[0] + (f[0] + f[2]) as u32 / 2,
                rect[1] + (f[1] + f[3]) as u32 / 2,
            );
            best = Some((score, c));
        }
    }
    best.map(|(_, c)| c)
}
