//! Symmetries of a puzzle's *pattern* (where its givens stand) and clue patterns: the cells a
//! symmetric puzzle gives or leaves blank together (orbits), and the 81-cell patterns of the
//! Patterns Game.
//!
//! A symmetry here is a group of the grid's geometric maps (rotations, mirrors, transpositions):
//! a puzzle has it when every map of the group sends its pattern of givens onto itself. The
//! digits play no part, as in published symmetric puzzles. Cells are sets of bits of a `u128`
//! (bit `9 * row + column`).

use std::sync::OnceLock;

use crate::grid::CELLS;

/// Every cell's bit.
pub(crate) const ALL_CELLS: u128 = (1u128 << CELLS) - 1;

/// The symmetry of a generated puzzle's pattern of givens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// No symmetry asked for.
    None,
    /// Turning the grid half a turn (180 degrees) keeps the pattern.
    Rot180,
    /// Turning it a quarter turn (90 degrees) keeps the pattern (and so do half and three
    /// quarter turns).
    Rot90,
    /// Mirroring top to bottom (about the middle row, the horizontal axis) keeps it.
    MirrorH,
    /// Mirroring left to right (about the middle column, the vertical axis) keeps it.
    MirrorV,
    /// Both mirrors keep it (and so the half turn).
    MirrorBoth,
    /// Transposing (mirroring about the diagonal from top left to bottom right) keeps it.
    Diagonal,
    /// Mirroring about the anti-diagonal (top right to bottom left) keeps it.
    Antidiagonal,
    /// Both diagonal mirrors keep it (and so the half turn).
    DiagonalBoth,
    /// All eight maps of the square: the quarter turns and the four mirrors.
    Dihedral,
    /// One of the nine symmetries above (not `None`), drawn for each try of a record (so the
    /// symmetries whose tries rarely succeed are rare among the records).
    Random,
}

impl Symmetry {
    /// The nine symmetries [`Symmetry::Random`] draws from, in a fixed order (the draw indexes it).
    pub const DRAWN: [Symmetry; 9] = {
        // every symmetry of ALL but the first (none) and the last (random)
        let mut drawn = [Symmetry::None; 9];
        let mut i = 0;
        while i < 9 {
            drawn[i] = Symmetry::ALL[i + 1];
            i += 1;
        }
        drawn
    };

    /// The name written on the command line and in the output: `none`, `rot180`, `rot90`,
    /// `mirror-h`, `mirror-v`, `mirror-both`, `diagonal`, `antidiagonal`, `diagonal-both`,
    /// `dihedral`, `random`.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rot180 => "rot180",
            Symmetry::Rot90 => "rot90",
            Symmetry::MirrorH => "mirror-h",
            Symmetry::MirrorV => "mirror-v",
            Symmetry::MirrorBoth => "mirror-both",
            Symmetry::Diagonal => "diagonal",
            Symmetry::Antidiagonal => "antidiagonal",
            Symmetry::DiagonalBoth => "diagonal-both",
            Symmetry::Dihedral => "dihedral",
            Symmetry::Random => "random",
        }
    }

    /// Every symmetry, in the order `--help` lists them: none, the nine of [`Symmetry::DRAWN`],
    /// random.
    pub const ALL: [Symmetry; 11] = [
        Symmetry::None,
        Symmetry::Rot180,
        Symmetry::Rot90,
        Symmetry::MirrorH,
        Symmetry::MirrorV,
        Symmetry::MirrorBoth,
        Symmetry::Diagonal,
        Symmetry::Antidiagonal,
        Symmetry::DiagonalBoth,
        Symmetry::Dihedral,
        Symmetry::Random,
    ];

    /// The symmetry called `name` (see [`Symmetry::name`]).
    pub fn from_name(name: &str) -> Option<Symmetry> {
        Symmetry::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The maps of the group (the identity included); `Random` has only the identity (it is
    /// resolved to a symmetry before use).
    fn maps(self) -> &'static [Map] {
        use Map::*;
        match self {
            Symmetry::None | Symmetry::Random => &[Identity],
            Symmetry::Rot180 => &[Identity, HalfTurn],
            Symmetry::Rot90 => &[Identity, QuarterTurn, HalfTurn, ThreeQuarterTurn],
            Symmetry::MirrorH => &[Identity, FlipRows],
            Symmetry::MirrorV => &[Identity, FlipColumns],
            Symmetry::MirrorBoth => &[Identity, FlipRows, FlipColumns, HalfTurn],
            Symmetry::Diagonal => &[Identity, Transpose],
            Symmetry::Antidiagonal => &[Identity, AntiTranspose],
            Symmetry::DiagonalBoth => &[Identity, Transpose, AntiTranspose, HalfTurn],
            Symmetry::Dihedral => &Map::ALL,
        }
    }

    /// True when every map of the symmetry sends the cells `mask` onto themselves.
    pub fn keeps(self, mask: u128) -> bool {
        self.maps().iter().all(|&map| map_mask(map, mask) == mask)
    }

    /// The numbers of givens a puzzle with this symmetry can have (bit `n` for `n` givens): the
    /// sums of its orbits' sizes. Under `rot90` and `dihedral` every orbit holds 4 or 8 cells
    /// but the centre, so 22 or 23 givens cannot be; every other symmetry allows any number.
    /// (`random`: those any of its draws allows; it draws again for each try.)
    pub fn given_counts(self) -> u128 {
        if self == Symmetry::Random {
            return Symmetry::DRAWN
                .iter()
                .fold(0, |any, s| any | s.given_counts());
        }
        self.orbits()
            .masks
            .iter()
            .fold(1u128, |sums, orbit| sums | sums << orbit.count_ones())
    }

    /// The cells `cells` and every cell its maps send them to: what a symmetric puzzle that
    /// keeps `cells` as givens keeps (not for `random`, which has no maps of its own).
    pub(crate) fn closure(self, cells: u128) -> u128 {
        self.orbits()
            .masks
            .iter()
            .filter(|&&orbit| orbit & cells != 0)
            .fold(cells, |all, &orbit| all | orbit)
    }

    /// The orbits of the symmetry: the sets of cells its maps send onto each other.
    pub(crate) fn orbits(self) -> &'static Orbits {
        static ALL: OnceLock<Vec<Orbits>> = OnceLock::new();
        let all = ALL.get_or_init(|| {
            let mut kinds = vec![Symmetry::None];
            kinds.extend(Symmetry::DRAWN);
            kinds.into_iter().map(Orbits::of).collect()
        });
        let index = Symmetry::DRAWN
            .iter()
            .position(|&s| s == self)
            .map_or(0, |i| i + 1);
        &all[index]
    }
}

/// A map of the grid onto itself.
#[derive(Debug, Clone, Copy)]
enum Map {
    Identity,
    QuarterTurn,
    HalfTurn,
    ThreeQuarterTurn,
    FlipRows,
    FlipColumns,
    Transpose,
    AntiTranspose,
}

impl Map {
    /// Every map: the dihedral group of the square.
    const ALL: [Map; 8] = [
        Map::Identity,
        Map::QuarterTurn,
        Map::HalfTurn,
        Map::ThreeQuarterTurn,
        Map::FlipRows,
        Map::FlipColumns,
        Map::Transpose,
        Map::AntiTranspose,
    ];
}

/// Where `map` sends the cell at row `r`, column `c`.
fn map_cell(map: Map, r: usize, c: usize) -> (usize, usize) {
    match map {
        Map::Identity => (r, c),
        Map::QuarterTurn => (c, 8 - r),
        Map::HalfTurn => (8 - r, 8 - c),
        Map::ThreeQuarterTurn => (8 - c, r),
        Map::FlipRows => (8 - r, c),
        Map::FlipColumns => (r, 8 - c),
        Map::Transpose => (c, r),
        Map::AntiTranspose => (8 - c, 8 - r),
    }
}

/// The image of the cells `mask` under `map`.
fn map_mask(map: Map, mask: u128) -> u128 {
    let mut out = 0;
    let mut bits = mask & ALL_CELLS;
    while bits != 0 {
        let cell = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let (r, c) = map_cell(map, cell / 9, cell % 9);
        out |= 1u128 << (9 * r + c);
    }
    out
}

/// The orbits of one symmetry: each a set of cells, in the order of their smallest cell.
#[derive(Debug)]
pub(crate) struct Orbits {
    /// Each orbit's cells.
    pub(crate) masks: Vec<u128>,
}

impl Orbits {
    fn of(symmetry: Symmetry) -> Orbits {
        let mut masks = Vec::new();
        let mut seen = 0u128;
        for cell in 0..CELLS {
            if seen >> cell & 1 != 0 {
                continue;
            }
            let (r, c) = (cell / 9, cell % 9);
            let orbit = symmetry.maps().iter().fold(0u128, |orbit, &map| {
                let (r, c) = map_cell(map, r, c);
                orbit | 1u128 << (9 * r + c)
            });
            seen |= orbit;
            masks.push(orbit);
        }
        Orbits { masks }
    }
}

/// A clue pattern: the cells where a puzzle's givens stand, no more and no fewer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pattern {
    mask: u128,
}

/// Characters that mark a given in a pattern.
pub const PATTERN_MARKS: &str = "123456789xX*#oO@";
/// Characters that mark a blank in a pattern.
pub const PATTERN_BLANKS: &str = ".0-_";

/// Why a text is not a clue pattern.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatternError {
    /// Not 81 cells.
    #[error("a pattern has 81 cells, this one {0}")]
    Length(usize),
    /// A character that is neither a mark nor a blank.
    #[error(
        "cell {cell} ({}) is {ch:?}: a pattern marks givens with one of {PATTERN_MARKS} and \
         blanks with one of {PATTERN_BLANKS}",
        crate::grid::cell_name(.cell - 1)
    )]
    Char {
        /// 1-based cell number.
        cell: usize,
        /// The character.
        ch: char,
    },
    /// A line of a pattern over several lines that holds no whole rows: its marks would
    /// stand on other cells than drawn (a row of 10 cells and one of 8 make 81 all the same).
    #[error(
        "line {line} holds {cells} cells: a pattern's lines hold whole rows of 9 (or all 81 on \
         one line)"
    )]
    Row {
        /// 1-based line number.
        line: usize,
        /// Its cells.
        cells: usize,
    },
    /// Fewer than 17 marks: no puzzle with fewer than 17 givens has one solution.
    #[error(
        "the pattern marks {0} cells: no puzzle with fewer than 17 givens has a single solution \
         (McGuire, Tugemann and Civario, 2012)"
    )]
    TooFew(u32),
}

impl Pattern {
    /// Reads a pattern: 81 cells, marks ([`PATTERN_MARKS`]) where a given stands and blanks
    /// ([`PATTERN_BLANKS`]) elsewhere, on one line or over several (9 rows of 9, as the
    /// Patterns Game posts them). Whitespace, `|` and box lines drawn with `-`, `+` and `=`
    /// (a line of nothing else that is not a row of 9 blanks) are passed over. Each line
    /// holds whole rows. At least 17 marks.
    pub fn parse(text: &str) -> Result<Pattern, PatternError> {
        // a UTF-8 byte-order mark, as some editors save a file (it was "cell 1 is '\u{feff}'")
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut mask = 0u128;
        let mut cells = 0usize;
        // over several lines, the first that holds no whole rows, and the lines holding cells
        let (mut broken, mut lines) = (None, 0);
        for (number, line) in text.lines().enumerate() {
            let before = cells;
            // a box line (`------+-------+------`): only drawing characters, and not a row of
            // 9 (or a pattern of 81) blanks written as `-`
            let drawn = line
                .chars()
                .all(|ch| ch.is_whitespace() || "|+-=".contains(ch));
            let marks = line.chars().filter(|&ch| ch == '-').count();
            if drawn && marks > 0 && (line.contains(['+', '=']) || (marks != 9 && marks != 81)) {
                continue;
            }
            for ch in line.chars().filter(|&ch| !ch.is_whitespace() && ch != '|') {
                if PATTERN_MARKS.contains(ch) {
                    if cells < CELLS {
                        mask |= 1u128 << cells;
                    }
                } else if !PATTERN_BLANKS.contains(ch) {
                    return Err(PatternError::Char {
                        cell: cells + 1,
                        ch,
                    });
                }
                cells += 1;
            }
            if cells > before {
                lines += 1;
                if (cells - before) % 9 != 0 && broken.is_none() {
                    broken = Some(PatternError::Row {
                        line: number + 1,
                        cells: cells - before,
                    });
                }
            }
        }
        if let Some(err) = broken.filter(|_| lines > 1) {
            return Err(err);
        }
        if cells != CELLS {
            return Err(PatternError::Length(cells));
        }
        Pattern::from_mask(mask)
    }

    /// The pattern of the cells `mask` (bit `9 * row + column`); at least 17 of them.
    pub fn from_mask(mask: u128) -> Result<Pattern, PatternError> {
        let mask = mask & ALL_CELLS;
        match mask.count_ones() {
            n if n < 17 => Err(PatternError::TooFew(n)),
            _ => Ok(Pattern { mask }),
        }
    }

    /// The marked cells (bit `9 * row + column`).
    pub fn mask(&self) -> u128 {
        self.mask
    }

    /// The number of marked cells.
    pub fn givens(&self) -> u32 {
        self.mask.count_ones()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbits_cover_every_cell_once_with_the_sizes_of_each_group() {
        for symmetry in std::iter::once(Symmetry::None).chain(Symmetry::DRAWN) {
            let orbits = symmetry.orbits();
            let mut union = 0u128;
            for &orbit in &orbits.masks {
                assert_eq!(union & orbit, 0, "{symmetry:?}: orbits overlap");
                union |= orbit;
                assert!(symmetry.keeps(orbit), "{symmetry:?}: an orbit is not kept");
            }
            assert_eq!(union, ALL_CELLS, "{symmetry:?}");
            let largest = orbits.masks.iter().map(|m| m.count_ones()).max();
            let group = symmetry.maps().len() as u32;
            assert_eq!(largest, Some(group), "{symmetry:?}");
        }
        // the centre is alone under every symmetry; a half turn pairs the other 80 cells
        assert_eq!(Symmetry::Rot180.orbits().masks.len(), 41);
        assert_eq!(Symmetry::Rot90.orbits().masks.len(), 21);
        assert_eq!(Symmetry::MirrorH.orbits().masks.len(), 45);
        assert_eq!(Symmetry::Dihedral.orbits().masks.len(), 15);
        assert_eq!(Symmetry::None.orbits().masks.len(), 81);
    }

    #[test]
    fn mirrors_and_turns_send_cells_where_their_names_say() {
        let r1c2 = 1u128 << 1;
        assert_eq!(map_mask(Map::FlipRows, r1c2), 1u128 << (9 * 8 + 1));
        assert_eq!(map_mask(Map::FlipColumns, r1c2), 1u128 << 7);
        assert_eq!(map_mask(Map::Transpose, r1c2), 1u128 << 9);
        assert_eq!(map_mask(Map::AntiTranspose, r1c2), 1u128 << (9 * 7 + 8));
        assert_eq!(map_mask(Map::HalfTurn, r1c2), 1u128 << (9 * 8 + 7));
        // a quarter turn clockwise: the top row becomes the right column
        assert_eq!(map_mask(Map::QuarterTurn, r1c2), 1u128 << (9 + 8));
    }

    #[test]
    fn reads_a_pattern_on_one_line_or_as_drawn_rows() {
        let line = "x...x...x".repeat(9);
        let p = Pattern::parse(&line).unwrap();
        assert_eq!(p.givens(), 27);
        let drawn = "x . . | . x . | . . x\n".repeat(3)
            + "------+-------+------\n"
            + &"x . . | . x . | . . x\n".repeat(6);
        assert_eq!(Pattern::parse(&drawn).unwrap(), p);
        // a file saved with a byte-order mark
        assert_eq!(Pattern::parse(&format!("\u{feff}{drawn}")).unwrap(), p);
        assert_eq!(Pattern::parse(&line[..80]), Err(PatternError::Length(80)));
        // rows of 10 and 8 cells make 81, every mark between them a cell off: refused
        let rows: Vec<&str> = drawn.lines().filter(|l| !l.contains('+')).collect();
        let uneven = format!(
            "{}{}\n{}\n{}",
            rows[0],
            &rows[1][..1],
            &rows[1][1..],
            rows[2..].join("\n")
        );
        assert_eq!(
            Pattern::parse(&uneven),
            Err(PatternError::Row { line: 1, cells: 10 })
        );
        let bad = format!("{}?{}", &line[..10], &line[11..]);
        let err = Pattern::parse(&bad).unwrap_err();
        assert_eq!(err, PatternError::Char { cell: 11, ch: '?' });
        assert!(err.to_string().contains("r2c2"), "{err}");
        assert_eq!(
            Pattern::parse(&"x".repeat(16).pad_to_81()),
            Err(PatternError::TooFew(16))
        );
    }

    trait Pad {
        fn pad_to_81(&self) -> String;
    }

    impl Pad for String {
        fn pad_to_81(&self) -> String {
            format!("{self}{}", ".".repeat(81 - self.len()))
        }
    }
}
