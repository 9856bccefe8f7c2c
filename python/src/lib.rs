//! The native half of the `sudoku_batch` Python package: batch functions over whole columns of
//! puzzles, the work on a rayon pool with the GIL released. The Python half
//! (`sudoku_batch/__init__.py`) refuses what is not a column and turns pandas, polars, pyarrow
//! and numpy inputs into the two forms taken here (a list, whose items are checked here to be
//! `str`/`bytes`/`None`, or `bytes` of n x 81 cell values) and the packed results into numpy
//! columns or an Arrow table: each result column comes back as one `bytes` filled here, which
//! the Python half reads as it is, never row by row.
//!
//! Every record gets an answer: a puzzle that cannot be read (a `str` with a lone surrogate too)
//! gets the `malformed` status and a reason, never an exception; only arguments of the wrong type
//! or shape raise, naming the argument and the item.

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::types::{PyByteArray, PyBytes, PyFloat, PyList, PyString, PyTuple};
use rayon::prelude::*;
use std::borrow::Cow;
use std::num::NonZeroUsize;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use sudoku_batch::canon;
use sudoku_batch::check::{Options, Verdict, check_puzzle};
use sudoku_batch::grid::{CELLS, Grid};
use sudoku_batch::pipeline::{logical_cpus, rayon_num_threads, thread_ceiling};
use sudoku_batch::solver;
use sudoku_batch::status::Status;

/// A list's items, borrowed from Python (`None`: a missing value), to be parsed off the GIL.
type Texts = Vec<Option<Text>>;

/// A `str` or `bytes` item's bytes, kept alive by the Python object, or why a `str` has none.
enum Text {
    Str(PyBackedStr),
    Bytes(PyBackedBytes),
    /// A `str` that cannot be written as UTF-8 (it holds a lone surrogate): why.
    Unencodable(String),
}

/// Takes the items of `name`, a list whose items are `str`, `bytes` or `None`; any other item is
/// a `TypeError` that names the argument, the item's position and its type.
fn texts(items: &Bound<'_, PyAny>, name: &str) -> PyResult<Texts> {
    if items.is_instance_of::<PyString>() || items.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be a column (a list, array or series), not a single string"
        )));
    }
    let mut out = Vec::with_capacity(items.len().unwrap_or(0));
    for (i, item) in items.try_iter()?.enumerate() {
        let item = item?;
        out.push(if item.is_none() {
            None
        } else if let Ok(text) = item.cast::<PyString>() {
            Some(match PyBackedStr::try_from(text.clone()) {
                Ok(text) => Text::Str(text),
                Err(_) => Text::Unencodable(lone_surrogate(text)?),
            })
        } else if item.is_instance_of::<PyBytes>() {
            Some(Text::Bytes(item.extract::<PyBackedBytes>()?))
        } else {
            return Err(PyTypeError::new_err(wrong_item(&item, name, i)?));
        });
    }
    Ok(out)
}

/// The message for item `i` of `name` that is neither `str`, `bytes` nor `None`, with a hint
/// for the likely mistakes: numbers (a puzzle read as a number) and nested sequences (cells).
fn wrong_item(item: &Bound<'_, PyAny>, name: &str, i: usize) -> PyResult<String> {
    let kind = item.get_type().name()?.to_string();
    let nan = item.cast::<PyFloat>().is_ok_and(|f| f.value().is_nan());
    // a numpy grid (an array of one or more dimensions, not a numpy number) where the
    // container is not read as grids: its `__index__` is no sign of a puzzle read as a number
    // (a memoryview has `ndim` too, and is bytes)
    let memoryview = kind == "memoryview";
    let array = !memoryview
        && item.hasattr("ndim")?
        && item
            .getattr("ndim")?
            .extract::<usize>()
            .is_ok_and(|ndim| ndim > 0);
    let hint = if nan {
        ": NaN is not a puzzle, and a missing one is None"
    } else if array {
        ": numpy grids are read from a list or a pandas Series of them, or from one array \
         shaped (n, 81) or (n, 9, 9)"
    } else if item.is_instance_of::<PyFloat>() || item.hasattr("__index__")? {
        ": a grid read as a number has lost its leading 0s (blanks); pass it as a str"
    } else if item.is_instance_of::<PyList>() || item.is_instance_of::<PyTuple>() {
        ": cell values go in a numpy array shaped (n, 81) or (n, 9, 9)"
    } else if item.is_instance_of::<PyByteArray>() || memoryview {
        ": pass bytes(...)"
    } else {
        ""
    };
    Ok(format!(
        "{name}[{i}] is {} {kind}, not str, bytes or None{hint}",
        article(&kind)
    ))
}

/// "a" or "an" before a type's name, as it is said: an int, a float, a uint8, an ndarray.
fn article(word: &str) -> &'static str {
    let word = word.to_ascii_lowercase();
    let vowel = word.starts_with(['a', 'e', 'i', 'o'])
        || (word.starts_with('u') && !word.starts_with("uint") && !word.starts_with("uni"))
        || word.starts_with("nd");
    if vowel { "an" } else { "a" }
}

/// Why a `str` that UTF-8 cannot hold is not a puzzle: its first lone surrogate, and where
/// (1-based, as cells are numbered).
fn lone_surrogate(text: &Bound<'_, PyString>) -> PyResult<String> {
    let encoded = text.call_method1("encode", ("utf-8", "surrogatepass"))?;
    let bytes = encoded.cast::<PyBytes>()?.as_bytes();
    // surrogatepass writes a surrogate as ED A0..BF 80..BF, which UTF-8 has not; the rest is
    // UTF-8, where a character starts at each byte that is not 10xxxxxx
    let mut chars = 0;
    for (at, window) in bytes.windows(3).enumerate() {
        if let [0xED, high @ 0xA0..=0xBF, low] = *window {
            let point = 0xD000 | (u32::from(high & 0x3F) << 6) | u32::from(low & 0x3F);
            return Ok(format!(
                "character {} is a lone surrogate (U+{point:04X}): not valid UTF-8",
                chars + 1
            ));
        }
        if bytes[at] & 0xC0 != 0x80 {
            chars += 1;
        }
    }
    Ok("not valid UTF-8".to_string())
}

/// The puzzle of a text item, or why it is malformed; an item that is not UTF-8 is said in the
/// words the CLI uses for such a line (the byte and where it is), not with the replacement
/// character the parse would name in its place.
fn parse(text: &[u8]) -> Result<Grid, String> {
    let trimmed = text.trim_ascii();
    Grid::parse(trimmed).map_err(|e| match std::str::from_utf8(trimmed) {
        Ok(_) => e.to_string(),
        Err(bad) => {
            let lead = text.len() - text.trim_ascii_start().len();
            let at = bad.valid_up_to();
            format!(
                "invalid UTF-8 (byte 0x{:02X} at byte {} of the item); puzzle text must be UTF-8",
                trimmed[at],
                lead + at + 1
            )
        }
    })
}

/// Checks that `cells` holds `n` puzzles of 81 cell values each.
fn check_cells(cells: &[u8], n: usize) -> PyResult<()> {
    if n.checked_mul(CELLS) != Some(cells.len()) {
        return Err(PyValueError::new_err(format!(
            "{} cell values for {n} puzzles: expected 81 each",
            cells.len(),
        )));
    }
    Ok(())
}

/// Puzzle `i` of packed cell values (0 blank, 1 to 9).
fn cell_puzzle(cells: &[u8], i: usize) -> Result<Grid, String> {
    let chunk = &cells[i * CELLS..(i + 1) * CELLS];
    let mut values = [0u8; CELLS];
    values.copy_from_slice(chunk);
    Grid::from_values(values).ok_or_else(|| {
        let (at, v) = chunk
            .iter()
            .enumerate()
            .find(|&(_, &v)| v > 9)
            .unwrap_or((0, &0));
        format!("cell {} holds {v}, not 0 to 9", at + 1)
    })
}

/// Puzzle `i` of a list's items.
fn text_puzzle(items: &Texts, i: usize) -> Result<Grid, String> {
    match &items[i] {
        None => Err("missing puzzle (None)".to_string()),
        Some(Text::Str(text)) => parse(text.as_bytes()),
        Some(Text::Bytes(bytes)) => parse(bytes),
        Some(Text::Unencodable(why)) => Err(why.clone()),
    }
}

/// A row of packed cells that holds a grid (see [`Column::Cells`]).
const ROW_GRID: u8 = 1;
/// A row of packed cells that holds none (a missing value: `None`, an Arrow null).
const ROW_MISSING: u8 = 0;
/// A row whose cell `k` (from 0), its first, has no value: `ROW_NULL_CELL + k`.
const ROW_NULL_CELL: u8 = 2;

/// A column of puzzles as the Python half hands it over.
enum Column {
    /// A list's items.
    Texts(Texts),
    /// `n` puzzles of 81 cell values each, packed, and for columns that can miss values (Arrow
    /// cell lists) a byte a row: [`ROW_GRID`], [`ROW_MISSING`] or [`ROW_NULL_CELL`] plus the
    /// cell.
    Cells(PyBackedBytes, usize, Option<PyBackedBytes>),
}

impl Column {
    /// The argument `name`: a list of `str`/`bytes`/`None` when `n` is `None`, else `bytes` of
    /// `n` x 81 cell values, or a pair of those and `bytes` of `n` row states.
    fn new(column: &Bound<'_, PyAny>, n: Option<usize>, name: &str) -> PyResult<Column> {
        match n {
            None => Ok(Column::Texts(texts(column, name)?)),
            Some(n) => {
                let (cells, rows) = match column.extract::<(PyBackedBytes, PyBackedBytes)>() {
                    Ok((cells, rows)) => (cells, Some(rows)),
                    Err(_) => (column.extract::<PyBackedBytes>()?, None),
                };
                check_cells(&cells, n)?;
                if rows.as_ref().is_some_and(|rows| rows.len() != n) {
                    return Err(PyValueError::new_err(format!(
                        "{name}: row states for {n} puzzles: expected one each"
                    )));
                }
                Ok(Column::Cells(cells, n, rows))
            }
        }
    }

    fn len(&self) -> usize {
        match self {
            Column::Texts(items) => items.len(),
            Column::Cells(_, n, _) => *n,
        }
    }

    /// The state of packed row `i` ([`ROW_GRID`] for a column without states).
    fn row_state(&self, i: usize) -> u8 {
        match self {
            Column::Cells(_, _, Some(rows)) => rows[i],
            _ => ROW_GRID,
        }
    }

    /// Why packed row `i`, whose state is not [`ROW_GRID`], holds no grid.
    fn missing(state: u8, what: &str) -> String {
        match state {
            ROW_MISSING => format!("missing {what} (None)"),
            _ => format!(
                "cell {} is null, not 0 to 9",
                u32::from(state.saturating_sub(ROW_NULL_CELL)) + 1
            ),
        }
    }

    /// Whether grids answering this column are written as ASCII digits (text in, text out: the
    /// Python half reads them as strings as they are) rather than cell values (cells in, cells
    /// out).
    fn digits(&self) -> bool {
        matches!(self, Column::Texts(_))
    }

    /// Puzzle `i`, or why it is not one.
    fn read(&self, i: usize) -> Result<Grid, String> {
        match self {
            Column::Texts(items) => text_puzzle(items, i),
            Column::Cells(cells, _, _) => match self.row_state(i) {
                ROW_GRID => cell_puzzle(cells, i),
                state => Err(Column::missing(state, "puzzle")),
            },
        }
    }

    /// Record `i` as a solution given for checking: its text (`None`: no solution given), or
    /// why it cannot be read.
    fn given(&self, i: usize) -> Result<Option<Cow<'_, str>>, String> {
        match self {
            Column::Texts(items) => match &items[i] {
                None => Ok(None),
                Some(Text::Str(text)) => Ok(Some(Cow::Borrowed(text))),
                // read as the CLI reads a line: an invalid sequence is one character
                Some(Text::Bytes(bytes)) => Ok(Some(String::from_utf8_lossy(bytes))),
                Some(Text::Unencodable(why)) => Err(why.clone()),
            },
            Column::Cells(cells, _, _) => {
                match self.row_state(i) {
                    ROW_GRID => {}
                    ROW_MISSING => return Ok(None),
                    state => return Err(Column::missing(state, "solution")),
                }
                let grid = cell_puzzle(cells, i)?;
                Ok(Some(Cow::Owned(
                    grid.cells().iter().map(|&v| char::from(b'0' + v)).collect(),
                )))
            }
        }
    }
}

/// The logical CPUs and the most threads a call may ask for, for the Python half to check and
/// cap `threads=` (warning there, where the caller's line is known).
#[pyfunction]
fn thread_limits() -> (usize, usize) {
    (logical_cpus(), thread_ceiling())
}

/// The pool `threads=None` runs on: rayon's global pool, sized once for the process, as the
/// CLI sizes its pool without `-j`: `RAYON_NUM_THREADS` (a positive number, as rayon reads it)
/// capped at [`thread_ceiling`], else every logical CPU.
struct DefaultPool {
    /// What `RAYON_NUM_THREADS` asked for, if anything.
    asked: Option<usize>,
    /// `RAYON_NUM_THREADS` when it is set to something that is no number of threads (`abc`,
    /// `-1`): the pool is every logical CPU, which the Python half says, as the CLI does.
    unreadable: Option<String>,
    /// The pool's threads.
    threads: usize,
    /// The process that started it: a child forked since has the pool but not its threads.
    owner: u32,
}

fn default_pool() -> &'static DefaultPool {
    static DEFAULT: OnceLock<DefaultPool> = OnceLock::new();
    DEFAULT.get_or_init(|| {
        let (asked, unreadable) = match rayon_num_threads() {
            Ok(n) => (n.map(NonZeroUsize::get), None),
            Err(text) => (None, Some(text)),
        };
        let threads = asked.map_or_else(logical_cpus, |n| n.min(thread_ceiling()));
        // built before any work reaches the global pool, which rayon would otherwise size from
        // RAYON_NUM_THREADS without a ceiling; if this fails, rayon's own default stands
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global();
        DefaultPool {
            asked,
            unreadable,
            threads,
            owner: std::process::id(),
        }
    })
}

/// What `RAYON_NUM_THREADS` asked for, the default pool's size (see [`default_pool`]), and the
/// variable's text when it is no number of threads, for the Python half to warn when it was
/// capped or not read.
#[pyfunction]
fn default_threads() -> (Option<usize>, usize, Option<String>) {
    let pool = default_pool();
    (pool.asked, pool.threads, pool.unreadable.clone())
}

/// Runs `work` with the GIL released: for `None` on the default pool (see [`default_pool`]),
/// else on a pool of `threads` started for this call and joined before it returns. Rayon ends a
/// dropped pool's threads in the background, so without the join hundreds of them outlived the
/// call; the Python half caps `threads` at [`thread_ceiling`] and refuses 0.
///
/// With `watch`, Python's signal handlers run while the work does (see [`watched`]): Ctrl-C
/// stops the call with `KeyboardInterrupt` soon after, as it stops Python code. `work` is given
/// the flag that tells it to stop: set, its result is dropped, so it may end at once with
/// anything. Without, the work runs as it comes (a call too short to wait on; watching costs
/// about 18 µs a call, on calls of 7 µs for one puzzle).
fn on_pool<T: Send>(
    py: Python<'_>,
    threads: Option<usize>,
    watch: bool,
    work: impl FnOnce(&AtomicBool) -> T + Send,
) -> PyResult<T> {
    let stop = AtomicBool::new(false);
    let work = || work(&stop);
    let run = |pool: Option<&rayon::ThreadPool>| match (watch, pool) {
        (true, pool) => watched(pool, &stop, work),
        (false, Some(pool)) => Ok(pool.install(work)),
        (false, None) => Ok(work()),
    };
    let n = match threads {
        None => {
            let pool = default_pool();
            if pool.owner == std::process::id() {
                return py.detach(|| run(None));
            }
            // a child forked after the pool started (multiprocessing's default on Linux): fork
            // copies no thread, so work sent to the global pool would wait forever
            pool.threads
        }
        Some(n) if n == 0 || n > thread_ceiling() => {
            return Err(PyValueError::new_err(format!(
                "threads must be 1 to {}, not {n}",
                thread_ceiling()
            )));
        }
        Some(n) => n,
    };
    let done = py.detach(|| {
        let mut started = Vec::with_capacity(n);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .spawn_handler(|thread| {
                let mut builder = std::thread::Builder::new();
                if let Some(name) = thread.name() {
                    builder = builder.name(name.to_owned());
                }
                if let Some(size) = thread.stack_size() {
                    builder = builder.stack_size(size);
                }
                started.push(builder.spawn(|| thread.run())?);
                Ok(())
            })
            .build();
        // the pool is dropped (its threads told to end) before they are joined; a failed build
        // has ended the threads it started
        let done = pool.map(|pool| run(Some(&pool)));
        for thread in started {
            // a worker's panic has already reached the scope in `watched`
            let _ = thread.join();
        }
        done
    });
    done.map_err(|e| PyRuntimeError::new_err(format!("starting {n} threads: {e}")))?
}

/// How often a call's waiting thread lets Python run its signal handlers.
const SIGNALS_EVERY: Duration = Duration::from_millis(20);

/// Runs `work` as a job of `pool` (the global pool for `None`) while the calling thread, which
/// holds no GIL, waits for it and every [`SIGNALS_EVERY`] takes the GIL to run Python's signal
/// handlers (`check_signals`). When a handler raises (Ctrl-C: `KeyboardInterrupt`), `stop` is
/// set, the job is waited for and the exception returned; a panic of the job goes on up.
///
/// Why: Python runs its handlers between bytecodes of its main thread, so during one long
/// native call Ctrl-C did nothing until the call returned, hours on `generate(10**9)`; in a
/// notebook the only way out was to restart the kernel and lose its state. Handlers run only
/// on the main thread; called from another, this waits as before.
fn watched<T: Send>(
    pool: Option<&rayon::ThreadPool>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let (sender, receiver) = mpsc::sync_channel(1);
    let job = move || {
        let _ = sender.send(work());
    };
    let done = match pool {
        Some(pool) => pool.in_place_scope(|scope| {
            scope.spawn(|_| job());
            wait(&receiver, stop)
        }),
        None => rayon::in_place_scope(|scope| {
            scope.spawn(|_| job());
            wait(&receiver, stop)
        }),
    };
    done.unwrap_or_else(|| unreachable!("a job that ends without an answer has panicked"))
}

/// [`watched`]'s wait for its job's answer on `receiver`, running Python's signal handlers
/// every [`SIGNALS_EVERY`]: `None` when the job panicked (its scope raises the panic).
fn wait<T>(receiver: &mpsc::Receiver<T>, stop: &AtomicBool) -> Option<PyResult<T>> {
    loop {
        match receiver.recv_timeout(SIGNALS_EVERY) {
            Ok(done) => return Some(Ok(done)),
            Err(RecvTimeoutError::Disconnected) => return None,
            Err(RecvTimeoutError::Timeout) => {
                if let Err(e) = Python::attach(|py| py.check_signals()) {
                    stop.store(true, Ordering::Relaxed);
                    return Some(Err(e));
                }
            }
        }
    }
}

/// What `solve`, `check` and `canonical` give back, each column a `bytes` of the Python half to
/// read as numpy or Arrow without another copy: codes (indexes into the word list, one byte a
/// record), the grids (81 bytes a record, as [`Column::digits`] says; zeros where there is
/// none), the u64 column (native byte order), which records have a grid (an Arrow validity
/// bitmap: bit `i % 8` of byte `i / 8`), and the notes (see [`notes_out`]).
type Packed<'py> = (Bytes<'py>, Bytes<'py>, Bytes<'py>, Bytes<'py>, Notes<'py>);

/// A `bytes` object handed to Python.
type Bytes<'py> = Bound<'py, PyBytes>;

/// The records that have a note (reason or detail), in order, as three `bytes`: their indexes
/// and the end of each note in the text (i64, native byte order), and the notes' UTF-8 text end
/// to end; the Python half makes of them an object column or an Arrow string column.
type Notes<'py> = (Bytes<'py>, Bytes<'py>, Bytes<'py>);

/// One record's answer: its code, the number for the u64 column, its grid and its note (reason
/// or detail), if any.
struct Row {
    code: u8,
    number: u64,
    grid: Option<Grid>,
    note: Option<String>,
}

impl Row {
    /// A record that is not a puzzle (`code`, malformed), and why.
    fn unread(code: u8, reason: String) -> Row {
        Row {
            code,
            number: 0,
            grid: None,
            note: Some(reason),
        }
    }
}

/// A record's answer, given its index and its puzzle.
type Answer<'a> = dyn Fn(usize, Result<Grid, String>, &AtomicBool) -> Row + Sync + 'a;

/// How [`answer_into`] lays out its work and its grids column.
#[derive(Clone, Copy)]
struct Shape {
    /// Records a task takes at a time (a multiple of 8, so each task has whole bytes of a
    /// bitmap).
    chunk: usize,
    /// Bytes a record in the grids column: [`CELLS`], or 1 for a function without grids (a
    /// column of zeros then, never read, that keeps the chunks in step).
    grids: usize,
    /// Records from which a call runs Python's signal handlers as it works (see [`on_pool`]):
    /// fewer take too little time to wait on.
    watch_from: usize,
}

/// The shape of `solve`, `check` and `canonical`: microseconds a record, so 1,024 records a
/// task keep the pool's overhead small.
/// A call of 4,096 records or more runs Python's signal handlers as it works: fewer take 0.2 s
/// at most on one thread (the hardest puzzles, uniqueness proved).
const GRIDS: Shape = Shape {
    chunk: 1024,
    grids: CELLS,
    watch_from: 4096,
};

/// Each record of `column` answered by `answer` straight into the output columns, in parallel a
/// chunk at a time on the pool `threads` asks for (no column of intermediate answers). The
/// grids, the largest column, are written in place in the `bytes` handed to Python.
fn answer_into<'py>(
    py: Python<'py>,
    threads: Option<usize>,
    column: &Column,
    shape: Shape,
    answer: &Answer<'_>,
) -> PyResult<Packed<'py>> {
    let n = column.len();
    let digits = column.digits();
    let Shape {
        chunk,
        grids: width,
        watch_from,
    } = shape;
    let mut codes = vec![0u8; n];
    let mut numbers = vec![0u8; n * 8];
    let mut present = vec![0u8; n.div_ceil(8)];
    let mut notes = Vec::new();
    let grids = PyBytes::new_with(py, n * width, |grids| {
        notes = on_pool(py, threads, n >= watch_from, |stop| {
            codes
                .par_chunks_mut(chunk)
                .zip(grids.par_chunks_mut(chunk * width))
                .zip(numbers.par_chunks_mut(chunk * 8))
                .zip(present.par_chunks_mut(chunk / 8))
                .enumerate()
                .flat_map_iter(|(k, (((codes, grids), numbers), present))| {
                    let mut notes = Vec::new();
                    let rows = codes
                        .iter_mut()
                        .zip(grids.chunks_exact_mut(width))
                        .zip(numbers.chunks_exact_mut(8));
                    for (j, ((code, cells), number)) in rows.enumerate() {
                        // stopped (Ctrl-C): the columns are dropped unread
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let i = k * chunk + j;
                        let row = answer(i, column.read(i), stop);
                        *code = row.code;
                        number.copy_from_slice(&row.number.to_ne_bytes());
                        if let Some(grid) = row.grid {
                            if digits {
                                cells.copy_from_slice(&grid.to_line(b'0'));
                            } else {
                                cells.copy_from_slice(grid.cells());
                            }
                            present[j / 8] |= 1 << (j % 8);
                        }
                        if let Some(note) = row.note {
                            notes.push((i, note));
                        }
                    }
                    notes
                })
                .collect()
        })?;
        Ok(())
    })?;
    Ok((
        PyBytes::new(py, &codes),
        grids,
        PyBytes::new(py, &numbers),
        PyBytes::new(py, &present),
        notes_out(py, &notes),
    ))
}

/// The notes of [`answer_into`] as [`Notes`].
fn notes_out<'py>(py: Python<'py>, notes: &[(usize, String)]) -> Notes<'py> {
    let mut rows = Vec::with_capacity(notes.len() * 8);
    let mut ends = Vec::with_capacity(notes.len() * 8);
    let mut text = Vec::new();
    for (i, note) in notes {
        text.extend_from_slice(note.as_bytes());
        rows.extend_from_slice(&(*i as i64).to_ne_bytes());
        ends.extend_from_slice(&(text.len() as i64).to_ne_bytes());
    }
    (
        PyBytes::new(py, &rows),
        PyBytes::new(py, &ends),
        PyBytes::new(py, &text),
    )
}

/// The code of a solve status.
fn status_code(status: Status) -> u8 {
    Status::ALL.iter().position(|&s| s == status).unwrap_or(0) as u8
}

/// The solve status words, indexed by the codes `solve` returns.
#[pyfunction]
fn status_words() -> Vec<&'static str> {
    Status::ALL.iter().map(|s| s.as_str()).collect()
}

/// The check verdict words, indexed by the codes `check` returns.
#[pyfunction]
fn verdict_words() -> Vec<&'static str> {
    Verdict::ALL.iter().map(|v| v.as_str()).collect()
}

/// Solves a column of puzzles (see [`Column::new`] for `puzzles` and `n`), as [`Packed`]: status
/// codes, solutions, guesses and the reasons of malformed records.
#[pyfunction]
#[pyo3(signature = (puzzles, n, unique, threads))]
fn solve<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    n: Option<usize>,
    unique: bool,
    threads: Option<usize>,
) -> PyResult<Packed<'py>> {
    let column = Column::new(puzzles, n, "puzzles")?;
    answer_into(py, threads, &column, GRIDS, &|_, puzzle, _| match puzzle {
        Ok(grid) => {
            let a = solver::answer_with(&grid, unique, false);
            Row {
                code: status_code(a.status),
                number: a.guesses,
                grid: a.solution,
                note: None,
            }
        }
        Err(reason) => Row::unread(status_code(Status::Malformed), reason),
    })
}

/// Checks a column of puzzles (see [`Column::new`]), each with the solution the dataset gives
/// for it, if a column of them is given (in the same two forms, `solutions_n` telling which), as
/// [`Packed`]: verdict codes, the only solutions, guesses and details.
#[pyfunction]
#[pyo3(signature = (puzzles, n, solutions, solutions_n, threads))]
fn check<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    n: Option<usize>,
    solutions: Option<&Bound<'py, PyAny>>,
    solutions_n: Option<usize>,
    threads: Option<usize>,
) -> PyResult<Packed<'py>> {
    let column = Column::new(puzzles, n, "puzzles")?;
    let solutions = solutions
        .map(|s| Column::new(s, solutions_n, "solutions"))
        .transpose()?;
    if let Some(s) = &solutions {
        if s.len() != column.len() {
            return Err(PyValueError::new_err(format!(
                "{} solutions for {} puzzles",
                s.len(),
                column.len()
            )));
        }
    }
    let options = Options::default();
    answer_into(py, threads, &column, GRIDS, &|i, puzzle, _| {
        let grid = match puzzle {
            Ok(grid) => grid,
            Err(reason) => return Row::unread(Verdict::Malformed as u8, reason),
        };
        let given = solutions.as_ref().map(|s| s.given(i));
        let c = match given {
            None | Some(Ok(None)) => check_puzzle(&grid, None, &options),
            // trimmed as the CLI trims a CSV field (a line read with its newline was "82 cells");
            // an empty one is no solution given, as the CLI reads an empty field (pyarrow and
            // pandas with `keep_default_na=False` read it as "", which was `wrong_solution`)
            Some(Ok(Some(text))) => match text.trim_ascii() {
                "" => check_puzzle(&grid, None, &options),
                text => check_puzzle(&grid, Some(text), &options),
            },
            // a solution that cannot be read as text: the verdict of one that is not a grid
            // (checked as ""), whose detail is then why, in place of "found 0 cells"
            Some(Err(why)) => {
                let mut c = check_puzzle(&grid, Some(""), &options);
                if c.verdict == Verdict::WrongSolution {
                    c.detail = Some(format!("given solution: {why}"));
                }
                c
            }
        };
        Row {
            code: c.verdict as u8,
            number: c.guesses.unwrap_or(0),
            grid: c.solution,
            note: c.detail,
        }
    })
}

/// Canonical (minlex) forms of a column of puzzles (see [`Column::new`]), as [`Packed`]: code 0
/// (1 for a malformed record), the forms, their hashes where the others put guesses, and the
/// reasons of malformed records.
#[pyfunction]
#[pyo3(signature = (puzzles, n, threads))]
fn canonical<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    n: Option<usize>,
    threads: Option<usize>,
) -> PyResult<Packed<'py>> {
    let column = Column::new(puzzles, n, "puzzles")?;
    answer_into(py, threads, &column, GRIDS, &|_, puzzle, _| match puzzle {
        Ok(grid) => {
            let form = canon::minlex(&grid);
            Row {
                code: 0,
                number: canon::hash(&form),
                grid: Some(form),
                note: None,
            }
        }
        Err(reason) => Row::unread(1, reason),
    })
}

/// The shape of `rate`: a rating takes from tens of microseconds to a second, so a task takes
/// 16 records (the CLI's batch), which keeps the pool's threads evenly loaded on a few hundred
/// puzzles; there is no grid.
/// Ctrl-C is watched for whatever the count: one rating may take a second.
const RATINGS: Shape = Shape {
    chunk: 16,
    grids: 1,
    watch_from: 0,
};

/// A value of [`rate`]'s u64 column that is not there (no rating, or only bounded).
const NO_VALUE: u16 = u16::MAX;

/// ER, EP, ED and the bound of a rating packed in the u64 column, 16 bits each from the lowest:
/// in tenths (72 for 7.2), [`NO_VALUE`] where there is none. A value the CLI writes `>X` is
/// [`NO_VALUE`], and X the bound.
fn packed_rating(values: Option<[Result<u32, u32>; 3]>) -> u64 {
    let mut bound = NO_VALUE;
    let mut fields = [NO_VALUE; 3];
    for (field, v) in fields.iter_mut().zip(values.into_iter().flatten()) {
        match v {
            Ok(t) => *field = t as u16,
            Err(x) => bound = x as u16,
        }
    }
    let [er, ep, ed] = fields.map(u64::from);
    er | ep << 16 | ed << 32 | u64::from(bound) << 48
}

/// The rater's name, version and settings (the CLI's `rater:` line).
#[pyfunction]
fn rater() -> &'static str {
    sudoku_batch::rate::RATER
}

/// Rates a column of puzzles (see [`Column::new`]) on Sudoku Explainer's scale, as [`Packed`]:
/// status codes, no grids, the ratings (see [`packed_rating`]) and a note per record: the
/// hardest technique of a rated puzzle with an exact ER, or why a record is malformed (a record
/// has at most one of them). `max_er` (tenths) is the CLI's `--max-er`.
#[pyfunction]
#[pyo3(signature = (puzzles, n, max_er, threads))]
fn rate<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    n: Option<usize>,
    max_er: Option<u32>,
    threads: Option<usize>,
) -> PyResult<Packed<'py>> {
    use sudoku_batch::output::{hardest_name, rating_values};
    use sudoku_batch::rate as rater_api;
    let column = Column::new(puzzles, n, "puzzles")?;
    let options = rater_api::Options {
        max_er,
        explain: false,
    };
    answer_into(py, threads, &column, RATINGS, &|_, puzzle, stop| {
        let grid = match puzzle {
            Ok(grid) => grid,
            Err(reason) => {
                return Row {
                    number: packed_rating(None),
                    ..Row::unread(status_code(Status::Malformed), reason)
                };
            }
        };
        // a rating given up when stopped (Ctrl-C): its row is dropped with the rest unread
        let (status, rating) = match rater_api::rate_or_stop(&grid, &options, stop) {
            Ok(rating) => (Status::Unique, rating),
            Err(e) => (Status::from(e), None),
        };
        Row {
            code: status_code(status),
            number: packed_rating(rating.as_ref().map(|r| rating_values(r, max_er))),
            grid: None,
            note: rating.as_ref().and_then(hardest_name),
        }
    })
}

/// What [`generate`] returns: puzzles, solutions, numbers, ratings, symmetries, hardest
/// techniques (see there) and the repeats left out.
type Records<'py> = (
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Vec<Option<String>>,
    u64,
);

/// The names of the symmetries, indexed by the codes [`generate`] returns.
#[pyfunction]
fn symmetry_names() -> Vec<&'static str> {
    sudoku_batch::generate::Symmetry::ALL
        .iter()
        .map(|s| s.name())
        .collect()
}

/// A generator's option error in the words of this module's arguments: the messages name the
/// CLI's options (`--clues 16: no puzzle with fewer than 17 givens ...`), and a Python caller
/// passed `clues=16`.
fn python_words(message: &str) -> String {
    let mut text = message.to_string();
    for (cli, python) in [
        ("--clues ", "clues="),
        ("--rating ", "rating="),
        ("--symmetry ", "symmetry="),
        ("--no-minimal", "minimal=False"),
        ("--max-tries", "max_tries"),
        ("(sudoku-batch rate)", "(sudoku_batch.rate)"),
    ] {
        text = text.replace(cli, python);
    }
    text
}

/// Records `start..start + n` of the `generate` stream of `seed` and the options (the CLI's
/// names and texts: `clues` and `guesses` as `A..B`, `symmetry` by name), as the CLI writes
/// them (repeats left out when `dedupe`): the puzzles (81 ASCII bytes each, blanks `.`), their
/// solutions (81 digits each), per record its givens, guesses, number in the stream and tries
/// (four native u64), its rating (`rating`, the CLI's `--rating` text: packed as [`rate`]'s,
/// none without it), its symmetry (an index into [`symmetry_names`], a byte a record) and
/// hardest technique, and the repeats left out. Options no puzzle meets raise
/// `ValueError`; a record that meets no target within `max_tries` raises `RuntimeError` naming
/// it.
#[pyfunction]
#[pyo3(signature = (n, seed, start, clues, minimal, symmetry, guesses, rating, max_tries, dedupe, threads))]
#[allow(clippy::too_many_arguments)] // one per keyword of the Python function
fn generate<'py>(
    py: Python<'py>,
    n: u64,
    seed: u64,
    start: u64,
    clues: Option<&str>,
    minimal: bool,
    symmetry: &str,
    guesses: Option<&str>,
    rating: Option<&str>,
    max_tries: Option<u64>,
    dedupe: bool,
    threads: Option<usize>,
) -> PyResult<Records<'py>> {
    use sudoku_batch::generate::{self as generator_api, Bounds, Generator, RatingRange, Symmetry};
    let range = |text: Option<&str>, name: &str| {
        text.map(|t| {
            t.parse::<Bounds>()
                .map_err(|e| PyValueError::new_err(format!("{name}={t:?}: {e}")))
        })
        .transpose()
    };
    if start.checked_add(n).is_none() {
        return Err(PyValueError::new_err(format!(
            "start={start}, n={n}: the stream has {} records at most",
            u64::MAX
        )));
    }
    if dedupe && start > generator_api::MAX_DEDUPED_START {
        return Err(PyValueError::new_err(format!(
            "start={start}: a call that leaves out repeats makes every record before its first \
             (their classes only) and keeps their classes in memory; at most start={} (hours \
             of work and 16-40 GB), or dedupe=False, which makes nothing before its records",
            generator_api::MAX_DEDUPED_START
        )));
    }
    let options = generator_api::Options {
        seed,
        clues: range(clues, "clues")?,
        minimal,
        symmetry: Symmetry::from_name(symmetry).ok_or_else(|| {
            let names: Vec<&str> = Symmetry::ALL.iter().map(|s| s.name()).collect();
            PyValueError::new_err(format!(
                "symmetry={symmetry:?}: one of {}",
                names.join(", ")
            ))
        })?,
        guesses: range(guesses, "guesses")?,
        rating: rating
            .map(|t| {
                t.parse::<RatingRange>()
                    .map(|r| r.0)
                    .map_err(|e| PyValueError::new_err(format!("rating={t:?}: {e}")))
            })
            .transpose()?,
        max_tries,
        ..generator_api::Options::default()
    };
    let generator =
        Generator::new(options).map_err(|e| PyValueError::new_err(python_words(&e.to_string())))?;
    // watched whatever `n`: one record with a target may take seconds
    let (records, repeats, failure) = on_pool(py, threads, true, |stop| {
        generator_api::written(&generator, start, n, dedupe, &|| {
            stop.load(Ordering::Relaxed)
        })
    })?;
    if let Some((index, failure)) = failure {
        return Err(PyRuntimeError::new_err(format!(
            "record {} gave up: {failure}; widen the targets or raise max_tries",
            index + 1
        )));
    }
    let mut puzzles = Vec::with_capacity(records.len() * CELLS);
    let mut solutions = Vec::with_capacity(records.len() * CELLS);
    let mut numbers = Vec::with_capacity(records.len() * 32);
    let mut symmetries = Vec::with_capacity(records.len());
    let mut ratings = Vec::with_capacity(records.len() * 8);
    let mut hardest = Vec::with_capacity(records.len());
    for r in &records {
        puzzles.extend_from_slice(&r.puzzle.to_line(b'.'));
        solutions.extend_from_slice(&r.solution.to_line(b'0'));
        for x in [u64::from(r.givens), r.guesses, r.index + 1, r.tries] {
            numbers.extend_from_slice(&x.to_ne_bytes());
        }
        let code = Symmetry::ALL.iter().position(|&s| s == r.symmetry);
        symmetries.push(code.unwrap_or(0) as u8);
        let values = r.rating.map(|e| [Ok(e.er), Ok(e.ep), Ok(e.ed)]);
        ratings.extend_from_slice(&packed_rating(values).to_ne_bytes());
        hardest.push(
            r.rating
                .and_then(|e| e.hardest)
                .map(|t| t.name().to_string()),
        );
    }
    Ok((
        PyBytes::new(py, &puzzles),
        PyBytes::new(py, &solutions),
        PyBytes::new(py, &numbers),
        PyBytes::new(py, &ratings),
        PyBytes::new(py, &symmetries),
        hardest,
        repeats,
    ))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(status_words, m)?)?;
    m.add_function(wrap_pyfunction!(verdict_words, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(canonical, m)?)?;
    m.add_function(wrap_pyfunction!(rate, m)?)?;
    m.add_function(wrap_pyfunction!(rater, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(symmetry_names, m)?)?;
    m.add_function(wrap_pyfunction!(thread_limits, m)?)?;
    m.add_function(wrap_pyfunction!(default_threads, m)?)?;
    Ok(())
}
