//! The files a run writes, opened together before any of them is touched.
//!
//! A dataset tool that empties its own input once is not used again, so every command opens its
//! outputs (`-o`, `--stats`, `--report`, `--train`/`--test`, `--export-*`, ...) through one
//! [`OutputPlan`], which:
//!
//! - tells files apart by *identity* (device and inode, after following links), not by spelling:
//!   `./o.txt` and `o.txt`, a symlink and its target, two hard links, a file redirected to stdin
//!   or from stdout are all the same file. An output that is the same regular file as an input, or
//!   as another output, is refused before anything is written. Devices (`/dev/null`), pipes and
//!   terminals may be named any number of times: they hold nothing to lose; but a path to the
//!   pipe standard output goes to counts as standard output (two outputs there would merge).
//! - opens every output without truncating it, and empties the existing ones only when the whole
//!   run can start ([`OutputPlan::begin`], called once the inputs are open too). A run that cannot
//!   open one of its outputs, or one of its inputs, leaves every existing file as it was and
//!   removes the files it created.
//! - refuses a standard stream that was closed when the process started (`>&-`, `<&-`). The Rust
//!   runtime reopens closed standard streams onto `/dev/null` before `main`, so without the probe
//!   below a run with a closed stdout would write into `/dev/null` and exit 0 with its output lost;
//!   `seq 3 >&-` fails, and so do we.

use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use sudoku_batch::output::Destination;

/// A file's identity: the same for every name of the file (links, `..`, hard links) and for an
/// open descriptor of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FileId {
    dev: u64,
    ino: u64,
}

/// The identity of a regular file; `None` for anything else (devices, pipes, terminals,
/// directories), which may be named more than once.
#[cfg(unix)]
fn identity(meta: &Metadata) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    meta.is_file().then(|| FileId {
        dev: meta.dev(),
        ino: meta.ino(),
    })
}

/// Without device and inode numbers files cannot be told apart by identity; only the spelling
/// guard of the callers remains.
#[cfg(not(unix))]
fn identity(_meta: &Metadata) -> Option<FileId> {
    None
}

/// True when `meta` is that of the pipe (or socket) standard output is.
#[cfg(unix)]
fn is_stdout_pipe(meta: &Metadata) -> bool {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    let pipe = |m: &Metadata| m.file_type().is_fifo() || m.file_type().is_socket();
    pipe(meta)
        && std_stream_metadata(1)
            .is_some_and(|out| pipe(&out) && out.dev() == meta.dev() && out.ino() == meta.ino())
}

#[cfg(not(unix))]
fn is_stdout_pipe(_meta: &Metadata) -> bool {
    false
}

/// The metadata of a standard stream (0 stdin, 1 stdout, 2 stderr), read through a duplicate of it so
/// that the stream itself stays open and untouched.
#[cfg(unix)]
fn std_stream_metadata(fd: i32) -> Option<Metadata> {
    use std::os::fd::AsFd;
    let owned = match fd {
        0 => io::stdin().as_fd().try_clone_to_owned(),
        1 => io::stdout().as_fd().try_clone_to_owned(),
        _ => io::stderr().as_fd().try_clone_to_owned(),
    };
    File::from(owned.ok()?).metadata().ok()
}

#[cfg(not(unix))]
fn std_stream_metadata(_fd: i32) -> Option<Metadata> {
    None
}

/// True when standard error goes to the regular file `id` and writes there at its own place
/// (`2>FILE`, not `2>>FILE`): the run's messages would then be written over what it writes into
/// that file by name. (Opened for appending, each message goes after whatever the file holds by
/// then, and both stay whole.)
#[cfg(unix)]
fn stderr_overwrites(id: FileId) -> bool {
    if std_stream_metadata(2).as_ref().and_then(identity) != Some(id) {
        return false;
    }
    // SAFETY: F_GETFL only reads the flags of descriptor 2, open since the runtime started.
    let flags = unsafe { libc::fcntl(2, libc::F_GETFL) };
    flags != -1 && flags & libc::O_APPEND == 0
}

#[cfg(not(unix))]
fn stderr_overwrites(_id: FileId) -> bool {
    false
}

/// True when standard output and standard error are the same regular file opened twice
/// (`> out 2> out`): each writes at its own place, so the messages are written over the
/// records. One open file shared (`> out 2>&1`) or standard error appending is fine. Told by
/// `kcmp` (Linux), which says whether two descriptors share one open file; where it is not
/// allowed, nothing is refused.
#[cfg(target_os = "linux")]
fn stdout_overwritten_by_stderr() -> bool {
    let Some(id) = std_stream_metadata(1).as_ref().and_then(identity) else {
        return false;
    };
    if !stderr_overwrites(id) {
        return false;
    }
    const KCMP_FILE: libc::c_long = 0;
    let pid = libc::c_long::from(std::process::id() as i32);
    // SAFETY: kcmp only compares the two descriptors' open files; it reads no memory of ours.
    let order = unsafe {
        libc::syscall(
            libc::SYS_kcmp,
            pid,
            pid,
            KCMP_FILE,
            1 as libc::c_long,
            2 as libc::c_long,
        )
    };
    order > 0
}

#[cfg(not(target_os = "linux"))]
fn stdout_overwritten_by_stderr() -> bool {
    false
}

/// Which of the standard streams were closed when the process started, probed before the Rust
/// runtime reopens them onto `/dev/null`: bit `fd` is set for a closed stream. Also which were
/// open the wrong way round (standard input for writing only, `0>FILE`; standard output or
/// error for reading only, `1<FILE`): the runtime takes the error every read or write of them
/// then fails with (EBADF) for an empty read or a write done, so they lose as much.
#[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
mod probe {
    use std::sync::atomic::{AtomicU8, Ordering};

    /// Bits 0..3: closed; bits 4..7: open the wrong way round.
    static UNUSABLE: AtomicU8 = AtomicU8::new(0);

    /// Runs from the ELF `.init_array`, before `main` and so before the runtime fills the
    /// closed standard streams with `/dev/null`.
    extern "C" fn probe_std_streams() {
        let mut unusable = 0;
        for fd in 0..3 {
            // SAFETY: F_GETFL only reads the descriptor's status flags; an unused descriptor
            // gives EBADF and nothing else happens.
            let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
            let wrong = if fd == 0 {
                libc::O_WRONLY
            } else {
                libc::O_RDONLY
            };
            if flags == -1 {
                unusable |= 1 << fd;
            } else if flags & libc::O_ACCMODE == wrong {
                unusable |= 1 << (4 + fd);
            }
        }
        UNUSABLE.store(unusable, Ordering::Relaxed);
    }

    #[used]
    #[unsafe(link_section = ".init_array")]
    static PROBE: extern "C" fn() = probe_std_streams;

    /// True when standard stream `fd` was closed when the process started.
    pub fn closed_at_start(fd: i32) -> bool {
        UNUSABLE.load(Ordering::Relaxed) & (1 << fd) != 0
    }

    /// How standard stream `fd` could not be used when the process started: `closed`, or open
    /// for the other direction only; `None` when it could.
    pub fn unusable_at_start(fd: i32) -> Option<&'static str> {
        let unusable = UNUSABLE.load(Ordering::Relaxed);
        if unusable & (1 << fd) != 0 {
            Some("closed")
        } else if unusable & (1 << (4 + fd)) != 0 {
            Some(if fd == 0 {
                "open for writing only"
            } else {
                "open for reading only"
            })
        } else {
            None
        }
    }
}

/// Elsewhere a closed stream cannot be told from `/dev/null`.
#[cfg(not(any(target_os = "linux", target_os = "android", target_os = "freebsd")))]
mod probe {
    /// Always false: no probe on this platform.
    pub fn closed_at_start(_fd: i32) -> bool {
        false
    }

    /// Always `None`: no probe on this platform.
    pub fn unusable_at_start(_fd: i32) -> Option<&'static str> {
        None
    }
}

/// How standard stream `fd`, named as an output, could not be written when the process started:
/// closed, or (standard output and error) open for reading only. Standard input open for
/// writing only is the right way round for that.
fn written_in_vain(fd: i32) -> Option<&'static str> {
    match fd {
        0 => probe::closed_at_start(0).then_some("closed"),
        _ => probe::unusable_at_start(fd),
    }
}

/// True when standard input is a regular file opened for reading only (`< FILE`).
#[cfg(unix)]
fn stdin_reads_a_file() -> bool {
    if !std_stream_metadata(0).is_some_and(|m| m.is_file()) {
        return false;
    }
    // SAFETY: F_GETFL only reads the flags of descriptor 0, open since the runtime started.
    let flags = unsafe { libc::fcntl(0, libc::F_GETFL) };
    flags != -1 && flags & libc::O_ACCMODE == libc::O_RDONLY
}

#[cfg(not(unix))]
fn stdin_reads_a_file() -> bool {
    false
}

/// How standard output could not be written when the process started (`>&-`: closed; `1<FILE`:
/// open for reading only), if it could not: what is written there is lost without an error.
pub fn stdout_unusable_at_start() -> Option<&'static str> {
    probe::unusable_at_start(1)
}

/// The standard stream (0, 1 or 2) that `path` names by one of the names the system gives it
/// (`/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1`, `/proc/<our pid>/fd/1`, or a symlink to one of
/// these), if it names one. The link is followed a step at a time, not resolved at once: a
/// stream's name leads to whatever the descriptor is open on (`/dev/null` for a stream closed at
/// the start), which says nothing of the stream.
#[cfg(unix)]
fn names_std_stream(path: &Path) -> Option<i32> {
    let mut path = path.to_path_buf();
    // as many links as the kernel follows
    for _ in 0..40 {
        let folder = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => fs::canonicalize(p).ok()?,
            _ => std::env::current_dir().ok()?,
        };
        let full = folder.join(path.file_name()?);
        if let Some(fd) = std_stream_path(&full) {
            return Some(fd);
        }
        let target = fs::read_link(&full).ok()?;
        path = folder.join(target);
    }
    None
}

#[cfg(not(unix))]
fn names_std_stream(_path: &Path) -> Option<i32> {
    None
}

/// True when `path` is standard output: `-`, or a name of it ([`names_std_stream`]), which an
/// output plan takes as `-`.
pub fn names_stdout(path: &Path) -> bool {
    path.as_os_str() == "-" || names_std_stream(path) == Some(1)
}

/// The standard stream a path with its folder resolved is the name of: `/dev/stdin`,
/// `/dev/stdout`, `/dev/stderr`, or descriptor 0, 1 or 2 under this process's `/proc` entry (or
/// one of its threads': `/proc/thread-self/fd` resolves there).
fn std_stream_path(path: &Path) -> Option<i32> {
    let path = path.to_str()?;
    match path {
        "/dev/stdin" => return Some(0),
        "/dev/stdout" => return Some(1),
        "/dev/stderr" => return Some(2),
        _ => {}
    }
    let (process, rest) = path.strip_prefix("/proc/")?.split_once('/')?;
    if process != std::process::id().to_string() {
        return None;
    }
    let rest = match rest.strip_prefix("task/") {
        Some(thread) => thread.split_once('/')?.1,
        None => rest,
    };
    match rest.strip_prefix("fd/")? {
        "0" => Some(0),
        "1" => Some(1),
        "2" => Some(2),
        _ => None,
    }
}

/// The stream's name in messages.
fn std_stream_name(fd: i32) -> &'static str {
    match fd {
        0 => "standard input",
        1 => "standard output",
        _ => "standard error",
    }
}

/// Fails when standard input is one of `inputs` (`-`) and was closed when the process started:
/// it would read as empty, and an empty dataset is not what was meant.
fn refuse_closed_stdin(inputs: &[PathBuf]) -> Result<()> {
    if inputs.iter().any(|p| p.as_os_str() == "-") {
        if let Some(state) = probe::unusable_at_start(0) {
            anyhow::bail!("<stdin>: standard input is {state}");
        }
    }
    Ok(())
}

/// The metadata of `path`, an input, or why it cannot be read: it is missing, a folder, or a
/// regular file that cannot be opened (a pipe or device is not opened here: opening a named
/// pipe would wait for its writer, and close on it).
///
/// Why here and not when the input is reached: a missing input that is also named as an
/// output was created empty by the output and read as empty, with exit 0 (`solve n.txt -o
/// n.txt`); and a later input that cannot be read stopped the run after its outputs had been
/// emptied, so a failed run lost the files it would have replaced.
fn readable(path: &Path) -> Result<Metadata> {
    let name = path.display();
    // the runtime put `/dev/null` in its place, which would read as empty
    if let Some(fd) = names_std_stream(path).filter(|&fd| probe::closed_at_start(fd)) {
        anyhow::bail!(
            "{name}: this is {}, which is closed, so it would read as empty",
            std_stream_name(fd)
        );
    }
    let meta = fs::metadata(path).with_context(|| format!("{name}"))?;
    if meta.is_dir() {
        anyhow::bail!("{name}: Is a directory, not a file: name the files in it");
    }
    if meta.is_file() {
        File::open(path).with_context(|| format!("{name}"))?;
    }
    Ok(meta)
}

/// Opens output `path` (`before`: its metadata, if it exists) for writing without emptying it
/// (emptied in `begin`, once the whole run can start).
fn open_output(path: &Path, before: Option<&Metadata>, name: &str) -> Result<File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if before.is_some_and(|m| m.file_type().is_fifo()) {
            return open_fifo_for_writing(path, name);
        }
    }
    let _ = before;
    OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .with_context(|| format!("{name}: cannot create"))
}

/// Opens the named pipe at `path` for writing once it has a reader. A plain open would wait in
/// the kernel, where the first signal (its handler sets a flag) cannot end it; here the open is
/// tried without waiting a little at a time, and a signal ends the run before anything is
/// written.
#[cfg(unix)]
fn open_fifo_for_writing(path: &Path, name: &str) -> Result<File> {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::OpenOptionsExt;
    loop {
        match OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(path)
        {
            Ok(file) => {
                // written like any other file from here on: writes wait for the reader
                // SAFETY: F_GETFL and F_SETFL on a descriptor `file` owns for the call
                let flags = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_GETFL) };
                if flags < 0
                    || unsafe {
                        libc::fcntl(file.as_raw_fd(), libc::F_SETFL, flags & !libc::O_NONBLOCK)
                    } < 0
                {
                    return Err(io::Error::last_os_error())
                        .with_context(|| format!("{name}: cannot set up the named pipe"));
                }
                return Ok(file);
            }
            // no reader yet
            Err(e) if e.raw_os_error() == Some(libc::ENXIO) => {}
            Err(e) => return Err(e).with_context(|| format!("{name}: cannot open")),
        }
        if let Some(signal) = super::signals::first_received() {
            return Err(super::signals::StoppedBeforeStart {
                signal,
                waiting: format!("a reader of {name}"),
            }
            .into());
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Refuses two of `inputs` that are one pipe or socket (`/dev/stdin` and `-` on a pipe, a FIFO
/// named twice): it can be read once, and the second read nothing, silently. (A regular file
/// named twice is read twice, each time from its start.)
#[cfg(unix)]
fn refuse_one_pipe_twice(inputs: &[PathBuf]) -> Result<()> {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    let mut pipes: Vec<((u64, u64), String)> = Vec::new();
    for path in inputs {
        let (meta, name) = match path.as_os_str() == "-" {
            true => (std_stream_metadata(0), "<stdin>".to_string()),
            false => (fs::metadata(path).ok(), path.display().to_string()),
        };
        let Some(meta) = meta else { continue };
        if !(meta.file_type().is_fifo() || meta.file_type().is_socket()) {
            continue;
        }
        let id = (meta.dev(), meta.ino());
        if let Some((_, first)) = pipes.iter().find(|(seen, _)| *seen == id) {
            anyhow::bail!("{first} and {name} are one pipe, which can be read once: name it once");
        }
        pipes.push((id, name));
    }
    Ok(())
}

#[cfg(not(unix))]
fn refuse_one_pipe_twice(_inputs: &[PathBuf]) -> Result<()> {
    Ok(())
}

/// A file a run reads, for the comparison with its outputs.
struct Input {
    name: String,
    id: FileId,
}

/// Where one output of the plan stands.
enum Opened {
    Stdout,
    File {
        file: File,
        /// An existing regular file, emptied by [`OutputPlan::begin`].
        truncate: bool,
    },
}

/// An output's place in the plan, to take its writer from [`Begun`] with. Not `Copy`, so each is
/// taken once.
#[derive(Debug)]
pub struct Slot(usize);

/// The outputs of a run, opened and checked against its inputs and each other, none of them yet
/// emptied (see the module documentation).
pub struct OutputPlan {
    inputs: Vec<Input>,
    /// Per output: its name for messages, what it is (`output`, `stats`, ...), its identity.
    outputs: Vec<(String, &'static str, Option<FileId>)>,
    opened: Vec<Opened>,
    /// Files this plan created, removed again if the run never begins.
    created: Vec<PathBuf>,
    begun: bool,
    /// The output standard error by its name takes, if one does: one only, as for standard
    /// output (two would interleave in it, exit 0).
    on_stderr: Option<&'static str>,
}

impl OutputPlan {
    /// A plan for a run that reads `inputs` (`-` or none for standard input): their identities
    /// are taken now, so an output can be compared with them. An input that is missing, a
    /// folder, or a file that cannot be opened is refused here, before any output is made or
    /// emptied (see [`readable`]); so is a closed standard input read as an input.
    pub fn new(inputs: &[PathBuf]) -> Result<OutputPlan> {
        if inputs.is_empty() {
            return OutputPlan::reading(&[PathBuf::from("-")]);
        }
        OutputPlan::reading(inputs)
    }

    /// [`OutputPlan::new`] for a run that reads exactly `inputs` (`-` for standard input), and
    /// nothing when there are none: `generate`, whose inputs are options.
    pub fn reading(inputs: &[PathBuf]) -> Result<OutputPlan> {
        refuse_closed_stdin(inputs)?;
        // the second `-` read nothing, silently: whatever it was meant to be was left out
        if inputs.iter().filter(|p| p.as_os_str() == "-").count() > 1 {
            anyhow::bail!("<stdin>: `-` named twice; standard input can be read once");
        }
        refuse_one_pipe_twice(inputs)?;
        let mut plan = OutputPlan {
            inputs: Vec::new(),
            outputs: Vec::new(),
            opened: Vec::new(),
            created: Vec::new(),
            begun: false,
            on_stderr: None,
        };
        for path in inputs {
            if path.as_os_str() == "-" {
                plan.add_stdin()?;
            } else {
                plan.also_reads(path)?;
            }
        }
        Ok(plan)
    }

    /// The names of the first two inputs that are one file (by identity, whatever the
    /// spelling, stdin redirected from it included), for a run that must not read a file twice
    /// (`merge-stats` would count a run twice).
    pub fn repeated_input(&self) -> Option<(&str, &str)> {
        self.inputs.iter().enumerate().find_map(|(j, second)| {
            let first = self.inputs[..j].iter().find(|i| i.id == second.id)?;
            Some((first.name.as_str(), second.name.as_str()))
        })
    }

    /// Adds a file the run reads besides its inputs (a `--baseline`), so no output may be it;
    /// refused as [`readable`] says.
    pub fn also_reads(&mut self, path: &Path) -> Result<()> {
        let meta = readable(path)?;
        if let Some(id) = identity(&meta) {
            self.push_input(path.display().to_string(), id)?;
        }
        Ok(())
    }

    fn add_stdin(&mut self) -> Result<()> {
        if let Some(id) = std_stream_metadata(0).as_ref().and_then(identity) {
            self.push_input("<stdin> (a redirected file)".to_string(), id)?;
        }
        Ok(())
    }

    /// Adds an input, refused when standard error goes to it (`2>> in.txt`): each message
    /// about a record (`in.txt:7: malformed`) was read back as one more record, whose message
    /// was read back in turn, and the run never ended, filling the disk.
    fn push_input(&mut self, name: String, id: FileId) -> Result<()> {
        if std_stream_metadata(2).as_ref().and_then(identity) == Some(id) {
            anyhow::bail!(
                "{name}: standard error goes to this input (`2>>` or `2>` it): the run would read \
                 its own messages back as records (send standard error to another file)"
            );
        }
        self.inputs.push(Input { name, id });
        Ok(())
    }

    /// Opens output `what` (`output`, `stats`, `report`, ...) at `path`, or on standard output
    /// for none or `-`, without emptying it: refused when it is the same regular file as an
    /// input or an earlier output, when standard output is asked for twice, or when standard
    /// output was closed.
    pub fn add(&mut self, path: Option<&Path>, what: &'static str) -> Result<Slot> {
        match path {
            Some(p) if p.as_os_str() != "-" => self.add_file(p, what),
            _ => self.add_stdout(what),
        }
    }

    fn add_stdout(&mut self, what: &'static str) -> Result<Slot> {
        if let Some(i) = self.opened.iter().position(|o| matches!(o, Opened::Stdout)) {
            let other = self.outputs[i].1;
            anyhow::bail!(
                "the {what} cannot go to standard output too: the {other} goes there; write one \
                 of them to a file"
            );
        }
        if let Some(state) = probe::unusable_at_start(1) {
            anyhow::bail!(
                "<stdout>: standard output is {state}, so the {what} would be lost; send it to \
                 a file (`> FILE`, or -o FILE where the command has it), or to /dev/null to \
                 discard it"
            );
        }
        if stdout_overwritten_by_stderr() {
            anyhow::bail!(
                "<stdout>: standard output and standard error go to one file, opened twice (`> \
                 FILE 2> FILE`): the run's messages would be written over the {what} (use `> \
                 FILE 2>&1` to share it, or another file for standard error)"
            );
        }
        let id = std_stream_metadata(1).as_ref().and_then(identity);
        self.push("<stdout>".to_string(), what, id, Opened::Stdout)
    }

    #[cfg(unix)]
    fn add_stderr(&mut self, name: &str, what: &'static str) -> Result<Slot> {
        use std::os::fd::AsFd;
        if let Some(other) = self.on_stderr {
            anyhow::bail!(
                "{name}: the {what} cannot go to standard error too: the {other} goes there; \
                 write one of them to a file"
            );
        }
        self.on_stderr = Some(what);
        let file = io::stderr()
            .as_fd()
            .try_clone_to_owned()
            .map(File::from)
            .with_context(|| format!("{name}: cannot open standard error"))?;
        let meta = file
            .metadata()
            .with_context(|| format!("{name}: cannot read its metadata"))?;
        let opened = Opened::File {
            file,
            truncate: false,
        };
        self.push(name.to_string(), what, identity(&meta), opened)
    }

    #[cfg(not(unix))]
    fn add_stderr(&mut self, name: &str, _what: &'static str) -> Result<Slot> {
        anyhow::bail!("{name}: standard error by name is not supported here")
    }

    fn add_file(&mut self, path: &Path, what: &'static str) -> Result<Slot> {
        let name = path.display().to_string();
        match names_std_stream(path) {
            // standard output by its name is written as `-` writes it: refused when it was
            // closed (the name would open the `/dev/null` the runtime put there) or already
            // taken, and never opened again by name (which empties a file `>>` appends to)
            Some(1) => return self.add_stdout(what),
            Some(fd) if written_in_vain(fd).is_some() => anyhow::bail!(
                "{name}: this is {}, which is {}, so the {what} would be lost; send it to a file",
                std_stream_name(fd),
                written_in_vain(fd).unwrap_or("closed")
            ),
            // standard error by its name is written where standard error writes, through a copy
            // of its descriptor: opened again by name, a file `2>>` appends to was emptied (what
            // it held lost), and one `2>` writes to was written over by the run's messages
            Some(2) => return self.add_stderr(&name, what),
            // a file redirected to standard input to be read (`< FILE`), opened again by name
            // for writing, was emptied and written over: it was the user's, given to be read
            Some(0) if stdin_reads_a_file() => anyhow::bail!(
                "{name}: this is standard input, a file redirected to be read (`< FILE`); \
                 writing the {what} there would destroy it (name the file to write, or open \
                 standard input for writing with `0<>` if that is meant)"
            ),
            _ => {}
        }
        // an input is named before opening, so a read-only input gets this message and not a
        // permission error
        let before = fs::metadata(path).ok();
        // a path to the pipe standard output goes to (`/dev/stdout`, `/proc/self/fd/1` with
        // `| cmd`) is standard output: two outputs there would be merged unnoticed
        if before.as_ref().is_some_and(is_stdout_pipe) {
            return self.add_stdout(what);
        }
        // a file named as compressed would hold plain text: a reader that goes by the name fails
        let compressed = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .filter(|e| ["gz", "bz2", "xz", "zst", "zip"].contains(&e.as_str()));
        if let Some(ext) = compressed.filter(|_| before.as_ref().is_none_or(Metadata::is_file)) {
            anyhow::bail!(
                "{name}: the {what} would be plain text under a .{ext} name: name it without \
                 .{ext} (and compress it afterwards, or pipe standard output through gzip, xz or \
                 zstd)"
            );
        }
        if let Some(id) = before.as_ref().and_then(identity) {
            self.refuse_clash(&name, what, id)?;
            // standard output's file by its own name (or a link): opened again by its name, a
            // file `>>` appends to was emptied, what it held before the run lost, and one that
            // standard error shares (`> FILE 2>&1`) was written over by the run's messages; it
            // is written as `-` writes it (after what `>>` keeps, at the offset `1<>` set, at
            // the offset it shares with standard error)
            if std_stream_metadata(1).as_ref().and_then(identity) == Some(id) {
                return self.add_stdout(what);
            }
            if stderr_overwrites(id) {
                anyhow::bail!(
                    "{name}: standard error goes to the {what} file too (`2>` it, not `2>>`): \
                     the run's messages would be written over it (send standard error to \
                     another file, or append it with `2>>`)"
                );
            }
        }
        let existed = before.is_some();
        let file = open_output(path, before.as_ref(), &name)?;
        if !existed {
            // through a symlink, the file made is its target
            self.created
                .push(fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()));
        }
        let meta = file
            .metadata()
            .with_context(|| format!("{name}: cannot read its metadata"))?;
        // checked again on the open file: the name may have changed hands in between
        let truncate = existed && meta.is_file();
        self.push(name, what, identity(&meta), Opened::File { file, truncate })
    }

    fn push(
        &mut self,
        name: String,
        what: &'static str,
        id: Option<FileId>,
        opened: Opened,
    ) -> Result<Slot> {
        if let Some(id) = id {
            self.refuse_clash(&name, what, id)?;
        }
        self.outputs.push((name, what, id));
        self.opened.push(opened);
        Ok(Slot(self.opened.len() - 1))
    }

    /// Fails when `id` (output `what`, named `name`) is an input or an earlier output.
    fn refuse_clash(&self, name: &str, what: &'static str, id: FileId) -> Result<()> {
        if let Some(input) = self.inputs.iter().find(|i| i.id == id) {
            let same = if input.name == name {
                String::new()
            } else {
                format!(" {}", input.name)
            };
            anyhow::bail!(
                "{name}: the {what} file is the input{same}; writing it would destroy what is \
                 read (write to another file)"
            );
        }
        if let Some((other, other_what, _)) = self.outputs.iter().find(|o| o.2 == Some(id)) {
            let same = if other == name {
                String::new()
            } else {
                format!(" ({other})")
            };
            anyhow::bail!(
                "{name}: the {what} file is the same file as the {other_what} file{same}; name \
                 two different files"
            );
        }
        Ok(())
    }

    /// Checks that `path`, a file about to be made while the run goes on (one per dataset in a
    /// folder), is no input and no output of the plan.
    pub fn check_later(&self, path: &Path, what: &'static str) -> Result<()> {
        if let Some(id) = fs::metadata(path).ok().as_ref().and_then(identity) {
            self.refuse_clash(&path.display().to_string(), what, id)?;
        }
        Ok(())
    }

    /// Empties the outputs that held something and hands over their writers: called once the
    /// run can start (its inputs open), so a run that fails before leaves every file as it was.
    pub fn begin(&mut self) -> Result<Begun> {
        let mut writers = Vec::with_capacity(self.opened.len());
        for (opened, (name, ..)) in self.opened.drain(..).zip(&self.outputs) {
            writers.push(Some(match opened {
                Opened::Stdout => stdout_destination(),
                Opened::File { file, truncate } => {
                    if truncate {
                        file.set_len(0)
                            .with_context(|| format!("{name}: cannot empty it to write"))?;
                    }
                    Destination::File(file)
                }
            }));
        }
        self.begun = true;
        Ok(Begun { writers })
    }

    /// The files this plan made for its outputs (removed again if the run never begins).
    pub fn created_files(&self) -> Vec<PathBuf> {
        self.created.clone()
    }

    /// Watches `slot`'s output, when it is a pipe or a socket, for its reader going away, and
    /// then raises `stop` (see [`super::signals::PipeWatch`]): from before the inputs are
    /// opened, so that a run waiting for its first input line stops too.
    pub fn watch_reader(
        &self,
        slot: &Slot,
        stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    ) -> Option<super::signals::PipeWatch> {
        #[cfg(unix)]
        {
            let (fd, socket) = pipe_end(self.opened.get(slot.0)?)?;
            Some(super::signals::PipeWatch::start(fd, socket, stop))
        }
        #[cfg(not(unix))]
        {
            let _ = (slot, stop);
            None
        }
    }
}

/// A copy of the descriptor of `opened` when it is a pipe or a socket (and which of the two),
/// to watch for its reader going away ([`super::signals::PipeWatch`]).
#[cfg(unix)]
fn pipe_end(opened: &Opened) -> Option<(std::os::fd::OwnedFd, bool)> {
    use std::os::fd::AsFd;
    use std::os::unix::fs::FileTypeExt;
    let fd = match opened {
        Opened::Stdout => io::stdout().as_fd().try_clone_to_owned().ok()?,
        Opened::File { file, .. } => file.as_fd().try_clone_to_owned().ok()?,
    };
    let kind = File::from(fd.try_clone().ok()?)
        .metadata()
        .ok()?
        .file_type();
    (kind.is_fifo() || kind.is_socket()).then_some((fd, kind.is_socket()))
}

impl Drop for OutputPlan {
    /// A run that never began removes the files it made for its outputs, so a failed start
    /// leaves the folder as it was.
    fn drop(&mut self) {
        if !self.begun {
            for path in &self.created {
                let _ = fs::remove_file(path);
            }
        }
    }
}

/// Standard output as a destination: a file of its own (a duplicate of the descriptor, sharing
/// its offset) when it is a regular file, which can then be written at offsets; else a stream.
fn stdout_destination() -> Destination<'static> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(fd) = io::stdout().as_fd().try_clone_to_owned() {
            let file = File::from(fd);
            if file.metadata().is_ok_and(|m| m.is_file()) {
                return Destination::File(file);
            }
        }
    }
    Destination::Stream(Box::new(io::stdout()))
}

/// The writers of a begun plan, each taken once by its [`Slot`].
pub struct Begun {
    writers: Vec<Option<Destination<'static>>>,
}

impl Begun {
    /// Where `slot` goes (a sink if it was somehow taken already, which the types prevent).
    pub fn take_destination(&mut self, slot: Slot) -> Destination<'static> {
        self.writers
            .get_mut(slot.0)
            .and_then(Option::take)
            .unwrap_or_else(|| Destination::Stream(Box::new(io::sink())))
    }

    /// The writer of `slot`, for output written in order by one thread.
    pub fn take(&mut self, slot: Slot) -> Box<dyn Write + Send> {
        match self.take_destination(slot) {
            Destination::File(file) => Box::new(file),
            Destination::Stream(out) => out,
        }
    }

    /// The writer of `slot` for one document written whole (a `--stats` JSON, a bench
    /// report): a file whose write fails is cut back to where it stood when taken, never left
    /// holding part of it (`ulimit -f`, a full disk: a torn JSON replaced the earlier file).
    pub fn take_whole(&mut self, slot: Slot) -> Box<dyn Write + Send> {
        self.take_cut_back(slot, false)
    }

    /// The writer of `slot` for output written in parts, each ended by a flush (a `--report`,
    /// a batch of findings at a time): a file whose write fails is cut back to the end of the
    /// last part flushed whole, never left ending in part of a row.
    pub fn take_parts(&mut self, slot: Slot) -> Box<dyn Write + Send> {
        self.take_cut_back(slot, true)
    }

    fn take_cut_back(&mut self, slot: Slot, parts: bool) -> Box<dyn Write + Send> {
        match self.take_destination(slot) {
            Destination::File(file) => {
                let start = file.metadata().map_or(0, |m| m.len());
                Box::new(CutBack {
                    file,
                    start,
                    written: 0,
                    whole: 0,
                    parts,
                    cut: false,
                })
            }
            Destination::Stream(out) => out,
        }
    }
}

/// A file cut back when a write fails: to where it stood when taken, or with `parts` to the
/// end of the last part flushed whole (see [`Begun::take_whole`], [`Begun::take_parts`]).
struct CutBack {
    file: File,
    start: u64,
    /// Bytes written since `start`, and how many of them end a part.
    written: u64,
    whole: u64,
    parts: bool,
    /// A write failed and the file was cut back: nothing more is written. (A buffer over this
    /// writer flushed its rest when dropped, at the offset before the cut, which the cut had
    /// just made room for: a report of zero bytes, then torn rows.)
    cut: bool,
}

impl CutBack {
    fn cut_back(&mut self, error: io::Error) -> io::Error {
        let _ = self.file.set_len(self.start + self.whole);
        self.cut = true;
        error
    }

    /// The error for a write after the cut.
    fn after_cut() -> io::Error {
        io::Error::other("not written: the file was cut back after a failed write")
    }
}

impl Write for CutBack {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.cut {
            return Err(CutBack::after_cut());
        }
        match self.file.write(buf) {
            Ok(n) => {
                self.written += n as u64;
                Ok(n)
            }
            Err(e) => Err(self.cut_back(e)),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.cut {
            return Err(CutBack::after_cut());
        }
        self.file.flush().map_err(|e| self.cut_back(e))?;
        if self.parts {
            self.whole = self.written;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A buffer over a file cut back after a failed write flushed its rest when dropped, at the
    /// offset before the cut: zeros up to there, then torn rows (a `--report` on a full disk).
    #[test]
    fn nothing_is_written_after_a_cut() {
        let file = tempfile::tempfile().unwrap();
        let mut out = CutBack {
            file: file.try_clone().unwrap(),
            start: 0,
            written: 0,
            whole: 0,
            parts: true,
            cut: false,
        };
        out.write_all(b"header\n").unwrap();
        out.flush().unwrap();
        out.write_all(b"a torn ro").unwrap();
        // the next write failed (ENOSPC): the file is cut back to its last whole part
        let _ = out.cut_back(io::Error::from(io::ErrorKind::StorageFull));
        assert_eq!(file.metadata().unwrap().len(), 7);
        // a buffer's rest, flushed as it is dropped: refused, the file as cut
        let mut buffered = io::BufWriter::new(out);
        buffered.write_all(b"w\nmore rows\n").unwrap();
        assert!(buffered.flush().is_err());
        drop(buffered);
        assert_eq!(file.metadata().unwrap().len(), 7);
    }
}
