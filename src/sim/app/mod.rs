//! The Sudoku app running on the simulated phone: screens, game rules, rendering.
//!
//! CONTRACT (used by `sim::shell`): the methods of [`Phone`] below. Everything else is private.
//! This first version is a placeholder with the final API; see issue 3.

pub mod levels;

use super::profile::Profile;
use image::RgbaImage;

/// The app's package and activity, for `am start -n PACKAGE/ACTIVITY --ei level N`.
pub const PACKAGE: &str = "org.autoplay.sudoku";
pub const ACTIVITY: &str = ".GameActivity";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Theme {
    #[default]
    Light,
    Dark,
}

/// Keypad layouts: one row of 1..9 with erase below, or two rows of five with erase (like OpenSudoku).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Keypad {
    #[default]
    Row,
    TwoRows,
}

/// Hardware keys for `input keyevent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Back,
    Home,
}

/// App settings and realism knobs (all off by default).
#[derive(Debug, Clone, Default)]
pub struct AppOptions {
    pub theme: Theme,
    pub keypad: Keypad,
    pub seed: u64,
    /// Show digits that break a rule in red.
    pub show_conflicts: bool,
    /// Probability that a tap is silently lost (seeded by `seed`).
    pub drop_taps: f64,
    /// After this many taps a "Rate this app" dialog appears and swallows taps until BACK.
    pub popup_after: Option<u64>,
}

/// The phone's app state. Coordinates are display pixels.
pub struct Phone {
    profile: Profile,
    options: AppOptions,
    taps: u64,
}

impl Phone {
    pub fn new(profile: Profile, options: AppOptions) -> Self {
        Phone {
            profile,
            options,
            taps: 0,
        }
    }
    pub fn profile(&self) -> &Profile {
        &self.profile
    }
    pub fn options(&self) -> &AppOptions {
        &self.options
    }
    /// A tap at display pixel (x, y).
    pub fn tap(&mut self, _x: i32, _y: i32) {
        self.taps += 1;
    }
    /// A swipe; short swipes act as taps.
    pub fn swipe(&mut self, x1: i32, y1: i32, _x2: i32, _y2: i32, _duration_ms: u32) {
        self.tap(x1, y1)
    }
    /// A hardware key.
    pub fn key(&mut self, _key: Key) {}
    /// `am start ... --ei level N`: opens the game screen on level N (1-based).
    pub fn start_level(&mut self, level: u32) -> Result<(), String> {
        Err(format!("level {level} does not exist"))
    }
    /// The current screen, `width x height` RGBA.
    pub fn screenshot(&mut self) -> RgbaImage {
        RgbaImage::new(self.profile.width, self.profile.height)
    }
    /// `dumpsys sudoku`: the app's state as JSON.
    pub fn dumpsys(&self) -> serde_json::Value {
        serde_json::json!({ "taps": self.taps })
    }
}
