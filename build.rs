//! Build facts the benchmark reports: the compiler's version, the git commit and the profile.
//! Each falls back to `unknown` where it cannot be found (no git, a source tarball).

use std::path::Path;
use std::process::Command;

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    println!(
        "cargo:rustc-env=SUDOKU_BATCH_RUSTC={}",
        output_of(&rustc, &["-V"]).unwrap_or_else(|| "unknown".to_string())
    );
    println!(
        "cargo:rustc-env=SUDOKU_BATCH_COMMIT={}",
        output_of("git", &["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".to_string())
    );
    println!(
        "cargo:rustc-env=SUDOKU_BATCH_PROFILE={}",
        std::env::var("PROFILE").unwrap_or_else(|_| "unknown".to_string())
    );
    // rebuild when the commit moves: HEAD, and the branch it points to (in a worktree too)
    println!("cargo:rerun-if-changed=build.rs");
    for file in ["HEAD", "packed-refs"] {
        watch_git_path(file);
    }
    if let Some(branch) = output_of("git", &["symbolic-ref", "-q", "HEAD"]) {
        watch_git_path(&branch);
    }
}

/// Asks cargo to rerun this script when the git file `name` changes, if it exists.
fn watch_git_path(name: &str) {
    if let Some(path) = output_of("git", &["rev-parse", "--git-path", name]) {
        if Path::new(&path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
}

/// The trimmed standard output of a command that succeeded, if any.
fn output_of(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let text = text.trim();
    (out.status.success() && !text.is_empty()).then(|| text.to_string())
}
