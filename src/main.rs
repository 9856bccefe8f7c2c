//! The `sudoku-batch` binary: parses the command line and hands over to one subcommand.

mod cli;
mod cmd;

use std::process::ExitCode;

fn main() -> ExitCode {
    // a write past the file size limit (`ulimit -f`) fails as on a full disk, and the output
    // is cut back to whole records; SIGXFSZ's default would kill the run mid-record
    #[cfg(unix)]
    // SAFETY: sets the disposition of a signal no other code of the process handles, before
    // any thread is started
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    let cli = match cli::Cli::from_command_line() {
        Ok(cli) => cli,
        Err(err) => return parse_error(&err),
    };
    let result = match &cli.command {
        // 128 + a signal's number when one stopped the run
        cli::Command::Solve(args) => cmd::solve::run(args),
        // 1 when the datasets have problems
        cli::Command::Check(args) => cmd::check::run(args),
        cli::Command::Canon(args) => cmd::canon::run(args),
        cli::Command::Augment(args) => cmd::augment::run(args),
        cli::Command::Rate(args) => cmd::rate::run(args),
        cli::Command::Split(args) => cmd::split::run(args),
        // 1 when a record met no target within --max-tries
        cli::Command::Generate(args) => cmd::generate::run(args),
        cli::Command::Bench(args) => cmd::bench::run(args),
        cli::Command::MergeStats(args) => cmd::merge_stats::run(args).map(|()| ExitCode::SUCCESS),
        cli::Command::Completions(args) => cmd::docs::completions(args).map(|()| ExitCode::SUCCESS),
        cli::Command::Man(args) => cmd::docs::man(args).map(|()| ExitCode::SUCCESS),
    };
    match result {
        Ok(code) => code,
        // whoever read our last output has gone: nothing left to write, nothing to report
        Err(err) if cmd::reader_left(&err) => ExitCode::SUCCESS,
        // a signal while the run waited to begin (a named pipe's reader): not a failure of it
        Err(err) => match cmd::signals::stopped_before_start(&err) {
            Some(code) => {
                cmd::stderr_line(format_args!("sudoku-batch: {err:#}"));
                code
            }
            None => {
                cmd::stderr_line(format_args!("sudoku-batch: error: {err:#}"));
                ExitCode::from(2)
            }
        },
    }
}

/// What a command line clap did not run on ends with: `--help` and `--version` printed on
/// stdout (exit 0), a usage error on stderr (exit 2).
///
/// Why not clap's own `exit`: it leaves the exit code 0 when the help could not be written
/// (`--help > /dev/full`, or `>&-`); a help that was not printed is a failure like any other
/// write.
fn parse_error(err: &clap::Error) -> ExitCode {
    if let Some(state) = cmd::files::stdout_unusable_at_start().filter(|_| !err.use_stderr()) {
        cmd::stderr_line(format_args!(
            "sudoku-batch: error: writing <stdout>: standard output is {state}"
        ));
        return ExitCode::from(2);
    }
    let printed = err.print();
    if !err.use_stderr() {
        if let Err(e) = printed.and_then(|()| std::io::Write::flush(&mut std::io::stdout())) {
            if e.kind() != std::io::ErrorKind::BrokenPipe {
                cmd::stderr_line(format_args!("sudoku-batch: error: writing <stdout>: {e}"));
                return ExitCode::from(2);
            }
        }
    }
    ExitCode::from(u8::try_from(err.exit_code()).unwrap_or(2))
}
