//! Text for people: numbers written with thousands separators, and a block of lines redrawn
//! in place on a terminal.

use std::io::{self, Write};

/// `1234567` -> `1,234,567`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// `n` things, with thousands separators and the noun's plural where `n` is not 1:
/// `count(1, "repair")` is `1 repair`, `count(1234, "tap")` is `1,234 taps`.
pub fn count(n: u64, noun: &str) -> String {
    format!("{} {noun}{}", thousands(n), if n == 1 { "" } else { "s" })
}

/// Redraws a block of lines in place on a terminal: each frame moves the cursor back up over
/// the previous one and clears what is below (ANSI), so a shorter frame leaves nothing behind.
#[derive(Debug, Default)]
pub struct Redraw {
    lines: usize,
}

impl Redraw {
    /// Draws `text` (lines ending in `\n`) over the previous frame.
    pub fn draw(&mut self, out: &mut dyn Write, text: &str) -> io::Result<()> {
        if self.lines > 0 {
            write!(out, "\x1b[{}A\x1b[J", self.lines)?;
        }
        out.write_all(text.as_bytes())?;
        out.flush()?;
        self.lines = text.lines().count();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_say_one_thing_or_many() {
        use super::count;
        assert_eq!(count(0, "repair"), "0 repairs");
        assert_eq!(count(1, "repair"), "1 repair");
        assert_eq!(count(12_345, "tap"), "12,345 taps");
    }

    #[test]
    fn redraw_goes_back_over_the_last_frame() {
        let mut out = Vec::new();
        let mut r = super::Redraw::default();
        r.draw(&mut out, "a\nb\n").unwrap();
        r.draw(&mut out, "c\n").unwrap();
        r.draw(&mut out, "d\n").unwrap();
        assert_eq!(out, b"a\nb\n\x1b[2A\x1b[Jc\n\x1b[1A\x1b[Jd\n");
    }

    #[test]
    fn thousands_groups() {
        assert_eq!(super::thousands(0), "0");
        assert_eq!(super::thousands(999), "999");
        assert_eq!(super::thousands(6_943_195), "6,943,195");
    }
}
