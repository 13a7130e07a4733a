//! Text for people: numbers written with thousands separators (or approximately), rates and
//! durations, and a block of lines redrawn in place on a terminal.

use std::io::{self, Write};
use std::time::Duration;

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

/// `1.2M`, `45k`, `812`.
pub fn approx(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{:.0}k", n as f64 / 1e3),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

/// A rate for people: `243`, `2.8`.
pub fn rate(r: f64) -> String {
    if r >= 10.0 {
        format!("{r:.0}")
    } else {
        format!("{r:.1}")
    }
}

/// `2 h 10 min`, `4 min 10 s`, `12 s`, `0.4 s`; days past 48 h.
pub fn human(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 10.0 {
        return format!("{s:.1} s");
    }
    let s = s.round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => match s % 60 {
            0 => format!("{} min", s / 60),
            r => format!("{} min {r} s", s / 60),
        },
        3600..172_800 => match s % 3600 / 60 {
            0 => format!("{} h", s / 3600),
            m => format!("{} h {m} min", s / 3600),
        },
        _ => format!("{:.1} days", s as f64 / 86_400.0),
    }
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
    fn durations_and_counts_for_people() {
        use super::{approx, human};
        use std::time::Duration;
        assert_eq!(human(Duration::from_secs(7800)), "2 h 10 min");
        assert_eq!(human(Duration::from_secs(250)), "4 min 10 s");
        assert_eq!(human(Duration::from_millis(400)), "0.4 s");
        assert_eq!(human(Duration::from_secs(86_400 * 3)), "3.0 days");
        assert_eq!(approx(1_234_567), "1.2M");
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
