//! `vision::read_board` (board detection + OCR, no calibration) on small arbitrary images.
//! Byte 0 and 1 give the size (1..=200 each), byte 2 the mode:
//! - 0: grey pixels from the remaining bytes (zero-padded);
//! - 1: RGBA pixels from the remaining bytes (zero-padded);
//! - 2: a drawn 9x9 grid (origin, cell size, line width from the next 4 bytes) with ink blobs
//!   at `(x, y, grey)` triplets from the rest, so detection succeeds and the OCR runs too.
//!
//! Any image must give a reading or an error, never a panic.
#![no_main]

use image::{Rgba, RgbaImage};
use libfuzzer_sys::fuzz_target;
use sudoku_autoplay::vision;

fuzz_target!(|data: &[u8]| {
    let [w, h, mode, rest @ ..] = data else {
        return;
    };
    let (w, h) = (u32::from(*w % 200) + 1, u32::from(*h % 200) + 1);
    let at = |i: usize| rest.get(i).copied().unwrap_or(0);
    let img = match mode % 3 {
        0 => RgbaImage::from_fn(w, h, |x, y| {
            let v = at((y * w + x) as usize);
            Rgba([v, v, v, 255])
        }),
        1 => RgbaImage::from_fn(w, h, |x, y| {
            let i = 4 * (y * w + x) as usize;
            Rgba([at(i), at(i + 1), at(i + 2), at(i + 3)])
        }),
        _ => drawn_grid(w, h, rest),
    };
    match vision::read_board(&img) {
        Ok(reading) => {
            let _ = reading.givens();
            let _ = reading.kinds_line();
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
});

fn drawn_grid(w: u32, h: u32, rest: &[u8]) -> RgbaImage {
    let mut img = RgbaImage::from_pixel(w, h, Rgba([255, 255, 255, 255]));
    let [x0, y0, cell, lw, blobs @ ..] = rest else {
        return img;
    };
    let (x0, y0) = (u32::from(*x0 % 32), u32::from(*y0 % 32));
    let (cell, lw) = (8 + u32::from(*cell % 20), 1 + u32::from(*lw % 4));
    let mut put = |x: u32, y: u32, v: u8| {
        if x < w && y < h {
            img.put_pixel(x, y, Rgba([v, v, v, 255]));
        }
    };
    for k in 0..10 {
        let at = k * cell;
        for t in 0..lw {
            for s in 0..=9 * cell {
                put(x0 + at + t, y0 + s, 0);
                put(x0 + s, y0 + at + t, 0);
            }
        }
    }
    for b in blobs.chunks_exact(3) {
        let (x, y) = (
            x0 + u32::from(b[0]) % (9 * cell),
            y0 + u32::from(b[1]) % (9 * cell),
        );
        for dy in 0..3 {
            for dx in 0..3 {
                put(x + dx, y + dy, b[2]);
            }
        }
    }
    img
}
