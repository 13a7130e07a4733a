//! The touch panel: which `/dev/input/eventN` it is and its axes (`getevent -p`), and the
//! language it takes: multitouch protocol B `input_event` records, the same for every channel
//! that writes the panel (`sendevent` lines spell them out one by one, `raw` streams them).

pub(super) const EV_SYN: u16 = 0;
const EV_KEY: u16 = 1;
const EV_ABS: u16 = 3;
const BTN_TOUCH: u16 = 0x14a;
const ABS_MT_SLOT: u16 = 0x2f;
const ABS_MT_POSITION_X: u16 = 0x35;
const ABS_MT_POSITION_Y: u16 = 0x36;
const ABS_MT_TRACKING_ID: u16 = 0x39;

/// Record sizes: a 64-bit and a 32-bit writer's `struct input_event`.
pub const RECORD_64: usize = 24;
pub const RECORD_32: usize = 16;

/// The record size the ABI properties suggest (`ro.product.cpu.abi`: the shell's binaries are
/// built for the primary ABI).
pub(crate) fn guess_record(abi: &str) -> usize {
    if abi.contains("64") {
        RECORD_64
    } else {
        RECORD_32
    }
}

/// A touchscreen as `getevent -p` describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TouchPanel {
    pub device: String,
    pub max_x: u32,
    pub max_y: u32,
}

/// Finds the first input device with ABS_MT_POSITION_X (0035) and _Y (0036) axes.
pub(crate) fn parse_getevent(text: &str) -> Option<TouchPanel> {
    let mut current: Option<String> = None;
    let (mut max_x, mut max_y) = (None, None);
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("add device") {
            if let (Some(dev), Some(x), Some(y)) = (&current, max_x, max_y) {
                return Some(TouchPanel {
                    device: dev.clone(),
                    max_x: x,
                    max_y: y,
                });
            }
            // The path goes into `sendevent` lines: only plain path characters are accepted.
            current = rest
                .split_once(':')
                .map(|(_, d)| d.trim().to_string())
                .filter(|d| {
                    d.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"/_.-".contains(&b))
                });
            (max_x, max_y) = (None, None);
            continue;
        }
        let l = line.trim();
        // `0035  : value 0, min 0, max 1079, fuzz 0, ...` (also after `ABS (0003):`).
        let l = l.rsplit_once("):").map(|(_, r)| r.trim()).unwrap_or(l);
        let max = || {
            l.split(',')
                .find_map(|part| part.trim().strip_prefix("max "))
                .and_then(|v| v.trim().parse::<u32>().ok())
        };
        if l.starts_with("0035") || l.starts_with("ABS_MT_POSITION_X") {
            max_x = max();
        } else if l.starts_with("0036") || l.starts_with("ABS_MT_POSITION_Y") {
            max_y = max();
        }
    }
    match (current, max_x, max_y) {
        (Some(device), Some(max_x), Some(max_y)) => Some(TouchPanel {
            device,
            max_x,
            max_y,
        }),
        _ => None,
    }
}

/// Appends one event as a record of `record` bytes (zero timestamp: the kernel ignores it).
pub(super) fn push(out: &mut Vec<u8>, record: usize, kind: u16, code: u16, value: i32) {
    out.resize(out.len() + record - 8, 0);
    out.extend_from_slice(&kind.to_le_bytes());
    out.extend_from_slice(&code.to_le_bytes());
    out.extend_from_slice(&value.to_le_bytes());
}

/// A protocol B tap at panel coordinates (x, y) with tracking id `id` on slot 0: slot, id,
/// position, touch down, sync; then id -1, touch up, sync.
pub(crate) fn tap_records(out: &mut Vec<u8>, record: usize, (x, y): (u32, u32), id: i32) {
    touch_down(out, record, (x, y), id);
    release(out, record);
}

/// The first half of [`tap_records`]: the contact goes down.
pub fn touch_down(out: &mut Vec<u8>, record: usize, (x, y): (u32, u32), id: i32) {
    push(out, record, EV_ABS, ABS_MT_SLOT, 0);
    push(out, record, EV_ABS, ABS_MT_TRACKING_ID, id);
    push(out, record, EV_ABS, ABS_MT_POSITION_X, x as i32);
    push(out, record, EV_ABS, ABS_MT_POSITION_Y, y as i32);
    push(out, record, EV_KEY, BTN_TOUCH, 1);
    push(out, record, EV_SYN, 0, 0);
}

/// Lifts slot 0's contact (a no-op if none is down): written first on a new stream, so a tap
/// cut in half by a dropped link cannot leave a finger on the screen.
pub fn release(out: &mut Vec<u8>, record: usize) {
    push(out, record, EV_ABS, ABS_MT_SLOT, 0);
    push(out, record, EV_ABS, ABS_MT_TRACKING_ID, -1);
    push(out, record, EV_KEY, BTN_TOUCH, 0);
    push(out, record, EV_SYN, 0, 0);
}

/// Display pixel -> panel axis value (the panel's range may differ from the display's).
pub(crate) fn to_panel(panel: &TouchPanel, screen: (u32, u32), x: u32, y: u32) -> (u32, u32) {
    let (w, h) = screen;
    let px = (x as u64 * (panel.max_x as u64 + 1) / w.max(1) as u64).min(panel.max_x as u64);
    let py = (y as u64 * (panel.max_y as u64 + 1) / h.max(1) as u64).min(panel.max_y as u64);
    (px as u32, py as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GETEVENT: &str = "add device 1: /dev/input/event0\n  name:     \"gpio-keys\"\n  events:\n    KEY (0001): 0072  0073  0074\n\
add device 2: /dev/input/event2\n  name:     \"sim_touchscreen\"\n  events:\n    KEY (0001): 014a\n    ABS (0003): 002f  : value 0, min 0, max 9, fuzz 0, flat 0, resolution 0\n\
                0035  : value 0, min 0, max 4095, fuzz 0, flat 0, resolution 0\n                0036  : value 0, min 0, max 4095, fuzz 0, flat 0, resolution 0\n\
                0039  : value 0, min 0, max 65535, fuzz 0, flat 0, resolution 0\n  input props:\n    INPUT_PROP_DIRECT\n";

    #[test]
    fn finds_the_touch_panel() {
        assert_eq!(
            parse_getevent(GETEVENT),
            Some(TouchPanel {
                device: "/dev/input/event2".into(),
                max_x: 4095,
                max_y: 4095
            })
        );
        let labelled = "add device 1: /dev/input/event3\n  name: \"ts\"\n  events:\n    ABS (0003): ABS_MT_POSITION_X    : value 0, min 0, max 1079, fuzz 0\n                ABS_MT_POSITION_Y    : value 0, min 0, max 2399, fuzz 0\n";
        assert_eq!(
            parse_getevent(labelled).map(|p| (p.max_x, p.max_y)),
            Some((1079, 2399))
        );
        assert_eq!(
            parse_getevent("add device 1: /dev/input/event0\n  name: \"keys\"\n"),
            None
        );
        let hostile = GETEVENT.replace("/dev/input/event2", "/dev/x;reboot");
        assert_eq!(
            parse_getevent(&hostile),
            None,
            "a device path with shell characters is refused"
        );
    }

    #[test]
    fn records_of_a_tap() {
        let mut b = Vec::new();
        tap_records(&mut b, RECORD_64, (100, 2000), 7);
        assert_eq!(b.len(), 10 * RECORD_64);
        // The second record: ABS_MT_TRACKING_ID 7 after a zero timeval.
        let r = &b[RECORD_64..2 * RECORD_64];
        assert_eq!(&r[..16], &[0u8; 16]);
        assert_eq!(&r[16..], &[3, 0, 0x39, 0, 7, 0, 0, 0]);
        let mut b = Vec::new();
        release(&mut b, RECORD_32);
        assert_eq!(b.len(), 4 * RECORD_32);
        assert_eq!(&b[RECORD_32 + 12..2 * RECORD_32], &(-1i32).to_le_bytes());
    }

    #[test]
    fn guesses_and_panel_mapping() {
        assert_eq!(guess_record("arm64-v8a"), 24);
        assert_eq!(guess_record("x86_64"), 24);
        assert_eq!(guess_record("armeabi-v7a"), 16);
        let p = TouchPanel {
            device: "/dev/input/event2".into(),
            max_x: 4095,
            max_y: 4095,
        };
        assert_eq!(to_panel(&p, (720, 1520), 360, 1519), (2048, 4093));
    }
}
