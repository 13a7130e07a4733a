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
