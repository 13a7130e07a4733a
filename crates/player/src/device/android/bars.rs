//! The system bars: where the status bar and the navigation bar lie on the screen, from
//! `dumpsys window windows`, so that what they show (a home circle, a back triangle) is never
//! taken for the app's keys, and so that the navigation bar's back button can be found where
//! the BACK key cannot be injected.
//!
//! Each window's block opens with its title, `Window #3 Window{e3efdb1 u0 NavigationBar}:`
//! (`NavigationBar0` from Android 10, one per display; Android 4 has no `u0`, recent vivo builds
//! a `package:` prefix and a `type=` after the name), and carries its frame: `mFrame=[l,t][r,b]`
//! up to Android 11, the `frame=` of a `Frames: parent=... frame=[l,t][r,b] ...` line from
//! Android 12; and `mViewVisibility=0x0` while it shows. Appium's `getSystemBars`
//! (appium-android-driver, `lib/commands/system-bars.js`) reads the same fields.

/// A rectangle of screen pixels `[x0, y0, x1, y1)`.
pub type Frame = [u32; 4];

/// The frames of the visible status and navigation bars in a `dumpsys window windows` (or a
/// whole `dumpsys window`) of display 0.
pub(crate) fn parse_system_bars(text: &str) -> Vec<Frame> {
    parse_bars(text)
        .into_iter()
        .map(|(frame, _)| frame)
        .collect()
}

/// The frame of the visible navigation bar of display 0 in a `dumpsys window windows`, if one
/// shows (its buttons, where it has them, are SystemUI's: a touch on its back button presses
/// BACK as the system does).
pub(crate) fn parse_navigation_bar(text: &str) -> Option<Frame> {
    parse_bars(text)
        .into_iter()
        .find_map(|(frame, navigation)| navigation.then_some(frame))
}

/// The visible bars' frames, each with whether it is the navigation bar.
fn parse_bars(text: &str) -> Vec<(Frame, bool)> {
    let mut bars = Vec::new();
    let mut block: Option<Block> = None;
    for line in text.lines() {
        if let Some(name) = window_title(line) {
            bars.extend(block.take().and_then(Block::visible_bar));
            block = Some(Block {
                bar: name.starts_with("NavigationBar") || name == "StatusBar",
                navigation: name.starts_with("NavigationBar"),
                ..Block::default()
            });
            continue;
        }
        let Some(b) = block.as_mut() else { continue };
        if !line.starts_with("    ") {
            bars.extend(block.take().and_then(Block::visible_bar));
            continue;
        }
        for word in line.split_whitespace() {
            if let Some(v) = word.strip_prefix("mViewVisibility=") {
                b.visible = b.visible.or(Some(v == "0x0"));
            } else if let Some(v) = word.strip_prefix("mDisplayId=") {
                b.display0 = b.display0 && v == "0";
            } else if let Some(v) = word
                .strip_prefix("mFrame=")
                .or_else(|| word.strip_prefix("frame="))
            {
                b.frame = b.frame.or(parse_frame(v));
            }
        }
    }
    bars.extend(block.and_then(Block::visible_bar));
    bars
}

/// What one window's block said.
struct Block {
    bar: bool,
    navigation: bool,
    display0: bool,
    visible: Option<bool>,
    frame: Option<Frame>,
}

impl Default for Block {
    fn default() -> Self {
        Block {
            bar: false,
            navigation: false,
            display0: true,
            visible: None,
            frame: None,
        }
    }
}

impl Block {
    /// Its frame, when it is a system bar showing on display 0 and not empty, and whether it is
    /// the navigation bar.
    fn visible_bar(self) -> Option<(Frame, bool)> {
        let f = self.frame?;
        (self.bar && self.display0 && self.visible == Some(true) && f[0] < f[2] && f[1] < f[3])
            .then_some((f, self.navigation))
    }
}

/// The window's name in a block's title line (`  Window #3 Window{e3efdb1 u0 NavigationBar}:`).
fn window_title(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix("Window #")?;
    let (_, inner) = rest.split_once("Window{")?;
    let inner = inner.strip_suffix(':').unwrap_or(inner).trim_end();
    let inner = inner.strip_suffix('}')?;
    // The hash (maybe `package:hash`), a user `uN` on Android 4.2 and later, then the name.
    let mut words = inner.split_whitespace().skip(1);
    let word = words.next()?;
    let is_user =
        word.len() > 1 && word.starts_with('u') && word[1..].bytes().all(|b| b.is_ascii_digit());
    if is_user { words.next() } else { Some(word) }
}

/// `[0,2030][1080,2160]` (negative or huge values, as some windows have, are not a bar's).
fn parse_frame(v: &str) -> Option<Frame> {
    let v = v.strip_prefix('[')?;
    let (a, b) = v.split_once("][")?;
    let b = b.strip_suffix(']')?;
    let pair = |s: &str| -> Option<(u32, u32)> {
        let (x, y) = s.split_once(',')?;
        Some((x.parse().ok()?, y.parse().ok()?))
    };
    let ((x0, y0), (x1, y1)) = (pair(a)?, pair(b)?);
    Some([x0, y0, x1, y1])
}

/// The part of a `width` x `height` screen the app has, without the bars along its edges: a
/// bar wider than tall at the top or the bottom (the status bar, a navigation bar), one taller
/// than wide on the left or the right (the navigation bar of a phone held in landscape).
/// `None` where no bar takes any of it.
pub fn app_area(bars: &[Frame], (width, height): (u32, u32)) -> Option<Frame> {
    let mut area = [0, 0, width, height];
    for &[x0, y0, x1, y1] in bars {
        if x1.saturating_sub(x0) >= y1.saturating_sub(y0) {
            if y0 == 0 {
                area[1] = area[1].max(y1.min(height));
            } else if y1 >= height {
                area[3] = area[3].min(y0);
            }
        } else if x0 == 0 {
            area[0] = area[0].max(x1.min(width));
        } else if x1 >= width {
            area[2] = area[2].min(x0);
        }
    }
    let taken = area != [0, 0, width, height];
    (taken && area[0] < area[2] && area[1] < area[3]).then_some(area)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn real(file: &str) -> String {
        std::fs::read_to_string(format!(
            "{}/../../tests/data/android/dumpsys-window/{file}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    }

    #[test]
    fn bars_of_real_phones() {
        // Android 9 (MIUI): both bars, mFrame= lines.
        let text = real("miui-android9-dialog-window-focus.txt");
        let miui = parse_system_bars(&text);
        assert_eq!(miui, vec![[0, 2030, 1080, 2160], [0, 0, 1080, 66]]);
        assert_eq!(parse_navigation_bar(&text), Some([0, 2030, 1080, 2160]));
        assert_eq!(app_area(&miui, (1080, 2160)), Some([0, 66, 1080, 2030]));
        // Android 11 (an emulator, as Appium's tests have it): NavigationBar0, mFrame=.
        let a11 = parse_system_bars(&real("android11-emulator-navigationbar0-excerpt.txt"));
        assert_eq!(a11, vec![[0, 1794, 1080, 1920]]);
        assert_eq!(app_area(&a11, (1080, 1920)), Some([0, 0, 1080, 1794]));
        // A recent vivo: `package:hash` and `type=` in titles, `Frames: ... frame=` lines; its
        // gesture strips (a bottom overlay, side panels) are not navigation bars.
        let vivo = parse_system_bars(&real("vivo-phone-windows-no-mCurrentFocus.txt"));
        assert_eq!(vivo, vec![[0, 0, 720, 54]]);
        assert_eq!(app_area(&vivo, (720, 1612)), Some([0, 54, 720, 1612]));
        // Android 4.1: no user in titles, hardware keys; the status bar (its expanded shade
        // is another window, off the screen).
        let text = real("jellybean-sampleui-windows.txt");
        assert_eq!(parse_system_bars(&text), vec![[0, 0, 480, 38]]);
        assert_eq!(parse_navigation_bar(&text), None, "hardware keys");
    }

    #[test]
    fn frames_in_the_android_12_form_and_other_displays() {
        let text = "WINDOW MANAGER WINDOWS (dumpsys window windows)\n  \
            Window #1 Window{c8 u0 NavigationBar0}:\n    mDisplayId=0 rootTaskId=1\n    \
            mViewVisibility=0x0 mHaveFrame=true mObscured=false\n    \
            Frames: parent=[0,0][1080,2400] display=[0,0][1080,2400] frame=[0,2274][1080,2400] last=[0,2274][1080,2400] insetsChanged=false\n  \
            Window #2 Window{c9 u0 NavigationBar1}:\n    mDisplayId=1 rootTaskId=1\n    \
            mViewVisibility=0x0\n    mFrame=[0,700][720,748]\n  \
            Window #3 Window{ca u0 StatusBar}:\n    mDisplayId=0\n    mViewVisibility=0x8\n    \
            mFrame=[0,0][1080,80]\n";
        assert_eq!(parse_system_bars(text), vec![[0, 2274, 1080, 2400]]);
        assert_eq!(parse_navigation_bar(text), Some([0, 2274, 1080, 2400]));
    }

    #[test]
    fn the_app_area_beside_a_side_bar() {
        // A phone held in landscape: the navigation bar on the right, or on the left.
        assert_eq!(
            app_area(&[[2274, 0, 2400, 1080]], (2400, 1080)),
            Some([0, 0, 2274, 1080])
        );
        assert_eq!(
            app_area(&[[0, 0, 126, 1080]], (2400, 1080)),
            Some([126, 0, 2400, 1080])
        );
        // A bar that spans no side (a floating pill), or none: the whole screen.
        assert_eq!(app_area(&[[400, 2300, 680, 2390]], (1080, 2400)), None);
        assert_eq!(app_area(&[], (1080, 2400)), None);
    }
}
