//! A dark screen woken (`KEYCODE_WAKEUP`) and a plain lock screen swiped away; a secured one
//! stops the run ([`Stop::Locked`]). A run meets them before it starts (to learn which app is in
//! front) and while it plays ([`PhoneTarget`](super::target::PhoneTarget)'s looks).

use super::link::Link;
use crate::device::android::{Key, PhoneState};
use crate::play::stop::Stop;
use std::time::Duration;

/// How long the phone gets to draw after being woken, unlocked or switched to the app.
pub(crate) const DRAW_TIME: Duration = Duration::from_millis(600);

/// Wakes the screen, or swipes the lock screen away, where `state` shows it dark or locked
/// (the screen `size` as it is held); whether it did.
pub(crate) fn wake(link: &mut Link, state: &PhoneState, size: (u32, u32)) -> anyhow::Result<bool> {
    let (w, h) = size;
    let what = if state.asleep {
        link.key(Key::Wakeup)?;
        "the screen was off: woke it up"
    } else if state.keyguard {
        if state.secure {
            return Err(Stop::Locked.into());
        }
        link.swipe((w / 2, h * 17 / 20), (w / 2, h / 4), 300)?;
        "the lock screen showed: swiped it away"
    } else {
        return Ok(false);
    };
    after_interruption(link, what.to_string())?;
    Ok(true)
}

/// After an interruption dealt with (`what`): the taps carried out, the interruption counted,
/// and the phone given time to draw.
pub(crate) fn after_interruption(link: &mut Link, what: String) -> anyhow::Result<()> {
    link.flush()?;
    link.interruption(what);
    std::thread::sleep(DRAW_TIME);
    Ok(())
}
