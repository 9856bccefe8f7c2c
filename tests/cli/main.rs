//! CLI integration tests: the real binary on real files, one test binary for the whole suite.
//!
//! Golden files live in tests/golden/; after a deliberate output change, regenerate them with
//! `BLESS=1 cargo test --test cli` and review the diff before committing.

mod augment;
mod bench;
mod canon;
mod check;
mod corpora;
mod docs;
mod faults;
mod files;
mod generate;
mod input;
mod pipe;
mod placed;
mod rate;
mod signals;
mod solve;
mod split;

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// Path of a file in the repository.
pub fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The binary, run from the repository root so relative paths in messages are short and stable.
pub fn bin() -> Command {
    let mut cmd = Command::cargo_bin("sudoku-batch").expect("binary built");
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

/// The binary as a std command, for runs that hold pipes open or send signals; run from the
/// repository root like [`bin`].
///
/// The child gets the default action for SIGINT, SIGTERM and SIGHUP whatever this process
/// inherited: the binary leaves a signal ignored when it starts ignored (as under `nohup`), so
/// the signal tests would otherwise depend on how the test run was started.
pub fn command(args: &[&str]) -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-batch"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR")).args(args);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: between fork and exec the closure only calls `signal`, which is
        // async-signal-safe, and allocates nothing.
        unsafe {
            cmd.pre_exec(|| {
                for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                    libc::signal(signal, libc::SIG_DFL);
                }
                Ok(())
            });
        }
    }
    cmd
}

/// Everything a child writes to `pipe` (its stdout or stderr, taken from it), to the end.
pub fn read_all(pipe: Option<impl std::io::Read>) -> String {
    let mut text = String::new();
    std::io::Read::read_to_string(&mut pipe.expect("a piped stream"), &mut text).expect("read");
    text
}

/// Runs `cmd` with `input` on a pipe to its stdin (closed once written), stdout and stderr
/// piped; returns what it wrote and its status.
pub fn output_fed(cmd: &mut std::process::Command, input: &[u8]) -> std::process::Output {
    use std::process::Stdio;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("piped stdin");
    // a run that refuses its input may close the pipe first
    let _ = std::io::Write::write_all(&mut stdin, input);
    drop(stdin);
    child.wait_with_output().expect("wait")
}

/// Runs `cmd` as `cmd | head -1` would: reads the first line of its stdout, closes the pipe,
/// then waits; returns that line, the exit code and all of stderr.
pub fn first_line_then_close(cmd: &mut std::process::Command) -> (String, Option<i32>, String) {
    use std::io::BufRead;
    use std::process::Stdio;
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("read");
    let stderr = read_all(child.stderr.take());
    let code = child.wait().expect("wait").code();
    (first, code, stderr)
}

/// Runs `cmd`, which must succeed (else the test fails with its stderr), and returns its stdout.
pub fn stdout_ok(cmd: &mut Command) -> Vec<u8> {
    let out = cmd.output().expect("run");
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The records of jsonl output, one JSON value a line.
pub fn jsonl(output: &[u8]) -> Vec<serde_json::Value> {
    std::str::from_utf8(output)
        .expect("utf-8 output")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON object a line"))
        .collect()
}

/// A fresh temporary folder per test.
pub struct Workdir {
    dir: tempfile::TempDir,
}

impl Default for Workdir {
    fn default() -> Self {
        Workdir::new()
    }
}

impl Workdir {
    /// A new empty folder.
    pub fn new() -> Workdir {
        Workdir {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    /// Path of `name` inside the folder.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Writes `contents` to `name` and returns its path.
    pub fn write(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.path(name);
        std::fs::write(&path, contents).expect("write test file");
        path
    }

    /// Reads `name` as text.
    pub fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.path(name)).expect("read test file")
    }
}

/// `header` and the 200 rows of data/kaggle_200.csv 50 times over (each after `n,` when the
/// header has an id first), gzipped and cut at three quarters, written to `name` in `dir`: an
/// input that fails part way, far past the 64 KiB that opening it reads.
pub fn cut_kaggle_gzip(dir: &Workdir, name: &str, header: &str) -> PathBuf {
    use std::io::Write as _;
    let rows = std::fs::read_to_string(repo("data/kaggle_200.csv")).unwrap();
    let with_id = header.starts_with("id,");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    writeln!(gz, "{header}").unwrap();
    for n in 0..10_000 {
        let row = rows.lines().nth(1 + n % 200).unwrap();
        match with_id {
            true => writeln!(gz, "{n},{row}").unwrap(),
            false => writeln!(gz, "{row}").unwrap(),
        }
    }
    let gz = gz.finish().unwrap();
    dir.write(name, &gz[..gz.len() * 3 / 4])
}

/// Compares `actual` with tests/golden/`name`, or rewrites the golden file when BLESS is set.
pub fn golden(name: &str, actual: &[u8]) {
    let path = repo("tests/golden").join(name);
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, actual).expect("bless golden file");
        return;
    }
    let expected = std::fs::read(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (run with BLESS=1 to create it)", path.display()));
    if expected != actual {
        panic!(
            "output differs from {}\n--- expected\n{}\n--- actual\n{}",
            path.display(),
            String::from_utf8_lossy(&expected),
            String::from_utf8_lossy(actual)
        );
    }
}
