//! `sudoku-batch check` through the real binary.

use std::collections::BTreeSet;
use std::process::Output;

use predicates::prelude::*;
use sudoku_batch::check::Verdict;

use crate::{Workdir, bin, cut_kaggle_gzip, golden, jsonl, repo};

/// Runs `check` with `args`; returns the output after checking the exit code.
fn check(args: &[&str], code: i32) -> Output {
    let out = bin().arg("check").args(args).output().expect("run");
    assert_eq!(
        out.status.code(),
        Some(code),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).expect("utf-8")
}

/// The verdicts of jsonl output, in order.
fn verdicts(output: &[u8]) -> Vec<String> {
    jsonl(output)
        .iter()
        .map(|r| r["verdict"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn csv_dataset_gets_every_verdict_in_input_order() {
    let out = check(
        &[
            "--duplicates",
            "-q",
            "-O",
            "jsonl",
            "tests/fixtures/check.csv",
        ],
        1,
    );
    golden("check.csv.jsonl", &out.stdout);
    assert_eq!(
        verdicts(&out.stdout),
        [
            "unique",
            "wrong_solution",
            "wrong_solution",
            "duplicate",
            "multiple",
            "contradiction",
            "malformed",
            "unsolvable",
            "wrong_solution",
            "wrong_solution",
            "unique",
        ]
    );
}

#[test]
fn wrong_solution_column_is_reported_with_file_line_and_cell() {
    let out = check(&["-q", "tests/fixtures/check.csv"], 1);
    let stderr = text(&out.stderr);
    for line in [
        "tests/fixtures/check.csv:3: wrong_solution: given solution has digit 4 twice in row 1 \
         (r1c1 and r1c2); 1 cell differs from the only solution: r1c1 is 4 not 3",
        "tests/fixtures/check.csv:4: wrong_solution: given solution: found 80 cells, expected 81",
        "tests/fixtures/check.csv:10: wrong_solution: given solution has 5 at r1c1, where the \
         puzzle gives 4; 1 cell differs from the only solution: r1c1 is 5 not 4",
        "tests/fixtures/check.csv:11: wrong_solution: given solution leaves r5c5 blank; 1 cell \
         differs from the only solution: r5c5 is blank not 2",
    ] {
        assert!(stderr.lines().any(|l| l == line), "{line}\nin\n{stderr}");
    }
    assert!(out.stdout.is_empty(), "nothing on stdout without -O");
    // without --duplicates, the repeated row is checked like any other
    assert!(!stderr.contains("duplicate"));
}

#[test]
fn line_file_with_wrong_second_fields() {
    let out = check(&["-q", "tests/fixtures/check.txt"], 1);
    golden("check.txt.stderr", &out.stderr);
}

#[test]
fn tdoku_lines_with_count_and_solution() {
    let out = check(&["-q", "-O", "csv", "tests/fixtures/tdoku.txt"], 1);
    golden("tdoku.txt.csv", &out.stdout);
    let stderr = text(&out.stderr);
    assert!(stderr.contains("tdoku.txt:2: wrong_solution: given solution: found 60 cells"));
    assert!(stderr.contains(
        "tdoku.txt:5: wrong_solution: given solution: invalid character 'x' at cell 31 (r4c4)"
    ));
}

#[test]
fn clean_dataset_exits_0_with_a_summary_and_nothing_on_stdout() {
    let out = check(&["data/kaggle_200.csv"], 0);
    assert!(out.stdout.is_empty());
    let stderr = text(&out.stderr);
    assert!(
        stderr
            .starts_with("200 records: 200 unique\ngiven solutions: 200\nno problems; checked in "),
        "{stderr}"
    );
    let quiet = check(&["-q", "data/kaggle_200.csv"], 0);
    assert!(quiet.stderr.is_empty());
}

#[test]
fn problems_exit_1_and_the_summary_counts_them() {
    let out = check(&["tests/fixtures/mixed.txt"], 1);
    let stderr = text(&out.stderr);
    assert!(stderr.contains(
        "\n9 records: 3 unique, 1 multiple, 1 unsolvable, 1 contradiction, 2 malformed, \
         1 wrong_solution\ngiven solutions: 1\n6 problems; checked in "
    ));
}

#[test]
fn usage_and_io_errors_exit_2() {
    let dir = Workdir::new();
    let report_txt = dir.path("r.txt");
    let out_txt = dir.path("out.txt");
    for (args, message) in [
        (vec!["no/such/file.txt"], "no/such/file.txt"),
        (
            vec!["--max-problems", "x", "data/easy_300.txt"],
            "invalid value",
        ),
        (
            vec![
                "--report",
                report_txt.to_str().unwrap(),
                "data/easy_300.txt",
            ],
            "cannot tell the report format",
        ),
        (
            vec!["-o", out_txt.to_str().unwrap(), "data/easy_300.txt"],
            "use -O jsonl or -O csv",
        ),
        (
            vec!["--solution-column", "2", "data/easy_300.txt"],
            "--solution-column applies to CSV input only",
        ),
        (
            vec!["--solution-column", "nope", "data/kaggle_200.csv"],
            "data/kaggle_200.csv:1: no column named \"nope\"",
        ),
        (
            vec!["--solution-column", "quizzes", "data/kaggle_200.csv"],
            "the solution column is the puzzle column",
        ),
        (
            vec!["--report-format", "json", "data/easy_300.txt"],
            "--report",
        ),
        (vec!["-O", "line", "data/easy_300.txt"], "invalid value"),
    ] {
        bin()
            .arg("check")
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
    assert!(!report_txt.exists() && !out_txt.exists());
}

/// A `--solution-column` the input does not have fails before the outputs are touched: the
/// record output, `--stats` and `--report` were emptied (a new one made empty).
#[test]
fn a_solution_column_refused_leaves_every_output_as_it_was() {
    let dir = Workdir::new();
    let out = dir.write("out.jsonl", "earlier\n");
    let stats = dir.write("stats.json", "earlier\n");
    let report = dir.write("report.json", "earlier\n");
    let new = dir.path("new.jsonl");
    for (column, input) in [
        ("9", "data/kaggle_200.csv"),
        ("quizzes", "data/kaggle_200.csv"),
        ("2", "data/easy_300.txt"),
    ] {
        for target in [&out, &new] {
            bin()
                .args([
                    "check",
                    "-q",
                    "-O",
                    "jsonl",
                    "--solution-column",
                    column,
                    input,
                ])
                .arg("-o")
                .arg(target)
                .arg("--stats")
                .arg(&stats)
                .arg("--report")
                .arg(&report)
                .assert()
                .code(2);
        }
        for file in [&out, &stats, &report] {
            assert_eq!(
                std::fs::read_to_string(file).unwrap(),
                "earlier\n",
                "{column}"
            );
        }
        assert!(!new.exists(), "{column}");
    }
}

#[test]
fn duplicates_name_the_first_line_in_the_same_or_an_earlier_file() {
    let dir = Workdir::new();
    let puzzles: Vec<&str> = include_str!("../../data/easy_300.txt").lines().collect();
    let a = dir.write("a.txt", format!("{}\n{}\n", puzzles[0], puzzles[1]));
    let b = dir.write(
        "b.txt",
        format!(
            "{}\n# c\n{}\n{}\n",
            puzzles[2],
            puzzles[1].replace('.', "0"),
            puzzles[2]
        ),
    );
    let out = bin()
        .args(["check", "-q", "--duplicates", "-O", "jsonl"])
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let records = jsonl(&out.stdout);
    let details: Vec<_> = records.iter().map(|r| r["detail"].clone()).collect();
    assert_eq!(
        details,
        [
            serde_json::Value::Null,
            serde_json::Value::Null,
            serde_json::Value::Null,
            format!("same puzzle as {}:2", a.display()).into(),
            "same puzzle as line 1".into(),
        ]
    );
    assert_eq!(records[3]["line"], 3);
    assert_eq!(
        records[3]["solution"],
        serde_json::Value::Null,
        "not solved again"
    );
}

#[test]
fn iso_duplicates_catch_transformed_puzzles_across_files() {
    use sudoku_batch::grid::Grid;
    use sudoku_batch::transform::{Rng, Transform};
    let dir = Workdir::new();
    let puzzles: Vec<&str> = include_str!("../../data/easy_300.txt").lines().collect();
    let mut rng = Rng::new(2);
    let moved = |p: &str, rng: &mut Rng| {
        let g = Transform::random(rng).apply(&p.parse::<Grid>().unwrap());
        String::from_utf8(g.to_line(b'.').to_vec()).unwrap()
    };
    let train = dir.write("train.txt", format!("{}\n{}\n", puzzles[0], puzzles[1]));
    // the test split leaks: a transform of train's second puzzle, and one of its own first
    let test_text = format!(
        "{}\n{}\n{}\n{}\n",
        puzzles[2],
        moved(puzzles[1], &mut rng),
        moved(puzzles[2], &mut rng),
        puzzles[2]
    );
    let test = dir.write("test.txt", test_text);
    let run = |mode: &str| {
        let out = bin()
            .args(["check", "-q", mode, "-O", "jsonl"])
            .arg(&train)
            .arg(&test)
            .output()
            .unwrap();
        let details: Vec<_> = jsonl(&out.stdout)
            .iter()
            .map(|r| r["detail"].as_str().unwrap_or("").to_string())
            .collect();
        (out.status.code(), details)
    };
    let (code, details) = run("--duplicates=iso");
    assert_eq!(code, Some(1));
    assert_eq!(
        details,
        [
            "".to_string(),
            "".into(),
            "".into(),
            format!("isomorphic to {}:2", train.display()),
            "isomorphic to line 1".into(),
            "same puzzle as line 1".into(),
        ]
    );
    // exact mode sees only the copy
    let (_, details) = run("--duplicates");
    assert_eq!(details.iter().filter(|d| !d.is_empty()).count(), 1);
    assert_eq!(details[5], "same puzzle as line 1");
}

#[test]
fn the_svg_report_charts_givens_and_guesses() {
    let dir = Workdir::new();
    let svg = dir.path("report.svg");
    let out = bin()
        .args([
            "check",
            "-q",
            "data/17clue_300.txt",
            "data/hardest_300.txt",
            "--report",
        ])
        .arg(&svg)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(text.trim_end().ends_with("</svg>"));
    assert!(text.contains("Givens per puzzle: 600 well-formed puzzles of 600 records"));
    assert!(text.contains("Guesses of the uniqueness search: 600 puzzles searched"));
    // a bar a count of givens: 17 for the first file, and the hardest puzzles' counts
    assert!(text.contains("<title>17 givens: 300</title>"), "{text}");
    let bars = text.matches("<rect x=").count();
    let json = dir.path("report.json");
    bin()
        .args([
            "check",
            "-q",
            "data/17clue_300.txt",
            "data/hardest_300.txt",
            "--report",
        ])
        .arg(&json)
        .assert()
        .code(0);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let stats = &report["totals"]["stats"];
    let givens = stats["givens"].as_object().unwrap();
    let guesses = stats["guesses"].as_array().unwrap();
    // a bar for every count from the least to the most, empty ones included
    let keys: Vec<u64> = givens.keys().map(|k| k.parse().unwrap()).collect();
    let givens_span = keys.iter().max().unwrap() - keys.iter().min().unwrap() + 1;
    let first_bucket = |g: &serde_json::Value| g["min"].as_u64().unwrap().max(1).ilog2() as u64;
    let guesses_span = first_bucket(guesses.last().unwrap()) - first_bucket(&guesses[0])
        + 1
        + u64::from(guesses[0]["min"] == 0);
    assert_eq!(bars as u64, givens_span + guesses_span);
    assert!(
        text.contains("givens: 0</title>"),
        "an empty bar between 17 and the rest"
    );
    assert_eq!(givens["17"], 300);
    let searched: u64 = guesses.iter().map(|g| g["puzzles"].as_u64().unwrap()).sum();
    assert_eq!(searched, 600);
    assert_eq!(
        stats["distinct"],
        serde_json::Value::Null,
        "no --duplicates"
    );
}

#[test]
fn minimal_counts_redundant_givens_without_failing_the_run() {
    let dir = Workdir::new();
    let seventeen: Vec<&str> = include_str!("../../data/17clue_300.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(2)
        .collect();
    // a 17-clue puzzle with one more given from its solution is not minimal
    let solved = bin()
        .args(["solve", "-q", "-"])
        .write_stdin(format!("{}\n", seventeen[0]))
        .output()
        .unwrap();
    let solution = text(&solved.stdout).trim().to_string();
    let mut more: Vec<u8> = seventeen[0].as_bytes().to_vec();
    let blank = more.iter().position(|&b| b == b'.').unwrap();
    more[blank] = solution.as_bytes()[blank];
    let more = String::from_utf8(more).unwrap();
    let input = dir.write(
        "p.txt",
        format!("{}\n{}\n{more}\n", seventeen[0], seventeen[1]),
    );
    let out = bin()
        .args(["check", "--minimal", "-O", "jsonl"])
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "not minimal is not a problem");
    let records = jsonl(&out.stdout);
    assert_eq!(records[0]["redundant"], 0);
    assert_eq!(records[1]["redundant"], 0);
    let redundant = records[2]["redundant"].as_u64().unwrap();
    assert!(redundant >= 1);
    let stderr = text(&out.stderr);
    let note = format!(
        "p.txt:3: unique: not minimal: {redundant} redundant given{}",
        if redundant == 1 { "" } else { "s" }
    );
    assert!(stderr.contains(&note), "{stderr}");
    assert!(stderr.contains("\nminimal: 2 of 3 puzzles with one solution; 1 has"));
}

#[test]
fn max_problems_caps_the_listing_and_says_how_many_more() {
    let out = check(
        &["-q", "--max-problems", "2", "tests/fixtures/check.csv"],
        1,
    );
    let stderr = text(&out.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 3, "{stderr}");
    assert!(lines[0].starts_with("tests/fixtures/check.csv:3: wrong_solution:"));
    assert!(lines[1].starts_with("tests/fixtures/check.csv:4: wrong_solution:"));
    assert_eq!(
        lines[2],
        "... and 6 more not shown (raise --max-problems, or --report FILE lists them all)"
    );
    let none = check(
        &["-q", "--max-problems", "0", "tests/fixtures/check.csv"],
        1,
    );
    assert_eq!(
        text(&none.stderr),
        "... and 8 more not shown (raise --max-problems, or --report FILE lists them all)\n"
    );
}

#[test]
fn reports_in_every_format_hold_every_finding() {
    let dir = Workdir::new();
    for (name, extra) in [
        ("report.json", None),
        ("report.csv", None),
        ("report.md", None),
        ("report.txt", Some("markdown")),
    ] {
        let path = dir.path(name);
        let mut cmd = bin();
        cmd.args([
            "check",
            "-q",
            "--duplicates",
            "--max-problems",
            "1",
            "--report",
        ])
        .arg(&path);
        if let Some(format) = extra {
            cmd.args(["--report-format", format]);
        }
        let out = cmd.arg("tests/fixtures/check.csv").output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        assert!(
            text(&out.stderr).ends_with("... and 8 more not shown (the report lists them all)\n")
        );
        let golden_name = match name {
            "report.txt" => "check.csv.report.md".to_string(),
            _ => format!("check.csv.{name}"),
        };
        golden(&golden_name, dir.read(name).as_bytes());
    }
    let json: serde_json::Value = serde_json::from_str(&dir.read("report.json")).unwrap();
    assert_eq!(json["findings"].as_array().unwrap().len(), 9);
    assert_eq!(json["totals"]["problems"], 9);
}

#[test]
fn one_and_two_threads_give_identical_output() {
    let dir = Workdir::new();
    let mut runs = Vec::new();
    for threads in ["1", "2"] {
        let report = dir.path(&format!("r{threads}.json"));
        let out = bin()
            .args([
                "check",
                "-q",
                "--duplicates",
                "--minimal",
                "--batch-size",
                "3",
            ])
            .args(["-j", threads, "-O", "jsonl", "--report"])
            .arg(&report)
            .args(["tests/fixtures/check.csv", "tests/fixtures/check.csv"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        runs.push((out.stdout, out.stderr, std::fs::read(&report).unwrap()));
    }
    assert_eq!(runs[0], runs[1]);
    assert_eq!(jsonl(&runs[0].0).len(), 22);
}

#[test]
fn output_file_format_follows_its_extension() {
    let dir = Workdir::new();
    let csv = dir.path("v.csv");
    check(
        &["-q", "-o", csv.to_str().unwrap(), "data/kaggle_200.csv"],
        0,
    );
    let text = dir.read("v.csv");
    assert_eq!(
        text.lines().next(),
        Some("quizzes,solutions,verdict,detail,solution,redundant")
    );
    assert_eq!(text.lines().count(), 201);
    assert!(text.lines().skip(1).all(|l| l.contains(",unique,,")));
}

#[test]
fn refuses_to_overwrite_an_input_with_the_report() {
    let dir = Workdir::new();
    let input = dir.write("in.csv", include_str!("../../data/kaggle_200.csv"));
    bin()
        .args(["check", "--report-format", "csv", "--report"])
        .arg(&input)
        .arg(&input)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("the report file is the input"));
    assert_eq!(
        dir.read("in.csv"),
        include_str!("../../data/kaggle_200.csv")
    );
}

#[test]
fn every_verdict_word_is_in_the_help_with_the_exit_codes() {
    let out = bin().args(["check", "--help"]).output().unwrap();
    let help = text(&out.stdout);
    let words = Verdict::ALL.map(Verdict::as_str);
    for word in words.into_iter().chain([
        "Exit status: 0",
        "1 when any",
        "2 for usage",
        "one more search per given",
        "bytes of memory",
    ]) {
        assert!(help.contains(word), "{word}");
    }
}

#[test]
fn every_verdict_has_a_fixture_record() {
    let mut seen = BTreeSet::new();
    for file in [
        "tests/fixtures/check.csv",
        "tests/fixtures/check.txt",
        "tests/fixtures/tdoku.txt",
    ] {
        let out = check(&["-q", "--duplicates", "-O", "jsonl", file], 1);
        seen.extend(verdicts(&out.stdout));
    }
    let all: BTreeSet<String> = Verdict::ALL.map(|v| v.as_str().to_string()).into();
    assert_eq!(seen, all);
}

#[test]
fn a_fatal_input_error_still_lists_and_reports_what_was_read() {
    let dir = Workdir::new();
    let report = dir.path("r.json");
    let cut = cut_kaggle_gzip(&dir, "cut.csv.gz", "id,quizzes,solutions");
    let out = bin()
        .args(["check", "-q", "--report"])
        .arg(&report)
        .arg("tests/fixtures/check.csv")
        .arg(&cut)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("tests/fixtures/check.csv:3: wrong_solution:"),
        "{stderr}"
    );
    let json: serde_json::Value = serde_json::from_str(&dir.read("r.json")).unwrap();
    let records = json["totals"]["records"].as_u64().unwrap();
    assert!((1011..10_011).contains(&records), "{records}");
    assert!(
        stderr.ends_with(&format!(
            "sudoku-batch: error: {}: after line {}: gzip data: incomplete deflate stream\n",
            cut.display(),
            records - 11 + 1
        )),
        "{stderr}"
    );
    assert_eq!(json["totals"]["interrupted"]["signal"], "error");
}

#[test]
fn reads_grids_and_stdin_like_solve() {
    let out = check(&["data/baekjoon_example1.in"], 0);
    assert!(text(&out.stderr).starts_with("1 record: 1 unique\ngiven solutions: none\n"));
    let out = bin()
        .args(["check", "-q", "-"])
        .pipe_stdin("tests/fixtures/tdoku.txt")
        .unwrap()
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).starts_with("<stdin>:2: wrong_solution: given solution: found 60"));
}

#[test]
fn a_file_named_twice_is_never_a_duplicate_of_itself() {
    let out = bin()
        .args(["check", "-q", "--duplicates", "data/hardest_300.txt"])
        .arg("data/hardest_300.txt")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let first = stderr.lines().next().unwrap();
    assert_eq!(
        first,
        "data/hardest_300.txt (input 2):1: duplicate: same puzzle as data/hardest_300.txt:1"
    );
}

#[test]
fn the_svg_charts_say_what_they_count_and_their_labels_never_touch() {
    let dir = Workdir::new();
    let svg = dir.path("report.svg");
    // a malformed record, a contradiction and a duplicate: the two charts count different
    // records (givens: all well-formed puzzles; guesses: those searched)
    let easy = std::fs::read_to_string(repo("data/easy_300.txt")).unwrap();
    let first = easy.lines().find(|l| !l.starts_with('#')).unwrap();
    let clash = format!("11{}", &first[2..]);
    let mix = dir.write("mix.txt", format!("{first}\nhello\n{clash}\n{first}\n"));
    let out = bin()
        .args(["check", "-q", "--duplicates"])
        .arg(&mix)
        .args(["data/17clue_300.txt", "data/easy_300.txt", "--report"])
        .arg(&svg)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = std::fs::read_to_string(&svg).unwrap();
    let title = |prefix: &str| {
        let at = text.find(prefix).unwrap();
        text[at..text[at..].find('<').unwrap() + at].to_string()
    };
    // 604 records: 603 well-formed (one malformed), of which 600 searched (the contradiction
    // and the two duplicates of the first puzzle are not: it is in easy_300 too)
    assert_eq!(
        title("Givens per puzzle: "),
        "Givens per puzzle: 603 well-formed puzzles of 604 records"
    );
    assert_eq!(
        title("Guesses of the uniqueness search"),
        "Guesses of the uniqueness search: 600 puzzles searched"
    );
    assert!(text.contains("duplicates, contradictions and malformed records are not searched"));
    // labels under the bars (one row per chart): far enough apart for their text (7 px a
    // character) not to run together
    let mut rows: std::collections::BTreeMap<String, Vec<(f64, usize)>> = Default::default();
    for line in text.lines().filter(|l| l.starts_with("<text x=")) {
        let parts: Vec<&str> = line.split('"').collect();
        let label = line.split('>').nth(1).unwrap().split('<').next().unwrap();
        if line.contains("font-size") || !label.chars().all(|c| c.is_ascii_digit() || c == '-') {
            continue;
        }
        if parts[5] == "middle" {
            let x: f64 = parts[1].parse().unwrap();
            rows.entry(parts[3].to_string())
                .or_default()
                .push((x, label.len()));
        }
    }
    assert_eq!(rows.len(), 2, "{rows:?}");
    for labels in rows.values() {
        assert!(labels.len() >= 4, "{labels:?}");
        for pair in labels.windows(2) {
            let ((a, wa), (b, wb)) = (pair[0], pair[1]);
            assert!(
                b - a >= wa.max(wb) as f64 * 7.0,
                "labels at {a} and {b} touch"
            );
        }
    }
}

/// 40 puzzles of the Exchange's hard list from line `from` (0-based) as a file of `dir`: ER
/// up to the 7s, rated in a few seconds by a debug build.
fn hard_puzzles(dir: &Workdir, from: usize) -> std::path::PathBuf {
    let hard = std::fs::read_to_string(repo("data/exchange_hard_200.txt")).unwrap();
    let lines: Vec<&str> = hard.lines().skip(from).take(40).collect();
    dir.write(&format!("hard{from}.txt"), lines.join("\n") + "\n")
}

/// The counts of ratings in `--stats` (check's `ratings`, rate's top level).
const BAND_KEYS: [&str; 5] = [
    "rated",
    "er_below_6_5",
    "er_6_5_to_7_9",
    "er_8_0_and_up",
    "er_9_5_or_above_not_rated_exactly",
];

/// A jsonl value of a rating as tenths (`7.2` as 72), or the text of one known from below.
fn tenths_or_text(v: &serde_json::Value) -> String {
    match v.as_f64() {
        Some(x) => ((x * 10.0).round() as u32).to_string(),
        None => v.to_string(),
    }
}

#[test]
fn rate_gives_unique_records_the_rating_rate_gives_and_others_none() {
    let dir = Workdir::new();
    let hard = hard_puzzles(&dir, 0);
    let hard = hard.to_str().unwrap();
    // the fixture has records of every verdict (exit 1), the hard list only unique ones
    for (input, code) in [("tests/fixtures/check.csv", 1), (hard, 0)] {
        let checked = jsonl(&check(&["--rate", "-q", "-O", "jsonl", input], code).stdout);
        let rated = jsonl(&crate::stdout_ok(bin().args([
            "rate",
            "-q",
            "-O",
            "jsonl",
            "--no-timings",
            input,
        ])));
        assert_eq!(checked.len(), rated.len());
        let mut unique = 0;
        for (c, r) in checked.iter().zip(&rated) {
            assert_eq!(c["line"], r["line"]);
            if c["verdict"] == "unique" {
                unique += 1;
                for key in ["er", "ep", "ed"] {
                    assert!(c[key].is_number(), "{c}");
                    assert_eq!(tenths_or_text(&c[key]), tenths_or_text(&r[key]), "{c}");
                }
                assert_eq!(c["hardest"], r["hardest"]);
            } else {
                for key in ["er", "ep", "ed", "hardest"] {
                    assert!(c[key].is_null(), "{key} of a {} record: {c}", c["verdict"]);
                }
            }
        }
        assert!(unique >= 2, "{input}");
    }
    // without --rate, no rating keys
    let plain = jsonl(&check(&["-q", "-O", "jsonl", hard], 0).stdout);
    assert!(plain[0].get("er").is_none(), "{}", plain[0]);
}

#[test]
fn rate_adds_the_rating_columns_to_csv() {
    let out = check(
        &["--rate", "-q", "-O", "csv", "tests/fixtures/check.csv"],
        1,
    );
    let text = text(&out.stdout);
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("id,quizzes,solutions,verdict,detail,solution,redundant,er,ep,ed,hardest")
    );
    let rows: Vec<&str> = lines.collect();
    let unique: Vec<&&str> = rows.iter().filter(|r| r.contains(",unique,")).collect();
    assert!(!unique.is_empty());
    for row in unique {
        let fields: Vec<&str> = row.rsplitn(5, ',').collect();
        // hardest, ed, ep, er from the end: three numbers with one decimal and a name
        for v in &fields[1..4] {
            let x: f64 = v.parse().unwrap_or_else(|_| panic!("{row}"));
            assert!((1.0..9.5).contains(&x), "{row}");
        }
        assert!(!fields[0].is_empty(), "{row}");
    }
    for row in rows.iter().filter(|r| !r.contains(",unique,")) {
        assert!(row.ends_with(",,,,"), "{row}");
    }
}

#[test]
fn rate_counts_the_bands_in_the_summary_stats_and_report_and_they_add_up() {
    let dir = Workdir::new();
    let hard = hard_puzzles(&dir, 0);
    let stats = dir.path("stats.json");
    let out = check(
        &[
            "--rate",
            "--stats",
            stats.to_str().unwrap(),
            "--report",
            dir.path("report.md").to_str().unwrap(),
            hard.to_str().unwrap(),
        ],
        0,
    );
    let summary = text(&out.stderr);
    assert!(
        summary.contains("\nrated:      40 (ER below 6.5: "),
        "{summary}"
    );
    let json: serde_json::Value = serde_json::from_str(&dir.read("stats.json")).unwrap();
    let r = &json["ratings"];
    let band = |key: &str| r[key].as_u64().unwrap();
    let bands = band("er_below_6_5") + band("er_6_5_to_7_9") + band("er_8_0_and_up");
    assert_eq!(bands + band("er_9_5_or_above_not_rated_exactly"), 40);
    assert_eq!(band("rated"), json["verdicts"]["unique"].as_u64().unwrap());
    // the same counts as rate's own, computed by the same code
    let rate_stats = dir.path("rate.json");
    crate::stdout_ok(
        bin()
            .args(["rate", "-q", "--stats", rate_stats.to_str().unwrap()])
            .arg(&hard),
    );
    let rate: serde_json::Value = serde_json::from_str(&dir.read("rate.json")).unwrap();
    for key in BAND_KEYS.iter().chain(&["hardest"]) {
        assert_eq!(r[key], rate[key], "{key}");
    }
    let report = dir.read("report.md");
    assert!(
        report.contains(&format!("| below 6.5 | {} |", band("er_below_6_5"))),
        "{report}"
    );
    // without --rate: null
    let plain = dir.path("plain.json");
    check(
        &[
            "-q",
            "--stats",
            plain.to_str().unwrap(),
            hard.to_str().unwrap(),
        ],
        0,
    );
    let plain_json: serde_json::Value = serde_json::from_str(&dir.read("plain.json")).unwrap();
    assert!(plain_json["ratings"].is_null());
}

#[test]
fn merge_stats_adds_rated_runs_and_refuses_to_mix_them_with_unrated_ones() {
    let dir = Workdir::new();
    let (first, second) = (hard_puzzles(&dir, 0), hard_puzzles(&dir, 40));
    let run = |name: &str, rate: bool, input: &str| {
        let path = dir.path(name);
        let mut args = vec!["-q", "--stats", path.to_str().unwrap(), input];
        if rate {
            args.insert(0, "--rate");
        }
        check(&args, 0);
        serde_json::from_str::<serde_json::Value>(&dir.read(name)).unwrap()
    };
    let a = run("a.json", true, first.to_str().unwrap());
    let b = run("b.json", true, second.to_str().unwrap());
    run("c.json", false, second.to_str().unwrap());
    let merged = dir.path("merged.json");
    bin()
        .args(["merge-stats", "-q", "-o", merged.to_str().unwrap()])
        .args([dir.path("a.json"), dir.path("b.json")])
        .assert()
        .success();
    let m: serde_json::Value = serde_json::from_str(&dir.read("merged.json")).unwrap();
    for key in BAND_KEYS {
        let sum = a["ratings"][key].as_u64().unwrap() + b["ratings"][key].as_u64().unwrap();
        assert_eq!(m["ratings"][key].as_u64(), Some(sum), "{key}");
    }
    let hardest = |v: &serde_json::Value| {
        let er = v["ratings"]["hardest"]["er"].as_str().unwrap();
        er.parse::<f64>().unwrap()
    };
    assert_eq!(hardest(&m), hardest(&a).max(hardest(&b)));
    bin()
        .args(["merge-stats", "-q"])
        .args([dir.path("a.json"), dir.path("c.json")])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("was made with --rate")
                .and(predicate::str::contains("c.json without")),
        );
}

/// A `check --minimal` run and one without add up to a summary whose minimality covers part of
/// the puzzles ("minimal: 300 of 300" beside 600 unique): refused, as `--rate` mixes are.
#[test]
fn merge_stats_refuses_minimal_and_plain_check_runs_together() {
    let dir = Workdir::new();
    let easy = repo("data/easy_300.txt");
    let (m, plain) = (dir.path("m.json"), dir.path("p.json"));
    check(
        &[
            "-q",
            "--minimal",
            "--stats",
            m.to_str().unwrap(),
            easy.to_str().unwrap(),
        ],
        0,
    );
    check(
        &[
            "-q",
            "--stats",
            plain.to_str().unwrap(),
            easy.to_str().unwrap(),
        ],
        0,
    );
    bin()
        .args(["merge-stats", "-q"])
        .args([&m, &plain])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("m.json was made with --minimal")
                .and(predicate::str::contains("p.json without")),
        );
    // two --minimal runs add up
    check(
        &[
            "-q",
            "--minimal",
            "--stats",
            dir.path("m2.json").to_str().unwrap(),
            easy.to_str().unwrap(),
        ],
        0,
    );
    bin()
        .args(["merge-stats", "-q"])
        .args([&m, &dir.path("m2.json")])
        .assert()
        .success()
        .stdout(predicate::str::contains("\"checked\": 600"));
}

/// Runs that looked for repeated puzzles in different ways (exact, iso, not at all) add up to
/// a `duplicate` count of no one meaning: refused, as `--minimal` mixes are (they were added up,
/// exit 0). Runs of one mode add up, merged files again too.
#[test]
fn merge_stats_refuses_runs_of_different_duplicates_modes() {
    let dir = Workdir::new();
    let easy = repo("data/easy_300.txt");
    let stats = |name: &str, extra: &[&str]| {
        let path = dir.path(name);
        let mut args = vec!["-q", "--stats", path.to_str().unwrap()];
        args.extend_from_slice(extra);
        args.push(easy.to_str().unwrap());
        check(&args, 0);
        path
    };
    let exact = stats("exact.json", &["--duplicates"]);
    let iso = stats("iso.json", &["--duplicates=iso"]);
    let plain = stats("plain.json", &[]);
    let exact2 = stats("exact2.json", &["--duplicates=exact"]);
    for (a, b, first, second) in [
        (
            &exact,
            &iso,
            "exact.json was made with --duplicates=exact",
            "iso.json with --duplicates=iso",
        ),
        (
            &exact,
            &plain,
            "exact.json was made with --duplicates=exact",
            "plain.json with no --duplicates",
        ),
        (
            &plain,
            &iso,
            "plain.json was made with no --duplicates",
            "iso.json with --duplicates=iso",
        ),
    ] {
        bin()
            .args(["merge-stats", "-q"])
            .args([a, b])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(first).and(predicate::str::contains(second)));
    }
    let merged = dir.path("merged.json");
    bin()
        .args(["merge-stats", "-q", "-o"])
        .args([&merged, &exact, &exact2])
        .assert()
        .success();
    let text = std::fs::read_to_string(&merged).unwrap();
    assert!(text.contains("\"duplicates\": \"exact\""), "{text}");
    let exact3 = stats("exact3.json", &["--duplicates"]);
    bin()
        .args(["merge-stats", "-q"])
        .args([&merged, &exact3])
        .assert()
        .success();
    // a merged file beside one of its own parts would count that run twice
    bin()
        .args(["merge-stats", "-q"])
        .args([&merged, &exact])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("which is counted in").and(predicate::str::contains(
                "merged.json already: its records would add up twice",
            )),
        );
}

#[test]
fn max_er_bounds_the_ratings_as_rate_does_and_merge_stats_keeps_bounds_apart() {
    let dir = Workdir::new();
    let hard = hard_puzzles(&dir, 0);
    let hard = hard.to_str().unwrap();
    let stats = dir.path("bounded.json");
    let out = check(
        &[
            "--rate",
            "--max-er",
            "6.5",
            "-O",
            "jsonl",
            "--stats",
            stats.to_str().unwrap(),
            "--report",
            dir.path("report.md").to_str().unwrap(),
            hard,
        ],
        0,
    );
    let checked = jsonl(&out.stdout);
    let rated = jsonl(&crate::stdout_ok(bin().args([
        "rate",
        "-q",
        "--max-er",
        "6.5",
        "-O",
        "jsonl",
        "--no-timings",
        hard,
    ])));
    assert_eq!(checked.len(), rated.len());
    let mut above = 0;
    for (c, r) in checked.iter().zip(&rated) {
        for key in ["er", "ep", "ed", "hardest"] {
            assert_eq!(c[key], r[key], "{key}: {c}");
        }
        above += usize::from(c["er"] == ">6.5");
    }
    // the list has puzzles on both sides of the bound
    assert!(above > 0 && above < checked.len(), "{above}");
    let summary = text(&out.stderr);
    assert!(
        summary.contains(&format!("; above 6.5: {above})")),
        "{summary}"
    );
    let json: serde_json::Value = serde_json::from_str(&dir.read("bounded.json")).unwrap();
    assert_eq!(json["max_er"], "6.5");
    assert_eq!(json["ratings"]["above_max_er"], above);
    let report = dir.read("report.md");
    assert!(
        report.contains(&format!(
            "| above 6.5 (--max-er; not rated exactly) | {above} |"
        )),
        "{report}"
    );
    // an unbounded run of the same puzzles: no max_er key, and its counts do not add to these
    let unbounded = dir.path("unbounded.json");
    check(
        &["--rate", "-q", "--stats", unbounded.to_str().unwrap(), hard],
        0,
    );
    let plain: serde_json::Value = serde_json::from_str(&dir.read("unbounded.json")).unwrap();
    assert!(plain.get("max_er").is_none(), "{plain}");
    bin()
        .args(["merge-stats", "-q"])
        .args([&stats, &unbounded])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "bounded.json was rated with --max-er 6.5 and",
        ));
    // two runs of one bound add up, and keep it (two runs: one run counted twice is refused)
    let merged = dir.path("merged.json");
    let again = dir.path("bounded-again.json");
    check(
        &[
            "--rate",
            "--max-er",
            "6.5",
            "-q",
            "--stats",
            again.to_str().unwrap(),
            hard,
        ],
        0,
    );
    bin()
        .args(["merge-stats", "-q", "-o", merged.to_str().unwrap()])
        .args([&stats, &again])
        .assert()
        .success();
    let m: serde_json::Value = serde_json::from_str(&dir.read("merged.json")).unwrap();
    assert_eq!(m["max_er"], "6.5");
    assert_eq!(m["ratings"]["above_max_er"], 2 * above);
    // the bound means nothing without ratings
    bin()
        .args(["check", "--max-er", "6.5", hard])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--rate"));
}

#[test]
fn a_duplicates_mode_without_its_equals_sign_is_named() {
    // `--duplicates iso` read `iso` as an input: "iso: No such file or directory"
    let out = bin()
        .args(["check", "--duplicates", "iso", "data/easy_300.txt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("write --duplicates=iso"),
        "{}",
        text(&out.stderr)
    );
}

/// `--solution-column none`, as the help says, checks a dataset's puzzles without its solutions
/// (it was refused: no column named "none").
#[test]
fn solution_column_none_leaves_the_solutions_unread() {
    let kaggle = repo("data/kaggle_200.csv");
    let out = check(&[kaggle.to_str().unwrap()], 0);
    assert!(String::from_utf8_lossy(&out.stderr).contains("given solutions: 200"));
    let out = check(&["--solution-column", "none", kaggle.to_str().unwrap()], 0);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("given solutions: none"), "{stderr}");
}

/// Stats edited by hand so that they contradict themselves were added up as they stood:
/// `records` 5 beside 300 verdicts gave "305 records: 600 unique", a million problems among
/// 600 unique records, exit 0. Each file is refused, named, with what does not add up.
#[test]
fn merge_stats_refuses_counts_that_contradict_each_other() {
    let dir = Workdir::new();
    let easy = repo("data/easy_300.txt");
    let stats = dir.path("c.json");
    check(
        &[
            "-q",
            "--stats",
            stats.to_str().unwrap(),
            easy.to_str().unwrap(),
        ],
        0,
    );
    let other = dir.path("d.json");
    check(
        &[
            "-q",
            "--stats",
            other.to_str().unwrap(),
            easy.to_str().unwrap(),
        ],
        0,
    );
    let json: serde_json::Value = serde_json::from_str(&dir.read("c.json")).unwrap();
    let edit = |keys: &[&str], value: serde_json::Value| {
        let mut edited = json.clone();
        match keys {
            [key] => edited[key] = value,
            [outer, key] => edited[outer][key] = value,
            _ => unreachable!(),
        }
        edited
    };
    for (edited, why) in [
        (
            edit(&["records"], 5.into()),
            "its verdicts add up to 300, not its 5 records",
        ),
        (
            edit(&["problems"], 1_000_000.into()),
            "1000000 problems, where its records other than unique are 0",
        ),
        (
            edit(&["given_solutions"], 1000.into()),
            "1000 given solutions, of 300 records",
        ),
        // the dataset's tables: by givens every puzzle read, by guesses every puzzle searched;
        // a bucket only as written (guesses 107 and givens 101 of 400 records were added up)
        (
            edit(&["stats", "givens"], serde_json::json!({"25": 1})),
            "its puzzles counted by givens are 1, where its records not malformed are 300",
        ),
        (
            edit(
                &["stats", "guesses"],
                serde_json::json!([{"min": 1, "max": 1, "puzzles": 7}]),
            ),
            "its puzzles counted by guesses are 7, where its records searched are 300",
        ),
        (
            edit(
                &["stats", "guesses"],
                serde_json::json!([{"min": 3, "max": 5, "puzzles": 300}]),
            ),
            "guesses bucket 3..5 is not one this build writes (2..3)",
        ),
        (
            edit(
                &["stats", "guesses"],
                serde_json::json!([{"min": 2, "max": 9, "puzzles": 300}]),
            ),
            "guesses bucket 2..9 is not one this build writes (2..3)",
        ),
        // givens to spare where every puzzle checked was minimal (taken, exit 0)
        (
            edit(
                &["minimal"],
                serde_json::json!({"checked": 300, "minimal": 300, "not_minimal": 0,
                    "redundant_givens": 7}),
            ),
            "7 givens to spare in 0 puzzles not minimal",
        ),
    ] {
        let bad = dir.write("bad.json", serde_json::to_string(&edited).unwrap());
        bin()
            .args(["merge-stats", "-q"])
            .args([&bad, &other])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(format!(
                "bad.json: not the --stats JSON of a check run: {why}"
            )));
    }
    // solve's: records of a searching status and the puzzles searched
    let solved = dir.path("s.json");
    bin()
        .args([
            "solve",
            "-q",
            "-o",
            "/dev/null",
            "--stats",
            solved.to_str().unwrap(),
        ])
        .arg(&easy)
        .assert()
        .success();
    let mut json: serde_json::Value = serde_json::from_str(&dir.read("s.json")).unwrap();
    json["counts"]["statuses"] = serde_json::json!({"solved": 1});
    let bad = dir.write("bad.json", serde_json::to_string(&json).unwrap());
    bin()
        .args(["merge-stats", "-q"])
        .arg(&bad)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "300 searched, where its records solved, unique, multiple or unsolvable are 1",
        ));
    // a slowest time over the sum of all, and a run on no thread, were added up (exit 0, a
    // merged maximum of 10^6 s); a check run on no thread alike
    let sum = json["counts"]["nanos_sum"].as_u64().unwrap();
    let mut slowest = serde_json::from_str::<serde_json::Value>(&dir.read("s.json")).unwrap();
    slowest["counts"]["nanos_max"] = (sum + 1).into();
    let mut idle = serde_json::from_str::<serde_json::Value>(&dir.read("s.json")).unwrap();
    idle["threads"] = 0.into();
    let mut idle_check = serde_json::from_str::<serde_json::Value>(&dir.read("c.json")).unwrap();
    idle_check["threads"] = 0.into();
    // a slowest time under the mean ("mean 2.09, ... max 0.00"), a histogram above the
    // slowest, no guess where puzzles guessed, solved and unique records in one file (its error
    // named no file: " was made with --unique and  without"), were taken
    let edit = |key: &str, value: serde_json::Value| {
        let mut json = serde_json::from_str::<serde_json::Value>(&dir.read("s.json")).unwrap();
        json["counts"][key] = value;
        json
    };
    let (searched, no_guess) = (
        json["counts"]["searched"].as_u64().unwrap(),
        json["counts"]["no_guess"].as_u64().unwrap(),
    );
    let top = json["counts"]["histogram"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()[0]
        .as_u64()
        .unwrap();
    for (edited, why) in [
        (
            edit("nanos_max", 1.into()),
            format!("the slowest of 300 puzzles took 1 ns, less than their mean ({sum} ns in all)"),
        ),
        (
            edit("histogram", serde_json::json!([[top + 3, 300]])),
            format!(
                "the slowest of 300 puzzles took {} ns, less than a time in its solve-time \
                 histogram",
                json["counts"]["nanos_max"]
            ),
        ),
        (
            edit("guesses", 0.into()),
            format!(
                "0 guesses, where {} of its 300 puzzles searched were not solved without one",
                searched - no_guess
            ),
        ),
        (
            edit("statuses", serde_json::json!({"solved": 299, "unique": 1})),
            "bad.json: not the --stats JSON of a run: it counts records solved and records \
             unique or multiple, which no run does"
                .to_string(),
        ),
        (
            slowest,
            format!(
                "the slowest of 300 puzzles took {} ns of {sum} ns in all",
                sum + 1
            ),
        ),
        (idle, "a run on 0 threads".to_string()),
        (idle_check, "a run on 0 threads".to_string()),
    ] {
        let bad = dir.write("bad.json", serde_json::to_string(&edited).unwrap());
        bin()
            .args(["merge-stats", "-q"])
            .arg(&bad)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(why));
    }
    // runs with and without --unique: "records: 600 (solved 300, unique 300)", exit 0
    let unique = dir.path("u.json");
    bin()
        .args(["solve", "-q", "-u", "-o", "/dev/null", "--stats"])
        .arg(&unique)
        .arg(&easy)
        .assert()
        .success();
    bin()
        .args(["merge-stats", "-q"])
        .args([&unique, &solved])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "u.json was made with --unique and ",
        ));
}

/// A report that fails as it is finished (`/dev/full`): exit 2, and the stats said the run
/// was whole (`"interrupted": null`), for `merge-stats` to count it as complete.
#[test]
fn stats_say_the_run_failed_when_the_report_fails_at_its_end() {
    let dir = Workdir::new();
    let stats = dir.path("st.json");
    let out = bin()
        .args([
            "check",
            "-q",
            "--report",
            "/dev/full",
            "--report-format",
            "json",
        ])
        .arg("--stats")
        .arg(&stats)
        .arg(repo("data/easy_300.txt"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let json: serde_json::Value = serde_json::from_str(&dir.read("st.json")).unwrap();
    assert_eq!(json["interrupted"]["signal"], "error", "{json}");
    assert!(
        json["interrupted"]["error"]
            .as_str()
            .unwrap()
            .contains("writing /dev/full"),
        "{json}"
    );
}
