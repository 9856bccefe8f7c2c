//! Opt-in: every large corpus in `../shared/data` through the binary, checking each answer.
//! Run with `cargo test --release --test cli -- --ignored` (skips corpora that are absent).

use std::path::PathBuf;

use sudoku_batch::grid::Grid;

use crate::{bin, jsonl, repo, stdout_ok};

fn shared(path: &str) -> Option<PathBuf> {
    let p = repo("../shared/data").join(path);
    p.exists().then_some(p)
}

/// Solves `path` with uniqueness checking and returns the jsonl records, after checking that each
/// solution solves its puzzle.
fn solve_unique(path: &PathBuf) -> Vec<serde_json::Value> {
    let out = stdout_ok(
        bin()
            .args(["solve", "-q", "--unique", "--no-timings", "-O", "jsonl"])
            .arg(path),
    );
    let records: Vec<serde_json::Value> = jsonl(&out);
    for r in &records {
        let puzzle: Grid = r["puzzle"].as_str().unwrap().parse().unwrap();
        if let Some(s) = r["solution"].as_str() {
            let s: Grid = s.parse().unwrap();
            assert!(s.solves(&puzzle), "{r}");
        }
    }
    records
}

#[test]
#[ignore = "large corpora from ../shared/data; run with --ignored"]
fn tdoku_corpora_have_the_known_solution_counts() {
    for (name, records, status) in [
        ("tdoku/puzzles1_unbiased_first1000", 1000, "unique"),
        ("tdoku/puzzles2_17_clue", 49158, "unique"),
        ("tdoku/puzzles3_magictour_top1465", 1465, "unique"),
        ("tdoku/puzzles5_forum_hardest_1905_11+", 48766, "unique"),
        ("tdoku/puzzles6_forum_hardest_1106", 375, "unique"),
        ("tdoku/puzzles7_serg_benchmark", 10000, "multiple"),
    ] {
        let Some(path) = shared(name) else { continue };
        let got = solve_unique(&path);
        assert_eq!(got.len(), records, "{name}");
        assert!(
            got.iter().all(|r| r["status"] == status),
            "{name}: not all {status}"
        );
    }
}

/// The CSV datasets, each shipping a solution per puzzle.
const CSV_DATASETS: [&str; 5] = [
    "csv/kaggle_quizzes_solutions_20k.csv",
    "csv/radcliffe_curated_5000.csv",
    "csv/tictop_7034.csv",
    "csv/rohanrao_head_10k.csv",
    "csv/ppvan_8960.csv",
];

#[test]
#[ignore = "large corpora from ../shared/data; run with --ignored"]
fn csv_datasets_agree_with_their_shipped_solutions() {
    for name in CSV_DATASETS {
        let Some(path) = shared(name) else { continue };
        let got = solve_unique(&path);
        let text = std::fs::read_to_string(&path).unwrap();
        let mut rows = text.lines();
        let header: Vec<&str> = rows.next().unwrap().split(',').collect();
        let sol_col = header
            .iter()
            .position(|h| h.starts_with("solution"))
            .unwrap();
        let shipped: Vec<&str> = rows.map(|r| r.split(',').nth(sol_col).unwrap()).collect();
        assert_eq!(got.len(), shipped.len(), "{name}");
        for (r, s) in got.iter().zip(shipped) {
            if r["status"] == "unique" {
                assert_eq!(r["solution"].as_str().unwrap(), s.trim(), "{name}: {r}");
            } else {
                assert_eq!(r["status"], "multiple", "{name}: {r}");
            }
        }
    }
}

#[test]
#[ignore = "large corpora from ../shared/data; run with --ignored"]
fn sudoku_exchange_banks_solve_whole() {
    for (name, records) in [
        ("sudoku_exchange/hard.txt", 321_592),
        ("sudoku_exchange/diabolical.txt", 119_681),
    ] {
        let Some(path) = shared(name) else { continue };
        let out = bin().args(["solve", "-q"]).arg(&path).output().unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(text.lines().count(), records, "{name}");
        assert!(
            text.lines().all(|l| l.len() == 81),
            "{name}: a record was not solved"
        );
    }
}

#[test]
#[ignore = "large corpora from ../shared/data; run with --ignored"]
fn check_finds_the_shipped_csv_solutions_right() {
    let dir = crate::Workdir::new();
    for name in CSV_DATASETS {
        let Some(path) = shared(name) else { continue };
        let report = dir.path("report.json");
        let out = bin()
            .args(["check", "-q", "-O", "jsonl", "--report"])
            .arg(&report)
            .arg(&path)
            .output()
            .unwrap();
        let records = jsonl(&out.stdout);
        let rows = std::fs::read_to_string(&path).unwrap().lines().count() - 1;
        assert_eq!(records.len(), rows, "{name}");
        // every row ships a solution, and each is right: its puzzle's only one, or one of several
        let totals =
            &serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(&report).unwrap())
                .unwrap()["totals"];
        assert_eq!(totals["given_solutions"], rows, "{name}");
        for r in &records {
            assert!(
                r["verdict"] == "unique" || r["verdict"] == "multiple",
                "{name}: {r}"
            );
        }
        let multiple = totals["verdicts"]["multiple"].as_u64().unwrap();
        assert_eq!(
            out.status.code(),
            Some(if multiple == 0 { 0 } else { 1 }),
            "{name}"
        );
    }
}

#[test]
#[ignore = "large corpora from ../shared/data; run with --ignored"]
fn check_passes_the_unique_tdoku_corpora() {
    for name in [
        "tdoku/puzzles2_17_clue",
        "tdoku/puzzles5_forum_hardest_1905_11+",
    ] {
        let Some(path) = shared(name) else { continue };
        let out = bin().args(["check", "-q"]).arg(&path).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{name}");
        assert!(out.stderr.is_empty(), "{name}: no problem listed");
    }
}
