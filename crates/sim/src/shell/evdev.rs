//! The touch panel's device node as the kernel's evdev driver takes a `write(2)`
//! (`drivers/input/evdev.c`, `evdev_write`): the buffer is a sequence of `struct input_event`
//! records whose size depends on the *writer's* bitness (24 bytes from a 64-bit process: a
//! 16-byte `timeval`, then type, code, value; 16 bytes from a 32-bit process through the compat
//! layer: an 8-byte `timeval`). A write shorter than one record fails with `EINVAL`; otherwise
//! every whole record is injected and the count of bytes taken is returned, so a trailing
//! partial record makes a short write (and the writer's retry of the tail then fails with
//! `EINVAL`). The time field is ignored. The input core then drops events the device does not
//! declare (here: anything but SYN_REPORT, BTN_TOUCH and the panel's multitouch axes) and
//! out-of-range slots, without an error, as `input_handle_event` does.

use super::touch::{
    ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_PRESSURE, ABS_MT_SLOT, ABS_MT_TOUCH_MAJOR,
    ABS_MT_TRACKING_ID, BTN_TOUCH, EV_ABS, EV_KEY, EV_SYN, SLOTS, SYN_MT_REPORT, SYN_REPORT,
};

/// `sizeof(struct input_event)` for a 64-bit writer.
pub const RECORD_64: usize = 24;
/// The compat `struct input_event` of a 32-bit writer on a 64-bit kernel.
pub const RECORD_32: usize = 16;

/// One event as the input core receives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InputEvent {
    pub kind: u16,
    pub code: u16,
    pub value: i32,
}

/// `-EINVAL`: the write was shorter than one record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("Invalid argument")]
pub struct Invalid;

/// The record size of a writer process.
pub(crate) fn record_size(userspace_64: bool) -> usize {
    if userspace_64 { RECORD_64 } else { RECORD_32 }
}

/// One `write(2)` of `buf` by a process whose records are `size` bytes (16 or 24): the events
/// the panel accepts are appended to `events`; returns the bytes taken (a multiple of `size`).
pub fn write(buf: &[u8], size: usize, events: &mut Vec<InputEvent>) -> Result<usize, Invalid> {
    debug_assert!(size == RECORD_32 || size == RECORD_64);
    if !buf.is_empty() && buf.len() < size {
        return Err(Invalid);
    }
    let taken = buf.len() / size * size;
    for record in buf[..taken].chunks_exact(size) {
        // The timeval comes first and is ignored; type, code and value close the record.
        let tail = &record[size - 8..];
        let event = InputEvent {
            kind: u16::from_le_bytes([tail[0], tail[1]]),
            code: u16::from_le_bytes([tail[2], tail[3]]),
            value: i32::from_le_bytes([tail[4], tail[5], tail[6], tail[7]]),
        };
        if supported(event) {
            events.push(event);
        }
    }
    Ok(taken)
}

/// Whether the touch panel declares this event (the input core drops the others silently).
fn supported(e: InputEvent) -> bool {
    match (e.kind, e.code) {
        // EV_SYN is always declared (SYN_MT_REPORT ends a protocol A contact).
        (EV_SYN, SYN_REPORT | SYN_MT_REPORT) | (EV_KEY, BTN_TOUCH) => true,
        (EV_ABS, ABS_MT_SLOT) => usize::try_from(e.value).is_ok_and(|s| s < SLOTS),
        (
            EV_ABS,
            ABS_MT_TOUCH_MAJOR | ABS_MT_POSITION_X | ABS_MT_POSITION_Y | ABS_MT_TRACKING_ID
            | ABS_MT_PRESSURE,
        ) => true,
        _ => false,
    }
}

/// Encodes events as records of `size` bytes (zero timestamps), as a writer would.
pub fn encode(events: &[InputEvent], size: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(events.len() * size);
    for e in events {
        out.resize(out.len() + size - 8, 0);
        out.extend_from_slice(&e.kind.to_le_bytes());
        out.extend_from_slice(&e.code.to_le_bytes());
        out.extend_from_slice(&e.value.to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(kind: u16, code: u16, value: i32) -> InputEvent {
        InputEvent { kind, code, value }
    }

    #[test]
    fn whole_records_of_either_size() {
        let tap = [
            ev(EV_ABS, ABS_MT_SLOT, 0),
            ev(EV_ABS, ABS_MT_TRACKING_ID, 7),
            ev(EV_ABS, ABS_MT_POSITION_X, 100),
            ev(EV_SYN, SYN_REPORT, 0),
        ];
        for size in [RECORD_32, RECORD_64] {
            let bytes = encode(&tap, size);
            assert_eq!(bytes.len(), 4 * size);
            let mut got = Vec::new();
            assert_eq!(write(&bytes, size, &mut got), Ok(bytes.len()));
            assert_eq!(got, tap);
        }
    }

    #[test]
    fn short_and_partial_writes_follow_the_kernel() {
        let bytes = encode(&[ev(EV_SYN, SYN_REPORT, 0); 2], RECORD_64);
        let mut got = Vec::new();
        assert_eq!(write(&bytes[..23], RECORD_64, &mut got), Err(Invalid));
        assert_eq!(write(&[], RECORD_64, &mut got), Ok(0));
        // One and a half records: one taken, a short write.
        assert_eq!(write(&bytes[..36], RECORD_64, &mut got), Ok(24));
        assert_eq!(got.len(), 1);
        // 24-byte records read by a 32-bit writer's rules: one record and a short write, whose
        // event is the first record's time field misread (dropped as undeclared here).
        got.clear();
        assert_eq!(write(&bytes[..24], RECORD_32, &mut got), Ok(16));
    }

    #[test]
    fn undeclared_events_are_dropped() {
        let bytes = encode(
            &[
                ev(4, 4, 1),                 // EV_MSC
                ev(EV_KEY, 0x110, 1),        // BTN_LEFT
                ev(EV_ABS, ABS_MT_SLOT, 99), // no such slot
                ev(EV_ABS, ABS_MT_SLOT, -1), // no such slot
                ev(EV_ABS, 0x00, 5),         // ABS_X: not declared
                ev(EV_KEY, BTN_TOUCH, 1),
            ],
            RECORD_32,
        );
        let mut got = Vec::new();
        assert_eq!(write(&bytes, RECORD_32, &mut got), Ok(bytes.len()));
        assert_eq!(got, vec![ev(EV_KEY, BTN_TOUCH, 1)]);
    }
}
