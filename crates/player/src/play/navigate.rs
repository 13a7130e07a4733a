//! Opening a level: [`navigate`] follows the calibration's `[navigation]` to level N, and
//! `app_package` finds the app's package (to bring it back from the background).

use super::link::Link;
use super::look::PhoneState;
use crate::calibration::Navigation;
use anyhow::{Context, bail};
use std::time::Duration;

/// Opens level `level` as the calibration's `[navigation]` says. A link lost and restored on
/// the way starts the navigation again (at most a few times).
pub(crate) fn navigate(link: &mut Link, nav: &Navigation, level: u32) -> anyhow::Result<()> {
    link.settle(|link| navigate_once(link, nav, level))
}

fn navigate_once(link: &mut Link, nav: &Navigation, level: u32) -> anyhow::Result<()> {
    match nav {
        Navigation::AmStart { command } => {
            // The template was validated when the calibration was parsed; the level is a number.
            let cmd = command.replace("{level}", &level.to_string());
            let out = link.shell(&format!("opening level {level}"), &cmd)?;
            if out.code != 0 || out.stdout.contains("Error") {
                bail!(
                    "opening level {level} failed: `{cmd}` said: {}",
                    out.stdout.trim()
                );
            }
        }
        Navigation::Taps { taps } => {
            for [x, y] in taps {
                link.tap(*x, *y)?;
            }
        }
        Navigation::LevelGrid {
            open,
            first,
            step,
            columns,
            rows,
            next_page,
        } => {
            for [x, y] in open {
                link.tap(*x, *y)?;
            }
            let columns = (*columns).max(1);
            let per_page = (columns * rows).max(1);
            let index = level - 1;
            let pages = index / per_page;
            if pages > 0 {
                let [nx, ny] = next_page.with_context(|| {
                    format!(
                        "level {level} is on page {} of the level list, but the calibration's [navigation] has no next_page",
                        pages + 1
                    )
                })?;
                for _ in 0..pages {
                    // Let each page draw before the next tap.
                    link.flush()?;
                    std::thread::sleep(Duration::from_millis(200));
                    link.tap(nx, ny)?;
                }
                link.flush()?;
                std::thread::sleep(Duration::from_millis(200));
            }
            let slot = index % per_page;
            link.tap(
                first[0] + slot % columns * step[0],
                first[1] + slot / columns * step[1],
            )?;
        }
    }
    link.flush()?;
    // Give the app a moment to draw the new screen.
    std::thread::sleep(Duration::from_millis(300));
    Ok(())
}

/// The package of the app in front (`dumpsys window`), else the one the `am start` navigation
/// names.
pub(crate) fn app_package(link: &mut Link, nav: Option<&Navigation>) -> Option<String> {
    let from_window = link
        .shell("finding the app's package", "dumpsys window")
        .ok()
        .and_then(|out| {
            PhoneState::parse(&out.stdout)
                .focused_package()
                .map(str::to_string)
        });
    from_window.or_else(|| nav_package(nav))
}

/// The package an `am start -n PACKAGE/ACTIVITY` navigation names.
pub(crate) fn nav_package(nav: Option<&Navigation>) -> Option<String> {
    match nav {
        Some(Navigation::AmStart { command }) => command
            .split_whitespace()
            .skip_while(|w| *w != "-n")
            .nth(1)
            .and_then(|c| c.split_once('/'))
            .map(|(p, _)| p.to_string()),
        _ => None,
    }
}
