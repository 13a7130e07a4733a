//! When the performance looks at the screen next: a verification after so many taps or so
//! long since the last, and a glance at the board in between (less often where screenshots are
//! slow). The times are on the target's clock (`Target::now`).

use std::time::{Duration, Instant};

/// The looks so far, as far as the next one is concerned.
pub(super) struct Looks {
    /// Taps sent since the last verification.
    pub(super) taps: u64,
    pub(super) last_verify: Instant,
    pub(super) last_look: Instant,
    /// The glance interval: the option, or longer where screenshots are slow (a glance costs
    /// at most about an eighth of the time).
    pub(super) glance_every: Duration,
}

impl Looks {
    /// No look yet at `now`; glances every `glance_every` (zero: before every step).
    pub(super) fn new(now: Instant, glance_every: Duration) -> Looks {
        Looks {
            taps: 0,
            last_verify: now,
            last_look: now,
            glance_every,
        }
    }

    /// A verification looks at `now`.
    pub(super) fn verifying(&mut self, now: Instant) {
        self.taps = 0;
        self.last_verify = now;
        self.last_look = now;
    }
}
