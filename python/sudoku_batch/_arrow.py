"""The result columns as Arrow, for ``output="arrow"``: each made over the ``bytes`` the native
side filled, without a copy (``pa.py_buffer`` wraps a bytes object as it is, and
``pa.Array.from_buffers`` takes buffers as they are) and without a Python object a row. Imported
only when asked for, so that pyarrow stays optional."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

_CELLS = 81


def table(**columns) -> pa.Table:
    """A Table of ``columns``, in order."""
    return pa.table(columns)


def words(vocabulary, codes: bytes) -> pa.DictionaryArray:
    """Codes as a dictionary column of the words (int8 indices: the codes as they are)."""
    indices = pa.Array.from_buffers(pa.int8(), len(codes), [None, pa.py_buffer(codes)])
    return pa.DictionaryArray.from_arrays(indices, pa.array(vocabulary, pa.large_string()))


def _validity(n: int, bitmap: bytes):
    """The validity buffer of an n-row column (None when no row is null) and its count of
    nulls."""
    # the bitmap's bits past row n are 0
    nulls = n - int(np.unpackbits(np.frombuffer(bitmap, dtype=np.uint8)).sum())
    return (pa.py_buffer(bitmap) if nulls else None), nulls


def grids(cells: bytes, n: int, like, present: bytes) -> pa.Array:
    """The native grids column, null where ``present`` says a row has no grid: 81-digit strings
    (large_string) for text input (``like`` None), else fixed-size lists of 81 uint8 cell values,
    9 lists of 9 for input shaped (n, 9, 9)."""
    validity, nulls = _validity(n, present)
    if like is None:
        offsets = np.arange(0, _CELLS * (n + 1), _CELLS, dtype=np.int64)
        return pa.Array.from_buffers(
            pa.large_string(), n, [validity, pa.py_buffer(offsets), pa.py_buffer(cells)],
            null_count=nulls,
        )
    values = pa.Array.from_buffers(pa.uint8(), n * _CELLS, [None, pa.py_buffer(cells)])
    size = _CELLS
    if tuple(like[1:]) == (9, 9):
        values = pa.Array.from_buffers(pa.list_(pa.uint8(), 9), n * 9, [None], children=[values])
        size = 9
    return pa.Array.from_buffers(
        pa.list_(values.type, size), n, [validity], null_count=nulls, children=[values]
    )


def u64(numbers: bytes, present: bytes | None = None) -> pa.Array:
    """The native u64 column (guesses, hashes) as uint64, null where ``present``, if given, says
    a row has no grid (a malformed row has no canonical form, nor its hash)."""
    n = len(numbers) // 8
    validity, nulls = (None, 0) if present is None else _validity(n, present)
    return pa.Array.from_buffers(
        pa.uint64(), n, [validity, pa.py_buffer(numbers)], null_count=nulls
    )


def notes(n: int, packed) -> pa.Array:
    """The records' reasons (or details) as a large_string column, null where a record has
    none: the notes' text as the native side wrote it, their offsets and validity made by
    numpy from the rows that have one and where each ends."""
    rows, ends, text = packed
    rows = np.frombuffer(rows, dtype=np.int64)
    offsets = np.zeros(n + 1, dtype=np.int64)
    offsets[rows + 1] = np.diff(np.frombuffer(ends, dtype=np.int64), prepend=0)
    np.cumsum(offsets, out=offsets)
    noted = np.zeros(n, dtype=bool)
    noted[rows] = True
    validity, nulls = _validity(n, np.packbits(noted, bitorder="little").tobytes())
    return pa.Array.from_buffers(
        pa.large_string(), n, [validity, pa.py_buffer(offsets), pa.py_buffer(text)],
        null_count=nulls,
    )


def floats(values, missing) -> pa.Array:
    """A float64 column of ``values``, null where ``missing`` (ratings: the values are NaN there).
    """
    return pa.array(values, pa.float64(), mask=missing)


def where(keep, column: pa.Array) -> pa.Array:
    """``column`` with its rows outside ``keep`` (a numpy bool array) made null."""
    import pyarrow.compute as pc

    return pc.if_else(pa.array(keep), column, pa.scalar(None, column.type))
