//! The `events` channel: a tap is the panel's protocol (A or B, `panel.rs`) spelled out as
//! `sendevent` lines into the touch panel, at panel coordinates, in the control shell. A line
//! returns once the kernel has the events, so the shell's ack proves them written; a flush
//! waits once for an empty input dispatcher (the app has them). It needs a touch panel the shell
//! user may write, which Android 10 and later forbid; a lone `SYN_REPORT` (which moves no
//! finger) shows whether it may.

use super::channel::{Fault, TapChannel};
use super::kind::{Channel, ChannelKind};
use super::options::TapperOptions;
use super::panel::{self, TouchPanel};
use super::verdict::{Asking, Phone, Told, Verdict};
use crate::device::{CALL_TIMEOUT, Device, DeviceError};
use std::time::Duration;

/// The open `events` channel.
pub(super) struct Events {
    panel: TouchPanel,
    screen: (u32, u32),
    /// The last drag's tracking id.
    touch_id: i32,
}

impl TapChannel for Events {
    fn kind() -> ChannelKind {
        ChannelKind::Events
    }

    /// Possible where a touch panel can be written with `sendevent`; the channel taken instead
    /// says why not as its reason.
    fn possible(phone: &mut Phone<'_>, asking: Asking) -> Result<Verdict, DeviceError> {
        let Some(panel) = phone.panel()? else {
            let no_panel = phone.no_panel()?;
            let why = match asking {
                Asking::ToTap => format!("{no_panel}, so touch events cannot be written"),
                Asking::ToReport => no_panel,
            };
            return Ok(Verdict::not_possible(why, Told::Because));
        };
        if let Err(failed) = sendevent_test(phone.device, &panel)? {
            return Ok(Verdict::not_possible(failed, Told::Because));
        }
        let why = match asking {
            Asking::ToTap => format!(
                "`sendevent` lines (protocol {:?}) into the touch panel {}",
                panel.protocol, panel.device
            ),
            Asking::ToReport => format!("`sendevent {} 0 0 0` works", panel.device),
        };
        Ok(Verdict::Possible(Channel {
            panel: Some(panel),
            ..Channel::of(ChannelKind::Events, why)
        }))
    }

    fn open(
        _: &Device,
        chosen: &Channel,
        _: &TapperOptions,
        screen: (u32, u32),
    ) -> Result<Self, DeviceError> {
        Ok(Events {
            panel: chosen.panel_needed()?,
            screen,
            touch_id: 0,
        })
    }

    /// The batch's number is the tap's tracking id.
    fn tap(&mut self, (x, y): (u32, u32), lines: &mut String, batch: u64) -> Result<(), Fault> {
        let id = panel::next_tracking_id(i32::try_from(batch % 60000).unwrap_or(0));
        let at = panel::to_panel(&self.panel, self.screen, x, y);
        lines.push_str(&panel::sendevent_line(&self.panel, at, id));
        Ok(())
    }

    fn drags(&self) -> bool {
        true
    }

    /// One line of `sendevent`s, down, each move and the lift.
    fn drag(&mut self, at: &[(u32, u32)], _: Duration, lines: &mut String) -> Result<(), Fault> {
        let at = panel::path_to_panel(&self.panel, self.screen, at);
        self.touch_id = panel::next_tracking_id(self.touch_id);
        let line = panel::sendevent_drag_line(&self.panel, &at, self.touch_id);
        lines.push_str(line.trim_end());
        lines.push('\n');
        Ok(())
    }

    fn flush_polls(&self) -> u32 {
        1
    }
}

/// Whether `sendevent PANEL 0 0 0` (a lone SYN_REPORT, which moves no finger) works; the
/// error says how it failed.
fn sendevent_test(device: &Device, panel: &TouchPanel) -> Result<Result<(), String>, DeviceError> {
    let command = format!("sendevent {} 0 0 0", panel.device);
    let test = device.shell(&command, CALL_TIMEOUT)?;
    let said = test.stdout.trim();
    // Some builds' sendevent says why and still exits 0.
    let refused = said.contains("Permission denied") || said.contains("could not open");
    Ok(if test.code == 0 && !refused {
        Ok(())
    } else {
        Err(format!(
            "`{command}` failed (exit status {}){}",
            test.code,
            if said.is_empty() {
                String::new()
            } else {
                format!(": {said}")
            }
        ))
    })
}
