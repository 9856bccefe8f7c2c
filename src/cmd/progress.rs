//! The progress bar on stderr: records done, rate, share of input bytes read, ETA. Shown when stderr
//! is a terminal (`--progress auto`), forced with `--progress always`, never with `-q`.

use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};

use sudoku_batch::input::Reader;

use crate::cli::{InputArgs, ProgressArg};

/// Progress of a run, updated once per batch written.
pub struct Progress {
    bar: Option<ProgressBar>,
    bytes: Arc<AtomicU64>,
    read: Arc<AtomicU64>,
    start: Instant,
    records: u64,
}

impl Progress {
    /// A progress display for `mode`; `total` is the input size when known.
    ///
    /// `bytes` counts input bytes read and `read` records read; the reader runs a few batches ahead
    /// of the writer, so the bar shows the bytes read scaled by the share of read records written.
    pub fn new(
        mode: ProgressArg,
        quiet: bool,
        total: Option<u64>,
        bytes: Arc<AtomicU64>,
        read: Arc<AtomicU64>,
    ) -> Progress {
        let target = match mode {
            _ if quiet => None,
            ProgressArg::Never => None,
            ProgressArg::Auto if !std::io::stderr().is_terminal() => None,
            ProgressArg::Auto => Some(ProgressDrawTarget::stderr_with_hz(4)),
            // indicatif hides itself when stderr is not a terminal; `always` draws anyway
            ProgressArg::Always => Some(ProgressDrawTarget::term_like_with_hz(
                Box::new(RawStderr),
                4,
            )),
        };
        let bar = target.map(|target| {
            let bar = match total {
                Some(len) => ProgressBar::with_draw_target(Some(len), target).with_style(
                    ProgressStyle::with_template(
                        "{spinner} [{elapsed_precise}] [{wide_bar}] {percent:>3}% {msg}, ETA {eta}",
                    )
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> "),
                ),
                None => ProgressBar::with_draw_target(None, target).with_style(
                    ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}")
                        .unwrap_or_else(|_| ProgressStyle::default_spinner()),
                ),
            };
            bar.enable_steady_tick(Duration::from_millis(250));
            bar
        });
        Progress {
            bar,
            bytes,
            read,
            start: Instant::now(),
            records: 0,
        }
    }

    /// The progress display of a run over `reader` with the input options `args`, and the counter
    /// of records read that the read step adds to.
    pub fn for_reader(args: &InputArgs, reader: &Reader) -> (Progress, Arc<AtomicU64>) {
        let records_read = Arc::new(AtomicU64::new(0));
        let progress = Progress::new(
            args.progress,
            args.silent(),
            reader.total_bytes(),
            reader.bytes_read(),
            Arc::clone(&records_read),
        );
        (progress, records_read)
    }

    /// Counts `n` more records written.
    pub fn add(&mut self, n: usize) {
        self.records += n as u64;
        if let Some(bar) = &self.bar {
            let read = self.read.load(Ordering::Relaxed).max(self.records).max(1);
            let bytes = self.bytes.load(Ordering::Relaxed) as f64;
            bar.set_position((bytes * self.records as f64 / read as f64) as u64);
            let rate = self.records as f64 / self.start.elapsed().as_secs_f64().max(1e-9);
            bar.set_message(format!("{} records, {:.0}/s", self.records, rate));
        }
    }

    /// Writes `lines` (whole lines, each ending in a line end) to stderr in one piece, with the
    /// bar lifted off the screen so that lines and bar do not garble each other, then redraws
    /// the bar. A stderr that cannot be written is ignored (see `stderr_line`).
    pub fn print(&self, lines: &str) {
        if lines.is_empty() {
            return;
        }
        // The bar's lock is taken (by `suspend`) before stderr's, the order its ticker thread
        // takes them in: the other order deadlocks.
        let write = || {
            let _ = std::io::stderr().lock().write_all(lines.as_bytes());
        };
        match &self.bar {
            Some(bar) => bar.suspend(write),
            None => write(),
        }
    }

    /// Removes the bar from the screen.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Stderr as a terminal-like target, drawn to even when it is a file or pipe.
#[derive(Debug)]
struct RawStderr;

impl TermLike for RawStderr {
    fn width(&self) -> u16 {
        80
    }
    fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
        self.write_str(&format!("\x1b[{n}A"))
    }
    fn move_cursor_down(&self, n: usize) -> std::io::Result<()> {
        self.write_str(&format!("\x1b[{n}B"))
    }
    fn move_cursor_right(&self, n: usize) -> std::io::Result<()> {
        self.write_str(&format!("\x1b[{n}C"))
    }
    fn move_cursor_left(&self, n: usize) -> std::io::Result<()> {
        self.write_str(&format!("\x1b[{n}D"))
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.write_str(&format!("{s}\n"))
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        std::io::stderr().write_all(s.as_bytes())
    }
    fn clear_line(&self) -> std::io::Result<()> {
        self.write_str("\r\x1b[2K")
    }
    fn flush(&self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}
