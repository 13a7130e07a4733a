//! Session files on arbitrary text: `session.toml` (`SessionMeta::parse`), journal lines
//! (`journal::parse_line`, which must round-trip) and `runs.csv` lines (`RunRecord::parse`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;
use sudoku_autoplay::session::{RunRecord, SessionMeta, journal};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Err(e) = SessionMeta::parse(text, Path::new("session.toml")) {
        let _ = e.to_string();
    }
    for line in text.lines() {
        if let Ok(parsed) = journal::parse_line(line) {
            let json = serde_json::to_string(&parsed).expect("a journal line serialises");
            assert_eq!(journal::parse_line(&json).ok(), Some(parsed));
        }
        if let Err(e) = RunRecord::parse(line) {
            let _ = e.to_string();
        }
    }
});
