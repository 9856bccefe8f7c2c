//! Behaviour tests of the fast solver, mostly checked against the reference solver on the sample
//! corpora in `data/` and on seeded random puzzles.

use super::{Outcome, reference, solve};
use crate::grid::{Conflict, Grid, Unit};

const EASY: &str = include_str!("../../data/easy_300.txt");
const CLUE17: &str = include_str!("../../data/17clue_300.txt");
const HARDEST: &str = include_str!("../../data/hardest_300.txt");
const SERG: &str = include_str!("../../data/serg_100.txt");
const EXCHANGE: &str = include_str!("../../data/exchange_hard_200.txt");
const KAGGLE: &str = include_str!("../../data/kaggle_200.csv");

/// Every 81-character field of a corpus: skips `#` lines, takes the first field (split on
/// whitespace, comma or colon) of exactly 81 characters.
fn puzzles(text: &str) -> Vec<Grid> {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| {
            line.split(|c: char| c.is_whitespace() || c == ',' || c == ':')
                .find(|field| field.len() == 81)
        })
        .map(|field| field.parse().expect("corpus puzzle parses"))
        .collect()
}

/// Every `step`-th item: the reference solver is slow in debug builds on the hardest corpora.
fn every<T: Copy>(items: &[T], step: usize) -> Vec<T> {
    items.iter().step_by(step).copied().collect()
}

fn fast(puzzle: &Grid, limit: u32) -> Outcome {
    solve(puzzle, limit).expect("no conflicting givens")
}

/// Fast and reference agree on the count at limits 1 and 2, and every solution is valid.
fn assert_agrees(puzzle: &Grid) {
    for limit in [1, 2] {
        let ours = fast(puzzle, limit);
        let oracle = reference::solve(puzzle, limit);
        assert_eq!(ours.count, oracle.count, "limit {limit}: {puzzle}");
        assert_eq!(ours.solution.is_some(), ours.count > 0, "{puzzle}");
        if let Some(solution) = ours.solution {
            assert!(solution.solves(puzzle), "{puzzle} -> {solution}");
        }
        assert_second(puzzle, &ours);
        assert_second(puzzle, &oracle);
    }
}

/// The second solution is there exactly when two were counted, solves the puzzle and is not
/// the first.
fn assert_second(puzzle: &Grid, out: &Outcome) {
    assert_eq!(out.second.is_some(), out.count >= 2, "{puzzle}");
    if let (Some(first), Some(second)) = (out.solution, out.second) {
        assert!(second.solves(puzzle), "{puzzle} -> {second}");
        assert_ne!(first, second, "{puzzle}");
    }
}

/// Fast solver alone (no oracle): the solution is valid and the count at limit 2 is `expected`.
fn assert_solves_with_count(puzzle: &Grid, expected: u32) {
    let first = fast(puzzle, 1);
    assert_eq!(first.count, 1, "{puzzle}");
    let solution = first.solution.expect("a solution");
    assert!(solution.solves(puzzle), "{puzzle} -> {solution}");
    let both = fast(puzzle, 2);
    assert_eq!(both.count, expected, "{puzzle}");
    assert!(both.solution.is_some_and(|s| s.solves(puzzle)));
    assert_second(puzzle, &both);
}

/// How much of a slow corpus the oracle checks: all of it in release, a sample in debug.
const ORACLE_STEP: usize = if cfg!(debug_assertions) { 10 } else { 1 };

#[test]
fn corpora_parse_to_expected_sizes() {
    assert_eq!(puzzles(EASY).len(), 300);
    assert_eq!(puzzles(CLUE17).len(), 300);
    assert_eq!(puzzles(HARDEST).len(), 300);
    assert_eq!(puzzles(SERG).len(), 100);
    assert_eq!(puzzles(EXCHANGE).len(), 200);
    assert_eq!(puzzles(KAGGLE).len(), 200);
}

#[test]
fn agrees_with_reference_on_easy_puzzles() {
    puzzles(EASY).iter().for_each(assert_agrees);
}

#[test]
fn agrees_with_reference_on_17_clue_puzzles() {
    every(&puzzles(CLUE17), ORACLE_STEP)
        .iter()
        .for_each(assert_agrees);
}

#[test]
fn agrees_with_reference_on_hardest_puzzles() {
    every(&puzzles(HARDEST), ORACLE_STEP)
        .iter()
        .for_each(assert_agrees);
}

#[test]
fn agrees_with_reference_on_multi_solution_serg_puzzles() {
    every(&puzzles(SERG), 2).iter().for_each(assert_agrees);
}

#[test]
fn agrees_with_reference_on_exchange_and_kaggle_puzzles() {
    puzzles(EXCHANGE).iter().for_each(assert_agrees);
    puzzles(KAGGLE).iter().for_each(assert_agrees);
}

#[test]
fn solves_every_sample_puzzle_with_known_counts() {
    for corpus in [EASY, CLUE17, HARDEST, EXCHANGE, KAGGLE] {
        for puzzle in puzzles(corpus) {
            assert_solves_with_count(&puzzle, 1);
        }
    }
    for puzzle in puzzles(SERG) {
        assert_solves_with_count(&puzzle, 2);
    }
}

#[test]
fn finds_the_kaggle_solutions() {
    for line in KAGGLE.lines().skip(1) {
        let (puzzle, solution) = line.split_once(',').expect("two fields");
        let puzzle: Grid = puzzle.parse().expect("puzzle");
        let solution: Grid = solution.trim().parse().expect("solution");
        assert_eq!(fast(&puzzle, 1).solution, Some(solution));
    }
}

/// Tiny seeded PRNG (xorshift64) so random tests are reproducible without a dependency.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// Complete grids to carve puzzles from: the Kaggle solutions.
fn solutions() -> Vec<Grid> {
    KAGGLE
        .lines()
        .skip(1)
        .filter_map(|line| line.split_once(',')?.1.trim().parse().ok())
        .collect()
}

/// `solution` with only `keep` randomly chosen cells left.
fn carve(rng: &mut XorShift, solution: &Grid, keep: usize) -> Grid {
    let mut order: Vec<usize> = (0..81).collect();
    rng.shuffle(&mut order);
    let mut cells = [0u8; 81];
    for &i in &order[..keep] {
        cells[i] = solution.cells()[i];
    }
    Grid::from_values(cells).expect("digits")
}

const fn peers_of(i: usize, j: usize) -> bool {
    let (r, c, rr, cc) = (i / 9, i % 9, j / 9, j % 9);
    i != j && (r == rr || c == cc || (r / 3 == rr / 3 && c / 3 == cc / 3))
}

#[test]
fn agrees_with_reference_on_random_carvings() {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let grids = solutions();
    let rounds = if cfg!(debug_assertions) { 150 } else { 1500 };
    let mut multiple = 0usize;
    for round in 0..rounds {
        let solution = grids[rng.below(grids.len())];
        // Few clues usually leave many solutions, many clues are over-determined.
        let keep = [18, 22, 25, 30, 40, 60][round % 6];
        let puzzle = carve(&mut rng, &solution, keep);
        assert_agrees(&puzzle);
        assert_eq!(fast(&puzzle, 1).count, 1, "carved from a solution");
        multiple += usize::from(fast(&puzzle, 2).count == 2);
    }
    assert!(multiple > rounds / 10, "few multi-solution puzzles tested");
}

#[test]
fn counts_zero_for_a_wrong_digit_in_a_unique_puzzle() {
    // A unique puzzle plus a digit its solution does not have there, clashing with no given:
    // any solution would also solve the original, so there is none.
    let mut rng = XorShift(7);
    let all = puzzles(KAGGLE);
    let hard = puzzles(HARDEST);
    let sample: Vec<Grid> = all.iter().chain(every(&hard, 30).iter()).copied().collect();
    let mut tested = 0;
    for puzzle in sample {
        let Some(solution) = fast(&puzzle, 1).solution else {
            panic!("unique puzzle unsolved: {puzzle}");
        };
        let blanks: Vec<usize> = (0..81).filter(|&i| puzzle.cells()[i] == 0).collect();
        let cell = blanks[rng.below(blanks.len())];
        let mut cells = *puzzle.cells();
        let Some(wrong) = (1..=9u8).find(|&v| {
            v != solution.cells()[cell]
                && (0..81).all(|j| !peers_of(cell, j) || puzzle.cells()[j] != v)
        }) else {
            continue;
        };
        cells[cell] = wrong;
        let broken = Grid::from_values(cells).expect("digits");
        assert_eq!(broken.conflict(), None);
        assert_eq!(fast(&broken, 2).count, 0, "{broken}");
        assert_eq!(fast(&broken, 2).solution, None);
        assert_eq!(reference::solve(&broken, 2).count, 0, "{broken}");
        tested += 1;
    }
    assert!(tested > 150);
}

#[test]
fn solutions_differing_from_a_known_one_at_a_cell_are_those_of_the_other_digits() {
    // The oracle: a solution differing from the known one at `cell` exists exactly when the
    // puzzle with some other digit written there has one (the reference solver, no shared code).
    let mut rng = XorShift(0x005E_ED0F_E8C1);
    let grids = solutions();
    let rounds = if cfg!(debug_assertions) { 120 } else { 1200 };
    let (mut found, mut none) = (0, 0);
    for round in 0..rounds {
        let solution = grids[rng.below(grids.len())];
        let puzzle = carve(&mut rng, &solution, [20, 24, 28, 35][round % 4]);
        let blanks: Vec<usize> = (0..81).filter(|&i| puzzle.cells()[i] == 0).collect();
        let cell = blanks[rng.below(blanks.len())];
        let digit = solution.cells()[cell];
        let others = (1..=9u8).filter(|&v| v != digit).any(|v| {
            let mut cells = *puzzle.cells();
            cells[cell] = v;
            reference::solve(&Grid::from_values(cells).expect("digits"), 1).count > 0
        });
        let got = super::solve_other(&puzzle, &solution, Some(cell), 1).expect("no conflict");
        assert_eq!(got.count > 0, others, "{puzzle} r{cell} without {digit}");
        if let Some(s) = got.solution {
            assert!(s.solves(&puzzle), "{puzzle} -> {s}");
            assert_ne!(s.cells()[cell], digit, "{puzzle} -> {s}");
            found += 1;
        } else {
            none += 1;
        }
        // limit 2 finds no solution holding the digit there either
        let two = super::solve_other(&puzzle, &solution, Some(cell), 2).expect("no conflict");
        for s in [two.solution, two.second].into_iter().flatten() {
            assert_ne!(s.cells()[cell], digit, "{puzzle}");
        }
    }
    assert!(
        found > rounds / 10 && none > rounds / 10,
        "found {found}, none {none}"
    );
}

#[test]
fn solutions_other_than_a_known_one_are_the_others_the_reference_finds() {
    let mut rng = XorShift(0x07E7_5EED);
    let grids = solutions();
    let rounds = if cfg!(debug_assertions) { 150 } else { 1500 };
    let (mut unique, mut more) = (0, 0);
    for round in 0..rounds {
        let solution = grids[rng.below(grids.len())];
        let puzzle = carve(&mut rng, &solution, [20, 23, 26, 30, 45][round % 5]);
        let oracle = reference::solve(&puzzle, 2);
        let other = super::solve_other(&puzzle, &solution, None, 1).expect("no conflict");
        assert_eq!(other.count, oracle.count - 1, "{puzzle}");
        match other.solution {
            Some(s) => {
                assert!(s.solves(&puzzle) && s != solution, "{puzzle} -> {s}");
                more += 1;
            }
            None => unique += 1,
        }
        // up to two others, neither of them the known one
        let two = super::solve_other(&puzzle, &solution, None, 2).expect("no conflict");
        assert!(two.count <= 2);
        for s in [two.solution, two.second].into_iter().flatten() {
            assert!(s.solves(&puzzle) && s != solution, "{puzzle}");
        }
        // a grid that is no solution skips nothing: the count is the plain search's
        let none = super::solve_other(&puzzle, &Grid::EMPTY, None, 2).expect("no conflict");
        assert_eq!(none.count, fast(&puzzle, 2).count, "{puzzle}");
    }
    assert!(
        unique > rounds / 10 && more > rounds / 10,
        "{unique} unique, {more} more"
    );
}

#[test]
fn ruling_out_a_digit_at_a_given_changes_nothing() {
    for puzzle in every(&puzzles(HARDEST), 30) {
        let solution = fast(&puzzle, 1).solution.expect("solved");
        let cell = (0..81).find(|&i| puzzle.cells()[i] != 0).expect("a given");
        let at = super::solve_other(&puzzle, &solution, Some(cell), 2).expect("no conflict");
        let anywhere = super::solve_other(&puzzle, &solution, None, 2).expect("no conflict");
        assert_eq!(at, anywhere, "{puzzle}");
        // a unique puzzle: nothing besides the known solution
        assert_eq!(at.count, 0, "{puzzle}");
    }
}

#[test]
fn counts_zero_when_a_cell_has_no_digit_left() {
    // Row 1 holds 1..8, column 9 holds a 9 lower down: r1c9 has no candidate, yet no two
    // givens clash.
    let mut cells = [0u8; 81];
    for (i, cell) in cells.iter_mut().take(8).enumerate() {
        *cell = i as u8 + 1;
    }
    cells[4 * 9 + 8] = 9;
    let puzzle = Grid::from_values(cells).expect("digits");
    assert_eq!(puzzle.conflict(), None);
    assert_eq!(fast(&puzzle, 1).count, 0);
    assert_eq!(reference::solve(&puzzle, 1).count, 0);
}

#[test]
fn reports_clashing_givens_as_the_grid_conflict() {
    let mut rng = XorShift(42);
    let grids = solutions();
    for _ in 0..200 {
        let solution = grids[rng.below(grids.len())];
        let puzzle = carve(&mut rng, &solution, 25);
        let givens: Vec<usize> = (0..81).filter(|&i| puzzle.cells()[i] != 0).collect();
        let from = givens[rng.below(givens.len())];
        let Some(to) = (0..81).find(|&j| peers_of(from, j) && puzzle.cells()[j] == 0) else {
            continue;
        };
        let mut cells = *puzzle.cells();
        cells[to] = cells[from];
        let bad = Grid::from_values(cells).expect("digits");
        let expected = bad.conflict().expect("a clash");
        assert_eq!(solve(&bad, 1), Err(expected));
        assert_eq!(solve(&bad, 2), Err(expected));
        assert_eq!(reference::solve(&bad, 1).count, 0);
    }
}

#[test]
fn reports_a_row_clash_with_its_cells() {
    let mut cells = [0u8; 81];
    cells[3] = 5;
    cells[7] = 5;
    let puzzle = Grid::from_values(cells).expect("digits");
    assert_eq!(
        solve(&puzzle, 1),
        Err(Conflict {
            digit: 5,
            unit: Unit::Row(0),
            cells: (3, 7)
        })
    );
}

#[test]
fn empty_grid_has_a_solution_and_more_than_one() {
    let first = fast(&Grid::EMPTY, 1);
    assert_eq!(first.count, 1);
    assert!(first.solution.is_some_and(|s| s.solves(&Grid::EMPTY)));
    let two = fast(&Grid::EMPTY, 2);
    assert_eq!(two.count, 2);
    assert_second(&Grid::EMPTY, &two);
    assert_eq!(first.second, None, "limit 1 stops at the first");
    assert_eq!(fast(&Grid::EMPTY, 0).count, 1, "limit 0 is taken as 1");
}

#[test]
fn solved_grid_counts_one_without_guessing() {
    for solution in solutions().iter().take(20) {
        for limit in [1, 2] {
            let out = fast(solution, limit);
            assert_eq!((out.count, out.guesses), (1, 0));
            assert_eq!(out.solution, Some(*solution));
        }
    }
}

#[test]
fn guesses_only_when_deduction_stalls() {
    // Kaggle puzzles fall to singles.
    for puzzle in puzzles(KAGGLE).iter().take(20) {
        assert_eq!(fast(puzzle, 1).guesses, 0, "{puzzle}");
    }
    // Proving the hardest puzzles unique needs wrong guesses somewhere.
    let hard = puzzles(HARDEST);
    assert!(hard.iter().all(|p| fast(p, 2).guesses > 0));
    assert!(hard.iter().filter(|p| fast(p, 1).guesses > 0).count() > 150);
}

/// The search as compiled for the baseline target, whatever this CPU has.
fn baseline(puzzle: &Grid, limit: u32) -> Outcome {
    let mut board = super::Board::from_givens(puzzle.cells()).expect("no conflicting givens");
    let mut search = super::Search::new(limit);
    search.run_baseline(&mut board);
    search.outcome()
}

#[test]
fn aimed_baseline_search_matches_the_one_solve_other_runs() {
    let mut rng = XorShift(0x000A_13ED);
    let grids = solutions();
    for round in 0..if cfg!(debug_assertions) { 100 } else { 1000 } {
        let solution = grids[rng.below(grids.len())];
        let puzzle = carve(&mut rng, &solution, [21, 25, 30][round % 3]);
        let mut board = super::Board::from_givens(puzzle.cells()).expect("no conflict");
        let mut search = super::Search::aimed(2, super::Aim { known: solution });
        search.run_baseline(&mut board);
        let want = super::solve_other(&puzzle, &solution, None, 2).expect("no conflict");
        assert_eq!(search.outcome(), want, "{puzzle}");
    }
}

#[test]
fn baseline_search_matches_the_one_solve_runs() {
    // `solve` takes the bit-instruction copy on CPUs that have it (as every CI machine here
    // does): both copies are the same source, so they must agree to the guess.
    let all = [EASY, CLUE17, HARDEST, SERG, EXCHANGE, KAGGLE]
        .map(puzzles)
        .concat();
    for puzzle in every(&all, ORACLE_STEP) {
        for limit in [1, 2] {
            assert_eq!(baseline(&puzzle, limit), fast(&puzzle, limit), "{puzzle}");
        }
    }
}

#[test]
fn solution_read_out_gives_the_grid_in_both_copies() {
    // A solved grid's board is solved as set up; both ways of reading it out give it back.
    let grids = solutions();
    assert!(grids.len() > 100);
    for grid in &grids {
        let board = super::Board::from_givens(grid.cells()).expect("a solution has no clash");
        assert!(board.solved());
        assert_eq!(board.grid::<false>(), Some(*grid));
        #[cfg(target_arch = "x86_64")]
        if super::has_bit_instructions() {
            assert_eq!(board.grid::<true>(), Some(*grid));
        }
    }
}

#[test]
fn grid_peers_are_the_twenty_cells_of_row_column_and_box() {
    use super::tables::{BAND, BAND_PEERS, GRID_PEERS};
    for (cell, &peers) in GRID_PEERS.iter().enumerate().take(81) {
        assert_eq!(peers.count_ones(), 20, "cell {cell}");
        assert_eq!(peers >> cell & 1, 0, "cell {cell} is not its own peer");
        // inside its band, the band table's peers; outside, its column only
        let (band, pos) = (cell / 27, cell % 27);
        for b in 0..3 {
            let part = (peers >> (27 * b)) as u32 & BAND;
            let want = if b == band {
                BAND_PEERS[pos]
            } else {
                super::COLUMN << (pos % 9)
            };
            assert_eq!(part, want, "cell {cell}, band {b}");
        }
    }
    assert!(GRID_PEERS[81..].iter().all(|&p| p == 0));
}

#[test]
fn single_rows_matches_counting_each_row() {
    // Every band whose three rows are non-empty: rows drawn from a few shapes, all combined.
    let shapes = [
        1u32,
        2,
        3,
        256,
        257,
        511,
        0b1010,
        0b100_000_000,
        0b011_000_000,
    ];
    for &r0 in &shapes {
        for &r1 in &shapes {
            for &r2 in &shapes {
                let band = r0 | r1 << 9 | r2 << 18;
                let expected = [r0, r1, r2]
                    .iter()
                    .enumerate()
                    .filter(|(_, r)| r.count_ones() == 1)
                    .fold(0, |acc, (k, r)| acc | r << (9 * k));
                assert_eq!(super::single_rows(band), expected, "{band:027b}");
            }
        }
    }
}

/// A minimal puzzle carved from `solution`: givens removed in random order as long as the
/// puzzle stays unique by the reference solver alone.
fn minimal(rng: &mut XorShift, solution: &Grid) -> Grid {
    let mut order: Vec<usize> = (0..81).collect();
    rng.shuffle(&mut order);
    let mut cells = *solution.cells();
    for i in order {
        let kept = cells[i];
        cells[i] = 0;
        let candidate = Grid::from_values(cells).expect("digits");
        if reference::solve(&candidate, 2).count != 1 {
            cells[i] = kept;
        }
    }
    Grid::from_values(cells).expect("digits")
}

#[test]
fn agrees_with_reference_on_random_minimal_puzzles() {
    let mut rng = XorShift(0x0DDB_1A5E_5BAD_5EED);
    let grids = solutions();
    let rounds = if cfg!(debug_assertions) { 6 } else { 40 };
    for _ in 0..rounds {
        let solution = grids[rng.below(grids.len())];
        let puzzle = minimal(&mut rng, &solution);
        assert_agrees(&puzzle);
        let outcome = fast(&puzzle, 2);
        assert_eq!(outcome.count, 1, "{puzzle}");
        assert_eq!(outcome.solution, Some(solution), "{puzzle}");
        // Minimal: without any one given there are two solutions or more.
        for i in (0..81).filter(|&i| puzzle.cells()[i] != 0) {
            let mut cells = *puzzle.cells();
            cells[i] = 0;
            let fewer = Grid::from_values(cells).expect("digits");
            assert_eq!(fast(&fewer, 2).count, 2, "given {i} of {puzzle} is needed");
        }
    }
}

#[test]
fn reports_random_contradictions_the_reference_finds_unsolvable() {
    // A carved puzzle plus a copy of one of its givens into a blank peer cell: two equal givens
    // see each other. The fast solver names a conflict; the oracle counts no solution.
    let mut rng = XorShift(0xC0FF_EE00_1234_5678);
    let grids = solutions();
    let mut tested = 0;
    for round in 0..300 {
        let solution = grids[rng.below(grids.len())];
        let puzzle = carve(&mut rng, &solution, [17, 25, 35, 50][round % 4]);
        let givens: Vec<usize> = (0..81).filter(|&i| puzzle.cells()[i] != 0).collect();
        let from = givens[rng.below(givens.len())];
        let blanks: Vec<usize> = (0..81)
            .filter(|&j| puzzle.cells()[j] == 0 && peers_of(from, j))
            .collect();
        if blanks.is_empty() {
            continue;
        }
        let mut cells = *puzzle.cells();
        cells[blanks[rng.below(blanks.len())]] = cells[from];
        let clash = Grid::from_values(cells).expect("digits");
        assert!(solve(&clash, 2).is_err(), "{clash}");
        assert_eq!(reference::solve(&clash, 2).count, 0, "{clash}");
        tested += 1;
    }
    assert!(tested > 250, "only {tested} contradictions built");
}

/// Every `step`-th puzzle of each tdoku corpus and CSV dataset in `../shared/data`, checked
/// against the oracle at limits 1 and 2. Opt-in (the shared data is not shipped, and the oracle
/// is slow on the hardest sets): `cargo test --release --lib -- --ignored`.
#[test]
#[ignore = "reads ../shared/data; run with --release -- --ignored"]
fn agrees_with_reference_on_samples_of_every_shared_corpus() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    let mut files: Vec<_> = ["tdoku", "csv"]
        .iter()
        .filter_map(|dir| std::fs::read_dir(root.join(dir)).ok())
        .flatten()
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .collect();
    files.sort();
    assert!(
        files.len() >= 6,
        "shared corpora missing under {}",
        root.display()
    );
    for path in files {
        let text = std::fs::read_to_string(&path).expect("corpus reads");
        let all = puzzles(&text);
        assert!(!all.is_empty(), "{}: no puzzles", path.display());
        let step = (all.len() / 200).max(1);
        for puzzle in every(&all, step) {
            assert_agrees(&puzzle);
        }
    }
}

#[test]
fn column_permutations_clear_a_box_column_locked_elsewhere() {
    // Digit 1 (index 0) in stack 0: band 0 may use columns 0 and 1, band 1 only column 0, band
    // 2 any of the three. Band 1 takes column 0, so band 0 takes column 1, so band 2 takes
    // column 2: columns 0 and 1 go from band 2, column 0 from band 0. Other stacks untouched.
    let mut board = super::Board::from_givens(&[0; 81]).expect("empty grid");
    let stack0 = super::COLUMN * 0b111;
    let others = super::BAND & !stack0;
    board.cand[0][0] = others | (super::COLUMN * 0b011);
    board.cand[1][0] = others | super::COLUMN;
    board.todo = 0;
    assert_eq!(board.column_permutations::<false>().ok(), Some(true));
    assert_eq!(board.cand[0][0], others | super::COLUMN << 1);
    assert_eq!(board.cand[1][0], others | super::COLUMN);
    assert_eq!(board.cand[2][0], others | super::COLUMN << 2);
    // Nothing more to clear the second time; with band 0 down to column 0 too, nothing fits.
    assert_eq!(board.column_permutations::<false>().ok(), Some(false));
    board.cand[0][0] = others | super::COLUMN;
    assert!(board.column_permutations::<false>().is_err());
}

/// The candidates before any deduction of the puzzle of `solution`'s digits at `givens`, as a
/// plain loop over every cell and its peers (per digit, index 0 for 1).
fn candidates_cell_by_cell(solution: &Grid, givens: u128) -> [u128; 9] {
    let digit = |i: usize| usize::from(solution.cells()[i] - 1);
    let mut cand = [0u128; 9];
    for (d, cand) in cand.iter_mut().enumerate() {
        for i in 0..81 {
            let fits = match givens >> i & 1 {
                1 => digit(i) == d,
                _ => (0..81).all(|j| givens >> j & 1 == 0 || digit(j) != d || !peers_of(i, j)),
            };
            *cand |= u128::from(fits) << i;
        }
    }
    cand
}

#[test]
fn searches_from_candidate_masks_answer_as_from_the_grid() {
    let mut rng = XorShift(0x0C0F_FEE5);
    let grids = solutions();
    let rounds = if cfg!(debug_assertions) { 100 } else { 1000 };
    let (mut unique, mut more) = (0, 0);
    for round in 0..rounds {
        let solution = grids[rng.below(grids.len())];
        let puzzle = carve(&mut rng, &solution, [20, 23, 26, 30, 45][round % 5]);
        let givens = (0..81)
            .filter(|&i| puzzle.cells()[i] != 0)
            .fold(0u128, |m, i| m | 1u128 << i);
        let cand = candidates_cell_by_cell(&solution, givens);
        // every solution but the known one: the whole outcome (guesses too) is solve_other's
        let want = super::solve_other(&puzzle, &solution, None, 2).expect("no conflict");
        let got = super::solve_other_candidates(&solution, &cand, givens, None, 2);
        assert_eq!(got, want, "{puzzle}");
        // those that differ at an open cell, the known digit ruled out there by the caller
        let cell = (0..81)
            .find(|&i| givens >> i & 1 == 0)
            .expect("an open cell");
        let mut ruled = cand;
        ruled[usize::from(solution.cells()[cell] - 1)] &= !(1u128 << cell);
        let want = super::solve_other(&puzzle, &solution, Some(cell), 2).expect("no conflict");
        let got = super::solve_other_candidates(&solution, &ruled, givens, Some(cell), 2);
        assert_eq!(got, want, "{puzzle} at {cell}");
        match want.count {
            0 => unique += 1,
            _ => more += 1,
        }
    }
    assert!(
        unique > rounds / 10 && more > rounds / 10,
        "{unique} unique, {more} more"
    );
}
