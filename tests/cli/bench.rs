//! `sudoku-batch bench` through the real binary, and the report exporters against golden files.
//! Runs use a tiny --min-seconds and small data/ samples; they assert on structure and answers,
//! never on timings.

use predicates::prelude::*;
use serde_json::Value;
use sudoku_batch::report::{self, Format, Report};

use crate::{Workdir, bin, golden, repo, stdout_ok};

/// Fast options: one short round.
const FAST: &[&str] = &["--min-seconds", "0.01", "--rounds", "1"];

/// Runs `bench FAST args...`, expecting success; returns stdout.
fn bench(args: &[&str]) -> String {
    String::from_utf8(stdout_ok(bin().arg("bench").args(FAST).args(args))).expect("utf-8 output")
}

/// Runs `bench` with `--export-json` into `dir` and returns the report as JSON.
fn bench_json(dir: &Workdir, args: &[&str]) -> Value {
    let path = dir.path("report.json");
    let mut all = vec!["-q", "--export-json", path.to_str().unwrap()];
    all.extend_from_slice(args);
    bench(&all);
    serde_json::from_str(&dir.read("report.json")).expect("JSON report")
}

/// FNV-1a 64 as 16 hex digits.
fn fnv1a(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

fn datasets(json: &Value) -> &Vec<Value> {
    json["datasets"].as_array().expect("datasets array")
}

#[test]
fn prints_a_markdown_row_per_dataset() {
    let out = bench(&["data/hardest_300.txt", "data/kaggle_200.csv"]);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("| dataset | puzzles | puzzles/s | µs/puzzle |"));
    assert!(lines[2].starts_with("| hardest_300.txt | 300 | "), "{out}");
    assert!(lines[3].starts_with("| kaggle_200.csv | 200 | "), "{out}");
    assert_eq!(lines[4], "");
    assert!(lines[5].starts_with("sudoku-batch "), "{out}");
    assert!(lines[5].contains("1 thread, limit 1 (first solution); best of 1 round"));
}

/// A dataset with no puzzle to time (empty, or all malformed) had a row of zeros, "0.00
/// µs/puzzle", as if the fastest of all, and nothing said why: its figures are `-`, a note
/// says so, and the chart writes "no puzzle" by it.
#[test]
fn a_dataset_with_no_puzzle_has_no_figures() {
    let dir = Workdir::new();
    let empty = dir.write("empty.txt", "");
    let broken = dir.write("broken.txt", "123\n# note\n");
    let chart = dir.path("chart.svg");
    let out = bin()
        .arg("bench")
        .args(FAST)
        .args(["-I", "line", "--export-svg", chart.to_str().unwrap()])
        .args([&empty, &broken])
        .arg(repo("data/easy_300.txt"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    let rows: Vec<&str> = stdout.lines().skip(2).take(3).collect();
    let none = "| 0 | - | - | - | - | - | - | - | - | 0 | 0 | 0 |";
    assert_eq!(rows[0], format!("| empty.txt {none} `cbf29ce484222325` |"));
    assert!(
        rows[1].starts_with(&format!("| broken.txt {none}")),
        "{stdout}"
    );
    assert!(rows[2].starts_with("| easy_300.txt | 300 | "), "{stdout}");
    assert!(!rows[2].contains(" - "), "{stdout}");
    for name in ["empty.txt", "broken.txt"] {
        assert!(
            stderr.contains(&format!("/{name}: no puzzle to time: no figures")),
            "{stderr}"
        );
    }
    assert_eq!(dir.read("chart.svg").matches("no puzzle").count(), 2);
}

#[test]
fn json_report_has_datasets_and_run_info() {
    let dir = Workdir::new();
    let json = bench_json(&dir, &["data/easy_300.txt", "data/radcliffe_100.csv"]);
    let sets = datasets(&json);
    assert_eq!(sets.len(), 2);
    for key in [
        "name",
        "puzzles",
        "puzzles_per_sec",
        "usec_per_puzzle",
        "usec_mean",
        "usec_p50",
        "usec_p99",
        "usec_max",
        "no_guess_percent",
        "guesses_per_puzzle",
        "solved",
        "unsolvable",
        "multiple",
        "checksum",
        "parse_seconds",
    ] {
        assert!(sets[0].get(key).is_some(), "missing {key}");
    }
    assert_eq!(sets[0]["name"], "easy_300.txt");
    assert_eq!(sets[0]["puzzles"], 300);
    assert_eq!(sets[0]["solved"], 300);
    assert_eq!(sets[1]["name"], "radcliffe_100.csv");
    assert!(sets[0]["puzzles_per_sec"].as_f64().unwrap() > 0.0);
    assert_eq!(sets[0]["rounds"].as_array().unwrap().len(), 1);
    let run = &json["run"];
    for key in [
        "cpu", "cores", "threads", "rustc", "profile", "tool", "commit", "date",
    ] {
        assert!(run.get(key).is_some(), "missing run.{key}");
    }
    assert_eq!(run["threads"], 1);
    assert!(run["rustc"].as_str().unwrap().starts_with("rustc "));
    // and the file reads back as a report
    let _: Report = serde_json::from_value(json).expect("a Report");
}

#[test]
fn checksum_is_fnv1a_of_solve_line_output_on_the_same_puzzles() {
    let dir = Workdir::new();
    let puzzles = dir.path("puzzles.txt");
    for (limit, unique) in [("1", None), ("2", Some("--unique"))] {
        let json = bench_json(
            &dir,
            &[
                "--limit",
                limit,
                "--shuffle",
                "5",
                "--sample",
                "40",
                "--write-puzzles",
                puzzles.to_str().unwrap(),
                "data/17clue_300.txt",
            ],
        );
        let mut solve = bin();
        solve.args(["solve", "-q", "-O", "line"]).arg(&puzzles);
        if let Some(flag) = unique {
            solve.arg(flag);
        }
        let out = solve.output().unwrap();
        assert!(out.status.success());
        assert_eq!(
            datasets(&json)[0]["checksum"],
            fnv1a(&out.stdout),
            "limit {limit}"
        );
    }
}

#[test]
fn shuffle_is_seeded_and_keeps_the_answers() {
    let dir = Workdir::new();
    let written = |seed: &str| {
        let file = dir.path(&format!("shuffled_{seed}.txt"));
        let json = bench_json(
            &dir,
            &[
                "--shuffle",
                seed,
                "--write-puzzles",
                file.to_str().unwrap(),
                "data/hardest_300.txt",
            ],
        );
        (std::fs::read_to_string(file).unwrap(), json)
    };
    let (a, json_a) = written("1");
    let (b, _) = written("1");
    let (c, json_c) = written("2");
    let original = std::fs::read_to_string(repo("data/hardest_300.txt")).unwrap();
    assert_eq!(a, b, "same seed, same puzzles");
    assert_ne!(a, c, "another seed, other puzzles");
    assert_eq!(a.lines().count(), 300);
    assert!(a.lines().all(|l| l.len() == 81));
    assert_ne!(a.lines().next(), original.lines().next());
    for (json, seed) in [(&json_a, 1), (&json_c, 2)] {
        assert_eq!(datasets(json)[0]["solved"], 300);
        assert_eq!(json["run"]["shuffle"], seed);
    }
}

#[test]
fn sample_times_a_seeded_subset_in_input_order() {
    let dir = Workdir::new();
    let subset = |seed: &str| {
        let file = dir.path("sample.txt");
        let json = bench_json(
            &dir,
            &[
                "--sample",
                "25",
                "--seed",
                seed,
                "--write-puzzles",
                file.to_str().unwrap(),
                "data/easy_300.txt",
            ],
        );
        assert_eq!(datasets(&json)[0]["puzzles"], 25);
        assert_eq!(datasets(&json)[0]["records"], 300);
        assert_eq!(json["run"]["sample"], 25);
        std::fs::read_to_string(file).unwrap()
    };
    let a = subset("3");
    assert_eq!(a, subset("3"));
    assert_ne!(a, subset("4"));
    // unshuffled: the puzzles are lines of the file, in its order
    let original: Vec<String> = std::fs::read_to_string(repo("data/easy_300.txt"))
        .unwrap()
        .lines()
        .map(|l| l[..81].replace('0', "."))
        .collect();
    let mut at = 0;
    for line in a.lines() {
        let found = original[at..].iter().position(|o| o == line);
        at += found.expect("a puzzle of the file, in order") + 1;
    }
}

#[test]
fn write_puzzles_to_a_folder_gives_a_file_per_dataset() {
    let dir = Workdir::new();
    let folder = dir.path("out");
    std::fs::create_dir(&folder).unwrap();
    bench(&[
        "-q",
        "--write-puzzles",
        folder.to_str().unwrap(),
        "data/serg_100.txt",
        "data/kaggle_200.csv",
    ]);
    let count = |name: &str| {
        let text = std::fs::read_to_string(folder.join(name)).unwrap();
        assert!(text.lines().all(|l| l.len() == 81), "{name}");
        text.lines().count()
    };
    assert_eq!(count("serg_100.txt.txt"), 100);
    assert_eq!(count("kaggle_200.csv.txt"), 200);
    // two datasets of one name cannot share the folder: refused before the first is timed and
    // written (it was written over, then the second failed)
    std::fs::write(folder.join("serg_100.txt.txt"), "kept\n").unwrap();
    bin()
        .arg("bench")
        .args(FAST)
        .arg("--write-puzzles")
        .arg(&folder)
        .args(["data/serg_100.txt", "./data/serg_100.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "would both write serg_100.txt.txt",
        ));
    assert_eq!(
        std::fs::read_to_string(folder.join("serg_100.txt.txt")).unwrap(),
        "kept\n"
    );
}

#[test]
fn two_threads_give_the_same_answers_as_one() {
    let dir = Workdir::new();
    let one = bench_json(&dir, &["data/hardest_300.txt"]);
    let two = bench_json(&dir, &["-j", "2", "data/hardest_300.txt"]);
    assert_eq!(two["run"]["threads"], 2);
    assert_eq!(datasets(&one)[0]["checksum"], datasets(&two)[0]["checksum"]);
    assert_eq!(datasets(&two)[0]["solved"], 300);
}

#[test]
fn limit_two_counts_puzzles_with_several_solutions() {
    let dir = Workdir::new();
    let unique =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    let open = format!("{}{}", &unique[..72], ".".repeat(9));
    let file = dir.write("two.txt", format!("{unique}\n{open}\n"));
    let path = file.display().to_string();
    // limit 1 stops at the first solution, so the open puzzle counts as solved
    for (limit, solved, multiple) in [("2", 1, 1), ("1", 2, 0)] {
        let json = bench_json(&dir, &["--limit", limit, &path]);
        let set = &datasets(&json)[0];
        assert_eq!(
            (set["solved"].as_u64(), set["multiple"].as_u64()),
            (Some(solved), Some(multiple)),
            "limit {limit}"
        );
        assert_eq!(json["run"]["limit"].to_string(), limit);
    }
}

#[test]
fn malformed_records_are_named_and_skipped() {
    bin()
        .arg("bench")
        .args(FAST)
        .arg("tests/fixtures/mixed.txt")
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "tests/fixtures/mixed.txt:6: found 80 cells, expected 81 (skipped)",
        ))
        .stdout(predicate::str::contains("2 malformed records skipped."))
        .stdout(predicate::str::contains("| contradiction |"));
}

#[test]
fn exports_every_format_and_the_markdown_file_is_the_table() {
    let dir = Workdir::new();
    let path = |name: &str| dir.path(name).display().to_string();
    let stdout = bench(&[
        "--export-markdown",
        &path("r.md"),
        "--export-csv",
        &path("r.csv"),
        "--export-json",
        &path("r.json"),
        "--export-svg",
        &path("r.svg"),
        "data/serg_100.txt",
        "data/exchange_hard_200.txt",
    ]);
    assert_eq!(dir.read("r.md"), stdout);
    let csv = dir.read("r.csv");
    let mut rows = csv.lines();
    assert!(
        rows.next()
            .unwrap()
            .starts_with("name,path,records,malformed,puzzles,")
    );
    assert!(
        rows.next()
            .unwrap()
            .starts_with("serg_100.txt,data/serg_100.txt,")
    );
    assert!(rows.next().unwrap().starts_with("exchange_hard_200.txt,"));
    assert!(rows.next().is_none());
    let svg = dir.read("r.svg");
    assert!(svg.starts_with("<svg") && svg.contains("exchange_hard_200.txt"));
    let json: Value = serde_json::from_str(&dir.read("r.json")).unwrap();
    assert_eq!(datasets(&json).len(), 2);
}

#[test]
fn export_to_stdout_replaces_the_table() {
    // by any name of standard output (`/dev/stdout` was refused: the table already there)
    for name in ["-", "/dev/stdout", "/proc/self/fd/1"] {
        let out = bench(&["--export-csv", name, "data/serg_100.txt"]);
        assert!(out.starts_with("name,path,"), "{name}: {out}");
        assert!(!out.contains("| dataset |"), "{name}");
    }
}

#[test]
fn baseline_adds_a_ratio_per_dataset() {
    let dir = Workdir::new();
    let old = dir.path("old.json");
    bench(&[
        "-q",
        "--export-json",
        old.to_str().unwrap(),
        "data/serg_100.txt",
    ]);
    let out = bench(&[
        "--baseline",
        old.to_str().unwrap(),
        "data/serg_100.txt",
        "data/easy_300.txt",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].ends_with("| checksum | vs baseline |"), "{out}");
    let ratio: f64 = lines[2].rsplit('|').nth(1).unwrap().trim().parse().unwrap();
    assert!(ratio > 0.0);
    assert!(
        lines[3].ends_with("| - |"),
        "no baseline for easy_300.txt: {out}"
    );
}

#[test]
fn bad_baseline_fails_before_timing() {
    let dir = Workdir::new();
    let bad = dir.write("bad.json", "{\"runs\": []}");
    bin()
        .arg("bench")
        .arg("--baseline")
        .arg(&bad)
        .arg("data/serg_100.txt")
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "bad.json: not a bench JSON report",
        ));
}

#[test]
fn rejects_bad_options() {
    for args in [
        vec!["--limit", "3", "data/serg_100.txt"],
        vec!["--rounds", "0", "data/serg_100.txt"],
        vec!["--min-seconds", "-1", "data/serg_100.txt"],
        vec!["-j", "0", "data/serg_100.txt"],
        vec!["--sample", "0", "data/serg_100.txt"],
        vec![],
    ] {
        bin().arg("bench").args(&args).assert().code(2).stdout("");
    }
}

#[test]
fn a_count_option_says_what_is_wrong_with_its_value() {
    const SERG: &str = "data/serg_100.txt";
    for (args, says) in [
        (
            ["bench", "--rounds", "0", SERG],
            "'--rounds <N>': must be at least 1",
        ),
        // each round is a pass at least: 4294967295 was taken, years that printed nothing
        (
            ["bench", "--rounds", "4294967295", SERG],
            "'--rounds <N>': 4294967295 is too many: at most 1000 rounds",
        ),
        (
            ["bench", "--sample", "0", SERG],
            "'--sample <N>': must be at least 1",
        ),
        (
            ["solve", "-j", "0", SERG],
            "'--threads <N>': must be at least 1",
        ),
        (
            ["check", "-j", "99999999999999999999", SERG],
            "99999999999999999999 is too large",
        ),
        (
            ["generate", "-j", "two", "-n1"],
            "expected a whole number of at least 1",
        ),
        (
            ["generate", "--guesses", "50..99999999999999999999", "-n1"],
            "99999999999999999999 is too large",
        ),
    ] {
        bin()
            .args(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(says));
    }
}

#[test]
fn missing_input_is_an_error_naming_it() {
    bin()
        .arg("bench")
        .args(FAST)
        .arg("data/no_such_file.txt")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("data/no_such_file.txt"));
}

#[test]
fn reads_a_dataset_from_stdin_and_csv_by_column() {
    let out = bin()
        .arg("bench")
        .args(FAST)
        .arg("-")
        .pipe_stdin(repo("data/serg_100.txt"))
        .unwrap()
        .output()
        .unwrap();
    assert!(out.status.success());
    // `<` as an entity: a Markdown renderer takes a bare `<stdin>` for an HTML tag and hides it
    assert!(String::from_utf8_lossy(&out.stdout).contains("| &lt;stdin> | 100 |"));
    let out = bench(&["-c", "1", "data/kaggle_200.csv"]);
    assert!(out.contains("| kaggle_200.csv | 200 |"), "{out}");
}

#[test]
fn reads_grids_with_an_explicit_input_format() {
    let dir = Workdir::new();
    let json = bench_json(&dir, &["-I", "grid", "tests/fixtures/grids.txt"]);
    let set = &datasets(&json)[0];
    assert_eq!(set["records"], 5);
    assert_eq!(set["malformed"], 2);
    assert_eq!(
        (set["solved"].as_u64(), set["contradiction"].as_u64()),
        (Some(2), Some(1))
    );
    // as line input the same file holds no puzzle at all
    let json = bench_json(&dir, &["-I", "line", "tests/fixtures/grids.txt"]);
    assert_eq!(datasets(&json)[0]["puzzles"], 0);
}

/// The fixed report behind the exporter goldens.
fn fixture() -> Report {
    serde_json::from_str(&std::fs::read_to_string(repo("tests/fixtures/report.json")).unwrap())
        .unwrap()
}

#[test]
fn exporters_match_their_golden_files() {
    let report = fixture();
    for (format, name) in [
        (Format::Markdown, "report.md"),
        (Format::Csv, "report.csv"),
        (Format::Json, "report.json"),
        (Format::Svg, "report.svg"),
    ] {
        let bytes = report::exporter(format).serialize(&report).unwrap();
        golden(name, &bytes);
    }
}

/// A bench stopped before its figures are in (SIGTERM here; Ctrl-C is left to its default
/// action too) leaves an earlier run's exports as they were, and writes no puzzles file.
#[test]
#[cfg(target_os = "linux")]
fn a_bench_stopped_part_way_leaves_earlier_exports_as_they_were() {
    use std::time::Duration;
    let dir = Workdir::new();
    let json = dir.write("old.json", "{\"earlier\": \"figures\"}\n");
    let csv = dir.write("old.csv", "earlier,figures\n");
    let puzzles = dir.write("puzzles.txt", "earlier lines\n");
    let input = repo("data/hardest_300.txt");
    let mut child = crate::command(&["bench", "-q", "--min-seconds", "60", "--rounds", "3"])
        .arg("--export-json")
        .arg(&json)
        .arg("--export-csv")
        .arg(&csv)
        .arg("--write-puzzles")
        .arg(&puzzles)
        .arg(&input)
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(700));
    crate::signals::send(&child, libc::SIGTERM);
    let status = child.wait().unwrap();
    assert!(!status.success(), "{status:?}");
    assert_eq!(dir.read("old.json"), "{\"earlier\": \"figures\"}\n");
    assert_eq!(dir.read("old.csv"), "earlier,figures\n");
    assert_eq!(dir.read("puzzles.txt"), "earlier lines\n");
}

/// A bench stopped before its figures are in removes the export files it made (they were left
/// empty, new files that could pass for exports), says so, and exits 128 plus the signal.
#[test]
#[cfg(target_os = "linux")]
fn a_bench_stopped_part_way_removes_the_files_it_made() {
    use std::time::Duration;
    let dir = Workdir::new();
    let input = repo("data/hardest_300.txt");
    for (signal, code) in [(libc::SIGINT, 130), (libc::SIGTERM, 143)] {
        let mut child = crate::command(&["bench", "--min-seconds", "60", "--rounds", "3"])
            .args(["--export-json", "new.json", "--export-svg", "new.svg"])
            .args(["--write-puzzles", "new.txt"])
            .arg(&input)
            .current_dir(dir.path(""))
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(700));
        crate::signals::send(&child, signal);
        let stderr = crate::read_all(child.stderr.take());
        assert_eq!(child.wait().unwrap().code(), Some(code), "{stderr}");
        assert!(stderr.contains("before its figures were in"), "{stderr}");
        for name in ["new.json", "new.svg", "new.txt"] {
            assert!(!dir.path(name).exists(), "{name} left behind");
        }
    }
}

/// The same for a `--write-puzzles` folder, when a later dataset fails to read: the first
/// dataset's file was written as it was read, over an earlier run's.
#[test]
fn a_bench_that_fails_part_way_leaves_a_puzzles_folder_as_it_was() {
    let dir = Workdir::new();
    let cut = crate::cut_kaggle_gzip(&dir, "cut.csv.gz", "quizzes,solutions");
    std::fs::create_dir(dir.path("wp")).unwrap();
    let earlier = dir.write("wp/easy_300.txt.txt", "earlier lines\n");
    let out = bin()
        .args(["bench", "-q", "--min-seconds", "0", "--rounds", "1"])
        .arg("--write-puzzles")
        .arg(dir.path("wp"))
        .arg("data/easy_300.txt")
        .arg(&cut)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cut.csv.gz"));
    assert_eq!(
        std::fs::read_to_string(&earlier).unwrap(),
        "earlier lines\n"
    );
    let names: Vec<_> = std::fs::read_dir(dir.path("wp")).unwrap().collect();
    assert_eq!(names.len(), 1, "{names:?}");
    // a run that ends writes both files
    stdout_ok(
        bin()
            .args(["bench", "-q", "--min-seconds", "0", "--rounds", "1"])
            .arg("--write-puzzles")
            .arg(dir.path("wp"))
            .args(["data/easy_300.txt", "data/serg_100.txt"]),
    );
    assert_eq!(
        std::fs::read_to_string(&earlier).unwrap().lines().count(),
        300
    );
    assert_eq!(dir.read("wp/serg_100.txt.txt").lines().count(), 100);
}

/// `--min-seconds` takes 0 to a day: `1e300` (which ran for ever), `inf`, `nan` and negative
/// values are refused before any timing.
#[test]
fn min_seconds_out_of_range_is_refused() {
    for bad in ["1e300", "86401", "inf", "nan", "-1"] {
        bin()
            .args(["bench", "-q", "--rounds", "1", "data/easy_300.txt"])
            .arg(format!("--min-seconds={bad}"))
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "expected a number of seconds from 0 to 86400 (a day)",
            ));
    }
    // -0 is 0 (it was written `-0 s` and `-0.0`)
    let out = bin()
        .args([
            "bench",
            "-q",
            "--rounds",
            "1",
            "--min-seconds=-0",
            "--export-json",
            "-",
        ])
        .arg("data/easy_300.txt")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"min_seconds\": 0.0"));
}

#[test]
fn a_baseline_of_other_work_under_the_same_name_is_named_and_not_compared() {
    let dir = Workdir::new();
    let json = dir.path("run.json");
    bin()
        .arg("bench")
        .args(FAST)
        .args(["-q", "--limit", "2", "--export-json"])
        .arg(&json)
        .arg("data/hardest_300.txt")
        .assert()
        .success();
    // the same settings: compared, nothing said
    let same = bin()
        .arg("bench")
        .args(FAST)
        .args(["--limit", "2", "--baseline"])
        .arg(&json)
        .arg("data/hardest_300.txt")
        .output()
        .unwrap();
    assert!(same.status.success());
    assert!(!String::from_utf8_lossy(&same.stderr).contains("other work"));
    // limit 1 against a limit-2 baseline: other answers, not compared, said even with -q
    let other = bin()
        .arg("bench")
        .args(FAST)
        .args(["-q", "--baseline"])
        .arg(&json)
        .arg("data/hardest_300.txt")
        .output()
        .unwrap();
    assert!(other.status.success());
    let stderr = String::from_utf8_lossy(&other.stderr);
    assert!(
        stderr.contains("timed other work under the name of hardest_300.txt"),
        "{stderr}"
    );
}

/// One export that fails (a full disk, a closed pipe) leaves the others written, not empty:
/// every output is emptied once the figures are in, and the first failure returned at once
/// left the ones after it empty, an earlier run's figures lost.
#[cfg(target_os = "linux")]
#[test]
fn an_export_that_fails_leaves_the_others_written() {
    let dir = Workdir::new();
    let json = dir.write("run.json", "an earlier run\n");
    let svg = dir.write("run.svg", "an earlier chart\n");
    let out = bin()
        .args(["bench", "-q", "data/easy_300.txt"])
        .args(FAST)
        .args(["--export-csv", "/dev/full", "--export-json"])
        .arg(&json)
        .arg("--export-svg")
        .arg(&svg)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("writing /dev/full"), "{stderr}");
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(datasets(&report).len(), 1);
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
}
