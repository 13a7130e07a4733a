//! Calibration profiles: where a particular app on a particular device draws its board and
//! keys, stored as a versioned, documented TOML file (`calibration/NAME.toml`).
//!
//! ```toml
//! version = 1                      # format version; only 1 exists
//! [device]
//! width = 1080                     # screen size in pixels (portrait), required
//! height = 2400
//! model = "Pixel_7"                # optional, informative
//! density = 420                    # optional, `wm density`
//! [board]
//! rect = [40, 600, 1040, 1600]     # outer grid line centres: x0, y0, x1, y1
//! cols = [40, 151, ...]            # the 10 vertical grid line x's, ascending
//! rows = [600, 711, ...]           # the 10 horizontal grid line y's, ascending
//! line_width = 6                   # thickest grid line, pixels
//! [keypad]
//! digits = [[x, y], ...]           # tap points of the keys 1..9, in order
//! erase = [x, y]                   # tap point of the erase key, or "toggle": the app clears a
//!                                  # cell when its digit is tapped again (no erase key)
//! erase_guessed = true             # optional: calibrate saw no erase key and guessed "toggle"
//! [input]
//! mode = "cell-first"              # or "digit-first": tap the cell then the digit, or the reverse
//! [navigation]                     # optional: how the player opens level N
//! kind = "am-start"                # "am-start" | "taps" | "level-grid"
//! command = "am start -n org.autoplay.sudoku/.GameActivity --ei level {level}"
//! [[templates]]                    # optional device digit templates (32x32 grey, base64)
//! digit = 1
//! source = "keypad"
//! data = "..."
//! ```
//!
//! Parse errors name the file, line and column. [`Calibration::check_frame`] rejects a
//! calibration made for another screen size.

pub mod lookup;

use crate::vision::geometry::BoardGeometry;
use crate::vision::glyph::{Glyph, LEN};
use crate::vision::survey::{EraseFound, Hints, Survey};
use crate::vision::templates::{Template, TemplateBank};
use crate::vision::{self, VisionError};
use base64::Engine;
use image::RgbaImage;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
/// Largest calibration file accepted, in bytes.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// A calibration profile. See the module documentation for the file format.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Calibration {
    /// Always [`VERSION`].
    pub version: Version,
    /// The screen.
    pub device: Device,
    /// The board.
    pub board: BoardSection,
    /// The number pad.
    pub keypad: KeypadSection,
    /// How digits are entered.
    pub input: InputSection,
    /// How to open a level (optional; used by the player).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub navigation: Option<Navigation>,
    /// Device digit templates harvested during calibration.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub templates: Vec<DeviceTemplate>,
}

/// The format version; only [`VERSION`] parses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "i64", into = "i64")]
pub struct Version(pub u32);

impl TryFrom<i64> for Version {
    type Error = String;
    fn try_from(v: i64) -> Result<Self, String> {
        if v == VERSION as i64 {
            Ok(Version(VERSION))
        } else {
            Err(format!(
                "unsupported calibration version {v}: this build reads version {VERSION}; \
                 recalibrate with `autoplay calibrate`"
            ))
        }
    }
}

impl From<Version> for i64 {
    fn from(v: Version) -> i64 {
        v.0 as i64
    }
}

/// `[device]`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Device {
    /// Screen width in pixels.
    pub width: u32,
    /// Screen height in pixels.
    pub height: u32,
    /// `ro.product.model`, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// `wm density`, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub density: Option<u32>,
}

/// 10 ascending grid line positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<u32>", into = "Vec<u32>")]
pub struct Boundaries(pub [u32; 10]);

impl TryFrom<Vec<u32>> for Boundaries {
    type Error = String;
    fn try_from(v: Vec<u32>) -> Result<Self, String> {
        let arr: [u32; 10] = v
            .clone()
            .try_into()
            .map_err(|_| format!("expected 10 grid line positions, found {}", v.len()))?;
        if arr.windows(2).any(|w| w[1] < w[0] + 4) {
            return Err(format!(
                "grid line positions must ascend by at least 4 pixels: {v:?}"
            ));
        }
        Ok(Boundaries(arr))
    }
}

impl From<Boundaries> for Vec<u32> {
    fn from(b: Boundaries) -> Vec<u32> {
        b.0.to_vec()
    }
}

/// `[board]`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardSection {
    /// `[x0, y0, x1, y1]`: the outer grid line centres.
    pub rect: [u32; 4],
    /// x of the 10 vertical grid lines.
    pub cols: Boundaries,
    /// y of the 10 horizontal grid lines.
    pub rows: Boundaries,
    /// Thickest grid line in pixels.
    #[serde(default = "one")]
    pub line_width: u32,
}

fn one() -> u32 {
    1
}

/// `[keypad]`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeypadSection {
    /// Tap points of the keys 1..=9.
    pub digits: [[u32; 2]; 9],
    /// How a digit is taken out of a cell.
    pub erase: Erase,
    /// `calibrate` recognised no erase key and guessed [`Erase::Toggle`]; nobody confirmed it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub erase_guessed: bool,
}

/// How the app clears a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "EraseValue", into = "EraseValue")]
pub enum Erase {
    /// Select the cell, then tap the erase key at this point.
    Key([u32; 2]),
    /// Select the cell, then tap its digit again (apps without an erase key).
    Toggle,
}

impl Erase {
    /// The erase key's tap point, if the app has one.
    pub fn point(self) -> Option<[u32; 2]> {
        match self {
            Erase::Key(p) => Some(p),
            Erase::Toggle => None,
        }
    }
}

impl std::fmt::Display for Erase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Erase::Key([x, y]) => write!(f, "key at {x},{y}"),
            Erase::Toggle => f.write_str("toggle (tap the digit again)"),
        }
    }
}

/// `erase` as written in TOML: a point or a word.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum EraseValue {
    Point([u32; 2]),
    Word(String),
}

impl TryFrom<EraseValue> for Erase {
    type Error = String;
    fn try_from(v: EraseValue) -> Result<Self, String> {
        match v {
            EraseValue::Point(p) => Ok(Erase::Key(p)),
            EraseValue::Word(w) if w == "toggle" => Ok(Erase::Toggle),
            EraseValue::Word(w) => Err(format!(
                "erase must be [x, y] (the erase key) or \"toggle\" (tap the digit again), not {w:?}"
            )),
        }
    }
}

impl From<Erase> for EraseValue {
    fn from(e: Erase) -> EraseValue {
        match e {
            Erase::Key(p) => EraseValue::Point(p),
            Erase::Toggle => EraseValue::Word("toggle".into()),
        }
    }
}

/// `[input]`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputSection {
    /// Cell-first or digit-first.
    pub mode: InputMode,
}

/// How the app takes a digit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InputMode {
    /// Tap the cell, then the digit (most apps).
    #[default]
    CellFirst,
    /// Tap the digit, then the cell(s).
    DigitFirst,
}

/// `[navigation]`: how to open level N.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Navigation {
    /// A shell command with `{level}` replaced by the 1-based level number.
    AmStart {
        /// E.g. `am start -n org.autoplay.sudoku/.GameActivity --ei level {level}`.
        command: String,
    },
    /// A fixed tap sequence (e.g. "new game", "easy").
    Taps {
        /// Points tapped in order.
        taps: Vec<[u32; 2]>,
    },
    /// A grid of level buttons, possibly over several pages.
    LevelGrid {
        /// Taps that open the level list.
        #[serde(default)]
        open: Vec<[u32; 2]>,
        /// Centre of level 1's button.
        first: [u32; 2],
        /// Distance between neighbouring buttons `[dx, dy]`.
        step: [u32; 2],
        /// Buttons per row and rows per page.
        columns: u32,
        rows: u32,
        /// The "next page" button, if levels span pages.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        next_page: Option<[u32; 2]>,
    },
}

/// `[[templates]]`: one harvested digit glyph.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeviceTemplate {
    /// 1..=9.
    pub digit: u8,
    /// `keypad` or `board`.
    pub source: String,
    /// Base64 of 32x32 grey levels, row-major.
    pub data: String,
}

/// Why a calibration could not be loaded or made.
#[derive(Debug, thiserror::Error)]
pub enum CalibrationError {
    /// Reading the file failed.
    #[error("cannot read calibration {file}: {source}")]
    Io {
        /// The file.
        file: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// Bad TOML or a bad value, with its position.
    #[error(
        "{file}:{line}:{column}: {message} (fix that line, or make a new calibration with \
         `autoplay calibrate`)"
    )]
    Parse {
        /// The file.
        file: PathBuf,
        /// 1-based line and column.
        line: usize,
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// Values that do not fit together.
    #[error(
        "{file}: {message} (fix the file, or make a new calibration with `autoplay calibrate`)"
    )]
    Invalid {
        /// The file.
        file: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The board was not found.
    #[error(transparent)]
    Vision(#[from] VisionError),
    /// The number pad was not found.
    #[error("{0}")]
    Keypad(String),
}

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
    pub notes: Vec<String>,
}

impl Calibration {
    /// Loads and checks a calibration file.
    pub fn load(path: &Path) -> Result<Calibration, CalibrationError> {
        let io = |source| CalibrationError::Io {
            file: path.to_path_buf(),
            source,
        };
        let len = std::fs::metadata(path).map_err(io)?.len();
        if len > MAX_FILE_BYTES {
            return Err(CalibrationError::Invalid {
                file: path.to_path_buf(),
                message: format!(
                    "{len} bytes is too big for a calibration (limit {MAX_FILE_BYTES})"
                ),
            });
        }
        let text = std::fs::read_to_string(path).map_err(io)?;
        Self::parse(&text, path)
    }

    /// Parses calibration TOML; `file` is only used in error messages.
    pub fn parse(text: &str, file: &Path) -> Result<Calibration, CalibrationError> {
        let cal: Calibration = toml::from_str(text).map_err(|e| {
            let (line, column) = e.span().map_or((1, 1), |s| line_col(text, s.start));
            CalibrationError::Parse {
                file: file.to_path_buf(),
                line,
                column,
                message: e.message().trim().to_string(),
            }
        })?;
        cal.validate()
            .map_err(|message| CalibrationError::Invalid {
                file: file.to_path_buf(),
                message,
            })?;
        Ok(cal)
    }

    /// Cross-field checks: everything on screen, the rect matching the grid lines, templates sane.
    pub fn validate(&self) -> Result<(), String> {
        let (w, h) = (self.device.width, self.device.height);
        if w == 0 || h == 0 || w > crate::capture::MAX_SIDE || h > crate::capture::MAX_SIDE {
            return Err(format!("[device] size {w}x{h} is not a screen size"));
        }
        self.geometry()
            .check(w, h)
            .map_err(|e| format!("[board] {e}"))?;
        let g = self.geometry();
        if g.rect() != self.board.rect {
            return Err(format!(
                "[board] rect {:?} does not match the outer cols/rows {:?}",
                self.board.rect,
                g.rect()
            ));
        }
        let on_screen = |p: [u32; 2]| p[0] < w && p[1] < h;
        if let Some(i) = self.keypad.digits.iter().position(|&p| !on_screen(p)) {
            return Err(format!(
                "[keypad] digit {} at {:?} is off the {w}x{h} screen",
                i + 1,
                self.keypad.digits[i]
            ));
        }
        if let Some(p) = self.keypad.erase.point()
            && !on_screen(p)
        {
            return Err(format!("[keypad] erase {p:?} is off the {w}x{h} screen"));
        }
        if let Some(Navigation::AmStart { command }) = &self.navigation {
            check_am_start(command)?;
        }
        for t in &self.templates {
            if !(1..=9).contains(&t.digit) {
                return Err(format!("[[templates]] digit {} is not 1..9", t.digit));
            }
            if decode_glyph(&t.data).is_none() {
                return Err(format!(
                    "[[templates]] digit {}: data is not base64 of {LEN} grey levels",
                    t.digit
                ));
            }
        }
        Ok(())
    }

    /// Reads the board in a frame with this calibration's geometry (after checking the frame
    /// size) and its device templates.
    pub fn read(&self, img: &image::RgbaImage) -> Result<vision::Reading, vision::VisionError> {
        self.check_frame(img.width(), img.height())
            .map_err(vision::VisionError::Calibration)?;
        Ok(vision::read_with(
            img,
            self.geometry(),
            self.template_bank().as_ref(),
        ))
    }

    /// Checks that this calibration was made for a `width x height` frame.
    pub fn check_frame(&self, width: u32, height: u32) -> Result<(), String> {
        let (w, h) = (self.device.width, self.device.height);
        if (w, h) != (width, height) {
            return Err(format!(
                "this calibration is for a {w}x{h} screen{}, but the frame is {width}x{height}: \
                 recalibrate on this device (`autoplay calibrate --screenshot FILE`)",
                self.device
                    .model
                    .as_ref()
                    .map(|m| format!(" ({m})"))
                    .unwrap_or_default()
            ));
        }
        Ok(())
    }

    /// The board geometry.
    pub fn geometry(&self) -> BoardGeometry {
        BoardGeometry {
            cols: self.board.cols.0,
            rows: self.board.rows.0,
            line_width: self.board.line_width,
        }
    }

    /// The device templates as a bank (`None` when there are none).
    pub fn template_bank(&self) -> Option<TemplateBank> {
        let templates: Vec<Template> = self
            .templates
            .iter()
            .filter_map(|t| {
                Some(Template {
                    digit: t.digit,
                    source: t.source.clone(),
                    glyph: decode_glyph(&t.data)?,
                })
            })
            .collect();
        (!templates.is_empty()).then_some(TemplateBank { templates })
    }

    /// Tap point of key `digit` (1..=9).
    pub fn key(&self, digit: u8) -> Option<(u32, u32)> {
        let p = self.keypad.digits.get((digit as usize).checked_sub(1)?)?;
        Some((p[0], p[1]))
    }

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
    ) -> Result<(Calibration, Vec<String>), CalibrationError> {
        let geometry = match &survey.board {
            Ok(g) => g.clone(),
            Err(e) => return Err(CalibrationError::Vision(e.clone())),
        };
        let (keypad, reading) = match (&survey.keypad, &survey.reading) {
            (Some(Ok(k)), Some(r)) => (k, r),
            (Some(Err(e)), _) => return Err(CalibrationError::Keypad(e.clone())),
            _ => return Err(CalibrationError::Keypad("number pad not looked for".into())),
        };
        let mut notes = keypad.notes.clone();
        let (erase, erase_guessed) = match (options.erase, survey.erase()) {
            (Some(e), _) => (e, false),
            (None, EraseFound::Key(t)) => (Erase::Key([t.center.0, t.center.1]), false),
            (None, EraseFound::None(maybe)) => {
                let seen: Vec<String> = maybe
                    .iter()
                    .map(|t| format!("{},{} ({})", t.center.0, t.center.1, t.evidence))
                    .collect();
                notes.push(format!(
                    "no erase key recognised{}; recorded erase = \"toggle\" (tap the digit again). \
                     If the app clears a cell that way, confirm with --erase toggle; if it has an \
                     erase key, pass its centre as --erase X,Y",
                    if seen.is_empty() {
                        String::new()
                    } else {
                        format!(" (unclassified keys: {})", seen.join("; "))
                    }
                ));
                (Erase::Toggle, true)
            }
        };
        let keys = &keypad.keys;
        let reading = reading.clone();
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
        // One board glyph per digit: the most confident, unambiguous given.
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
        let calibration = Calibration {
            version: Version(VERSION),
            device: Device {
                width: img.width(),
                height: img.height(),
                model: options.model.clone(),
                density: options.density,
            },
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
            input: InputSection { mode: options.mode },
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

    /// The calibration as documented TOML.
    pub fn to_toml(&self) -> String {
        let list = |v: &[u32]| {
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let pt = |p: [u32; 2]| format!("[{}, {}]", p[0], p[1]);
        let mut s = String::new();
        s.push_str("# sudoku-autoplay calibration profile (written by `autoplay calibrate`).\n");
        s.push_str("# Coordinates are screen pixels; see src/calibration.rs for the format.\n");
        s.push_str(&format!("version = {VERSION}\n\n"));
        s.push_str("[device]\n# Screen size this calibration is valid for.\n");
        s.push_str(&format!(
            "width = {}\nheight = {}\n",
            self.device.width, self.device.height
        ));
        if let Some(m) = &self.device.model {
            s.push_str(&format!("model = {}\n", toml_string(m)));
        }
        if let Some(d) = self.device.density {
            s.push_str(&format!("density = {d}\n"));
        }
        s.push_str("\n[board]\n# Outer grid line centres [x0, y0, x1, y1], then the 10 column and 10 row lines.\n");
        s.push_str(&format!("rect = [{}]\n", list(&self.board.rect)));
        s.push_str(&format!("cols = [{}]\n", list(&self.board.cols.0)));
        s.push_str(&format!("rows = [{}]\n", list(&self.board.rows.0)));
        s.push_str(&format!("line_width = {}\n", self.board.line_width));
        s.push_str("\n[keypad]\n# Tap points of the keys 1..9; erase: the erase key's tap point, or \"toggle\"\n# when the app clears a cell by tapping its digit again.\n");
        let digits: Vec<String> = self.keypad.digits.iter().map(|&p| pt(p)).collect();
        s.push_str(&format!("digits = [{}]\n", digits.join(", ")));
        match self.keypad.erase {
            Erase::Key(p) => s.push_str(&format!("erase = {}\n", pt(p))),
            Erase::Toggle => s.push_str("erase = \"toggle\"\n"),
        }
        if self.keypad.erase_guessed {
            s.push_str(
                "# No erase key was recognised: \"toggle\" is a guess. Check it on the phone, then confirm\n\
                 # with `autoplay calibrate --erase toggle` (or give the key: --erase X,Y).\n\
                 erase_guessed = true\n",
            );
        }
        s.push_str("\n[input]\n# \"cell-first\": tap the cell, then the digit; \"digit-first\": the reverse.\n");
        let mode = match self.input.mode {
            InputMode::CellFirst => "cell-first",
            InputMode::DigitFirst => "digit-first",
        };
        s.push_str(&format!("mode = \"{mode}\"\n"));
        #[derive(Serialize)]
        struct Tail<'a> {
            #[serde(skip_serializing_if = "Option::is_none")]
            navigation: Option<&'a Navigation>,
            #[serde(skip_serializing_if = "<[_]>::is_empty")]
            templates: &'a [DeviceTemplate],
        }
        let tail = Tail {
            navigation: self.navigation.as_ref(),
            templates: &self.templates,
        };
        if self.navigation.is_some() {
            s.push_str("\n# How the player opens level N.");
        }
        if let Ok(t) = toml::to_string(&tail)
            && !t.trim().is_empty()
        {
            if !self.templates.is_empty() && self.navigation.is_none() {
                s.push_str("\n# Device digit templates: 32x32 grey levels, base64.");
            }
            s.push('\n');
            s.push_str(&t);
        }
        s
    }
}

fn toml_string(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

fn encode_glyph(g: &Glyph) -> String {
    base64::engine::general_purpose::STANDARD.encode(g.to_bytes())
}

fn decode_glyph(data: &str) -> Option<Glyph> {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data)
        .ok()?;
    Glyph::from_bytes(&bytes)
}

/// 1-based line and column of byte offset `at` in `text`.
/// Longest accepted `[navigation]` am-start command.
const MAX_COMMAND_LEN: usize = 512;

/// Checks an am-start template before it can reach the device shell: it must contain `{level}`
/// and, apart from that placeholder, only letters, digits, spaces and `/._-=` (no quotes, `;`,
/// `$`, `&`, `|`, backquotes or newlines that a shell would interpret).
fn check_am_start(command: &str) -> Result<(), String> {
    if !command.contains("{level}") {
        return Err("[navigation] command must contain {level}".into());
    }
    if command.len() > MAX_COMMAND_LEN {
        return Err(format!(
            "[navigation] command is {} bytes long (limit {MAX_COMMAND_LEN})",
            command.len()
        ));
    }
    let safe = |c: char| c.is_ascii_alphanumeric() || " /._-=".contains(c);
    if let Some(bad) = command.replace("{level}", "").chars().find(|&c| !safe(c)) {
        return Err(format!(
            "[navigation] command contains {bad:?}, which the device shell would interpret: \
             use only letters, digits, spaces, `/._-=` and the {{level}} placeholder"
        ));
    }
    Ok(())
}

fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = text.get(..at.min(text.len())).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}
