//! Faults around a run, through the real binary: a reader of our output that goes away, a stderr
//! that cannot be written, findings reported while the input still streams in.

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::time::Duration;

use crate::{Workdir, command, read_all, repo};

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

#[test]
fn a_reader_that_goes_away_ends_the_run_with_0_in_every_format() {
    let dir = Workdir::new();
    let input = many_puzzles(&dir, 20_000);
    let input = input.to_str().unwrap();
    let runs: [&[&str]; 6] = [
        &["solve", "-O", "line"],
        &["solve", "-O", "csv"],
        &["solve", "-O", "jsonl"],
        &["solve", "-O", "grid"],
        &["check", "-O", "jsonl"],
        &["check", "-O", "csv"],
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
    let (lines, got) = std::sync::mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    let reading = std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let _ = lines.send(line.unwrap());
        }
    });
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
    assert!(
        summary(Some("many"), &[]).contains(&all),
        "not a number: the default"
    );
    assert!(summary(None, &[]).contains(&all));
}
