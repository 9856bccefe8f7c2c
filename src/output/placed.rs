//! Output written where it belongs: a regular file whose batches are written at their offsets,
//! by whichever thread formatted them, so copying the output into the file runs on every core
//! instead of one writing thread.
//!
//! The offsets are handed out in input order ([`Placed::reserve`]: each batch's offset is the sum
//! of the sizes before it), and the bytes written in any order ([`Placed::write_at`]). A run that
//! ends early (a write error, a full disk, a signal) may have written a batch past one that never
//! got there: [`Placed::finish`] cuts the file back to the end of the longest run of whole
//! batches from its start, so the file never holds a hole or a torn record, only a prefix of
//! whole records in order, and says where that prefix ends.
//!
//! Only a file that can take this is placed ([`Placed::new`]): a regular file, not in append
//! mode (where the system appends every write, whatever its offset), holding nothing after the
//! offset it stands at (what a run would otherwise write over, not cut). Anything else is
//! written in order by one thread, as before.

use std::fs::File;
use std::io::{self, Seek, SeekFrom};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use std::collections::BTreeMap;

/// A regular file written at offsets (see the module documentation).
#[derive(Debug)]
pub struct Placed {
    file: File,
    /// Where the output starts: the file's offset when it was handed over.
    base: u64,
    /// The end of what has been reserved.
    next: AtomicU64,
    /// What has been written.
    written: Mutex<Written>,
}

/// The byte ranges written, as the end of the whole prefix and the ranges written beyond it.
#[derive(Debug)]
struct Written {
    /// Every byte before it is written.
    prefix: u64,
    /// Written ranges past `prefix` (start to end), waiting for the gap before them to fill.
    ahead: BTreeMap<u64, u64>,
}

impl Placed {
    /// `file` written at offsets from where it stands, when it can be (see the module
    /// documentation); otherwise the file back, to be written in order.
    pub fn new(mut file: File) -> Result<Placed, File> {
        let Ok(meta) = file.metadata() else {
            return Err(file);
        };
        if !meta.is_file() || appends(&file) {
            return Err(file);
        }
        let Ok(base) = file.stream_position() else {
            return Err(file);
        };
        if meta.len() > base {
            return Err(file);
        }
        Ok(Placed {
            file,
            base,
            next: AtomicU64::new(base),
            written: Mutex::new(Written {
                prefix: base,
                ahead: BTreeMap::new(),
            }),
        })
    }

    /// The offset for the next `len` bytes of output, in output order (one thread).
    pub fn reserve(&self, len: usize) -> u64 {
        self.next.fetch_add(len as u64, Ordering::Relaxed)
    }

    /// Writes `bytes` at `at` (from [`Placed::reserve`]), from any thread.
    pub fn write_at(&self, at: u64, bytes: &[u8]) -> io::Result<()> {
        write_all_at(&self.file, bytes, at)?;
        let end = at + bytes.len() as u64;
        let mut guard = self.written.lock().unwrap_or_else(|e| e.into_inner());
        let written = &mut *guard;
        if at == written.prefix {
            written.prefix = end;
            // the ranges written ahead that now join the prefix
            while let Some(next) = written.ahead.remove(&written.prefix) {
                written.prefix = next;
            }
        } else {
            written.ahead.insert(at, end);
        }
        Ok(())
    }

    /// The end of the whole prefix written so far.
    pub fn prefix(&self) -> u64 {
        self.written
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .prefix
    }

    /// Ends the output once no write is under way: the file is cut back to the whole prefix when
    /// anything reserved was not written (so it holds no hole and no torn batch), and its offset
    /// set to the prefix's end, where a next writer of the same open file (`{ solve; echo; } >
    /// f`) goes on. Returns the prefix's end.
    pub fn finish(&self) -> io::Result<u64> {
        let prefix = self.prefix();
        if prefix < self.next.load(Ordering::Relaxed) {
            self.file.set_len(prefix)?;
        }
        (&self.file).seek(SeekFrom::Start(prefix))?;
        Ok(prefix)
    }

    /// Bytes of output written as a whole prefix, not counting what the file held before.
    pub fn written(&self) -> u64 {
        self.prefix() - self.base
    }
}

/// True when `file` was opened in append mode, where every write goes to the end whatever its
/// offset.
#[cfg(unix)]
fn appends(file: &File) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: F_GETFL only reads the open file's status flags.
    let flags = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_GETFL) };
    flags == -1 || flags & libc::O_APPEND != 0
}

#[cfg(not(unix))]
fn appends(_file: &File) -> bool {
    // without a way to tell, never place
    true
}

/// True when `file` is the file standard error goes to (`> log 2>&1`, `-o log 2>>log`): written
/// at offsets, or in order from an offset of its own, its records would be written over the
/// messages written there meanwhile (and the messages over them).
#[cfg(unix)]
pub(crate) fn shares_stderr(file: &File) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(ours) = file.metadata() else {
        return false;
    };
    // SAFETY: fstat on descriptor 2 only fills the struct handed to it.
    let mut stat: libc::stat = unsafe { std::mem::zeroed() };
    let status = unsafe { libc::fstat(2, &mut stat) };
    ours.is_file()
        && status == 0
        && ours.dev() == stat.st_dev as u64
        && ours.ino() == stat.st_ino as u64
}

#[cfg(not(unix))]
pub(crate) fn shares_stderr(_file: &File) -> bool {
    false
}

/// Puts `file` in append mode, so that each write lands at the end of what is there, after
/// whatever another descriptor (standard error) wrote meanwhile.
#[cfg(unix)]
pub(crate) fn append_from_now(file: &File) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    // SAFETY: F_GETFL and F_SETFL read and set the open file's status flags only.
    let flags = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_GETFL) };
    if flags == -1
        || unsafe { libc::fcntl(file.as_raw_fd(), libc::F_SETFL, flags | libc::O_APPEND) } == -1
    {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(not(unix))]
pub(crate) fn append_from_now(_file: &File) -> io::Result<()> {
    Ok(())
}

/// True when `file` is known to be in append mode (false when that cannot be told): its
/// writes go to its end, so a failed run can cut it back to what it held before.
#[cfg(unix)]
pub(crate) fn surely_appends(file: &File) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: F_GETFL only reads the open file's status flags.
    let flags = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_GETFL) };
    flags != -1 && flags & libc::O_APPEND != 0
}

#[cfg(not(unix))]
pub(crate) fn surely_appends(_file: &File) -> bool {
    false
}

#[cfg(unix)]
fn write_all_at(file: &File, bytes: &[u8], at: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(file, bytes, at)
}

#[cfg(not(unix))]
fn write_all_at(_file: &File, _bytes: &[u8], _at: u64) -> io::Result<()> {
    Err(io::Error::other("positional writes need a Unix system"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    fn placed_file() -> (tempfile::NamedTempFile, Placed) {
        let tmp = tempfile::NamedTempFile::new().unwrap();
        let file = tmp.reopen().unwrap();
        (tmp, Placed::new(file).unwrap())
    }

    #[test]
    fn batches_written_out_of_order_make_the_file_in_order() {
        let (tmp, placed) = placed_file();
        let parts: Vec<String> = (0..50).map(|i| format!("record {i}\n")).collect();
        let at: Vec<u64> = parts.iter().map(|p| placed.reserve(p.len())).collect();
        // last first, then the rest from both ends
        let mut order: Vec<usize> = (0..parts.len()).rev().collect();
        order.rotate_left(7);
        for i in order {
            placed.write_at(at[i], parts[i].as_bytes()).unwrap();
        }
        assert_eq!(placed.finish().unwrap(), parts.concat().len() as u64);
        let mut text = String::new();
        tmp.reopen().unwrap().read_to_string(&mut text).unwrap();
        assert_eq!(text, parts.concat());
    }

    #[test]
    fn a_batch_that_never_came_cuts_the_file_back_to_the_whole_prefix() {
        let (tmp, placed) = placed_file();
        let (a, b, c) = (placed.reserve(4), placed.reserve(4), placed.reserve(4));
        placed.write_at(a, b"one\n").unwrap();
        // the third is written, the second never: the file would hold a hole
        placed.write_at(c, b"tri\n").unwrap();
        let _ = b;
        assert_eq!(placed.finish().unwrap(), 4);
        assert_eq!(std::fs::read(tmp.path()).unwrap(), b"one\n");
    }

    #[test]
    fn a_file_with_text_before_its_offset_keeps_it_and_goes_on_after() {
        let tmp = tempfile::NamedTempFile::new().unwrap();
        let mut file = tmp.reopen().unwrap();
        file.write_all(b"header\n").unwrap();
        let placed = Placed::new(file.try_clone().unwrap()).unwrap();
        let at = placed.reserve(5);
        assert_eq!(at, 7);
        placed.write_at(at, b"body\n").unwrap();
        assert_eq!(placed.finish().unwrap(), 12);
        // the shared offset stands at the end, for whoever writes next
        file.write_all(b"after\n").unwrap();
        assert_eq!(std::fs::read(tmp.path()).unwrap(), b"header\nbody\nafter\n");
    }

    #[test]
    fn append_mode_and_text_after_the_offset_are_not_placed() {
        let tmp = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(tmp.path(), b"old text\n").unwrap();
        let append = std::fs::OpenOptions::new()
            .append(true)
            .open(tmp.path())
            .unwrap();
        assert!(Placed::new(append).is_err());
        // opened at 0 over old text: written in order, as before
        let over = std::fs::OpenOptions::new()
            .write(true)
            .open(tmp.path())
            .unwrap();
        assert!(Placed::new(over).is_err());
        let null = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/null")
            .unwrap();
        assert!(Placed::new(null).is_err());
    }
}
