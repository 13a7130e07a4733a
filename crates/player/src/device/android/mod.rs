//! Every Android command the player runs, each one typed call with its parser, used by the run
//! (through `phone::link::Link`, which recovers a lost link) and by `doctor` alike. The tap
//! channels spell and check their own lines (`input tap`, `sendevent`, `dd`, the injector) in
//! `tap/`.
//!
//! | call | command | parser |
//! |---|---|---|
//! | [`Device::getprop`] | `getprop KEY` | `props.rs` |
//! | [`Device::wm_size`], [`Device::density`], [`Device::display_state`], [`Device::screen_size`] | `wm size`, `wm density`, `dumpsys window displays` | `display.rs` |
//! | [`Device::phone_state`], [`Device::front_package`] | `dumpsys power; dumpsys window policy; dumpsys window`, `dumpsys window` | `state.rs` |
//! | [`Device::system_bars`], [`Device::navigation_bar`] | `dumpsys window windows` | `bars.rs` |
//! | [`Device::ui_dump`] | `uiautomator dump /dev/tty` | `ui.rs` |
//! | [`Device::launch`], [`Device::start_activity`] | `monkey -p PACKAGE ...`, an `am start` command | `launch.rs` |
//! | [`Device::touch_nodes`], [`Device::touch_mappings`], [`Device::input_queued`] | `getevent -p`, `dumpsys input` | `input.rs` |
//! | [`Device::answers`] | `echo ok` | |
//! | [`Device::press`], [`Key::line`], [`swipe_line`] | `input keyevent`, `input swipe` | [`KeyPress`] |
//! | [`Device::screenrecord`] | `screenrecord --output-format=h264 ... -` on an `exec:` stream | `record.rs` |
//!
//! Keys and swipes during a run go through the tap channel after the taps queued before them
//! ([`Key::line`], [`swipe_line`]), so they land in order.

mod bars;
mod display;
mod input;
mod launch;
mod props;
mod record;
mod state;
mod ui;

pub use bars::{Frame, app_area};
pub use display::{DisplayState, WmSize};
pub(crate) use display::{parse_display_state, parse_wm_density, parse_wm_size, turned_size};
pub(crate) use input::{ABS_MT_SLOT, live_queued, live_queued_line};
pub use input::{Mapping, Protocol, TouchNode, touch_mappings, touch_nodes};
pub(crate) use launch::{am_started, monkey_launched};
pub(crate) use props::parse_getprop;
pub use record::{MAX_RECORDING, refusal, screenrecord_line};
pub(crate) use state::STATE_COMMAND;
pub use state::{PhoneState, Wakefulness};
pub(crate) use ui::UI_DUMP_COMMAND;
pub use ui::{UiDump, UiNode, UiScreen};

use super::refusal::Refusal;
use super::{CALL_TIMEOUT, Device, DeviceError, ShellOutput};
use std::time::Duration;

/// A key the player presses (`input keyevent`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// `KEYCODE_BACK`: closes a popup, or leaves a screen.
    Back,
    /// `KEYCODE_WAKEUP`: turns the display on, never off.
    Wakeup,
    /// `KEYCODE_UNKNOWN` (0): injected like any key, taken by no app (a check that the shell
    /// may inject keys).
    Unknown,
}

impl Key {
    /// The shell line that presses it.
    pub fn line(self) -> &'static str {
        match self {
            Key::Back => "input keyevent KEYCODE_BACK",
            Key::Wakeup => "input keyevent KEYCODE_WAKEUP",
            Key::Unknown => "input keyevent 0",
        }
    }
}

/// The shell line of a swipe from `from` to `to` over `ms` milliseconds.
pub fn swipe_line(from: (u32, u32), to: (u32, u32), ms: u32) -> String {
    format!("input swipe {} {} {} {} {ms}", from.0, from.1, to.0, to.1)
}

/// What pressing a key by a shell call said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyPress {
    pub code: i32,
    pub output: String,
    /// The shell may not inject input: what the phone said (`SecurityException`,
    /// `INJECT_EVENTS`).
    pub refused: Option<Refusal>,
}

impl Device {
    /// `getprop KEY`'s value ([`parse_getprop`]).
    pub fn getprop(&self, key: &str) -> Result<String, DeviceError> {
        let out = self.shell(&format!("getprop {key}"), CALL_TIMEOUT)?.stdout;
        Ok(parse_getprop(&out, key))
    }

    /// `wm size`: the display's natural size (an override size wins, as on the screen).
    pub fn wm_size(&self) -> Result<WmSize, DeviceError> {
        let said = self.shell("wm size", CALL_TIMEOUT)?.stdout;
        Ok(WmSize {
            size: parse_wm_size(&said),
            said,
        })
    }

    /// `wm density`: the density Android applies (an override density wins).
    pub fn density(&self) -> Result<Option<u32>, DeviceError> {
        Ok(parse_wm_density(
            &self.shell("wm density", CALL_TIMEOUT)?.stdout,
        ))
    }

    /// `dumpsys window displays`: the built-in display's current size and rotation.
    pub fn display_state(&self) -> Result<DisplayState, DeviceError> {
        Ok(parse_display_state(
            &self.shell("dumpsys window displays", CALL_TIMEOUT)?.stdout,
        ))
    }

    /// The display's size as screenshots and taps see it now: `wm size` (its natural
    /// orientation; an override size wins, as on the screen), turned as the phone is held
    /// (`dumpsys window displays`).
    pub fn screen_size(&self) -> Result<(u32, u32), DeviceError> {
        let wm = self.wm_size()?;
        let Some(natural) = wm.size else {
            let problem = format!(
                "cannot read the screen size: {}",
                wm.problem().unwrap_or_default()
            );
            return Err(if wm.system_not_up() {
                DeviceError::Starting(problem)
            } else {
                DeviceError::Adb(problem)
            });
        };
        Ok(turned_size(natural, self.display_state()?))
    }

    /// The screen, the lock screen and the window in front ([`PhoneState`]).
    pub fn phone_state(&self) -> Result<PhoneState, DeviceError> {
        Ok(PhoneState::parse(
            &self.shell(STATE_COMMAND, CALL_TIMEOUT)?.stdout,
        ))
    }

    /// The package of the app whose window has the focus (`dumpsys window`), if an app's does.
    pub fn front_package(&self) -> Result<Option<String>, DeviceError> {
        let out = self.shell("dumpsys window", CALL_TIMEOUT)?.stdout;
        Ok(PhoneState::parse(&out)
            .focused_package()
            .map(str::to_string))
    }

    /// The frames of the status and navigation bars showing on the screen (`dumpsys window
    /// windows`; none where it names none).
    pub fn system_bars(&self) -> Result<Vec<Frame>, DeviceError> {
        Ok(bars::parse_system_bars(
            &self.shell("dumpsys window windows", CALL_TIMEOUT)?.stdout,
        ))
    }

    /// The frame of the navigation bar showing on the screen (`dumpsys window windows`; `None`
    /// where it names none: hardware keys, or a bar hidden).
    pub fn navigation_bar(&self) -> Result<Option<Frame>, DeviceError> {
        Ok(bars::parse_navigation_bar(
            &self.shell("dumpsys window windows", CALL_TIMEOUT)?.stdout,
        ))
    }

    /// `uiautomator dump`: the words and nodes of the window in front ([`UiDump`]).
    pub fn ui_dump(&self) -> Result<UiDump, DeviceError> {
        let out = self.shell(UI_DUMP_COMMAND, CALL_TIMEOUT)?;
        Ok(UiDump::parse(out.stdout, out.code))
    }

    /// Brings `package` to the front (`monkey`, one launcher intent); `Err` with what monkey
    /// said where it could not.
    pub fn launch(&self, package: &str) -> Result<Result<(), String>, DeviceError> {
        // `--pct-syskeys 0`: on phones without physical keys (emulators) monkey aborts
        // otherwise ("SYS_KEYS has no physical keys", exit 251).
        let command =
            format!("monkey -p {package} -c android.intent.category.LAUNCHER --pct-syskeys 0 1");
        Ok(monkey_launched(&self.shell(&command, CALL_TIMEOUT)?.stdout))
    }

    /// Runs an `am start` command (a calibration's `[navigation]`); `Err` with what it said
    /// where it did not start the activity.
    pub fn start_activity(&self, command: &str) -> Result<Result<(), String>, DeviceError> {
        let out = self.shell(command, CALL_TIMEOUT)?;
        Ok(am_started(&out.stdout, out.code))
    }

    /// `getevent -p`: the multitouch nodes.
    pub fn touch_nodes(&self) -> Result<Vec<TouchNode>, DeviceError> {
        Ok(touch_nodes(
            &self.shell("getevent -p", CALL_TIMEOUT)?.stdout,
        ))
    }

    /// `dumpsys input`: the touch mappers.
    pub fn touch_mappings(&self) -> Result<Vec<Mapping>, DeviceError> {
        Ok(touch_mappings(
            &self.shell("dumpsys input", CALL_TIMEOUT)?.stdout,
        ))
    }

    /// `dumpsys input`: the events the live input dispatcher holds unhandled.
    pub fn input_queued(&self) -> Result<u64, DeviceError> {
        Ok(live_queued(
            &self.shell("dumpsys input", CALL_TIMEOUT)?.stdout,
        ))
    }

    /// Whether the device answers a shell (`echo ok`) within `timeout`.
    pub fn answers(&self, timeout: Duration) -> Result<bool, DeviceError> {
        Ok(self.shell("echo ok", timeout)?.code == 0)
    }

    /// Presses `key` by a shell call of its own (outside any tap channel).
    pub fn press(&self, key: Key) -> Result<KeyPress, DeviceError> {
        let ShellOutput { stdout, code } = self.shell(key.line(), CALL_TIMEOUT)?;
        Ok(KeyPress {
            code,
            refused: Refusal::in_text(&stdout),
            output: stdout,
        })
    }
}
