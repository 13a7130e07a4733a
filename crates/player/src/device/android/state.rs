//! The phone's state: `dumpsys power` (is the screen on), `dumpsys window policy` (the lock
//! screen) and `dumpsys window` (the window in front), parsed into a [`PhoneState`].

/// One shell line that prints everything [`PhoneState::parse`] reads.
pub(crate) const STATE_COMMAND: &str = "dumpsys power; dumpsys window policy; dumpsys window";

/// What the system says about the display, the lock screen and the window in front.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PhoneState {
    /// `mWakefulness=` other than `Awake` (`Asleep`, `Dozing`, `Dreaming`): the app is not on a
    /// lit screen.
    pub asleep: bool,
    /// The wakefulness as said (`None`: no line found).
    pub wakefulness: Option<Wakefulness>,
    /// The lock screen shows (`showing=true` of the keyguard delegate).
    pub keyguard: bool,
    /// It needs a PIN, pattern or password (`secure=true`).
    pub secure: bool,
    /// The window with input focus: `PACKAGE/ACTIVITY`, or a system window such as
    /// `NotificationShade` (the lock screen).
    pub focus: Option<String>,
}

impl PhoneState {
    /// Parses the output of [`STATE_COMMAND`]; what is missing stays at its default.
    pub fn parse(text: &str) -> PhoneState {
        let mut s = PhoneState::default();
        let mut in_keyguard = false;
        let mut wakefulness = None;
        // Focus lines: each display's (Android 10+ print one per display, a foldable's cover
        // screen has its own), and the ones outside a display's block.
        let mut top = "0";
        let mut per_display: Vec<(&str, Option<String>)> = Vec::new();
        let mut global = None;
        for (display, l) in super::display::display_lines(text) {
            if let Some(id) = l.strip_prefix("mTopFocusedDisplayId=") {
                top = id.trim();
            }
            // The first one is the device's (later ones belong to power groups); Samsung's
            // builds print `getWakefulnessLocked()=`.
            let awake = l
                .strip_prefix("mWakefulness=")
                .or_else(|| l.strip_prefix("getWakefulnessLocked()="));
            if let Some(v) = awake {
                wakefulness = wakefulness.or(parse_wakefulness(v));
            } else if l.starts_with("KeyguardServiceDelegate") {
                in_keyguard = true;
            } else if in_keyguard && let Some(v) = l.strip_prefix("showing=") {
                s.keyguard = v.trim() == "true";
            } else if in_keyguard && let Some(v) = l.strip_prefix("secure=") {
                s.secure = v.trim() == "true";
            } else if let Some(v) = l.strip_prefix("mCurrentFocus=") {
                match display {
                    Some(id) => per_display.push((id, parse_focus(v))),
                    None => global = Some(parse_focus(v)),
                }
            }
        }
        // The focused display's focus; else the one outside the display blocks.
        s.focus = per_display
            .into_iter()
            .find(|(id, _)| *id == top)
            .map(|(_, f)| f)
            .or(global)
            .flatten();
        s.asleep = wakefulness.is_some_and(|w| w != Wakefulness::Awake);
        s.wakefulness = wakefulness;
        s
    }

    /// The package of the focused window, if it belongs to an app.
    pub(crate) fn focused_package(&self) -> Option<&str> {
        self.focus.as_deref()?.split_once('/').map(|(p, _)| p)
    }
}

/// Android's wakefulness states (`PowerManagerInternal.WAKEFULNESS_*`), by name or number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Wakefulness {
    Asleep,
    Awake,
    Dreaming,
    Dozing,
}

fn parse_wakefulness(v: &str) -> Option<Wakefulness> {
    Some(match v.trim() {
        "Asleep" | "0" => Wakefulness::Asleep,
        "Awake" | "1" => Wakefulness::Awake,
        "Dreaming" | "2" => Wakefulness::Dreaming,
        "Dozing" | "3" => Wakefulness::Dozing,
        _ => return None,
    })
}

/// `Window{5a1c0de u0 org.x/org.x.Main}` -> `org.x/org.x.Main` (Android 4's
/// `Window{b4d2a948 org.x/org.x.Main paused=false}` too); a system window's name
/// (`NotificationShade`) as it is; `null` -> `None`.
fn parse_focus(v: &str) -> Option<String> {
    let inner = v.trim().strip_prefix("Window{")?.strip_suffix('}')?;
    let words: Vec<&str> = inner
        .split_whitespace()
        .skip(1)
        .filter(|w| !w.contains('='))
        .collect();
    let name = words.iter().find(|w| w.contains('/')).or(words.last())?;
    Some(name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_outputs_read_as_recorded() {
        let power = crate::real_outputs::with_truth("wakefulness");
        for (file, text, w) in &power {
            let awake = w.as_str() == Some("Awake");
            assert_eq!(PhoneState::parse(text).asleep, !awake, "{file}: {w}");
        }
        let window = crate::real_outputs::with_truth("focus");
        for (file, text, focus) in &window {
            let state = PhoneState::parse(text);
            match focus.as_str().unwrap() {
                "" => assert_eq!(state.focused_package(), None, "{file}: {:?}", state.focus),
                f => assert_eq!(state.focus.as_deref(), Some(f), "{file}"),
            }
        }
        assert!(power.len() >= 2 && window.len() >= 5);
    }

    #[test]
    fn the_focused_displays_focus_wins() {
        let two = "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n  Display: mDisplayId=0\n    \
                   mCurrentFocus=Window{1 u0 org.x/org.x.Game}\n  Display: mDisplayId=1\n    \
                   mCurrentFocus=Window{2 u0 com.android.launcher3/com.android.launcher3.Launcher}\n\n\
                   WINDOW MANAGER WINDOWS (dumpsys window windows)\n  mTopFocusedDisplayId=0\n";
        assert_eq!(
            PhoneState::parse(two).focus.as_deref(),
            Some("org.x/org.x.Game")
        );
        let top1 = two.replace("mTopFocusedDisplayId=0", "mTopFocusedDisplayId=1");
        assert_eq!(
            PhoneState::parse(&top1).focused_package(),
            Some("com.android.launcher3")
        );
        // Outside display blocks (old releases, `windows` only): that line.
        let old = "  mCurrentFocus=Window{b4d2a948 org.x/org.x.Main paused=false}\n";
        assert_eq!(
            PhoneState::parse(old).focus.as_deref(),
            Some("org.x/org.x.Main")
        );
    }

    #[test]
    fn wakefulness_in_every_format() {
        let asleep = |t: &str| PhoneState::parse(t).asleep;
        assert!(!asleep("  mWakefulness=Awake\n"));
        assert!(asleep("  mWakefulness=Dozing\n"));
        assert!(asleep("  mWakefulness=Dreaming\n"));
        assert!(asleep("getWakefulnessLocked()=Asleep\n"));
        assert!(asleep("  mWakefulness=0\n"));
        // The device's line comes first; a power group's later line does not overrule it.
        assert!(asleep("  mWakefulness=Asleep\n    mWakefulness=Awake\n"));
    }

    #[test]
    fn phone_state_from_dumpsys() {
        let text = "POWER MANAGER (dumpsys power)\n  mWakefulness=Asleep\n\
            WINDOW MANAGER POLICY STATE (dumpsys window policy)\n    KeyguardServiceDelegate\n      showing=true\n      \
            showingAndNotOccluded=true\n      secure=true\n\
            WINDOW MANAGER WINDOWS (dumpsys window windows)\n  mCurrentFocus=Window{5a1c0de u0 NotificationShade}\n  \
            mFocusedApp=ActivityRecord{3c1f2a9 u0 org.x/.Main t7}\n";
        let s = PhoneState::parse(text);
        assert_eq!(
            s,
            PhoneState {
                asleep: true,
                wakefulness: Some(Wakefulness::Asleep),
                keyguard: true,
                secure: true,
                focus: Some("NotificationShade".into()),
            }
        );
        assert_eq!(s.focused_package(), None);
        let awake = PhoneState::parse(
            "mWakefulness=Awake\nmCurrentFocus=Window{1 u0 com.android.launcher3/com.android.launcher3.Launcher}\n",
        );
        assert!(!awake.asleep && !awake.keyguard);
        assert_eq!(awake.focused_package(), Some("com.android.launcher3"));
        assert_eq!(PhoneState::parse("mCurrentFocus=null\n").focus, None);
        assert_eq!(PhoneState::parse("garbage\n"), PhoneState::default());
    }
}
