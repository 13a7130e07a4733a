//! Which tap channel to use on a device, and why.
//!
//! Preferred, fastest first: `raw` (binary records streamed into the touch panel by one `dd`:
//! the app's own UI time is the only cost per tap), `inject` (binary records to one
//! long-lived `app_process` injector that calls `injectInputEvent` asynchronously: one binder
//! call per event), `events` (`sendevent` lines: nine native processes per tap) and `input`
//! (`input tap` lines: a Java start-up per tap up to Android 11, a `cmd input` call waiting for
//! the app from 12; it works on every phone). `raw` and `events` both need a touch panel
//! (`getevent -p`) that the shell user may write, which Android 10 and later forbid; `raw` also
//! needs the record size the panel takes from `dd`, found by a test write. `inject` needs the
//! injector pushed (once) and a phone that lets the shell inject (Xiaomi phones refuse until
//! "USB debugging (Security settings)" is on and the phone rebooted: then no channel works,
//! and the error says so). Asking for a channel the device cannot do falls back to the next
//! one and says why.
//!
//! A phone that refuses injected input (Xiaomi without "USB debugging (Security settings)")
//! accepts asynchronous injections without a word before Android 13 and drops them; the
//! injector's check record shows the refusal on every version, and the choice then fails with
//! [`DeviceError::Refused`] before any tap (`injector/README.md`, "The check").

use super::inject::{INJECTOR_CLASS, INJECTOR_PATH, Injector, Unusable};
use super::panel::{PanelSurvey, TouchPanel};
use super::raw;
use crate::device::refusal::Refusal;
use crate::device::android::{Key, KeyPress};
use crate::device::{CALL_TIMEOUT, Device, DeviceError};

/// How taps reach the device.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InputBackend {
    /// `input tap X Y` lines in one persistent shell (works everywhere).
    Input,
    /// `sendevent` lines to the touch panel (needs a writable panel).
    Events,
    /// Binary touch records streamed into the touch panel by one `dd` (needs a writable panel).
    Raw,
    /// Binary tap records to one long-lived `app_process` injector (Android 10+ without root).
    Inject,
}

/// A chosen channel and what it needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Channel {
    pub backend: InputBackend,
    /// The touch panel (`raw`, `events`).
    pub panel: Option<TouchPanel>,
    /// Bytes per `input_event` record the panel takes from the device's `dd` (`raw`).
    pub record: Option<usize>,
    /// Why this channel, for the user (e.g. "raw: 24-byte records into /dev/input/event2").
    pub why: String,
}

impl Channel {
    /// The `input tap` channel.
    pub fn input(why: impl Into<String>) -> Channel {
        Channel {
            backend: InputBackend::Input,
            panel: None,
            record: None,
            why: why.into(),
        }
    }
}

/// Picks the channel: `requested` if the device can do it, else the next one down; with no
/// request, the fastest that works.
pub fn choose(device: &Device, requested: Option<InputBackend>) -> Result<Channel, DeviceError> {
    let chosen = pick(device, requested)?;
    tracing::debug!(
        serial = %device.serial,
        ?requested,
        backend = ?chosen.backend,
        panel = chosen.panel.as_ref().map(|p| p.device.as_str()),
        record = chosen.record,
        why = %chosen.why,
        "tap channel chosen"
    );
    Ok(chosen)
}

fn pick(device: &Device, requested: Option<InputBackend>) -> Result<Channel, DeviceError> {
    if requested == Some(InputBackend::Input) {
        return input_channel(device, "input: `input tap` lines, as asked".into());
    }
    let survey = PanelSurvey::of(device)?;
    if let Some((_, why)) = &survey.chosen {
        tracing::debug!(%why, "touch panel");
    }
    let panel = survey.panel();
    let mut because = String::new();
    if let Some(panel) = &panel
        && !matches!(requested, Some(InputBackend::Events | InputBackend::Inject))
    {
        match raw_channel(device, panel)? {
            Ok(channel) => return Ok(channel),
            Err(reason) => because = format!(" (raw is not possible{}: {reason})", release(device)),
        }
    }
    let mut not_inject = String::new();
    if requested != Some(InputBackend::Events) {
        match inject_channel(device, &because)? {
            Ok(channel) => return Ok(channel),
            Err(why) => not_inject = format!(" (inject is not possible: {why})"),
        }
    }
    let Some(panel) = panel else {
        let no_panel = no_panel(&survey);
        let why = format!("input: {no_panel}, so touch events cannot be written{not_inject}");
        return input_channel(device, why);
    };
    match sendevent_test(device, &panel)? {
        Ok(()) => {
            let why = format!(
                "events: `sendevent` lines (protocol {:?}) into the touch panel {}{because}{not_inject}",
                panel.protocol, panel.device
            );
            Ok(Channel {
                backend: InputBackend::Events,
                panel: Some(panel),
                record: None,
                why,
            })
        }
        Err(failed) => input_channel(
            device,
            format!("input: `input tap` lines, because {failed}{because}{not_inject}"),
        ),
    }
}

/// The raw channel into `panel`, or why raw records cannot be written there.
fn raw_channel(
    device: &Device,
    panel: &TouchPanel,
) -> Result<Result<Channel, String>, DeviceError> {
    Ok(match raw::record_size(device, panel)? {
        Ok(record) => {
            let why = format!(
                "raw: one `dd` stream of {record}-byte input_event records (protocol {:?}) into {} (record size checked)",
                panel.protocol, panel.device
            );
            Ok(Channel {
                backend: InputBackend::Raw,
                panel: Some(panel.clone()),
                record: Some(record),
                why,
            })
        }
        Err(raw::NotWritable(reason)) => {
            tracing::debug!(panel = %panel.device, %reason, "raw touch records are not possible");
            Err(reason)
        }
    })
}

/// The injector's channel, or why it cannot run (`because`: why not raw, for the channel's
/// description). A phone that refuses injection is an error.
fn inject_channel(device: &Device, because: &str) -> Result<Result<Channel, String>, DeviceError> {
    let deadline = std::time::Instant::now() + CALL_TIMEOUT;
    match Injector::handshake(device, deadline) {
        Ok(sdk) => Ok(Ok(Channel {
            backend: InputBackend::Inject,
            panel: None,
            record: None,
            why: format!(
                "inject: one app_process injector ({INJECTOR_CLASS}, {INJECTOR_PATH}, API {sdk}) fed binary tap records on one exec: stream{because}"
            ),
        })),
        Err(Unusable::Refused(refusal)) => Err(DeviceError::Refused(refusal)),
        Err(Unusable::Failed(why)) => {
            tracing::debug!(%why, "the injector is not possible");
            Ok(Err(why))
        }
    }
}

/// " on Android N" where the phone says its release, else nothing.
fn release(device: &Device) -> String {
    device
        .getprop("ro.build.version.release")
        .ok()
        .filter(|r| !r.is_empty())
        .map_or(String::new(), |r| format!(" on Android {r}"))
}

/// The `input tap` channel, once `input keyevent 0` (a `KEYCODE_UNKNOWN` key, which no app
/// takes) showed that the phone lets the shell inject: `input` waits for the dispatcher's
/// verdict, so a refusing phone prints its `SecurityException` on every version (Android 10-12
/// at dispatch, 13+ before queueing; `tests/data/android/input-errors/`).
fn input_channel(device: &Device, why: String) -> Result<Channel, DeviceError> {
    match device.press(Key::Unknown)?.refused {
        Some(refusal) => Err(DeviceError::Refused(refusal)),
        None => Ok(Channel::input(why)),
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

/// Why no panel can be written: none listed, or the chosen one's axes unknown.
fn no_panel(survey: &PanelSurvey) -> String {
    match survey.node() {
        Some(n) => format!("the axes of the touch panel {} are not known", n.device),
        None => "`getevent -p` lists no multitouch panel".to_string(),
    }
}

/// What one channel would be on a phone, and why.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ChannelCheck {
    pub channel: InputBackend,
    pub possible: bool,
    pub why: String,
    /// The phone refuses injected input (then `why` says how it was seen).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<Refusal>,
}

/// Every channel's verdict, found without changing anything on the phone: no injector pushed,
/// no tap, the screen not woken (the writes are a lone `SYN_REPORT`, which moves no finger, and
/// `KEYCODE_UNKNOWN` keys, which no app takes: `input keyevent 0` and the injector's check);
/// fastest first.
pub fn check_channels(
    device: &Device,
    survey: &PanelSurvey,
) -> Result<Vec<ChannelCheck>, DeviceError> {
    let panel = survey.panel();
    let raw = match &panel {
        Some(p) => match raw::record_size(device, p)? {
            Ok(record) => ChannelCheck::new(
                InputBackend::Raw,
                true,
                format!("`dd` takes {record}-byte records into {}", p.device),
            ),
            Err(raw::NotWritable(why)) => ChannelCheck::new(InputBackend::Raw, false, why),
        },
        None => ChannelCheck::new(InputBackend::Raw, false, no_panel(survey)),
    };
    let input = device.press(Key::Unknown)?;
    let inject = inject_check(device, input.refused.as_ref());
    let events = match &panel {
        Some(p) => match sendevent_test(device, p)? {
            Ok(()) => ChannelCheck::new(
                InputBackend::Events,
                true,
                format!("`sendevent {} 0 0 0` works", p.device),
            ),
            Err(why) => ChannelCheck::new(InputBackend::Events, false, why),
        },
        None => ChannelCheck::new(InputBackend::Events, false, no_panel(survey)),
    };
    Ok(vec![raw, inject, events, input_check(input)])
}

/// The injector's verdict: its check where it is on the phone, else what `input keyevent 0`
/// (`denied`: the refusal it showed) says of the shell's right to inject.
fn inject_check(device: &Device, denied: Option<&Refusal>) -> ChannelCheck {
    let deadline = std::time::Instant::now() + CALL_TIMEOUT;
    match (Injector::handshake_pushed(device, deadline), denied) {
        (Some(Ok(sdk)), _) => ChannelCheck::new(
            InputBackend::Inject,
            true,
            format!("the injector on the phone ({INJECTOR_PATH}) passed its check (API {sdk})"),
        ),
        (Some(Err(Unusable::Refused(refusal))), _) => {
            ChannelCheck::refused(InputBackend::Inject, refusal)
        }
        (Some(Err(Unusable::Failed(why))), _) => {
            ChannelCheck::new(InputBackend::Inject, false, why)
        }
        (None, Some(refusal)) => ChannelCheck::refused(InputBackend::Inject, refusal.clone()),
        (None, None) => ChannelCheck::new(
            InputBackend::Inject,
            true,
            format!(
                "the shell may inject (`input keyevent 0` worked); the injector is pushed to {INJECTOR_PATH} on the first play"
            ),
        ),
    }
}

/// The `input` channel's verdict, from what `input keyevent 0` did.
fn input_check(input: KeyPress) -> ChannelCheck {
    if let Some(refusal) = input.refused {
        return ChannelCheck::refused(InputBackend::Input, refusal);
    }
    let why = if input.code == 0 {
        "`input keyevent 0` works".to_string()
    } else {
        format!(
            "`input keyevent 0` failed (exit status {}): {}",
            input.code,
            input.output.trim()
        )
    };
    ChannelCheck::new(InputBackend::Input, input.code == 0, why)
}

impl ChannelCheck {
    fn new(channel: InputBackend, possible: bool, why: String) -> Self {
        ChannelCheck {
            channel,
            possible,
            why,
            refused: None,
        }
    }

    /// A channel the phone refuses.
    fn refused(channel: InputBackend, refusal: Refusal) -> Self {
        ChannelCheck {
            channel,
            possible: false,
            why: refusal.to_string(),
            refused: Some(refusal),
        }
    }
}
