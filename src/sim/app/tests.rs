//! Behaviour of the app through its public API: taps at display pixels, keys, screenshots.

use super::*;
use crate::sim::profile::{PROFILES, profile};

fn phone(name: &str, options: AppOptions) -> Phone {
    Phone::new(profile(name).unwrap().clone(), options)
}

#[test]
fn placeholder_compiles() {
    let mut p = phone("budget", AppOptions::default());
    assert_eq!(p.screenshot().dimensions(), (720, 1520));
    let _ = PROFILES;
}

#[test]
#[ignore]
fn scratch_dump() {
    for name in ["budget", "pixel", "tablet"] {
        for theme in [Theme::Light, Theme::Dark] {
            let mut p = phone(
                name,
                AppOptions {
                    theme,
                    keypad: if theme == Theme::Dark {
                        Keypad::TwoRows
                    } else {
                        Keypad::Row
                    },
                    show_conflicts: true,
                    popup_after: Some(1000),
                    ..AppOptions::default()
                },
            );
            p.screenshot()
                .save(format!("/tmp/shot-{name}-{}-home.png", theme.name()))
                .unwrap();
            let (x, y) = p.layout().level_list.center();
            p.tap(x, y);
            p.screenshot()
                .save(format!("/tmp/shot-{name}-{}-levels.png", theme.name()))
                .unwrap();
            p.start_level(3).unwrap();
            for (cell, d) in [(0usize, 1u8), (1, 1), (40, 5)] {
                let (x, y) = p.layout().cell_center(cell);
                p.tap(x, y);
                let (x, y) = p.layout().key_center(d);
                p.tap(x, y);
            }
            let (x, y) = p.layout().cell_center(30);
            p.tap(x, y);
            p.screenshot()
                .save(format!("/tmp/shot-{name}-{}-game.png", theme.name()))
                .unwrap();
            let g = p.model().game.clone().unwrap();
            let sol = crate::solver::fast::solve(&g.givens).unwrap();
            for c in 0..81 {
                if !g.is_given(c) {
                    let (x, y) = p.layout().cell_center(c);
                    p.tap(x, y);
                    let (x, y) = p.layout().key_center(sol.get(c));
                    p.tap(x, y);
                }
            }
            p.screenshot()
                .save(format!("/tmp/shot-{name}-{}-complete.png", theme.name()))
                .unwrap();
            p.key(Key::Back);
            for _ in 0..1000 {
                p.tap(0, 0);
            }
            p.screenshot()
                .save(format!("/tmp/shot-{name}-{}-popup.png", theme.name()))
                .unwrap();
        }
    }
}
