//! Ctrl-C, SIGTERM and SIGHUP through the real binary: runs stopped at random points must leave
//! an in-order prefix of whole records, finished files and a summary that says where they end.
#![cfg(target_os = "linux")]

use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::AsRawFd;
use std::process::{Child, ChildStdin, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::{Workdir, command, jsonl, read_all, repo};

/// Repetitions of data/hardest_300.txt in the input: far more than a run gets through before it
/// is stopped, up to 0.6 s after it starts (a release build solves 100 repetitions in 0.25 s).
const REPEAT: usize = if cfg!(debug_assertions) { 100 } else { 1000 };

/// Waits until `child` has its handler for `signal` in place (Linux: the caught-signals mask in
/// /proc), so that a signal sent now is the run's to handle, not the default action's.
pub(crate) fn wait_for_handler(child: &Child, signal: i32) {
    let status = format!("/proc/{}/status", child.id());
    let bit = 1u64 << (signal - 1);
    let start = Instant::now();
    loop {
        let text = std::fs::read_to_string(&status).unwrap_or_default();
        let caught = text
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .and_then(|hex| u64::from_str_radix(hex.trim(), 16).ok())
            .unwrap_or(0);
        if caught & bit != 0 {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no handler for {signal}"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
}

pub(crate) fn send(child: &Child, signal: i32) {
    // SAFETY: kill(2) with the pid of a child this test started and still holds.
    let done = unsafe { libc::kill(child.id() as libc::pid_t, signal) };
    assert_eq!(done, 0, "kill");
}

/// Starts `cmd` with stdout and stderr piped, and a thread that reads its stdout to the end.
pub(crate) fn spawn_reading(cmd: &mut std::process::Command) -> (Child, JoinHandle<Vec<u8>>) {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reading = std::thread::spawn(move || {
        let mut out = Vec::new();
        stdout.read_to_end(&mut out).unwrap();
        out
    });
    (child, reading)
}

/// A tiny seeded generator (xorshift64), so the stop points are the same on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// The answers to data/hardest_300.txt, one output line each, in `format` (`--no-timings`).
fn answers(format: &str) -> Vec<String> {
    let out = command(&[
        "solve",
        "-q",
        "--no-timings",
        "-O",
        format,
        "data/hardest_300.txt",
    ])
    .output()
    .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// The summary line of an interrupted run that wrote `records` records of `input`.
fn interrupted_line(signal: &str, input: &str, records: usize) -> String {
    match records {
        0 => format!("interrupted by {signal}: no record was written"),
        n => format!("interrupted by {signal}: the output ends with the record at {input}:{n}"),
    }
}

#[test]
fn runs_stopped_at_random_points_leave_whole_records_in_order_and_a_summary() {
    let dir = Workdir::new();
    let text = std::fs::read_to_string(repo("data/hardest_300.txt")).unwrap();
    let input = dir.write("big.txt", text.repeat(REPEAT));
    let input_name = input.to_str().unwrap().to_string();
    let line_answers = answers("line");
    let csv_answers = answers("csv");
    let mut rng = Rng(0x5EED_1234_ABCD);
    let signals = [
        (libc::SIGINT, "SIGINT", 130),
        (libc::SIGTERM, "SIGTERM", 143),
        (libc::SIGHUP, "SIGHUP", 129),
    ];
    let mut stopped_mid_run = 0;
    for run in 0..30 {
        let (signal, name, code) = signals[run % 3];
        let format = ["line", "csv", "jsonl"][(run / 3) % 3];
        let check = run % 5 == 4;
        let stats = dir.path(&format!("stats{run}.json"));
        let report = dir.path(&format!("report{run}.json"));
        // small batches: more places to stop at, and a quick finish in a debug build
        let mut cmd = if check {
            let mut c = command(&["check", "-j2", "--batch-size", "64", "-O", "jsonl"]);
            c.arg("--report").arg(&report);
            c
        } else {
            let mut c = command(&["solve", "-j2", "--batch-size", "64", "--no-timings"]);
            c.args(["-O", format, "--stats"]).arg(&stats);
            c
        };
        let (mut child, reading) = spawn_reading(cmd.arg(&input));
        wait_for_handler(&child, signal);
        std::thread::sleep(Duration::from_millis(rng.below(600)));
        send(&child, signal);
        let stderr = read_all(child.stderr.take());
        let status = child.wait().unwrap();
        let out = String::from_utf8(reading.join().unwrap()).expect("whole UTF-8 records");
        assert_eq!(status.code(), Some(code), "run {run}: {stderr}");
        assert!(
            out.is_empty() || out.ends_with('\n'),
            "run {run}: a torn last line"
        );
        let lines: Vec<&str> = out.lines().collect();
        // the records written: an in-order prefix of the answers
        let records = if check {
            let records = jsonl(out.as_bytes());
            for (i, r) in records.iter().enumerate() {
                assert_eq!(r["line"].as_u64(), Some(i as u64 + 1), "run {run}");
                assert_eq!(r["verdict"], "unique", "run {run}");
            }
            records.len()
        } else {
            match format {
                "line" => {
                    for (i, l) in lines.iter().enumerate() {
                        assert_eq!(*l, line_answers[i % 300], "run {run}, record {i}");
                    }
                    lines.len()
                }
                "csv" => {
                    assert_eq!(
                        lines.first(),
                        Some(&csv_answers[0].as_str()),
                        "run {run}: header"
                    );
                    for (i, l) in lines.iter().enumerate().skip(1) {
                        assert_eq!(*l, csv_answers[1 + (i - 1) % 300], "run {run}, row {i}");
                    }
                    lines.len().saturating_sub(1)
                }
                _ => {
                    let records = jsonl(out.as_bytes());
                    for (i, r) in records.iter().enumerate() {
                        assert_eq!(r["line"].as_u64(), Some(i as u64 + 1), "run {run}");
                        assert_eq!(
                            r["solution"].as_str(),
                            Some(line_answers[i % 300].as_str()),
                            "run {run}, record {i}"
                        );
                    }
                    records.len()
                }
            }
        };
        assert!(
            records < 300 * REPEAT,
            "run {run} finished before the signal"
        );
        stopped_mid_run += usize::from(records > 0);
        let summary = interrupted_line(name, &input_name, records);
        assert!(
            stderr.lines().any(|l| l == summary),
            "run {run}: {summary}\nin\n{stderr}"
        );
        // the files are finished, and say so too
        let file = if check { &report } else { &stats };
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(file).unwrap()).expect("whole JSON");
        let interrupted = if check {
            assert_eq!(json["totals"]["records"].as_u64(), Some(records as u64));
            &json["totals"]["interrupted"]
        } else {
            assert_eq!(json["records"].as_u64(), Some(records as u64));
            &json["interrupted"]
        };
        assert_eq!(interrupted["signal"], name, "run {run}");
        if records > 0 {
            assert_eq!(
                interrupted["line"].as_u64(),
                Some(records as u64),
                "run {run}"
            );
        }
    }
    assert!(
        stopped_mid_run >= 10,
        "only {stopped_mid_run} runs were stopped mid-way"
    );
    // merged with a run that ended, the stopped runs' stats still say the job is incomplete
    let whole = dir.path("whole.json");
    let ran = command(&["solve", "-q", "data/hardest_300.txt", "--stats"])
        .arg(&whole)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(ran.success());
    let stopped: Vec<std::path::PathBuf> = (0..30)
        .filter(|run| run % 5 != 4)
        .map(|run| dir.path(&format!("stats{run}.json")))
        .collect();
    let merged = command(&["merge-stats"])
        .arg(&whole)
        .args(&stopped)
        .output()
        .unwrap();
    assert!(merged.status.success());
    let json: serde_json::Value = serde_json::from_slice(&merged.stdout).unwrap();
    let parts = json["interrupted_parts"].as_array().unwrap();
    assert_eq!(parts.len(), stopped.len());
    assert_eq!(parts[0]["part"], stopped[0].display().to_string());
    assert_eq!(json["interrupted"]["signal"], parts[0]["signal"]);
    assert_eq!(json["interrupted"]["line"], parts[0]["line"]);
    let stderr = String::from_utf8_lossy(&merged.stderr);
    assert!(
        stderr.contains(&format!(
            "INCOMPLETE: {} of 25 parts were stopped",
            stopped.len()
        )),
        "{stderr}"
    );
}

/// Starts `cmd` (reading stdin) with every stream piped, writes the first `n` puzzles of
/// data/easy_300.txt to its stdin and leaves that open: the run then waits for more.
fn spawn_on_open_stdin(cmd: &mut std::process::Command, n: usize) -> (Child, ChildStdin) {
    let easy = std::fs::read_to_string(repo("data/easy_300.txt")).unwrap();
    let lines: Vec<&str> = easy.lines().take(n).collect();
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "{}", lines.join("\n")).unwrap();
    stdin.flush().unwrap();
    (child, stdin)
}

#[test]
fn a_run_waiting_on_an_idle_stdin_stops_at_once_with_what_it_read() {
    let (mut child, stdin) = spawn_on_open_stdin(&mut command(&["solve", "-j2", "-"]), 3);
    wait_for_handler(&child, libc::SIGINT);
    std::thread::sleep(Duration::from_millis(200));
    let start = Instant::now();
    send(&child, libc::SIGINT);
    let status = child.wait().unwrap();
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "stopped while stdin stays open"
    );
    drop(stdin);
    assert_eq!(status.code(), Some(130));
    let out = read_all(child.stdout.take());
    assert_eq!(out.lines().count(), 3, "the three records read are written");
    let err = read_all(child.stderr.take());
    assert!(
        err.contains("interrupted by SIGINT: the output ends with the record at <stdin>:3"),
        "{err}"
    );
}

/// Pipe mode writes no summary, but a signal that stops it (a run that then fails, exit 128 +
/// its number) is told in one line, where an engine keeps its program's messages; `-q` keeps
/// even that off. (It said nothing: an engine's log held no word of why the task ended.)
#[test]
fn a_signal_in_pipe_mode_is_told_in_one_line_unless_quiet() {
    for (args, name) in [
        (&["solve", "--pipe"][..], "solve"),
        (&["check", "--pipe"], "check"),
        (&["canon", "--pipe"], "canon"),
        (&["augment", "-n", "1", "--pipe"], "augment"),
        (&["solve", "--pipe", "-q"], ""),
    ] {
        let (mut child, stdin) = spawn_on_open_stdin(&mut command(args), 3);
        wait_for_handler(&child, libc::SIGTERM);
        std::thread::sleep(Duration::from_millis(200));
        send(&child, libc::SIGTERM);
        let status = child.wait().unwrap();
        drop(stdin);
        assert_eq!(status.code(), Some(143), "{args:?}");
        assert_eq!(read_all(child.stdout.take()).lines().count(), 3, "{args:?}");
        let err = read_all(child.stderr.take());
        let want = if name.is_empty() {
            String::new()
        } else {
            format!(
                "{name} --pipe: interrupted by SIGTERM: the output ends with the record at \
                 <stdin>:3\n"
            )
        };
        assert_eq!(err, want, "{args:?}");
    }
}

/// `generate` reading `--exclude -`, `--from -` or `--pattern -` from a pipe that stays open stops at the
/// first signal, before its output is touched (it waited for the end of stdin: only a second
/// signal got out).
#[test]
fn generate_stops_at_once_while_reading_its_inputs() {
    let dir = Workdir::new();
    let out = dir.write("out.txt", "an earlier run\n");
    for option in ["--exclude", "--from", "--pattern"] {
        let (mut child, stdin) = spawn_on_open_stdin(
            command(&["generate", "-n", "5", option, "-", "-o"]).arg(&out),
            3,
        );
        wait_for_handler(&child, libc::SIGTERM);
        std::thread::sleep(Duration::from_millis(200));
        let start = Instant::now();
        send(&child, libc::SIGTERM);
        // waited for with a limit: a run that keeps waiting on stdin is killed, and fails here
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if start.elapsed() > Duration::from_secs(5) {
                let _ = child.kill();
                panic!("{option}: still running while stdin stays open");
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        drop(stdin);
        assert_eq!(status.code(), Some(143), "{option}");
        let err = read_all(child.stderr.take());
        assert!(
            err.contains("interrupted by SIGTERM while reading its inputs; nothing written"),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "an earlier run\n");
    }
}

/// `generate` stopped, or given up, before its first record leaves its output as it was: it
/// was emptied at the start (a signal while records 1..K were made for `--start K`, a first
/// record past `--max-tries`: an earlier run's file lost, a CSV file left with a header).
#[test]
fn generate_stopped_before_its_first_record_leaves_the_output_as_it_was() {
    let dir = Workdir::new();
    let out = dir.write("out.txt", "an earlier run\n");
    let mut child = command(&["generate", "-n", "1", "--start", "100000000", "-o"])
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_handler(&child, libc::SIGINT);
    std::thread::sleep(Duration::from_millis(300));
    send(&child, libc::SIGINT);
    let (code, stderr) = exit_after_one_signal(&mut child, "records before --start");
    assert_eq!(code, Some(130), "{stderr}");
    assert!(
        stderr.contains("no record was written, every output as it was"),
        "{stderr}"
    );
    assert_eq!(dir.read("out.txt"), "an earlier run\n");

    // a first record that gives up: the file as it was, a new one not made
    let csv = dir.write("out.csv", "an earlier run\n");
    let new = dir.path("new.csv");
    for path in [&csv, &new] {
        let run = command(&[
            "generate",
            "-n",
            "2",
            "--clues",
            "17",
            "--max-tries",
            "20",
            "-o",
        ])
        .arg(path)
        .output()
        .unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains("record 1 gave up"), "{stderr}");
        assert!(stderr.contains("every output as it was"), "{stderr}");
    }
    assert_eq!(dir.read("out.csv"), "an earlier run\n");
    assert!(!new.exists());
    // no record asked for: the output is what an empty one is (its header)
    let run = command(&["generate", "-n", "0", "-o"])
        .arg(&csv)
        .output()
        .unwrap();
    assert!(run.status.success());
    assert_eq!(
        dir.read("out.csv"),
        "puzzle,solution,givens,guesses,record,tries\n"
    );
}

#[test]
fn a_second_signal_exits_at_once_when_finishing_hangs() {
    let dir = Workdir::new();
    let text = std::fs::read_to_string(repo("data/easy_300.txt")).unwrap();
    let input = dir.write("many.txt", text.repeat(REPEAT));
    // nobody reads stdout: once the pipe is full the writer waits for ever, and so does the
    // orderly finish the first signal asks for
    let err = dir.path("err.txt");
    let mut child = command(&["solve", "-j2", "-q"])
        .arg(&input)
        .stdout(Stdio::piped())
        .stderr(Stdio::from(std::fs::File::create(&err).unwrap()))
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    wait_for_handler(&child, libc::SIGINT);
    // wait until the pipe is full (64 KiB on Linux): the writer is then blocked in write(2)
    let start = Instant::now();
    loop {
        let mut queued: libc::c_int = 0;
        // SAFETY: FIONREAD on a pipe fd we own writes one c_int.
        let done = unsafe { libc::ioctl(stdout.as_raw_fd(), libc::FIONREAD, &mut queued) };
        assert_eq!(done, 0, "ioctl");
        if queued >= 65536 {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the pipe never filled"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    send(&child, libc::SIGINT);
    std::thread::sleep(Duration::from_millis(500));
    assert!(child.try_wait().unwrap().is_none(), "still finishing");
    // a second signal of another kind: the first one's code all the same (it exited 143)
    send(&child, libc::SIGTERM);
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "the second signal did not end it"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(status.code(), Some(130));
    // what was written before the pipe filled is there for a reader
    let mut first = String::new();
    BufReader::new(stdout).read_line(&mut first).unwrap();
    assert_eq!(first.len(), 82);
    // and the stop is told (-q or not): the outputs may hold nothing
    let err = std::fs::read_to_string(&err).unwrap();
    assert!(err.contains("stopped at once by a second signal"), "{err}");
}

/// A signal ignored when the run starts stays ignored: `nohup` ignores SIGHUP so that a run
/// outlives a closed terminal, and a caught SIGHUP would stop it at logout. SIGTERM still stops
/// it the usual way.
#[test]
fn a_signal_ignored_at_start_stays_ignored() {
    use std::os::unix::process::CommandExt;
    let mut cmd = command(&["solve", "-j2", "-"]);
    // SAFETY: between fork and exec the closure only calls `signal`, which is
    // async-signal-safe (it runs after `command`'s own, which sets the default action).
    unsafe {
        cmd.pre_exec(|| {
            libc::signal(libc::SIGHUP, libc::SIG_IGN);
            Ok(())
        });
    }
    let (mut child, stdin) = spawn_on_open_stdin(&mut cmd, 2);
    wait_for_handler(&child, libc::SIGTERM);
    send(&child, libc::SIGHUP);
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        child.try_wait().unwrap().is_none(),
        "a SIGHUP ignored at start stopped the run"
    );
    send(&child, libc::SIGTERM);
    let status = child.wait().unwrap();
    drop(stdin);
    assert_eq!(status.code(), Some(143));
    assert_eq!(read_all(child.stdout.take()).lines().count(), 2);
    let err = read_all(child.stderr.take());
    assert!(
        err.contains("interrupted by SIGTERM: the output ends with the record at <stdin>:2"),
        "{err}"
    );
}

/// A signal sent twice at once (`timeout` signals the run, then its whole process group) is
/// the first one: the run finishes as it does on one, its stats written and its summary said.
/// The second copy exited at once, the stats file left empty and nothing said.
#[test]
fn the_same_signal_twice_at_once_finishes_the_run_as_one_does() {
    let dir = Workdir::new();
    let stats = dir.write("st.json", "{\"old\": 1}\n");
    let out = dir.path("out.txt");
    let mut child = command(&["rate", "-j2", "data/hardest_300.txt", "-o"])
        .arg(&out)
        .arg("--stats")
        .arg(&stats)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_handler(&child, libc::SIGTERM);
    std::thread::sleep(Duration::from_millis(300));
    send(&child, libc::SIGTERM);
    // the second after the first was handled (two signals pending at once are one), well
    // within the 0.1 s that counts as at once
    std::thread::sleep(Duration::from_millis(20));
    send(&child, libc::SIGTERM);
    let stderr = read_all(child.stderr.take());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(143), "{stderr}");
    assert!(stderr.contains("interrupted by SIGTERM"), "{stderr}");
    let json = std::fs::read_to_string(&stats).unwrap();
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["interrupted"]["signal"], "SIGTERM", "{json}");
}

/// Makes a named pipe at `path`.
fn make_fifo(path: &std::path::Path) {
    use std::os::unix::ffi::OsStrExt;
    let name = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: mkfifo(3) with a NUL-terminated path that outlives the call.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0, "mkfifo");
}

/// Waits up to 5 s for `child` to exit after one signal: its exit code and stderr.
fn exit_after_one_signal(child: &mut Child, what: &str) -> (Option<i32>, String) {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut stderr = String::new();
            let mut pipe = child.stderr.take().unwrap();
            pipe.read_to_string(&mut stderr).unwrap();
            return (status.code(), stderr);
        }
        if start.elapsed() > Duration::from_secs(5) {
            let _ = child.kill();
            panic!("one signal did not end a run waiting on {what}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A run waiting to open a named pipe (an input with no writer yet, an output with no reader
/// yet) is stopped by one signal, as a run waiting on an idle stdin is: the open waited in the
/// kernel, where the handler's flag was not seen until a second signal.
#[test]
fn one_signal_ends_a_wait_for_a_named_pipe() {
    let dir = Workdir::new();
    // an input nobody writes to: the run stops before its outputs are touched
    let input = dir.path("in.fifo");
    make_fifo(&input);
    let mut child = command(&["solve", "-j2"])
        .arg(&input)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_handler(&child, libc::SIGINT);
    std::thread::sleep(Duration::from_millis(200));
    send(&child, libc::SIGINT);
    let (code, stderr) = exit_after_one_signal(&mut child, "its input's writer");
    assert_eq!(code, Some(130));
    assert!(
        stderr.contains("interrupted by SIGINT before the first record was read"),
        "{stderr}"
    );

    // an output nobody reads: nothing written, the stats file kept as it was
    let output = dir.path("out.fifo");
    make_fifo(&output);
    let stats = dir.write("stats.json", "earlier run");
    let mut child = command(&["solve", "-j2", "data/easy_300.txt", "--stats"])
        .arg(&stats)
        .arg("-o")
        .arg(&output)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_handler(&child, libc::SIGTERM);
    std::thread::sleep(Duration::from_millis(200));
    send(&child, libc::SIGTERM);
    let (code, stderr) = exit_after_one_signal(&mut child, "its output's reader");
    assert_eq!(code, Some(143));
    assert!(
        stderr.contains("interrupted by SIGTERM while waiting for a reader of")
            && stderr.contains("nothing was written"),
        "{stderr}"
    );
    assert_eq!(dir.read("stats.json"), "earlier run");
}

/// A signal while a run waits for its first line (an idle pipe: `slow | sudoku-batch solve -o
/// out.txt`, then Ctrl-C) ends it before its outputs are emptied: an earlier run's file was
/// lost though nothing was written. The same while a CSV input's header has come and its first
/// row has not (the header is a line but not a record).
#[test]
fn a_signal_before_the_first_line_leaves_every_output_as_it_was() {
    a_signal_before_the_first_record_leaves_every_output_as_it_was("");
    a_signal_before_the_first_record_leaves_every_output_as_it_was("quizzes,solutions\n");
}

/// Runs each command on a stdin that gives `preamble` and then waits, and stops it by one signal.
fn a_signal_before_the_first_record_leaves_every_output_as_it_was(preamble: &str) {
    let dir = Workdir::new();
    let out = dir.write("out.txt", "an earlier run\n");
    let other = dir.write("other.txt", "another earlier file\n");
    let runs: [&[&str]; 6] = [
        &["solve", "-", "--stats", "OTHER", "-o", "OUT"],
        &[
            "check",
            "-",
            "-O",
            "jsonl",
            "--report-format",
            "csv",
            "--report",
            "OTHER",
            "-o",
            "OUT",
        ],
        &["canon", "-", "-o", "OUT"],
        &["rate", "-", "-o", "OUT"],
        &["augment", "-n", "1", "-", "-o", "OUT"],
        &["split", "-", "--train", "OUT", "--test", "OTHER"],
    ];
    for args in runs {
        let mut cmd = command(&[]);
        for arg in args {
            match *arg {
                "OUT" => cmd.arg(&out),
                "OTHER" => cmd.arg(&other),
                arg => cmd.arg(arg),
            };
        }
        let (mut child, mut stdin) = spawn_on_open_stdin(&mut cmd, 0);
        stdin.write_all(preamble.as_bytes()).unwrap();
        stdin.flush().unwrap();
        wait_for_handler(&child, libc::SIGINT);
        std::thread::sleep(Duration::from_millis(200));
        send(&child, libc::SIGINT);
        let (code, stderr) = exit_after_one_signal(&mut child, "its first record");
        drop(stdin);
        assert_eq!(code, Some(130), "{preamble:?} {args:?}: {stderr}");
        assert!(
            stderr.contains("interrupted by SIGINT before the first record was read"),
            "{preamble:?} {args:?}: {stderr}"
        );
        assert_eq!(
            dir.read("out.txt"),
            "an earlier run\n",
            "{preamble:?} {args:?}"
        );
        let other = dir.read("other.txt");
        assert_eq!(other, "another earlier file\n", "{preamble:?} {args:?}");
    }
}

/// `merge-stats -o FILE` stopped by Ctrl-C while it read its parts (a `-` waiting on a pipe)
/// left FILE behind, new and empty: the file is made only once there is something to write.
#[test]
fn merge_stats_stopped_while_reading_leaves_no_file() {
    let dir = Workdir::new();
    let out = dir.path("merged.json");
    let mut child = command(&["merge-stats", "-", "-o", out.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    send(&child, libc::SIGINT);
    child.wait().unwrap();
    drop(stdin);
    assert!(!out.exists(), "an empty file was left");
}

/// `merge-stats -o FILE` stopped by a signal between emptying FILE and writing it (a window of
/// microseconds, held open by hand with a delay on the `ftruncate`) lost FILE's earlier content
/// and left it empty: the signal now waits for the write, so FILE holds either what it held or
/// the whole merge, and the message says which. (A signal that came while the handlers were
/// installed, after the first and before the thread that acts on it, was lost: the run waited
/// for it for ever here, and `man --dir` ended as if none had come.)
#[test]
fn merge_stats_stopped_at_any_point_leaves_the_old_file_or_the_whole_merge() {
    let dir = Workdir::new();
    let out = dir.path("merged.json");
    let mut parts = Vec::new();
    for part in ["a.json", "b.json"] {
        let stats = dir.path(part);
        let solved = command(&["solve", "-q", "-o", "/dev/null", "--stats"])
            .arg(&stats)
            .arg(repo("data/easy_300.txt"))
            .status()
            .unwrap();
        assert!(solved.success());
        parts.push(stats.to_str().unwrap().to_string());
    }
    let merge = || {
        let mut cmd = command(&["merge-stats", "-q", &parts[0], &parts[1], "-o"]);
        cmd.arg(&out);
        cmd
    };
    assert!(merge().status().unwrap().success());
    let whole = std::fs::read_to_string(&out).unwrap();
    for i in 0..60u64 {
        std::fs::write(&out, "old\n").unwrap();
        let mut child = merge().stderr(Stdio::piped()).spawn().unwrap();
        std::thread::sleep(Duration::from_micros(100 * (i % 30)));
        send(&child, libc::SIGTERM);
        let (code, err) = exit_after_one_signal(&mut child, "its parts or its output");
        let now = std::fs::read_to_string(&out).unwrap();
        // done, stopped by the handler, or killed before the handlers were in
        assert!(matches!(code, Some(0 | 143) | None), "{code:?} {err}");
        assert!(now == "old\n" || now == whole, "run {i}: {now:?} {err}");
        if code == Some(143) {
            let said = match now == whole {
                true => "was written whole before it",
                false => "as it was",
            };
            assert!(err.contains(said), "run {i}: {err}");
        }
    }
}

/// A reader of `rate`'s output that goes away was noticed only at the next write: with hard
/// puzzles every rating in flight ran to its end first (`rate --explain hardest.txt | head`:
/// 40 s of two busy cores after `head` quit), and a run waiting on an idle stdin never noticed
/// at all. The run stops once the reader is gone, as for a signal, and says so.
#[test]
fn rate_stops_once_the_reader_of_its_output_is_gone() {
    for args in [&["rate", "-"][..], &["check", "--rate", "-O", "jsonl", "-"]] {
        let (mut child, stdin) = spawn_on_open_stdin(&mut command(args), 1);
        drop(child.stdout.take());
        let start = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break Some(status);
            }
            if start.elapsed() > Duration::from_secs(20) {
                let _ = child.kill();
                break None;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        drop(stdin);
        let err = read_all(child.stderr.take());
        let status = status.unwrap_or_else(|| panic!("{args:?}: still running: {err}"));
        assert_eq!(status.code(), Some(0), "{args:?}: {err}");
        // gone once the record was read, or before (the watch starts before the input opens)
        assert!(
            err.contains("interrupted by SIGPIPE")
                || err.contains("went away before the first record was read"),
            "{args:?}: {err}"
        );
    }
    // before the first byte of input (the watch began only once the input was open), and a
    // reader that read every record, then left, interrupted nothing (its stats said SIGPIPE)
    let dir = crate::Workdir::new();
    let stats = dir.path("s.json");
    let small: String = std::fs::read_to_string(repo("data/easy_300.txt"))
        .unwrap()
        .lines()
        .take(20)
        .map(|l| format!("{l}\n"))
        .collect();
    let small = dir.write("small.txt", small);
    for args in [&["rate"][..], &["check", "--rate", "-O", "jsonl"]] {
        let mut child = command(args)
            .args(["-q", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        drop(child.stdout.take());
        let start = Instant::now();
        while child.try_wait().unwrap().is_none() && start.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(20));
        }
        let done = child.try_wait().unwrap();
        let _ = child.kill();
        drop(stdin);
        assert_eq!(done.and_then(|s| s.code()), Some(0), "{args:?}: idle input");
        let mut child = command(args)
            .arg("--stats")
            .arg(&stats)
            .arg(&small)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // every line read, then the reader leaves (as `head -n 20`), maybe before the run ends
        let mut out = BufReader::new(child.stdout.take().unwrap());
        for _ in 0..20 {
            let mut line = String::new();
            assert!(out.read_line(&mut line).unwrap() > 0, "{args:?}");
        }
        drop(out);
        child.wait().unwrap();
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
        assert!(json["interrupted"].is_null(), "{args:?}: {json}");
    }
}

/// A reader of the output gone before the first record was read left `--stats` (and check's
/// `--report`) emptied and rewritten to say nothing was done; a signal there leaves every
/// output as it was, and so does this now. A batch written once the reader was known gone
/// was listed on stderr ("dd.txt:2: duplicate") beside "no problems".
#[test]
fn a_reader_gone_before_the_first_record_leaves_every_output_as_it_was() {
    let dir = crate::Workdir::new();
    let stats = dir.write("s.json", "old\n");
    let report = dir.write("r.json", "old\n");
    let cases: [&[&str]; 2] = [&["rate"], &["check", "--rate", "-O", "jsonl", "--report"]];
    for args in cases {
        let mut cmd = command(args);
        if args[0] == "check" {
            cmd.arg(&report);
        }
        let mut child = cmd
            .arg("--stats")
            .arg(&stats)
            .arg("-")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        drop(child.stdout.take());
        // the watch notices within its poll; then the input comes
        std::thread::sleep(Duration::from_millis(500));
        let easy = std::fs::read_to_string(repo("data/easy_300.txt")).unwrap();
        let _ = stdin.write_all(easy.as_bytes());
        drop(stdin);
        let status = child.wait().unwrap();
        let err = read_all(child.stderr.take());
        assert_eq!(status.code(), Some(0), "{args:?}: {err}");
        assert!(
            err.contains("went away before the first record was read"),
            "{err}"
        );
        assert_eq!(
            std::fs::read_to_string(&stats).unwrap(),
            "old\n",
            "{args:?}"
        );
        assert_eq!(
            std::fs::read_to_string(&report).unwrap(),
            "old\n",
            "{args:?}"
        );
    }
    // the reader goes while the first batch is rated: nothing of it is listed or earns exit 1
    // line 27 of the hardest sample: rated in about a second
    let hardest = std::fs::read_to_string(repo("data/hardest_300.txt")).unwrap();
    let first = hardest.lines().nth(26).unwrap();
    let twice = dir.write("dd.txt", format!("{first}\n{first}\n"));
    let mut child = command(&["check", "--rate", "--duplicates", "-O", "jsonl"])
        .arg(&twice)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(100));
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    let err = read_all(child.stderr.take());
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(!err.contains("dd.txt:2"), "{err}");
}
