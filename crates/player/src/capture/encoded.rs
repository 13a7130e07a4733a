//! PNG and JPEG screenshots, including the repair of CRLF-mangled PNG.

use super::{Frame, FrameError, FrameFormat, MAX_SIDE, check_size};
use image::{DynamicImage, ImageDecoder, Limits};
use std::io::Cursor;

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
/// The PNG signature after a pty turned each `\n` into `\r\n`.
const PNG_SIGNATURE_CRLF: &[u8] = b"\x89PNG\r\r\n\x1a\r\n";
const JPEG_SIGNATURE: &[u8] = &[0xff, 0xd8, 0xff];

/// Decodes PNG or JPEG bytes; `Ok(None)` when the bytes are neither.
pub(super) fn decode(bytes: &[u8]) -> Result<Option<Frame>, FrameError> {
    if bytes.starts_with(PNG_SIGNATURE) {
        let image = decode_png(bytes)?;
        return Ok(Some(Frame {
            image,
            format: FrameFormat::Png,
        }));
    }
    if bytes.starts_with(PNG_SIGNATURE_CRLF) {
        let repaired = repair_crlf(bytes);
        let image = decode_png(&repaired)?;
        return Ok(Some(Frame {
            image,
            format: FrameFormat::PngCrlfRepaired,
        }));
    }
    if bytes.starts_with(JPEG_SIGNATURE) {
        let decoder = image::codecs::jpeg::JpegDecoder::new(Cursor::new(bytes)).map_err(|e| {
            FrameError::Decode {
                kind: "JPEG",
                len: bytes.len(),
                error: e,
            }
        })?;
        let image = finish(decoder, "JPEG", bytes.len())?;
        return Ok(Some(Frame {
            image,
            format: FrameFormat::Jpeg,
        }));
    }
    Ok(None)
}

/// Undoes a pty's `\n` -> `\r\n` conversion: every `\r\n` becomes `\n`.
pub(crate) fn repair_crlf(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
            out.push(b'\n');
            i += 2;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

fn decode_png(bytes: &[u8]) -> Result<image::RgbaImage, FrameError> {
    let decoder = image::codecs::png::PngDecoder::with_limits(Cursor::new(bytes), limits())
        .map_err(|e| FrameError::Decode {
            kind: "PNG",
            len: bytes.len(),
            error: e,
        })?;
    finish(decoder, "PNG", bytes.len())
}

fn limits() -> Limits {
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(super::MAX_PIXELS * 8);
    limits
}

/// Checks the size, then decodes and converts to RGBA.
fn finish(
    mut decoder: impl ImageDecoder,
    kind: &'static str,
    len: usize,
) -> Result<image::RgbaImage, FrameError> {
    let (w, h) = decoder.dimensions();
    check_size(w as u64, h as u64)?;
    decoder
        .set_limits(limits())
        .map_err(|e| FrameError::Decode {
            kind,
            len,
            error: e,
        })?;
    let image = DynamicImage::from_decoder(decoder).map_err(|e| FrameError::Decode {
        kind,
        len,
        error: e,
    })?;
    Ok(image.into_rgba8())
}

#[cfg(test)]
mod tests {
    use super::repair_crlf;

    #[test]
    fn crlf_repair_inverts_the_pty_mapping() {
        // A pty's output mapping (ONLCR) turns every "\n" into "\r\n".
        let original = b"\x89PNG\r\n\x1a\n\r\r\nabc\n\n";
        let mangled = b"\x89PNG\r\r\n\x1a\r\n\r\r\r\nabc\r\n\r\n";
        assert_eq!(repair_crlf(mangled), original.to_vec());
    }
}
