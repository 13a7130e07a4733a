//! The one trait every tap channel implements ([`TapChannel`]): a channel owns its spelling (a
//! tap as shell lines or as records on a stream of its own), its stream, and its proof (what
//! the control shell runs to show how far that stream is carried out, how far it is
//! acknowledged, what a flush waits for). It also says whether it is possible on a phone, and
//! why, which the table (`table.rs`) asks for the choice and for doctor. The [`Tapper`]
//! (`mod.rs`) keeps what every channel shares: batches, the window, pacing and the ledger.
//!
//! [`Tapper`]: super::Tapper

use super::kind::{Channel, ChannelKind};
use super::options::TapperOptions;
use super::shell::AckState;
use super::verdict::{Asking, Phone, Verdict};
use crate::device::{Device, DeviceError};
use std::time::Duration;

/// How a channel's own stream failed.
pub(super) enum Fault {
    /// It ended: the [`Tapper`](super::Tapper) words it (with what the stream said, [`TapChannel::said`]).
    Closed,
    /// Another error, worded.
    Failed(DeviceError),
}

/// One tap channel, open on a phone (and, as a type, the table's row: its kind, its verdict
/// on a phone, how it opens).
pub(super) trait TapChannel: Send {
    /// Its kind.
    fn kind() -> ChannelKind
    where
        Self: Sized;

    /// Whether it is possible on `phone`, and why ([`Asking`]: for tapping or for a report).
    fn possible(phone: &mut Phone<'_>, asking: Asking) -> Result<Verdict, DeviceError>
    where
        Self: Sized;

    /// Opens it as `chosen` says, for taps on a display of size `screen`.
    fn open(
        device: &Device,
        chosen: &Channel,
        options: &TapperOptions,
        screen: (u32, u32),
    ) -> Result<Self, DeviceError>
    where
        Self: Sized;

    /// Spells a tap at display pixel `at`: into `lines` (the control shell's batch being
    /// built) or onto its own stream's pending records. `batch`: the number of the last batch
    /// given out.
    fn tap(&mut self, at: (u32, u32), lines: &mut String, batch: u64) -> Result<(), Fault>;

    /// Whether a swipe is one contact dragged on the touch panel ([`TapChannel::drag`]), which
    /// no refusal of injected input stops; otherwise it is an `input swipe` line.
    fn drags(&self) -> bool {
        false
    }

    /// Drags one contact through display points `at` over `time` (only where
    /// [`TapChannel::drags`]), into `lines` or its own stream.
    fn drag(&mut self, at: &[(u32, u32)], time: Duration, lines: &mut String) -> Result<(), Fault> {
        let _ = (at, time, lines);
        Ok(())
    }

    /// Whether its taps are `input` lines: then a refusal `input` prints ends the channel (on
    /// the others only keys and `input swipe` go through `input`, and their taps still land).
    fn taps_by_input(&self) -> bool {
        false
    }

    /// Whether records wait on its own stream.
    fn pending(&self) -> bool {
        false
    }

    /// Sends the records waiting on its own stream; where they end there (the mark its proof
    /// must reach for the batch to count; `None`: nothing sent).
    fn send(&mut self) -> Result<Option<u64>, Fault> {
        Ok(None)
    }

    /// The lines the control shell runs before each batch's ack to prove its own stream
    /// (`raw`: the `dd`'s `/proc/PID/io`).
    fn proof_lines(&self) -> String {
        String::new()
    }

    /// How far its own stream is carried out, from what the shell said ([`AckState`]) or
    /// what the stream itself acknowledged (`None`: the shell's ack is the whole proof).
    fn acked(&self, shell: &AckState) -> Option<u64> {
        let _ = shell;
        None
    }

    /// Whether its events are queued behind the ack (they reach the dispatcher after the
    /// shell's line returned): each batch then asks the dispatcher, and the events it still
    /// holds do not count as done. (`input` and `sendevent` lines return once it has them.)
    fn queued_behind_ack(&self) -> bool {
        false
    }

    /// Polls in a row of an empty input dispatcher a flush needs (0: the acks are the proof).
    fn flush_polls(&self) -> u32;

    /// What is stuck when its stream's proof stops moving, for the time-out's message.
    fn stalled(&self) -> String {
        "the tap channel's own stream (nothing more acknowledged)".into()
    }

    /// Whether its own stream ended.
    fn ended(&self) -> bool {
        false
    }

    /// What its stream said before it ended, as words after "the tap channel closed" (empty:
    /// nothing).
    fn said(&self) -> String {
        String::new()
    }
}
