//! Validity-preserving puzzle transforms and the seeded random numbers that pick them.
//!
//! A [`Transform`] relabels the digits, permutes the bands, the rows within each band, the stacks
//! and the columns within each stack, and maybe transposes. Each of these maps every row, column and
//! box onto a row, column or box, so a grid is a solution of a puzzle exactly when its transform is
//! a solution of the transformed puzzle: the count of solutions is kept and the solutions map one to
//! one. Benchmarks use it to remove the clue packing of published hard lists (their clues often sit
//! top left), which flatters some search orders.
//!
//! [`Rng`] is splitmix64: tiny, fast, fully determined by its seed on every machine; no OS
//! randomness anywhere.

use std::fmt;
use std::str::FromStr;

use crate::grid::{CELLS, Grid};

/// A seeded pseudo-random generator (splitmix64). Same seed, same numbers, everywhere.
#[derive(Debug, Clone)]
pub struct Rng {
    state: u64,
}

/// What splitmix64 adds to its state for each number.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

impl Rng {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Moves on by `draws` numbers at once, as that many calls of [`Rng::next_u64`] would: the
    /// state of splitmix64 only counts, so any number of draws costs one multiply.
    pub fn skip(&mut self, draws: u64) {
        self.state = self.state.wrapping_add(draws.wrapping_mul(GAMMA));
    }

    /// A number in `0..n` (0 when `n` is 0), without modulo bias worth measuring: the 128-bit
    /// multiply-shift maps the 64 random bits onto the range.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// Shuffles `items` in place (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }

    /// `k` distinct indices of `0..n` chosen uniformly, in increasing order (all of them when
    /// `k >= n`).
    pub fn sample_indices(&mut self, n: usize, k: usize) -> Vec<usize> {
        let mut all: Vec<usize> = (0..n).collect();
        let k = k.min(n);
        // partial Fisher-Yates: the first k slots end up a uniform random subset
        for i in 0..k {
            let j = i + self.below(n - i);
            all.swap(i, j);
        }
        all.truncate(k);
        all.sort_unstable();
        all
    }
}

/// A symmetry of the sudoku rules: digit relabelling, row and column permutations that keep bands
/// and stacks together, and an optional transpose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transform {
    /// New digit of digit `d` at index `d` (index 0, the blank, maps to 0).
    digits: [u8; 10],
    /// Source row of each target row.
    rows: [usize; 9],
    /// Source column of each target column.
    columns: [usize; 9],
    /// Transpose after permuting.
    transpose: bool,
}

impl Transform {
    /// The transform that changes nothing.
    pub const IDENTITY: Transform = Transform {
        digits: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        rows: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        columns: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        transpose: false,
    };

    /// The transform from its parts: the new digit of each digit (index 0, the blank, maps to 0),
    /// the source row of each row, the source column of each column, and a transpose after
    /// permuting. The caller makes them permutations that keep bands and stacks together.
    pub(crate) fn from_parts(
        digits: [u8; 10],
        rows: [usize; 9],
        columns: [usize; 9],
        transpose: bool,
    ) -> Transform {
        Transform {
            digits,
            rows,
            columns,
            transpose,
        }
    }

    /// The numbers [`Transform::random`] draws, always: 8 to shuffle the digits, 8 for the rows
    /// (bands, then the rows of each), 8 for the columns, 1 for the transpose.
    pub const RANDOM_DRAWS: u64 = 25;

    /// A transform drawn uniformly from the 9! x (3!^4 x 3!^4) x 2 choices, with
    /// [`Transform::RANDOM_DRAWS`] numbers of `rng`.
    pub fn random(rng: &mut Rng) -> Transform {
        let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
        rng.shuffle(&mut digits);
        let mut map = [0u8; 10];
        map[1..].copy_from_slice(&digits);
        Transform {
            digits: map,
            rows: band_preserving(rng),
            columns: band_preserving(rng),
            transpose: rng.next_u64() & 1 == 1,
        }
    }

    /// The transformed grid (blanks stay blank).
    pub fn apply(&self, grid: &Grid) -> Grid {
        let src = grid.cells();
        let mut out = [0u8; CELLS];
        for (r, &from_row) in self.rows.iter().enumerate() {
            for (c, &from_col) in self.columns.iter().enumerate() {
                let v = self.digits[src[from_row * 9 + from_col] as usize];
                let cell = if self.transpose { c * 9 + r } else { r * 9 + c };
                out[cell] = v;
            }
        }
        Grid::from_values(out).unwrap_or(*grid)
    }
}

/// An augmented copy: the puzzle, its solution when one was given, and the transform that made
/// them.
pub type Variant = (Grid, Option<Grid>, Transform);

/// `copies` random transforms of a puzzle and of its solution (when given), the same transform for
/// both, drawn from `rng`; with `keep_original`, the identity first (and `copies` after it).
pub fn augment(
    puzzle: &Grid,
    solution: Option<&Grid>,
    rng: &mut Rng,
    copies: usize,
    keep_original: bool,
) -> Vec<Variant> {
    let identity = keep_original.then_some(Transform::IDENTITY);
    identity
        .into_iter()
        .chain((0..copies).map(|_| Transform::random(rng)))
        .map(|t| (t.apply(puzzle), solution.map(|s| t.apply(s)), t))
        .collect()
}

/// The generator of a record's augmented copies: the run's `seed` mixed with the record's input
/// and line, so a record gets the same copies whatever the threads, batches or other records.
pub fn record_rng(seed: u64, source: u32, line: u64) -> Rng {
    let mut mix = Rng::new(seed ^ (u64::from(source) << 56));
    let base = mix.next_u64();
    Rng::new(base ^ line.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// The transforms of a record's random copies `copies` (numbered from 0: the first of
/// [`augment`]'s random copies is copy 0), as [`augment`] draws them from [`record_rng`], without
/// drawing those before: so the copies of one record can be made a range at a time, in any order.
pub fn record_copies(
    seed: u64,
    source: u32,
    line: u64,
    copies: std::ops::Range<u64>,
) -> impl Iterator<Item = Transform> {
    let mut rng = record_rng(seed, source, line);
    rng.skip(copies.start.wrapping_mul(Transform::RANDOM_DRAWS));
    copies.map(move |_| Transform::random(&mut rng))
}

/// The text form: `T` when the grid is transposed (after permuting), then `R` and the source row
/// of each row, `C` and the source column of each column (rows and columns numbered 1 to 9), `D`
/// and the new digit of each digit 1 to 9. The identity is `R123456789C123456789D123456789`.
impl fmt::Display for Transform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = String::with_capacity(31);
        if self.transpose {
            text.push('T');
        }
        text.push('R');
        text.extend(self.rows.iter().map(|&r| char::from(b'1' + r as u8)));
        text.push('C');
        text.extend(self.columns.iter().map(|&c| char::from(b'1' + c as u8)));
        text.push('D');
        text.extend(self.digits[1..].iter().map(|&d| char::from(b'0' + d)));
        f.write_str(&text)
    }
}

impl FromStr for Transform {
    type Err = String;

    /// Reads the text form ([`Transform`]'s `Display`); the permutations must be ones the rules
    /// allow (bands and stacks kept together, digits relabelled one to one).
    fn from_str(text: &str) -> Result<Transform, String> {
        let bad = || format!("{text:?} is not a transform (like R123456789C123456789D123456789)");
        let (transpose, rest) = match text.strip_prefix('T') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let rest = rest.as_bytes();
        if rest.len() != 30 || rest[0] != b'R' || rest[10] != b'C' || rest[20] != b'D' {
            return Err(bad());
        }
        let nine = |part: &[u8]| -> Option<[u8; 9]> {
            let mut out = [0u8; 9];
            let mut seen = 0u16;
            for (o, &b) in out.iter_mut().zip(part) {
                let v = b.checked_sub(b'1').filter(|&v| v < 9)?;
                seen |= 1 << v;
                *o = v;
            }
            (seen == 0x1FF).then_some(out)
        };
        let lines = |part: &[u8]| -> Option<[usize; 9]> {
            let order = nine(part)?;
            // each group of three takes one whole band, in any order inside it
            let whole = order
                .chunks(3)
                .all(|g| g.iter().all(|&v| v / 3 == g[0] / 3));
            whole.then(|| order.map(usize::from))
        };
        let rows = lines(&rest[1..10]).ok_or_else(bad)?;
        let columns = lines(&rest[11..20]).ok_or_else(bad)?;
        let new = nine(&rest[21..30]).ok_or_else(bad)?;
        let mut digits = [0u8; 10];
        for (d, &n) in digits[1..].iter_mut().zip(&new) {
            *d = n + 1;
        }
        Ok(Transform {
            digits,
            rows,
            columns,
            transpose,
        })
    }
}

/// A permutation of 0..9 that moves whole bands (groups of three) and lines within them.
fn band_preserving(rng: &mut Rng) -> [usize; 9] {
    let mut bands = [0usize, 1, 2];
    rng.shuffle(&mut bands);
    let mut out = [0usize; 9];
    for (i, &band) in bands.iter().enumerate() {
        let mut lines = [0usize, 1, 2];
        rng.shuffle(&mut lines);
        for (j, &line) in lines.iter().enumerate() {
            out[i * 3 + j] = band * 3 + line;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver;

    const PUZZLE: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    /// Two solutions (from the solver tests' multiple-solution family: a unique puzzle with
    /// givens removed).
    const OPEN: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9.........";

    fn grid(s: &str) -> Grid {
        s.parse().unwrap()
    }

    #[test]
    fn text_form_round_trips_and_refuses_what_is_not_a_transform() {
        assert_eq!(
            Transform::IDENTITY.to_string(),
            "R123456789C123456789D123456789"
        );
        let mut rng = Rng::new(3);
        for _ in 0..200 {
            let t = Transform::random(&mut rng);
            let text = t.to_string();
            assert_eq!(text.parse::<Transform>(), Ok(t), "{text}");
        }
        for bad in [
            "",
            "R123456789C123456789D12345678",
            "R124356789C123456789D123456789", // rows 3 and 4 are in different bands
            "R123456789C123456789D123456788", // digit 8 twice
            "X123456789C123456789D123456789",
            "TTR123456789C123456789D123456789",
            "R023456789C123456789D123456789",
        ] {
            assert!(bad.parse::<Transform>().is_err(), "{bad}");
        }
        let t: Transform = "TR321456789C123456789D213456789".parse().unwrap();
        let g = grid(PUZZLE);
        let out = t.apply(&g);
        // row 1 of the result before transposing is the puzzle's row 3, digits 1 and 2 swapped:
        // after transposing it is column 1
        let cells = g.cells();
        for c in 0..9 {
            let d = cells[2 * 9 + c];
            let swapped = [0, 2, 1, 3, 4, 5, 6, 7, 8, 9][d as usize];
            assert_eq!(out.cells()[c * 9], swapped);
        }
    }

    #[test]
    fn augmented_copies_move_puzzle_and_solution_together() {
        let puzzle = grid(PUZZLE);
        let solution = solver::solve(&puzzle, 1).unwrap().solution.unwrap();
        let mut rng = record_rng(7, 0, 12);
        let copies = augment(&puzzle, Some(&solution), &mut rng, 5, true);
        assert_eq!(copies.len(), 6);
        assert_eq!(copies[0], (puzzle, Some(solution), Transform::IDENTITY));
        for (p, s, t) in &copies {
            assert_eq!(t.apply(&puzzle), *p);
            assert!(s.unwrap().solves(p), "the copy's solution solves the copy");
        }
        let again = augment(&puzzle, None, &mut record_rng(7, 0, 12), 5, true);
        let moves = |c: &[Variant]| -> Vec<Transform> { c.iter().map(|x| x.2.clone()).collect() };
        assert_eq!(
            moves(&again),
            moves(&copies),
            "same seed and place, same copies"
        );
        let other_line = augment(&puzzle, None, &mut record_rng(7, 0, 13), 5, false);
        let other_input = augment(&puzzle, None, &mut record_rng(7, 1, 12), 5, false);
        let other_seed = augment(&puzzle, None, &mut record_rng(8, 0, 12), 5, false);
        for other in [other_line, other_input, other_seed] {
            assert_ne!(moves(&other), moves(&copies[1..]));
        }
    }

    #[test]
    fn a_range_of_copies_is_drawn_as_augment_draws_it() {
        let puzzle = grid(PUZZLE);
        let all = augment(&puzzle, None, &mut record_rng(7, 1, 12), 9, false);
        let all: Vec<Transform> = all.into_iter().map(|(_, _, t)| t).collect();
        for (start, end) in [(0, 9), (0, 1), (3, 7), (8, 9), (5, 5)] {
            let range: Vec<Transform> = record_copies(7, 1, 12, start..end).collect();
            assert_eq!(range, all[start as usize..end as usize], "{start}..{end}");
        }
        // skipping is counting: far copies cost nothing to reach, and match drawing them
        let mut drawn = Rng::new(3);
        for _ in 0..1000 {
            drawn.next_u64();
        }
        let mut skipped = Rng::new(3);
        skipped.skip(1000);
        assert_eq!(skipped.next_u64(), drawn.next_u64());
        let far = record_copies(7, 1, 12, u64::MAX - 1..u64::MAX).count();
        assert_eq!(far, 1);
    }

    #[test]
    fn same_seed_gives_same_numbers_and_different_seeds_differ() {
        let a: Vec<u64> = (0..5)
            .map({
                let mut r = Rng::new(7);
                move |_| r.next_u64()
            })
            .collect();
        let b: Vec<u64> = (0..5)
            .map({
                let mut r = Rng::new(7);
                move |_| r.next_u64()
            })
            .collect();
        let c = Rng::new(8).next_u64();
        assert_eq!(a, b);
        assert_ne!(a[0], c);
        // splitmix64's published first output for seed 0
        assert_eq!(Rng::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn below_stays_in_range_and_reaches_every_value() {
        let mut rng = Rng::new(1);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            let v = rng.below(7);
            assert!(v < 7);
            seen[v] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(rng.below(0), 0);
    }

    #[test]
    fn sample_indices_are_distinct_sorted_and_seeded() {
        let pick = Rng::new(3).sample_indices(1000, 50);
        assert_eq!(pick.len(), 50);
        assert!(pick.windows(2).all(|w| w[0] < w[1]));
        assert!(pick.iter().all(|&i| i < 1000));
        assert_eq!(pick, Rng::new(3).sample_indices(1000, 50));
        assert_ne!(pick, Rng::new(4).sample_indices(1000, 50));
        assert_eq!(Rng::new(3).sample_indices(5, 10), vec![0, 1, 2, 3, 4]);
    }

    #[test]
    fn random_rows_keep_bands_together() {
        let mut rng = Rng::new(11);
        for _ in 0..100 {
            let perm = band_preserving(&mut rng);
            let mut sorted = perm;
            sorted.sort_unstable();
            assert_eq!(sorted, [0, 1, 2, 3, 4, 5, 6, 7, 8]);
            for band in perm.chunks(3) {
                assert!(band.iter().all(|&r| r / 3 == band[0] / 3), "{perm:?}");
            }
        }
    }

    #[test]
    fn identity_changes_nothing() {
        assert_eq!(Transform::IDENTITY.apply(&grid(PUZZLE)), grid(PUZZLE));
    }

    #[test]
    fn transformed_puzzle_is_solved_by_the_transformed_solution() {
        let puzzle = grid(PUZZLE);
        let solution = solver::solve(&puzzle, 1).unwrap().solution.unwrap();
        let mut rng = Rng::new(2024);
        let mut changed = 0;
        for _ in 0..200 {
            let t = Transform::random(&mut rng);
            let (p, s) = (t.apply(&puzzle), t.apply(&solution));
            changed += usize::from(p != puzzle);
            assert_eq!(p.givens(), puzzle.givens());
            assert!(s.solves(&p), "{t:?}");
            let found = solver::solve(&p, 2).unwrap();
            assert_eq!(found.count, 1, "{t:?}");
            assert_eq!(found.solution, Some(s), "{t:?}");
        }
        assert!(
            changed > 190,
            "transforms should move the puzzle: {changed}"
        );
    }

    #[test]
    fn transforms_keep_the_count_of_solutions() {
        let open = grid(OPEN);
        let want = solver::reference::solve(&open, 50).count;
        assert!(want > 1, "the open puzzle has several solutions: {want}");
        let mut rng = Rng::new(5);
        for _ in 0..50 {
            let t = Transform::random(&mut rng);
            assert_eq!(solver::reference::solve(&t.apply(&open), 50).count, want);
        }
    }

    #[test]
    fn transforms_keep_contradictions() {
        // two 5s in row 1
        let bad = grid(&format!("55{}", ".".repeat(79)));
        let mut rng = Rng::new(9);
        for _ in 0..50 {
            assert!(Transform::random(&mut rng).apply(&bad).conflict().is_some());
        }
    }
}
