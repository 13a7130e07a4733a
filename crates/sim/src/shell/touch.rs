//! The simulated touchscreen: its `getevent -p` description (beside the phone's other nodes,
//! decoy multitouch nodes included) and a decoder for the multitouch events written into it
//! (protocol B, or A where the profile says so), turned into taps and swipes in display pixels
//! at each SYN_REPORT.

use crate::profile::Profile;
use std::time::Instant;

pub const EV_SYN: u16 = 0;
pub const EV_KEY: u16 = 1;
pub const EV_ABS: u16 = 3;
pub const SYN_REPORT: u16 = 0;
/// Protocol A: the end of one contact's data within a frame.
pub const SYN_MT_REPORT: u16 = 2;
pub const BTN_TOUCH: u16 = 0x14a;
pub const ABS_MT_SLOT: u16 = 0x2f;
pub const ABS_MT_TOUCH_MAJOR: u16 = 0x30;
pub const ABS_MT_POSITION_X: u16 = 0x35;
pub const ABS_MT_POSITION_Y: u16 = 0x36;
pub const ABS_MT_TRACKING_ID: u16 = 0x39;
pub const ABS_MT_PRESSURE: u16 = 0x3a;

/// Input devices besides the touch nodes (they accept `sendevent` but nothing listens).
pub const OTHER_DEVICES: [(&str, &str); 2] = [
    ("/dev/input/event0", "gpio-keys"),
    ("/dev/input/event1", "qpnp_pon"),
];

/// A multitouch device node: the panel of the built-in display, or a decoy that drives
/// nothing there (see [`crate::profile::Quirks::decoy_panels`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TouchNode {
    pub path: String,
    pub name: String,
    /// Whether touches written here reach the built-in display.
    pub real: bool,
}

/// The phone's multitouch nodes in `getevent`'s order: the first decoy (if any), the panel,
/// then the other decoys; numbered from `/dev/input/event2` in that order.
pub fn touch_nodes(profile: &Profile) -> Vec<TouchNode> {
    let decoys = usize::from(profile.quirks.decoy_panels);
    let real_at = usize::from(decoys > 0);
    (0..=decoys)
        .map(|i| {
            let real = i == real_at;
            let decoy = if i < real_at { i } else { i.saturating_sub(1) } + 1;
            TouchNode {
                path: format!("/dev/input/event{}", i + 2),
                name: if real {
                    "sim_touchscreen".into()
                } else {
                    format!("sim_touchscreen_{decoy}")
                },
                real,
            }
        })
        .collect()
}

/// What a path names among the input nodes: `Some(true)` the panel, `Some(false)` another node
/// (a decoy or a key device), `None` no such node.
pub fn node_kind(profile: &Profile, path: &str) -> Option<bool> {
    if OTHER_DEVICES.iter().any(|(p, _)| *p == path) {
        return Some(false);
    }
    touch_nodes(profile)
        .into_iter()
        .find(|n| n.path == path)
        .map(|n| n.real)
}
pub const SLOTS: usize = 10;
/// A contact that moves less than this many display pixels is a tap.
const TAP_SLOP: i32 = 24;

/// A gesture recognised from raw events, in display pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gesture {
    Tap(i32, i32),
    Swipe {
        from: (i32, i32),
        to: (i32, i32),
        ms: u32,
    },
}

#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    tracking: Option<i32>,
    x: i32,
    y: i32,
    /// The current contact's tracking id, and where and when it started (set at its first
    /// SYN_REPORT).
    down: Option<(i32, i32, i32, Instant)>,
}

/// Decoder state (persists across `sendevent` invocations, like the kernel's).
#[derive(Debug, Default)]
pub struct TouchDecoder {
    slot: usize,
    slots: [Slot; SLOTS],
    /// Protocol A: the contacts of the frame being read (each closed by SYN_MT_REPORT), and
    /// whether an axis event opened another one since.
    frame: Vec<(i32, i32)>,
    contact: (i32, i32),
    open: bool,
}

impl TouchDecoder {
    /// Feeds one event; returns the gestures completed by a SYN_REPORT.
    pub fn event(&mut self, profile: &Profile, kind: u16, code: u16, value: i32) -> Vec<Gesture> {
        if profile.quirks.protocol_a {
            return self.event_a(profile, kind, code, value);
        }
        match (kind, code) {
            (EV_ABS, ABS_MT_SLOT) => {
                if let Ok(s) = usize::try_from(value)
                    && s < SLOTS
                {
                    self.slot = s;
                }
            }
            (EV_ABS, ABS_MT_TRACKING_ID) => {
                self.slots[self.slot].tracking = (value >= 0).then_some(value);
            }
            (EV_ABS, ABS_MT_POSITION_X) => self.slots[self.slot].x = value,
            (EV_ABS, ABS_MT_POSITION_Y) => self.slots[self.slot].y = value,
            (EV_SYN, SYN_REPORT) => return self.sync(profile),
            _ => {}
        }
        Vec::new()
    }

    /// Protocol A, as Android's `MultiTouchMotionAccumulator` reads it without slots: any
    /// `ABS_MT_*` event puts the current contact in use (a tracking id of -1 too: it is not a
    /// lift here), SYN_MT_REPORT closes it, and SYN_REPORT ends the frame; a frame without
    /// contacts lifts the finger. Contact 0 drives the one finger this panel follows.
    fn event_a(&mut self, profile: &Profile, kind: u16, code: u16, value: i32) -> Vec<Gesture> {
        let close = |d: &mut TouchDecoder| {
            if d.open {
                d.frame.push(d.contact);
            }
            // The next contact starts from a cleared slot, as after `clearSlots`.
            (d.open, d.contact) = (false, (0, 0));
        };
        match (kind, code) {
            (EV_ABS, ABS_MT_POSITION_X) => (self.contact.0, self.open) = (value, true),
            (EV_ABS, ABS_MT_POSITION_Y) => (self.contact.1, self.open) = (value, true),
            (EV_ABS, ABS_MT_TRACKING_ID | ABS_MT_TOUCH_MAJOR | ABS_MT_PRESSURE) => self.open = true,
            (EV_SYN, SYN_MT_REPORT) => close(self),
            (EV_SYN, SYN_REPORT) => {
                close(self);
                let contacts = std::mem::take(&mut self.frame);
                let finger = &mut self.slots[0];
                let Some(&(px, py)) = contacts.first() else {
                    // No contact: the finger lifts where it last was.
                    let (x, y) = to_display(profile, finger.x, finger.y);
                    return lift(finger, x, y).into_iter().collect();
                };
                (finger.x, finger.y) = (px, py);
                if finger.down.is_none() {
                    let (x, y) = to_display(profile, px, py);
                    finger.down = Some((0, x, y, Instant::now()));
                }
            }
            _ => {}
        }
        Vec::new()
    }

    fn sync(&mut self, profile: &Profile) -> Vec<Gesture> {
        let mut out = Vec::new();
        for slot in &mut self.slots {
            let (x, y) = to_display(profile, slot.x, slot.y);
            // A new tracking id on a slot still down lifts the old contact first (as Android's
            // InputReader sees it: the old pointer goes up, a new one comes down).
            if let (Some(id), Some((old, ..))) = (slot.tracking, slot.down)
                && id != old
                && let Some(g) = lift(slot, x, y)
            {
                out.push(g);
            }
            match (slot.tracking, slot.down) {
                (Some(id), None) => slot.down = Some((id, x, y, Instant::now())),
                (None, Some(_)) => out.extend(lift(slot, x, y)),
                _ => {}
            }
        }
        out
    }
}

/// Ends a slot's contact at (x, y): a tap if it stayed within the slop, else a swipe.
fn lift(slot: &mut Slot, x: i32, y: i32) -> Option<Gesture> {
    let (_, dx, dy, t) = slot.down.take()?;
    Some(
        if (x - dx).abs() <= TAP_SLOP && (y - dy).abs() <= TAP_SLOP {
            Gesture::Tap(dx, dy)
        } else {
            let ms = u32::try_from(t.elapsed().as_millis()).unwrap_or(u32::MAX);
            Gesture::Swipe {
                from: (dx, dy),
                to: (x, y),
                ms,
            }
        },
    )
}

/// Maps touch panel coordinates (0..=touch_max, the panel's natural axes) to display pixels of
/// the rotated display, as Android's `TouchInputMapper` does (`cookPointerData`: at
/// `ROTATION_90` the display's x is the panel's y, its y the panel's x counted from its end).
pub(crate) fn to_display(profile: &Profile, x: i32, y: i32) -> (i32, i32) {
    let scale = |v: i32, max: u32, size: u32| -> i32 {
        let max = i64::from(max.max(1));
        let v = i64::from(v).clamp(0, max);
        let px = (v * (i64::from(size) - 1) + max / 2) / max;
        i32::try_from(px).unwrap_or(0)
    };
    let (nx, ny) = (
        scale(x, profile.touch_max.0, profile.width),
        scale(y, profile.touch_max.1, profile.height),
    );
    let (w, h) = (profile.width as i32, profile.height as i32);
    match profile.rotation % 4 {
        1 => (ny, w - 1 - nx),
        2 => (w - 1 - nx, h - 1 - ny),
        3 => (h - 1 - ny, nx),
        _ => (nx, ny),
    }
}

/// `getevent -p` (labels = false) or `getevent -lp` (labels = true).
pub fn describe(profile: &Profile, labels: bool) -> String {
    let mut s = String::new();
    let add = |s: &mut String, n: usize, path: &str, name: &str| {
        s.push_str(&format!(
            "add device {n}: {path}\n  name:     \"{name}\"\n  events:\n"
        ));
    };
    let key_line = |codes: &[(u16, &str)]| -> String {
        let items: Vec<String> = codes
            .iter()
            .map(|(c, n)| {
                if labels {
                    format!("{n:<20} ")
                } else {
                    format!("{c:04x} ")
                }
            })
            .collect();
        format!("    KEY (0001): {}\n", items.join(""))
    };
    add(&mut s, 1, OTHER_DEVICES[0].0, OTHER_DEVICES[0].1);
    s.push_str(&key_line(&[
        (0x72, "KEY_VOLUMEDOWN"),
        (0x73, "KEY_VOLUMEUP"),
    ]));
    s.push_str("  input props:\n    <none>\n");
    add(&mut s, 2, OTHER_DEVICES[1].0, OTHER_DEVICES[1].1);
    s.push_str(&key_line(&[(0x74, "KEY_POWER")]));
    s.push_str("  input props:\n    <none>\n");
    for (i, node) in touch_nodes(profile).iter().enumerate() {
        add(&mut s, 3 + i, &node.path, &node.name);
        s.push_str(&key_line(&[(BTN_TOUCH, "BTN_TOUCH")]));
        // A protocol A panel has no slots.
        let slots = !(node.real && profile.quirks.protocol_a);
        let axes: [(u16, &str, u32); 6] = [
            (ABS_MT_SLOT, "ABS_MT_SLOT", (SLOTS - 1) as u32),
            (ABS_MT_TOUCH_MAJOR, "ABS_MT_TOUCH_MAJOR", 255),
            (ABS_MT_POSITION_X, "ABS_MT_POSITION_X", profile.touch_max.0),
            (ABS_MT_POSITION_Y, "ABS_MT_POSITION_Y", profile.touch_max.1),
            (ABS_MT_TRACKING_ID, "ABS_MT_TRACKING_ID", 65535),
            (ABS_MT_PRESSURE, "ABS_MT_PRESSURE", 255),
        ];
        let axes = axes.iter().filter(|(c, ..)| slots || *c != ABS_MT_SLOT);
        for (i, (code, name, max)) in axes.enumerate() {
            let prefix = if i == 0 {
                "    ABS (0003): "
            } else {
                "                "
            };
            let label = if labels {
                format!("{name:<20}")
            } else {
                format!("{code:04x}")
            };
            s.push_str(&format!(
                "{prefix}{label}  : value 0, min 0, max {max}, fuzz 0, flat 0, resolution 0\n"
            ));
        }
        s.push_str("  input props:\n    INPUT_PROP_DIRECT\n");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile;

    fn feed(d: &mut TouchDecoder, p: &Profile, events: &[(u16, u16, i32)]) -> Vec<Gesture> {
        events
            .iter()
            .flat_map(|&(t, c, v)| d.event(p, t, c, v))
            .collect()
    }

    #[test]
    fn protocol_b_tap_maps_panel_to_pixels() {
        let p = profile::profile("flagship").unwrap().clone();
        let mut d = TouchDecoder::default();
        let down = [
            (EV_ABS, ABS_MT_SLOT, 0),
            (EV_ABS, ABS_MT_TRACKING_ID, 12),
            (EV_ABS, ABS_MT_POSITION_X, 8192),
            (EV_ABS, ABS_MT_POSITION_Y, 16383),
            (EV_KEY, BTN_TOUCH, 1),
            (EV_SYN, SYN_REPORT, 0),
        ];
        assert!(feed(&mut d, &p, &down).is_empty());
        let up = [
            (EV_ABS, ABS_MT_TRACKING_ID, -1),
            (EV_KEY, BTN_TOUCH, 0),
            (EV_SYN, SYN_REPORT, 0),
        ];
        let (x, y) = to_display(&p, 8192, 16383);
        assert_eq!((x, y), (720, 3199));
        assert_eq!(feed(&mut d, &p, &up), vec![Gesture::Tap(x, y)]);
        // A moving contact is a swipe.
        let mut moving = down.to_vec();
        moving[2].2 = 0;
        feed(&mut d, &p, &moving);
        let g = feed(
            &mut d,
            &p,
            &[(EV_ABS, ABS_MT_POSITION_X, 16383), (EV_SYN, SYN_REPORT, 0)]
                .into_iter()
                .chain(up)
                .collect::<Vec<_>>(),
        );
        assert!(
            matches!(
                g[..],
                [Gesture::Swipe {
                    from: (0, 3199),
                    to: (1439, 3199),
                    ..
                }]
            ),
            "{g:?}"
        );
    }

    #[test]
    fn a_rotated_display_turns_the_panels_axes() {
        // The panel's natural top-left corner, and a point near its top-right one.
        let mut p = profile::profile("pixel").unwrap().clone();
        let mx = p.touch_max.0;
        let corners = |p: &Profile| (to_display(p, 0, 0), to_display(p, mx as i32, 0));
        assert_eq!(corners(&p), ((0, 0), (1079, 0)));
        // ROTATION_90 (landscape, the natural top on the left): the natural top-left is the
        // display's bottom-left, the natural top-right its top-left.
        p.rotation = 1;
        assert_eq!(p.display_size(), (2400, 1080));
        assert_eq!(corners(&p), ((0, 1079), (0, 0)));
        p.rotation = 2;
        assert_eq!(corners(&p), ((1079, 2399), (0, 2399)));
        p.rotation = 3;
        assert_eq!(corners(&p), ((2399, 0), (2399, 1079)));
    }

    #[test]
    fn description_has_panel_axes() {
        let p = profile::profile("pixel").unwrap();
        let plain = describe(p, false);
        assert!(plain.contains("add device 3: /dev/input/event2"));
        assert!(plain.contains("0035  : value 0, min 0, max 1079, fuzz 0, flat 0, resolution 0"));
        assert!(plain.contains("KEY (0001): 014a"));
        let labelled = describe(p, true);
        assert!(labelled.contains("ABS_MT_POSITION_Y     : value 0, min 0, max 2399"));
        assert!(labelled.contains("ABS_MT_TRACKING_ID"));
        assert!(labelled.contains("BTN_TOUCH"));
    }
}
