//! Captions: timed text on the host clock, and how they are put on a track timeline.
//!
//! The host shows the search's counts as captions. A caption is a [`Cue`] with start
//! and end times on the same host clock as the video's access units. Before they are
//! written (as an MP4 mov_text track or as WebVTT) they go through [`normalize`]:
//! shifted so the video's first frame is time 0, clipped to the track, sorted, and
//! trimmed so that no two overlap, because a mov_text track shows one sample at a time.

/// One caption: `text` shown from `start_us` to `end_us` (host clock, microseconds).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Cue {
    /// Host time at which the text appears.
    pub start_us: u64,
    /// Host time at which it disappears (exclusive).
    pub end_us: u64,
    /// The text (UTF-8; may hold line breaks).
    pub text: String,
}

/// Puts cues on a track timeline that starts at host time `origin_us` and lasts
/// `limit_us`, and returns them sorted, with times relative to the origin:
/// - a cue ending at or before the origin is dropped; one straddling it starts at 0;
/// - a cue is cut at `limit_us` (one starting at or after it is dropped);
/// - cues are sorted by start time (stably: equal starts keep their input order);
/// - where cues overlap, the earlier one ends when the next one starts, so among cues
///   with the same start the last one given wins;
/// - cues left empty in time (end <= start) are dropped.
pub fn normalize(cues: &[Cue], origin_us: u64, limit_us: u64) -> Vec<Cue> {
    let mut out: Vec<Cue> = cues
        .iter()
        .filter_map(|c| {
            let start_us = c.start_us.saturating_sub(origin_us);
            let end_us = c.end_us.saturating_sub(origin_us).min(limit_us);
            (end_us > start_us).then(|| Cue {
                start_us,
                end_us,
                text: c.text.clone(),
            })
        })
        .collect();
    out.sort_by_key(|c| c.start_us);
    let starts: Vec<u64> = out.iter().map(|c| c.start_us).collect();
    for (cue, next_start) in out.iter_mut().zip(starts.iter().skip(1)) {
        cue.end_us = cue.end_us.min(*next_start);
    }
    out.retain(|c| c.end_us > c.start_us);
    out
}

/// Rounds microseconds to the nearest millisecond.
pub(crate) fn us_to_ms(us: u64) -> u64 {
    us / 1000 + u64::from(us % 1000 >= 500)
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
    fn shifts_clips_sorts_and_trims() {
        let cues = [
            cue(5_000, 9_000, "c"),
            cue(500, 900, "before origin"),
            cue(900, 2_000, "straddles"),
            cue(3_000, 6_000, "b overlaps c"),
            cue(9_000, 9_000, "empty"),
            cue(20_000, 30_000, "cut at limit"),
            cue(40_000, 50_000, "after limit"),
            cue(5_000, 7_000, "same start as c, given later: wins"),
        ];
        let got = normalize(&cues, 1_000, 24_000);
        let want = [
            cue(0, 1_000, "straddles"),
            cue(2_000, 4_000, "b overlaps c"),
            cue(4_000, 6_000, "same start as c, given later: wins"),
            cue(19_000, 24_000, "cut at limit"),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn rounding_to_milliseconds() {
        assert_eq!([499, 500, 1_499, 1_500].map(us_to_ms), [0, 1, 1, 2]);
        assert_eq!(us_to_ms(u64::MAX), u64::MAX / 1000 + 1);
    }
}
