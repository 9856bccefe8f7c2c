//! Classes of isomorphic puzzles, as `check --duplicates=iso` tells them apart: a puzzle's class
//! is named by the XXH3-128 digest of its pattern-first canonical form
//! ([`crate::canon::pattern_minlex`]), equal for two puzzles exactly when they are isomorphic
//! (up to a digest collision, about n²/2¹²⁹ among n classes). [`Exclusions`] holds the classes
//! no output may belong to (`--exclude`), behind the cheap [`crate::canon::invariant`] so that
//! most candidates need no form at all.

use std::collections::HashSet;

use crate::canon;
use crate::grid::Grid;

/// The name of a puzzle's class of isomorphic puzzles: equal for two puzzles exactly when they
/// are isomorphic (see the module documentation).
pub type ClassKey = u128;

/// The class of `puzzle`.
pub fn class_key(puzzle: &Grid) -> ClassKey {
    xxhash_rust::xxh3::xxh3_128(canon::pattern_minlex(puzzle).cells())
}

/// A set of classes of puzzles, each known by its invariant and its [`ClassKey`]: 24 bytes a
/// class and the tables' slack, about 50 bytes an excluded puzzle.
#[derive(Debug, Clone, Default)]
pub struct Exclusions {
    invariants: HashSet<u64>,
    classes: HashSet<ClassKey>,
}

impl Exclusions {
    /// No class.
    pub fn new() -> Exclusions {
        Exclusions::default()
    }

    /// Adds `puzzle`'s class.
    pub fn insert(&mut self, puzzle: &Grid) {
        self.insert_keys(canon::invariant(puzzle), class_key(puzzle));
    }

    /// Adds a class by the invariant and key of one of its puzzles (computed elsewhere, in
    /// parallel say: [`canon::invariant`] and [`class_key`]).
    pub fn insert_keys(&mut self, invariant: u64, key: ClassKey) {
        self.invariants.insert(invariant);
        self.classes.insert(key);
    }

    /// The classes held.
    pub fn len(&self) -> usize {
        self.classes.len()
    }

    /// True when no class is held.
    pub fn is_empty(&self) -> bool {
        self.classes.is_empty()
    }

    /// True when `puzzle` is isomorphic to a puzzle added. Its form is computed only when its
    /// invariant is one of theirs.
    pub fn contains(&self, puzzle: &Grid) -> bool {
        !self.is_empty()
            && self.invariants.contains(&canon::invariant(puzzle))
            && self.classes.contains(&class_key(puzzle))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transform::{Rng, Transform};

    const PUZZLES: &str = include_str!("../../data/hardest_300.txt");

    #[test]
    fn holds_every_transform_of_an_excluded_puzzle_and_nothing_else() {
        let puzzles: Vec<Grid> = PUZZLES
            .lines()
            .filter_map(|l| l.get(..81)?.parse().ok())
            .collect();
        assert!(puzzles.len() >= 300);
        let mut excluded = Exclusions::new();
        for p in &puzzles[..150] {
            excluded.insert(p);
        }
        assert_eq!(excluded.len(), 150);
        let mut rng = Rng::new(3);
        for p in &puzzles[..150] {
            let moved = Transform::random(&mut rng).apply(p);
            assert!(excluded.contains(&moved), "{moved}");
            assert_eq!(class_key(&moved), class_key(p));
        }
        for p in &puzzles[150..] {
            assert!(!excluded.contains(p), "{p}");
        }
        assert!(!Exclusions::new().contains(&puzzles[0]));
    }
}
