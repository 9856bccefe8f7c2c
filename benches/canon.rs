//! Canonical forms per second on one core: `cargo bench --bench canon`.
//!
//! For each corpus (the tdoku 17-clue and forum-hardest lists and the Kaggle CSV from
//! `$SHARED/data`, by default `../shared/data`, when present, else the shipped samples in `data/`), the canonical forms of
//! every puzzle are computed in memory, best of 5 passes: the minlex form (`canon`) and the
//! pattern form (`check --duplicates=iso`), side by side; the table gives forms per second and
//! µs a form (and the worst µs of any one puzzle, its best of 5 calls), and µs for the isomorphism invariant that spares `check --duplicates=iso` most
//! forms. `CANON_CORPUS=FILE` times that file instead.
//!
//! A second table times complete grids, which take their own route (`src/canon/grid_form.rs`): the
//! Kaggle solutions column, and random transforms of the grids with the most automorphisms
//! (`src/canon/symmetric_grids.txt`), the slowest kind; with the worst µs of any one grid (each
//! grid's best of 5 passes, so that a preempted call does not count).

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use sudoku_batch::canon;
use sudoku_batch::grid::Grid;
use sudoku_batch::transform::{Rng, Transform};

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

/// The shared folder: `$SHARED`, else `../shared` beside the checkout.
fn shared_dir(root: &Path) -> PathBuf {
    std::env::var_os("SHARED").map_or_else(|| root.join("../shared"), PathBuf::from)
}

/// The slowest grid: each grid's best of `passes` calls, the largest of those.
fn worst_of(passes: usize, grids: &[Grid], value: impl Fn(&Grid) -> u64) -> Duration {
    let mut best = vec![Duration::MAX; grids.len()];
    for _ in 0..passes {
        for (g, b) in grids.iter().zip(&mut best) {
            let start = Instant::now();
            black_box(value(black_box(g)));
            *b = (*b).min(start.elapsed());
        }
    }
    best.into_iter().max().unwrap_or_default()
}

/// The grids of a CSV file's second column (the solutions of the Kaggle file); none when the
/// file is missing.
fn solutions(path: &Path) -> Vec<Grid> {
    let Ok(text) = std::fs::read(path) else {
        return Vec::new();
    };
    text.split(|&b| b == b'\n')
        .filter_map(|line| line.split(|&b| b == b',').nth(1))
        .filter_map(|f| Grid::parse(f.strip_suffix(b"\r").unwrap_or(f)).ok())
        .collect()
}

/// `copies` random transforms (seeded) of each grid of `src/canon/symmetric_grids.txt`.
fn symmetric(root: &Path, copies: usize) -> Vec<Grid> {
    let text =
        std::fs::read_to_string(root.join("src/canon/symmetric_grids.txt")).unwrap_or_default();
    let mut rng = Rng::new(648);
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split(' ').nth(1)?.parse::<Grid>().ok())
        .flat_map(|g| (0..copies).map(move |_| g).collect::<Vec<_>>())
        .map(|g| Transform::random(&mut rng).apply(&g))
        .collect()
}

/// The table of complete grids (see the crate doc).
fn grids(root: &Path) {
    let mut kaggle = solutions(&shared_dir(root).join("data/csv/kaggle_quizzes_solutions_20k.csv"));
    if kaggle.is_empty() {
        kaggle = solutions(&root.join("data/kaggle_200.csv"));
    }
    println!();
    println!(
        "| complete grids | grids | minlex: forms/s | µs/form | worst µs | pattern form: forms/s | µs/form | worst µs |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (name, grids) in [
        ("Kaggle solutions", kaggle),
        (
            "648/108/72/54 automorphisms, 250 transforms each",
            symmetric(root, 250),
        ),
    ] {
        if grids.is_empty() {
            continue;
        }
        let per = |value: &dyn Fn(&Grid) -> u64| {
            best_of(5, &grids, value).as_secs_f64() / grids.len() as f64
        };
        let minlex = |p: &Grid| canon::hash(&canon::minlex(p));
        let pattern = |p: &Grid| canon::hash(&canon::pattern_minlex(p));
        let (m, p) = (per(&minlex), per(&pattern));
        let (mw, pw) = (worst_of(5, &grids, minlex), worst_of(5, &grids, pattern));
        println!(
            "| {name} | {} | {:.0} | {:.2} | {:.1} | {:.0} | {:.2} | {:.1} |",
            grids.len(),
            1.0 / m,
            m * 1e6,
            mw.as_secs_f64() * 1e6,
            1.0 / p,
            p * 1e6,
            pw.as_secs_f64() * 1e6,
        );
    }
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
                shared_dir(root).join("data").join(shared),
                root.join("data").join(sample),
            )
        })
        .collect(),
    };
    println!(
        "| corpus | puzzles | minlex: forms/s | µs/form | worst µs | pattern form (check --duplicates=iso): forms/s | µs/form | invariant: µs |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
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
        let minlex_of = |p: &Grid| canon::hash(&canon::minlex(p));
        let minlex = per(&minlex_of);
        let worst = worst_of(5, &puzzles, minlex_of);
        let pattern = per(&|p| canon::hash(&canon::pattern_minlex(p)));
        let invariant = per(&canon::invariant);
        println!(
            "| {name} | {} | {:.0} | {:.2} | {:.1} | {:.0} | {:.2} | {:.3} |",
            puzzles.len(),
            1.0 / minlex,
            minlex * 1e6,
            worst.as_secs_f64() * 1e6,
            1.0 / pattern,
            pattern * 1e6,
            invariant * 1e6
        );
    }
    if std::env::var_os("CANON_CORPUS").is_none() {
        grids(root);
    }
}
