//! Opening a level: [`navigate`] follows the calibration's `[navigation]` to level N, and
//! `app_package` finds the app's package (to bring it back from the background).

use super::back::UP_BUTTONS;
use super::link::Link;
use crate::calibration::Navigation;
use crate::device::android::UiNode;
use crate::play::words;
use anyhow::{Context, bail};
use std::time::Duration;

/// Opens level `level` as the calibration's `[navigation]` says. A link lost and restored on
/// the way starts the navigation again (at most a few times).
pub(crate) fn navigate(link: &mut Link, nav: &Navigation, level: u32) -> anyhow::Result<()> {
    link.retry_restored(|link| navigate_once(link, nav, level))
}

fn navigate_once(link: &mut Link, nav: &Navigation, level: u32) -> anyhow::Result<()> {
    match nav {
        Navigation::AmStart { command } => {
            // The template was validated when the calibration was parsed; the level is a number.
            let cmd = command.replace("{level}", &level.to_string());
            let started = link.call(&format!("opening level {level}"), |d| {
                d.start_activity(&cmd)
            })?;
            if let Err(said) = started {
                bail!("opening level {level} failed: `{cmd}` said: {said}");
            }
        }
        Navigation::Taps { taps } => {
            for [x, y] in taps {
                link.tap(*x, *y)?;
            }
        }
        Navigation::LevelGrid { .. } => in_grid(link, nav, level)?,
        Navigation::LevelList { open } => {
            reach_list(link, open)?;
            find_in_list(link, level)?;
        }
        Navigation::NewGame { .. } => {
            bail!(
                "level {level}: this app has no numbered levels; it opens new games by difficulty"
            )
        }
    }
    let_it_draw(link, nav)
}

/// Opens level `level` from a grid of level buttons (`nav` is a `LevelGrid`).
fn in_grid(link: &mut Link, nav: &Navigation, level: u32) -> anyhow::Result<()> {
    let Navigation::LevelGrid {
        open,
        first,
        step,
        columns,
        rows,
        next_page,
    } = nav
    else {
        return Ok(());
    };
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
    )
}

/// Waits for the taps that opened the level (an intent sends none: it need not wait for the
/// tap channel), and gives the app a moment to draw the new screen.
fn let_it_draw(link: &mut Link, nav: &Navigation) -> anyhow::Result<()> {
    if !matches!(nav, Navigation::AmStart { .. }) {
        link.flush()?;
    }
    std::thread::sleep(Duration::from_millis(300));
    Ok(())
}

/// The package of the app in front (`dumpsys window`), else the one the `am start` navigation
/// names.
pub(crate) fn app_package(link: &mut Link, nav: Option<&Navigation>) -> Option<String> {
    let from_window = link
        .call("finding the app's package", |d| d.front_package())
        .ok()
        .flatten();
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

/// Scrolls or pages at most this many times looking for a level's button.
const LIST_MOVES: u32 = 40;
/// Taps on a page button in a row that may leave the list as it was (lost taps) before the list
/// counts as ending there.
const PAGE_TAPS: u32 = 3;

/// How many buttons or BACK presses at most lead to the level list.
const LIST_STEPS: usize = 6;

/// Brings the level list up from wherever the app is: taps the last of `open`'s buttons that
/// shows; where none does, the app's own up button ("Navigate up", AppCompat's toolbar; "Back")
/// while it changes the screen, else BACK (`back::press`: where the phone refuses the key while
/// taps land, the navigation bar's back button), until level numbers show.
fn reach_list(link: &mut Link, open: &[String]) -> anyhow::Result<()> {
    let mut before: Option<Vec<String>> = None;
    let mut up_tapped = false;
    for step in 0..=LIST_STEPS {
        let nodes = list_nodes(link)?;
        if shows_level_list(link, &nodes)? {
            return Ok(());
        }
        let words: Vec<String> = nodes.iter().map(|n| n.words.clone()).collect();
        if step == LIST_STEPS {
            bail!(
                "the level list did not come up (the screen shows {}): check [navigation] open, \
                 the words of the buttons that lead to it",
                words::quote(&words, 6)
            );
        }
        let named = |w: &str| {
            nodes
                .iter()
                .find(|n| n.words.trim().eq_ignore_ascii_case(w.trim()))
        };
        let button = open.iter().rev().find_map(|w| named(w));
        // The up button again only where it changed the screen last time.
        let up = (!up_tapped || before.as_ref() != Some(&words))
            .then(|| {
                UP_BUTTONS
                    .iter()
                    .find_map(|w| named(w).filter(|n| n.clickable))
            })
            .flatten();
        up_tapped = button.is_none() && up.is_some();
        match button.or(up) {
            Some(n) => link.tap(n.center.0, n.center.1)?,
            None => {
                super::back::press(link)?;
            }
        }
        before = Some(words);
        link.flush()?;
        std::thread::sleep(Duration::from_millis(500));
    }
    Ok(())
}

/// Whether the screen, whose nodes are `nodes`, is a level list: level numbers on it, and no
/// Sudoku board (a game screen's keys are numbers too).
pub(super) fn shows_level_list(link: &mut Link, nodes: &[UiNode]) -> anyhow::Result<bool> {
    let numbers = nodes
        .iter()
        .filter(|n| level_number(&n.words).is_some())
        .count();
    Ok(numbers >= 3 && crate::vision::detect_board(&link.grab()?).is_err())
}

/// Taps level `level`'s button in the level list on the screen, found by its words: scrolled
/// (a swipe over the list) or paged (a button that says next or previous) towards it until it
/// shows.
fn find_in_list(link: &mut Link, level: u32) -> anyhow::Result<()> {
    let mut last: Option<Vec<u32>> = None;
    let mut swiped = false;
    let mut unchanged_pages = 0;
    for _ in 0..=LIST_MOVES {
        link.flush()?;
        std::thread::sleep(Duration::from_millis(300));
        let nodes = list_nodes(link)?;
        if let Some(n) = nodes.iter().find(|n| names_level(&n.words, level)) {
            return link.tap(n.center.0, n.center.1);
        }
        let shown: Vec<u32> = nodes
            .iter()
            .filter_map(|n| level_number(&n.words))
            .collect();
        let (Some(&lo), Some(&hi)) = (shown.iter().min(), shown.iter().max()) else {
            bail!(
                "looking for level {level}'s button: the screen shows no level numbers (is the \
                 level list open? check [navigation] open)"
            );
        };
        let forward = hi < level;
        if last.as_ref() == Some(&shown) {
            // The last swipe changed nothing: a button that pages, else the list ends there. A
            // page tap that changed nothing either is tapped again (a tap can be lost), up to
            // PAGE_TAPS times in a row.
            if !swiped {
                unchanged_pages += 1;
            }
            let button = nodes
                .iter()
                .find(|n| n.clickable && pages(&n.words, forward))
                .filter(|_| swiped || unchanged_pages < PAGE_TAPS);
            let Some(button) = button else {
                bail!(
                    "level {level} is not in the level list: it shows levels {lo} to {hi} and goes \
                     no further"
                );
            };
            link.tap(button.center.0, button.center.1)?;
            swiped = false;
        } else {
            // Swipe over the levels' buttons, towards the level.
            let at: Vec<(u32, u32)> = nodes
                .iter()
                .filter(|n| level_number(&n.words).is_some())
                .map(|n| n.center)
                .collect();
            let x = at.iter().map(|p| p.0).sum::<u32>() / at.len() as u32;
            let (top, bottom) = at
                .iter()
                .fold((u32::MAX, 0), |(t, b), p| (t.min(p.1), b.max(p.1)));
            let (middle, half) = ((top + bottom) / 2, ((bottom - top) / 2).max(150));
            let (from, to) = (middle + half, middle.saturating_sub(half));
            let (from, to) = if forward { (from, to) } else { (to, from) };
            link.swipe((x, from), (x, to), 400)?;
            swiped = true;
            unchanged_pages = 0;
        }
        last = Some(shown);
    }
    bail!("level {level}'s button did not show after {LIST_MOVES} moves through the level list")
}

/// The nodes of the screen (`uiautomator dump`), asked again while the screen animates.
pub(super) fn list_nodes(link: &mut Link) -> anyhow::Result<Vec<UiNode>> {
    let mut said = String::new();
    for _ in 0..3 {
        match link.call("reading the level list", |d| d.ui_dump())?.screen {
            Ok(screen) => return Ok(screen.nodes),
            Err(error) => said = error,
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    bail!("reading the level list: `uiautomator dump` said {said:?}")
}

/// A level list's button words: a number alone, or a word and a number ("Level 7", "7 ★").
pub(super) fn level_number(words: &str) -> Option<u32> {
    let numbers: Vec<u32> = words
        .split(|c: char| !c.is_ascii_digit())
        .filter(|t| !t.is_empty())
        .filter_map(|t| t.parse().ok())
        .collect();
    match numbers[..] {
        [n] if words.chars().filter(|c| c.is_alphabetic()).count() <= 12 => Some(n),
        _ => None,
    }
}

fn names_level(words: &str, level: u32) -> bool {
    level_number(words) == Some(level)
}

/// Whether a button's words page the list forward (next) or back (previous).
fn pages(words: &str, forward: bool) -> bool {
    let w = words.to_lowercase();
    let next = [
        "next",
        "›",
        "»",
        "→",
        ">",
        "weiter",
        "suivant",
        "siguiente",
        "далее",
        "sonraki",
    ];
    let prev = [
        "prev",
        "‹",
        "«",
        "←",
        "<",
        "back",
        "zurück",
        "précédent",
        "anterior",
        "назад",
        "önceki",
    ];
    (if forward { &next[..] } else { &prev[..] })
        .iter()
        .any(|k| w.contains(k))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_buttons_by_their_words() {
        for (words, n) in [
            ("7", Some(7)),
            ("Level 12", Some(12)),
            ("12 ★★★", Some(12)),
            ("Уровень 3", Some(3)),
            ("Page 1 / 4", None),
            ("09:05", None),
            ("Levels", None),
            ("Best time for this level: 42", None),
        ] {
            assert_eq!(level_number(words), n, "{words}");
        }
        assert!(names_level("Level 47", 47) && !names_level("147", 47));
        assert!(pages("Next ›", true) && pages("‹ Prev", false) && !pages("Next", false));
        assert!(pages("Sonraki", true) && !pages("Levels", true));
    }
}
