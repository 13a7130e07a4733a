//! Reading the phone: board detection and template-matched digit OCR.
//!
//! ```no_run
//! # fn main() -> anyhow::Result<()> {
//! use sudoku_autoplay::{capture, vision};
//! let image = capture::decode(&std::fs::read("shot.png")?)?;
//! let reading = vision::read_board(&image)?;
//! let line = reading.board.to_line(); // 81 characters, `.` for empty cells
//! let (x, y) = reading.geometry.cell_center(40); // where to tap the centre cell
//! # let _ = (line, x, y); Ok(()) }
//! ```

pub(crate) mod compare;
mod cover;
pub mod detect;
pub(crate) mod geometry;
pub mod glyph;
mod gray;
mod icons;
mod ink;
pub(crate) mod keypad;
mod kinds;
pub(crate) mod label;
mod marks;
mod navbar;
mod ocr;
pub mod overlay;
mod regions;
pub mod survey;
pub(crate) mod templates;
mod tools;

pub use geometry::{BoardGeometry, Bounds};
pub use icons::Tool;
pub use kinds::Kind;
pub use navbar::{BarIcon, back_button, bar_icons};
pub use templates::TemplateBank;

use crate::board::{Board, cell_name};
use image::RgbaImage;
use ocr::CellRead;

/// A digit scoring below this is reported as doubtful.
pub const MIN_SCORE: f32 = 0.70;
/// A digit whose runner-up is closer than this is reported as doubtful.
pub const MIN_MARGIN: f32 = 0.05;

/// How much more a glyph must be like the board's other cells read as its digit than like its
/// runner-up's for the runner-up to be ruled out ([`Reading::unsettled_doubts`]). On real apps'
/// screens the same digit of one kind correlates at 0.88-1.0 (0.70 beside a highlight) and two
/// digits at most 0.87; the simulated app's 8 and 3 of one style at 0.86.
pub const GLYPHS_APART: f32 = 0.1;

/// Why a frame could not be read.
#[derive(Debug, Clone, thiserror::Error)]
pub enum VisionError {
    /// No 9x9 grid in the frame.
    #[error(
        "no Sudoku board found in the {width}x{height} image: {seen} (is the game screen \
         showing, unobstructed?)"
    )]
    NoBoard {
        /// Frame size.
        width: u32,
        height: u32,
        /// What was seen, in words.
        seen: String,
        /// Everything detection saw (for the debug overlay).
        detection: Box<detect::Detection>,
    },
    /// Something covers the board (a dimming overlay, marks drawn across its cells): it is not
    /// read, so that nothing acts on it.
    #[error(
        "the Sudoku board in the {width}x{height} image is covered: {what} (close the dialog, \
         tutorial or overlay over the game and try again)"
    )]
    Covered {
        /// Frame size.
        width: u32,
        height: u32,
        /// What covers it, in words.
        what: String,
    },
    /// The calibration does not fit the frame.
    #[error("{0}")]
    Calibration(String),
}

/// Candidates scoring this close to the best one are checked against the digits.
const CLOSE_CALL: f32 = 2.5;

/// Finds the 9x9 grid (no calibration needed). When two boards fit the lines about as well
/// (a row of keys under the board that looks like a tenth row), the one whose digits read as
/// a plausible Sudoku wins.
pub fn detect_board(img: &RgbaImage) -> Result<BoardGeometry, VisionError> {
    detect_and_read(img).map(|(g, _)| g)
}

/// [`detect_board`], with the reading when close calls made one; a covered board is refused.
fn detect_and_read(img: &RgbaImage) -> Result<(BoardGeometry, Option<Reading>), VisionError> {
    let d = detect::detect_all(img);
    let Some(best) = d.candidates.first() else {
        return Err(VisionError::NoBoard {
            width: img.width(),
            height: img.height(),
            seen: d.summary(),
            detection: Box::new(d),
        });
    };
    let close: Vec<&detect::Candidate> = d
        .candidates
        .iter()
        .filter(|c| c.score >= best.score - CLOSE_CALL)
        .collect();
    let best_geometry = best.geometry.clone();
    if close.len() < 2 {
        return Ok((best_geometry, None));
    }
    // Enough digits for a puzzle (a single box of a board's cells is no board), then fewest
    // cells breaking a rule, then fewest doubtful cells, then the lines' score (the order of
    // `close`). A reading that is perfect on the first three counts cannot be beaten by a later
    // candidate, so the rest are not read.
    let rank = |r: &Reading| {
        let digits = (0..81).filter(|&i| r.board.get(i) != 0).count();
        let conflicts: usize = r.board.conflicts().iter().map(|c| c.cells.len()).sum();
        let doubtful = r.doubts.iter().filter(|d| d.cell.is_some()).count();
        (digits < kinds::MIN_GIVENS, conflicts, doubtful)
    };
    let mut best: Option<(Reading, (bool, usize, usize))> = None;
    let mut covered = None;
    for c in close {
        let reading = match read_with(img, c.geometry.clone(), None) {
            Ok(r) => r,
            Err(e) => {
                covered.get_or_insert(e);
                continue;
            }
        };
        let r = rank(&reading);
        tracing::debug!(
            rect = ?c.geometry.rect(),
            score = c.score,
            too_few_digits = r.0,
            conflicts = r.1,
            doubtful = r.2,
            "close call: candidate board read"
        );
        if best.as_ref().is_none_or(|(_, b)| r < *b) {
            best = Some((reading, r));
        }
        if r == (false, 0, 0) {
            break;
        }
    }
    // A covered candidate refuses the board, unless another one reads as a sound puzzle (the
    // covered one was a window beside the board, over the keys).
    match (best, covered) {
        (Some((_, r)), Some(e)) if r != (false, 0, 0) => Err(e),
        (Some((reading, _)), _) => Ok((reading.geometry.clone(), Some(reading))),
        (None, Some(e)) => Err(e),
        (None, None) => Ok((best_geometry, None)),
    }
}

/// A doubt about a reading: a low-confidence cell or a broken rule.
#[derive(Debug, Clone, PartialEq)]
pub struct Doubt {
    /// The cell concerned, if one.
    pub cell: Option<usize>,
    /// What is doubtful.
    pub message: String,
}

/// What was read from a frame.
#[derive(Debug, Clone)]
pub struct Reading {
    /// The digits (0 = empty).
    pub board: Board,
    /// Given / entered / empty per cell.
    pub kinds: [Kind; 81],
    /// What told givens from entries (or why every digit is taken for a given).
    pub kind_evidence: kinds::Evidence,
    /// Per-cell confidence 0..=1.
    pub confidence: [f32; 81],
    /// Per-cell details.
    pub cells: Vec<CellRead>,
    /// Where the board is.
    pub geometry: BoardGeometry,
    /// Low-confidence cells and rule conflicts; empty when the reading is certain.
    pub doubts: Vec<Doubt>,
}

impl Reading {
    /// The kinds as 81 characters `G`, `U`, `.`.
    pub fn kinds_line(&self) -> String {
        self.kinds.iter().map(|k| k.to_char()).collect()
    }

    /// The doubts about single cells (a digit read with a low score, a mark of nearly digit
    /// size in an empty cell): where there are none, no digit was missed or misread.
    pub fn cell_doubts(&self) -> impl Iterator<Item = &Doubt> {
        self.doubts.iter().filter(|d| d.cell.is_some())
    }

    /// The cell doubts the board settles. A digit read with a good score but close to its
    /// runner-up is not the runner-up where
    /// - its glyph is like the board's other cells read as the same digit, and far less like
    ///   the cells of its kind read surely as the runner-up ([`GLYPHS_APART`]): one font draws
    ///   a digit the same everywhere on a board;
    /// - or the board with the runner-up in its place, and the other doubted cells blank,
    ///   `has_no_solution`: a level's givens have one whatever those cells hold (a runner-up
    ///   repeated in the cell's row, column or box is the simple case).
    ///
    /// For boards of givens, a level as it opens; the solver is the caller's.
    pub fn unsettled_doubts<'a>(
        &'a self,
        has_no_solution: impl Fn(&Board) -> bool + 'a,
    ) -> impl Iterator<Item = &'a Doubt> + 'a {
        let doubted: Vec<usize> = self.cell_doubts().filter_map(|d| d.cell).collect();
        let settled = move |i: usize| {
            self.cells[i].matched.is_some_and(|m| {
                m.score >= MIN_SCORE
                    && (self.glyphs_apart(i, m, &doubted) || {
                        let mut other = self.board;
                        for &c in &doubted {
                            other.set(c, 0);
                        }
                        other.set(i, m.runner_up);
                        has_no_solution(&other)
                    })
            })
        };
        self.cell_doubts()
            .filter(move |d| d.cell.is_none_or(|i| !settled(i)))
    }

    /// Whether cell `i`'s glyph, read as `m`, is like the other cells read as the same digit
    /// and [`GLYPHS_APART`] less like any cell of its kind read surely (not `doubted`) as the
    /// runner-up.
    fn glyphs_apart(&self, i: usize, m: templates::Match, doubted: &[usize]) -> bool {
        let Some(glyph) = &self.cells[i].glyph else {
            return false;
        };
        let likest = |digit: u8, sure: bool| {
            (0..81)
                .filter(|&p| p != i && self.board.get(p) == digit && self.kinds[p] == self.kinds[i])
                .filter(|p| !sure || !doubted.contains(p))
                .filter_map(|p| self.cells[p].glyph.as_ref())
                .map(|g| glyph.ncc(g))
                .reduce(f32::max)
        };
        match (likest(m.digit, false), likest(m.runner_up, true)) {
            (Some(same), Some(runner_up)) => same >= runner_up + GLYPHS_APART,
            _ => false,
        }
    }

    /// The givens only.
    pub fn givens(&self) -> Board {
        let mut b = Board::empty();
        for (i, k) in self.kinds.iter().enumerate() {
            if *k == Kind::Given {
                b.set(i, self.board.get(i));
            }
        }
        b
    }
}

/// Builds the tables every process renders once from the bundled fonts (the digit templates and
/// the digits' stroke-weight factors) now, rather than during the first reading.
pub fn prepare() {
    TemplateBank::default_bank();
    kinds::prepare();
}

/// Reads the board in a frame: the board is detected and read with the default template bank.
/// (With a calibration, [`crate::calibration::Calibration::read`] uses its geometry and
/// templates instead.)
pub fn read_board(img: &RgbaImage) -> Result<Reading, VisionError> {
    let (geometry, reading) = detect_and_read(img)?;
    match reading {
        Some(r) => Ok(r),
        None => read_with(img, geometry, None),
    }
}

/// The digit a key shows inside `rect` (`[x0, y0, x1, y1)`), read like a cell with its own
/// glyph's height; `None` where it shows no digit (a hidden key). `device`: the calibration's
/// templates (the keypad's among them).
pub(crate) fn read_key(img: &RgbaImage, rect: Bounds, device: Option<&TemplateBank>) -> Option<u8> {
    let ink = ocr::analyse_cell(img, rect);
    let height = ink.tallest as f32;
    (ink.tallest > 0)
        .then(|| ocr::read_cell(img, &ink, height, TemplateBank::default_bank(), device))
        .filter(|c| c.confidence >= MIN_SCORE)
        .map(|c| c.digit)
        .filter(|&d| d != 0)
}

/// Reads the cells of a known geometry; a covered board is refused.
pub(crate) fn read_with(
    img: &RgbaImage,
    geometry: BoardGeometry,
    device: Option<&TemplateBank>,
) -> Result<Reading, VisionError> {
    let bank = TemplateBank::default_bank();
    let inks = per_cell(|i| ocr::analyse_cell(img, geometry.cell_inner(i)));
    let height = ocr::digit_height(&inks).unwrap_or(f32::INFINITY);
    let cells = per_cell(|i| ocr::read_cell(img, &inks[i], height, bank, device));
    let cover = cover::Cover::of(&inks, &cells);
    tracing::debug!(
        crossings = cover.crossings,
        brightest = cover.brightest,
        "what covers the board"
    );
    if let Some(what) = cover.what() {
        return Err(VisionError::Covered {
            width: img.width(),
            height: img.height(),
            what,
        });
    }
    let (board, digits) = board_of(&cells);
    let empty: Vec<[u8; 3]> = cells
        .iter()
        .filter(|c| c.digit == 0)
        .map(|c| c.cell_background)
        .collect();
    let (kinds, kind_evidence) = kinds::classify(&digits, &empty);
    let doubts = doubts(&cells, &board, &kind_evidence, digits.len());
    for d in &doubts {
        tracing::debug!("OCR doubt: {}", d.message);
    }
    tracing::debug!(
        digits = digits.len(),
        doubts = doubts.len(),
        kinds = %kind_evidence,
        "board read"
    );
    Ok(Reading {
        board,
        kinds,
        kind_evidence,
        confidence: std::array::from_fn(|i| cells[i].confidence),
        cells,
        geometry,
        doubts,
    })
}

/// The board `cells` read, and the ink of each digit on it.
fn board_of(cells: &[CellRead]) -> (Board, Vec<kinds::DigitInk>) {
    let mut board = Board::empty();
    let mut digits = Vec::new();
    for (i, c) in cells.iter().enumerate() {
        board.set(i, c.digit);
        if c.digit != 0 {
            digits.push(kinds::DigitInk {
                cell: i,
                digit: c.digit,
                colour: c.ink_colour,
                weight: c.weight,
                surround: c.surround,
                background: c.cell_background,
            });
        }
    }
    (board, digits)
}

/// What a reading doubts: cells read uncertainly, a board that breaks the rules, givens told
/// from entries by nothing (`digits` of them).
fn doubts(
    cells: &[CellRead],
    board: &Board,
    evidence: &kinds::Evidence,
    digits: usize,
) -> Vec<Doubt> {
    let cells = cells.iter().enumerate();
    let mut doubts: Vec<Doubt> = cells.filter_map(|(i, c)| cell_doubt(i, c)).collect();
    if let Err(conflicts) = board.validate() {
        doubts.push(Doubt {
            cell: None,
            message: conflicts.to_string(),
        });
    }
    // Where nothing tells givens from entries, "every digit is a given" is a guess.
    if evidence.feature == kinds::Feature::None && digits >= kinds::MIN_GIVENS {
        doubts.push(Doubt {
            cell: None,
            message: format!(
                "{}; that is a guess: on a level in progress some of them are entries",
                evidence.detail
            ),
        });
    }
    doubts
}

/// The doubt about cell `i`'s reading, if any: a digit read with a low score or close to its
/// runner-up, or an empty cell holding a mark of nearly digit size.
fn cell_doubt(i: usize, c: &CellRead) -> Option<Doubt> {
    let message = match c.matched {
        Some(m) if m.score < MIN_SCORE || m.margin < MIN_MARGIN => format!(
            "{}: read {} with score {:.2}, runner-up {} at {:.2}",
            cell_name(i),
            m.digit,
            m.score,
            m.runner_up,
            m.score - m.margin
        ),
        None if c.confidence < 0.9 => format!(
            "{}: read as empty, but it holds a mark of nearly digit size (confidence {:.2})",
            cell_name(i),
            c.confidence
        ),
        _ => return None,
    };
    Some(Doubt {
        cell: Some(i),
        message,
    })
}

/// `f` of every cell, row-major: two halves of the board on two cores.
fn per_cell<T: Send>(f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let (first, second) = std::thread::scope(|scope| {
        let first = scope.spawn(|| (0..41).map(&f).collect::<Vec<_>>());
        let second: Vec<T> = (41..81).map(&f).collect();
        (first.join(), second)
    });
    let mut out = first.unwrap_or_else(|_| (0..41).map(&f).collect());
    out.extend(second);
    out
}
