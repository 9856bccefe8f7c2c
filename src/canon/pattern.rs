//! A second canonical form, for telling isomorphic puzzles apart at about half the cost of minlex
//! (`check --duplicates=iso`; figures in BENCHMARKS.md): of the placements whose *pattern* of
//! givens is smallest, the one whose 81-digit string is smallest.
//!
//! # Why it is a canonical form
//!
//! Write `pattern(g)` for the 81 bits (given or blank, row by row) of the puzzle placed by `g`
//! (transposition, band and row order, stack and column order), and `digits(g)` for its 81-digit
//! string with the digits labelled 1, 2, ... in order of first appearance. The form is
//! `digits(g*)` for the `g*` that makes the pair `(pattern(g), digits(g))` smallest. Moving the
//! puzzle by a transform `t` only renames the placements (`g` for the puzzle is `g∘t⁻¹` for the
//! moved one), so the smallest pair, and the form, stay the same; and the form is one of the
//! puzzle's own placements, so two puzzles with equal forms are isomorphic. The form is not the
//! minlex form (minlex may put a digit before a blank where it gains a smaller digit earlier),
//! but it tells the same puzzles apart.
//!
//! # The search
//!
//! The pattern is searched for a row at a time as [`super::minlex`] searches the digits, but over
//! nine-bit masks: a class of placements keeps its orientation, its rows, and its column order as
//! far as the rows built so far tell it (columns reading the same in every row built are *tied*,
//! and whole stacks likewise). The smallest row a candidate row gives in a class is found by
//! moving the blanks of each run of tied columns to its front and sorting tied stacks; only the
//! (class, row) pairs giving the smallest row survive. A stack's step is one look-up (its two tie
//! bits and the three bits the row reads there give the new order, ties and bits). There are no
//! labels, so ties never have to be broken by branching: a run of tied columns splits into its
//! blanks and its givens, both still tied. What is left after nine rows is every placement giving the smallest pattern,
//! written as classes whose remaining ties are columns (or stacks) that are the same in every
//! row; those placements are read with their digits, and the smallest string is the form.
//!
//! On the shared corpora about one class survives a puzzle (2.6 on the Sudoku Exchange bank,
//! whose patterns are often symmetric). A pattern with many symmetries (few givens, a full grid)
//! keeps many classes: when a level keeps more than [`MOST`] of them, or more than [`MOST`]
//! placements are left to read, the form is [`super::minlex`] instead. A full grid goes there at
//! once (every placement has its pattern). Both counts are the same
//! for every puzzle of a class of isomorphic puzzles (the classes of placements of a moved puzzle
//! are those of the puzzle, renamed), so every puzzle of a class takes the same route and gets
//! the same form; and since either form is one of the puzzle's own placements, two forms are
//! equal only for isomorphic puzzles, whatever route each took.

use crate::grid::{CELLS, Grid};

use super::{ALL_CELLS, Class, PERMS3, first_rows, given_bits, masks_of, perms};

/// Most classes a level of the search keeps, and most placements left to read with their digits,
/// before the form is the minlex form instead (see the module documentation).
const MOST: usize = 128;

/// The canonical form of the module documentation: the smallest 81-digit string among the
/// placements of `puzzle` whose pattern of givens is smallest; or, for a puzzle whose pattern has
/// more symmetries than the search keeps, its minlex form. Equal for two puzzles exactly when
/// they are isomorphic, as [`super::minlex`]'s forms are.
pub fn pattern_minlex(puzzle: &Grid) -> Grid {
    let cells = puzzle.cells();
    let given = given_bits(cells);
    if given == ALL_CELLS {
        // every placement has the full pattern, so the form is the smallest digit string of all,
        // the minlex form, which has a fast route of its own; the search below would give up
        // at its fourth row
        return super::minlex(puzzle);
    }
    let masks = masks_of(given);
    CLASSES.with(|lists| {
        let mut lists = lists.borrow_mut();
        let (classes, next) = &mut *lists;
        if !smallest_pattern(&masks, classes, next) {
            return super::minlex(puzzle);
        }
        smallest_digits(cells, classes).unwrap_or_else(|| super::minlex(puzzle))
    })
}

thread_local! {
    /// The search's two class lists, kept between calls so a form allocates nothing.
    static CLASSES: std::cell::RefCell<(Vec<Class>, Vec<Class>)> =
        const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
}

/// Leaves in `classes` the classes of placements that give the smallest pattern; false when a
/// level kept more than [`MOST`] of them.
fn smallest_pattern(
    masks: &[[u16; 9]; 2],
    classes: &mut Vec<Class>,
    next: &mut Vec<Class>,
) -> bool {
    let top = first_rows(masks);
    classes.clear();
    classes.extend([Class::start(0), Class::start(1)]);
    for level in 0..9 {
        let mut best = u16::MAX;
        next.clear();
        for class in classes.iter() {
            let mut allowed = class.rows_allowed(level);
            if level == 0 {
                allowed &= top[class.orient as usize];
            }
            while allowed != 0 {
                let row = allowed.trailing_zeros() as usize;
                allowed &= allowed - 1;
                let Some((key, mut refined)) =
                    class.refine(masks[class.orient as usize][row], best)
                else {
                    continue;
                };
                if key < best {
                    best = key;
                    next.clear();
                }
                refined.rows[level] = row as u8;
                refined.used |= 1 << row;
                next.push(refined);
            }
        }
        // judged on the whole level: how many survive does not depend on the order tried
        if next.len() > MOST {
            return false;
        }
        std::mem::swap(classes, next);
    }
    true
}

/// The smallest digit string among the placements of `classes` (each class, with its remaining
/// ties in every order); `None` when they hold more than [`MOST`] placements.
fn smallest_digits(cells: &[u8; CELLS], classes: &[Class]) -> Option<Grid> {
    let placements: usize = classes.iter().map(Class::placements).sum();
    if placements > MOST {
        return None;
    }
    let mut best = [u8::MAX; CELLS];
    if let ([class], 1) = (classes, placements) {
        // the usual case: one placement, read without comparing
        read_if_smaller(cells, class, &class.cols, &mut best);
        return Grid::from_values(best);
    }
    for class in classes {
        class.each_column_order(&mut |cols| read_if_smaller(cells, class, cols, &mut best));
    }
    Grid::from_values(best)
}

/// Reads the puzzle (`cells`, transposed when the class's orientation is 1) in the class's rows
/// and the column order `cols`, its digits labelled 1, 2, ... in order of first appearance, into
/// `best` when that is smaller than `best` (stopping at the first larger digit).
fn read_if_smaller(cells: &[u8; CELLS], class: &Class, cols: &[u8; 9], best: &mut [u8; CELLS]) {
    let mut labels = [0u8; 10];
    let mut next = 1;
    let mut read = [0u8; CELLS];
    let mut smaller = false;
    let (row_step, col_step) = if class.orient == 0 { (9, 1) } else { (1, 9) };
    let offsets = cols.map(|col| usize::from(col) * col_step);
    for (i, &row) in class.rows.iter().enumerate() {
        let base = usize::from(row) * row_step;
        for (j, &offset) in offsets.iter().enumerate() {
            let d = usize::from(cells[base + offset]);
            if d != 0 && labels[d] == 0 {
                labels[d] = next;
                next += 1;
            }
            let at = i * 9 + j;
            let value = labels[d];
            if !smaller {
                if value > best[at] {
                    return;
                }
                smaller = value < best[at];
            }
            read[at] = value;
        }
    }
    if smaller {
        *best = read;
    }
}

/// How a stack's columns move when a row is read in them: for each pair of tie bits (bit 0: the
/// first two columns tied, bit 1: the last two) and the three bits the row reads there (the first
/// column highest), the order that moves the blanks of each run of tied columns to its front
/// (the columns of a run otherwise kept in order), in bits 0-2 as an index into [`PERMS3`]; the
/// ties left, bits 3-4; and the three bits read in the new order, bits 5-7.
const STACK_STEPS: [u8; 32] = {
    let mut table = [0u8; 32];
    let mut index = 0;
    while index < 32 {
        let ties = index >> 3;
        let bits = [(index >> 2) & 1, (index >> 1) & 1, index & 1];
        // the runs: starts of runs are where the column before is not tied to it
        let mut order = [0usize; 3];
        let mut at = 0;
        let mut start = 0;
        while start < 3 {
            let mut end = start;
            while end < 2 && ties & (1 << end) != 0 {
                end += 1;
            }
            let mut want = 0;
            while want < 2 {
                let mut i = start;
                while i <= end {
                    if bits[i] == want {
                        order[at] = i;
                        at += 1;
                    }
                    i += 1;
                }
                want += 1;
            }
            start = end + 1;
        }
        let read = [bits[order[0]], bits[order[1]], bits[order[2]]];
        let mut left = 0;
        let mut p = 0;
        while p < 2 {
            if ties & (1 << p) != 0 && read[p] == read[p + 1] {
                left |= 1 << p;
            }
            p += 1;
        }
        let mut perm = 0;
        while !(PERMS3[perm][0] as usize == order[0]
            && PERMS3[perm][1] as usize == order[1]
            && PERMS3[perm][2] as usize == order[2])
        {
            perm += 1;
        }
        table[index] =
            (perm | (left << 3) | (((read[0] << 2) | (read[1] << 1) | read[2]) << 5)) as u8;
        index += 1;
    }
    table
};

impl Class {
    /// The smallest pattern row the row with givens `mask` (a bit per source column) gives in
    /// this class, nine bits with position 0 highest, and the class narrowed to the placements
    /// that give it: in each stack the blanks of each run of tied columns go first
    /// ([`STACK_STEPS`]), and tied stacks are sorted by the three bits they read. `None`, with no
    /// class made, when the row is larger than `best`.
    fn refine(&self, mask: u16, best: u16) -> Option<(u16, Class)> {
        let bit = |col: u8| usize::from((mask >> col) & 1);
        let steps: [u8; 3] = std::array::from_fn(|s| {
            let c = &self.cols[s * 3..s * 3 + 3];
            let tied = usize::from((self.ties >> (s * 3)) & 0b11);
            STACK_STEPS[(tied << 3) | (bit(c[0]) << 2) | (bit(c[1]) << 1) | bit(c[2])]
        });
        // the stacks in slot order once tied ones are sorted by the bits they read
        let value = |s: usize| u16::from(steps[s] >> 5);
        let mut order = [0usize, 1, 2];
        for s in 1..3 {
            let mut j = s;
            while j > 0
                && self.stack_ties & (1 << (j - 1)) != 0
                && value(order[j - 1]) > value(order[j])
            {
                order.swap(j - 1, j);
                j -= 1;
            }
        }
        let key = (value(order[0]) << 6) | (value(order[1]) << 3) | value(order[2]);
        if key > best {
            return None;
        }
        let mut class = *self;
        class.ties = 0;
        for (slot, &from) in order.iter().enumerate() {
            let step = steps[from];
            let perm = PERMS3[usize::from(step & 0b111)];
            for (to, &i) in perm.iter().enumerate() {
                class.cols[slot * 3 + to] = self.cols[from * 3 + usize::from(i)];
            }
            class.ties |= u16::from((step >> 3) & 0b11) << (slot * 3);
        }
        for s in 0..2 {
            if value(order[s]) != value(order[s + 1]) {
                class.stack_ties &= !(1 << s);
            }
        }
        Some((key, class))
    }

    /// The runs of tied columns: (first position, length).
    fn tied_runs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..3).filter_map(move |s| {
            let p = s * 3;
            match ((self.ties >> p) & 1, (self.ties >> (p + 1)) & 1) {
                (1, 1) => Some((p, 3)),
                (1, 0) => Some((p, 2)),
                (0, 1) => Some((p + 1, 2)),
                _ => None,
            }
        })
    }

    /// The run of tied stacks (first slot, length), if any.
    fn tied_stacks(&self) -> Option<(usize, usize)> {
        match self.stack_ties {
            0b11 => Some((0, 3)),
            0b01 => Some((0, 2)),
            0b10 => Some((1, 2)),
            _ => None,
        }
    }

    /// How many placements the class holds: the orders of its remaining ties.
    fn placements(&self) -> usize {
        let orders = |(_, len): (usize, usize)| if len == 3 { 6 } else { 2 };
        self.tied_stacks()
            .into_iter()
            .chain(self.tied_runs())
            .map(orders)
            .product()
    }

    /// Calls `f` with every column order of the class: its tied stacks, and its tied columns,
    /// in every order.
    fn each_column_order(&self, f: &mut dyn FnMut(&[u8; 9])) {
        let mut runs = [(0, 0); 3];
        let mut n = 0;
        for run in self.tied_runs() {
            runs[n] = run;
            n += 1;
        }
        let runs = &runs[..n];
        let Some((first, len)) = self.tied_stacks() else {
            each_run_order(self.cols, runs, f);
            return;
        };
        for perm in perms(len) {
            // tied stacks read the same in every row, so their runs are the same: the runs found
            // by position hold in every order of the stacks
            let mut order = self.cols;
            for (to, &from) in perm.iter().enumerate() {
                for i in 0..3 {
                    order[(first + to) * 3 + i] = self.cols[(first + from as usize) * 3 + i];
                }
            }
            each_run_order(order, runs, f);
        }
    }
}

/// Calls `f` with `cols` with each of `runs` (first position, length) in every order.
fn each_run_order(cols: [u8; 9], runs: &[(usize, usize)], f: &mut dyn FnMut(&[u8; 9])) {
    let Some((&(start, len), rest)) = runs.split_first() else {
        f(&cols);
        return;
    };
    for perm in perms(len) {
        let mut order = cols;
        for (to, &from) in perm.iter().enumerate() {
            order[start + to] = cols[start + from as usize];
        }
        each_run_order(order, rest, f);
    }
}
