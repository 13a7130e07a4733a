//! One level being played: its board, selection, brush and pencil mode, and what a tap on a
//! cell or a key does to it under the app's input rules. No screens here (`model`), no pixels.

use super::levels;
use super::new_games::Difficulty;
use super::rules::{
    BrushRetap, CompletionCheck, ENGLISH, FinishedKeyLook, InputOrder, InputRules, Mistakes, Retap,
    SameDigitAgain, SelectionAfterEntry, Words,
};
use super::screens::Hit;
use super::style::Highlights;
use sudoku_autoplay::board::{Board, CELLS, box_of, col_of, row_of};

/// What a digit-first app's cell taps write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Brush {
    Digit(u8),
    /// The erase key armed: cell taps clear.
    Erase,
}

/// One level being played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// 1-based level number.
    pub level: u32,
    /// The level's givens (never change).
    pub givens: Board,
    /// Givens plus the player's digits.
    pub board: Board,
    /// The selected cell.
    pub selected: Option<usize>,
    /// The solution the app stored (the level's; with several solutions, the one it blanked
    /// cells of), to count mistakes and, under `check`, to judge the board.
    pub solution: Board,
    /// When the board counts as solved.
    pub check: CompletionCheck,
    /// Digits written that differ from the solution (every one counts, like popular apps).
    pub mistakes: u32,
    /// The app ended this game (`--mistake-limit`): it cannot be continued.
    pub over: bool,
    /// Pencil marks: bit `d` of `notes[cell]` marks digit `d` (1..=9) in an empty cell. Taps
    /// write them only in pencil mode (`--retap pencil`); a scene drawn for a test may
    /// (`super::scene`).
    pub notes: [u16; CELLS],
    /// The digit-first brush (`--input-order`).
    pub brush: Option<Brush>,
    /// Pencil mode (`--retap pencil`).
    pub pencil: bool,
    /// Every change of a cell, (cell, digit before), for the undo key.
    pub history: Vec<(usize, u8)>,
    /// The words of this game's end screens (`--language`).
    pub words: &'static Words,
    /// In an app without levels (`--new-games`), the game's difficulty (its title).
    pub difficulty: Option<Difficulty>,
}

/// How a cell relates to the selection, for tinting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Highlight {
    None,
    /// Same row, column or box as the selected cell.
    Peer,
    /// Holds the same digit as the selected cell.
    SameDigitAgain,
    Selected,
}

/// What a game tap does to the game it reads (`hit`: a digit already mapped from its slot).
pub(super) fn input(g: &mut Game, hit: Hit, r: &InputRules, same: SameDigitAgain) -> Effect {
    let mut fx = Effect::default();
    let brush_only = matches!(
        r.order,
        InputOrder::DigitFirst | InputOrder::DigitFirstArmed
    );
    match hit {
        Hit::Cell(cell) => tap_cell(g, cell, r, same, brush_only, &mut fx),
        Hit::Digit(d) => match g.selected {
            Some(cell) if !brush_only => {
                enter(g, cell, d, r, same, true, &mut fx);
                if r.after_entry == SelectionAfterEntry::Clear && (fx.entered || fx.erased) {
                    g.selected = None;
                    fx.changed = true;
                }
            }
            _ if r.order == InputOrder::CellFirst => {}
            _ => arm(g, Brush::Digit(d), r, &mut fx),
        },
        Hit::Erase => match g.selected {
            Some(cell) if !brush_only => erase_cell(g, cell, r, &mut fx),
            _ if r.order == InputOrder::CellFirst => {}
            _ => arm(g, Brush::Erase, r, &mut fx),
        },
        Hit::Undo => {
            if let Some((cell, d)) = g.history.pop() {
                g.board.set(cell, d);
                fx.changed = true;
            }
        }
        _ => {}
    }
    fx
}

/// A tap on `cell`: painted with the brush where taps paint (`brush_only`, or a `both` app
/// with a brush), else selected, or what a re-tap does.
fn tap_cell(
    g: &mut Game,
    cell: usize,
    r: &InputRules,
    same: SameDigitAgain,
    brush_only: bool,
    fx: &mut Effect,
) {
    let painting = brush_only || (r.order == InputOrder::Both && g.brush.is_some());
    if painting {
        match g.brush {
            Some(Brush::Digit(d)) => enter(g, cell, d, r, same, false, fx),
            Some(Brush::Erase) => erase_cell(g, cell, r, fx),
            None => {}
        }
    } else if g.selected == Some(cell) {
        match r.retap {
            Retap::Nothing => {}
            Retap::Deselect => {
                g.selected = None;
                g.pencil = false;
                fx.changed = true;
            }
            Retap::Pencil => {
                g.pencil = !g.pencil;
                fx.changed = true;
            }
        }
    } else {
        g.selected = Some(cell);
        fx.changed = true;
    }
}

/// A tap on a key with no cell to write: it arms brush `b`, or drops it where tapping the
/// brush's own key does.
fn arm(g: &mut Game, b: Brush, r: &InputRules, fx: &mut Effect) {
    if g.brush == Some(b) {
        if r.retap_brush == BrushRetap::Clear {
            g.brush = None;
            fx.changed = true;
        }
    } else {
        g.brush = Some(b);
        fx.changed = true;
    }
}

/// Whether `cell` holds its solution's digit and the rules lock it.
fn locked(g: &Game, cell: usize, r: &InputRules) -> bool {
    let d = g.board.get(cell);
    r.lock_correct && d != 0 && g.solution.get(cell) == d
}

/// `d` into `cell` (`selected`: through the selection, where pencil mode applies).
fn enter(
    g: &mut Game,
    cell: usize,
    d: u8,
    r: &InputRules,
    same: SameDigitAgain,
    selected: bool,
    fx: &mut Effect,
) {
    if g.is_given(cell) || !(1..=9).contains(&d) || locked(g, cell, r) {
        return;
    }
    let old = g.board.get(cell);
    if selected && g.pencil {
        if old == 0 {
            g.notes[cell] ^= 1 << d;
            fx.changed = true;
        }
        return;
    }
    if old == d {
        match same {
            SameDigitAgain::Reenter => {}
            SameDigitAgain::Nothing => return,
            SameDigitAgain::Clear => return erase_cell(g, cell, r, fx),
            SameDigitAgain::ClearLate => {
                fx.late_clear = Some(cell);
                return;
            }
        }
    }
    if r.refuse_conflicts && repeats(&g.board, cell, d) {
        fx.refused = true;
        fx.mistake = true;
        return;
    }
    g.history.push((cell, old));
    g.board.set(cell, d);
    fx.entered = true;
    fx.changed = true;
    fx.mistake = match r.mistakes {
        Mistakes::None => false,
        Mistakes::Solution => g.solution.get(cell) != d,
        Mistakes::Rules => repeats(&g.board, cell, d),
    };
}

/// Clears `cell` unless it is a given, empty or locked.
fn erase_cell(g: &mut Game, cell: usize, r: &InputRules, fx: &mut Effect) {
    let old = g.board.get(cell);
    if g.is_given(cell) || old == 0 || locked(g, cell, r) {
        return;
    }
    g.history.push((cell, old));
    g.board.set(cell, 0);
    fx.erased = true;
    fx.changed = true;
}

impl Game {
    /// A fresh game of level `n`, if it exists.
    pub fn new(level: u32) -> Option<Game> {
        let givens = *levels::level(level)?;
        let solution = sudoku_autoplay::solver::fast::solve(&givens)?;
        Some(Game::with(level, givens, givens, solution))
    }

    /// What the game screen's header says: `Level 12`, or the difficulty (`Hard`).
    pub fn title(&self) -> String {
        match self.difficulty {
            Some(d) => d.name().to_string(),
            None => format!("Level {}", self.level),
        }
    }

    /// A game of `givens` that has reached `board` (which holds the givens), not one of the
    /// bundled levels; `level` is only its title. Mistakes count against a solution of the
    /// givens, or against `board` when they have none.
    pub(crate) fn custom(level: u32, givens: Board, board: Board) -> Game {
        let solution = sudoku_autoplay::solver::fast::solve(&givens).unwrap_or(board);
        Game::with(level, givens, board, solution)
    }

    /// A game of `givens` at `board`, judged against `solution`: nothing selected, no mistake,
    /// no pencil mark, no brush, no history, in English.
    fn with(level: u32, givens: Board, board: Board, solution: Board) -> Game {
        Game {
            level,
            givens,
            board,
            selected: None,
            solution,
            check: CompletionCheck::Rules,
            mistakes: 0,
            over: false,
            notes: [0; CELLS],
            brush: None,
            pencil: false,
            history: Vec::new(),
            words: &ENGLISH,
            difficulty: None,
        }
    }

    /// True if `cell` holds a given.
    pub(crate) fn is_given(&self, cell: usize) -> bool {
        self.givens.get(cell) != 0
    }

    /// Writes `digit` into the selected cell unless it is a given. True if written.
    pub fn write(&mut self, digit: u8) -> bool {
        match self.selected {
            Some(cell) if !self.is_given(cell) && (1..=9).contains(&digit) => {
                self.board.set(cell, digit);
                true
            }
            _ => false,
        }
    }

    /// Clears the selected cell unless it is a given or empty. True if a digit was removed.
    pub fn erase(&mut self) -> bool {
        match self.selected {
            Some(cell) if !self.is_given(cell) && self.board.get(cell) != 0 => {
                self.board.set(cell, 0);
                true
            }
            _ => false,
        }
    }

    /// How many of `digit` are still to place (none when nine or more are on the board).
    pub fn remaining(&self, digit: u8) -> u8 {
        let placed = (0..CELLS).filter(|&c| self.board.get(c) == digit).count();
        9u8.saturating_sub(placed as u8)
    }

    /// Whether the app takes the board as solved: full, rule-abiding and consistent with the
    /// givens; under [`CompletionCheck::Solution`] also equal to the stored solution.
    pub fn is_solved(&self) -> bool {
        let valid = self.board.is_solved() && self.board.extends(&self.givens);
        match self.check {
            CompletionCheck::Rules => valid,
            CompletionCheck::Solution => valid && self.board == self.solution,
        }
    }

    /// Whether the app marks `cell`'s digit wrong: an entry that differs from the stored
    /// solution, where the app checks against it.
    pub fn wrong(&self, cell: usize) -> bool {
        let d = self.board.get(cell);
        self.check == CompletionCheck::Solution
            && !self.is_given(cell)
            && d != 0
            && d != self.solution.get(cell)
    }

    /// Cells whose digit repeats in one of its units.
    pub fn conflicts(&self) -> [bool; CELLS] {
        let mut out = [false; CELLS];
        for conflict in self.board.conflicts() {
            for c in conflict.cells {
                out[c] = true;
            }
        }
        out
    }

    /// How `cell` is tinted given the selection.
    pub fn highlight(&self, cell: usize) -> Highlight {
        self.highlight_in(cell, Highlights::Related)
    }

    /// How `cell` is tinted given the selection, in an app that tints `which` cells.
    pub(crate) fn highlight_in(&self, cell: usize, which: Highlights) -> Highlight {
        let Some(sel) = self.selected else {
            return Highlight::None;
        };
        let digit = self.board.get(sel);
        if cell == sel {
            Highlight::Selected
        } else if which == Highlights::DigitInk {
            // The cells keep their background; the same digits change ink (see `render`).
            Highlight::None
        } else if which == Highlights::Row {
            if row_of(cell) == row_of(sel) {
                Highlight::Peer
            } else {
                Highlight::None
            }
        } else if which == Highlights::Related && digit != 0 && self.board.get(cell) == digit {
            Highlight::SameDigitAgain
        } else if row_of(cell) == row_of(sel)
            || col_of(cell) == col_of(sel)
            || box_of(cell) == box_of(sel)
        {
            Highlight::Peer
        } else {
            Highlight::None
        }
    }
}

/// What one game tap did, besides the state it changed.
#[derive(Debug, Default)]
pub(super) struct Effect {
    pub(super) changed: bool,
    pub(super) entered: bool,
    pub(super) erased: bool,
    pub(super) mistake: bool,
    pub(super) refused: bool,
    pub(super) late_clear: Option<usize>,
}

/// Whether `d` in `cell` would repeat a digit of its row, column or box.
fn repeats(board: &Board, cell: usize, d: u8) -> bool {
    (0..CELLS).any(|c| {
        c != cell
            && board.get(c) == d
            && (row_of(c) == row_of(cell) || col_of(c) == col_of(cell) || box_of(c) == box_of(cell))
    })
}

/// The digit on each keypad slot (`None`: no key there) and whether it is greyed, under
/// `finished` (re-flowed keys fill the slots in order).
pub fn key_slots(game: &Game, finished: FinishedKeyLook) -> [Option<(u8, bool)>; 9] {
    let done = |d: u8| game.remaining(d) == 0;
    let mut out = [None; 9];
    let mut next = 0;
    for d in 1..=9u8 {
        let slot = d as usize - 1;
        match finished {
            FinishedKeyLook::Shown => out[slot] = Some((d, false)),
            FinishedKeyLook::Hidden if done(d) => {}
            FinishedKeyLook::Hidden => out[slot] = Some((d, false)),
            FinishedKeyLook::Greyed => out[slot] = Some((d, done(d))),
            FinishedKeyLook::Removed if done(d) => {}
            FinishedKeyLook::Removed => {
                out[next] = Some((d, false));
                next += 1;
            }
        }
    }
    out
}

/// The state a game tap writes: only what it changed relative to what it read lands on the
/// current game (a tap that read an old frame overwrites newer changes of the same things).
pub(super) fn merge(g: &mut Game, read: &Game, after: &Game) {
    for c in 0..CELLS {
        if after.board.get(c) != read.board.get(c) {
            g.board.set(c, after.board.get(c));
        }
        if after.notes[c] != read.notes[c] {
            g.notes[c] = after.notes[c];
        }
    }
    if after.selected != read.selected {
        g.selected = after.selected;
    }
    if after.brush != read.brush {
        g.brush = after.brush;
    }
    if after.pencil != read.pencil {
        g.pencil = after.pencil;
    }
    let (n0, n1) = (read.history.len(), after.history.len());
    if n1 > n0 {
        g.history.extend_from_slice(&after.history[n0..]);
    } else {
        let keep = g.history.len().saturating_sub(n0 - n1);
        g.history.truncate(keep);
    }
}
