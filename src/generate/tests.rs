//! Behaviour of the generator as a whole: every record keeps its promises (checked with the
//! reference solver, which shares no code with the fast one), and the stream depends on the seed
//! and index alone.

use super::*;
use crate::solver::reference;

/// Records `0..n` of `options`' stream.
fn records(options: Options, n: u64) -> Vec<Generated> {
    let generator = Generator::new(options).expect("valid options");
    (0..n).map(|i| generator.record(i).expect("made")).collect()
}

/// One solution, by the reference solver.
fn assert_unique(puzzle: &Grid, solution: &Grid) {
    let out = reference::solve(puzzle, 2);
    assert_eq!(out.count, 1, "{puzzle}");
    assert_eq!(out.solution.as_ref(), Some(solution), "{puzzle}");
}

/// No given can go, by the reference solver; givens in `kept` are not tried.
fn assert_minimal(puzzle: &Grid, kept: u128) {
    for i in (0..CELLS).filter(|&i| puzzle.cells()[i] != 0 && kept >> i & 1 == 0) {
        let mut cells = *puzzle.cells();
        cells[i] = 0;
        let fewer = Grid::from_values(cells).unwrap();
        assert_eq!(
            reference::solve(&fewer, 2).count,
            2,
            "{puzzle}: r{i} can go"
        );
    }
}

#[test]
fn plain_records_are_unique_and_minimal() {
    for found in records(Options::default(), 30) {
        assert_unique(&found.puzzle, &found.solution);
        assert_minimal(&found.puzzle, 0);
        assert_eq!(found.givens as usize, found.puzzle.givens());
        assert_eq!(found.tries, 1);
        let out = solver::solve(&found.puzzle, 2).unwrap();
        assert_eq!(found.guesses, out.guesses);
    }
}

#[test]
fn a_record_depends_on_seed_and_index_alone() {
    let generator = Generator::new(Options::default()).unwrap();
    let forwards: Vec<Generated> = (0..20).map(|i| generator.record(i).unwrap()).collect();
    let backwards: Vec<Generated> = (0..20)
        .rev()
        .map(|i| generator.record(i).unwrap())
        .collect();
    assert!(forwards.iter().eq(backwards.iter().rev()));
    assert_eq!(forwards[7].index, 7);
    let other = Generator::new(Options {
        seed: 1,
        ..Options::default()
    })
    .unwrap();
    assert_ne!(other.record(0).unwrap().puzzle, forwards[0].puzzle);
}

#[test]
fn symmetric_records_are_minimal_cell_by_cell() {
    // the carving removes whole orbits; minimality is about single givens all the same
    for symmetry in [Symmetry::Rot180, Symmetry::MirrorH, Symmetry::Diagonal] {
        let options = Options {
            symmetry,
            seed: 3,
            ..Options::default()
        };
        for found in records(options, 8) {
            assert_unique(&found.puzzle, &found.solution);
            assert_minimal(&found.puzzle, 0);
        }
    }
}

#[test]
fn written_from_any_start_is_the_slice_of_the_whole() {
    // three minimal puzzles as starts: records 3.. repeat records 0..3, and are left out
    let first = records(Options::default(), 3);
    let options = Options {
        from: first
            .iter()
            .map(|g| Start::new(g.puzzle).unwrap())
            .collect(),
        ..Options::default()
    };
    let generator = Generator::new(options).unwrap();
    let (whole, repeats, failure) = written(&generator, 0, 8, true, &|| false);
    assert_eq!((whole.len(), repeats, failure), (3, 5, None));
    for start in 0..8 {
        let (part, _, _) = written(&generator, start, 8 - start, true, &|| false);
        let expected: Vec<Generated> = whole.iter().filter(|g| g.index >= start).copied().collect();
        assert_eq!(part, expected, "start {start}");
    }
    let (all, repeats, _) = written(&generator, 2, 6, false, &|| false);
    assert_eq!((all.len(), repeats), (6, 0));
    assert_eq!(all[0].index, 2);
}

#[test]
fn written_stops_when_asked_and_makes_nothing_after() {
    let generator = Generator::new(Options::default()).unwrap();
    let (made, _, failure) = written(&generator, 0, 5000, true, &|| true);
    assert!(made.is_empty());
    assert!(
        matches!(failure, Some((_, Failure::Stopped))),
        "{failure:?}"
    );
    // asked only once the first few are made: those stay, nothing after the stop
    let asked = std::sync::atomic::AtomicU64::new(0);
    let stop = || asked.fetch_add(1, std::sync::atomic::Ordering::Relaxed) >= 40;
    let (made, _, failure) = written(&generator, 0, 5000, true, &stop);
    let (stopped_at, failure) = failure.expect("a stop");
    assert!(matches!(failure, Failure::Stopped));
    assert!(made.len() < 5000 && made.iter().all(|g| g.index < stopped_at));
}
