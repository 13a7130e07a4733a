//! What the player concludes about a phone, and from which command: the screen, the ABI and
//! input record size, the touch panels and the one chosen, the screen's state and the app in
//! front, the tap channels possible and why not the others, screencap's format, uiautomator.
//! It changes nothing on the phone (no injector pushed, no tap, no key an app takes), and is
//! what a user pastes into a bug report (`autoplay doctor --json`).

use crate::capture::{self, FrameFormat};
use crate::device::android::{Mapping, STATE_COMMAND, TouchNode, UI_DUMP_COMMAND};
use crate::device::tap::choose::{ChannelCheck, check_channels};
use crate::device::tap::panel::{self, PanelSurvey};
use crate::device::{Device, DeviceError};
use serde::Serialize;
use std::time::Duration;

/// Everything concluded, each part with the command it came from.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub serial: String,
    pub identity: Identity,
    pub screen: ScreenSize,
    pub bars: SystemBars,
    pub abi: Abi,
    pub touch: Touch,
    pub state: State,
    /// The input dispatcher's queue (`input` in the JSON, as `dumpsys input` names it).
    #[serde(rename = "input")]
    pub dispatcher: Dispatcher,
    /// Fastest first; `autoplay` takes the first possible one.
    pub channels: Vec<ChannelCheck>,
    pub screencap: Screencap,
    pub uiautomator: UiAutomator,
}

#[derive(Debug, Clone, Serialize)]
pub struct Identity {
    pub model: String,
    pub release: String,
    pub sdk: Option<u32>,
    pub from: &'static str,
}

#[derive(Debug, Clone, Serialize)]
pub struct ScreenSize {
    /// As screenshots and taps see it now (`wm size`'s, turned as the phone is held).
    pub width: Option<u32>,
    pub height: Option<u32>,
    /// Degrees from the natural orientation, as the window manager says (`None`: it does not).
    pub rotation: Option<u32>,
    pub density: Option<u32>,
    pub from: &'static str,
    /// The lines that could not be placed, quoted when no size was found.
    pub problem: Option<String>,
}

/// The status and navigation bars showing, and the part of the screen they leave the app: where
/// calibrate looks for the app's keys.
#[derive(Debug, Clone, Serialize)]
pub struct SystemBars {
    /// Each bar's frame `[x0, y0, x1, y1)`.
    pub frames: Vec<[u32; 4]>,
    /// `None`: the bars take none of the screen (or it has none).
    pub app_area: Option<[u32; 4]>,
    pub from: &'static str,
}

#[derive(Debug, Clone, Serialize)]
pub struct Abi {
    /// `ro.product.cpu.abi`: the shell's binaries' ABI.
    pub abi: String,
    pub abilist: String,
    /// Bytes per `input_event` a `dd` of that ABI writes (24 for 64-bit, 16 for 32-bit).
    pub record_bytes: usize,
    pub from: &'static str,
}

#[derive(Debug, Clone, Serialize)]
pub struct Touch {
    /// Multitouch nodes listed.
    pub nodes: Vec<TouchNode>,
    /// `dumpsys input`'s touch mappers.
    pub mappings: Vec<Mapping>,
    /// The chosen node's path, protocol and axes, and the degrees the display is turned
    /// against its axes (raw touch records are turned back by as much).
    pub panel: Option<String>,
    pub protocol: Option<crate::device::android::Protocol>,
    pub max_x: Option<u32>,
    pub max_y: Option<u32>,
    pub rotation: Option<u32>,
    pub why: String,
    pub from: &'static str,
}

#[derive(Debug, Clone, Serialize)]
pub struct State {
    /// `awake`, `asleep`, `dozing`, `dreaming`, or `unknown` (no wakefulness line).
    pub screen: String,
    pub keyguard: bool,
    pub secure: bool,
    /// `PACKAGE/ACTIVITY` of the focused window of the focused display, or a system window.
    pub focus: Option<String>,
    pub from: &'static str,
}

#[derive(Debug, Clone, Serialize)]
pub struct Dispatcher {
    /// Events the live input dispatcher holds unhandled (an old ANR's snapshot not counted).
    pub queued: u64,
    pub from: &'static str,
}

#[derive(Debug, Clone, Serialize)]
pub struct Screencap {
    /// `raw`, `png`, `jpeg`, or `unreadable`.
    pub format: String,
    /// Raw frames' header: 12 (before Android 8) or 16 bytes.
    pub header_bytes: Option<usize>,
    pub width: Option<u32>,
    pub height: Option<u32>,
    /// Text the command printed before the image (Android 14's "Multiple displays" warning).
    pub text_before: Option<String>,
    pub problem: Option<String>,
    pub from: &'static str,
}

#[derive(Debug, Clone, Serialize)]
pub struct UiAutomator {
    pub usable: bool,
    /// `ok`, `idle-error` (the screen never idles: retried), `null-root`, or `error`.
    pub status: String,
    /// The error line, quoted.
    pub said: Option<String>,
    pub from: &'static str,
}

const GETPROP: &str = "getprop";
const FRAME_TIMEOUT: Duration = Duration::from_secs(20);

/// Asks the phone. Every command has a deadline; only a lost device is an error.
pub fn examine(device: &Device) -> Result<Report, DeviceError> {
    let identity = identity(device)?;
    let (screen, bars) = screen_and_bars(device)?;
    let abi = abi(device)?;
    let survey = PanelSurvey::of(device)?;
    let touch = touch(&survey);
    let state = state(device)?;
    let dispatcher = Dispatcher {
        queued: device.input_queued()?,
        from: "dumpsys input",
    };
    let channels = check_channels(device, &survey)?;
    let screencap = screencap(device)?;
    let uiautomator = uiautomator(device)?;
    Ok(Report {
        serial: device.serial.clone(),
        identity,
        screen,
        bars,
        abi,
        touch,
        state,
        dispatcher,
        channels,
        screencap,
        uiautomator,
    })
}

fn identity(device: &Device) -> Result<Identity, DeviceError> {
    let prop = |key: &str| device.getprop(key);
    Ok(Identity {
        model: prop("ro.product.model")?,
        release: prop("ro.build.version.release")?,
        sdk: prop("ro.build.version.sdk")?.trim().parse().ok(),
        from: GETPROP,
    })
}

/// The screen as held (its size turned with the display) and the system bars on it.
fn screen_and_bars(device: &Device) -> Result<(ScreenSize, SystemBars), DeviceError> {
    let size = device.wm_size()?;
    let density = device.density()?;
    let turned = device.display_state()?;
    let held = size
        .size
        .map(|natural| crate::device::android::turned_size(natural, turned));
    let screen = ScreenSize {
        width: held.map(|s| s.0),
        height: held.map(|s| s.1),
        rotation: turned.rotation.map(|r| u32::from(r) * 90),
        density,
        from: "wm size; wm density; dumpsys window displays",
        problem: size.problem(),
    };
    let frames = device.system_bars()?;
    let bars = SystemBars {
        app_area: held.and_then(|size| crate::device::android::app_area(&frames, size)),
        frames,
        from: "dumpsys window windows",
    };
    Ok((screen, bars))
}

fn abi(device: &Device) -> Result<Abi, DeviceError> {
    let abi = device.getprop("ro.product.cpu.abi")?;
    Ok(Abi {
        record_bytes: panel::guess_record(&abi),
        abilist: device.getprop("ro.product.cpu.abilist")?,
        abi,
        from: GETPROP,
    })
}

fn touch(survey: &PanelSurvey) -> Touch {
    let node = survey.node();
    Touch {
        rotation: survey.panel().map(|p| u32::from(p.rotation) * 90),
        panel: node.map(|n| n.device.clone()),
        protocol: node.and_then(|n| n.protocol),
        max_x: node.and_then(|n| n.axes).map(|a| a.0),
        max_y: node.and_then(|n| n.axes).map(|a| a.1),
        why: survey
            .chosen
            .as_ref()
            .map_or("`getevent -p` lists no multitouch node".into(), |c| {
                c.1.clone()
            }),
        from: "getevent -p; dumpsys input",
        nodes: survey.nodes.clone(),
        mappings: survey.mappings.clone(),
    }
}

fn state(device: &Device) -> Result<State, DeviceError> {
    let s = device.phone_state()?;
    Ok(State {
        screen: s
            .wakefulness
            .map_or("unknown".into(), |w| format!("{w:?}").to_lowercase()),
        keyguard: s.keyguard,
        secure: s.secure,
        focus: s.focus.clone(),
        from: STATE_COMMAND,
    })
}

fn screencap(device: &Device) -> Result<Screencap, DeviceError> {
    const COMMAND: &str = "screencap";
    let bytes = device.exec(COMMAND, FRAME_TIMEOUT)?;
    let text_before = capture::text_before(&bytes);
    let mut report = Screencap {
        format: "unreadable".into(),
        header_bytes: None,
        width: None,
        height: None,
        text_before,
        problem: None,
        from: "exec:screencap",
    };
    match capture::decode_frame(&bytes) {
        Ok(frame) => {
            report.width = Some(frame.image.width());
            report.height = Some(frame.image.height());
            report.format = match frame.format {
                FrameFormat::Raw { header_len, .. } => {
                    report.header_bytes = Some(header_len);
                    "raw"
                }
                FrameFormat::Png | FrameFormat::PngCrlfRepaired => "png",
                FrameFormat::Jpeg => "jpeg",
            }
            .into();
        }
        Err(e) => report.problem = Some(e.to_string()),
    }
    Ok(report)
}

fn uiautomator(device: &Device) -> Result<UiAutomator, DeviceError> {
    let dump = device.ui_dump()?;
    let (usable, status, said) = match dump.screen {
        Ok(_) if dump.code == 0 => (true, "ok", None),
        Ok(_) => (
            false,
            "error",
            Some(format!("exit status {}: {}", dump.code, dump.output.trim())),
        ),
        Err(line) if line.contains("idle state") => (true, "idle-error", Some(line)),
        Err(line) if line.contains("null root node") => (false, "null-root", Some(line)),
        Err(line) => (false, "error", Some(line)),
    };
    Ok(UiAutomator {
        usable,
        status: status.into(),
        said,
        from: UI_DUMP_COMMAND,
    })
}
