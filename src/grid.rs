//! The 81 cells of a puzzle or a solution: parsing one puzzle from text, formatting it back, and the
//! checks that need no search (equal givens in a unit, a complete grid agreeing with its puzzle).
//!
//! Cells are numbered 0..81 row by row; a cell holds 0 (blank) or a digit 1..=9.

use std::fmt;

/// Number of cells in a grid.
pub const CELLS: usize = 81;

/// Characters read as a blank cell, beside `0`.
pub const BLANKS: &[u8] = b"0._-*";

/// A 9x9 sudoku grid: 0 for a blank cell, 1..=9 for a digit.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid {
    cells: [u8; CELLS],
}

/// Why a piece of text is not a puzzle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The text does not have exactly 81 cells.
    #[error("found {0} {unit}, expected 81", unit = if *.0 == 1 { "cell" } else { "cells" })]
    Length(usize),
    /// A character that is neither a digit nor a blank.
    #[error("invalid character {ch:?} at cell {} ({})", .cell + 1, cell_name(*.cell))]
    Char {
        /// 0-based cell index.
        cell: usize,
        /// The offending character.
        ch: char,
    },
}

/// A row, column or box, numbered 0..9 (boxes row by row).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Row 0..9, top to bottom.
    Row(u8),
    /// Column 0..9, left to right.
    Column(u8),
    /// Box 0..9, row by row.
    Box(u8),
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unit::Row(i) => write!(f, "row {}", i + 1),
            Unit::Column(i) => write!(f, "column {}", i + 1),
            Unit::Box(i) => write!(f, "box {}", i + 1),
        }
    }
}

/// Two equal givens in one unit: the puzzle contradicts itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Conflict {
    /// The repeated digit.
    pub digit: u8,
    /// The unit holding it twice.
    pub unit: Unit,
    /// The two cells (0-based), in reading order.
    pub cells: (usize, usize),
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "digit {} twice in {} ({} and {})",
            self.digit,
            self.unit,
            cell_name(self.cells.0),
            cell_name(self.cells.1)
        )
    }
}

/// `r{row}c{col}` name of a cell, 1-based, as sudoku players write it.
pub fn cell_name(cell: usize) -> String {
    format!("r{}c{}", cell / 9 + 1, cell % 9 + 1)
}

/// The peers of each cell (its row, column and box, itself left out), a bit per cell: shared
/// by the solver and the generator.
pub(crate) const PEERS: [u128; CELLS] = {
    let mut peers = [0u128; CELLS];
    let mut i = 0;
    while i < CELLS {
        let mut j = 0;
        while j < CELLS {
            let same_row = i / 9 == j / 9;
            let same_col = i % 9 == j % 9;
            let same_box = i / 27 == j / 27 && i % 9 / 3 == j % 9 / 3;
            if i != j && (same_row || same_col || same_box) {
                peers[i] |= 1u128 << j;
            }
            j += 1;
        }
        i += 1;
    }
    peers
};

/// The 27 units as lists of cells: rows 0..9, columns 9..18, boxes 18..27.
pub const UNITS: [[u8; 9]; 27] = {
    let mut units = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut j = 0;
        while j < 9 {
            units[i][j] = (i * 9 + j) as u8;
            units[9 + i][j] = (j * 9 + i) as u8;
            units[18 + i][j] = (((i / 3) * 3 + j / 3) * 9 + (i % 3) * 3 + j % 3) as u8;
            j += 1;
        }
        i += 1;
    }
    units
};

fn unit_of(index: usize) -> Unit {
    let i = (index % 9) as u8;
    match index / 9 {
        0 => Unit::Row(i),
        1 => Unit::Column(i),
        _ => Unit::Box(i),
    }
}

impl Grid {
    /// The empty grid.
    pub const EMPTY: Grid = Grid { cells: [0; CELLS] };

    /// A grid from cell values (0 blank, 1..=9 digits); `None` if a value is above 9.
    pub fn from_values(values: [u8; CELLS]) -> Option<Grid> {
        // A fold, not `all`: no early exit, so the test over 81 bytes vectorizes.
        values
            .iter()
            .fold(true, |ok, &v| ok & (v <= 9))
            .then_some(Grid { cells: values })
    }

    /// Parses exactly 81 cells: digits `1`..`9`, blanks as any of [`BLANKS`], nothing else.
    pub fn parse(text: &[u8]) -> Result<Grid, ParseError> {
        if let Ok(text) = <&[u8; CELLS]>::try_from(text) {
            // the hot path: a few compares a byte with no branch and no table, which the compiler
            // turns into vector code, and one test for the whole line
            let mut cells = [0u8; CELLS];
            let mut bad = false;
            for (c, &b) in cells.iter_mut().zip(text) {
                let digit = b.wrapping_sub(b'0');
                let is_digit = digit <= 9; // `0` too, a blank whose value is 0
                let is_blank = BLANKS.iter().fold(false, |any, &k| any | (b == k));
                *c = if is_digit { digit } else { 0 };
                bad |= !(is_digit | is_blank);
            }
            if !bad {
                return Ok(Grid { cells });
            }
        }
        // Not 81 valid bytes: count characters as a person sees them (an invalid UTF-8 sequence is
        // one character), and name the first bad one when there are 81.
        let text = String::from_utf8_lossy(text);
        let chars = text.chars().count();
        if chars == CELLS {
            let bad = text
                .chars()
                .enumerate()
                .find(|&(_, ch)| !ch.is_ascii() || cell_value(ch as u8).is_none());
            if let Some((cell, ch)) = bad {
                return Err(ParseError::Char { cell, ch });
            }
        }
        Err(ParseError::Length(chars))
    }

    /// The cell values, 0 for blank.
    pub fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }

    /// Number of filled cells.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// True when no cell is blank.
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The first pair of equal digits in a row, column or box (rows first, then columns, then boxes).
    pub fn conflict(&self) -> Option<Conflict> {
        for (u, unit) in UNITS.iter().enumerate() {
            let mut seen = [usize::MAX; 10];
            for &cell in unit {
                let cell = cell as usize;
                let d = self.cells[cell] as usize;
                if d == 0 {
                    continue;
                }
                if seen[d] != usize::MAX {
                    return Some(Conflict {
                        digit: d as u8,
                        unit: unit_of(u),
                        cells: (seen[d], cell),
                    });
                }
                seen[d] = cell;
            }
        }
        None
    }

    /// True when `self` is a complete, valid grid that keeps every given of `puzzle`.
    pub fn solves(&self, puzzle: &Grid) -> bool {
        self.is_complete()
            && self.conflict().is_none()
            && puzzle
                .cells
                .iter()
                .zip(&self.cells)
                .all(|(&p, &s)| p == 0 || p == s)
    }

    /// The 81 cells as ASCII digits, `blank` for blank cells.
    pub fn to_line(&self, blank: u8) -> [u8; CELLS] {
        let mut out = [0u8; CELLS];
        for (o, &v) in out.iter_mut().zip(&self.cells) {
            *o = if v == 0 { blank } else { b'0' + v };
        }
        out
    }

    /// Appends the grid as 9 lines of 9 space-separated digits (0 for blank), each ending in `\n`.
    pub fn write_rows(&self, out: &mut Vec<u8>) {
        for row in self.cells.chunks_exact(9) {
            for (j, &v) in row.iter().enumerate() {
                if j > 0 {
                    out.push(b' ');
                }
                out.push(b'0' + v);
            }
            out.push(b'\n');
        }
    }
}

/// Marks a byte that is not a cell in [`CELL_VALUE`] (all bits of a value's low nibble and more).
const NOT_A_CELL: u8 = 0xFF;

/// Cell value of each byte: 1..=9 for a digit, 0 for a blank, [`NOT_A_CELL`] for anything else.
const CELL_VALUE: [u8; 256] = {
    let mut table = [NOT_A_CELL; 256];
    let mut d = 1;
    while d <= 9 {
        table[(b'0' + d) as usize] = d;
        d += 1;
    }
    let mut i = 0;
    while i < BLANKS.len() {
        table[BLANKS[i] as usize] = 0;
        i += 1;
    }
    table
};

/// The value of a cell character: `Some(1..=9)` for a digit, `Some(0)` for a blank, else `None`.
pub fn cell_value(b: u8) -> Option<u8> {
    let v = CELL_VALUE[b as usize];
    (v != NOT_A_CELL).then_some(v)
}

/// True for a byte that continues a UTF-8 character rather than starting one.
pub fn is_continuation(b: u8) -> bool {
    (b as i8) < -0x40
}

impl fmt::Display for Grid {
    /// One line of 81 characters, `.` for blank.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let line = self.to_line(b'.');
        f.write_str(std::str::from_utf8(&line).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({self})")
    }
}

impl std::str::FromStr for Grid {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Grid, ParseError> {
        Grid::parse(s.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

    #[test]
    fn parse_takes_every_byte_as_cell_value_says() {
        for b in 0..=255u8 {
            for at in [0, 40, 80] {
                let mut line = [b'.'; CELLS];
                line[at] = b;
                let got = Grid::parse(&line).ok().map(|g| g.cells()[at]);
                assert_eq!(got, cell_value(b), "byte {b:#04x} at cell {at}");
            }
        }
    }

    #[test]
    fn parses_every_blank_character() {
        let with_zero = PUZZLE.replace('.', "0");
        let with_mixed: String = PUZZLE
            .chars()
            .enumerate()
            .map(|(i, c)| {
                if c == '.' {
                    ['_', '-', '*', '0'][i % 4]
                } else {
                    c
                }
            })
            .collect();
        let a: Grid = PUZZLE.parse().unwrap();
        assert_eq!(a, with_zero.parse().unwrap());
        assert_eq!(a, with_mixed.parse().unwrap());
        assert_eq!(a.givens(), 32);
        assert_eq!(a.to_string(), PUZZLE);
    }

    #[test]
    fn rejects_wrong_length_with_cell_count() {
        assert_eq!(
            Grid::parse(&PUZZLE.as_bytes()[..80]),
            Err(ParseError::Length(80))
        );
        let long = format!("{PUZZLE}1");
        assert_eq!(long.parse::<Grid>(), Err(ParseError::Length(82)));
        assert_eq!(
            ParseError::Length(82).to_string(),
            "found 82 cells, expected 81"
        );
        // one cell is a cell, not "1 cells"
        assert_eq!(
            "7".parse::<Grid>().unwrap_err().to_string(),
            "found 1 cell, expected 81"
        );
    }

    #[test]
    fn rejects_bad_character_naming_the_cell() {
        let mut bad = PUZZLE.to_string();
        bad.replace_range(10..11, "x");
        let err = bad.parse::<Grid>().unwrap_err();
        assert_eq!(err, ParseError::Char { cell: 10, ch: 'x' });
        assert_eq!(err.to_string(), "invalid character 'x' at cell 11 (r2c2)");
    }

    #[test]
    fn counts_characters_not_bytes() {
        let mut text = PUZZLE[..80].to_string();
        text.insert(5, 'é');
        text.pop();
        // 'é' is two bytes: 81 bytes, but a person sees 80 characters
        assert_eq!(text.len(), 81);
        assert_eq!(text.parse::<Grid>(), Err(ParseError::Length(80)));
    }

    #[test]
    fn names_the_bad_character_of_an_81_character_non_ascii_line() {
        let mut text = PUZZLE.to_string();
        text.replace_range(20..21, "é");
        assert_eq!(text.chars().count(), 81);
        assert_eq!(
            text.parse::<Grid>(),
            Err(ParseError::Char { cell: 20, ch: 'é' })
        );
    }

    #[test]
    fn table_agrees_with_the_cell_rule_for_every_byte() {
        let mut text = [b'1'; 81];
        for b in 0..=255u8 {
            text[40] = b;
            let expected = match b {
                b'1'..=b'9' => Some(b - b'0'),
                b'0' | b'.' | b'_' | b'-' | b'*' => Some(0),
                _ => None,
            };
            assert_eq!(cell_value(b), expected, "byte {b}");
            match (Grid::parse(&text), expected) {
                (Ok(g), Some(v)) => assert_eq!(g.cells()[40], v),
                (Err(ParseError::Char { cell: 40, .. }), None) => {}
                (other, _) => panic!("byte {b}: {other:?}"),
            }
        }
    }

    #[test]
    fn finds_equal_givens_in_row_column_and_box() {
        let mut row = [0u8; 81];
        row[3] = 5;
        row[7] = 5;
        let c = Grid::from_values(row).unwrap().conflict().unwrap();
        assert_eq!((c.digit, c.unit, c.cells), (5, Unit::Row(0), (3, 7)));
        assert_eq!(c.to_string(), "digit 5 twice in row 1 (r1c4 and r1c8)");

        let mut col = [0u8; 81];
        col[9 * 2 + 4] = 7;
        col[9 * 8 + 4] = 7;
        let c = Grid::from_values(col).unwrap().conflict().unwrap();
        assert_eq!((c.unit, c.cells), (Unit::Column(4), (22, 76)));

        let mut bx = [0u8; 81];
        bx[30] = 1; // r4c4
        bx[40] = 1; // r5c5
        let c = Grid::from_values(bx).unwrap().conflict().unwrap();
        assert_eq!((c.unit, c.cells), (Unit::Box(4), (30, 40)));
    }

    #[test]
    fn consistent_puzzle_has_no_conflict() {
        assert_eq!(PUZZLE.parse::<Grid>().unwrap().conflict(), None);
        assert_eq!(Grid::EMPTY.conflict(), None);
    }

    #[test]
    fn checks_a_solution_against_its_puzzle() {
        let puzzle: Grid = PUZZLE.parse().unwrap();
        let solution: Grid =
            "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
                .parse()
                .unwrap();
        assert!(solution.solves(&puzzle));
        let mut cells = *solution.cells();
        cells.swap(0, 1);
        assert!(!Grid::from_values(cells).unwrap().solves(&puzzle));
        assert!(!puzzle.solves(&puzzle));
    }

    #[test]
    fn writes_rows_with_spaces() {
        let g: Grid = PUZZLE.parse().unwrap();
        let mut out = Vec::new();
        g.write_rows(&mut out);
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), 9);
        assert_eq!(text.lines().next(), Some("0 0 3 0 2 0 6 0 0"));
    }
}
