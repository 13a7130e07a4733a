//! Making a calibration from a screenshot: the vision's survey (board, keypad, tool keys)
//! becomes a [`Calibration`], with device templates harvested from the keypad and the board.

use super::{
    AppSection, BoardSection, Boundaries, Calibration, CalibrationError, DeviceSection,
    DeviceTemplate, Erase, InputMode, InputSection, KeypadSection, Navigation, VERSION, Version,
    encode_glyph,
};
use crate::remedy::Remedy;
use crate::vision;
use crate::vision::survey::{EraseFound, Hints, Survey};
use image::RgbaImage;
use std::path::PathBuf;

/// Options for [`Calibration::from_frame`].
#[derive(Debug, Clone, Default)]
pub struct CalibrateOptions {
    /// How to erase, when the person said so; when `None` an erase key is looked for, and
    /// without one [`Erase::Toggle`] is guessed.
    pub erase: Option<Erase>,
    /// What detection cannot find: the board's rectangle, the keys' centres.
    pub hints: Hints,
    /// How digits are entered.
    pub mode: InputMode,
    /// Device model, when known.
    pub model: Option<String>,
    /// Screen density, when known.
    pub density: Option<u32>,
    /// The package of the app calibrated (the one in front), when known.
    pub package: Option<String>,
    /// How to open a level, when known.
    pub navigation: Option<Navigation>,
}

/// What [`Calibration::from_frame`] found, besides the calibration itself.
#[derive(Debug)]
pub struct Calibrated {
    /// The calibration.
    pub calibration: Calibration,
    /// Everything seen on the screen (board, reading, keypad, tool keys).
    pub survey: Survey,
    /// What the person should check (inferred keys, a guessed erase method).
    pub notes: Vec<Check>,
}

/// Something in a calibration just made that the person should check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Check {
    /// What the keypad's detection inferred (its words).
    Keypad(String),
    /// No erase key was recognised, so `toggle` (the digit tapped again) was recorded, a guess;
    /// `unclassified`: the keys beside the digits that were not recognised.
    EraseGuessed { unclassified: Vec<String> },
}

impl Check {
    /// What the command line offers about it.
    pub fn remedies(&self) -> Vec<Remedy> {
        match self {
            Check::Keypad(_) => Vec::new(),
            Check::EraseGuessed { .. } => vec![Remedy::CalibrateErase],
        }
    }
}

impl std::fmt::Display for Check {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Check::Keypad(words) => f.write_str(words),
            Check::EraseGuessed { unclassified } => write!(
                f,
                "no erase key recognised{}; recorded erase = \"toggle\" (tap the digit again)",
                if unclassified.is_empty() {
                    String::new()
                } else {
                    format!(" (unclassified keys: {})", unclassified.join("; "))
                }
            ),
        }
    }
}

impl Calibration {
    /// Calibrates from a screenshot: detects the board, reads it, finds the keypad's 1..9
    /// and the erase key near it, and harvests device templates from the keypad and from
    /// confidently read board digits.
    pub fn from_frame(
        img: &RgbaImage,
        options: &CalibrateOptions,
    ) -> Result<Calibrated, CalibrationError> {
        let survey = Survey::of(img, &options.hints);
        let (calibration, notes) = Self::from_survey(img, &survey, options)?;
        Ok(Calibrated {
            calibration,
            survey,
            notes,
        })
    }

    /// The calibration a survey of `img` gives, and what the person should check.
    pub fn from_survey(
        img: &RgbaImage,
        survey: &Survey,
        options: &CalibrateOptions,
    ) -> Result<(Calibration, Vec<Check>), CalibrationError> {
        let geometry = match &survey.board {
            Ok(g) => g.clone(),
            Err(e) => return Err(CalibrationError::Vision(e.clone())),
        };
        let (keypad, reading) = match (&survey.keypad, &survey.reading) {
            (Some(Ok(k)), Some(r)) => (k, r),
            (Some(Err(e)), _) => return Err(CalibrationError::Keypad(e.clone())),
            _ => return Err(CalibrationError::Keypad("number pad not looked for".into())),
        };
        let mut notes: Vec<Check> = keypad.notes.iter().cloned().map(Check::Keypad).collect();
        let (erase, erase_guessed) = match (options.erase, survey.erase()) {
            (Some(e), _) => (e, false),
            (None, EraseFound::Key(t)) => (Erase::Key([t.center.0, t.center.1]), false),
            (None, EraseFound::None(maybe)) => {
                let unclassified = maybe
                    .iter()
                    .map(|t| format!("{},{} ({})", t.center.0, t.center.1, t.evidence))
                    .collect();
                notes.push(Check::EraseGuessed { unclassified });
                (Erase::Toggle, true)
            }
        };
        let keys = &keypad.keys;
        let templates = device_templates(keys, reading);
        let calibration = Calibration {
            version: Version(VERSION),
            device: DeviceSection {
                width: img.width(),
                height: img.height(),
                model: options.model.clone(),
                density: options.density,
            },
            app: options
                .package
                .clone()
                .map(|package| AppSection { package }),
            board: BoardSection {
                rect: geometry.rect(),
                cols: Boundaries(geometry.cols),
                rows: Boundaries(geometry.rows),
                line_width: geometry.line_width,
            },
            keypad: KeypadSection {
                digits: std::array::from_fn(|i| [keys[i].center.0, keys[i].center.1]),
                erase,
                erase_guessed,
            },
            input: InputSection::new(options.mode),
            navigation: options.navigation.clone(),
            templates,
        };
        calibration
            .validate()
            .map_err(|message| CalibrationError::Invalid {
                file: PathBuf::from("(new calibration)"),
                message,
            })?;
        Ok((calibration, notes))
    }
}

/// The device's own glyphs: each keypad key's, and per digit the board's most confident,
/// unambiguous given.
fn device_templates(
    keys: &[vision::keypad::Key],
    reading: &vision::Reading,
) -> Vec<DeviceTemplate> {
    let mut templates: Vec<DeviceTemplate> = keys
        .iter()
        .filter_map(|k| {
            Some(DeviceTemplate {
                digit: k.digit,
                source: "keypad".into(),
                data: encode_glyph(k.glyph.as_ref()?),
            })
        })
        .collect();
    let doubtful = |i: usize| reading.doubts.iter().any(|d| d.cell == Some(i));
    for d in 1..=9u8 {
        let best = (0..81)
            .filter(|&i| reading.board.get(i) == d && reading.kinds[i] == vision::Kind::Given)
            .filter(|&i| !doubtful(i))
            .filter_map(|i| {
                let c = &reading.cells[i];
                let m = c.matched?;
                (m.score >= 0.9 && m.margin >= 0.1).then_some((m.score, c.glyph.as_ref()?))
            })
            .max_by(|a, b| a.0.total_cmp(&b.0));
        if let Some((_, glyph)) = best {
            templates.push(DeviceTemplate {
                digit: d,
                source: "board".into(),
                data: encode_glyph(glyph),
            });
        }
    }
    templates
}
