//! Sending a recorded session's taps to a phone again (`autoplay replay --to-device`): the
//! journaled taps as they are (blind by design), then the board read back.

use super::{Note, Update, tell};
use crate::board::Board;
use crate::calibration::Calibration;
use crate::device::Device;
use crate::device::tap::ChannelKind;
use crate::phone::link::Link;
use crate::phone::navigate::navigate;
use crate::play::stop::{StopFlag, is_restored};
use crate::recheck::SessionCheck;
use std::path::Path;
use std::time::Duration;

/// How the taps are sent again.
#[derive(Debug, Clone)]
pub struct ResendOptions {
    /// `None`: the fastest channel the device allows.
    pub channel: Option<ChannelKind>,
    /// Time between taps.
    pub pace: Duration,
    /// How long to wait for a lost device to come back before giving up.
    pub reconnect_timeout: Duration,
    /// Raised by Ctrl-C / SIGTERM.
    pub stop: StopFlag,
}

impl Default for ResendOptions {
    fn default() -> Self {
        let play = super::PlayConfig::default();
        ResendOptions {
            channel: play.channel,
            pace: play.pace,
            reconnect_timeout: play.reconnect_timeout,
            stop: StopFlag::default(),
        }
    }
}

/// What the phone shows once the taps are sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shown {
    /// No board where the calibration expects it (the app's completion screen?).
    NoBoard,
    /// The board the journal ends in.
    JournalsBoard,
    /// Another board.
    Other(Board),
}

/// What [`resend`] did.
#[derive(Debug, Clone, PartialEq)]
pub struct ResendReport {
    /// The device's serial.
    pub serial: String,
    /// Taps sent (every journaled tap).
    pub taps: u64,
    pub taps_per_sec: f64,
    pub channel: ChannelKind,
    /// What the phone shows afterwards; `None` when the session's calibration is gone (the
    /// board is not read).
    pub shown: Option<Shown>,
}

/// Sends the journaled taps of `check`'s session to `device`, paced, then reads its screen.
/// The screen must have the session's size and every tap must be on it; the level is opened
/// first when the session names one and its calibration can navigate. A lost link is waited
/// for and the taps go on (what was in flight may be lost: `on` gets a
/// [`Note::LinkRestored`]). `on` also gets the tap channel and, when the level is not opened,
/// [`Note::LevelNotOpened`].
pub fn resend(
    device: &Device,
    check: &SessionCheck,
    options: &ResendOptions,
    on: &mut dyn FnMut(&Update),
) -> anyhow::Result<ResendReport> {
    let m = &check.meta;
    let size = fitting_screen(device, check)?;
    let mut link = Link::new(
        device.clone(),
        options.reconnect_timeout,
        options.stop.clone(),
    );
    let channel = link.open_channel(options.channel, size, options.pace)?;
    let (kind, why) = (channel.kind, channel.why);
    tell(on, Note::TapChannel { channel: kind, why });
    let cal = Calibration::load(Path::new(&m.calibration)).ok();
    if let Some(cal) = &cal {
        link.keep_taps_apart_on_phone(crate::play::setnum::Layout::of(cal).least_pace());
    }
    match (m.level, cal.as_ref().and_then(|c| c.navigation.as_ref())) {
        (Some(level), Some(nav)) => navigate(&mut link, nav, level)?,
        _ => {
            let calibration = m.calibration.clone();
            tell(on, Note::LevelNotOpened { calibration })
        }
    }
    send_taps(&mut link, &check.taps, on)?;
    let (taps_per_sec, channel) = (
        link.taps_per_sec(),
        link.channel_kind().unwrap_or(ChannelKind::Input),
    );
    let shown = match &cal {
        Some(cal) => Some(shown(&mut link, cal, &check.final_board)?),
        None => None,
    };
    Ok(ResendReport {
        serial: device.serial.clone(),
        taps: check.taps.len() as u64,
        taps_per_sec,
        channel,
        shown,
    })
}

/// `device`'s screen size, when it is the size `check`'s session was recorded on and every
/// journaled tap is on it.
fn fitting_screen(device: &Device, check: &SessionCheck) -> anyhow::Result<(u32, u32)> {
    let m = &check.meta;
    let size = device.screen_size()?;
    if size != (m.device.width, m.device.height) {
        anyhow::bail!(
            "{} has a {}x{} screen but the session was recorded on {}x{}: its taps would land elsewhere",
            device.serial,
            size.0,
            size.1,
            m.device.width,
            m.device.height
        );
    }
    if let Some(&(x, y)) = check
        .taps
        .iter()
        .find(|&&(x, y)| x >= size.0 || y >= size.1)
    {
        anyhow::bail!(
            "{}: a tap at ({x}, {y}) is off the {}x{} screen (the journal is corrupt)",
            check.dir.join("journal.jsonl").display(),
            size.0,
            size.1
        );
    }
    Ok(size)
}

/// Sends `taps` over `link`, going on after a lost link comes back (`on` is told).
fn send_taps(
    link: &mut Link,
    taps: &[(u32, u32)],
    on: &mut dyn FnMut(&Update),
) -> anyhow::Result<()> {
    for (i, &(x, y)) in taps.iter().enumerate() {
        if let Err(e) = link.tap(x, y) {
            if !is_restored(&e) {
                return Err(e);
            }
            let serial = link.device().serial.clone();
            tell(on, Note::LinkRestored { serial, at_tap: i });
        }
    }
    match link.flush() {
        Err(e) if !is_restored(&e) => Err(e),
        _ => Ok(()),
    }
}

/// What the phone shows once the taps are done, against the journal's final board.
fn shown(link: &mut Link, cal: &Calibration, journals: &Board) -> anyhow::Result<Shown> {
    let frame = link.retry_restored(|link| link.grab())?;
    Ok(match cal.read_if_visible(&frame)? {
        None => Shown::NoBoard,
        Some(b) if b == *journals => Shown::JournalsBoard,
        Some(b) => Shown::Other(b),
    })
}
