//! The phone's hardware keys, as `input keyevent` sends them.

/// Hardware keys for `input keyevent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Back,
    Home,
    /// KEYCODE_WAKEUP (224): turns the display on, never off.
    Wakeup,
    /// KEYCODE_SLEEP (223): turns the display off.
    Sleep,
    /// KEYCODE_POWER (26): toggles the display.
    Power,
}
