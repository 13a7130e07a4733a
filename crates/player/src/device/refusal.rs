//! A phone that refuses input injected from the adb shell: a fact about the device, seen by
//! any command that injects (`input keyevent`'s output, `input tap`'s on the tap channel, the
//! `inject` channel's start-up check, `tap/injector.rs`). Data, not advice: `autoplay` words what
//! to do (Xiaomi's "USB debugging (Security settings)", `src/cli/refusal.rs`).

/// The phone refuses input injected from the adb shell: no tap channel can work.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize)]
pub enum Refusal {
    /// Injecting threw a `SecurityException` (`said`, as the phone worded it): from Android 13
    /// every injection does, before it the check key, which waits for the dispatcher's verdict.
    #[error("the phone refuses input injected from the adb shell ({said})")]
    Denied { said: String },
    /// Before Android 13 (API `sdk`), with the screen off: the check cannot tell, and the
    /// screen stayed off after an injected `KEYCODE_WAKEUP`, which a refusing phone drops
    /// without a word too.
    #[error(
        "the screen is off and stayed off after an injected KEYCODE_WAKEUP (API {sdk}): the phone drops input injected from the adb shell without a word, or its screen cannot be woken from there"
    )]
    WakeIgnored { sdk: u32 },
    /// A key (BACK) injected from the adb shell threw the `SecurityException` (`said`), while
    /// the tap channel's taps, written into the touch panel, land: a touch can press only what
    /// shows on the screen (the navigation bar's back button, `phone::back`).
    #[error(
        "the phone refuses keys injected from the adb shell ({said}), while the taps written into its touch panel land"
    )]
    Keys { said: String },
}

impl Refusal {
    /// The refusal `said` is, if it is one (a `SecurityException` naming `INJECT_EVENTS`).
    pub fn in_text(said: &str) -> Option<Refusal> {
        let line = said
            .lines()
            .find(|l| l.contains("SecurityException") || l.contains("INJECT_EVENTS"))?;
        Some(Refusal::Denied {
            said: line.trim().to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_are_read_from_what_the_phone_said() {
        let said = "java.lang.SecurityException: Injecting to another application requires INJECT_EVENTS permission";
        assert_eq!(
            Refusal::in_text(&format!(
                "Exception occurred while executing 'keyevent':\n{said}\n\tat ..."
            )),
            Some(Refusal::Denied { said: said.into() })
        );
        assert_eq!(Refusal::in_text("not injected"), None);
        assert_eq!(Refusal::in_text("screen off"), None);
    }
}
