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
