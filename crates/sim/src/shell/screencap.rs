//! `screencap` (raw and `-p` PNG) and the `framebuffer:` service's image format.

use super::device::Handset;
use super::output::Output;
use image::RgbaImage;

/// `PIXEL_FORMAT_RGBA_8888` in screencap's raw header.
pub const FORMAT_RGBA_8888: u32 = 1;
/// Colour space id screencap reports for sRGB.
pub const COLORSPACE_SRGB: u32 = 1;

/// `screencap [-p] [-d ID]`: raw (16-byte header: width, height, format, colour space; then
/// RGBA) or PNG to stdout. Writing to a file is not supported (the phone has no storage).
pub fn screencap(device: &Handset, args: &[String], out: &mut Output) -> i32 {
    let mut png = false;
    let mut display = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-p" => png = true,
            "-d" => {
                if it.next().is_none() {
                    out.err("screencap: option requires an argument -- d\n");
                    return 1;
                }
                display = true;
            }
            "-h" => {
                out.err("usage: screencap [-hp] [-d display-id]\n");
                return 0;
            }
            other => {
                out.err(format!(
                    "screencap: cannot write {other}: this simulated phone has no storage; \
                     write to stdout (adb exec-out screencap -p > file.png)\n"
                ));
                return 1;
            }
        }
    }
    let quirks = device.profile().quirks;
    if quirks.extra_displays > 0 && !display {
        // Android 14's screencap with several displays and no `-d` (on stderr, which an
        // `exec:` stream carries in front of the image).
        out.err(MULTIPLE_DISPLAYS_WARNING);
    }
    let image = device.phone().screenshot();
    if png {
        match encode_png(&image) {
            Ok(bytes) => out.out(bytes),
            Err(e) => {
                out.err(format!("screencap: PNG encoding failed: {e}\n"));
                return 1;
            }
        }
    } else {
        let mut bytes = raw(&image);
        if quirks.raw_header_12 {
            // Before Android 8 the header had no colour space.
            bytes.drain(12..16);
        }
        out.out(bytes);
    }
    0
}

/// What screencap prints on a phone with several displays when no `-d` is given
/// (`tests/data/android/screencap/pixel-fold-multidisplay-warning.txt`).
pub const MULTIPLE_DISPLAYS_WARNING: &str = "[Warning] Multiple displays were found, but no display id was specified! \
Defaulting to the first display found, however this default is not guaranteed to be consistent across captures. \
A display id should be specified.\nA display ID can be specified with the [-d display-id] option.\n\
See \"dumpsys SurfaceFlinger --display-id\" for valid display IDs.\n";

/// screencap's raw format: width, height, format, colour space (u32 LE each), then RGBA rows.
pub fn raw(image: &RgbaImage) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(16 + image.as_raw().len());
    for w in [
        image.width(),
        image.height(),
        FORMAT_RGBA_8888,
        COLORSPACE_SRGB,
    ] {
        bytes.extend_from_slice(&w.to_le_bytes());
    }
    bytes.extend_from_slice(image.as_raw());
    bytes
}

/// The image as PNG.
pub(crate) fn encode_png(image: &RgbaImage) -> Result<Vec<u8>, image::ImageError> {
    use image::ImageEncoder;
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};
    let mut bytes = Vec::new();
    PngEncoder::new_with_quality(&mut bytes, CompressionType::Fast, FilterType::Adaptive)
        .write_image(
            image.as_raw(),
            image.width(),
            image.height(),
            image::ExtendedColorType::Rgba8,
        )?;
    Ok(bytes)
}

/// The `framebuffer:` service's reply: a version 2 header (version, bpp, colour space, size,
/// width, height, then offset/length of red, blue, green, alpha) followed by RGBA pixels.
pub fn framebuffer(image: &RgbaImage) -> Vec<u8> {
    let size = u32::try_from(image.as_raw().len()).unwrap_or(u32::MAX);
    let header: [u32; 14] = [
        2,
        32,
        0,
        size,
        image.width(),
        image.height(),
        0,
        8,
        16,
        8,
        8,
        8,
        24,
        8,
    ];
    let mut bytes = Vec::with_capacity(56 + image.as_raw().len());
    for w in header {
        bytes.extend_from_slice(&w.to_le_bytes());
    }
    bytes.extend_from_slice(image.as_raw());
    bytes
}
