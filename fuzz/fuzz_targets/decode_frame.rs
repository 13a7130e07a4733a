//! `capture::decode_frame` on arbitrary bytes: PNG, CRLF-mangled PNG, JPEG or raw screencap.
//! Must never panic, and a decoded frame must respect the size caps.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_autoplay::capture::{self, MAX_PIXELS, MAX_SIDE};

fuzz_target!(|data: &[u8]| {
    match capture::decode_frame(data) {
        Ok(frame) => {
            let (w, h) = frame.image.dimensions();
            assert!(w >= 1 && h >= 1 && w <= MAX_SIDE && h <= MAX_SIDE);
            assert!(u64::from(w) * u64::from(h) <= MAX_PIXELS);
            let _ = frame.format.to_string();
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
