//! Pacing and the channel's rate: how far apart taps go out (`--pace`), and taps per second
//! over the time taps were in flight (screenshots and the search between flushes do not count).

use std::time::{Duration, Instant};

/// Keeps taps at least `every` apart (zero: as fast as the phone takes them): as they are sent,
/// or, `on_phone`, as the phone gets them.
#[derive(Debug, Clone)]
pub(super) struct Pace {
    every: Duration,
    /// Whether the gap counts from when the last tap was proven in the phone's input (taps sent
    /// apart may be read together by a busy phone).
    pub(super) on_phone: bool,
    last: Option<Instant>,
}

impl Pace {
    pub(super) fn new(every: Duration, on_phone: bool) -> Pace {
        Pace {
            every,
            on_phone: on_phone && !every.is_zero(),
            last: None,
        }
    }

    /// The last tap was proven in the phone's input at `at`: with `on_phone`, the next waits
    /// `every` from there.
    pub(super) fn proven(&mut self, at: Instant) {
        if self.on_phone {
            self.last = Some(at);
        }
    }

    /// Waits until the next tap may go out.
    pub(super) fn wait(&mut self) {
        if self.every.is_zero() {
            return;
        }
        if let Some(last) = self.last {
            let next = last + self.every;
            let now = Instant::now();
            if next > now {
                std::thread::sleep(next - now);
            }
        }
        self.last = Some(Instant::now());
    }

    /// Taps per batch: `batch` when not pacing, one at a time when pacing.
    pub(super) fn batch(&self, batch: usize) -> usize {
        if self.every.is_zero() {
            batch.max(1)
        } else {
            1
        }
    }
}

/// The channel's working time and the taps done in it.
#[derive(Debug, Default)]
pub(super) struct Rate {
    /// Since when taps have been in flight (`None`: idle since the last flush).
    busy_since: Option<Instant>,
    /// How long they were in flight before that.
    busy: Duration,
    /// Taps done when the rate started to be measured.
    base: u64,
}

impl Rate {
    /// A tap goes out: the channel is busy from now on, if it was idle.
    pub(super) fn busy(&mut self) {
        self.busy_since.get_or_insert_with(Instant::now);
    }

    /// Nothing is in flight any more: the working time so far is counted.
    pub(super) fn idle(&mut self) {
        if let Some(since) = self.busy_since.take() {
            self.busy += since.elapsed();
        }
    }

    /// Taps done since [`Rate::restart`] (of `done` in all), and the working time they took.
    pub(super) fn sample(&self, done: u64) -> (u64, Duration) {
        let busy = self.busy + self.busy_since.map_or(Duration::ZERO, |s| s.elapsed());
        (done - self.base.min(done), busy)
    }

    /// Measures from the next tap on; `done` taps so far.
    pub(super) fn restart(&mut self, done: u64) {
        *self = Rate {
            base: done,
            ..Rate::default()
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn on_the_phone_the_gap_counts_from_the_proof_not_from_the_send() {
        let every = Duration::from_millis(30);
        // As sent, a proof changes nothing.
        let mut sent = Pace::new(every, false);
        sent.wait();
        let last = sent.last;
        sent.proven(Instant::now() + every);
        assert_eq!(sent.last, last);

        let mut phone = Pace::new(every, true);
        phone.wait();
        let proof = Instant::now() + Duration::from_millis(20);
        phone.proven(proof);
        phone.wait();
        assert!(Instant::now() >= proof + every);
        // No gap, nothing to prove.
        assert!(!Pace::new(Duration::ZERO, true).on_phone);
    }
}
