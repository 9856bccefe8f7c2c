//! A dataset in memory: read whole from a reader (parse time measured apart), sampled and
//! shuffled with seeds, and written out again as puzzle lines for another solver to time.

use super::clock::{Clock, seconds};
use super::options::Options;
use crate::grid::{CELLS, Grid};
use crate::input::{InputError, Reader, Record};
use crate::transform::{Rng, Transform};

/// Records read per call while loading a dataset.
const LOAD_BATCH: usize = 4096;

/// A dataset in memory, ready to time.
#[derive(Debug, Clone, Default)]
pub struct Dataset {
    /// Short name (the file name) used in reports and to match a baseline.
    pub name: String,
    /// The input as given.
    pub path: String,
    /// Records read.
    pub records: u64,
    /// Records skipped because they are not puzzles.
    pub malformed: u64,
    /// Seconds spent reading and parsing.
    pub parse_seconds: f64,
    /// The puzzles to time.
    pub puzzles: Vec<Grid>,
    /// Line of each puzzle in its input.
    pub lines: Vec<u64>,
    /// True when the puzzles were transformed.
    pub shuffled: bool,
}

impl Dataset {
    /// Reads every record of `reader` into memory; a malformed record is counted, handed to
    /// `on_malformed` and left out.
    pub fn load(
        reader: &mut Reader,
        path: &str,
        clock: &dyn Clock,
        mut on_malformed: impl FnMut(&Record, &str),
    ) -> Result<Dataset, InputError> {
        let start = clock.now();
        let mut set = Dataset {
            name: dataset_name(path),
            path: path.to_string(),
            ..Dataset::default()
        };
        let mut batch = Vec::with_capacity(LOAD_BATCH);
        while reader.read_batch(LOAD_BATCH, &mut batch)? > 0 {
            for record in batch.drain(..) {
                set.records += 1;
                match &record.puzzle {
                    Ok(puzzle) => {
                        set.puzzles.push(*puzzle);
                        set.lines.push(record.line);
                    }
                    Err(reason) => {
                        set.malformed += 1;
                        on_malformed(&record, reason);
                    }
                }
            }
        }
        set.parse_seconds = seconds(clock.now() - start);
        Ok(set)
    }

    /// Applies `--sample` (a seeded subset, in input order) and then `--shuffle` (a seeded
    /// transform per puzzle).
    pub fn prepare(&mut self, options: &Options) {
        if let Some(n) = options.sample {
            let keep = Rng::new(options.seed).sample_indices(self.puzzles.len(), n.get());
            self.puzzles = keep.iter().map(|&i| self.puzzles[i]).collect();
            self.lines = keep.iter().map(|&i| self.lines[i]).collect();
        }
        if let Some(seed) = options.shuffle {
            let mut rng = Rng::new(seed);
            for p in &mut self.puzzles {
                *p = Transform::random(&mut rng).apply(p);
            }
            self.shuffled = true;
        }
    }
}

/// The name of a dataset: the file name of its path (`<stdin>` stays as it is).
pub fn dataset_name(path: &str) -> String {
    std::path::Path::new(path)
        .file_name()
        .map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned())
}

/// The prepared puzzles as 81-character lines (`.` for blanks), for timing another solver on
/// exactly the same puzzles.
pub fn puzzle_lines(set: &Dataset, out: &mut Vec<u8>) {
    for p in &set.puzzles {
        out.extend_from_slice(&p.to_line(b'.'));
        out.push(b'\n');
    }
    debug_assert!(out.len() % (CELLS + 1) == 0);
}

#[cfg(test)]
mod tests {
    use std::num::NonZeroUsize;

    use super::*;
    use crate::bench::tests::dataset;

    #[test]
    fn shuffle_and_sample_are_seeded() {
        let puzzles: Vec<Grid> =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/hardest_300.txt"))
                .unwrap()
                .lines()
                .filter_map(|l| l.get(..81).and_then(|p| p.parse().ok()))
                .collect();
        assert!(puzzles.len() >= 100);
        let options = Options {
            shuffle: Some(7),
            sample: NonZeroUsize::new(20),
            seed: 3,
            ..Options::default()
        };
        let prepared = |options: &Options| {
            let mut set = dataset(&puzzles);
            set.prepare(options);
            set
        };
        let a = prepared(&options);
        assert_eq!(a.puzzles.len(), 20);
        assert_eq!(a.puzzles, prepared(&options).puzzles);
        assert!(a.lines.windows(2).all(|w| w[0] < w[1]), "input order kept");
        // the same sample, unshuffled, is the original puzzles at those lines
        let plain = prepared(&Options {
            shuffle: None,
            ..options.clone()
        });
        assert_eq!(plain.lines, a.lines);
        for (p, &line) in plain.puzzles.iter().zip(&plain.lines) {
            assert_eq!(*p, puzzles[line as usize - 1]);
        }
        assert!(a.puzzles.iter().zip(&plain.puzzles).all(|(x, y)| x != y));
        assert_ne!(
            a.puzzles,
            prepared(&Options {
                shuffle: Some(8),
                ..options.clone()
            })
            .puzzles
        );
    }

    #[test]
    fn dataset_names_are_file_names() {
        assert_eq!(
            dataset_name("../shared/data/tdoku/puzzles2_17_clue"),
            "puzzles2_17_clue"
        );
        assert_eq!(dataset_name("<stdin>"), "<stdin>");
    }
}
