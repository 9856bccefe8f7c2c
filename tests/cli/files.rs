//! Outputs against inputs and each other, for every command and every output option: the same
//! file under any spelling (relative, `./`, `..`, absolute, a symlink, a hard link, a file
//! redirected to stdin or from stdout) is refused before anything is written; a run that cannot
//! open one of its outputs or inputs leaves every existing file as it was; a closed standard
//! stream is an error, not a silent loss.

use std::fs::{self, File, OpenOptions};
use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::{Workdir, command, repo};

/// A command, its arguments before the input (`IN` stands for the input) and its output
/// options.
struct Case {
    args: &'static [&'static str],
    outputs: &'static [&'static str],
    /// Whether it writes its main output to stdout when no output option names a file.
    stdout: bool,
}

const IN: &str = "IN";

const CASES: &[Case] = &[
    Case {
        args: &["solve", "-q", IN],
        outputs: &["-o", "--stats"],
        stdout: true,
    },
    Case {
        args: &["check", "-q", "-O", "jsonl", IN],
        outputs: &["-o", "--report", "--stats"],
        stdout: true,
    },
    Case {
        args: &["canon", "-q", IN],
        outputs: &["-o"],
        stdout: true,
    },
    Case {
        // a low bound: the input is the forum's hardest puzzles, and only the files matter here
        args: &["rate", "-q", "--max-er", "1.5", IN],
        outputs: &["-o"],
        stdout: true,
    },
    Case {
        args: &["augment", "-q", "-n", "2", IN],
        outputs: &["-o"],
        stdout: true,
    },
    Case {
        args: &["split", "-q", IN],
        outputs: &["--train", "--test"],
        stdout: false,
    },
    Case {
        args: &["generate", "-q", "-n", "2", "--from", IN],
        outputs: &["-o"],
        stdout: true,
    },
    Case {
        args: &["generate", "-q", "-n", "2", "--exclude", IN],
        outputs: &["-o"],
        stdout: true,
    },
    Case {
        args: &["merge-stats", "-q", IN],
        outputs: &["-o"],
        stdout: true,
    },
    Case {
        args: &["bench", "-q", "--min-seconds", "0", "--rounds", "1", IN],
        outputs: &[
            "--export-json",
            "--export-csv",
            "--export-markdown",
            "--export-svg",
            "--write-puzzles",
        ],
        stdout: false,
    },
];

const PUZZLES: &str = "data/hardest_300.txt";

/// A folder holding `in.txt` (the puzzles), a symlink and a hard link to it, and `sub/`.
fn workdir() -> Workdir {
    let dir = Workdir::new();
    fs::copy(repo(PUZZLES), dir.path("in.txt")).unwrap();
    std::os::unix::fs::symlink("in.txt", dir.path("link.txt")).unwrap();
    fs::hard_link(dir.path("in.txt"), dir.path("hard.txt")).unwrap();
    fs::create_dir(dir.path("sub")).unwrap();
    dir
}

/// The command line of `case` on `input`, with `set` output options given, each other output
/// option sent to a fresh file `other-N.out`.
fn args_of(case: &Case, input: &str, set: &[(&str, &str)]) -> Vec<String> {
    let mut args: Vec<String> = case
        .args
        .iter()
        .map(|a| if *a == IN { input } else { a }.to_string())
        .collect();
    for (i, option) in case.outputs.iter().enumerate() {
        let value = match set.iter().find(|(o, _)| o == option) {
            Some((_, value)) => value.to_string(),
            // split needs both of its outputs
            None if case.args[0] == "split" => format!("other-{i}.out"),
            None => continue,
        };
        args.push(option.to_string());
        args.push(value);
        if *option == "--report" {
            // the report's file names here do not tell its format
            args.extend(["--report-format".to_string(), "json".to_string()]);
        }
    }
    args
}

/// Runs the binary in `dir` with `args`.
fn run_in(dir: &Workdir, args: &[String], setup: impl FnOnce(&mut Command)) -> Output {
    let mut cmd = command(&[]);
    cmd.current_dir(dir.path("")).args(args);
    cmd.stdin(Stdio::null());
    setup(&mut cmd);
    cmd.output().unwrap()
}

/// Asserts that the run failed with exit 2 and an error saying `why`, leaving `in.txt` as it was
/// and making none of the `other-N.out` files.
fn assert_refused(dir: &Workdir, args: &[String], out: &Output, why: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(why), "{args:?}: {stderr}");
    assert_eq!(
        fs::read(dir.path("in.txt")).unwrap(),
        fs::read(repo(PUZZLES)).unwrap(),
        "{args:?} changed its input"
    );
    for i in 0..6 {
        let other = format!("other-{i}.out");
        assert!(
            !dir.path(&other).exists(),
            "{args:?} left {other} behind: {stderr}"
        );
    }
}

#[test]
fn every_output_option_refuses_the_input_under_every_spelling() {
    for case in CASES {
        for option in case.outputs {
            let dir = workdir();
            let absolute = dir.path("in.txt").display().to_string();
            let spellings = [
                "in.txt",
                "./in.txt",
                "sub/../in.txt",
                absolute.as_str(),
                "link.txt",
                "hard.txt",
            ];
            for spelling in spellings {
                for input in ["in.txt", "./link.txt"] {
                    let args = args_of(case, input, &[(option, spelling)]);
                    let out = run_in(&dir, &args, |_| {});
                    assert_refused(&dir, &args, &out, "is the input");
                }
            }
            // the input on stdin: a redirected file is still the file
            let args = args_of(case, "-", &[(option, "./hard.txt")]);
            let out = run_in(&dir, &args, |cmd| {
                cmd.stdin(File::open(dir.path("in.txt")).unwrap());
            });
            assert_refused(&dir, &args, &out, "is the input <stdin>");
        }
    }
}

/// `-o /dev/stdin` with standard input a file redirected to be read (`< keep.txt`), which is no
/// input of the run: the file was opened again by that name for writing, emptied and written
/// over, exit 0. Refused; opened for writing too (`0<> FILE`), it may be written.
#[test]
fn standard_input_from_a_file_is_no_output() {
    for case in CASES {
        for option in case.outputs.iter().filter(|&&o| o != "--write-puzzles") {
            let dir = workdir();
            fs::copy(repo(PUZZLES), dir.path("keep.txt")).unwrap();
            for name in ["/dev/stdin", "/dev/fd/0"] {
                let args = args_of(case, "in.txt", &[(option, name)]);
                let out = run_in(&dir, &args, |cmd| {
                    cmd.stdin(File::open(dir.path("keep.txt")).unwrap());
                });
                assert_refused(
                    &dir,
                    &args,
                    &out,
                    "this is standard input, a file redirected",
                );
                assert_eq!(
                    fs::read(dir.path("keep.txt")).unwrap(),
                    fs::read(repo(PUZZLES)).unwrap(),
                    "{args:?} wrote into the file on standard input"
                );
            }
        }
    }
    let dir = workdir();
    let args: Vec<String> = ["solve", "-q", "in.txt", "-o", "/dev/stdin"]
        .map(String::from)
        .into();
    let out = run_in(&dir, &args, |cmd| {
        let mut both = OpenOptions::new();
        both.read(true).write(true).create(true);
        cmd.stdin(both.open(dir.path("out.txt")).unwrap());
    });
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        fs::read_to_string(dir.path("out.txt"))
            .unwrap()
            .lines()
            .count(),
        300
    );
}

#[test]
fn standard_output_redirected_onto_the_input_is_refused() {
    for case in CASES.iter().filter(|c| c.stdout) {
        let dir = workdir();
        let args = args_of(case, "in.txt", &[]);
        let out = run_in(&dir, &args, |cmd| {
            let appended = OpenOptions::new()
                .append(true)
                .open(dir.path("link.txt"))
                .unwrap();
            cmd.stdout(appended);
        });
        assert_refused(&dir, &args, &out, "<stdout>: the output file is the input");
    }
}

/// Standard error appended to an input (`check in.txt 2>> in.txt`): each message about a record
/// was read back as one more record, and the run never ended (a file of 2 MB grew to 500 MB in
/// 10 s). Refused before a record is read: the input holds what it held, and the error after it.
#[test]
fn standard_error_sent_to_an_input_is_refused() {
    let puzzles = fs::read_to_string(repo(PUZZLES)).unwrap();
    for case in CASES {
        for stdin in [false, true] {
            let dir = workdir();
            let args = args_of(case, if stdin { "-" } else { "in.txt" }, &[]);
            let out = run_in(&dir, &args, |cmd| {
                let appended = || {
                    OpenOptions::new()
                        .append(true)
                        .open(dir.path("link.txt"))
                        .unwrap()
                };
                cmd.stderr(appended());
                if stdin {
                    cmd.stdin(File::open(dir.path("in.txt")).unwrap());
                }
            });
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            let text = dir.read("in.txt");
            let told = text
                .strip_prefix(puzzles.as_str())
                .unwrap_or_else(|| panic!("{args:?}: the input changed: {}", &text[..200]));
            assert!(
                told.starts_with("sudoku-batch: error: ")
                    && told.contains("standard error goes to this input")
                    && told.lines().count() == 1,
                "{args:?}: {told}"
            );
        }
    }
}

#[test]
fn two_outputs_that_are_one_file_are_refused_and_the_file_kept() {
    for case in CASES.iter().filter(|c| c.outputs.len() > 1) {
        for (a, first) in case.outputs.iter().enumerate() {
            for second in &case.outputs[a + 1..] {
                let dir = workdir();
                fs::write(dir.path("same.out"), "keep\n").unwrap();
                std::os::unix::fs::symlink("same.out", dir.path("same-link.out")).unwrap();
                for spelling in ["same.out", "./same.out", "sub/../same.out", "same-link.out"] {
                    let args = args_of(case, "in.txt", &[(first, "same.out"), (second, spelling)]);
                    let out = run_in(&dir, &args, |_| {});
                    assert_refused(&dir, &args, &out, "is the same file as");
                    assert_eq!(dir.read("same.out"), "keep\n", "{args:?}");
                }
                // neither exists yet: the file the first makes is the second
                let args = args_of(case, "in.txt", &[(first, "new.out"), (second, "./new.out")]);
                let out = run_in(&dir, &args, |_| {});
                assert_refused(&dir, &args, &out, "is the same file as");
                assert!(!dir.path("new.out").exists(), "{args:?}");
            }
        }
    }
}

#[test]
fn stats_on_stdout_redirected_onto_the_output_file_is_refused() {
    let dir = workdir();
    fs::write(dir.path("o.txt"), "keep\n").unwrap();
    let args: Vec<String> = ["solve", "-q", "in.txt", "-o", "o.txt", "--stats", "-"]
        .map(String::from)
        .to_vec();
    let out = run_in(&dir, &args, |cmd| {
        let appended = OpenOptions::new()
            .append(true)
            .open(dir.path("o.txt"))
            .unwrap();
        cmd.stdout(appended);
    });
    // `-o o.txt` is standard output's file, written as standard output: the stats cannot go
    // there too
    assert_refused(&dir, &args, &out, "cannot go to standard output too");
    assert_eq!(dir.read("o.txt"), "keep\n");
}

#[test]
fn a_failed_output_leaves_every_existing_file_as_it_was() {
    for case in CASES {
        for (i, keep) in case.outputs.iter().enumerate() {
            // one output a good existing file, another one in a folder that does not exist
            for broken in case.outputs.iter().filter(|o| *o != keep) {
                let dir = workdir();
                fs::write(dir.path("keep.out"), "keep\n").unwrap();
                let args = args_of(case, "in.txt", &[(keep, "keep.out"), (broken, "nodir/x")]);
                let out = run_in(&dir, &args, |_| {});
                assert_refused(&dir, &args, &out, "nodir/x: cannot create");
                assert_eq!(dir.read("keep.out"), "keep\n", "{args:?}");
            }
            // an input that cannot be opened: nothing emptied, nothing made
            let dir = workdir();
            fs::write(dir.path("keep.out"), "keep\n").unwrap();
            let new = format!("new-{i}.out");
            let mut set = vec![(*keep, "keep.out")];
            let others: Vec<&str> = case.outputs.iter().copied().filter(|o| o != keep).collect();
            for other in &others {
                set.push((other, new.as_str()));
            }
            let set = &set[..set.len().min(2)];
            let args = args_of(case, "missing.txt", set);
            let out = run_in(&dir, &args, |_| {});
            assert_refused(&dir, &args, &out, "missing.txt");
            assert_eq!(dir.read("keep.out"), "keep\n", "{args:?}");
            assert!(!dir.path(&new).exists(), "{args:?} made {new}");
        }
    }
}

#[test]
fn a_missing_input_named_as_an_output_is_refused_and_not_made() {
    // the output made the missing input, which was then read as empty: exit 0 and nothing done
    for case in CASES {
        for option in case.outputs {
            for spelling in ["new.txt", "./new.txt"] {
                let dir = workdir();
                let args = args_of(case, "new.txt", &[(option, spelling)]);
                let out = run_in(&dir, &args, |_| {});
                assert_refused(&dir, &args, &out, "new.txt: No such file or directory");
                assert!(!dir.path("new.txt").exists(), "{args:?} made new.txt");
            }
        }
    }
}

#[test]
fn standard_input_named_twice_is_refused() {
    // the second `-` was an empty input, read without a word
    for case in CASES.iter().filter(|c| c.args[0] != "generate") {
        let dir = workdir();
        let mut args = args_of(case, "-", &[]);
        args.push("-".to_string());
        let out = run_in(&dir, &args, |cmd| {
            cmd.stdin(File::open(dir.path("in.txt")).unwrap());
        });
        assert_refused(&dir, &args, &out, "`-` named twice");
    }
}

#[test]
fn a_folder_or_missing_file_after_the_first_input_is_refused_before_any_output_is_emptied() {
    // found only when the run reached it, after the outputs had been emptied: a failed run
    // left them holding part of its output (or nothing)
    for case in CASES.iter().filter(|c| c.args[0] != "generate") {
        for later in ["sub", "missing.txt"] {
            let dir = workdir();
            let mut set = Vec::new();
            let names: Vec<String> = (0..case.outputs.len())
                .map(|i| format!("keep-{i}.out"))
                .collect();
            for (option, name) in case.outputs.iter().zip(&names) {
                fs::write(dir.path(name), "keep\n").unwrap();
                set.push((*option, name.as_str()));
            }
            let mut args = args_of(case, "in.txt", &set);
            args.push(later.to_string());
            let out = run_in(&dir, &args, |_| {});
            assert_refused(&dir, &args, &out, later);
            for name in &names {
                assert_eq!(dir.read(name), "keep\n", "{args:?}: {name}");
            }
        }
    }
}

#[test]
fn devices_may_be_named_as_several_outputs() {
    for case in CASES.iter().filter(|c| c.args[0] != "merge-stats") {
        let dir = workdir();
        let set: Vec<(&str, &str)> = case
            .outputs
            .iter()
            .filter(|o| **o != "--write-puzzles")
            .map(|o| (*o, "/dev/null"))
            .collect();
        let args = args_of(case, "in.txt", &set);
        let out = run_in(&dir, &args, |cmd| {
            cmd.stdout(File::create("/dev/null").unwrap());
        });
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Runs `args` in `dir` through the shell with `redirect` (`>&-`, `<&-`) applied.
fn run_with_shell_redirect(dir: &Workdir, args: &[String], redirect: &str) -> Output {
    let binary = env!("CARGO_BIN_EXE_sudoku-batch");
    Command::new("sh")
        .current_dir(dir.path(""))
        .arg("-c")
        .arg(format!("exec \"$0\" \"$@\" {redirect}"))
        .arg(binary)
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_closed_stdout_is_an_error_in_every_command_that_writes_there() {
    let dir = workdir();
    let mut runs: Vec<Vec<String>> = CASES
        .iter()
        .filter(|c| c.stdout)
        .map(|c| args_of(c, "in.txt", &[]))
        .collect();
    runs.push(vec![
        "bench".into(),
        "--min-seconds".into(),
        "0".into(),
        "in.txt".into(),
    ]);
    runs.push(vec![
        "solve".into(),
        "-q".into(),
        "in.txt".into(),
        "--stats".into(),
        "-".into(),
        "-o".into(),
        "o.txt".into(),
    ]);
    // help and version too (they exited 0, nothing written), and the man page
    for args in [
        &["--help"][..],
        &["--version"],
        &["help"],
        &["solve", "--help"],
        &["man"],
    ] {
        runs.push(args.iter().map(|a| a.to_string()).collect());
    }
    // closed, or open for reading only (`1</dev/zero`, a folder): the runtime takes a write's
    // EBADF there for a write done, so the output was lost with exit 0
    fs::create_dir(dir.path("folder")).unwrap();
    let ways = [
        (">&-", "standard output is closed"),
        ("1</dev/zero", "standard output is open for reading only"),
        ("1<folder", "standard output is open for reading only"),
    ];
    for (redirect, message) in ways {
        for args in &runs {
            let out = run_with_shell_redirect(&dir, args, redirect);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?} {redirect}: {stderr}");
            assert!(stderr.contains(message), "{args:?} {redirect}: {stderr}");
        }
        // such a stdout the run does not write to is fine
        let args: Vec<String> = ["solve", "-q", "in.txt", "-o", "o.txt"]
            .map(String::from)
            .to_vec();
        let out = run_with_shell_redirect(&dir, &args, redirect);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{redirect}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            fs::read_to_string(dir.path("o.txt"))
                .unwrap()
                .lines()
                .count(),
            300
        );
        fs::remove_file(dir.path("o.txt")).unwrap();
    }
}

#[test]
fn a_closed_stdin_read_as_input_is_an_error() {
    let dir = workdir();
    // closed, or open for writing only (`0>/dev/null`): the runtime takes a read's EBADF there
    // for the end of the input, so the dataset read as empty with exit 0
    let ways = [
        ("<&-", "standard input is closed"),
        ("0>/dev/null", "standard input is open for writing only"),
    ];
    for (redirect, message) in ways {
        for args in [
            vec!["solve", "-q"],
            vec!["solve", "-q", "-", "-o", "o.txt"],
            vec!["check", "-q", "-"],
            vec!["canon", "-q"],
            vec!["merge-stats", "-"],
            vec!["generate", "-n", "2", "--seed", "1", "--exclude", "-"],
        ] {
            let args: Vec<String> = args.into_iter().map(String::from).collect();
            let out = run_with_shell_redirect(&dir, &args, redirect);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?} {redirect}: {stderr}");
            assert!(stderr.contains(message), "{args:?} {redirect}: {stderr}");
            assert!(!Path::new(&dir.path("o.txt")).exists());
        }
    }
}

/// A closed standard stream named by a path (`/dev/stdout`, `/proc/self/fd/1`, `/dev/fd/1`,
/// a symlink to one) is as closed as `-`: the path opened the `/dev/null` the runtime puts in
/// a closed stream's place, so the output was lost, or the input read as empty, with exit 0.
/// `/dev/null` itself is still a place to discard output.
#[test]
fn a_closed_standard_stream_named_by_a_path_is_an_error() {
    let dir = workdir();
    std::os::unix::fs::symlink("/dev/stdout", dir.path("out-link")).unwrap();
    let cases: [(&[&str], &str, &str); 10] = [
        (
            &["solve", "in.txt", "-o", "/dev/stdout"],
            "1</dev/zero",
            "standard output is open for reading only",
        ),
        (
            &["solve", "in.txt", "-o", "o.txt", "--stats", "/dev/stderr"],
            "2</dev/zero",
            "",
        ),
        (
            &["solve", "in.txt", "-o", "/dev/stdout"],
            ">&-",
            "standard output is closed",
        ),
        (
            &["solve", "in.txt", "-o", "/proc/self/fd/1"],
            ">&-",
            "standard output is closed",
        ),
        (
            &["canon", "in.txt", "-o", "/dev/fd/1"],
            ">&-",
            "standard output is closed",
        ),
        (
            &["solve", "in.txt", "-o", "out-link"],
            ">&-",
            "standard output is closed",
        ),
        (
            &["solve", "in.txt", "-o", "o.txt", "--stats", "/dev/stderr"],
            "2>&-",
            "",
        ),
        (
            &["solve", "/dev/stdin", "-o", "o.txt"],
            "<&-",
            "standard input, which is closed",
        ),
        (
            &["check", "/proc/self/fd/0", "-O", "csv", "-o", "o.txt"],
            "<&-",
            "standard input, which is closed",
        ),
        (
            &[
                "check",
                "in.txt",
                "--report",
                "/dev/stdout",
                "-O",
                "csv",
                "-o",
                "o.txt",
            ],
            ">&-",
            "standard output is closed",
        ),
    ];
    for (args, redirect, message) in cases {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let out = run_with_shell_redirect(&dir, &args, redirect);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?} {redirect}: {stderr}");
        assert!(stderr.contains(message), "{args:?} {redirect}: {stderr}");
        assert!(!Path::new(&dir.path("o.txt")).exists(), "{args:?}");
    }
    let args: Vec<String> = ["solve", "-q", "in.txt", "-o", "/dev/null"]
        .map(String::from)
        .to_vec();
    let out = run_with_shell_redirect(&dir, &args, ">&-");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

/// Standard error named by a path (`-o /dev/stderr 2>> log`) is written where standard error
/// writes: after what the file held, which opening it again by name emptied (exit 0).
#[test]
fn standard_error_by_its_name_appends_to_its_file() {
    let dir = workdir();
    for (args, name) in [
        (&["canon", "-q", "in.txt", "-o"][..], "/dev/stderr"),
        (&["solve", "-q", "in.txt", "-o"], "/proc/self/fd/2"),
        (
            &["split", "-q", "in.txt", "--test", "te.txt", "--train"],
            "/dev/stderr",
        ),
    ] {
        fs::write(dir.path("log"), "kept\n").unwrap();
        let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        args.push(name.to_string());
        let out = run_with_shell_redirect(&dir, &args, "2>> log");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {out:?}");
        let log = fs::read_to_string(dir.path("log")).unwrap();
        assert!(log.starts_with("kept\n"), "{args:?}: {}", &log[..40]);
        let others = match args[0].as_str() {
            "split" => fs::read_to_string(dir.path("te.txt"))
                .unwrap()
                .lines()
                .count(),
            _ => 0,
        };
        assert_eq!(log.lines().count() - 1 + others, 300, "{args:?}");
    }
    // two outputs there would interleave in it (a pipe: exit 0): one only, as on stdout
    for args in [
        &[
            "split",
            "-q",
            "in.txt",
            "--train",
            "/dev/stderr",
            "--test",
            "/dev/stderr",
        ][..],
        &[
            "check",
            "-q",
            "in.txt",
            "-O",
            "csv",
            "-o",
            "/dev/stderr",
            "--report",
            "/dev/fd/2",
        ],
    ] {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let out = run_with_shell_redirect(&dir, &args, "2>&1 | cat");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("cannot go to standard error too") && text.lines().count() == 1,
            "{args:?}: {text}"
        );
    }
}

/// `merge-stats` adds up runs: one run's stats named twice, under any spelling, would count it
/// twice, so it is refused (exit 2, no output made).
/// Solves `in.txt` in `dir` with its stats in `s.json`.
fn solve_stats(dir: &Workdir) {
    let args = [
        "solve",
        "-q",
        "-o",
        "/dev/null",
        "--stats",
        "s.json",
        "in.txt",
    ];
    let out = run_in(dir, &args.map(String::from), |_| {});
    assert!(out.status.success(), "{out:?}");
}

#[test]
fn merge_stats_refuses_one_file_named_twice() {
    let dir = workdir();
    let stats = dir.path("s.json");
    solve_stats(&dir);
    std::os::unix::fs::symlink("s.json", dir.path("s-link.json")).unwrap();
    for second in ["./s.json", "s-link.json", "sub/../s.json"] {
        let args = ["merge-stats", "-q", "s.json", second, "-o", "other-0.out"].map(String::from);
        let out = run_in(&dir, &args, |_| {});
        assert_refused(
            &dir,
            &args,
            &out,
            "the same file as s.json: its run would count twice",
        );
    }
    // standard input redirected from it is the file too
    let args = ["merge-stats", "-q", "s.json", "-", "-o", "other-0.out"].map(String::from);
    let out = run_in(&dir, &args, |cmd| {
        cmd.stdin(File::open(dir.path("s.json")).unwrap());
    });
    assert_refused(
        &dir,
        &args,
        &out,
        "<stdin> (a redirected file): the same file",
    );
    assert!(stats.exists());
}

/// The digits after the `nth` (from 1) `key` in `text`.
fn number_after(text: &str, key: &str, nth: usize) -> String {
    text.split(key)
        .nth(nth)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .unwrap()
        .to_string()
}

#[test]
fn merge_stats_refuses_counts_that_cannot_be_added_up_and_times_that_are_no_run_s() {
    let dir = workdir();
    solve_stats(&dir);
    let text = dir.read("s.json");
    let edit = |name: &str, from: &str, to: &str| {
        assert!(text.contains(from), "{from} in {text}");
        fs::write(dir.path(name), text.replacen(from, to, 1)).unwrap();
    };
    // a count of 2^64 - 1 in two parts wrapped round to 2^64 - 2 records, exit 0
    let solved = number_after(&text, "\"solved\": ", 2);
    edit(
        "huge.json",
        &format!("\"solved\": {solved}"),
        "\"solved\": 18446744073709551615",
    );
    fs::copy(dir.path("huge.json"), dir.path("huge2.json")).unwrap();
    let args = [
        "merge-stats",
        "-q",
        "huge.json",
        "huge2.json",
        "-o",
        "other-0.out",
    ];
    let out = run_in(&dir, &args.map(String::from), |_| {});
    assert_refused(&dir, &args.map(String::from), &out, "too large to add up");
    // a wall time of 1e300 panicked (a Duration that large cannot be made); -1 was taken
    let wall = text
        .split("\"wall_seconds\": ")
        .nth(1)
        .and_then(|rest| rest.split([',', '\n']).next())
        .unwrap()
        .to_string();
    for bad in ["1e300", "-1.0"] {
        edit(
            "bad.json",
            &format!("\"wall_seconds\": {wall}"),
            &format!("\"wall_seconds\": {bad}"),
        );
        let args = ["merge-stats", "-q", "bad.json", "-o", "other-0.out"];
        let out = run_in(&dir, &args.map(String::from), |_| {});
        assert_refused(&dir, &args.map(String::from), &out, "is not a run's time");
    }
    // counts this build cannot add up name their file (the message said "merging: ...")
    edit(
        "status.json",
        "\"counts\": {\n    \"statuses\": {",
        "\"counts\": {\n    \"statuses\": {\"bogus\": 7, ",
    );
    let refused_beside_s = |name: &str, why: &str| {
        let args = ["merge-stats", "-q", "s.json", name, "-o", "other-0.out"].map(String::from);
        let out = run_in(&dir, &args, |_| {});
        assert_refused(&dir, &args, &out, why);
    };
    refused_beside_s(
        "status.json",
        "status.json: not the --stats JSON of a run: unknown status \"bogus\"",
    );
    // counts no run writes (merged into "1666.7% without guessing", exit 0)
    let searched = number_after(&text, "\"searched\": ", 1);
    edit(
        "no_guess.json",
        "\"no_guess\": ",
        &format!("\"no_guess\": 1{searched}, \"was\": "),
    );
    refused_beside_s(
        "no_guess.json",
        "no_guess.json: not the --stats JSON of a run: ",
    );
}

/// Standard output named by a path (`/dev/stdout`, `/proc/self/fd/1`) while it is a pipe is
/// standard output: two outputs there are refused as `-` twice is (they were merged into one
/// stream, exit 0). `/dev/null` may still be named any number of times.
#[test]
fn stdout_named_by_a_path_is_standard_output() {
    let runs: [&[&str]; 3] = [
        &[
            "split",
            "data/easy_300.txt",
            "--train",
            "/dev/stdout",
            "--test",
            "-",
        ],
        &[
            "split",
            "data/easy_300.txt",
            "--train",
            "/proc/self/fd/1",
            "--test",
            "/dev/fd/1",
        ],
        &["solve", "data/easy_300.txt", "--stats", "/dev/stdout"],
    ];
    for args in runs {
        let out = command(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("cannot go to standard output too"),
            "{args:?}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let out = command(&["solve", "-q", "data/easy_300.txt", "-o", "/dev/stdout"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 300);
    let args = [
        "solve",
        "-q",
        "data/easy_300.txt",
        "-o",
        "/dev/null",
        "--stats",
        "/dev/null",
    ];
    assert_eq!(command(&args).status().unwrap().code(), Some(0));
}

/// `-o out.gz` wrote plain text under a compressed file's name: a reader that goes by the name
/// (`zcat`, pandas) failed on it later. Refused, nothing made; a device or pipe may be named so.
#[test]
fn an_output_named_as_compressed_is_refused() {
    let dir = workdir();
    for (flag, name) in [
        ("-o", "out.gz"),
        ("--stats", "s.json.ZST"),
        ("-o", "o.csv.xz"),
    ] {
        let args: Vec<String> = ["solve", "-q", "in.txt", flag, name, "-o"]
            .iter()
            .map(|s| s.to_string())
            .take(if flag == "-o" { 5 } else { 6 })
            .chain((flag != "-o").then(|| "plain.txt".to_string()))
            .collect();
        let out = run_in(&dir, &args, |_| {});
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("would be plain text under a ."), "{stderr}");
        assert!(!dir.path(name).exists(), "{name} made");
    }
}
