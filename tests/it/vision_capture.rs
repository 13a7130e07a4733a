//! Frame decoding: PNG, CRLF-mangled PNG, JPEG, raw screencap in every pixel format; corrupt,
//! truncated and absurd frames; non-Sudoku images.

use crate::vision_support::*;
use image::{ImageEncoder, RgbaImage};
use sudoku_autoplay::capture::{self, FrameError, FrameFormat, raw};
use sudoku_autoplay::vision::{self, VisionError};

fn screen() -> RgbaImage {
    render(&Style::light(720, 1520), &scene()).0
}

fn png(img: &RgbaImage) -> Vec<u8> {
    let mut out = Vec::new();
    image::codecs::png::PngEncoder::new(&mut out)
        .write_image(
            img.as_raw(),
            img.width(),
            img.height(),
            image::ExtendedColorType::Rgba8,
        )
        .unwrap();
    out
}

fn reads_scene(img: &RgbaImage) {
    let r = vision::read_board(img).expect("board");
    let (board, kinds) = truth(&scene());
    assert_eq!(r.board.to_line(), board);
    assert_eq!(r.kinds_line(), kinds);
}

#[test]
fn png_and_crlf_mangled_png() {
    let img = screen();
    let bytes = png(&img);
    let f = capture::decode_frame(&bytes).unwrap();
    assert_eq!(f.format, FrameFormat::Png);
    assert_eq!(f.image, img);
    // What an old device's pty does to `screencap -p`: every \n becomes \r\n.
    let mangled = autoplay_sim::adb::pty::crlf(&bytes);
    assert!(mangled.len() > bytes.len());
    let f = capture::decode_frame(&mangled).unwrap();
    assert_eq!(f.format, FrameFormat::PngCrlfRepaired);
    assert_eq!(f.image, img);
}

#[test]
fn jpeg_screenshot_reads() {
    let img = screen();
    let rgb = image::DynamicImage::ImageRgba8(img).into_rgb8();
    let mut bytes = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, 80)
        .encode_image(&rgb)
        .unwrap();
    let f = capture::decode_frame(&bytes).unwrap();
    assert_eq!(f.format, FrameFormat::Jpeg);
    reads_scene(&f.image);
}

#[test]
fn raw_frames_in_every_format_and_header() {
    let img = screen();
    for pixel in [
        raw::PixelFormat::Rgba8888,
        raw::PixelFormat::Rgbx8888,
        raw::PixelFormat::Bgra8888,
        raw::PixelFormat::Rgb888,
        raw::PixelFormat::Rgb565,
    ] {
        for header_len in [12, 16] {
            let bytes = raw::encode(&img, pixel, header_len);
            let f = capture::decode_frame(&bytes).unwrap();
            assert_eq!(f.format, FrameFormat::Raw { header_len, pixel });
            if pixel == raw::PixelFormat::Rgb565 {
                // 5/6/5 bits: within 8 levels per channel.
                for (a, b) in f.image.pixels().zip(img.pixels()) {
                    for c in 0..3 {
                        assert!(a.0[c].abs_diff(b.0[c]) <= 8);
                    }
                }
                reads_scene(&f.image);
            } else {
                assert_eq!(f.image, img, "{pixel:?} {header_len}");
            }
        }
    }
}

#[test]
fn corrupt_truncated_and_absurd_frames_are_clear_errors() {
    let img = screen();
    let bytes = png(&img);
    // Truncated PNG.
    let e = capture::decode(&bytes[..bytes.len() / 2]).unwrap_err();
    assert!(matches!(e, FrameError::Decode { kind: "PNG", .. }), "{e}");
    assert!(e.to_string().contains("truncated or corrupt"), "{e}");
    // Corrupt PNG body.
    let mut bad = bytes.clone();
    for b in bad[60..200].iter_mut() {
        *b ^= 0x5a;
    }
    assert!(capture::decode(&bad).is_err());
    // Truncated raw frame.
    let rawf = raw::encode(&img, raw::PixelFormat::Rgba8888, 16);
    let e = capture::decode(&rawf[..rawf.len() - 100]).unwrap_err();
    assert!(matches!(e, FrameError::RawMismatch { .. }), "{e}");
    assert!(e.to_string().contains("truncated"), "{e}");
    // Absurd raw header: 100000 x 100000.
    let mut absurd = Vec::new();
    for v in [100_000u32, 100_000, 1, 0] {
        absurd.extend_from_slice(&v.to_le_bytes());
    }
    absurd.extend_from_slice(&[0; 64]);
    let e = capture::decode(&absurd).unwrap_err();
    assert!(matches!(e, FrameError::BadSize { .. }), "{e}");
    // Not an image at all, and nothing.
    let e = capture::decode(b"hello, this is not a screenshot at all").unwrap_err();
    assert!(matches!(e, FrameError::Unrecognised { .. }), "{e}");
    assert!(matches!(
        capture::decode(&[]).unwrap_err(),
        FrameError::Empty
    ));
    // A PNG header claiming a huge size is refused before allocating.
    let mut huge = bytes[..33].to_vec();
    huge[16..20].copy_from_slice(&60_000u32.to_be_bytes());
    assert!(capture::decode(&huge).is_err());
}

fn no_board(img: &RgbaImage, what: &str) {
    match vision::detect_board(img) {
        Err(e @ VisionError::NoBoard { .. }) => {
            assert!(e.to_string().contains("no Sudoku board found"), "{e}");
        }
        other => panic!("{what}: expected no board, got {other:?}"),
    }
}

#[test]
fn non_sudoku_images_say_no_board() {
    let (w, h) = (1080u32, 2400u32);
    let blank = RgbaImage::from_pixel(w, h, image::Rgba([255, 255, 255, 255]));
    no_board(&blank, "blank");
    no_board(&settings_list(w, h), "settings list");
    no_board(&grid_8x8(w, h), "8x8 grid");
    no_board(&calendar(w, h), "calendar");
    // Noise.
    let mut state = 12345u32;
    let noise = RgbaImage::from_fn(720, 1280, |_, _| {
        state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
        let v = (state >> 16) as u8;
        image::Rgba([v, v, v, 255])
    });
    no_board(&noise, "noise");
}

/// A settings list: text rows and full-width dividers.
fn settings_list(w: u32, h: u32) -> RgbaImage {
    let mut img = RgbaImage::from_pixel(w, h, image::Rgba([250, 250, 250, 255]));
    for i in 0..14 {
        let y = 200.0 + i as f32 * 150.0;
        text_at(
            &mut img,
            48.0,
            60.0,
            y + 80.0,
            [30, 30, 30],
            &format!("Setting {i} 123"),
        );
        fill(
            &mut img,
            0,
            (y + 140.0) as i64,
            w as i64,
            (y + 142.0) as i64,
            [200, 200, 200],
        );
    }
    img
}

/// An 8x8 grid with a border (a chess or puzzle board), digits in it.
fn grid_8x8(w: u32, h: u32) -> RgbaImage {
    let mut img = RgbaImage::from_pixel(w, h, image::Rgba([255, 255, 255, 255]));
    let cell = 120i64;
    for i in 0..9 {
        let p = 60 + i * cell;
        fill(
            &mut img,
            p - 1,
            600,
            p + 2,
            600 + 8 * cell + 2,
            [40, 40, 40],
        );
        let y = 600 + i * cell;
        fill(&mut img, 60, y - 1, 60 + 8 * cell + 2, y + 2, [40, 40, 40]);
    }
    for i in 0..8 {
        text_centered(
            &mut img,
            80.0,
            120.0 + (i * cell) as f32,
            660.0 + (i * cell) as f32,
            [0, 0, 0],
            &format!("{}", i + 1),
        );
    }
    img
}

/// A calendar: 7 columns, 6 rows.
fn calendar(w: u32, h: u32) -> RgbaImage {
    let mut img = RgbaImage::from_pixel(w, h, image::Rgba([255, 255, 255, 255]));
    for i in 0..8 {
        let p = 40 + i * 143;
        fill(&mut img, p, 700, p + 2, 700 + 6 * 143, [180, 180, 180]);
    }
    for i in 0..7 {
        let y = 700 + i * 143;
        fill(&mut img, 40, y, 40 + 7 * 143, y + 2, [180, 180, 180]);
    }
    img
}
