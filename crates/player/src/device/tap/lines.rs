//! The line channels' writers: a tap as one shell line for the control shell. `input` writes
//! `input tap X Y` (display pixels; Android's `input` command injects it); `events` spells the
//! protocol B tap out as `sendevent` lines into the panel, at panel coordinates.

use super::panel::{TouchPanel, to_panel};

/// `input tap X Y`.
pub(super) fn input_tap(x: u32, y: u32) -> String {
    format!("input tap {x} {y}\n")
}

/// Slot 0, tracking id `id`, position, touch down, sync; then lift, sync.
pub(super) fn sendevent_tap(
    panel: &TouchPanel,
    screen: (u32, u32),
    x: u32,
    y: u32,
    id: u64,
) -> String {
    let (px, py) = to_panel(panel, screen, x, y);
    let d = &panel.device;
    format!(
        "sendevent {d} 3 47 0; sendevent {d} 3 57 {id}; sendevent {d} 3 53 {px}; sendevent {d} 3 54 {py}; \
         sendevent {d} 1 330 1; sendevent {d} 0 0 0; sendevent {d} 3 57 -1; sendevent {d} 1 330 0; sendevent {d} 0 0 0\n"
    )
}
