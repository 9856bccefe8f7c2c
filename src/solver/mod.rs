//! The single-threaded solver: `solve(&Grid, limit) -> Outcome { count, solution, guesses }`.
//!
//! Knows nothing of I/O or threads. Contradictory givens are reported before any search.
//!
//! Design (a bitboard solver in the JCZSolve family, written from the published ideas): for each
//! digit, the cells that may still hold it are kept as three 27-bit band masks. Most deduction is
//! done per (digit, band) with one lookup in the private `tables`: the digit's row-by-box triads
//! must admit a permutation, which prunes locked candidates, and a row left with one cell places
//! the digit (a box left with one cell becomes such a row too). Naked singles are found for all
//! digits at once by bit-parallel counting; when that stalls, the same permutation test along
//! columns (stack by stack, all digits at once by bit operations; it also finds hidden singles
//! in columns: see `Board::column_permutations`), and only then does the search branch: on the
//! two-candidate cell with most unsolved peers (weighted: its four box peers outside its row and
//! column twice, the four on them not at all), ties to the band with fewest unsolved cells
//! (else a three-candidate one, else any open cell).
//! Propagation runs from a bit-set work list of the (digit, band) masks that changed (in the AVX2
//! copy, a band with several digits queued is worked all nine digits at once). A saved
//! state is one board copy (212 bytes) on the call stack per branch level (the last alternative
//! reuses the level's own state); nothing is allocated. The search is compiled twice, for the
//! x86-64 baseline and with POPCNT/BMI/AVX2 (where the band-wide steps, through the const
//! parameter `WIDE`, work on eight digits per AVX2 instruction), and the copy the CPU can run is
//! picked at run time: no `target-cpu` flag is needed.

mod lanes;
pub mod reference;
mod tables;
#[cfg(test)]
mod tests;

use std::time::Instant;

use crate::grid::{CELLS, Conflict, Grid};
use crate::status::{Answer, Status};
use tables::{
    BAND, BAND_PEERS, BOX_CELLS, COLUMN, GRID_PEERS, OTHER_BANDS_COLUMN, PEER_WEIGHTS, SPREAD4,
    TRIAD_KEEP, triads,
};

/// What one search found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Solutions found, at most the limit asked for.
    pub count: u32,
    /// The first solution found, if any.
    pub solution: Option<Grid>,
    /// The second solution found, when the limit let the search go on to one (a limit of 2 or
    /// more, and two or more solutions): with the first, it shows where the puzzle is ambiguous.
    pub second: Option<Grid>,
    /// Guesses made: branch alternatives tried beyond the first at each branch point.
    ///
    /// Exactly: each time the search leaves one candidate digit of a branch cell (because it led
    /// to a contradiction, or to solutions while more are wanted) and goes on to the next
    /// candidate, that counts one. A puzzle solved by deduction alone reports 0, and so does a
    /// search whose every first choice was right.
    pub guesses: u64,
}

/// Solves `puzzle` for a record and times the solver call: `solved`, or with `unique` (search up to a
/// second solution) `unique` / `multiple`; `unsolvable` or `contradiction` when there is none.
pub fn answer(puzzle: &Grid, unique: bool) -> Answer {
    answer_with(puzzle, unique, true)
}

/// [`answer`], the solver call timed only when `timed` (else `nanos` is 0): reading the clock
/// twice costs about a tenth of an easy puzzle's solve, worth saving when no time is shown.
pub fn answer_with(puzzle: &Grid, unique: bool, timed: bool) -> Answer {
    let start = timed.then(Instant::now);
    let result = solve(puzzle, if unique { 2 } else { 1 });
    let nanos = start.map_or(0, |start| start.elapsed().as_nanos() as u64);
    let Ok(outcome) = result else {
        return Answer {
            status: Status::Contradiction,
            solution: None,
            guesses: 0,
            nanos,
        };
    };
    let status = match (outcome.count, unique) {
        (0, _) => Status::Unsolvable,
        (_, false) => Status::Solved,
        (1, true) => Status::Unique,
        (_, true) => Status::Multiple,
    };
    Answer {
        status,
        solution: outcome.solution,
        guesses: outcome.guesses,
        nanos,
    }
}

/// Solves `puzzle`, stopping at `limit` solutions (1: first solution; 2: enough to prove uniqueness;
/// 0 is taken as 1). Returns the conflict instead when two givens clash.
pub fn solve(puzzle: &Grid, limit: u32) -> Result<Outcome, Conflict> {
    let Some(mut board) = Board::from_givens(puzzle.cells()) else {
        // Setting up fails exactly when two equal givens see each other; `conflict` names them.
        return match puzzle.conflict() {
            Some(conflict) => Err(conflict),
            // Unreachable by the reasoning above; an empty outcome is still a truthful answer.
            None => Ok(Outcome {
                count: 0,
                solution: None,
                second: None,
                guesses: 0,
            }),
        };
    };
    Ok(search_from(&mut board, limit))
}

/// Searches `puzzle` for solutions other than `known`, one of its solutions, up to `limit` of
/// them (0 is taken as 1); with `differ_at`, only for those that differ from `known` at that
/// cell, `known`'s digit there ruled out (a cell that holds a given rules nothing out).
///
/// The question of a generator: once it knows one solution `S` of a unique puzzle, is the
/// puzzle still unique with some givens removed? A search up to two solutions answers it only
/// after finding `S` again, however late that comes in its order; this one passes over `S`
/// (limit 1 answers it), and with one given removed at `c` it need not look where `S` is at all:
/// a solution that agrees with `S` at `c` solves the unique puzzle, so it is `S`, and every other
/// differs at `c`.
///
/// With `differ_at` (a blank cell) this is the plain search with a digit ruled out; without, it
/// passes over `known` in a copy of the search of its own (`Search<Aim>`), so that the search
/// [`solve`] runs is compiled without that test.
pub fn solve_other(
    puzzle: &Grid,
    known: &Grid,
    differ_at: Option<usize>,
    limit: u32,
) -> Result<Outcome, Conflict> {
    let Some(mut board) = Board::from_givens(puzzle.cells()) else {
        return solve(puzzle, limit);
    };
    let ruled_out = differ_at.filter(|&c| puzzle.cells().get(c) == Some(&0));
    if let Some(cell) = ruled_out {
        if let Some(&digit) = known.cells().get(cell).filter(|&&d| (1..=9).contains(&d)) {
            let (band, bit) = (cell / 27, 1u32 << (cell % 27));
            // the work list starts full, so this removal is propagated with everything else
            board.cand[band & 3][lane(usize::from(digit - 1))] &= !bit;
            // every solution left differs from `known` there: the plain search counts them
            return Ok(search_from(&mut board, limit));
        }
    }
    let mut search = Search::aimed(limit, Aim { known: *known });
    // The baseline copy only: a second instance of the bit-instruction copy changed how the
    // compiler built the one `solve` runs (0.3% more instructions on forum_hardest), and these
    // searches are a small part of a generator's work.
    search.run_baseline(&mut board);
    Ok(search.outcome())
}

/// [`solve_other`] for a puzzle given as its candidates before any deduction: per digit
/// (`cand[0]` for 1), its givens and the open cells that see none of them, a bit per cell (bit
/// `i` for cell `i`); `givens` the cells given. `known` solves the puzzle. With `differ_at`, the
/// solutions that differ from `known` there (the caller has ruled `known`'s digit out of that
/// open cell in `cand`), searched as the plain search; without, the solutions other than `known`.
///
/// The generator's uniqueness checks run some thirty times a puzzle, each on a few givens fewer
/// than a puzzle it holds: it keeps these masks up to date as givens go, so that a check sets up
/// its board from them with no grid to read or clash to look for.
pub(crate) fn solve_other_candidates(
    known: &Grid,
    cand: &[u128; 9],
    givens: u128,
    differ_at: Option<usize>,
    limit: u32,
) -> Outcome {
    let mut board = Board::from_candidates(cand, givens);
    if differ_at.is_some() {
        return search_from(&mut board, limit);
    }
    let mut search = Search::aimed(limit, Aim { known: *known });
    search.run_baseline(&mut board);
    search.outcome()
}

/// Searches below `board` up to `limit` solutions (0 is taken as 1).
fn search_from(board: &mut Board, limit: u32) -> Outcome {
    let mut search = Search::new(limit);
    search.run(board);
    search.outcome()
}

/// The search has found that the current state has no solution.
struct Dead;

/// Candidates of the whole grid. Invariant: a solved cell keeps only its own digit's bit, and
/// that digit has no candidate left among the cell's peers.
#[derive(Clone, Copy)]
struct Board {
    /// Candidate cells per band and digit, at `[band][digit]` (digit 0..9 for 1..=9): a band's
    /// nine digits sit side by side, so clearing a solved cell from all of them is a few vector
    /// operations.
    ///
    /// Padded to 4 bands (index with `band & 3`) and 12 lanes (index through [`lane`]), so
    /// every index is provably in bounds: with no bounds checks (and so no panic paths that must
    /// see memory up to date) the compiler keeps the work list in a register through the hot
    /// loops.
    cand: [[u32; lanes::LANES]; 4],
    /// Bit `4 * digit + band` set when that mask changed since it was last propagated: a work
    /// list, so propagation touches only what changed and never scans for it. Digit-major, unlike
    /// `cand`: finishing one digit's bands before the next converges faster (measured: 56 vs
    /// 63 µs on forum_hardest). Four bits a digit (one unused) rather than three: a shift and a
    /// mask, not a division by 3, turn a bit back into (digit, band), which shortens the
    /// propagation loop's dependency chain (5% less time on forum_hardest for 2% more
    /// instructions).
    todo: u64,
    /// Cells not yet solved, per band (padded to 4 for the same reason as `cand`, index with
    /// `band & 3`).
    unsolved: [u32; 4],
}

/// Lane of digit `d` (0..9) in a band of [`Board::cand`]: the clamp (free where the compiler
/// already knows `d < 9`) lets it drop the bounds check where it does not.
#[inline(always)]
fn lane(d: usize) -> usize {
    d.min(lanes::LANES - 1)
}

/// Bit position in [`Board::todo`] of digit `d` (0..9), band `b` (0..3).
#[inline(always)]
fn todo_index(d: usize, b: usize) -> usize {
    (4 * d + b) & 63
}

/// The work-list bits of one band's nine digits (band 0; shift left by the band).
const BAND_DIGITS: u64 = 0x1_1111_1111;

/// Queued digits of a band from which [`Board::propagate_bands`] (AVX2 copy) works the whole
/// band at once rather than digit by digit.
///
/// Why a threshold: the whole-band step costs about as much as a few single-digit steps, so it
/// pays where many digits are queued (setting up, a placement with many consequences) and
/// loses where a guess touched one or two. Measured (µs, one thread) against digit steps only,
/// whole-band always / from 2 / 3 / 4 queued: forum_hardest +10% / +3% / -1.3% / -1.1%;
/// 17-clue -15% / -12% / -11% / -10%; serg -2% / -4% / -3.6% / -2.5%; shuffled 1106 +7% / 0 /
/// -2.7% / -2.4%; magictour +1.5% / -3.5% / -4.2% / -3%.
const WHOLE_BAND: u32 = 3;

/// The other two bands of each band (padded to 4 entries: index with `band & 3`).
const OTHER_BANDS: [[usize; 2]; 4] = [[1, 2], [0, 2], [0, 1], [0, 0]];

impl Board {
    /// The board with the givens placed, or `None` when two equal givens see each other.
    fn from_givens(cells: &[u8; CELLS]) -> Option<Board> {
        let mut given = [[0u32; lanes::LANES]; 4];
        let mut unsolved = [0, 0, 0, 0];
        // Each digit's givens' peers, gathered as one grid-wide mask a digit and cleared from
        // the bands at the end: a few operations a given rather than one per band.
        let mut seen = [0u128; lanes::LANES];
        // Collect the filled cells first (no branch), then visit only those: a branch per cell
        // on "blank or not" mispredicted about every other cell.
        let filled = lanes::filled_cells(cells);
        for (band, row) in cells.chunks_exact(27).enumerate().take(3) {
            let mut todo = filled[band];
            unsolved[band & 3] = BAND & !todo;
            while todo != 0 {
                let pos = todo.trailing_zeros() as usize & 31;
                todo &= todo - 1;
                // A grid holds 0..=9 and this cell is not 0; `lane` bounds the index anyway.
                let Some(d) = row.get(pos).map(|&v| usize::from(v.wrapping_sub(1))) else {
                    break;
                };
                given[band & 3][lane(d)] |= 1 << pos;
                seen[lane(d)] |= GRID_PEERS[(27 * band + pos) & 127];
            }
        }
        let mut cand = [[0; lanes::LANES]; 4];
        for (b, band) in cand.iter_mut().take(3).enumerate() {
            for d in 0..9 {
                band[lane(d)] = !(seen[lane(d)] >> (27 * b)) as u32 & BAND;
            }
            if !lanes::settle_givens(band, &given[b], unsolved[b]) {
                return None;
            }
        }
        Some(Board {
            cand,
            todo: 0x7_7777_7777,
            unsolved,
        })
    }

    /// The board of a puzzle from its candidates before any deduction (see
    /// [`solve_other_candidates`]): what [`Board::from_givens`] sets up for that puzzle.
    fn from_candidates(cand: &[u128; 9], givens: u128) -> Board {
        let mut bands = [[0; lanes::LANES]; 4];
        let mut unsolved = [0; 4];
        for (b, band) in bands.iter_mut().take(3).enumerate() {
            for (d, &mask) in cand.iter().enumerate() {
                band[lane(d)] = (mask >> (27 * b)) as u32 & BAND;
            }
            unsolved[b] = !(givens >> (27 * b)) as u32 & BAND;
        }
        Board {
            cand: bands,
            todo: 0x7_7777_7777,
            unsolved,
        }
    }

    /// Keeps only the cells `keep` of digit `d` in band `b`, queueing that (digit, band) for
    /// propagation when this removed something.
    #[inline(always)]
    fn restrict(&mut self, d: usize, b: usize, keep: u32) {
        let old = self.cand[b & 3][lane(d)];
        let new = old & keep;
        self.cand[b & 3][lane(d)] = new;
        self.todo |= u64::from(new != old) << todo_index(d, b);
    }

    /// Clears cells `bits` of band `band` from every digit but `d`.
    #[inline(always)]
    fn clear_other_digits<const WIDE: bool>(&mut self, d: usize, band: usize, bits: u32, own: u32) {
        // Clearing all nine (side by side in memory) and then writing the own digit's mask
        // avoids a data-dependent skip in the loop.
        let mut changed = lanes::clear::<WIDE>(&mut self.cand[band & 3], bits);
        self.cand[band & 3][lane(d)] = own;
        changed &= !(1 << d);
        self.todo |= SPREAD4[changed as usize & 511] << band;
    }

    /// Places digit `d` (0..9) at the cell `bit` of band `band`: a guess of the search.
    ///
    /// Fails when the digit is no longer a candidate there, and does nothing when the cell is
    /// already solved. A guess is always an open cell's candidate, so neither happens; the checks
    /// stay because dropping them measured 2-3% slower (code layout, see BENCHMARKS.md).
    #[inline(always)]
    fn place<const WIDE: bool>(&mut self, d: usize, band: usize, bit: u32) -> Result<(), Dead> {
        let own = self.cand[band & 3][lane(d)];
        if own & bit == 0 {
            return Err(Dead);
        }
        if self.unsolved[band & 3] & bit == 0 {
            return Ok(()); // already placed, necessarily as `d`
        }
        self.clear_other_digits::<WIDE>(d, band, bit, own);
        self.claim(d, band, bit);
        Ok(())
    }

    /// Marks the unsolved cell `bit` of band `band` solved as digit `d` and clears `d` from the
    /// cell's peers; the caller has made sure no other digit is left in the cell.
    #[inline(always)]
    fn claim(&mut self, d: usize, band: usize, bit: u32) {
        let pos = bit.trailing_zeros() as usize;
        self.unsolved[band & 3] &= !bit;
        self.restrict(d, band, !BAND_PEERS[pos & 31]);
        let column = COLUMN << (pos % 9);
        for b in OTHER_BANDS[band & 3] {
            self.restrict(d, b, !column);
        }
    }

    /// Runs the (digit, band) deductions until nothing changes: triad permutations, then rows with
    /// one cell left are placed.
    ///
    /// In the AVX2 copy, a band with [`WHOLE_BAND`] or more digits queued is instead worked on
    /// all nine digits at once until it holds still ([`lanes::band_step`]).
    ///
    /// The work list is taken in rounds: a step picks its (digit, band) from the round's copy,
    /// and what it queues waits for the next round, so the next step's pick does not wait on
    /// this step's table look-ups (measured 2-3% less time on hard puzzles than taking each
    /// newly queued mask at once).
    #[inline(always)]
    fn propagate_bands<const WIDE: bool>(&mut self) -> Result<(), Dead> {
        while self.todo != 0 {
            let mut round = self.todo;
            self.todo = 0;
            while round != 0 {
                let i = round.trailing_zeros() as usize & 63;
                let (d, b) = (i >> 2, i & 3);
                if WIDE && (round & BAND_DIGITS << b).count_ones() >= WHOLE_BAND {
                    round &= !(BAND_DIGITS << b);
                    self.todo &= !(BAND_DIGITS << b);
                    let again = lanes::band_step::<WIDE>(&mut self.cand, &mut self.unsolved, b);
                    self.todo |= again.ok_or(Dead)?;
                    continue;
                }
                round &= round - 1;
                // Queued again in this round: this step covers it.
                self.todo &= !(1 << i);
                let m = self.cand[b & 3][lane(d)];
                let m = m & TRIAD_KEEP[triads(m) & 511];
                if m == 0 {
                    return Err(Dead);
                }
                // Rows of the band holding one cell: the digit goes there. The triad permutation
                // already cleared that cell's row and box peers in this band.
                let singles = single_rows(m) & self.unsolved[b & 3];
                if singles != 0 {
                    self.unsolved[b & 3] &= !singles;
                    // Stores `m` after the band-wide clear: stored before, the clear's vector
                    // load would have to wait for this narrower store to leave the store buffer.
                    self.clear_other_digits::<WIDE>(d, b, singles, m);
                    let columns = columns_of(singles);
                    for other in OTHER_BANDS[b & 3] {
                        self.restrict(d, other, !columns);
                    }
                } else {
                    self.cand[b & 3][lane(d)] = m;
                }
            }
        }
        Ok(())
    }

    /// The number of open cells.
    #[inline(always)]
    fn open_cells(&self) -> u32 {
        self.unsolved[0].count_ones()
            + self.unsolved[1].count_ones()
            + self.unsolved[2].count_ones()
    }

    /// True when every cell is solved.
    #[inline(always)]
    fn solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// Places every cell left with one candidate; fails on a cell with none. Returns whether it
    /// placed anything, and leaves in `pairs` the open cells with exactly two candidates as it
    /// found them (per band).
    ///
    /// Why the pairs here: the search branches right after a pass that placed nothing and a
    /// column step that changed nothing, so the board the branch choice sees is the one this
    /// pass counted, and counting to three as well as two costs two operations a digit and band
    /// more than counting to two, where the choice counted all 27 masks again. Measured against
    /// the choice counting them itself (to three; interleaved medians of 5, one pinned core,
    /// AMD EPYC): serg L1 0.982 as published and 0.988 shuffled, L2 0.979 and 0.997; shuffled
    /// 1106 L2 0.991; the rest 0.998-1.005. (Two sessions before, when the choice still counted
    /// to four and this pass read every band, the same move was a trade: 17-clue and unbiased
    /// 1-2% slower.)
    ///
    /// A band's open cells are read first and a solved band is skipped before its nine masks
    /// are. Measured (interleaved medians of 5, one pinned core, AMD EPYC), against reading
    /// them after the count and counting every band: serg 0.992 as published and 0.966
    /// shuffled (limit 2 0.986, 0.982), shuffled 1106 0.978 (limit 2 0.986), unbiased 0.975,
    /// shuffled forum_hardest limit 2 0.977, magictour and 17-clue 0.994-0.996, Kaggle 1.004.
    /// The skip itself is rare (counted: 0.15 bands a pass on serg, none on forum_hardest or
    /// 17-clue), so the gain is in how the pass compiles, not in work saved, and a later
    /// change may move it. (The same skip in the branch choice's count measured 1.5-2.6%
    /// slower.)
    #[inline(always)]
    fn naked_singles<const WIDE: bool>(&mut self, pairs: &mut [u32; 3]) -> Result<bool, Dead> {
        let mut placed = false;
        for (b, pairs) in pairs.iter_mut().enumerate() {
            let unsolved = self.unsolved[b & 3];
            *pairs = 0;
            if unsolved == 0 {
                continue;
            }
            let (mut ones, mut twos, mut threes) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let m = self.cand[b & 3][lane(d)];
                threes |= twos & m;
                twos |= ones & m;
                ones |= m;
            }
            *pairs = twos & !threes & unsolved;
            if unsolved & !ones != 0 {
                return Err(Dead);
            }
            let singles = unsolved & !twos;
            if singles == 0 {
                continue;
            }
            placed = true;
            // Only the digits that hold a single: claiming one digit's cells leaves the other
            // digits' masks in this band as they were.
            let mut digits = lanes::holding::<WIDE>(&self.cand[b & 3], singles);
            while digits != 0 {
                let d = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                let mut mine = singles & self.cand[b & 3][lane(d)];
                while mine != 0 {
                    let bit = mine & mine.wrapping_neg();
                    mine &= mine - 1;
                    // An earlier single of the same digit may have taken this one's only digit.
                    if self.cand[b & 3][lane(d)] & bit == 0 {
                        return Err(Dead);
                    }
                    self.claim(d, b, bit);
                }
            }
        }
        Ok(placed)
    }

    /// Locked candidates along columns, the stack-wise twin of the band step: in each stack a
    /// digit takes one column of each band's box and one band of each column, so the (band,
    /// column) pairs where it can still go must admit a permutation; columns of a band on no
    /// fitting permutation are cleared. Fails when no permutation fits (which includes a
    /// column with no cell left for some digit). Returns whether anything changed.
    ///
    /// This also finds every hidden single in a column: a digit with one cell left in a column
    /// must take that column in the cell's band, which clears the rest of the box; the box is
    /// left with the one cell, and [`Board::propagate_bands`] places it (rows and boxes need no
    /// hidden-single search of their own: the band step places a digit left with one cell in a
    /// row, and a box with one cell left confines its row to that box, leaving that row with the
    /// one cell too).
    ///
    /// `WIDE` (here and in the other band-wide steps): the AVX2 version, eight digits a vector
    /// (two steps instead of three), for the search copy built with AVX2. Measured against SSE2
    /// only: this step 3-4% less time on every corpus; clearing a placed cell's other digits and
    /// the digits-holding test a further 2-8%.
    #[inline(always)]
    fn column_permutations<const WIDE: bool>(&mut self) -> Result<bool, Dead> {
        let changed = lanes::column_permutations::<WIDE>(&mut self.cand).ok_or(Dead)?;
        for (b, &digits) in changed.iter().enumerate() {
            self.todo |= SPREAD4[digits as usize & 511] << b;
        }
        Ok(changed != [0; 3])
    }

    /// Deduces until stuck: band propagation first (cheapest), then naked singles, then the
    /// column permutations (which subsume hidden singles in columns). When it stops short of a
    /// solution, `pairs` holds the open cells with two candidates (see
    /// [`Board::naked_singles`]).
    ///
    /// Why the column step at every node: it cuts guesses by 11-14% (forum_hardest 45.6 -> 40.4
    /// a puzzle) and, done four digits per SSE2 instruction by bit operations, costs about what
    /// the hidden-singles pass it replaces did. Measured against hidden singles at every node and
    /// the column step only at the root: forum_hardest 7% less time, magictour 7%, shuffled
    /// forum_hardest_1106 9%, serg and 17-clue equal. Run before the naked singles it cost 2-4%.
    /// With `columns` false the column step is left out (see [`COLUMNS_BELOW_ROOT`]).
    #[inline(always)]
    fn settle<const WIDE: bool>(
        &mut self,
        pairs: &mut [u32; 3],
        columns: bool,
    ) -> Result<(), Dead> {
        loop {
            self.propagate_bands::<WIDE>()?;
            if self.solved() {
                return Ok(());
            }
            if self.naked_singles::<WIDE>(pairs)? {
                continue;
            }
            if columns && self.column_permutations::<WIDE>()? {
                continue;
            }
            return Ok(());
        }
    }

    /// The cell to branch on, as (band, bit, 9-bit mask of candidate digits): among the cells
    /// with two candidates (`pairs`, from the last naked-singles pass on this board; else
    /// three, else among all open cells), the one with most unsolved peers, weighted: the four
    /// peers in its box but outside its row and column count twice, the four in its box on its
    /// row or column not at all, the twelve outside its box once; ties to the band with fewest
    /// unsolved cells.
    ///
    /// Why most unsolved peers: either digit placed there then removes itself from the most
    /// open cells, so wrong guesses die sooner. Measured against taking the first two-candidate
    /// cell: 75 -> 46 guesses per puzzle on forum_hardest, about 20% less time. Why those
    /// weights (found by counting nodes over weightings of the five kinds of peer,
    /// BENCHMARKS.md): limit 2 guesses fell 19% on forum_hardest (79.62 -> 64.17), 20% on
    /// shuffled 1106 (139.74 -> 111.89), 12% on magictour, and 1% on serg (1.205 -> 1.193);
    /// every peer once but the off-line box peers twice, landed first, cut the hard lists by 10%
    /// and raised serg's by 3%. They cost nothing a cell: the band's cells packed twice in one
    /// word, one table ([`PEER_WEIGHTS`]) and one popcount. Why the fuller band on a tie: its few
    /// open cells are closer to a contradiction or a solved band (limit 2 guesses 81.00 -> 79.62
    /// on forum_hardest, fewer on every hard list).
    #[inline(always)]
    fn branch_cell<const WIDE: bool>(&self, pairs: [u32; 3]) -> (usize, u32, u32) {
        let few = if pairs != [0; 3] {
            pairs
        } else {
            let triples = self.triples();
            if triples != [0; 3] {
                triples
            } else {
                // Every open cell has four or more candidates: rare (near-empty grids), so any
                // open cell will do the most-peers pick.
                [self.unsolved[0], self.unsolved[1], self.unsolved[2]]
            }
        };
        let (band, bit) = self.most_open_peers(few);
        (band, bit, self.digits_at::<WIDE>(band, bit))
    }

    /// The open cells with exactly three candidates, per band, by bit-sliced counting: for the
    /// branch choice when no cell has two, which is rare, so only then (the pairs come from the
    /// naked-singles pass, [`Board::naked_singles`]).
    #[inline(always)]
    fn triples(&self) -> [u32; 3] {
        let mut cells = [0u32; 3];
        for (b, cells) in cells.iter_mut().enumerate() {
            let (mut ones, mut twos, mut threes, mut fours) = (0u32, 0u32, 0u32, 0u32);
            for d in 0..9 {
                let m = self.cand[b & 3][lane(d)];
                fours |= threes & m;
                threes |= twos & m;
                twos |= ones & m;
                ones |= m;
            }
            *cells = threes & !fours & self.unsolved[b & 3];
        }
        cells
    }

    /// Of the cells in `cells` (per band, not all empty), the one with most unsolved peers as
    /// [`PEER_WEIGHTS`] weighs them; of those, one in the band with fewest unsolved cells (then
    /// the first).
    ///
    /// One key a cell, the largest wins: its open peers, then 31 less its band's unsolved cells
    /// (a count a band, not a step a cell), then 255 less its index (the earlier cell), kept by
    /// a running maximum. Why a key rather than a branch on "better than the best" (with the
    /// band's tie-break as a lower bar): that branch is data-dependent and serg's choices weigh
    /// a dozen two-candidate cells each. The same cells are chosen; measured (interleaved medians
    /// of 5, one pinned core, AMD EPYC) limit 1: serg 0.985 as published and 0.968 shuffled
    /// (0.977 at limit 2), shuffled 1106 0.985, magictour 0.986, 17-clue 0.988, unbiased 0.987,
    /// forum_hardest 0.994, Kaggle 1.003.
    #[inline(always)]
    fn most_open_peers(&self, cells: [u32; 3]) -> (usize, u32) {
        let mut best = 0u32;
        for (b, &[o1, o2]) in OTHER_BANDS[..3].iter().enumerate() {
            let own = self.unsolved[b & 3];
            let own_twice = u64::from(own) | u64::from(own) << 27;
            let band_key = (31 - own.count_ones()) << 8 | (255 - 32 * b as u32);
            // The other two bands side by side, so one popcount covers a column in both.
            let others = u64::from(self.unsolved[o1 & 3]) | u64::from(self.unsolved[o2 & 3]) << 27;
            let mut cells = cells[b];
            while cells != 0 {
                let pos = cells.trailing_zeros();
                cells &= cells - 1;
                let open = (own_twice & PEER_WEIGHTS[pos as usize & 31]).count_ones()
                    + (others & OTHER_BANDS_COLUMN[pos as usize & 31]).count_ones();
                best = best.max(open << 16 | (band_key - pos));
            }
        }
        let index = 255 - (best & 255);
        ((index >> 5) as usize, 1 << (index & 31))
    }

    /// Whether to try the higher of a two-candidate cell's digits first: when it has more
    /// places left in the cell's box than the lower one (the value order at limit 1).
    ///
    /// Why: the digit with more places in the box is the likelier to be wrong here, and placed
    /// it clears more of the box, so when it is wrong it fails sooner. Measured on top of the
    /// weighted branch cell (interleaved medians, one pinned core, AMD EPYC; BENCHMARKS.md),
    /// limit 1: serg 0.961 as published and 0.949 shuffled, 1106 0.940 and 0.925,
    /// forum_hardest 0.987 and 0.980, magictour 0.987 and 1.013, 17-clue, unbiased and Kaggle
    /// within 2% either way. Before the branch cell weighed its box peers it cost magictour 3%:
    /// the two rules work together. Not at limit 2: a unique puzzle's tree is searched to its
    /// end in any order, so there the counts are pure cost (serg, whose puzzles have several
    /// solutions, gained 3%, the unique corpora lost 1-1.5%).
    #[inline(always)]
    fn high_first(&self, band: usize, bit: u32, digits: u32) -> bool {
        if digits.count_ones() != 2 {
            return false;
        }
        let places = BOX_CELLS[bit.trailing_zeros() as usize & 31];
        let low = digits.trailing_zeros() as usize;
        let high = 31 - digits.leading_zeros() as usize;
        (self.cand[band & 3][lane(high)] & places).count_ones()
            > (self.cand[band & 3][lane(low)] & places).count_ones()
    }

    /// The candidate digits of one cell as a 9-bit mask.
    #[inline(always)]
    fn digits_at<const WIDE: bool>(&self, band: usize, bit: u32) -> u32 {
        lanes::holding::<WIDE>(&self.cand[band & 3], bit)
    }

    /// The grid of a solved board. Inlined so that it runs with the search copy's instructions.
    #[inline(always)]
    fn grid<const WIDE: bool>(&self) -> Option<Grid> {
        let mut values = [0u8; CELLS];
        for (b, row) in values.chunks_exact_mut(27).enumerate() {
            row.copy_from_slice(&self.band_digits::<WIDE>(b)[..27]);
        }
        Grid::from_values(values)
    }

    /// The digits of a solved band's 27 cells, in bytes 0..27 of 32.
    ///
    /// The AVX2 copy spreads the digits' bits to bytes for all cells at once (a fifth of the
    /// instructions: measured 9% less time on Kaggle's puzzles, 3% on serg's, where reading the
    /// solution out is a good part of a solve); the baseline copy writes each digit's three
    /// cells.
    #[inline(always)]
    fn band_digits<const WIDE: bool>(&self, b: usize) -> [u8; 32] {
        #[cfg(target_arch = "x86_64")]
        if WIDE {
            // SAFETY: `WIDE` is set only where AVX2 was detected.
            return unsafe { lanes::band_values(&self.cand[b & 3]) };
        }
        // 32 bytes, so a cell's index is in bounds by its mask.
        let mut band = [0u8; 32];
        for d in 0..9 {
            // Solved, a digit holds exactly one cell in each row of a band: three cells, taken
            // without a loop whose trip count the predictor would have to learn.
            let m = self.cand[b & 3][lane(d)];
            debug_assert_eq!(m.count_ones(), 3, "digit {d} in band {b} of a solved board");
            let rest = m & m.wrapping_sub(1);
            let last = rest & rest.wrapping_sub(1);
            for cells in [m, rest, last] {
                band[cells.trailing_zeros() as usize & 31] = d as u8 + 1;
            }
        }
        band
    }
}

/// The cells of `band` (27 bits, no row empty) in rows that hold exactly one cell.
///
/// All three rows at once: subtracting 1 from each row clears its lowest cell (no borrow crosses
/// rows, none being empty), leaving an even 9-bit value that is 0 exactly for a one-cell row.
/// Adding 510 to each such value carries out of the row unless it is 0; the carry lands on the
/// next row's lowest bit (always 0 after the clear, so it ripples no further), or on bit 27.
/// A carry at bit `9 * (r + 1)` less the same carry moved down to bit `9 * r` is row `r`'s nine
/// bits: the rows with two or more cells. (A subtraction rather than a multiply by 511: this is
/// on the propagation loop's critical path, and it measured 2-3% less time on hard puzzles.)
#[inline(always)]
fn single_rows(band: u32) -> u32 {
    const LOWEST: u32 = 1 | 1 << 9 | 1 << 18;
    let rest = band & band.wrapping_sub(LOWEST);
    let carries = rest.wrapping_add(510 * LOWEST) & LOWEST << 9;
    band & !(carries - (carries >> 9))
}

/// The whole columns (all three rows of a band) of the cells `cells` of a band.
#[inline(always)]
fn columns_of(cells: u32) -> u32 {
    ((cells | cells >> 9 | cells >> 18) & 511) * COLUMN
}

/// Depth-first search state shared by all levels; `A` says which solutions it passes over
/// ([`Aiming`]).
struct Search<A = ()> {
    limit: u32,
    count: u32,
    solution: Option<Grid>,
    second: Option<Grid>,
    guesses: u64,
    aim: A,
    /// Open cells at the first branch point (`u32::MAX` before it): below
    /// [`COLUMNS_BELOW_ROOT`], the search goes on without the column step.
    open_at_root: u32,
}

/// Open cells the first branch point of a search must have for the column step to run after it.
///
/// Why: the column step finds what the propagation misses in grids with many open cells (hard
/// puzzles, whose first branch point leaves 55 or more open); a puzzle that deduction brings
/// below 50 open cells before its first guess (serg's, with several solutions and 35 givens)
/// guesses right nearly every time, and the column step then finds nothing: counted on 3,000
/// serg puzzles, the same solutions and guesses with it as without, and 6.4% fewer instructions
/// at limit 1, 6.7% at limit 2 (time, interleaved medians of 7 on one pinned core, Intel Xeon
/// family 6 model 207: 0.953 and 0.909, shuffled 0.950 and 0.966). On forum_hardest,
/// magictour, unbiased, 17-clue, 1106 and Kaggle the instructions moved by 0.5% or less; 55
/// would have been the same, 60 costs forum_hardest 22%. Unique puzzles that deduction leaves
/// below 50 open cells and that still need a guess (7.5% of `generate`'s records) may take
/// another number of guesses.
const COLUMNS_BELOW_ROOT: u32 = 50;

/// What a search passes over: nothing (`()`, the search [`solve`] runs, which is compiled
/// exactly as it was before there was anything to pass over), or a known solution ([`Aim`]).
trait Aiming: Copy {
    /// True when the solved `board` is not to be counted.
    fn passes_over(&self, board: &Board) -> bool;
}

impl Aiming for () {
    #[inline(always)]
    fn passes_over(&self, _board: &Board) -> bool {
        false
    }
}

/// [`solve_other`]'s known solution.
#[derive(Clone, Copy)]
struct Aim {
    known: Grid,
}

impl Aiming for Aim {
    #[inline(always)]
    fn passes_over(&self, board: &Board) -> bool {
        board.grid::<false>() == Some(self.known)
    }
}

impl Search {
    /// A search up to `limit` solutions (0 is taken as 1), nothing found yet.
    fn new(limit: u32) -> Search {
        Search::aimed(limit, ())
    }
}

impl<A: Aiming> Search<A> {
    /// A search up to `limit` solutions (0 is taken as 1) that passes over what `aim` says.
    fn aimed(limit: u32, aim: A) -> Search<A> {
        Search {
            limit: limit.max(1),
            count: 0,
            solution: None,
            second: None,
            guesses: 0,
            aim,
            open_at_root: u32::MAX,
        }
    }

    /// What the search found.
    fn outcome(&self) -> Outcome {
        Outcome {
            count: self.count,
            solution: self.solution,
            second: self.second,
            guesses: self.guesses,
        }
    }

    /// Searches below `board`, in the copy of the search built for the CPU's features.
    fn run(&mut self, board: &mut Board) {
        #[cfg(target_arch = "x86_64")]
        if has_bit_instructions() {
            // SAFETY: the CPU has just been found to have every feature `run_bits` is built for.
            return unsafe { self.run_bits(board) };
        }
        self.run_baseline(board);
    }
}

/// True when the CPU has POPCNT, BMI1, BMI2, LZCNT and AVX2 (every x86-64 from about 2013 on;
/// the baseline target has none of them). With them, counting and lowest-bit steps are one
/// instruction each instead of a short sequence, the SSE2 code gets three-operand encodings, and
/// copying a board for a guess is seven 32-byte moves inline instead of a call to `memcpy`
/// (measured: 5% fewer instructions on forum_hardest, 4.6% on serg).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn has_bit_instructions() -> bool {
    // `std` caches the detection: after the first call these are a few loads.
    std::is_x86_feature_detected!("popcnt")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("lzcnt")
        && std::is_x86_feature_detected!("avx2")
}

/// Defines one copy of the depth-first search under the attributes given: the same source is
/// compiled once for the baseline target and once with bit-manipulation instructions enabled,
/// and each copy recurses into itself, so the whole search runs with the features chosen once.
macro_rules! depth_first {
    ($(#[$attr:meta])* $name:ident, $wide:expr) => {
        impl<A: Aiming> Search<A> {
            /// Searches below `board`, which it may change. Each level holds one saved state on
            /// the call stack, the copy a child works in; the last alternative of a branch
            /// reuses the level's own board. Passing boards by reference saves the second copy
            /// that passing by value makes (212 bytes each).
            $(#[$attr])*
            fn $name(&mut self, board: &mut Board) {
                loop {
                    let mut pairs = [0u32; 3];
                    let columns = self.open_at_root >= COLUMNS_BELOW_ROOT;
                    if board.settle::<{ $wide }>(&mut pairs, columns).is_err() {
                        return;
                    }
                    if board.solved() {
                        if self.aim.passes_over(board) {
                            return;
                        }
                        self.count += 1;
                        match self.count {
                            1 => self.solution = board.grid::<{ $wide }>(),
                            2 => self.second = board.grid::<{ $wide }>(),
                            _ => {}
                        }
                        return;
                    }
                    if self.open_at_root == u32::MAX {
                        self.open_at_root = board.open_cells();
                    }
                    let (band, bit, mut digits) = board.branch_cell::<{ $wide }>(pairs);
                    let high_first = self.limit == 1 && board.high_first(band, bit, digits);
                    loop {
                        let d = if high_first {
                            31 - digits.leading_zeros()
                        } else {
                            digits.trailing_zeros()
                        } as usize;
                        digits &= !(1 << d);
                        if digits == 0 {
                            if board.place::<{ $wide }>(d, band, bit).is_err() {
                                return;
                            }
                            break;
                        }
                        let mut child = *board;
                        if child.place::<{ $wide }>(d, band, bit).is_ok() {
                            self.$name(&mut child);
                            if self.count >= self.limit {
                                return;
                            }
                        }
                        self.guesses += 1;
                    }
                }
            }
        }
    };
}

depth_first!(run_baseline, false);
#[cfg(target_arch = "x86_64")]
depth_first!(
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
    run_bits,
    true
);
