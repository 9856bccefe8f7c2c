//! How to benchmark: a run's options and their defaults, defined once here for both the command
//! line's help and the harness.

use std::num::{NonZeroU32, NonZeroUsize};

/// Seconds each round runs at least, by default.
pub const DEFAULT_MIN_SECONDS: f64 = 1.0;
/// Timed rounds per dataset, by default.
pub const DEFAULT_ROUNDS: NonZeroU32 = NonZeroU32::new(3).expect("3 is not zero");
/// Solver threads, by default: one, the solver's own speed.
pub const DEFAULT_THREADS: NonZeroUsize = NonZeroUsize::MIN;
/// Solutions searched for per puzzle, by default (1: the first; 2: proof of uniqueness).
pub const DEFAULT_LIMIT: u32 = 1;
/// Seed of `--sample`, by default.
pub const DEFAULT_SEED: u64 = 0;

/// How to benchmark.
#[derive(Debug, Clone)]
pub struct Options {
    /// Solutions searched per puzzle: 1 (first solution) or 2 (proof of uniqueness).
    pub limit: u32,
    /// Each round runs whole passes until at least this many seconds have gone by.
    pub min_seconds: f64,
    /// Timed rounds.
    pub rounds: NonZeroU32,
    /// Seed of a random validity-preserving transform per puzzle; `None` keeps the puzzles as read.
    pub shuffle: Option<u64>,
    /// Keep a random subset of this many puzzles (seeded by `seed`); `None` keeps all.
    pub sample: Option<NonZeroUsize>,
    /// Seed of the sample.
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            limit: DEFAULT_LIMIT,
            min_seconds: DEFAULT_MIN_SECONDS,
            rounds: DEFAULT_ROUNDS,
            shuffle: None,
            sample: None,
            seed: DEFAULT_SEED,
        }
    }
}
