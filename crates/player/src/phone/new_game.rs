//! Opening a new game in an app without level numbers (`[navigation] kind = "new-game"`): from
//! wherever the app is, the buttons that lead to its difficulties (the last of `open`'s words
//! showing is tapped, BACK pressed where none shows), then the difficulty's word, then the
//! app's confirmation where it asks before a game in progress is thrown away (asked for: a new
//! game was). Ads on the way are closed (`super::ad`).

use super::ad::{ad_window, ad_words, dismiss_ad};
use super::link::Link;
use super::navigate::list_nodes;
use crate::calibration::Navigation;
use crate::device::android::UiNode;
use crate::play::words;
use anyhow::bail;
use std::time::Duration;

/// Buttons or BACK presses at most on the way to the difficulty.
const STEPS: usize = 8;

/// The words of a confirmation's button that goes ahead (English, then a few languages).
const GO_AHEAD: [&str; 10] = [
    "start",
    "new game",
    "ok",
    "yes",
    "restart",
    "confirm",
    "continue",
    "start new game",
    "ja",
    "oui",
];

/// Words that say a dialog asks before a game in progress is lost.
const ASKS: [&str; 4] = ["new game?", "lost", "progress", "start over"];

/// Opens a new game of `difficulty` (its word on the app's sheet, any case).
pub(crate) fn open_new_game(
    link: &mut Link,
    open: &[String],
    difficulty: &str,
) -> anyhow::Result<()> {
    let mut picked = false;
    for _ in 0..STEPS {
        let state = link.call("checking the screen", |d| d.phone_state())?;
        let nodes = list_nodes(link)?;
        let texts: Vec<String> = nodes.iter().map(|n| n.words.clone()).collect();
        if ad_window(state.focus.as_deref()) || ad_words(&texts) {
            dismiss_ad(link)?;
            continue;
        }
        if let Some(go) = confirmation(&nodes) {
            link.tap(go.center.0, go.center.1)?;
            return let_it_draw(link);
        }
        if picked {
            return Ok(());
        }
        if let Some(d) = named(&nodes, difficulty) {
            link.tap(d.center.0, d.center.1)?;
            picked = true;
            let_it_draw(link)?;
            continue;
        }
        match open.iter().rev().find_map(|w| named(&nodes, w)) {
            Some(b) => link.tap(b.center.0, b.center.1)?,
            None => {
                super::back::press(link)?;
            }
        }
        let_it_draw(link)?;
    }
    if picked {
        return Ok(());
    }
    let words: Vec<String> = list_nodes(link)?.into_iter().map(|n| n.words).collect();
    bail!(
        "no new {difficulty} game: the screen shows {} (check [navigation] open, the words of the \
         buttons that lead to the difficulties, and the difficulty's word)",
        words::quote(&words, 6)
    )
}

/// Waits for the taps and gives the app a moment to draw.
fn let_it_draw(link: &mut Link) -> anyhow::Result<()> {
    link.flush()?;
    std::thread::sleep(Duration::from_millis(400));
    Ok(())
}

/// The clickable node whose words are `w` (any case).
fn named<'a>(nodes: &'a [UiNode], w: &str) -> Option<&'a UiNode> {
    nodes
        .iter()
        .filter(|n| n.clickable)
        .find(|n| n.words.trim().eq_ignore_ascii_case(w.trim()))
}

/// A confirmation that a game in progress will be lost, and its button that goes ahead.
fn confirmation(nodes: &[UiNode]) -> Option<&UiNode> {
    let asks = nodes.iter().any(|n| {
        let w = n.words.to_lowercase();
        !n.clickable && ASKS.iter().any(|a| w.contains(a))
    });
    asks.then(|| {
        GO_AHEAD.iter().find_map(|g| {
            nodes
                .iter()
                .filter(|n| n.clickable)
                .find(|n| n.words.trim().eq_ignore_ascii_case(g))
        })
    })
    .flatten()
}

/// The words of a button that starts a new game (lower case; a button's words are one).
const NEW_GAME_WORDS: [&str; 9] = [
    "new game",
    "new",
    "new puzzle",
    "start new game",
    "neues spiel",
    "nouvelle partie",
    "nuevo juego",
    "nuova partita",
    "новая игра",
];
/// The words of a button that closes a sheet or dialog without choosing.
const CANCEL_WORDS: [&str; 5] = ["cancel", "close", "back", "abbrechen", "annuler"];
/// The words of a button that goes back to the game under way.
const CONTINUE_WORDS: [&str; 5] = ["continue", "resume", "continue game", "weiter", "continuer"];

/// For calibrate, from the screen the level list's search left (an app's home, BACK from its
/// game): the way to new games of each difficulty, where the app has one: a button that says
/// "New Game" leading to a sheet of difficulties (at least two choices). The sheet is closed
/// without choosing, and the game under way continued (its Continue button), so nothing is
/// thrown away. `steps` gets what was done.
pub(crate) fn find_new_games(
    link: &mut Link,
    steps: &mut Vec<String>,
) -> anyhow::Result<Option<Navigation>> {
    for _ in 0..2 {
        let nodes = list_nodes(link)?;
        let Some(button) = find_word(&nodes, &NEW_GAME_WORDS).cloned() else {
            super::back::press(link)?;
            steps.push("BACK".into());
            let_it_draw(link)?;
            continue;
        };
        link.tap(button.center.0, button.center.1)?;
        steps.push(format!("{:?}", button.words));
        let_it_draw(link)?;
        let sheet = list_nodes(link)?;
        let difficulties: Vec<String> = sheet
            .iter()
            .filter(|n| n.clickable && n.words != button.words)
            .filter(|n| !CANCEL_WORDS.contains(&n.words.trim().to_lowercase().as_str()))
            .map(|n| n.words.trim().to_string())
            .collect();
        close_and_continue(link, &sheet, steps)?;
        return Ok((difficulties.len() >= 2).then(|| Navigation::NewGame {
            open: vec![button.words.trim().to_string()],
            difficulties,
        }));
    }
    Ok(None)
}

/// Closes a sheet without choosing (its Cancel, else BACK), then continues the game under
/// way where the screen offers to.
fn close_and_continue(
    link: &mut Link,
    sheet: &[UiNode],
    steps: &mut Vec<String>,
) -> anyhow::Result<()> {
    match find_word(sheet, &CANCEL_WORDS) {
        Some(c) => {
            link.tap(c.center.0, c.center.1)?;
            steps.push(format!("{:?}", c.words));
        }
        None => {
            super::back::press(link)?;
            steps.push("BACK".into());
        }
    }
    let_it_draw(link)?;
    let home = list_nodes(link)?;
    if let Some(c) = find_word(&home, &CONTINUE_WORDS) {
        link.tap(c.center.0, c.center.1)?;
        steps.push(format!("{:?}", c.words));
        let_it_draw(link)?;
    }
    Ok(())
}

/// The first clickable node whose words are one of `words` (lower case).
fn find_word<'a>(nodes: &'a [UiNode], words: &[&str]) -> Option<&'a UiNode> {
    nodes
        .iter()
        .filter(|n| n.clickable)
        .find(|n| words.contains(&n.words.trim().to_lowercase().as_str()))
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
    fn a_confirmation_and_its_button_that_goes_ahead() {
        let asks = [
            node("Start a new game?", false),
            node("Your progress will be lost.", false),
            node("Cancel", true),
            node("Start", true),
        ];
        assert_eq!(confirmation(&asks).map(|n| n.words.as_str()), Some("Start"));
        let sheet = [
            node("New Game", false),
            node("Easy", true),
            node("Cancel", true),
        ];
        assert!(confirmation(&sheet).is_none());
        assert_eq!(
            named(&sheet, "easy").map(|n| n.words.as_str()),
            Some("Easy")
        );
    }
}
