//! `augment`: seeded random symmetries of every record through the real binary.

use sudoku_batch::grid::Grid;
use sudoku_batch::transform::Transform;

use crate::{Workdir, bin, jsonl, stdout_ok};

#[test]
fn kaggle_copies_keep_their_solution_and_name_their_transform() {
    let out = stdout_ok(bin().args([
        "augment",
        "-q",
        "-n",
        "3",
        "--seed",
        "5",
        "data/kaggle_200.csv",
    ]));
    let text = String::from_utf8(out).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("quizzes,solutions,status,copy,transform")
    );
    let original: Vec<String> = std::fs::read_to_string(crate::repo("data/kaggle_200.csv"))
        .unwrap()
        .lines()
        .skip(1)
        .map(str::to_string)
        .collect();
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 3 * original.len());
    for (i, row) in rows.iter().enumerate() {
        let f: Vec<&str> = row.split(',').collect();
        let (puzzle, solution): (Grid, Grid) = (f[0].parse().unwrap(), f[1].parse().unwrap());
        assert!(solution.solves(&puzzle), "row {i}");
        assert!(!f[0].contains('.'), "digits only, as the input");
        assert_eq!((f[2], f[3]), ("ok", ["1", "2", "3"][i % 3]));
        let from: Vec<&str> = original[i / 3].split(',').collect();
        let t: Transform = f[4].parse().unwrap();
        assert_eq!(t.apply(&from[0].parse().unwrap()), puzzle);
        assert_eq!(t.apply(&from[1].parse().unwrap()), solution);
    }
}

#[test]
fn copies_are_the_same_for_any_threads_and_a_bad_record_is_one_record() {
    let dir = Workdir::new();
    let puzzles: Vec<&str> = include_str!("../../data/hardest_300.txt").lines().collect();
    let input = dir.write(
        "in.txt",
        format!("{}\nbroken\n{}\n", puzzles[0], puzzles[1]),
    );
    let input = input.to_str().unwrap();
    let run = |j: &str| {
        stdout_ok(bin().args([
            "augment",
            "-q",
            j,
            "-n",
            "2",
            "--keep-original",
            "-O",
            "jsonl",
            input,
        ]))
    };
    let one = run("-j1");
    assert_eq!(one, run("-j2"));
    let rows = jsonl(&one);
    assert_eq!(rows.len(), 3 + 1 + 3);
    assert_eq!(rows[0]["copy"], 0);
    assert_eq!(
        rows[0]["puzzle"], puzzles[0],
        "copy 0 is the record as it is"
    );
    assert_eq!(rows[3]["status"], "malformed");
    assert_eq!(rows[3]["line"], 2);
    assert_eq!(rows[6]["copy"], 2);
    let other_seed = stdout_ok(bin().args([
        "augment", "-q", "--seed", "1", "-n", "2", "-O", "jsonl", input,
    ]));
    assert_ne!(jsonl(&other_seed)[0]["puzzle"], rows[1]["puzzle"]);
}
