//! Solver benchmarks: one iteration solves a whole corpus, so time / puzzles = time per puzzle.
//!
//! The small samples in `data/` always run; the large tdoku corpora in `../shared/data/tdoku`
//! run when present. With `SOLVER_CORPUS=FILE` (and optionally `SOLVER_LIMIT=2`) the binary
//! instead prints µs/puzzle for that file, best of 3 timed passes in memory, the same way the
//! peer's `peer_bench bench` measures, for side-by-side comparisons. With `SOLVER_ONCE=1` as well it
//! solves the file once and prints the counts: a short run for `valgrind --tool=callgrind`, whose
//! instruction counts stay repeatable on a busy machine.

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use sudoku_batch::grid::Grid;

mod common;
use common::load;
use sudoku_batch::solver;

fn solve_all(puzzles: &[Grid], limit: u32) -> u64 {
    let mut found = 0;
    for p in puzzles {
        if let Ok(out) = solver::solve(black_box(p), limit) {
            found += u64::from(out.count);
        }
    }
    found
}

fn sample(name: &str) -> Vec<Grid> {
    load(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("data")
            .join(name),
    )
}

fn shared(name: &str) -> Vec<Grid> {
    load(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/data/tdoku")
            .join(name),
    )
}

const SAMPLES: &[&str] = &["easy_300.txt", "17clue_300.txt", "hardest_300.txt"];

const CORPORA: &[&str] = &[
    "puzzles2_17_clue",
    "puzzles3_magictour_top1465",
    "puzzles5_forum_hardest_1905_11+",
    "puzzles6_forum_hardest_1106",
    "puzzles7_serg_benchmark",
];

/// Whole sample file per iteration, first solution.
#[divan::bench(args = SAMPLES, sample_count = 20)]
fn sample_first(bencher: divan::Bencher, name: &str) {
    let puzzles = sample(name);
    bencher.bench(|| solve_all(&puzzles, 1));
}

/// Whole sample file per iteration, proving uniqueness.
#[divan::bench(args = SAMPLES, sample_count = 20)]
fn sample_unique(bencher: divan::Bencher, name: &str) {
    let puzzles = sample(name);
    bencher.bench(|| solve_all(&puzzles, 2));
}

/// Whole large corpus per iteration (skipped when the shared data is absent), first solution.
#[divan::bench(args = CORPORA, sample_count = 3, sample_size = 1)]
fn corpus_first(bencher: divan::Bencher, name: &str) {
    let puzzles = shared(name);
    bencher.bench(|| solve_all(&puzzles, 1));
}

/// Whole large corpus per iteration (skipped when the shared data is absent), proving uniqueness.
#[divan::bench(args = CORPORA, sample_count = 3, sample_size = 1)]
fn corpus_unique(bencher: divan::Bencher, name: &str) {
    let puzzles = shared(name);
    bencher.bench(|| solve_all(&puzzles, 2));
}

/// `SOLVER_CORPUS` mode: µs/puzzle of one file, best of 3 passes after a warm-up pass (or one pass
/// and no timing when `once`).
fn measure(path: &str, limit: u32, once: bool) {
    let puzzles = load(Path::new(path));
    if puzzles.is_empty() {
        eprintln!("{path}: no puzzles");
        return;
    }
    if once {
        let found = solve_all(&puzzles, limit);
        println!(
            "{path}: {} puzzles, limit {limit}, solutions {found}",
            puzzles.len()
        );
        return;
    }
    let start = Instant::now();
    let mut passes = 0u32;
    while passes == 0 || start.elapsed().as_secs_f64() < 0.5 {
        black_box(solve_all(&puzzles, limit));
        passes += 1;
    }
    let reps = (1.0 / (start.elapsed().as_secs_f64() / f64::from(passes))) as u32 + 1;
    let mut best = f64::MAX;
    let mut found = 0;
    for _ in 0..3 {
        let t = Instant::now();
        for _ in 0..reps {
            found = solve_all(&puzzles, limit);
        }
        best = best.min(t.elapsed().as_secs_f64() / f64::from(reps));
    }
    let guesses: u64 = puzzles
        .iter()
        .filter_map(|p| solver::solve(p, limit).ok())
        .map(|out| out.guesses)
        .sum();
    println!(
        "{path}: {} puzzles, limit {limit}, solutions {found}, guesses/puzzle {:.2}, usec_per_puzzle {:.3}",
        puzzles.len(),
        guesses as f64 / puzzles.len() as f64,
        best * 1e6 / puzzles.len() as f64
    );
}

fn main() {
    if let Ok(path) = std::env::var("SOLVER_CORPUS") {
        let limit = std::env::var("SOLVER_LIMIT")
            .ok()
            .and_then(|l| l.parse().ok())
            .unwrap_or(1);
        measure(&path, limit, std::env::var_os("SOLVER_ONCE").is_some());
        return;
    }
    divan::main();
}
