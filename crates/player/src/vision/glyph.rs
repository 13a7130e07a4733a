//! Glyph normalisation: any crop of a digit becomes a fixed-size, zero-mean, unit-norm vector,
//! so that a dot product of two glyphs is their normalised cross-correlation.

/// Width and height of a normalised glyph.
pub const SIZE: usize = 32;
/// Number of values in a normalised glyph.
pub const LEN: usize = SIZE * SIZE;

/// A normalised glyph: ink coverage scaled to fit `SIZE x SIZE` (aspect kept, centred),
/// then shifted to mean 0 and scaled to norm 1.
#[derive(Debug, Clone, PartialEq)]
pub struct Glyph {
    /// Row-major values.
    pub data: Box<[f32; LEN]>,
}

impl Glyph {
    /// Normalises a `w x h` coverage map (0 = background, 1 = full ink) that is cropped to the
    /// glyph's bounding box. `None` for an empty or flat crop.
    pub(crate) fn from_coverage(cov: &[f32], w: usize, h: usize) -> Option<Glyph> {
        let canvas = Self::canvas(cov, w, h)?;
        Self::from_canvas(canvas)
    }

    /// The coverage scaled into the `SIZE x SIZE` canvas (before normalisation).
    pub fn canvas(cov: &[f32], w: usize, h: usize) -> Option<Box<[f32; LEN]>> {
        if w == 0 || h == 0 || cov.len() < w * h {
            return None;
        }
        let f = (SIZE as f32 / h as f32).min(SIZE as f32 / w as f32);
        let ox = (SIZE as f32 - w as f32 * f) / 2.0;
        let oy = (SIZE as f32 - h as f32 * f) / 2.0;
        let xs = weights(w, f, ox);
        let ys = weights(h, f, oy);
        // Horizontal pass: h rows of SIZE.
        let mut tmp = vec![0f32; h * SIZE];
        for y in 0..h {
            let src = &cov[y * w..(y + 1) * w];
            let dst = &mut tmp[y * SIZE..(y + 1) * SIZE];
            for &(d, s, wt) in &xs {
                dst[d] += src[s] * wt;
            }
        }
        // Vertical pass.
        let mut out = Box::new([0f32; LEN]);
        for &(d, s, wt) in &ys {
            let src = &tmp[s * SIZE..(s + 1) * SIZE];
            let dst = &mut out[d * SIZE..(d + 1) * SIZE];
            for x in 0..SIZE {
                dst[x] += src[x] * wt;
            }
        }
        Some(out)
    }

    /// Normalises a canvas to mean 0, norm 1.
    pub(crate) fn from_canvas(mut data: Box<[f32; LEN]>) -> Option<Glyph> {
        let mean = data.iter().sum::<f32>() / LEN as f32;
        let mut norm = 0.0;
        for v in data.iter_mut() {
            *v -= mean;
            norm += *v * *v;
        }
        let norm = norm.sqrt();
        if norm < 1e-3 {
            return None;
        }
        for v in data.iter_mut() {
            *v /= norm;
        }
        Some(Glyph { data })
    }

    /// Normalised cross-correlation with another glyph, in -1..=1.
    #[inline]
    pub(crate) fn ncc(&self, other: &Glyph) -> f32 {
        let mut acc = [0f32; 8];
        for (a, b) in self.data.chunks_exact(8).zip(other.data.chunks_exact(8)) {
            for i in 0..8 {
                acc[i] += a[i] * b[i];
            }
        }
        acc.iter().sum()
    }

    /// The glyph as 8-bit grey levels (for debug crops and device templates).
    pub fn to_bytes(&self) -> Vec<u8> {
        let (lo, hi) = self
            .data
            .iter()
            .fold((f32::MAX, f32::MIN), |(l, h), &v| (l.min(v), h.max(v)));
        let range = (hi - lo).max(1e-6);
        self.data
            .iter()
            .map(|&v| ((v - lo) / range * 255.0).round() as u8)
            .collect()
    }

    /// A glyph from `LEN` grey levels written by [`Glyph::to_bytes`].
    pub(crate) fn from_bytes(bytes: &[u8]) -> Option<Glyph> {
        if bytes.len() != LEN {
            return None;
        }
        let mut data = Box::new([0f32; LEN]);
        for (d, &b) in data.iter_mut().zip(bytes) {
            *d = b as f32 / 255.0;
        }
        Self::from_canvas(data)
    }
}

/// Area-resampling contributions `(dst, src, weight)` for `n` source pixels scaled by `f`
/// and shifted by `offset` into `SIZE` destination pixels.
fn weights(n: usize, f: f32, offset: f32) -> Vec<(usize, usize, f32)> {
    let mut out = Vec::with_capacity(n * 2 + 2);
    for s in 0..n {
        let a = offset + s as f32 * f;
        let b = a + f;
        let mut d = a.floor().max(0.0) as usize;
        while d < SIZE && (d as f32) < b {
            let overlap = b.min(d as f32 + 1.0) - a.max(d as f32);
            if overlap > 0.0 {
                out.push((d, s, overlap));
            }
            d += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_glyphs_correlate_to_one_and_scale_does_not_matter() {
        // An "L" at two sizes.
        let l = |s: usize| {
            let mut v = vec![0f32; s * s * 2];
            for y in 0..2 * s {
                for x in 0..s {
                    if x < s / 4 || y >= 2 * s - s / 4 {
                        v[y * s + x] = 1.0;
                    }
                }
            }
            Glyph::from_coverage(&v, s, 2 * s).unwrap()
        };
        let (a, b) = (l(16), l(40));
        assert!((a.ncc(&a) - 1.0).abs() < 1e-4);
        assert!(a.ncc(&b) > 0.9, "{}", a.ncc(&b));
        let round = Glyph::from_bytes(&a.to_bytes()).unwrap();
        assert!(a.ncc(&round) > 0.999);
        assert!(Glyph::from_coverage(&[0.0; 16], 4, 4).is_none());
    }
}
