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
            sigma: [0; 16],
            tau: [0; 16],
            orient: 0,
            rows: [0; 3],
            best: (u64::MAX, u64::MAX),
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
        for (i, cell) in form.cells[9..27].iter_mut().enumerate() {
            let row = if i < 9 { search.best.0 } else { search.best.1 };
            *cell = ((row >> (4 * (8 - i % 9))) & 15) as u8 + 1;
        }
        // A top that reads the whole grid as the best one so far, from another group (rows `a`
        // and `b`), shows an automorphism mapping its group's placements onto the best one's,
        // with the same grids: the best one's group was read to its end (the best comes from
        // an earlier group), so the rest of this group gives nothing new and is passed over.
        // A grid with many automorphisms reads its first group and one top of each other group
        // instead of every top (the 648-automorphism grid: 53 tops of 648).
        let group = |top: &Top| (top.orient, top.rows[0], top.rows[1]);
        let (mut best_group, mut passed) = (None, None);
        for top in tops.iter() {
            if passed == Some(group(top)) {
                continue;
            }
            match below_the_top(&lines.grid[usize::from(top.orient)], top, &mut form) {
                Ordering::Less => best_group = Some(group(top)),
                Ordering::Equal if best_group != Some(group(top)) => passed = Some(group(top)),
                _ => {}
            }
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

/// A map of columns (or positions) 0..9 to columns (or positions), indexed by a value masked to
/// four bits: no bounds to check on the hot path.
type Map = [u8; 16];

/// `map[i]`.
fn at(map: &Map, i: u8) -> u8 {
    map[usize::from(i & 15)]
}

/// The search for the smallest top bands.
struct TopSearch<'a> {
    /// For the pair (`a`, `b`) being searched: the column where row `a` holds the digit row `b`
    /// holds at each column.
    sigma: Map,
    /// The same for row `c`.
    tau: Map,
    /// The orientation being searched.
    orient: u8,
    /// The rows `a`, `b`, `c` being searched.
    rows: [u8; 3],
    /// The smallest second and third rows so far, as positions (value - 1), 4 bits each, the first
    /// highest: rows compare as numbers.
    best: (u64, u64),
    /// The top bands that give `best`.
    tops: &'a mut Vec<Top>,
}

impl TopSearch<'_> {
    /// Searches the top bands with row `a` of `grid` first (its band pure when `pure`): each
    /// other row of its band second, each stack first.
    fn pairs_with(&mut self, grid: &[Line; 9], a: usize, pure: bool) {
        let mut column_of = [0u8; 16];
        for (col, &d) in grid[a].iter().enumerate() {
            column_of[usize::from(d & 15)] = col as u8;
        }
        let through = |line: &Line| {
            let mut map = [0u8; 16];
            for (m, &d) in map.iter_mut().zip(line) {
                *m = at(&column_of, d);
            }
            map
        };
        let band = a / 3 * 3;
        for b in band..band + 3 {
            if b == a {
                continue;
            }
            let c = band + band + band + 3 - a - b;
            self.rows = [a as u8, b as u8, c as u8];
            self.sigma = through(&grid[b]);
            self.tau = through(&grid[c]);
            for stack in 0..3u8 {
                let cols = [0, 1, 2].map(|i| stack * 3 + i);
                if pure {
                    // the three images go to one stack, in the order of the first stack's
                    // columns: every order of them gives 456
                    for perm in &PERMS3 {
                        let [x, y, z] = perm.map(|i| cols[usize::from(i)]);
                        let cols = self.pure_order(x, y, z);
                        self.keep(&cols);
                    }
                } else {
                    // two images go to one stack and one to another: the two first (either
                    // order) give 457, any other order more
                    let to = cols.map(|c| at(&self.sigma, c) / 3);
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
                        let back = at(&self.sigma, at(&self.sigma, x));
                        let value = [x, y, z].iter().position(|&c| c == back).unwrap_or(7);
                        if value as u64 <= (self.best.0 >> 20) & 15 {
                            let cols = self.mixed_order(x, y, z);
                            self.keep(&cols);
                        }
                    }
                }
            }
        }
    }

    /// The column order of a pure band that starts `x`, `y`, `z`: their images next, in that
    /// order, then the images of those.
    fn pure_order(&self, x: u8, y: u8, z: u8) -> [u8; 9] {
        let s = |c| at(&self.sigma, c);
        [x, y, z, s(x), s(y), s(z), s(s(x)), s(s(y)), s(s(z))]
    }

    /// The column order of a mixed band that starts `x`, `y`, `z` (the images of `x` and `y` in
    /// one stack, of `z` in the other): the second stack's columns are the images of `x` and `y`
    /// and the one left; the third stack's, the image of `z`, then the images of the second
    /// stack's columns that fall there, in order, then the one left, if any.
    fn mixed_order(&self, x: u8, y: u8, z: u8) -> [u8; 9] {
        let s = |c| at(&self.sigma, c);
        // the column of a stack that is neither `p` nor `q`
        let third = |p: u8, q: u8| p / 3 * 3 + 3 - p % 3 - q % 3;
        let (t0, t1) = (s(x), s(y));
        let t2 = third(t0, t1);
        let u0 = s(z);
        let mut cols = [x, y, z, t0, t1, t2, u0, 0, 0];
        let mut next = 7;
        for t in [t0, t1, t2] {
            if s(t) / 3 == u0 / 3 {
                cols[next] = s(t);
                next += 1;
            }
        }
        if next == 8 {
            cols[8] = third(u0, cols[7]);
        }
        cols
    }

    /// Reads the top band with column order `cols` and keeps it if its rows are no larger than
    /// `best`.
    fn keep(&mut self, cols: &[u8; 9]) {
        let mut pos = [0u8; 16];
        for (p, &col) in cols.iter().enumerate() {
            pos[usize::from(col & 15)] = p as u8;
        }
        let read = |map: &Map| {
            cols.iter().fold(0u64, |key, &col| {
                (key << 4) | u64::from(at(&pos, at(map, col)))
            })
        };
        let row2 = read(&self.sigma);
        if row2 > self.best.0 {
            return;
        }
        let row3 = read(&self.tau);
        let rows = (row2, row3);
        match rows.cmp(&self.best) {
            Ordering::Greater => return,
            Ordering::Less => {
                self.best = rows;
                self.tops.clear();
            }
            Ordering::Equal => {}
        }
        self.tops.push(Top {
            orient: self.orient,
            rows: self.rows,
            cols: *cols,
        });
    }
}

/// Reads the grid below a top band (its other two bands in the order and row order that give the
/// smallest rows, see the module documentation) into `form` when the whole grid is smaller than
/// `form`'s (whose top band is the same); tells how it compared.
fn below_the_top(grid: &[Line; 9], top: &Top, form: &mut GridForm) -> Ordering {
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
                    return Ordering::Greater;
                }
                smaller = value < best;
            }
            read[at] = value;
        }
    }
    if !smaller {
        return Ordering::Equal;
    }
    form.cells[27..].copy_from_slice(&read);
    form.orient = top.orient;
    form.rows = rows;
    form.cols = top.cols;
    form.labels = labels;
    Ordering::Less
}
