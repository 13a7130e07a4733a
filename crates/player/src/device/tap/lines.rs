//! The line channels' writers: a tap as one shell line for the control shell. `input` writes
//! `input tap X Y` (display pixels; Android's `input` command injects it); `events` spells the
//! panel's protocol (A or B) out as `sendevent` lines into the panel, at panel coordinates.

use super::panel::{TouchPanel, sendevent_line, to_panel};

/// `input tap X Y`.
pub(super) fn input_tap(x: u32, y: u32) -> String {
    format!("input tap {x} {y}\n")
}

/// The panel's protocol spelled out as `sendevent` commands, at panel coordinates.
pub(super) fn sendevent_tap(
    panel: &TouchPanel,
    screen: (u32, u32),
    x: u32,
    y: u32,
    id: u64,
) -> String {
    let id = i32::try_from(id).unwrap_or(1);
    sendevent_line(panel, to_panel(panel, screen, x, y), id)
}
