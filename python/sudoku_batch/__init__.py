"""Whole columns of sudoku puzzles solved, checked, rated and canonicalised on every core.

Every function takes a column of puzzles, and :func:`check` a column of solutions in the same
forms, one of:

- a list, tuple or other ordered iterable (a generator too) of ``str``, ``bytes`` or ``None``;
- a 1-D numpy array of strings (``U``, ``S`` or ``StringDType``) or of such objects;
- a numpy array of integer cell values (0 blank, 1-9) shaped ``(n, 81)`` or ``(n, 9, 9)``;
- a pyarrow Array or ChunkedArray, a pandas Series or Index, or a polars Series, of strings or
  binary; their missing values (null, None, NaN, ``pd.NA``) are ``None``;
- the same of integer cell values in fixed-size lists, 81 to a grid or 9 rows of 9 (what
  ``output="arrow"`` gives for cell input, also through ``to_pandas()`` or polars), read as
  cell input: a null row is a missing puzzle, a null cell a malformed row that names it;
- a list or pandas Series of numpy arrays of 81 cell values (or 9 rows of 9), None for a
  missing one, read as cell input too (float arrays of whole numbers as well, NaN a null cell:
  pandas reads an Arrow column of grids holding a null that way, as from a Parquet file).

The work runs on a rayon pool in Rust with the GIL released. Each function returns its columns,
one row per input row, in order, whatever the pool, as ``output=`` asks:

- ``"numpy"`` (the default): a dict of numpy arrays.
- ``"arrow"``: a ``pyarrow.Table`` of the same columns, in the same order, with the same
  meaning, built over the buffers the Rust side filled (no copy, no Python object a row; it
  needs pyarrow). Words (``status``, ``verdict``) are dictionary-encoded strings (int8 indices,
  the words as large_string); grids (``solution``, ``canonical``) are large_string for text
  input, fixed-size lists of 81 uint8 cell values (9 lists of 9 for ``(n, 9, 9)`` input) for
  cell input; ``guesses`` and ``hash`` are uint64; ``er``, ``ep``, ``ed`` and ``above`` are
  float64; ``reason``, ``detail`` and ``hardest`` are large_string.
  Where the numpy output has ``""`` or zeros for a row without a grid, NaN for one without a
  rating, or None for one without a note, the table has a null (a malformed row's ``hash``
  too: it has no form to hash).
  ``pl.from_arrow(table)`` makes it a polars DataFrame (the words Categorical),
  ``table.to_pandas()`` a pandas one (the words Categorical, nulls missing values).

``output`` other than these two is a ``ValueError`` (a ``TypeError`` if not a str), raised
before any work.

``threads=None`` (the default) runs on a pool kept for the process: one thread per logical CPU,
or ``RAYON_NUM_THREADS`` as the CLI reads it (a child forked since, as by ``multiprocessing``,
has none of its threads and starts that many for each call instead). ``threads=N`` runs on N
threads started for that call and all ended before it returns. As the CLI caps ``-j``, N (and
``RAYON_NUM_THREADS``) is capped at 4 per logical CPU, at least 64, with a ``RuntimeWarning``:
more threads only cost (pool start-up grows with the square of their number). ``threads``
below 1 is a ``ValueError``, anything but an int or None a ``TypeError``.

A puzzle that cannot be read is a row with the ``malformed`` status and its reason, never an
exception: ``None`` (a missing puzzle; a missing solution is none given), text that is not 81
cells, a cell value above 9, a ``str`` holding a lone surrogate (which UTF-8 cannot hold: the
reason names the character). Anything else raises, naming the argument and, for an item, its
position from 0 in row order (``puzzles[3] is an int``):

- ``TypeError`` for a wrong type: ``None`` or a single string where a column belongs, a set or a
  dict (no row order), a DataFrame or a Table (pass one of its columns, ``df["puzzle"]``), an item
  that is not ``str``, ``bytes`` or ``None`` (a ``bytearray``, a list, a float NaN...), and a
  column of numbers other than cell values: ints, floats and bools are refused, since a puzzle
  read as a number has lost its leading 0s (blanks) and cannot be told back. Read such a column
  as strings (``pd.read_csv(path, dtype=str)``).
- ``ValueError`` for a wrong shape, cell values outside 0-255, or a solutions column whose
  length is not the puzzles'.
"""

from __future__ import annotations

import math
import numbers
import operator
import os
import sys
import warnings
from collections.abc import Iterator, Mapping, Set as AbstractSet

import numpy as np

from . import _native

__all__ = [
    "solve", "check", "canonical", "rate", "generate", "STATUS_WORDS", "VERDICT_WORDS", "RATER"
]

#: The statuses of :func:`solve`, as the CLI writes them.
STATUS_WORDS: tuple[str, ...] = tuple(_native.status_words())
#: The verdicts of :func:`check`, as the CLI writes them.
VERDICT_WORDS: tuple[str, ...] = tuple(_native.verdict_words())
#: The rater of :func:`rate`: its name, version and settings (the CLI's ``rater:`` line), to keep
#: beside the ratings, since they shift between Sudoku Explainer's versions and modes.
RATER: str = _native.rater()

_CELLS = 81


def _column(column, name: str):
    """The argument ``name`` as ``("cells", packed bytes, n, shape)`` or ``("text", items, n,
    None)``, its items left for the native side to check one by one; anything the module's
    docstring does not list raises, naming the argument."""
    if column is None:
        raise TypeError(f"{name} is None, not a column")
    if isinstance(column, (str, bytes, bytearray, memoryview)):
        raise TypeError(
            f"{name} must be a column (a list, array or series), not a single "
            f"{type(column).__name__}: wrap it in a list"
        )
    if type(column) is list:
        first = next((x for x in column if x is not None), None)
        if isinstance(first, np.ndarray):
            # grids of cell values, one array each
            items = _array_items(column, name)
            if isinstance(items, tuple):
                return items
        # as it is: the native side takes its own reference to each item, and a copy of a
        # million items costs 20 ms (made, then freed)
        return "text", column, len(column), None
    if isinstance(column, np.ndarray):
        return _numpy_column(column, name)
    items = _library_items(column, name)
    if isinstance(items, tuple):
        return items  # cell values, packed
    if items is None:
        kind = type(column).__name__
        if isinstance(column, (Mapping, AbstractSet)):
            raise TypeError(
                f"{name} is of type {kind}, not a column: a column is in order, one row per "
                f"puzzle; pass a list (of a dict's values: list(d.values()))"
            )
        try:
            rows = iter(column)
        except TypeError:
            raise TypeError(
                f"{name} is of type {kind}, not a column (a list, array or series)"
            ) from None
        items = list(rows)
    return "text", items, len(items), None


def _numpy_column(array, name: str):
    """A numpy array as :func:`_column` gives it: integer cell values packed, strings and objects
    as a list."""
    kind = array.dtype.kind
    if kind in "ui":
        if array.ndim < 2:
            raise TypeError(
                _numbers(name, array.dtype) + ", or cell values shaped (n, 81) or (n, 9, 9)"
            )
        if array.shape[1:] not in ((_CELLS,), (9, 9)):
            raise ValueError(
                f"{name}: cell values must be shaped (n, 81) or (n, 9, 9), not {array.shape}"
            )
        if isinstance(array, np.ma.MaskedArray) and np.ma.getmaskarray(array).any():
            # the values under the mask were read as they were, as if nothing were masked
            raise ValueError(
                f"{name}: a masked array with masked cells: say what they are, "
                f"{name}.filled(0) (blanks) or {name}.data (the values under the mask)"
            )
        if array.size and (array.min() < 0 or array.max() > 255):
            bad = array.min() if array.min() < 0 else array.max()
            raise ValueError(
                f"{name}: cell values must be 0 to 255 (0 a blank, 1 to 9 a digit, a row with "
                f"a value above 9 is malformed), not {bad}"
            )
        cells = np.ascontiguousarray(array, dtype=np.uint8)
        return "cells", cells.tobytes(), len(array), array.shape
    if kind in "SUOT":
        if array.ndim != 1:
            raise ValueError(
                f"{name}: a column of puzzle strings must be 1-D, not shaped {array.shape}"
            )
        items = array.tolist()
        na = getattr(array.dtype, "na_object", None)
        # a string marker is read as the string it is (a missing entry cannot be told from it)
        if kind == "T" and hasattr(array.dtype, "na_object") and not isinstance(na, str):
            # a StringDType's missing marker (None, NaN, pd.NA...) is a missing puzzle
            items = [None if x is na or (isinstance(x, float) and x != x) else x
                     for x in items]
        return "text", items, len(array), None
    if kind in "fcb":
        if array.ndim >= 2:
            raise TypeError(f"{name}: cell values must be integers 0 to 9, not {array.dtype}")
        raise TypeError(_numbers(name, array.dtype))
    raise TypeError(f"{name} is a numpy array of {array.dtype}, not a column of grids")


def _library_items(column, name: str):
    """The items of a pandas, polars or pyarrow column, missing values as None; None for an
    object of none of those libraries (or one of theirs that is no column)."""
    library = type(column).__module__.partition(".")[0]
    if library == "pandas":
        pd = sys.modules["pandas"]
        if isinstance(column, pd.DataFrame):
            raise TypeError(_frame(name, "a pandas DataFrame", 'df["puzzle"]'))
        if isinstance(column, pd.MultiIndex):
            raise TypeError(
                f"{name} is a pandas MultiIndex, not a column: pass one of its levels, e.g. "
                f"index.get_level_values(0)"
            )
        if isinstance(column, (pd.Index, pd.api.extensions.ExtensionArray)):
            column = pd.Series(column, copy=False)
        if isinstance(column, pd.Series):
            dtype = column.dtype
            if pd.api.types.is_numeric_dtype(dtype) or pd.api.types.is_bool_dtype(dtype):
                raise TypeError(_numbers(name, dtype))
            if isinstance(dtype, pd.ArrowDtype):
                # pyarrow-backed (`to_pandas(types_mapper=pd.ArrowDtype)`): read as pyarrow
                import pyarrow

                return _library_items(pyarrow.array(column), name)
            # missing values (NaN, None, pd.NA) become None
            items = column.astype(object).where(column.notna(), None).tolist()
            return _array_items(items, name)
    elif library == "polars":
        pl = sys.modules["polars"]
        if isinstance(column, (pl.DataFrame, pl.LazyFrame)):
            raise TypeError(_frame(name, f"a polars {type(column).__name__}", 'df["puzzle"]'))
        if isinstance(column, pl.Series):
            if column.dtype.is_numeric() or column.dtype == pl.Boolean:
                raise TypeError(_numbers(name, column.dtype))
            if isinstance(column.dtype, pl.Array):
                # grids as cell values (this package's Arrow output, through polars)
                return _library_items(column.to_arrow(), name)
            return column.to_list()
    elif library == "pyarrow":
        pa = sys.modules["pyarrow"]
        if isinstance(column, (pa.Table, pa.RecordBatch)):
            raise TypeError(
                _frame(name, f"a pyarrow {type(column).__name__}", 'table["puzzle"]')
            )
        if isinstance(column, (pa.Array, pa.ChunkedArray)):
            t = column.type
            types = pa.types
            if any(f(t) for f in (types.is_integer, types.is_floating, types.is_boolean,
                                  types.is_decimal)):
                raise TypeError(_numbers(name, t))
            if types.is_fixed_size_list(t) and types.is_integer(t.value_type):
                return _cell_lists(column, t.list_size, name)
            # 9 rows of 9 cells: what output="arrow" gives for grids read as (n, 9, 9) cells
            inner = t.value_type if types.is_fixed_size_list(t) else None
            if inner is not None and types.is_fixed_size_list(inner) \
                    and types.is_integer(inner.value_type):
                if (t.list_size, inner.list_size) != (9, 9):
                    raise ValueError(
                        f"{name}: grids as lists of rows must be 9 rows of 9 cells, not "
                        f"{t.list_size} of {inner.list_size}"
                    )
                return _cell_lists(column, _CELLS, name, rows=True)
            return column.to_pylist()
    return None


# A packed row's state for the native side: a grid, none (a missing value), or a grid whose
# cell k (from 0), its first such, has no value: _ROW_NULL_CELL + k.
_ROW_MISSING, _ROW_GRID, _ROW_NULL_CELL = 0, 1, 2


def _in_range(values, name: str):
    """``values`` (integers of any numpy type) as int64, raising ValueError, as for numpy
    input, for one outside 0-255 (checked in their own type: a uint64 above 2**63 cast first
    read as a negative number)."""
    if values.size:
        low, high = values.min(), values.max()
        if low < 0 or high > 255:
            bad = low if low < 0 else high
            raise ValueError(
                f"{name}: cell values must be 0 to 255 (0 a blank, 1 to 9 a digit, a row with "
                f"a value above 9 is malformed), not {bad}"
            )
    return values.astype(np.int64)


def _packed(values, missing, present, name: str, like):
    """Cell values as :func:`_column` gives them: ``values`` (int64 in 0-255, shaped (n, 81);
    ``missing`` says which cells have no value) of the rows ``present`` says hold a grid,
    packed with a state a row, in the form ``like`` (``(9, 9)`` or ``(81,)``) for the answers.

    Why not text: as text, a missing cell or a value above 9 read as "invalid character", and
    the answers came back as strings, not in the input's form."""
    n = len(present)
    states = np.where(present, _ROW_GRID, _ROW_MISSING).astype(np.uint8)
    holed = missing.any(axis=1) & present
    states[holed] = _ROW_NULL_CELL + missing[holed].argmax(axis=1)
    cells = np.where(missing | ~present[:, None], 0, values).astype(np.uint8)
    return "cells", (cells.tobytes(), states.tobytes()), n, (n,) + tuple(like)


def _cell_lists(column, size: int, name: str, rows: bool = False):
    """A pyarrow column of fixed-size lists of cell values (what ``output="arrow"`` gives for
    grids read as cells), or with ``rows`` of 9 lists of 9, packed (:func:`_packed`): a null
    row is a missing grid, a null cell a malformed row that names it.

    Why: a solution column of this package's own Arrow output fed back (``check(cells,
    out["solution"])``) raised TypeError ("is a list")."""
    if size != _CELLS:
        raise ValueError(f"{name}: cell values must be 81 to a grid, not {size}")
    chunks = column.chunks if hasattr(column, "chunks") else [column]
    n = len(column)
    values = np.zeros((n, _CELLS), dtype=np.int64)
    missing = np.ones((n, _CELLS), dtype=bool)
    present = np.zeros(n, dtype=bool)
    at = 0
    for chunk in chunks:
        valid = chunk.is_valid().to_numpy(zero_copy_only=False)
        # flatten() leaves out the null rows' cells
        cells = chunk.flatten()
        part, holes = _row_cells(cells, name) if rows else _values(cells, name)
        rows_here = slice(at, at + len(chunk))
        values[rows_here][valid] = part.reshape(-1, _CELLS)
        missing[rows_here][valid] = holes.reshape(-1, _CELLS)
        present[rows_here] = valid
        at += len(chunk)
    return _packed(values, missing, present, name, (9, 9) if rows else (_CELLS,))


def _values(cells, name: str):
    """A pyarrow array of cell values as int64 numpy (checked by :func:`_in_range`), and where
    one is null."""
    values = _in_range(cells.fill_null(0).to_numpy(zero_copy_only=False), name)
    return values, cells.is_null().to_numpy(zero_copy_only=False)


def _row_cells(rows, name: str):
    """The cells of a pyarrow array of 9-cell rows as :func:`_values` gives them, a null row as
    9 missing cells."""
    valid = rows.is_valid().to_numpy(zero_copy_only=False)
    values = np.zeros((len(rows), 9), dtype=np.int64)
    missing = np.ones((len(rows), 9), dtype=bool)
    part, holes = _values(rows.flatten(), name)
    values[valid] = part.reshape(-1, 9)
    missing[valid] = holes.reshape(-1, 9)
    return values.reshape(-1), missing.reshape(-1)


def _array_items(items, name: str):
    """A column's items as they are, or packed cell values when they are numpy arrays of them
    (a list of grids; ``to_pandas()`` of this package's Arrow output of grids read as cells: a
    numpy array a row, None for a null one)."""
    arrays = [x for x in items if x is not None]
    if not arrays or not all(isinstance(x, np.ndarray) for x in arrays):
        return items
    n = len(items)
    values = np.zeros((n, _CELLS), dtype=np.int64)
    missing = np.zeros((n, _CELLS), dtype=bool)
    present = np.array([x is not None for x in items], dtype=bool)
    like = None
    for i, x in enumerate(items):
        if x is None:
            continue
        # 9 rows of 9: an object array of the rows
        try:
            grid = np.stack(list(x)) if x.dtype == object else x
        except (TypeError, ValueError):
            grid = x
        # floats: what pandas makes of an Arrow column of cell lists with a null in it (a
        # Parquet file read back with a null grid): NaN a missing cell, the rest whole numbers
        floats = grid.dtype.kind == "f" and bool(np.all(np.isnan(grid) | (grid == np.round(grid))))
        if not (grid.dtype.kind in "ui" or floats) or grid.shape not in ((_CELLS,), (9, 9)):
            raise TypeError(
                f"{name}[{i}] is an array of {grid.dtype} shaped {grid.shape}, not a grid of "
                f"81 cell values (or 9 rows of 9)"
            )
        like = like or grid.shape
        cells = grid.reshape(_CELLS)
        if floats:
            missing[i] = np.isnan(cells)
            cells = np.where(missing[i], 0, cells)
        values[i] = _in_range(cells, name)
    return _packed(values, missing, present, name, like)


def _numbers(name: str, dtype) -> str:
    """Why a column of numbers is refused (a grid as a number cannot be told back)."""
    return (
        f"{name} holds {dtype} values, not str: a grid read as a number has lost its leading "
        f"0s (blanks); pass the column as str (from a CSV: pd.read_csv(..., dtype=str))"
    )


def _frame(name: str, what: str, example: str) -> str:
    """Why a table is refused where a column belongs."""
    return f"{name} is {what}, not a column: pass one of its columns, e.g. {example}"


def _threads(threads):
    """``threads=`` checked: None (the process's default pool, see :func:`_native.default_threads`)
    or a whole number from 1, capped with a RuntimeWarning as the CLI caps ``-j``."""
    if threads is None:
        asked, used, unreadable = _native.default_threads()
        if asked is not None and asked > used:
            _too_many(f"RAYON_NUM_THREADS={asked}", used)
        if unreadable is not None:
            warnings.warn(
                f"RAYON_NUM_THREADS={unreadable!r} is not a number of threads; using all {used} "
                f"logical CPUs (threads=N sets it)",
                RuntimeWarning,
                stacklevel=3,
            )
        return None
    if isinstance(threads, (bool, np.bool_)) or not hasattr(type(threads), "__index__"):
        raise TypeError(f"threads must be an int or None, not {type(threads).__name__}")
    threads = operator.index(threads)
    if threads < 1:
        raise ValueError(f"threads must be at least 1, not {threads}")
    ceiling = _native.thread_limits()[1]
    if threads > ceiling:
        _too_many(f"threads={threads}", ceiling)
        return ceiling
    return threads


def _too_many(asked: str, used: int):
    """Warns, at the caller's line, that a pool was capped."""
    cpus = _native.thread_limits()[0]
    warnings.warn(
        f"{asked} is far beyond the {cpus} logical CPUs here; using {used} threads (the most: "
        f"4 per CPU, at least 64)",
        RuntimeWarning,
        stacklevel=4,
    )


def _flag(value, name: str) -> bool:
    """A True/False argument, refusing anything else (a truthy string is no flag)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, not {type(value).__name__}")
    return bool(value)


def _count(kind, n):
    """What the native functions take besides the payload: the puzzles' count for packed cells,
    None for a list."""
    return n if kind == "cells" else None


def _output(output):
    """``output=`` checked, before any work: None for "numpy", the Arrow column makers (the
    ``_arrow`` module) for "arrow", pyarrow imported now so that its absence is told before a
    long run rather than after."""
    if not isinstance(output, str):
        raise TypeError(f"output must be 'numpy' or 'arrow', not {type(output).__name__}")
    if output not in ("numpy", "arrow"):
        raise ValueError(f"output must be 'numpy' or 'arrow', not {output!r}")
    if output == "numpy":
        return None
    try:
        import pyarrow  # noqa: F401
    except ImportError as e:
        raise ImportError(
            "output='arrow' needs pyarrow (pip install pyarrow); output='numpy' does not"
        ) from e
    from . import _arrow

    return _arrow


def _grids(cells: bytes, n: int, like):
    """The native grids column as numpy, in the input's form: cell values shaped ``like`` for
    cell input (zeros where there is no grid), else 81-digit strings (``""`` where there is
    none), the native side having written text input's grids as ASCII digits."""
    values = np.frombuffer(cells, dtype=np.uint8).reshape(n, _CELLS)
    if like is not None:
        return values.reshape((n,) + tuple(like[1:])).copy()
    # numpy's str dtype holds a code point a uint32: the digits' code points viewed as U81, a
    # row of NULs (no grid) reading as ""
    return values.astype(np.uint32).view(f"U{_CELLS}").reshape(n)


def _words(words, codes: bytes):
    """The word of each code, as a str array."""
    return np.array(words)[np.frombuffer(codes, dtype=np.uint8)]


def _u64(numbers: bytes):
    """The native u64 column (guesses, hashes) as numpy."""
    return np.frombuffer(numbers, dtype=np.uint64).copy()


def _reasons(n: int, notes):
    """A column of the records' reasons (or details), None where a record has none."""
    rows, ends, text = notes
    out = np.full(n, None, dtype=object)
    start = 0
    for i, end in zip(np.frombuffer(rows, dtype=np.int64).tolist(),
                      np.frombuffer(ends, dtype=np.int64).tolist()):
        out[i] = text[start:end].decode()
        start = end
    return out


def solve(puzzles, *, unique: bool = False, threads: int | None = None, output: str = "numpy"):
    """Solves every puzzle.

    Returns ``status`` (the CLI's words: solved, unique, multiple, unsolvable, contradiction,
    malformed), ``solution`` (in the input's form: cell values for cell input, else 81-digit
    strings, ``""`` or zeros where there is none; for ``multiple`` the first solution found),
    ``guesses`` (uint64, the search's guesses: a difficulty proxy) and ``reason`` (why a record
    is malformed, else None). ``unique=True`` searches for a second solution.

    ``output="numpy"`` (the default) returns a dict of numpy arrays; ``output="arrow"`` a
    ``pyarrow.Table`` of the same columns, null where there is no solution or reason (see the
    module's docstring for their types): ``pl.from_arrow(table)`` or ``table.to_pandas()``
    for polars or pandas.

    ``puzzles``: a column in any of the forms the module's docstring lists; anything else raises
    ``TypeError`` or ``ValueError`` naming it (and the item's position).
    """
    unique, threads = _flag(unique, "unique"), _threads(threads)
    arrow = _output(output)
    kind, payload, n, shape = _column(puzzles, "puzzles")
    codes, cells, guesses, present, reasons = _native.solve(
        payload, _count(kind, n), unique, threads
    )
    n = len(codes)  # the rows read (a list is read as it is then)
    if arrow:
        return arrow.table(
            status=arrow.words(STATUS_WORDS, codes),
            solution=arrow.grids(cells, n, shape, present),
            guesses=arrow.u64(guesses),
            reason=arrow.notes(n, reasons),
        )
    return {
        "status": _words(STATUS_WORDS, codes),
        "solution": _grids(cells, n, shape),
        "guesses": _u64(guesses),
        "reason": _reasons(n, reasons),
    }


def check(puzzles, solutions=None, *, threads: int | None = None, output: str = "numpy"):
    """Checks every puzzle, as ``sudoku-batch check`` does (uniqueness always searched).

    ``solutions`` is the column of solutions the dataset gives (any form ``puzzles`` takes, cell
    values too; None for a row without one): a wrong one, or one that cannot be read, is a
    ``wrong_solution`` whose detail says why. Returns ``verdict`` (unique,
    multiple, unsolvable, contradiction, malformed, wrong_solution), ``detail`` (why, or None),
    ``solution`` (the only solution, in the input's form) and ``guesses``.

    ``output="numpy"`` (the default) returns a dict of numpy arrays; ``output="arrow"`` a
    ``pyarrow.Table`` of the same columns, null where there is no detail or only solution:
    ``pl.from_arrow(table)`` or ``table.to_pandas()`` for polars or pandas.
    """
    threads = _threads(threads)
    arrow = _output(output)
    # puzzles that can be read only once (a generator) are read after the solutions, so that
    # solutions refused leave them unread
    given = None
    if solutions is not None and isinstance(puzzles, Iterator):
        given = _column(solutions, "solutions")
    kind, payload, n, shape = _column(puzzles, "puzzles")
    s_payload, s_n = None, None
    if solutions is not None:
        s_kind, s_payload, s_count, _ = given or _column(solutions, "solutions")
        if s_count != n:
            raise ValueError(f"{s_count} solutions for {n} puzzles")
        s_n = _count(s_kind, s_count)
    codes, cells, guesses, present, details = _native.check(
        payload, _count(kind, n), s_payload, s_n, threads
    )
    n = len(codes)  # the rows read (a list is read as it is then)
    if arrow:
        return arrow.table(
            verdict=arrow.words(VERDICT_WORDS, codes),
            detail=arrow.notes(n, details),
            solution=arrow.grids(cells, n, shape, present),
            guesses=arrow.u64(guesses),
        )
    return {
        "verdict": _words(VERDICT_WORDS, codes),
        "detail": _reasons(n, details),
        "solution": _grids(cells, n, shape),
        "guesses": _u64(guesses),
    }


def canonical(puzzles, *, threads: int | None = None, output: str = "numpy"):
    """The canonical (minlex) form of every puzzle, as ``sudoku-batch canon`` gives it.

    Isomorphic puzzles (equal up to relabelling digits, moving rows, columns, bands, stacks, and
    transposing) get the same form. Returns ``canonical`` (in the input's form; ``""`` or zeros
    for a malformed row), ``hash`` (uint64: FNV-1a 64 of the form's 81 ASCII digits, the CLI's
    hash) and ``reason`` (why a row is malformed, else None). The empty grid's form is 81 zeros.

    ``output="numpy"`` (the default) returns a dict of numpy arrays; ``output="arrow"`` a
    ``pyarrow.Table`` of the same columns, ``canonical`` and ``hash`` null for a malformed row
    and ``reason`` for the others: ``pl.from_arrow(table)`` or ``table.to_pandas()`` for polars
    or pandas.
    """
    threads = _threads(threads)
    arrow = _output(output)
    kind, payload, n, shape = _column(puzzles, "puzzles")
    codes, cells, hashes, present, reasons = _native.canonical(payload, _count(kind, n), threads)
    n = len(codes)  # the rows read (a list is read as it is then)
    if arrow:
        return arrow.table(
            canonical=arrow.grids(cells, n, shape, present),
            hash=arrow.u64(hashes, present),
            reason=arrow.notes(n, reasons),
        )
    return {
        "canonical": _grids(cells, n, shape),
        "hash": _u64(hashes),
        "reason": _reasons(n, reasons),
    }


def _tenths(value, scaled):
    """The whole number of tenths that ``value`` (``scaled``: it times 10, as a float) is, or
    None when it has more than one decimal: within rounding for a float (6.6 is 65.99999999999999
    tenths, 0.1 * 3 is 3.0000000000000004), and for a numpy float in its own precision
    (np.float32(7.2) is 71.99999809265137 tenths, closer to 72 than a float's rounding goes)."""
    if not math.isfinite(scaled):
        return None
    tenths = round(scaled)
    own = isinstance(value, np.floating) and value.dtype.type(tenths / 10) == value
    return tenths if own or abs(scaled - tenths) <= 1e-6 else None


def _max_er(value):
    """``max_er=`` as the CLI's ``--max-er`` takes it, in tenths: a number from 0 to 20 with one
    decimal at most (7, 6.5), or None."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"max_er must be a number or None, not {type(value).__name__}")
    # an int too large for a float is out of range like any other (float() raised OverflowError)
    try:
        scaled = float(value) * 10
    except OverflowError:
        scaled = math.inf
    tenths = _tenths(value, scaled)
    if tenths is None or not (0 <= tenths <= 200):
        raise ValueError(
            f"max_er must be a rating from 0 to 20 with one decimal at most, such as 7.2, "
            f"not {value!r}"
        )
    return tenths


def _ratings(ratings: bytes, arrow):
    """The native ratings column (ER, EP, ED and the bound, 16 bits each from the lowest, in
    tenths; 0xFFFF where there is none) as four float64 columns with one decimal: NaN where there
    is none (numpy), null (Arrow)."""
    packed = np.frombuffer(ratings, dtype=np.uint64)
    columns = []
    for k in range(4):
        tenths = (packed >> np.uint64(16 * k)) & np.uint64(0xFFFF)
        missing = tenths == 0xFFFF
        # a tenth over ten, correctly rounded, is the float the one-decimal text reads as
        values = np.where(missing, np.nan, tenths / 10.0)
        columns.append(arrow.floats(values, missing) if arrow else values)
    return columns


def rate(puzzles, *, max_er=None, threads: int | None = None, output: str = "numpy"):
    """Rates every puzzle on Sudoku Explainer's scale, as ``sudoku-batch rate`` does (the same
    numbers; :data:`RATER` names the rater and its settings).

    Returns ``status`` (``unique`` for a rated puzzle, else the CLI's word for why there is no
    rating: multiple, unsolvable, contradiction, malformed), ``er``, ``ep``, ``ed`` (float64 with
    one decimal, as the CLI prints them: the hardest step, the hardest up to the first placed
    digit, the first step), ``above``, ``hardest`` (the hardest technique's name) and ``reason``
    (why a record is malformed, else None).

    A value the CLI writes ``>X`` (known only to lie above X) is NaN, and X is in ``above``:
    ``max_er`` for a rating stopped by it, 9.4 for a path stuck with every technique tried
    (Explainer's 20.0; no puzzle with one solution is known to get there). ``above`` is NaN where every value is exact, ``er``, ``ep``,
    ``ed`` are NaN where there is no rating, ``hardest`` is None where ER is not exact.

    ``max_er`` (the CLI's ``--max-er``; a number from 0 to 20, one decimal at most) stops rating
    a puzzle once its ER is known to lie above it: ``rate(p, max_er=7.0)["er"] <= 7.0`` keeps
    "everything up to 7.0", far faster than full ratings. A rating takes from tens of
    microseconds to seconds (8.0 and up), and a call returns only when all are done.

    ``output="numpy"`` (the default) returns a dict of numpy arrays; ``output="arrow"`` a
    ``pyarrow.Table`` of the same columns, null where numpy has NaN or None:
    ``pl.from_arrow(table)`` or ``table.to_pandas()`` for polars or pandas.
    """
    max_er, threads = _max_er(max_er), _threads(threads)
    arrow = _output(output)
    kind, payload, n, _shape = _column(puzzles, "puzzles")
    codes, _no_grids, ratings, _present, notes = _native.rate(
        payload, _count(kind, n), max_er, threads
    )
    n = len(codes)  # the rows read (a list is read as it is then)
    er, ep, ed, above = _ratings(ratings, arrow)
    # a record's note is its hardest technique, or, for a malformed one, the reason
    malformed = np.frombuffer(codes, dtype=np.uint8) == STATUS_WORDS.index("malformed")
    if arrow:
        note = arrow.notes(n, notes)
        return arrow.table(
            status=arrow.words(STATUS_WORDS, codes),
            er=er, ep=ep, ed=ed, above=above,
            hardest=arrow.where(~malformed, note),
            reason=arrow.where(malformed, note),
        )
    note = _reasons(n, notes)
    hardest, reason = note.copy(), note
    hardest[malformed] = None
    reason[~malformed] = None
    return {
        "status": _words(STATUS_WORDS, codes),
        "er": er, "ep": ep, "ed": ed, "above": above,
        "hardest": hardest,
        "reason": reason,
    }


def _range(value, name: str):
    """``clues=``/``guesses=`` as the CLI's text: None, an int (exactly it), a ``(lo, hi)`` pair
    (either end None: open) or a str such as ``"20..25"``, ``"50.."`` or ``"..23"``."""
    if value is None or isinstance(value, str):
        return value
    def end(x):
        # a bool is refused as an end as it is alone (True was read as 1)
        if isinstance(x, (bool, np.bool_)) or not hasattr(type(x), "__index__"):
            raise TypeError(f"{name} must be an int, a (lo, hi) pair or a str such as '20..25'")
        return str(operator.index(x))

    if isinstance(value, tuple) and len(value) == 2:
        lo, hi = value
        return f"{'' if lo is None else end(lo)}..{'' if hi is None else end(hi)}"
    return end(value)


def _rating_range(value):
    """``rating=`` as the CLI's ``--rating`` text: None, a number (exactly it), a ``(lo, hi)``
    pair (either end None: open) or a str such as ``"7.0.."``, ``"..4.0"`` or ``"2.0..4.0"``.
    The Rust side reads it, and refuses more than one decimal."""
    if value is None or isinstance(value, str):
        return value

    def end(x):
        if x is None:
            return ""
        if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, float, np.integer, np.floating)):
            raise TypeError(f"rating must be a number, a (lo, hi) pair or a str such as '7.0..', not {x!r}")
        # one decimal within rounding, as max_er= takes it (see _tenths): np.float32(6.6) is
        # 6.599999904632568, which the Rust side would refuse as more than one decimal
        try:
            scaled = float(x) * 10
        except OverflowError:
            # an int too large for a float is out of range like any other
            raise ValueError(
                f"rating must be a rating from 0 to 20 with one decimal at most, such as 7.2, "
                f"not {x!r}"
            ) from None
        tenths = _tenths(x, scaled)
        if tenths is not None:
            return f"{tenths / 10:.1f}"
        return repr(float(x))

    if isinstance(value, tuple) and len(value) == 2:
        return f"{end(value[0])}..{end(value[1])}"
    return end(value)


# Peak memory a generated record takes while generate() builds its columns (measured: about
# 940 bytes with 100,000 records).
_GENERATED_BYTES = 1024


def _physical_memory():
    """The machine's memory in bytes, or None where the OS does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def generate(
    n: int,
    *,
    seed: int = 0,
    start: int = 0,
    clues=None,
    minimal: bool = True,
    symmetry: str = "none",
    guesses=None,
    rating=None,
    max_tries: int | None = None,
    dedupe: bool = True,
    threads: int | None = None,
):
    """New puzzles: records ``start + 1 .. start + n`` of the stream ``sudoku-batch generate
    -n N --seed S --start K`` writes, the same records (so partitions of one stream made apart,
    by ``start``, join into it), with the same options: ``clues`` and ``guesses`` as ranges
    (``"20..25"``, ``"50.."``, ``(20, 25)``, ``22``), ``minimal=False`` (``--no-minimal``),
    ``symmetry`` by the CLI's names, ``max_tries``, ``dedupe=False`` (``--no-dedupe``), and
    ``rating``, the ER range of ``--rating`` (``"7.0.."``, ``"2.0..4.0"``, ``(7.0, None)``,
    ``7.2``; one decimal at most, 1.0 to 9.4).

    Returns a dict of numpy arrays, one row per record written (repeats of earlier records of
    the stream are left out, as the CLI leaves them out): ``puzzle`` (81 characters, blanks
    ``.``), ``solution``, ``givens``, ``guesses`` (what :func:`solve` with ``unique=True``
    reports), ``record`` (its number in the stream, from 1), ``tries`` (the candidates it took)
    and ``symmetry`` (the one its givens were placed with: the one drawn, for ``"random"``), as
    the CLI's columns; with ``rating``, also ``er``, ``ep``, ``ed`` (float64 with one decimal,
    exact, as :func:`rate` gives them) and ``hardest`` (the hardest technique's name, as
    :func:`rate` gives it: ``"Hidden Single"`` for a puzzle of singles alone). Options no
    puzzle can meet raise
    ``ValueError``; a record that meets no target within ``max_tries`` raises ``RuntimeError``.
    """
    threads = _threads(threads)
    for value, name in ((n, "n"), (seed, "seed"), (start, "start"), (max_tries, "max_tries")):
        if value is None and name == "max_tries":
            continue
        if isinstance(value, (bool, np.bool_)) or not hasattr(type(value), "__index__"):
            raise TypeError(f"{name} must be an int, not {type(value).__name__}")
        # named, rather than an OverflowError about converting to unsigned
        low = 1 if name == "max_tries" else 0
        if not low <= int(value) < 2**64:
            raise ValueError(f"{name} must be {low} to 2**64 - 1, not {int(value)}")
    if not isinstance(symmetry, str):
        raise TypeError(f"symmetry must be a str, not {type(symmetry).__name__}")
    # every record is returned at once: a count past the machine's memory would run for hours,
    # then fail for want of it (generate(10**12) ran on with nothing said)
    memory = _physical_memory()
    if memory is not None and operator.index(n) * _GENERATED_BYTES > memory:
        raise ValueError(
            f"n={n}: the records are returned in memory, about {_GENERATED_BYTES} bytes each at "
            f"peak ({n * _GENERATED_BYTES / 1e9:.3g} GB), past this machine's "
            f"{memory / 1e9:.3g} GB; make them in parts with start= (the parts join into the "
            f"same stream), or with the CLI, which streams them to a file"
        )
    puzzles, solutions, numbers, ratings, symmetries, hardest, _repeats = _native.generate(
        operator.index(n),
        operator.index(seed),
        operator.index(start),
        _range(clues, "clues"),
        _flag(minimal, "minimal"),
        symmetry,
        _range(guesses, "guesses"),
        _rating_range(rating),
        None if max_tries is None else operator.index(max_tries),
        _flag(dedupe, "dedupe"),
        threads,
    )
    rows = len(puzzles) // _CELLS
    numbers = np.frombuffer(numbers, dtype=np.uint64).reshape(rows, 4)
    text = lambda b: np.frombuffer(b, dtype=np.uint8).astype(np.uint32).view(f"U{_CELLS}").reshape(rows)
    columns = {
        "puzzle": text(puzzles),
        "solution": text(solutions),
        "givens": numbers[:, 0].copy(),
        "guesses": numbers[:, 1].copy(),
        "record": numbers[:, 2].copy(),
        "tries": numbers[:, 3].copy(),
        "symmetry": np.array(_native.symmetry_names())[np.frombuffer(symmetries, dtype=np.uint8)],
    }
    if rating is not None:
        er, ep, ed, _above = _ratings(ratings, None)
        columns.update(er=er, ep=ep, ed=ed, hardest=np.array(hardest, dtype=object))
    return columns
