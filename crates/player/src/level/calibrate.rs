//! Calibrating an app: a frame (a screenshot, or the phone's screen) surveyed; on a phone whose
//! number pad shows only for a selected cell, an empty cell selected and the screen surveyed
//! again; a calibration made from the survey; then, on a phone, the app's input rules probed on
//! the open level ([`crate::probe`]); where no way to open levels was given, the
//! app's level list looked for ([`crate::phone::level_list`]) and the open level opened again.
//! The caller says where the calibration goes and words what happened ([`Update`]s as they
//! come, then a [`CalibrateReport`]).

use crate::board::CELLS;
use crate::calibration::{CalibrateOptions, Calibration, CalibrationError, Check, Erase, RuleKey};
use crate::device::Device;
use crate::device::android::app_area;
use crate::device::screen::Screen;
use crate::device::tap::ChannelKind;
use crate::phone::level_list::{LevelList, find_level_list};
use crate::phone::link::Link;
use crate::phone::target::PhoneTarget;
use crate::play::Point;
use crate::play::stop::StopFlag;
use crate::probe::{self, Probed};
use crate::vision::Tool;
use crate::vision::survey::Survey;
use image::RgbaImage;
use std::time::Duration;

/// How long calibrate waits for a phone whose link was lost.
const RECONNECT: Duration = Duration::from_secs(30);

/// What is calibrated.
pub enum Source<'a> {
    /// A screenshot already taken (decoded).
    Screenshot(RgbaImage),
    /// The screen of a phone, whose app's rules are then probed (unless `probe` is false).
    Phone { device: &'a Device, probe: bool },
}

/// What calibrating tells its caller as it goes.
pub enum Update<'a> {
    /// The frame to calibrate: its size.
    Frame { width: u32, height: u32 },
    /// No number pad on the screen: it came up once the empty `cell` was selected.
    KeypadShown { cell: usize },
    /// The board and the keys were found: the survey, and the calibration made from it.
    Found {
        survey: &'a Survey,
        calibration: &'a Calibration,
    },
    /// The probe of the app's input rules begins, through this tap channel.
    Probing { channel: ChannelKind },
    /// What the probe is doing.
    Probe(&'a str),
    /// The probe is done.
    Probed(&'a Probed),
    /// Looking for the app's level list (BACK, buttons with words), to open levels by number.
    LookingForLevels,
}

/// What calibrating found.
pub struct CalibrateReport {
    pub calibration: Calibration,
    /// The frame calibrated (the one with the number pad, where a cell had to be selected).
    pub frame: RgbaImage,
    pub survey: Survey,
    /// What the person should check.
    pub checks: Vec<Check>,
    /// The number pad showed once this empty cell was selected.
    pub keypad_shown_by: Option<usize>,
    /// The probe of the app's rules, on a phone (`None`: not probed). Where it failed, the
    /// calibration holds the board and keys without the app's rules.
    pub probed: Option<anyhow::Result<Probed>>,
    /// The search for the app's level list, on a phone probed without a way to open levels
    /// given (`None`: not searched). What it found is the calibration's `[navigation]`.
    pub levels: Option<anyhow::Result<LevelList>>,
}

/// No calibration could be made: why, and what was seen (for an overlay).
#[derive(Debug, thiserror::Error)]
#[error("{error}")]
pub struct NotCalibrated {
    pub error: CalibrationError,
    pub frame: RgbaImage,
    pub survey: Survey,
    /// The phone's model, where it was read.
    pub model: Option<String>,
    /// The package of the app in front, where it was read.
    pub package: Option<String>,
}

/// A point the options give (the erase key, the keys, the board's corners) lies outside the
/// frame.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{},{} is outside the {width}x{height} frame", point[0], point[1])]
pub struct HintOutside {
    pub point: [u32; 2],
    pub width: u32,
    pub height: u32,
}

/// Checks that every point `options` give lies inside a `width` x `height` frame.
fn check_hints(options: &CalibrateOptions, width: u32, height: u32) -> Result<(), HintOutside> {
    let hints = &options.hints;
    let points = options
        .erase
        .and_then(Erase::point)
        .into_iter()
        .chain(hints.keys.iter().flatten().map(|&(x, y)| [x, y]))
        .chain(
            hints
                .board
                .iter()
                .flat_map(|b| [[b[0], b[1]], [b[2], b[3]]]),
        );
    for point in points {
        if point[0] >= width || point[1] >= height {
            return Err(HintOutside {
                point,
                width,
                height,
            });
        }
    }
    Ok(())
}

/// Calibrates `source` with `options` (on a phone, the model and density it does not give are
/// the phone's).
pub fn calibrate(
    source: Source<'_>,
    mut options: CalibrateOptions,
    on: &mut dyn FnMut(&Update),
) -> anyhow::Result<CalibrateReport> {
    let (frame, phone) = first_frame(source, &mut options)?;
    let (width, height) = frame.dimensions();
    check_hints(&options, width, height)?;
    on(&Update::Frame { width, height });
    let probing = phone.filter(|&(_, probe)| probe).map(|(device, _)| device);
    let (frame, survey, keypad_shown_by) = survey(frame, probing, &options, on)?;
    let (mut calibration, checks) = match Calibration::from_survey(&frame, &survey, &options) {
        Ok(made) => made,
        Err(error) => {
            return Err(NotCalibrated {
                error,
                frame,
                survey,
                model: options.model,
                package: options.package,
            }
            .into());
        }
    };
    on(&Update::Found {
        survey: &survey,
        calibration: &calibration,
    });
    let probed = probing.map(|device| probe_rules(device, &mut calibration, &survey, on));
    let levels = match (probing, &probed) {
        (Some(device), Some(Ok(_))) if calibration.navigation.is_none() => {
            on(&Update::LookingForLevels);
            Some(level_list(device, &mut calibration))
        }
        _ => None,
    };
    if let Some(cell) = keypad_shown_by {
        calibration.input.seen.insert(
            RuleKey::Keypad,
            format!(
                "none on the screen until {} (empty) was selected: the app shows its keys for a \
                 selected cell only, which every write selects first",
                crate::board::cell_name(cell)
            ),
        );
    }
    Ok(CalibrateReport {
        calibration,
        frame,
        survey,
        checks,
        keypad_shown_by,
        probed,
        levels,
    })
}

/// The frame to calibrate on, and the phone it comes from (with whether to probe it); on a
/// phone, `options` get what they do not say from it: model, density, app, app area.
fn first_frame<'a>(
    source: Source<'a>,
    options: &mut CalibrateOptions,
) -> anyhow::Result<(RgbaImage, Option<(&'a Device, bool)>)> {
    Ok(match source {
        Source::Screenshot(frame) => (frame, None),
        Source::Phone { device, probe } => {
            let (_, frame) = Screen::measure(device)?;
            options.model = options.model.take().or_else(|| phone_model(device));
            options.density = options.density.or(device.density().ok().flatten());
            options.package = options
                .package
                .take()
                .or(device.front_package().ok().flatten());
            options.hints.app_area = options
                .hints
                .app_area
                .or_else(|| app_area_of(device, &frame));
            (frame, Some((device, probe)))
        }
    })
}

/// The app's level list, looked for from the game screen; where it is found with a way to
/// open levels, `calibration` gets it.
fn level_list(device: &Device, calibration: &mut Calibration) -> anyhow::Result<LevelList> {
    let size = (calibration.device.width, calibration.device.height);
    let found = tapping(device, size).and_then(|(mut link, _)| find_level_list(&mut link));
    if let Ok(LevelList {
        navigation: Some(n),
        ..
    }) = &found
    {
        calibration.navigation = Some(n.clone());
    }
    found
}

/// The part of `frame` the app in front has: the screen without the system bars the phone
/// names (`None`: it names none, or could not be asked).
fn app_area_of(device: &Device, frame: &RgbaImage) -> Option<[u32; 4]> {
    let bars = device.system_bars().ok()?;
    let area = app_area(&bars, frame.dimensions());
    tracing::debug!(?bars, ?area, "system bars");
    area
}

/// The phone's model (`ro.product.model`), if it says one.
fn phone_model(device: &Device) -> Option<String> {
    device
        .getprop("ro.product.model")
        .ok()
        .filter(|m| !m.is_empty())
}

/// The survey of `frame`; on a phone to probe whose number pad does not show (and no keys were
/// given), of the screen once an empty cell is selected, if the keypad shows then.
fn survey(
    frame: RgbaImage,
    phone: Option<&Device>,
    options: &CalibrateOptions,
    on: &mut dyn FnMut(&Update),
) -> anyhow::Result<(RgbaImage, Survey, Option<usize>)> {
    let survey = Survey::of(&frame, &options.hints);
    let (Some(device), Some(Err(_)), None) = (phone, &survey.keypad, &options.hints.keys) else {
        return Ok((frame, survey, None));
    };
    let (mut link, _) = tapping(device, device.screen_size()?)?;
    let Some((selected, cell)) = select_a_cell(&mut link, &survey)? else {
        return Ok((frame, survey, None));
    };
    let again = Survey::of(&selected, &options.hints);
    if !matches!(again.keypad, Some(Ok(_))) {
        return Ok((frame, survey, None));
    }
    on(&Update::KeypadShown { cell });
    Ok((selected, again, Some(cell)))
}

/// Selects an empty cell of the board `survey` found (the one nearest its middle) and returns the
/// screen once it has settled, with the cell; `None` when the board has no empty cell.
fn select_a_cell(link: &mut Link, survey: &Survey) -> anyhow::Result<Option<(RgbaImage, usize)>> {
    let (Ok(geometry), Some(reading)) = (&survey.board, &survey.reading) else {
        return Ok(None);
    };
    let middle = |c: usize| (c / 9).abs_diff(4) + (c % 9).abs_diff(4);
    let Some(cell) = (0..CELLS)
        .filter(|&c| reading.board.get(c) == 0)
        .min_by_key(|&c| middle(c))
    else {
        return Ok(None);
    };
    let (x, y) = geometry.cell_center(cell);
    link.tap(x, y)?;
    link.flush()?;
    // Until two screenshots agree (a keypad may slide in), a few seconds at most.
    let mut last = link.grab()?;
    for _ in 0..20 {
        std::thread::sleep(Duration::from_millis(100));
        let frame = link.grab()?;
        if frame == last {
            break;
        }
        last = frame;
    }
    Ok(Some((last, cell)))
}

/// Probes the app's input rules on the open level and puts them into `calibration`.
fn probe_rules(
    device: &Device,
    calibration: &mut Calibration,
    survey: &Survey,
    on: &mut dyn FnMut(&Update),
) -> anyhow::Result<Probed> {
    let size = (calibration.device.width, calibration.device.height);
    let (link, channel) = tapping(device, size)?;
    on(&Update::Probing { channel });
    let undo_hint: Option<Point> = survey
        .tools
        .iter()
        .find(|t| t.tool == Some(Tool::Undo))
        .map(|t| t.center);
    let mut target = PhoneTarget::new(link, calibration);
    let probed = probe::probe(&mut target, calibration, undo_hint, &mut |what| {
        on(&Update::Probe(what));
    })?;
    drop(target);
    on(&Update::Probed(&probed));
    calibration.input = probed.input.clone();
    if probed.toggle_confirmed && calibration.keypad.erase == Erase::Toggle {
        calibration.keypad.erase_guessed = false;
    }
    Ok(probed)
}

/// A link to the phone with its fastest tap channel open, unpaced.
fn tapping(device: &Device, size: (u32, u32)) -> anyhow::Result<(Link, ChannelKind)> {
    let mut link = Link::new(device.clone(), RECONNECT, StopFlag::default());
    let channel = link.open_channel(None, size, Duration::ZERO)?;
    Ok((link, channel.kind))
}
