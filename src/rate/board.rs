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

/// The number of digits in a set, by table: the build targets the x86-64 baseline, whose
/// `count_ones` is a sequence of shifts and masks.
#[inline]
pub fn digit_count(set: Digits) -> u32 {
    const COUNTS: [u8; 1024] = {
        let mut t = [0u8; 1024];
        let mut i = 1;
        while i < 1024 {
            t[i] = t[i / 2] + (i % 2) as u8;
            i += 1;
        }
        t
    };
    COUNTS[set as usize & 1023] as u32
}

/// True when `set` holds exactly two cells.
#[inline]
pub fn two_cells(set: Cells) -> bool {
    let rest = set & set.wrapping_sub(1);
    rest != 0 && rest & rest.wrapping_sub(1) == 0
}

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

/// The cells of each digit (index 1..=9) among the candidates `cands`.
pub fn digit_cells(cands: &[Digits; CELLS]) -> [Cells; 10] {
    let mut with = [0; 10];
    for (c, &ds) in cands.iter().enumerate() {
        for d in digits_of(ds) {
            with[d as usize] |= 1 << c;
        }
    }
    with
}

/// The places of each digit (index 1..=9) in each house among the candidates `cands`: bit `j`
/// for the house's `j`-th cell.
pub fn house_positions(cands: &[Digits; CELLS]) -> [[u16; 10]; 27] {
    let mut pos = [[0; 10]; 27];
    for (c, &ds) in cands.iter().enumerate() {
        for d in digits_of(ds) {
            for k in 0..3 {
                pos[HOUSES_OF[c][k] as usize][d as usize] |= 1 << INDEX_IN[c][k];
            }
        }
    }
    pos
}

/// The grid with its candidates: what Explainer calls a grid with potential values. Besides the
/// cells it keeps, up to date at each change, what every technique asks for again and again:
/// each digit's places in each house, each digit's cells, the blank cells of each house and how
/// often each digit is placed.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    values: [u8; CELLS],
    cands: [Digits; CELLS],
    /// Places of each digit in each house: bit `j` for the house's `j`-th cell.
    pos: [[u16; 10]; 27],
    /// Cells having each digit as a candidate.
    with: [Cells; 10],
    /// Blank cells of each house.
    empty: [u8; 27],
    /// Cells holding each digit.
    placed: [u8; 10],
    /// For each house, the digits with exactly one place left in it.
    lone: [Digits; 27],
    /// Houses with a digit of one place, as bits in hidden singles' scan order: blocks 0..9,
    /// columns 9..18, rows 18..27.
    lone_houses: u32,
    /// Houses with one blank cell, bits in the same order.
    last_houses: u32,
    /// Blank cells with one candidate left.
    naked: Cells,
}

/// The bit of house `h` in the scan order of hidden singles (blocks, columns, rows).
const fn scan_bit(h: usize) -> u32 {
    match h / 9 {
        0 => 1 << h,
        1 => 1 << (h + 9), // rows after columns
        _ => 1 << (h - 9),
    }
}

/// The house of a bit of the hidden singles' scan order.
const fn scan_house(bit: u32) -> usize {
    match bit / 9 {
        0 => bit as usize,
        1 => bit as usize + 9,
        _ => bit as usize - 9,
    }
}

impl Board {
    /// The board of a puzzle: each blank cell gets every digit no given in its houses holds.
    pub fn new(puzzle: &Grid) -> Board {
        let values = *puzzle.cells();
        let mut b = Board {
            values,
            cands: [0; CELLS],
            pos: [[0; 10]; 27],
            with: [0; 10],
            empty: [0; 27],
            placed: [0; 10],
            lone: [0; 27],
            lone_houses: 0,
            last_houses: 0,
            naked: 0,
        };
        for c in 0..CELLS {
            if values[c] == 0 {
                let seen = PEERS[c]
                    .iter()
                    .fold(0, |m, &p| m | (1 << values[p as usize]));
                b.cands[c] = ALL_DIGITS & !seen;
                for &h in &HOUSES_OF[c] {
                    b.empty[h as usize] += 1;
                }
            } else {
                b.placed[values[c] as usize] += 1;
            }
        }
        b.with = digit_cells(&b.cands);
        b.pos = house_positions(&b.cands);
        for h in 0..27 {
            for d in 1..=9u8 {
                b.track(h, d);
            }
            if b.empty[h] == 1 {
                b.last_houses |= scan_bit(h);
            }
        }
        for c in 0..CELLS {
            if b.cands[c].count_ones() == 1 {
                b.naked |= 1 << c;
            }
        }
        b
    }

    /// Brings the lone-place bookkeeping of `digit` in `house` up to date.
    #[inline]
    fn track(&mut self, house: usize, digit: u8) {
        let lone = self.pos[house][digit as usize].count_ones() == 1;
        let m = &mut self.lone[house];
        *m = (*m & !(1 << digit)) | (lone as Digits) << digit;
        let bit = scan_bit(house);
        if *m != 0 {
            self.lone_houses |= bit;
        } else {
            self.lone_houses &= !bit;
        }
    }

    /// The first hidden single in Explainer's scan order: a house's last blank cell first
    /// (blocks, then columns, then rows), then any house in that order; the lowest digit of the
    /// house. Returns (house, digit, last blank cell).
    pub fn first_hidden_single(&self) -> Option<(usize, u8, bool)> {
        let last = self.lone_houses & self.last_houses;
        let (bits, alone) = if last != 0 {
            (last, true)
        } else {
            (self.lone_houses & !self.last_houses, false)
        };
        (bits != 0).then(|| {
            let house = scan_house(bits.trailing_zeros());
            (house, self.lone[house].trailing_zeros() as u8, alone)
        })
    }

    /// The blank cells with one candidate left.
    #[inline]
    pub fn naked_cells(&self) -> Cells {
        self.naked
    }

    /// Takes `digit` from the candidates of `cell`, which has it.
    #[inline]
    fn drop_candidate(&mut self, cell: usize, digit: u8) {
        self.cands[cell] &= !(1 << digit);
        self.with[digit as usize] &= !(1 << cell);
        let one = (self.cands[cell].count_ones() == 1) as u128;
        self.naked = (self.naked & !(1 << cell)) | one << cell;
        for k in 0..3 {
            let h = HOUSES_OF[cell][k] as usize;
            self.pos[h][digit as usize] &= !(1 << INDEX_IN[cell][k]);
            self.track(h, digit);
        }
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
        digit_count(self.cands[cell])
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
        self.pos[house][digit as usize]
    }

    /// The cells that have `digit` as a candidate, as a cell set.
    #[inline]
    pub fn cells_with(&self, digit: u8) -> Cells {
        self.with[digit as usize]
    }

    /// Number of blank cells in `house`.
    #[inline]
    pub fn empty_count(&self, house: usize) -> u32 {
        self.empty[house] as u32
    }

    /// How many cells hold `digit`.
    #[inline]
    pub fn placed(&self, digit: u8) -> u32 {
        self.placed[digit as usize] as u32
    }

    /// Puts `digit` in `cell` and removes it from the candidates of the cell's peers.
    pub fn place(&mut self, cell: usize, digit: u8) {
        for d in digits_of(self.cands[cell]) {
            self.drop_candidate(cell, d);
        }
        self.values[cell] = digit;
        self.placed[digit as usize] += 1;
        for &h in &HOUSES_OF[cell] {
            let h = h as usize;
            self.empty[h] -= 1;
            if self.empty[h] == 1 {
                self.last_houses |= scan_bit(h);
            } else {
                self.last_houses &= !scan_bit(h);
            }
        }
        for p in cells_of(self.with[digit as usize] & PEER_SET[cell]) {
            self.drop_candidate(p, digit);
        }
    }

    /// Removes the digits `digits` from the candidates of `cell`.
    #[inline]
    pub fn remove(&mut self, cell: usize, digits: Digits) {
        for d in digits_of(self.cands[cell] & digits) {
            self.drop_candidate(cell, d);
        }
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
