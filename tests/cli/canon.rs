//! `canon`: the minlex form and hash of every record through the real binary.

use sudoku_batch::grid::Grid;
use sudoku_batch::transform::{Rng, Transform};

use crate::{Workdir, bin, jsonl, stdout_ok};

/// The shipped 17-clue sample's puzzles (pairwise inequivalent), `#` lines skipped.
fn seventeens() -> Vec<String> {
    let text = std::fs::read_to_string(crate::repo("data/17clue_300.txt")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

fn line(grid: &Grid) -> String {
    String::from_utf8(grid.to_line(b'.').to_vec()).unwrap()
}

#[test]
fn transformed_puzzles_get_the_form_and_hash_of_their_original() {
    let puzzles = seventeens();
    let mut rng = Rng::new(14);
    let mut input = String::new();
    for p in &puzzles[..50] {
        let moved = Transform::random(&mut rng).apply(&p.parse::<Grid>().unwrap());
        input.push_str(&format!("{p}\n{}\n", line(&moved)));
    }
    let out = stdout_ok(bin().args(["canon", "-q", "-"]).write_stdin(input));
    let out = String::from_utf8(out).unwrap();
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(rows.len(), 100);
    let mut forms = std::collections::HashSet::new();
    for pair in rows.chunks(2) {
        assert_eq!(pair[0], pair[1], "a puzzle and its transform");
        let (form, hash) = pair[0].split_once(' ').unwrap();
        assert_eq!(form.len(), 81);
        assert_eq!(hash.len(), 16);
        forms.insert(form.to_string());
    }
    assert_eq!(forms.len(), 50, "different puzzles, different forms");
}

#[test]
fn every_record_gets_one_output_record_in_order_for_any_threads_and_format() {
    let puzzles = seventeens();
    let dir = Workdir::new();
    let mut text = String::new();
    for (i, p) in puzzles.iter().enumerate() {
        text.push_str(p);
        text.push('\n');
        if i % 37 == 0 {
            text.push_str("not a puzzle\n");
        }
    }
    let input = dir.write("in.txt", &text);
    let input = input.to_str().unwrap();
    let records = puzzles.len() + puzzles.len().div_ceil(37);
    let one = stdout_ok(bin().args(["canon", "-q", "-j1", "--batch-size", "7", input]));
    let two = stdout_ok(bin().args(["canon", "-q", "-j2", "--batch-size", "5", input]));
    assert_eq!(one, two, "byte-identical for any -j");
    let lines: Vec<&str> = std::str::from_utf8(&one).unwrap().lines().collect();
    assert_eq!(lines.len(), records);
    assert_eq!(lines[1], "malformed");
    let out = bin()
        .args(["canon", "--transform", "-O", "jsonl", input])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("in.txt:2: "), "{stderr}");
    assert!(
        stderr.contains(&format!("canon: {records} records")),
        "{stderr}"
    );
    let rows = jsonl(&out.stdout);
    assert_eq!(rows.len(), records);
    for (row, text) in rows.iter().zip(&lines) {
        if row["status"] == "malformed" {
            assert_eq!(*text, "malformed");
            continue;
        }
        let puzzle: Grid = row["puzzle"].as_str().unwrap().parse().unwrap();
        let form = row["canonical"].as_str().unwrap();
        assert_eq!(*text, format!("{form} {}", row["hash"].as_str().unwrap()));
        let t: Transform = row["transform"].as_str().unwrap().parse().unwrap();
        assert_eq!(line(&t.apply(&puzzle)).replace('.', "0"), form);
    }
}

#[test]
fn csv_keeps_the_input_columns_and_appends_the_form() {
    let out = stdout_ok(bin().args(["canon", "-q", "data/kaggle_200.csv"]));
    let text = String::from_utf8(out).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("quizzes,solutions,status,canonical,hash")
    );
    let first = lines.next().unwrap();
    let fields: Vec<&str> = first.split(',').collect();
    assert_eq!(fields.len(), 5);
    assert_eq!(fields[2], "ok");
    assert_eq!(lines.count(), 199);
}
