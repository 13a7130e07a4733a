//! Everything calibration looks for on a game screen, found or not: the board, its reading,
//! the keypad, and the tool keys near it. Nothing here fails: what was not found says why, so
//! that a failed calibration can still show (and draw) what it saw.

use super::geometry::BoardGeometry;
use super::gray::Gray;
use super::icons::Tool;
use super::keypad::{self, Candidate, Keypad};
use super::tools::{self, ToolKey};
use super::{Reading, VisionError};
use image::RgbaImage;

/// An erase key is taken when it is recognised at least this surely.
pub const ERASE_CONFIDENCE: f32 = 0.7;

/// What a game screen shows.
#[derive(Debug)]
pub struct Survey {
    /// The board, or why it was not found.
    pub board: Result<BoardGeometry, VisionError>,
    /// The board read with the default templates (when the board was found).
    pub reading: Option<Reading>,
    /// The keypad, or why it was not found (`None`: not looked for, no board).
    pub keypad: Option<Result<Keypad, String>>,
    /// Every mark near the board that reads as a digit (for the overlay).
    pub candidates: Vec<Candidate>,
    /// The labels near the keypad that are not digits.
    pub tools: Vec<ToolKey>,
}

/// Where the survey says the erase key is.
#[derive(Debug, Clone)]
pub enum EraseFound<'a> {
    /// A key recognised as erase.
    Key(&'a ToolKey),
    /// None recognised; the keys that might be it (unclassified labels), for the message.
    None(Vec<&'a ToolKey>),
}

/// What the person told calibration, for what detection cannot find.
#[derive(Debug, Clone, Default)]
pub struct Hints {
    /// The board's outer rectangle `[x0, y0, x1, y1]` (outer line centres; equal cells).
    pub board: Option<[u32; 4]>,
    /// The centres of the keys 1..9.
    pub keys: Option<[(u32, u32); 9]>,
    /// The part of the screen the app draws `[x0, y0, x1, y1)`, where the phone says where its
    /// system bars are: keys beside the digits are looked for only there (a navigation bar's
    /// home circle is no erase key).
    pub app_area: Option<[u32; 4]>,
}

impl Survey {
    /// Surveys a frame, taking what `hints` give instead of detecting it.
    pub fn of(img: &RgbaImage, hints: &Hints) -> Survey {
        let board = match hints.board {
            Some(rect) => Ok(even_grid(rect)),
            None => super::detect_board(img),
        };
        let Ok(geometry) = &board else {
            return Survey::nothing(board);
        };
        let reading = match super::read_with(img, geometry.clone(), None) {
            Ok(r) => r,
            Err(e) => return Survey::nothing(Err(e)),
        };
        let found = match hints.keys {
            Some(points) => Ok(Keypad::from_points(points)),
            None => keypad::find_keypad(img, geometry),
        };
        let (keypad, candidates) = match found {
            Ok(k) => (Ok(k), Vec::new()),
            Err(nf) => (Err(nf.message), nf.candidates),
        };
        let tools = match &keypad {
            Ok(k) => tools::find_tools(&Gray::from_rgba(img), geometry, k, hints.app_area),
            Err(_) => Vec::new(),
        };
        Survey {
            board,
            reading: Some(reading),
            keypad: Some(keypad),
            candidates,
            tools,
        }
    }

    /// A survey that found no board (or a covered one): nothing else is looked for.
    fn nothing(board: Result<BoardGeometry, VisionError>) -> Survey {
        Survey {
            board,
            reading: None,
            keypad: None,
            candidates: Vec::new(),
            tools: Vec::new(),
        }
    }

    /// The keypad, when found.
    pub fn keypad(&self) -> Option<&Keypad> {
        self.keypad.as_ref().and_then(|k| k.as_ref().ok())
    }

    /// The erase key: the label most surely recognised as erase, if sure enough.
    pub fn erase(&self) -> EraseFound<'_> {
        let best = self
            .tools
            .iter()
            .filter(|t| t.tool == Some(Tool::Erase))
            .max_by(|a, b| a.confidence.total_cmp(&b.confidence));
        match best {
            Some(t) if t.confidence >= ERASE_CONFIDENCE => EraseFound::Key(t),
            _ => EraseFound::None(
                self.tools
                    .iter()
                    .filter(|t| t.tool.is_none() || t.tool == Some(Tool::Erase))
                    .collect(),
            ),
        }
    }
}

/// A grid of equal cells in `rect` (outer line centres), lines 2 pixels wide.
pub(crate) fn even_grid([x0, y0, x1, y1]: [u32; 4]) -> BoardGeometry {
    let at =
        |a: u32, b: u32, i: u32| a + ((b.saturating_sub(a)) as f32 * i as f32 / 9.0).round() as u32;
    BoardGeometry {
        cols: std::array::from_fn(|i| at(x0, x1, i as u32)),
        rows: std::array::from_fn(|i| at(y0, y1, i as u32)),
        line_width: 2,
    }
}
