from typing import Any, Iterable, Literal, Optional, Union, overload

import numpy as np
import numpy.typing as npt
import pyarrow

#: A column of puzzles (or solutions): an iterable of str/bytes/None; a 1-D numpy array of
#: strings; a numpy array of integer cell values shaped (n, 81) or (n, 9, 9); a pyarrow Array or
#: ChunkedArray, pandas Series or Index, or polars Series of strings or binary, or of fixed-size
#: lists of 81 cell values or 9 of 9 (Arrow output of grids read as cells; read as cell input,
#: answered in cell values). A column of
#: numbers, a DataFrame or Table, a set or dict, or a single string raises TypeError.
Puzzles = Union[Iterable[Optional[Union[str, bytes]]], npt.NDArray[Any], Any]

# threads: None (a pool kept for the process, one thread per logical CPU) or an int from 1,
# capped at max(4 * logical CPUs, 64) with a RuntimeWarning; the threads of a call end with it.
# output: "numpy" (the default) for a dict of numpy arrays, "arrow" for a pyarrow.Table of the
# same columns (nulls where numpy has "", zeros, NaN or None for no grid, rating or note;
# pl.from_arrow and Table.to_pandas take it on); anything else raises before any work.

STATUS_WORDS: tuple[str, ...]
VERDICT_WORDS: tuple[str, ...]
RATER: str

@overload
def solve(
    puzzles: Puzzles,
    *,
    unique: bool = False,
    threads: Optional[int] = None,
    output: Literal["numpy"] = "numpy",
) -> dict[str, np.ndarray]:
    """Solves every puzzle: status, solution, guesses, reason (one row per input row)."""

@overload
def solve(
    puzzles: Puzzles,
    *,
    unique: bool = False,
    threads: Optional[int] = None,
    output: Literal["arrow"],
) -> pyarrow.Table:
    """Solves every puzzle: a Table of status, solution, guesses, reason."""

@overload
def check(
    puzzles: Puzzles,
    solutions: Optional[Puzzles] = None,
    *,
    threads: Optional[int] = None,
    output: Literal["numpy"] = "numpy",
) -> dict[str, np.ndarray]:
    """Checks every puzzle: verdict, detail, solution, guesses (one row per input row)."""

@overload
def check(
    puzzles: Puzzles,
    solutions: Optional[Puzzles] = None,
    *,
    threads: Optional[int] = None,
    output: Literal["arrow"],
) -> pyarrow.Table:
    """Checks every puzzle: a Table of verdict, detail, solution, guesses."""

@overload
def canonical(
    puzzles: Puzzles, *, threads: Optional[int] = None, output: Literal["numpy"] = "numpy"
) -> dict[str, np.ndarray]:
    """Canonical (minlex) forms: canonical, hash, reason (one row per input row)."""

@overload
def canonical(
    puzzles: Puzzles, *, threads: Optional[int] = None, output: Literal["arrow"]
) -> pyarrow.Table:
    """Canonical (minlex) forms: a Table of canonical, hash, reason."""

@overload
def rate(
    puzzles: Puzzles,
    *,
    max_er: Optional[float] = None,
    threads: Optional[int] = None,
    output: Literal["numpy"] = "numpy",
) -> dict[str, np.ndarray]:
    """Sudoku Explainer ratings: status, er, ep, ed, above, hardest, reason (one row per input
    row; NaN where a value is missing or, as the CLI's >X, only bounded by X in `above`)."""

@overload
def rate(
    puzzles: Puzzles,
    *,
    max_er: Optional[float] = None,
    threads: Optional[int] = None,
    output: Literal["arrow"],
) -> pyarrow.Table:
    """Sudoku Explainer ratings: a Table of status, er, ep, ed, above, hardest, reason."""

def generate(
    n: int,
    *,
    seed: int = 0,
    start: int = 0,
    clues: Union[None, int, str, tuple[Optional[int], Optional[int]]] = None,
    minimal: bool = True,
    symmetry: str = "none",
    guesses: Union[None, int, str, tuple[Optional[int], Optional[int]]] = None,
    rating: Union[None, float, str, tuple[Optional[float], Optional[float]]] = None,
    max_tries: Optional[int] = None,
    dedupe: bool = True,
    threads: Optional[int] = None,
) -> dict[str, np.ndarray]:
    """Records start+1..start+n of the CLI's generate stream: puzzle, solution, givens, guesses,
    record, tries, symmetry (and er, ep, ed, hardest with rating)."""
