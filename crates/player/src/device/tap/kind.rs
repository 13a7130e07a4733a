//! What names a tap channel: its kind ([`ChannelKind`], the one name of the four across the
//! workspace) and a channel chosen on a phone ([`Channel`]: the kind, what it writes into, and
//! why it was chosen).

use super::panel::TouchPanel;
use crate::device::DeviceError;

/// How taps reach the device: one kind per channel of the table (`table.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChannelKind {
    /// `input tap X Y` lines in one persistent shell (works everywhere).
    Input,
    /// `sendevent` lines to the touch panel (needs a writable panel).
    Events,
    /// Binary touch records streamed into the touch panel by one `dd` (needs a writable panel).
    Raw,
    /// Binary tap records to one long-lived `app_process` injector (Android 10+ without root).
    Inject,
}

impl std::fmt::Display for ChannelKind {
    /// The channel's name, as the user asks for it (`raw`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ChannelKind::Input => "input",
            ChannelKind::Events => "events",
            ChannelKind::Raw => "raw",
            ChannelKind::Inject => "inject",
        })
    }
}

/// A chosen channel and what it needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Channel {
    pub kind: ChannelKind,
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
        Channel::of(ChannelKind::Input, why)
    }

    /// A channel that needs nothing but its kind.
    pub(super) fn of(kind: ChannelKind, why: impl Into<String>) -> Channel {
        Channel {
            kind,
            panel: None,
            record: None,
            why: why.into(),
        }
    }

    /// The touch panel a channel that writes it was chosen with (an error without one).
    pub(super) fn panel_needed(&self) -> Result<TouchPanel, DeviceError> {
        self.panel.clone().ok_or_else(|| self.unwritable())
    }

    /// The error of a channel that writes the touch panel, chosen without what that needs.
    pub(super) fn unwritable(&self) -> DeviceError {
        DeviceError::Adb(format!(
            "the {:?} tap channel needs a writable touch panel, and this device has none (the \
             `input tap` channel needs none)",
            self.kind
        ))
    }
}
