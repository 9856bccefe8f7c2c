//! Ctrl-C, SIGTERM and SIGHUP during `solve` and `check`.
//!
//! The first one raises the reader's stop flag: reading stops (the record being read is
//! dropped), the batches in flight are finished and written in order (`rate` and `check --rate`
//! without `--duplicates` leave out the records not yet begun and write up to the first of
//! them, since a rating can take a second), every file is completed and flushed, and the
//! summary says the run was interrupted and where the output ends. The exit
//! code is 128 plus the signal's number (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP), as a
//! shell reports a process killed by it. A second one (of any kind) exits at once, with the
//! first's code, for when finishing takes too long; one within 0.1 s of the first counts as the first
//! (`timeout` sends its signal twice: to the run, then to its process group).

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};

use anyhow::{Context, Result};

use sudoku_batch::stats::Interruption;

/// The signal handlers of a run and what they have seen.
pub struct Signals {
    stop: Arc<AtomicBool>,
}

impl Signals {
    /// Installs the handlers for SIGINT, SIGTERM and SIGHUP.
    pub fn install() -> Result<Signals> {
        let signals = Signals {
            stop: Arc::new(AtomicBool::new(false)),
        };
        #[cfg(unix)]
        {
            use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
            // when the first signal came
            let first_at = Arc::new(AtomicU64::new(0));
            for signal in [SIGINT, SIGTERM, SIGHUP] {
                if ignored_at_start(signal) {
                    continue;
                }
                let stop = Arc::clone(&signals.stop);
                let first_at = Arc::clone(&first_at);
                let action = move || {
                    let now = monotonic_nanos();
                    if FIRST.load(Ordering::SeqCst) != 0 {
                        // a second signal exits at once; one within the grace of the first is
                        // the first again (`timeout` sends its signal to the run, then to the
                        // whole process group, the run included)
                        if now.saturating_sub(first_at.load(Ordering::SeqCst)) >= SAME_SIGNAL_NANOS
                        {
                            say_stopped_at_once();
                            // the code of the signal that stopped the run (a SIGTERM after a
                            // Ctrl-C exited 143)
                            signal_hook::low_level::exit(128 + FIRST.load(Ordering::SeqCst));
                        }
                        return;
                    }
                    first_at.store(now, Ordering::SeqCst);
                    FIRST.store(signal, Ordering::SeqCst);
                    stop.store(true, Ordering::SeqCst);
                };
                // SAFETY: the action only reads the monotonic clock (clock_gettime is
                // async-signal-safe), loads and stores atomics, writes a static message with
                // `write` and calls `_exit`; it allocates nothing and takes no lock.
                unsafe { signal_hook::low_level::register(signal, action) }
                    .map(|_| ())
                    .context("installing the signal handlers")?;
            }
        }
        Ok(signals)
    }

    /// The flag the reader stops at.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Runs `then` with the first signal's number on a thread of its own when that signal comes
    /// (the thread sleeps in a read until then, taking no time from the run); a signal ignored
    /// at the start stays ignored. For `bench`, whose timing loops look at no stop flag.
    pub fn on_first(&self, then: impl FnOnce(i32) + Send + 'static) -> Result<()> {
        #[cfg(unix)]
        {
            use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
            use std::io::Read;
            use std::os::unix::net::UnixStream;
            let (mut woken, wake) = UnixStream::pair().context("installing the signal handlers")?;
            for signal in [SIGINT, SIGTERM, SIGHUP] {
                if ignored_at_start(signal) {
                    continue;
                }
                let wake = wake.try_clone().context("installing the signal handlers")?;
                signal_hook::low_level::pipe::register(signal, wake)
                    .context("installing the signal handlers")?;
            }
            std::thread::Builder::new()
                .name("signal".into())
                .spawn(move || {
                    // a signal that came after `install` but before the pipe was registered
                    // wrote no byte there: it was lost (a run then ended as if none had come)
                    let mut byte = [0u8];
                    if first_received().is_some() || woken.read(&mut byte).is_ok_and(|n| n == 1) {
                        // the stop flag's handler ran first (it was registered first)
                        then(first_received().unwrap_or(signal_hook::consts::SIGINT));
                    }
                })
                .context("installing the signal handlers")?;
        }
        #[cfg(not(unix))]
        let _ = then;
        Ok(())
    }

    /// The first signal received, if any.
    fn received(&self) -> Option<i32> {
        first_received()
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

    /// The exit code of a run a signal stopped while its inputs were opened, before its
    /// outputs were emptied (an idle pipe: `slow | sudoku-batch solve -o out.txt`, Ctrl-C):
    /// said on stderr unless `quiet`; `None` when no signal came. The run then ends there,
    /// every output as it was: emptying them, it lost an earlier run's file though it had
    /// nothing to write.
    pub fn stopped_before_begin(&self, quiet: bool) -> Option<ExitCode> {
        let code = self.exit_code()?;
        if !quiet {
            let stopped = self.interruption(None).map(|i| i.stopped_by());
            super::stderr_line(format_args!(
                "{} before the first record was read: nothing written, every output as it was",
                stopped.unwrap_or_default()
            ));
        }
        Some(code)
    }

    /// The exit code of a run a signal stopped (128 plus its number), `None` when none did.
    pub fn exit_code(&self) -> Option<ExitCode> {
        let signal = self.received()?;
        Some(ExitCode::from(
            u8::try_from(128 + signal).unwrap_or(u8::MAX),
        ))
    }
}

/// The first signal received by the handlers of [`Signals::install`] (0: none): one process
/// runs one command, so one place, also for what waits before a run has its stop flag at hand
/// (an output that is a named pipe with no reader yet).
static FIRST: AtomicI32 = AtomicI32::new(0);

/// The first signal received since the handlers were installed, if any.
pub fn first_received() -> Option<i32> {
    match FIRST.load(Ordering::SeqCst) {
        0 => None,
        n => Some(n),
    }
}

/// For a run whose [`Signals::on_first`] action ends the process: once a signal has come, waits
/// for that action instead of returning, so the run does not end first (exit 0, the action's
/// message cut off mid-line) when the signal came during its last write.
pub fn let_a_signal_end_the_run() {
    if first_received().is_some() {
        loop {
            std::thread::park();
        }
    }
}

/// A run stopped by a signal before it began: nothing was written, and the exit code is 128
/// plus the signal's number, as for a run stopped later.
#[derive(Debug)]
pub struct StoppedBeforeStart {
    pub signal: i32,
    /// What the run was waiting for.
    pub waiting: String,
}

impl std::fmt::Display for StoppedBeforeStart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "interrupted by {} while waiting for {}: nothing was written",
            signal_name(self.signal),
            self.waiting
        )
    }
}

impl std::error::Error for StoppedBeforeStart {}

/// The exit code of a run that `err` says a signal stopped before it began.
pub fn stopped_before_start(err: &anyhow::Error) -> Option<ExitCode> {
    let stopped = err.downcast_ref::<StoppedBeforeStart>()?;
    Some(ExitCode::from(
        u8::try_from(128 + stopped.signal).unwrap_or(u8::MAX),
    ))
}

/// A signal that comes within this time of the first is taken for the first one again, not for
/// the second that stops the run at once: `timeout` sends one to the run and, microseconds
/// later, to its whole process group (a person's second Ctrl-C comes tenths of a second later
/// at the soonest).
#[cfg(unix)]
const SAME_SIGNAL_NANOS: u64 = 100_000_000;

/// Tells, on stderr, that a second signal stopped the run where it stood: without a word, a
/// run that had finished records but not yet written them (`rate` finishing its ratings under
/// way) left its outputs empty and looked as if the first signal had done it. A static message
/// by `write`, which is async-signal-safe; a stderr that cannot take it changes nothing.
#[cfg(unix)]
fn say_stopped_at_once() {
    const MESSAGE: &[u8] = b"stopped at once by a second signal: records not yet written are \
        lost, and the outputs (--stats and --report too) hold what was written before, or \
        nothing\n";
    // SAFETY: writes a static buffer of its own length to descriptor 2.
    let _ = unsafe { libc::write(2, MESSAGE.as_ptr().cast(), MESSAGE.len()) };
}

/// The monotonic clock in nanoseconds (0 if it cannot be read), safe to read in a signal
/// handler.
#[cfg(unix)]
fn monotonic_nanos() -> u64 {
    // SAFETY: clock_gettime only writes the zeroed timespec handed to it, which outlives the
    // call; it is async-signal-safe.
    let mut now: libc::timespec = unsafe { std::mem::zeroed() };
    if unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now) } != 0 {
        return 0;
    }
    (now.tv_sec as u64).saturating_mul(1_000_000_000) + now.tv_nsec as u64
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
pub fn signal_name(signal: i32) -> &'static str {
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

/// A watch on a pipe (or socket) the record output goes to, for its reader going away
/// (`rate --explain hard.txt | head`): the run learnt of it only at its next write, which with
/// slow records came after every rating in flight (50 s of two busy cores for no one). Once the
/// reader is gone, the watch raises the run's stop flag, as a signal does: reading stops and
/// records not yet begun are left; the next write then fails as a broken pipe, as before.
#[cfg(unix)]
pub struct PipeWatch {
    done: Arc<AtomicBool>,
    gone: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

#[cfg(unix)]
impl PipeWatch {
    /// Watches `fd` (a copy of the output's descriptor, closed when the watch ends) on a thread
    /// of its own; `stop` is raised when the reader goes.
    pub fn start(fd: std::os::fd::OwnedFd, socket: bool, stop: Arc<AtomicBool>) -> PipeWatch {
        use std::os::fd::AsRawFd;
        let done = Arc::new(AtomicBool::new(false));
        let gone = Arc::new(AtomicBool::new(false));
        let (done_seen, gone_set) = (Arc::clone(&done), Arc::clone(&gone));
        let thread = std::thread::Builder::new()
            .name("pipe-watch".into())
            .spawn(move || {
                while !done_seen.load(Ordering::SeqCst) {
                    // no events asked: poll reports POLLERR (a pipe whose reader closed) and
                    // POLLHUP (a socket whose peer did) whatever is asked; on a socket an error
                    // (a datagram refused) is no reader gone, and the next write tells it
                    let gone = match socket {
                        true => libc::POLLHUP,
                        false => libc::POLLERR | libc::POLLHUP,
                    };
                    let mut pfd = libc::pollfd {
                        fd: fd.as_raw_fd(),
                        events: 0,
                        revents: 0,
                    };
                    // SAFETY: one pollfd, valid for the call; the descriptor is owned here
                    let n = unsafe { libc::poll(&mut pfd, 1, POLL_MILLIS) };
                    if n > 0 && pfd.revents & gone != 0 {
                        gone_set.store(true, Ordering::SeqCst);
                        stop.store(true, Ordering::SeqCst);
                        return;
                    }
                    if n > 0 {
                        // a socket's error stays reported: look again after a while, not at once
                        std::thread::sleep(std::time::Duration::from_millis(POLL_MILLIS as u64));
                    }
                }
            })
            .ok();
        PipeWatch { done, gone, thread }
    }

    /// True when the reader went away.
    pub fn gone(&self) -> bool {
        self.gone.load(Ordering::SeqCst)
    }
}

#[cfg(unix)]
impl Drop for PipeWatch {
    /// Ends the watch, and with it its copy of the descriptor: a reader waits for the end of
    /// the output until every copy is closed.
    fn drop(&mut self) {
        self.done.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// How long a watch waits in one `poll` before it looks whether the run is over.
#[cfg(unix)]
const POLL_MILLIS: i32 = 50;

/// No watch where descriptors cannot be polled.
#[cfg(not(unix))]
pub struct PipeWatch;

#[cfg(not(unix))]
impl PipeWatch {
    /// Never: nothing is watched.
    pub fn gone(&self) -> bool {
        false
    }
}
