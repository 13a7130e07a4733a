//! The ledger of batches: which taps are written, and which are proven carried out.
//!
//! A batch is a run of taps (or commands) followed on the control shell by what proves it
//! ([`Batch::text`]): the channel's own proof lines (`raw`: `cat /proc/PID/io` of its `dd`,
//! whose `wchar` counts the bytes written into the panel), `dumpsys input` (the dispatcher's
//! queues) and `echo ack:N`. A batch is done once acked *and* its records, on a channel with a
//! stream of its own (`raw`, `inject`), are proven up to where they end there (`wchar`, the
//! injector's `ok SEQ`): that stream is not the shell's, so an ack says nothing about records
//! still in transit on it. Taps count as done only once they left the dispatcher's queues (two
//! queued events, down and up, per tap). Where `/proc/PID/io` cannot be read, the ack and the
//! dispatcher's polls are all the proof there is.

use std::collections::VecDeque;
use std::time::Duration;

/// A written batch not yet proven done.
pub(super) struct Batch {
    pub(super) seq: u64,
    /// Its shell lines (taps or commands).
    pub(super) body: String,
    /// Whether `dumpsys input` follows them.
    pub(super) dispatcher: bool,
    /// Where its records end on the channel's own stream (`raw`: bytes sent into the `dd`;
    /// `inject`: the last record's seq; 0: none there).
    pub(super) end: u64,
    /// Taps written up to and including this batch.
    pub(super) written: u64,
}

impl Batch {
    /// What goes to the shell: the body, the channel's `proof` lines, the dispatcher's state,
    /// the ack.
    pub(super) fn text(&self, proof: &str) -> String {
        let mut text = self.body.clone();
        text.push_str(proof);
        if self.dispatcher {
            text.push_str("dumpsys input\n");
        }
        text.push_str(&format!("echo ack:{}\n", self.seq));
        text
    }
}

/// The batches written and not yet proven done, and the taps that are.
#[derive(Default)]
pub(super) struct Ledger {
    pub(super) unacked: VecDeque<Batch>,
    /// The last batch number given out.
    pub(super) seq: u64,
    /// Taps written so far.
    pub(super) written: u64,
    /// Taps the device has carried out (acknowledged and, where events queue behind the ack,
    /// out of the input queue).
    pub(super) done: u64,
}

impl Ledger {
    /// Numbers a batch.
    pub(super) fn number(&mut self, batch: &mut Batch) {
        self.seq += 1;
        batch.seq = self.seq;
    }

    /// Taps written but not proven done.
    pub(super) fn in_flight(&self) -> u64 {
        self.written - self.done.min(self.written)
    }

    /// Takes the acks in: the shell's highest ack, how far the channel's own stream is
    /// proven (`None`: unknown, or no such stream) and the dispatcher's queued events, if
    /// `queue_counts` (events queued behind the ack: `raw`, `inject`; `input` and `events`
    /// lines return when the dispatcher has them).
    pub(super) fn take_acks(
        &mut self,
        acked: u64,
        stream: Option<u64>,
        queued: Option<u64>,
        queue_counts: bool,
    ) {
        let mut written = None;
        while let Some(b) = self.unacked.front() {
            if b.seq > acked || stream.is_some_and(|c| c < b.end) {
                break;
            }
            written = Some(b.written);
            self.unacked.pop_front();
        }
        if let Some(w) = written {
            let waiting = if queue_counts { taps_queued(queued) } else { 0 };
            self.done = self.done.max(w.saturating_sub(waiting));
        }
    }
}

/// Taps still waiting for the app, from the dispatcher's queued events (down and up per tap).
pub(super) fn taps_queued(events: Option<u64>) -> u64 {
    events.unwrap_or(0).div_ceil(2)
}

/// How long to let the app work on `backlog` taps before asking again.
pub(super) fn poll_pause(backlog: u64) -> Duration {
    Duration::from_millis((backlog * 2).clamp(1, 50))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn batch(written: u64, end: u64) -> Batch {
        Batch {
            seq: 0,
            body: String::new(),
            dispatcher: false,
            end,
            written,
        }
    }

    #[test]
    fn a_batch_is_done_once_acked_and_copied_and_taps_once_out_of_the_queue() {
        let mut l = Ledger::default();
        for (written, end) in [(8, 240), (16, 480)] {
            let mut b = batch(written, end);
            l.number(&mut b);
            l.written = written;
            l.unacked.push_back(b);
        }
        // Both acked, but the dd copied only the first batch's records.
        l.take_acks(2, Some(300), Some(4), true);
        assert_eq!((l.unacked.len(), l.done), (1, 6), "two taps still queued");
        l.take_acks(2, Some(480), Some(0), true);
        assert_eq!((l.unacked.len(), l.done, l.in_flight()), (0, 16, 0));
        // Without /proc/PID/io the ack is the proof.
        let mut b = batch(20, 600);
        l.number(&mut b);
        l.written = 20;
        l.unacked.push_back(b);
        l.take_acks(3, None, None, false);
        assert_eq!(l.done, 20);
    }
}
