//! Finding out how the app takes taps, on the open level (`autoplay calibrate` on a phone).
//!
//! Real apps differ (`../shared/real-apps/BEHAVIOUR.md`): cell-first or digit-first ("a brush"),
//! a re-tapped cell deselected or switched to pencil mode, the selection dropped after an entry,
//! the digit again clearing its cell (at once or a moment later), an erase key that does nothing,
//! right digits locked, an undo key, taps read against the last drawn frame, keys that move
//! when a digit is finished, a mistake counter. The probe tries each with taps and looks at the
//! screen between them.
//!
//! It writes only the right digit (the solution is known before the first tap) into an empty
//! cell, so it can cost no mistake; it takes back everything it wrote with what it found works
//! (unless the app locks right digits: then that digit stays, and it says so); and it checks at
//! the end that the board is as it found it. Where it cannot go on, it stops, restores what it
//! can and names the cell it could not.

use super::words;
use crate::board::{Board, CELLS, box_of, cell_name, col_of, row_of};
use crate::calibration::{
    AfterEntry, BrushRetap, Calibration, FinishedKeys, InputMode, InputSection, Retap, SameDigit,
    TakeBack,
};
use crate::phone::link::Link;
use crate::vision::Kind;
use image::RgbaImage;
use std::time::{Duration, Instant};

/// A display pixel.
type Point = (u32, u32);

/// How often the screen is looked at until it stops changing after taps (ripples, highlights,
/// a digit drawn), and how many looks at most.
const SETTLE: Duration = Duration::from_millis(40);
const SETTLE_LOOKS: u32 = 12;
/// The gap after each tap of the probe's own sequences: several frames, so that apps that read
/// taps against their last drawn frame see each tap's effect before the next.
const STEP: Duration = Duration::from_millis(50);
/// How long the probe watches a digit tapped again for a late clear.
const LATE_WATCH: Duration = Duration::from_millis(700);

/// What the probe found, and what it cost.
#[derive(Debug, Clone)]
pub struct Probed {
    /// The app's input rules (`seen` says what was seen for each).
    pub input: InputSection,
    /// The same digit again clears a cell: an app without an erase key confirmed (`[keypad]
    /// erase = "toggle"` is no longer a guess).
    pub toggle_confirmed: bool,
    /// The cell the probe wrote into.
    pub cell: usize,
    /// A right digit the app would not let the probe take back (locked): (cell, digit).
    pub kept: Option<(usize, u8)>,
    pub taps: u64,
    pub screenshots: u32,
    pub elapsed: Duration,
}

/// Probes the app's input rules on the level open on the phone behind `link` (a tap channel
/// open), calibrated as `cal`. `undo_hint` is an undo key the screenshot's survey found.
/// `on` hears what the probe is doing.
pub fn probe(
    link: &mut Link,
    cal: &Calibration,
    undo_hint: Option<Point>,
    on: &mut dyn FnMut(&str),
) -> anyhow::Result<Probed> {
    let started = Instant::now();
    let mut p = Prober::new(link, cal)?;
    let result = p.run(undo_hint, on);
    let cell = p.a;
    match result {
        Ok(()) => {
            let kept = p.check_restored()?;
            Ok(Probed {
                input: p.input,
                toggle_confirmed: p.toggle_confirmed,
                cell,
                kept,
                taps: p.taps,
                screenshots: p.screenshots,
                elapsed: started.elapsed(),
            })
        }
        Err(e) => {
            // Take back what is left where a way is known, then say where the board differs.
            let left = p.restore_after_failure();
            Err(match left {
                Ok(cells) if cells.is_empty() => e.context(format!(
                    "probing how the app takes taps (on {}; the board is as it was)",
                    cell_name(cell)
                )),
                Ok(cells) => e.context(format!(
                    "probing how the app takes taps: the board still differs from how the probe \
                     found it in {}: clear it by hand, or reopen the level",
                    cells.join(", ")
                )),
                Err(again) => e.context(format!(
                    "probing how the app takes taps (on {}; checking the board afterwards failed \
                     too: {again:#})",
                    cell_name(cell)
                )),
            })
        }
    }
}

/// One screenshot, read with the calibration.
struct Look {
    frame: RgbaImage,
    board: Board,
}

struct Prober<'a> {
    link: &'a mut Link,
    cal: &'a Calibration,
    cells: [Point; 81],
    keys: [Point; 9],
    erase: Option<Point>,
    /// The board when the probe began, and its solution.
    start: Board,
    solution: Board,
    /// The probe's cell, its digit, and two givens that are not its peers (neutral taps).
    a: usize,
    digit: u8,
    g: [usize; 2],
    input: InputSection,
    /// How a digit goes back out, as found so far.
    take_back: Option<TakeBack>,
    undo: Option<Point>,
    toggle_confirmed: bool,
    /// The erase key was tried and left a right digit in place.
    erase_failed: bool,
    taps: u64,
    screenshots: u32,
    /// The last look.
    last: Option<Look>,
}

fn peers(a: usize, b: usize) -> bool {
    row_of(a) == row_of(b) || col_of(a) == col_of(b) || box_of(a) == box_of(b)
}

impl<'a> Prober<'a> {
    fn new(link: &'a mut Link, cal: &'a Calibration) -> anyhow::Result<Self> {
        let frame = link.grab()?;
        let reading = cal.read(&frame)?;
        let start = reading.board;
        let check = crate::solver::fast::solutions(&start, 2);
        let solution = match (check.count, check.first) {
            (1, Some(s)) => s,
            (0, _) => anyhow::bail!(
                "the board on screen has no solution (a wrong digit entered, or a digit misread): \
                 probe on a level with no entries, or give the rules by hand in the calibration's [input]"
            ),
            _ => anyhow::bail!(
                "the board on screen has more than one solution (did the OCR miss a digit?): \
                 without the one solution the probe could write a wrong digit, so it does not start"
            ),
        };
        let mut counts = [0u8; 10];
        for c in 0..CELLS {
            counts[start.get(c) as usize] += 1;
        }
        let givens: Vec<usize> = (0..CELLS)
            .filter(|&c| start.get(c) != 0 && reading.kinds[c] != Kind::Entered)
            .collect();
        // An empty cell whose digit is far from finished (its key stays), with two givens that
        // are not its peers (their selection does not tint it).
        let a = (0..CELLS)
            .filter(|&c| start.get(c) == 0 && counts[solution.get(c) as usize] <= 6)
            .max_by_key(|&c| givens.iter().filter(|&&g| !peers(g, c)).count())
            .ok_or_else(|| {
                anyhow::anyhow!("no empty cell to probe on: open a level with empty cells")
            })?;
        let far: Vec<usize> = givens.iter().copied().filter(|&g| !peers(g, a)).collect();
        let (g0, g1) = match far.as_slice() {
            [x, y, ..] => (*x, *y),
            _ => anyhow::bail!(
                "the board has too few givens away from {} to probe with",
                cell_name(a)
            ),
        };
        let mut input = cal.input.clone();
        input.seen.clear();
        Ok(Prober {
            cells: cal.geometry().cell_centers(),
            keys: cal.keypad.digits.map(|[x, y]| (x, y)),
            erase: cal.keypad.erase.point().map(|[x, y]| (x, y)),
            link,
            cal,
            start,
            solution,
            a,
            digit: solution.get(a),
            g: [g0, g1],
            input,
            take_back: None,
            undo: None,
            toggle_confirmed: false,
            erase_failed: false,
            taps: 0,
            screenshots: 1,
            last: Some(Look {
                board: start,
                frame,
            }),
        })
    }

    // --- taps and looks ---

    /// One tap, carried out, then a few frames' time.
    fn tap(&mut self, p: Point) -> anyhow::Result<()> {
        self.link.tap(p.0, p.1)?;
        self.link.flush()?;
        self.taps += 1;
        std::thread::sleep(STEP);
        Ok(())
    }

    fn cell(&mut self, c: usize) -> anyhow::Result<()> {
        self.tap(self.cells[c])
    }

    fn key(&mut self, d: u8) -> anyhow::Result<()> {
        self.tap(self.keys[(d.clamp(1, 9) - 1) as usize])
    }

    /// A look once the screen has stopped changing (two frames in a row alike on the board and
    /// below it).
    fn look(&mut self) -> anyhow::Result<&Look> {
        self.link.flush()?;
        let top = self.cal.board.rect[1] as usize;
        let mut previous: Option<RgbaImage> = None;
        for _ in 0..SETTLE_LOOKS {
            std::thread::sleep(SETTLE);
            let frame = self.link.grab()?;
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
    fn look_now(&mut self) -> anyhow::Result<&Look> {
        let frame = self.link.grab()?;
        self.screenshots += 1;
        self.read(frame)
    }

    /// A frame read with the calibration; only the probe's cells may have changed.
    fn read(&mut self, frame: RgbaImage) -> anyhow::Result<&Look> {
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
        Ok(self.last.insert(Look { frame, board }))
    }

    fn at_a(&self) -> u8 {
        self.last.as_ref().map_or(0, |l| l.board.get(self.a))
    }

    fn see(&mut self, rule: &str, what: String) {
        self.input.seen.insert(rule.to_string(), what);
    }

    fn name(&self) -> String {
        cell_name(self.a)
    }

    // --- the probe ---

    fn run(&mut self, undo_hint: Option<Point>, on: &mut dyn FnMut(&str)) -> anyhow::Result<()> {
        let (a, d) = (self.a, self.digit);
        let other = d % 9 + 1;
        on(&format!(
            "on {} (its digit is {d}; only that digit is written there, then taken back)",
            cell_name(a)
        ));
        // Twice, should a tap be lost.
        for attempt in 0..2 {
            // Unselected: a given away from the probe's cell.
            self.cell(self.g[attempt])?;
            let none = self.look()?.frame.clone();
            // Another digit, the digit, the cell: a digit-first app writes the digit (its
            // brush); a cell-first app only selects the cell (the digits went to a given, which
            // takes none).
            self.key(other)?;
            self.key(d)?;
            self.cell(a)?;
            self.look()?;
            match self.at_a() {
                x if x == d => {
                    self.input.mode = InputMode::DigitFirst;
                    self.see(
                        "mode",
                        format!(
                            "tapped {other}, {d}, then {}: {d} went in (a brush)",
                            self.name()
                        ),
                    );
                    on("digit-first: a digit key arms a brush that cell taps write");
                    self.brush_path(undo_hint, on)?;
                    break;
                }
                0 => {
                    let selected = self.last_frame().clone();
                    self.key(d)?;
                    self.look()?;
                    if self.at_a() != d {
                        if attempt == 0 {
                            continue;
                        }
                        anyhow::bail!(
                            "neither {}'s cell then {d}, nor {d} then the cell, wrote {d} there \
                             (tried twice): check the calibration's keys (autoplay calibrate \
                             --keys) or give [input] by hand",
                            self.name()
                        );
                    }
                    self.input.mode = InputMode::CellFirst;
                    self.see(
                        "mode",
                        format!("tapped {}, then {d}: {d} went in", self.name()),
                    );
                    on("cell-first: tap the cell, then the digit");
                    self.cell_path(&none, &selected, undo_hint, on)?;
                    break;
                }
                x => anyhow::bail!("{} shows {x} after the probe's first taps", self.name()),
            }
        }
        self.mistake_counter(on)?;
        // Leave a given selected: nothing the player does next can write by accident.
        if self.input.mode != InputMode::DigitFirst {
            self.cell(self.g[1])?;
        }
        Ok(())
    }

    fn last_frame(&self) -> &RgbaImage {
        &self.last.as_ref().expect("looked before").frame
    }

    /// Cell-first: the probe's cell holds its digit, selected.
    fn cell_path(
        &mut self,
        none: &RgbaImage,
        selected: &RgbaImage,
        undo_hint: Option<Point>,
        on: &mut dyn FnMut(&str),
    ) -> anyhow::Result<()> {
        let (a, d) = (self.a, self.digit);
        let geometry = self.cal.geometry();
        let bg_none = background(none, &geometry, a);
        let bg_sel = background(selected, &geometry, a);
        let visible = far(bg_none, bg_sel);
        let is_selected = |frame: &RgbaImage| -> Option<bool> {
            let bg = background(frame, &geometry, a);
            visible.then(|| distance(bg, bg_sel) < distance(bg, bg_none))
        };

        // After an entry: is the cell still selected?
        let after = is_selected(self.last_frame());
        self.input.after_entry = match after {
            Some(true) => AfterEntry::Keep,
            Some(false) => AfterEntry::Clear,
            None => AfterEntry::Unknown,
        };
        self.see(
            "after_entry",
            match after {
                Some(true) => format!("after {d} went into {}, it still showed selected", self.name()),
                Some(false) => format!(
                    "after {d} went into {}, it no longer showed selected (the selection is dropped)",
                    self.name()
                ),
                None => "the screen does not show which cell is selected".into(),
            },
        );

        // The digit again.
        self.select_a(after)?;
        let same = self.same_digit(on)?;
        if matches!(same, SameDigit::Clear | SameDigit::ClearLate) {
            self.write_a()?;
        }

        self.try_erase(same)?;

        // Undo.
        self.try_undo(undo_hint, on)?;
        if self.at_a() == d && self.take_back.is_some() {
            self.take_back_a()?;
        }

        // A re-tapped cell: the probe's cell is empty now (or locked with its digit).
        if self.at_a() == 0 {
            if self.retap(&bg_none, &bg_sel, visible, on)? {
                self.frame_reads(true, None);
                self.input.finished_keys = FinishedKeys::Unknown;
                self.see(
                    "finished_keys",
                    "not probed (the app kept a brush): the player looks when a digit is first finished"
                        .into(),
                );
                return Ok(());
            }
        } else {
            self.see(
                "retap",
                "not probed (the probe's digit could not be taken back): the player assumes a \
                 re-tap deselects and never re-taps a selected cell"
                    .into(),
            );
            self.input.retap = Retap::Deselect;
        }

        // Taps within one frame.
        if self.at_a() == 0 && self.take_back.is_some() {
            self.cell(self.g[0])?;
            self.link.tap(self.cells[a].0, self.cells[a].1)?;
            let k = self.keys[(d - 1) as usize];
            self.link.tap(k.0, k.1)?;
            self.taps += 2;
            self.look()?;
            let stale = self.at_a() == 0;
            self.frame_reads(
                stale,
                Some(format!("tapped {} and {d} at once", self.name())),
            );
            if !stale {
                self.take_back_a()?;
            }
        } else {
            self.frame_reads(true, None);
        }
        self.finished_keys(on)?;
        Ok(())
    }

    /// The erase key (the cell selected, or as a brush), twice should a tap be lost: whether it
    /// takes the probe's digit back. Then the take-back found so far: erase, else the digit again
    /// where it clears (`same`).
    fn try_erase(&mut self, same: SameDigit) -> anyhow::Result<()> {
        let brush = self.input.mode == InputMode::DigitFirst;
        if let Some(e) = self.erase {
            for _ in 0..2 {
                if brush {
                    self.tap(e)?;
                    self.cell(self.a)?;
                } else {
                    self.select_a(Some(false))?;
                    self.tap(e)?;
                }
                self.look()?;
                if self.at_a() == 0 {
                    break;
                }
            }
            let cleared = self.at_a() == 0;
            let how = if brush {
                format!("tapped the erase key, then {}", self.name())
            } else {
                format!("tapped the erase key with {} selected", self.name())
            };
            let what = if cleared {
                "it cleared"
            } else {
                "the digit stayed"
            };
            self.see("erase", format!("{how}: {what}"));
            self.erase_failed = !cleared;
            if cleared {
                self.take_back.get_or_insert(TakeBack::Erase);
                self.write_a()?;
            }
        }
        if self.take_back.is_none() && matches!(same, SameDigit::Clear | SameDigit::ClearLate) {
            self.take_back = Some(TakeBack::Digit);
        }
        Ok(())
    }

    /// Selects the probe's cell from a given (never a re-tap), unless it `is` selected.
    fn select_a(&mut self, is: Option<bool>) -> anyhow::Result<()> {
        if self.input.mode == InputMode::DigitFirst || is == Some(true) {
            return Ok(());
        }
        self.cell(self.g[1])?;
        self.cell(self.a)
    }

    /// Writes the digit into the probe's (empty) cell by the mode found (twice, should a tap be
    /// lost).
    fn write_a(&mut self) -> anyhow::Result<()> {
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
            self.look()?;
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
    fn take_back_a(&mut self) -> anyhow::Result<()> {
        self.take_back_cell(self.a, self.digit)
    }

    fn take_back_cell(&mut self, c: usize, d: u8) -> anyhow::Result<()> {
        // Twice, should a tap be lost (a digit tapped again that then stayed is tapped again).
        match self.take_back_once(c, d) {
            Err(_) if self.last.as_ref().map_or(0, |l| l.board.get(c)) == d => {
                self.take_back_once(c, d)
            }
            r => r,
        }
    }

    fn take_back_once(&mut self, c: usize, d: u8) -> anyhow::Result<()> {
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
                    std::thread::sleep(LATE_WATCH);
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
        self.look()?;
        let now = self.last.as_ref().map_or(0, |l| l.board.get(c));
        if now != 0 {
            anyhow::bail!("{} still shows {now} after taking it back", cell_name(c));
        }
        Ok(())
    }

    /// The digit tapped again (the cell selected, or the brush on it): nothing, a clear, or a
    /// clear a moment later.
    fn same_digit(&mut self, on: &mut dyn FnMut(&str)) -> anyhow::Result<SameDigit> {
        let (a, d) = (self.a, self.digit);
        let mut same = SameDigit::Nothing;
        // Where the digit stays, once more (should the tap have been lost).
        for attempt in 0..2 {
            if self.input.mode == InputMode::DigitFirst {
                self.cell(a)?;
            } else {
                if attempt > 0 {
                    self.select_a(Some(false))?;
                }
                self.key(d)?;
            }
            let tapped = Instant::now();
            self.link.flush()?;
            self.look_now()?;
            if self.at_a() == 0 {
                same = SameDigit::Clear;
                break;
            }
            while tapped.elapsed() < LATE_WATCH {
                std::thread::sleep(Duration::from_millis(40));
                self.look_now()?;
                if self.at_a() == 0 {
                    let ms = tapped.elapsed().as_millis() as u32;
                    self.input.clear_late_ms = Some(ms + 50);
                    same = SameDigit::ClearLate;
                    break;
                }
            }
            if same != SameDigit::Nothing {
                break;
            }
        }
        let how = if self.input.mode == InputMode::DigitFirst {
            format!("tapped {} again with the brush on {d}", cell_name(a))
        } else {
            format!("tapped {d} again with {} selected", cell_name(a))
        };
        self.see(
            "same_digit",
            format!(
                "{how}: {}",
                match same {
                    SameDigit::Nothing => "the digit stayed".to_string(),
                    SameDigit::Clear => "it cleared".into(),
                    SameDigit::ClearLate => format!(
                        "it cleared a moment later (seen after {} ms)",
                        self.input.clear_late_ms.unwrap_or(0) - 50
                    ),
                }
            ),
        );
        if same != SameDigit::Nothing {
            self.toggle_confirmed = true;
            on("the digit again clears its cell");
        }
        self.input.same_digit = Some(same);
        Ok(same)
    }

    /// Tries the undo key (the survey's, or a node whose words say undo): it works if it takes
    /// the probe's last entry back. The probe's cell holds its digit on entry, or is empty.
    fn try_undo(&mut self, hint: Option<Point>, on: &mut dyn FnMut(&str)) -> anyhow::Result<()> {
        let d = self.digit;
        if self.at_a() != d {
            self.write_a()?;
        }
        let mut candidates: Vec<(Point, String)> = hint
            .map(|p| {
                (
                    p,
                    "the key the screenshot's survey took for undo".to_string(),
                )
            })
            .into_iter()
            .collect();
        if let Ok(dump) = self
            .link
            .call("reading the screen's words", |d| d.ui_dump())
            && let Ok(screen) = dump.screen
        {
            for n in screen.nodes {
                let w = n.words.to_lowercase();
                if UNDO_WORDS.iter().any(|u| w.contains(u))
                    && !candidates.iter().any(|(p, _)| near(*p, n.center))
                {
                    candidates.push((n.center, format!("the button {:?}", n.words)));
                }
            }
        }
        for (p, what) in candidates {
            // A candidate that is a digit key or a cell would write: not tried.
            if self
                .keys
                .iter()
                .chain(self.cells.iter())
                .any(|&k| near(k, p))
            {
                continue;
            }
            // Apps may keep the digit entered again as an entry of its own: a few taps, while
            // nothing but the probe's cell changes.
            for _ in 0..3 {
                self.tap(p)?;
                self.look()?;
                let board = self.last.as_ref().expect("looked").board;
                let elsewhere =
                    (0..CELLS).any(|c| c != self.a && board.get(c) != self.start.get(c));
                if self.at_a() == 0 || elsewhere {
                    break;
                }
            }
            if self.at_a() == 0 {
                self.undo = Some(p);
                self.input.undo = Some([p.0, p.1]);
                self.take_back.get_or_insert(TakeBack::Undo);
                self.see(
                    "undo",
                    format!(
                        "{what} at {},{} took {d} back out of {}",
                        p.0,
                        p.1,
                        self.name()
                    ),
                );
                on("an undo key takes the last entry back");
                return Ok(());
            }
        }
        self.see(
            "undo",
            "no undo key found (or none took the last entry back)".into(),
        );
        Ok(())
    }

    /// A tap on the selected cell (the probe's cell empty): nothing, deselected, or pencil mode.
    /// True where it left the app with a brush it keeps (a `both` app): no cell may be tapped
    /// after.
    fn retap(
        &mut self,
        bg_none: &[u8; 3],
        bg_sel: &[u8; 3],
        visible: bool,
        on: &mut dyn FnMut(&str),
    ) -> anyhow::Result<bool> {
        let (a, d) = (self.a, self.digit);
        let geometry = self.cal.geometry();
        let mut stuck = false;
        self.select_a(Some(false))?;
        self.cell(a)?;
        let before = self.look()?.frame.clone();
        let bg = background(&before, &geometry, a);
        let deselected = visible && distance(bg, *bg_none) < distance(bg, *bg_sel);
        self.key(d)?;
        self.look()?;
        let marked = changed(&before, self.last_frame(), &geometry, a) > 0.01;
        let (retap, what) = if self.at_a() == d {
            self.take_back_a()?;
            (
                Retap::Nothing,
                format!("tapped {} twice, then {d}: {d} went in", self.name()),
            )
        } else if marked && !deselected {
            // A pencil mark: the digit again takes it off, the cell again leaves pencil mode.
            self.key(d)?;
            self.cell(a)?;
            self.key(d)?;
            self.look()?;
            if self.at_a() != d {
                anyhow::bail!("{} did not take {d} after leaving pencil mode", self.name());
            }
            self.take_back_a()?;
            (
                Retap::Pencil,
                format!(
                    "tapped {} twice, then {d}: a small mark, no digit (pencil mode)",
                    self.name()
                ),
            )
        } else {
            // Deselected: the digit went nowhere, or armed a brush.
            self.cell(a)?;
            self.look()?;
            if self.at_a() == d {
                self.input.mode = InputMode::Both;
                self.see(
                    "mode",
                    format!(
                        "cell-first, and {d} tapped with no cell selected armed a brush: tapping {} \
                         then wrote {d}",
                        self.name()
                    ),
                );
                on("both: a digit with no cell selected arms a brush");
                // Drop the brush: its key again; then the digit out.
                self.key(d)?;
                stuck = !self.brush_dropped()?;
            } else {
                self.key(d)?;
                self.look()?;
                if self.at_a() != d {
                    anyhow::bail!("{} did not take {d} after a re-tap", self.name());
                }
                self.take_back_a()?;
            }
            (
                Retap::Deselect,
                format!(
                    "tapped {} twice, then {d}: nothing went in (deselected)",
                    self.name()
                ),
            )
        };
        on(match retap {
            Retap::Nothing => "a re-tapped cell stays selected",
            Retap::Deselect => "a re-tapped cell is deselected: the player never re-taps one",
            Retap::Pencil => "a re-tapped cell toggles pencil mode: the player never re-taps one",
        });
        self.input.retap = retap;
        self.see("retap", what);
        Ok(stuck)
    }

    /// In a `both` app, after its brush key was tapped again (the probe's cell holding its
    /// digit): whether the brush is gone, told without a tap that could write elsewhere. With
    /// an erase key: a given, erase, the cell: a brush still there becomes the eraser and clears
    /// the cell, else the cell is selected. Else, where the digit again clears: a given, the
    /// cell. True (dropped): the cell selected, its digit taken back; false: the brush stays
    /// (the cell cleared).
    fn brush_dropped(&mut self) -> anyhow::Result<bool> {
        let toggles = matches!(
            self.input.same_digit,
            Some(SameDigit::Clear | SameDigit::ClearLate)
        );
        self.cell(self.g[0])?;
        match self.erase {
            Some(e) => self.tap(e)?,
            None if toggles => {}
            None => anyhow::bail!(
                "could not tell safely whether the app keeps its brush (no erase key, and the digit \
                 again does not clear): the probe's {} stays in {}: clear it by hand, and give \
                 [input] by hand",
                self.digit,
                self.name()
            ),
        }
        self.cell(self.a)?;
        self.look()?;
        let dropped = self.at_a() != 0;
        self.input.brush_retap = if dropped {
            BrushRetap::Clear
        } else {
            BrushRetap::Nothing
        };
        self.see(
            "brush_retap",
            if dropped {
                format!(
                    "tapped {} (the brush) again, then a given and {}: it was selected (the brush was dropped)",
                    self.digit,
                    self.name()
                )
            } else {
                format!(
                    "tapped {} (the brush) again: cell taps still wrote a brush (the app keeps it until \
                     the level is opened again; the player plays cell-first from a fresh level)",
                    self.digit
                )
            },
        );
        if dropped {
            self.take_back_a()?;
        }
        Ok(dropped)
    }

    /// Two taps at once: whether the second acted on the screen before the first (`how` they
    /// were tapped; `None`: not probed, and taps then go a frame apart to be safe).
    fn frame_reads(&mut self, stale: bool, how: Option<String>) {
        self.input.frame_reads = stale;
        let what = match how {
            Some(how) if stale => format!(
                "{how}: the second tap acted on the screen before the first (taps go a frame apart)"
            ),
            Some(how) => format!("{how}: the second tap saw the first"),
            None => "not probed (no way to tap twice at once without risking a wrong digit): \
                     taps go a frame apart"
                .into(),
        };
        self.see("frame_reads", what);
    }

    /// Digit-first: the probe's cell holds its digit, the brush on it.
    fn brush_path(
        &mut self,
        undo_hint: Option<Point>,
        on: &mut dyn FnMut(&str),
    ) -> anyhow::Result<()> {
        let (a, d) = (self.a, self.digit);
        let same = self.same_digit(on)?;
        // The brush's key again: is the brush dropped? Seen where a cell tap then writes.
        if self.at_a() == 0 {
            self.key(d)?;
            self.cell(a)?;
            self.look()?;
            let kept = self.at_a() == d;
            self.input.brush_retap = if kept {
                BrushRetap::Nothing
            } else {
                BrushRetap::Clear
            };
            self.see(
                "brush_retap",
                format!(
                    "tapped {d} (the brush) again, then {}: {}",
                    self.name(),
                    if kept {
                        "it wrote (the brush stays)"
                    } else {
                        "nothing (the brush was dropped)"
                    }
                ),
            );
            if !kept {
                self.key(d)?;
                self.cell(a)?;
                self.look()?;
            }
        } else {
            // Not seen: the player sets a brush through another key first.
            self.input.brush_retap = BrushRetap::Clear;
            self.see(
                "brush_retap",
                "not probed (the digit again did not clear): the player sets the brush through another key first".into(),
            );
        }
        if self.at_a() != d {
            self.write_a()?;
        }
        self.try_erase(same)?;
        self.try_undo(undo_hint, on)?;
        // Two taps on the cell at once (the brush on its digit): fresh, the second writes
        // again what the first cleared; read from the last frame, both clear.
        if same == SameDigit::Clear {
            if self.at_a() != d {
                self.write_a()?;
            }
            for _ in 0..2 {
                self.link.tap(self.cells[a].0, self.cells[a].1)?;
            }
            self.taps += 2;
            self.look()?;
            let stale = self.at_a() == 0;
            self.frame_reads(stale, Some(format!("tapped {} twice at once", self.name())));
        } else {
            self.frame_reads(true, None);
        }
        // Nothing takes it back where the app locks right digits: it stays, and is named.
        if self.at_a() == d && self.take_back.is_some() {
            self.take_back_a()?;
        }
        self.finished_keys(on)
    }

    /// The key of a digit placed nine times: does it go, with the keys after it moving up? Seen
    /// where a digit has eight on the board and a way to take the ninth back that needs no digit
    /// key.
    fn finished_keys(&mut self, on: &mut dyn FnMut(&str)) -> anyhow::Result<()> {
        let mut counts = [0u8; 10];
        for c in 0..CELLS {
            counts[self.start.get(c) as usize] += 1;
        }
        let no_key = matches!(self.take_back, Some(TakeBack::Erase | TakeBack::Undo));
        let target = (0..CELLS).find(|&c| {
            self.start.get(c) == 0 && counts[self.solution.get(c) as usize] == 8 && c != self.a
        });
        let (Some(f), true) = (target, no_key) else {
            self.input.finished_keys = FinishedKeys::Unknown;
            self.see(
                "finished_keys",
                "not probed (no digit one short of nine, or no erase or undo key): the player \
                 looks at the keypad when a digit is first finished"
                    .into(),
            );
            return Ok(());
        };
        let d = self.solution.get(f);
        match self.input.mode {
            InputMode::DigitFirst => {
                self.key(d % 9 + 1)?;
                self.key(d)?;
                self.cell(f)?;
            }
            _ => {
                self.cell(self.g[1])?;
                self.cell(f)?;
                self.key(d)?;
            }
        }
        self.look()?;
        if self.last.as_ref().map_or(0, |l| l.board.get(f)) != d {
            anyhow::bail!("{} did not take {d}", cell_name(f));
        }
        let reflow = reflowed(self.cal, self.last_frame(), d);
        self.take_back_cell(f, d)?;
        self.input.finished_keys = if reflow {
            on("a finished digit's key goes and the keys after it move up");
            FinishedKeys::Reflow
        } else {
            FinishedKeys::Stay
        };
        self.see(
            "finished_keys",
            format!(
                "wrote the ninth {d} into {}: {}",
                cell_name(f),
                if reflow {
                    "its key went and the keys after it moved up one place"
                } else {
                    "the other keys stayed in place"
                }
            ),
        );
        Ok(())
    }

    /// The game screen's mistake counter ("Mistakes: 0/3"), from its words.
    fn mistake_counter(&mut self, on: &mut dyn FnMut(&str)) -> anyhow::Result<()> {
        let dump = self
            .link
            .call("reading the screen's words", |d| d.ui_dump())?;
        let counter = dump
            .screen
            .ok()
            .and_then(|s| words::mistake_counter(&s.texts));
        match counter {
            Some((_, limit, text)) => {
                self.input.mistake_limit = Some(limit);
                self.see(
                    "mistake_limit",
                    format!("the game screen shows {text:?}: the game ends after {limit} mistakes"),
                );
                on(&format!("a mistake counter shows ({text:?})"));
            }
            None => {
                self.input.mistake_limit = None;
                self.see(
                    "mistake_limit",
                    "no mistake counter among the screen's words".into(),
                );
            }
        }
        Ok(())
    }

    /// The way found to take digits back, into the rules; locked right digits where nothing did.
    fn conclude(&mut self) {
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
    fn check_restored(&mut self) -> anyhow::Result<Option<(usize, u8)>> {
        self.conclude();
        self.look()?;
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
    fn restore_after_failure(&mut self) -> anyhow::Result<Vec<String>> {
        self.look()?;
        let board = self.last.as_ref().expect("looked").board;
        let start = self.start;
        for c in (0..CELLS).filter(|&c| board.get(c) != start.get(c)) {
            if self.take_back.is_some() && board.get(c) != 0 {
                let _ = self.take_back_cell(c, board.get(c));
            }
        }
        self.look()?;
        let board = self.last.as_ref().expect("looked").board;
        Ok((0..CELLS)
            .filter(|&c| board.get(c) != self.start.get(c))
            .map(|c| format!("{} ({})", cell_name(c), board.get(c)))
            .collect())
    }
}

/// Words of undo buttons (text or content description), lower case.
const UNDO_WORDS: [&str; 10] = [
    "undo",
    "↶",
    "geri al",
    "отмен",
    "rückgängig",
    "deshacer",
    "annuler",
    "annulla",
    "desfazer",
    "撤销",
];

fn near(a: Point, b: Point) -> bool {
    a.0.abs_diff(b.0) < 24 && a.1.abs_diff(b.1) < 24
}

/// A cell's background: the per-channel median of its inside (its digit is a minority).
fn background(frame: &RgbaImage, g: &crate::vision::BoardGeometry, cell: usize) -> [u8; 3] {
    let [x0, y0, x1, y1] = g.cell_inner(cell);
    let mut ch: [Vec<u8>; 3] = Default::default();
    for y in y0..y1.min(frame.height()) {
        for x in x0..x1.min(frame.width()) {
            let p = frame.get_pixel(x, y).0;
            for i in 0..3 {
                ch[i].push(p[i]);
            }
        }
    }
    ch.map(|mut v| {
        v.sort_unstable();
        v.get(v.len() / 2).copied().unwrap_or(0)
    })
}

fn distance(a: [u8; 3], b: [u8; 3]) -> u32 {
    (0..3).map(|i| a[i].abs_diff(b[i]) as u32).sum()
}

/// Two backgrounds a person tells apart.
fn far(a: [u8; 3], b: [u8; 3]) -> bool {
    distance(a, b) > 24
}

/// The share of a cell's inside whose colour changed between two frames.
fn changed(a: &RgbaImage, b: &RgbaImage, g: &crate::vision::BoardGeometry, cell: usize) -> f32 {
    let [x0, y0, x1, y1] = g.cell_inner(cell);
    let (mut n, mut diff) = (0u32, 0u32);
    for y in y0..y1.min(a.height()).min(b.height()) {
        for x in x0..x1.min(a.width()).min(b.width()) {
            n += 1;
            let (p, q) = (a.get_pixel(x, y).0, b.get_pixel(x, y).0);
            if (0..3).any(|i| p[i].abs_diff(q[i]) > 40) {
                diff += 1;
            }
        }
    }
    diff as f32 / n.max(1) as f32
}

/// Whether the keys after `d`'s moved up one place on `after` (most places from `d`'s on show
/// the next digit), each key read like a cell with the calibration's templates.
pub(crate) fn reflowed(cal: &Calibration, after: &RgbaImage, d: u8) -> bool {
    let keys = cal.keypad.digits;
    let pitch = keys
        .windows(2)
        .map(|w| w[0][0].abs_diff(w[1][0]).max(w[0][1].abs_diff(w[1][1])))
        .filter(|&p| p > 4)
        .min()
        .unwrap_or(40);
    let half = (pitch * 9 / 20).max(4);
    let bank = cal.template_bank();
    let slot = (d - 1) as usize;
    if slot >= 8 {
        return false;
    }
    let shifted = (slot..8)
        .filter(|&i| {
            let [x, y] = keys[i];
            let rect = [
                x.saturating_sub(half),
                y.saturating_sub(half),
                x + half,
                y + half,
            ];
            let shows = crate::vision::read_key(after, rect, bank.as_ref());
            tracing::trace!(slot = i, ?shows, "a key's place after a finished digit");
            shows == Some(i as u8 + 2)
        })
        .count();
    shifted >= 1 && 3 * shifted >= 2 * (8 - slot)
}
