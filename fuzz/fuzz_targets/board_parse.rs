//! `Board::parse` (81-char line or 9x9 grid) on arbitrary text; a parsed board must round-trip
//! through `to_line` and its checks must not panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_autoplay::board::Board;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for parsed in [
        Board::parse(text),
        Board::parse_line(text),
        Board::parse_grid(text),
    ] {
        match parsed {
            Ok(board) => {
                let line = board.to_line();
                assert_eq!(Board::parse_line(&line).ok(), Some(board.clone()));
                assert_eq!(Board::parse(&board.to_string()).ok(), Some(board.clone()));
                let _ = board.conflicts();
                if let Err(c) = board.validate() {
                    let _ = c.to_string();
                }
                let _ = (board.filled(), board.is_solved());
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
});
