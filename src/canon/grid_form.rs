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
//!   second row puts each column met as an image at the first free position of its stack, the
//!   stack of the first image second. A box holds each digit once, so `σ` sends the columns of a
//!   stack to the other two: all three to one of them (a *pure* band: the second row starts
//!   `456`), or two to one and one to the other (*mixed*: `457` at best, with those two first, in
//!   either order). So the order of the first stack's columns is the only choice (6 orders in a
//!   pure band, 2 in a mixed one): after it every position is forced, each either an image or the
//!   one column left of its stack. That is 36 (orientation, band, `a`, `b`) pairs x 3 first
//!   stacks x 2 or 6 orders, most cut at their fourth position by the smallest rows found so far;
//!   every column order giving the smallest second row, ties broken by the third, is kept.
//! - Below the top band everything is forced: the columns and labels are fixed, the rows of a band
//!   start with distinct digits (a column holds each digit once), so the smallest rows come in the
//!   order of their first digits, and the band whose smallest first digit is smaller goes second.
//!
//! So the form is the smallest of the grids the kept top bands give, each read once.

use std::cmp::Ordering;

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
                    let (x, y, z) = (cols[(odd + 1) % 3], cols[(odd + 2) % 3], cols[odd]);
                    for (x, y) in [(x, y), (y, x)] {
                        // the value at position 3, told before any placing (most starts stop
                        // there): where the image of x's image stands, x, y and z at 0, 1 and 2;
                        // else in the third stack, whose first position z's image took
                        let back = self.sigma[usize::from(self.sigma[usize::from(x)])];
                        let value = [0, 1, 2]
                            .into_iter()
                            .find(|&i| [x, y, z][i] == back)
                            .unwrap_or(7) as u8;
                        if value <= self.best[0][3] {
                            self.start([x, y, z]);
                        }
                    }
                }
            }
        }
    }

    /// Reads the top band whose column order starts with `first` (the first stack's columns in
    /// order), and keeps it if its rows are no larger than `best`.
    fn start(&mut self, first: [u8; 3]) {
        let Some((row2, row3, cols)) = self.read(first) else {
            return;
        };
        if row2 == self.best[0] {
            match row3.cmp(&self.best[1]) {
                Ordering::Greater => return,
                Ordering::Less => self.tops.clear(),
                Ordering::Equal => {}
            }
        } else {
            self.tops.clear();
        }
        self.best = [row2, row3];
        self.tops.push(Top {
            orient: self.orient,
            rows: self.rows,
            cols,
        });
    }

    /// The second and third rows (as positions) and the column order of the top band whose
    /// column order starts with `first`; `None` as soon as the second row is larger than
    /// `best`'s.
    ///
    /// From the first stack on, every position is forced (the module documentation): each column
    /// met as an image goes to the first free position of its stack, the stack of the first
    /// column's image being second and the other third; a position still free when reached (the
    /// third of the second stack, the third of the third) has one column of its stack left.
    fn read(&self, first: [u8; 3]) -> Option<([u8; 9], [u8; 9], [u8; 9])> {
        let stack = first[0] / 3;
        let second = self.sigma[usize::from(first[0])] / 3;
        let stack_at = [stack, second, 3 - stack - second];
        let mut slot_of = [0u8; 3];
        for (slot, &s) in stack_at.iter().enumerate() {
            slot_of[usize::from(s)] = slot as u8;
        }
        let mut col_at = [NONE; 9];
        let mut pos = [NONE; 9];
        for (p, &col) in first.iter().enumerate() {
            col_at[p] = col;
            pos[usize::from(col)] = p as u8;
        }
        // the next free position of each slot
        let mut free = [3u8, 3, 6];
        let mut row2 = [0u8; 9];
        let mut smaller = false;
        for j in 0..9 {
            if col_at[j] == NONE {
                let base = stack_at[j / 3] * 3;
                let col = (base..base + 3)
                    .find(|&c| pos[usize::from(c)] == NONE)
                    .unwrap_or(base);
                col_at[j] = col;
                pos[usize::from(col)] = j as u8;
                free[j / 3] += 1;
            }
            let image = self.sigma[usize::from(col_at[j])];
            let mut value = pos[usize::from(image)];
            if value == NONE {
                let slot = usize::from(slot_of[usize::from(image / 3)]);
                value = free[slot];
                free[slot] += 1;
                pos[usize::from(image)] = value;
                col_at[usize::from(value)] = image;
            }
            if !smaller {
                let best = self.best[0][j];
                if value > best {
                    return None;
                }
                smaller = value < best;
            }
            row2[j] = value;
        }
        let row3 = col_at.map(|col| pos[usize::from(self.tau[usize::from(col)])]);
        Some((row2, row3, col_at))
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
