//! `split`: train and test parts with no isomorphic puzzle across them, through the real binary.

use std::collections::HashSet;

use sudoku_batch::canon;
use sudoku_batch::grid::Grid;
use sudoku_batch::transform::{Rng, Transform};

use crate::{Workdir, bin};

/// The canonical forms of the first field of each data line of `text` (`#` lines, headers and
/// anything else that is not a puzzle skipped).
fn forms(text: &str) -> Vec<Grid> {
    text.lines()
        .filter_map(|l| l.split([',', ' ']).find_map(|f| f.parse::<Grid>().ok()))
        .map(|p| canon::minlex(&p))
        .collect()
}

#[test]
fn parts_hold_every_record_once_in_order_and_no_class_in_both() {
    let dir = Workdir::new();
    let puzzles: Vec<&str> = include_str!("../../data/easy_300.txt")
        .lines()
        .take(120)
        .collect();
    let mut rng = Rng::new(3);
    let mut text = String::new();
    for (i, p) in puzzles.iter().enumerate() {
        let moved = Transform::random(&mut rng).apply(&p.parse().unwrap());
        let moved = String::from_utf8(moved.to_line(b'.').to_vec()).unwrap();
        // each puzzle, then a transform of it, with a key and a rating kept on the line
        text.push_str(&format!("k{i}a {p} 1.0\nk{i}b {moved} 2.0\n"));
    }
    text.push_str("kbad 123 0.0\n");
    let input = dir.write("in.txt", &text);
    let (train, test) = (dir.path("train.txt"), dir.path("test.txt"));
    let out = bin()
        .args(["split", "--test-fraction", "0.3", "--seed", "9"])
        .arg(&input)
        .arg("--train")
        .arg(&train)
        .arg("--test")
        .arg(&test)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("in.txt:241: "), "{stderr}");
    assert!(stderr.contains("malformed (in neither part)"), "{stderr}");
    let (train_text, test_text) = (dir.read("train.txt"), dir.read("test.txt"));
    let lines: Vec<&str> = train_text.lines().chain(test_text.lines()).collect();
    assert_eq!(lines.len(), 240, "every good record once");
    for part in [&train_text, &test_text] {
        // lines come back whole, in input order
        let keys: Vec<usize> = part
            .lines()
            .map(|l| {
                let key = l.split(' ').next().unwrap();
                assert!(text.contains(&format!("{l}\n")), "{l}");
                key[1..key.len() - 1].parse().unwrap()
            })
            .collect();
        assert!(keys.windows(2).all(|w| w[0] <= w[1]));
    }
    let train_forms: HashSet<Grid> = forms(&train_text).into_iter().collect();
    let test_forms: HashSet<Grid> = forms(&test_text).into_iter().collect();
    assert!(
        train_forms.is_disjoint(&test_forms),
        "no class in both parts"
    );
    // each puzzle went with its transform
    assert_eq!(train_forms.len() + test_forms.len(), 120);
    let share = test_text.lines().count() as f64 / 240.0;
    assert!(
        (0.15..0.45).contains(&share),
        "about 0.3 of the classes: {share}"
    );
}

#[test]
fn csv_parts_each_get_the_header_and_another_seed_draws_other_parts() {
    let dir = Workdir::new();
    let run = |seed: &str| {
        let (train, test) = (
            dir.path(&format!("tr{seed}.csv")),
            dir.path(&format!("te{seed}.csv")),
        );
        let out = bin()
            .args([
                "split",
                "-q",
                "--seed",
                seed,
                "--test-fraction",
                "0.5",
                "data/kaggle_200.csv",
            ])
            .arg("--train")
            .arg(&train)
            .arg("--test")
            .arg(&test)
            .output()
            .unwrap();
        assert!(out.status.success());
        assert!(out.stderr.is_empty());
        (
            std::fs::read_to_string(train).unwrap(),
            std::fs::read_to_string(test).unwrap(),
        )
    };
    let (train, test) = run("1");
    for part in [&train, &test] {
        assert_eq!(part.lines().next(), Some("quizzes,solutions"));
    }
    assert_eq!(train.lines().count() + test.lines().count(), 200 + 2);
    assert_eq!(
        run("1"),
        (train.clone(), test.clone()),
        "same seed, same parts"
    );
    assert_ne!(run("2").1, test);
}

#[test]
fn a_fraction_outside_0_and_1_is_a_usage_error() {
    let out = bin()
        .args([
            "split",
            "--test-fraction",
            "1.5",
            "data/kaggle_200.csv",
            "--train",
            "a",
            "--test",
            "b",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--test-fraction"));
}
