//! The app's screens and the things on them a tap can hit.

pub mod layout;

/// Which screen is showing (the "Rate this app" popup is an overlay, see `super::model::Model`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AppScreen {
    /// Title with Play and Levels buttons.
    Home,
    /// Numbered level buttons in pages.
    Levels,
    /// The board, keypad and erase button.
    Game,
    /// The "Level N complete" dialog over the solved board.
    Complete,
    /// The "Game over" dialog after too many mistakes (`--mistake-limit`); the board is gone
    /// (other forms: `super::rules::EndForm`).
    GameOver,
    /// An app without levels (`--new-games`): the sheet of difficulties over the home screen.
    Sheet,
    /// An app without levels: "Start a new game?" over the home screen, before a game in
    /// progress is thrown away.
    Confirm,
}

impl AppScreen {
    /// The name `dumpsys` reports.
    pub fn name(self) -> &'static str {
        match self {
            AppScreen::Home => "home",
            AppScreen::Levels => "levels",
            AppScreen::Game => "game",
            AppScreen::Complete => "complete",
            AppScreen::GameOver => "game_over",
            AppScreen::Sheet => "difficulty",
            AppScreen::Confirm => "confirm",
        }
    }
}

/// A tappable element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hit {
    /// Home: Play (resume or next unsolved level).
    Play,
    /// Home: open the level list.
    LevelList,
    /// Level list: the button of level index `n` (0-based).
    Level(usize),
    PrevPage,
    NextPage,
    /// The app bar's back arrow.
    Back,
    /// Game: a board cell, 0..81 row-major.
    Cell(usize),
    /// Game: a keypad digit 1..=9.
    Digit(u8),
    /// Game: the erase key.
    Erase,
    /// Game: the undo key (`--undo-key`).
    Undo,
    /// The refusal alert's OK button (`--refuse-conflicts`).
    AlertOk,
    /// Completion dialog: Next level.
    DialogNext,
    /// Completion and game-over dialogs: Home.
    DialogHome,
    /// Game-over dialog: play the level again from its givens.
    DialogRetry,
    /// Home of an app without levels: New Game (the sheet of difficulties) and Continue.
    NewGame,
    Continue,
    /// The sheet: difficulty `i` (0 = the easiest), and Cancel.
    Difficulty(usize),
    SheetCancel,
    /// "Start a new game?": Start (the game in progress is thrown away) and Cancel.
    ConfirmStart,
    ConfirmCancel,
    /// A full-screen ad (`--ads`): its close control, and its body (which opens a store page).
    AdClose,
    AdBody,
    /// The banner ad under the board (opens a store page).
    Banner,
    /// The system navigation bar's back, home and recents buttons.
    NavBack,
    NavHome,
    NavRecents,
}

/// Level buttons per page of the level list (4 columns x 5 rows).
pub const LEVELS_PER_PAGE: usize = 20;
/// Columns of the level list grid.
pub const LEVEL_COLUMNS: usize = 4;
