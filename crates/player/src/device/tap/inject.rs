//! The `inject` channel: a tap is a 16-byte record to one `app_process` injector on an `exec:`
//! stream of its own (`injector.rs`), which injects it asynchronously and answers `ok SEQ` once
//! the dispatcher has queued it. Those lines, never the shell's ack, prove its records: a batch
//! is written to the shell only once the injector acknowledged its records (then the shell's
//! dispatcher poll sees them queued or handled), and a flush waits once for an empty dispatcher.
//! It needs the injector pushed (once) and a phone that lets the shell inject, which the
//! injector's check record shows before the first tap (`injector/README.md`, "The check").

use super::channel::{Fault, TapChannel};
use super::injector::{INJECTOR_CLASS, INJECTOR_PATH, Injector, KIND_TAP, Unusable};
use super::kind::{Channel, ChannelKind};
use super::options::TapperOptions;
use super::shell::AckState;
use super::verdict::{Asking, Phone, Told, Verdict};
use crate::device::refusal::Refusal;
use crate::device::{CALL_TIMEOUT, Device, DeviceError};
use std::time::{Duration, Instant};

/// The open `inject` channel.
pub(super) struct Inject {
    serial: String,
    injector: Injector,
    /// Records of taps not yet sent (kind, x, y).
    pending: Vec<(u8, i32, i32)>,
    /// How long the injector may take to acknowledge a batch.
    ack_timeout: Duration,
}

impl TapChannel for Inject {
    fn kind() -> ChannelKind {
        ChannelKind::Inject
    }

    /// For tapping, the injector started (pushed if missing) and its check passed; for a
    /// report, its check where it is on the phone, else what `input keyevent 0` says of the
    /// shell's right to inject.
    fn possible(phone: &mut Phone<'_>, asking: Asking) -> Result<Verdict, DeviceError> {
        if asking == Asking::ToReport {
            return reported(phone);
        }
        let deadline = Instant::now() + CALL_TIMEOUT;
        Ok(match Injector::handshake(phone.device, deadline) {
            Ok(sdk) => Verdict::Possible(Channel::of(
                ChannelKind::Inject,
                format!(
                    "one app_process injector ({INJECTOR_CLASS}, {INJECTOR_PATH}, API {sdk}) fed binary tap records on one exec: stream"
                ),
            )),
            Err(Unusable::Refused(refusal)) => Verdict::Refused(refusal),
            Err(Unusable::Failed(why)) => {
                tracing::debug!(%why, "the injector is not possible");
                let told = Told::Aside(format!(" (inject is not possible: {why})"));
                Verdict::not_possible(why, told)
            }
        })
    }

    fn open(
        device: &Device,
        _: &Channel,
        options: &TapperOptions,
        _: (u32, u32),
    ) -> Result<Self, DeviceError> {
        let deadline = Instant::now() + options.ack_timeout;
        let injector = Injector::open(device, deadline).map_err(|why| match why {
            Unusable::Refused(refusal) => DeviceError::Refused(refusal),
            Unusable::Failed(w) => DeviceError::Adb(format!(
                "the tap injector on {} would not start: {w}",
                device.serial
            )),
        })?;
        Ok(Inject {
            serial: device.serial.clone(),
            injector,
            pending: Vec::new(),
            ack_timeout: options.ack_timeout,
        })
    }

    fn tap(&mut self, (x, y): (u32, u32), _: &mut String, _: u64) -> Result<(), Fault> {
        self.pending.push((KIND_TAP, x as i32, y as i32));
        Ok(())
    }

    fn pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Sends the records and waits for the injector's acknowledgement of the last.
    fn send(&mut self) -> Result<Option<u64>, Fault> {
        if self.pending.is_empty() {
            return Ok(None);
        }
        let end = self.injector.send(std::mem::take(&mut self.pending));
        let deadline = Instant::now() + self.ack_timeout;
        match self.injector.acked_by(end, deadline) {
            Ok(()) => Ok(Some(u64::from(end))),
            Err(why) => Err(Fault::Failed(self.failed(&why))),
        }
    }

    /// The last record the injector acknowledged.
    fn acked(&self, _: &AckState) -> Option<u64> {
        Some(u64::from(self.injector.acked()))
    }

    fn queued_behind_ack(&self) -> bool {
        true
    }

    /// An asynchronous injection returns once the dispatcher has queued the event.
    fn flush_polls(&self) -> u32 {
        1
    }
}

impl Inject {
    /// The error of an injector that refused a record or whose stream ended: the caller
    /// recovers (a refusal by the phone is [`DeviceError::Refused`]).
    fn failed(&self, why: &str) -> DeviceError {
        tracing::debug!(serial = %self.serial, %why, "the tap injector failed");
        if let Some(refusal) = Refusal::in_text(why) {
            return DeviceError::Refused(refusal);
        }
        DeviceError::Adb(format!(
            "the tap channel to {} closed (the injector: {why})",
            self.serial
        ))
    }
}

/// The verdict for a report, changing nothing on the phone: the check of the injector already
/// there, else what `input keyevent 0` (its refusal, if any) says of the shell's right to inject.
fn reported(phone: &mut Phone<'_>) -> Result<Verdict, DeviceError> {
    let denied = phone.key()?.refused.clone();
    let deadline = Instant::now() + CALL_TIMEOUT;
    Ok(
        match (Injector::handshake_pushed(phone.device, deadline), denied) {
            (Some(Ok(sdk)), _) => Verdict::Possible(Channel::of(
                ChannelKind::Inject,
                format!("the injector on the phone ({INJECTOR_PATH}) passed its check (API {sdk})"),
            )),
            (Some(Err(Unusable::Refused(refusal))), _) | (None, Some(refusal)) => {
                Verdict::Refused(refusal)
            }
            (Some(Err(Unusable::Failed(why))), _) => Verdict::not_possible(why, Told::Not),
            (None, None) => Verdict::Possible(Channel::of(
                ChannelKind::Inject,
                format!(
                    "the shell may inject (`input keyevent 0` worked); the injector is pushed to {INJECTOR_PATH} on the first play"
                ),
            )),
        },
    )
}
