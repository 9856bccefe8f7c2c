//! Canonical forms: one representative for every class of isomorphic puzzles.
//!
//! Two puzzles are the same puzzle when one becomes the other by the symmetries of the rules (see
//! [`Transform`]): relabelling the digits, permuting the bands, the rows inside each band, the
//! stacks, the columns inside each stack, and transposing. The canonical form used here is the
//! *minlex* form: of every grid those symmetries make of a puzzle, the one whose 81-digit string
//! (blank = `0`, row by row) is lexicographically smallest. It exists for any grid of cells: any
//! number of givens, a unique puzzle or one with many solutions, an unsolvable one, a solution
//! grid. Two puzzles are isomorphic exactly when their minlex forms are equal.
//!
//! # The algorithm
//!
//! The placements (transposition, band and row order, stack and column order) number
//! 2 x 6^8 = 3,359,232; for each, the smallest relabelling numbers the digits in the order they first
//! appear. Trying them all takes tens of milliseconds a puzzle. [`canonical`] instead builds the
//! form a row at a time, the idea published for minlex grids and puzzles (gsf's and dobrichev's
//! canonicalizers on the New Sudoku Players' Forum), written here from that description:
//!
//! - A search state is a *class* of placements that agree on the rows built so far: the
//!   orientation, the source row of each row built, and the column order known only as far as those
//!   rows tell it. Columns holding the same value in every row built are still *tied*: any order of
//!   them gives the same rows. Likewise whole stacks are tied while their columns read the same.
//!   The digits seen so far have their labels (1, 2, ... in order of first appearance).
//! - To build the next row, each state tries each source row the band structure allows (any row of
//!   an unused band at the top of a band, else a row of the current band). The smallest row that
//!   row can give in the class is found by sorting: tied columns by value (blank, then the labelled
//!   digits by label, then digits not labelled yet, which take the next labels in the order they
//!   land), then tied stacks by the three values they read. Only the (state, row) pairs that reach
//!   the smallest row of all are kept; every other placement is pruned at once, with all the
//!   placements of its class.
//! - Where unlabelled digits land in tied columns (or tied stacks), their order decides their
//!   labels, so those ties are broken by branching: one state per order.
//!
//! After nine rows every surviving state gives the minlex form. A typical puzzle keeps a handful of
//! states a row; a grid with many symmetries (an empty one, a nearly complete one) keeps more.
//!
//! A complete solution grid is the worst case of that search (its first row branches into every
//! column order, about 0.7 ms a grid), and takes a route of its own instead (`grid_form.rs`): its
//! first row is always `123456789`, so the labels follow from the column order, and only the top
//! band needs a search.
//!
//! The sort above is exact when no digit repeats in a row or a column: each unlabelled digit then
//! takes a fresh label wherever it lands. A grid with a digit repeated in a row or column (a puzzle
//! with contradictory givens) takes a search of its own that builds each row exactly, a stack at a
//! time (`repeats.rs`): about 13 µs a grid against 0.27 ms for trying every placement
//! ([`canonical_by_search`], the reference both searches are tested against).

use crate::grid::{CELLS, Grid};
use crate::transform::Transform;

mod grid_form;
mod invariant;
mod pattern;
mod repeats;
pub use invariant::invariant;
pub use pattern::pattern_minlex;

/// A puzzle's minlex form, and a transform that maps the puzzle to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Canonical {
    /// The minlex form.
    pub grid: Grid,
    /// A transform whose [`Transform::apply`] turns the puzzle into [`Canonical::grid`] (one of
    /// several when the puzzle has symmetries of its own).
    pub transform: Transform,
}

/// The minlex form of `puzzle` (see the module documentation) and a transform that gives it.
pub fn canonical(puzzle: &Grid) -> Canonical {
    let lines = Lines::new(puzzle);
    if let Some(form) = (lines.complete && !lines.repeats)
        .then(|| grid_form::grid_minlex(&lines))
        .flatten()
    {
        return Canonical {
            grid: Grid::from_values(form.cells).unwrap_or(*puzzle),
            transform: transform(form.orient, &form.rows, &form.cols, &form.labels),
        };
    }
    let state = if lines.repeats {
        repeats::smallest(&lines)
    } else {
        smallest(&lines)
    };
    Canonical {
        grid: state.grid(&lines),
        // digits the puzzle lacks never got a label
        transform: transform(
            state.class.orient,
            &state.class.rows,
            &state.class.cols,
            &state.labels.map(|l| if l == NEW { 0 } else { l }),
        ),
    }
}

/// The minlex form of `puzzle`: [`canonical`]'s grid, without building the transform.
pub fn minlex(puzzle: &Grid) -> Grid {
    let lines = Lines::new(puzzle);
    if lines.repeats {
        return repeats::smallest(&lines).grid(&lines);
    }
    if let Some(form) = lines
        .complete
        .then(|| grid_form::grid_minlex(&lines))
        .flatten()
    {
        return Grid::from_values(form.cells).unwrap_or(*puzzle);
    }
    smallest(&lines).grid(&lines)
}

thread_local! {
    /// The search's two state lists, kept between calls so a canonical form allocates nothing.
    static STATES: std::cell::RefCell<(Vec<State>, Vec<State>)> =
        const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
}

/// Runs a search with [`STATES`]' two lists, the first holding the two start states (one per
/// orientation), the second empty.
fn with_state_lists<R>(search: impl FnOnce(&mut Vec<State>, &mut Vec<State>) -> R) -> R {
    STATES.with(|lists| {
        let mut lists = lists.borrow_mut();
        let (states, next) = &mut *lists;
        states.clear();
        states.extend([State::start(0), State::start(1)]);
        next.clear();
        search(states, next)
    })
}

/// A complete state of the row-by-row search (no digit repeats in a row or column of `lines`).
fn smallest(lines: &Lines) -> State {
    with_state_lists(|states, next| {
        for level in 0..9 {
            let mut best = u64::MAX;
            next.clear();
            for state in states.iter() {
                let mut allowed = state.class.rows_allowed(level);
                if level == 0 {
                    allowed &= lines.top[state.class.orient as usize];
                }
                while allowed != 0 {
                    let row = allowed.trailing_zeros() as usize;
                    allowed &= allowed - 1;
                    let line = &lines.grid[state.class.orient as usize][row];
                    let (key, mut refined, values) = state.refine(line);
                    if key > best {
                        continue;
                    }
                    if key < best {
                        best = key;
                        next.clear();
                    }
                    refined.class.rows[level] = row as u8;
                    refined.class.used |= 1 << row;
                    refined.branch(values, line, next);
                }
            }
            std::mem::swap(states, next);
        }
        states[0]
    })
}

/// True when the class of puzzles with minlex form `form` goes to the test part of a split that
/// sends `fraction` of the classes there, drawn with `seed`: a pure function of the form, so every
/// puzzle of a class goes to the same part, whatever else the dataset holds.
pub fn in_test_part(form: &Grid, seed: u64, fraction: f64) -> bool {
    let draw = crate::transform::Rng::new(hash(form) ^ seed).next_u64();
    // the top 53 bits as a number in [0, 1)
    ((draw >> 11) as f64) / ((1u64 << 53) as f64) < fraction
}

/// A stable 64-bit hash of a grid, for telling canonical forms apart: FNV-1a (64-bit) of its 81
/// cells as ASCII digits, blank = `0`. The same on every machine and in every version, and easy to
/// compute elsewhere (`python3 -c` with a few lines).
pub fn hash(grid: &Grid) -> u64 {
    grid.to_line(b'0')
        .iter()
        .fold(0xcbf2_9ce4_8422_2325, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        })
}

/// The minlex form found by trying every placement: for each orientation and column order, the
/// row orders are walked depth first, a row at a time, each relabelled as it goes and cut short
/// where it is already larger than the best so far. Exact for any grid, and the reference
/// [`canonical`] is tested against. Most placements end at their first row; a grid whose
/// placements all read the same (81 equal digits) walks all 3,359,232 of them, about 0.3 s.
pub fn canonical_by_search(puzzle: &Grid) -> Canonical {
    let lines = Lines::new(puzzle);
    let mut walk = Walk {
        grid: &lines.grid[0],
        cols: [0; 9],
        best: [u8::MAX; CELLS],
        candidate: [0; CELLS],
        rows: [0; 9],
        found: None,
    };
    for (orient, grid) in lines.grid.iter().enumerate() {
        walk.grid = grid;
        for cols in line_orders() {
            walk.cols = cols;
            if walk.rows_from(0, 0, [0; 10], 1, false) {
                walk.found = Some((orient as u8, walk.rows, cols));
            }
        }
    }
    // every grid has placements: one was found
    let (orient, rows, cols) = walk
        .found
        .unwrap_or((0, [0, 1, 2, 3, 4, 5, 6, 7, 8], [0; 9]));
    let labels = labels_in_order(&lines.grid[orient as usize], &rows, &cols);
    Canonical {
        grid: Grid::from_values(walk.best).unwrap_or(*puzzle),
        transform: transform(orient, &rows, &cols, &labels),
    }
}

/// [`canonical_by_search`]'s walk over the row orders of one orientation and column order.
struct Walk<'a> {
    grid: &'a [Line; 9],
    cols: [u8; 9],
    /// The smallest grid so far.
    best: [u8; CELLS],
    /// The grid being read.
    candidate: [u8; CELLS],
    /// The row order being read; after a walk that found a smaller grid, its order.
    rows: [u8; 9],
    /// Orientation, rows and columns of `best`.
    found: Option<(u8, [u8; 9], [u8; 9])>,
}

impl Walk<'_> {
    /// Reads rows `level..` in every allowed order after the rows already chosen (`used`), with
    /// the digits labelled so far. `smaller`: the rows read so far are smaller than `best`'s (else
    /// equal). True when a smaller grid was found; `rows` then holds its order.
    fn rows_from(
        &mut self,
        level: usize,
        used: u16,
        labels: Labels,
        next: u8,
        mut smaller: bool,
    ) -> bool {
        if level == 9 {
            if smaller {
                self.best = self.candidate;
            }
            return smaller;
        }
        let band = (level % 3 != 0).then(|| self.rows[level - 1] / 3);
        let mut improved = false;
        let mut best_rows = self.rows;
        for row in 0..9u8 {
            let free = used & (1 << row) == 0;
            let allowed = match band {
                Some(b) => row / 3 == b,
                None => used & (0b111 << (row / 3 * 3)) == 0,
            };
            if !free || !allowed {
                continue;
            }
            let (mut labels, mut next, mut below) = (labels, next, smaller);
            let mut larger = false;
            for (j, &col) in self.cols.iter().enumerate() {
                let d = self.grid[row as usize][col as usize] as usize;
                if d != 0 && labels[d] == 0 {
                    labels[d] = next;
                    next += 1;
                }
                let at = level * 9 + j;
                let v = labels[d];
                if !below {
                    if v > self.best[at] {
                        larger = true;
                        break;
                    }
                    below = v < self.best[at];
                }
                self.candidate[at] = v;
            }
            if larger {
                continue;
            }
            self.rows[level] = row;
            if self.rows_from(level + 1, used | (1 << row), labels, next, below) {
                // `best` now extends the rows before this level: later rows here compare with it
                improved = true;
                best_rows = self.rows;
                smaller = false;
            }
        }
        self.rows = best_rows;
        improved
    }
}

/// The 1296 orders of nine lines that keep bands (or stacks) together.
fn line_orders() -> Vec<[u8; 9]> {
    let mut out = Vec::with_capacity(1296);
    for bands in PERMS3 {
        for a in PERMS3 {
            for b in PERMS3 {
                for c in PERMS3 {
                    let mut order = [0u8; 9];
                    for (i, inner) in [a, b, c].iter().enumerate() {
                        for j in 0..3 {
                            order[i * 3 + j] = bands[i] * 3 + inner[j];
                        }
                    }
                    out.push(order);
                }
            }
        }
    }
    out
}

/// The labels digits take when read row by row in this placement: 1, 2, ... in order of first
/// appearance.
fn labels_in_order(grid: &[Line; 9], rows: &[u8; 9], cols: &[u8; 9]) -> Labels {
    let mut labels = [0u8; 10];
    let mut next = 1;
    for &row in rows {
        for &col in cols {
            let d = grid[row as usize][col as usize] as usize;
            if d != 0 && labels[d] == 0 {
                labels[d] = next;
                next += 1;
            }
        }
    }
    labels
}

/// The transform that reads `grid` (the puzzle, transposed when `orient` is 1) in this placement
/// with these labels; digits the puzzle lacks take the labels left, in order.
fn transform(orient: u8, rows: &[u8; 9], cols: &[u8; 9], labels: &Labels) -> Transform {
    let mut digits = *labels;
    let mut free = (1..=9u8).filter(|l| !labels.contains(l));
    for d in digits.iter_mut().skip(1) {
        if *d == 0 {
            *d = free.next().unwrap_or(0);
        }
    }
    let rows = rows.map(usize::from);
    let cols = cols.map(usize::from);
    if orient == 0 {
        Transform::from_parts(digits, rows, cols, false)
    } else {
        // reading the transposed puzzle at (row, col) reads the puzzle at (col, row)
        Transform::from_parts(digits, cols, rows, true)
    }
}

/// The six orders of three things.
const PERMS3: [[u8; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// The two orders of two things.
const PERMS2: [[u8; 2]; 2] = [[0, 1], [1, 0]];

/// A digit with no label yet, in a row being built: above every label (labels are 1..=9).
const NEW: u8 = 15;

/// A row of cells.
type Line = [u8; 9];

/// Label of each digit (index 0, the blank, labelled 0).
type Labels = [u8; 10];

/// The puzzle's rows in both orientations.
struct Lines {
    /// `grid[0]` the rows, `grid[1]` the columns (the transposed puzzle's rows).
    grid: [[Line; 9]; 2],
    /// A digit repeats in a row or a column.
    repeats: bool,
    /// Every cell is given (a solution grid when nothing repeats): [`grid_form`]'s case.
    complete: bool,
    /// The rows (bit per row) that may be the form's first row, per orientation.
    top: [u16; 2],
}

impl Lines {
    fn new(puzzle: &Grid) -> Lines {
        let cells = puzzle.cells();
        let mut grid = [[[0u8; 9]; 9]; 2];
        // digits seen in each row and column (bit 0, the blank, never counts)
        let (mut in_row, mut in_col) = ([0u16; 9], [0u16; 9]);
        let mut repeats = 0u16;
        for r in 0..9 {
            for c in 0..9 {
                let d = cells[r * 9 + c];
                grid[0][r][c] = d;
                grid[1][c][r] = d;
                let bit = (1u16 << d) & !1;
                repeats |= (in_row[r] & bit) | (in_col[c] & bit);
                in_row[r] |= bit;
                in_col[c] |= bit;
            }
        }
        let given = given_bits(cells);
        Lines {
            grid,
            repeats: repeats != 0,
            complete: given == ALL_CELLS,
            top: first_rows(&masks_of(given)),
        }
    }
}

/// Every cell's bit of [`given_bits`].
const ALL_CELLS: u128 = (1 << CELLS) - 1;

/// Bit `9r + c` set when cell (r, c) holds a given: eight cells at a time through a 64-bit word
/// (with [`masks_of`], a third of the instructions of a test a cell, callgrind).
fn given_bits(cells: &[u8; CELLS]) -> u128 {
    let mut given = 0u128;
    for (k, chunk) in cells.chunks(8).enumerate() {
        let mut bytes = [0u8; 8];
        bytes[..chunk.len()].copy_from_slice(chunk);
        // the high bit of each byte that is not 0 (cells are at most 9, so no byte carries into
        // the next), then those eight bits gathered into the top byte by one multiply
        let high = (u64::from_le_bytes(bytes) + 0x7f7f_7f7f_7f7f_7f7f) & 0x8080_8080_8080_8080;
        let byte = (high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
        given |= u128::from(byte) << (8 * k);
    }
    given
}

/// The givens of each row (`[0]`) and each column (`[1]`), a bit per cell, from the bits
/// [`given_bits`] gives.
fn masks_of(given: u128) -> [[u16; 9]; 2] {
    // a column's bits are 9 apart; times the sum of 2^(72 - 8k) each lands at bit 72 + row, and
    // no two products share a bit, so nothing carries
    const EVERY_NINTH: u128 = 0x100_8040_2010_0804_0201;
    const GATHER: u128 = 0x101_0101_0101_0101_0100;
    let rows = std::array::from_fn(|r| ((given >> (9 * r)) & 0x1ff) as u16);
    let cols = std::array::from_fn(|c| {
        ((((given >> c) & EVERY_NINTH).wrapping_mul(GATHER) >> 72) & 0x1ff) as u16
    });
    [rows, cols]
}

/// The rows (a bit per row, per orientation; `givens` has a bit per given cell of each row) that
/// may be the form's first row: with every column and stack still free, a row gives the givens of
/// its stacks in ascending counts, blanks first in each, so the rows with the smallest counts
/// (sorted) are the only ones that can be first, for the minlex form as for the pattern.
fn first_rows(givens: &[[u16; 9]; 2]) -> [u16; 2] {
    let keys = givens.map(|g| g.map(|m| FIRST_ROW_KEYS[usize::from(m & 0x1ff)]));
    let least = keys.iter().flatten().copied().min().unwrap_or(0);
    keys.map(|k| (0..9).fold(0u16, |m, i| if k[i] == least { m | (1 << i) } else { m }))
}

/// For each row's givens (9 bits), its counts of givens per stack, sorted, as one number that
/// orders rows as [`first_rows`] needs: least, middle and most count, two bits each.
const FIRST_ROW_KEYS: [u8; 512] = {
    let mut table = [0u8; 512];
    let mut m: u32 = 0;
    while m < 512 {
        let n = [
            (m & 0b111).count_ones(),
            ((m >> 3) & 0b111).count_ones(),
            ((m >> 6) & 0b111).count_ones(),
        ];
        let least = if n[0] < n[1] { n[0] } else { n[1] };
        let least = if least < n[2] { least } else { n[2] };
        let most = if n[0] > n[1] { n[0] } else { n[1] };
        let most = if most > n[2] { most } else { n[2] };
        table[m as usize] =
            ((least << 4) | ((n[0] + n[1] + n[2] - least - most) << 2) | most) as u8;
        m += 1;
    }
    table
};

/// A class of placements that agree on the rows built so far (see the module documentation): the
/// orientation, the source row of each row built, and the column order as far as those rows tell
/// it. A minlex [`State`] adds the digits' labels; the pattern form's search needs no more.
#[derive(Debug, Clone, Copy)]
struct Class {
    /// 0: the puzzle's rows; 1: its columns.
    orient: u8,
    /// Bit `s`: the stacks at slots `s` and `s + 1` are tied (they read the same in every row
    /// built).
    stack_ties: u8,
    /// Bit `p`: the columns at positions `p` and `p + 1` (in one stack) are tied (they read the
    /// same in every row built).
    ties: u16,
    /// Source rows used (bit per row).
    used: u16,
    /// Source row of each row built.
    rows: [u8; 9],
    /// Source column at each position.
    cols: [u8; 9],
}

/// Every column tied to its stack's others, every stack to the others.
const ALL_TIED: u16 = 0b011_011_011;

impl Class {
    /// Every placement of orientation `orient`, no row built.
    fn start(orient: u8) -> Class {
        Class {
            orient,
            stack_ties: 0b11,
            ties: ALL_TIED,
            used: 0,
            rows: [0; 9],
            cols: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        }
    }

    /// The source rows (a bit each) that may be row `level`: at the top of a band, the rows of
    /// the bands not used yet; inside a band, the rows of the current band not used yet.
    fn rows_allowed(&self, level: usize) -> u16 {
        let bands = if level % 3 == 0 {
            // a band is free when none of its rows is used
            (0..3).fold(0u16, |m, b| {
                if self.used & (0b111 << (b * 3)) == 0 {
                    m | (0b111 << (b * 3))
                } else {
                    m
                }
            })
        } else {
            0b111 << (self.rows[level - 1] / 3 * 3)
        };
        bands & !self.used
    }
}

/// A minlex search state: a class of placements and the labels its rows gave the digits.
#[derive(Debug, Clone, Copy)]
struct State {
    class: Class,
    /// The next label to give.
    next: u8,
    /// The value each digit reads as in a row being built: 0 for the blank, its label, or
    /// [`NEW`] for a digit with no label yet.
    labels: Labels,
}

impl State {
    fn start(orient: u8) -> State {
        State {
            class: Class::start(orient),
            next: 1,
            labels: [0, NEW, NEW, NEW, NEW, NEW, NEW, NEW, NEW, NEW],
        }
    }

    /// The smallest row `line` gives in this class: its key (three 12-bit stack values, NEW for
    /// digits to be labelled), the class narrowed to the placements that give it, and the values
    /// at each position.
    fn refine(&self, line: &Line) -> (u64, State, [u8; 9]) {
        let mut st = *self;
        let mut values = [0u8; 9];
        for (v, &col) in values.iter_mut().zip(&st.class.cols) {
            *v = st.labels[line[col as usize] as usize];
        }
        // tied columns sorted by value, inside each stack: only positions tied to the one before
        // can move (insertion sort, left to right)
        let mut tied = st.class.ties;
        while tied != 0 {
            let mut j = tied.trailing_zeros() as usize + 1;
            tied &= tied - 1;
            while st.class.ties & (1 << (j - 1)) != 0 && values[j - 1] > values[j] {
                values.swap(j - 1, j);
                st.class.cols.swap(j - 1, j);
                j -= 1;
                if j % 3 == 0 {
                    break;
                }
            }
        }
        let mut tied = st.class.ties;
        while tied != 0 {
            let p = tied.trailing_zeros() as usize;
            tied &= tied - 1;
            if values[p] != values[p + 1] {
                st.class.ties &= !(1 << p);
            }
        }
        // tied stacks sorted by the values they read
        let mut sig = [0u16; 3];
        for (s, v) in sig.iter_mut().enumerate() {
            *v = stack_value(&values, s);
        }
        for s in 1..3 {
            let mut j = s;
            while j > 0 && st.class.stack_ties & (1 << (j - 1)) != 0 && sig[j - 1] > sig[j] {
                sig.swap(j - 1, j);
                st.swap_slots(&mut values, j - 1, j);
                j -= 1;
            }
        }
        for s in 0..2 {
            if sig[s] != sig[s + 1] {
                st.class.stack_ties &= !(1 << s);
            }
        }
        let key = (u64::from(sig[0]) << 24) | (u64::from(sig[1]) << 12) | u64::from(sig[2]);
        (key, st, values)
    }

    /// Swaps the stacks at slots `a` and `b`, with their columns' ties and values.
    fn swap_slots(&mut self, values: &mut [u8; 9], a: usize, b: usize) {
        for i in 0..3 {
            values.swap(a * 3 + i, b * 3 + i);
            self.class.cols.swap(a * 3 + i, b * 3 + i);
        }
        let ta = (self.class.ties >> (a * 3)) & 0b11;
        let tb = (self.class.ties >> (b * 3)) & 0b11;
        self.class.ties &= !((0b11 << (a * 3)) | (0b11 << (b * 3)));
        self.class.ties |= (ta << (b * 3)) | (tb << (a * 3));
    }

    /// Pushes onto `out` the states this refined state stands for once the digits still to be
    /// labelled in its last row are labelled: one per order of tied stacks or tied columns that
    /// hold such digits, since their order decides the labels.
    fn branch(mut self, values: [u8; 9], line: &Line, out: &mut Vec<State>) {
        let new = values
            .iter()
            .enumerate()
            .fold(0u16, |m, (p, &v)| m | (u16::from(v == NEW) << p));
        // tied columns both unlabelled, or tied stacks (which may read unlabelled digits): their
        // order decides labels; else the labels follow at once
        if self.class.ties & new & (new >> 1) == 0 && self.class.stack_ties == 0 {
            if new != 0 {
                self.label(&values, line);
            }
            out.push(self);
            return;
        }
        // tied stacks that read unlabelled digits: one state per order of them
        for s in 0..2 {
            if self.class.stack_ties & (1 << s) == 0 || !values[s * 3..s * 3 + 3].contains(&NEW) {
                continue;
            }
            let run = if s == 0 && self.class.stack_ties & 0b10 != 0 {
                3
            } else {
                2
            };
            let base = self;
            for perm in perms(run) {
                let mut st = base;
                let mut vals = values;
                for (to, &from) in perm.iter().enumerate() {
                    let (to, from) = (s + to, s + from as usize);
                    for i in 0..3 {
                        st.class.cols[to * 3 + i] = base.class.cols[from * 3 + i];
                        vals[to * 3 + i] = values[from * 3 + i];
                    }
                    let t = (base.class.ties >> (from * 3)) & 0b11;
                    st.class.ties = (st.class.ties & !(0b11 << (to * 3))) | (t << (to * 3));
                }
                st.class.stack_ties &= !(((1u8 << (run - 1)) - 1) << s);
                st.branch(vals, line, out);
            }
            return;
        }
        // tied columns that hold unlabelled digits: one state per order of them
        for p in [0, 1, 3, 4, 6, 7] {
            if self.class.ties & (1 << p) == 0 || values[p] != NEW {
                continue;
            }
            let run = if p % 3 == 0 && self.class.ties & (1 << (p + 1)) != 0 {
                3
            } else {
                2
            };
            let base = self;
            for perm in perms(run) {
                let mut st = base;
                for (to, &from) in perm.iter().enumerate() {
                    st.class.cols[p + to] = base.class.cols[p + from as usize];
                }
                st.class.ties &= !(((1u16 << (run - 1)) - 1) << p);
                st.branch(values, line, out);
            }
            return;
        }
        // every order is fixed: label the new digits where they land
        self.label(&values, line);
        out.push(self);
    }

    /// Labels the digits not labelled yet of the row just built (`values`, read from `line`),
    /// in the order they land.
    fn label(&mut self, values: &[u8; 9], line: &Line) {
        for (p, &v) in values.iter().enumerate() {
            if v == NEW {
                let d = line[self.class.cols[p] as usize];
                self.labels[d as usize] = self.next;
                self.next += 1;
            }
        }
    }

    /// The grid this (complete) state gives.
    fn grid(&self, lines: &Lines) -> Grid {
        let grid = &lines.grid[self.class.orient as usize];
        let mut cells = [0u8; CELLS];
        for (i, &row) in self.class.rows.iter().enumerate() {
            for (j, &col) in self.class.cols.iter().enumerate() {
                cells[i * 9 + j] = self.labels[grid[row as usize][col as usize] as usize];
            }
        }
        Grid::from_values(cells).unwrap_or(Grid::EMPTY)
    }
}

/// The three values of slot `s`, 4 bits each, the first highest.
fn stack_value(values: &[u8; 9], s: usize) -> u16 {
    (u16::from(values[s * 3]) << 8)
        | (u16::from(values[s * 3 + 1]) << 4)
        | u16::from(values[s * 3 + 2])
}

/// The orders of `n` (2 or 3) things.
fn perms(n: usize) -> impl Iterator<Item = &'static [u8]> {
    let two = PERMS2.iter().map(|p| &p[..]);
    let three = PERMS3.iter().map(|p| &p[..]);
    two.take(if n == 2 { 2 } else { 0 })
        .chain(three.take(if n == 3 { 6 } else { 0 }))
}

#[cfg(test)]
mod tests;
