//! Puzzles on a clue pattern (`--pattern`): givens exactly on the marked cells.
//!
//! A random grid's digits on a sparse pattern almost never make a unique puzzle (none in a
//! million tries on a 22-mark pattern, measured when this was written), so the digits are searched for: a local
//! search over the digits on the marks. It starts from a random grid's digits there and counts
//! the puzzle's solutions up to [`CAP`]; a step writes another digit into one marked cell (one
//! that no given among its peers holds) and is kept when the puzzle still has a solution and no
//! more of them than before, up to the cap (so it wanders over plateaus). A count of one is a
//! unique puzzle; it is kept when no given can go (the pattern fixes the givens, so a puzzle
//! with one to spare is not minimal), else the search goes on from it. A search that has not
//! come closer in [`STALL`] steps starts again from a new grid. Each step is one try of the
//! record's budget; every random number comes from the record's generator.

use crate::grid::{CELLS, Grid};
use crate::solver;
use crate::transform::Rng;

use super::grids::{PEERS, random_grid};
use super::minimize::Carver;
use super::{Budget, Failure, Pattern};

/// Solutions counted at most: more only tell apart puzzles far from unique, at a cost.
const CAP: u32 = 32;

/// Steps without a lower count before the search starts again from a new grid.
const STALL: u32 = 2000;

/// A unique, minimal puzzle with givens exactly on `pattern`, and its solution; a
/// [`Failure`] when the budget runs out (or the caller stops) first.
pub(crate) fn search(
    pattern: &Pattern,
    rng: &mut Rng,
    budget: &mut Budget<'_>,
) -> Result<(Grid, Grid), Failure> {
    let marks: Vec<usize> = (0..CELLS)
        .filter(|&c| pattern.mask() >> c & 1 != 0)
        .collect();
    loop {
        budget.next()?;
        let grid = random_grid(rng);
        let mut cells = [0u8; CELLS];
        for &c in &marks {
            cells[c] = grid.cells()[c];
        }
        let mut count = solutions(&cells);
        let mut stall = 0;
        while stall < STALL {
            if count == 1 {
                if let Some(found) = minimal(&cells, pattern, budget) {
                    return Ok(found);
                }
            }
            budget.next()?;
            stall += 1;
            let cell = marks[rng.below(marks.len())];
            // the digits no peer given holds, but the cell's own
            let mut taken = 1u16 << cells[cell];
            let mut peers = pattern.mask() & PEERS[cell];
            while peers != 0 {
                taken |= 1 << cells[peers.trailing_zeros() as usize];
                peers &= peers - 1;
            }
            let free = !taken & 0b11_1111_1110;
            if free == 0 {
                continue;
            }
            let mut pick = free;
            for _ in 0..rng.below(free.count_ones() as usize) {
                pick &= pick - 1;
            }
            let old = cells[cell];
            cells[cell] = pick.trailing_zeros() as u8;
            let next = solutions(&cells);
            if next == 0 || next > count {
                cells[cell] = old;
                continue;
            }
            if next < count {
                stall = 0;
            }
            count = next;
        }
    }
}

/// The solutions of `cells`, counted up to [`CAP`] (0: none, or the givens clash).
fn solutions(cells: &[u8; CELLS]) -> u32 {
    Grid::from_values(*cells)
        .and_then(|p| solver::solve(&p, CAP).ok())
        .map_or(0, |out| out.count)
}

/// The puzzle of `cells` and its solution when it is unique and minimal; the check is noted
/// against the budget's reach.
fn minimal(
    cells: &[u8; CELLS],
    pattern: &Pattern,
    budget: &mut Budget<'_>,
) -> Option<(Grid, Grid)> {
    let puzzle = Grid::from_values(*cells)?;
    let solution = solver::solve(&puzzle, 1).ok()?.solution?;
    let mut carver = Carver::new(&solution);
    carver.set_givens(pattern.mask());
    if carver.needs_every_given(0) {
        return Some((puzzle, solution));
    }
    // one solution all the same: counted among those made (the give-up said "0 puzzles with
    // one solution made; 99951 not minimal")
    budget.reached.note_givens(pattern.mask().count_ones());
    budget.reached.not_minimal += 1;
    None
}
