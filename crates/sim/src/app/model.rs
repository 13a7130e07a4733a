//! The app's state machine: screens, the game in progress, counters. No pixels here.

use super::Key;
use super::levels;
use super::screens::{AppScreen, Hit, LEVELS_PER_PAGE};
use super::style::Highlights;
use sudoku_autoplay::board::{Board, CELLS, box_of, col_of, row_of};

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
    /// The level's solution (levels have exactly one), to count mistakes.
    pub solution: Board,
    /// Digits written that differ from the solution (every one counts, like popular apps).
    pub mistakes: u32,
    /// The app ended this game (`--mistake-limit`): it cannot be continued.
    pub over: bool,
    /// Pencil marks: bit `d` of `notes[cell]` marks digit `d` (1..=9) in an empty cell. Taps
    /// never write them; a scene drawn for a test may (`super::scene`).
    pub notes: [u16; CELLS],
}

/// How a cell relates to the selection, for tinting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Highlight {
    None,
    /// Same row, column or box as the selected cell.
    Peer,
    /// Holds the same digit as the selected cell.
    SameDigit,
    Selected,
}

impl Game {
    /// A fresh game of level `n`, if it exists.
    pub fn new(level: u32) -> Option<Game> {
        let givens = *levels::level(level)?;
        Some(Game {
            level,
            givens,
            board: givens,
            selected: None,
            solution: sudoku_autoplay::solver::fast::solve(&givens)?,
            mistakes: 0,
            over: false,
            notes: [0; CELLS],
        })
    }

    /// A game of `givens` that has reached `board` (which holds the givens), not one of the
    /// bundled levels; `level` is only its title. Mistakes count against a solution of the
    /// givens, or against `board` when they have none.
    pub(crate) fn custom(level: u32, givens: Board, board: Board) -> Game {
        Game {
            level,
            givens,
            board,
            selected: None,
            solution: sudoku_autoplay::solver::fast::solve(&givens).unwrap_or(board),
            mistakes: 0,
            over: false,
            notes: [0; CELLS],
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

    /// Full, rule-abiding and consistent with the givens.
    pub fn is_solved(&self) -> bool {
        self.board.is_solved() && self.board.extends(&self.givens)
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
        } else if which == Highlights::Row {
            if row_of(cell) == row_of(sel) {
                Highlight::Peer
            } else {
                Highlight::None
            }
        } else if which == Highlights::Related && digit != 0 && self.board.get(cell) == digit {
            Highlight::SameDigit
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

/// Everything the app remembers.
#[derive(Debug, Clone)]
pub struct Model {
    pub screen: AppScreen,
    /// Level list page, 0-based.
    pub page: usize,
    pub game: Option<Game>,
    /// Whether the "Rate this app" popup is showing.
    pub popup: bool,
    popup_after: Option<u64>,
    popup_shown: bool,
    /// End the game after this many mistakes (`None`: never).
    mistake_limit: Option<u32>,
    /// Levels solved (index = level - 1).
    pub completed: Vec<bool>,
    pub taps: u64,
    pub dropped_taps: u64,
    /// Taps eaten by the popup.
    pub swallowed_taps: u64,
    pub digits_entered: u64,
    pub erasures: u64,
}

impl Model {
    /// The app at its home screen.
    pub fn new(popup_after: Option<u64>, mistake_limit: Option<u32>) -> Self {
        Model {
            screen: AppScreen::Home,
            page: 0,
            game: None,
            popup: false,
            popup_after,
            popup_shown: false,
            mistake_limit,
            completed: vec![false; levels::LEVEL_COUNT],
            taps: 0,
            dropped_taps: 0,
            swallowed_taps: 0,
            digits_entered: 0,
            erasures: 0,
        }
    }

    /// Number of level-list pages.
    pub fn pages() -> usize {
        levels::LEVEL_COUNT.div_ceil(LEVELS_PER_PAGE)
    }

    /// Counts a received tap (`dropped`: lost before reaching the app).
    pub(crate) fn count_tap(&mut self, dropped: bool) {
        self.taps += 1;
        if dropped {
            self.dropped_taps += 1;
        }
    }

    /// Opens the popup if the tap threshold has been reached. True if it opened now.
    pub(crate) fn maybe_popup(&mut self) -> bool {
        match self.popup_after {
            Some(n) if !self.popup_shown && self.taps >= n => {
                self.popup_shown = true;
                self.popup = true;
                true
            }
            _ => false,
        }
    }

    /// Applies a tap that hit `target` (or nothing). True if anything visible changed.
    pub fn tap(&mut self, target: Option<Hit>) -> bool {
        match target {
            Some(Hit::NavBack) => return self.key(Key::Back),
            Some(Hit::NavHome) => return false,
            _ => {}
        }
        if self.popup {
            self.swallowed_taps += 1;
            return false;
        }
        let Some(target) = target else {
            return false;
        };
        match (self.screen, target) {
            (AppScreen::Home, Hit::Play) => {
                if self
                    .game
                    .as_ref()
                    .is_some_and(|g| !g.is_solved() && !g.over)
                {
                    self.screen = AppScreen::Game;
                    true
                } else {
                    self.open(self.next_unsolved())
                }
            }
            (AppScreen::Home, Hit::LevelList) => {
                self.show_levels();
                true
            }
            (AppScreen::Levels, Hit::LevelSlot(slot)) => {
                let n = self.page * LEVELS_PER_PAGE + slot + 1;
                self.open(n as u32)
            }
            (AppScreen::Levels, Hit::PrevPage) if self.page > 0 => {
                self.page -= 1;
                true
            }
            (AppScreen::Levels, Hit::NextPage) if self.page + 1 < Self::pages() => {
                self.page += 1;
                true
            }
            (AppScreen::Levels | AppScreen::Game, Hit::Back) => self.key(Key::Back),
            (AppScreen::Game, Hit::Cell(cell)) => match &mut self.game {
                Some(g) if g.selected != Some(cell) => {
                    g.selected = Some(cell);
                    true
                }
                _ => false,
            },
            (AppScreen::Game, Hit::Digit(d)) => {
                let Some(g) = &mut self.game else {
                    return false;
                };
                if !g.write(d) {
                    return false;
                }
                self.digits_entered += 1;
                let wrong = g.selected.is_some_and(|c| g.solution.get(c) != d);
                if wrong {
                    g.mistakes += 1;
                    if self.mistake_limit.is_some_and(|n| g.mistakes >= n) {
                        g.over = true;
                        g.selected = None;
                        self.screen = AppScreen::GameOver;
                        return true;
                    }
                }
                if g.is_solved() {
                    let level = g.level as usize;
                    if let Some(done) = self.completed.get_mut(level - 1) {
                        *done = true;
                    }
                    self.screen = AppScreen::Complete;
                }
                true
            }
            (AppScreen::Game, Hit::Erase) => {
                let erased = self.game.as_mut().is_some_and(|g| g.erase());
                if erased {
                    self.erasures += 1;
                }
                erased
            }
            (AppScreen::Complete, Hit::DialogNext) => {
                let next = self.game.as_ref().map_or(1, |g| g.level + 1);
                self.open(next)
            }
            (AppScreen::Complete | AppScreen::GameOver, Hit::DialogHome) => {
                self.screen = AppScreen::Home;
                true
            }
            (AppScreen::GameOver, Hit::DialogRetry) => {
                let level = self.game.as_ref().map_or(1, |g| g.level);
                self.open(level)
            }
            _ => false,
        }
    }

    /// A hardware key (or the navigation bar). True if anything visible changed.
    pub fn key(&mut self, key: Key) -> bool {
        match key {
            Key::Back if self.popup => {
                self.popup = false;
                true
            }
            Key::Back => match self.screen {
                AppScreen::Home => false,
                AppScreen::Levels => {
                    self.screen = AppScreen::Home;
                    true
                }
                AppScreen::Game | AppScreen::Complete | AppScreen::GameOver => {
                    self.show_levels();
                    true
                }
            },
            // HOME, power and wake keys belong to the system around the app (`hazards`).
            _ => false,
        }
    }

    /// `am start ... --ei level N`.
    pub fn start_level(&mut self, n: u32) -> Result<(), String> {
        if self.open(n) {
            Ok(())
        } else {
            Err(format!(
                "level {n} does not exist (levels are 1..={})",
                levels::LEVEL_COUNT
            ))
        }
    }

    /// Opens a fresh game of level `n`; false if there is no such level.
    fn open(&mut self, n: u32) -> bool {
        match Game::new(n) {
            Some(g) => {
                self.game = Some(g);
                self.screen = AppScreen::Game;
                true
            }
            None => false,
        }
    }

    /// The level list, on the page of the current level.
    fn show_levels(&mut self) {
        if let Some(g) = &self.game {
            self.page = (g.level as usize - 1) / LEVELS_PER_PAGE;
        }
        self.screen = AppScreen::Levels;
    }

    /// The first level not yet solved (level 1 if all are).
    pub(crate) fn next_unsolved(&self) -> u32 {
        self.completed
            .iter()
            .position(|&done| !done)
            .map_or(1, |i| i as u32 + 1)
    }
}
