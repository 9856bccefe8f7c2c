//! Minlex forms of complete grids (every cell given, no digit repeated in a row or a column).
//!
//! The row-by-row search of [`super::canonical`] is slow on them: the first row it builds has nine
//! unlabelled digits in tied columns, so it branches into every column order (1296) for each of the
//! 18 rows that may come first, and keeps most of them for the next row. A complete grid needs no
//! such search, because of three facts (the idea of the fast canonicalisers of solution grids
//! described on the New Sudoku Players' Forum, written here from that description):
//!
//! - Whatever the placement, the first row reads `123456789`: its digits are all new, labelled in
//!   the order they stand. So the labels are fixed by the first row and the column order: the digit
//!   at position `j` of the first row is `j + 1`.
//! - The first three rows (the top band) depend only on which band goes on top, in which row order,
//!   and the column order. Write `a`, `b`, `c` for its rows in order and `σ(x)` for the column where
//!   row `a` holds the digit row `b` holds at column `x`; at position `j` the second row then reads
//!   one more than the position of column `σ(col[j])`. Reading position by position, the smallest
//!   second row puts each column met as an image at the first free position of its stack (giving
//!   the stack the next free slot if it has none), and only the columns of a position not yet
//!   filled are a choice: at most 3 stacks x 3 columns x 2 choices for each of the 36
//!   (orientation, band, `a`, `b`) pairs, most cut at their first positions by the smallest rows
//!   found so far. Every column order giving the smallest first two rows, ties broken by the third,
//!   is kept.
//! - Below the top band everything is forced: the columns and labels are fixed, the rows of a band
//!   start with distinct digits (a column holds each digit once), so the smallest rows come in the
//!   order of their first digits, and the band whose smallest first digit is smaller goes second.
//!
//! So the form is the smallest of the grids the kept top bands give, each read once.

use crate::grid::CELLS;

use super::{Labels, Line, Lines, PERMS3};

/// No column, position, slot or stack yet.
const NONE: u8 = u8::MAX;

/// The minlex form of a complete grid and a placement that gives it.
pub(super) struct GridForm {
    /// The form's cells.
    pub cells: [u8; CELLS],
    /// 0: the grid's rows; 1: its columns.
    pub orient: u8,
    /// Source row of each row of the form.
    pub rows: [u8; 9],
    /// Source column of each column of the form.
    pub cols: [u8; 9],
    /// The label of each digit.
    pub labels: Labels,
}

/// A top band that gives the smallest first three rows: its rows in order (`a`, `b`, `c`) in an
/// orientation, and a column order.
#[derive(Debug, Clone, Copy)]
struct Top {
    orient: u8,
    rows: [u8; 3],
    cols: [u8; 9],
}

thread_local! {
    /// The top bands kept, reused between calls so a form allocates nothing once warm.
    static TOPS: std::cell::RefCell<Vec<Top>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The minlex form of the complete grid read into `lines` (no digit repeats in a row or a column,
/// every cell given); `None` when a box repeats a digit (a Latin square that is no sudoku grid),
/// which the reasoning of the module documentation does not cover.
pub(super) fn grid_minlex(lines: &Lines) -> Option<GridForm> {
    if !boxes_hold_every_digit(&lines.grid[0]) {
        return None;
    }
    // pure bands (each minirow of the second row a minirow of the first) give the second row
    // 456 before any mixed band's 457: where there is one, only pure bands are searched
    let pure = lines
        .grid
        .map(|grid| [0, 3, 6].map(|r| is_pure(&grid[r], &grid[r + 1])));
    let want = pure.iter().flatten().any(|&p| p);
    Some(TOPS.with(|tops| {
        let mut tops = tops.borrow_mut();
        tops.clear();
        let mut search = TopSearch {
            sigma: [0; 9],
            tau: [0; 9],
            orient: 0,
            rows: [0; 3],
            row2: [0; 9],
            best: [[NONE; 9]; 2],
            tops: &mut tops,
        };
        for (orient, grid) in lines.grid.iter().enumerate() {
            search.orient = orient as u8;
            for a in 0..9 {
                if pure[orient][a / 3] == want {
                    search.pairs_with(grid, a, want);
                }
            }
        }
        let mut form = GridForm {
            cells: [NONE; CELLS],
            orient: 0,
            rows: [0; 9],
            cols: [0; 9],
            labels: [0; 10],
        };
        for (i, value) in form.cells[..9].iter_mut().enumerate() {
            *value = i as u8 + 1;
        }
        for (cell, &p) in form.cells[9..27].iter_mut().zip(search.best.as_flattened()) {
            *cell = p + 1;
        }
        for top in tops.iter() {
            below_the_top(&lines.grid[usize::from(top.orient)], top, &mut form);
        }
        form
    }))
}

/// True when each box of `grid` holds every digit.
fn boxes_hold_every_digit(grid: &[Line; 9]) -> bool {
    let mut boxes = [0u16; 9];
    for (r, line) in grid.iter().enumerate() {
        for (c, &d) in line.iter().enumerate() {
            boxes[r / 3 * 3 + c / 3] |= 1 << d;
        }
    }
    boxes.iter().all(|&b| b == 0x3fe)
}

/// True when the first minirow of row `b` (its first three cells) holds the digits of one minirow
/// of row `a` (rows of one band): the band is then pure, every minirow of each row the digits of a
/// minirow of each other row.
fn is_pure(a: &Line, b: &Line) -> bool {
    let stack_of = |d: u8| a.iter().position(|&x| x == d).map(|c| c / 3);
    let first = stack_of(b[0]);
    first == stack_of(b[1]) && first == stack_of(b[2])
}

/// The search for the smallest top bands.
struct TopSearch<'a> {
    /// For the pair (`a`, `b`) being searched: the column where row `a` holds the digit row `b`
    /// holds at each column.
    sigma: [u8; 9],
    /// The same for row `c`.
    tau: [u8; 9],
    /// The orientation being searched.
    orient: u8,
    /// The rows `a`, `b`, `c` being searched.
    rows: [u8; 3],
    /// The second row being built, as positions (value - 1).
    row2: [u8; 9],
    /// The smallest second and third rows so far, as positions.
    best: [[u8; 9]; 2],
    /// The top bands that give `best`.
    tops: &'a mut Vec<Top>,
}

impl TopSearch<'_> {
    /// Searches the top bands with row `a` of `grid` first (its band pure when `pure`): each
    /// other row of its band second, each stack first.
    fn pairs_with(&mut self, grid: &[Line; 9], a: usize, pure: bool) {
        let mut column_of = [0u8; 10];
        for (col, &d) in grid[a].iter().enumerate() {
            column_of[usize::from(d)] = col as u8;
        }
        let band = a / 3 * 3;
        for b in band..band + 3 {
            if b == a {
                continue;
            }
            let c = band + band + band + 3 - a - b;
            self.rows = [a as u8, b as u8, c as u8];
            self.sigma = grid[b].map(|d| column_of[usize::from(d)]);
            self.tau = grid[c].map(|d| column_of[usize::from(d)]);
            for stack in 0..3u8 {
                let cols = [0, 1, 2].map(|i| stack * 3 + i);
                if pure {
                    // the three images go to one stack, in the order of the first stack's
                    // columns: every order of them gives 456
                    for perm in &PERMS3 {
                        self.start(perm.map(|i| cols[usize::from(i)]));
                    }
                } else {
                    // two images go to one stack and one to another: the two first (either
                    // order) give 457, any other order more
                    let to = cols.map(|c| self.sigma[usize::from(c)] / 3);
                    let odd = if to[0] == to[1] {
                        2
                    } else if to[0] == to[2] {
                        1
                    } else {
                        0
                    };
                    let (x, y) = (cols[(odd + 1) % 3], cols[(odd + 2) % 3]);
                    self.start([x, y, cols[odd]]);
                    self.start([y, x, cols[odd]]);
                }
            }
        }
    }

    /// Searches the column orders that start with `first` (the first stack's columns in order).
    fn start(&mut self, first: [u8; 3]) {
        let mut order = Order::NEW;
        for col in first {
            order.place(col);
        }
        // the first three values are those of every start of this kind: no need to compare them
        for j in 0..3 {
            self.row2[j] = order.place_image(&self.sigma, j);
        }
        self.walk(3, order, false);
    }

    /// Builds the second row from position `j` (whose column is placed) on, in every column order
    /// that `order` allows and that can still give rows no larger than `best` (`smaller`: the
    /// positions before `j` are already smaller). True when `best` was replaced: the caller's
    /// later choices then compare with the new one, which shares their prefix.
    fn walk(&mut self, mut j: usize, mut order: Order, mut smaller: bool) -> bool {
        loop {
            let value = order.place_image(&self.sigma, j);
            if !smaller {
                if value > self.best[0][j] {
                    return false;
                }
                smaller = value < self.best[0][j];
            }
            self.row2[j] = value;
            j += 1;
            if j == 9 {
                return self.leaf(&order, smaller);
            }
            if order.col_at[j] != NONE {
                continue;
            }
            // position j is the first free one of its slot: any column not placed yet of the
            // slot's stack (or of the stacks without a slot when it has none) may go there
            let mut free = order.free_at(j);
            if free & (free - 1) == 0 {
                order.place(free.trailing_zeros() as u8);
                continue;
            }
            let mut improved = false;
            while free != 0 {
                let col = free.trailing_zeros() as u8;
                free &= free - 1;
                let mut next = order;
                next.place(col);
                if self.walk(j, next, smaller) {
                    improved = true;
                    smaller = false;
                }
            }
            return improved;
        }
    }

    /// A complete column order: keeps its top band if its rows are no larger than `best`.
    fn leaf(&mut self, order: &Order, mut smaller: bool) -> bool {
        let row3 = order
            .col_at
            .map(|col| order.pos[usize::from(self.tau[usize::from(col)])]);
        if !smaller {
            match row3.cmp(&self.best[1]) {
                std::cmp::Ordering::Greater => return false,
                std::cmp::Ordering::Less => smaller = true,
                std::cmp::Ordering::Equal => {}
            }
        }
        if smaller {
            self.best = [self.row2, row3];
            self.tops.clear();
        }
        self.tops.push(Top {
            orient: self.orient,
            rows: self.rows,
            cols: order.col_at,
        });
        smaller
    }
}

/// A column order being built: positions fill from the left within each slot (a stack's three
/// positions), and slots are given stacks in order.
#[derive(Debug, Clone, Copy)]
struct Order {
    /// Source column at each position.
    col_at: [u8; 9],
    /// Position of each source column.
    pos: [u8; 9],
    /// Stack at each slot.
    stack_at: [u8; 3],
    /// Slot of each stack.
    slot_of: [u8; 3],
    /// Positions filled in each slot.
    filled: [u8; 3],
    /// Slots given a stack.
    slots: u8,
}

impl Order {
    /// Nothing placed.
    const NEW: Order = Order {
        col_at: [NONE; 9],
        pos: [NONE; 9],
        stack_at: [NONE; 3],
        slot_of: [NONE; 3],
        filled: [0; 3],
        slots: 0,
    };

    /// Places column `col` at the first free position of its stack's slot, giving the stack the
    /// next slot if it has none; returns the position.
    fn place(&mut self, col: u8) -> u8 {
        let stack = usize::from(col / 3);
        let mut slot = self.slot_of[stack];
        if slot == NONE {
            slot = self.slots;
            self.slots += 1;
            self.slot_of[stack] = slot;
            self.stack_at[usize::from(slot)] = stack as u8;
        }
        let p = slot * 3 + self.filled[usize::from(slot)];
        self.filled[usize::from(slot)] += 1;
        self.col_at[usize::from(p)] = col;
        self.pos[usize::from(col)] = p;
        p
    }

    /// The position of the image (under `sigma`) of the column at position `j`, the image
    /// placed first if it was not.
    fn place_image(&mut self, sigma: &[u8; 9], j: usize) -> u8 {
        let image = sigma[usize::from(self.col_at[j])];
        match self.pos[usize::from(image)] {
            NONE => self.place(image),
            p => p,
        }
    }

    /// The columns (a bit each) that may go to position `j`, the first free one of its slot:
    /// those not placed of the slot's stack, or of every stack without a slot if it has none.
    fn free_at(&self, j: usize) -> u16 {
        let stacks = match self.stack_at[j / 3] {
            NONE => (0..3).fold(0u16, |m, s| m | (u16::from(self.slot_of[s] == NONE) << s)),
            stack => 1 << stack,
        };
        (0..9).fold(0, |free, col| {
            let open = stacks & (1 << (col / 3)) != 0 && self.pos[col] == NONE;
            free | (u16::from(open) << col)
        })
    }
}

/// Reads the grid below a top band (its other two bands in the order and row order that give the
/// smallest rows, see the module documentation) into `form` when the whole grid is smaller than
/// `form`'s (whose top band is the same).
fn below_the_top(grid: &[Line; 9], top: &Top, form: &mut GridForm) {
    let mut labels = [0u8; 10];
    for (j, &col) in top.cols.iter().enumerate() {
        labels[usize::from(grid[usize::from(top.rows[0])][usize::from(col)])] = j as u8 + 1;
    }
    let first = usize::from(top.cols[0]);
    let top_band = top.rows[0] / 3;
    // the other bands' rows, each band's sorted by the label of its first digit
    let mut bands = [[0u8; 3]; 2];
    let mut keys = [[0u8; 3]; 2];
    for (i, band) in (0..3u8).filter(|&b| b != top_band).enumerate() {
        for k in 0..3 {
            let row = band * 3 + k as u8;
            let key = labels[usize::from(grid[usize::from(row)][first])];
            // insertion into the sorted three
            let mut at = k;
            while at > 0 && keys[i][at - 1] > key {
                keys[i][at] = keys[i][at - 1];
                bands[i][at] = bands[i][at - 1];
                at -= 1;
            }
            keys[i][at] = key;
            bands[i][at] = row;
        }
    }
    if keys[1][0] < keys[0][0] {
        bands.swap(0, 1);
    }
    let mut rows = [0u8; 9];
    rows[..3].copy_from_slice(&top.rows);
    rows[3..6].copy_from_slice(&bands[0]);
    rows[6..].copy_from_slice(&bands[1]);
    let mut smaller = false;
    let mut read = [0u8; 54];
    for (i, &row) in rows[3..].iter().enumerate() {
        let line = &grid[usize::from(row)];
        for (j, &col) in top.cols.iter().enumerate() {
            let at = i * 9 + j;
            let value = labels[usize::from(line[usize::from(col)])];
            if !smaller {
                let best = form.cells[27 + at];
                if value > best {
                    return;
                }
                smaller = value < best;
            }
            read[at] = value;
        }
    }
    if smaller {
        form.cells[27..].copy_from_slice(&read);
        form.orient = top.orient;
        form.rows = rows;
        form.cols = top.cols;
        form.labels = labels;
    }
}
