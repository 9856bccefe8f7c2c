//! `--pipe`, the contract of record-pipe engines (Spark's `RDD.pipe`, SQL `TRANSFORM`), through
//! the real binary: one output line per input line, whatever the line holds.

use crate::{Workdir, bin, jsonl};

const PUZZLE: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
const SOLUTION: &str =
    "483921657967345821251876493548132976729564138136798245372689514814253769695417382";

/// A partition as an engine hands it over: a key, a puzzle and a rating a line, among a blank
/// line, a comment, a truncated puzzle, a contradiction and garbage; no final LF.
fn partition() -> String {
    let zeros = PUZZLE.replace('.', "0");
    let mut clash = zeros.clone();
    clash.replace_range(1..2, "3");
    format!(
        "k1 {zeros} 2.5\n\nk3 {} 1.0\n# a comment\nk5 {clash} 9.9\nhello\nk7 {PUZZLE} 3.0",
        &zeros[..80]
    )
}

/// Runs `args` on `input` (stdin); returns stdout, which must be all there is, with exit 0.
fn piped(args: &[&str], input: &str) -> String {
    let out = bin().args(args).write_stdin(input).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{args:?}");
    assert!(
        out.stderr.is_empty(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_input_line_gives_one_output_line_in_every_format() {
    let input = partition();
    let lines = input.lines().count();
    assert_eq!(lines, 7);
    for args in [
        &["solve", "--pipe", "-O", "line"][..],
        &["solve", "--pipe", "-O", "csv"],
        &["solve", "--pipe", "-O", "jsonl"],
        &["solve", "--pipe", "-u", "-O", "jsonl"],
        &["check", "--pipe", "-O", "jsonl"],
        &["check", "--pipe", "-O", "csv"],
        // check's verdicts come out as JSON Lines when no format is named
        &["check", "--pipe"],
        &["canon", "--pipe"],
        &["canon", "--pipe", "-O", "jsonl"],
    ] {
        let out = piped(args, &input);
        assert_eq!(out.lines().count(), lines, "{args:?}:\n{out}");
    }
    // statuses and reasons, line by line
    let out = piped(&["solve", "--pipe", "-O", "jsonl", "--no-timings"], &input);
    let got: Vec<(u64, String, String)> = jsonl(out.as_bytes())
        .iter()
        .map(|r| {
            (
                r["line"].as_u64().unwrap(),
                r["status"].as_str().unwrap().to_string(),
                r["reason"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let want = [
        (1, "solved", ""),
        (2, "malformed", "blank line"),
        (3, "malformed", "found 80 cells, expected 81"),
        (4, "malformed", "comment line"),
        (5, "contradiction", ""),
        (6, "malformed", "found 5 cells, expected 81"),
        (7, "solved", ""),
    ];
    let want: Vec<(u64, String, String)> = want
        .iter()
        .map(|&(l, s, r)| (l, s.to_string(), r.to_string()))
        .collect();
    assert_eq!(got, want);
    // CSV: no header, the reason in its own column
    let out = piped(&["solve", "--pipe", "-O", "csv", "--no-timings"], &input);
    let rows: Vec<&str> = out.lines().collect();
    assert!(
        rows[0].ends_with(&format!(",solved,{SOLUTION},0,,")),
        "{}",
        rows[0]
    );
    assert_eq!(rows[1], ",malformed,,0,,blank line");
    // check finds problems, and still exits 0 (the records say what is wrong)
    let out = piped(&["check", "--pipe", "-O", "jsonl"], &input);
    assert_eq!(jsonl(out.as_bytes())[1]["detail"], "blank line");
}

#[test]
fn echo_brings_keys_and_ratings_back_with_the_answers() {
    let input = partition();
    let out = piped(&["solve", "--pipe", "-O", "jsonl", "--echo", "1,3"], &input);
    let records = jsonl(out.as_bytes());
    let keys: Vec<(&str, &str, &str)> = records
        .iter()
        .map(|r| {
            (
                r["field1"].as_str().unwrap(),
                r["field3"].as_str().unwrap(),
                r["status"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(keys[0], ("k1", "2.5", "solved"));
    assert_eq!(keys[1], ("", "", "malformed"));
    assert_eq!(keys[6], ("k7", "3.0", "solved"));
    let out = piped(&["solve", "--pipe", "-O", "csv", "--echo", "line"], &input);
    let first = out.lines().next().unwrap();
    assert!(
        first.contains(&format!(",k1 {} 2.5,solved,", PUZZLE.replace('.', "0"))),
        "{first}"
    );
    // without --pipe, the CSV header names the kept columns
    let dir = Workdir::new();
    let file = dir.write("keys.txt", &input);
    let out = bin()
        .args(["solve", "-q", "-O", "csv", "--echo", "1,3"])
        .arg(&file)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("puzzle,field1,field3,status,solution,guesses,micros\n"),
        "{text}"
    );
}

#[test]
fn echo_is_refused_where_it_cannot_be_honoured() {
    // CSV and grid input have no fields of a line to pick; the run writes nothing
    for (input, args) in [
        ("data/kaggle_200.csv", &["solve", "--echo", "line"][..]),
        (
            "data/kaggle_200.csv",
            &["check", "-O", "jsonl", "--echo", "1"],
        ),
        ("data/kaggle_200.csv", &["canon", "--echo", "1"]),
        (
            "data/kaggle_200.csv",
            &[
                "solve",
                "--pipe",
                "--csv-columns",
                "quizzes,solutions",
                "--echo",
                "1",
            ],
        ),
        ("tests/fixtures/grids.txt", &["solve", "--echo", "line"]),
    ] {
        let out = bin().args(args).arg(input).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("--echo applies to line input"), "{stderr}");
    }
    // a field named twice would be a JSON key written twice
    let out = bin()
        .args(["solve", "--echo", "1,3,1", "data/hardest_300.txt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("field 1 is named twice"));
}

#[test]
fn csv_in_pipe_mode_needs_its_columns_named_not_a_header_line() {
    // a chunk of a CSV file has no header: read as one, its first row would go unanswered
    let chunk = format!("7,{PUZZLE}\n8,{PUZZLE}\n");
    for command in ["solve", "check", "canon", "rate"] {
        let out = bin()
            .args([command, "--pipe", "-I", "csv"])
            .write_stdin(chunk.as_str())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert!(out.stdout.is_empty(), "{command}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("--csv-columns"), "{command}: {stderr}");
        let out = piped(&[command, "--pipe", "--csv-columns", "id,puzzle"], &chunk);
        assert_eq!(out.lines().count(), 2, "{command}");
    }
}

#[test]
fn headerless_csv_chunks_are_read_with_named_columns() {
    let chunk = format!(
        "7,{PUZZLE},{SOLUTION}\n\n8,{PUZZLE},{}\n9,\"{PUZZLE}\",{SOLUTION}",
        &SOLUTION[..80]
    );
    let out = piped(
        &[
            "check",
            "--pipe",
            "--csv-columns",
            "id,puzzle,solution",
            "-O",
            "jsonl",
        ],
        &chunk,
    );
    let got: Vec<(u64, &str)> = jsonl(out.as_bytes())
        .iter()
        .map(|r| (r["line"].as_u64().unwrap(), r["verdict"].as_str().unwrap()))
        .collect::<Vec<_>>()
        .into_iter()
        .map(|(l, v)| (l, if v == "unique" { "unique" } else { "problem" }))
        .collect();
    assert_eq!(
        got,
        [(1, "unique"), (2, "problem"), (3, "problem"), (4, "unique")]
    );
    let out = piped(
        &[
            "solve",
            "--pipe",
            "--csv-columns",
            "id,puzzle,solution",
            "-O",
            "csv",
        ],
        &chunk,
    );
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(rows.len(), 4);
    assert!(
        rows[0].starts_with(&format!("7,{PUZZLE},{SOLUTION},solved,")),
        "{}",
        rows[0]
    );
    // the same columns with a header row, outside pipe mode: the CSV header names them
    let out = bin()
        .args([
            "solve",
            "-q",
            "--csv-columns",
            "id,puzzle,solution",
            "-O",
            "csv",
        ])
        .write_stdin(chunk.clone())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("id,puzzle,solution,status,solution_2,guesses,micros\n7,"),
        "{text}"
    );
}

/// Headerless CSV's delimiter is never told from a row: a first row holding a `;` or a tab (and
/// no comma) made every comma row of the chunk after it malformed, and the output `;`-separated,
/// so a row's answer depended on where the engine cut the data. A `;` or tab delimiter is said
/// by separating the names with it.
#[test]
fn headerless_csv_takes_its_delimiter_from_the_names_not_a_row() {
    let args = [
        "solve",
        "--pipe",
        "--no-timings",
        "-O",
        "csv",
        "--csv-columns",
    ];
    for first in ["broken;row", "broken\trow"] {
        let chunk = format!("{first}\nk2,{PUZZLE}\nk3,{PUZZLE}\n");
        let out = piped(&[&args[..], &["id,puzzle"]].concat(), &chunk);
        let rows: Vec<&str> = out.lines().collect();
        assert_eq!(rows.len(), 3, "{out}");
        assert!(rows[0].contains(",malformed,"), "{out}");
        for (row, key) in rows[1..].iter().zip(["k2", "k3"]) {
            assert!(
                row.starts_with(&format!("{key},{PUZZLE},solved,{SOLUTION},")),
                "{out}"
            );
        }
    }
    // a `;` or a tab between the names: the rows' delimiter, kept in the output
    for delimiter in [";", "\t"] {
        let names = format!("id{delimiter}puzzle");
        let chunk = format!("k1{delimiter}{PUZZLE}\nk2,x\n");
        let out = piped(&[&args[..], &[names.as_str()]].concat(), &chunk);
        let rows: Vec<&str> = out.lines().collect();
        let solved = ["k1", PUZZLE, "solved", SOLUTION].join(delimiter);
        assert!(rows[0].starts_with(&solved), "{out}");
        assert!(rows[1].contains("malformed"), "{out}");
    }
}

#[test]
fn pipe_runs_on_one_thread_unless_told() {
    let dir = Workdir::new();
    for (extra, threads) in [(&[][..], 1), (&["-j", "2"][..], 2)] {
        let stats = dir.path("stats.json");
        let out = bin()
            .args(["solve", "--pipe", "-o"])
            .arg(dir.path("out.txt"))
            .arg("--stats")
            .arg(&stats)
            .args(extra)
            .write_stdin(partition())
            .env("RAYON_NUM_THREADS", "2")
            .output()
            .unwrap();
        assert!(out.status.success() && out.stderr.is_empty());
        let stats: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
        assert_eq!(stats["threads"], threads, "{extra:?}");
    }
}

#[test]
fn pipe_refuses_grid_input() {
    let out = bin()
        .args(["solve", "--pipe", "-I", "grid", "data/baekjoon_example1.in"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("a grid is not one line"));
}

#[test]
fn pipe_refuses_grid_output_in_every_command() {
    // solve, rate and canon wrote ten lines a record with exit 0: a consumer pairing lines
    // with its input was shifted
    for command in ["solve", "rate", "canon", "augment"] {
        let out = bin()
            .args([command, "--pipe", "-O", "grid", "data/easy_300.txt"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert!(out.stdout.is_empty(), "{command}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("--pipe promises one output line per input line: -O grid writes ten"),
            "{command}: {stderr}"
        );
    }
}

#[test]
fn stats_of_partitions_merge_into_the_stats_of_the_whole() {
    let dir = Workdir::new();
    let stats_of = |name: &str, inputs: &[&str]| {
        let path = dir.path(name);
        bin()
            .args(["solve", "-q", "-o"])
            .arg(dir.path("out.txt"))
            .arg("--stats")
            .arg(&path)
            .args(inputs)
            .assert()
            .success();
        path
    };
    let a = stats_of("a.json", &["data/hardest_300.txt"]);
    let b = stats_of("b.json", &["tests/fixtures/mixed.txt"]);
    let whole = stats_of(
        "whole.json",
        &["data/hardest_300.txt", "tests/fixtures/mixed.txt"],
    );
    let merged = bin().arg("merge-stats").arg(&a).arg(&b).output().unwrap();
    assert!(merged.status.success());
    let merged: serde_json::Value = serde_json::from_slice(&merged.stdout).unwrap();
    let whole: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&whole).unwrap()).unwrap();
    for key in [
        "records",
        "statuses",
        "puzzles",
        "guesses_per_puzzle",
        "no_guess_share",
    ] {
        assert_eq!(merged[key], whole[key], "{key}");
    }
    for key in ["statuses", "searched", "guesses", "no_guess"] {
        assert_eq!(merged["counts"][key], whole["counts"][key], "counts.{key}");
    }
    // every solve time is in the merged histogram (the times themselves differ run to run)
    let timed: u64 = merged["counts"]["histogram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pair| pair[1].as_u64().unwrap())
        .sum();
    assert_eq!(timed, whole["counts"]["searched"].as_u64().unwrap());
    assert_eq!(merged["parts"], 2);
    // a merged summary merges again, from stdin too
    let again = bin()
        .args(["merge-stats", "-q", "-"])
        .write_stdin(serde_json::to_string(&merged).unwrap())
        .output()
        .unwrap();
    let again: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(again["counts"], merged["counts"]);
    assert_eq!(again["parts"], 2);
    // each run is named in its stats, so a copy of a part is not counted as a run of its own
    let runs = merged["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    assert_ne!(runs[0], runs[1]);
    // a BOM before the JSON (an editor's) is read past
    let mut marked = b"\xEF\xBB\xBF".to_vec();
    marked.extend(std::fs::read(&b).unwrap());
    let marked = dir.write("b-bom.json", marked);
    let out = bin()
        .arg("merge-stats")
        .arg(&a)
        .arg(&marked)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // a name edited away or into another spelling cannot let the run count twice
    let part: serde_json::Value = serde_json::from_slice(&std::fs::read(&a).unwrap()).unwrap();
    let id = part["runs"][0].as_str().unwrap().to_string();
    for (runs, why) in [
        (serde_json::json!([]), "its runs list 0 names for 1 run"),
        (serde_json::json!([id.to_uppercase()]), "not a run's name"),
        (
            serde_json::json!([id, id]),
            "its runs list 2 names for 1 run",
        ),
    ] {
        let mut edited = part.clone();
        edited["runs"] = runs;
        let edited = dir.write("edited.json", serde_json::to_vec(&edited).unwrap());
        let out = bin()
            .arg("merge-stats")
            .arg(&edited)
            .arg(&a)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(why), "{stderr}");
    }
    let copy = dir.write("a-copy.json", std::fs::read(&a).unwrap());
    let out = bin()
        .arg("merge-stats")
        .arg(&a)
        .arg(&b)
        .arg(&copy)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("a-copy.json: counts run ") && stderr.contains("a.json already"),
        "{stderr}"
    );
    // a file that is not a run's stats is an error naming it
    let bad = dir.write("bad.json", "{\"records\": 1}");
    let out = bin().arg("merge-stats").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("bad.json: not the --stats JSON of a run")
    );
}

#[test]
fn a_partition_holding_only_a_bom_is_one_line_so_one_record() {
    // an engine counts "\u{FEFF}" with no LF as a line; so must we (a BOM then a line is one
    // line too: the BOM is dropped from it)
    for (input, records) in [("\u{FEFF}", 1), ("\u{FEFF}\n", 1), ("\u{FEFF}x\ny", 2)] {
        let out = piped(&["solve", "--pipe", "-O", "line"], input);
        assert_eq!(out.lines().count(), records, "{input:?}");
        assert!(out.lines().all(|l| l == "malformed"), "{input:?}: {out}");
    }
}

#[test]
fn check_in_pipe_mode_writes_json_lines_by_default() {
    let out = piped(&["check", "--pipe"], &partition());
    let records = jsonl(out.as_bytes());
    assert_eq!(records.len(), 7);
    assert_eq!(records[0]["verdict"], "unique");
    assert_eq!(records[1]["detail"], "blank line");
}

/// Runs `args` on the bytes `input` (stdin); returns stdout, with exit 0 and nothing on stderr.
fn piped_bytes(args: &[&str], input: &[u8]) -> String {
    let out = bin().args(args).write_stdin(input).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{args:?}");
    assert!(
        out.stderr.is_empty(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

#[test]
fn a_line_that_is_not_utf8_is_one_malformed_record_wherever_it_stands() {
    let zeros = PUZZLE.replace('.', "0");
    let good = format!("k {zeros} 1.0\n");
    let mut latin1 = b"k\xe9y ".to_vec();
    latin1.extend_from_slice(zeros.as_bytes());
    latin1.extend_from_slice(b" 2.0\n");
    // the Latin-1 line second, and past the first 64 KiB
    for before in [1, 1000] {
        let mut input = good.repeat(before).into_bytes();
        input.extend_from_slice(&latin1);
        input.extend_from_slice(good.as_bytes());
        let at = before; // its index among the records
        let out = piped_bytes(
            &["solve", "--pipe", "-O", "jsonl", "--echo", "line"],
            &input,
        );
        let records = jsonl(out.as_bytes());
        assert_eq!(records.len(), before + 2);
        assert_eq!(records[at]["status"], "malformed");
        assert_eq!(
            records[at]["reason"],
            "invalid UTF-8 (byte 0xE9 at byte 2 of the line); puzzle text must be UTF-8"
        );
        assert_eq!(records[at - 1]["status"], "solved");
        assert_eq!(records[at + 1]["status"], "solved");
        for args in [
            &["check", "--pipe"][..],
            &["canon", "--pipe"],
            &["solve", "--pipe"],
        ] {
            let out = piped_bytes(args, &input);
            assert_eq!(out.lines().count(), before + 2, "{args:?}");
        }
        let out = piped_bytes(&["check", "--pipe"], &input);
        assert_eq!(jsonl(out.as_bytes())[at]["verdict"], "malformed");
        // CSV chunks: the row is malformed, the partition goes on
        let mut csv = input.clone();
        for b in csv.iter_mut().filter(|b| **b == b' ') {
            *b = b',';
        }
        let out = piped_bytes(
            &[
                "solve",
                "--pipe",
                "--csv-columns",
                "key,puzzle,rating",
                "-O",
                "jsonl",
            ],
            &csv,
        );
        let records = jsonl(out.as_bytes());
        assert_eq!(records.len(), before + 2);
        assert_eq!(records[at]["reason"], "invalid UTF-8 in column 1");
        assert_eq!(records[at + 1]["status"], "solved");
    }
}

#[test]
fn check_stats_of_partitions_merge_into_the_stats_of_the_whole() {
    let dir = Workdir::new();
    let stats_of = |name: &str, inputs: &[&str]| {
        let path = dir.path(name);
        let out = bin()
            .args(["check", "-q", "--minimal", "--stats"])
            .arg(&path)
            .args(inputs)
            .output()
            .unwrap();
        // 1: the fixtures have problems
        assert!(matches!(out.status.code(), Some(0 | 1)), "{inputs:?}");
        path
    };
    let a = stats_of("a.json", &["data/17clue_300.txt"]);
    let b = stats_of("b.json", &["tests/fixtures/check.txt"]);
    let whole = stats_of(
        "whole.json",
        &["data/17clue_300.txt", "tests/fixtures/check.txt"],
    );
    let merged = bin().arg("merge-stats").arg(&a).arg(&b).output().unwrap();
    assert!(merged.status.success());
    let stderr = String::from_utf8_lossy(&merged.stderr);
    assert!(stderr.contains("parts:      2 runs added up"), "{stderr}");
    let merged: serde_json::Value = serde_json::from_slice(&merged.stdout).unwrap();
    let whole: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&whole).unwrap()).unwrap();
    assert_eq!(merged["command"], "check");
    for key in [
        "records",
        "problems",
        "verdicts",
        "given_solutions",
        "stats",
        "minimal",
    ] {
        assert_eq!(merged[key], whole[key], "{key}");
    }
    assert_eq!(merged["parts"], 2);
    assert_eq!(merged["interrupted"], serde_json::Value::Null);
    // merged again: the same counts
    let again = bin()
        .arg("merge-stats")
        .arg("-")
        .write_stdin(serde_json::to_vec(&merged).unwrap())
        .output()
        .unwrap();
    let again: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(again["verdicts"], whole["verdicts"]);
    // a solve run's stats are not a check run's
    let solve = dir.path("solve.json");
    bin()
        .args(["solve", "-q", "data/17clue_300.txt", "-o"])
        .arg(dir.path("out.txt"))
        .arg("--stats")
        .arg(&solve)
        .assert()
        .success();
    let mixed = bin()
        .arg("merge-stats")
        .arg(&a)
        .arg(&solve)
        .output()
        .unwrap();
    assert_eq!(mixed.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&mixed.stderr)
            .contains("a solve run's stats cannot be added to a check run's")
    );
}

/// A CSV field quoted over a line end: with --pipe each line is a row, and the line whose quoted
/// field runs past its end is a malformed record that says so (it was read as if the field
/// ended there: a note "two" of "two\nlines", the row solved, its data altered silently).
#[test]
fn a_quoted_field_past_the_line_end_is_a_malformed_record_in_pipe_mode() {
    let p = include_str!("../../data/easy_300.txt")
        .lines()
        .next()
        .unwrap();
    let input = format!("k1,{p},ok\nk2,{p},\"two\nlines\"\nk3,{p},\"say \"\"hi\"\", ok\"\n");
    let out = piped(
        &[
            "solve",
            "--pipe",
            "--csv-columns",
            "id,quizzes,note",
            "-O",
            "jsonl",
            "-",
        ],
        &input,
    );
    let statuses: Vec<String> = out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .map(|v| format!("{} {}", v["status"], v["reason"]))
        .collect();
    assert_eq!(statuses.len(), 4, "{out}");
    assert!(statuses[0].starts_with("\"solved\""), "{out}");
    assert!(
        statuses[1].contains("a quoted field runs past the end of the line"),
        "{out}"
    );
    assert!(statuses[2].starts_with("\"malformed\""), "{out}");
    assert!(statuses[3].starts_with("\"solved\""), "{out}");
    // the row keeps its columns as read: its key says which row it is
    let csv = piped(
        &[
            "solve",
            "--pipe",
            "--csv-columns",
            "id,quizzes,note",
            "-O",
            "csv",
            "-",
        ],
        &input,
    );
    let second = csv.lines().nth(1).unwrap();
    assert!(
        second.starts_with(&format!("k2,{p},two,malformed,")),
        "{csv}"
    );
}

/// The rest of a quoted field on the next line is a malformed record too, also when it has as
/// many fields as a row (`x",P` was read as a row of key `x"`, solved; the README said it is
/// not): told by its odd number of quotes, from the line alone; a row after it with its quotes
/// in pairs is a row.
#[test]
fn the_rest_of_a_quoted_field_on_the_next_line_is_no_row_in_pipe_mode() {
    let input = format!(
        "\"k2\nx\",{PUZZLE}\nk3,{PUZZLE}\n\"k4\n\"\"x\"\" y\",{PUZZLE}\nk5 \"z\",{PUZZLE}\n"
    );
    let out = piped(
        &[
            "solve",
            "--pipe",
            "--csv-columns",
            "id,puzzle",
            "-O",
            "jsonl",
        ],
        &input,
    );
    let records = jsonl(out.as_bytes());
    let got: Vec<(&str, &str)> = records
        .iter()
        .map(|r| {
            (
                r["status"].as_str().unwrap(),
                r["reason"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(got.len(), 6, "{out}");
    assert!(
        got[0]
            .1
            .starts_with("a quoted field runs past the end of the line"),
        "{out}"
    );
    assert!(
        got[1]
            .1
            .starts_with("a quote without its pair: the rest of a quoted field"),
        "{out}"
    );
    assert_eq!(got[2], ("solved", ""), "{out}");
    assert!(got[3].1.starts_with("a quoted field runs past"), "{out}");
    assert!(got[4].1.starts_with("a quote without its pair"), "{out}");
    // a quote inside a field of a row that follows no open quote is a character, as before
    assert_eq!(got[5], ("solved", ""), "{out}");
}

/// No output line of pipe mode holds a CR: a lone CR inside an input line was written back raw
/// (`-O line --echo`, every `-O csv`), and a line reader that ends lines at a CR (Java's
/// `readLine`, Spark SQL's TRANSFORM) read two records for one, every later one paired with
/// the wrong input. Such a record is malformed and its kept text has a space for the CR; CRLF
/// line ends are line ends as before.
#[test]
fn no_output_line_of_pipe_mode_holds_a_cr() {
    let lines = format!("k1 x\ry {PUZZLE}\n# c\rd\nk3 {PUZZLE}\r\n");
    let csv = format!("k1,x\ry,{PUZZLE}\nk2,n,{PUZZLE}\r\n");
    let headerless = |command| {
        [
            command,
            "--pipe",
            "--csv-columns",
            "id,n,puzzle",
            "-O",
            "csv",
        ]
    };
    let (solve_csv, check_csv) = (headerless("solve"), headerless("check"));
    let runs: [(&[&str], &str); 4] = [
        (&["solve", "--pipe", "--echo", "line"], &lines),
        (&["solve", "--pipe", "--echo", "line", "-O", "csv"], &lines),
        (&solve_csv, &csv),
        (&check_csv, &csv),
    ];
    for (args, input) in runs {
        let out = piped(args, input);
        assert!(!out.contains('\r'), "{args:?}: {out:?}");
        let records: Vec<&str> = out.lines().collect();
        assert_eq!(records.len(), input.lines().count(), "{args:?}: {out}");
        assert!(records[0].contains("x y"), "{args:?}: {out}");
        assert!(records[0].contains("malformed"), "{args:?}: {out}");
        assert!(
            !records[records.len() - 1].contains("malformed"),
            "{args:?}: {out}"
        );
    }
}

/// `--echo` in line and grid output (`solve`, `canon`, `rate`): the kept fields end the
/// record's first line, and a solved grid gets a `#` line of them. (They were dropped without a
/// word: `solve --echo 1,3` wrote only the solutions.)
#[test]
fn echo_keeps_the_fields_in_line_and_grid_output_too() {
    let input = format!("k1 {PUZZLE} 3.4\nk2 12345 9.9\n");
    let lines = |args: &[&str]| {
        let out = bin()
            .args(args)
            .args(["-q", "--echo", "1,3", "-"])
            .write_stdin(input.as_str())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(
        lines(&["solve"]),
        format!("{SOLUTION} k1 3.4\nmalformed k2 9.9\n")
    );
    let grid = lines(&["solve", "-O", "grid"]);
    let grid: Vec<&str> = grid.lines().collect();
    assert_eq!(grid[0], "# k1 3.4");
    assert_eq!(grid[1], "4 8 3 9 2 1 6 5 7");
    // a record with no grid: its status word alone on its line, the fields on a `#` line
    // above it (`malformed k2 9.9` read back as a title, not a record)
    assert_eq!(grid[10..], ["", "# k2 9.9", "malformed"]);
    let canon = lines(&["canon"]);
    let canon: Vec<&str> = canon.lines().collect();
    assert!(
        canon[0].ends_with(" k1 3.4") && canon[0].len() == 81 + 17 + 7,
        "{canon:?}"
    );
    assert_eq!(canon[1], "malformed k2 9.9");
    let canon_grid = lines(&["canon", "-O", "grid"]);
    assert!(
        canon_grid.starts_with("# ") && canon_grid.lines().next().unwrap().ends_with(" k1 3.4")
    );
    let rated = lines(&["rate"]);
    let rated: Vec<&str> = rated.lines().collect();
    assert!(rated[0].ends_with(" k1 3.4"), "{rated:?}");
    assert_eq!(rated[1], "malformed k2 9.9");
    // grid output reads back with as many records as it was written with, fields or not
    for command in ["solve", "canon", "rate"] {
        let written = lines(&[command, "-O", "grid"]);
        for layout in ["auto", "grid"] {
            let out = bin()
                .args(["check", "-q", "-O", "jsonl", "-I", layout, "-"])
                .write_stdin(written.as_str())
                .output()
                .unwrap();
            let back = String::from_utf8(out.stdout).unwrap();
            assert_eq!(
                back.lines().count(),
                2,
                "{command} {layout}: {written}\n{back}"
            );
        }
    }
}

/// A partition whose first line starts like a compressed stream (`BZh91`, `PK\3\4` are ASCII;
/// gzip's magic is not UTF-8) is lines like any other: one malformed record each, exit 0. It
/// was decoded as that format: the whole partition failed (exit 2, nothing written), or real
/// compressed bytes gave lines that were never handed over.
#[test]
fn a_first_line_that_looks_compressed_is_one_malformed_record() {
    for first in [
        "BZh91 x",
        "PK\u{3}\u{4} x",
        "\u{1f}\u{8b} x",
        "\u{28}\u{b5}\u{2f}\u{fd} x",
    ] {
        for command in ["solve", "canon", "check", "rate"] {
            let input = format!("{first}\nk2\n{PUZZLE}\n");
            let out = bin()
                .args([command, "--pipe"])
                .write_stdin(input)
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert_eq!(out.status.code(), Some(0), "{command} {first:?}: {stdout}");
            assert!(out.stderr.is_empty(), "{command} {first:?}");
            assert_eq!(stdout.lines().count(), 3, "{command} {first:?}: {stdout}");
        }
    }
    // gzip's bytes themselves: as many records as the bytes hold LFs
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, format!("{PUZZLE}\n").repeat(50).as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    let lines = gz.split(|&b| b == b'\n').count() - usize::from(gz.last() == Some(&b'\n'));
    let out = bin()
        .args(["solve", "--pipe"])
        .write_stdin(gz)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout.iter().filter(|&&b| b == b'\n').count(), lines);
}
