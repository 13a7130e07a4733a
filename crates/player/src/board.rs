//! The 9x9 board: parsing from text, Sudoku-rule validation, and display.
//!
//! Cells are numbered 0..81 row-major; `0` means empty. Text parsing accepts an 81-char line
//! (`.` or `0` for empty) or a 9-line grid with spaces, `|`, `-`, `+` (and `=`) as separators.

use std::fmt;

/// Number of cells on the board.
pub const CELLS: usize = 81;

/// Row of a cell index (0-based).
#[inline(always)]
pub const fn row_of(cell: usize) -> usize {
    cell / 9
}

/// Column of a cell index (0-based).
#[inline(always)]
pub const fn col_of(cell: usize) -> usize {
    cell % 9
}

/// 3x3 box of a cell index (0-based, row-major over boxes).
#[inline(always)]
pub const fn box_of(cell: usize) -> usize {
    (cell / 27) * 3 + (cell % 9) / 3
}

/// Whether cells `a` and `b` share a row, a column or a box (a cell is its own peer).
pub const fn are_peers(a: usize, b: usize) -> bool {
    row_of(a) == row_of(b) || col_of(a) == col_of(b) || box_of(a) == box_of(b)
}

/// Human name of a cell, 1-based: `r3c8`.
pub fn cell_name(cell: usize) -> String {
    format!("r{}c{}", row_of(cell) + 1, col_of(cell) + 1)
}

/// A Sudoku board: 81 cells, each 0 (empty) or a digit 1..=9.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [u8; CELLS],
}

impl Default for Board {
    fn default() -> Self {
        Board { cells: [0; CELLS] }
    }
}

/// Why a text could not be parsed as a board. Positions are 1-based.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error(
        "line {line}, column {column}: unexpected character {ch:?} (expected 1-9, '.' or '0' for an empty cell)"
    )]
    BadChar {
        line: usize,
        column: usize,
        ch: char,
    },
    #[error("line {line}: expected 9 cells in a grid row, found {found}")]
    RowLength { line: usize, found: usize },
    #[error("expected 81 cells, found {found}")]
    CellCount { found: usize },
    #[error("expected 9 grid rows, found {found}")]
    RowCount { found: usize },
    #[error("empty input: expected an 81-character puzzle or a 9-line grid")]
    Empty,
}

/// One Sudoku-rule violation among the filled cells: a digit repeated in a unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    pub unit: Unit,
    pub digit: u8,
    /// The cells holding `digit` in `unit`, ascending (at least two).
    pub cells: Vec<usize>,
}

/// A row, column or box, 0-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Row(usize),
    Col(usize),
    Box(usize),
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Unit::Row(r) => write!(f, "row {}", r + 1),
            Unit::Col(c) => write!(f, "column {}", c + 1),
            Unit::Box(b) => {
                const NAMES: [&str; 9] = [
                    "top-left",
                    "top",
                    "top-right",
                    "left",
                    "centre",
                    "right",
                    "bottom-left",
                    "bottom",
                    "bottom-right",
                ];
                write!(f, "box {} ({})", b + 1, NAMES[b])
            }
        }
    }
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const COUNT: [&str; 10] = [
            "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
        ];
        let names: Vec<String> = self.cells.iter().map(|&c| cell_name(c)).collect();
        let list = match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => names.join(""),
        };
        write!(
            f,
            "{} has {} {}s: {}",
            self.unit,
            COUNT[self.cells.len().min(9)],
            self.digit,
            list
        )
    }
}

/// Every rule violation of a board, in row, column, box order.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct Conflicts(pub Vec<Conflict>);

impl fmt::Display for Conflicts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.len();
        write!(
            f,
            "the board breaks the Sudoku rules ({n} conflict{}): ",
            if n == 1 { "" } else { "s" }
        )?;
        // A few say what is wrong; a board with many (a misread screen) would fill the screen.
        for (i, c) in self.0.iter().take(SHOWN_CONFLICTS).enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{c}")?;
        }
        match n.saturating_sub(SHOWN_CONFLICTS) {
            0 => Ok(()),
            more => write!(f, "; and {more} more"),
        }
    }
}

/// How many conflicts a [`Conflicts`] message names.
const SHOWN_CONFLICTS: usize = 4;

impl Board {
    /// An empty board.
    pub fn empty() -> Self {
        Self::default()
    }

    /// Builds a board from 81 values, each 0..=9. Returns `None` if a value is out of range.
    pub fn from_cells(cells: [u8; CELLS]) -> Option<Self> {
        cells.iter().all(|&v| v <= 9).then_some(Board { cells })
    }

    /// Parses an 81-character line or a 9-line grid (see the module docs).
    pub fn parse(text: &str) -> Result<Self, ParseError> {
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        match lines.len() {
            0 => Err(ParseError::Empty),
            1 => Self::parse_line(lines[0].trim()),
            _ => Self::parse_grid(text),
        }
    }

    /// Parses exactly one 81-character line: `1`-`9`, `.` or `0`.
    pub fn parse_line(line: &str) -> Result<Self, ParseError> {
        let mut cells = [0u8; CELLS];
        let mut n = 0;
        for (i, ch) in line.chars().enumerate() {
            let v = cell_value(ch).ok_or(ParseError::BadChar {
                line: 1,
                column: i + 1,
                ch,
            })?;
            if n < CELLS {
                cells[n] = v;
            }
            n += 1;
        }
        if n != CELLS {
            return Err(ParseError::CellCount { found: n });
        }
        Ok(Board { cells })
    }

    /// Parses a 9-row grid; separator lines (only `-`, `+`, `|`, `=`, spaces) are skipped.
    pub fn parse_grid(text: &str) -> Result<Self, ParseError> {
        let mut cells = [0u8; CELLS];
        let mut rows = 0;
        for (lineno, line) in text.lines().enumerate() {
            let is_sep = line
                .chars()
                .all(|c| matches!(c, '-' | '+' | '|' | '=' | ' ' | '\t'));
            if is_sep {
                continue;
            }
            let mut row = Vec::with_capacity(9);
            for (col, ch) in line.chars().enumerate() {
                if matches!(ch, ' ' | '\t' | '|' | '+' | '-' | '=') {
                    continue;
                }
                let v = cell_value(ch).ok_or(ParseError::BadChar {
                    line: lineno + 1,
                    column: col + 1,
                    ch,
                })?;
                row.push(v);
            }
            if row.len() != 9 {
                return Err(ParseError::RowLength {
                    line: lineno + 1,
                    found: row.len(),
                });
            }
            if rows < 9 {
                cells[rows * 9..rows * 9 + 9].copy_from_slice(&row);
            }
            rows += 1;
        }
        if rows != 9 {
            return Err(ParseError::RowCount { found: rows });
        }
        Ok(Board { cells })
    }

    /// The value of a cell: 0 for empty, else 1..=9.
    #[inline(always)]
    pub fn get(&self, cell: usize) -> u8 {
        self.cells[cell]
    }

    /// Sets a cell (0 clears it). Panics if `digit > 9` or `cell >= 81`.
    #[inline(always)]
    pub fn set(&mut self, cell: usize, digit: u8) {
        assert!(digit <= 9, "digit out of range: {digit}");
        self.cells[cell] = digit;
    }

    /// All 81 values.
    pub fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }

    /// Number of filled cells.
    pub fn filled(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// True if every cell is filled and no rule is broken.
    pub fn is_solved(&self) -> bool {
        self.filled() == CELLS && self.conflicts().is_empty()
    }

    /// True if `self` is completely filled and agrees with every given of `puzzle`.
    pub fn extends(&self, puzzle: &Board) -> bool {
        self.cells
            .iter()
            .zip(puzzle.cells.iter())
            .all(|(&s, &p)| p == 0 || s == p)
    }

    /// Every repeated digit in a row, column or box.
    pub fn conflicts(&self) -> Vec<Conflict> {
        let mut out = Vec::new();
        let units = (0..9)
            .map(Unit::Row)
            .chain((0..9).map(Unit::Col))
            .chain((0..9).map(Unit::Box));
        for unit in units {
            let cells = unit_cells(unit);
            for digit in 1..=9u8 {
                let with: Vec<usize> = cells
                    .iter()
                    .copied()
                    .filter(|&c| self.cells[c] == digit)
                    .collect();
                if with.len() > 1 {
                    out.push(Conflict {
                        unit,
                        digit,
                        cells: with,
                    });
                }
            }
        }
        out
    }

    /// `Ok` if no rule is broken, else every conflict.
    pub fn validate(&self) -> Result<(), Conflicts> {
        let c = self.conflicts();
        if c.is_empty() {
            Ok(())
        } else {
            Err(Conflicts(c))
        }
    }

    /// The 81-character line form, `.` for empty.
    pub fn to_line(&self) -> String {
        self.cells
            .iter()
            .map(|&v| if v == 0 { '.' } else { (b'0' + v) as char })
            .collect()
    }
}

/// The 9 cells of a unit, ascending.
pub(crate) fn unit_cells(unit: Unit) -> [usize; 9] {
    let mut out = [0; 9];
    for (i, slot) in out.iter_mut().enumerate() {
        *slot = match unit {
            Unit::Row(r) => r * 9 + i,
            Unit::Col(c) => i * 9 + c,
            Unit::Box(b) => (b / 3) * 27 + (b % 3) * 3 + (i / 3) * 9 + i % 3,
        };
    }
    out
}

fn cell_value(ch: char) -> Option<u8> {
    match ch {
        '.' | '0' => Some(0),
        '1'..='9' => Some(ch as u8 - b'0'),
        _ => None,
    }
}

impl std::str::FromStr for Board {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        Board::parse(s)
    }
}

/// The compact grid form (`{}`); `{:#}` gives the 81-char line.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            return f.write_str(&self.to_line());
        }
        for r in 0..9 {
            if r == 3 || r == 6 {
                writeln!(f, "------+-------+------")?;
            }
            let mut line = String::with_capacity(21);
            for c in 0..9 {
                if c == 3 || c == 6 {
                    line.push_str("| ");
                }
                let v = self.cells[r * 9 + c];
                line.push(if v == 0 { '.' } else { (b'0' + v) as char });
                line.push(' ');
            }
            writeln!(f, "{}", line.trim_end())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.to_line())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEET: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    #[test]
    fn line_round_trip_and_zero_as_empty() {
        let b = Board::parse(LEET).unwrap();
        assert_eq!(b.to_line(), LEET);
        assert_eq!(b.filled(), 30);
        let zeros = LEET.replace('.', "0");
        assert_eq!(Board::parse(&zeros).unwrap(), b);
        assert_eq!(format!("{b:#}"), LEET);
    }

    #[test]
    fn grid_display_parses_back() {
        let b = Board::parse(LEET).unwrap();
        let grid = b.to_string();
        assert_eq!(grid.lines().count(), 11);
        assert!(grid.starts_with("5 3 . | . 7 . | . . .\n"));
        assert_eq!(Board::parse(&grid).unwrap(), b);
    }

    #[test]
    fn grid_with_plus_and_pipes() {
        let text = "+-------+-------+-------+\n\
                    | 5 3 0 | 0 7 0 | 0 0 0 |\n| 6 0 0 | 1 9 5 | 0 0 0 |\n| 0 9 8 | 0 0 0 | 0 6 0 |\n\
                    +-------+-------+-------+\n\
                    | 8 0 0 | 0 6 0 | 0 0 3 |\n| 4 0 0 | 8 0 3 | 0 0 1 |\n| 7 0 0 | 0 2 0 | 0 0 6 |\n\
                    +-------+-------+-------+\n\
                    | 0 6 0 | 0 0 0 | 2 8 0 |\n| 0 0 0 | 4 1 9 | 0 0 5 |\n| 0 0 0 | 0 8 0 | 0 7 9 |\n\
                    +-------+-------+-------+\n";
        assert_eq!(Board::parse(text).unwrap().to_line(), LEET);
    }

    #[test]
    fn bad_char_names_line_and_column() {
        let mut s = LEET.to_string();
        s.replace_range(4..5, "x");
        let e = Board::parse(&s).unwrap_err();
        assert_eq!(
            e,
            ParseError::BadChar {
                line: 1,
                column: 5,
                ch: 'x'
            }
        );
        assert!(e.to_string().contains("line 1, column 5"), "{e}");
        let grid = Board::parse(LEET)
            .unwrap()
            .to_string()
            .replace("4 . .", "4 ? .");
        let e = Board::parse(&grid).unwrap_err();
        assert_eq!(
            e,
            ParseError::BadChar {
                line: 6,
                column: 3,
                ch: '?'
            }
        );
    }

    #[test]
    fn wrong_sizes() {
        assert_eq!(
            Board::parse(&LEET[..80]).unwrap_err(),
            ParseError::CellCount { found: 80 }
        );
        assert_eq!(Board::parse("").unwrap_err(), ParseError::Empty);
        assert_eq!(
            Board::parse("123456789\n123456789").unwrap_err(),
            ParseError::RowCount { found: 2 }
        );
        assert_eq!(
            Board::parse("12345678\n123456789").unwrap_err(),
            ParseError::RowLength { line: 1, found: 8 }
        );
    }

    #[test]
    fn conflicts_are_reported_precisely() {
        // row 3 gets a second 7 at r3c8 (r3c2 already... set both).
        let mut b = Board::empty();
        b.set(18 + 1, 7);
        b.set(18 + 7, 7);
        let c = b.conflicts();
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].to_string(), "row 3 has two 7s: r3c2 and r3c8");
        b.set(0, 7); // r1c1: same box as r3c2, and nothing else
        b.set(18 + 4, 7);
        let all: Vec<String> = b.conflicts().iter().map(|c| c.to_string()).collect();
        assert_eq!(
            all,
            vec![
                "row 3 has three 7s: r3c2, r3c5 and r3c8",
                "box 1 (top-left) has two 7s: r1c1 and r3c2",
            ]
        );
        let err = b.validate().unwrap_err().to_string();
        assert!(err.contains("2 conflicts"), "{err}");
        let mut col = Board::empty();
        col.set(4, 9);
        col.set(76, 9);
        assert_eq!(
            col.conflicts()[0].to_string(),
            "column 5 has two 9s: r1c5 and r9c5"
        );
    }

    #[test]
    fn a_board_with_many_conflicts_names_a_few_and_counts_the_rest() {
        let ones = Board::parse(&"1".repeat(81)).unwrap();
        let err = ones.validate().unwrap_err().to_string();
        assert!(
            err.starts_with("the board breaks the Sudoku rules (27 conflicts): row 1 has nine 1s")
        );
        assert!(err.ends_with("; and 23 more"), "{err}");
        assert_eq!(err.matches(" has nine 1s").count(), SHOWN_CONFLICTS);
    }

    #[test]
    fn units_and_indices() {
        assert_eq!(
            unit_cells(Unit::Box(4)),
            [30, 31, 32, 39, 40, 41, 48, 49, 50]
        );
        assert_eq!(box_of(80), 8);
        assert_eq!(box_of(30), 4);
        assert_eq!(cell_name(80), "r9c9");
    }
}
