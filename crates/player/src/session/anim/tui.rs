//! The search played back in the terminal: the board redrawn in place with ANSI escapes
//! (givens bold, placed digits blue, the latest on yellow, undone cells flashing red) and the
//! counters below, at the timeline's pace.

use super::{Snapshot, Timeline};
use crate::text::{Redraw, thousands};
use std::io::Write;
use std::time::Duration;

const RESET: &str = "\x1b[0m";

/// One frame as text (ANSI colours), ending with a newline.
pub(crate) fn frame_text(s: &Snapshot) -> String {
    let mut out = String::with_capacity(1200);
    for r in 0..9 {
        if r % 3 == 0 {
            out.push_str("+-------+-------+-------+\n");
        }
        for c in 0..9 {
            if c % 3 == 0 {
                out.push_str("| ");
            }
            let cell = r * 9 + c;
            let undone = s
                .undone
                .iter()
                .find(|&&(u, _)| u == cell && s.board.get(u) == 0);
            let (style, ch) = if s.givens.get(cell) != 0 {
                ("\x1b[1m", (b'0' + s.givens.get(cell)) as char)
            } else if let Some(&(_, d)) = undone {
                ("\x1b[97;41m", (b'0' + d) as char)
            } else if s.placed == Some(cell) {
                ("\x1b[30;43m", (b'0' + s.board.get(cell)) as char)
            } else if s.board.get(cell) != 0 {
                ("\x1b[34m", (b'0' + s.board.get(cell)) as char)
            } else {
                ("\x1b[2m", '.')
            };
            out.push_str(style);
            out.push(ch);
            out.push_str(RESET);
            out.push(' ');
        }
        out.push_str("|\n");
    }
    out.push_str("+-------+-------+-------+\n");
    out.push_str(&format!(
        "placements \x1b[34m{}\x1b[0m  undos \x1b[31m{}\x1b[0m  step {} of {}\x1b[K\n",
        thousands(s.placements),
        thousands(s.undos),
        thousands(s.step),
        thousands(s.total)
    ));
    out
}

/// Plays the timeline on `out`, redrawing in place; `pace` false draws without waiting (tests).
/// Returns the number of frames drawn.
pub fn play(timeline: &Timeline<'_>, out: &mut dyn Write, pace: bool) -> std::io::Result<usize> {
    let c = &timeline.caption;
    for line in [&c.title, &c.detail, &c.footer]
        .into_iter()
        .filter(|l| !l.is_empty())
    {
        writeln!(out, "\x1b[1m{line}{RESET}")?;
    }
    let mut redraw = Redraw::default();
    let mut frames = 0;
    let delay = Duration::from_millis(timeline.delay_cs as u64 * 10);
    for snap in timeline.snapshots() {
        redraw.draw(out, &frame_text(&snap))?;
        frames += 1;
        if pace {
            std::thread::sleep(delay);
        }
    }
    Ok(frames)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::solver::Event;

    #[test]
    fn draws_every_frame_in_place() {
        let givens = Board::parse_line(&format!("5{}", ".".repeat(80))).unwrap();
        let events = [
            Event::Place { cell: 1, digit: 1 },
            Event::Undo { cell: 1, digit: 1 },
            Event::Place { cell: 1, digit: 2 },
        ];
        let t = Timeline::new(givens, &events, 5.0);
        let mut out = Vec::new();
        assert_eq!(play(&t, &mut out, false).unwrap(), 4);
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.matches("\x1b[14A").count(), 3);
        assert!(text.contains("\x1b[97;41m1"), "the undo flashes red");
        assert!(text.contains("placements \x1b[34m2\x1b[0m  undos \x1b[31m1"));
    }
}
