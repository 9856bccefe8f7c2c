//! Canonical forms per second on one core: `cargo bench --bench canon`.
//!
//! For each corpus (the tdoku 17-clue and forum-hardest lists and the Kaggle CSV from
//! `../shared/data` when present, else the shipped samples in `data/`), the canonical forms of
//! every puzzle are computed in memory, best of 5 passes: the minlex form (`canon`) and the
//! pattern form (`check --duplicates=iso`), side by side; the table gives forms per second and
//! µs a form, and µs for the isomorphism invariant that spares `check --duplicates=iso` most
//! forms. `CANON_CORPUS=FILE` times that file instead.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use sudoku_batch::canon;
use sudoku_batch::grid::Grid;

mod common;
use common::load;

fn best_of(passes: usize, puzzles: &[Grid], value: impl Fn(&Grid) -> u64) -> Duration {
    (0..passes)
        .map(|_| {
            let start = Instant::now();
            let mut sum = 0u64;
            for p in puzzles {
                sum = sum.wrapping_add(value(black_box(p)));
            }
            black_box(sum);
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpora: Vec<(String, PathBuf, PathBuf)> = match std::env::var_os("CANON_CORPUS") {
        Some(file) => vec![(
            "CANON_CORPUS".into(),
            PathBuf::from(&file),
            PathBuf::from(file),
        )],
        None => [
            ("17-clue", "tdoku/puzzles2_17_clue", "17clue_300.txt"),
            (
                "forum_hardest",
                "tdoku/puzzles5_forum_hardest_1905_11+",
                "hardest_300.txt",
            ),
            (
                "kaggle",
                "csv/kaggle_quizzes_solutions_20k.csv",
                "kaggle_200.csv",
            ),
        ]
        .iter()
        .map(|(name, shared, sample)| {
            (
                name.to_string(),
                root.join("../shared/data").join(shared),
                root.join("data").join(sample),
            )
        })
        .collect(),
    };
    println!(
        "| corpus | puzzles | minlex: forms/s | µs/form | pattern form (check --duplicates=iso): forms/s | µs/form | invariant: µs |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for (name, shared, sample) in corpora {
        let mut puzzles = load(&shared);
        if puzzles.is_empty() {
            puzzles = load(&sample);
        }
        if puzzles.is_empty() {
            continue;
        }
        // the two forms side by side, in one run
        let per = |value: &dyn Fn(&Grid) -> u64| {
            best_of(5, &puzzles, value).as_secs_f64() / puzzles.len() as f64
        };
        let minlex = per(&|p| canon::hash(&canon::minlex(p)));
        let pattern = per(&|p| canon::hash(&canon::pattern_minlex(p)));
        let invariant = per(&canon::invariant);
        println!(
            "| {name} | {} | {:.0} | {:.2} | {:.0} | {:.2} | {:.3} |",
            puzzles.len(),
            1.0 / minlex,
            minlex * 1e6,
            1.0 / pattern,
            pattern * 1e6,
            invariant * 1e6
        );
    }
}
