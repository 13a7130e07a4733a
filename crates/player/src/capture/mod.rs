//! Frame decoding: turns the bytes of a screenshot into an RGBA image.
//!
//! Accepted inputs, told apart by their first bytes and their length:
//! - PNG, as written by `adb exec-out screencap -p`, including the CRLF-mangled PNG that old devices'
//!   pty shells (`adb shell screencap -p`) produce: every `\n` became `\r\n`; it is repaired.
//! - JPEG (a user's own screenshot).
//! - raw `screencap` output: a 12-byte (old Android) or 16-byte (Android 8+, with a colour space)
//!   little-endian header `width, height, format[, colour space]` followed by the pixels in
//!   RGBA_8888, RGBX_8888, BGRA_8888, RGB_888 or RGB_565.
//!
//! Whole lines of text before the image are skipped: `screencap` writes warnings on stderr (Android
//! 14+ with several displays and no `-d`: `[Warning] Multiple displays were found, ...`), and an
//! `exec:` stream carries stderr with stdout.
//!
//! Sizes are capped ([`MAX_SIDE`], [`MAX_PIXELS`]) so a corrupt header cannot make us allocate
//! gigabytes; truncated or absurd frames give a [`FrameError`] that says what was wrong.

mod encoded;
pub mod raw;

use image::RgbaImage;

/// Largest accepted width or height, in pixels.
pub const MAX_SIDE: u32 = 10_000;
/// Largest accepted pixel count (width x height).
pub const MAX_PIXELS: u64 = 40_000_000;

/// What kind of bytes a frame was decoded from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameFormat {
    /// A PNG file.
    Png,
    /// A PNG whose `\n` bytes had been turned into `\r\n` by a pty; repaired before decoding.
    PngCrlfRepaired,
    /// A JPEG file.
    Jpeg,
    /// Raw `screencap` output with the given header length and pixel format.
    Raw {
        /// 12 (old devices) or 16 (header with a colour space).
        header_len: usize,
        /// Pixel layout.
        pixel: raw::PixelFormat,
    },
}

impl std::fmt::Display for FrameFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FrameFormat::Png => write!(f, "PNG"),
            FrameFormat::PngCrlfRepaired => write!(f, "PNG (CRLF-mangled, repaired)"),
            FrameFormat::Jpeg => write!(f, "JPEG"),
            FrameFormat::Raw { header_len, pixel } => {
                write!(f, "raw screencap ({header_len}-byte header, {pixel:?})")
            }
        }
    }
}

/// A decoded screenshot.
#[derive(Debug, Clone)]
pub struct Frame {
    /// The pixels, always RGBA with alpha 255 for opaque formats.
    pub image: RgbaImage,
    /// What the bytes were.
    pub format: FrameFormat,
}

/// Why bytes could not be decoded as a screenshot.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    /// No bytes at all.
    #[error(
        "empty frame: no bytes (did screencap fail? try `adb exec-out screencap -p > shot.png`)"
    )]
    Empty,
    /// The bytes are not PNG, JPEG or raw screencap output.
    #[error(
        "not a screenshot: {len} bytes that are neither PNG, JPEG nor raw screencap output \
         (first bytes {head}); pass a PNG/JPEG file or `screencap` output"
    )]
    Unrecognised {
        /// Number of bytes.
        len: usize,
        /// Hex dump of the first bytes.
        head: String,
    },
    /// Only text: a message where an image should be (a command's, or a text file's).
    #[error("not a screenshot: only text, no image: {text:?}")]
    OnlyText {
        /// The text (its first lines).
        text: String,
    },
    /// Width or height out of range.
    #[error(
        "absurd frame size {width}x{height} (limits: each side 1..={MAX_SIDE}, at most {MAX_PIXELS} pixels)"
    )]
    BadSize {
        /// Claimed width.
        width: u64,
        /// Claimed height.
        height: u64,
    },
    /// A raw frame whose byte count does not match its header.
    #[error(
        "raw screencap frame {width}x{height} format {format}: {detail} (cut short or not \
         `screencap` output? capture it again with `adb exec-out screencap -p > shot.png`)"
    )]
    RawMismatch {
        /// Header width.
        width: u32,
        /// Header height.
        height: u32,
        /// Header pixel format code.
        format: u32,
        /// What does not fit.
        detail: String,
    },
    /// The PNG or JPEG decoder failed (corrupt or truncated file).
    #[error(
        "cannot decode {kind} screenshot ({len} bytes): {} (file truncated or corrupt?)",
        decoder_message(error)
    )]
    Decode {
        /// "PNG" or "JPEG".
        kind: &'static str,
        /// Number of bytes.
        len: usize,
        /// The decoder's error (said in the message, in words: not a source of its own).
        error: image::ImageError,
    },
}

/// The decoder's error in words: without the decoder's prefix, and with a chunk named by its
/// four letters instead of a debug dump of its type (`ChunkType { type: IDAT, critical: .. }`).
fn decoder_message(e: &image::ImageError) -> String {
    let text = e.to_string();
    let mut text = text
        .split_once("decoding Png: ")
        .or_else(|| text.split_once("decoding Jpeg: "))
        .map_or(text.as_str(), |(_, rest)| rest)
        .trim_end_matches('.')
        .to_string();
    while let Some(start) = text.find("ChunkType {") {
        let end = text[start..]
            .find('}')
            .map_or(text.len(), |e| start + e + 1);
        let name: String = text[start..end]
            .split_once("type: ")
            .map(|(_, rest)| {
                rest.chars()
                    .take_while(|c| c.is_ascii_alphanumeric())
                    .collect()
            })
            .unwrap_or_default();
        text.replace_range(start..end, &name);
    }
    text
}

/// Decodes a screenshot (PNG, CRLF-mangled PNG, JPEG or raw screencap) into RGBA pixels.
pub fn decode(bytes: &[u8]) -> Result<RgbaImage, FrameError> {
    decode_frame(bytes).map(|f| f.image)
}

/// Like [`decode`], also telling which format the bytes were in.
pub fn decode_frame(bytes: &[u8]) -> Result<Frame, FrameError> {
    if bytes.is_empty() {
        return Err(FrameError::Empty);
    }
    let first = match decode_image(bytes) {
        Err(FrameError::Unrecognised { .. }) if text_lines(bytes) > 0 => None,
        r => Some(r),
    };
    if let Some(r) = first {
        return r;
    }
    // Lines of text first: what the command printed before the image.
    let skip = text_lines(bytes);
    let text = String::from_utf8_lossy(&bytes[..skip]);
    if skip == bytes.len() {
        let text: Vec<&str> = text.lines().take(3).collect();
        return Err(FrameError::OnlyText {
            text: text.join("\n"),
        });
    }
    tracing::debug!(text = %text.trim_end(), "text before the screenshot skipped");
    decode_image(&bytes[skip..])
}

/// The lines of text a command printed before the image (Android 14's "Multiple displays"
/// warning), if the bytes do not start with one.
pub fn text_before(bytes: &[u8]) -> Option<String> {
    if decode_image(bytes).is_ok() {
        return None;
    }
    let skip = text_lines(bytes);
    (skip > 0).then(|| {
        String::from_utf8_lossy(&bytes[..skip])
            .trim_end()
            .to_string()
    })
}

/// Decodes bytes that start with the image.
fn decode_image(bytes: &[u8]) -> Result<Frame, FrameError> {
    if let Some(frame) = encoded::decode(bytes)? {
        return Ok(frame);
    }
    if let Some(frame) = raw::decode(bytes)? {
        return Ok(frame);
    }
    let head: Vec<String> = bytes.iter().take(16).map(|b| format!("{b:02x}")).collect();
    Err(FrameError::Unrecognised {
        len: bytes.len(),
        head: head.join(" "),
    })
}

/// How many bytes the whole lines of printable text at the start take (at most 64 lines of
/// 1,000 bytes; each line starts with a printable character and ends with `\n`).
fn text_lines(bytes: &[u8]) -> usize {
    let printable = |b: u8| b.is_ascii_graphic() || b == b' ' || b == b'\t' || b == b'\r';
    let mut at = 0;
    for _ in 0..64 {
        let rest = &bytes[at..];
        if rest
            .first()
            .is_none_or(|&b| !b.is_ascii_graphic() && b != b' ')
        {
            break;
        }
        let line = rest.iter().take(1000).position(|&b| !printable(b));
        match line {
            Some(n) if rest[n] == b'\n' => at += n + 1,
            _ => break,
        }
    }
    at
}

/// Checks a width and height against the caps.
fn check_size(width: u64, height: u64) -> Result<(), FrameError> {
    if width == 0
        || height == 0
        || width > MAX_SIDE as u64
        || height > MAX_SIDE as u64
        || width * height > MAX_PIXELS
    {
        return Err(FrameError::BadSize { width, height });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Android 14's warning on a phone with several displays, as a Pixel Fold printed it
    /// (`tests/data/android/screencap/`, with its source).
    fn warning() -> Vec<u8> {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/data/android/screencap/pixel-fold-multidisplay-warning.txt"
        );
        std::fs::read(path).expect("the corpus file")
    }

    fn image(width: u32) -> RgbaImage {
        RgbaImage::from_fn(width, 7, |x, y| image::Rgba([x as u8, y as u8, 90, 255]))
    }

    #[test]
    fn text_before_the_image_is_skipped() {
        let img = image(10);
        let mut png = Vec::new();
        image::DynamicImage::ImageRgba8(img.clone())
            .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        let raw = raw::encode(&img, raw::PixelFormat::Rgba8888, 16);
        for (name, frame) in [("png", png), ("raw", raw)] {
            let mut bytes = warning();
            assert!(bytes.starts_with(b"[Warning] Multiple displays"));
            bytes.extend_from_slice(&frame);
            let decoded = decode_frame(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(decoded.image, img, "{name}");
            // And as it is, without the warning: a raw frame 10 pixels wide starts with `\n`.
            assert_eq!(decode_frame(&frame).unwrap().image, img, "{name}");
        }
    }

    #[test]
    fn text_alone_is_quoted() {
        let e = decode_frame(&warning()).unwrap_err().to_string();
        assert!(
            e.contains("only text, no image") && e.contains("Multiple displays"),
            "{e}"
        );
        let e = decode_frame(b"\x00\x01garbage").unwrap_err();
        assert!(matches!(e, FrameError::Unrecognised { .. }), "{e}");
    }
}
