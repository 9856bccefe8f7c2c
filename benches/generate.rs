//! Puzzles generated a second on one core, in memory: `cargo bench --bench generate`.
//!
//! Times [`Generator::record`] for records `0..N` of seed 1 (N = `GENERATE_N`, default 5,000),
//! best of 3 passes, for plain generation and a few option sets, and prints µs a puzzle, puzzles a
//! second and the mean number of givens, guesses and tries. `GENERATE_ONCE=1` makes one pass of
//! plain generation and prints its counts: a short run for `valgrind --tool=callgrind`, whose
//! instruction counts stay repeatable on a busy machine.

use std::hint::black_box;
use std::time::Instant;

use sudoku_batch::generate::{Bounds, Generator, Options, Symmetry};

fn pass(generator: &Generator, n: u64) -> (f64, [f64; 3]) {
    let start = Instant::now();
    let (mut givens, mut guesses, mut tries) = (0u64, 0u64, 0u64);
    for i in 0..n {
        let found = generator.record(black_box(i)).expect("made");
        givens += u64::from(found.givens);
        guesses += found.guesses;
        tries += found.tries;
    }
    let secs = start.elapsed().as_secs_f64();
    let per = |x: u64| x as f64 / n as f64;
    (secs, [per(givens), per(guesses), per(tries)])
}

fn main() {
    let n: u64 = std::env::var("GENERATE_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5000);
    let plain = Options {
        seed: 1,
        ..Options::default()
    };
    if std::env::var_os("GENERATE_ONCE").is_some() {
        let generator = Generator::new(plain).expect("valid");
        let (_, [givens, guesses, tries]) = pass(&generator, n);
        println!("{n} puzzles: givens {givens:.2}, guesses {guesses:.2}, tries {tries:.2}");
        return;
    }
    let cases: Vec<(&str, Options)> = vec![
        ("plain", plain.clone()),
        (
            "rot180",
            Options {
                symmetry: Symmetry::Rot180,
                ..plain.clone()
            },
        ),
        (
            "clues 20..22",
            Options {
                clues: Some(Bounds::new(20, 22)),
                ..plain.clone()
            },
        ),
        (
            "no-minimal 30",
            Options {
                minimal: false,
                clues: Some(Bounds::new(30, 30)),
                ..plain.clone()
            },
        ),
    ];
    let only = std::env::var("GENERATE_CASE").ok();
    println!("| options | puzzles | µs/puzzle | puzzles/s | givens | guesses | tries |");
    println!("| :-- | --: | --: | --: | --: | --: | --: |");
    for (name, options) in cases {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let generator = Generator::new(options).expect("valid");
        let mut best = f64::MAX;
        let mut means = [0.0; 3];
        for _ in 0..3 {
            let (secs, m) = pass(&generator, n);
            best = best.min(secs);
            means = m;
        }
        println!(
            "| {name} | {n} | {:.2} | {:.0} | {:.2} | {:.2} | {:.2} |",
            best * 1e6 / n as f64,
            n as f64 / best,
            means[0],
            means[1],
            means[2]
        );
    }
}
