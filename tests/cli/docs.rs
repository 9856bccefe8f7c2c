//! `completions` and `man`: generated from the command-line definitions, they name every
//! subcommand and option `--help` does.

use std::process::Command;

use crate::{Workdir, bin, stdout_ok};

const SUBCOMMANDS: [&str; 10] = [
    "solve",
    "check",
    "bench",
    "canon",
    "augment",
    "rate",
    "split",
    "merge-stats",
    "completions",
    "man",
];

#[test]
fn completions_name_every_subcommand_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = String::from_utf8(stdout_ok(bin().args(["completions", shell]))).unwrap();
        for sub in SUBCOMMANDS {
            assert!(script.contains(sub), "{shell}: no {sub}");
        }
        // options of a subcommand, not only the names (fish writes `-l duplicates`)
        assert!(
            script.contains("--duplicates") || script.contains("-l duplicates"),
            "{shell}"
        );
        // nothing `--help` hides: `--batch-size` was offered everywhere, and `split` the
        // `--pipe` and `--echo` it refuses
        assert!(!script.contains("batch-size"), "{shell}");
        assert!(
            script.contains("--version") || script.contains("-l version"),
            "{shell}"
        );
    }
    let bash = String::from_utf8(stdout_ok(bin().args(["completions", "bash"]))).unwrap();
    let split = bash
        .split("sudoku__batch__subcmd__split)")
        .nth(1)
        .and_then(|rest| rest.lines().find(|l| l.contains("opts=")))
        .unwrap();
    assert!(
        split.contains("--train") && !split.contains("--pipe"),
        "{split}"
    );
    assert!(!split.contains("--echo"), "{split}");
    // `--duplicates` takes its value joined (`--duplicates=iso`): the word after it is an
    // input, not `exact iso` (offered, then refused as no such input)
    let after = bash.split("--duplicates)\n").nth(1).unwrap();
    let reply = after.lines().next().unwrap();
    assert!(reply.contains("compgen -f"), "{reply}");
    // the bash script is valid bash
    let dir = Workdir::new();
    let path = dir.write(
        "sudoku-batch.bash",
        stdout_ok(bin().args(["completions", "bash"])),
    );
    let syntax = Command::new("bash").arg("-n").arg(&path).status().unwrap();
    assert!(syntax.success());
    // and completes after a subcommand: its options, and an option's values (nothing did: the
    // states it set were spelled otherwise in its case labels)
    for (words, expected) in [
        ("sudoku-batch solve --un", "--unique"),
        ("sudoku-batch check --dupl", "--duplicates"),
        ("sudoku-batch generate --symmetry rot", "rot180 rot90"),
        ("sudoku-batch --vers", "--version"),
    ] {
        let words: Vec<&str> = words.split(' ').collect();
        let script = format!(
            "source '{}'; COMP_WORDS=({}); COMP_CWORD={}; _sudoku__batch sudoku-batch '{}' '{}'; \
             echo \"${{COMPREPLY[*]}}\"",
            path.display(),
            words.join(" "),
            words.len() - 1,
            words[words.len() - 1],
            words[words.len() - 2],
        );
        let out = Command::new("bash")
            .arg("-c")
            .arg(&script)
            .output()
            .unwrap();
        let reply = String::from_utf8(out.stdout).unwrap();
        assert!(reply.contains(expected), "{words:?}: [{reply}]");
    }
}

#[test]
fn an_unknown_shell_is_a_usage_error() {
    bin().args(["completions", "tcsh"]).assert().code(2);
}

#[test]
fn man_prints_the_main_page_and_writes_one_per_subcommand() {
    let page = String::from_utf8(stdout_ok(bin().arg("man"))).unwrap();
    assert!(page.contains(".TH sudoku-batch 1"), "{page}");
    for sub in SUBCOMMANDS {
        // roff escapes a hyphen
        assert!(
            page.contains(&sub.replace('-', "\\-")),
            "main page: no {sub}"
        );
    }
    let dir = Workdir::new();
    stdout_ok(bin().args(["man", "--dir"]).arg(dir.path("")));
    for sub in SUBCOMMANDS {
        let page = dir.read(&format!("sudoku-batch-{sub}.1"));
        assert!(
            page.contains(&format!(".TH sudoku-batch-{sub} 1")),
            "{sub}: {}",
            &page[..200]
        );
        // the synopsis names the command as it is typed
        let typed = format!("sudoku\\-batch {}", sub.replace('-', "\\-"));
        assert!(page.contains(&typed), "{sub}");
    }
    // every page the main page names is there (`help` was named and not written)
    let main = dir.read("sudoku-batch.1");
    for named in main.split("sudoku\\-batch\\-").skip(1) {
        let sub = named.split('(').next().unwrap().replace("\\-", "-");
        assert!(
            dir.path(&format!("sudoku-batch-{sub}.1")).exists(),
            "no page for {sub}"
        );
    }
    let solve = dir.read("sudoku-batch-solve.1");
    assert!(solve.contains("\\-\\-unique"), "{solve}");
    assert!(dir.read("sudoku-batch.1").contains(".TH sudoku-batch 1"));
    // every page another names is there: `help`'s named sudoku-batch-help-solve(1) and others
    for sub in SUBCOMMANDS.iter().chain(&["help"]) {
        let page = dir.read(&format!("sudoku-batch-{sub}.1"));
        for named in page.split("sudoku\\-batch\\-").skip(1) {
            let other = named
                .split('(')
                .nth(1)
                .map(|_| named.split('(').next().unwrap());
            if let Some(other) = other.filter(|o| !o.contains(char::is_whitespace)) {
                let other = other.replace("\\-", "-");
                assert!(
                    dir.path(&format!("sudoku-batch-{other}.1")).exists(),
                    "{sub}'s page names {other}(1), which is not there"
                );
            }
        }
    }
    // one subcommand's page on stdout, as --dir writes it (README: `man solve | man -l -`)
    let printed = String::from_utf8(stdout_ok(bin().args(["man", "solve"]))).unwrap();
    assert_eq!(printed, solve);
    let out = bin().args(["man", "nope"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nope: no such subcommand"));
}

/// The last section of a page, from `--help`'s text after the options, was filled as running
/// text: the rows of its tables ran into each other and its example commands were re-spaced and
/// split. Its tables and examples (indented lines) are set as written; its paragraphs are
/// filled to the page (set as written, they ran past an 80-column page).
#[test]
fn man_pages_keep_the_lines_of_the_text_after_the_options() {
    for sub in ["check", "solve", "generate"] {
        let page = String::from_utf8(stdout_ok(bin().args(["man", sub]))).unwrap();
        let extra = page
            .split("\n.SH EXTRA\n")
            .nth(1)
            .expect("an EXTRA section");
        let extra = extra.split("\n.SH ").next().unwrap();
        let (mut as_written, mut indented, mut filled) = (false, 0, 0);
        for line in extra.lines() {
            match line {
                ".nf" => as_written = true,
                ".fi" => as_written = false,
                l if l.starts_with(' ') => {
                    assert!(as_written, "{sub}: {l:?} filled");
                    indented += 1;
                }
                "" => {}
                l => {
                    assert!(!as_written, "{sub}: {l:?} set as written");
                    filled += 1;
                }
            }
        }
        assert!(!as_written, "{sub}: no .fi at the end");
        assert!(indented > 0 && filled > 0, "{sub}: {extra}");
    }
    let page = String::from_utf8(stdout_ok(bin().args(["man", "check"]))).unwrap();
    assert!(
        page.contains("\n  sudoku\\-batch check data/kaggle_200.csv\n"),
        "{page}"
    );
}

#[test]
fn man_refuses_a_folder_that_is_not_there() {
    let dir = Workdir::new();
    let out = bin()
        .args(["man", "--dir"])
        .arg(dir.path("nope"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nope: no such folder"));
    // a file where the folder should be
    let file = dir.write("file", "x");
    let out = bin().args(["man", "--dir"]).arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("file: not a folder"));
}

#[test]
fn man_dir_changes_no_page_when_one_cannot_be_written_and_leaves_no_stray_file() {
    let dir = Workdir::new();
    for sub in SUBCOMMANDS {
        dir.write(&format!("sudoku-batch-{sub}.1"), "old page\n");
    }
    std::fs::remove_file(dir.path("sudoku-batch-rate.1")).unwrap();
    std::fs::create_dir(dir.path("sudoku-batch-rate.1")).unwrap();
    let out = bin()
        .args(["man", "--dir"])
        .arg(dir.path(""))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("sudoku-batch-rate.1: not a file"),
        "{stderr}"
    );
    for sub in SUBCOMMANDS.iter().filter(|&&s| s != "rate") {
        assert_eq!(
            dir.read(&format!("sudoku-batch-{sub}.1")),
            "old page\n",
            "{sub}"
        );
    }
    // once it can be written, every page is new and nothing else is left in the folder
    std::fs::remove_dir(dir.path("sudoku-batch-rate.1")).unwrap();
    stdout_ok(bin().args(["man", "--dir"]).arg(dir.path("")));
    for entry in std::fs::read_dir(dir.path("")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(
            name.starts_with("sudoku-batch") && name.ends_with(".1"),
            "{name}"
        );
        assert!(
            dir.read(&name).starts_with(".ie"),
            "{name}: {}",
            dir.read(&name)
        );
    }
}

/// `man --dir` stopped by a signal while it wrote a page left that page's temporary file in
/// the folder (88 of 150 runs stopped 1-20 ms in): the signal now waits for the page to be
/// renamed, and every page there is whole, the old or the new.
#[test]
fn man_dir_stopped_by_a_signal_leaves_no_stray_file() {
    use std::time::Duration;
    let dir = Workdir::new();
    let (folder, whole) = (dir.path("man"), dir.path("whole"));
    std::fs::create_dir(&folder).unwrap();
    std::fs::create_dir(&whole).unwrap();
    stdout_ok(bin().args(["man", "--dir", whole.to_str().unwrap()]));
    for i in 0..60u64 {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
            .args(["man", "--dir", folder.to_str().unwrap()])
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_micros(300 * (i % 40)));
        crate::signals::send(&child, libc::SIGINT);
        let status = child.wait().unwrap();
        // done, stopped by the handler, or killed before the handlers were in
        assert!(matches!(status.code(), Some(0 | 130) | None), "{status:?}");
        let names: Vec<String> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(
            names.iter().all(|n| n.ends_with(".1")),
            "run {i}: {names:?}"
        );
        for name in &names {
            let page = std::fs::read(folder.join(name)).unwrap();
            assert_eq!(page, std::fs::read(whole.join(name)).unwrap(), "{name}");
        }
    }
}

/// `split --help` listed --pipe and --echo with their whole descriptions, options it refuses:
/// they are hidden there (and refused, as its help says), and listed where they apply.
#[test]
fn split_help_lists_no_option_it_refuses() {
    let help = |cmd: &str| {
        let out = bin().args([cmd, "--help"]).output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let split = help("split");
    for option in ["--pipe", "--echo"] {
        assert!(!split.contains(&format!("  {option}")), "{split}");
        assert!(help("solve").contains(&format!("  {option}")));
    }
    assert!(split.contains("--pipe and --echo do\nnot apply"), "{split}");
}

/// `man` and `completions` read nothing, yet refused a standard input redirected from the file
/// standard error goes to (`man solve < log 2>> log`), and a closed one; `help`'s page had no
/// version in its header.
#[test]
fn man_and_completions_take_any_standard_input() {
    use std::os::unix::process::CommandExt;
    let dir = Workdir::new();
    let log = dir.write("log", "old\n");
    for args in [&["man", "solve"][..], &["completions", "bash"]] {
        let append = || std::fs::OpenOptions::new().append(true).open(&log).unwrap();
        let out = crate::command(args)
            .stdin(std::fs::File::open(&log).unwrap())
            .stderr(append())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", dir.read("log"));
        let mut closed = crate::command(args);
        // SAFETY: close is async-signal-safe
        unsafe {
            closed.pre_exec(|| {
                libc::close(0);
                Ok(())
            });
        }
        let out = closed.output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?} <&-");
    }
    assert_eq!(dir.read("log"), "old\n");
    let help = String::from_utf8(stdout_ok(bin().args(["man", "help"]))).unwrap();
    let version = format!("\"sudoku-batch-help {}\"", env!("CARGO_PKG_VERSION"));
    assert!(help.contains(&version), "{}", &help[..300]);
}
