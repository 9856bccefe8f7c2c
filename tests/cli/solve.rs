//! `sudoku-batch solve` through the real binary.

use predicates::prelude::*;
use sudoku_batch::grid::Grid;

use crate::{Workdir, bin, command, cut_kaggle_gzip, golden, jsonl, repo, stdout_ok};

fn stdout_of(args: &[&str]) -> String {
    String::from_utf8(stdout_ok(bin().args(args))).expect("utf-8 output")
}

/// The first `n` puzzles of data/easy_300.txt, as lines.
fn easy_puzzles(n: usize) -> Vec<String> {
    let text = std::fs::read_to_string(repo("data/easy_300.txt")).expect("read data");
    text.lines().take(n).map(String::from).collect()
}

/// Puzzles of a line file (first 81-char field of each non-comment line).
fn puzzles_of(path: &str) -> Vec<Grid> {
    std::fs::read_to_string(repo(path))
        .expect("read data")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let field = l
                .split([' ', ',', ':'])
                .find(|f| f.trim().len() == 81)
                .expect("81-cell field");
            field.trim().parse().expect("puzzle")
        })
        .collect()
}

#[test]
fn solves_baekjoon_sample_from_stdin_exactly() {
    let expected = std::fs::read_to_string(repo("data/baekjoon_example1.out")).unwrap();
    bin()
        .arg("solve")
        .pipe_stdin(repo("data/baekjoon_example1.in"))
        .unwrap()
        .assert()
        .success()
        .stdout(expected);
}

#[test]
fn solves_baekjoon_sample_from_file_exactly() {
    let expected = std::fs::read_to_string(repo("data/baekjoon_example1.out")).unwrap();
    let out = stdout_of(&["solve", "-q", "data/baekjoon_example1.in"]);
    assert_eq!(out, expected);
}

#[test]
fn line_input_gives_one_line_per_record_with_status_words() {
    let out = stdout_of(&["solve", "-q", "tests/fixtures/mixed.txt"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 9, "{out}");
    let words: Vec<&str> = lines
        .iter()
        .map(|l| if l.len() == 81 { "<solution>" } else { l })
        .collect();
    assert_eq!(
        words,
        [
            "<solution>",
            "unsolvable",
            "contradiction",
            "malformed",
            "<solution>",
            "malformed",
            "<solution>",
            "<solution>",
            "<solution>",
        ]
    );
}

#[test]
fn every_solution_solves_its_puzzle() {
    for file in [
        "data/easy_300.txt",
        "data/17clue_300.txt",
        "data/hardest_300.txt",
        "data/exchange_hard_200.txt",
    ] {
        let puzzles = puzzles_of(file);
        let out = stdout_of(&["solve", "-q", file]);
        let solutions: Vec<&str> = out.lines().collect();
        assert_eq!(solutions.len(), puzzles.len(), "{file}");
        for (p, s) in puzzles.iter().zip(solutions) {
            let s: Grid = s.parse().unwrap_or_else(|e| panic!("{file}: {s}: {e}"));
            assert!(s.solves(p), "{file}: {s} does not solve {p}");
        }
    }
}

#[test]
fn reports_malformed_rows_with_file_and_line() {
    bin()
        .args(["solve", "tests/fixtures/mixed.txt"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "tests/fixtures/mixed.txt:6: found 80 cells, expected 81",
        ))
        .stderr(predicate::str::contains(
            "tests/fixtures/mixed.txt:8: invalid character 'x' at cell 11 (r2c2)",
        ));
}

#[test]
fn golden_outputs_for_every_input_and_output_format() {
    for input in ["mixed.txt", "mixed.csv", "grids.txt"] {
        for format in ["line", "csv", "jsonl", "grid"] {
            let path = format!("tests/fixtures/{input}");
            let out = bin()
                .args(["solve", "-q", "--no-timings", "-j2", "-O", format, &path])
                .output()
                .unwrap();
            assert!(out.status.success(), "{input} as {format}");
            golden(&format!("{input}.{format}"), &out.stdout);
        }
    }
}

#[test]
fn golden_outputs_with_uniqueness_check() {
    let out = bin()
        .args([
            "solve",
            "-q",
            "--unique",
            "--no-timings",
            "-O",
            "jsonl",
            "tests/fixtures/mixed.txt",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    golden("mixed.txt.unique.jsonl", &out.stdout);
}

#[test]
fn unique_flag_reports_unique_and_multiple() {
    let out = stdout_of(&["solve", "-q", "--unique", "data/serg_100.txt"]);
    assert_eq!(out.lines().count(), 100);
    assert!(
        out.lines().all(|l| l == "multiple"),
        "serg puzzles all have 2+ solutions"
    );
    let out = stdout_of(&["solve", "-q", "--unique", "data/17clue_300.txt"]);
    assert_eq!(out.lines().count(), 300);
    assert!(
        out.lines().all(|l| l.len() == 81),
        "17-clue puzzles are unique"
    );
    let out = stdout_of(&[
        "solve",
        "-q",
        "--unique",
        "-O",
        "csv",
        "data/17clue_300.txt",
    ]);
    assert_eq!(
        out.lines()
            .skip(1)
            .filter(|l| l.contains(",unique,"))
            .count(),
        300
    );
}

#[test]
fn output_is_identical_for_one_and_two_threads() {
    let run = |threads: &str| {
        stdout_of(&[
            "solve",
            "-q",
            "--unique",
            "--no-timings",
            "-O",
            "jsonl",
            "--batch-size",
            "7",
            "-j",
            threads,
            "data/hardest_300.txt",
            "tests/fixtures/mixed.txt",
            "data/17clue_300.txt",
            "data/serg_100.txt",
        ])
    };
    let one = run("1");
    assert_eq!(one.lines().count(), 300 + 9 + 300 + 100);
    assert_eq!(one, run("2"));
    assert_eq!(one, run("3"));
}

#[test]
fn stdin_and_file_give_the_same_output() {
    let from_file = stdout_of(&[
        "solve",
        "-q",
        "-O",
        "csv",
        "--no-timings",
        "tests/fixtures/mixed.csv",
    ]);
    let out = bin()
        .args(["solve", "-q", "-O", "csv", "--no-timings", "-"])
        .pipe_stdin(repo("tests/fixtures/mixed.csv"))
        .unwrap()
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), from_file);
}

#[test]
fn several_inputs_number_lines_per_file() {
    let dir = Workdir::new();
    let easy = easy_puzzles(3);
    let a = dir.write("a.txt", format!("{}\n{}\n", easy[0], easy[1]));
    let b = dir.write("b.txt", format!("# comment\n{}\nnot a puzzle\n", easy[2]));
    let out = bin()
        .args(["solve", "-O", "jsonl", "--no-timings"])
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    assert!(out.status.success());
    let lines: Vec<serde_json::Value> = jsonl(&out.stdout);
    let numbers: Vec<u64> = lines.iter().map(|v| v["line"].as_u64().unwrap()).collect();
    assert_eq!(numbers, [1, 2, 2, 3]);
    // with line numbers restarting, the file tells the records apart
    let files: Vec<&str> = lines.iter().map(|v| v["file"].as_str().unwrap()).collect();
    let (a, b) = (a.display().to_string(), b.display().to_string());
    assert_eq!(files, [&a, &a, &b, &b]);
    assert_eq!(lines[3]["status"], "malformed");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains(&format!("{}:3: ", b)), "{stderr}");
}

#[test]
fn jsonl_records_have_the_documented_keys() {
    let out = stdout_of(&["solve", "-q", "-O", "jsonl", "tests/fixtures/mixed.txt"]);
    let records: Vec<serde_json::Value> = jsonl(out.as_bytes());
    assert_eq!(records.len(), 9);
    let keys = [
        "file", "line", "puzzle", "status", "solution", "guesses", "micros",
    ];
    for (raw, r) in out.lines().zip(&records) {
        assert_eq!(r.as_object().unwrap().len(), keys.len(), "{raw}");
        // every key, in this order
        let at: Vec<usize> = keys
            .iter()
            .map(|k| raw.find(&format!("\"{k}\":")).expect(k))
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{raw}");
        assert!(r["micros"].as_f64().is_some_and(|m| m >= 0.0), "{r}");
    }
    assert_eq!(records[0]["file"], "tests/fixtures/mixed.txt");
    assert_eq!(records[0]["line"], 2);
    assert_eq!(records[0]["status"], "solved");
    assert!(records[1]["solution"].is_null());
    assert_eq!(records[2]["status"], "contradiction");
}

#[test]
fn writes_output_file_and_stats_json() {
    let dir = Workdir::new();
    let out = dir.path("out.txt");
    let stats = dir.path("stats.json");
    bin()
        .args([
            "solve",
            "-q",
            "data/hardest_300.txt",
            "tests/fixtures/mixed.txt",
            "-o",
        ])
        .arg(&out)
        .arg("--stats")
        .arg(&stats)
        .assert()
        .success()
        .stdout("");
    assert_eq!(dir.read("out.txt").lines().count(), 309);
    let s: serde_json::Value = serde_json::from_str(&dir.read("stats.json")).unwrap();
    assert_eq!(s["records"], 309);
    assert_eq!(s["statuses"]["solved"], 305);
    assert_eq!(s["statuses"]["malformed"], 2);
    assert_eq!(s["statuses"]["unsolvable"], 1);
    assert_eq!(s["statuses"]["contradiction"], 1);
    assert_eq!(s["puzzles"], 306);
    for key in ["mean", "p50", "p90", "p99", "max"] {
        assert!(
            s["micros"][key].as_f64().is_some_and(|v| v > 0.0),
            "micros.{key}: {s}"
        );
    }
    assert!(s["micros"]["p50"].as_f64() <= s["micros"]["p99"].as_f64());
    assert!(s["puzzles_per_second"].as_f64().is_some_and(|v| v > 0.0));
    assert!(
        s["guesses_per_puzzle"].as_f64().is_some_and(|v| v > 0.0),
        "hard puzzles need guesses"
    );
    assert!(
        s["no_guess_share"]
            .as_f64()
            .is_some_and(|v| (0.0..1.0).contains(&v))
    );
}

#[test]
fn summary_goes_to_stderr_unless_quiet() {
    bin()
        .args(["solve", "data/easy_300.txt"])
        .assert()
        .success()
        .stderr(predicate::str::contains("records:    300 (solved 300)"))
        .stderr(predicate::str::contains("puzzles/s"))
        .stderr(predicate::str::contains("p99"))
        .stderr(predicate::str::contains("without guessing"));
    bin()
        .args(["solve", "-q", "data/easy_300.txt"])
        .assert()
        .success()
        .stderr("");
}

#[test]
fn no_progress_bar_when_stderr_is_redirected() {
    let out = bin()
        .args(["solve", "data/hardest_300.txt"])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        !stderr.contains('\r') && !stderr.contains("ETA"),
        "{stderr}"
    );
    let out = bin()
        .args([
            "solve",
            "--progress",
            "always",
            "--batch-size",
            "10",
            "data/hardest_300.txt",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    // the bar's own message ("N records, R/s"), redrawn in place
    assert!(
        stderr.contains(" records, ") && stderr.contains("/s, ETA"),
        "{stderr}"
    );
    assert!(stderr.contains("\x1b[2K"), "{stderr}");
}

#[test]
fn the_progress_bar_knows_the_size_of_a_file_redirected_to_stdin() {
    // a percentage needs the input's size: a named file's, or stdin's when it is a file
    let args = ["solve", "--progress", "always", "--batch-size", "10", "-"];
    let path = "data/hardest_300.txt";
    let redirected = command(&args)
        .stdin(std::fs::File::open(path).unwrap())
        .output()
        .unwrap();
    let piped = bin()
        .args(args)
        .write_stdin(std::fs::read(path).unwrap())
        .output()
        .unwrap();
    // frames like `[====>     ]  42% 126 records, 48640/s, ETA 0s`, without the percentage
    // when the size is unknown
    let percentages = |stderr: &[u8]| -> Vec<u32> {
        let stderr = String::from_utf8_lossy(stderr);
        stderr
            .split("% ")
            .zip(stderr.split("% ").skip(1))
            .filter(|(_, after)| after.split(' ').nth(1) == Some("records,"))
            .filter_map(|(before, _)| before.rsplit(' ').next()?.parse().ok())
            .collect()
    };
    let known = percentages(&redirected.stderr);
    assert!(
        known.len() > 5 && known.iter().any(|&p| p >= 90),
        "{known:?}"
    );
    let stderr = String::from_utf8_lossy(&piped.stderr);
    assert!(stderr.contains(" records, "), "{stderr}");
    assert_eq!(percentages(&piped.stderr), Vec::<u32>::new(), "{stderr}");
}

#[test]
fn csv_appended_columns_do_not_clash_with_input_columns() {
    let out = stdout_of(&["solve", "-q", "data/radcliffe_100.csv"]);
    let header = out.lines().next().unwrap();
    assert_eq!(
        header,
        "puzzle,solution,clues,difficulty,level,status,solution_2,guesses,micros"
    );
    // the appended solution equals the one the dataset ships (these puzzles are unique)
    for row in out.lines().skip(1) {
        let cols: Vec<&str> = row.split(',').collect();
        assert_eq!(cols[5], "solved");
        assert_eq!(cols[1], cols[6]);
    }
    let out = stdout_of(&["solve", "-q", "data/kaggle_200.csv"]);
    assert_eq!(
        out.lines().next().unwrap(),
        "quizzes,solutions,status,solution,guesses,micros"
    );
    assert_eq!(out.lines().count(), 201);
}

#[test]
fn column_option_selects_puzzle_by_name_or_position() {
    let dir = Workdir::new();
    let easy = easy_puzzles(1);
    let p = &easy[0];
    let input = dir.write("two.csv", format!("a,b\n{p},not a puzzle\n"));
    let by_name = bin()
        .args(["solve", "-q", "-O", "line", "--column", "a"])
        .arg(&input)
        .output()
        .unwrap();
    let by_index = bin()
        .args(["solve", "-q", "-O", "line", "--column", "1"])
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(by_name.stdout.len(), 82);
    assert_eq!(by_name.stdout, by_index.stdout);
    let second = bin()
        .args(["solve", "-q", "-O", "line", "-c", "2"])
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(second.stdout, b"malformed\n");
    bin()
        .args(["solve", "-c", "0"])
        .arg(&input)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("start at 1"));
}

#[test]
fn input_format_option_overrides_detection() {
    // the Baekjoon grid read as line format: nine malformed lines, not one puzzle
    let out = stdout_of(&["solve", "-q", "-I", "line", "data/baekjoon_example1.in"]);
    assert_eq!(out, "malformed\n".repeat(9));
}

#[test]
fn empty_input_gives_empty_output() {
    bin()
        .args(["solve", "-q"])
        .write_stdin("")
        .assert()
        .success()
        .stdout("");
    bin()
        .args(["solve", "-q"])
        .write_stdin("# only a comment\n\n")
        .assert()
        .success()
        .stdout("");
}

#[test]
fn missing_input_exits_2_naming_the_file() {
    bin()
        .args(["solve", "no/such/file.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no/such/file.txt"));
}

#[test]
fn csv_without_puzzle_column_exits_2_naming_file_and_line() {
    let dir = Workdir::new();
    let input = dir.write("nocol.csv", "alpha,beta\n1,2\n");
    bin()
        .arg("solve")
        .arg(&input)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!("{}:1:", input.display())));
}

#[test]
fn usage_errors_exit_2() {
    bin().args(["solve", "--no-such-flag"]).assert().code(2);
    bin()
        .args(["solve", "-j", "0", "data/easy_300.txt"])
        .assert()
        .code(2);
    bin().args(["solve", "-O", "xml"]).assert().code(2);
    bin().assert().code(2);
}

#[test]
fn help_lists_statuses_and_exit_codes() {
    bin()
        .args(["solve", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("contradiction"))
        .stdout(predicate::str::contains("Exit status"));
}

#[test]
fn records_before_a_fatal_input_error_are_still_written() {
    let dir = Workdir::new();
    let cut = cut_kaggle_gzip(&dir, "cut.csv.gz", "quizzes,solutions");
    let out = bin()
        .args(["solve", "-q", "data/kaggle_200.csv"])
        .arg(&cut)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    // header + the 200 records of the first input + those of the second before the cut
    let lines = String::from_utf8(out.stdout).unwrap().lines().count();
    assert!((1201..10_201).contains(&lines), "{lines}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains(&format!(
            "{}: after line {}: gzip data: ",
            cut.display(),
            lines - 200
        )),
        "{stderr}"
    );
}

#[test]
fn a_later_input_of_another_format_is_refused_before_anything_is_written() {
    // found when the run reached it, after the output had been emptied and the first input's
    // records written: a failed run replaced the file with part of its output
    let dir = Workdir::new();
    let kept = dir.write("out.csv", "kept\n");
    for (first, later, found) in [
        ("data/kaggle_200.csv", "data/easy_300.txt", "line"),
        ("data/easy_300.txt", "data/kaggle_200.csv", "csv"),
    ] {
        let out = bin()
            .args(["solve", "-q", first, later, "-o"])
            .arg(&kept)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(
            stderr.contains(&format!(
                "{later}:1: detected {found} but the first input is"
            )),
            "{stderr}"
        );
        assert_eq!(dir.read("out.csv"), "kept\n");
        // the later input as standard input from the file (`- < later`): read ahead as well,
        // then put back at its start
        let out = crate::command(&["solve", "-q", first, "-", "-o"])
            .arg(&kept)
            .stdin(std::fs::File::open(repo(later)).unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{later} on stdin");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(
            stderr.contains(&format!(
                "<stdin>:1: detected {found} but the first input is"
            )),
            "{stderr}"
        );
        assert_eq!(dir.read("out.csv"), "kept\n");
    }
    // standard input from a file of the right format, read ahead, is read whole by the run
    let out = crate::command(&["solve", "-q", "data/easy_300.txt", "-", "data/easy_300.txt"])
        .stdin(std::fs::File::open(repo("data/hardest_300.txt")).unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let hardest = std::fs::read_to_string(repo("data/hardest_300.txt")).unwrap();
    let puzzles = hardest
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    let expected = 600 + puzzles.count();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().lines().count(),
        expected
    );
}

#[test]
fn directory_as_input_exits_2_with_one_message() {
    let out = bin().args(["solve", "data/"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.matches("Is a directory").count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("sudoku-batch: error: data/: "),
        "{stderr}"
    );
}

#[test]
fn refuses_to_overwrite_an_input_with_the_output() {
    let dir = Workdir::new();
    let text = std::fs::read_to_string(repo("data/easy_300.txt")).unwrap();
    let input = dir.write("in.txt", &text);
    bin()
        .args(["solve", "-q"])
        .arg(&input)
        .arg("-o")
        .arg(dir.path("./in.txt"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("the output file is the input"));
    assert_eq!(dir.read("in.txt"), text);
}

#[test]
fn zero_threads_or_batch_size_are_usage_errors() {
    for args in [["-j", "0"], ["--batch-size", "0"]] {
        bin()
            .arg("solve")
            .args(args)
            .arg("data/easy_300.txt")
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("invalid value '0'"));
    }
}

/// A negative number after an option is refused by that option; it was "unexpected argument
/// '-1'" with the tip to write `-- -1`, which makes it an input file's name.
#[test]
fn a_negative_number_is_refused_as_the_options_value() {
    let runs: [(&[&str], &str); 5] = [
        (&["generate", "-n", "-5"], "'--count <N>'"),
        (
            &["augment", "-n", "-1", "data/easy_300.txt"],
            "'--copies <N>'",
        ),
        (
            &["augment", "--seed", "-1", "data/easy_300.txt"],
            "'--seed <N>'",
        ),
        (
            &["solve", "-j", "-2", "data/easy_300.txt"],
            "'--threads <N>'",
        ),
        (
            &["bench", "--min-seconds", "-1", "data/easy_300.txt"],
            "'--min-seconds <SECS>'",
        ),
    ];
    for (args, option) in runs {
        let value = args[2];
        bin()
            .args(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(format!(
                "invalid value '{value}' for {option}"
            )));
    }
}

#[test]
fn column_option_on_line_input_is_an_error() {
    bin()
        .args(["solve", "--column", "puzzle", "data/easy_300.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--column applies to CSV input only; data/easy_300.txt is line input",
        ));
}

#[test]
fn unwritable_stats_file_fails_before_any_output() {
    bin()
        .args([
            "solve",
            "data/easy_300.txt",
            "--stats",
            "no/such/dir/stats.json",
        ])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "no/such/dir/stats.json: cannot create",
        ));
}

#[test]
fn write_errors_name_the_output() {
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    bin()
        .args(["solve", "-q", "data/easy_300.txt", "-o", "/dev/full"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("writing /dev/full"));
}

#[test]
fn help_and_version_that_cannot_be_written_are_errors() {
    // clap's own exit left 0 when the help went nowhere
    for args in [&["--help"][..], &["solve", "--help"], &["--version"]] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let out = command(args).stdout(full).output().unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("writing <stdout>: No space left"),
            "{stderr}"
        );
    }
    bin().arg("--version").assert().success();
}

#[test]
fn summary_lists_statuses_in_a_fixed_order() {
    bin()
        .args(["solve", "tests/fixtures/mixed.txt"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "records:    9 (solved 5, unsolvable 1, contradiction 1, malformed 2)",
        ));
}

#[test]
fn broken_first_lines_are_malformed_records_not_errors() {
    let dir = Workdir::new();
    let easy = easy_puzzles(2);
    let a = dir.write("a.txt", format!("{}\n{}\n", &easy[0][..80], easy[1]));
    let b = dir.write("b.txt", format!("123456789\n{}\n", easy[0]));
    let out = bin()
        .args(["solve", "-O", "jsonl", "--no-timings"])
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let records: Vec<serde_json::Value> = jsonl(&out.stdout);
    let got: Vec<(u64, &str)> = records
        .iter()
        .map(|r| (r["line"].as_u64().unwrap(), r["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        got,
        [
            (1, "malformed"),
            (2, "solved"),
            (1, "malformed"),
            (2, "solved")
        ]
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains(&format!("{}:1: found 80 cells, expected 81", a.display())),
        "{stderr}"
    );
    assert!(stderr.contains(&format!("{}:1: ", b.display())), "{stderr}");
}

#[test]
fn output_file_format_follows_its_extension_unless_o_is_given() {
    let dir = Workdir::new();
    let run = |name: &str, extra: &[&str]| {
        let path = dir.path(name);
        bin()
            .args(["solve", "-q", "--no-timings", "data/kaggle_200.csv", "-o"])
            .arg(&path)
            .args(extra)
            .assert()
            .success();
        std::fs::read_to_string(&path).unwrap()
    };
    let jsonl_text = run("out.jsonl", &[]);
    assert_eq!(jsonl(jsonl_text.as_bytes()).len(), 200);
    assert!(run("out.CSV", &[]).starts_with("quizzes,solutions,status,"));
    let line_input = dir.path("x.csv");
    bin()
        .args(["solve", "-q", "data/hardest_300.txt", "-o"])
        .arg(&line_input)
        .assert()
        .success();
    let text = std::fs::read_to_string(&line_input).unwrap();
    assert!(
        text.starts_with("puzzle,status,solution,guesses,micros\n"),
        "line input, .csv: csv"
    );
    // another extension mirrors the input; -O wins over the name
    assert!(run("out.txt", &[]).starts_with("quizzes,solutions,status,"));
    assert_eq!(
        run("lines.csv", &["-O", "line"])
            .lines()
            .next()
            .unwrap()
            .len(),
        81
    );
}

#[test]
fn semicolon_and_tab_csv_are_written_back_with_their_delimiter() {
    let dir = Workdir::new();
    let easy = easy_puzzles(2);
    for (delimiter, name) in [(';', "semi.csv"), ('\t', "tabs.tsv")] {
        let d = delimiter;
        let input = dir.write(
            name,
            format!(
                "id{d}puzzle{d}note\n1{d}{}{d}plain\n2{d}{}{d}has, comma\n",
                easy[0], easy[1]
            ),
        );
        for cmd in ["solve", "check"] {
            let out = bin()
                .args([cmd, "-q", "-O", "csv"])
                .arg(&input)
                .output()
                .unwrap();
            let text = String::from_utf8(out.stdout).unwrap();
            let header = text.lines().next().unwrap();
            let want = if cmd == "solve" {
                format!("id{d}puzzle{d}note{d}status{d}solution{d}guesses{d}micros")
            } else {
                format!("id{d}puzzle{d}note{d}verdict{d}detail{d}solution{d}redundant")
            };
            assert_eq!(header, want, "{cmd} {name}");
            let rows: Vec<&str> = text.lines().skip(1).collect();
            assert_eq!(rows.len(), 2, "{text}");
            assert!(
                rows[1].starts_with(&format!("2{d}{}{d}has, comma{d}", easy[1])),
                "{text}"
            );
            // read back with that delimiter, every row has the header's width
            let mut back = csv::ReaderBuilder::new()
                .delimiter(delimiter as u8)
                .from_reader(text.as_bytes());
            for row in back.records() {
                assert_eq!(row.unwrap().len(), 7);
            }
        }
    }
}

#[test]
fn stats_and_report_go_to_stdout_for_dash_when_stdout_is_free() {
    let dir = Workdir::new();
    let out = dir.path("out.txt");
    let stats = stdout_ok(
        bin()
            .args(["solve", "-q", "--stats", "-", "data/hardest_300.txt", "-o"])
            .arg(&out),
    );
    let stats: serde_json::Value = serde_json::from_slice(&stats).expect("JSON on stdout");
    assert_eq!(stats["records"], 300);
    assert_eq!(dir.read("out.txt").lines().count(), 300);
    let taken = bin()
        .args(["solve", "--stats", "-", "data/hardest_300.txt"])
        .output()
        .unwrap();
    assert_eq!(taken.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&taken.stderr).contains("cannot go to standard output"));

    let report = bin()
        .args(["check", "-q", "--report", "-", "--report-format", "json"])
        .arg("data/kaggle_200.csv")
        .output()
        .unwrap();
    assert_eq!(report.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&report.stdout).expect("JSON");
    assert_eq!(report["totals"]["records"], 200);
    let taken = bin()
        .args([
            "check",
            "-O",
            "jsonl",
            "--report",
            "-",
            "--report-format",
            "md",
        ])
        .arg("data/kaggle_200.csv")
        .output()
        .unwrap();
    assert_eq!(taken.status.code(), Some(2));
    assert!(!std::path::Path::new("-").exists(), "no file named -");
}
