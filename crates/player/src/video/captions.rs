//! The search's counts as captions, in time with the video: from the journal's lines of the
//! run being recorded (after its last `start`), each step's counts (step, placements, undos,
//! calls) shown from when its taps went out; lines closer than [`MIN_CUE`] are one caption (a
//! fast phone takes hundreds of taps a second), showing the last counts of the group.

use super::cue::Cue;
use crate::session::JournalLine;
use crate::solver::Event;
use crate::text::thousands;
use std::time::Duration;

/// The shortest caption.
const MIN_CUE: Duration = Duration::from_millis(100);

/// Captions for `lines` (a journal), whose times count from `journal_us` on the video's clock;
/// `events` are the search's, for the counts; the last caption lasts until `end_us`.
pub fn captions(events: &[Event], lines: &[JournalLine], journal_us: u64, end_us: u64) -> Vec<Cue> {
    let since_start = lines
        .iter()
        .rposition(|l| matches!(l, JournalLine::Start { .. }))
        .map_or(lines, |i| &lines[i..]);
    let counts = Counts::of(events);
    let mut cues: Vec<Cue> = Vec::new();
    for line in since_start {
        let (t_ms, text) = match line {
            JournalLine::Event { t_ms, i, .. } => (*t_ms, counts.say(*i as usize)),
            JournalLine::Write { t_ms, why, .. } => {
                (*t_ms, format!("{why:?} writes").to_lowercase())
            }
            _ => continue,
        };
        let at = journal_us + t_ms * 1000;
        match cues.last_mut() {
            Some(last) if at < last.start_us + MIN_CUE.as_micros() as u64 => last.text = text,
            Some(last) => {
                last.end_us = at;
                cues.push(Cue {
                    start_us: at,
                    end_us: end_us.max(at),
                    text,
                });
            }
            None => cues.push(Cue {
                start_us: at,
                end_us: end_us.max(at),
                text,
            }),
        }
    }
    if let Some(last) = cues.last_mut() {
        last.end_us = end_us.max(last.start_us);
    }
    cues
}

/// Placements and undos up to each step of a search.
struct Counts {
    /// (placements, undos) after step i.
    after: Vec<(u64, u64)>,
}

impl Counts {
    fn of(events: &[Event]) -> Counts {
        let mut now = (0, 0);
        let after = events
            .iter()
            .map(|e| {
                match e {
                    Event::Place { .. } => now.0 += 1,
                    Event::Undo { .. } => now.1 += 1,
                }
                now
            })
            .collect();
        Counts { after }
    }

    /// `step 1,234 of 5,678 · 812 placements · 421 undos · 813 calls`
    fn say(&self, step: usize) -> String {
        let (placements, undos) = self.after.get(step).copied().unwrap_or_default();
        format!(
            "step {} of {} · {} placements · {} undos · {} calls",
            thousands(step as u64 + 1),
            thousands(self.after.len() as u64),
            thousands(placements),
            thousands(undos),
            thousands(placements + 1)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::JournalLine as L;

    #[test]
    fn a_caption_per_tenth_of_a_second_with_the_counts_of_its_last_step() {
        let events = [
            Event::Place { cell: 0, digit: 1 },
            Event::Undo { cell: 0, digit: 1 },
            Event::Place { cell: 0, digit: 2 },
        ];
        let ev = |t_ms, i| L::Event {
            t_ms,
            i,
            event: events[i as usize],
            taps: vec![],
        };
        let lines = [
            L::Event {
                t_ms: 0,
                i: 0,
                event: events[0],
                taps: vec![],
            },
            L::Start {
                t_ms: 10,
                from_event: 0,
            },
            ev(20, 0),
            ev(50, 1),
            ev(300, 2),
        ];
        let cues = captions(&events, &lines, 1_000_000, 2_000_000);
        assert_eq!(cues.len(), 2, "{cues:?}");
        assert_eq!((cues[0].start_us, cues[0].end_us), (1_020_000, 1_300_000));
        assert_eq!(
            cues[0].text,
            "step 2 of 3 · 1 placements · 1 undos · 2 calls"
        );
        assert_eq!((cues[1].start_us, cues[1].end_us), (1_300_000, 2_000_000));
        assert!(cues[1].text.starts_with("step 3 of 3 · 2 placements"));
    }
}
