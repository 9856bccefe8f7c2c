//! `rate`: Sudoku Explainer's ratings through the real binary, checked against `serate`'s own
//! output kept in tests/fixtures/se/ (see its README), plus the record plumbing every command
//! shares: one output record per input record in order, every format, status words, `--pipe`.

use sudoku_batch::rate::read_serate_dir;

use crate::{Workdir, bin, jsonl, repo, stdout_ok};

/// serate's ratings of the fixture puzzles: (file, puzzle, [ER, EP, ED] in tenths).
fn fixtures() -> Vec<(String, String, [u32; 3])> {
    read_serate_dir(&repo("tests/fixtures/se/out")).unwrap()
}

/// Tenths from a jsonl value written with one decimal.
fn tenths(v: &serde_json::Value) -> u32 {
    let x = v.as_f64().unwrap_or_else(|| panic!("a number: {v}"));
    (x * 10.0).round() as u32
}

/// Rates `puzzles` through the binary; their (ER, EP, ED) in tenths, in input order.
fn rated(puzzles: &[&str]) -> Vec<[u32; 3]> {
    let input: String = puzzles.iter().map(|p| format!("{p}\n")).collect();
    let out = stdout_ok(
        bin()
            .args(["rate", "-q", "-O", "jsonl", "-"])
            .write_stdin(input),
    );
    jsonl(&out)
        .iter()
        .map(|r| {
            assert_eq!(r["status"], "unique", "{r}");
            [tenths(&r["er"]), tenths(&r["ep"]), tenths(&r["ed"])]
        })
        .collect()
}

#[test]
fn ratings_below_six_and_a_half_are_serates_own() {
    // every 12th fixture puzzle serate rates below 6.5, from every corpus and transformed copy
    let all = fixtures();
    let easy: Vec<&(String, String, [u32; 3])> =
        all.iter().filter(|f| f.2[0] < 65).step_by(12).collect();
    assert!(easy.len() > 100, "{}", easy.len());
    let puzzles: Vec<&str> = easy.iter().map(|f| f.1.as_str()).collect();
    for (got, (file, puzzle, want)) in rated(&puzzles).iter().zip(easy) {
        assert_eq!(got, want, "{file} {puzzle}");
    }
}

#[test]
fn chain_ratings_are_serates_own() {
    // a few puzzles of each chain band up to 8.x: cycles and X/XY forcing chains (6.5-7.4) and
    // multiple / dynamic forcing chains; the slower ones stay in the opt-in fixture test
    let all = fixtures();
    let mut picked: Vec<&(String, String, [u32; 3])> = Vec::new();
    for band in [65..70, 70..75, 75..80, 80..85] {
        picked.extend(all.iter().filter(|f| band.contains(&f.2[0])).take(2));
    }
    let puzzles: Vec<&str> = picked.iter().map(|f| f.1.as_str()).collect();
    for (got, (file, puzzle, want)) in rated(&puzzles).iter().zip(picked) {
        assert_eq!(got, want, "{file} {puzzle}");
    }
}

const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

/// Records of every kind: rated, malformed, two solutions, a clash, no solution.
fn mixed() -> (String, Vec<&'static str>) {
    let clash = format!("11{}", &EASY[2..]);
    // the easy puzzle with one given changed so that no solution fits: r1c3 3 -> 4 leaves
    // givens consistent (4 is not in row 1, column 3 or block 1) but unsolvable
    let unsolvable = format!("..4{}", &EASY[3..]);
    let text = format!(
        "{EASY}\nnot a puzzle\n{}\n{clash}\n{unsolvable}\n{EASY}\n",
        ".".repeat(81)
    );
    (
        text,
        vec![
            "unique",
            "malformed",
            "multiple",
            "contradiction",
            "unsolvable",
            "unique",
        ],
    )
}

#[test]
fn every_record_gets_its_status_in_order_in_every_format() {
    let (text, statuses) = mixed();
    let dir = Workdir::new();
    let input = dir.write("in.txt", &text);
    let input = input.to_str().unwrap();
    let one = stdout_ok(bin().args(["rate", "-q", "-j1", "--batch-size", "2", input]));
    let two = stdout_ok(bin().args(["rate", "-q", "-j2", "--batch-size", "3", input]));
    assert_eq!(one, two, "byte-identical for any -j");
    let lines: Vec<&str> = std::str::from_utf8(&one).unwrap().lines().collect();
    assert_eq!(lines.len(), statuses.len());
    for (line, status) in lines.iter().zip(&statuses) {
        if *status == "unique" {
            let fields: Vec<&str> = line.splitn(4, ' ').collect();
            assert_eq!(fields.len(), 4, "{line}");
            for v in &fields[..3] {
                assert!(v.parse::<f64>().is_ok(), "{line}");
            }
        } else {
            assert_eq!(line, status);
        }
    }
    assert_eq!(lines[0], lines[5], "the same puzzle, the same rating");

    let rows = jsonl(&stdout_ok(bin().args([
        "rate",
        "-q",
        "-O",
        "jsonl",
        "--no-timings",
        input,
    ])));
    let got: Vec<&str> = rows.iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(got, statuses);
    assert_eq!(rows[0]["line"], 1);
    assert_eq!(rows[0]["micros"], serde_json::Value::Null);
    assert!(rows[0]["hardest"].is_string());
    for r in &rows[1..5] {
        assert!(
            r["er"].is_null() && r["ep"].is_null() && r["ed"].is_null(),
            "{r}"
        );
    }

    let csv = String::from_utf8(stdout_ok(bin().args([
        "rate",
        "-q",
        "-O",
        "csv",
        "--no-timings",
        input,
    ])))
    .unwrap();
    let mut csv_lines = csv.lines();
    assert_eq!(
        csv_lines.next(),
        Some("puzzle,status,er,ep,ed,hardest,micros")
    );
    assert_eq!(csv_lines.count(), statuses.len());

    let grid =
        String::from_utf8(stdout_ok(bin().args(["rate", "-q", "-O", "grid", input]))).unwrap();
    assert!(grid.starts_with("# "), "{grid}");
    assert_eq!(
        grid.lines().nth(1).map(str::len),
        Some(17),
        "a row of 9 digits: {grid}"
    );
    assert!(grid.contains("\nmultiple\n"), "{grid}");
}

#[test]
fn csv_input_keeps_its_columns_and_gets_the_ratings() {
    let out = String::from_utf8(stdout_ok(bin().args([
        "rate",
        "-q",
        "--no-timings",
        // a low bound keeps it quick: the columns are what is checked here
        "--max-er",
        "3.0",
        "data/radcliffe_100.csv",
    ])))
    .unwrap();
    let mut lines = out.lines();
    assert_eq!(
        lines.next(),
        Some("puzzle,solution,clues,difficulty,level,status,er,ep,ed,hardest,micros")
    );
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 103);
    assert!(rows.iter().all(|r| r.contains(",unique,")), "{out}");
}

#[test]
fn the_summary_names_the_rater_and_counts_the_bands() {
    let (text, _) = mixed();
    let out = bin()
        .args(["rate", "-"])
        .write_stdin(text)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("rate: 6 records, 1 malformed"), "{stderr}");
    assert!(
        stderr.contains("rated:      2 (ER below 6.5: 2"),
        "{stderr}"
    );
    assert!(
        stderr.contains("no rating:  multiple 1, unsolvable 1, contradiction 1, malformed 1"),
        "{stderr}"
    );
    assert!(
        stderr.contains("rater:      Sudoku Explainer 2022.3.24"),
        "{stderr}"
    );
    assert!(
        stderr.contains("<stdin>:2: "),
        "the malformed record's reason: {stderr}"
    );
    let quiet = bin()
        .args(["rate", "-q", "-"])
        .write_stdin(mixed().0)
        .output()
        .unwrap();
    assert!(
        quiet.stderr.starts_with(b"<stdin>:2: "),
        "only the record's reason"
    );
    assert!(!String::from_utf8_lossy(&quiet.stderr).contains("rater:"));
}

#[test]
fn max_er_stops_above_the_bound_and_says_so() {
    // serate: 6.6/1.2/1.2 (a turbot fish after singles, pairs and pointing)
    let puzzle =
        "12.74.6.94..8......89..3.1....4.2..1..........4.6..9..3...2...62....6.....8...4..";
    let input = format!("{puzzle}\n{EASY}\n");
    let rows = jsonl(&stdout_ok(
        bin()
            .args(["rate", "-q", "-O", "jsonl", "--max-er", "3.0", "-"])
            .write_stdin(input.clone()),
    ));
    assert_eq!(rows[0]["er"], ">3.0");
    assert_eq!((tenths(&rows[0]["ep"]), tenths(&rows[0]["ed"])), (12, 12));
    assert_eq!(rows[0]["hardest"], serde_json::Value::Null);
    // below the bound, the rating is exact
    let full = jsonl(&stdout_ok(
        bin()
            .args(["rate", "-q", "-O", "jsonl", "-"])
            .write_stdin(input),
    ));
    assert_eq!(tenths(&full[0]["er"]), 66);
    assert!(tenths(&full[1]["er"]) <= 30);
    assert_eq!(rows[1]["er"], full[1]["er"]);
    let line = String::from_utf8(stdout_ok(
        bin()
            .args(["rate", "-q", "--max-er", "3", "-"])
            .write_stdin(format!("{puzzle}\n")),
    ))
    .unwrap();
    assert_eq!(line, ">3.0 1.2 1.2\n");
    // a bound that is not a rating is a usage error
    for bad in ["7.25", "21", "x", "-1"] {
        bin().args(["rate", "--max-er", bad, "-"]).assert().code(2);
    }
}

#[test]
fn explain_lists_each_step_in_text_and_jsonl() {
    let text = String::from_utf8(stdout_ok(
        bin()
            .args(["rate", "-q", "--explain", "-"])
            .write_stdin(format!("{EASY}\n")),
    ))
    .unwrap();
    let mut lines = text.lines();
    let head = lines.next().unwrap();
    let steps: Vec<&str> = lines.collect();
    let blanks = EASY.bytes().filter(|&b| b == b'.').count();
    assert!(steps.len() >= blanks, "{text}");
    assert!(steps.iter().all(|s| s.starts_with("  ")), "{text}");
    let placed = steps.iter().filter(|s| s.contains('=')).count();
    assert_eq!(placed, blanks, "each blank cell placed once: {text}");
    // the record's ER is its hardest step
    let er = head.split(' ').next().unwrap();
    assert!(
        steps.iter().any(|s| s.trim_start().starts_with(er)),
        "{text}"
    );

    let rows = jsonl(&stdout_ok(
        bin()
            .args(["rate", "-q", "--explain", "-O", "jsonl", "-"])
            .write_stdin(format!("{EASY}\n")),
    ));
    assert_eq!(rows.len(), 1 + steps.len());
    assert_eq!(rows[1]["step"], 1);
    assert!(rows[1]["technique"].is_string());
    assert!(rows.iter().skip(1).all(|r| r["removed"].is_array()));

    for bad in [&["-O", "csv"][..], &["-O", "grid"], &["--pipe"]] {
        let out = bin()
            .args(["rate", "--explain"])
            .args(bad)
            .arg("-")
            .write_stdin(format!("{EASY}\n"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--explain"));
    }
}

#[test]
fn pipe_gives_one_line_per_input_line_with_the_reason() {
    let input = format!("k1 {EASY}\n\n# note\nk4 {}\n", ".".repeat(81));
    let out = bin()
        .args([
            "rate",
            "--pipe",
            "--echo",
            "1",
            "-O",
            "jsonl",
            "--no-timings",
        ])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = jsonl(&out.stdout);
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0]["field1"], "k1");
    assert_eq!(rows[0]["status"], "unique");
    assert_eq!(rows[1]["reason"], "blank line");
    assert_eq!(rows[2]["reason"], "comment line");
    assert_eq!(rows[3]["status"], "multiple");
    assert_eq!(rows[3]["reason"], serde_json::Value::Null);
}

/// Starts `args` on `text` repeated `repeat` times, sends SIGINT `after` the run is under way,
/// and checks that it stops `within` that, leaving whole records in input order and a summary
/// that says where they end. Returns the records written.
#[cfg(target_os = "linux")]
fn interrupted_rating(
    args: &[&str],
    text: &str,
    repeat: usize,
    after: std::time::Duration,
    within: std::time::Duration,
) -> usize {
    use crate::signals::{send, spawn_reading, wait_for_handler};
    use std::time::Instant;

    let dir = Workdir::new();
    let input = dir.write("many.txt", text.repeat(repeat));
    let name = input.to_str().unwrap().to_string();
    let (mut child, reading) = spawn_reading(crate::command(args).arg(&input));
    wait_for_handler(&child, libc::SIGINT);
    std::thread::sleep(after);
    let start = Instant::now();
    send(&child, libc::SIGINT);
    let status = child.wait().unwrap();
    let waited = start.elapsed();
    assert_eq!(status.code(), Some(130));
    assert!(waited < within, "finishing took {waited:?}");
    let out = reading.join().unwrap();
    let records = jsonl(&out);
    let puzzles: Vec<&str> = text.lines().cycle().take(records.len()).collect();
    for (i, (r, p)) in records.iter().zip(&puzzles).enumerate() {
        assert_eq!(r["line"], i + 1, "{r}");
        assert_eq!(r["puzzle"], *p, "{r}");
        assert!(r["er"].is_number(), "{r}");
    }
    let err = crate::read_all(child.stderr.take());
    let n = records.len();
    let said = if n == 0 {
        "interrupted by SIGINT: no record was written".to_string()
    } else {
        format!("interrupted by SIGINT: the output ends with the record at {name}:{n}")
    };
    assert!(err.contains(&said), "{err}");
    n
}

#[test]
#[cfg(target_os = "linux")]
fn ctrl_c_stops_soon_leaving_whole_records_in_order() {
    use std::time::Duration;
    // a rating takes 0.15 ms on these puzzles (a debug build, about 5 ms): the batches in
    // flight must be small enough to end soon (with 2048 records a batch, as solve's, that
    // took a minute here)
    let text = std::fs::read_to_string(repo("tests/fixtures/se/in/exchange_hard.txt")).unwrap();
    let args = ["rate", "-j2", "-O", "jsonl"];
    interrupted_rating(
        &args,
        &text,
        50,
        Duration::from_millis(500),
        Duration::from_secs(10),
    );
}

/// On the hardest puzzles a rating takes most of a second in a release build and several
/// seconds in a debug one: a run must stop within the ratings under way, not after the batches
/// in flight (6 batches of 16 such records took most of a minute in a release build before
/// records not yet begun were left out, and would take minutes here).
#[cfg(target_os = "linux")]
fn ctrl_c_on_the_hardest(args: &[&str]) {
    use std::time::Duration;
    let text = std::fs::read_to_string(repo("data/hardest_300.txt")).unwrap();
    let n = interrupted_rating(
        args,
        &text,
        1,
        Duration::from_millis(300),
        Duration::from_secs(60),
    );
    assert!(n < 30, "{n} records");
}

#[test]
#[cfg(target_os = "linux")]
fn ctrl_c_on_the_hardest_puzzles_stops_within_a_rating() {
    ctrl_c_on_the_hardest(&["rate", "-j2", "-O", "jsonl"]);
}

#[test]
#[cfg(target_os = "linux")]
fn check_rate_on_the_hardest_puzzles_stops_within_a_rating() {
    ctrl_c_on_the_hardest(&["check", "--rate", "-j2", "-O", "jsonl"]);
}

#[test]
fn max_er_below_nested_chains_stops_before_trying_them() {
    // serate rates this one 11.1/11.1/2.6 (tests/fixtures/se/out/hardest11.txt): its path needs
    // nested forcing chains (minutes of work); below 9.5 the rater stops before trying them
    let puzzle =
        "98.7..6..7..5.......4.8..7.4...9..3..98...2....3..1....4..3..9......5..6.....21..";
    let want = fixtures()
        .into_iter()
        .find(|f| f.1 == puzzle)
        .expect("the puzzle is a fixture")
        .2;
    assert!(want[0] >= 95, "{want:?}");
    let rows = jsonl(&stdout_ok(
        bin()
            .args(["rate", "-q", "-O", "jsonl", "--max-er", "9.4", "-"])
            .write_stdin(format!("{puzzle}\n")),
    ));
    assert_eq!(rows[0]["status"], "unique");
    assert_eq!(rows[0]["er"], ">9.4");
    assert_eq!(rows[0]["hardest"], serde_json::Value::Null);
    // ED is the first step's, exact (serate: 2.6)
    assert_eq!(tenths(&rows[0]["ed"]), want[2]);
}

#[test]
fn stats_name_the_rater_its_settings_and_the_counts() {
    let dir = Workdir::new();
    let (text, _) = mixed();
    let input = dir.write("in.txt", text);
    let stats = dir.path("stats.json");
    let out = bin()
        .args(["rate", "-q", "--max-er", "9.9", "-o"])
        .arg(dir.path("out.txt"))
        .arg("--stats")
        .arg(&stats)
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let json: serde_json::Value = serde_json::from_str(&dir.read("stats.json")).unwrap();
    assert_eq!(json["command"], "rate");
    assert!(
        json["rater"]
            .as_str()
            .unwrap()
            .starts_with("Sudoku Explainer 2022.3.24"),
        "{json}"
    );
    assert_eq!(json["settings"]["max_er"], "9.9");
    assert_eq!(json["settings"]["explain"], false);
    assert_eq!(json["records"], 6);
    assert_eq!(json["malformed"], 1);
    assert_eq!(json["rated"], 2);
    assert_eq!(json["er_below_6_5"], 2);
    assert_eq!(
        json["no_rating"],
        serde_json::json!({"multiple": 1, "unsolvable": 1, "contradiction": 1, "malformed": 1})
    );
    assert_eq!(json["interrupted"], serde_json::Value::Null);
    // the stats file is an output like any other: never one of the inputs, never added up with
    // solve's or check's
    bin()
        .args(["rate", "-q", "-o", "/dev/null", "--stats"])
        .arg(&input)
        .arg(&input)
        .assert()
        .code(2);
    assert_eq!(dir.read("in.txt"), mixed().0);
    let merged = bin().arg("merge-stats").arg(&stats).output().unwrap();
    assert_eq!(merged.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&merged.stderr).contains("the stats of a rate run"),
        "{merged:?}"
    );
}

/// The first records of a file reach a pipe while the hard ones after them are still being
/// rated: a batch's records are rated on one thread, so a thread waiting for its batch no
/// longer takes the batches after it meanwhile (the easy records came out with the last hard
/// one; `rate --explain hardest.txt | head` wrote nothing for a minute).
#[test]
fn easy_records_reach_the_output_before_the_hard_ones_after_them_are_rated() {
    use std::io::{BufRead, BufReader};
    let dir = Workdir::new();
    let easy = std::fs::read_to_string(repo("data/easy_300.txt")).unwrap();
    let hard = std::fs::read_to_string(repo("data/hardest_300.txt")).unwrap();
    let mut text: String = easy.lines().take(16).map(|l| format!("{l}\n")).collect();
    text.extend(hard.lines().take(2).map(|l| format!("{l}\n")));
    let input = dir.write("mixed.txt", text);
    let mut child = crate::command(&["rate", "-q", "-j2"])
        .arg(&input)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    for _ in 0..16 {
        let line = lines.next().unwrap().unwrap();
        assert!(line.split(' ').nth(1) != Some("11.0"), "{line}");
    }
    // rating the 2 hard puzzles takes seconds (more in a debug build): the rest of the output
    // comes well after the easy records (it came with them, all at the end)
    let easy_out = std::time::Instant::now();
    assert_eq!(lines.count(), 2);
    let hard_after = easy_out.elapsed();
    let _ = child.wait();
    assert!(
        hard_after > std::time::Duration::from_millis(500),
        "the easy records came out only {hard_after:?} before the end"
    );
}
