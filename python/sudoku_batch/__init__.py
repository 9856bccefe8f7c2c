"""Whole columns of sudoku puzzles solved, checked and canonicalised on every core.

Every function takes a column of puzzles: a list (or any iterable) of ``str``/``bytes``/``None``,
a numpy array of strings or bytes, a numpy array of cell values (0 blank, 1-9) shaped
``(n, 81)`` or ``(n, 9, 9)``, a pyarrow array, or a pandas or polars Series. The work runs on a
rayon pool in Rust with the GIL released (``threads=None``: every core). Each function returns a
dict of numpy columns, one row per input row, in order. A puzzle that cannot be read is a row
with the ``malformed`` status and its reason, never an exception; an argument of the wrong type
raises ``TypeError`` (``ValueError`` for a wrong shape or size).
"""

from __future__ import annotations

import numpy as np

from . import _native

__all__ = ["solve", "check", "canonical", "STATUS_WORDS", "VERDICT_WORDS"]

#: The statuses of :func:`solve`, as the CLI writes them.
STATUS_WORDS: tuple[str, ...] = tuple(_native.status_words())
#: The verdicts of :func:`check`, as the CLI writes them.
VERDICT_WORDS: tuple[str, ...] = tuple(_native.verdict_words())

_CELLS = 81


def _column(puzzles):
    """The puzzles as ``("cells", packed bytes, n, shape)`` or ``("text", list, n, None)``."""
    if isinstance(puzzles, (str, bytes)):
        raise TypeError(
            "expected a column of puzzles (a list, array or series), got a single string"
        )
    if isinstance(puzzles, np.ndarray):
        if puzzles.dtype.kind in "ui":
            if puzzles.ndim < 2 or puzzles.shape[1:] not in ((_CELLS,), (9, 9)):
                raise ValueError(
                    f"cell values must be shaped (n, 81) or (n, 9, 9), not {puzzles.shape}"
                )
            if puzzles.size and (puzzles.min() < 0 or puzzles.max() > 255):
                raise ValueError("cell values must be 0 (blank) to 9")
            cells = np.ascontiguousarray(puzzles, dtype=np.uint8)
            return "cells", cells.tobytes(), len(puzzles), puzzles.shape
        if puzzles.dtype.kind in "SUO":
            if puzzles.ndim != 1:
                raise ValueError(f"a column of puzzle strings must be 1-D, not {puzzles.shape}")
            return "text", puzzles.tolist(), len(puzzles), None
        raise TypeError(f"a numpy array of {puzzles.dtype} is not a column of puzzles")
    module = type(puzzles).__module__.split(".")[0]
    if module == "pandas":
        # missing values (NaN, None, pd.NA) become None
        items = puzzles.astype(object).where(puzzles.notna(), None).tolist()
    elif module == "polars":
        items = puzzles.to_list()
    elif module == "pyarrow":
        items = puzzles.to_pylist()
    else:
        try:
            items = list(puzzles)
        except TypeError:
            raise TypeError(
                f"{type(puzzles).__name__} is not a column of puzzles"
            ) from None
    return "text", items, len(items), None


def _count(kind, n):
    """What the native functions take besides the payload: the puzzles' count for packed cells,
    None for a list."""
    return n if kind == "cells" else None


def _as_text(kind, payload):
    """A column in text form (cell values written as digits)."""
    if kind == "text":
        return payload
    digits = np.frombuffer(payload, dtype=np.uint8) + ord("0")
    return [bytes(row) for row in digits.reshape(-1, _CELLS)]


def _grids(cells: bytes, n: int, like, present=None):
    """Packed cells as the input's shape: cell values for cell input, else 81-digit strings,
    ``""`` where there is no grid. ``present`` says which rows have one; by default those not all
    zeros, which is right for solutions (complete grids) but not for canonical forms (the empty
    grid's form is 81 zeros)."""
    values = np.frombuffer(cells, dtype=np.uint8).reshape(n, _CELLS)
    if like is not None:
        return values.reshape((n,) + tuple(like[1:])).copy()
    if present is None:
        present = values.any(axis=1)
    # numpy's str dtype holds a code point a uint32: the digits' code points viewed as U81, a
    # row of NULs (no grid) reading as ""
    points = values.astype(np.uint32) + ord("0")
    points[~present] = 0
    return points.view(f"U{_CELLS}").reshape(n)


def _words(words, codes: bytes):
    """The word of each code, as a str array."""
    return np.array(words)[np.frombuffer(codes, dtype=np.uint8)]


def _reasons(n: int, notes):
    """A column of the records' reasons (or details), None where a record has none."""
    out = np.full(n, None, dtype=object)
    for i, note in notes:
        out[i] = note
    return out


def solve(puzzles, *, unique: bool = False, threads: int | None = None) -> dict:
    """Solves every puzzle.

    Returns ``status`` (the CLI's words: solved, unique, multiple, unsolvable, contradiction,
    malformed), ``solution`` (in the input's form: cell values for cell input, else 81-digit
    strings, ``""`` or zeros where there is none; for ``multiple`` the first solution found),
    ``guesses`` (uint64, the search's guesses: a difficulty proxy) and ``reason`` (why a record
    is malformed, else None). ``unique=True`` searches for a second solution.
    """
    kind, payload, n, shape = _column(puzzles)
    codes, cells, guesses, reasons = _native.solve(payload, _count(kind, n), unique, threads)
    return {
        "status": _words(STATUS_WORDS, codes),
        "solution": _grids(cells, n, shape),
        "guesses": np.frombuffer(guesses, dtype="<u8").copy(),
        "reason": _reasons(n, reasons),
    }


def check(puzzles, solutions=None, *, threads: int | None = None) -> dict:
    """Checks every puzzle, as ``sudoku-batch check`` does (uniqueness always searched).

    ``solutions`` is the column of solutions the dataset gives (same forms as ``puzzles``, None
    for a row without one): a wrong one is a ``wrong_solution``. Returns ``verdict`` (unique,
    multiple, unsolvable, contradiction, malformed, wrong_solution), ``detail`` (why, or None),
    ``solution`` (the only solution, in the input's form) and ``guesses``.
    """
    kind, payload, n, shape = _column(puzzles)
    given = None
    if solutions is not None:
        s_kind, s_payload, s_n, _ = _column(solutions)
        if s_n != n:
            raise ValueError(f"{s_n} solutions for {n} puzzles")
        given = [
            s if s is None or isinstance(s, str) else bytes(s).decode("ascii", "replace")
            for s in _as_text(s_kind, s_payload)
        ]
    codes, cells, guesses, details = _native.check(payload, _count(kind, n), given, threads)
    return {
        "verdict": _words(VERDICT_WORDS, codes),
        "detail": _reasons(n, details),
        "solution": _grids(cells, n, shape),
        "guesses": np.frombuffer(guesses, dtype="<u8").copy(),
    }


def canonical(puzzles, *, threads: int | None = None) -> dict:
    """The canonical (minlex) form of every puzzle, as ``sudoku-batch canon`` gives it.

    Isomorphic puzzles (equal up to relabelling digits, moving rows, columns, bands, stacks, and
    transposing) get the same form. Returns ``canonical`` (in the input's form; ``""`` or zeros
    for a malformed row), ``hash`` (uint64: FNV-1a 64 of the form's 81 ASCII digits, the CLI's
    hash) and ``reason`` (why a row is malformed, else None).
    """
    kind, payload, n, shape = _column(puzzles)
    codes, cells, hashes, reasons = _native.canonical(payload, _count(kind, n), threads)
    formed = np.frombuffer(codes, dtype=np.uint8) == 0
    return {
        "canonical": _grids(cells, n, shape, formed),
        "hash": np.frombuffer(hashes, dtype="<u8").copy(),
        "reason": _reasons(n, reasons),
    }
