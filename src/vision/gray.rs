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
    pub fn from_rgba(img: &RgbaImage) -> Gray {
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
    pub fn downscaled(img: &RgbaImage, s: usize) -> Gray {
        let s = s.max(1);
        if s == 1 {
            return Gray::from_rgba(img);
        }
        let (w, h) = (img.width() as usize / s, img.height() as usize / s);
        let stride = img.width() as usize * 4;
        let raw = img.as_raw();
        let mut data = vec![0u8; w * h];
        let shift = 8 + 2 * s.trailing_zeros();
        let area = (s * s) as u32;
        let convert = |rows: &mut [u8], y0: usize| {
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
                    *o = if s.is_power_of_two() {
                        (a >> shift) as u8
                    } else {
                        ((a / area) >> 8) as u8
                    };
                }
            }
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
