//! WebVTT captions file (W3C WebVTT), written beside the MP4.
//!
//! The cues are the same as in the MP4's mov_text track: [`super::cue::normalize`]
//! puts them on the video's timeline (host time `origin_us` is 00:00:00.000), sorted and
//! without overlaps, and times are rounded to the millisecond.
//!
//! Cue text is escaped (`&`, `<`, `>` as character references, which also keeps a
//! `-->` in the text from being read as a timing line) and blank lines inside it are
//! removed, since a blank line would end the cue. Cues whose text is empty, or whose
//! times round to an empty interval, are left out.

use super::cue::{Cue, normalize, us_to_ms};
use std::fmt::Write as _;

/// Renders `captions` as a WebVTT document; host time `origin_us` becomes time zero.
pub fn write_vtt(captions: &[Cue], origin_us: u64) -> String {
    let mut out = String::from("WEBVTT\n");
    for cue in normalize(captions, origin_us, u64::MAX) {
        let (start, end) = (us_to_ms(cue.start_us), us_to_ms(cue.end_us));
        let text = cue_text(&cue.text);
        if start >= end || text.is_empty() {
            continue;
        }
        let _ = write!(
            out,
            "\n{} --> {}\n{text}\n",
            timestamp(start),
            timestamp(end)
        );
    }
    out
}

/// `HH:MM:SS.mmm` (hours grow past two digits if they must).
fn timestamp(ms: u64) -> String {
    let (s, ms) = (ms / 1000, ms % 1000);
    format!("{:02}:{:02}:{:02}.{ms:03}", s / 3600, s / 60 % 60, s % 60)
}

/// Escapes the text and drops blank lines.
fn cue_text(text: &str) -> String {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let lines: Vec<String> = text
        .split('\n')
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            l.replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
        })
        .collect();
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cue(start_us: u64, end_us: u64, text: &str) -> Cue {
        Cue {
            start_us,
            end_us,
            text: text.to_string(),
        }
    }

    #[test]
    fn header_timestamps_and_escaping() {
        let cues = [
            cue(1_000_000, 2_500_400, "found 3 <b> & 4 --> done"),
            cue(3_723_004_000 + 1_000_000, 3_723_005_000 + 1_000_000, "late"),
            cue(4_000_000, 5_000_000, "line 1\r\n\r\n  \nline 2\r"),
            cue(6_000_000, 7_000_000, " \n "),
            cue(8_000_000, 8_000_400, "rounds to nothing"),
        ];
        let vtt = write_vtt(&cues, 1_000_000);
        let want = "WEBVTT\n\n\
            00:00:00.000 --> 00:00:01.500\nfound 3 &lt;b&gt; &amp; 4 --&gt; done\n\n\
            00:00:03.000 --> 00:00:04.000\nline 1\nline 2\n\n\
            01:02:03.004 --> 01:02:03.005\nlate\n";
        assert_eq!(vtt, want);
    }

    #[test]
    fn no_cues_is_just_the_header() {
        assert_eq!(write_vtt(&[], 0), "WEBVTT\n");
        assert_eq!(timestamp(360_000_000 * 1000), "100000:00:00.000");
    }
}
