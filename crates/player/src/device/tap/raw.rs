//! The `raw` channel: a tap is binary `input_event` records (`panel.rs`, at panel coordinates)
//! streamed into the touch panel by one long-lived `dd` (`dd.rs`). The `dd`'s stream is not the
//! control shell's, so the shell's ack says nothing of records still in transit on it: the
//! shell prints the `dd`'s `/proc/PID/io` before each ack, and a batch counts once its records
//! are within the bytes `dd` wrote (`wchar`). The kernel hands the events to the dispatcher
//! after that, so each batch asks the dispatcher too, and a flush waits until its queue is empty
//! in two polls in a row (events the kernel took may not have reached it at the first). It
//! needs a touch panel the shell user may write (Android 9 and older) and the record size the
//! panel takes from `dd`, found by a test write.

use super::channel::{Fault, TapChannel};
use super::dd::{self, Copier, NotWritable};
use super::kind::{Channel, ChannelKind};
use super::options::TapperOptions;
use super::panel::{self, TouchPanel};
use super::shell::AckState;
use super::verdict::{Asking, Phone, Told, Verdict};
use crate::device::{Device, DeviceError};
use std::time::{Duration, Instant};

/// The open `raw` channel.
pub(super) struct Raw {
    device: Device,
    panel: TouchPanel,
    /// Bytes per `input_event` record.
    record: usize,
    screen: (u32, u32),
    /// How long a tap stays down (0: down and up in one write).
    hold: Duration,
    /// How long the `dd` may take to start.
    ack_timeout: Duration,
    /// The `dd` stream into the panel (opened at the first tap).
    copier: Option<Copier>,
    /// Records of taps not yet sent.
    pending: Vec<u8>,
    /// The last tracking id.
    touch_id: i32,
}

impl TapChannel for Raw {
    fn kind() -> ChannelKind {
        ChannelKind::Raw
    }

    /// Possible where the touch panel takes a test record from `dd`; not tried without a panel.
    fn possible(phone: &mut Phone<'_>, asking: Asking) -> Result<Verdict, DeviceError> {
        let Some(panel) = phone.panel()? else {
            return Ok(Verdict::not_possible(phone.no_panel()?, Told::Not));
        };
        let record = match dd::record_size(phone.device, &panel)? {
            Ok(record) => record,
            Err(NotWritable(reason)) => return Ok(not_writable(phone, &panel, reason, asking)),
        };
        let why = match asking {
            Asking::ToTap => format!(
                "one `dd` stream of {record}-byte input_event records (protocol {:?}) into {} (record size checked)",
                panel.protocol, panel.device
            ),
            Asking::ToReport => format!("`dd` takes {record}-byte records into {}", panel.device),
        };
        Ok(Verdict::Possible(Channel {
            panel: Some(panel),
            record: Some(record),
            ..Channel::of(ChannelKind::Raw, why)
        }))
    }

    fn open(
        device: &Device,
        chosen: &Channel,
        options: &TapperOptions,
        screen: (u32, u32),
    ) -> Result<Self, DeviceError> {
        let panel = chosen.panel_needed()?;
        let record = chosen.record.ok_or_else(|| chosen.unwritable())?;
        Ok(Raw {
            device: device.clone(),
            panel,
            record,
            screen,
            hold: options.hold,
            ack_timeout: options.ack_timeout,
            copier: None,
            pending: Vec::new(),
            touch_id: 0,
        })
    }

    /// Down and up in one write, or, with a hold, down at once and up after it.
    fn tap(&mut self, (x, y): (u32, u32), _: &mut String, _: u64) -> Result<(), Fault> {
        let at = panel::to_panel(&self.panel, self.screen, x, y);
        self.touch_id = panel::next_tracking_id(self.touch_id);
        let (panel, record) = (&self.panel, self.record);
        if self.hold.is_zero() {
            panel::tap_records(&mut self.pending, panel, record, at, self.touch_id);
            return Ok(());
        }
        panel::touch_down(&mut self.pending, panel, record, at, self.touch_id);
        let bytes = std::mem::take(&mut self.pending);
        self.send_records(bytes)?;
        std::thread::sleep(self.hold);
        panel::release(&mut self.pending, &self.panel, self.record);
        Ok(())
    }

    fn drags(&self) -> bool {
        true
    }

    /// Down, each move a step later, and the lift left pending, to go out as a batch of its
    /// own (proven as taps' records are).
    fn drag(&mut self, at: &[(u32, u32)], time: Duration, _: &mut String) -> Result<(), Fault> {
        let at = panel::path_to_panel(&self.panel, self.screen, at);
        self.touch_id = panel::next_tracking_id(self.touch_id);
        let mut steps = panel::drag_records(&self.panel, self.record, &at, self.touch_id);
        let lift = steps.pop().unwrap_or_default();
        let pause = time / u32::try_from(steps.len().max(1)).unwrap_or(1);
        for (i, bytes) in steps.into_iter().enumerate() {
            if i > 0 {
                std::thread::sleep(pause);
            }
            self.send_records(bytes)?;
        }
        std::thread::sleep(pause);
        self.pending.extend(lift);
        Ok(())
    }

    fn pending(&self) -> bool {
        !self.pending.is_empty()
    }

    fn send(&mut self) -> Result<Option<u64>, Fault> {
        if self.pending.is_empty() {
            return Ok(None);
        }
        let bytes = std::mem::take(&mut self.pending);
        self.send_records(bytes).map(Some)
    }

    fn proof_lines(&self) -> String {
        self.copier
            .as_ref()
            .map_or(String::new(), |c| format!("cat /proc/{}/io\n", c.pid))
    }

    /// The bytes the `dd` wrote into the panel.
    fn acked(&self, shell: &AckState) -> Option<u64> {
        shell.wchar
    }

    fn queued_behind_ack(&self) -> bool {
        true
    }

    fn flush_polls(&self) -> u32 {
        2
    }

    fn stalled(&self) -> String {
        format!(
            "the raw tap stream into {} (dd copied nothing more)",
            self.panel.device
        )
    }

    fn ended(&self) -> bool {
        self.copier.as_ref().is_some_and(Copier::ended)
    }

    fn said(&self) -> String {
        self.copier
            .as_ref()
            .map(Copier::said)
            .filter(|s| !s.is_empty())
            .map_or(String::new(), |s| {
                format!(" (the raw stream's dd said: {s})")
            })
    }
}

impl Raw {
    /// Sends records into the `dd` stream, opening it first if needed; where they end in the
    /// stream.
    fn send_records(&mut self, bytes: Vec<u8>) -> Result<u64, Fault> {
        if self.copier.is_none() {
            let deadline = Instant::now() + self.ack_timeout;
            let copier = Copier::open(&self.device, &self.panel, self.record, deadline);
            self.copier = Some(copier.ok_or(Fault::Closed)?);
        }
        let copier = self.copier.as_mut().ok_or(Fault::Closed)?;
        copier.send(bytes).ok_or(Fault::Closed)
    }
}

/// The verdict on a panel that takes no raw records: for tapping, told after the channel taken
/// instead, with the phone's Android release.
fn not_writable(phone: &Phone<'_>, panel: &TouchPanel, reason: String, asking: Asking) -> Verdict {
    tracing::debug!(panel = %panel.device, %reason, "raw touch records are not possible");
    let told = match asking {
        Asking::ToTap => Told::Aside(format!(
            " (raw is not possible{}: {reason})",
            release(phone.device)
        )),
        Asking::ToReport => Told::Not,
    };
    Verdict::not_possible(reason, told)
}

/// " on Android N" where the phone says its release, else nothing.
fn release(device: &Device) -> String {
    device
        .getprop("ro.build.version.release")
        .ok()
        .filter(|r| !r.is_empty())
        .map_or(String::new(), |r| format!(" on Android {r}"))
}
