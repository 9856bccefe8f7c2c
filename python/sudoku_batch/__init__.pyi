from typing import Any, Iterable, Optional, Union

import numpy as np
import numpy.typing as npt

#: A column of puzzles (or solutions): an iterable of str/bytes/None; a 1-D numpy array of
#: strings; a numpy array of integer cell values shaped (n, 81) or (n, 9, 9); a pyarrow Array or
#: ChunkedArray, pandas Series or Index, or polars Series of strings or binary. A column of
#: numbers, a DataFrame or Table, a set or dict, or a single string raises TypeError.
Puzzles = Union[Iterable[Optional[Union[str, bytes]]], npt.NDArray[Any], Any]

# threads: None (a pool kept for the process, one thread per logical CPU) or an int from 1,
# capped at max(4 * logical CPUs, 64) with a RuntimeWarning; the threads of a call end with it.

STATUS_WORDS: tuple[str, ...]
VERDICT_WORDS: tuple[str, ...]

def solve(
    puzzles: Puzzles, *, unique: bool = False, threads: Optional[int] = None
) -> dict[str, np.ndarray]:
    """Solves every puzzle: status, solution, guesses, reason (one row per input row)."""

def check(
    puzzles: Puzzles, solutions: Optional[Puzzles] = None, *, threads: Optional[int] = None
) -> dict[str, np.ndarray]:
    """Checks every puzzle: verdict, detail, solution, guesses (one row per input row)."""

def canonical(puzzles: Puzzles, *, threads: Optional[int] = None) -> dict[str, np.ndarray]:
    """Canonical (minlex) forms: canonical, hash, reason (one row per input row)."""
