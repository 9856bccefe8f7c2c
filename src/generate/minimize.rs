//! Carving a puzzle out of a solution grid: givens removed in a random order as long as the
//! puzzle keeps one solution, which leaves it minimal; and the checks of uniqueness and
//! minimality that the other parts of the generator share.
//!
//! # Why it is fast
//!
//! Removing the givens one at a time in a random order, each kept when the puzzle without it has
//! a second solution, takes 81 searches a puzzle. These cut that to about 28 (measured with
//! callgrind when they were written; the figures were not logged), none of them changing the
//! result:
//!
//! - **Runs of removals checked at once.** Uniqueness only gets harder to keep as givens go
//!   (a puzzle with fewer givens has every solution of one with more), so when the puzzle without
//!   the next `k` givens of the order still has one solution, removing them one by one would have
//!   kept it unique at every step: all `k` go after one search. When it does not, a shorter run
//!   is tried, down to one given. From a full grid the first 20-odd removals nearly always pass,
//!   so a few searches do their work; below [`SINGLES_BELOW`] givens, where most would fail,
//!   givens are tried one at a time. The result is exactly that of one given at a time.
//! - **Known unavoidable sets.** When the puzzle without some givens has a second solution `T`,
//!   the cells where `T` differs from the grid `S` form an *unavoidable set*: every puzzle of
//!   `S` with no given in it is solved by `T` as well. The small ones made of two digits,
//!   those of two rows of a band or two columns of a stack, and those of three cells of two
//!   rows in one stack (or columns in one band), are found on the grid at the start
//!   ([`Carver::learn_pair_sets`], [`Carver::learn_line_sets`]), and those found along the way
//!   are kept (the last [`KNOWN`]). A given that is the last one left of a known set is
//!   *necessary* (a bit mask, kept up to date), and a removal that would empty a set is refused
//!   with no search. The set also says which given of a failed run was the last one needed to
//!   empty it, so the shorter run to try next stops before it.
//! - **Singles.** A given whose cell, without it, is a naked or hidden single of the givens
//!   left comes back by itself: the puzzle stays unique, with no search.
//! - **Asking the right question.** Whether the puzzle stays unique without one given at `c` is
//!   whether it has a solution with another digit than `S[c]` there: one search with that digit
//!   ruled out, which need not find `S` first ([`crate::solver::solve_other`]); without a run
//!   of givens, whether it has a solution other than `S`.
//!
//! All state is on the stack; nothing is allocated per puzzle.

use crate::grid::{CELLS, Grid};
use crate::solver;

use super::grids::PEERS;
use super::symmetry::ALL_CELLS;

/// The cells of each row, column and box of each cell: its three units.
const UNITS_OF: [[u128; 3]; CELLS] = {
    let mut units = [[0u128; 3]; CELLS];
    let mut i = 0;
    while i < CELLS {
        let mut j = 0;
        while j < CELLS {
            let bit = 1u128 << j;
            if i / 9 == j / 9 {
                units[i][0] |= bit;
            }
            if i % 9 == j % 9 {
                units[i][1] |= bit;
            }
            if i / 27 == j / 27 && i % 9 / 3 == j % 9 / 3 {
                units[i][2] |= bit;
            }
            j += 1;
        }
        i += 1;
    }
    units
};

/// Unavoidable sets kept (the most recently found replace the oldest): at most 64, a bit each
/// in [`Carver::sets_at`].
pub(crate) const KNOWN: usize = 64;

/// The largest two-digit unavoidable set noted at the start (see [`Carver::learn_pair_sets`]).
/// Measured (instructions a puzzle, 400 puzzles of seed 1): one at a time below 35 givens, 4
/// cells 417k, 8 385k, 12 386k, 18 (all of them) 403k; below 60 givens, 8 374k, 12 375k;
/// again with sets looked up by cell, 8 318k, 12 320k, 18 330k.
const LARGEST_PAIR_SET: u32 = 8;

/// The most digits of a cycle between two lines noted at the start (see
/// [`Carver::learn_line_sets`]). Measured (instructions a puzzle, 400 puzzles of seed 1): no
/// such sets 360k, 3 digits 350k, 4 347k, 6 348k.
const LONGEST_CYCLE: usize = 4;

/// Units the first run of removals takes.
const FIRST_RUN: usize = 16;

/// Units a run takes at most.
const LONGEST_RUN: usize = 32;

/// Givens below which units are tried one at a time. Measured (instructions a puzzle,
/// callgrind, 300 puzzles): runs all the way down 398k, one at a time below 40 givens 364k, below
/// 35 365k, below 45 368k. Measured again once a single removal often cost no search (singles,
/// necessary givens; 400 puzzles of seed 1, with a pair set at most 12 cells): below 35 386k,
/// 40 379k, 45 377k, 50 377k, 55 376k, 60 375k, 70 394k, always 405k; seed 2: 35 387k, 60 376k.
/// Once removals got cheaper (known sets looked up by cell): 50 320k, 60 318k, 70 324k.
const SINGLES_BELOW: u32 = 60;

/// The cells where `a` and `b` differ, 8 cells at a time: a byte of `a ^ b` is not 0 exactly
/// when adding 0x7f to it sets its top bit (cells are 0..=9, so no carry crosses bytes), and a
/// multiply gathers the eight top bits into one byte.
fn differing(a: &[u8; CELLS], b: &[u8; CELLS]) -> u128 {
    let mut set = 0u128;
    for (k, (a, b)) in a.chunks_exact(8).zip(b.chunks_exact(8)).enumerate() {
        let word = |c: &[u8]| c.try_into().map_or(0, u64::from_le_bytes);
        let x = word(a) ^ word(b);
        let top = (x + 0x7f7f_7f7f_7f7f_7f7f) & 0x8080_8080_8080_8080;
        let bits = (top >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
        set |= u128::from(bits) << (8 * k);
    }
    set | u128::from(a[80] != b[80]) << 80
}

/// True when `cells` holds exactly one cell (a test for the lowest bit, not a count: the
/// baseline build counts a `u128`'s bits in some thirty instructions).
#[inline(always)]
fn one_cell(cells: u128) -> bool {
    cells != 0 && cells & (cells - 1) == 0
}

/// The cells that see one of `cells`.
#[inline]
fn peers_of(mut cells: u128) -> u128 {
    let mut seen = 0;
    while cells != 0 {
        seen |= PEERS[cells.trailing_zeros() as usize];
        cells &= cells - 1;
    }
    seen
}

/// A solution grid, the puzzle being carved out of it, and what was learnt about the grid.
pub(crate) struct Carver {
    /// The grid, and its cells.
    grid: Grid,
    solution: [u8; CELLS],
    /// The current puzzle: the solution's digits at `givens`, 0 elsewhere.
    cells: [u8; CELLS],
    givens: u128,
    /// Unavoidable sets of the grid, the first `known_len`.
    known: [u128; KNOWN],
    known_len: usize,
    /// Per cell, the sets of `known` that hold it (bit per place in `known`): a removal looks
    /// at those alone for a given left last.
    sets_at: [u64; CELLS],
    /// Where the next set found goes once `known` is full.
    known_next: usize,
    /// Givens that are the last given of some unavoidable set noted: none of them can go.
    /// (Sets stay unavoidable when the ring forgets them, so a cell stays here until the
    /// givens are set anew.)
    necessary: u128,
    /// Per digit (index 1..=9), the cells of the grid that hold it.
    digit_cells: [u128; 10],
    /// Per digit (index 0 for 1), the cells that see one of its givens: with `digit_cells`,
    /// the candidates a uniqueness check starts from, kept up to date as givens go.
    seen: [u128; 9],
    /// Givens that stay whatever else goes: found needed by the carving, or [`Carver::necessary`].
    kept: u128,
    /// Searches run (for the benchmarks and tests).
    pub(crate) searches: u64,
}

impl Carver {
    /// The full grid `solution` as the puzzle, nothing known yet.
    pub(crate) fn new(solution: &Grid) -> Carver {
        Carver {
            grid: *solution,
            solution: *solution.cells(),
            cells: *solution.cells(),
            givens: ALL_CELLS,
            known: [0; KNOWN],
            known_len: 0,
            sets_at: [0; CELLS],
            known_next: 0,
            necessary: 0,
            digit_cells: {
                let mut cells = [0u128; 10];
                for (i, &d) in solution.cells().iter().enumerate() {
                    cells[usize::from(d) % 10] |= 1u128 << i;
                }
                cells
            },
            seen: [0; 9],
            kept: 0,
            searches: 0,
        }
        .with_seen()
    }

    /// Sets [`Carver::seen`] for the current givens.
    fn with_seen(mut self) -> Carver {
        self.refresh_seen(0x3fe);
        self
    }

    /// Sets [`Carver::seen`] anew for the digits `digits` (bit per digit, 1..=9).
    fn refresh_seen(&mut self, digits: u16) {
        for (d, seen) in self.seen.iter_mut().enumerate() {
            if digits >> (d + 1) & 1 != 0 {
                *seen = peers_of(self.digit_cells[d + 1] & self.givens);
            }
        }
    }

    /// The digits (bit per digit, 1..=9) of the grid's cells `cells`.
    fn digits_of(&self, mut cells: u128) -> u16 {
        let mut digits = 0u16;
        while cells != 0 {
            digits |= 1 << (self.solution[cells.trailing_zeros() as usize] & 15);
            cells &= cells - 1;
        }
        digits
    }

    /// True when, without its given, the cell `cell` is a single of the givens left (no
    /// other digit fits there, or its digit fits nowhere else in one of its units), so that the
    /// puzzle without it stays unique: the givens force it back. No search needed.
    #[inline]
    fn forced(&self, cell: usize) -> bool {
        let others = self.givens & !(1u128 << cell);
        let digit = self.solution[cell];
        // naked: its peers' givens hold the other eight digits, that is, the cell sees a
        // given of each (`seen`: the cell's own given is none of theirs)
        let mut seen = 1u16 << digit;
        for (d, cells) in self.seen.iter().enumerate() {
            seen |= ((cells >> cell) as u16 & 1) << (d + 1);
        }
        if seen == 0b11_1111_1110 {
            return true;
        }
        // hidden: in one of its units, every other open cell sees the digit among the givens
        let mut blocked = 0u128;
        let mut holding = self.digit_cells[usize::from(digit)] & others;
        while holding != 0 {
            blocked |= PEERS[holding.trailing_zeros() as usize];
            holding &= holding - 1;
        }
        let open = !others & !(1u128 << cell) & !blocked;
        UNITS_OF[cell].iter().any(|&unit| unit & open == 0)
    }

    /// The grid the puzzle is carved from.
    pub(crate) fn solution(&self) -> Grid {
        self.grid
    }

    /// The current puzzle.
    pub(crate) fn puzzle(&self) -> Grid {
        Grid::from_values(self.cells).unwrap_or(Grid::EMPTY)
    }

    /// The current givens (bit per cell).
    pub(crate) fn givens(&self) -> u128 {
        self.givens
    }

    /// Makes the puzzle the solution's digits at `givens`.
    pub(crate) fn set_givens(&mut self, givens: u128) {
        self.givens = givens & ALL_CELLS;
        for (i, (cell, &digit)) in self.cells.iter_mut().zip(&self.solution).enumerate() {
            *cell = if self.givens >> i & 1 != 0 { digit } else { 0 };
        }
        self.necessary = 0;
        self.kept = 0;
        self.refresh_seen(0x3fe);
        self.refresh_necessary(ALL_CELLS);
    }

    /// Notes in [`Carver::necessary`] the last givens of the sets noted that meet `changed`.
    fn refresh_necessary(&mut self, changed: u128) {
        let mut places = match changed {
            ALL_CELLS => u64::MAX
                .checked_shr((KNOWN - self.known_len) as u32)
                .unwrap_or(0),
            _ => {
                let mut places = 0;
                let mut bits = changed;
                while bits != 0 {
                    places |= self.sets_at[bits.trailing_zeros() as usize];
                    bits &= bits - 1;
                }
                places
            }
        };
        while places != 0 {
            let left = self.known[places.trailing_zeros() as usize % KNOWN] & self.givens;
            places &= places - 1;
            if one_cell(left) {
                self.necessary |= left;
            }
        }
    }

    /// Notes `set` at place `place` of [`Carver::known`], in place of the one there.
    fn place_set(&mut self, place: usize, set: u128) {
        let bit = 1u64 << place;
        let mut old = std::mem::replace(&mut self.known[place], set);
        while old != 0 {
            self.sets_at[old.trailing_zeros() as usize] &= !bit;
            old &= old - 1;
        }
        let mut new = set;
        while new != 0 {
            self.sets_at[new.trailing_zeros() as usize] |= bit;
            new &= new - 1;
        }
    }

    /// Removes the givens `cells` from the puzzle.
    fn remove(&mut self, cells: u128) {
        self.givens &= !cells;
        let mut bits = cells;
        while bits != 0 {
            self.cells[bits.trailing_zeros() as usize] = 0;
            bits &= bits - 1;
        }
        self.refresh_seen(self.digits_of(cells));
        self.refresh_necessary(cells);
    }

    /// Notes the small unavoidable sets made of two digits (see the module documentation):
    /// for each pair of digits `a`, `b`, the smallest sets of their cells whose digits can be
    /// swapped with the grid staying valid. Each row holds one `a` and one `b`, so such a set
    /// is whole rows' pairs of cells; swapping `a` to `b` in a row's cell forces the swap in
    /// the row that holds `b` in that column, and so on round a cycle of rows. A cycle is a set
    /// when it also leaves every box whole: the boxes of its `a` cells are those of its `b`
    /// cells (4 cells: the rectangles over two boxes). Sets of more than
    /// [`LARGEST_PAIR_SET`] cells are left out: they are seldom emptied before other sets are;
    /// so are the rarer sets that join two cycles, neither of which leaves its boxes whole.
    ///
    /// Cycles rather than closing a set over rows, columns and boxes: the same sets (but those
    /// joined cycles) for a quarter of the instructions (32k a grid before).
    pub(crate) fn learn_pair_sets(&mut self) {
        // per digit and row: the column it stands in, and the box; per digit and column, the row
        let mut col_in_row = [[0u8; 9]; 10];
        let mut box_in_row = [[0u8; 9]; 10];
        let mut row_in_col = [[0u8; 9]; 10];
        for (cell, &d) in self.solution.iter().enumerate() {
            let (d, r, c) = (usize::from(d) % 10, cell / 9, cell % 9);
            col_in_row[d][r] = c as u8;
            box_in_row[d][r] = (r / 3 * 3 + c / 3) as u8;
            row_in_col[d][c] = r as u8;
        }
        for a in 1..10usize {
            for b in a + 1..10 {
                // per row, the row whose `b` stands in its `a` column (nine independent look-ups,
                // so the walks below take one load a step, not two in a chain)
                let next: [u8; 9] =
                    std::array::from_fn(|r| row_in_col[b][usize::from(col_in_row[a][r]) % 9]);
                let mut left: u16 = 0x1ff;
                while left != 0 {
                    let first = left.trailing_zeros() as usize;
                    let (mut r, mut rows, mut len) = (first, 0u16, 0);
                    let (mut boxes_a, mut boxes_b) = (0u16, 0u16);
                    loop {
                        rows |= 1 << r;
                        len += 1;
                        boxes_a |= 1 << box_in_row[a][r];
                        boxes_b |= 1 << box_in_row[b][r];
                        r = usize::from(next[r]) % 9;
                        if rows >> r & 1 != 0 {
                            break;
                        }
                    }
                    left &= !rows;
                    if boxes_a == boxes_b && 2 * len <= LARGEST_PAIR_SET {
                        let mut set = 0u128;
                        let mut todo = rows;
                        while todo != 0 {
                            let r = todo.trailing_zeros() as usize;
                            todo &= todo - 1;
                            set |= 1u128 << (9 * r + usize::from(col_in_row[a][r]))
                                | 1u128 << (9 * r + usize::from(col_in_row[b][r]));
                        }
                        self.learn_set(set);
                    }
                }
            }
        }
    }

    /// Notes the unavoidable sets that two rows of a band, or two columns of a stack, make
    /// with three digits or more: where row `a` holds digit `x`, row `b` holds some `y`; where
    /// `a` holds `y`, `b` holds some `z`, and so on back to `x` (a cycle of the map from `a`'s
    /// digits to `b`'s). Swapping the two rows' digits along a cycle leaves each row with its
    /// digits, and each column and box (the two cells of a place share them) with theirs: a
    /// second grid, so the cycle's cells are an unavoidable set. Cycles of two digits are the
    /// rectangles [`Carver::learn_pair_sets`] finds; longer than [`LONGEST_CYCLE`] are left out.
    ///
    /// Also the sets of two rows of different bands whose cells in one stack hold the same
    /// three digits (or two columns of different stacks, in one band): swapping those three
    /// pairs of cells leaves the rows, the columns and the two boxes each with their digits.
    pub(crate) fn learn_line_sets(&mut self) {
        for band in 0..3 {
            for (i, j) in [(0, 1), (0, 2), (1, 2)] {
                let (a, b) = (3 * band + i, 3 * band + j);
                self.learn_cycles(|k| 9 * a + k, |k| 9 * b + k);
                self.learn_cycles(|k| 9 * k + a, |k| 9 * k + b);
            }
        }
        // the digits of each row's cells in each stack, and of each column's in each band
        let mut in_row = [[0u16; 3]; 9];
        let mut in_col = [[0u16; 3]; 9];
        for (cell, &d) in self.solution.iter().enumerate() {
            let (r, c) = (cell / 9, cell % 9);
            in_row[r][c / 3] |= 1 << d;
            in_col[c][r / 3] |= 1 << d;
        }
        // three cells of a row in a stack, and of a column in a band
        const ROW3: u128 = 0b111;
        const COL3: u128 = 1 | 1 << 9 | 1 << 18;
        for a in 0..9 {
            for b in (a / 3 + 1) * 3..9 {
                for part in 0..3 {
                    if in_row[a][part] == in_row[b][part] {
                        self.learn_set((ROW3 << (9 * a) | ROW3 << (9 * b)) << (3 * part));
                    }
                    if in_col[a][part] == in_col[b][part] {
                        self.learn_set((COL3 << a | COL3 << b) << (27 * part));
                    }
                }
            }
        }
    }

    /// The cycles (see [`Carver::learn_line_sets`]) between the lines whose `k`-th cells are
    /// `a(k)` and `b(k)`.
    #[inline(always)]
    fn learn_cycles(&mut self, a: impl Fn(usize) -> usize, b: impl Fn(usize) -> usize) {
        // the place of each digit in line `a`
        let mut place = [0usize; 10];
        for k in 0..9 {
            place[usize::from(self.solution[a(k)]) % 10] = k;
        }
        // per place, the place in line `a` of the digit line `b` holds there (nine independent
        // look-ups, so the walks below take one load a step, not two in a chain)
        let next: [usize; 9] =
            std::array::from_fn(|k| place[usize::from(self.solution[b(k)]) % 10] % 9);
        // places walked, the cycles taken in the order of their smallest digit
        let mut done = 0u16;
        for &start in &place[1..] {
            let start = start % 9;
            if done >> start & 1 != 0 {
                continue;
            }
            // the places of the cycle, its cells made only for a cycle noted
            let (mut k, mut places, mut len) = (start, 0u16, 0);
            loop {
                done |= 1 << k;
                places |= 1 << k;
                len += 1;
                k = next[k];
                if k == start || len > 9 {
                    break;
                }
            }
            if (3..=LONGEST_CYCLE).contains(&len) {
                let mut set = 0u128;
                while places != 0 {
                    let k = places.trailing_zeros() as usize;
                    places &= places - 1;
                    set |= 1u128 << a(k) | 1u128 << b(k);
                }
                self.learn_set(set);
            }
        }
    }

    fn learn_set(&mut self, set: u128) {
        let left = set & self.givens;
        if one_cell(left) {
            self.necessary |= left;
        }
        if self.known_len < KNOWN {
            self.place_set(self.known_len, set);
            self.known_len += 1;
        } else {
            self.place_set(self.known_next, set);
            self.known_next = (self.known_next + 1) % KNOWN;
        }
    }

    /// Notes the unavoidable set of `other`, a second solution of some puzzle of the grid.
    fn learn(&mut self, other: &Grid) -> u128 {
        let set = differing(other.cells(), &self.solution);
        if set != 0 {
            self.learn_set(set);
        }
        set
    }

    /// A known unavoidable set with no cell among `remaining` givens.
    #[inline]
    fn emptied(&self, remaining: u128) -> Option<u128> {
        self.known[..self.known_len]
            .iter()
            .copied()
            .find(|&set| set & remaining == 0)
    }

    /// Whether the puzzle (unique, solved by the grid) stays unique without the givens
    /// `remove`: `Ok(())`, or an unavoidable set whose last givens they are (a set with no
    /// given left but among `remove`).
    pub(crate) fn unique_without(&mut self, remove: u128) -> Result<(), u128> {
        let blocked = remove & (self.necessary | self.kept);
        if blocked != 0 {
            return Err(blocked);
        }
        // a set with two givens or more left may lose them all only to a removal of several
        if remove & (remove - 1) != 0 {
            if let Some(set) = self.emptied(self.givens & !remove) {
                return Err(set);
            }
        }
        if remove & (remove - 1) == 0 && self.forced(remove.trailing_zeros() as usize) {
            return Ok(());
        }
        self.searches += 1;
        // the candidates of the puzzle without `remove`: a digit's givens left, and the open
        // cells that see none of them (only the digits removed see fewer cells)
        let givens = self.givens & !remove;
        let open = ALL_CELLS & !givens;
        let touched = self.digits_of(remove);
        let mut cand = [0u128; 9];
        for (d, cand) in cand.iter_mut().enumerate() {
            let own = self.digit_cells[d + 1] & givens;
            let seen = match touched >> (d + 1) & 1 {
                0 => self.seen[d],
                _ => peers_of(own),
            };
            *cand = own | open & !seen;
        }
        // one given removed: a solution that differs from the grid there
        let differ_at = (remove & (remove - 1) == 0).then(|| remove.trailing_zeros() as usize);
        if let Some(cell) = differ_at {
            cand[usize::from(self.solution[cell].wrapping_sub(1)) % 9] &= !remove;
        }
        let other =
            solver::solve_other_candidates(&self.grid, &cand, givens, differ_at, 1).solution;
        match other {
            None => Ok(()),
            // a set whose only given is the one removed makes that given necessary, and
            // can never be emptied by later removals: not worth a place among the sets
            Some(other) if remove & (remove - 1) == 0 => {
                self.necessary |= remove;
                Err(differing(other.cells(), &self.solution))
            }
            Some(other) => Err(self.learn(&other)),
        }
    }

    /// Whether the current puzzle has one solution (the grid), whatever it is: a puzzle made
    /// some other way than by removing givens.
    pub(crate) fn is_unique(&mut self) -> bool {
        if self.emptied(self.givens).is_some() {
            return false;
        }
        self.searches += 1;
        let other = solver::solve_other(&self.puzzle(), &self.grid, None, 1)
            .ok()
            .and_then(|out| out.solution);
        match other {
            None => true,
            Some(other) => {
                self.learn(&other);
                false
            }
        }
    }

    /// Removes the givens of `units` (disjoint sets of cells; cells not given are passed
    /// over) in their order, each unit as long as the puzzle keeps one solution and at least
    /// `floor` givens (0: no floor): the result is exactly that of trying one unit at a time
    /// (see the module documentation). The puzzle must be unique to start with.
    pub(crate) fn carve(&mut self, units: &[u128], floor: u32) {
        let mut count = self.givens.count_ones();
        let (mut pos, mut run) = (0, FIRST_RUN);
        while pos < units.len() && (floor == 0 || count > floor) {
            // below `SINGLES_BELOW` givens, most runs would fail: one unit at a time
            let k = if count < SINGLES_BELOW {
                1
            } else {
                run.min(units.len() - pos)
            };
            let chunk = &units[pos..pos + k];
            let cells = chunk.iter().fold(0u128, |m, &u| m | u) & self.givens;
            if cells == 0 {
                pos += k;
                continue;
            }
            let size = cells.count_ones();
            if count < floor + size {
                // too many givens for the floor: a shorter run, or past this unit
                if k == 1 {
                    pos += 1;
                } else {
                    run = k / 2;
                }
                continue;
            }
            // a unit holding the last given of a known set stays, and a run stops before it
            let blocked = cells & (self.necessary | self.kept);
            if blocked != 0 {
                match chunk.iter().position(|&u| u & blocked != 0).unwrap_or(0) {
                    0 => {
                        pos += 1;
                        run = 1;
                    }
                    first => run = first,
                }
                continue;
            }
            match self.unique_without(cells) {
                Ok(()) => {
                    self.remove(cells);
                    count -= size;
                    pos += k;
                    run = (2 * k).min(LONGEST_RUN);
                }
                Err(set) => {
                    // the run's givens in `set`: the last of them is the one that empties it,
                    // so the run before that unit may pass; a first unit that empties the
                    // set on its own stays
                    let given = set & self.givens;
                    let last = chunk.iter().rposition(|&u| u & given != 0).unwrap_or(0);
                    if last == 0 {
                        // the first unit empties the set on its own: it stays
                        self.kept |= chunk[0] & self.givens;
                        pos += 1;
                        run = 1;
                    } else {
                        run = last;
                    }
                }
            }
        }
    }

    /// True when no given outside `kept` can be removed with the puzzle (unique) staying
    /// unique.
    pub(crate) fn needs_every_given(&mut self, kept: u128) -> bool {
        // `self.kept` holds the units the carving could not remove: a unit of several cells
        // (a symmetry's orbit) that could not go whole may still lose one of its cells, so
        // each cell is tried here; only `necessary` (the last given of an unavoidable set)
        // proves a single given needed without a search.
        let units_kept = std::mem::take(&mut self.kept);
        let mut bits = self.givens & !kept;
        let mut every = true;
        while bits != 0 {
            let cell = bits & bits.wrapping_neg();
            bits &= bits - 1;
            if self.unique_without(cell).is_ok() {
                every = false;
                break;
            }
        }
        self.kept = units_kept;
        every
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::grids::random_grid;
    use crate::solver::reference;
    use crate::transform::Rng;

    /// The plain way: one cell at a time, every check a count by the reference solver.
    fn one_at_a_time(solution: &Grid, order: &[u128]) -> u128 {
        let mut cells = *solution.cells();
        let mut givens = ALL_CELLS;
        for &unit in order {
            let mut trial = cells;
            let mut bits = unit;
            while bits != 0 {
                trial[bits.trailing_zeros() as usize] = 0;
                bits &= bits - 1;
            }
            if reference::solve(&Grid::from_values(trial).unwrap(), 2).count == 1 {
                cells = trial;
                givens &= !unit;
            }
        }
        givens
    }

    #[test]
    fn carving_in_runs_gives_what_one_at_a_time_gives() {
        let mut rng = Rng::new(77);
        let rounds = if cfg!(debug_assertions) { 12 } else { 60 };
        for round in 0..rounds {
            let solution = random_grid(&mut rng);
            let mut order: Vec<u128> = (0..81).map(|c| 1u128 << c).collect();
            rng.shuffle(&mut order);
            let mut carver = Carver::new(&solution);
            if round % 2 == 0 {
                carver.learn_pair_sets();
            }
            carver.carve(&order, 0);
            assert_eq!(
                carver.givens(),
                one_at_a_time(&solution, &order),
                "round {round}"
            );
            assert!(carver.needs_every_given(0));
            // far fewer searches than givens tried
            assert!(carver.searches < 60, "{} searches", carver.searches);
        }
    }

    #[test]
    fn differing_cells_are_found_eight_at_a_time_as_one_at_a_time() {
        let mut rng = Rng::new(4);
        for _ in 0..2000 {
            let a: [u8; CELLS] = std::array::from_fn(|_| rng.below(10) as u8);
            let mut b = a;
            for _ in 0..rng.below(20) {
                b[rng.below(CELLS)] = rng.below(10) as u8;
            }
            let want = (0..CELLS)
                .filter(|&i| a[i] != b[i])
                .fold(0u128, |m, i| m | 1u128 << i);
            assert_eq!(differing(&a, &b), want);
        }
    }

    #[test]
    fn carving_pairs_of_cells_keeps_them_together() {
        let mut rng = Rng::new(5);
        let solution = random_grid(&mut rng);
        let pairs: Vec<u128> = (0..40)
            .map(|c| 1u128 << c | 1u128 << (80 - c))
            .chain([1u128 << 40])
            .collect();
        let mut carver = Carver::new(&solution);
        carver.carve(&pairs, 0);
        assert_eq!(carver.givens(), one_at_a_time(&solution, &pairs));
        for c in 0..40 {
            assert_eq!(carver.givens() >> c & 1, carver.givens() >> (80 - c) & 1);
        }
    }

    #[test]
    fn a_floor_stops_the_carving_at_that_many_givens() {
        let mut rng = Rng::new(6);
        let solution = random_grid(&mut rng);
        let order: Vec<u128> = (0..81).map(|c| 1u128 << c).collect();
        let mut carver = Carver::new(&solution);
        carver.carve(&order, 35);
        assert_eq!(carver.givens().count_ones(), 35);
        assert_eq!(
            reference::solve(&carver.puzzle(), 2).count,
            1,
            "{}",
            carver.puzzle()
        );
    }

    #[test]
    fn two_digit_sets_found_on_the_grid_are_unavoidable() {
        let mut rng = Rng::new(8);
        let (mut found, mut rectangles) = (0, 0);
        for _ in 0..200 {
            let solution = random_grid(&mut rng);
            let mut carver = Carver::new(&solution);
            carver.learn_pair_sets();
            // copied out: the loop sets the carver's givens
            let sets: Vec<u128> = carver.known[..carver.known_len].to_vec();
            for set in sets {
                let size = set.count_ones();
                assert!(size % 2 == 0 && (4..=LARGEST_PAIR_SET).contains(&size));
                // two digits, each in half the cells
                let digits: std::collections::BTreeSet<u8> = (0..81)
                    .filter(|&c| set >> c & 1 != 0)
                    .map(|c| solution.cells()[c])
                    .collect();
                assert_eq!(digits.len(), 2);
                carver.set_givens(ALL_CELLS & !set);
                assert_eq!(reference::solve(&carver.puzzle(), 2).count, 2);
                found += 1;
                rectangles += usize::from(size == 4);
            }
        }
        assert!(
            found > 400 && rectangles > 50,
            "{found} sets, {rectangles} of 4 cells"
        );
    }

    #[test]
    fn sets_of_two_lines_found_on_the_grid_are_unavoidable() {
        let mut rng = Rng::new(9);
        let (mut found, mut mini) = (0, 0);
        for _ in 0..200 {
            let solution = random_grid(&mut rng);
            let mut carver = Carver::new(&solution);
            carver.learn_line_sets();
            let sets: Vec<u128> = carver.known[..carver.known_len].to_vec();
            for set in sets {
                let size = set.count_ones() as usize;
                assert!(size % 2 == 0 && (6..=2 * LONGEST_CYCLE).contains(&size));
                let of = |line: fn(usize) -> usize| -> std::collections::BTreeSet<usize> {
                    (0..81).filter(|&c| set >> c & 1 != 0).map(line).collect()
                };
                // two rows of a band or two columns of a stack, half the cells in each
                let rows: std::collections::BTreeSet<usize> = (0..81)
                    .filter(|&c| set >> c & 1 != 0)
                    .map(|c| c / 9)
                    .collect();
                let cols: std::collections::BTreeSet<usize> = (0..81)
                    .filter(|&c| set >> c & 1 != 0)
                    .map(|c| c % 9)
                    .collect();
                let two = |lines: &std::collections::BTreeSet<usize>| {
                    lines.len() == 2
                        && lines
                            .iter()
                            .map(|l| l / 3)
                            .collect::<Vec<_>>()
                            .windows(2)
                            .all(|w| w[0] == w[1])
                };
                // or three cells of one stack in two rows of different bands (columns likewise)
                let three = |lines: &std::collections::BTreeSet<usize>,
                             across: fn(usize) -> usize| {
                    lines.len() == 3 && of(across).len() == 1
                };
                let mini_rows = rows.len() == 2 && three(&cols, |c| c % 9 / 3);
                let mini_cols = cols.len() == 2 && three(&rows, |c| c / 27);
                assert!(
                    two(&rows) || two(&cols) || mini_rows || mini_cols,
                    "{set:#x}"
                );
                mini += usize::from(mini_rows || mini_cols);
                carver.set_givens(ALL_CELLS & !set);
                assert_eq!(reference::solve(&carver.puzzle(), 2).count, 2);
                found += 1;
            }
        }
        assert!(
            found > 400 && mini > 50,
            "{found} sets, {mini} of two lines' three cells"
        );
    }
}
