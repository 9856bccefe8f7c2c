//! The native half of the `sudoku_batch` Python package: batch functions over whole columns of
//! puzzles, the work on a rayon pool with the GIL released. The Python half
//! (`sudoku_batch/__init__.py`) turns pandas, polars, pyarrow and numpy inputs into the two forms
//! taken here (a list of `str`/`bytes`/`None`, or `bytes` of n x 81 cell values) and the packed
//! results into numpy columns.
//!
//! Every record gets an answer: a puzzle that cannot be read gets the `malformed` status and a
//! reason, never an exception; only arguments of the wrong type raise.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use rayon::prelude::*;

use sudoku_batch::canon;
use sudoku_batch::check::{self, Options, Verdict};
use sudoku_batch::grid::{CELLS, Grid};
use sudoku_batch::solver;
use sudoku_batch::status::Status;

/// The cells written for a record with no grid to give.
const NONE: [u8; CELLS] = [0; CELLS];

/// A column of puzzles as read: each a grid, or why it is not one.
type Puzzles = Vec<Result<Grid, String>>;

/// Reads a list whose items are `str`, `bytes` or `None` (a missing value: malformed).
fn text_puzzles(items: &Bound<'_, PyAny>) -> PyResult<Puzzles> {
    if items.is_instance_of::<PyString>() || items.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(
            "expected a column of puzzles (a list, array or series), got a single string",
        ));
    }
    let mut out = Vec::new();
    for (i, item) in items.try_iter()?.enumerate() {
        let item = item?;
        let parsed = if item.is_none() {
            Err("missing puzzle (None)".to_string())
        } else if let Ok(text) = item.cast::<PyString>() {
            parse(text.to_str()?.as_bytes())
        } else if let Ok(bytes) = item.cast::<PyBytes>() {
            parse(bytes.as_bytes())
        } else {
            let kind = item.get_type().name()?;
            return Err(PyTypeError::new_err(format!(
                "puzzle {i} is a {kind}, not str, bytes or None"
            )));
        };
        out.push(parsed);
    }
    Ok(out)
}

fn parse(text: &[u8]) -> Result<Grid, String> {
    Grid::parse(text.trim_ascii()).map_err(|e| e.to_string())
}

/// Reads `n` puzzles of 81 cell values each (0 blank, 1 to 9), packed in `cells`.
fn cell_puzzles(cells: &[u8], n: usize) -> PyResult<Puzzles> {
    if cells.len() != n * CELLS {
        return Err(PyValueError::new_err(format!(
            "{} cell values for {n} puzzles: expected {}",
            cells.len(),
            n * CELLS
        )));
    }
    Ok(cells
        .chunks_exact(CELLS)
        .map(|chunk| {
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
        })
        .collect())
}

/// Runs `work` over the puzzles on the pool (`threads` of them, or rayon's global pool), with
/// the GIL released.
fn on_pool<T: Send>(
    py: Python<'_>,
    threads: Option<usize>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    match threads {
        None => Ok(py.detach(work)),
        Some(0) => Err(PyValueError::new_err("threads must be at least 1")),
        Some(n) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            Ok(py.detach(|| pool.install(work)))
        }
    }
}

/// What `solve` and `check` give back: codes (indexes into the word list), the solutions' cells
/// packed (zeros where there is none), guesses as little-endian u64, and reasons or details.
type Packed = (Vec<u8>, Vec<u8>, Vec<u8>, Vec<Option<String>>);

fn solve_all(puzzles: &Puzzles, unique: bool) -> Packed {
    let answers: Vec<(Status, Option<Grid>, u64)> = puzzles
        .par_iter()
        .map(|p| match p {
            Ok(grid) => {
                let a = solver::answer_with(grid, unique, false);
                (
                    a.status,
                    a.solution
                        .filter(|_| a.status.is_solved() || a.status == Status::Multiple),
                    a.guesses,
                )
            }
            Err(_) => (Status::Malformed, None, 0),
        })
        .collect();
    let mut codes = Vec::with_capacity(answers.len());
    let mut cells = Vec::with_capacity(answers.len() * CELLS);
    let mut guesses = Vec::with_capacity(answers.len() * 8);
    for (status, solution, g) in &answers {
        codes.push(Status::ALL.iter().position(|s| s == status).unwrap_or(0) as u8);
        cells.extend_from_slice(solution.as_ref().map_or(&NONE, |g| g.cells()));
        guesses.extend_from_slice(&g.to_le_bytes());
    }
    let reasons = puzzles.iter().map(|p| p.as_ref().err().cloned()).collect();
    (codes, cells, guesses, reasons)
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

/// Solves a list of puzzles (`str`, `bytes` or `None`).
#[pyfunction]
#[pyo3(signature = (puzzles, unique, threads))]
fn solve_text(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    unique: bool,
    threads: Option<usize>,
) -> PyResult<Packed> {
    let puzzles = text_puzzles(puzzles)?;
    on_pool(py, threads, || solve_all(&puzzles, unique))
}

/// Solves `n` puzzles given as packed cell values.
#[pyfunction]
#[pyo3(signature = (cells, n, unique, threads))]
fn solve_cells(
    py: Python<'_>,
    cells: &[u8],
    n: usize,
    unique: bool,
    threads: Option<usize>,
) -> PyResult<Packed> {
    let puzzles = cell_puzzles(cells, n)?;
    on_pool(py, threads, || solve_all(&puzzles, unique))
}

/// Checks a list of puzzles, each with the solution the dataset gives for it (or `None`).
#[pyfunction]
#[pyo3(signature = (puzzles, solutions, threads))]
fn check_text(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    solutions: Option<Vec<Option<String>>>,
    threads: Option<usize>,
) -> PyResult<Packed> {
    let puzzles = text_puzzles(puzzles)?;
    if let Some(s) = &solutions {
        if s.len() != puzzles.len() {
            return Err(PyValueError::new_err(format!(
                "{} solutions for {} puzzles",
                s.len(),
                puzzles.len()
            )));
        }
    }
    on_pool(py, threads, || {
        let options = Options::default();
        let checks: Vec<check::Check> = puzzles
            .par_iter()
            .enumerate()
            .map(|(i, p)| match p {
                Ok(grid) => {
                    let given = solutions.as_ref().and_then(|s| s[i].as_deref());
                    check::check_puzzle(grid, given, &options)
                }
                Err(reason) => check::Check {
                    verdict: Verdict::Malformed,
                    detail: Some(reason.clone()),
                    solution: None,
                    redundant: None,
                    guesses: None,
                },
            })
            .collect();
        let mut codes = Vec::with_capacity(checks.len());
        let mut cells = Vec::with_capacity(checks.len() * CELLS);
        let mut guesses = Vec::with_capacity(checks.len() * 8);
        for c in &checks {
            codes.push(c.verdict as u8);
            cells.extend_from_slice(c.solution.as_ref().map_or(&NONE, |g| g.cells()));
            guesses.extend_from_slice(&c.guesses.unwrap_or(0).to_le_bytes());
        }
        let details = checks.into_iter().map(|c| c.detail).collect();
        (codes, cells, guesses, details)
    })
}

/// What `canonical` gives back: the forms' cells packed, hashes as little-endian u64, reasons.
type Forms = (Vec<u8>, Vec<u8>, Vec<Option<String>>);

/// Canonical (minlex) forms of a list of puzzles: the forms' cells packed (zeros for a
/// malformed one), their hashes as little-endian u64, and the reasons of malformed ones.
#[pyfunction]
#[pyo3(signature = (puzzles, threads))]
fn canonical_text(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    threads: Option<usize>,
) -> PyResult<Forms> {
    let puzzles = text_puzzles(puzzles)?;
    on_pool(py, threads, || {
        let forms: Vec<Option<Grid>> = puzzles
            .par_iter()
            .map(|p| p.as_ref().ok().map(canon::minlex))
            .collect();
        let mut cells = Vec::with_capacity(forms.len() * CELLS);
        let mut hashes = Vec::with_capacity(forms.len() * 8);
        for f in &forms {
            cells.extend_from_slice(f.as_ref().map_or(&NONE, |g| g.cells()));
            hashes.extend_from_slice(&f.as_ref().map_or(0, canon::hash).to_le_bytes());
        }
        let reasons = puzzles.iter().map(|p| p.as_ref().err().cloned()).collect();
        (cells, hashes, reasons)
    })
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(status_words, m)?)?;
    m.add_function(wrap_pyfunction!(verdict_words, m)?)?;
    m.add_function(wrap_pyfunction!(solve_text, m)?)?;
    m.add_function(wrap_pyfunction!(solve_cells, m)?)?;
    m.add_function(wrap_pyfunction!(check_text, m)?)?;
    m.add_function(wrap_pyfunction!(canonical_text, m)?)?;
    Ok(())
}
