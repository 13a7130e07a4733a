//! The input dispatcher: the queue in which touches from every channel wait for the app, each
//! handled once the app has had its UI time for the ones before it (`crate::timing`).

use crate::app::{Key, Phone};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

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
}
