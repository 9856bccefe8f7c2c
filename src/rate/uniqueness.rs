//! Unique rectangles and loops (4.5 and up): cells that would hold only the same two digits
//! around a closed loop would let those digits swap, giving a second solution; in a puzzle with
//! one solution some cell of the loop must hold something else. Types 1 to 4 as Explainer
//! defines them; a loop of 6 cells adds 0.1, of 8 or more 0.2, of 10 or more 0.5, and a type 3
//! joined with a set of N adds (N - 1) x 0.1.
//!
//! Explainer collects every loop hint, sorts them by difficulty then type (a stable sort), and
//! takes the first: the hints are sent in that order. Loops are found by a depth-first walk from
//! each bivalue cell (in cell order) through its houses (block, row, column), exactly as
//! Explainer walks, because which cells come first in a loop decides its type 3 and 4 hints.

use std::ops::ControlFlow;

use super::Combinations;
use super::board::{
    ALL_DIGITS, Board, Cells, Digits, HOUSE_CELLS, HOUSE_SET, HOUSES_OF, INDEX_IN, Kind, PEER_SET,
    cells_of, digit_count, digits_of,
};
use super::hint::{Hint, Sink, Technique};

impl Found {
    fn new(
        lp: &[u8],
        kind: u8,
        set: Option<(bool, u8)>,
        difficulty: f64,
        eliminations: Vec<(u8, Digits)>,
    ) -> Found {
        Found {
            kind,
            cells: lp.iter().fold(0u128, |s, &c| s | 1u128 << c),
            hint: Hint::eliminate(
                Technique::UniqueLoop {
                    len: lp.len() as u8,
                    kind,
                    set,
                },
                difficulty,
                eliminations,
            ),
        }
    }
}

/// One loop hint before sorting: its type decides ties of difficulty; the loop's cells tell a
/// repeat (the same loop met from another of its cells) from another loop.
struct Found {
    kind: u8,
    cells: u128,
    hint: Hint,
}

/// Unique rectangles and loops.
pub fn unique_loops(board: &Board, sink: Sink) -> ControlFlow<()> {
    let mut found = Vec::new();
    for cell in 0..81 {
        let cands = board.cands(cell);
        if cands.count_ones() != 2 {
            continue;
        }
        let v1 = cands.trailing_zeros() as u8;
        let v2 = (cands & (cands - 1)).trailing_zeros() as u8;
        let mut walk = Walk {
            board,
            pair: cands,
            path: Vec::with_capacity(16),
            loops: Vec::new(),
            parity: [0, 0],
            on_path: 0,
            both: board.cells_with(v1) & board.cells_with(v2),
        };
        walk.parity[0] = houses_of(cell);
        walk.from(cell, 2, 0, None);
        for lp in walk.loops {
            if is_valid_loop(&lp) {
                hints_of_loop(board, &lp, v1, v2, &mut found);
            }
        }
    }
    // Explainer drops repeats of a hint (the same loop met from another cell); they are
    // identical, so keeping the first of each after a stable sort takes the same hint
    found.sort_by(|a, b| {
        a.hint
            .difficulty
            .partial_cmp(&b.hint.difficulty)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.kind.cmp(&b.kind))
    });
    for (i, f) in found.iter().enumerate() {
        let repeat = found[..i]
            .iter()
            .any(|g| g.kind == f.kind && g.cells == f.cells && g.hint == f.hint);
        if !repeat {
            sink(f.hint.clone())?;
        }
    }
    ControlFlow::Continue(())
}

/// Explainer's depth-first search for loops through cells holding both digits of `pair`.
struct Walk<'a> {
    board: &'a Board,
    pair: Digits,
    path: Vec<u8>,
    loops: Vec<Vec<u8>>,
    /// The houses of the path's cells at even and at odd places: a loop meets each of its
    /// houses once at each (see [`is_valid_loop`]), so a cell whose houses are already met at
    /// its place's parity can only lead to loops that are thrown away, and is not walked into.
    parity: [u32; 2],
    /// The path's cells.
    on_path: Cells,
    /// The cells holding both digits of the pair.
    both: Cells,
}

/// The houses of `cell` as bits.
fn houses_of(cell: usize) -> u32 {
    HOUSES_OF[cell].iter().fold(0, |s, &h| s | 1 << h)
}

impl Walk<'_> {
    fn from(&mut self, cell: usize, allowed: i32, extra: Digits, last: Option<Kind>) {
        self.path.push(cell as u8);
        self.on_path |= 1 << cell;
        // the extra digits seen grow over this cell's whole scan, not per branch (as Explainer's)
        let mut extra = extra;
        for (k, kind) in [Kind::Block, Kind::Row, Kind::Column]
            .into_iter()
            .enumerate()
        {
            if Some(kind) == last {
                continue;
            }
            let house = HOUSES_OF[cell][k] as usize;
            // the house's cells in order, those without both digits left out (they never
            // continue a path, and the path's first cell has both)
            let mut cells = HOUSE_SET[house] & self.both;
            while cells != 0 {
                let next = cells.trailing_zeros() as u8;
                cells &= cells - 1;
                if next == self.path[0] && self.path.len() >= 4 {
                    self.loops.push(self.path.clone());
                } else if self.on_path >> next & 1 == 0 {
                    let cands = self.board.cands(next as usize);
                    {
                        extra |= cands & !self.pair;
                        let n = digit_count(cands);
                        let side = self.path.len() % 2;
                        let houses = houses_of(next as usize);
                        let open = self.parity[side] & houses == 0;
                        if open && (n == 2 || digit_count(extra) == 1 || allowed > 0) {
                            let allowed = if n > 2 { allowed - 1 } else { allowed };
                            self.parity[side] |= houses;
                            self.from(next as usize, allowed, extra, Some(kind));
                            self.parity[side] &= !houses;
                        }
                    }
                }
            }
        }
        self.on_path &= !(1 << cell);
        self.path.pop();
    }
}

/// Each house of the loop's cells is met once at odd and once at even places along the loop.
fn is_valid_loop(lp: &[u8]) -> bool {
    let (mut odd, mut even) = (0u32, 0u32);
    for (i, &c) in lp.iter().enumerate() {
        let set = if i % 2 == 1 { &mut odd } else { &mut even };
        for &h in &HOUSES_OF[c as usize] {
            if *set >> h & 1 != 0 {
                return false;
            }
            *set |= 1 << h;
        }
    }
    odd == even
}

fn loop_difficulty(len: usize) -> f64 {
    let mut d = 4.5;
    if len >= 10 {
        d += 0.3;
    }
    if len >= 8 {
        d += 0.2;
    } else if len >= 6 {
        d += 0.1;
    }
    d
}

fn hints_of_loop(board: &Board, lp: &[u8], v1: u8, v2: u8, found: &mut Vec<Found>) {
    let pair: Digits = 1 << v1 | 1 << v2;
    let extras: Vec<u8> = lp
        .iter()
        .copied()
        .filter(|&c| board.count(c as usize) > 2)
        .collect();
    let len = lp.len();
    let base = loop_difficulty(len);
    match extras.len() {
        1 => found.push(Found::new(lp, 1, None, base, vec![(extras[0], pair)])),
        0 => {}
        2 => {
            let (c1, c2) = (extras[0] as usize, extras[1] as usize);
            let others = (board.cands(c1) | board.cands(c2)) & !pair;
            if others.count_ones() == 1 {
                type2(board, lp, &extras, pair, base, found);
            } else if others.count_ones() >= 2 {
                type3(board, lp, c1, c2, pair, base, found);
            }
            type4(board, lp, c1, c2, v1, v2, base, found);
        }
        _ => type2(board, lp, &extras, pair, base, found),
    }
}

/// The extra cells share one extra digit: the cells seeing all of them lose it.
fn type2(board: &Board, lp: &[u8], extras: &[u8], pair: Digits, base: f64, found: &mut Vec<Found>) {
    let z = (board.cands(extras[0] as usize) & !pair).trailing_zeros() as u8;
    let mut seen = extras.iter().fold(!0u128, |s, &c| s & PEER_SET[c as usize]);
    for &c in extras {
        seen &= !(1u128 << c);
    }
    let eliminations: Vec<(u8, Digits)> = cells_of(seen)
        .filter(|&c| board.has(c, z))
        .map(|c| (c as u8, 1 << z))
        .collect();
    if !eliminations.is_empty() {
        found.push(Found::new(lp, 2, None, base, eliminations));
    }
}

/// The two extra cells' extra digits form a naked (or hidden) set with other cells of a house
/// they share.
fn type3(
    board: &Board,
    lp: &[u8],
    c1: usize,
    c2: usize,
    pair: Digits,
    base: f64,
    found: &mut Vec<Found>,
) {
    let extra = (board.cands(c1) | board.cands(c2)) & !pair;
    let n_extra = extra.count_ones();
    for degree in n_extra..=7 {
        for k in 0..3 {
            let house = HOUSES_OF[c1][k] as usize;
            if house != HOUSES_OF[c2][k] as usize {
                continue;
            }
            let cells = &HOUSE_CELLS[house];
            let empty = board.empty_count(house);
            let (i1, i2) = (INDEX_IN[c1][k] as usize, INDEX_IN[c2][k] as usize);
            if degree * 2 <= empty {
                for set in Combinations::new(degree, 9) {
                    if set >> i1 & 1 == 0 || set >> i2 & 1 != 0 {
                        continue;
                    }
                    // c1 stands for both extra cells with their extra digits
                    let mut naked = extra & board.cands(c1) & board.cands(c2);
                    let mut union = 0;
                    let mut ok = true;
                    for j in super::bits(set) {
                        let p = if j == i1 {
                            extra
                        } else {
                            board.cands(cells[j] as usize)
                        };
                        if j != i1 {
                            naked |= p;
                        }
                        ok &= p.count_ones() > 1;
                        union |= p;
                    }
                    if naked.count_ones() != degree || !ok || union.count_ones() != degree {
                        continue;
                    }
                    let others = (0..9)
                        .filter(|&j| set >> j & 1 == 0 && j != i2)
                        .map(|j| cells[j]);
                    let eliminations = board.losses(others, union);
                    if !eliminations.is_empty() {
                        let size = union.count_ones();
                        found.push(Found::new(
                            lp,
                            3,
                            Some((false, size as u8)),
                            base + (size - 1) as f64 * 0.1,
                            eliminations,
                        ));
                    }
                }
            }
            if degree * 2 < empty {
                let rest: Vec<u8> = (1..=9u8)
                    .filter(|&d| pair >> d & 1 == 0 && extra >> d & 1 == 0)
                    .collect();
                if degree as usize - 2 > rest.len() {
                    continue;
                }
                for pick in Combinations::new(degree - 2, rest.len() as u32) {
                    let mut digits: Digits = pair;
                    for p in super::bits(pick) {
                        digits |= 1 << rest[p];
                    }
                    // the digits' places in the house, c2 left out
                    let mut union = 0u16;
                    let mut ok = true;
                    for d in digits_of(digits) {
                        let p = board.positions(house, d) & !(1 << i2);
                        ok &= p != 0;
                        union |= p;
                    }
                    if !ok || union.count_ones() != degree {
                        continue;
                    }
                    let places = union & !(1 << i1) & !(1 << i2);
                    let places_cells = super::bits(places as u64).map(|j| cells[j]);
                    let eliminations = board.losses(places_cells, ALL_DIGITS & !digits);
                    if !eliminations.is_empty() {
                        found.push(Found::new(
                            lp,
                            3,
                            Some((true, digits.count_ones() as u8)),
                            base + (places.count_ones() as i32 - 1) as f64 * 0.1,
                            eliminations,
                        ));
                    }
                }
            }
        }
    }
}

/// One of the loop's digits is confined to the two extra cells in a house they share: the other
/// digit leaves both.
#[allow(clippy::too_many_arguments)] // the loop's parts, named as in the type's definition
fn type4(
    board: &Board,
    lp: &[u8],
    c1: usize,
    c2: usize,
    v1: u8,
    v2: u8,
    base: f64,
    found: &mut Vec<Found>,
) {
    let (mut lock1, mut lock2) = (false, false);
    for (&h1, &h2) in HOUSES_OF[c1].iter().zip(&HOUSES_OF[c2]) {
        let house = h1 as usize;
        if h1 != h2 {
            continue;
        }
        let others = HOUSE_SET[house] & !(1u128 << c1) & !(1u128 << c2);
        lock1 |= !cells_of(others).any(|c| board.has(c, v1));
        lock2 |= !cells_of(others).any(|c| board.has(c, v2));
    }
    let remove = if lock1 {
        v2
    } else if lock2 {
        v1
    } else {
        return;
    };
    found.push(Found::new(
        lp,
        4,
        None,
        base,
        vec![(c1 as u8, 1 << remove), (c2 as u8, 1 << remove)],
    ));
}
