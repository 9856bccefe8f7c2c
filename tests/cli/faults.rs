//! Faults around a run, through the real binary: a reader of our output that goes away, a stderr
//! that cannot be written, findings reported while the input still streams in.

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::time::Duration;

use crate::{Workdir, command, first_line_then_close, read_all, repo};

/// A line file of `n` puzzles (data/easy_300.txt over and over): large enough that its output
/// outgrows every buffer between us and a reader.
fn many_puzzles(dir: &Workdir, n: usize) -> std::path::PathBuf {
    let text = std::fs::read_to_string(repo("data/easy_300.txt")).expect("read data");
    let lines: Vec<&str> = text.lines().collect();
    let body: String = (0..n)
        .map(|i| format!("{}\n", lines[i % lines.len()]))
        .collect();
    dir.write("many.txt", body)
}

/// 20,000 puzzles in `problems.txt`, every `every`-th line (the last of each `every`) made
/// malformed by `bad`.
fn with_malformed(dir: &Workdir, every: usize, bad: impl Fn(&str) -> String) -> std::path::PathBuf {
    let text = std::fs::read_to_string(many_puzzles(dir, 20_000)).unwrap();
    let body: String = text
        .lines()
        .enumerate()
        .map(|(i, line)| match (i + 1) % every {
            0 => format!("{}\n", bad(line)),
            _ => format!("{line}\n"),
        })
        .collect();
    dir.write("problems.txt", body)
}

#[test]
fn a_reader_that_goes_away_ends_the_run_with_0_in_every_format() {
    let dir = Workdir::new();
    let input = many_puzzles(&dir, 20_000);
    let input = input.to_str().unwrap();
    let runs: [&[&str]; 8] = [
        &["solve", "-O", "line"],
        &["solve", "-O", "csv"],
        &["solve", "-O", "jsonl"],
        &["solve", "-O", "grid"],
        &["check", "-O", "jsonl"],
        &["check", "-O", "csv"],
        &["canon"],
        &["augment", "-n", "2"],
    ];
    for args in runs {
        let mut child = command(args)
            .arg(input)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // like `| head -1`: read one line, then close the pipe
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(!first.is_empty(), "{args:?}");
        let stderr = read_all(child.stderr.take());
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(0), "{args:?}: {stderr}");
        assert!(!stderr.contains("error"), "{args:?}: {stderr}");
        // the summary says the run stopped early, and why
        assert!(
            stderr.contains("interrupted by SIGPIPE"),
            "{args:?}: {stderr}"
        );
    }
}

/// Runs `args` with stderr on /dev/full; returns the exit code.
#[cfg(target_os = "linux")]
fn code_with_full_stderr(args: &[&str]) -> Option<i32> {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    command(args)
        .stdout(Stdio::null())
        .stderr(full)
        .status()
        .unwrap()
        .code()
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_stderr_keeps_the_exit_code_the_run_earned() {
    let cases: [(&[&str], i32); 6] = [
        (&["solve", "data/hardest_300.txt"], 0),
        (&["solve", "tests/fixtures/mixed.txt"], 0),
        (&["check", "data/kaggle_200.csv"], 0),
        (&["check", "tests/fixtures/check.csv"], 1),
        (&["solve", "no/such/file.txt"], 2),
        (&["check", "no/such/file.txt"], 2),
    ];
    for (args, code) in cases {
        assert_eq!(code_with_full_stderr(args), Some(code), "{args:?}");
    }
}

#[test]
fn a_closed_stderr_pipe_keeps_the_exit_code_the_run_earned() {
    let cases: [(&[&str], i32); 3] = [
        (&["solve", "tests/fixtures/mixed.txt"], 0),
        (&["check", "tests/fixtures/check.csv"], 1),
        (&["solve", "no/such/file.txt"], 2),
    ];
    for (args, code) in cases {
        let mut child = command(args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stderr.take()); // nobody reads stderr
        assert_eq!(child.wait().unwrap().code(), Some(code), "{args:?}");
    }
}

#[test]
fn check_lists_a_problem_while_the_input_still_streams_in() {
    let mut child = command(&["check", "--batch-size", "1", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let easy = std::fs::read_to_string(repo("data/easy_300.txt")).unwrap();
    let first = easy.lines().next().unwrap();
    writeln!(stdin, "{first}\n{}\n{first}", &first[..80]).unwrap();
    stdin.flush().unwrap();
    // the finding comes while stdin is still open: the run has not ended
    let (got, reading) = lines_as_they_come(child.stderr.take().unwrap());
    let first = got.recv_timeout(Duration::from_secs(60));
    drop(stdin);
    assert_eq!(
        first.as_deref(),
        Ok("<stdin>:2: malformed: found 80 cells, expected 81"),
        "listed before the input ended"
    );
    assert_eq!(child.wait().unwrap().code(), Some(1));
    reading.join().unwrap();
    let rest: Vec<String> = got.try_iter().collect();
    let rest = rest.join("\n");
    assert!(
        rest.starts_with("3 records: 2 unique, 1 malformed"),
        "{rest}"
    );
}

#[test]
fn far_too_many_threads_are_capped_with_a_warning() {
    let out = command(&["solve", "-j", "100000", "data/hardest_300.txt"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("warning: 100000 threads is far beyond the"),
        "{stderr}"
    );
    let cpus = std::thread::available_parallelism().unwrap().get();
    let ceiling = (4 * cpus).max(64);
    assert!(
        stderr.contains(&format!("on {ceiling} threads")),
        "{stderr}"
    );
    let plain = command(&["solve", "-q", "-j", "1", "data/hardest_300.txt"])
        .output()
        .unwrap();
    assert_eq!(out.stdout, plain.stdout, "the same answers");
    let quiet = command(&["check", "-q", "-j", "100000", "data/hardest_300.txt"])
        .output()
        .unwrap();
    assert!(quiet.status.success());
    assert!(quiet.stderr.is_empty(), "-q leaves the warning out");
}

#[test]
fn rayon_num_threads_is_honoured_when_j_is_not_given() {
    let summary = |env: Option<&str>, args: &[&str]| {
        let mut cmd = command(&["solve"]);
        cmd.args(args).arg("data/hardest_300.txt");
        match env {
            Some(n) => cmd.env("RAYON_NUM_THREADS", n),
            None => cmd.env_remove("RAYON_NUM_THREADS"),
        };
        let out = cmd.output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stderr).unwrap()
    };
    assert!(summary(Some("1"), &[]).contains(" on 1 thread\n"));
    assert!(summary(Some("3"), &[]).contains(" on 3 threads\n"));
    assert!(summary(Some("3"), &["-j", "2"]).contains(" on 2 threads\n"));
    let cpus = std::thread::available_parallelism().unwrap().get();
    let all = format!(" on {cpus} thread");
    assert!(summary(Some("0"), &[]).contains(&all), "0: the default");
    // not a number: the default, and said (it was ignored without a word)
    let many = summary(Some("many"), &[]);
    assert!(many.contains(&all), "not a number: the default");
    assert!(
        many.contains("warning: RAYON_NUM_THREADS=\"many\" is not a number of threads"),
        "{many}"
    );
    for quiet in [summary(Some("0"), &[]), summary(Some("many"), &["-j", "2"])] {
        assert!(!quiet.contains("warning"), "{quiet}");
    }
    assert!(summary(None, &[]).contains(&all));
}

/// Runs `cmd` with every file it writes limited to `bytes` (`ulimit -f`: a write past that
/// fails, EFBIG, as on a full disk); returns its exit code and stderr. SIGXFSZ is left as the
/// shell leaves it, to kill: the program ignores it itself (it was killed mid-record, 153).
#[cfg(target_os = "linux")]
fn run_with_file_size_limit(cmd: &mut std::process::Command, bytes: u64) -> (Option<i32>, String) {
    use std::os::unix::process::CommandExt;
    // SAFETY: between fork and exec the closure only calls `setrlimit`, which is
    // async-signal-safe, and allocates nothing.
    unsafe {
        cmd.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: bytes as libc::rlim_t,
                rlim_max: bytes as libc::rlim_t,
            };
            match libc::setrlimit(libc::RLIMIT_FSIZE, &limit) {
                0 => Ok(()),
                _ => Err(std::io::Error::last_os_error()),
            }
        });
    }
    let output = cmd.output().unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// A reader that goes away from a report or `--stats` (not the record output) is an error: the
/// run stops with its record output cut short. (It ended every command quietly with exit 0,
/// `check`'s exit 1 for problems lost too.)
#[test]
fn a_closed_pipe_on_a_side_output_is_an_error() {
    let dir = Workdir::new();
    let input = many_puzzles(&dir, 20_000);
    let out = dir.path("out.jsonl");
    let (first, code, stderr) = first_line_then_close(
        command(&[
            "check",
            "--duplicates",
            "--report",
            "-",
            "--report-format",
            "csv",
        ])
        .arg("-O")
        .arg("jsonl")
        .arg("-o")
        .arg(&out)
        .arg(&input),
    );
    assert_eq!(first, "file,line,verdict,detail,puzzle\n");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("error: writing <stdout>"), "{stderr}");
    // `--stats` on a pipe whose reader is gone at once
    let mut child = command(&[
        "check",
        "tests/fixtures/check.csv",
        "--stats",
        "/dev/stdout",
    ])
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    drop(child.stdout.take());
    let stderr = read_all(child.stderr.take());
    assert_eq!(child.wait().unwrap().code(), Some(2), "{stderr}");
    assert!(stderr.contains("error: writing /dev/stdout"), "{stderr}");
}

/// A reader that goes away from the record output ends the run with the exit status it earned,
/// and its `--stats` and report are written, saying where it stopped. (They were left empty,
/// an earlier file's content lost.)
#[test]
fn a_reader_that_goes_away_leaves_stats_and_report_that_say_so() {
    let dir = Workdir::new();
    let input = many_puzzles(&dir, 20_000);
    let stats = dir.write("stats.json", "{\"an earlier\": \"run\"}");
    let (first, code, stderr) =
        first_line_then_close(command(&["solve", "--stats"]).arg(&stats).arg(&input));
    assert!(!first.is_empty());
    assert_eq!(code, Some(0), "{stderr}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    assert_eq!(json["interrupted"]["signal"], "SIGPIPE", "{json}");
    assert!(stderr.contains("interrupted by SIGPIPE"), "{stderr}");
    // check keeps its exit 1 for problems found, and its report says it is incomplete
    let mut text = std::fs::read_to_string(&input).unwrap();
    text.insert_str(0, "1234\n");
    let input = dir.write("bad.txt", text);
    let report = dir.path("report.md");
    let svg = dir.path("report.svg");
    for path in [&report, &svg] {
        let (_, code, stderr) = first_line_then_close(
            command(&["check", "-O", "jsonl", "--stats"])
                .arg(&stats)
                .arg("--report")
                .arg(path)
                .arg(&input),
        );
        assert_eq!(code, Some(1), "{stderr}");
        // the problem that makes the exit 1 is listed, though the batch the reader left in
        // is not counted
        assert!(stderr.contains("bad.txt:1: malformed: "), "{stderr}");
        if !stderr.contains("1 problem") {
            assert!(
                stderr.contains("are not counted here, but earn exit 1"),
                "{stderr}"
            );
        }
        // the counts are of the records up to where the output is said to end, one a line
        // here (they counted the batch the reader left in too: a run resumed after that line
        // counted it twice)
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
        let end = json["interrupted"]["line"].as_u64().unwrap_or(0);
        assert_eq!(json["records"].as_u64(), Some(end), "{json}");
    }
    let md = std::fs::read_to_string(&report).unwrap();
    assert!(
        md.contains("**Incomplete:** interrupted by SIGPIPE"),
        "{md}"
    );
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(svg.contains("INCOMPLETE, the run stopped early"), "{svg}");
}

/// An output that fails part way (a full disk) leaves `--stats` saying the run stopped and
/// where its output ends, not an empty file.
#[cfg(target_os = "linux")]
#[test]
fn a_failed_output_leaves_stats_that_say_so() {
    let dir = Workdir::new();
    let input = many_puzzles(&dir, 20_000);
    let stats = dir.path("stats.json");
    let out = dir.path("out.txt");
    let (code, stderr) = run_with_file_size_limit(
        command(&["solve", "-q", "--batch-size", "64", "--stats"])
            .arg(&stats)
            .arg("-o")
            .arg(&out)
            .arg(&input),
        100_000,
    );
    assert_eq!(code, Some(2), "{stderr}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    let stop = &json["interrupted"];
    assert_eq!(stop["signal"], "error", "{json}");
    assert!(
        stop["error"].as_str().unwrap().contains("writing"),
        "{json}"
    );
    // the output holds whole records up to the line the stats name, and the stats count those
    // (they counted the batches written ahead and cut away too)
    let line = stop["line"].as_u64().unwrap();
    let written = std::fs::read_to_string(&out).unwrap();
    assert_eq!(written.lines().count() as u64, line, "{json}");
    assert!(written.ends_with('\n'));
    assert_eq!(json["records"].as_u64(), Some(line), "{json}");
}

/// Output and messages to one file (`> log 2>&1`) that fails part way: the records written are
/// whole ones, the batch that failed is cut away (the file ended with a torn record), and
/// `--stats` names the last one.
#[cfg(target_os = "linux")]
#[test]
fn a_failed_output_shared_with_stderr_holds_whole_records() {
    let dir = Workdir::new();
    let input = many_puzzles(&dir, 20_000);
    let stats = dir.path("stats.json");
    let log = dir.path("log.txt");
    let file = std::fs::File::create(&log).unwrap();
    let (code, _) = run_with_file_size_limit(
        command(&["solve", "--batch-size", "64", "--no-timings", "--stats"])
            .arg(&stats)
            .arg(&input)
            .stdout(file.try_clone().unwrap())
            .stderr(file),
        100_000,
    );
    assert_eq!(code, Some(2));
    let written = std::fs::read(&log).unwrap();
    let written = String::from_utf8_lossy(&written);
    // every line is a whole record (a solution, 81 digits) or a message (not a digit first)
    let records = written
        .lines()
        .filter(|line| line.starts_with(|c: char| c.is_ascii_digit()))
        .inspect(|line| {
            assert!(
                line.len() == 81 && line.bytes().all(|b| b.is_ascii_digit()),
                "a torn record: {line:?}"
            )
        })
        .count() as u64;
    assert!(records > 0, "{written}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    assert_eq!(
        json["interrupted"]["line"].as_u64(),
        Some(records),
        "{json}"
    );
}

/// A `--stats` file (or `merge-stats`' output) whose write fails holds nothing, not part of a
/// JSON document: a torn JSON replaced the earlier file, to be read as data.
#[cfg(target_os = "linux")]
#[test]
fn a_stats_file_that_fails_holds_no_torn_json() {
    let dir = Workdir::new();
    let stats = dir.write("stats.json", "earlier\n".repeat(1000));
    let (code, stderr) = run_with_file_size_limit(
        command(&["solve", "-q", "-o", "/dev/null", "--stats"])
            .arg(&stats)
            .arg(repo("data/hardest_300.txt")),
        2048,
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("File too large"), "{stderr}");
    assert_eq!(dir.read("stats.json"), "");
    // merge-stats: the same
    let part = dir.path("part.json");
    command(&["solve", "-q", "-o", "/dev/null", "--stats"])
        .arg(&part)
        .arg(repo("data/hardest_300.txt"))
        .output()
        .unwrap();
    let merged = dir.write("merged.json", "earlier\n".repeat(1000));
    let (code, stderr) = run_with_file_size_limit(
        command(&["merge-stats", "-q", "-o"])
            .arg(&merged)
            .arg(&part),
        1024,
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(dir.read("merged.json"), "");
}

/// A `check --report` whose write fails part way holds whole findings only, those of the
/// batches written before (it ended in part of a row, to be read as data), in every format.
#[cfg(target_os = "linux")]
#[test]
fn a_report_that_fails_ends_with_a_whole_finding() {
    let dir = Workdir::new();
    // every third line malformed: the findings outgrow the limit
    let input = with_malformed(&dir, 3, |line| format!("{}x", &line[..80]));
    for (name, row_end) in [("r.csv", "x\n"), ("r.json", "x\"}"), ("r.md", ") |\n")] {
        for threads in ["1", "2"] {
            let report = dir.write(name, "earlier\n");
            let (code, stderr) = run_with_file_size_limit(
                command(&[
                    "check",
                    "-q",
                    "-O",
                    "csv",
                    "-o",
                    "/dev/null",
                    "--batch-size",
                ])
                .args(["100", "-j", threads, "--report"])
                .arg(&report)
                .arg(&input),
                40_000,
            );
            assert_eq!(code, Some(2), "{stderr}");
            assert!(stderr.contains("File too large"), "{stderr}");
            let held = dir.read(name);
            assert!(held.len() > 10_000, "{name}: {} bytes", held.len());
            assert!(
                held.ends_with(row_end),
                "{name}: ends {:?}",
                &held[held.len() - 40..]
            );
        }
    }
}

/// `bench` reports (`--export-*`) whose write fails are left empty, as a `--stats` file is, not
/// holding part of a document in place of the earlier file.
#[cfg(target_os = "linux")]
#[test]
fn bench_files_that_fail_hold_nothing_torn() {
    let dir = Workdir::new();
    let input = many_puzzles(&dir, 3_000);
    for option in ["--export-json", "--export-svg", "--export-markdown"] {
        let out = dir.write("out.txt", "earlier\n");
        let (code, stderr) = run_with_file_size_limit(
            command(&[
                "bench",
                "-q",
                "--min-seconds",
                "0.01",
                "--rounds",
                "1",
                option,
            ])
            .arg(&out)
            .arg(&input),
            400,
        );
        assert_eq!(code, Some(2), "{option}: {stderr}");
        assert!(stderr.contains("File too large"), "{option}: {stderr}");
        assert_eq!(dir.read("out.txt"), "", "{option}");
    }
}

/// `check` whose output file fails part way counts, lists and reports the records the file
/// holds, not those of batches written ahead and cut away with it (its stats said `"records":
/// 11520` of a file of 448 lines, and its report listed findings past the file's end).
#[cfg(target_os = "linux")]
#[test]
fn check_on_a_failed_file_counts_and_reports_what_it_holds() {
    let dir = Workdir::new();
    // a malformed record every 97 lines, so that findings fall on both sides of the cut
    let input = with_malformed(&dir, 97, |_| "1234".to_string());
    let (stats, report, out) = (
        dir.path("stats.json"),
        dir.path("report.csv"),
        dir.path("out.jsonl"),
    );
    let (code, stderr) = run_with_file_size_limit(
        command(&["check", "--batch-size", "64", "--max-problems", "100000"])
            .arg("--stats")
            .arg(&stats)
            .arg("--report")
            .arg(&report)
            .arg("-o")
            .arg(&out)
            .arg(&input),
        100_000,
    );
    assert_eq!(code, Some(2), "{stderr}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    let line = json["interrupted"]["line"].as_u64().unwrap();
    let written = std::fs::read_to_string(&out).unwrap();
    let held = written.lines().count() as u64;
    assert_eq!(held, line, "{json}");
    assert!(held > 97, "the cut should fall after some findings: {held}");
    assert_eq!(json["records"].as_u64(), Some(held), "{json}");
    let malformed = held / 97;
    assert_eq!(
        json["verdicts"]["malformed"].as_u64(),
        Some(malformed),
        "{json}"
    );
    assert_eq!(json["problems"].as_u64(), Some(malformed), "{json}");
    // the report and stderr list the findings of the records the file holds, no more
    let report = std::fs::read_to_string(&report).unwrap();
    let reported: Vec<&str> = report.lines().skip(1).collect();
    assert_eq!(reported.len() as u64, malformed, "{report}");
    assert!(
        reported
            .iter()
            .all(|row| row.split(',').nth(1).unwrap().parse::<u64>().unwrap() <= line),
        "{report}"
    );
    let listed = stderr.matches(": malformed: ").count() as u64;
    assert_eq!(listed, malformed, "{stderr}");
}

/// `augment` to a file that fails part way leaves whole copies and says which is the last
/// (it left a torn record and did not say where the output ended).
#[cfg(target_os = "linux")]
#[test]
fn augment_on_a_failed_file_leaves_whole_copies() {
    let dir = Workdir::new();
    let input = many_puzzles(&dir, 5_000);
    let out = dir.path("aug.jsonl");
    let (code, stderr) = run_with_file_size_limit(
        command(&[
            "augment",
            "-q",
            "-n",
            "3",
            "--seed",
            "1",
            "--batch-size",
            "64",
            "-o",
        ])
        .arg(&out)
        .arg(&input),
        100_000,
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("the output ends with"), "{stderr}");
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(!written.is_empty() && written.ends_with('\n'));
    for line in written.lines() {
        serde_json::from_str::<serde_json::Value>(line).unwrap();
    }
}

/// Two inputs that are one pipe (`/dev/stdin` and `-`) are refused: the second read nothing.
#[cfg(target_os = "linux")]
#[test]
fn one_pipe_named_twice_is_refused() {
    let mut child = command(&["solve", "/dev/stdin", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdin.take());
    let stderr = read_all(child.stderr.take());
    assert_eq!(child.wait().unwrap().code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("are one pipe, which can be read once"),
        "{stderr}"
    );
}

/// Records reach a pipe's reader a batch at a time, while the input still streams in: `rate`'s
/// small batches waited in the output buffer for a thousand records (seconds of ratings), and a
/// reader gone (`| head`) was found only then.
#[test]
fn records_reach_a_pipe_a_batch_at_a_time() {
    let mut child = command(&["rate", "-q", "--batch-size", "1", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let easy = std::fs::read_to_string(repo("data/easy_300.txt")).unwrap();
    // three lines: the reader knows a line is whole when the next one starts
    for line in easy.lines().take(3) {
        writeln!(stdin, "{line}").unwrap();
    }
    stdin.flush().unwrap();
    let (got, reading) = lines_as_they_come(child.stdout.take().unwrap());
    // the record comes while stdin is still open: the run has not ended
    let first = got.recv_timeout(Duration::from_secs(60));
    drop(stdin);
    assert!(first.is_ok(), "no record before the input ended");
    assert_eq!(child.wait().unwrap().code(), Some(0));
    reading.join().unwrap();
}

/// The lines of `stream` as they come, read on a thread: the receiving end, and the thread.
fn lines_as_they_come(
    stream: impl std::io::Read + Send + 'static,
) -> (
    std::sync::mpsc::Receiver<String>,
    std::thread::JoinHandle<()>,
) {
    let (lines, got) = std::sync::mpsc::channel();
    let reading = std::thread::spawn(move || {
        for line in BufReader::new(stream).lines() {
            let _ = lines.send(line.unwrap());
        }
    });
    (got, reading)
}

/// Output appended to a file (`>> out.txt`) that fails part way (a full disk) is cut back to
/// whole records after what the file held, up to the line the stats name (it ended with a torn
/// record, the stats naming a line thousands of records before the file's end).
#[cfg(target_os = "linux")]
#[test]
fn an_appended_output_that_fails_is_cut_back_to_whole_records() {
    let dir = Workdir::new();
    let input = many_puzzles(&dir, 20_000);
    let stats = dir.path("stats.json");
    let out = dir.write("out.txt", "an earlier line\n");
    let appended = std::fs::OpenOptions::new().append(true).open(&out).unwrap();
    let (code, stderr) = run_with_file_size_limit(
        command(&["solve", "-q", "-j2", "--batch-size", "64", "--stats"])
            .arg(&stats)
            .arg(&input)
            .stdout(appended),
        100_000,
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("the output ends with the record at"),
        "{stderr}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    let line = json["interrupted"]["line"].as_u64().unwrap();
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(written.starts_with("an earlier line\n") && written.ends_with('\n'));
    assert_eq!(written.lines().count() as u64, 1 + line, "{json}");
}

/// `generate` whose file fails part way says it wrote the records the file holds (it counted
/// the batches written ahead and cut away: "6656 written" of a file of 6144).
#[cfg(target_os = "linux")]
#[test]
fn generate_on_a_failed_file_counts_what_the_file_holds() {
    let dir = Workdir::new();
    let out = dir.path("puzzles.txt");
    let (code, stderr) = run_with_file_size_limit(
        command(&["generate", "-n", "5000", "--seed", "1", "-j2", "-o"]).arg(&out),
        100_000,
    );
    assert_eq!(code, Some(2), "{stderr}");
    let held = std::fs::read_to_string(&out).unwrap().lines().count();
    assert!(held > 0, "{stderr}");
    assert!(
        stderr.contains(&format!(" {held} written,")),
        "{held}: {stderr}"
    );
}
