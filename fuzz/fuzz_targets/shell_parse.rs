//! The simulated phone's shell grammar (`sim::shell::parse::parse`) on arbitrary text; every
//! word of a parsed script must expand without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use autoplay_sim::shell::parse::parse;

fuzz_target!(|data: &[u8]| {
    let Ok(script) = std::str::from_utf8(data) else {
        return;
    };
    match parse(script) {
        Ok(commands) => {
            for c in &commands {
                for w in &c.words {
                    let _ = w.expand(0, 0);
                    let _ = w.expand(i32::MIN, u32::MAX);
                }
            }
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
