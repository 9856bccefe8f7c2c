//! `augment`: seeded random symmetries of every record through the real binary.

use std::io::{BufRead, BufReader, Read};
use std::process::Stdio;

use serde_json::Value;
use sudoku_batch::grid::Grid;
use sudoku_batch::transform::Transform;

use crate::{Workdir, bin, command, first_line_then_close, jsonl, read_all, repo, stdout_ok};

/// `PUZZLE SOLUTION` lines of the first `n` rows of data/kaggle_200.csv.
fn kaggle_lines(n: usize) -> Vec<(String, String)> {
    include_str!("../../data/kaggle_200.csv")
        .lines()
        .skip(1)
        .take(n)
        .map(|row| {
            let (p, s) = row.split_once(',').unwrap();
            (p.to_string(), s.to_string())
        })
        .collect()
}

/// Runs `args`, which must exit with `code`; returns stdout and stderr.
fn run(args: &[&str], code: i32) -> (String, String) {
    let out = bin().args(args).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    (String::from_utf8(out.stdout).unwrap(), stderr)
}

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

#[test]
fn copies_dealt_out_in_small_steps_are_the_copies_of_a_whole_record() {
    let dir = Workdir::new();
    let rows = kaggle_lines(4);
    let mut text: String = rows.iter().map(|(p, s)| format!("{p} {s}\n")).collect();
    text.insert_str(2 * 164, "broken\n");
    let input = dir.write("in.txt", &text);
    let input = input.to_str().unwrap();
    let copies = |extra: &[&str]| {
        let mut args = vec!["augment", "-q", "--keep-original", "-O", "jsonl", input];
        args.extend_from_slice(extra);
        stdout_ok(bin().args(&args))
    };
    // a few copies a record: blocks of whole records; many: copies dealt out, here 7 to a step
    let whole = jsonl(&copies(&["-n", "16"]));
    let dealt = copies(&["-n", "1500", "--batch-size", "7", "-j2"]);
    assert_eq!(
        dealt,
        copies(&["-n", "1500", "-j1"]),
        "the same for any cut and -j"
    );
    let dealt = jsonl(&dealt);
    assert_eq!(dealt.len(), 4 * 1501 + 1);
    assert_eq!(dealt[2 * 1501]["status"], "malformed");
    assert_eq!(dealt[2 * 1501]["line"], 3);
    let good: Vec<&Value> = dealt.iter().filter(|r| r["status"] == "ok").collect();
    for (i, copy) in good.iter().enumerate() {
        let (record, number) = (i / 1501, (i % 1501) as u64);
        assert_eq!(copy["copy"], number, "copies in order, from 0");
        let t: Transform = copy["transform"].as_str().unwrap().parse().unwrap();
        let (p, s) = &rows[record];
        let moved = |text: &str| {
            String::from_utf8(t.apply(&text.parse().unwrap()).to_line(b'0').to_vec()).unwrap()
        };
        assert_eq!(copy["puzzle"], moved(p), "copy {number} of record {record}");
        assert_eq!(
            copy["solution"],
            moved(s),
            "copy {number} of record {record}"
        );
    }
    // copies 0 to 16 of each record are the ones a run of 16 copies writes
    let firsts: Vec<&Value> = good
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 1501 <= 16)
        .map(|(_, r)| *r)
        .collect();
    let whole: Vec<&Value> = whole.iter().filter(|r| r["status"] == "ok").collect();
    assert_eq!(firsts, whole);
}

#[cfg(target_os = "linux")]
#[test]
fn an_endless_run_streams_and_ctrl_c_says_which_copy_ends_the_output() {
    let mut child = command(&[
        "augment",
        "-n",
        "18446744073709551615",
        "-O",
        "jsonl",
        "data/hardest_300.txt",
    ])
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut text = String::new();
    stdout.read_line(&mut text).unwrap();
    // output comes after the handlers are in place
    crate::signals::send(&child, libc::SIGINT);
    stdout.read_to_string(&mut text).unwrap();
    let stderr = read_all(child.stderr.take());
    assert_eq!(child.wait().unwrap().code(), Some(130), "{stderr}");
    assert!(text.ends_with('\n'), "whole records only");
    let records = jsonl(text.as_bytes());
    for (i, r) in records.iter().enumerate() {
        assert_eq!(
            (&r["line"], r["copy"].as_u64()),
            (&Value::from(1), Some(i as u64 + 1))
        );
    }
    let n = records.len();
    assert!(
        stderr.contains(&format!("augment: 0 records, {n} copies, ")),
        "{stderr}"
    );
    let ends = format!(
        "interrupted by SIGINT: the output ends with copy {n} of the record at \
         data/hardest_300.txt:1"
    );
    assert!(stderr.trim_end().ends_with(&ends), "{stderr}");
}

#[test]
fn a_reader_that_goes_away_ends_an_endless_run_with_0() {
    let (first, code, stderr) = first_line_then_close(&mut command(&[
        "augment",
        "-n",
        "18446744073709551615",
        "data/hardest_300.txt",
    ]));
    assert_eq!(first.len(), 81 + 1 + 31 + 1, "{first}");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("error"), "{stderr}");
}

#[test]
fn no_copies_and_more_than_u64_copies_are_refused_on_the_command_line() {
    let (_, stderr) = run(&["augment", "-n", "0", "data/hardest_300.txt"], 2);
    assert!(stderr.contains("'0' for '--copies <N>'"), "{stderr}");
    let (_, stderr) = run(
        &[
            "augment",
            "-n",
            "18446744073709551616",
            "data/hardest_300.txt",
        ],
        2,
    );
    assert!(stderr.contains("--copies"), "{stderr}");
}

#[test]
fn a_solution_that_is_not_a_grid_is_reported_and_counted() {
    let dir = Workdir::new();
    let rows = kaggle_lines(3);
    let csv = format!(
        "quizzes,solutions\n{},{}\n{},123\nx,{}\n",
        rows[0].0, rows[0].1, rows[1].0, rows[2].1
    );
    let input = dir.write("in.csv", csv);
    let input = input.to_str().unwrap();
    let (out, stderr) = run(&["augment", "-n", "2", input], 0);
    let statuses: Vec<&str> = out.lines().map(|l| l.split(',').nth(2).unwrap()).collect();
    assert_eq!(
        statuses,
        ["status", "ok", "ok", "bad_solution", "malformed"]
    );
    let reasons = [
        format!("{input}:3: solution: found 3 cells, expected 81"),
        format!("{input}:4: found 1 cell, expected 81"),
    ];
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines[..2], reasons, "{stderr}");
    assert!(
        lines[2].starts_with(
            "augment: 3 records, 2 copies, 1 malformed, 1 with a solution that is none, in "
        ),
        "{stderr}"
    );
    // quiet: the problems still, not the summary
    let (_, stderr) = run(&["augment", "-q", "-n", "2", input], 0);
    assert_eq!(stderr, format!("{}\n{}\n", reasons[0], reasons[1]));
    // a truncated solution after the puzzle of a line
    let line = dir.write("in.txt", format!("{} {}\n", rows[0].0, &rows[0].1[..80]));
    let (out, stderr) = run(&["augment", "-q", line.to_str().unwrap()], 0);
    assert_eq!(out, "bad_solution\n");
    assert!(
        stderr.ends_with(":1: solution: found 80 cells, expected 81\n"),
        "{stderr}"
    );
}

#[test]
fn a_solution_that_does_not_solve_its_puzzle_is_a_bad_solution_not_copied() {
    // a grid of another row, one breaking the rules, one with a blank: each told, none `ok`
    let dir = Workdir::new();
    let rows = kaggle_lines(3);
    let rows_of_one = "123456789".repeat(9);
    let blank = format!("0{}", &rows[2].1[1..]);
    let csv = format!(
        "quizzes,solutions\n{},{}\n{},{rows_of_one}\n{},{blank}\n{},{}\n",
        rows[0].0, rows[1].1, rows[1].0, rows[2].0, rows[2].0, rows[2].1
    );
    let input = dir.write("in.csv", csv);
    let input = input.to_str().unwrap();
    let (out, stderr) = run(&["augment", "-q", "-n", "2", input], 0);
    let statuses: Vec<&str> = out.lines().map(|l| l.split(',').nth(2).unwrap()).collect();
    assert_eq!(
        statuses,
        [
            "status",
            "bad_solution",
            "bad_solution",
            "bad_solution",
            "ok",
            "ok"
        ]
    );
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 3, "{stderr}");
    for (line, (n, why)) in lines.iter().zip([
        (2, "where the puzzle gives"),
        (3, "given solution has"),
        (4, "given solution leaves r1c1 blank"),
    ]) {
        assert!(line.starts_with(&format!("{input}:{n}: ")), "{line}");
        assert!(line.contains(why), "{line}");
    }
}

/// A partition as an engine hands it over: keys and ratings around the puzzles, a blank line,
/// a truncated puzzle, a comment.
fn partition() -> String {
    let rows = kaggle_lines(2);
    format!(
        "k1 {} 2.5\n\nk3 {} 1.0\n# note\nk5 {} 3.0\n",
        rows[0].0,
        &rows[1].0[..80],
        rows[1].0
    )
}

#[test]
fn pipe_keeps_one_line_per_input_line_and_refuses_what_would_break_it() {
    for extra in [&["-n", "3"][..], &["--keep-original"], &["-O", "grid"]] {
        let out = bin()
            .args(["augment", "--pipe"])
            .args(extra)
            .write_stdin(partition())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        assert!(out.stdout.is_empty());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("--pipe promises one output line per input line"),
            "{stderr}"
        );
    }
    for format in ["line", "csv", "jsonl"] {
        let out = bin()
            .args(["augment", "--pipe", "--echo", "1,3", "-O", format])
            .write_stdin(partition())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{format}");
        assert!(
            out.stderr.is_empty(),
            "{format}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(text.lines().count(), 5, "{format}:\n{text}");
    }
    let out = bin()
        .args(["augment", "--pipe", "--echo", "1,3", "-O", "jsonl"])
        .write_stdin(partition())
        .output()
        .unwrap();
    let records = jsonl(&out.stdout);
    let got: Vec<(&str, &str, &Value)> = records
        .iter()
        .map(|r| {
            (
                r["field1"].as_str().unwrap(),
                r["status"].as_str().unwrap(),
                &r["reason"],
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("k1", "ok", &Value::Null),
            ("", "malformed", &Value::from("blank line")),
            (
                "k3",
                "malformed",
                &Value::from("found 80 cells, expected 81")
            ),
            ("#", "malformed", &Value::from("comment line")),
            ("k5", "ok", &Value::Null),
        ]
    );
    assert_eq!(records[4]["field3"], "3.0");
}

#[test]
fn echo_keeps_the_keys_of_line_input_in_every_format() {
    let dir = Workdir::new();
    let text = partition();
    let input = dir.write("keys.txt", &text);
    let input = input.to_str().unwrap();
    let out = |args: &[&str]| {
        let mut all = vec!["augment", "-q", "--echo", "1,3"];
        all.extend_from_slice(args);
        all.push(input);
        String::from_utf8(stdout_ok(bin().args(&all))).unwrap()
    };
    let line = out(&["-O", "line"]);
    let ends: Vec<&str> = line
        .lines()
        .map(|l| l.rsplit(' ').nth(1).unwrap())
        .collect();
    assert_eq!(ends, ["k1", "k3", "k5"], "{line}");
    assert!(line.lines().next().unwrap().ends_with(" k1 2.5"), "{line}");
    assert!(line.contains("\nmalformed k3 1.0\n"), "{line}");
    let csv = out(&["-O", "csv"]);
    let mut rows = csv.lines();
    assert_eq!(
        rows.next(),
        Some("puzzle,field1,field3,solution,status,copy,transform")
    );
    let keys: Vec<(&str, &str)> = rows
        .map(|r| {
            let f: Vec<&str> = r.split(',').collect();
            (f[1], f[2])
        })
        .collect();
    assert_eq!(keys, [("k1", "2.5"), ("k3", "1.0"), ("k5", "3.0")]);
    let keys: Vec<(Value, Value)> = jsonl(out(&["-O", "jsonl"]).as_bytes())
        .iter()
        .map(|r| (r["field1"].clone(), r["field3"].clone()))
        .collect();
    assert_eq!(keys[2], (Value::from("k5"), Value::from("3.0")));
    let grid = out(&["-O", "grid"]);
    let comments: Vec<&str> = grid.lines().filter(|l| l.starts_with("# ")).collect();
    // the malformed record's fields above its status word, alone on its line: the output
    // reads back with its 3 records (`malformed k3 1.0` was taken for a title there)
    assert_eq!(comments.len(), 3);
    assert_eq!(comments[1], "# k3 1.0", "{grid}");
    assert!(grid.contains("# k3 1.0\nmalformed\n"), "{grid}");
    assert!(comments[2].ends_with(" k5 3.0"), "{grid}");
    let back = bin()
        .args(["check", "-q", "-O", "jsonl", "-I", "grid", "-"])
        .write_stdin(grid.as_str())
        .output()
        .unwrap();
    assert_eq!(jsonl(&back.stdout).len(), 3, "{grid}");
    // the whole line
    let all = String::from_utf8(stdout_ok(
        bin().args(["augment", "-q", "--echo", "line", input]),
    ))
    .unwrap();
    let first_line = text.lines().next().unwrap();
    assert!(
        all.lines()
            .next()
            .unwrap()
            .ends_with(&format!(" {first_line}")),
        "{all}"
    );
}

#[test]
fn grid_output_is_grids_that_read_back_as_the_copies() {
    let dir = Workdir::new();
    let puzzles: Vec<&str> = include_str!("../../data/hardest_300.txt")
        .lines()
        .take(3)
        .collect();
    let input = dir.write("in.txt", format!("{}\n", puzzles.join("\n")));
    let input = input.to_str().unwrap();
    let args = ["augment", "-q", "-n", "2", "--seed", "4", input];
    let grids = stdout_ok(bin().args(args).args(["-O", "grid"]));
    let copies = jsonl(&stdout_ok(bin().args(args).args(["-O", "jsonl"])));
    // the grids read back, each as it is (copy 0)
    let back = jsonl(&stdout_ok(
        bin()
            .args([
                "augment",
                "-q",
                "-n",
                "1",
                "--keep-original",
                "-I",
                "grid",
                "-O",
                "jsonl",
                "-",
            ])
            .write_stdin(grids.clone()),
    ));
    let back: Vec<&Value> = back.iter().filter(|r| r["copy"] == 0).collect();
    assert_eq!(back.len(), 6);
    for (copy, read) in copies.iter().zip(&back) {
        assert_eq!(copy["puzzle"], read["puzzle"]);
    }
    let text = String::from_utf8(grids).unwrap();
    assert!(text.starts_with(&format!(
        "# 1 {}\n",
        copies[0]["transform"].as_str().unwrap()
    )));
    // grid input gives grid output unless told otherwise
    let again = stdout_ok(
        bin()
            .args(["augment", "-q", "-I", "grid", "-"])
            .write_stdin(text.clone()),
    );
    assert_eq!(
        String::from_utf8(again)
            .unwrap()
            .lines()
            .filter(|l| l.starts_with("# 1 "))
            .count(),
        6
    );
}

/// `--solution-column none` is refused: the solutions left unread would be copied unmoved
/// beside each moved puzzle (every copy checked `wrong_solution`).
#[test]
fn solution_column_none_is_refused() {
    let dir = Workdir::new();
    let out = dir.path("aug.csv");
    bin()
        .args(["augment", "-n", "1", "--solution-column", "none", "-o"])
        .arg(&out)
        .arg(repo("data/kaggle_200.csv"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("copied unmoved"));
    assert!(!out.exists());
}

/// `-c solutions` on a `quizzes,solutions` file moved the solutions as puzzles and wrote the
/// puzzles' column back unmoved beside them, every row inconsistent, `ok`, with no word: said.
#[test]
fn puzzles_read_from_the_solutions_column_are_warned_about() {
    let data = repo("data/kaggle_200.csv");
    let data = data.to_str().unwrap();
    let (_, err) = run(&["augment", "-n", "1", "-c", "solutions", data], 0);
    assert!(
        err.contains("warning: the puzzles are read from column \"solutions\"")
            && err.contains("other columns (quizzes) are written back as read"),
        "{err}"
    );
    // the usual reading, or the puzzle column named, has nothing to warn about
    for args in [
        &["augment", "-n", "1", data][..],
        &["augment", "-n", "1", "-c", "quizzes", data],
    ] {
        let (_, err) = run(args, 0);
        assert!(!err.contains("warning"), "{err}");
    }
}
