//! Playing a search back as pictures: the [`Timeline`] picks which steps become frames (every
//! step of a short search, an even sample of a long one), [`gif`] draws them into an animated
//! GIF and [`tui`] into the terminal.

pub mod gif;
pub mod tui;

use crate::board::{Board, CELLS};
use crate::solver::Event;

/// Frames per second of a sampled animation.
pub const FPS: u32 = 10;
/// At most this many frames, whatever the duration.
pub const MAX_FRAMES: usize = 6_000;

/// The board after some steps of a search, as one frame shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    pub board: Board,
    pub givens: Board,
    /// Steps done, out of `total`.
    pub step: u64,
    pub total: u64,
    pub placements: u64,
    pub undos: u64,
    /// The cell of the latest placement still on the board, if the latest step placed.
    pub placed: Option<usize>,
    /// Cells emptied by undos since the previous frame (and still empty): they flash.
    pub undone: Vec<(usize, u8)>,
}

/// Which steps become frames, and for how long each is shown.
#[derive(Debug, Clone)]
pub struct Timeline<'a> {
    givens: Board,
    events: &'a [Event],
    /// Steps done at each frame, ascending, first 0 and last `events.len()`.
    pub marks: Vec<usize>,
    /// Display time of one frame, in hundredths of a second (GIF units).
    pub delay_cs: u16,
    /// What is played, so a shared animation explains itself.
    pub caption: Caption,
}

/// What an animation says about itself: a title and a line of detail above the board, and a
/// footer beside the step counter (any may be empty).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Caption {
    pub title: String,
    pub detail: String,
    pub footer: String,
}

impl<'a> Timeline<'a> {
    /// Every step if they fit in `duration_s` at up to 25 frames a second (at least 0.04 s
    /// each), else [`FPS`] frames a second sampled evenly over the search.
    pub fn new(givens: Board, events: &'a [Event], duration_s: f64) -> Self {
        let duration_cs = (duration_s.clamp(1.0, 3600.0) * 100.0) as usize;
        let n = events.len();
        let every_step = n + 1;
        let (frames, delay_cs) = if every_step * 4 <= duration_cs {
            (every_step, (duration_cs / every_step).clamp(4, 50))
        } else {
            let f = (duration_cs * FPS as usize / 100).clamp(2, MAX_FRAMES);
            (f.min(every_step), 100 / FPS as usize)
        };
        let marks = if frames == every_step {
            (0..=n).collect()
        } else {
            (0..frames).map(|k| k * n / (frames - 1)).collect()
        };
        Timeline {
            givens,
            events,
            marks,
            delay_cs: delay_cs as u16,
            caption: Caption::default(),
        }
    }

    /// The same timeline with a caption.
    pub fn captioned(mut self, caption: Caption) -> Self {
        self.caption = caption;
        self
    }

    /// Whether every step has its own frame.
    pub fn every_step(&self) -> bool {
        self.marks.len() == self.events.len() + 1
    }

    /// The frames' snapshots, in order.
    pub(crate) fn snapshots(&self) -> impl Iterator<Item = Snapshot> + '_ {
        let mut board = self.givens;
        let (mut placements, mut undos, mut done) = (0u64, 0u64, 0usize);
        let mut placed = None;
        self.marks.iter().map(move |&mark| {
            let mut undone: Vec<(usize, u8)> = Vec::new();
            for ev in &self.events[done..mark] {
                match *ev {
                    Event::Place { cell, digit } => {
                        let c = cell as usize;
                        board.set(c, digit);
                        placements += 1;
                        placed = Some(c);
                        undone.retain(|&(u, _)| u != c);
                    }
                    Event::Undo { cell, digit } => {
                        let c = cell as usize;
                        board.set(c, 0);
                        undos += 1;
                        if placed == Some(c) {
                            placed = None;
                        }
                        undone.retain(|&(u, _)| u != c);
                        undone.push((c, digit));
                    }
                }
            }
            done = mark;
            Snapshot {
                board,
                givens: self.givens,
                step: done as u64,
                total: self.events.len() as u64,
                placements,
                undos,
                placed: placed.filter(|&c| c < CELLS),
                undone,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{Options, Recorder, Strategy, search};

    const LEET: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    #[test]
    fn short_searches_show_every_step_long_ones_are_sampled() {
        let givens = Board::parse_line(LEET).unwrap();
        let mut rec = Recorder::default();
        let r = search(Strategy::RowMajor, &givens, &Options::default(), &mut rec);
        let n = rec.0.len();

        let short = Timeline::new(givens, &rec.0[..50], 30.0);
        assert!(short.every_step());
        assert_eq!(short.marks.len(), 51);
        let snaps: Vec<Snapshot> = short.snapshots().collect();
        assert_eq!(snaps[0].board, givens);
        assert_eq!(snaps[50].step, 50);

        let long = Timeline::new(givens, &rec.0, 30.0);
        assert!(!long.every_step());
        assert_eq!(long.marks.len(), 300);
        assert_eq!(long.delay_cs, 10);
        let last = long.snapshots().last().unwrap();
        assert_eq!(last.board, r.solution().unwrap());
        assert_eq!(
            (last.placements, last.undos, last.step),
            (r.stats.placements, r.stats.undos, n as u64)
        );
        // Undos between two sampled frames still show.
        assert!(long.snapshots().any(|s| !s.undone.is_empty()));
    }
}
