//! BACK, pressed as the phone allows: the key injected through the tap channel (`input
//! keyevent`); where the phone refuses keys injected from its shell while the taps written into
//! its touch panel land (a phone that refuses injected input, Android 9 and older:
//! [`Refusal::Keys`]), what a finger on the phone would press instead. First the navigation
//! bar's back button, found on the screen (`vision::back_button`, in the bar's frame from
//! `dumpsys window windows`): a touch there is SystemUI's, which presses BACK itself, so it does
//! all BACK does. Else a button of the app or of its dialog that does what BACK does there,
//! found by its words (the app's up button, a dialog's "Not now"). Where none shows, the
//! refusal stands, marked [`BackRefused`]: the performance then tries what needs no BACK
//! (opening the level again) before it stops, naming the refusal.

use super::link::Link;
use crate::device::DeviceError;
use crate::device::Refusal;
use crate::device::android::{Key, UiNode};
use crate::play::stop::BackRefused;
use crate::vision;

/// The words of an app's own up (back) button: AppCompat's toolbar says "Navigate up"
/// (`abc_action_bar_up_description`), Compose apps mostly "Back".
pub(super) const UP_BUTTONS: [&str; 2] = ["Navigate up", "Back"];

/// The words of a dialog's button that closes it as BACK does: the in-app review's and the
/// rating libraries' "Not now", "No, thanks", "Remind me later", and a plain "Cancel" or
/// "Close".
const DISMISS_BUTTONS: [&str; 9] = [
    "Not now",
    "No thanks",
    "No, thanks",
    "Later",
    "Maybe later",
    "Remind me later",
    "Cancel",
    "Close",
    "Dismiss",
];

/// How BACK was pressed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Pressed {
    /// The key, injected.
    Key,
    /// The navigation bar's back button, touched at this point.
    NavigationBar((u32, u32)),
    /// A button of the app's with these words.
    Button(String),
}

impl std::fmt::Display for Pressed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Pressed::Key => f.write_str("BACK"),
            Pressed::NavigationBar((x, y)) => write!(
                f,
                "the navigation bar's back button at ({x}, {y}) (the phone refuses the BACK key from the shell)"
            ),
            Pressed::Button(words) => write!(
                f,
                "the button {words:?} (the phone refuses the BACK key from the shell)"
            ),
        }
    }
}

/// Presses BACK as the phone allows (see the module docs), after the queued taps, and waits
/// for the taps it took. Where nothing can press it, fails with the phone's refusal marked
/// [`BackRefused`].
pub(crate) fn press(link: &mut Link) -> anyhow::Result<Pressed> {
    let refused = match link.key(Key::Back) {
        Ok(()) => return Ok(Pressed::Key),
        Err(e) if keys_refused(&e) => e,
        Err(e) => return Err(e),
    };
    let pressed = match navigation_back(link)? {
        Some((x, y)) => {
            link.tap(x, y)?;
            Pressed::NavigationBar((x, y))
        }
        None => match back_button(&screen_nodes(link)?) {
            Some(node) => {
                link.tap(node.center.0, node.center.1)?;
                Pressed::Button(node.words.trim().to_string())
            }
            None => {
                tracing::debug!(serial = %link.device().serial, "BACK is refused, and nothing on the screen does what it does");
                return Err(refused.context(BackRefused));
            }
        },
    };
    link.flush()?;
    tracing::debug!(serial = %link.device().serial, %pressed, "pressed BACK");
    Ok(pressed)
}

/// [`press`], where the caller has another way on when nothing presses BACK: `None` then.
pub(crate) fn press_if_possible(link: &mut Link) -> anyhow::Result<Option<Pressed>> {
    match press(link) {
        Err(e) if crate::play::stop::is_back_refused(&e) => Ok(None),
        r => r.map(Some),
    }
}

/// Whether `e` is the phone refusing keys from its shell while taps land.
fn keys_refused(e: &anyhow::Error) -> bool {
    matches!(
        e.downcast_ref::<DeviceError>(),
        Some(DeviceError::Refused(Refusal::Keys { .. }))
    )
}

/// The centre of the navigation bar's back button on the screen now, where a bar with one
/// shows.
fn navigation_back(link: &mut Link) -> anyhow::Result<Option<(u32, u32)>> {
    let Some(bar) = link.call("finding the navigation bar", |d| d.navigation_bar())? else {
        return Ok(None);
    };
    let frame = link.grab()?;
    Ok(vision::back_button(&frame, bar))
}

/// The nodes of the window in front (none where `uiautomator` cannot read it).
fn screen_nodes(link: &mut Link) -> anyhow::Result<Vec<UiNode>> {
    let dump = link.call("reading the screen's words", |d| d.ui_dump())?;
    Ok(dump.screen.map(|s| s.nodes).unwrap_or_default())
}

/// A button among `nodes` that does what BACK does: the app's up button, or a dialog's button
/// that closes it.
fn back_button(nodes: &[UiNode]) -> Option<&UiNode> {
    let named = |words: &[&str]| {
        nodes
            .iter()
            .find(|n| n.clickable && words.iter().any(|w| n.words.trim().eq_ignore_ascii_case(w)))
    };
    named(&DISMISS_BUTTONS).or_else(|| named(&UP_BUTTONS))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buttons_that_do_what_back_does() {
        let node = |w: &str, clickable: bool| UiNode {
            words: w.into(),
            center: (1, 2),
            clickable,
        };
        let rate = [node("Rate", true), node("Not now", true)];
        assert_eq!(
            back_button(&rate).map(|n| n.words.as_str()),
            Some("Not now")
        );
        let game = [node("Level 3", false), node("Navigate up", true)];
        assert_eq!(
            back_button(&game).map(|n| n.words.as_str()),
            Some("Navigate up")
        );
        // Words that are not a button's, and buttons that go elsewhere.
        let end = [node("Close", false), node("Next", true), node("Home", true)];
        assert_eq!(back_button(&end), None);
    }
}
