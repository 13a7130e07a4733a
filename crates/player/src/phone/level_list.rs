//! Finding how an app opens its levels, for calibrate: the list of numbered levels that BACK from
//! the game screen shows, or that buttons with words lead to ("Levels", "Play"), read with
//! `uiautomator dump` as `navigate` reads it (the `level-list` kind of `[navigation]`). Then the
//! level that was open is opened again that way, where the game screen said its number.
//!
//! It taps only buttons whose words speak of levels or playing (never one that speaks of
//! resetting, deleting, settings or leaving), at most a few on each screen and two deep, and
//! goes back with BACK from each one that led elsewhere.

use super::link::Link;
use super::navigate::{list_nodes, navigate, shows_level_list};
use crate::calibration::Navigation;
use crate::device::android::UiNode;
use std::time::Duration;

/// Words of buttons that lead to a level list, in the order they are tried: about levels first,
/// then about playing (lower case; a button's words contain one).
const LEVEL_WORDS: [&str; 15] = [
    "level",
    "stage",
    "puzzles",
    "select",
    "choose",
    "niveau",
    "nivel",
    "livell",
    "уров",
    "seviye",
    "stufe",
    "poziom",
    "レベル",
    "关卡",
    "bölüm",
];
const PLAY_WORDS: [&str; 9] = [
    "play",
    "start",
    "new game",
    "spielen",
    "jouer",
    "jugar",
    "gioca",
    "играть",
    "oyna",
];
/// Words of buttons never tapped.
const AVOID_WORDS: [&str; 12] = [
    "reset", "delete", "clear", "erase", "quit", "exit", "setting", "rate", "share", "buy",
    "remove", "sign",
];
/// Buttons tried on one screen, at most.
const TRIES_PER_SCREEN: usize = 3;
/// How long a screen gets to draw after a tap or BACK.
const LIST_DRAW_TIME: Duration = Duration::from_millis(500);

/// What the search found.
#[derive(Debug, Clone, PartialEq)]
pub struct LevelList {
    /// How to open level N (`None`: no level list was found).
    pub navigation: Option<Navigation>,
    /// What was done, in order (`BACK`, `"Levels"` for a button tapped).
    pub steps: Vec<String>,
    /// The words of the screens seen that showed no level list.
    pub seen: Vec<String>,
    /// The level open before, as the game screen said its number.
    pub level: Option<u32>,
    /// It was opened again, and its board shows.
    pub reopened: bool,
}

/// Looks for the app's level list from its game screen (see the module docs).
pub(crate) fn find_level_list(link: &mut Link) -> anyhow::Result<LevelList> {
    let game = list_nodes(link)?;
    let mut found = LevelList {
        navigation: None,
        steps: Vec::new(),
        seen: Vec::new(),
        level: level_shown(&game),
        reopened: false,
    };
    step(link, &mut found, None)?;
    let open = match listed(link, &mut found)? {
        Some(()) => Some(Vec::new()),
        None => by_buttons(link, &mut found)?,
    };
    let Some(mut open) = open else {
        // No numbered levels: an app that starts new games of a difficulty, perhaps.
        found.navigation = super::new_game::find_new_games(link, &mut found.steps)?;
        return Ok(found);
    };
    if let Some(button) = way_back(link, &mut found, &open)? {
        open.push(button);
    }
    let navigation = Navigation::LevelList { open };
    if let Some(level) = found.level {
        navigate(link, &navigation, level)?;
        found.reopened = crate::vision::detect_board(&link.grab()?).is_ok();
    }
    found.navigation = Some(navigation);
    Ok(found)
}

/// From the screen BACK leads to from the list (an app's home screen, where BACK would leave
/// the app), the button that leads to the list again, where none of `open`'s does: the way to
/// the list from an app that starts afresh.
fn way_back(
    link: &mut Link,
    found: &mut LevelList,
    open: &[String],
) -> anyhow::Result<Option<String>> {
    step(link, found, None)?;
    let nodes = list_nodes(link)?;
    let shows = |w: &String| nodes.iter().any(|n| n.words.trim().eq_ignore_ascii_case(w));
    if shows_level_list(link, &nodes)?
        || open.iter().any(shows)
        || crate::vision::detect_board(&link.grab()?).is_ok()
    {
        return Ok(None);
    }
    let tapped: Vec<&str> = open.iter().map(String::as_str).collect();
    for button in to_try(&nodes, &tapped) {
        step(link, found, Some(&button))?;
        if listed(link, found)?.is_some() {
            return Ok(Some(button.words));
        }
        step(link, found, None)?;
    }
    Ok(None)
}

/// From the screen BACK led to: a button, or two in turn, that lead to the list; their words.
fn by_buttons(link: &mut Link, found: &mut LevelList) -> anyhow::Result<Option<Vec<String>>> {
    let first = list_nodes(link)?;
    for a in to_try(&first, &[]) {
        step(link, found, Some(&a))?;
        if listed(link, found)?.is_some() {
            return Ok(Some(vec![a.words]));
        }
        let second = list_nodes(link)?;
        for b in to_try(&second, &[&a.words]) {
            step(link, found, Some(&b))?;
            if listed(link, found)?.is_some() {
                return Ok(Some(vec![a.words, b.words]));
            }
            step(link, found, None)?;
        }
        step(link, found, None)?;
    }
    Ok(None)
}

/// Taps `button` (`None`: presses BACK), waits for the screen to draw, and notes it.
fn step(link: &mut Link, found: &mut LevelList, button: Option<&UiNode>) -> anyhow::Result<()> {
    match button {
        Some(b) => {
            link.tap(b.center.0, b.center.1)?;
            found.steps.push(format!("{:?}", b.words));
        }
        None => {
            super::back::press(link)?;
            found.steps.push("BACK".into());
        }
    }
    link.flush()?;
    std::thread::sleep(LIST_DRAW_TIME);
    Ok(())
}

/// `Some` where the screen shows the level list; else its words are noted.
fn listed(link: &mut Link, found: &mut LevelList) -> anyhow::Result<Option<()>> {
    let nodes = list_nodes(link)?;
    if shows_level_list(link, &nodes)? {
        return Ok(Some(()));
    }
    let words: Vec<String> = nodes.into_iter().map(|n| n.words).collect();
    found.seen.push(crate::play::words::quote(&words, 6));
    Ok(None)
}

/// The buttons of a screen worth a tap, best first (see the module docs), but those already
/// tapped on the way (`tapped`).
fn to_try(nodes: &[UiNode], tapped: &[&str]) -> Vec<UiNode> {
    let rank = |n: &UiNode| {
        let w = n.words.to_lowercase();
        if AVOID_WORDS.iter().any(|a| w.contains(a))
            || tapped.contains(&n.words.as_str())
            || super::navigate::level_number(&n.words).is_some()
        {
            return None;
        }
        if LEVEL_WORDS.iter().any(|k| w.contains(k)) {
            Some(0)
        } else if PLAY_WORDS.iter().any(|k| w.contains(k)) {
            Some(1)
        } else {
            None
        }
    };
    let mut ranked: Vec<(u8, &UiNode)> = nodes
        .iter()
        .filter(|n| n.clickable)
        .filter_map(|n| rank(n).map(|r| (r, n)))
        .collect();
    ranked.sort_by_key(|(r, _)| *r);
    ranked
        .into_iter()
        .take(TRIES_PER_SCREEN)
        .map(|(_, n)| n.clone())
        .collect()
}

/// The level a game screen names ("Level 12", "Niveau 12"): words that are not a button, with
/// a word of [`LEVEL_WORDS`] and one number.
fn level_shown(nodes: &[UiNode]) -> Option<u32> {
    nodes
        .iter()
        .filter(|n| !n.clickable)
        .filter(|n| {
            let w = n.words.to_lowercase();
            LEVEL_WORDS.iter().any(|k| w.contains(k))
        })
        .find_map(|n| super::navigate::level_number(&n.words))
        .filter(|&n| n > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(words: &str, clickable: bool) -> UiNode {
        UiNode {
            words: words.into(),
            center: (1, 1),
            clickable,
        }
    }

    #[test]
    fn buttons_about_levels_first_and_never_a_reset() {
        let home = [
            node("Sudoku", false),
            node("Continue 5", true),
            node("Play", true),
            node("Reset levels", true),
            node("Settings", true),
            node("Select level", true),
            node("Levels", false),
        ];
        let words: Vec<String> = to_try(&home, &[]).into_iter().map(|n| n.words).collect();
        assert_eq!(words, ["Select level", "Play"]);
        let words: Vec<String> = to_try(&home, &["Play"])
            .into_iter()
            .map(|n| n.words)
            .collect();
        assert_eq!(words, ["Select level"]);
    }

    #[test]
    fn the_level_a_game_screen_names() {
        let game = [
            node("Level 12", false),
            node("Mistakes: 0/3", false),
            node("5", true),
        ];
        assert_eq!(level_shown(&game), Some(12));
        assert_eq!(level_shown(&[node("Niveau 7", false)]), Some(7));
        assert_eq!(level_shown(&[node("5", false), node("09:41", false)]), None);
        assert_eq!(level_shown(&[node("Level 3", true)]), None, "a button");
    }
}
