//! Output written to a file by the pool, each batch at its offset: the same bytes as written in
//! order, whatever the threads, the format or where the file stood; after a failed write (a file
//! size limit standing in for a full disk) or a signal, a prefix of whole records in order, and
//! the message says where it ends.

use std::fs::{self, File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::os::unix::process::CommandExt;
use std::process::Stdio;

use crate::{Workdir, command, repo};

/// A CSV of `rows` Kaggle-style rows (the sample's rows over and over).
fn many_rows(dir: &Workdir, rows: usize) -> std::path::PathBuf {
    let text = fs::read_to_string(repo("data/kaggle_200.csv")).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    let body: Vec<&str> = lines.collect();
    let mut out = format!("{header}\n");
    for i in 0..rows {
        out.push_str(body[i % body.len()]);
        out.push('\n');
    }
    dir.write("many.csv", out)
}

/// `args` run to completion, stdout piped: the bytes written in order.
fn piped(args: &[&str]) -> Vec<u8> {
    let out = command(args).output().unwrap();
    assert!(out.status.success(), "{args:?}");
    out.stdout
}

#[test]
fn a_file_written_by_the_pool_holds_what_a_pipe_gets_in_every_format() {
    let dir = Workdir::new();
    let input = many_rows(&dir, 9000);
    let input = input.to_str().unwrap();
    for (cmd, format) in [
        ("solve", "csv"),
        ("solve", "jsonl"),
        ("solve", "line"),
        ("solve", "grid"),
        ("check", "jsonl"),
        ("check", "csv"),
        ("canon", "csv"),
    ] {
        let mut base = vec![cmd, "-q", "-O", format, "--batch-size", "100", input];
        if cmd == "solve" {
            base.push("--no-timings");
        }
        let want = piped(&[&base[..], &["-j1"]].concat());
        for threads in ["-j1", "-j2", "-j3"] {
            let path = dir.path("out");
            let out = command(&[&base[..], &[threads, "-o", path.to_str().unwrap()]].concat())
                .output()
                .unwrap();
            assert!(matches!(out.status.code(), Some(0 | 1)), "{cmd} {format}");
            assert!(
                fs::read(&path).unwrap() == want,
                "{cmd} -O {format} {threads}"
            );
            // stdout redirected to a file is a file too
            let file = File::create(&path).unwrap();
            command(&[&base[..], &[threads]].concat())
                .stdout(file)
                .status()
                .unwrap();
            assert!(
                fs::read(&path).unwrap() == want,
                "{cmd} -O {format} {threads} >"
            );
        }
    }
}

#[test]
fn a_file_handed_over_mid_way_or_for_appending_keeps_what_it_held() {
    let dir = Workdir::new();
    let input = many_rows(&dir, 3000);
    let input = input.to_str().unwrap();
    let args = [
        "solve",
        "-q",
        "-j2",
        "--batch-size",
        "64",
        "--no-timings",
        input,
    ];
    let want = piped(&args);
    // `{ echo header; solve; echo after; } > f`: one open file, its offset shared
    let path = dir.path("shared.txt");
    let mut file = File::create(&path).unwrap();
    file.write_all(b"before\n").unwrap();
    let status = command(&args)
        .stdout(file.try_clone().unwrap())
        .status()
        .unwrap();
    assert!(status.success());
    file.write_all(b"after\n").unwrap();
    let mut expected = b"before\n".to_vec();
    expected.extend_from_slice(&want);
    expected.extend_from_slice(b"after\n");
    assert!(fs::read(&path).unwrap() == expected, "shared offset");
    // `>>`: appended after what the file held
    let path = dir.path("append.txt");
    fs::write(&path, "old\n").unwrap();
    let appended = OpenOptions::new().append(true).open(&path).unwrap();
    command(&args).stdout(appended).status().unwrap();
    let mut expected = b"old\n".to_vec();
    expected.extend_from_slice(&want);
    assert!(fs::read(&path).unwrap() == expected, ">>");
    // `-o /dev/stdout >> f` (or f's own name): standard output's file, appended to as `-o -`
    // appends (the name opened it again and emptied it: "old" lost, exit 0)
    for name in ["/dev/stdout", "/proc/self/fd/1", path.to_str().unwrap()] {
        fs::write(&path, "old\n").unwrap();
        let appended = OpenOptions::new().append(true).open(&path).unwrap();
        let status = command(&[&args[..], &["-o", name]].concat())
            .stdout(appended)
            .status()
            .unwrap();
        assert!(status.success(), "{name}");
        assert!(fs::read(&path).unwrap() == expected, ">> and -o {name}");
    }
    // `1<> f` at the start of a longer file: written over in order, the rest left
    let path = dir.path("over.txt");
    let long = vec![b'x'; want.len() + 10];
    fs::write(&path, &long).unwrap();
    let mut over = OpenOptions::new().write(true).open(&path).unwrap();
    over.seek(SeekFrom::Start(0)).unwrap();
    command(&args).stdout(over).status().unwrap();
    let got = fs::read(&path).unwrap();
    assert!(got[..want.len()] == want[..] && got[want.len()..] == long[want.len()..]);
}

/// Asserts that `cut` is a proper prefix of `full` made of whole lines.
fn assert_whole_prefix(full: &[u8], cut: &[u8]) {
    assert!(cut.len() < full.len(), "the limit stopped nothing");
    assert!(full.starts_with(cut), "not a prefix of the whole output");
    assert!(cut.is_empty() || cut.ends_with(b"\n"), "a torn record");
}

/// `cmd` set to run with every file it writes limited to `limit` bytes, stderr piped: writes
/// past it fail (EFBIG), as on a full disk.
fn limit_files(cmd: &mut std::process::Command, limit: u64) -> &mut std::process::Command {
    // SAFETY: only async-signal-safe calls (signal, setrlimit) between fork and exec
    unsafe {
        cmd.pre_exec(move || {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let rl = libc::rlimit {
                rlim_cur: limit,
                rlim_max: limit,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &rl);
            Ok(())
        });
    }
    cmd.stderr(Stdio::piped())
}

#[test]
fn a_write_that_fails_leaves_a_prefix_of_whole_records_and_says_where() {
    let dir = Workdir::new();
    let input = many_rows(&dir, 20_000);
    let input = input.to_str().unwrap();
    for format in ["csv", "line", "jsonl"] {
        let args = [
            "solve",
            "-q",
            "-j2",
            "--batch-size",
            "100",
            "--no-timings",
            "-O",
            format,
            input,
        ];
        let full = piped(&args);
        // a file size limit: writes past it fail (EFBIG), as on a full disk
        let limit = (full.len() / 3) as u64 + 7;
        let path = dir.path("cut.out");
        let mut cmd = command(&args);
        cmd.args(["-o", path.to_str().unwrap()]);
        let out = limit_files(&mut cmd, limit).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{format}: {stderr}");
        let cut = fs::read(&path).unwrap();
        assert_whole_prefix(&full, &cut);
        // the message names the last record the file holds
        let lines = cut.iter().filter(|&&b| b == b'\n').count() as u64;
        let records = match format {
            "csv" => lines.saturating_sub(1),
            _ => lines,
        };
        let ends = format!("the output ends with the record at {input}:{}", records + 1);
        assert!(
            stderr.contains(&ends),
            "{format}: want {ends:?} in {stderr}"
        );
    }
}

/// `generate`'s records are named by their number in the stream: a failed write said "the
/// output ends with the record at seed 2, record:512".
#[test]
fn a_generate_write_that_fails_names_the_last_record_by_its_number() {
    let dir = Workdir::new();
    let path = dir.path("cut.txt");
    let mut cmd = command(&["generate", "-q", "-n", "3000", "--seed", "2", "-j2"]);
    cmd.args(["-o", path.to_str().unwrap()]);
    let out = limit_files(&mut cmd, 100_000).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let held = fs::read_to_string(&path).unwrap().lines().count();
    assert!(held > 0, "{stderr}");
    let ends = format!("(the output ends with record {held} of seed 2)");
    assert!(stderr.contains(&ends), "want {ends:?} in {stderr}");
}

/// After a failed write, stderr told the reasons of malformed records in batches written ahead
/// and cut away, which the file does not hold (55 reasons beside "malformed 44"): it tells those
/// of the records the file holds, every one of them, and no other.
#[test]
fn a_write_that_fails_tells_the_reasons_of_the_records_the_file_holds_only() {
    let dir = Workdir::new();
    let easy = fs::read_to_string(repo("data/easy_300.txt")).unwrap();
    let text: String = easy
        .lines()
        .cycle()
        .take(30_000)
        .enumerate()
        .map(|(i, l)| match i % 97 {
            0 => "bad\n".to_string(),
            _ => format!("{l}\n"),
        })
        .collect();
    let input = dir.write("in.txt", &text);
    let input = input.to_str().unwrap();
    for (cmd, format) in [("solve", "line"), ("check", "jsonl"), ("canon", "line")] {
        let mut args = vec![cmd, "-j2", "--batch-size", "64", "-O", format, input];
        if cmd == "check" {
            args.extend(["--max-problems", "1000"]); // all told
        }
        // check finds problems: exit 1
        let full = command(&[&args[..], &["-q"]].concat()).output().unwrap();
        assert!(matches!(full.status.code(), Some(0 | 1)), "{cmd}");
        let full = full.stdout;
        let limit = (full.len() / 3) as u64 + 7;
        let path = dir.path("cut.out");
        let mut run = command(&args);
        run.args(["-o", path.to_str().unwrap()]);
        let out = limit_files(&mut run, limit).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{cmd}: {stderr}");
        let cut = fs::read(&path).unwrap();
        assert_whole_prefix(&full, &cut);
        // a record a line: the file holds the records of the input's first lines
        let held = cut.iter().filter(|&&b| b == b'\n').count();
        let told: Vec<usize> = stderr
            .lines()
            .filter_map(|l| l.strip_prefix(&format!("{input}:")))
            .filter_map(|l| l.split(':').next()?.parse().ok())
            .collect();
        let bad: Vec<usize> = (1..=held).filter(|line| (line - 1) % 97 == 0).collect();
        assert_eq!(told, bad, "{cmd}: {held} records held");
    }
}

/// 60,000 records, every one a finding (malformed), under a long name: a report of them grows
/// faster than `check`'s output.
fn every_record_a_finding(dir: &Workdir) -> std::path::PathBuf {
    let text: String = (0..60_000)
        .map(|i| match i % 2 {
            0 => "12x\n".to_string(),
            _ => format!("{}\n", "1".repeat(80)),
        })
        .collect();
    dir.write(&format!("{}.txt", "n".repeat(120)), &text)
}

/// A `check --report` that fails part way (a full disk) stopped the run with its counts short
/// of what `-o` held (3,396 counted, 12,987 in the file, `interrupted.line` at the file's end):
/// the batches the file held at once beside the one whose report failed were dropped
/// uncounted. The stats count exactly the records the file holds, and say where it ends.
#[test]
fn a_report_that_fails_leaves_counts_that_match_the_output() {
    let dir = Workdir::new();
    let input = every_record_a_finding(&dir);
    let input = input.to_str().unwrap();
    // the batches placed at once vary from run to run: a few runs
    for _ in 0..3 {
        let (out, report, stats) = (dir.path("out.csv"), dir.path("r.csv"), dir.path("s.json"));
        let mut cmd = command(&[
            "check",
            "-q",
            "-I",
            "line",
            "-j2",
            "--batch-size",
            "16",
            "-O",
            "csv",
            input,
        ]);
        cmd.args(["-o", out.to_str().unwrap()]);
        cmd.args(["--report", report.to_str().unwrap()]);
        cmd.args(["--stats", stats.to_str().unwrap()]);
        let run = limit_files(&mut cmd, 2_000_000).output().unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("r.csv"), "the report's error: {stderr}");
        let held = fs::read_to_string(&out).unwrap();
        let records = held.lines().count() as u64 - 1; // the header
        assert!(records > 0 && records < 60_000, "{records} records held");
        let stats: serde_json::Value = serde_json::from_slice(&fs::read(&stats).unwrap()).unwrap();
        assert_eq!(stats["records"], records, "{stats}");
        assert_eq!(stats["interrupted"]["line"], records, "{stats}");
    }
}

/// A `check --report` with no `-o`, failing part way: the report is the run's only output, so
/// the counts must end where it does. They counted the batch whose report failed too (30,188
/// records against a report and `interrupted.line` ending at 26,792), so a run resumed after
/// the stats' line counted that batch twice.
#[test]
fn a_report_that_fails_alone_leaves_counts_that_match_the_report() {
    let dir = Workdir::new();
    let input = every_record_a_finding(&dir);
    let input = input.to_str().unwrap();
    for _ in 0..3 {
        let (report, stats) = (dir.path("r.csv"), dir.path("s.json"));
        let mut cmd = command(&["check", "-q", "-I", "line", "-j2", "--batch-size", "16"]);
        cmd.arg(input);
        cmd.args(["--report", report.to_str().unwrap()]);
        cmd.args(["--stats", stats.to_str().unwrap()]);
        let run = limit_files(&mut cmd, 1_000_000).output().unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("r.csv"), "the report's error: {stderr}");
        let rows = fs::read_to_string(&report).unwrap().lines().count() as u64 - 1;
        assert!(rows > 0 && rows < 60_000, "{rows} rows");
        let stats: serde_json::Value = serde_json::from_slice(&fs::read(&stats).unwrap()).unwrap();
        assert_eq!(stats["records"], rows, "{stats}");
        assert_eq!(stats["problems"], rows, "{stats}");
        assert_eq!(stats["interrupted"]["line"], rows, "{stats}");
    }
}

/// `check -O csv --report FILE | head`: the findings of the batch being written when the
/// reader went away are not counted or reported, but they were counted among those "not
/// shown (the report lists them all)", which the report did not. The number not shown is of
/// the findings the report holds.
#[test]
fn findings_said_not_shown_are_those_the_report_holds_when_the_reader_goes_away() {
    use std::io::Read;
    let dir = Workdir::new();
    let text: String = (0..40_000).map(|i| format!("{i}x\n")).collect();
    let input = dir.write("in.txt", &text);
    let report = dir.path("r.csv");
    for cut in [200_000, 700_000, 1_500_000] {
        let mut cmd = command(&["check", "-I", "line", "-j2", "--batch-size", "64"]);
        cmd.args(["-O", "csv", "--max-problems", "5"]);
        cmd.arg(input.to_str().unwrap());
        cmd.args(["--report", report.to_str().unwrap()]);
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut read = vec![0u8; cut];
        child.stdout.take().unwrap().read_exact(&mut read).unwrap();
        // the pipe closed here, part way
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let rows = fs::read_to_string(&report).unwrap().lines().count() as u64 - 1;
        assert!(rows < 40_000, "{rows} rows: {stderr}");
        let hidden: u64 = stderr
            .lines()
            .find_map(|l| l.strip_prefix("... and "))
            .and_then(|l| l.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no 'more not shown' line: {stderr}"));
        assert_eq!(5 + hidden, rows, "{stderr}");
        assert!(
            stderr.contains(&format!("{rows} problems")),
            "{rows}: {stderr}"
        );
    }
}

#[test]
fn a_signal_leaves_a_file_of_whole_records_up_to_where_the_summary_says() {
    let dir = Workdir::new();
    let text = fs::read_to_string(repo("data/hardest_300.txt")).unwrap();
    let input = dir.write("big.txt", text.repeat(60));
    let input = input.to_str().unwrap();
    let args = ["solve", "-j2", "--batch-size", "64", "--no-timings", input];
    let full = piped(&[&args[..], &["-q"]].concat());
    let path = dir.path("out.txt");
    let mut stopped = 0;
    for wait in [40, 120] {
        let mut child = command(&args)
            .args(["-o", path.to_str().unwrap()])
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        crate::signals::wait_for_handler(&child, libc::SIGINT);
        std::thread::sleep(std::time::Duration::from_millis(wait));
        crate::signals::send(&child, libc::SIGINT);
        let stderr = crate::read_all(child.stderr.take());
        let status = child.wait().unwrap();
        let cut = fs::read(&path).unwrap();
        if cut.len() == full.len() {
            continue; // finished before the signal
        }
        stopped += 1;
        assert_eq!(status.code(), Some(130), "{stderr}");
        assert_whole_prefix(&full, &cut);
        let records = cut.iter().filter(|&&b| b == b'\n').count();
        let ends = format!("the output ends with the record at {input}:{records}");
        assert!(stderr.contains(&ends), "want {ends:?} in {stderr}");
    }
    assert!(stopped > 0, "no run was stopped mid-way");
}

/// Standard output and standard error into one file (`> log 2>&1`), or `-o log` with standard
/// error appended to it (`2>>log`): every record whole and every message there. The records
/// were written at their offsets, over the messages written at the file's shared offset and the
/// messages over them (a torn solution at the top of the file, exit 0).
#[test]
fn records_and_messages_sharing_one_file_both_stay_whole() {
    let dir = Workdir::new();
    let easy = fs::read_to_string(repo("data/easy_300.txt")).unwrap();
    let mut text: String = easy
        .lines()
        .cycle()
        .take(20_000)
        .map(|l| format!("{l}\n"))
        .collect();
    text.push_str("bad\n");
    let input = dir.write("in.txt", text);
    let solved = |log: &str| {
        log.lines()
            .filter(|l| l.len() == 81 && l.bytes().all(|b| (b'1'..=b'9').contains(&b)))
            .count()
    };
    for args in [&["solve"][..], &["canon"], &["check", "-O", "jsonl"]] {
        let log = dir.path("log");
        let file = File::create(&log).unwrap();
        let status = command(args)
            .arg(&input)
            .stdout(Stdio::from(file.try_clone().unwrap()))
            .stderr(Stdio::from(file))
            .status()
            .unwrap();
        let text = fs::read_to_string(&log).unwrap();
        assert!(
            text.contains("in.txt:20001: "),
            "{args:?}: {}",
            &text[..200]
        );
        let whole = match args[0] {
            "solve" => solved(&text),
            "canon" => text.lines().filter(|l| l.len() == 98).count(),
            _ => text
                .lines()
                .filter(|l| l.starts_with('{') && l.ends_with('}'))
                .count(),
        };
        // check's malformed record is one of its records, solve's and canon's are lines too
        assert!(
            whole >= 20_000,
            "{args:?}: {whole} whole records ({status})"
        );
    }
    // -o log 2>>log
    let log = dir.path("log2");
    let stderr = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log)
        .unwrap();
    let status = command(&["solve", "-o"])
        .arg(&log)
        .arg(&input)
        .stderr(Stdio::from(stderr))
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0));
    let text = fs::read_to_string(&log).unwrap();
    assert!(text.contains("in.txt:20001: "), "{}", &text[..200]);
    assert_eq!(solved(&text), 20_000);
    // > log 2> log: the same, on standard output (one file opened twice, not shared), told by
    // kcmp; where this machine does not allow it (a seccomp filter), the run is not refused,
    // as the README says
    // SAFETY: kcmp compares descriptor 0 of this process with itself; it reads no memory.
    let pid = libc::c_long::from(std::process::id() as i32);
    let kcmp = unsafe { libc::syscall(libc::SYS_kcmp, pid, pid, 0 as libc::c_long, 0, 0) } == 0;
    let log = dir.path("log4");
    let status = command(&["solve"])
        .arg(&input)
        .stdout(Stdio::from(File::create(&log).unwrap()))
        .stderr(Stdio::from(File::create(&log).unwrap()))
        .status()
        .unwrap();
    let text = fs::read_to_string(&log).unwrap();
    if kcmp {
        assert_eq!(status.code(), Some(2));
        assert!(text.contains("opened twice"), "{text}");
        assert_eq!(solved(&text), 0);
    } else {
        eprintln!("kcmp not allowed here: > log 2> log is not told apart, as documented");
        assert_eq!(status.code(), Some(0));
    }
    // -o log 2>log: the messages would be written over the records, at their own place
    for args in [&["solve", "-o"][..], &["check", "--stats"]] {
        let log = dir.path("log3");
        let stderr = File::create(&log).unwrap();
        let status = command(args)
            .arg(&log)
            .arg(&input)
            .stderr(Stdio::from(stderr))
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(2), "{args:?}");
        let text = fs::read_to_string(&log).unwrap();
        assert!(
            text.contains("standard error goes to the"),
            "{args:?}: {text}"
        );
        assert_eq!(solved(&text), 0, "{args:?}");
    }
    // -o /dev/stdout > log 2>&1, or the file's own name: standard output's file, written as `-`
    // writes it, at the offset standard error shares (it was opened again at its start, and the
    // run's messages written over the records; then refused)
    let log = dir.path("log5");
    for name in ["/dev/stdout", log.to_str().unwrap()] {
        let file = File::create(&log).unwrap();
        let status = command(&["solve", "-o", name])
            .arg(&input)
            .stdout(Stdio::from(file.try_clone().unwrap()))
            .stderr(Stdio::from(file))
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(0), "{name}");
        let text = fs::read_to_string(&log).unwrap();
        assert!(text.contains("in.txt:20001: "), "{name}: {}", &text[..200]);
        assert!(text.contains("20001 (solved 20000"), "{name}: {text}");
        assert_eq!(solved(&text), 20_000, "{name}");
    }
}
