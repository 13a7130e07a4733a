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
//! [app]                            # optional: the app it was made for (older files: any app)
//! package = "org.autoplay.sudoku"  # the package in front when it was made
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
//! [input]                          # how the app takes taps (probed by `calibrate` on a phone)
//! mode = "cell-first"              # or "digit-first" (a brush), or "both"
//! retap = "nothing"                # optional: a tap on the selected cell: "deselect", "pencil"
//! after_entry = "keep"             # optional: "clear" (the app drops the selection), "unknown"
//! brush_retap = "nothing"          # optional, digit-first: "clear": the brush's key drops it
//! same_digit = "nothing"           # optional: the digit again: "clear", "clear-late"
//! clear_late_ms = 200              # optional: with "clear-late", how late
//! take_back = "erase"              # optional: the search's undos: "erase", "digit", "undo", "none"
//! undo = [x, y]                    # optional: the undo key
//! locked = true                    # optional: right digits cannot be erased or overwritten
//! frame_reads = true               # optional: taps read the last drawn frame
//! finished_keys = "reflow"         # optional: a finished digit's key goes, the others move up
//! mistake_limit = 3                # optional: the game ends after this many mistakes
//! [input.seen]                     # optional: what the probe saw, rule by rule
//! [navigation]                     # optional: how the player opens level N
//! kind = "am-start"                # "am-start" | "taps" | "level-grid" | "level-list"
//! command = "am start -n org.autoplay.sudoku/.GameActivity --ei level {level}"
//! [[templates]]                    # optional device digit templates (32x32 grey, base64)
//! digit = 1
//! source = "keypad"
//! data = "..."
//! ```
//!
//! Parse errors name the file, line and column. [`Calibration::check_frame`] rejects a
//! calibration made for another screen size.
//!
//! This file holds the types and how a calibration is used (reading a frame with it, its tap
//! points); `file` parses and validates the TOML, `detect` makes a calibration from a
//! screenshot, `write` writes the documented TOML, and [`lookup`] finds the calibration for a
//! device in the user's directories.

mod detect;
mod file;
pub mod lookup;
mod write;

pub use detect::{CalibrateOptions, Calibrated, Check};
pub use file::MAX_FILE_BYTES;

use crate::board::Board;
use crate::remedy::Remedy;
use crate::vision::geometry::BoardGeometry;
use crate::vision::glyph::Glyph;
use crate::vision::templates::{Template, TemplateBank};
use crate::vision::{self, VisionError};
use base64::Engine;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// `clear_late_ms` when a file says `same_digit = "clear-late"` without it.
pub const DEFAULT_CLEAR_LATE_MS: u32 = 500;

/// The format version this build reads and writes.
pub const VERSION: u32 = 1;

/// A calibration profile. See the module documentation for the file format.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Calibration {
    /// Always [`VERSION`].
    pub version: Version,
    /// The screen.
    pub device: DeviceSection,
    /// The app it was made for (`None`: files made before calibrations were per app, or from a
    /// screenshot; they serve any app).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app: Option<AppSection>,
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
                 make a new calibration"
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
pub struct DeviceSection {
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

/// `[app]`: the app a calibration was made for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AppSection {
    /// Its package (`org.autoplay.sudoku`), as `dumpsys window` names the window in front.
    pub package: String,
}

impl Calibration {
    /// The package of the app it was made for, where it names one.
    pub fn package(&self) -> Option<&str> {
        self.app.as_ref().map(|a| a.package.as_str())
    }
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

/// `[input]`: how the app takes taps. `autoplay calibrate` on a phone probes these rules on the
/// open level and records what it saw for each in `seen`; a person can read and edit them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputSection {
    /// Cell-first, digit-first or both.
    pub mode: InputMode,
    /// What a tap on the cell that is already selected does (absent in older files: nothing).
    #[serde(default)]
    pub retap: Retap,
    /// Whether the selection survives an entry (absent: it does).
    #[serde(default)]
    pub after_entry: AfterEntry,
    /// Digit-first: what a tap on the digit that is already the brush does (absent: nothing).
    #[serde(default)]
    pub brush_retap: BrushRetap,
    /// The digit a cell holds, tapped again (absent: nothing, or clear where `[keypad] erase` is
    /// `toggle`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub same_digit: Option<SameDigit>,
    /// `same_digit = "clear-late"`: how long after the tap the cell is cleared, at most (what the
    /// probe measured; absent: 500).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clear_late_ms: Option<u32>,
    /// How the player takes a digit back (absent: `[keypad] erase` says: the key, or the digit
    /// again).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub take_back: Option<TakeBack>,
    /// The undo key's tap point (the last entry back, last in first out), where there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undo: Option<[u32; 2]>,
    /// Neither erase nor the digit again takes a right digit back: the app locks right digits
    /// (only the undo key takes them back), or has no erase key that works.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub locked: bool,
    /// Taps are read against the app's last drawn frame: two taps within one frame interval
    /// both act on the state before the first, so taps that depend on each other go out at
    /// least a frame apart.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub frame_reads: bool,
    /// The key of a digit placed nine times (absent: it stays).
    #[serde(default)]
    pub finished_keys: FinishedKeys,
    /// The game ends after this many mistakes (a counter such as "0/3" shows on the game screen).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mistake_limit: Option<u32>,
    /// What `calibrate` saw on the phone for each rule it probed (in the order probed).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub seen: BTreeMap<RuleKey, String>,
}

/// The rules of `[input]` that calibrate finds out on a phone, the keys of `[input.seen]`, in the
/// order they are found: the keypad first (shown for a selected cell only), then the probe's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleKey {
    Keypad,
    Mode,
    AfterEntry,
    SameDigit,
    Erase,
    Undo,
    Retap,
    BrushRetap,
    FrameReads,
    FinishedKeys,
    MistakeLimit,
}

impl RuleKey {
    /// Every rule, in the order found.
    pub const ALL: [RuleKey; 11] = [
        RuleKey::Keypad,
        RuleKey::Mode,
        RuleKey::AfterEntry,
        RuleKey::SameDigit,
        RuleKey::Erase,
        RuleKey::Undo,
        RuleKey::Retap,
        RuleKey::BrushRetap,
        RuleKey::FrameReads,
        RuleKey::FinishedKeys,
        RuleKey::MistakeLimit,
    ];

    /// Its key in `[input.seen]`.
    pub fn key(self) -> &'static str {
        match self {
            RuleKey::Keypad => "keypad",
            RuleKey::Mode => "mode",
            RuleKey::AfterEntry => "after_entry",
            RuleKey::SameDigit => "same_digit",
            RuleKey::Erase => "erase",
            RuleKey::Undo => "undo",
            RuleKey::Retap => "retap",
            RuleKey::BrushRetap => "brush_retap",
            RuleKey::FrameReads => "frame_reads",
            RuleKey::FinishedKeys => "finished_keys",
            RuleKey::MistakeLimit => "mistake_limit",
        }
    }
}

impl std::fmt::Display for RuleKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}

impl InputSection {
    /// Today's default app: cell-first or digit-first as given, taps that change nothing when
    /// repeated, the selection kept after an entry.
    pub fn new(mode: InputMode) -> InputSection {
        InputSection {
            mode,
            retap: Retap::default(),
            after_entry: AfterEntry::default(),
            brush_retap: BrushRetap::default(),
            same_digit: None,
            clear_late_ms: None,
            take_back: None,
            undo: None,
            locked: false,
            frame_reads: false,
            finished_keys: FinishedKeys::default(),
            mistake_limit: None,
            seen: BTreeMap::new(),
        }
    }
}

/// A tap on the selected cell (real apps: nothing; deselect it; toggle pencil mode).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Retap {
    #[default]
    Nothing,
    Deselect,
    Pencil,
}

/// The selection after a digit went into a cell (real apps: kept, or cleared; `unknown` where
/// the screen does not show the selection: every write then starts from a given cell).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AfterEntry {
    #[default]
    Keep,
    Clear,
    Unknown,
}

/// Digit-first: a tap on the digit that is already the brush (real apps: nothing, or the brush
/// is dropped).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BrushRetap {
    #[default]
    Nothing,
    Clear,
}

/// The digit a cell already holds, tapped again (real apps: nothing or entered again; the cell
/// cleared; cleared a moment later, whatever the cell holds by then).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SameDigit {
    Nothing,
    Clear,
    /// Cleared a moment after the tap (`clear_late_ms`).
    ClearLate,
}

/// How the player takes a digit back out of a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TakeBack {
    /// The erase key (`[keypad] erase`).
    Erase,
    /// The digit again.
    Digit,
    /// The undo key (`undo`): the search takes digits back last in first out, as undo does.
    Undo,
    /// Nothing the probe tried took a digit back: only searches that never take one back can
    /// be played (`--strategy fast`).
    None,
}

/// The key of a digit placed nine times.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FinishedKeys {
    /// It stays where it is (it may be greyed or hidden: it is not needed any more).
    #[default]
    Stay,
    /// It disappears and the keys after it move up one place (the row re-flows).
    Reflow,
    /// Not seen yet (calibrate found no digit one short of nine): the player looks at the
    /// keypad once, when a digit is first finished during a run.
    Unknown,
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
    /// Cell-first, but a digit key with no cell selected arms a digit-first brush (the player
    /// plays it cell-first and never taps a digit with no cell selected).
    Both,
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
    /// A list of level buttons that say their numbers: level N's is found by its words
    /// (`uiautomator dump`), scrolling the list (or paging it) until it shows.
    LevelList {
        /// The words of the buttons that lead to the list, in order (e.g. `["Play", "Levels"]`):
        /// from wherever the app is, the last one showing is tapped, or BACK pressed where none
        /// shows, until level numbers show.
        #[serde(default)]
        open: Vec<String>,
    },
    /// An app without level numbers: a new game of a difficulty is opened by the words of the
    /// buttons that lead to the app's sheet of difficulties (`["New Game"]`), then the
    /// difficulty's word on it; a game in progress is thrown away only where the app asks
    /// ("Start a new game?") and a new game was asked for.
    NewGame {
        /// The words of the buttons that lead to the difficulties, in order; from wherever the
        /// app is, the last one showing is tapped, or BACK pressed where none shows.
        open: Vec<String>,
        /// The difficulties the sheet offers, easiest first (for the user, and to check a
        /// difficulty asked for).
        #[serde(default)]
        difficulties: Vec<String>,
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

/// A frame the calibration was not made for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FrameMismatch {
    /// The phone is held the other way round than when it was calibrated.
    #[error(
        "the phone is held in {} (the screen is {}x{}), but this calibration is for it in {} \
         ({}x{}): turn it back (and lock its rotation), or calibrate it as it is held now",
        way(*frame), frame.0, frame.1, way(*made), made.0, made.1
    )]
    Turned { frame: (u32, u32), made: (u32, u32) },
    /// Another screen size.
    #[error(
        "this calibration is for a {}x{} screen{}, but the frame is {}x{}: recalibrate on this \
         device",
        made.0, made.1, model.as_ref().map(|m| format!(" ({m})")).unwrap_or_default(), frame.0, frame.1
    )]
    OtherSize {
        frame: (u32, u32),
        made: (u32, u32),
        model: Option<String>,
    },
}

impl FrameMismatch {
    /// A calibration made as the phone is held now.
    pub fn remedies(&self) -> Vec<Remedy> {
        match self {
            FrameMismatch::Turned { .. } => vec![Remedy::CalibratePhone],
            FrameMismatch::OtherSize { .. } => vec![Remedy::CalibrateScreenshot],
        }
    }
}

fn way((w, h): (u32, u32)) -> &'static str {
    if w > h { "landscape" } else { "portrait" }
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
    #[error("{file}:{line}:{column}: {message} (fix that line, or make a new calibration)")]
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
    #[error("{file}: {message} (fix the file, or make a new calibration)")]
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

impl CalibrationError {
    /// A file that does not parse or fit: a new calibration.
    pub fn remedies(&self) -> Vec<Remedy> {
        match self {
            CalibrationError::Parse { .. } | CalibrationError::Invalid { .. } => {
                vec![Remedy::CalibratePhone]
            }
            _ => Vec::new(),
        }
    }
}

impl Calibration {
    /// Reads the board in a frame with this calibration's geometry (after checking the frame
    /// size) and its device templates.
    pub fn read(&self, img: &image::RgbaImage) -> Result<vision::Reading, vision::VisionError> {
        self.check_frame(img.width(), img.height())
            .map_err(|e| vision::VisionError::Calibration(e.to_string()))?;
        vision::read_with(img, self.geometry(), self.template_bank().as_ref())
    }

    /// Reads the board if it is where this calibration says; `None` when something covers it
    /// or the screen shows something else.
    pub(crate) fn read_if_visible(
        &self,
        frame: &image::RgbaImage,
    ) -> Result<Option<Board>, VisionError> {
        self.check_frame(frame.width(), frame.height())
            .map_err(|e| VisionError::Calibration(e.to_string()))?;
        let Ok(found) = vision::detect_board(frame) else {
            return Ok(None);
        };
        let [x0, y0, x1, y1] = self.board.rect;
        let tol = (x1.saturating_sub(x0) / 20).max(4) as i64;
        let near = |a: u32, b: u32| (a as i64 - b as i64).abs() <= tol;
        if !found
            .rect()
            .iter()
            .zip([x0, y0, x1, y1])
            .all(|(&a, b)| near(a, b))
        {
            return Ok(None);
        }
        match self.read(frame) {
            Ok(r) => Ok(Some(r.board)),
            Err(VisionError::Covered { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// A cell's width on the screen, in pixels (at least 8).
    pub fn cell_width(&self) -> u32 {
        (self.board.rect[2].saturating_sub(self.board.rect[0]) / 9).max(8)
    }

    /// Checks that this calibration was made for a `width x height` frame.
    pub fn check_frame(&self, width: u32, height: u32) -> Result<(), FrameMismatch> {
        let (w, h) = (self.device.width, self.device.height);
        if (w, h) == (height, width) && w != h {
            return Err(FrameMismatch::Turned {
                frame: (width, height),
                made: (w, h),
            });
        }
        if (w, h) != (width, height) {
            return Err(FrameMismatch::OtherSize {
                frame: (width, height),
                made: (w, h),
                model: self.device.model.clone(),
            });
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

    /// Whether the keys after `d`'s moved up one place on `frame` (the row re-flowed after `d`
    /// was finished), each key's place read with this calibration's templates.
    pub(crate) fn keys_moved_up(&self, frame: &image::RgbaImage, d: u8) -> bool {
        vision::compare::keys_moved_up(frame, &self.keypad.digits, self.template_bank().as_ref(), d)
    }

    /// Tap point of key `digit` (1..=9).
    pub fn key(&self, digit: u8) -> Option<(u32, u32)> {
        let p = self.keypad.digits.get((digit as usize).checked_sub(1)?)?;
        Some((p[0], p[1]))
    }
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
