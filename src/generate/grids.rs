//! Random solution grids: an empty grid, or a puzzle's givens, completed by a depth-first search
//! that takes an open cell with fewest digits left and tries its digits in random order.
//!
//! Why a search of its own rather than the solver's: the solver tries digits in a fixed order
//! and picks its branch cells by position, so the grids it completes would lean towards its own
//! habits; here every choice between digits is drawn. It is not a uniform draw over all grids
//! (no practical method is: that needs counting completions), but every grid can come out, and
//! the search's leanings are those of random digit choices. The three diagonal boxes of an empty
//! grid share no row or column, so they are filled first by shuffling 1..9 three times, which
//! leaves 54 cells to search; the search then almost never backtracks (see the tests).
//!
//! The candidates are bitboards, one 81-bit mask per digit, so finding the cells with one, two
//! or more digits left is a few dozen bit operations over the whole grid (counting per cell
//! bit-sliced, as the solver counts), and placing a digit is one mask of peers: about 100
//! instructions a cell. All state is on the stack.

use crate::grid::{CELLS, Grid};
use crate::transform::Rng;

use super::symmetry::ALL_CELLS;

pub(crate) use crate::grid::PEERS;

/// A grid being filled: its cells and the candidates of its open cells.
#[derive(Clone, Copy)]
struct Fill {
    cells: [u8; CELLS],
    /// Per digit (index 0 for 1), the open cells that may still take it.
    cand: [u128; 9],
    /// The open cells.
    open: u128,
}

impl Fill {
    /// A fill of `cells` (0 blank), or `None` when a given clashes with an equal peer.
    fn new(cells: &[u8; CELLS]) -> Option<Fill> {
        let mut fill = Fill {
            cells: [0; CELLS],
            cand: [ALL_CELLS; 9],
            open: ALL_CELLS,
        };
        for (i, &v) in cells.iter().enumerate() {
            if v != 0 {
                let d = usize::from(v - 1) % 9;
                if fill.cand[d] >> i & 1 == 0 {
                    return None;
                }
                fill.set(i, d);
            }
        }
        Some(fill)
    }

    /// Places digit `d` (0..9) at the open cell `i`.
    #[inline(always)]
    fn set(&mut self, i: usize, d: usize) {
        let bit = 1u128 << i;
        self.open &= !bit;
        for c in &mut self.cand {
            *c &= !bit;
        }
        self.cand[d] &= !PEERS[i];
        self.cells[i] = d as u8 + 1;
    }

    /// The digits (bit per digit, 0 for 1) open cell `i` may take.
    #[inline(always)]
    fn digits(&self, i: usize) -> u16 {
        self.cand
            .iter()
            .enumerate()
            .fold(0, |m, (d, &c)| m | ((c >> i) as u16 & 1) << d)
    }

    /// Fills every open cell, or returns false when no completion exists. `nodes` counts the
    /// digits tried, for the tests.
    fn search(&mut self, rng: &mut Rng, nodes: &mut u64) -> bool {
        loop {
            if self.open == 0 {
                return true;
            }
            // open cells with at least one, two and three digits left
            let (mut one, mut two, mut three) = (0u128, 0u128, 0u128);
            for &c in &self.cand {
                three |= two & c;
                two |= one & c;
                one |= c;
            }
            if self.open & !one != 0 {
                return false;
            }
            // a cell with one digit takes it, with no choice to undo
            let single = self.open & !two;
            if single != 0 {
                let cell = single.trailing_zeros() as usize;
                let d = self.digits(cell).trailing_zeros() as usize;
                self.set(cell, d);
                continue;
            }
            let pairs = self.open & !three;
            let cell = if pairs != 0 { pairs } else { self.open }.trailing_zeros() as usize;
            let mut left = self.digits(cell);
            while left != 0 {
                let d = nth_digit(left, rng.below(left.count_ones() as usize));
                left &= !(1 << d);
                *nodes += 1;
                let mut child = *self;
                child.set(cell, usize::from(d));
                if child.search(rng, nodes) {
                    *self = child;
                    return true;
                }
            }
            return false;
        }
    }
}

/// The digit index of the `n`-th set bit (0-based) of `digits`.
#[inline(always)]
fn nth_digit(mut digits: u16, n: usize) -> u8 {
    for _ in 0..n {
        digits &= digits - 1;
    }
    digits.trailing_zeros() as u8
}

/// A random solution grid drawn with `rng` (see the module documentation).
pub(crate) fn random_grid(rng: &mut Rng) -> Grid {
    random_grid_counted(rng, &mut 0)
}

fn random_grid_counted(rng: &mut Rng, nodes: &mut u64) -> Grid {
    let mut cells = [0u8; CELLS];
    // the diagonal boxes share no unit: any three orders of 1..9 fit
    for b in [0usize, 4, 8] {
        let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
        rng.shuffle(&mut digits);
        for (k, &d) in digits.iter().enumerate() {
            cells[(b / 3 * 3 + k / 3) * 9 + b % 3 * 3 + k % 3] = d;
        }
    }
    // every such start has completions, so the search always succeeds; the empty grid is the
    // answer only should it not (it never does: see the tests)
    complete_counted(rng, &cells, nodes).unwrap_or(Grid::EMPTY)
}

/// A random completion of the cells `cells` (0 blank), drawn with `rng`; `None` when they have
/// none.
pub(crate) fn complete(rng: &mut Rng, cells: &[u8; CELLS]) -> Option<Grid> {
    complete_counted(rng, cells, &mut 0)
}

fn complete_counted(rng: &mut Rng, cells: &[u8; CELLS], nodes: &mut u64) -> Option<Grid> {
    let mut fill = Fill::new(cells)?;
    if !fill.search(rng, nodes) {
        return None;
    }
    Grid::from_values(fill.cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_grids_are_valid_different_and_rarely_backtrack() {
        let mut rng = Rng::new(1);
        let mut seen = std::collections::HashSet::new();
        let mut nodes = 0;
        let n = 2000;
        for _ in 0..n {
            let grid = random_grid_counted(&mut rng, &mut nodes);
            assert!(grid.is_complete() && grid.conflict().is_none(), "{grid}");
            assert!(seen.insert(grid));
        }
        // digits chosen among two or more: a few a grid, so little backtracking
        let per_grid = nodes as f64 / n as f64;
        assert!(per_grid < 20.0, "{per_grid} choices a grid");
        // every digit lands in every cell some time: no cell's digit is fixed by the method
        let mut digits_at = [0u16; CELLS];
        for g in &seen {
            for (i, &v) in g.cells().iter().enumerate() {
                digits_at[i] |= 1 << v;
            }
        }
        assert!(digits_at.iter().all(|&m| m == 0b11_1111_1110));
    }

    #[test]
    fn completes_a_puzzle_keeping_its_givens_or_says_there_is_none() {
        let puzzle: Grid =
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
                .parse()
                .unwrap();
        let mut rng = Rng::new(9);
        let done = complete(&mut rng, puzzle.cells()).unwrap();
        assert!(done.solves(&puzzle));
        // few givens: many completions, drawn differently
        let mut sparse = [0u8; CELLS];
        sparse[..9].copy_from_slice(puzzle.cells()[..9].try_into().unwrap());
        let a = complete(&mut rng, &sparse).unwrap();
        let b = complete(&mut rng, &sparse).unwrap();
        assert_ne!(a, b);
        let sparse = Grid::from_values(sparse).unwrap();
        assert!(a.solves(&sparse) && b.solves(&sparse));
        // two equal givens in a row, and a cell with no digit left
        let mut clash = [0u8; CELLS];
        clash[0] = 5;
        clash[8] = 5;
        assert_eq!(complete(&mut rng, &clash), None);
        let mut stuck = [0u8; CELLS];
        stuck[1..9].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
        stuck[45] = 9;
        assert_eq!(complete(&mut rng, &stuck), None);
        // a full valid grid is its own completion
        assert_eq!(complete(&mut rng, done.cells()), Some(done));
    }
}
