//! The probe's state, its taps and looks, and writing and taking back its digit.

use super::{LATE_WATCH, ProbeTarget, STEP, STILL_LOOKS, STILL_PAUSE};
use crate::board::{Board, CELLS, are_peers, cell_name};
use crate::calibration::{Calibration, InputMode, InputSection, RuleKey, SameDigit, TakeBack};
use crate::play::Point;
use crate::vision::{Kind, Reading};
use image::RgbaImage;

/// One screenshot, read with the calibration.
pub(super) struct Shot {
    pub(super) frame: RgbaImage,
    pub(super) board: Board,
}

/// The probe under way.
pub(super) struct Prober<'a> {
    pub(super) target: &'a mut dyn ProbeTarget,
    pub(super) cal: &'a Calibration,
    pub(super) cells: [Point; 81],
    pub(super) keys: [Point; 9],
    pub(super) erase: Option<Point>,
    /// The board when the probe began, and its solution.
    pub(super) start: Board,
    pub(super) solution: Board,
    /// The probe's cell, its digit, and two givens that are not its peers (neutral taps).
    pub(super) a: usize,
    pub(super) digit: u8,
    pub(super) g: [usize; 2],
    pub(super) input: InputSection,
    /// How a digit goes back out, as found so far.
    pub(super) take_back: Option<TakeBack>,
    pub(super) undo: Option<Point>,
    pub(super) toggle_confirmed: bool,
    /// The erase key was tried and left a right digit in place.
    pub(super) erase_failed: bool,
    pub(super) taps: u64,
    pub(super) screenshots: u32,
    /// The last look.
    pub(super) last: Option<Shot>,
}

impl<'a> Prober<'a> {
    pub(super) fn new(
        target: &'a mut dyn ProbeTarget,
        cal: &'a Calibration,
    ) -> anyhow::Result<Self> {
        let frame = target.screenshot()?;
        let reading = cal.read(&frame)?;
        let start = reading.board;
        let (solution, several) = sure_solution(&reading)?;
        let (a, g) = probe_cells(&reading, &solution, several)?;
        let mut input = cal.input.clone();
        input.seen.clear();
        Ok(Prober {
            cells: cal.geometry().cell_centers(),
            keys: cal.keypad.digits.map(|[x, y]| (x, y)),
            erase: cal.keypad.erase.point().map(|[x, y]| (x, y)),
            target,
            cal,
            start,
            solution,
            a,
            digit: solution.get(a),
            g,
            input,
            take_back: None,
            undo: None,
            toggle_confirmed: false,
            erase_failed: false,
            taps: 0,
            screenshots: 1,
            last: Some(Shot {
                board: start,
                frame,
            }),
        })
    }
}

/// The solution of the board `reading` read, and whether it has others: it must have one, and
/// where it has several, the reading must doubt no cell (a missed digit would make a probe
/// write a wrong one).
fn sure_solution(reading: &Reading) -> anyhow::Result<(Board, bool)> {
    let check = crate::solver::fast::solutions(&reading.board, 2);
    let no_doubt = || {
        let mut left = reading.unsettled_doubts(crate::solver::fast::has_no_solution);
        left.next().is_none()
    };
    let solution = match (check.count, check.first) {
        (0, _) | (_, None) => anyhow::bail!(
            "the board on screen has no solution (a wrong digit entered, or a digit misread): \
             probe on a level with no entries, or give the rules by hand in the calibration's [input]"
        ),
        (1, Some(s)) => s,
        (_, Some(s)) if no_doubt() => s,
        _ => anyhow::bail!(
            "the board on screen has more than one solution, and the reading doubts a cell \
             (did the OCR miss a digit?): the probe could write a wrong digit, so it does not start"
        ),
    };
    Ok((solution, check.count > 1))
}

/// The probe's cell and two neutral givens: an empty cell whose digit is far from finished
/// (its key stays) and right for sure (with `several` solutions, every one has it), with two
/// givens that are not its peers (their selection does not tint it).
fn probe_cells(
    reading: &Reading,
    solution: &Board,
    several: bool,
) -> anyhow::Result<(usize, [usize; 2])> {
    let start = &reading.board;
    let sure = |c: usize| {
        !several
            || crate::solver::fast::solutions_excluding(start, &[(c, solution.get(c))], 1).count
                == 0
    };
    let mut counts = [0u8; 10];
    for c in 0..CELLS {
        counts[start.get(c) as usize] += 1;
    }
    let givens: Vec<usize> = (0..CELLS)
        .filter(|&c| start.get(c) != 0 && reading.kinds[c] != Kind::Entered)
        .collect();
    let a = (0..CELLS)
        .filter(|&c| start.get(c) == 0 && counts[solution.get(c) as usize] <= 6 && sure(c))
        .max_by_key(|&c| givens.iter().filter(|&&g| !are_peers(g, c)).count())
        .ok_or_else(|| {
            anyhow::anyhow!("no empty cell to probe on: open a level with empty cells")
        })?;
    let far: Vec<usize> = givens
        .iter()
        .copied()
        .filter(|&g| !are_peers(g, a))
        .collect();
    match far.as_slice() {
        [x, y, ..] => Ok((a, [*x, *y])),
        _ => anyhow::bail!(
            "the board has too few givens away from {} to probe with",
            cell_name(a)
        ),
    }
}

impl Prober<'_> {
    /// One tap, carried out, then a few frames' time.
    pub(super) fn tap(&mut self, p: Point) -> anyhow::Result<()> {
        self.target.tap(p)?;
        self.target.sync()?;
        self.taps += 1;
        self.target.pause(STEP);
        Ok(())
    }

    pub(super) fn cell(&mut self, c: usize) -> anyhow::Result<()> {
        self.tap(self.cells[c])
    }

    pub(super) fn key(&mut self, d: u8) -> anyhow::Result<()> {
        self.tap(self.keys[(d.clamp(1, 9) - 1) as usize])
    }

    /// A look once the screen has stopped changing (two frames in a row alike on the board and
    /// below it).
    pub(super) fn look_still(&mut self) -> anyhow::Result<&Shot> {
        self.target.sync()?;
        let top = self.cal.board.rect[1] as usize;
        let mut previous: Option<RgbaImage> = None;
        for _ in 0..STILL_LOOKS {
            self.target.pause(STILL_PAUSE);
            let frame = self.target.screenshot()?;
            self.screenshots += 1;
            let width = frame.width() as usize * 4;
            let alike = previous.as_ref().is_some_and(|p| {
                p.dimensions() == frame.dimensions()
                    && p.as_raw()[top * width..] == frame.as_raw()[top * width..]
            });
            previous = Some(frame);
            if alike {
                break;
            }
        }
        let frame = previous.expect("looked at least once");
        self.read(frame)
    }

    /// A look right now.
    pub(super) fn look_now(&mut self) -> anyhow::Result<&Shot> {
        let frame = self.target.screenshot()?;
        self.screenshots += 1;
        self.read(frame)
    }

    /// A frame read with the calibration; only the probe's cells may have changed.
    pub(super) fn read(&mut self, frame: RgbaImage) -> anyhow::Result<&Shot> {
        // Highlighted cells can hide faint grid lines from the board detection: the board is
        // still there where every digit the probe found reads as itself.
        let board = match self.cal.read_if_visible(&frame)? {
            Some(b) => b,
            None => match self.cal.read(&frame) {
                Ok(r)
                    if (0..CELLS)
                        .all(|c| self.start.get(c) == 0 || r.board.get(c) == self.start.get(c)) =>
                {
                    r.board
                }
                _ => anyhow::bail!(
                    "the board is not on the screen any more (a dialog or another screen came up)"
                ),
            },
        };
        // Only the probe's cells may change; anything else means taps go astray.
        if let Some(c) = (0..CELLS).find(|&c| {
            board.get(c) != self.start.get(c)
                && board.get(c) != 0
                && board.get(c) != self.solution.get(c)
        }) {
            anyhow::bail!(
                "{} shows {} where the probe wrote nothing of the kind: are the taps landing where \
                 the calibration says?",
                cell_name(c),
                board.get(c)
            );
        }
        Ok(self.last.insert(Shot { frame, board }))
    }

    pub(super) fn at_a(&self) -> u8 {
        self.last.as_ref().map_or(0, |l| l.board.get(self.a))
    }

    pub(super) fn see(&mut self, rule: RuleKey, what: String) {
        self.input.seen.insert(rule, what);
    }

    pub(super) fn name(&self) -> String {
        cell_name(self.a)
    }

    pub(super) fn last_frame(&self) -> &RgbaImage {
        &self.last.as_ref().expect("looked before").frame
    }

    /// Selects the probe's cell from a given (never a re-tap), unless it `is` selected.
    pub(super) fn select_a(&mut self, is: Option<bool>) -> anyhow::Result<()> {
        if self.input.mode == InputMode::DigitFirst || is == Some(true) {
            return Ok(());
        }
        self.cell(self.g[1])?;
        self.cell(self.a)
    }

    /// Writes the digit into the probe's (empty) cell by the mode found (twice, should a tap be
    /// lost).
    pub(super) fn write_a(&mut self) -> anyhow::Result<()> {
        let (a, d) = (self.a, self.digit);
        for _ in 0..2 {
            match self.input.mode {
                InputMode::DigitFirst => {
                    self.key(d % 9 + 1)?;
                    self.key(d)?;
                    self.cell(a)?;
                }
                _ => {
                    self.select_a(Some(false))?;
                    self.key(d)?;
                }
            }
            self.look_still()?;
            if self.at_a() == d {
                return Ok(());
            }
        }
        anyhow::bail!(
            "writing {d} into {} again did not work (tried twice)",
            self.name()
        )
    }

    /// Takes the probe's digit back by the way found (cell-first or brush).
    pub(super) fn take_back_a(&mut self) -> anyhow::Result<()> {
        self.take_back_cell(self.a, self.digit)
    }

    pub(super) fn take_back_cell(&mut self, c: usize, d: u8) -> anyhow::Result<()> {
        // Twice, should a tap be lost (a digit tapped again that then stayed is tapped again).
        match self.take_back_once(c, d) {
            Err(_) if self.last.as_ref().map_or(0, |l| l.board.get(c)) == d => {
                self.take_back_once(c, d)
            }
            r => r,
        }
    }

    pub(super) fn take_back_once(&mut self, c: usize, d: u8) -> anyhow::Result<()> {
        let brush = self.input.mode == InputMode::DigitFirst;
        match self.take_back {
            Some(TakeBack::Erase) => {
                let e = self.erase.expect("erase found");
                if brush {
                    self.tap(e)?;
                    self.cell(c)?;
                } else {
                    self.cell(self.g[1])?;
                    self.cell(c)?;
                    self.tap(e)?;
                }
            }
            Some(TakeBack::Digit) => {
                if brush {
                    self.key(d % 9 + 1)?;
                    self.key(d)?;
                    self.cell(c)?;
                } else {
                    self.cell(self.g[1])?;
                    self.cell(c)?;
                    self.key(d)?;
                }
                if self.input.same_digit == Some(SameDigit::ClearLate) {
                    self.target.pause(LATE_WATCH);
                }
            }
            Some(TakeBack::Undo) => {
                let u = self.undo.expect("undo found");
                self.tap(u)?;
            }
            Some(TakeBack::None) | None => {
                anyhow::bail!("no way to take {d} back out of {} was found", cell_name(c))
            }
        }
        self.look_still()?;
        let now = self.last.as_ref().map_or(0, |l| l.board.get(c));
        if now != 0 {
            anyhow::bail!("{} still shows {now} after taking it back", cell_name(c));
        }
        Ok(())
    }

    /// The way found to take digits back, into the rules; locked right digits where nothing did.
    pub(super) fn conclude(&mut self) {
        let erase_clears = self.erase.is_some() && !self.erase_failed;
        let toggles = matches!(
            self.input.same_digit,
            Some(SameDigit::Clear | SameDigit::ClearLate)
        );
        // Neither erase nor the digit again takes a right digit back (at most undo does).
        self.input.locked = !erase_clears && !toggles;
        self.input.take_back = Some(self.take_back.unwrap_or(TakeBack::None));
    }

    /// After a successful run: the board as it was, but for a locked digit (which is named).
    pub(super) fn check_restored(&mut self) -> anyhow::Result<Option<(usize, u8)>> {
        self.conclude();
        self.look_still()?;
        let board = self.last.as_ref().expect("looked").board;
        let differ: Vec<usize> = (0..CELLS)
            .filter(|&c| board.get(c) != self.start.get(c))
            .collect();
        match differ.as_slice() {
            [] => Ok(None),
            [c] if self.input.locked && board.get(*c) == self.solution.get(*c) => {
                Ok(Some((*c, board.get(*c))))
            }
            _ => anyhow::bail!(
                "after probing, the board differs from how the probe found it in {}: clear it by hand, \
                 or reopen the level",
                differ
                    .iter()
                    .map(|&c| cell_name(c))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }

    /// After a failure: takes back what the probe wrote where a way is known; returns the cells
    /// that still differ.
    pub(super) fn restore_after_failure(&mut self) -> anyhow::Result<Vec<String>> {
        self.look_still()?;
        let board = self.last.as_ref().expect("looked").board;
        let start = self.start;
        for c in (0..CELLS).filter(|&c| board.get(c) != start.get(c)) {
            if self.take_back.is_some() && board.get(c) != 0 {
                let _ = self.take_back_cell(c, board.get(c));
            }
        }
        self.look_still()?;
        let board = self.last.as_ref().expect("looked").board;
        Ok((0..CELLS)
            .filter(|&c| board.get(c) != self.start.get(c))
            .map(|c| format!("{} ({})", cell_name(c), board.get(c)))
            .collect())
    }
}
