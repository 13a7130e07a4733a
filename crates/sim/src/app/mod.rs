//! The Sudoku app running on the simulated phone: screens, game rules, rendering.
//!
//! CONTRACT (used by `sim::shell`): the methods of [`Phone`] below.
//!
//! Files, each importing only files below it (`tests/layering.rs` checks it): at the bottom
//! `geometry` (`Rect`), `palette` (themes and colours), `keys` (hardware keys) and `levels`;
//! over them `canvas` and `font` (raster primitives), `style` (how other apps draw: `--style`),
//! `rules` (how the app takes taps), [`screens`] (screen and target enums, [`screens::layout`]
//! geometry and hit testing), `hazards` (the phone around the app) and `options` (the app's
//! settings, `AppOptions`); then `game` (one level being played, and what a tap does to it
//! under the rules), `model` (the app's screens around it: state machine, no pixels), `render` (drawing),
//! `a11y` (`uiautomator dump`), [`scene`] (a game screen drawn from a given position without
//! playing to it: the vision tests' synthetic screenshots); this file, the [`Phone`], over all
//! of them; and [`corpus`] (screenshots with ground truth for the vision code) on top.
//!
//! There is one renderer: the vision tests and benches draw their screens with it, through
//! [`scene::draw`] and the raster primitives of [`canvas`] and [`font`].

pub(crate) mod a11y;
pub mod ads;
pub mod ambiguous;
pub mod canvas;
pub mod corpus;
pub mod font;
pub(crate) mod game;
pub mod geometry;
pub mod hazards;
pub mod keys;
pub mod levels;
pub(crate) mod model;
mod new_game_flow;
pub mod new_games;
#[cfg(test)]
mod new_games_tests;
pub mod options;
pub mod palette;
#[cfg(test)]
mod real_apps_tests;
mod render;
pub mod rules;
#[cfg(test)]
mod rules_tests;
pub mod scene;
pub mod screens;
mod seeds;
pub mod style;
#[cfg(test)]
mod tests;

pub use keys::Key;
pub use options::{ACTIVITY, AppOptions, PACKAGE};
pub use palette::Theme;
pub use style::KeypadStyle;

use crate::profile::Profile;
use hazards::{Shown, System};
use image::RgbaImage;
use model::Model;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use render::{Clock, Renderer};
use screens::layout::ScreenLayout;
use std::time::{Duration, Instant};
use sudoku_autoplay::board::CELLS;

/// Swipes shorter than this (dp) are taps, like Android's touch slop.
const TOUCH_SLOP_DP: f32 = 8.0;
/// Horizontal swipes longer than this (dp) turn level-list pages.
const PAGE_SWIPE_DP: f32 = 48.0;
/// The status-bar clock advances one minute per this many taps.
const TAPS_PER_MINUTE: u64 = 1000;
/// How long a dialog takes to appear: Android's `dialog_enter` window animation fades it (and
/// the dim behind it) in over `config_shortAnimTime`, 200 ms, decelerating (AOSP
/// `core/res/res/anim/dialog_enter.xml`, `values/config.xml`). Its 0.9-to-1 scale is left out.
const DIALOG_ENTER: Duration = Duration::from_millis(200);

/// `frame` as `alpha` of it over `under` (both the same size), pixel by pixel.
fn blend_over(frame: &mut RgbaImage, under: &RgbaImage, alpha: f32) {
    if frame.dimensions() != under.dimensions() {
        return;
    }
    let a = (alpha.clamp(0.0, 1.0) * 256.0) as u32;
    for (f, u) in frame.as_mut().iter_mut().zip(under.as_raw()) {
        *f = ((u32::from(*f) * a + u32::from(*u) * (256 - a)) >> 8) as u8;
    }
}

/// The phone's app state. Coordinates are display pixels.
pub struct Phone {
    profile: Profile,
    options: AppOptions,
    layout: ScreenLayout,
    model: Model,
    system: System,
    renderer: Renderer,
    rng: ChaCha8Rng,
    /// Minutes after midnight at tap 0, and the battery level, from the seed.
    clock_start: u32,
    battery: u8,
    /// The last frame (its buffer is reused) and the clock it shows; `None` once the state
    /// changed.
    frame: RgbaImage,
    frame_clock: Option<Clock>,
    /// Times the frame was drawn anew (a recording takes a frame when this moved).
    renders: u64,
    /// When the dialog in front (an end of game, a popup, an alert) was shown, while it fades in.
    dialog_since: Option<Instant>,
    swipes: u64,
    screenshots: u64,
}

impl Phone {
    /// A phone showing the app's home screen.
    pub fn new(profile: Profile, mut options: AppOptions) -> Self {
        if options.rules.erase == rules::EraseRule::Absent {
            options.style.erase = style::EraseKey::None;
        }
        let mut layout = ScreenLayout::new(&profile, options.keypad(), &options.style);
        layout.apply_rules(&options.rules, &options.style);
        let mix = model::splitmix(options.seed);
        let mut model = Model::new(options.popup_after, options.mistake_limit);
        model.set_rules(options.rules, &options.style, options.seed);
        model.scroll = options.scrolling_levels.then_some(0);
        model.several_solutions = options.several_solutions;
        model.cover = options.cover;
        model.new_games = options.new_games.then(new_games::NewGames::default);
        model.ads = options.ads.then(ads::Ads::default);
        Phone {
            renderer: Renderer::new(&layout),
            layout,
            model,
            system: System::new(options.hazards),
            rng: ChaCha8Rng::seed_from_u64(options.seed),
            clock_start: (mix % (24 * 60)) as u32,
            battery: 30 + ((mix >> 32) % 71) as u8,
            frame: RgbaImage::new(0, 0),
            frame_clock: None,
            renders: 0,
            dialog_since: None,
            swipes: 0,
            screenshots: 0,
            profile,
            options,
        }
    }

    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    pub fn options(&self) -> &AppOptions {
        &self.options
    }

    /// The geometry of the screens: for tests, and for `dumpsys window`'s system bars (the
    /// player must find the board and keypad from screenshots).
    pub fn layout(&self) -> &ScreenLayout {
        &self.layout
    }

    /// The app's state (read-only), for tests.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The system around the app (display, lock screen, launcher), for tests.
    pub fn system(&self) -> &System {
        &self.system
    }

    /// A tap at display pixel (x, y). With `drop_taps` = p, a tap is lost with probability p.
    /// Taps on a dark screen or the lock screen do nothing; on the launcher, only the app's icon
    /// does something.
    pub fn tap(&mut self, x: i32, y: i32) {
        self.tap_at(x, y, Instant::now());
    }

    /// A tap the app handles at `at` (the input dispatcher's time; rules that read the last
    /// drawn frame or clear late depend on it).
    pub fn tap_at(&mut self, x: i32, y: i32, at: Instant) {
        let before = self.model.dialog_up();
        self.handle_tap(x, y, at);
        self.note_dialog(before, at);
    }

    /// A dialog that came up at `at` starts fading in; a tap that opened an ad's store page
    /// brings that app to the front.
    fn note_dialog(&mut self, before: bool, at: Instant) {
        if !before && self.model.dialog_up() {
            self.dialog_since = Some(at);
        }
        let opened = self
            .model
            .ads
            .as_mut()
            .is_some_and(|a| std::mem::take(&mut a.store_requested));
        if opened && self.system.open_store() {
            self.frame_clock = None;
        }
    }

    fn handle_tap(&mut self, x: i32, y: i32, at: Instant) {
        let p = self.options.drop_taps;
        let dropped = p > 0.0 && self.rng.random::<f64>() < p;
        self.model.count_tap(dropped);
        let mut changed = self.system.tick();
        match self.system.shown() {
            Shown::App => {
                if !dropped {
                    let m = &self.model;
                    let level = (m.screen == screens::AppScreen::Levels && !m.popup)
                        .then(|| self.layout.level_at(m.page, m.scroll, x, y))
                        .flatten();
                    let hit = if let Some(ad) = m.ad_showing() {
                        self.layout.hit_ad(ad.closable(at), ad.right, x, y)
                    } else if m.alert && !m.popup {
                        self.layout.hit_alert(x, y)
                    } else if let Some(n) = level {
                        Some(screens::Hit::Level(n))
                    } else {
                        self.layout.hit(m.screen, m.popup, x, y)
                    };
                    changed |= match hit {
                        Some(screens::Hit::NavHome) => self.system.go_home(),
                        target => self.model.tap_at(target, at),
                    };
                }
                changed |= self.model.maybe_popup();
                changed |= self.system.after_app_tap(self.model.taps);
            }
            Shown::Launcher if !dropped => changed |= self.system.launcher_tap(&self.layout, x, y),
            _ => self.system.ignored_taps += 1,
        }
        self.system.input();
        if changed {
            self.frame_clock = None;
        }
    }

    /// A swipe; short swipes act as taps, long horizontal ones turn level-list pages.
    pub fn swipe(&mut self, x1: i32, y1: i32, x2: i32, y2: i32, _duration_ms: u32) {
        let (dx, dy) = ((x2 - x1) as f32, (y2 - y1) as f32);
        let dp = self.layout.dp;
        if dx.hypot(dy) < TOUCH_SLOP_DP * dp {
            return self.tap(x1, y1);
        }
        self.swipes += 1;
        let mut changed = self.system.tick();
        match self.system.shown() {
            Shown::App => {}
            Shown::Keyguard { .. } => {
                changed |= self.system.keyguard_swipe(y2 - y1, self.layout.height)
            }
            _ => {}
        }
        self.system.input();
        if changed {
            self.frame_clock = None;
        }
        if self.system.shown() != Shown::App {
            return;
        }
        let on_list = !self.model.popup && self.model.screen == screens::AppScreen::Levels;
        if let (true, Some(scroll)) = (on_list && dy.abs() > dx.abs(), self.model.scroll) {
            // A scrolling list follows the finger.
            let to = (scroll - dy as i32).clamp(0, self.layout.max_scroll());
            self.model.scroll = Some(to);
            if to != scroll {
                self.frame_clock = None;
            }
            return;
        }
        let page_turn = dx.abs() > dy.abs() && dx.abs() > PAGE_SWIPE_DP * dp;
        if page_turn && on_list {
            let target = if dx < 0.0 {
                screens::Hit::NextPage
            } else {
                screens::Hit::PrevPage
            };
            if self.model.tap(Some(target)) {
                self.frame_clock = None;
            }
        }
    }

    /// A hardware key: BACK is the app's (when it is in front), the others the system's.
    pub fn key(&mut self, key: Key) {
        let before = self.model.dialog_up();
        let mut changed = self.system.tick();
        changed |= match self.system.key(key) {
            Some(c) => c,
            None => self.system.shown() == Shown::App && self.model.key(key),
        };
        self.system.input();
        if changed {
            self.frame_clock = None;
        }
        self.note_dialog(before, Instant::now());
    }

    /// `am start ... --ei level N`: opens the game screen on level N (1-based), in front.
    pub fn start_level(&mut self, level: u32) -> Result<(), String> {
        self.model.start_level(level)?;
        self.system.bring_to_front();
        self.frame_clock = None;
        Ok(())
    }

    /// `am start -n PACKAGE/ACTIVITY` without a level, `monkey -p PACKAGE 1`, or the launcher
    /// icon: the app's task comes to the front as it was.
    pub(crate) fn bring_to_front(&mut self) {
        if self.system.bring_to_front() {
            self.frame_clock = None;
        }
    }

    /// `uiautomator dump`: the window in front as XML; `None` when the display is off.
    pub(crate) fn ui_dump(&mut self) -> Option<String> {
        self.tick();
        let clock = self.clock();
        let clock = format!("{:02}:{:02}", clock.hour, clock.minute);
        let shown = self.system.shown();
        a11y::dump(
            &self.model,
            &self.layout,
            shown,
            &clock,
            self.options.package(),
        )
    }

    /// Lets time pass (the display may turn off, late clears fall due).
    pub(crate) fn tick(&mut self) {
        self.tick_at(Instant::now());
    }

    /// Lets time pass to `now`.
    pub(crate) fn tick_at(&mut self, now: Instant) {
        if self.system.tick() | self.model.advance(now) {
            self.frame_clock = None;
        }
    }

    /// The window with input focus, as `dumpsys window` names it: `PACKAGE/ACTIVITY`, or
    /// `NotificationShade` for the lock screen.
    pub fn focus(&mut self) -> String {
        self.tick();
        if self.system.keyguard_showing() {
            "NotificationShade".into()
        } else if !self.system.foreground() {
            format!(
                "{}/{}",
                hazards::LAUNCHER_PACKAGE,
                hazards::LAUNCHER_ACTIVITY
            )
        } else if self.system.shown() == Shown::Store {
            format!("{}/.AssetBrowserActivity", ads::STORE_PACKAGE)
        } else if self.model.ad_showing().is_some() {
            format!("{}/{}", self.options.package(), ads::AD_ACTIVITY)
        } else {
            let package = self.options.package();
            format!("{package}/{package}{ACTIVITY}")
        }
    }

    /// The status bar's clock now.
    fn clock(&self) -> Clock {
        let minutes = (self.clock_start as u64 + self.model.taps / TAPS_PER_MINUTE) % (24 * 60);
        Clock {
            hour: (minutes / 60) as u8,
            minute: (minutes % 60) as u8,
            battery: self.battery,
        }
    }

    /// The current screen, `width x height` RGBA (rendered only when something changed).
    pub fn screenshot(&mut self) -> RgbaImage {
        self.frame().clone()
    }

    /// Like [`Phone::screenshot`] without the copy: a view of the current frame.
    pub fn frame(&mut self) -> &RgbaImage {
        self.screenshots += 1;
        self.draw();
        &self.frame
    }

    /// The screen as a recording's virtual display gets it: a copy of the frame when it was
    /// drawn anew since `seen` (the draw a recording last got, updated), else `None`.
    pub fn changed_frame(&mut self, seen: &mut u64) -> Option<RgbaImage> {
        self.draw();
        (*seen != self.renders).then(|| {
            *seen = self.renders;
            self.frame.clone()
        })
    }

    /// Draws the frame again where something changed since it was drawn, or while a dialog
    /// fades in.
    fn draw(&mut self) {
        self.tick();
        let clock = self.clock();
        let fading = self.fading();
        if self.frame_clock != Some(clock) || fading.is_some() {
            self.renderer.render(
                &mut self.frame,
                &self.model,
                &self.layout,
                &self.options,
                clock,
            );
            if let Some(alpha) = fading {
                let mut under = RgbaImage::new(0, 0);
                let model = self.model.without_dialog();
                let (l, o) = (&self.layout, &self.options);
                self.renderer.render(&mut under, &model, l, o, clock);
                blend_over(&mut self.frame, &under, alpha);
            }
            let text = format!("{:02}:{:02}", clock.hour, clock.minute);
            self.system.paint(&mut self.frame, &self.layout, &text);
            self.frame_clock = Some(clock);
            self.renders += 1;
        }
    }

    /// How far the dialog in front has faded in (0 to 1, decelerating), while it does.
    fn fading(&mut self) -> Option<f32> {
        let since = self.dialog_since?;
        let t = since.elapsed().as_secs_f32() / DIALOG_ENTER.as_secs_f32();
        if t >= 1.0 || !self.model.dialog_up() {
            self.dialog_since = None;
            // The last step of the fade: the dialog as it stays.
            self.frame_clock = None;
            return None;
        }
        Some(1.0 - (1.0 - t) * (1.0 - t))
    }

    /// `dumpsys sudoku`: the app's state as JSON.
    pub fn dumpsys(&self) -> serde_json::Value {
        let mut state = serde_json::Map::new();
        for part in [self.game_json(), self.rules_json(), self.phone_json()] {
            if let serde_json::Value::Object(fields) = part {
                state.extend(fields);
            }
        }
        serde_json::Value::Object(state)
    }

    /// [`Phone::dumpsys`]'s game: the screen, the board and what was done to it.
    fn game_json(&self) -> serde_json::Value {
        let m = &self.model;
        let game = m.game.as_ref();
        let line = |b: Option<&sudoku_autoplay::board::Board>| b.map(|b| b.to_line());
        let screen = if m.ad_showing().is_some() {
            "ad"
        } else if m.popup {
            "popup"
        } else if m.alert {
            "alert"
        } else {
            m.screen.name()
        };
        let completed: Vec<usize> = (0..m.completed.len())
            .filter(|&i| m.completed[i])
            .map(|i| i + 1)
            .collect();
        let conflicts: Vec<usize> = game
            .map(|g| {
                let bad = g.conflicts();
                (0..bad.len()).filter(|&c| bad[c]).collect()
            })
            .unwrap_or_default();
        serde_json::json!({
            "package": self.options.package(),
            "screen": screen,
            "under_popup": (m.popup || m.alert).then(|| m.screen.name()),
            "level": game.map(|g| g.level),
            "levels": levels::LEVEL_COUNT,
            "board": line(game.map(|g| &g.board)),
            "givens": line(game.map(|g| &g.givens)),
            "selected": game.and_then(|g| g.selected),
            "solved": game.is_some_and(|g| g.is_solved()),
            "conflicts": conflicts,
            "completed": completed,
            "page": m.page + 1,
            "pages": Model::pages(),
            "taps": m.taps,
            "dropped_taps": m.dropped_taps,
            "swallowed_taps": m.swallowed_taps,
            "swipes": self.swipes,
            "digits_entered": m.digits_entered,
            "erasures": m.erasures,
            "screenshots": self.screenshots,
            "mistakes": game.map(|g| g.mistakes),
            "difficulty": game.and_then(|g| g.difficulty).map(new_games::Difficulty::name),
            "games_won": m.games_won(),
            "ad_opens": m.ads.as_ref().map(|a| a.opens),
            "ad": m.ad_showing().is_some(),
        })
    }

    /// [`Phone::dumpsys`]'s app options and input rules, and where the game stands by them.
    fn rules_json(&self) -> serde_json::Value {
        let m = &self.model;
        let game = m.game.as_ref();
        serde_json::json!({
            "theme": self.options.theme.name(),
            "keypad": self.options.keypad().name(),
            "style": self.options.style.name,
            "show_conflicts": self.options.show_conflicts,
            "drop_taps": self.options.drop_taps,
            "popup_after": self.options.popup_after,
            "mistake_limit": self.options.mistake_limit,
            "rules": self.options.rules.json(&self.options.style),
            "wrong": game.map(|g| (0..CELLS).filter(|&c| g.wrong(c)).collect::<Vec<_>>()),
            "covered": m.covered,
            "several_solutions": self.options.several_solutions,
            "brush": game.and_then(|g| g.brush).map(|b| match b {
                game::Brush::Digit(d) => serde_json::json!(d),
                game::Brush::Erase => serde_json::json!("erase"),
            }),
            "pencil": game.is_some_and(|g| g.pencil),
            "undo_depth": game.map(|g| g.history.len()),
            "end_title": game.and_then(|g| {
                let title = match m.screen {
                    screens::AppScreen::GameOver => g.words.over_title,
                    screens::AppScreen::Complete => g.words.complete_title,
                    _ => return None,
                };
                Some(rules::fill(title, g.level, g.mistakes))
            }),
        })
    }

    /// [`Phone::dumpsys`]'s phone: its display, lock screen, profile and clock.
    fn phone_json(&self) -> serde_json::Value {
        let clock = self.clock();
        serde_json::json!({
            "foreground": self.system.foreground(),
            "display": if self.system.awake() { "on" } else { "off" },
            "keyguard": self.system.keyguard_showing(),
            "lock_screen": self.system.options().lock_screen.name(),
            "ignored_taps": self.system.ignored_taps,
            "screen_offs": self.system.screen_offs,
            "backgrounds": self.system.backgrounds,
            "profile": self.profile.name,
            "density": self.profile.applied_density(),
            "width": self.profile.display_size().0,
            "height": self.profile.display_size().1,
            "rotation": u32::from(self.profile.rotation) * 90,
            "clock": format!("{:02}:{:02}", clock.hour, clock.minute),
        })
    }
}
