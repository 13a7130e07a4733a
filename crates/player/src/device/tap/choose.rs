//! Which tap channel to use on a device, and why.
//!
//! Preferred, fastest first: `raw` (binary records streamed into the touch panel by one `dd`:
//! the app's own UI time is the only cost per tap), `events` (`sendevent` lines: nine native
//! processes per tap) and `input` (`input tap` lines: a Java start-up per tap, but it works on
//! every phone). `raw` and `events` both need a touch panel (`getevent -p`) that the shell user
//! may write; `raw` also needs the record size the panel takes from `dd`, found by a probe.
//! Asking for a channel the device cannot do falls back to the next one and says why.

use super::InputBackend;
use super::panel::{TouchPanel, parse_getevent};
use super::raw;
use crate::device::{CALL_TIMEOUT, Device, DeviceError};

/// A chosen channel and what it needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Channel {
    pub mode: InputBackend,
    /// The touch panel (`raw`, `events`).
    pub panel: Option<TouchPanel>,
    /// Bytes per `input_event` record the panel takes from the device's `dd` (`raw`).
    pub record: Option<usize>,
    /// Why this channel, for the user (e.g. "raw: 24-byte records into /dev/input/event2").
    pub why: String,
}

impl Channel {
    /// The `input tap` channel.
    pub fn input(why: impl Into<String>) -> Channel {
        Channel {
            mode: InputBackend::Input,
            panel: None,
            record: None,
            why: why.into(),
        }
    }
}

/// Picks the channel: `requested` if the device can do it, else the next one down; with no
/// request, the fastest that works.
pub fn choose(device: &Device, requested: Option<InputBackend>) -> Result<Channel, DeviceError> {
    let chosen = pick(device, requested)?;
    tracing::debug!(
        serial = %device.serial,
        ?requested,
        mode = ?chosen.mode,
        panel = chosen.panel.as_ref().map(|p| p.device.as_str()),
        record = chosen.record,
        why = %chosen.why,
        "tap channel chosen"
    );
    Ok(chosen)
}

fn pick(device: &Device, requested: Option<InputBackend>) -> Result<Channel, DeviceError> {
    if requested == Some(InputBackend::Input) {
        return Ok(Channel::input(
            "input: `input tap` lines, as asked (--input input)",
        ));
    }
    let out = device.shell("getevent -p", CALL_TIMEOUT)?;
    let Some(panel) = parse_getevent(&out.stdout) else {
        return Ok(Channel::input(
            "input: `getevent -p` lists no multitouch panel, so touch events cannot be written",
        ));
    };
    let mut not_raw = None;
    if requested != Some(InputBackend::Events) {
        match raw::probe(device, &panel)? {
            Ok(record) => {
                let why = format!(
                    "raw: one `dd` stream of {record}-byte input_event records into {} (record size checked by a probe)",
                    panel.device
                );
                return Ok(Channel {
                    mode: InputBackend::Raw,
                    panel: Some(panel),
                    record: Some(record),
                    why,
                });
            }
            Err(raw::NotWritable(reason)) => {
                tracing::debug!(panel = %panel.device, %reason, "raw touch records are not possible");
                not_raw = Some(reason);
            }
        }
    }
    let test = device.shell(&format!("sendevent {} 0 0 0", panel.device), CALL_TIMEOUT)?;
    let because = not_raw.map_or(String::new(), |r| format!(" (raw is not possible: {r})"));
    if test.code == 0 {
        return Ok(Channel {
            mode: InputBackend::Events,
            panel: Some(panel),
            record: None,
            why: format!("events: `sendevent` lines into the touch panel{because}"),
        });
    }
    Ok(Channel::input(format!(
        "input: `input tap` lines, because `sendevent {} 0 0 0` failed (exit status {}){because}",
        panel.device, test.code
    )))
}
