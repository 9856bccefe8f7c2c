from typing import Any, Iterable, Optional, Union

import numpy as np
import numpy.typing as npt

#: Anything that holds a column of puzzles: str/bytes/None items, strings or cell values.
Puzzles = Union[Iterable[Optional[Union[str, bytes]]], npt.NDArray[Any], Any]

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
