//! Ctrl-C, SIGTERM and SIGHUP during `solve` and `check`.
//!
//! The first one raises the reader's stop flag: reading stops (the record being read is
//! dropped), the batches in flight are finished and written in order (`rate` and `check --rate`
//! without `--duplicates` leave out the records not yet begun and write up to the first of
//! them, since a rating can take a second), every file is completed and flushed, and the
//! summary says the run was interrupted and where the output ends. The exit
//! code is 128 plus the signal's number (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP), as a
//! shell reports a process killed by it. A second one exits at once, with the same code, for
//! when finishing takes too long.

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use anyhow::{Context, Result};

use sudoku_batch::stats::Interruption;

/// The signal handlers of a run and what they have seen.
pub struct Signals {
    stop: Arc<AtomicBool>,
    /// The number of the first signal received (0: none).
    received: Arc<AtomicUsize>,
}

impl Signals {
    /// Installs the handlers for SIGINT, SIGTERM and SIGHUP.
    pub fn install() -> Result<Signals> {
        let signals = Signals {
            stop: Arc::new(AtomicBool::new(false)),
            received: Arc::new(AtomicUsize::new(0)),
        };
        #[cfg(unix)]
        {
            use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
            use signal_hook::flag;
            for signal in [SIGINT, SIGTERM, SIGHUP] {
                if ignored_at_start(signal) {
                    continue;
                }
                // Actions run in the order registered. The first does nothing until the flag is
                // up, so it exits on a second signal only (before the others run: the signal
                // noted stays the first one, whose exit code it is); then the signal is noted and
                // the flag raised.
                flag::register_conditional_shutdown(
                    signal,
                    128 + signal,
                    Arc::clone(&signals.stop),
                )
                .and_then(|_| {
                    flag::register_usize(signal, Arc::clone(&signals.received), signal as usize)
                })
                .and_then(|_| flag::register(signal, Arc::clone(&signals.stop)))
                .context("installing the signal handlers")?;
            }
        }
        Ok(signals)
    }

    /// The flag the reader stops at.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// The first signal received, if any.
    fn received(&self) -> Option<i32> {
        match self.received.load(Ordering::SeqCst) {
            0 => None,
            n => i32::try_from(n).ok(),
        }
    }

    /// How the run ended when a signal stopped it: the signal and the last record written
    /// (`last`: its input name and line).
    pub fn interruption(&self, last: Option<(String, u64)>) -> Option<Interruption> {
        let signal = self.received()?;
        let (file, line) = last.unzip();
        Some(Interruption {
            signal: signal_name(signal).to_string(),
            file,
            line,
            error: None,
        })
    }

    /// The exit code of a run a signal stopped (128 plus its number), `None` when none did.
    pub fn exit_code(&self) -> Option<ExitCode> {
        let signal = self.received()?;
        Some(ExitCode::from(
            u8::try_from(128 + signal).unwrap_or(u8::MAX),
        ))
    }
}

/// Whether `signal` was ignored when the process started: `nohup` ignores SIGHUP, and a shell
/// without job control SIGINT for a command it runs in the background. Such a signal stays
/// ignored, as whoever started the run asked: caught, it would stop a `nohup` run at logout.
#[cfg(unix)]
fn ignored_at_start(signal: i32) -> bool {
    // SAFETY: `sigaction` with no new action only reads the current one into `old`, a zeroed
    // `sigaction` (a plain C struct, valid when zeroed) that outlives the call.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut old) == 0
            && old.sa_sigaction == libc::SIG_IGN
    }
}

/// The usual name of a signal handled here.
fn signal_name(signal: i32) -> &'static str {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        match signal {
            SIGINT => return "SIGINT",
            SIGTERM => return "SIGTERM",
            SIGHUP => return "SIGHUP",
            _ => {}
        }
    }
    let _ = signal;
    "a signal"
}
