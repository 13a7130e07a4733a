//! A Sudoku app in memory for the probe's tests: it takes taps by the rule classes real apps
//! follow (`../shared/real-apps/BEHAVIOUR.md`, as the simulated phone's `app::rules` has them),
//! draws its screen as pixels (the board, digits in a bundled font, the selected cell's tint,
//! pencil marks, the keypad, re-flowed where finished keys go), and keeps its own clock, which
//! the probe's pauses move. The probe reads its frames with a calibration of its layout, as it
//! reads a phone's screenshots.

use super::{ProbeTarget, ScreenWords};
use crate::board::{Board, CELLS};
use crate::calibration::{
    AfterEntry, BoardSection, Boundaries, BrushRetap, Calibration, DeviceSection, Erase, InputMode,
    InputSection, KeypadSection, Retap, SameDigit, VERSION, Version,
};
use crate::play::{Point, Seen, Target};
use ab_glyph::FontRef;
use image::{Rgba, RgbaImage};
use std::time::{Duration, Instant};

const WIDTH: u32 = 540;
const HEIGHT: u32 = 960;
/// The board's outer lines, and its cells' size.
const X0: u32 = 18;
const Y0: u32 = 120;
const CELL: u32 = 56;
/// The keypad's row, and where the erase and undo keys are.
const KEYS_Y: u32 = 720;
const ERASE: Point = (100, 830);
const UNDO: Point = (440, 830);
/// One frame interval at 60 Hz: taps closer together than this read the same drawn frame.
const FRAME: Duration = Duration::from_micros(16_667);

/// How the app takes taps: one field per rule class the probe finds out.
#[derive(Debug, Clone, Copy)]
pub(super) struct Rules {
    pub(super) mode: InputMode,
    pub(super) retap: Retap,
    pub(super) brush_retap: BrushRetap,
    pub(super) after_entry: AfterEntry,
    /// The digit a cell holds, tapped again: entered again (`None`), nothing, cleared, or
    /// cleared this late.
    pub(super) same_digit: Option<SameDigit>,
    pub(super) clear_late: Duration,
    /// The erase key: `Some(true)` clears, `Some(false)` is drawn and does nothing, `None`: none.
    pub(super) erase: Option<bool>,
    /// A right digit cannot be overwritten, erased or cleared (only undo takes it back).
    pub(super) lock_correct: bool,
    pub(super) undo_key: bool,
    /// Taps read the state of the last drawn frame.
    pub(super) frame_reads: bool,
    /// A finished digit's key goes and the keys after it move up one place.
    pub(super) reflow: bool,
    /// A mistake counter ("Mistakes: 0/N") shows.
    pub(super) mistake_limit: Option<u32>,
    /// The selected cell is tinted.
    pub(super) shows_selection: bool,
}

impl Default for Rules {
    /// The plain app: cell-first, a re-tap changes nothing, the selection kept, the digit
    /// entered again, an erase key that clears.
    fn default() -> Rules {
        Rules {
            mode: InputMode::CellFirst,
            retap: Retap::Nothing,
            brush_retap: BrushRetap::Nothing,
            after_entry: AfterEntry::Keep,
            same_digit: None,
            clear_late: Duration::from_millis(190),
            erase: Some(true),
            lock_correct: false,
            undo_key: false,
            frame_reads: false,
            reflow: false,
            mistake_limit: None,
            shows_selection: true,
        }
    }
}

/// What a digit-first app's cell taps write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Armed {
    Digit(u8),
    Erase,
}

/// The game's state, as one drawn frame shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct AppState {
    board: Board,
    selected: Option<usize>,
    brush: Option<Armed>,
    pencil: bool,
    notes: [u16; CELLS],
    /// Every change of a cell, (cell, digit before), for the undo key.
    history: Vec<(usize, u8)>,
}

/// What a tap landed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tapped {
    Cell(usize),
    Digit(u8),
    Erase,
    Undo,
}

/// The app in memory.
pub(super) struct FakeApp {
    pub(super) rules: Rules,
    givens: Board,
    pub(super) solution: Board,
    game: AppState,
    /// Recent taps' times and the game before each (taps that read the last drawn frame).
    recent: Vec<(Duration, AppState)>,
    late_clears: Vec<(Duration, usize)>,
    pub(super) mistakes: u32,
    pub(super) taps: u64,
    clock: Duration,
    epoch: Instant,
    font: FontRef<'static>,
}

impl FakeApp {
    /// The app on a level whose board shows `start` (`givens` among its digits).
    pub(super) fn new(rules: Rules, givens: Board, start: Board) -> FakeApp {
        let solution = crate::solver::fast::solve(&givens).expect("a puzzle with a solution");
        FakeApp {
            rules,
            givens,
            solution,
            game: AppState {
                board: start,
                selected: None,
                brush: None,
                pencil: false,
                notes: [0; CELLS],
                history: Vec::new(),
            },
            recent: Vec::new(),
            late_clears: Vec::new(),
            mistakes: 0,
            taps: 0,
            clock: Duration::ZERO,
            epoch: Instant::now(),
            font: FontRef::try_from_slice(crate::vision::templates::FONTS[0].1)
                .expect("a bundled font"),
        }
    }

    /// The board as the app shows it now.
    pub(super) fn board(&mut self) -> Board {
        self.advance();
        self.game.board
    }

    /// A calibration of this app's screen, as calibrate makes one from its screenshot.
    pub(super) fn calibration(&self) -> Calibration {
        let lines: [u32; 10] = std::array::from_fn(|i| X0 + CELL * i as u32);
        let rows: [u32; 10] = std::array::from_fn(|i| Y0 + CELL * i as u32);
        Calibration {
            version: Version(VERSION),
            device: DeviceSection {
                width: WIDTH,
                height: HEIGHT,
                model: None,
                density: None,
            },
            app: None,
            board: BoardSection {
                rect: [X0, Y0, X0 + 9 * CELL, Y0 + 9 * CELL],
                cols: Boundaries(lines),
                rows: Boundaries(rows),
                line_width: 4,
            },
            keypad: KeypadSection {
                digits: std::array::from_fn(|i| [key_x(i), KEYS_Y]),
                erase: match self.rules.erase {
                    Some(_) => Erase::Key([ERASE.0, ERASE.1]),
                    None => Erase::Toggle,
                },
                erase_guessed: false,
            },
            input: InputSection::new(InputMode::CellFirst),
            navigation: None,
            templates: Vec::new(),
        }
    }

    /// The late clears that fell due.
    fn advance(&mut self) {
        let now = self.clock;
        for &(_, c) in self.late_clears.iter().filter(|(due, _)| *due <= now) {
            if self.givens.get(c) == 0 {
                self.game.board.set(c, 0);
            }
        }
        self.late_clears.retain(|(due, _)| *due > now);
    }

    /// What a tap at `p` hits.
    fn hit(&self, p: Point) -> Option<Tapped> {
        let near = |q: Point| p.0.abs_diff(q.0) < 24 && p.1.abs_diff(q.1) < 24;
        let (x1, y1) = (X0 + 9 * CELL, Y0 + 9 * CELL);
        if (X0..x1).contains(&p.0) && (Y0..y1).contains(&p.1) {
            let (col, row) = ((p.0 - X0) / CELL, (p.1 - Y0) / CELL);
            return Some(Tapped::Cell((row * 9 + col) as usize));
        }
        if let Some(slot) = (0..9).find(|&i| near((key_x(i), KEYS_Y))) {
            return self.keys().get(slot).copied().map(Tapped::Digit);
        }
        if self.rules.erase == Some(true) && near(ERASE) {
            return Some(Tapped::Erase);
        }
        (self.rules.undo_key && near(UNDO)).then_some(Tapped::Undo)
    }

    /// The digits of the keypad's places, in order: all nine, or where finished keys go, the
    /// unfinished ones moved up.
    fn keys(&self) -> Vec<u8> {
        (1..=9u8)
            .filter(|&d| !self.rules.reflow || !crate::play::setnum::finished(&self.game.board, d))
            .collect()
    }

    /// A tap, read against the last drawn frame where the app does that.
    fn press(&mut self, hit: Tapped) {
        let at = self.clock;
        let stale = if self.rules.frame_reads {
            self.recent.retain(|(t, _)| *t + FRAME > at);
            self.recent.first().map(|(_, g)| g.clone())
        } else {
            None
        };
        if self.rules.frame_reads {
            self.recent.push((at, self.game.clone()));
        }
        match stale {
            Some(read) => {
                let mut after = read.clone();
                self.input(&mut after, hit);
                merge(&mut self.game, &read, &after);
            }
            None => {
                let mut game = self.game.clone();
                self.input(&mut game, hit);
                self.game = game;
            }
        }
    }

    /// What a tap does to the game it reads.
    fn input(&mut self, g: &mut AppState, hit: Tapped) {
        let brush_only = self.rules.mode == InputMode::DigitFirst;
        let painting = brush_only || (self.rules.mode == InputMode::Both && g.brush.is_some());
        match hit {
            Tapped::Cell(cell) if painting => match g.brush {
                Some(Armed::Digit(d)) => self.enter(g, cell, d, false),
                Some(Armed::Erase) => self.erase(g, cell),
                None => {}
            },
            Tapped::Cell(cell) if g.selected == Some(cell) => match self.rules.retap {
                Retap::Nothing => {}
                Retap::Deselect => {
                    g.selected = None;
                    g.pencil = false;
                }
                Retap::Pencil => g.pencil = !g.pencil,
            },
            Tapped::Cell(cell) => g.selected = Some(cell),
            Tapped::Digit(d) => match g.selected {
                Some(cell) if !brush_only => {
                    let before = g.board.get(cell);
                    self.enter(g, cell, d, true);
                    if self.rules.after_entry == AfterEntry::Clear && g.board.get(cell) != before {
                        g.selected = None;
                    }
                }
                _ if self.rules.mode == InputMode::CellFirst => {}
                _ => self.arm(g, Armed::Digit(d)),
            },
            Tapped::Erase => match g.selected {
                Some(cell) if !brush_only => self.erase(g, cell),
                _ if self.rules.mode == InputMode::CellFirst => {}
                _ => self.arm(g, Armed::Erase),
            },
            Tapped::Undo => {
                if let Some((cell, d)) = g.history.pop() {
                    g.board.set(cell, d);
                }
            }
        }
    }

    fn arm(&self, g: &mut AppState, b: Armed) {
        if g.brush != Some(b) {
            g.brush = Some(b);
        } else if self.rules.brush_retap == BrushRetap::Clear {
            g.brush = None;
        }
    }

    fn locked(&self, g: &AppState, cell: usize) -> bool {
        let d = g.board.get(cell);
        self.rules.lock_correct && d != 0 && self.solution.get(cell) == d
    }

    /// `d` into `cell` (`selected`: through the selection, where pencil mode applies).
    fn enter(&mut self, g: &mut AppState, cell: usize, d: u8, selected: bool) {
        if self.givens.get(cell) != 0 || self.locked(g, cell) {
            return;
        }
        let old = g.board.get(cell);
        if selected && g.pencil {
            if old == 0 {
                g.notes[cell] ^= 1 << d;
            }
            return;
        }
        if old == d {
            match self.rules.same_digit {
                None => {}
                Some(SameDigit::Nothing) => return,
                Some(SameDigit::Clear) => return self.erase(g, cell),
                Some(SameDigit::ClearLate) => {
                    self.late_clears
                        .push((self.clock + self.rules.clear_late, cell));
                    return;
                }
            }
        }
        g.history.push((cell, old));
        g.board.set(cell, d);
        if self.solution.get(cell) != d {
            self.mistakes += 1;
        }
    }

    fn erase(&self, g: &mut AppState, cell: usize) {
        let old = g.board.get(cell);
        if self.givens.get(cell) != 0 || old == 0 || self.locked(g, cell) {
            return;
        }
        g.history.push((cell, old));
        g.board.set(cell, 0);
    }

    /// The screen as the app draws it now.
    fn draw(&self) -> RgbaImage {
        let mut img = RgbaImage::from_pixel(WIDTH, HEIGHT, Rgba([250, 250, 250, 255]));
        if let Some(c) = self.game.selected.filter(|_| self.rules.shows_selection) {
            let (x, y) = cell_corner(c);
            fill(&mut img, x, y, CELL, CELL, [187, 222, 251]);
        }
        for i in 0..10 {
            let (at, thick) = (CELL * i, i % 3 == 0);
            let (w, colour) = if thick {
                (4, [30, 30, 30])
            } else {
                (1, [170, 170, 170])
            };
            let half = w / 2;
            fill(&mut img, X0 + at - half, Y0 - 2, w, 9 * CELL + 4, colour);
            fill(&mut img, X0 - 2, Y0 + at - half, 9 * CELL + 4, w, colour);
        }
        for c in 0..CELLS {
            let (x, y) = cell_corner(c);
            match self.game.board.get(c) {
                0 => {
                    for d in (1..=9u8).filter(|d| self.game.notes[c] & (1 << d) != 0) {
                        let (dx, dy) =
                            (u32::from(d - 1) % 3 * 17 + 5, u32::from(d - 1) / 3 * 17 + 2);
                        self.text(&mut img, (x + dx + 6, y + dy + 8), 14.0, d, [110, 110, 110]);
                    }
                }
                d => self.text(
                    &mut img,
                    (x + CELL / 2, y + CELL / 2),
                    40.0,
                    d,
                    [20, 20, 20],
                ),
            }
        }
        for (slot, d) in self.keys().into_iter().enumerate() {
            self.text(&mut img, (key_x(slot), KEYS_Y), 36.0, d, [40, 40, 40]);
        }
        img
    }

    /// Digit `d` at `px` pixels, its ink centred on `at`.
    fn text(&self, img: &mut RgbaImage, at: Point, px: f32, d: u8, colour: [u8; 3]) {
        let Some((coverage, w, h)) = crate::vision::templates::render_digit(&self.font, d, px)
        else {
            return;
        };
        let (x0, y0) = (at.0 - w as u32 / 2, at.1 - h as u32 / 2);
        for (i, &c) in coverage.iter().enumerate() {
            let (x, y) = (x0 + (i % w) as u32, y0 + (i / w) as u32);
            let c = c.clamp(0.0, 1.0);
            let p = img.get_pixel_mut(x, y);
            for (channel, &ink) in p.0.iter_mut().zip(&colour) {
                *channel = (f32::from(*channel) * (1.0 - c) + f32::from(ink) * c).round() as u8;
            }
        }
    }
}

/// Where `read` and `after` differ, `after` wins in `current` (a tap read from an old frame
/// changes only what it changed there).
fn merge(current: &mut AppState, read: &AppState, after: &AppState) {
    for c in 0..CELLS {
        if after.board.get(c) != read.board.get(c) {
            current.board.set(c, after.board.get(c));
        }
        if after.notes[c] != read.notes[c] {
            current.notes[c] = after.notes[c];
        }
    }
    if after.selected != read.selected {
        current.selected = after.selected;
    }
    if after.brush != read.brush {
        current.brush = after.brush;
    }
    if after.pencil != read.pencil {
        current.pencil = after.pencil;
    }
    if after.history.len() != read.history.len() {
        current.history.clone_from(&after.history);
    }
}

fn key_x(slot: usize) -> u32 {
    X0 + CELL / 2 + CELL * slot as u32
}

fn cell_corner(c: usize) -> Point {
    (X0 + CELL * (c % 9) as u32, Y0 + CELL * (c / 9) as u32)
}

fn fill(img: &mut RgbaImage, x: u32, y: u32, w: u32, h: u32, [r, g, b]: [u8; 3]) {
    for y in y..(y + h).min(img.height()) {
        for x in x..(x + w).min(img.width()) {
            img.put_pixel(x, y, Rgba([r, g, b, 255]));
        }
    }
}

impl Target for FakeApp {
    fn tap(&mut self, p: Point) -> anyhow::Result<()> {
        self.advance();
        self.taps += 1;
        if let Some(hit) = self.hit(p) {
            self.press(hit);
        }
        Ok(())
    }

    fn sync(&mut self) -> anyhow::Result<()> {
        self.advance();
        Ok(())
    }

    fn look(&mut self) -> anyhow::Result<Seen> {
        Ok(Seen::Board(self.board()))
    }

    fn now(&self) -> Instant {
        self.epoch + self.clock
    }
    fn pause(&mut self, d: Duration) {
        self.clock += d;
    }
    fn back(&mut self) -> anyhow::Result<()> {
        Ok(())
    }
}

impl ProbeTarget for FakeApp {
    fn screenshot(&mut self) -> anyhow::Result<RgbaImage> {
        self.advance();
        Ok(self.draw())
    }

    fn words(&mut self) -> anyhow::Result<Option<ScreenWords>> {
        let mut words = ScreenWords {
            texts: vec!["Sudoku".into(), "Level 1".into()],
            nodes: vec![("Sudoku".into(), (270, 40))],
        };
        if let Some(n) = self.rules.mistake_limit {
            words.texts.push(format!("Mistakes: {}/{n}", self.mistakes));
        }
        if self.rules.undo_key {
            words.texts.push("Undo".into());
            words.nodes.push(("Undo".into(), UNDO));
        }
        Ok(Some(words))
    }
}
