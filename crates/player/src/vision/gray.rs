//! A fast 8-bit luma plane, the input of board detection.

use image::RgbaImage;

/// An 8-bit single-channel image, row-major.
#[derive(Debug, Clone)]
pub struct Gray {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// `width * height` luma values.
    pub data: Vec<u8>,
}

impl Gray {
    /// Integer Rec. 601 luma of every pixel (alpha ignored), 8-bit weights 77/150/29.
    pub(crate) fn from_rgba(img: &RgbaImage) -> Gray {
        let raw = img.as_raw();
        let mut data = vec![0u8; raw.len() / 4];
        let convert = |dst: &mut [u8], src: &[u8]| {
            for (d, p) in dst.iter_mut().zip(src.chunks_exact(4)) {
                *d = ((p[0] as u16 * 77 + p[1] as u16 * 150 + p[2] as u16 * 29) >> 8) as u8;
            }
        };
        // Two halves on two cores.
        let half = data.len() / 2;
        let (d0, d1) = data.split_at_mut(half);
        let (s0, s1) = raw.split_at(half * 4);
        std::thread::scope(|scope| {
            scope.spawn(|| convert(d0, s0));
            convert(d1, s1);
        });
        Gray {
            width: img.width() as usize,
            height: img.height() as usize,
            data,
        }
    }

    /// Row `y`.
    #[inline]
    pub fn row(&self, y: usize) -> &[u8] {
        &self.data[y * self.width..(y + 1) * self.width]
    }
}

impl Gray {
    /// The luma of `img` averaged over `s x s` blocks (the last partial row and column of
    /// blocks are dropped): detection works at about 540 pixels across, whatever the frame.
    pub(crate) fn downscaled(img: &RgbaImage, s: usize) -> Gray {
        let s = s.max(1);
        if s == 1 {
            return Gray::from_rgba(img);
        }
        let (w, h) = (img.width() as usize / s, img.height() as usize / s);
        let stride = img.width() as usize * 4;
        let raw = img.as_raw();
        let mut data = vec![0u8; w * h];
        let convert = |rows: &mut [u8], y0: usize| match s {
            2 => block_luma_2(raw, stride, w, rows, y0),
            3 => block_luma::<3>(raw, stride, w, rows, y0),
            4 => block_luma::<4>(raw, stride, w, rows, y0),
            _ => block_luma_any(raw, stride, w, s, rows, y0),
        };
        // Two halves on two cores.
        let half = h / 2;
        let (d0, d1) = data.split_at_mut(half * w);
        std::thread::scope(|scope| {
            scope.spawn(|| convert(d0, 0));
            convert(d1, half);
        });
        Gray {
            width: w,
            height: h,
            data,
        }
    }
}

/// Mean luma of `S x S` blocks into `rows` (output rows from `y0`, `w` wide): the block's
/// channel sums weighted once, which equals the sum of its pixels' weighted channels.
fn block_luma<const S: usize>(raw: &[u8], stride: usize, w: usize, rows: &mut [u8], y0: usize) {
    for (dy, out) in rows.chunks_exact_mut(w.max(1)).enumerate() {
        let src: [&[u8]; S] =
            std::array::from_fn(|sy| &raw[((y0 + dy) * S + sy) * stride..][..w * S * 4]);
        for (x, o) in out.iter_mut().enumerate() {
            let (mut r, mut g, mut b) = (0u32, 0u32, 0u32);
            for row in &src {
                for p in row[x * S * 4..(x + 1) * S * 4].chunks_exact(4) {
                    r += p[0] as u32;
                    g += p[1] as u32;
                    b += p[2] as u32;
                }
            }
            *o = luma_mean(r * 77 + g * 150 + b * 29, S);
        }
    }
}

/// [`block_luma`] for 2x2 blocks (frames about 1080 pixels across), twice as fast: a block's
/// two pixels of a row are one `u64` whose red and blue, and green, are summed as 16-bit lanes.
fn block_luma_2(raw: &[u8], stride: usize, w: usize, rows: &mut [u8], y0: usize) {
    const LOW: u64 = 0x00ff_00ff_00ff_00ff;
    let pair = |p: &[u8]| u64::from_le_bytes(p.try_into().expect("8-byte chunks"));
    for (dy, out) in rows.chunks_exact_mut(w.max(1)).enumerate() {
        let top = &raw[((y0 + dy) * 2) * stride..][..w * 8];
        let bottom = &raw[((y0 + dy) * 2 + 1) * stride..][..w * 8];
        for ((o, a), b) in out
            .iter_mut()
            .zip(top.chunks_exact(8))
            .zip(bottom.chunks_exact(8))
        {
            let (a, b) = (pair(a), pair(b));
            // Lanes: red, blue of the left pixels, then of the right ones; green, alpha likewise.
            let rb = (a & LOW) + (b & LOW);
            let ga = ((a >> 8) & LOW) + ((b >> 8) & LOW);
            let (rb, ga) = (rb + (rb >> 32), ga + (ga >> 32));
            let (r, b, g) = (rb & 0xffff, (rb >> 16) & 0xffff, ga & 0xffff);
            *o = luma_mean((r * 77 + g * 150 + b * 29) as u32, 2);
        }
    }
}

/// [`block_luma`] for any block size.
fn block_luma_any(raw: &[u8], stride: usize, w: usize, s: usize, rows: &mut [u8], y0: usize) {
    let mut acc = vec![0u32; w];
    for (dy, out) in rows.chunks_exact_mut(w.max(1)).enumerate() {
        acc.iter_mut().for_each(|a| *a = 0);
        for sy in 0..s {
            let row = &raw[((y0 + dy) * s + sy) * stride..][..w * s * 4];
            for (a, block) in acc.iter_mut().zip(row.chunks_exact(s * 4)) {
                for p in block.chunks_exact(4) {
                    *a += p[0] as u32 * 77 + p[1] as u32 * 150 + p[2] as u32 * 29;
                }
            }
        }
        for (o, &a) in out.iter_mut().zip(&acc) {
            *o = luma_mean(a, s);
        }
    }
}

/// The 8-bit mean of a weighted luma sum over an `s x s` block.
#[inline]
fn luma_mean(a: u32, s: usize) -> u8 {
    if s.is_power_of_two() {
        (a >> (8 + 2 * s.trailing_zeros())) as u8
    } else {
        ((a / (s * s) as u32) >> 8) as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_2x2_fast_path_equals_the_generic_block_mean() {
        let (w, h) = (37u32, 12u32);
        let mut state = 11u32;
        let img = RgbaImage::from_fn(w, h, |_, _| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            image::Rgba(state.to_le_bytes())
        });
        let fast = Gray::downscaled(&img, 2);
        let (ow, oh) = (w as usize / 2, h as usize / 2);
        let mut generic = vec![0u8; ow * oh];
        block_luma::<2>(img.as_raw(), w as usize * 4, ow, &mut generic, 0);
        assert_eq!((fast.width, fast.height), (ow, oh));
        assert_eq!(fast.data, generic);
        let mut any = vec![0u8; ow * oh];
        block_luma_any(img.as_raw(), w as usize * 4, ow, 2, &mut any, 0);
        assert_eq!(any, generic);
    }
}
