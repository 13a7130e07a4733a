//! What to do about a phone that refuses injected input, for the user: the library finds the
//! refusal ([`Refusal`]), this words the remedy. Xiaomi phones (MIUI, HyperOS) refuse until
//! "USB debugging (Security settings)" is on and the phone rebooted (scrcpy's README and its log
//! message since v3.3; `injector/README.md`).

use sudoku_autoplay::device::DeviceError;
use sudoku_autoplay::device::Refusal;
use sudoku_autoplay::play::stop::RunFailed;

const SETTING: &str = "turn on \"USB debugging (Security settings)\" in Developer options, reboot the phone, and run again";

/// What the user can do about `refusal`.
pub fn remedy(refusal: &Refusal) -> String {
    match refusal {
        Refusal::Denied { .. } => format!(
            "no tap channel can work on this phone: it refuses injected input (a Xiaomi phone, MIUI or HyperOS?): {SETTING}"
        ),
        Refusal::WakeIgnored { .. } => format!(
            "turn the screen on, unlock it and run again; if it was on, the phone refuses injected input (a Xiaomi phone, MIUI or HyperOS?): {SETTING}"
        ),
        Refusal::Keys { .. } => format!(
            "taps land on this phone, but it refuses keys injected from the adb shell, such as BACK, and nothing on its screen does what BACK does (a Xiaomi phone, MIUI or HyperOS?): {SETTING}"
        ),
    }
}

/// The refusal that stopped `e`, if one did (also in a recorded run's [`RunFailed`]: a refusal
/// found after the first tap, such as keys refused where taps land).
pub fn of(e: &anyhow::Error) -> Option<&Refusal> {
    if let Some(f) = e.downcast_ref::<RunFailed>() {
        return of(&f.error);
    }
    e.chain()
        .find_map(|cause| match cause.downcast_ref::<DeviceError>() {
            Some(DeviceError::Refused(refusal)) => Some(refusal),
            _ => cause.downcast_ref::<Refusal>(),
        })
}
