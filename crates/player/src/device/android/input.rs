//! The touch panel as the phone describes it: `getevent -p` (its multitouch nodes, their
//! axes and protocol) and `dumpsys input` (which display each touch mapper drives, how it is
//! turned, and the input dispatcher's queues).

use std::collections::HashMap;

/// The evdev codes a `getevent` output names (`linux/input-event-codes.h`).
pub(crate) const ABS_MT_SLOT: u16 = 0x2f;

/// The multitouch protocol a panel speaks (the kernel's `Documentation/input/multi-touch-protocol.rst`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Protocol {
    /// Anonymous contacts, each closed by `SYN_MT_REPORT`; a frame without contacts is a
    /// lift (no `ABS_MT_SLOT` axis).
    A,
    /// Slots (`ABS_MT_SLOT`) with tracking ids; a tracking id of -1 lifts the slot's contact.
    B,
}

/// One input node of a `getevent` output that has multitouch position axes, or whose
/// multitouch events the output captured.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TouchNode {
    pub device: String,
    pub name: String,
    /// ABS_MT_POSITION_X and _Y maxima (`None`: a capture that lists no axes).
    pub axes: Option<(u32, u32)>,
    /// B with an `ABS_MT_SLOT` axis (or slot events), A with position axes and no slot axis.
    pub protocol: Option<Protocol>,
    /// `INPUT_PROP_DIRECT` (a touchscreen rather than a touchpad) among its input props.
    pub direct: bool,
    /// Multitouch events from this node in the same output (a capture of `getevent` while
    /// someone touched the screen).
    pub events: usize,
}

/// Whether a device path may go into a shell line (only plain path characters).
fn plain_path(d: &str) -> bool {
    !d.is_empty()
        && d.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/_.-".contains(&b))
}

/// Every node with ABS_MT_POSITION_X (0035) and _Y (0036) axes in a `getevent` output (`-p`,
/// `-lp`, `-ilp`, a capture of events with its device list, prompts and error lines between),
/// in listed order, with what the output says about each.
pub fn touch_nodes(text: &str) -> Vec<TouchNode> {
    let mut blocks: Vec<NodeBlock> = Vec::new();
    // Per device: multitouch events, and whether any was a slot.
    let mut events: HashMap<String, (usize, bool)> = HashMap::new();
    for line in text.lines() {
        let l = line.trim();
        if let Some(rest) = l.strip_prefix("add device") {
            let device = rest
                .split_once(':')
                .map(|(_, d)| d.trim().to_string())
                .filter(|d| plain_path(d));
            blocks.push(NodeBlock {
                device,
                ..NodeBlock::default()
            });
        } else if let Some((dev, mt)) = event_line(l) {
            if let Some(code) = mt {
                let e = events.entry(dev.to_string()).or_default();
                e.0 += 1;
                e.1 |= code == ABS_MT_SLOT;
            }
        } else if let Some(b) = blocks.last_mut() {
            b.read(l);
        }
    }
    blocks
        .into_iter()
        .filter_map(|b| b.into_node(&events))
        .collect()
}

/// What a `getevent` device list says of one node (an `add device` line and those under it).
#[derive(Default)]
struct NodeBlock {
    device: Option<String>,
    name: String,
    max_x: Option<u32>,
    max_y: Option<u32>,
    slots: bool,
    direct: bool,
}

impl NodeBlock {
    /// One line under the node's `add device` line.
    fn read(&mut self, l: &str) {
        if let Some(name) = l.strip_prefix("name:") {
            self.name = name.trim().trim_matches('"').to_string();
            return;
        }
        if l.ends_with("INPUT_PROP_DIRECT") {
            self.direct = true;
            return;
        }
        // `0035  : value 0, min 0, max 1079, fuzz 0, ...` (also after `ABS (0003):`).
        let l = l.rsplit_once("):").map(|(_, r)| r.trim()).unwrap_or(l);
        let max = || {
            l.split(',')
                .find_map(|part| part.trim().strip_prefix("max "))
                .and_then(|v| v.trim().parse::<u32>().ok())
        };
        if l.starts_with("0035") || l.starts_with("ABS_MT_POSITION_X") {
            self.max_x = max();
        } else if l.starts_with("0036") || l.starts_with("ABS_MT_POSITION_Y") {
            self.max_y = max();
        } else if l.starts_with("002f") || l.starts_with("ABS_MT_SLOT") {
            self.slots = true;
        }
    }

    /// The node, where it has multitouch axes or multitouch `events` were captured from it.
    fn into_node(self, events: &HashMap<String, (usize, bool)>) -> Option<TouchNode> {
        let device = self.device?;
        let (seen, slot_events) = events.get(&device).copied().unwrap_or_default();
        let axes = self.max_x.zip(self.max_y);
        let protocol = if self.slots || slot_events {
            Some(Protocol::B)
        } else {
            axes.map(|_| Protocol::A)
        };
        (axes.is_some() || seen > 0).then_some(TouchNode {
            device,
            name: self.name,
            axes,
            protocol,
            direct: self.direct,
            events: seen,
        })
    }
}

/// An event line of `getevent` (`/dev/input/event5: 0003 0035 000001e5`, `-l`'s
/// `/dev/input/event1: EV_ABS ABS_MT_POSITION_X 000001e5`, `-t`'s `[ 12.3] /dev/...`): its
/// device, and its code where it is a multitouch one (`-l`'s names: `ABS_MT_SLOT`, else 0x30).
fn event_line(l: &str) -> Option<(&str, Option<u16>)> {
    let event = l.rsplit_once("] ").map_or(l, |(_, r)| r);
    let (dev, codes) = event
        .split_once(": ")
        .filter(|(dev, _)| dev.starts_with("/dev/input/"))?;
    let words: Vec<&str> = codes.split_whitespace().collect();
    let mt = match words[..] {
        ["0003", code, _] => u16::from_str_radix(code, 16)
            .ok()
            .filter(|c| (ABS_MT_SLOT..=0x3d).contains(c)),
        ["EV_ABS", label, _] if label.starts_with("ABS_MT_") => Some(if label == "ABS_MT_SLOT" {
            ABS_MT_SLOT
        } else {
            0x30
        }),
        _ => None,
    };
    Some((dev, mt))
}

/// What `dumpsys input`'s reader says of one touch node: which display its touch mapper
/// drives, and its mode.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Mapping {
    pub device: String,
    /// `Touch Input Mapper (mode - DIRECT)` (DISABLED while the screen is off, or when the
    /// node's display does not exist).
    pub mode: String,
    /// A viewport of display 0 (the built-in display) is this mapper's.
    pub display0: bool,
    /// How its display is turned, in quarter turns: the mapper's `SurfaceOrientation: 1`
    /// (Android 8 to 13), `InputDeviceOrientation: 1` or `: Rotation90` (later releases), else
    /// its viewport's `orientation=1`.
    pub orientation: Option<u8>,
}

/// Whether a word is a device id (`65`, `-1`).
fn device_id(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit() || b == b'-')
}

/// The touch mappers of a `dumpsys input` (Android 8 to 16 formats): the event hub's devices
/// give each id's path, the reader's devices their mapper and viewport.
pub fn touch_mappings(text: &str) -> Vec<Mapping> {
    let mut reading = MappingReader::default();
    let mut section = Section::Other;
    for line in text.lines() {
        let l = line.trim();
        if !line.starts_with(' ') && !l.is_empty() {
            section = if l.starts_with("Event Hub State") {
                Section::Hub
            } else if l.starts_with("Input Reader State") {
                Section::Reader
            } else {
                Section::Other
            };
            continue;
        }
        match section {
            Section::Hub => reading.hub_line(l),
            Section::Reader => reading.reader_line(l),
            Section::Other => {}
        }
    }
    reading.out
}

/// The sections of a `dumpsys input` that [`touch_mappings`] reads.
enum Section {
    Other,
    Hub,
    Reader,
}

/// [`touch_mappings`] under way.
#[derive(Default)]
struct MappingReader {
    /// (event hub id, path, name) of the hub's devices.
    hub: Vec<(String, String, String)>,
    /// The hub's device being read: (id, name), until its path.
    hub_device: Option<(String, String)>,
    /// The reader's device being read: its event hub ids and name.
    reader: Option<(Vec<String>, String)>,
    /// The mapper of the reader's device being read (its viewport lines follow it).
    current: Option<usize>,
    out: Vec<Mapping>,
}

impl MappingReader {
    /// A line of the event hub's section.
    fn hub_line(&mut self, l: &str) {
        if let Some((id, name)) = l.split_once(": ")
            && device_id(id)
        {
            self.hub_device = Some((id.to_string(), name.trim().to_string()));
        } else if let Some(path) = l.strip_prefix("Path:")
            && let Some((id, name)) = self.hub_device.take()
        {
            self.hub.push((id, path.trim().to_string(), name));
        }
    }

    /// A line of the input reader's section.
    fn reader_line(&mut self, l: &str) {
        if let Some((id, name)) = l.strip_prefix("Device ").and_then(|r| r.split_once(": "))
            && device_id(id)
        {
            self.reader = Some((vec![id.to_string()], name.trim().to_string()));
            self.current = None;
        } else if let Some(ids) = l.strip_prefix("EventHub Devices:")
            && let Some((hub_ids, _)) = self.reader.as_mut()
        {
            *hub_ids = ids
                .trim()
                .trim_matches(|c| c == '[' || c == ']')
                .split_whitespace()
                .map(str::to_string)
                .collect();
        } else if let Some(mode) = l
            .strip_prefix("Touch Input Mapper (mode - ")
            .and_then(|r| r.strip_suffix("):"))
        {
            self.mapper(mode);
        } else if l.starts_with("Viewport")
            && let Some(m) = self.current.and_then(|i| self.out.get_mut(i))
        {
            m.display0 |= l.contains("displayId=0,") || l.ends_with("displayId=0");
            let turned = l.split(", ").find_map(|w| w.strip_prefix("orientation="));
            m.orientation = m
                .orientation
                .or(turned.and_then(super::display::quarter_turns));
        } else if let Some(v) = l
            .strip_prefix("SurfaceOrientation:")
            .or_else(|| l.strip_prefix("InputDeviceOrientation:"))
            && let Some(m) = self.current.and_then(|i| self.out.get_mut(i))
        {
            // The mapper's own word wins over its viewport's.
            m.orientation = super::display::quarter_turns(v.trim()).or(m.orientation);
        }
    }

    /// A touch mapper of the reader's device being read, in `mode`.
    fn mapper(&mut self, mode: &str) {
        let Some((ids, name)) = &self.reader else {
            return;
        };
        // The node: by event hub id, else (old releases) by name.
        let by_id = self.hub.iter().find(|(i, ..)| ids.contains(i));
        let by_name = || self.hub.iter().find(|(.., n)| n == name);
        if let Some((_, path, _)) = by_id.or_else(by_name) {
            self.current = Some(self.out.len());
            self.out.push(Mapping {
                device: path.clone(),
                mode: mode.to_string(),
                display0: false,
                orientation: None,
            });
        }
    }
}

/// The input events one line of `dumpsys input` reports queued, unless it is inside the
/// snapshot "at time of last ANR" (`in_anr` follows the sections, which start at the line's
/// first column).
pub(crate) fn live_queued_line(raw: &str, in_anr: &mut bool) -> Option<u64> {
    let line = raw.trim();
    if raw.starts_with(|c: char| !c.is_whitespace()) {
        *in_anr = line.contains("at time of last ANR");
    }
    queued_events(line).filter(|_| !*in_anr)
}

/// The input events a whole `dumpsys input` reports queued in the live dispatcher.
pub(crate) fn live_queued(text: &str) -> u64 {
    let mut in_anr = false;
    text.lines()
        .filter_map(|l| live_queued_line(l, &mut in_anr))
        .sum()
}

/// Input events a `dumpsys input` line reports as not yet handled: the dispatcher's
/// `PendingEvent` and the `length=N` of its inbound queue and each connection's outbound and
/// wait queues (`Some(0)` for an empty one).
fn queued_events(line: &str) -> Option<u64> {
    if let Some(rest) = line.strip_prefix("PendingEvent:") {
        return Some(u64::from(rest.trim() != "<none>"));
    }
    let (name, rest) = line.split_once(':')?;
    if !matches!(name, "InboundQueue" | "OutboundQueue" | "WaitQueue") {
        return None;
    }
    let rest = rest.trim();
    if rest == "<empty>" {
        return Some(0);
    }
    rest.strip_prefix("length=")?.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mappers_orientation_in_every_form() {
        // Real dumps: portrait, each form once (Android 8's SurfaceOrientation, the newer
        // InputDeviceOrientation as a number and as a name).
        for file in [
            "dumpsys-input/xiaomi-miui-sdm845-oreo-recentqueue.txt",
            "dumpsys-input/honor-input_mt_wrapper.txt",
            "dumpsys-input/vivo-phone-live-and-anr-snapshot.txt",
        ] {
            let text = std::fs::read_to_string(format!(
                "{}/../../tests/data/android/{file}",
                env!("CARGO_MANIFEST_DIR")
            ))
            .unwrap();
            let mapped: Vec<_> = touch_mappings(&text)
                .into_iter()
                .filter(|m| m.display0)
                .collect();
            assert!(!mapped.is_empty(), "{file}");
            assert!(
                mapped.iter().all(|m| m.orientation == Some(0)),
                "{file}: {mapped:?}"
            );
        }
        let turned = |line: &str| {
            let dump = format!(
                "Event Hub State:\n  Devices:\n    3: touch\n      Path: /dev/input/event3\n\
                 Input Reader State:\n  Device 3: touch\n    Touch Input Mapper (mode - DIRECT):\n      \
                 Viewport INTERNAL: displayId=0, uniqueId=local:1, port=0, orientation=1, \
                 logicalFrame=[0, 0, 2400, 1080]\n{line}"
            );
            touch_mappings(&dump)[0].orientation
        };
        assert_eq!(turned(""), Some(1));
        assert_eq!(turned("      SurfaceOrientation: 3\n"), Some(3));
        assert_eq!(
            turned("      InputDeviceOrientation: Rotation270\n"),
            Some(3)
        );
    }
}
