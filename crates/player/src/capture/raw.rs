//! Raw `screencap` output (no `-p`): a little-endian header, then tightly packed pixels.
//!
//! Header: `width: u32, height: u32, format: u32` (12 bytes, old Android) plus `colour_space: u32`
//! (16 bytes, Android 8+). Which one a frame has is worked out from the byte count:
//! `len - width * height * bytes_per_pixel` must be 12 or 16.

use super::{Frame, FrameError, FrameFormat, check_size};
use image::{Rgba, RgbaImage};

/// Android `PixelFormat` codes that `screencap` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PixelFormat {
    /// 1: bytes R, G, B, A.
    Rgba8888,
    /// 2: bytes R, G, B, X (X ignored).
    Rgbx8888,
    /// 3: bytes R, G, B.
    Rgb888,
    /// 4: little-endian u16, 5 bits red (high), 6 green, 5 blue.
    Rgb565,
    /// 5: bytes B, G, R, A.
    Bgra8888,
}

impl PixelFormat {
    /// The format for an Android `PixelFormat` code.
    pub(crate) fn from_code(code: u32) -> Option<Self> {
        Some(match code {
            1 => PixelFormat::Rgba8888,
            2 => PixelFormat::Rgbx8888,
            3 => PixelFormat::Rgb888,
            4 => PixelFormat::Rgb565,
            5 => PixelFormat::Bgra8888,
            _ => return None,
        })
    }

    /// The Android `PixelFormat` code.
    pub fn code(self) -> u32 {
        match self {
            PixelFormat::Rgba8888 => 1,
            PixelFormat::Rgbx8888 => 2,
            PixelFormat::Rgb888 => 3,
            PixelFormat::Rgb565 => 4,
            PixelFormat::Bgra8888 => 5,
        }
    }

    /// Bytes per pixel.
    pub(crate) fn bytes_per_pixel(self) -> usize {
        match self {
            PixelFormat::Rgb565 => 2,
            PixelFormat::Rgb888 => 3,
            _ => 4,
        }
    }

    fn read(self, p: &[u8]) -> [u8; 4] {
        match self {
            PixelFormat::Rgba8888 => [p[0], p[1], p[2], p[3]],
            PixelFormat::Rgbx8888 | PixelFormat::Rgb888 => [p[0], p[1], p[2], 255],
            PixelFormat::Bgra8888 => [p[2], p[1], p[0], p[3]],
            PixelFormat::Rgb565 => {
                let v = u16::from_le_bytes([p[0], p[1]]);
                let r = ((v >> 11) & 0x1f) as u8;
                let g = ((v >> 5) & 0x3f) as u8;
                let b = (v & 0x1f) as u8;
                [
                    (r << 3) | (r >> 2),
                    (g << 2) | (g >> 4),
                    (b << 3) | (b >> 2),
                    255,
                ]
            }
        }
    }

    fn write(self, px: [u8; 4], out: &mut Vec<u8>) {
        match self {
            PixelFormat::Rgba8888 => out.extend_from_slice(&px),
            PixelFormat::Rgbx8888 => out.extend_from_slice(&[px[0], px[1], px[2], 255]),
            PixelFormat::Rgb888 => out.extend_from_slice(&px[..3]),
            PixelFormat::Bgra8888 => out.extend_from_slice(&[px[2], px[1], px[0], px[3]]),
            PixelFormat::Rgb565 => {
                let v =
                    ((px[0] as u16 >> 3) << 11) | ((px[1] as u16 >> 2) << 5) | (px[2] as u16 >> 3);
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
    }
}

/// Decodes raw screencap bytes; `Ok(None)` when the header's format code is not a known one.
pub(super) fn decode(bytes: &[u8]) -> Result<Option<Frame>, FrameError> {
    let Some(header) = bytes.get(..12) else {
        return Ok(None);
    };
    let word =
        |i: usize| u32::from_le_bytes([header[i], header[i + 1], header[i + 2], header[i + 3]]);
    let (width, height, code) = (word(0), word(4), word(8));
    let Some(pixel) = PixelFormat::from_code(code) else {
        return Ok(None);
    };
    check_size(width as u64, height as u64)?;
    let payload = width as usize * height as usize * pixel.bytes_per_pixel();
    let header_len = match bytes.len().checked_sub(payload) {
        Some(n @ (12 | 16)) => n,
        _ => {
            let detail = if bytes.len() < payload + 12 {
                format!(
                    "truncated: {} bytes, expected {} ({payload} pixel bytes + a 12- or 16-byte header)",
                    bytes.len(),
                    payload + 12
                )
            } else {
                format!(
                    "{} bytes do not match {payload} pixel bytes + a 12- or 16-byte header",
                    bytes.len()
                )
            };
            return Err(FrameError::RawMismatch {
                width,
                height,
                format: code,
                detail,
            });
        }
    };
    let bpp = pixel.bytes_per_pixel();
    // RGBA_8888 is already our layout: one copy.
    let same = (pixel == PixelFormat::Rgba8888)
        .then(|| RgbaImage::from_raw(width, height, bytes[header_len..].to_vec()))
        .flatten();
    let image = same.unwrap_or_else(|| {
        let mut image = RgbaImage::new(width, height);
        for (dst, src) in image
            .pixels_mut()
            .zip(bytes[header_len..].chunks_exact(bpp))
        {
            *dst = Rgba(pixel.read(src));
        }
        image
    });
    Ok(Some(Frame {
        image,
        format: FrameFormat::Raw { header_len, pixel },
    }))
}

/// Encodes an image as raw screencap output (for tests and the simulated phone).
/// `header_len` 16 adds colour space 0 (unknown); any other value writes the 12-byte header.
pub fn encode(image: &RgbaImage, pixel: PixelFormat, header_len: usize) -> Vec<u8> {
    let n = image.width() as usize * image.height() as usize;
    let mut out = Vec::with_capacity(16 + n * pixel.bytes_per_pixel());
    out.extend_from_slice(&image.width().to_le_bytes());
    out.extend_from_slice(&image.height().to_le_bytes());
    out.extend_from_slice(&pixel.code().to_le_bytes());
    if header_len == 16 {
        out.extend_from_slice(&0u32.to_le_bytes());
    }
    for p in image.pixels() {
        pixel.write(p.0, &mut out);
    }
    out
}
