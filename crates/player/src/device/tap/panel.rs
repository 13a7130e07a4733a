//! The touch panel: which `/dev/input/eventN` it is, chosen by evidence among the multitouch
//! nodes `getevent -p` lists (emulators list one per possible display, some phones two panel
//! drivers): the node whose touches a capture shows, else the one `dumpsys input` maps to
//! display 0. Its axes, and the language it takes: multitouch protocol A or B `input_event`
//! records, the same for every channel that writes the panel (`sendevent` lines spell them out
//! one by one, `raw` streams them).

use crate::device::android::{ABS_MT_SLOT, Mapping, Protocol, TouchNode};

pub(super) const EV_SYN: u16 = 0;
const SYN_REPORT: u16 = 0;
const SYN_MT_REPORT: u16 = 2;
const EV_KEY: u16 = 1;
const EV_ABS: u16 = 3;
const BTN_TOUCH: u16 = 0x14a;
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

/// A touchscreen as `getevent -p` describes it, and how the display is turned against its
/// axes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TouchPanel {
    pub device: String,
    pub max_x: u32,
    pub max_y: u32,
    pub protocol: Protocol,
    /// Quarter turns from the panel's axes to the display's (`Surface.ROTATION_90` is 1: a
    /// phone held in landscape; the panel's axes stay those of its natural orientation).
    pub rotation: u8,
}

impl TouchNode {
    /// The panel to write, if its axes are known.
    pub fn panel(&self) -> Option<TouchPanel> {
        let (max_x, max_y) = self.axes?;
        Some(TouchPanel {
            device: self.device.clone(),
            max_x,
            max_y,
            protocol: self.protocol.unwrap_or(Protocol::B),
            rotation: 0,
        })
    }
}

/// Adds the touch devices only `dumpsys input` names (nodes `getevent` may not open) to the
/// nodes, without axes.
fn add_mapped(nodes: &mut Vec<TouchNode>, mappings: &[Mapping]) {
    for m in mappings {
        if !nodes.iter().any(|n| n.device == m.device) {
            nodes.push(TouchNode {
                device: m.device.clone(),
                name: String::new(),
                axes: None,
                protocol: None,
                direct: false,
                events: 0,
            });
        }
    }
}

/// The panel among `nodes`, by evidence: a node whose touches were captured, then the one
/// `dumpsys input` maps to display 0 (in DIRECT mode first), then a touchscreen with slots;
/// the first listed on a tie. With why, for the user.
pub fn choose_panel<'a>(
    nodes: &'a [TouchNode],
    mappings: &[Mapping],
) -> Option<(&'a TouchNode, String)> {
    let score = |n: &TouchNode| -> (u32, &'static str) {
        let mapped = mappings.iter().find(|m| m.device == n.device);
        match mapped {
            _ if n.events > 0 => (100, "its touches are in the capture"),
            Some(m) if m.display0 && m.mode == "DIRECT" => {
                (40, "dumpsys input maps it to display 0 (DIRECT)")
            }
            Some(m) if m.display0 => (30, "dumpsys input maps it to display 0"),
            Some(_) => (0, "dumpsys input maps it to no display"),
            None => (
                10 + 2 * u32::from(n.direct) + u32::from(n.protocol == Some(Protocol::B)),
                if n.direct {
                    "a touchscreen (INPUT_PROP_DIRECT)"
                } else {
                    "multitouch axes"
                },
            ),
        }
    };
    let (_, best) = nodes
        .iter()
        .enumerate()
        .max_by_key(|(i, n)| (score(n).0, std::cmp::Reverse(*i)))?;
    let why = if nodes.len() == 1 {
        format!("{} ({}), the only multitouch node", best.device, best.name)
    } else {
        let others: Vec<&str> = nodes
            .iter()
            .filter(|n| n.device != best.device)
            .map(|n| n.device.as_str())
            .collect();
        let more = match others.len() {
            n if n > 3 => format!(" and {} more", n - 3),
            _ => String::new(),
        };
        format!(
            "{} ({}): {}; not {}{more}",
            best.device,
            best.name,
            score(best).1,
            others[..others.len().min(3)].join(", ")
        )
    };
    Some((best, why))
}

/// What the phone says about its touch nodes, and the panel chosen among them.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct PanelSurvey {
    /// The multitouch nodes `getevent -p` lists.
    pub nodes: Vec<TouchNode>,
    /// `dumpsys input`'s touch mappers.
    pub mappings: Vec<Mapping>,
    /// The panel's node, and why it (`None`: no multitouch node).
    pub chosen: Option<(usize, String)>,
    /// The display's rotation as the window manager says (for a panel whose mapper does not).
    pub display_rotation: Option<u8>,
}

impl PanelSurvey {
    /// Asks the phone: `getevent -p` for the nodes, `dumpsys input` for the display each
    /// drives (touch devices only it names, e.g. nodes `getevent` may not open, join the nodes
    /// without axes).
    pub fn of(device: &crate::device::Device) -> Result<PanelSurvey, crate::device::DeviceError> {
        let mut nodes = device.touch_nodes()?;
        let mappings = device.touch_mappings()?;
        add_mapped(&mut nodes, &mappings);
        let chosen = choose_panel(&nodes, &mappings).map(|(node, why)| {
            let at = nodes.iter().position(|n| n == node).unwrap_or(0);
            (at, why)
        });
        let display_rotation = device.display_state()?.rotation;
        Ok(PanelSurvey {
            nodes,
            mappings,
            chosen,
            display_rotation,
        })
    }
}

impl PanelSurvey {
    /// The chosen node.
    pub fn node(&self) -> Option<&TouchNode> {
        self.nodes.get(self.chosen.as_ref()?.0)
    }

    /// The chosen panel, if its axes are known, turned as its mapper says (else as the
    /// display is).
    pub fn panel(&self) -> Option<TouchPanel> {
        let node = self.node()?;
        let mapped = self.mappings.iter().find(|m| m.device == node.device);
        Some(TouchPanel {
            rotation: mapped
                .and_then(|m| m.orientation)
                .or(self.display_rotation)
                .unwrap_or(0),
            ..node.panel()?
        })
    }
}

/// The events of one contact going down at panel (x, y) with tracking id `id`, in the
/// panel's protocol.
fn down_events(protocol: Protocol, (x, y): (u32, u32), id: i32) -> Vec<(u16, u16, i32)> {
    let mut e = Vec::with_capacity(7);
    if protocol == Protocol::B {
        e.push((EV_ABS, ABS_MT_SLOT, 0));
    }
    e.extend([
        (EV_ABS, ABS_MT_TRACKING_ID, id),
        (EV_ABS, ABS_MT_POSITION_X, x as i32),
        (EV_ABS, ABS_MT_POSITION_Y, y as i32),
    ]);
    if protocol == Protocol::A {
        e.push((EV_SYN, SYN_MT_REPORT, 0));
    }
    e.extend([(EV_KEY, BTN_TOUCH, 1), (EV_SYN, SYN_REPORT, 0)]);
    e
}

/// The events of the contact down since [`down_events`] moving to panel (x, y): the same
/// contact's position again, and a report.
fn move_events(protocol: Protocol, (x, y): (u32, u32), id: i32) -> Vec<(u16, u16, i32)> {
    match protocol {
        Protocol::B => vec![
            (EV_ABS, ABS_MT_SLOT, 0),
            (EV_ABS, ABS_MT_POSITION_X, x as i32),
            (EV_ABS, ABS_MT_POSITION_Y, y as i32),
            (EV_SYN, SYN_REPORT, 0),
        ],
        // Every frame of protocol A names each contact down again.
        Protocol::A => vec![
            (EV_ABS, ABS_MT_TRACKING_ID, id),
            (EV_ABS, ABS_MT_POSITION_X, x as i32),
            (EV_ABS, ABS_MT_POSITION_Y, y as i32),
            (EV_SYN, SYN_MT_REPORT, 0),
            (EV_SYN, SYN_REPORT, 0),
        ],
    }
}

/// The events that lift the contact (a no-op if none is down).
fn up_events(protocol: Protocol) -> Vec<(u16, u16, i32)> {
    match protocol {
        // Slot 0's contact ends.
        Protocol::B => vec![
            (EV_ABS, ABS_MT_SLOT, 0),
            (EV_ABS, ABS_MT_TRACKING_ID, -1),
            (EV_KEY, BTN_TOUCH, 0),
            (EV_SYN, SYN_REPORT, 0),
        ],
        // A frame without contacts (a tracking id of -1 would be a contact there).
        Protocol::A => vec![
            (EV_SYN, SYN_MT_REPORT, 0),
            (EV_KEY, BTN_TOUCH, 0),
            (EV_SYN, SYN_REPORT, 0),
        ],
    }
}

/// A tap at panel (x, y) as `sendevent` commands (one shell line).
pub(super) fn sendevent_line(panel: &TouchPanel, at: (u32, u32), id: i32) -> String {
    let mut events = down_events(panel.protocol, at, id);
    events.extend(up_events(panel.protocol));
    let words: Vec<String> = events
        .iter()
        .map(|(k, c, v)| format!("sendevent {} {k} {c} {v}", panel.device))
        .collect();
    words.join("; ") + "\n"
}

/// A drag through panel points `at` as `sendevent` commands (one shell line): the contact goes
/// down at the first, moves through the others and lifts at the last.
pub(super) fn sendevent_drag_line(panel: &TouchPanel, at: &[(u32, u32)], id: i32) -> String {
    let words: Vec<String> = drag_events(panel.protocol, at, id)
        .concat()
        .iter()
        .map(|(k, c, v)| format!("sendevent {} {k} {c} {v}", panel.device))
        .collect();
    words.join("; ") + "\n"
}

/// The events of a drag through panel points `at`, one list per step (the contact down at the
/// first point, each move, the lift), so that a writer can space the steps in time as a finger
/// takes time to move: a swipe is told from a tap, and a fling from a slow drag, by how far the
/// contact went and how fast.
fn drag_events(protocol: Protocol, at: &[(u32, u32)], id: i32) -> Vec<Vec<(u16, u16, i32)>> {
    let Some((&first, rest)) = at.split_first() else {
        return Vec::new();
    };
    let mut steps = vec![down_events(protocol, first, id)];
    steps.extend(rest.iter().map(|&p| move_events(protocol, p, id)));
    steps.push(up_events(protocol));
    steps
}

/// [`drag_events`] as records of `record` bytes, one buffer per step.
pub(crate) fn drag_records(
    panel: &TouchPanel,
    record: usize,
    at: &[(u32, u32)],
    id: i32,
) -> Vec<Vec<u8>> {
    drag_events(panel.protocol, at, id)
        .into_iter()
        .map(|step| {
            let mut out = Vec::new();
            for (k, c, v) in step {
                push(&mut out, record, k, c, v);
            }
            out
        })
        .collect()
}

/// The display points of a straight drag from `from` to `to` in `steps` moves (the start
/// first, the end last).
pub(crate) fn drag_points(from: (u32, u32), to: (u32, u32), steps: u32) -> Vec<(u32, u32)> {
    let steps = steps.max(1);
    let along = |a: u32, b: u32, i: u32| {
        let (a, b) = (i64::from(a), i64::from(b));
        (a + (b - a) * i64::from(i) / i64::from(steps)) as u32
    };
    (0..=steps)
        .map(|i| (along(from.0, to.0, i), along(from.1, to.1, i)))
        .collect()
}

/// Appends one event as a record of `record` bytes (zero timestamp: the kernel ignores it).
pub(super) fn push(out: &mut Vec<u8>, record: usize, kind: u16, code: u16, value: i32) {
    out.resize(out.len() + record - 8, 0);
    out.extend_from_slice(&kind.to_le_bytes());
    out.extend_from_slice(&code.to_le_bytes());
    out.extend_from_slice(&value.to_le_bytes());
}

/// A tap at panel coordinates (x, y) with tracking id `id`: the contact goes down and lifts.
pub(crate) fn tap_records(
    out: &mut Vec<u8>,
    panel: &TouchPanel,
    record: usize,
    at: (u32, u32),
    id: i32,
) {
    touch_down(out, panel, record, at, id);
    release(out, panel, record);
}

/// The first half of [`tap_records`]: the contact goes down.
pub fn touch_down(out: &mut Vec<u8>, panel: &TouchPanel, record: usize, at: (u32, u32), id: i32) {
    for (k, c, v) in down_events(panel.protocol, at, id) {
        push(out, record, k, c, v);
    }
}

/// Lifts the contact (a no-op if none is down): written first on a new stream, so a tap cut
/// in half by a dropped link cannot leave a finger on the screen.
pub fn release(out: &mut Vec<u8>, panel: &TouchPanel, record: usize) {
    for (k, c, v) in up_events(panel.protocol) {
        push(out, record, k, c, v);
    }
}

/// The tracking id after `id`: ids go round 1..=60000 (a new one for each contact).
pub(super) fn next_tracking_id(id: i32) -> i32 {
    id % 60000 + 1
}

/// Display points -> panel points ([`to_panel`] each): a drag's path.
pub(super) fn path_to_panel(
    panel: &TouchPanel,
    screen: (u32, u32),
    at: &[(u32, u32)],
) -> Vec<(u32, u32)> {
    at.iter()
        .map(|&(x, y)| to_panel(panel, screen, x, y))
        .collect()
}

/// Display pixel -> panel axis value: `screen` is the display as it is turned now; the panel
/// keeps its natural axes (at `ROTATION_90` the display's x runs along the panel's y, its y
/// along the panel's x from its end: Android's `TouchInputMapper`, undone), and its range may
/// differ from the display's.
pub(crate) fn to_panel(panel: &TouchPanel, screen: (u32, u32), x: u32, y: u32) -> (u32, u32) {
    let (sw, sh) = (screen.0.max(1), screen.1.max(1));
    let (x, y) = (x.min(sw - 1), y.min(sh - 1));
    // The point in the natural orientation, and the natural size.
    let ((nx, ny), (w, h)) = match panel.rotation % 4 {
        1 => ((sh - 1 - y, x), (sh, sw)),
        2 => ((sw - 1 - x, sh - 1 - y), (sw, sh)),
        3 => ((y, sw - 1 - x), (sh, sw)),
        _ => ((x, y), (sw, sh)),
    };
    let px = (nx as u64 * (panel.max_x as u64 + 1) / w as u64).min(panel.max_x as u64);
    let py = (ny as u64 * (panel.max_y as u64 + 1) / h as u64).min(panel.max_y as u64);
    (px as u32, py as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::android::{touch_mappings, touch_nodes};

    const GETEVENT: &str = "add device 1: /dev/input/event0\n  name:     \"gpio-keys\"\n  events:\n    KEY (0001): 0072  0073  0074\n\
add device 2: /dev/input/event2\n  name:     \"sim_touchscreen\"\n  events:\n    KEY (0001): 014a\n    ABS (0003): 002f  : value 0, min 0, max 9, fuzz 0, flat 0, resolution 0\n\
                0035  : value 0, min 0, max 4095, fuzz 0, flat 0, resolution 0\n                0036  : value 0, min 0, max 4095, fuzz 0, flat 0, resolution 0\n\
                0039  : value 0, min 0, max 65535, fuzz 0, flat 0, resolution 0\n  input props:\n    INPUT_PROP_DIRECT\n";

    fn panel_of(getevent: &str) -> Option<TouchPanel> {
        choose_panel(&touch_nodes(getevent), &[]).and_then(|(n, _)| n.panel())
    }

    fn panel(device: &str, protocol: Protocol) -> TouchPanel {
        TouchPanel {
            device: device.into(),
            max_x: 4095,
            max_y: 4095,
            protocol,
            rotation: 0,
        }
    }

    #[test]
    fn finds_the_touch_panel() {
        assert_eq!(
            panel_of(GETEVENT),
            Some(panel("/dev/input/event2", Protocol::B))
        );
        let labelled = "add device 1: /dev/input/event3\n  name: \"ts\"\n  events:\n    ABS (0003): ABS_MT_POSITION_X    : value 0, min 0, max 1079, fuzz 0\n                ABS_MT_POSITION_Y    : value 0, min 0, max 2399, fuzz 0\n";
        let p = panel_of(labelled).unwrap();
        assert_eq!((p.max_x, p.max_y, p.protocol), (1079, 2399, Protocol::A));
        assert_eq!(
            panel_of("add device 1: /dev/input/event0\n  name: \"keys\"\n"),
            None
        );
        let hostile = GETEVENT.replace("/dev/input/event2", "/dev/x;reboot");
        assert_eq!(
            panel_of(&hostile),
            None,
            "a device path with shell characters is refused"
        );
    }

    #[test]
    fn the_panel_is_chosen_by_evidence_not_by_order() {
        let decoy = GETEVENT
            .replace("/dev/input/event2", "/dev/input/event1")
            .replace("sim_touchscreen", "decoy");
        let two = format!("{decoy}{GETEVENT}");
        let nodes = touch_nodes(&two);
        assert_eq!(nodes.len(), 2);
        // Nothing tells them apart: the first listed.
        assert_eq!(
            choose_panel(&nodes, &[]).unwrap().0.device,
            "/dev/input/event1"
        );
        // dumpsys input maps the second to display 0.
        let mapped = [
            Mapping {
                device: "/dev/input/event1".into(),
                mode: "DISABLED".into(),
                display0: false,
                orientation: None,
            },
            Mapping {
                device: "/dev/input/event2".into(),
                mode: "DIRECT".into(),
                display0: true,
                orientation: Some(0),
            },
        ];
        let (p, why) = choose_panel(&nodes, &mapped).unwrap();
        assert_eq!(p.device, "/dev/input/event2");
        assert!(
            why.contains("display 0") && why.contains("not /dev/input/event1"),
            "{why}"
        );
        // A capture's touches win over everything.
        let captured = format!("{two}/dev/input/event1: 0003 0035 000001e5\n");
        assert_eq!(
            choose_panel(&touch_nodes(&captured), &mapped)
                .unwrap()
                .0
                .device,
            "/dev/input/event1"
        );
    }

    #[test]
    fn real_getevent_outputs_give_their_panel() {
        let outputs = crate::real_outputs::with_truth("panel");
        assert!(outputs.len() >= 5, "{}", outputs.len());
        for (file, text, truth) in outputs {
            // `getevent` lists the nodes; a `dumpsys input` alone names them by its mappers.
            let mappings = touch_mappings(&text);
            let mut nodes = touch_nodes(&text);
            add_mapped(&mut nodes, &mappings);
            let (node, why) =
                choose_panel(&nodes, &mappings).unwrap_or_else(|| panic!("{file}: no panel"));
            assert_eq!(Some(node.device.as_str()), truth.as_str(), "{file}: {why}");
        }
        for (file, text, truth) in crate::real_outputs::with_truth("protocol") {
            let nodes = touch_nodes(&text);
            let (node, _) = choose_panel(&nodes, &[]).unwrap();
            assert_eq!(
                node.protocol.map(|p| format!("{p:?}")).as_deref(),
                truth.as_str(),
                "{file}"
            );
        }
        for (file, text, truth) in crate::real_outputs::with_truth("max_x") {
            let nodes = touch_nodes(&text);
            let (node, _) = choose_panel(&nodes, &[]).unwrap();
            assert_eq!(
                node.axes.map(|a| i64::from(a.0)),
                truth.as_integer(),
                "{file}"
            );
        }
    }

    #[test]
    fn records_of_a_tap() {
        let b_panel = panel("/dev/input/event2", Protocol::B);
        let mut b = Vec::new();
        tap_records(&mut b, &b_panel, RECORD_64, (100, 2000), 7);
        assert_eq!(b.len(), 10 * RECORD_64);
        // The second record: ABS_MT_TRACKING_ID 7 after a zero timeval.
        let r = &b[RECORD_64..2 * RECORD_64];
        assert_eq!(&r[..16], &[0u8; 16]);
        assert_eq!(&r[16..], &[3, 0, 0x39, 0, 7, 0, 0, 0]);
        let mut b = Vec::new();
        release(&mut b, &b_panel, RECORD_32);
        assert_eq!(b.len(), 4 * RECORD_32);
        assert_eq!(&b[RECORD_32 + 12..2 * RECORD_32], &(-1i32).to_le_bytes());
        // Protocol A: no slot; the contact ends with SYN_MT_REPORT; the lift is an empty frame.
        let a_panel = panel("/dev/input/event2", Protocol::A);
        let line = sendevent_line(&a_panel, (5, 6), 3);
        assert_eq!(
            line,
            "sendevent /dev/input/event2 3 57 3; sendevent /dev/input/event2 3 53 5; \
             sendevent /dev/input/event2 3 54 6; sendevent /dev/input/event2 0 2 0; \
             sendevent /dev/input/event2 1 330 1; sendevent /dev/input/event2 0 0 0; \
             sendevent /dev/input/event2 0 2 0; sendevent /dev/input/event2 1 330 0; \
             sendevent /dev/input/event2 0 0 0\n"
        );
        assert!(!line.contains(" 3 47 ") && !line.contains(" 3 57 -1"));
    }

    #[test]
    fn guesses_and_panel_mapping() {
        assert_eq!(guess_record("arm64-v8a"), 24);
        assert_eq!(guess_record("x86_64"), 24);
        assert_eq!(guess_record("armeabi-v7a"), 16);
        let p = panel("/dev/input/event2", Protocol::B);
        assert_eq!(to_panel(&p, (720, 1520), 360, 1519), (2048, 4093));
    }

    #[test]
    fn a_turned_display_maps_to_the_panels_natural_axes() {
        // A 1080x2400 phone whose panel has one unit per pixel, held in landscape.
        let mut p = TouchPanel {
            max_x: 1079,
            max_y: 2399,
            ..panel("/dev/input/event2", Protocol::B)
        };
        // ROTATION_90 (the natural top on the left): the display's top-left corner is the
        // panel's top-right one, its bottom-left the panel's origin (as a real landscape bot
        // computes it: display x = raw y, display y = max x - raw x).
        p.rotation = 1;
        assert_eq!(to_panel(&p, (2400, 1080), 0, 0), (1079, 0));
        assert_eq!(to_panel(&p, (2400, 1080), 0, 1079), (0, 0));
        assert_eq!(to_panel(&p, (2400, 1080), 2399, 0), (1079, 2399));
        p.rotation = 2;
        assert_eq!(to_panel(&p, (1080, 2400), 0, 0), (1079, 2399));
        p.rotation = 3;
        assert_eq!(to_panel(&p, (2400, 1080), 0, 0), (0, 2399));
        assert_eq!(to_panel(&p, (2400, 1080), 2399, 1079), (1079, 0));
    }
}
