//! The app's settings and realism knobs (`autoplay sim`'s flags), all off by default.

use crate::app::hazards::HazardOptions;
use crate::app::palette::{self, Theme};
use crate::app::rules;
use crate::app::style::{self, KeypadStyle};

/// The app's package and activity, for `am start -n PACKAGE/ACTIVITY --ei level N`.
pub const PACKAGE: &str = "org.autoplay.sudoku";
pub const ACTIVITY: &str = ".GameActivity";

/// App settings and realism knobs (all off by default).
#[derive(Debug, Clone, Default)]
pub struct AppOptions {
    pub theme: Theme,
    /// The keypad layout, unless the style has its own.
    pub keypad: KeypadStyle,
    /// How the app looks (`--style`): givens, grid, keys, erase.
    pub style: style::Style,
    /// Seeds dropped taps and the status-bar clock (frames are reproducible for a seed).
    pub seed: u64,
    /// Show digits that break a rule in red.
    pub show_conflicts: bool,
    /// Probability that a tap is silently lost (seeded by `seed`).
    pub drop_taps: f64,
    /// After this many taps a "Rate this app" dialog appears and swallows taps until BACK.
    pub popup_after: Option<u64>,
    /// The game ends ("Game over", the board gone) after this many wrong digits.
    pub mistake_limit: Option<u32>,
    /// The phone around the app: background, screen off, lock screen.
    pub hazards: HazardOptions,
    /// Colours instead of the style's or the theme's (tests: faint lines).
    pub palette: Option<palette::Palette>,
    /// How the app takes taps (`--input-rules` and the rules' flags).
    pub rules: rules::InputRules,
    /// The level list is one scrolling list (as most real apps have it) instead of pages.
    pub scrolling_levels: bool,
    /// The app's package (`None`: [`PACKAGE`]): another app on the same phone (`--package`).
    pub package: Option<String>,
    /// Levels have more than one solution: the app blanks cells of its grid at random
    /// (`--several-solutions`, [`super::ambiguous`]).
    pub several_solutions: bool,
    /// A coach mark (a dimming overlay with a thick gesture stroke across the board) covers the
    /// first game the app opens, until a tap anywhere or BACK (`--cover`).
    pub cover: bool,
    /// The app has no numbered levels: New Game, a sheet of difficulties, Continue, "Start a
    /// new game?", a result screen (`--new-games`, [`super::new_games`]).
    pub new_games: bool,
    /// A full-screen ad after every completed game and a banner under the board (`--ads`,
    /// [`super::ads`]).
    pub ads: bool,
}

impl AppOptions {
    /// The app's package name.
    pub fn package(&self) -> &str {
        self.package.as_deref().unwrap_or(PACKAGE)
    }

    /// The keypad layout shown: the style's, else `keypad`.
    pub fn keypad(&self) -> KeypadStyle {
        self.style.keypad.unwrap_or(self.keypad)
    }

    /// The colours drawn with: `palette`, else the style's for the theme, else the theme's.
    pub fn palette(&self) -> &palette::Palette {
        match (&self.palette, self.style.palettes) {
            (Some(p), _) => p,
            (None, Some(p)) => &p[(self.theme == Theme::Dark) as usize],
            (None, None) => palette::Palette::of(self.theme),
        }
    }
}
