//! The phone as the shell sees it: the app, the touchscreen decoder and the realism knobs,
//! shared by every connection and stream.

use super::touch::{Gesture, TouchDecoder};
use crate::sim::app::Phone;
use crate::sim::profile::Profile;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// Realism knobs of the device (not of the app).
#[derive(Debug, Clone, Default)]
pub struct Knobs {
    /// How long one `input` command takes.
    pub input_latency: Duration,
    /// Drop the TCP connection after this many shell commands (once).
    pub disconnect_after: Option<u64>,
}

/// Shared device state.
pub struct Device {
    profile: Profile,
    phone: Mutex<Phone>,
    touch: Mutex<TouchDecoder>,
    knobs: Knobs,
    commands: AtomicU64,
    dropped: AtomicBool,
}

impl Device {
    /// A device running `phone`.
    pub fn new(phone: Phone, knobs: Knobs) -> Device {
        Device {
            profile: phone.profile().clone(),
            phone: Mutex::new(phone),
            touch: Mutex::new(TouchDecoder::default()),
            knobs,
            commands: AtomicU64::new(0),
            dropped: AtomicBool::new(false),
        }
    }

    /// The device profile.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// The knobs.
    pub fn knobs(&self) -> &Knobs {
        &self.knobs
    }

    /// Locks the app (never held across an await).
    pub fn phone(&self) -> MutexGuard<'_, Phone> {
        self.phone.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Feeds one `sendevent` to the touchscreen and performs the gestures it completes.
    pub fn touch_event(&self, kind: u16, code: u16, value: i32) {
        let gestures = self.touch.lock().unwrap_or_else(|e| e.into_inner()).event(
            &self.profile,
            kind,
            code,
            value,
        );
        if gestures.is_empty() {
            return;
        }
        let mut phone = self.phone();
        for g in gestures {
            match g {
                Gesture::Tap(x, y) => phone.tap(x, y),
                Gesture::Swipe { from, to, ms } => phone.swipe(from.0, from.1, to.0, to.1, ms),
            }
        }
    }

    /// Counts one executed shell command; returns true exactly once, when the
    /// `--disconnect-after` budget is reached and the connection should be dropped.
    pub fn count_command(&self) -> bool {
        let n = self.commands.fetch_add(1, Ordering::SeqCst) + 1;
        match self.knobs.disconnect_after {
            Some(limit) if n >= limit => !self.dropped.swap(true, Ordering::SeqCst),
            _ => false,
        }
    }

    /// Shell commands executed so far (all connections).
    pub fn commands_run(&self) -> u64 {
        self.commands.load(Ordering::SeqCst)
    }
}
