//! Reading a stream (stdin, a pipe, a terminal) on a thread of its own, so that stopping never
//! waits on it.
//!
//! A read from a pipe or terminal blocks until data comes, and a signal handler installed with
//! `SA_RESTART` (as Rust programs install them) does not end it: a run asked to stop while its
//! reader waits on an idle stdin would wait on with it. Here a thread does the blocking reads and
//! hands the bytes over in chunks through a small bounded channel; the reader's side waits on the
//! channel a short while at a time and, once the stop flag is up, gives up with a [`Stopped`]
//! error. The pumping thread is left blocked in its read; it ends with the process.
//!
//! Used only when a stop flag is given (`solve` and `check` set one): regular files never block,
//! and are read directly.

use std::fs::File;
use std::io::{self, Read};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::time::Duration;

/// Bytes per chunk handed over.
const CHUNK: usize = 64 * 1024;

/// Chunks read ahead, at most.
const AHEAD: usize = 4;

/// How often a waiting read looks at the stop flag.
const POLL: Duration = Duration::from_millis(20);

/// The error a pumped read gives once the stop flag is up.
#[derive(Debug)]
pub(crate) struct Stopped;

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("reading stopped")
    }
}

impl std::error::Error for Stopped {}

/// The text of the file at `path` (`-`: standard input), at most `max` bytes (more is an
/// error), read on a thread of its own: a pipe that stays open, or a named pipe with no writer,
/// gives up once `stop` is set, as a pumped input does.
pub fn read_text(path: &std::path::Path, stop: Arc<AtomicBool>, max: u64) -> io::Result<String> {
    let pump = match path.as_os_str() == "-" {
        true => Pump::start(Box::new(io::stdin()), stop)?,
        false => Pump::open(path.to_path_buf(), stop)?,
    };
    let mut text = String::new();
    pump.take(max + 1).read_to_string(&mut text)?;
    if text.len() as u64 > max {
        return Err(io::Error::other(format!("more than {max} bytes")));
    }
    Ok(text)
}

/// The reader's side of a pumped stream.
pub(crate) struct Pump {
    chunks: Receiver<io::Result<Vec<u8>>>,
    /// Chunks read from, sent back to the pumping thread to be filled again.
    free: SyncSender<Vec<u8>>,
    current: Vec<u8>,
    at: usize,
    stop: Arc<AtomicBool>,
}

impl Pump {
    /// Starts a thread reading `src`; reads from the result give up once `stop` is set.
    pub(crate) fn start(src: Box<dyn Read + Send>, stop: Arc<AtomicBool>) -> io::Result<Pump> {
        Pump::open_and_start(move || Ok(src), stop)
    }

    /// Starts a thread that opens the file at `path` and reads it: opening a named pipe waits
    /// for its writer, and the wait gives up once `stop` is set as a read does. A failed open
    /// is the first read's error.
    pub(crate) fn open(path: PathBuf, stop: Arc<AtomicBool>) -> io::Result<Pump> {
        Pump::open_and_start(
            move || Ok(Box::new(File::open(path)?) as Box<dyn Read + Send>),
            stop,
        )
    }

    fn open_and_start(
        open: impl FnOnce() -> io::Result<Box<dyn Read + Send>> + Send + 'static,
        stop: Arc<AtomicBool>,
    ) -> io::Result<Pump> {
        let (chunk_tx, chunks) = sync_channel(AHEAD);
        let (free, free_rx) = sync_channel::<Vec<u8>>(AHEAD + 1);
        std::thread::Builder::new()
            .name("input".to_string())
            .spawn(move || {
                let mut src = match open() {
                    Ok(src) => src,
                    Err(e) => {
                        let _ = chunk_tx.send(Err(e));
                        return;
                    }
                };
                loop {
                    let mut chunk = free_rx.try_recv().unwrap_or_default();
                    chunk.resize(CHUNK, 0);
                    let read = loop {
                        match src.read(&mut chunk) {
                            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                            other => break other,
                        }
                    };
                    let message = match read {
                        Ok(0) => return, // the end: the closed channel says so
                        Ok(n) => {
                            chunk.truncate(n);
                            Ok(chunk)
                        }
                        Err(e) => Err(e),
                    };
                    let failed = message.is_err();
                    // the reader's side has gone (the run ended): nothing more to do
                    if chunk_tx.send(message).is_err() || failed {
                        return;
                    }
                }
            })?;
        Ok(Pump {
            chunks,
            free,
            current: Vec::new(),
            at: 0,
            stop,
        })
    }
}

impl Read for Pump {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.current.len() {
            if self.stop.load(Ordering::Relaxed) {
                return Err(io::Error::other(Stopped));
            }
            match self.chunks.recv_timeout(POLL) {
                Ok(Ok(chunk)) => {
                    let done = std::mem::replace(&mut self.current, chunk);
                    let _ = self.free.try_send(done);
                    self.at = 0;
                }
                Ok(Err(e)) => return Err(e),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Ok(0),
            }
        }
        let n = buf.len().min(self.current.len() - self.at);
        buf[..n].copy_from_slice(&self.current[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stream that gives its bytes, then blocks for ever (an idle terminal).
    struct Idle(Option<Vec<u8>>);

    impl Read for Idle {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match self.0.take() {
                Some(bytes) => {
                    buf[..bytes.len()].copy_from_slice(&bytes);
                    Ok(bytes.len())
                }
                None => loop {
                    std::thread::park();
                },
            }
        }
    }

    #[test]
    fn passes_every_byte_in_order() {
        let data: Vec<u8> = (0..1_000_000u32).map(|i| (i % 251) as u8).collect();
        let stop = Arc::new(AtomicBool::new(false));
        let mut pump = Pump::start(Box::new(io::Cursor::new(data.clone())), stop).unwrap();
        let mut got = Vec::new();
        pump.read_to_end(&mut got).unwrap();
        assert_eq!(got, data);
    }

    #[test]
    fn a_blocked_read_gives_up_once_stopped() {
        let stop = Arc::new(AtomicBool::new(false));
        let idle = Idle(Some(b"first line\n".to_vec()));
        let mut pump = Pump::start(Box::new(idle), Arc::clone(&stop)).unwrap();
        let mut buf = [0; 64];
        assert_eq!(pump.read(&mut buf).unwrap(), 11);
        let flag = Arc::clone(&stop);
        let setter = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            flag.store(true, Ordering::Relaxed);
        });
        let err = pump.read(&mut buf).unwrap_err();
        assert!(err.get_ref().is_some_and(|e| e.is::<Stopped>()), "{err}");
        setter.join().unwrap();
    }

    #[test]
    fn read_errors_come_through() {
        struct Broken;
        impl Read for Broken {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::other("disk on fire"))
            }
        }
        let stop = Arc::new(AtomicBool::new(false));
        let mut pump = Pump::start(Box::new(Broken), stop).unwrap();
        let mut buf = [0; 8];
        assert_eq!(pump.read(&mut buf).unwrap_err().to_string(), "disk on fire");
    }
}
