//! `split`: train and test parts with no isomorphic puzzle across them, through the real binary.

use std::collections::HashSet;
use std::process::Stdio;

use sudoku_batch::canon;
use sudoku_batch::grid::Grid;
use sudoku_batch::transform::{Rng, Transform};

use crate::{Workdir, bin, command, first_line_then_close, read_all};

/// Runs `split` with `args` and parts `train` and `test` in `dir`; returns the exit code and
/// stderr.
fn split(dir: &Workdir, args: &[&str]) -> (Option<i32>, String) {
    let out = bin()
        .arg("split")
        .args(args)
        .arg("--train")
        .arg(dir.path("train"))
        .arg("--test")
        .arg(dir.path("test"))
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8(out.stderr).unwrap())
}

/// The first `n` puzzles of data/hardest_300.txt.
fn hardest(n: usize) -> Vec<&'static str> {
    include_str!("../../data/hardest_300.txt")
        .lines()
        .take(n)
        .collect()
}

/// The canonical forms of the first field of each data line of `text` (`#` lines, headers and
/// anything else that is not a puzzle skipped).
fn forms(text: &str) -> Vec<Grid> {
    text.lines()
        .filter_map(|l| l.split([',', ' ']).find_map(|f| f.parse::<Grid>().ok()))
        .map(|p| canon::minlex(&p))
        .collect()
}

#[test]
fn parts_hold_every_record_once_in_order_and_no_class_in_both() {
    let dir = Workdir::new();
    let puzzles: Vec<&str> = include_str!("../../data/easy_300.txt")
        .lines()
        .take(120)
        .collect();
    let mut rng = Rng::new(3);
    let mut text = String::new();
    for (i, p) in puzzles.iter().enumerate() {
        let moved = Transform::random(&mut rng).apply(&p.parse().unwrap());
        let moved = String::from_utf8(moved.to_line(b'.').to_vec()).unwrap();
        // each puzzle, then a transform of it, with a key and a rating kept on the line
        text.push_str(&format!("k{i}a {p} 1.0\nk{i}b {moved} 2.0\n"));
    }
    text.push_str("kbad 123 0.0\n");
    let input = dir.write("in.txt", &text);
    let (train, test) = (dir.path("train.txt"), dir.path("test.txt"));
    let out = bin()
        .args(["split", "--test-fraction", "0.3", "--seed", "9"])
        .arg(&input)
        .arg("--train")
        .arg(&train)
        .arg("--test")
        .arg(&test)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("in.txt:241: "), "{stderr}");
    assert!(stderr.contains("malformed (in neither part)"), "{stderr}");
    let (train_text, test_text) = (dir.read("train.txt"), dir.read("test.txt"));
    let lines: Vec<&str> = train_text.lines().chain(test_text.lines()).collect();
    assert_eq!(lines.len(), 240, "every good record once");
    for part in [&train_text, &test_text] {
        // lines come back whole, in input order
        let keys: Vec<usize> = part
            .lines()
            .map(|l| {
                let key = l.split(' ').next().unwrap();
                assert!(text.contains(&format!("{l}\n")), "{l}");
                key[1..key.len() - 1].parse().unwrap()
            })
            .collect();
        assert!(keys.windows(2).all(|w| w[0] <= w[1]));
    }
    let train_forms: HashSet<Grid> = forms(&train_text).into_iter().collect();
    let test_forms: HashSet<Grid> = forms(&test_text).into_iter().collect();
    assert!(
        train_forms.is_disjoint(&test_forms),
        "no class in both parts"
    );
    // each puzzle went with its transform
    assert_eq!(train_forms.len() + test_forms.len(), 120);
    let share = test_text.lines().count() as f64 / 240.0;
    assert!(
        (0.15..0.45).contains(&share),
        "about 0.3 of the classes: {share}"
    );
}

#[test]
fn csv_parts_each_get_the_header_and_another_seed_draws_other_parts() {
    let dir = Workdir::new();
    let run = |seed: &str| {
        let (train, test) = (
            dir.path(&format!("tr{seed}.csv")),
            dir.path(&format!("te{seed}.csv")),
        );
        let out = bin()
            .args([
                "split",
                "-q",
                "--seed",
                seed,
                "--test-fraction",
                "0.5",
                "data/kaggle_200.csv",
            ])
            .arg("--train")
            .arg(&train)
            .arg("--test")
            .arg(&test)
            .output()
            .unwrap();
        assert!(out.status.success());
        assert!(out.stderr.is_empty());
        (
            std::fs::read_to_string(train).unwrap(),
            std::fs::read_to_string(test).unwrap(),
        )
    };
    let (train, test) = run("1");
    for part in [&train, &test] {
        assert_eq!(part.lines().next(), Some("quizzes,solutions"));
    }
    assert_eq!(train.lines().count() + test.lines().count(), 200 + 2);
    assert_eq!(
        run("1"),
        (train.clone(), test.clone()),
        "same seed, same parts"
    );
    assert_ne!(run("2").1, test);
}

#[test]
fn a_fraction_outside_0_and_1_is_a_usage_error() {
    let out = bin()
        .args([
            "split",
            "--test-fraction",
            "1.5",
            "data/kaggle_200.csv",
            "--train",
            "a",
            "--test",
            "b",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--test-fraction"));
}

#[test]
fn quiet_still_lists_the_malformed_records() {
    let dir = Workdir::new();
    let p = hardest(2);
    let input = dir.write("in.txt", format!("{}\nbad\n{}\n", p[0], p[1]));
    let (code, stderr) = split(&dir, &["-q", input.to_str().unwrap()]);
    assert_eq!(code, Some(0));
    assert_eq!(
        stderr,
        format!("{}:2: found 3 cells, expected 81\n", input.display())
    );
    assert_eq!(
        dir.read("train").lines().count() + dir.read("test").lines().count(),
        2
    );
}

#[test]
fn pipe_and_echo_are_refused_before_any_part_is_written() {
    let dir = Workdir::new();
    for (args, says) in [
        (
            &["--pipe"][..],
            "split writes each record to one of two files, so it does not take --pipe",
        ),
        (
            &["--echo", "1"],
            "split writes each record back whole: --echo does not apply",
        ),
    ] {
        let mut all = args.to_vec();
        all.push("data/hardest_300.txt");
        let (code, stderr) = split(&dir, &all);
        assert_eq!(code, Some(2), "{args:?}");
        assert!(stderr.contains(says), "{stderr}");
        assert!(
            !dir.path("train").exists() && !dir.path("test").exists(),
            "{args:?}"
        );
    }
}

#[test]
fn parts_keep_the_bom_and_crlf_line_ends_of_the_input() {
    let dir = Workdir::new();
    let p = hardest(40);
    let csv: String = p
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{i},{p}\r\n"))
        .collect();
    let lines: String = p
        .iter()
        .enumerate()
        .map(|(i, p)| format!("k{i} {p}\r\n"))
        .collect();
    for (name, body, header) in [("in.csv", csv, "id,puzzle\r\n"), ("in.txt", lines, "")] {
        let input = dir.write(name, format!("\u{FEFF}{header}{body}"));
        let (code, stderr) = split(
            &dir,
            &["-q", "--test-fraction", "0.5", input.to_str().unwrap()],
        );
        assert_eq!((code, stderr.as_str()), (Some(0), ""), "{name}");
        let (train, test) = (dir.read("train"), dir.read("test"));
        let mut records = 0;
        for part in [&train, &test] {
            let text = part
                .strip_prefix('\u{FEFF}')
                .unwrap_or_else(|| panic!("{name}: a BOM first"));
            let text = text
                .strip_prefix(header)
                .unwrap_or_else(|| panic!("{name}: the header"));
            assert!(
                text.split_inclusive('\n').all(|l| l.ends_with("\r\n")),
                "{name}: {text:?}"
            );
            for line in text.lines() {
                assert!(
                    body.split("\r\n").any(|read| read == line),
                    "{name}: {line:?} as read"
                );
                records += 1;
            }
        }
        assert_eq!(records, 40, "{name}");
        assert!(
            !train.is_empty() && test.lines().count() > 1,
            "{name}: both parts drawn"
        );
    }
}

#[test]
fn grid_input_is_split_into_grids() {
    let dir = Workdir::new();
    let p = hardest(12);
    let grids: String = p
        .iter()
        .map(|p| {
            let rows: Vec<&str> = (0..9).map(|r| &p[r * 9..r * 9 + 9]).collect();
            format!("{}\n\n", rows.join("\n"))
        })
        .collect();
    let input = dir.write("in.txt", &grids);
    // told or detected
    for args in [&["-I", "grid"][..], &[]] {
        let mut all = vec!["-q", "--test-fraction", "0.4", "--seed", "3"];
        all.extend_from_slice(args);
        all.push(input.to_str().unwrap());
        let (code, stderr) = split(&dir, &all);
        assert_eq!((code, stderr.as_str()), (Some(0), ""), "{args:?}");
        let mut seen = Vec::new();
        for part in [dir.read("train"), dir.read("test")] {
            for grid in part.split_terminator("\n\n") {
                let rows: Vec<&str> = grid.lines().collect();
                assert_eq!(rows.len(), 9, "{args:?}: 9 rows a grid:\n{part}");
                assert!(rows.iter().all(|r| r.len() == 9));
                seen.push(rows.concat());
            }
            assert!(part.is_empty() || part.ends_with("\n\n"), "{args:?}");
        }
        seen.sort();
        let mut want: Vec<String> = p.iter().map(|p| p.to_string()).collect();
        want.sort();
        assert_eq!(seen, want, "{args:?}: every grid once");
    }
}

/// A grid's `#` and title lines go with it into its part: `generate -O grid` and `augment -O
/// grid` write each record's solution (and copy, transform) on its `#` line, which split dropped,
/// the first record's as well (read before the format was known).
#[test]
fn grid_input_keeps_each_grids_lines_above_it() {
    let dir = Workdir::new();
    let generated = bin()
        .args(["generate", "-q", "-n", "12", "--seed", "5", "-O", "grid"])
        .output()
        .unwrap();
    assert!(generated.status.success());
    let text = String::from_utf8(generated.stdout).unwrap();
    let input = dir.write("in.txt", format!("# made by generate\n\n{text}"));
    for args in [&["-I", "grid"][..], &[]] {
        let mut all = vec!["-q", "--test-fraction", "0.5", "--seed", "1"];
        all.extend_from_slice(args);
        all.push(input.to_str().unwrap());
        let (code, stderr) = split(&dir, &all);
        assert_eq!((code, stderr.as_str()), (Some(0), ""), "{args:?}");
        let (train, test) = (dir.read("train"), dir.read("test"));
        let mut kept: Vec<&str> = train.lines().chain(test.lines()).collect();
        kept.retain(|l| l.starts_with('#'));
        kept.sort();
        let mut want: Vec<&str> = text.lines().filter(|l| l.starts_with('#')).collect();
        want.push("# made by generate");
        want.sort();
        assert_eq!(kept, want, "{args:?}");
        // each `#` line right above its own grid: the solution on it solves the grid under it
        for part in [&train, &test] {
            for record in part.split_terminator("\n\n") {
                let lines: Vec<&str> = record.lines().filter(|l| !l.contains("made by")).collect();
                assert_eq!(lines.len(), 10, "{args:?}: {record}");
                let solution = lines[0].split(' ').next_back().unwrap();
                let puzzle: String = lines[1..].concat();
                let fits = puzzle
                    .bytes()
                    .zip(solution.bytes())
                    .all(|(p, s)| p == b'0' || p == s);
                assert!(fits, "{args:?}: {record}");
            }
        }
    }
}

#[test]
fn progress_always_draws_a_bar_on_stderr() {
    let dir = Workdir::new();
    let (code, stderr) = split(
        &dir,
        &[
            "--progress",
            "always",
            "--batch-size",
            "10",
            "data/hardest_300.txt",
        ],
    );
    assert_eq!(code, Some(0));
    assert!(
        stderr.contains(" records, ") && stderr.contains("\x1b[2K"),
        "{stderr}"
    );
    let (_, stderr) = split(
        &dir,
        &["--progress", "always", "-q", "data/hardest_300.txt"],
    );
    assert_eq!(stderr, "", "quiet: no bar");
}

#[test]
fn a_part_on_a_closed_pipe_is_an_error_that_says_the_other_is_cut_short() {
    let dir = Workdir::new();
    let text = include_str!("../../data/kaggle_200.csv");
    let rows: String = text
        .lines()
        .skip(1)
        .map(|r| format!("{r}\n"))
        .collect::<String>()
        .repeat(20);
    let input = dir.write("big.csv", format!("quizzes,solutions\n{rows}"));
    let test = dir.path("test.csv");
    let (first, code, stderr) = first_line_then_close(
        command(&["split", "--train", "-", "--test", test.to_str().unwrap()]).arg(&input),
    );
    assert_eq!(first, "quizzes,solutions\n");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "error: writing <stdout>: its reader closed it before the end; <stdout> may end part \
             way through a record; {} stops with it: it holds ",
            test.display()
        )),
        "{stderr}"
    );
    // a full disk likewise
    let (code, stderr) = {
        let out = bin()
            .args(["split", "--train", "/dev/full", "--test"])
            .arg(&test)
            .arg(&input)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stderr).unwrap())
    };
    assert_eq!(code, Some(2));
    assert!(stderr.contains("writing /dev/full ("), "{stderr}");
    assert!(stderr.contains("stops with it"), "{stderr}");
}

/// The part that did not fail holds exactly the records up to where the message says: a
/// resumed run misses none and repeats none. (It said the line of the batch before the one that
/// failed, while the part held that batch too: thousands of records repeated on a resume.)
#[cfg(target_os = "linux")]
#[test]
fn a_failed_part_leaves_the_other_ending_where_the_message_says() {
    let dir = Workdir::new();
    let text = include_str!("../../data/easy_300.txt");
    // numbered lines, so a record says where it comes from
    let body: String = (0..40_000)
        .map(|i| {
            let line = text.lines().nth(i % 300).unwrap();
            format!("{line} {}\n", i + 1)
        })
        .collect();
    let input = dir.write("big.txt", body);
    let whole = dir.path("whole.txt");
    let out = command(&[
        "split",
        "-q",
        "--test-fraction",
        "0.5",
        "--test",
        "/dev/null",
    ])
    .arg("--train")
    .arg(&whole)
    .arg(&input)
    .output()
    .unwrap();
    assert!(out.status.success());
    // the train part is written before the test part's share of each batch: it takes the
    // batch the test part fails on
    let train = dir.path("train.txt");
    let out = command(&[
        "split",
        "-q",
        "--test-fraction",
        "0.5",
        "--test",
        "/dev/full",
    ])
    .arg("--train")
    .arg(&train)
    .arg(&input)
    .output()
    .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let marker = format!(
        "{} stops with it: it holds its records up to ",
        train.display()
    );
    let at = stderr.find(&marker).unwrap_or_else(|| panic!("{stderr}")) + marker.len();
    let line: u64 = stderr[at..]
        .split_once(':')
        .and_then(|(_, rest)| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{stderr}"));
    let number = |l: &str| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap();
    let expected: Vec<String> = std::fs::read_to_string(&whole)
        .unwrap()
        .lines()
        .filter(|l| number(l) <= line)
        .map(str::to_string)
        .collect();
    let held: Vec<String> = std::fs::read_to_string(&train)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert!(!held.is_empty() && held.len() < 20_000, "{}", held.len());
    assert_eq!(held, expected, "{stderr}");
}

#[cfg(target_os = "linux")]
#[test]
fn an_interrupted_split_says_where_its_parts_end() {
    use std::io::Write;
    let dir = Workdir::new();
    let p = hardest(3);
    let mut child = command(&["split", "-j2", "--test-fraction", "0.5", "-"])
        .arg("--train")
        .arg(dir.path("train"))
        .arg("--test")
        .arg(dir.path("test"))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    write!(stdin, "{}\n{}\nbad\n{}\n", p[0], p[1], p[2]).unwrap();
    stdin.flush().unwrap();
    crate::signals::wait_for_handler(&child, libc::SIGINT);
    std::thread::sleep(std::time::Duration::from_millis(200));
    crate::signals::send(&child, libc::SIGINT);
    let stderr = read_all(child.stderr.take());
    assert_eq!(child.wait().unwrap().code(), Some(130), "{stderr}");
    drop(stdin);
    assert!(
        stderr.contains("<stdin>:3: found 3 cells, expected 81"),
        "{stderr}"
    );
    assert!(
        stderr
            .trim_end()
            .ends_with("; interrupted by SIGINT: the parts hold every record up to <stdin>:4"),
        "{stderr}"
    );
    let parts = dir.read("train") + &dir.read("test");
    let mut got: Vec<&str> = parts.lines().collect();
    got.sort();
    let mut want = p.clone();
    want.sort();
    assert_eq!(got, want);
}

/// A fraction that leaves a part with no class of the dataset (allowed: it depends on the
/// dataset) is said: the bounds of `--test-fraction` promise both parts classes, and a run that
/// gave one none said only "0 test".
#[test]
fn a_part_left_empty_is_said() {
    let dir = Workdir::new();
    let input = dir.write("in.txt", hardest(50).join("\n") + "\n");
    let input = input.to_str().unwrap();
    for (fraction, part, said) in [
        ("0.0000001", "test", "1e-7"),
        ("0.9999999", "train", "0.9999999"),
        // said as written, not in 300 digits
        ("1e-300", "test", "1e-300"),
    ] {
        let (code, stderr) = split(&dir, &["--test-fraction", fraction, input]);
        assert_eq!(code, Some(0), "{stderr}");
        assert!(
            stderr.contains(&format!("warning: the {part} part is empty")),
            "{stderr}"
        );
        assert!(
            stderr.ends_with(&format!("--test-fraction {said}\n")),
            "{stderr}"
        );
    }
    let (code, stderr) = split(&dir, &[input]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");
}
