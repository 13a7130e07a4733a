//! Re-checking a recorded session without a device (what `autoplay replay` shows): today's OCR
//! on `first.png` must give the recorded givens, and today's search must give the journaled
//! event stream and counts. This sits above [`crate::session`] (storage), which it reads, and
//! beside the vision and the solver, which it runs again.

use crate::board::{Board, CELLS, cell_name};
use crate::calibration::Calibration;
use crate::play::{Point, WriteKind};
use crate::session::anim::Caption;
use crate::session::journal::JournalRead;
use crate::session::{JournalLine, SessionMeta, read_journal};
use crate::solver::{self, Event, Options, Outcome, Recorder};
use crate::text::thousands;
use crate::vision;
use std::path::{Path, PathBuf};

/// Searches longer than this many placements are not re-run (memory for the event list).
pub const MAX_RECHECK_PLACEMENTS: u64 = 20_000_000;

/// What today's OCR made of `first.png`.
#[derive(Debug, Clone, PartialEq)]
pub enum OcrCheck {
    /// The recorded givens were read again; `with` names the calibration or "detection".
    Match { with: String },
    /// Cells read differently: (cell, recorded, read today).
    Mismatch {
        with: String,
        cells: Vec<(usize, u8, u8)>,
    },
    /// No board could be read in `first.png` today.
    Unreadable(String),
}

/// The first place where the journal and today's search disagree.
#[derive(Debug, Clone, PartialEq)]
pub struct Divergence {
    /// Step (event index) of the search.
    pub step: u64,
    /// Journal line (1-based, counting non-blank lines; the writer writes none), if the
    /// divergence is at a journal line.
    pub line: Option<usize>,
    /// What today's search does there.
    pub expected: String,
    /// What the journal holds there.
    pub found: String,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "step {}", thousands(self.step))?;
        if let Some(l) = self.line {
            write!(f, " (journal line {l})")?;
        }
        write!(f, ": expected {}, found {}", self.expected, self.found)
    }
}

/// How the journal ends.
#[derive(Debug, Clone, PartialEq)]
pub enum Ending {
    /// An `End` line: its result word and message.
    Ended { result: String, message: String },
    /// No `End` line: the run was interrupted after the journaled lines.
    Interrupted {
        /// The last line was cut mid-write (its line number).
        torn_line: Option<usize>,
    },
}

/// The result of checking a session.
#[derive(Debug, Clone)]
pub struct SessionCheck {
    pub dir: PathBuf,
    pub meta: SessionMeta,
    pub ocr: OcrCheck,
    /// Today's search of the recorded givens.
    pub events: Vec<Event>,
    pub placements: u64,
    pub undos: u64,
    /// Counts differ from `session.toml`: (recorded, today) placements and undos.
    pub counts_differ: Option<((u64, u64), (u64, u64))>,
    /// Search events found in the journal (the next step expected).
    pub journaled_steps: u64,
    /// `Write` lines: repairs and direct fills.
    pub repairs: u64,
    pub fills: u64,
    /// Every tap journaled, in order (events and writes, also past a divergence).
    pub taps: Vec<Point>,
    pub divergence: Option<Divergence>,
    pub ending: Ending,
    /// The board the journal leaves (events and writes applied).
    pub final_board: Board,
}

impl SessionCheck {
    /// Everything agrees (an interrupted session can still agree up to where it stopped).
    pub fn ok(&self) -> bool {
        matches!(self.ocr, OcrCheck::Match { .. })
            && self.counts_differ.is_none()
            && self.divergence.is_none()
    }

    /// The givens recorded in `session.toml` (checked when loading).
    pub fn givens(&self) -> Board {
        self.meta.givens_board().unwrap_or_else(|_| Board::empty())
    }

    /// What a GIF or terminal playback of this session says about itself: level and strategy,
    /// the search's counts, and the device and day it was recorded on.
    pub fn caption(&self) -> Caption {
        let m = &self.meta;
        let level = m
            .level
            .map_or("The open level".to_string(), |l| format!("Level {l}"));
        let stats = solver::Stats {
            placements: self.placements,
            undos: self.undos,
            ..solver::Stats::default()
        };
        Caption {
            title: format!("{level}, {} search", m.strategy),
            detail: format!(
                "{} placements, {} undos, {} calls",
                thousands(stats.placements),
                thousands(stats.undos),
                thousands(stats.calls())
            ),
            footer: format!(
                "{}, {}",
                m.device.model,
                m.created.get(..10).unwrap_or(&m.created)
            ),
        }
    }

    /// One line on where the journal stops.
    pub fn ending_text(&self) -> String {
        let total = self.events.len() as u64;
        let at = format!(
            "after step {} of {}",
            thousands(self.journaled_steps.min(total)),
            thousands(total)
        );
        match &self.ending {
            Ending::Ended { result, message } if message.is_empty() => {
                format!("run ended `{result}` {at}")
            }
            Ending::Ended { result, message } => format!("run ended `{result}` {at}: {message}"),
            Ending::Interrupted { torn_line: Some(l) } => format!(
                "interrupted {at}: no End line, and journal line {l} was cut mid-write (ignored)"
            ),
            Ending::Interrupted { torn_line: None } => {
                format!("interrupted {at}: the journal has no End line")
            }
        }
    }
}

/// Checks `dir` (see the module docs). Errors are for sessions that cannot be checked at all
/// (unreadable or newer-format files); disagreements are in the returned [`SessionCheck`].
pub fn check_session(dir: &Path) -> anyhow::Result<SessionCheck> {
    let meta = SessionMeta::load(dir)?;
    let givens = meta.givens_board()?;
    let solution = meta.solution_board()?;
    let ocr = check_ocr(dir, &meta, &givens)?;

    within_reach(dir, &meta)?;
    let (result, events) = search_again(&meta, &givens);
    let (placements, undos) = (result.stats.placements, result.stats.undos);
    let counts_differ = ((placements, undos) != (meta.placements, meta.undos))
        .then_some(((meta.placements, meta.undos), (placements, undos)));
    let mut divergence = match result.outcome {
        Outcome::Solved(s) if s != solution => Some(Divergence {
            step: events.len() as u64,
            line: None,
            expected: format!("the recorded solution {}", solution.to_line()),
            found: format!("today's search ends in {}", s.to_line()),
        }),
        _ => None,
    };

    let journal_path = dir.join("journal.jsonl");
    let journal = read_journal(&journal_path)?;
    let walk = Walk::through(&journal, &journal_path, givens, &events)?;
    let Walk {
        board: final_board,
        next,
        repairs,
        fills,
        divergence: walk_divergence,
        ..
    } = walk;
    let taps = journal_taps(&journal);
    let ending = ending_of(&journal);
    if divergence.is_none() {
        divergence = walk_divergence;
    }
    if divergence.is_none() && matches!(&ending, Ending::Ended { result, .. } if result == "solved")
    {
        let shown = meta.max_visible_steps;
        let end = (next, journal.lines.len(), final_board);
        divergence = short_of_solved(events.len() as u64, shown, end, (&givens, &solution));
    }
    Ok(SessionCheck {
        dir: dir.to_path_buf(),
        ocr,
        events,
        placements,
        undos,
        counts_differ,
        journaled_steps: next,
        repairs,
        fills,
        taps,
        divergence,
        ending,
        final_board,
        meta,
    })
}

/// Whether the session's search is one the check may run again (at most
/// [`MAX_RECHECK_PLACEMENTS`] placements).
fn within_reach(dir: &Path, meta: &SessionMeta) -> anyhow::Result<()> {
    if meta.placements > MAX_RECHECK_PLACEMENTS {
        anyhow::bail!(
            "{}: {} placements recorded; the check re-runs searches of at most {}",
            dir.join("session.toml").display(),
            thousands(meta.placements),
            thousands(MAX_RECHECK_PLACEMENTS)
        );
    }
    Ok(())
}

/// Every tap the journal recorded, in order.
fn journal_taps(journal: &JournalRead) -> Vec<Point> {
    journal
        .lines
        .iter()
        .flat_map(|l| match l {
            JournalLine::Event { taps, .. } | JournalLine::Write { taps, .. } => taps.as_slice(),
            _ => &[],
        })
        .copied()
        .collect()
}

/// How the journal ends: its End line, or none (and a torn last line, if any).
fn ending_of(journal: &JournalRead) -> Ending {
    match journal.lines.last() {
        Some(JournalLine::End {
            result, message, ..
        }) => Ending::Ended {
            result: result.clone(),
            message: message.clone(),
        },
        _ => Ending::Interrupted {
            torn_line: journal.torn_line,
        },
    }
}

/// A run that ended `solved` must have shown every one of its `total` steps (or the first
/// `shown` of them, then filled) and ended in the solution: where the journal's `end` (the
/// steps journaled, its lines, the board it leaves) falls short, the divergence. A puzzle
/// (`givens`) with several solutions may end in another than the search's (the app marked
/// digits of that one wrong, and another was written).
fn short_of_solved(
    total: u64,
    shown: Option<u64>,
    (next, lines, board): (u64, usize, Board),
    (givens, solution): (&Board, &Board),
) -> Option<Divergence> {
    let shown_expected = shown.map_or(total, |n| n.min(total));
    if next < shown_expected {
        return Some(Divergence {
            step: next,
            line: Some(lines),
            expected: format!("{} steps shown", thousands(shown_expected)),
            found: format!("the run ended `solved` after {}", thousands(next)),
        });
    }
    let another = board.is_solved()
        && board.extends(givens)
        && crate::solver::fast::count_solutions(givens, 2) > 1;
    (board != *solution && !another).then(|| Divergence {
        step: next,
        line: Some(lines),
        expected: format!("the journal to end in the solution {}", solution.to_line()),
        found: board.to_line(),
    })
}

/// The journal read against today's events.
struct Walk<'a> {
    events: &'a [Event],
    board: Board,
    /// The next step expected.
    next: u64,
    repairs: u64,
    fills: u64,
    divergence: Option<Divergence>,
}

fn describe(ev: Option<&Event>) -> String {
    match ev {
        Some(Event::Place { cell, digit }) => {
            format!("place {digit} at {}", cell_name(*cell as usize))
        }
        Some(Event::Undo { cell, digit }) => {
            format!("undo {digit} at {}", cell_name(*cell as usize))
        }
        None => "the end of the search".into(),
    }
}

fn describe_untrusted(ev: &Event) -> String {
    match ev {
        Event::Place { cell, .. } | Event::Undo { cell, .. } if *cell as usize >= CELLS => {
            format!("{ev:?} (no such cell)")
        }
        _ => describe(Some(ev)),
    }
}

impl<'a> Walk<'a> {
    fn new(givens: Board, events: &'a [Event]) -> Self {
        Walk {
            events,
            board: givens,
            next: 0,
            repairs: 0,
            fills: 0,
            divergence: None,
        }
    }

    /// The walk of `journal` (read from `path`) through the search's `events` from `givens`,
    /// up to its end or its first divergence.
    fn through(
        journal: &JournalRead,
        path: &Path,
        givens: Board,
        events: &'a [Event],
    ) -> anyhow::Result<Self> {
        let mut walk = Walk::new(givens, events);
        for (k, line) in journal.lines.iter().enumerate() {
            walk.line(k + 1, line, path)?;
            if walk.divergence.is_some() {
                break;
            }
        }
        Ok(walk)
    }

    fn diverge(&mut self, step: u64, line: usize, expected: String, found: String) {
        self.divergence = Some(Divergence {
            step,
            line: Some(line),
            expected,
            found,
        });
    }

    fn line(&mut self, no: usize, line: &JournalLine, path: &Path) -> anyhow::Result<()> {
        match line {
            JournalLine::Start { from_event, .. } => {
                // A resume starts where the screen was; it cannot skip steps never shown.
                if *from_event > self.next {
                    self.diverge(
                        self.next,
                        no,
                        format!("a restart at step {} at most", thousands(self.next)),
                        format!("a restart at step {}", thousands(*from_event)),
                    );
                }
                // Undo what was journaled after the restart point: it is performed again.
                while self.next > *from_event {
                    self.next -= 1;
                    let ev = self.events[self.next as usize];
                    match ev {
                        Event::Place { cell, .. } => self.board.set(cell as usize, 0),
                        Event::Undo { cell, digit } => self.board.set(cell as usize, digit),
                    }
                }
            }
            JournalLine::Event { i, event, .. } => {
                let expected = self.events.get(self.next as usize);
                if *i != self.next || expected != Some(event) {
                    let found = if *i != self.next {
                        format!("step {i}: {}", describe_untrusted(event))
                    } else {
                        describe_untrusted(event)
                    };
                    self.diverge(self.next, no, describe(expected), found);
                    return Ok(());
                }
                match *event {
                    Event::Place { cell, digit } => self.board.set(cell as usize, digit),
                    Event::Undo { cell, .. } => self.board.set(cell as usize, 0),
                }
                self.next += 1;
            }
            JournalLine::Write {
                why, cell, digit, ..
            } => {
                if *cell as usize >= CELLS || *digit > 9 {
                    anyhow::bail!(
                        "{}: line {no}: a write of {digit} to cell {cell}: cells are 0..80 and digits 0..9 \
                         (the journal is corrupt)",
                        path.display()
                    );
                }
                match why {
                    WriteKind::Repair => self.repairs += 1,
                    WriteKind::Fill => self.fills += 1,
                }
                self.board.set(*cell as usize, *digit);
            }
            JournalLine::End { .. } | JournalLine::Incident { .. } => {}
        }
        Ok(())
    }
}

/// Reads `first.png` with today's OCR: with the session's calibration if that file still
/// exists and loads, else with board detection. A missing or undecodable `first.png` is an
/// error (the session is incomplete), not a mismatch.
pub(crate) fn check_ocr(
    dir: &Path,
    meta: &SessionMeta,
    givens: &Board,
) -> anyhow::Result<OcrCheck> {
    let path = dir.join("first.png");
    let frame = image::open(&path)
        .map_err(|e| {
            anyhow::anyhow!(
                "{}: {e}: the session's first screenshot is needed to check today's OCR \
                 (copy it back from where the session came from)",
                path.display()
            )
        })?
        .to_rgba8();
    let cal_path = PathBuf::from(&meta.calibration);
    let cal = Calibration::load(&cal_path).ok();
    let with = match &cal {
        Some(_) => format!("calibration {}", cal_path.display()),
        None => "board detection (the session's calibration is gone)".into(),
    };
    let read = cal
        .as_ref()
        .map_or_else(|| vision::read_board(&frame), |c| c.read(&frame));
    let reading = match read {
        Ok(r) => r,
        Err(e) => return Ok(OcrCheck::Unreadable(format!("{}: {e}", path.display()))),
    };
    let cells: Vec<(usize, u8, u8)> = (0..CELLS)
        .filter(|&c| reading.board.get(c) != givens.get(c))
        .map(|c| (c, givens.get(c), reading.board.get(c)))
        .collect();
    Ok(if cells.is_empty() {
        OcrCheck::Match { with }
    } else {
        OcrCheck::Mismatch { with, cells }
    })
}

/// Today's search of the recorded givens with the recorded strategy, stopped one placement
/// after the recorded count (enough to see a search that now takes longer).
pub(crate) fn search_again(
    meta: &SessionMeta,
    givens: &Board,
) -> (solver::SearchResult, Vec<Event>) {
    let mut rec = Recorder::default();
    let result = solver::search(
        meta.strategy,
        givens,
        &Options {
            max_steps: Some(
                meta.placements
                    .saturating_add(1)
                    .min(MAX_RECHECK_PLACEMENTS),
            ),
            check_unique: false,
        },
        &mut rec,
    );
    (result, rec.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events() -> Vec<Event> {
        vec![
            Event::Place { cell: 0, digit: 1 },
            Event::Undo { cell: 0, digit: 1 },
            Event::Place { cell: 0, digit: 2 },
        ]
    }

    fn ev_line(i: u64, event: Event) -> JournalLine {
        JournalLine::Event {
            t_ms: 0,
            i,
            event,
            taps: vec![(1, 2)],
        }
    }

    #[test]
    fn a_solved_run_of_a_puzzle_with_several_solutions_may_end_in_another() {
        const LEET: &str =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let unique = Board::parse_line(LEET).unwrap();
        let several = crate::solver::fast::thinned(&unique, 2, false);
        let ours = crate::solver::fast::solve(&several).unwrap();
        let other = crate::solver::fast::another_solution(&several, &ours).unwrap();
        let end = |board: Board| (3, 4, board);
        assert!(short_of_solved(3, None, end(other), (&several, &ours)).is_none());
        let mut wrong = other;
        wrong.set(80, 0);
        assert!(short_of_solved(3, None, end(wrong), (&several, &ours)).is_some());
        // With one solution, only that one.
        let solved = crate::solver::fast::solve(&unique).unwrap();
        assert!(short_of_solved(3, None, end(solved), (&unique, &solved)).is_none());
        let not_it = if other == solved { ours } else { other };
        assert!(short_of_solved(3, None, end(not_it), (&unique, &solved)).is_some());
    }

    #[test]
    fn walk_follows_restarts_and_reports_the_first_divergence() {
        let evs = events();
        let p = Path::new("j.jsonl");
        let mut w = Walk::new(Board::empty(), &evs);
        w.line(1, &ev_line(0, evs[0]), p).unwrap();
        w.line(2, &ev_line(1, evs[1]), p).unwrap();
        // Resumed at step 1: step 1 is shown again.
        w.line(
            3,
            &JournalLine::Start {
                t_ms: 0,
                from_event: 1,
            },
            p,
        )
        .unwrap();
        assert_eq!(w.next, 1);
        assert_eq!(w.board.get(0), 1);
        w.line(4, &ev_line(1, evs[1]), p).unwrap();
        w.line(5, &ev_line(2, Event::Place { cell: 0, digit: 3 }), p)
            .unwrap();
        let d = w.divergence.clone().unwrap();
        assert_eq!((d.step, d.line), (2, Some(5)));
        assert_eq!(d.expected, "place 2 at r1c1");
        assert_eq!(d.found, "place 3 at r1c1");
    }

    #[test]
    fn bad_writes_are_errors_naming_the_line() {
        let evs = events();
        let mut w = Walk::new(Board::empty(), &evs);
        let bad = JournalLine::Write {
            t_ms: 0,
            why: WriteKind::Fill,
            cell: 90,
            digit: 1,
            taps: vec![],
        };
        let e = w.line(7, &bad, Path::new("j.jsonl")).unwrap_err();
        assert!(e.to_string().contains("j.jsonl: line 7"), "{e}");
        // An event with an impossible cell is a divergence, never a panic.
        let odd = ev_line(
            0,
            Event::Place {
                cell: 200,
                digit: 12,
            },
        );
        w.line(8, &odd, Path::new("j.jsonl")).unwrap();
        assert!(w.divergence.unwrap().found.contains("no such cell"));
    }
}
