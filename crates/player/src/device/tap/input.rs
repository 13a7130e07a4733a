//! The `input` channel: a tap is an `input tap X Y` line (display pixels; Android's `input`
//! command injects it) in the control shell. Its proof is the shell's ack alone: `input` returns
//! once the app has the tap (from Android 12 it waits for it), so a flush polls nothing. It
//! needs nothing on the phone but a shell that may inject, which `input keyevent 0` shows: a
//! refusal is printed on every version, and ends the channel (no tap of it can land).

use super::channel::{Fault, TapChannel};
use super::kind::{Channel, ChannelKind};
use super::options::TapperOptions;
use super::verdict::{Asking, Phone, Told, Verdict};
use crate::device::{Device, DeviceError};

/// The open `input` channel (the control shell is all it writes to).
pub(super) struct Input;

impl TapChannel for Input {
    fn kind() -> ChannelKind {
        ChannelKind::Input
    }

    /// Possible where `input keyevent 0` is not refused (for a report: where it also worked).
    fn possible(phone: &mut Phone<'_>, asking: Asking) -> Result<Verdict, DeviceError> {
        let key = phone.key()?;
        if let Some(refusal) = &key.refused {
            return Ok(Verdict::Refused(refusal.clone()));
        }
        Ok(match asking {
            Asking::ToTap => Verdict::Possible(Channel::input("`input tap` lines")),
            Asking::ToReport if key.code == 0 => {
                Verdict::Possible(Channel::input("`input keyevent 0` works"))
            }
            Asking::ToReport => Verdict::not_possible(
                format!(
                    "`input keyevent 0` failed (exit status {}): {}",
                    key.code,
                    key.output.trim()
                ),
                Told::Not,
            ),
        })
    }

    fn open(
        _: &Device,
        _: &Channel,
        _: &TapperOptions,
        _: (u32, u32),
    ) -> Result<Self, DeviceError> {
        Ok(Input)
    }

    fn tap(&mut self, (x, y): (u32, u32), lines: &mut String, _: u64) -> Result<(), Fault> {
        lines.push_str(&input_tap(x, y));
        Ok(())
    }

    fn taps_by_input(&self) -> bool {
        true
    }

    fn flush_polls(&self) -> u32 {
        0
    }
}

/// `input tap X Y`.
fn input_tap(x: u32, y: u32) -> String {
    format!("input tap {x} {y}\n")
}
