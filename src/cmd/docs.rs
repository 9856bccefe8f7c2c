//! `completions` and `man`: the shell completion scripts and the man pages, generated from the
//! command-line definitions themselves, so they never disagree with `--help`.

use std::io::Write;
use std::sync::{Arc, Mutex, PoisonError};

use anyhow::{Context, Result};
use clap::CommandFactory;

use super::files::OutputPlan;
use crate::cli::{Cli, CompletionsArgs, ManArgs};

/// Prints the completion script for `args.shell` on stdout.
pub fn completions(args: &CompletionsArgs) -> Result<()> {
    // reads nothing: any standard input will do (a closed one, or a file standard error goes to)
    let mut plan = OutputPlan::reading(&[])?;
    let slot = plan.add(None, "completion script")?;
    let mut out = plan.begin()?.take(slot);
    let mut script = Vec::new();
    let full = Cli::command();
    // every subcommand takes `--version` (propagated when the command is built)
    let version = full.get_version().map(str::to_string);
    let mut command = visible(&full, version.as_deref());
    clap_complete::generate(args.shell, &mut command, "sudoku-batch", &mut script);
    if args.shell == clap_complete::Shell::Bash {
        script = bash_subcommand_states(&script);
        script = bash_joined_values(&script, &command);
    }
    super::last_output(
        out.write_all(&script)
            .and_then(|()| out.flush())
            .context("writing <stdout>"),
    )
}

/// `command` with only what `--help` shows: the scripts offered `--batch-size` (hidden) on every
/// command, and `split` the `--pipe` and `--echo` it refuses (hidden there), though clap_complete
/// (4.6) writes hidden options as any other.
fn visible(command: &clap::Command, version: Option<&str>) -> clap::Command {
    let mut out = clap::Command::new(command.get_name().to_string())
        .visible_aliases(command.get_visible_aliases().map(str::to_string));
    if let Some(about) = command.get_about() {
        out = out.about(about.clone());
    }
    if let Some(version) = version {
        out = out.version(version.to_string());
    }
    for arg in command.get_arguments().filter(|a| !a.is_hide_set()) {
        out = out.arg(arg.clone());
    }
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        out = out.subcommand(visible(sub, version));
    }
    out
}

/// The bash script with the options whose value must be joined by `=` (`--duplicates=iso`)
/// completing the next word as a file, which is what it is: the script offered `exact iso`
/// after `--duplicates `, and `check --duplicates iso data.txt` takes `iso` for an input.
fn bash_joined_values(script: &[u8], command: &clap::Command) -> Vec<u8> {
    let mut text = String::from_utf8_lossy(script).into_owned();
    let mut joined = Vec::new();
    let mut stack = vec![command];
    while let Some(cmd) = stack.pop() {
        stack.extend(cmd.get_subcommands());
        for arg in cmd.get_arguments() {
            if let (true, Some(long)) = (arg.is_require_equals_set(), arg.get_long()) {
                joined.push(long.to_string());
            }
        }
    }
    for long in joined {
        let case =
            format!("                --{long})\n                    COMPREPLY=($(compgen -W ");
        while let Some(at) = text.find(&case) {
            let values = at + case.len() - "COMPREPLY=($(compgen -W ".len();
            let Some(end) = text[values..].find('\n') else {
                break;
            };
            text.replace_range(values..values + end, "COMPREPLY=($(compgen -f \"${cur}\"))");
        }
    }
    text.into_bytes()
}

/// The bash script with its subcommands' states spelled as it sets them.
///
/// Why: for a binary name with a hyphen, clap_complete (4.6) sets the state
/// `sudoku__batch__subcmd__solve` but spells its case labels `sudoku__subcmd__batch__subcmd__solve`
/// (clap-rs/clap#6421), so no label matched and nothing after a subcommand completed: not its
/// options, not their values. The labels are respelled to the states.
fn bash_subcommand_states(script: &[u8]) -> Vec<u8> {
    String::from_utf8_lossy(script)
        .replace("sudoku__subcmd__batch__subcmd__", "sudoku__batch__subcmd__")
        .into_bytes()
}

/// Prints the main man page on stdout, or writes every page into `args.dir`.
pub fn man(args: &ManArgs) -> Result<()> {
    // built, so that `help`, which the main page lists, gets its page too
    let mut command = Cli::command();
    command.build();
    let Some(dir) = &args.dir else {
        let page = match &args.page {
            None => render(command)?,
            Some(name) => match command.find_subcommand(name) {
                Some(sub) => render(subcommand_page(sub))?,
                None => {
                    let names: Vec<&str> =
                        command.get_subcommands().map(|s| s.get_name()).collect();
                    anyhow::bail!("{name}: no such subcommand (one of: {})", names.join(", "))
                }
            },
        };
        let mut plan = OutputPlan::reading(&[])?;
        let slot = plan.add(None, "man page")?;
        let mut out = plan.begin()?.take(slot);
        return super::last_output(
            out.write_all(&page)
                .and_then(|()| out.flush())
                .context("writing <stdout>"),
        );
    };
    if !dir.is_dir() {
        match dir.exists() {
            true => anyhow::bail!("{}: not a folder", dir.display()),
            false => anyhow::bail!("{}: no such folder", dir.display()),
        }
    }
    // every page made in memory first, then opened together: nothing is half written
    let mut pages = vec![("sudoku-batch.1".to_string(), render(command.clone())?)];
    for sub in command.get_subcommands() {
        let name = format!("sudoku-batch-{}", sub.get_name());
        pages.push((format!("{name}.1"), render(subcommand_page(sub))?));
    }
    // a page's place that holds something other than a file is refused before any is written
    for (file, _) in &pages {
        let path = dir.join(file);
        if std::fs::metadata(&path).is_ok_and(|m| !m.is_file()) {
            anyhow::bail!(
                "{}: not a file, cannot write the page there",
                path.display()
            );
        }
    }
    // each page written beside its place under a temporary name, then renamed over it: a write
    // that fails (a full disk) leaves every page whole, the old one or the new; so does a
    // signal, which waits for the page being written to be renamed (its temporary file was left
    // behind) and ends the run with 128 plus its number, the pages renamed before it new, the
    // others as they were
    let signals = super::signals::Signals::install()?;
    let writing: Arc<Mutex<()>> = Arc::default();
    {
        let writing = Arc::clone(&writing);
        signals.on_first(move |signal| {
            let _page_done = writing.lock().unwrap_or_else(PoisonError::into_inner);
            super::stderr_line(format_args!(
                "man: interrupted by {}: the pages written before it are new, the others as \
                 they were",
                super::signals::signal_name(signal)
            ));
            std::process::exit(128 + signal);
        })?;
    }
    for (file, page) in &pages {
        let path = dir.join(file);
        let temporary = dir.join(format!(".{file}.{}.tmp", std::process::id()));
        // held from before the temporary file is made until it is renamed or removed
        let _held = writing.lock().unwrap_or_else(PoisonError::into_inner);
        let written = std::fs::File::create_new(&temporary)
            .and_then(|mut out| out.write_all(page).and_then(|()| out.sync_all()))
            .and_then(|()| std::fs::rename(&temporary, &path));
        if let Err(err) = written {
            let _ = std::fs::remove_file(&temporary);
            return Err(err).with_context(|| format!("writing {}", path.display()));
        }
    }
    super::signals::let_a_signal_end_the_run();
    Ok(())
}

/// The command of a subcommand's page: sudoku-batch-solve(1), whose synopsis reads
/// `sudoku-batch solve ...`. `help`'s own subcommands (`help solve`, ...) are no pages: its page
/// named sudoku-batch-help-solve(1) and others that are nowhere.
fn subcommand_page(sub: &clap::Command) -> clap::Command {
    let mut page = sub
        .clone()
        .name(format!("sudoku-batch-{}", sub.get_name()))
        .bin_name(format!("sudoku-batch {}", sub.get_name()));
    // `help` is no command of its own and was given no version (its page's header had none)
    if page.get_version().is_none() {
        page = page.version(env!("CARGO_PKG_VERSION"));
    }
    let nested: Vec<String> = page
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in nested {
        page = page.mut_subcommand(name, |s| s.hide(true));
    }
    page
}

/// The roff of one page.
fn render(command: clap::Command) -> Result<Vec<u8>> {
    let mut page = Vec::new();
    clap_mangen::Man::new(command)
        .render(&mut page)
        .context("making a man page")?;
    Ok(keep_extra_lines(page))
}

/// The page with the tables and examples of its last section from `--help` (its indented
/// lines) set line by line as written, and its paragraphs filled to the page's width: all
/// filled as running text, the tables' rows ran into each other and example commands were
/// re-spaced and split; all set as written, the paragraphs ran past an 80-column page.
fn keep_extra_lines(page: Vec<u8>) -> Vec<u8> {
    let text = String::from_utf8_lossy(&page);
    let Some(start) = text.find("\n.SH EXTRA\n") else {
        return page;
    };
    let body = start + "\n.SH EXTRA\n".len();
    let end = text[body..]
        .find("\n.SH ")
        .map_or(text.len(), |e| body + e + 1);
    let mut out = String::with_capacity(text.len() + 256);
    out.push_str(&text[..body]);
    let mut as_written = false;
    for line in text[body..end].lines() {
        let indented = line.starts_with(' ');
        if indented != as_written && !line.is_empty() {
            out.push_str(if indented { ".nf\n" } else { ".fi\n" });
            as_written = indented;
        }
        out.push_str(line);
        out.push('\n');
    }
    if as_written {
        out.push_str(".fi\n");
    }
    out.push_str(&text[end..]);
    out.into_bytes()
}
