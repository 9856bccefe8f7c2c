//! The candidate grid the rater works on: 81 cells, each a placed digit or a set of candidates
//! (a 9-bit set, bit `d` for digit `d`), and the houses (blocks, rows, columns) with the fixed
//! orders the techniques scan them in.
//!
//! Orders matter here more than anywhere else in the crate: Sudoku Explainer takes the first hint
//! its scans meet, so the rater must scan houses, cells and digits in the same orders to take the
//! same step. Houses are numbered blocks 0..9, rows 9..18, columns 18..27 (that is Explainer's
//! order of house kinds: block, row, column); inside a house, cells go in reading order, which is
//! also increasing cell number for all three kinds.

use crate::grid::{CELLS, Grid};

/// A set of digits 1..=9: bit `d` set for digit `d` (bit 0 unused).
pub type Digits = u16;

/// Every digit.
pub const ALL_DIGITS: Digits = 0b11_1111_1110;

/// A set of cells: bit `c` for cell `c` (0..81).
pub type Cells = u128;

/// The three kinds of house.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A 3x3 block.
    Block,
    /// A row.
    Row,
    /// A column.
    Column,
}

impl Kind {
    /// The house of this kind numbered `i` (0..9).
    pub const fn house(self, i: usize) -> usize {
        match self {
            Kind::Block => i,
            Kind::Row => 9 + i,
            Kind::Column => 18 + i,
        }
    }

    /// The house of this kind that holds `cell`.
    pub const fn house_of(self, cell: usize) -> usize {
        match self {
            Kind::Block => BLOCK_OF[cell] as usize,
            Kind::Row => 9 + cell / 9,
            Kind::Column => 18 + cell % 9,
        }
    }

    /// The kind of house `house`.
    pub const fn of(house: usize) -> Kind {
        match house / 9 {
            0 => Kind::Block,
            1 => Kind::Row,
            _ => Kind::Column,
        }
    }

    /// Lower-case name, as hint texts say it.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Block => "block",
            Kind::Row => "row",
            Kind::Column => "column",
        }
    }
}

/// Block of each cell.
pub const BLOCK_OF: [u8; CELLS] = {
    let mut t = [0u8; CELLS];
    let mut c = 0;
    while c < CELLS {
        t[c] = ((c / 27) * 3 + (c % 9) / 3) as u8;
        c += 1;
    }
    t
};

/// The cells of each house in index order (blocks, rows, columns).
pub const HOUSE_CELLS: [[u8; 9]; 27] = {
    let mut h = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut j = 0;
        while j < 9 {
            h[i][j] = (((i / 3) * 3 + j / 3) * 9 + (i % 3) * 3 + j % 3) as u8;
            h[9 + i][j] = (i * 9 + j) as u8;
            h[18 + i][j] = (j * 9 + i) as u8;
            j += 1;
        }
        i += 1;
    }
    h
};

/// The cells of each house as a cell set.
pub const HOUSE_SET: [Cells; 27] = {
    let mut s = [0u128; 27];
    let mut h = 0;
    while h < 27 {
        let mut j = 0;
        while j < 9 {
            s[h] |= 1u128 << HOUSE_CELLS[h][j];
            j += 1;
        }
        h += 1;
    }
    s
};

/// The three houses of each cell: block, row, column (Explainer's order of kinds).
pub const HOUSES_OF: [[u8; 3]; CELLS] = {
    let mut t = [[0u8; 3]; CELLS];
    let mut c = 0;
    while c < CELLS {
        t[c] = [BLOCK_OF[c], (9 + c / 9) as u8, (18 + c % 9) as u8];
        c += 1;
    }
    t
};

/// Position of each cell inside each of its houses' cell lists (the same for every kind with
/// the numbering above): `[in block, in row, in column]`.
pub const INDEX_IN: [[u8; 3]; CELLS] = {
    let mut t = [[0u8; 3]; CELLS];
    let mut c = 0;
    while c < CELLS {
        t[c] = [
            ((c / 9 % 3) * 3 + c % 3) as u8,
            (c % 9) as u8,
            (c / 9) as u8,
        ];
        c += 1;
    }
    t
};

/// The 20 peers of each cell in Explainer's order: the block's cells, then the row's cells
/// outside the block, then the column's (each in index order).
pub const PEERS: [[u8; 20]; CELLS] = {
    let mut t = [[0u8; 20]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let mut n = 0;
        let mut k = 0;
        while k < 3 {
            let h = HOUSES_OF[c][k] as usize;
            let mut j = 0;
            while j < 9 {
                let p = HOUSE_CELLS[h][j] as usize;
                // skip the cell itself and cells already listed (the block's, for row and column)
                let seen = p == c || (k > 0 && BLOCK_OF[p] == BLOCK_OF[c]);
                if !seen {
                    t[c][n] = p as u8;
                    n += 1;
                }
                j += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
};

/// The peers of each cell as a cell set.
pub const PEER_SET: [Cells; CELLS] = {
    let mut s = [0u128; CELLS];
    let mut c = 0;
    while c < CELLS {
        let mut j = 0;
        while j < 20 {
            s[c] |= 1u128 << PEERS[c][j];
            j += 1;
        }
        c += 1;
    }
    s
};

/// True when two distinct cells share a house.
pub fn sees(a: usize, b: usize) -> bool {
    PEER_SET[a] >> b & 1 != 0
}

/// Iterates the set bits of a 128-bit cell set, lowest first.
pub fn cells_of(mut set: Cells) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let c = set.trailing_zeros() as usize;
            set &= set - 1;
            c
        })
    })
}

/// Iterates the digits of a digit set, lowest first.
pub fn digits_of(mut set: Digits) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let d = set.trailing_zeros() as u8;
            set &= set - 1;
            d
        })
    })
}

/// The lowest digit of a non-empty set.
pub fn first_digit(set: Digits) -> u8 {
    set.trailing_zeros() as u8
}

/// The grid with its candidates: what Explainer calls a grid with potential values.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    values: [u8; CELLS],
    cands: [Digits; CELLS],
}

impl Board {
    /// The board of a puzzle: each blank cell gets every digit no given in its houses holds.
    pub fn new(puzzle: &Grid) -> Board {
        let values = *puzzle.cells();
        let mut cands = [0; CELLS];
        for (c, cand) in cands.iter_mut().enumerate() {
            if values[c] == 0 {
                let seen = PEERS[c]
                    .iter()
                    .fold(0, |m, &p| m | (1 << values[p as usize]));
                *cand = ALL_DIGITS & !seen;
            }
        }
        Board { values, cands }
    }

    /// The digit in `cell`, 0 when blank.
    #[inline]
    pub fn value(&self, cell: usize) -> u8 {
        self.values[cell]
    }

    /// The candidates of `cell` (empty for a filled cell).
    #[inline]
    pub fn cands(&self, cell: usize) -> Digits {
        self.cands[cell]
    }

    /// Number of candidates of `cell`.
    #[inline]
    pub fn count(&self, cell: usize) -> u32 {
        self.cands[cell].count_ones()
    }

    /// True when `digit` is a candidate of `cell`.
    #[inline]
    pub fn has(&self, cell: usize, digit: u8) -> bool {
        self.cands[cell] >> digit & 1 != 0
    }

    /// The values of all cells.
    pub fn values(&self) -> &[u8; CELLS] {
        &self.values
    }

    /// True when every cell holds a digit.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// Positions of `digit` in `house`: bit `j` for the house's `j`-th cell.
    #[inline]
    pub fn positions(&self, house: usize, digit: u8) -> u16 {
        let mut m = 0;
        for (j, &c) in HOUSE_CELLS[house].iter().enumerate() {
            m |= ((self.cands[c as usize] >> digit) & 1) << j;
        }
        m
    }

    /// The cells that have `digit` as a candidate, as a cell set.
    pub fn cells_with(&self, digit: u8) -> Cells {
        let mut set = 0;
        for (c, &m) in self.cands.iter().enumerate() {
            set |= ((m >> digit & 1) as u128) << c;
        }
        set
    }

    /// Number of blank cells in `house`.
    pub fn empty_count(&self, house: usize) -> u32 {
        HOUSE_CELLS[house]
            .iter()
            .filter(|&&c| self.values[c as usize] == 0)
            .count() as u32
    }

    /// How many cells hold `digit`.
    pub fn placed(&self, digit: u8) -> u32 {
        self.values.iter().filter(|&&v| v == digit).count() as u32
    }

    /// Puts `digit` in `cell` and removes it from the candidates of the cell's peers.
    pub fn place(&mut self, cell: usize, digit: u8) {
        self.values[cell] = digit;
        self.cands[cell] = 0;
        for &p in &PEERS[cell] {
            self.cands[p as usize] &= !(1 << digit);
        }
    }

    /// Removes the digits `digits` from the candidates of `cell`.
    #[inline]
    pub fn remove(&mut self, cell: usize, digits: Digits) {
        self.cands[cell] &= !digits;
    }

    /// What removing `digits` from `cells` takes: each cell with the digits of `digits` it has,
    /// cells losing nothing left out.
    pub fn losses(&self, cells: impl IntoIterator<Item = u8>, digits: Digits) -> Vec<(u8, Digits)> {
        cells
            .into_iter()
            .filter_map(|c| {
                let d = self.cands[c as usize] & digits;
                (d != 0).then_some((c, d))
            })
            .collect()
    }

    /// The puzzle the board stands for now (its placed digits).
    pub fn grid(&self) -> Grid {
        // values are 0..=9 by construction
        Grid::from_values(self.values).unwrap_or(Grid::EMPTY)
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for c in 0..CELLS {
            if c % 9 == 0 {
                writeln!(f)?;
            }
            if self.values[c] != 0 {
                write!(f, " [{}]      ", self.values[c])?;
            } else {
                let s: String = digits_of(self.cands[c])
                    .map(|d| (b'0' + d) as char)
                    .collect();
                write!(f, " {s:9}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peers_come_block_first_then_row_then_column() {
        // r1c1: its block r1-3 c1-3, then r1c4..c9, then r4c1..r9c1
        let p = PEERS[0];
        assert_eq!(&p[..8], &[1, 2, 9, 10, 11, 18, 19, 20]);
        assert_eq!(&p[8..14], &[3, 4, 5, 6, 7, 8]);
        assert_eq!(&p[14..], &[27, 36, 45, 54, 63, 72]);
        for (c, set) in PEER_SET.iter().enumerate() {
            assert_eq!(set.count_ones(), 20);
            assert_eq!(set >> c & 1, 0);
        }
    }

    #[test]
    fn houses_list_cells_in_increasing_order() {
        for (h, cells) in HOUSE_CELLS.iter().enumerate() {
            assert!(cells.windows(2).all(|w| w[0] < w[1]), "house {h}");
            for (j, &c) in cells.iter().enumerate() {
                let k = h / 9;
                assert_eq!(HOUSES_OF[c as usize][k] as usize, h);
                assert_eq!(INDEX_IN[c as usize][k] as usize, j);
            }
        }
    }

    #[test]
    fn new_board_removes_givens_from_peers() {
        let g: Grid =
            "1................................................................................"
                .parse()
                .unwrap();
        let b = Board::new(&g);
        assert_eq!(b.value(0), 1);
        assert_eq!(b.cands(0), 0);
        assert!(!b.has(1, 1) && !b.has(9, 1) && !b.has(20, 1));
        assert!(b.has(30, 1));
        assert_eq!(b.count(80), 9);
    }
}
