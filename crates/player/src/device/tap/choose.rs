//! Which tap channel to use on a device, and why; and every channel's verdict for doctor. Both
//! read one table (`table.rs`: the channels, fastest first, each saying whether it is possible
//! on a phone and why).
//!
//! The choice takes the first possible channel from the one asked for (with no request, from
//! the fastest), so asking for a channel the device cannot do falls back to the next one down,
//! and the chosen channel's `why` says why not the ones above it. A phone that refuses injected
//! input (Xiaomi without "USB debugging (Security settings)") stops the choice with
//! [`DeviceError::Refused`] before any tap: no channel can work then. It accepts asynchronous
//! injections without a word before Android 13 and drops them; the injector's check record
//! shows the refusal on every version (`injector/README.md`, "The check"), and `input keyevent
//! 0` for `input`.

use super::kind::{Channel, ChannelKind};
use super::panel::PanelSurvey;
use super::table::rows;
use super::verdict::{Asking, Phone, Told, Unfit, Verdict};
use crate::device::refusal::Refusal;
use crate::device::{Device, DeviceError};

/// Picks the channel: `requested` if the device can do it, else the next one down; with no
/// request, the fastest that works.
pub fn choose(device: &Device, requested: Option<ChannelKind>) -> Result<Channel, DeviceError> {
    let chosen = pick(device, requested)?;
    tracing::debug!(
        serial = %device.serial,
        ?requested,
        channel = ?chosen.kind,
        panel = chosen.panel.as_ref().map(|p| p.device.as_str()),
        record = chosen.record,
        why = %chosen.why,
        "tap channel chosen"
    );
    Ok(chosen)
}

/// The first possible channel of the table from `requested` on, its `why` worded: its name,
/// what it is, why the one above it is not possible where that is its reason, "as asked", and
/// why the others above are not.
fn pick(device: &Device, requested: Option<ChannelKind>) -> Result<Channel, DeviceError> {
    let rows = rows();
    let from = requested
        .and_then(|kind| rows.iter().position(|r| r.kind == kind))
        .unwrap_or(0);
    let mut phone = Phone::new(device, None);
    let (mut asides, mut because) = (String::new(), None);
    for row in &rows[from..] {
        match (row.possible)(&mut phone, Asking::ToTap)? {
            Verdict::Possible(mut channel) => {
                let asked = requested == Some(row.kind);
                channel.why = worded(row.kind, &channel.why, because.as_deref(), asked, &asides);
                return Ok(channel);
            }
            Verdict::Refused(refusal) => return Err(DeviceError::Refused(refusal)),
            Verdict::NotPossible(Unfit { why, told }) => match told {
                Told::Not => {}
                Told::Aside(words) => asides.push_str(&words),
                Told::Because => because = Some(why),
            },
        }
    }
    Err(DeviceError::Adb(format!(
        "no tap channel is possible on {}{asides}",
        device.serial
    )))
}

/// The chosen channel's `why`: its name, what it is, the reason where the one above it is not
/// possible (`because`), whether it was `asked` for, and why the others above are not
/// (`asides`).
fn worded(
    kind: ChannelKind,
    what: &str,
    because: Option<&str>,
    asked: bool,
    asides: &str,
) -> String {
    let because = because.map_or(String::new(), |b| format!(", because {b}"));
    let asked = if asked { ", as asked" } else { "" };
    format!("{kind}: {what}{because}{asked}{asides}")
}

/// What one channel would be on a phone, and why.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ChannelCheck {
    pub channel: ChannelKind,
    pub possible: bool,
    pub why: String,
    /// The phone refuses injected input (then `why` says how it was seen).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<Refusal>,
}

/// Every channel's verdict, fastest first, found without changing anything on the phone: no
/// injector pushed, no tap, the screen not woken (the writes are a lone `SYN_REPORT`, which
/// moves no finger, and `KEYCODE_UNKNOWN` keys, which no app takes: `input keyevent 0` and the
/// injector's check).
pub fn check_channels(
    device: &Device,
    survey: &PanelSurvey,
) -> Result<Vec<ChannelCheck>, DeviceError> {
    let mut phone = Phone::new(device, Some(survey.clone()));
    rows()
        .iter()
        .map(|row| {
            let verdict = (row.possible)(&mut phone, Asking::ToReport)?;
            Ok(ChannelCheck::of(row.kind, verdict))
        })
        .collect()
}

impl ChannelCheck {
    fn of(channel: ChannelKind, verdict: Verdict) -> Self {
        let (possible, why, refused) = match verdict {
            Verdict::Possible(c) => (true, c.why, None),
            Verdict::NotPossible(unfit) => (false, unfit.why, None),
            Verdict::Refused(refusal) => (false, refusal.to_string(), Some(refusal)),
        };
        ChannelCheck {
            channel,
            possible,
            why,
            refused,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words the user reads: as before the table, each channel's reasons in place.
    #[test]
    fn a_chosen_channel_says_why_not_the_ones_above() {
        assert_eq!(
            worded(ChannelKind::Input, "`input tap` lines", None, true, ""),
            "input: `input tap` lines, as asked"
        );
        let raw =
            " (raw is not possible on Android 9: the shell user may not write /dev/input/event2)";
        let inject = " (inject is not possible: pushing the injector failed: no space)";
        assert_eq!(
            worded(
                ChannelKind::Events,
                "`sendevent` lines",
                None,
                false,
                &format!("{raw}{inject}")
            ),
            format!("events: `sendevent` lines{raw}{inject}")
        );
        let failed = "`sendevent /dev/input/event2 0 0 0` failed (exit status 1)";
        assert_eq!(
            worded(
                ChannelKind::Input,
                "`input tap` lines",
                Some(failed),
                false,
                inject
            ),
            format!("input: `input tap` lines, because {failed}{inject}")
        );
    }
}
