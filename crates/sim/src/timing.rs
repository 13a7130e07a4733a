//! What the simulated phone's work costs in time (`--timing instant|phone`); the queue in which
//! touches wait for the app is `crate::dispatch`.
//!
//! With [`TimingMode::Phone`] every cost is real elapsed time on the phone's side: a command
//! does not finish (and so an `echo ack` after it is not printed) before the phone has spent
//! it, and a tap changes the screen only once the app has handled it. The figures are per
//! profile ([`PhoneTiming`], documented with their sources in docs/simulated-phone.md):
//!
//! - `input ...` up to Android 11 (API 30) starts a Java process (`app_process`) each time:
//!   [`PhoneTiming::input_ms`]; from Android 12 (API 31) it is `cmd input`, a binder call into
//!   system_server: [`PhoneTiming::cmd_input_ms`]. Both then wait until the app has handled
//!   the down and the up (`INJECT_INPUT_EVENT_MODE_WAIT_FOR_FINISH`).
//! - Every other non-builtin command (`sendevent`, `getprop`, `dd`, `dumpsys`, ...) is a native
//!   process: [`PhoneTiming::process_ms`] to start.
//! - `screencap` takes a time drawn from its measured range, raw or PNG.
//! - The app spends [`PhoneTiming::app_tap_ms`] of UI time per touch. Touches from any channel
//!   queue in the input dispatcher (`crate::dispatch`) in arrival order; none is lost, they just
//!   wait.
//!
//! With [`TimingMode::Instant`] (the default of `autoplay sim`, and of the tests) everything
//! costs nothing and touches are handled on arrival.

use crate::android::SDK_CMD_INPUT;
use std::time::Duration;

/// `screenrecord`'s encoder and virtual display start ([`Costs::codec_start`]).
const CODEC_START_MS: u32 = 250;

/// Whether the simulated phone's work takes time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TimingMode {
    /// Everything is free: commands, screenshots and the app's UI time (fast tests).
    #[default]
    Instant,
    /// Costs what the profile's phone costs (the timing table of docs/simulated-phone.md).
    Phone,
}

/// A profile's costs, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PhoneTiming {
    /// Start-up of one `input` command up to Android 11 (a Java process per call).
    pub input_ms: u32,
    /// The fixed cost of one `input` command from Android 12 on (`cmd input`: the `input`
    /// script, the native `cmd` and a binder call into system_server, no Java start-up); an
    /// estimate (README, "The simulated phone's timing model"). 0 where it does not apply.
    pub cmd_input_ms: u32,
    /// Start-up of one native process (`sendevent`, `getprop`, `dd`, `dumpsys`, ...).
    pub process_ms: u32,
    /// One raw `screencap` (min, max).
    pub screencap_raw_ms: (u32, u32),
    /// One `screencap -p` (PNG encoding on the phone; min, max).
    pub screencap_png_ms: (u32, u32),
    /// The app's UI time per touch (a tap's down and up).
    pub app_tap_ms: u32,
    /// One asynchronous `injectInputEvent` from the injector's already running Java process
    /// (one binder call into system_server, which queues the event and returns), in
    /// microseconds; an estimate (README, "The simulated phone's timing model").
    pub inject_us: u32,
}

/// What one piece of the phone's work costs under a mode.
#[derive(Debug, Clone, Copy)]
pub struct Costs {
    pub mode: TimingMode,
    pub phone: PhoneTiming,
}

impl Costs {
    fn ms(&self, ms: u32) -> Duration {
        match self.mode {
            TimingMode::Instant => Duration::ZERO,
            TimingMode::Phone => Duration::from_millis(u64::from(ms)),
        }
    }

    /// The fixed cost of an `input` command on API level `sdk` (before it waits for the app).
    pub fn input(&self, sdk: u32) -> Duration {
        if sdk >= SDK_CMD_INPUT {
            self.ms(self.phone.cmd_input_ms)
        } else {
            self.ms(self.phone.input_ms)
        }
    }

    /// Start-up of a Java program (`app_process`: the injector, or `input` up to Android 11).
    pub fn java(&self) -> Duration {
        self.ms(self.phone.input_ms)
    }

    /// One event injected by the injector.
    pub fn inject_event(&self) -> Duration {
        match self.mode {
            TimingMode::Instant => Duration::ZERO,
            TimingMode::Phone => Duration::from_micros(u64::from(self.phone.inject_us)),
        }
    }

    /// What `screenrecord` takes between its process's start and its first frame: creating
    /// the AVC encoder, its input surface and the virtual display (an estimate, as
    /// docs/simulated-phone.md says).
    pub fn codec_start(&self) -> Duration {
        self.ms(CODEC_START_MS)
    }

    /// Start-up of a native process.
    pub fn process(&self) -> Duration {
        self.ms(self.phone.process_ms)
    }

    /// One screenshot; `unit` in [0, 1) picks the point in the measured range.
    pub fn screencap(&self, png: bool, unit: f64) -> Duration {
        let (lo, hi) = if png {
            self.phone.screencap_png_ms
        } else {
            self.phone.screencap_raw_ms
        };
        let span = f64::from(hi.saturating_sub(lo));
        self.ms(lo + (span * unit.clamp(0.0, 1.0)) as u32)
    }

    /// The app's UI time for one touch.
    pub(crate) fn app_tap(&self) -> Duration {
        self.ms(self.phone.app_tap_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile;

    #[test]
    fn instant_mode_costs_nothing() {
        let phone = profile::profile("budget").unwrap().timing;
        let instant = Costs {
            mode: TimingMode::Instant,
            phone,
        };
        assert_eq!(
            instant.input(28) + instant.screencap(true, 0.5),
            Duration::ZERO
        );
        let real = Costs {
            mode: TimingMode::Phone,
            phone,
        };
        assert_eq!(real.input(28), Duration::from_millis(900));
        let pixel = Costs {
            mode: TimingMode::Phone,
            phone: profile::profile("pixel").unwrap().timing,
        };
        assert_eq!(
            pixel.input(30),
            Duration::from_millis(350),
            "a Java start-up"
        );
        assert_eq!(pixel.input(34), Duration::from_millis(40), "cmd input");
        let (lo, hi) = phone.screencap_png_ms;
        let mid = real.screencap(true, 0.5).as_millis() as u32;
        assert!(lo <= mid && mid <= hi);
    }
}
