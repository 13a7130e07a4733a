//! The phone around the app, and what it does to a long run: the display turns off after idle
//! time (`--screen-off-after`, then a lock screen, `--lock-screen`), and the app goes to the
//! background (`--background-after`: the launcher is in front). The app's own hazard, the
//! mistake limit, is in `super::model`.
//!
//! Like a real phone: taps on a dark screen or on the lock screen do nothing, `KEYCODE_WAKEUP`
//! turns the display on, a swipe up dismisses a plain lock screen but only shows the PIN pad of
//! a secured one, and the launcher's "Sudoku" icon (or `am start` / `monkey`) brings the app
//! back as it was.

use super::canvas::Canvas;
use super::font::{Face, Text};
use super::geometry::Rect;
use super::keys::Key;
use super::screens::layout::ScreenLayout;
use image::RgbaImage;
use std::time::{Duration, Instant};

/// The lock screen shown when the display turns back on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LockScreen {
    /// No lock screen: waking up shows the app again.
    None,
    /// A plain lock screen: a swipe up unlocks.
    #[default]
    Swipe,
    /// A secured lock screen: a swipe up asks for the PIN.
    Pin,
}

impl LockScreen {
    /// The name `dumpsys sudoku` reports.
    pub fn name(self) -> &'static str {
        match self {
            LockScreen::None => "none",
            LockScreen::Swipe => "swipe",
            LockScreen::Pin => "pin",
        }
    }
}

/// The launcher (home screen app) and the system UI that draws the lock screen.
pub const LAUNCHER_PACKAGE: &str = "com.android.launcher3";
pub const LAUNCHER_ACTIVITY: &str = "com.android.launcher3.uioverride.QuickstepLauncher";
pub const SYSTEMUI_PACKAGE: &str = "com.android.systemui";
/// The launcher's icons, in rows of four; the app's is "Sudoku".
pub const LAUNCHER_APPS: [&str; 8] = [
    "Phone", "Messages", "Chrome", "Camera", "Photos", "Sudoku", "Clock", "Settings",
];
const APP_LABEL: &str = "Sudoku";

/// What is in front.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// The display is off (screenshots are black).
    Off,
    /// The lock screen; `bouncer`: its PIN pad.
    Keyguard {
        bouncer: bool,
    },
    /// The launcher: the app is in the background.
    Launcher,
    /// Another app in front of the app: the store page an ad opened (`super::ads`).
    Store,
    App,
}

/// Settings of the hazards (all off by default).
#[derive(Debug, Clone, Copy, Default)]
pub struct HazardOptions {
    /// The app goes to the background after this many taps (once).
    pub background_after: Option<u64>,
    /// The display turns off after this long without input.
    pub screen_off_after: Option<Duration>,
    pub lock_screen: LockScreen,
}

/// The system state around the app.
#[derive(Debug)]
pub struct System {
    options: HazardOptions,
    awake: bool,
    keyguard: bool,
    bouncer: bool,
    foreground: bool,
    /// The store page an ad opened is in front of the app.
    store: bool,
    backgrounded: bool,
    last_input: Instant,
    /// Taps that reached no app: on a dark screen, the lock screen, or beside the launcher's icons.
    pub ignored_taps: u64,
    /// Times the display turned off, and the app was sent to the background.
    pub screen_offs: u64,
    pub backgrounds: u64,
    text: Text,
}

impl System {
    pub fn new(options: HazardOptions) -> Self {
        System {
            options,
            awake: true,
            keyguard: false,
            bouncer: false,
            foreground: true,
            store: false,
            backgrounded: false,
            last_input: Instant::now(),
            ignored_taps: 0,
            screen_offs: 0,
            backgrounds: 0,
            text: Text::new(),
        }
    }

    pub fn options(&self) -> &HazardOptions {
        &self.options
    }

    /// What is in front now.
    pub fn shown(&self) -> Shown {
        if !self.awake {
            Shown::Off
        } else if self.keyguard {
            Shown::Keyguard {
                bouncer: self.bouncer,
            }
        } else if !self.foreground {
            Shown::Launcher
        } else if self.store {
            Shown::Store
        } else {
            Shown::App
        }
    }

    /// Whether the app is in front of the launcher (perhaps behind the lock screen).
    pub fn foreground(&self) -> bool {
        self.foreground
    }

    pub fn awake(&self) -> bool {
        self.awake
    }

    pub(crate) fn keyguard_showing(&self) -> bool {
        self.keyguard
    }

    pub(crate) fn keyguard_secure(&self) -> bool {
        self.options.lock_screen == LockScreen::Pin
    }

    /// Lets time pass: the display turns off once it has been idle for `--screen-off-after`.
    /// True if something changed.
    pub(crate) fn tick(&mut self) -> bool {
        match self.options.screen_off_after {
            Some(idle) if self.awake && self.last_input.elapsed() >= idle => {
                self.sleep();
                true
            }
            _ => false,
        }
    }

    fn sleep(&mut self) {
        self.awake = false;
        self.screen_offs += 1;
        self.keyguard = self.options.lock_screen != LockScreen::None;
        self.bouncer = false;
    }

    /// Input arrived (it keeps the display on only while it is on).
    pub fn input(&mut self) {
        if self.awake {
            self.last_input = Instant::now();
        }
    }

    /// After the app handled tap number `taps`: `--background-after` sends it to the background
    /// once. True if it did now.
    pub(crate) fn after_app_tap(&mut self, taps: u64) -> bool {
        match self.options.background_after {
            Some(n) if !self.backgrounded && taps >= n => {
                self.backgrounded = true;
                self.go_home()
            }
            _ => false,
        }
    }

    /// An ad's store page comes to the front of the app. True if it was not already.
    pub(crate) fn open_store(&mut self) -> bool {
        !std::mem::replace(&mut self.store, true)
    }

    /// HOME: the launcher comes to the front. True if it was not already.
    pub(crate) fn go_home(&mut self) -> bool {
        self.store = false;
        let changed = self.foreground;
        if changed {
            self.backgrounds += 1;
        }
        self.foreground = false;
        changed
    }

    /// The app is started or its task brought to the front (`am start`, `monkey`, its icon);
    /// behind the lock screen if one shows.
    pub(crate) fn bring_to_front(&mut self) -> bool {
        let changed = !self.foreground || self.store;
        self.foreground = true;
        self.store = false;
        changed
    }

    /// A hardware key. `None` if the key is the app's (BACK); else whether anything changed.
    pub fn key(&mut self, key: Key) -> Option<bool> {
        let changed = match key {
            // BACK on the store page goes back to the app.
            Key::Back if self.store && self.awake && !self.keyguard => {
                self.store = false;
                true
            }
            Key::Back => return None,
            Key::Wakeup if !self.awake => {
                self.awake = true;
                true
            }
            Key::Wakeup => false,
            Key::Sleep | Key::Power if self.awake => {
                self.sleep();
                true
            }
            Key::Sleep => false,
            Key::Power => {
                self.awake = true;
                true
            }
            Key::Home if self.awake && !self.keyguard => self.go_home(),
            Key::Home => false,
        };
        self.last_input = Instant::now();
        Some(changed)
    }

    /// A swipe while the lock screen shows: upwards by a third of the screen or more unlocks a
    /// plain lock screen and shows the PIN pad of a secured one. True if anything changed.
    pub(crate) fn keyguard_swipe(&mut self, dy: i32, height: i32) -> bool {
        if !self.keyguard || self.bouncer || dy > -height / 3 {
            return false;
        }
        match self.options.lock_screen {
            LockScreen::Pin => self.bouncer = true,
            _ => self.keyguard = false,
        }
        true
    }

    /// A tap on the launcher: the app's icon brings it back. True if it did.
    pub(crate) fn launcher_tap(&mut self, layout: &ScreenLayout, x: i32, y: i32) -> bool {
        let hit = launcher_icons(layout)
            .into_iter()
            .find(|(r, _)| r.contains(x, y))
            .map(|(_, label)| label);
        if hit == Some(APP_LABEL) {
            self.bring_to_front()
        } else {
            self.ignored_taps += 1;
            false
        }
    }

    /// Paints what is in front over `img` when it is not the app (`clock`: "HH:MM").
    pub fn paint(&mut self, img: &mut RgbaImage, layout: &ScreenLayout, clock: &str) {
        let shown = self.shown();
        if shown == Shown::App {
            return;
        }
        let (w, h) = img.dimensions();
        let mut cv = Canvas::new(img, w, h);
        let all = Rect::new(0, 0, layout.width, layout.height);
        match shown {
            Shown::App => {}
            Shown::Off => cv.fill(all, [0, 0, 0]),
            Shown::Keyguard { bouncer } => {
                cv.fill(all, [0x1A, 0x23, 0x33]);
                keyguard(&mut self.text, &mut cv, layout, clock, bouncer);
            }
            Shown::Launcher => {
                cv.fill(all, [0x3B, 0x6E, 0x5A]);
                launcher(&mut self.text, &mut cv, layout, clock);
            }
            Shown::Store => {
                cv.fill(all, [0xFF, 0xFF, 0xFF]);
                store(&mut self.text, &mut cv, layout);
            }
        }
    }
}

/// Text sizes on the system's screens: `v` sp, at least 4 px.
fn sp(layout: &ScreenLayout, v: f32) -> u32 {
    layout.px(v).max(4) as u32
}

/// The lock screen's clock and hint, or with `bouncer` its PIN pad.
fn keyguard(text: &mut Text, cv: &mut Canvas, layout: &ScreenLayout, clock: &str, bouncer: bool) {
    let big = Rect::new(0, layout.height / 5, layout.width, layout.px(96.0));
    let white = [0xF1, 0xF3, 0xF4];
    text.centered(cv, Face::Regular, sp(layout, 72.0), clock, big, white);
    if bouncer {
        let title = Rect::new(
            0,
            layout.height / 2 - layout.px(120.0),
            layout.width,
            layout.px(40.0),
        );
        text.centered(cv, Face::Bold, sp(layout, 22.0), "Enter PIN", title, white);
        for (r, label) in pin_keys(layout) {
            cv.round_rect(r, r.h / 2, [0x2E, 0x3A, 0x50]);
            text.centered(cv, Face::Regular, sp(layout, 26.0), label, r, white);
        }
    } else {
        let hint = Rect::new(
            0,
            layout.height - layout.px(120.0),
            layout.width,
            layout.px(32.0),
        );
        let px = sp(layout, 16.0);
        text.centered(cv, Face::Regular, px, "Swipe up to unlock", hint, white);
    }
}

/// The words of the store page an ad opens.
pub(crate) const STORE_WORDS: [&str; 3] = ["Google Play", "Tile Match Quest", "Install"];

/// The store page an ad opened: its title, the app and an Install button.
fn store(text: &mut Text, cv: &mut Canvas, layout: &ScreenLayout) {
    let row = |i: i32| {
        Rect::new(
            0,
            layout.px(80.0) + i * layout.px(64.0),
            layout.width,
            layout.px(48.0),
        )
    };
    let dark = [0x20, 0x21, 0x24];
    text.centered(
        cv,
        Face::Bold,
        sp(layout, 22.0),
        STORE_WORDS[0],
        row(0),
        dark,
    );
    text.centered(
        cv,
        Face::Regular,
        sp(layout, 20.0),
        STORE_WORDS[1],
        row(1),
        dark,
    );
    let button = Rect::new(
        layout.width / 4,
        row(2).y,
        layout.width / 2,
        layout.px(48.0),
    );
    cv.round_rect(button, button.h / 2, [0x01, 0x87, 0x5F]);
    text.centered(
        cv,
        Face::Bold,
        sp(layout, 16.0),
        STORE_WORDS[2],
        button,
        [0xFF; 3],
    );
}

/// The launcher's clock and app icons.
fn launcher(text: &mut Text, cv: &mut Canvas, layout: &ScreenLayout, clock: &str) {
    let white = [0xFF, 0xFF, 0xFF];
    let clock_at = Rect::new(layout.px(8.0), 0, layout.px(64.0), layout.status_bar.h);
    text.centered(cv, Face::Bold, sp(layout, 14.0), clock, clock_at, white);
    for (r, label) in launcher_icons(layout) {
        let icon = Rect::new(r.x + (r.w - r.w * 2 / 3) / 2, r.y, r.w * 2 / 3, r.w * 2 / 3);
        cv.round_rect(icon, icon.w / 4, [0xE8, 0xEA, 0xED]);
        let first: String = label.chars().take(1).collect();
        let initial = [0x34, 0x5B, 0xB8];
        text.centered(cv, Face::Bold, sp(layout, 28.0), &first, icon, initial);
        let caption = Rect::new(r.x, icon.bottom() + layout.px(4.0), r.w, layout.px(20.0));
        text.centered(cv, Face::Regular, sp(layout, 13.0), label, caption, white);
    }
}

/// The launcher's icon cells (icon plus caption) and labels.
pub(crate) fn launcher_icons(layout: &ScreenLayout) -> Vec<(Rect, &'static str)> {
    let cell = layout.width / 4;
    let h = cell + layout.px(24.0);
    let top = layout.height / 3;
    LAUNCHER_APPS
        .iter()
        .enumerate()
        .map(|(i, &label)| {
            let (r, c) = ((i / 4) as i32, (i % 4) as i32);
            (Rect::new(c * cell, top + r * h, cell, h), label)
        })
        .collect()
}

/// The PIN pad's keys.
fn pin_keys(layout: &ScreenLayout) -> Vec<(Rect, &'static str)> {
    const KEYS: [&str; 10] = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"];
    let size = layout.px(64.0);
    let gap = layout.px(24.0);
    let left = (layout.width - 3 * size - 2 * gap) / 2;
    let top = layout.height / 2 - layout.px(40.0);
    KEYS.iter()
        .enumerate()
        .map(|(i, &label)| {
            let (r, c) = if i == 9 {
                (3, 1)
            } else {
                ((i / 3) as i32, (i % 3) as i32)
            };
            (
                Rect::new(left + c * (size + gap), top + r * (size + gap), size, size),
                label,
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::Key;

    fn system(options: HazardOptions) -> System {
        System::new(options)
    }

    #[test]
    fn the_display_sleeps_after_idle_time_and_wakes_to_the_lock_screen() {
        let mut s = system(HazardOptions {
            screen_off_after: Some(Duration::from_millis(30)),
            lock_screen: LockScreen::Swipe,
            ..HazardOptions::default()
        });
        assert!(!s.tick());
        assert_eq!(s.shown(), Shown::App);
        std::thread::sleep(Duration::from_millis(40));
        assert!(s.tick());
        assert_eq!(s.shown(), Shown::Off);
        assert_eq!(s.key(Key::Wakeup), Some(true));
        assert_eq!(s.shown(), Shown::Keyguard { bouncer: false });
        assert!(
            !s.keyguard_swipe(-10, 2400),
            "a short swipe does not unlock"
        );
        assert!(s.keyguard_swipe(-1200, 2400));
        assert_eq!(s.shown(), Shown::App);
    }

    #[test]
    fn a_secured_lock_screen_only_shows_its_pin_pad() {
        let mut s = system(HazardOptions {
            lock_screen: LockScreen::Pin,
            ..HazardOptions::default()
        });
        assert_eq!(s.key(Key::Power), Some(true));
        assert_eq!(s.shown(), Shown::Off);
        s.key(Key::Wakeup);
        assert!(s.keyguard_swipe(-1200, 2400));
        assert_eq!(s.shown(), Shown::Keyguard { bouncer: true });
        assert!(s.keyguard_secure());
    }

    #[test]
    fn background_after_n_taps_once_and_home() {
        let mut s = system(HazardOptions {
            background_after: Some(3),
            ..HazardOptions::default()
        });
        assert!(!s.after_app_tap(2));
        assert!(s.after_app_tap(3));
        assert_eq!(s.shown(), Shown::Launcher);
        assert!(s.bring_to_front());
        assert!(!s.after_app_tap(4), "once");
        assert_eq!(s.key(Key::Home), Some(true));
        assert_eq!(s.shown(), Shown::Launcher);
        assert_eq!(s.backgrounds, 2);
    }
}
