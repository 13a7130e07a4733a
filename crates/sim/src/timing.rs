//! What the simulated phone's work costs in time (`--timing instant|phone`), and its input
//! dispatcher: the queue in which touches wait for the app.
//!
//! With [`TimingMode::Phone`] every cost is real elapsed time on the phone's side: a command
//! does not finish (and so an `echo ack` after it is not printed) before the phone has spent
//! it, and a tap changes the screen only once the app has handled it. The figures are per
//! profile ([`PhoneTiming`], documented with their sources in the README):
//!
//! - `input ...` up to Android 11 (API 30) starts a Java process (`app_process`) each time:
//!   [`PhoneTiming::input_ms`]; from Android 12 (API 31) it is `cmd input`, a binder call into
//!   system_server: [`PhoneTiming::cmd_input_ms`]. Both then wait until the app has handled
//!   the down and the up (`INJECT_INPUT_EVENT_MODE_WAIT_FOR_FINISH`).
//! - Every other non-builtin command (`sendevent`, `getprop`, `dd`, `dumpsys`, ...) is a native
//!   process: [`PhoneTiming::process_ms`] to start.
//! - `screencap` takes a time drawn from its measured range, raw or PNG.
//! - The app spends [`PhoneTiming::app_tap_ms`] of UI time per touch. Touches from any channel
//!   queue in the [`Dispatcher`] in arrival order; none is lost, they just wait.
//!
//! With [`TimingMode::Instant`] (the default of `autoplay sim`, and of the tests) everything
//! costs nothing and touches are handled on arrival.

use crate::app::{Key, Phone};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Whether the simulated phone's work takes time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TimingMode {
    /// Everything is free: commands, screenshots and the app's UI time (fast tests).
    #[default]
    Instant,
    /// Costs what the profile's phone costs (see the README's timing table).
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
        if sdk >= crate::profile::SDK_CMD_INPUT {
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

/// Something the app handles from the input queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Tap(i32, i32),
    Swipe {
        from: (i32, i32),
        to: (i32, i32),
        ms: u32,
    },
    Key(Key),
}

impl Action {
    /// Applies the action, which the app handles at `at`.
    fn apply(self, phone: &mut Phone, at: Instant) {
        match self {
            Action::Tap(x, y) => phone.tap_at(x, y, at),
            Action::Swipe { from, to, ms } => phone.swipe(from.0, from.1, to.0, to.1, ms),
            Action::Key(k) => phone.key(k),
        }
    }
}

/// The input dispatcher's queue: each action becomes due when the app has had its UI time
/// for it (after everything queued before it). Actions are applied lazily, when anything
/// looks at the app ([`Dispatcher::settle`]), which is the same as applying them on time.
#[derive(Debug, Default)]
pub struct Dispatcher {
    queue: VecDeque<(Instant, Action)>,
    busy_until: Option<Instant>,
}

impl Dispatcher {
    /// Queues `action`, which takes the app `ui` once it gets to it; returns when it is done.
    pub fn push(&mut self, action: Action, ui: Duration, now: Instant) -> Instant {
        let start = self.busy_until.map_or(now, |b| b.max(now));
        let due = start + ui;
        self.busy_until = Some(due);
        self.queue.push_back((due, action));
        due
    }

    /// Applies to `phone` every action due at `now`, in order.
    pub fn settle(&mut self, phone: &mut Phone, now: Instant) {
        while let Some(&(due, action)) = self.queue.front() {
            if due > now {
                break;
            }
            self.queue.pop_front();
            action.apply(phone, due);
        }
    }

    /// Actions not handled yet at `now` (call [`Dispatcher::settle`] first).
    pub fn pending(&self) -> impl Iterator<Item = &(Instant, Action)> {
        self.queue.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::AppOptions;
    use crate::profile;

    #[test]
    fn touches_queue_behind_each_other_and_apply_when_due() {
        let mut phone = Phone::new(
            profile::profile("pixel").unwrap().clone(),
            AppOptions::default(),
        );
        let mut d = Dispatcher::default();
        let t0 = Instant::now();
        let ui = Duration::from_millis(5);
        let a = d.push(Action::Tap(1, 1), ui, t0);
        let b = d.push(Action::Tap(1, 1), ui, t0);
        assert_eq!(
            (a - t0, b - t0),
            (ui, 2 * ui),
            "the second waits for the first"
        );
        d.settle(&mut phone, t0 + Duration::from_millis(7));
        assert_eq!(phone.dumpsys()["taps"], 1);
        assert_eq!(d.pending().count(), 1);
        d.settle(&mut phone, t0 + Duration::from_millis(10));
        assert_eq!(phone.dumpsys()["taps"], 2);
        // An idle app starts on a new touch at once.
        let later = t0 + Duration::from_secs(1);
        assert_eq!(d.push(Action::Tap(1, 1), ui, later), later + ui);
    }

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
