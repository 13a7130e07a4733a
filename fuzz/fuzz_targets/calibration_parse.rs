//! `Calibration::parse` on arbitrary text. A calibration that parses must be usable without
//! panics (geometry, keys, templates, frame check) and must survive `to_toml` -> `parse`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;
use sudoku_autoplay::calibration::Calibration;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let file = Path::new("fuzz.toml");
    match Calibration::parse(text, file) {
        Ok(cal) => {
            let g = cal.geometry();
            for i in 0..81 {
                let _ = g.cell_inner(i);
            }
            for d in 0..=10 {
                let _ = cal.key(d);
            }
            let _ = cal.template_bank();
            let _ = cal.check_frame(cal.device.width, cal.device.height);
            let _ = cal.check_frame(1, 1);
            let again = Calibration::parse(&cal.to_toml(), file)
                .unwrap_or_else(|e| panic!("to_toml output does not parse back: {e}"));
            assert_eq!(again, cal);
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
