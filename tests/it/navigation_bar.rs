//! The navigation bar's back button found on the screen (`vision::back_button`), which a phone
//! that refuses the BACK key injected from its shell takes as a touch: on real phones'
//! screenshots (`../shared/real-screens`, AOSP's, Samsung's and the two-button bars, and
//! gesture navigation's handle, which has none) and on the simulated phone's, held every way.

use autoplay_sim::app::{AppOptions, Phone};
use std::path::Path;
use sudoku_autoplay::{capture, vision};

/// A real screenshot's name, its navigation bar's frame and its back button's centre, if any.
type RealBar = (&'static str, [u32; 4], Option<(u32, u32)>);

/// Real screenshots whose navigation bar shows (frames measured by hand: the rows of the bar's
/// own colour at the bottom), and the back button's centre where there is one.
const REAL_BARS: [RealBar; 7] = [
    // AOSP's three buttons, back on the left (Android 9 and 10 phones).
    ("isauroam_1", [0, 2148, 1080, 2280], Some((225, 2214))),
    ("valentintt_1", [0, 2028, 1080, 2160], Some((225, 2094))),
    // Android 9's two buttons: back beside the home pill (an emulator's window, and a phone).
    ("adibfara_1", [0, 1174, 681, 1253], Some((148, 1213))),
    ("kalildev_1", [0, 2034, 1080, 2160], Some((232, 2104))),
    // Samsung: recents, home, back on the right.
    ("nextjedi_1", [0, 2952, 1440, 3120], Some((1119, 3037))),
    // Gesture navigation: a handle, no button (the bar's 48 dp frame over the app's keys,
    // whose labels show through it).
    ("dmytroshulha_1", [0, 2274, 1080, 2400], None),
    ("sgtpuzzles_1", [0, 2148, 1080, 2280], None),
];

#[test]
#[cfg_attr(
    not(dev_set),
    ignore = "needs ../shared/real-screens beside the checkout (absent at build time; `touch build.rs` after adding it)"
)]
fn the_back_button_of_real_navigation_bars() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/real-screens");
    let mut wrong = Vec::new();
    for (name, bar, want) in REAL_BARS {
        let frame = capture::decode(&std::fs::read(dir.join(format!("{name}.png"))).unwrap())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let got = vision::back_button(&frame, bar);
        let icons = vision::bar_icons(&frame, bar);
        let near = match (got, want) {
            (Some(g), Some(w)) => g.0.abs_diff(w.0) <= 8 && g.1.abs_diff(w.1) <= 8,
            (g, w) => g == w,
        };
        if !near {
            wrong.push(format!(
                "{name}: found {got:?}, the button is at {want:?}; icons {icons:?}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The simulated phone's bar (back, home, recents: a triangle, a ring, a square) on every
/// profile, at its own density and at the smaller Display size, held in portrait and both ways
/// in landscape (the bar at the side on phones): back is found on its button, over the game
/// screen and over the "Rate this app" popup.
#[test]
fn the_simulated_phones_back_button_is_found_held_every_way() {
    for profile in autoplay_sim::profile::PROFILES {
        for (rotation, smaller) in [(0, false), (1, false), (3, false), (0, true), (1, true)] {
            let mut profile = profile.clone();
            profile.rotation = rotation;
            if smaller {
                profile.override_density = Some(profile.density * 85 / 100);
            }
            let what = format!(
                "{} at {} dpi, rotation {rotation}",
                profile.name,
                profile.applied_density()
            );
            let options = AppOptions {
                popup_after: Some(1),
                ..AppOptions::default()
            };
            let mut phone = Phone::new(profile, options);
            phone.start_level(1).unwrap();
            let (bar, back) = (phone.layout().nav_bar, phone.layout().nav_back);
            let frame = [bar.x, bar.y, bar.right(), bar.bottom()].map(|v| v as u32);
            for popup in [false, true] {
                if popup {
                    let key = phone.layout().keys[0].center();
                    phone.tap(key.0, key.1);
                    assert!(phone.model().popup, "{what}: the popup shows");
                }
                let found = vision::back_button(&phone.screenshot(), frame);
                let icons = vision::bar_icons(&phone.screenshot(), frame);
                assert!(
                    found.is_some_and(|(x, y)| back.contains(x as i32, y as i32)),
                    "{what}, popup {popup}: found {found:?}, the button is {back:?}; icons {icons:?}"
                );
            }
        }
    }
}
