"""The Python package against the real extension and, where it says so, the real CLI."""

import io
import json
import os
import re
import resource
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.csv
import pytest

import sudoku_batch as sb

REPO = Path(__file__).resolve().parents[2]
PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
# the puzzle with its last band's givens removed: several solutions
OPEN = PUZZLE[:54] + "." * 27
CLASH = "55" + "." * 79
# row 1 needs a 9 in column 9, which has one: no solution, no repeat in any unit
DEAD = "12345678." + "." * 35 + "9" + "." * 36


def sample(name):
    lines = (REPO / "data" / name).read_text().splitlines()
    return [line for line in lines if line and not line.startswith("#")]


def kaggle():
    rows = [line.split(",") for line in sample("kaggle_200.csv")[1:]]
    return [r[0] for r in rows], [r[1] for r in rows]


def test_every_status_word():
    out = sb.solve([PUZZLE, OPEN, DEAD, CLASH, "12x", None], unique=True)
    assert out["status"].tolist() == [
        "unique", "multiple", "unsolvable", "contradiction", "malformed", "malformed"
    ]
    assert out["solution"][0] == SOLUTION
    assert out["solution"][1] != "" and out["solution"][2] == ""
    assert out["reason"].tolist()[:4] == [None] * 4
    assert "3 cells" in out["reason"][4]
    assert "None" in out["reason"][5]
    assert sb.solve([PUZZLE])["status"].tolist() == ["solved"]
    assert set(out["status"]) | {"solved"} == set(sb.STATUS_WORDS)


def test_every_input_type_gives_the_same_answers():
    puzzles, _ = kaggle()
    puzzles = puzzles[:50] + [None]
    expected = sb.solve(puzzles)
    n = len(puzzles)
    present = puzzles[:-1]
    cells = np.array([[int(c) for c in p] for p in present], dtype=np.uint8)
    columns = {
        "list of str": puzzles,
        "list of bytes": [p.encode() if p else None for p in puzzles],
        "generator": (p for p in puzzles),
        "numpy object": np.array(puzzles, dtype=object),
        "pyarrow": pa.array(puzzles),
        "pyarrow chunked": pa.chunked_array([puzzles[:20], puzzles[20:]]),
        "pandas": pd.Series(puzzles),
        "pandas with NaN": pd.Series(present + [float("nan")]),
        "pandas string dtype": pd.Series(puzzles, dtype="string"),
        "pandas Index": pd.Index(puzzles),
        "polars": pl.Series(puzzles),
        "tuple": tuple(puzzles),
        "numpy StringDType": np.array(puzzles, dtype=np.dtypes.StringDType(na_object=None)),
        "pyarrow binary": pa.array([p.encode() if p else None for p in puzzles], pa.binary()),
        "polars binary": pl.Series([p.encode() if p else None for p in puzzles]),
    }
    for name, column in columns.items():
        out = sb.solve(column)
        assert out["status"].tolist() == expected["status"].tolist(), name
        assert out["solution"].tolist() == expected["solution"].tolist(), name
        assert len(out["guesses"]) == n, name
    for name, column in {
        "numpy U81": np.array(present),
        "numpy S81": np.array([p.encode() for p in present]),
    }.items():
        out = sb.solve(column)
        assert out["solution"].tolist() == expected["solution"][:-1].tolist(), name
    # cell values in, cell values out, in the input's shape
    for shape in [(n - 1, 81), (n - 1, 9, 9)]:
        out = sb.solve(cells.reshape(shape))
        assert out["solution"].shape == shape and out["solution"].dtype == np.uint8
        flat = out["solution"].reshape(n - 1, 81)
        assert ["".join(map(str, row)) for row in flat] == expected["solution"][:-1].tolist()
    assert sb.solve(cells.astype(np.int64))["status"].tolist() == ["solved"] * (n - 1)


def test_bad_cells_are_records_and_wrong_types_raise():
    cells = np.zeros((2, 81), dtype=np.uint8)
    cells[1, 4] = 12
    out = sb.solve(cells)
    assert out["status"].tolist() == ["solved", "malformed"]
    assert out["reason"][1] == "cell 5 holds 12, not 0 to 9"
    with pytest.raises(TypeError, match="not a single str"):
        sb.solve(PUZZLE)
    with pytest.raises(TypeError, match=r"puzzles\[1\] is an int, not str, bytes or None"):
        sb.solve([PUZZLE, 7])
    with pytest.raises(TypeError):
        sb.solve(np.zeros((2, 81), dtype=np.float64))
    with pytest.raises(ValueError, match="shaped"):
        sb.solve(np.zeros((2, 80), dtype=np.uint8))
    with pytest.raises(ValueError, match="0 to 255"):
        sb.solve(np.full((1, 81), -1, dtype=np.int16))
    with pytest.raises(ValueError, match="threads"):
        sb.solve([PUZZLE], threads=0)
    with pytest.raises(ValueError, match="2 solutions for 1 puzzles"):
        sb.check([PUZZLE], [SOLUTION, SOLUTION])
    assert sb.solve([])["status"].tolist() == []


def test_order_and_threads_agree_with_the_cli():
    puzzles = sample("hardest_300.txt")
    ours = [sb.solve(puzzles, threads=t) for t in (None, 1, 2)]
    for other in ours[1:]:
        assert other["solution"].tolist() == ours[0]["solution"].tolist()
        assert other["guesses"].tolist() == ours[0]["guesses"].tolist()
    binary = os.environ.get("SUDOKU_BATCH", str(REPO / "target" / "debug" / "sudoku-batch"))
    cli = subprocess.run(
        [binary, "solve", "-q", "-O", "line", "data/hardest_300.txt"],
        cwd=REPO, check=True, capture_output=True, text=True,
    ).stdout.split()
    assert cli == ours[0]["solution"].tolist()


def test_check_finds_wrong_solutions_and_gives_verdicts():
    puzzles, solutions = kaggle()
    wrong = list(solutions[:4])
    wrong[1] = "1" + wrong[1][1:] if wrong[1][0] != "1" else "2" + wrong[1][1:]
    wrong[2] = None
    out = sb.check(puzzles[:4], wrong)
    assert out["verdict"].tolist() == ["unique", "wrong_solution", "unique", "unique"]
    assert "r1c1" in out["detail"][1]
    assert out["solution"].tolist()[0] == solutions[0]
    out = sb.check([PUZZLE, OPEN, CLASH, "x"])
    assert out["verdict"].tolist() == ["unique", "multiple", "contradiction", "malformed"]
    assert "differ" in out["detail"][1]
    cells = np.array([[int(c) for c in solutions[0]]], dtype=np.uint8)
    assert sb.check(cells)["solution"].shape == (1, 81)


def fnv1a(text):
    h = 0xCBF29CE484222325
    for b in text.encode():
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def moved(puzzle):
    """The puzzle with its top two bands swapped and every digit d written d % 9 + 1."""
    rows = [puzzle[i * 9:(i + 1) * 9] for i in range(9)]
    rows = rows[3:6] + rows[0:3] + rows[6:9]
    relabel = str.maketrans("123456789", "234567891")
    return "".join(rows).translate(relabel)


def test_canonical_forms_name_classes_and_hash_like_the_cli():
    puzzles = sample("17clue_300.txt")
    out = sb.canonical(puzzles + [moved(p) for p in puzzles] + ["bad"])
    n = len(puzzles)
    forms = out["canonical"].tolist()
    assert forms[:n] == forms[n:2 * n], "a transform keeps the form"
    assert len(set(forms[:n])) == n, "inequivalent puzzles, distinct forms"
    assert forms[-1] == "" and "3 cells" in out["reason"][-1]
    assert [fnv1a(f) for f in forms[:n]] == out["hash"][:n].tolist()
    binary = os.environ.get("SUDOKU_BATCH", str(REPO / "target" / "debug" / "sudoku-batch"))
    cli = subprocess.run(
        [binary, "canon", "-q", "data/17clue_300.txt"],
        cwd=REPO, check=True, capture_output=True, text=True,
    ).stdout.splitlines()
    assert [line.split()[0] for line in cli] == forms[:n]
    assert [int(line.split()[1], 16) for line in cli] == out["hash"][:n].tolist()


def test_large_input_in_bounded_memory():
    puzzles, _ = kaggle()
    big = puzzles * 1000  # 200,000 rows
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    out = sb.solve(big)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert (out["status"] == "solved").all()
    assert out["solution"][123_456] == out["solution"][123_456 % 200]
    # the result's columns are about 390 bytes a row (U13 status, U81 solution, guesses);
    # what the run holds besides them stays under 1.5 KiB a row
    assert (after - before) * 1024 / len(big) < 1536


def test_the_pandas_example_adds_its_columns(tmp_path):
    target = tmp_path / "checked.csv"
    subprocess.run(
        [sys.executable, "examples/python/kaggle_pandas.py", "data/kaggle_200.csv", str(target)],
        cwd=REPO, check=True, capture_output=True,
    )
    df = pd.read_csv(target, dtype=str)
    assert list(df.columns) == [
        "quizzes", "solutions", "verdict", "detail", "guesses", "canonical_hash"
    ]
    assert len(df) == 200 and (df["verdict"] == "unique").all()
    binary = os.environ.get("SUDOKU_BATCH", str(REPO / "target" / "debug" / "sudoku-batch"))
    cli = subprocess.run(
        [binary, "canon", "-q", "-O", "csv", "data/kaggle_200.csv"],
        cwd=REPO, check=True, capture_output=True, text=True,
    ).stdout.splitlines()[1:]
    assert df["canonical_hash"].tolist() == [row.split(",")[4] for row in cli]
    # malformed rows have no hash, and are no repeats of each other
    bad = tmp_path / "bad.csv"
    bad.write_text("quizzes,solutions\n12345,\nxyz,\n")
    run = subprocess.run(
        [sys.executable, "examples/python/kaggle_pandas.py", str(bad), str(target)],
        cwd=REPO, check=True, capture_output=True, text=True,
    )
    assert "; 0 isomorphic repeats" in run.stderr, run.stderr
    assert pd.read_csv(target, dtype=str)["canonical_hash"].isna().all()


def test_canonical_of_empty_grid_is_81_zeros():
    out = sb.canonical(["." * 81, "0" * 81, "bad"])
    assert out["canonical"].tolist() == ["0" * 81, "0" * 81, ""]
    assert out["reason"].tolist()[:2] == [None, None]
    assert out["hash"].tolist()[:2] == [fnv1a("0" * 81)] * 2
    binary = os.environ.get("SUDOKU_BATCH", str(REPO / "target" / "debug" / "sudoku-batch"))
    cli = subprocess.run(
        [binary, "canon", "-q", "-"], input="." * 81 + "\n",
        cwd=REPO, check=True, capture_output=True, text=True,
    ).stdout.split()
    assert cli == ["0" * 81, f"{fnv1a('0' * 81):016x}"]
    cells = sb.canonical(np.zeros((1, 9, 9), dtype=np.uint8))
    assert cells["canonical"].shape == (1, 9, 9) and not cells["canonical"].any()
    assert cells["reason"].tolist() == [None]


def test_check_rejects_int_solutions_with_type_error():
    # an int once read as a byte count: check([PUZZLE], [300000000]) built 300 MB of zeros
    with pytest.raises(TypeError, match=r"solutions\[0\] is an int, not str, bytes or None"):
        sb.check([PUZZLE], [300_000_000])
    with pytest.raises(TypeError, match=r"solutions holds int64 values, not str"):
        sb.check([PUZZLE], pd.Series([7]))
    # a CSV read without dtype=str: pandas keeps the 81-digit numbers as Python ints, which
    # once raised OverflowError
    df = pd.read_csv(REPO / "data" / "kaggle_200.csv")
    with pytest.raises(TypeError, match=r"solutions\[0\] is an int.*leading 0s"):
        sb.check(df["quizzes"].astype(str), df["solutions"])
    with pytest.raises(TypeError, match=r"puzzles\[0\] is an int.*pass it as a str"):
        sb.check(df["quizzes"])


def test_check_refuses_bad_solutions_before_reading_puzzles_that_read_once():
    # a generator of puzzles was read to its end before solutions that are no column were
    # refused: the caller's generator was spent by a call that failed
    puzzles = (p for p in [PUZZLE, PUZZLE])
    for solutions in [SOLUTION, pd.DataFrame({"s": [SOLUTION]}), {SOLUTION}]:
        with pytest.raises(TypeError, match=r"^solutions "):
            sb.check(puzzles, solutions)
    assert list(puzzles) == [PUZZLE, PUZZLE]
    out = sb.check((p for p in [PUZZLE]), (s for s in [SOLUTION]))
    assert out["verdict"].tolist() == ["unique"]
    with pytest.raises(ValueError, match=r"^2 solutions for 1 puzzles$"):
        sb.check((p for p in [PUZZLE]), [SOLUTION, SOLUTION])


def test_int_columns_of_puzzles_are_refused_with_type_error_asking_for_str():
    for column in [
        np.array([4300209005, 40100050]),
        pd.Series([4300209005, 40100050]),
        pd.Series([1.5, float("nan")]),
        pl.Series([4300209005, 40100050]),
        pa.chunked_array([[4300209005], [40100050]]),
        np.array([True, False]),
    ]:
        with pytest.raises(TypeError, match=r"^puzzles holds \w+ values, not str: a grid read as "
                                            r"a number has lost its leading 0s"):
            sb.solve(column)


def test_solutions_take_every_form_puzzles_take():
    puzzles, solutions = kaggle()
    puzzles, solutions = puzzles[:5], solutions[:5]
    wrong = "1" + solutions[1][1:] if solutions[1][0] != "1" else "2" + solutions[1][1:]
    given = [solutions[0], wrong, None, solutions[3], solutions[4]]
    expected = ["unique", "wrong_solution", "unique", "unique", "unique"]
    for name, column in {
        "list of str": given,
        "list of bytes": [s.encode() if s else None for s in given],
        "tuple": tuple(given),
        "numpy object": np.array(given, dtype=object),
        "pandas": pd.Series(given),
        "pyarrow": pa.array(given),
        "polars": pl.Series(given),
    }.items():
        out = sb.check(puzzles, column)
        assert out["verdict"].tolist() == expected, name
        assert out["detail"][1].startswith("given solution"), name
    cells = np.array([[int(c) for c in s] for s in solutions], dtype=np.uint8)
    cells[1, 4] = 12
    out = sb.check(puzzles, cells.reshape(5, 9, 9))
    assert out["verdict"].tolist() == ["unique", "wrong_solution", "unique", "unique", "unique"]
    assert out["detail"][1] == "given solution: cell 5 holds 12, not 0 to 9"


def test_lone_surrogate_is_a_malformed_row_naming_its_position():
    bad = PUZZLE[:4] + "\ud800" + PUZZLE[5:]
    after_accent = "\u00e9\udc80" + PUZZLE[2:]
    out = sb.solve([bad, after_accent, PUZZLE])
    assert out["status"].tolist() == ["malformed", "malformed", "solved"]
    assert out["reason"].tolist()[:2] == [
        "character 5 is a lone surrogate (U+D800): not valid UTF-8",
        "character 2 is a lone surrogate (U+DC80): not valid UTF-8",
    ]
    out = sb.check([PUZZLE, OPEN, DEAD], [SOLUTION[:2] + "\udfff" + SOLUTION[3:]] * 3)
    assert out["verdict"].tolist() == ["wrong_solution", "wrong_solution", "unsolvable"]
    assert out["detail"].tolist()[:2] == [
        "given solution: character 3 is a lone surrogate (U+DFFF): not valid UTF-8"
    ] * 2
    assert out["solution"][0] == SOLUTION


def test_bytes_not_utf8_name_the_byte_as_the_cli_does():
    # the reason named U+FFFD, a character the item does not hold
    items = [PUZZLE[:80].encode() + b"\xff", b"  \xfe\xff" + PUZZLE[2:].encode(), PUZZLE.encode()]
    out = sb.solve(items)
    assert out["status"].tolist() == ["malformed", "malformed", "solved"]
    assert out["reason"].tolist()[:2] == [
        "invalid UTF-8 (byte 0xFF at byte 81 of the item); puzzle text must be UTF-8",
        "invalid UTF-8 (byte 0xFE at byte 3 of the item); puzzle text must be UTF-8",
    ]


def test_wrong_arguments_raise_naming_the_argument_and_position():
    def rows(*items):
        yield from items

    cases = [
        (lambda: sb.solve(None), TypeError, r"^puzzles is None, not a column$"),
        (lambda: sb.solve(PUZZLE.encode()), TypeError,
         r"^puzzles must be a column .* single bytes"),
        (lambda: sb.check([PUZZLE], SOLUTION), TypeError,
         r"^solutions must be a column .* single str"),
        (lambda: sb.solve({PUZZLE}), TypeError,
         r"^puzzles is of type set, not a column: .* in order"),
        (lambda: sb.solve({PUZZLE: 1}), TypeError, r"^puzzles is of type dict, not a column"),
        (lambda: sb.solve(7), TypeError, r"^puzzles is of type int, not a column"),
        (lambda: sb.solve(pd.DataFrame({"puzzle": [PUZZLE]})), TypeError,
         r"^puzzles is a pandas DataFrame, not a column: pass one of its columns, e\.g\. df\["),
        (lambda: sb.check([PUZZLE], pl.DataFrame({"s": [SOLUTION]})), TypeError,
         r"^solutions is a polars DataFrame, not a column"),
        (lambda: sb.canonical(pa.table({"p": [PUZZLE]})), TypeError,
         r"^puzzles is a pyarrow Table, not a column: .* table\["),
        (lambda: sb.solve(pd.MultiIndex.from_tuples([(PUZZLE, 1)])), TypeError,
         r"^puzzles is a pandas MultiIndex, not a column: pass one of its levels"),
        (lambda: sb.solve(np.zeros((2, 81))), TypeError,
         r"^puzzles: cell values must be integers 0 to 9, not float64$"),
        (lambda: sb.solve([PUZZLE, [1, 2, 3]]), TypeError,
         r"^puzzles\[1\] is a list, not str, bytes or None: cell values go in a numpy array"),
        (lambda: sb.solve(rows(PUZZLE, PUZZLE, None, 2.5)), TypeError,
         r"^puzzles\[3\] is a float, not str"),
        (lambda: sb.solve(np.array([PUZZLE, None, np.uint8(3)], dtype=object)), TypeError,
         r"^puzzles\[2\] is a uint8, not str"),
        (lambda: sb.solve(np.array([PUZZLE, float("nan")], dtype=object)), TypeError,
         r"^puzzles\[1\] is a float, .*NaN is not a puzzle, and a missing one is None"),
        (lambda: sb.solve([bytearray(PUZZLE.encode())]), TypeError,
         r"^puzzles\[0\] is a bytearray, not str, bytes or None: pass bytes"),
        # a memoryview has ndim too: it was told about numpy grids
        (lambda: sb.solve([memoryview(PUZZLE.encode())]), TypeError,
         r"^puzzles\[0\] is a memoryview, not str, bytes or None: pass bytes\(\.\.\.\)$"),
        (lambda: sb.check([PUZZLE], [object()]), TypeError, r"^solutions\[0\] is an object, not"),
        (lambda: sb.solve(np.array([PUZZLE] * 2).reshape(2, 1)), ValueError,
         r"^puzzles: a column of puzzle strings must be 1-D, not shaped \(2, 1\)"),
        (lambda: sb.solve(np.zeros((2, 80), dtype=np.uint8)), ValueError,
         r"^puzzles: cell values must be shaped \(n, 81\) or \(n, 9, 9\), not \(2, 80\)"),
        (lambda: sb.solve(np.full((1, 81), 256, dtype=np.int16)), ValueError,
         r"^puzzles: cell values must be 0 to 255 \(0 a blank, 1 to 9 a digit, a row with a value above 9 is malformed\), not 256"),
        (lambda: sb.solve(np.array(["2020-01-01"], dtype="datetime64[D]")), TypeError,
         r"^puzzles is a numpy array of datetime64\[D\], not a column of grids"),
        (lambda: sb.check([PUZZLE], [SOLUTION, SOLUTION]), ValueError,
         r"^2 solutions for 1 puzzles$"),
    ]
    for call, error, message in cases:
        with pytest.raises(error, match=message):
            call()


def test_empty_and_huge_inputs_give_rows_not_errors():
    for out in [sb.solve([]), sb.check([], []), sb.canonical(()), sb.solve(iter([]))]:
        assert all(len(column) == 0 for column in out.values())
    empty_cells = sb.solve(np.zeros((0, 9, 9), dtype=np.uint8))
    assert empty_cells["solution"].shape == (0, 9, 9)
    huge = "1" * 10_000_000
    out = sb.check([huge, PUZZLE], [None, huge])
    assert out["verdict"].tolist() == ["malformed", "wrong_solution"]
    assert out["detail"].tolist() == [
        "found 10000000 cells, expected 81", "given solution: found 10000000 cells, expected 81"
    ]


def threads_alive():
    return len(os.listdir("/proc/self/task"))


def test_threads_are_capped_with_warning():
    puzzles = sample("hardest_300.txt")[:40]
    expected = sb.solve(puzzles, threads=1)["solution"].tolist()
    start = time.monotonic()
    with pytest.warns(RuntimeWarning, match=r"^threads=1000000 is far beyond") as caught:
        out = sb.solve(puzzles, threads=10**6)
    # uncapped, this ran for over 10 minutes
    assert time.monotonic() - start < 30
    assert out["solution"].tolist() == expected
    (warning,) = caught
    assert warning.filename == __file__, "the warning points at the caller's line"
    cpus, used = map(int, re.search(r"the (\d+) logical CPUs here; using (\d+) threads",
                                    str(warning.message)).groups())
    assert used == max(4 * cpus, 64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert sb.canonical(puzzles, threads=used)["canonical"].tolist() == \
            sb.canonical(puzzles, threads=1)["canonical"].tolist()


def test_threads_of_a_call_are_ended_before_it_returns():
    sb.solve([PUZZLE])  # the default pool, kept for the process, started
    before = threads_alive()
    for threads in (2, 64):
        assert sb.check([PUZZLE], threads=threads)["verdict"].tolist() == ["unique"]
        assert threads_alive() == before, f"threads={threads} left threads behind"


def test_threads_must_be_a_positive_int():
    for threads, error, message in [
        (0, ValueError, "threads must be at least 1, not 0"),
        (-4, ValueError, "threads must be at least 1, not -4"),
        (2.0, TypeError, "threads must be an int or None, not float"),
        ("4", TypeError, "threads must be an int or None, not str"),
        (True, TypeError, "threads must be an int or None, not bool"),
    ]:
        with pytest.raises(error, match=f"^{message}$"):
            sb.solve([PUZZLE], threads=threads)
    assert sb.solve([PUZZLE], threads=np.int64(2))["status"].tolist() == ["solved"]
    with pytest.raises(TypeError, match="^unique must be True or False, not str$"):
        sb.solve([PUZZLE], unique="no")


def test_default_pool_caps_rayon_num_threads_with_warning():
    script = (
        "import os, sudoku_batch as sb\n"
        f"print(sb.solve([{PUZZLE!r}])['status'][0], len(os.listdir('/proc/self/task')))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], env={**os.environ, "RAYON_NUM_THREADS": "100000"},
        check=True, capture_output=True, text=True, timeout=60,
    )
    status, alive = run.stdout.split()
    used = int(re.search(r"RAYON_NUM_THREADS=100000 is far beyond the \d+ logical CPUs here; "
                         r"using (\d+) threads", run.stderr).group(1))
    assert status == "solved"
    assert used < int(alive) <= used + 4  # the pool, the main thread, and little else


def test_default_pool_warns_of_rayon_num_threads_that_is_no_number():
    # the CLI said so and the package did not: the pool took every CPU without a word
    script = f"import sudoku_batch as sb\nprint(sb.solve([{PUZZLE!r}])['status'][0])\n"
    for value in ["abc", "-1", "99999999999999999999"]:
        run = subprocess.run(
            [sys.executable, "-W", "always", "-c", script],
            env={**os.environ, "RAYON_NUM_THREADS": value},
            check=True, capture_output=True, text=True, timeout=60,
        )
        assert run.stdout.split() == ["solved"], value
        assert f"RAYON_NUM_THREADS={value!r} is not a number of threads; using all " in run.stderr
    for value in ["0", " "]:  # the default, as rayon reads them: nothing to say
        run = subprocess.run(
            [sys.executable, "-W", "always", "-c", script],
            env={**os.environ, "RAYON_NUM_THREADS": value},
            check=True, capture_output=True, text=True, timeout=60,
        )
        assert run.stdout.split() == ["solved"] and run.stderr == "", value


def test_a_child_forked_after_a_call_solves_instead_of_hanging():
    # fork copies no thread: the child has the parent's default pool but none of its threads,
    # and work sent there waited forever (multiprocessing forks by default on Linux)
    script = (
        "import multiprocessing, sudoku_batch as sb\n"
        f"puzzles = [{PUZZLE!r}] * 3000\n"
        "sb.solve(puzzles)\n"
        "with multiprocessing.get_context('fork').Pool(2) as pool:\n"
        "    outs = pool.map(sb.solve, [puzzles, puzzles[:5]])\n"
        "print(*[o['solution'][-1] for o in outs], sb.solve(puzzles)['solution'][0])\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], check=True, capture_output=True, text=True, timeout=60
    )
    assert run.stdout.split() == [SOLUTION] * 3


def present_or_null(grids):
    """A numpy grids column as Arrow gives it: null where numpy has "" (no grid)."""
    return [g if g else None for g in grids.tolist()]


def test_solve_returns_an_arrow_table_with_the_numpy_columns():
    puzzles, _ = kaggle()
    accent = PUZZLE[:4] + "\u00e9" + PUZZLE[5:]
    rows = [PUZZLE, OPEN, DEAD, CLASH, "12x", None, accent] + puzzles[:50]
    numpy = sb.solve(rows, unique=True)
    table = sb.solve(rows, unique=True, output="arrow")
    assert isinstance(table, pa.Table)
    table.validate(full=True)
    assert table.column_names == list(numpy) == ["status", "solution", "guesses", "reason"]
    assert table.schema.types == [
        pa.dictionary(pa.int8(), pa.large_string()), pa.large_string(), pa.uint64(),
        pa.large_string(),
    ]
    assert table["status"].to_pylist() == numpy["status"].tolist()
    assert table["solution"].to_pylist() == present_or_null(numpy["solution"])
    assert table["guesses"].to_pylist() == numpy["guesses"].tolist()
    assert table["reason"].to_pylist() == numpy["reason"].tolist()
    assert table["status"].to_pylist()[:7] == [
        "unique", "multiple", "unsolvable", "contradiction", "malformed", "malformed",
        "malformed",
    ]
    assert table["solution"][0].as_py() == SOLUTION
    assert table["solution"].to_pylist()[2:7] == [None] * 5
    assert table["reason"].to_pylist()[:7] == [None] * 4 + [
        "found 3 cells, expected 81", "missing puzzle (None)",
        "invalid character '\u00e9' at cell 5 (r1c5)",
    ]
    assert table["status"].to_pylist()[7:] == ["unique"] * 50
    empty = sb.solve([], output="arrow")
    assert empty.num_rows == 0 and empty.schema == table.schema


def test_check_returns_an_arrow_table_with_the_numpy_columns():
    puzzles, solutions = kaggle()
    wrong = "1" + solutions[1][1:] if solutions[1][0] != "1" else "2" + solutions[1][1:]
    surrogate = SOLUTION[:2] + "\udfff" + SOLUTION[3:]
    rows = puzzles[:4] + [PUZZLE, OPEN, CLASH, "x", PUZZLE]
    given = [solutions[0], wrong, None, solutions[3], None, None, None, None, surrogate]
    numpy = sb.check(rows, given)
    table = sb.check(rows, given, output="arrow")
    table.validate(full=True)
    assert table.column_names == list(numpy) == ["verdict", "detail", "solution", "guesses"]
    assert table.schema.types == [
        pa.dictionary(pa.int8(), pa.large_string()), pa.large_string(), pa.large_string(),
        pa.uint64(),
    ]
    assert table["verdict"].to_pylist() == numpy["verdict"].tolist() == [
        "unique", "wrong_solution", "unique", "unique", "unique", "multiple", "contradiction",
        "malformed", "wrong_solution",
    ]
    assert table["detail"].to_pylist() == numpy["detail"].tolist()
    details = table["detail"].to_pylist()
    assert "r1c1" in details[1] and "differ" in details[5]
    assert details[8] == "given solution: character 3 is a lone surrogate (U+DFFF): not valid UTF-8"
    assert details[0] is None and details[2] is None
    assert table["solution"].to_pylist() == present_or_null(numpy["solution"])
    assert table["solution"].to_pylist()[:5] == solutions[:4] + [SOLUTION]
    assert table["solution"].to_pylist()[5:8] == [None] * 3
    assert table["guesses"].to_pylist() == numpy["guesses"].tolist()


def test_canonical_returns_an_arrow_table_with_the_numpy_columns():
    puzzles = sample("17clue_300.txt")[:40]
    rows = puzzles + [moved(p) for p in puzzles] + ["." * 81, "bad", None]
    numpy = sb.canonical(rows)
    table = sb.canonical(rows, output="arrow")
    table.validate(full=True)
    assert table.column_names == list(numpy) == ["canonical", "hash", "reason"]
    assert table.schema.types == [pa.large_string(), pa.uint64(), pa.large_string()]
    forms = table["canonical"].to_pylist()
    assert forms == present_or_null(numpy["canonical"])
    assert forms[:40] == forms[40:80] and len(set(forms[:40])) == 40
    # the empty grid has a form (81 zeros); a malformed row has none, nor a hash
    assert forms[80:] == ["0" * 81, None, None]
    assert table["hash"].to_pylist() == [fnv1a(f) if f else None for f in forms]
    assert table["hash"].to_pylist()[:81] == numpy["hash"][:81].tolist()
    assert table["reason"].to_pylist() == numpy["reason"].tolist()
    assert table["reason"].to_pylist()[80:] == [
        None, "found 3 cells, expected 81", "missing puzzle (None)"
    ]


def test_cell_input_gives_arrow_lists_of_cell_values_in_the_input_shape():
    puzzles, solutions = kaggle()
    cells = np.array([[int(c) for c in p] for p in puzzles[:5]], dtype=np.uint8)
    cells[1, 4] = 12
    expected = [[int(c) for c in s] for s in solutions[:5]]
    expected[1] = None
    for shape, kind, rows in [
        ((5, 81), pa.list_(pa.uint8(), 81), expected),
        ((5, 9, 9), pa.list_(pa.list_(pa.uint8(), 9), 9),
         [None if s is None else [s[r * 9:r * 9 + 9] for r in range(9)] for s in expected]),
    ]:
        numpy = sb.solve(cells.reshape(shape))
        table = sb.solve(cells.reshape(shape), output="arrow")
        table.validate(full=True)
        assert table.schema.field("solution").type == kind
        assert table["solution"].to_pylist() == rows
        assert table["status"].to_pylist() == numpy["status"].tolist()
        assert table["reason"].to_pylist() == [None, "cell 5 holds 12, not 0 to 9", None, None,
                                               None]
        checked = sb.check(cells.reshape(shape), output="arrow")
        assert checked["solution"].to_pylist() == rows
    empty = sb.canonical(np.zeros((1, 9, 9), dtype=np.uint8), output="arrow")
    assert empty["canonical"].to_pylist() == [[[0] * 9] * 9]
    assert empty["hash"].to_pylist() == [fnv1a("0" * 81)]


def test_arrow_table_round_trips_through_polars_and_pandas():
    rows = [PUZZLE, OPEN, "12x", None]
    numpy = sb.solve(rows, unique=True)
    table = sb.solve(rows, unique=True, output="arrow")
    df = pl.from_arrow(table)
    assert df.columns == list(numpy)
    assert df.schema["status"] == pl.Categorical
    assert df.schema["solution"] == pl.String and df.schema["reason"] == pl.String
    assert df.schema["guesses"] == pl.UInt64
    assert df["status"].to_list() == ["unique", "multiple", "malformed", "malformed"]
    assert df["solution"].to_list() == [SOLUTION, numpy["solution"][1], None, None]
    assert df["guesses"].to_list() == numpy["guesses"].tolist()
    assert df["reason"].to_list() == numpy["reason"].tolist()
    assert df.filter(pl.col("status") == "malformed").height == 2
    frame = table.to_pandas()
    assert list(frame.columns) == list(numpy)
    assert isinstance(frame["status"].dtype, pd.CategoricalDtype)
    assert frame["status"].tolist() == numpy["status"].tolist()
    assert frame["solution"].tolist()[:2] == numpy["solution"].tolist()[:2]
    assert frame["solution"].isna().tolist() == [False, False, True, True]
    assert frame["guesses"].dtype == np.uint64
    assert frame["guesses"].tolist() == numpy["guesses"].tolist()
    assert frame["reason"].isna().tolist() == [True, True, False, False]
    assert frame["reason"].tolist()[2:] == numpy["reason"].tolist()[2:]
    # and back again: the same table
    assert pa.Table.from_pandas(frame, preserve_index=False).cast(table.schema).equals(table)


def test_arrow_columns_are_the_native_buffers_not_copies():
    puzzles, _ = kaggle()
    rows = puzzles * 100  # 20,000 rows: a copy of the solutions alone would be 1.6 MB
    before = pa.total_allocated_bytes()
    table = sb.solve(rows, output="arrow")
    assert pa.total_allocated_bytes() - before < 4096, "pyarrow allocated the columns anew"
    solutions = table["solution"].chunk(0)
    assert solutions.buffers()[2].size == 81 * len(rows)
    assert solutions.to_pylist()[:200] == sb.solve(puzzles)["solution"].tolist()
    # Arrow wants numbers 8-byte aligned: the bytes they live in are
    assert table["guesses"].chunk(0).buffers()[1].address % 8 == 0


def test_output_rejects_an_unknown_format_before_any_work():
    read = []

    def rows():
        read.append(PUZZLE)
        yield PUZZLE

    for output, error, message in [
        ("pandas", ValueError, r"^output must be 'numpy' or 'arrow', not 'pandas'$"),
        ("Arrow", ValueError, r"^output must be 'numpy' or 'arrow', not 'Arrow'$"),
        (None, TypeError, r"^output must be 'numpy' or 'arrow', not NoneType$"),
        (pa.Table, TypeError, r"^output must be 'numpy' or 'arrow', not type$"),
    ]:
        for call in (sb.solve, sb.check, sb.canonical, sb.rate):
            with pytest.raises(error, match=message):
                call(rows(), output=output)
    assert read == [], "the column was read before output= was checked"


def test_arrow_output_without_pyarrow_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow now fails
    with pytest.raises(ImportError, match=r"^output='arrow' needs pyarrow \(pip install pyarrow\)"):
        sb.solve([PUZZLE], output="arrow")
    assert sb.solve([PUZZLE])["solution"].tolist() == [SOLUTION]


def _cli_generate(*args, header=False):
    binary = os.environ.get("SUDOKU_BATCH", str(REPO / "target" / "debug" / "sudoku-batch"))
    lines = subprocess.run(
        [binary, "generate", "-q", "-O", "csv", *args],
        cwd=REPO, check=True, capture_output=True, text=True,
    ).stdout.splitlines()
    return lines if header else lines[1:]


def test_generate_gives_the_records_the_cli_writes():
    for options, cli in (
        (dict(seed=7), ["--seed", "7"]),
        (dict(seed=3, clues="22..23", symmetry="rot180"), ["--seed", "3", "--clues", "22..23", "--symmetry", "rot180"]),
        (dict(seed=5, guesses=(8, None)), ["--seed", "5", "--guesses", "8.."]),
        # the symmetry drawn for each record, as the CLI's column says
        (dict(seed=4, symmetry="random"), ["--seed", "4", "--symmetry", "random"]),
    ):
        n = 40 if "guesses" not in options else 4
        out = sb.generate(n, **options)
        # every column the CLI writes for these options, by its name
        header, *expected = _cli_generate("-n", str(n), *cli, header=True)
        columns = header.split(",")
        rows = [",".join(str(v) for v in values) for values in zip(*(out[c] for c in columns))]
        assert rows == expected, options
    # partitions made apart by start join into the whole stream, whatever the threads
    whole = sb.generate(60, seed=9)
    parts = [sb.generate(20, seed=9, start=k, threads=t) for k, t in ((0, 1), (20, 2), (40, None))]
    for column in ("puzzle", "solution", "record"):
        assert np.concatenate([p[column] for p in parts]).tolist() == whole[column].tolist()
    assert whole["record"].tolist() == list(range(1, 61))
    # guesses as solve --unique reports them
    assert sb.solve(whole["puzzle"], unique=True)["guesses"].tolist() == whole["guesses"].tolist()


def test_generate_with_a_rating_gives_the_records_and_ratings_the_cli_writes():
    binary = os.environ.get("SUDOKU_BATCH", str(REPO / "target" / "debug" / "sudoku-batch"))
    for rating, cli in (("6.5..7.5", "6.5..7.5"), ((None, 3.0), "..3.0"), (2.6, "2.6")):
        out = sb.generate(6, seed=4, rating=rating)
        run = subprocess.run(
            [binary, "generate", "-q", "-O", "jsonl", "-n", "6", "--seed", "4", "--rating", cli],
            cwd=REPO, check=True, capture_output=True, text=True,
        )
        want = [json.loads(line) for line in run.stdout.splitlines()]
        assert out["puzzle"].tolist() == [w["puzzle"].replace("0", ".") for w in want], rating
        for key in ("er", "ep", "ed"):
            assert out[key].tolist() == [w[key] for w in want], (rating, key)
        assert out["hardest"].tolist() == [w["hardest"] or None for w in want], rating
        # the ratings are rate's
        again = sb.rate(out["puzzle"])
        assert again["er"].tolist() == out["er"].tolist()
        assert again["hardest"].tolist() == out["hardest"].tolist()
    lo, hi = 6.5, 7.5
    assert all(lo <= er <= hi for er in sb.generate(6, seed=4, rating=(lo, hi))["er"])
    # without rating=, no rating columns
    assert "er" not in sb.generate(2, seed=4)
    with pytest.raises(ValueError, match=r'rating="7\.25"'):
        sb.generate(1, rating=7.25)
    with pytest.raises(ValueError, match="nested forcing chains"):
        sb.generate(1, rating="9.5..")
    with pytest.raises(TypeError, match="rating must be a number"):
        sb.generate(1, rating=("7", None))
    # too large for a float: a ValueError, as any rating out of range (it was OverflowError)
    for rating in (10**400, (10**400, None), (None, -(10**400))):
        with pytest.raises(ValueError, match="rating must be a rating from 0 to 20"):
            sb.generate(1, rating=rating)


def test_generate_refuses_what_no_puzzle_meets_and_stops_at_the_limit():
    with pytest.raises(ValueError, match="fewer than 17"):
        sb.generate(1, clues="..16")
    # the messages name this function's arguments, not the CLI's options
    for kwargs, said in [
        (dict(clues=16), "clues=16: no puzzle with fewer than 17"),
        (dict(clues=(79, 80)), "clues=79..80: no minimal puzzle"),
        (dict(rating=0.9), "rating=0.9: no puzzle rates below 1.0"),
        (dict(rating=9.5), "make 9.0.. puzzles and rate them (sudoku_batch.rate)"),
        (dict(clues=(22, 23), symmetry="rot90"), "symmetry=rot90 clues=22..23: "),
    ]:
        with pytest.raises(ValueError) as caught:
            sb.generate(1, **kwargs)
        assert said in str(caught.value) and "--" not in str(caught.value), kwargs
    with pytest.raises(ValueError, match="symmetry"):
        sb.generate(1, symmetry="spiral")
    # a start whose records before it would take hours and gigabytes to make for their classes
    with pytest.raises(ValueError, match=r"at most start=1000000000 \(hours.*or dedupe=False"):
        sb.generate(1, start=2**64 - 6)
    assert len(sb.generate(1, start=2**64 - 6, dedupe=False)["puzzle"]) == 1
    # every record is returned in memory: a count past the machine's memory is refused at once
    # (it ran for hours, then would have failed for want of memory)
    with pytest.raises(ValueError, match=r"n=1000000000000: the records are returned in memory"):
        sb.generate(10**12)
    with pytest.raises(ValueError, match="range"):
        sb.generate(1, clues="a..b")
    with pytest.raises(TypeError):
        sb.generate("3")
    # a bool is no end of a range, as it is no range alone (clues=(True, None) ran as "1..")
    for kwargs in ({"clues": True}, {"clues": (True, None)}, {"guesses": (False, True)},
                   {"guesses": (None, np.bool_(True))}):
        with pytest.raises(TypeError, match="must be an int, a"):
            sb.generate(1, **kwargs)
    with pytest.raises(RuntimeError, match="record 1 gave up"):
        sb.generate(2, clues=17, max_tries=50)
    assert sb.generate(0)["puzzle"].tolist() == []
    # out of range: named (it was OverflowError "can't convert negative int to unsigned")
    for kwargs, name in [({"n": -1}, "n"), ({"n": 1, "seed": 2**64}, "seed"),
                         ({"n": 1, "max_tries": 0}, "max_tries"), ({"n": 1, "start": -5}, "start")]:
        with pytest.raises(ValueError, match=f"^{name} must be [01] to"):
            sb.generate(**kwargs)


SE = REPO / "tests" / "fixtures" / "se"
# the first puzzle of the forum's hardest list (serate: 11.1/11.1/2.6): its path needs nested
# forcing chains, after a first step of 2.6
NESTED = "98.7..6..7..5.......4.8..7.4...9..3..98...2....3..1....4..3..9......5..6.....21.."


def serate(name):
    """serate's ratings of a fixture file: (puzzle, (er, ep, ed)) for each puzzle it rated."""
    out = []
    for line in (SE / "out" / f"{name}.txt").read_text().splitlines():
        puzzle, _, rest = line.partition(" ED=")
        if rest:
            out.append((puzzle, tuple(float(v) for v in rest.split("/"))))
    return out


def cli_rate(path, *options):
    """`sudoku-batch rate -O jsonl` of a file, each record as the Python function gives it:
    status, er, ep, ed, above (the X of ">X"), hardest; NaN for null or >X."""
    binary = os.environ.get("SUDOKU_BATCH", str(REPO / "target" / "debug" / "sudoku-batch"))
    run = subprocess.run(
        [binary, "rate", "-q", "-O", "jsonl", "--no-timings", *options, str(path)],
        cwd=REPO, check=True, capture_output=True, text=True,
    )
    rows = []
    for r in map(json.loads, run.stdout.splitlines()):
        values, above = [], float("nan")
        for key in ("er", "ep", "ed"):
            v = r[key]
            if isinstance(v, str):
                assert v.startswith(">"), v
                above = float(v[1:])
                v = None
            values.append(float("nan") if v is None else v)
        rows.append((r["status"], *values, above, r["hardest"]))
    return rows


def python_rows(out):
    """The Python function's columns as rows, like :func:`cli_rate`'s."""
    return list(zip(
        out["status"].tolist(), out["er"].tolist(), out["ep"].tolist(), out["ed"].tolist(),
        out["above"].tolist(), out["hardest"].tolist(),
    ))


def same(a, b):
    """Rows equal, NaN equal to NaN."""
    nan = lambda v: isinstance(v, float) and v != v
    return len(a) == len(b) and all(
        len(x) == len(y) and all(u == v or (nan(u) and nan(v)) for u, v in zip(x, y))
        for x, y in zip(a, b)
    )


def test_rate_gives_the_numbers_the_cli_writes(tmp_path):
    puzzles = [p for p, _ in serate("exchange_hard")]
    rows = puzzles[:150] + [OPEN, DEAD, CLASH, "12x"] + puzzles[150:]
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(rows) + "\n")
    for options, cli in ((dict(), []), (dict(max_er=4.4), ["--max-er", "4.4"])):
        expected = cli_rate(path, *cli)
        assert len(expected) == len(rows)
        for threads in (None, 1, 2):
            out = sb.rate(rows, threads=threads, **options)
            assert same(python_rows(out), expected), (options, threads)
        assert out["reason"].tolist()[150:154] == [None] * 3 + ["found 3 cells, expected 81"]
    # the sample spans the bands up to 7.2, and --max-er 4.4 bounded some of it
    full = sb.rate(rows)
    assert np.nanmin(full["er"]) == 2.0 and np.nanmax(full["er"]) == 7.2
    bounded = sb.rate(rows, max_er=4.4)
    assert set(np.unique(bounded["above"][~np.isnan(bounded["above"])])) == {4.4}
    assert (np.isnan(bounded["above"]) == (full["er"] <= 4.4)).sum() == len(rows) - 4


def test_rate_agrees_with_serate_on_its_fixtures():
    """serate's own ratings (tests/fixtures/se): every puzzle of these samples exactly, from
    1.2 to past 9."""
    for name in ("kaggle", "exchange_diabolical", "transformed", "magictour"):
        rated = serate(name)
        out = sb.rate([p for p, _ in rated])
        got = list(zip(out["er"].tolist(), out["ep"].tolist(), out["ed"].tolist()))
        wrong = [(p, e, g) for (p, e), g in zip(rated, got) if e != g]
        assert wrong == [], (name, len(wrong), wrong[:3])
        assert set(out["status"].tolist()) == {"unique"}
        assert None not in out["hardest"].tolist()
        assert np.isnan(out["above"]).all()
    assert max(e[0] for _, e in serate("magictour")) >= 9.0


def test_rate_gives_serates_rating_to_a_path_of_nested_chains_and_bounds_it_below_them():
    """A path that needs nested forcing chains gets serate's own ER, EP and ED; stopped at 9.4
    (`max_er`), it is the CLI's `>9.4 >9.4 2.6`: NaN, NaN, 2.6 with 9.4 in `above`."""
    (line,) = [e for p, e in serate("hardest11") if p == NESTED]
    out = sb.rate([NESTED])
    assert out["status"].tolist() == ["unique"]
    assert (out["er"][0], out["ep"][0], out["ed"][0]) == line
    assert np.isnan(out["above"][0]) and "Forcing Chains" in out["hardest"][0]
    out = sb.rate([NESTED], max_er=9.4)
    assert np.isnan(out["er"][0]) and np.isnan(out["ep"][0])
    assert out["above"][0] == 9.4 and out["ed"][0] == line[2] == 2.6
    assert line[0] > 9.4 and line[1] > 9.4
    assert out["hardest"].tolist() == [None]


def test_rate_max_er_keeps_exactly_the_puzzles_up_to_the_bound():
    puzzles = [p for p, _ in serate("exchange_diabolical")]
    full = sb.rate(puzzles)
    for bound in (0.0, 2.6, 6.6, 7.0, 20.0):
        out = sb.rate(puzzles, max_er=bound)
        exact = ~np.isnan(out["er"])
        assert (exact == (full["er"] <= bound)).all(), bound
        assert np.array_equal(out["er"][exact], full["er"][exact])
        assert (np.isnan(out["above"]) == exact).all() and (out["above"][~exact] == bound).all()
        # an EP or ED known before stopping is the full rating's
        for key in ("ep", "ed"):
            known = ~np.isnan(out[key])
            assert np.array_equal(out[key][known], full[key][known]), (bound, key)
        assert [h for h, e in zip(out["hardest"], exact) if not e] == [None] * (~exact).sum()


def test_rate_returns_an_arrow_table_with_the_numpy_columns():
    rows = [PUZZLE, OPEN, DEAD, CLASH, "12x", None, NESTED]
    for options in (dict(max_er=9.4), dict(max_er=1.0)):
        numpy = sb.rate(rows, **options)
        table = sb.rate(rows, output="arrow", **options)
        table.validate(full=True)
        assert table.column_names == list(numpy) == [
            "status", "er", "ep", "ed", "above", "hardest", "reason"
        ]
        assert table.schema.types == [pa.dictionary(pa.int8(), pa.large_string())] + [
            pa.float64()
        ] * 4 + [pa.large_string()] * 2
        assert table["status"].to_pylist() == numpy["status"].tolist() == [
            "unique", "multiple", "unsolvable", "contradiction", "malformed", "malformed",
            "unique",
        ]
        for key in ("er", "ep", "ed", "above"):
            assert table[key].to_pylist() == [
                None if v != v else v for v in numpy[key].tolist()
            ], key
        for key in ("hardest", "reason"):
            assert table[key].to_pylist() == numpy[key].tolist(), key
    assert numpy["reason"].tolist()[4:6] == ["found 3 cells, expected 81", "missing puzzle (None)"]
    full = sb.rate(rows[:-1], output="arrow")
    assert full["hardest"].to_pylist() == ["Hidden Single"] + [None] * 5
    assert pl.from_arrow(full)["er"].to_list()[:2] == [1.2, None]
    assert sb.rate([], output="arrow").num_rows == 0
    assert sb.rate([])["er"].tolist() == []


def test_rate_takes_every_input_form_and_refuses_wrong_arguments():
    puzzles = [p for p, _ in serate("kaggle")][:20]
    expected = python_rows(sb.rate(puzzles))
    cells = np.array([[int(c) for c in p.replace(".", "0")] for p in puzzles], dtype=np.uint8)
    for name, column in {
        "numpy (n, 81)": cells,
        "numpy (n, 9, 9)": cells.reshape(-1, 9, 9),
        "pandas": pd.Series(puzzles),
        "pyarrow": pa.array(puzzles),
        "polars": pl.Series(puzzles),
        "bytes": [p.encode() for p in puzzles],
    }.items():
        assert same(python_rows(sb.rate(column)), expected), name
    with pytest.raises(TypeError, match="not a single str"):
        sb.rate(PUZZLE)
    with pytest.raises(TypeError, match=r"puzzles\[1\] is an int"):
        sb.rate([PUZZLE, 7])
    with pytest.raises(TypeError, match="max_er must be a number or None, not str"):
        sb.rate([PUZZLE], max_er="7.0")
    with pytest.raises(TypeError, match="max_er must be a number or None, not bool"):
        sb.rate([PUZZLE], max_er=True)
    # 10**400: too large for a float (it was OverflowError)
    for bad in (7.25, -0.1, 20.1, float("nan"), float("inf"), 10**400):
        with pytest.raises(ValueError, match="from 0 to 20 with one decimal at most"):
            sb.rate([PUZZLE], max_er=bad)
    with pytest.raises(ValueError, match="threads"):
        sb.rate([PUZZLE], threads=0)
    with pytest.raises(TypeError, match="threads"):
        sb.rate([PUZZLE], threads=1.5)
    assert sb.rate([PUZZLE], max_er=np.float32(6.6))["er"].tolist() == [1.2]
    assert sb.rate([PUZZLE], max_er=7)["er"].tolist() == [1.2]
    assert "Sudoku Explainer" in sb.RATER and "b1f9ed4" in sb.RATER


def interrupted_after(seconds, call):
    """Runs `call` with Ctrl-C (SIGINT to this process) coming `seconds` after it starts; returns
    how long after the signal KeyboardInterrupt came out of it (the test fails if none did)."""
    import signal
    import threading

    # a test run started in the background inherits SIGINT ignored: a handler of its own
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    sent = []

    def ctrl_c():
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(seconds, ctrl_c)
    try:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            call()
        return time.monotonic() - sent[0]
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)


def test_ctrl_c_stops_a_long_generate_soon():
    # 300,000 records take about 10 s on one thread (30 µs each); before, Ctrl-C waited for all
    # of them (and generate(10**9) for hours, holding every record made in memory)
    late = interrupted_after(0.5, lambda: sb.generate(300_000, seed=1, threads=1))
    assert late < 3.0, f"KeyboardInterrupt {late:.1f} s after Ctrl-C"


@pytest.mark.parametrize("threads", [None, 2])
def test_ctrl_c_stops_rating_the_hardest_puzzles_soon(threads):
    # a few tenths of a second a record: all 300 take a minute or more on two threads
    puzzles = sample("hardest_300.txt")
    late = interrupted_after(1.0, lambda: sb.rate(puzzles, threads=threads))
    # the ratings under way finish (a few seconds at most for one of these)
    assert late < 10.0, f"KeyboardInterrupt {late:.1f} s after Ctrl-C"


def test_ctrl_c_stops_solving_a_long_column_soon():
    # 120,000 of the hardest puzzles, uniqueness proved on one thread: several seconds
    puzzles = sample("hardest_300.txt") * 400
    late = interrupted_after(0.3, lambda: sb.solve(puzzles, unique=True, threads=1))
    assert late < 2.0, f"KeyboardInterrupt {late:.1f} s after Ctrl-C"


def test_ctrl_c_stops_one_long_rating_soon():
    # ER 11.6: about 5 s to rate on one thread, in steps of at most some tenths of a second;
    # Ctrl-C waited for the whole rating (the rater was asked to stop between puzzles only)
    hard = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
    late = interrupted_after(0.5, lambda: sb.rate([hard], threads=1))
    assert late < 1.5, f"KeyboardInterrupt {late:.1f} s after Ctrl-C"


def test_a_call_after_an_interrupted_one_answers_in_full():
    interrupted_after(0.3, lambda: sb.generate(300_000, seed=1, threads=1))
    out = sb.generate(3, seed=1)
    assert len(out["puzzle"]) == 3
    assert sb.solve([PUZZLE])["solution"][0] == SOLUTION


def test_given_solutions_are_trimmed_as_the_cli_trims_them():
    # a solution read with its line end, or padded, was "found 82 cells": wrong_solution
    for padded in [SOLUTION + "\n", " " + SOLUTION + " ", SOLUTION + "\r\n", "\t" + SOLUTION]:
        out = sb.check([PUZZLE], [padded])
        assert out["verdict"][0] == "unique", (padded, out["detail"][0])
    wrong = SOLUTION[:-1] + ("1" if SOLUTION[-1] != "1" else "2")
    assert sb.check([PUZZLE], [wrong + "\n"])["verdict"][0] == "wrong_solution"


def test_an_empty_solution_is_none_given_as_the_cli_reads_an_empty_field():
    # pyarrow's CSV reader, and pandas with keep_default_na=False, give "" for an empty field:
    # it was wrong_solution ("found 0 cells") where the CLI says unique
    for empty in ["", " ", "\n"]:
        out = sb.check([PUZZLE], [empty])
        assert out["verdict"][0] == "unique", (empty, out["detail"][0])
    table = pa.csv.read_csv(
        io.BytesIO(f"puzzle,solution\n{PUZZLE},{SOLUTION}\n{PUZZLE},\n".encode()),
        convert_options=pa.csv.ConvertOptions(
            column_types={"puzzle": pa.string(), "solution": pa.string()}
        ),
    )
    out = sb.check(table["puzzle"], table["solution"])
    assert list(out["verdict"]) == ["unique", "unique"]


def test_a_rating_range_takes_floats_within_rounding_as_max_er_does():
    # np.float32(6.6) and 0.1 * 3 * 10 were refused as "more than one decimal"
    assert sb._rating_range((np.float32(6.6), None)) == "6.6.."
    assert sb._rating_range((None, 0.1 * 3 * 10)) == "..3.0"
    assert sb._rating_range(7) == "7.0"
    out = sb.generate(1, seed=3, rating=(np.float32(1.0), None))
    assert len(out["puzzle"]) == 1
    with pytest.raises(ValueError):
        sb.generate(1, rating=(6.65, None))


def test_every_rating_with_one_decimal_is_taken_as_a_numpy_float_of_any_width():
    # np.float32(7.2) is 7.199999809265137: 112 of the 201 ratings from 0.0 to 20.0 were
    # refused by max_er= as float32, 7.2 (the message's own example) among them
    for tenths in range(201):
        for kind in (np.float16, np.float32, np.float64):
            value = kind(tenths / 10)
            assert sb._max_er(value) == tenths, (kind, tenths)
            assert sb._rating_range(value) == f"{tenths / 10:.1f}", (kind, tenths)
    assert sb.rate([PUZZLE], max_er=np.float32(7.2))["er"].tolist() == [1.2]
    # a second decimal is refused in its own precision too
    for bad in (np.float32(7.25), np.float64(6.65), np.float16(7.25)):
        with pytest.raises(ValueError, match="one decimal at most"):
            sb._max_er(bad)


def test_masked_cells_are_refused_rather_than_read_as_their_hidden_values():
    cells = np.array([[int(c) if c != "." else 0 for c in PUZZLE]], dtype=np.int8)
    masked = np.ma.masked_array(cells, mask=np.zeros_like(cells, dtype=bool))
    # nothing masked: read as the array it is
    solved = sb.solve(masked)["solution"][0]
    assert "".join(map(str, np.ravel(solved))) == SOLUTION
    masked.mask[0, 2] = True
    with pytest.raises(ValueError, match="masked cells"):
        sb.solve(masked)
    assert sb.solve(masked.filled(0))["status"][0] == "solved"
    # strings: a masked row is a missing one, as None is (malformed)
    rows = np.ma.masked_array(np.array([PUZZLE, PUZZLE]), mask=[False, True])
    assert sb.solve(rows)["status"].tolist() == ["solved", "malformed"]


def test_grids_of_arrow_output_read_as_cells_are_taken_back_as_input():
    # check(cells, out["solution"]) raised TypeError ("is a list") on this package's own output
    cells = np.array([[int(c) if c != "." else 0 for c in PUZZLE]] * 3, dtype=np.uint8)
    cells[2, 0] = cells[2, 1] = 5  # a clash: no solution, a null grid
    out = sb.solve(cells, output="arrow")
    solutions = out["solution"]
    assert pa.types.is_fixed_size_list(solutions.type) and solutions.null_count == 1
    for column in (solutions, solutions.combine_chunks(), pl.from_arrow(out)["solution"]):
        verdicts = sb.check(cells, column)["verdict"].tolist()
        assert verdicts == ["unique", "unique", "contradiction"], verdicts
        # as puzzles: the solved grids, and a missing one
        assert sb.solve(column)["status"].tolist() == ["solved", "solved", "malformed"]
    wrong = pa.array([[10] * 81], type=pa.list_(pa.uint8(), 81))
    assert sb.solve(wrong)["status"].tolist() == ["malformed"]


def test_grids_of_arrow_output_in_several_chunks_are_taken_back_as_input():
    # the second chunk raised ValueError ("truth value of an array ... is ambiguous"), or
    # AttributeError after an empty first chunk: a Parquet file read in row groups
    cells = np.array([[int(c) if c != "." else 0 for c in PUZZLE]] * 2, dtype=np.uint8)
    out = sb.solve(cells, output="arrow")
    chunked = pa.concat_tables([out, out, out])["solution"]
    assert chunked.num_chunks == 3
    assert sb.check(np.concatenate([cells] * 3), chunked)["verdict"].tolist() == ["unique"] * 6
    empty_first = pa.chunked_array([chunked.chunk(0).slice(0, 0), chunked.chunk(0)])
    assert sb.solve(empty_first)["status"].tolist() == ["solved"] * 2
    rows = sb.solve(cells.reshape(-1, 9, 9), output="arrow")["solution"]
    twice = pa.chunked_array([rows.chunk(0), rows.chunk(0)])
    assert sb.solve(twice)["status"].tolist() == ["solved"] * 4


def test_grids_of_arrow_output_read_as_9_by_9_cells_are_taken_back_as_input():
    # the (n, 81) form was taken back; the (n, 9, 9) form raised TypeError ("is a list")
    cells = np.array([[int(c) if c != "." else 0 for c in PUZZLE]] * 3, dtype=np.uint8)
    cells[2, 0] = cells[2, 1] = 5
    out = sb.solve(cells.reshape(-1, 9, 9), output="arrow")
    solutions = out["solution"]
    assert pa.types.is_fixed_size_list(solutions.type.value_type)
    verdicts = sb.check(cells, solutions)["verdict"].tolist()
    assert verdicts == ["unique", "unique", "contradiction"], verdicts
    assert sb.solve(solutions)["status"].tolist() == ["solved", "solved", "malformed"]
    # a missing cell value is no cell value: a malformed row, and no warning about a cast
    row = [[int(c) if c != "." else 0 for c in PUZZLE[9 * r:9 * r + 9]] for r in range(9)]
    row[0][0] = None
    holed = pa.array([row], type=pa.list_(pa.list_(pa.uint8(), 9), 9))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert sb.solve(holed)["status"].tolist() == ["malformed"]
    # 81 cells as 3 lists of 27 are no rows of a grid
    odd = pa.array([[list(range(27))] * 3], type=pa.list_(pa.list_(pa.uint8(), 27), 3))
    with pytest.raises(ValueError, match="9 rows of 9 cells"):
        sb.solve(odd)


def test_arrow_cell_grids_answer_in_their_form_and_name_what_is_wrong():
    # read as text, a null cell or a value above 9 gave "invalid character '?'", and the
    # solutions came back as strings, not as cell values as for numpy cell input
    cells = np.array([[int(c) if c != "." else 0 for c in PUZZLE]] * 4, dtype=np.uint8)
    values = cells.astype(np.int64).tolist()
    values[1][5] = 10
    values[2][7] = None
    grids = pa.array(values[:3] + [None], type=pa.list_(pa.uint8(), 81))
    out = sb.solve(grids)
    assert out["status"].tolist() == ["solved", "malformed", "malformed", "malformed"]
    assert out["reason"].tolist() == [
        None, "cell 6 holds 10, not 0 to 9", "cell 8 is null, not 0 to 9", "missing puzzle (None)"
    ]
    assert out["solution"].dtype == np.uint8 and out["solution"].shape == (4, 81)
    assert "".join(map(str, out["solution"][0])) == SOLUTION
    table = sb.solve(grids, output="arrow")
    assert table["solution"].type == pa.list_(pa.uint8(), 81)
    # a null cell in a given solution: a wrong one that says so; a null row: none given
    verdicts = sb.check(cells[:3], grids.slice(1, 3).cast(pa.list_(pa.int16(), 81)))
    assert verdicts["verdict"].tolist() == ["wrong_solution", "wrong_solution", "unique"]
    assert verdicts["detail"].tolist()[1] == "given solution: cell 8 is null, not 0 to 9"
    with pytest.raises(ValueError, match="0 to 255"):
        sb.solve(pa.array([[300] * 81], type=pa.list_(pa.int16(), 81)))


def test_pandas_series_of_arrow_cell_grids_are_taken():
    # `to_pandas()` of this package's Arrow output: a numpy array a row (None for a null one),
    # or pyarrow-backed; both were refused ("is an ndarray ... pass it as a str")
    cells = np.array([[int(c) if c != "." else 0 for c in PUZZLE]] * 3, dtype=np.uint8)
    cells[2, 0] = cells[2, 1] = 5  # a clash: no solution, a null grid
    for shaped in (cells, cells.reshape(-1, 9, 9)):
        solutions = sb.solve(shaped, output="arrow")["solution"]
        for series in (
            solutions.to_pandas(),
            pd.Series(solutions.combine_chunks(), dtype=pd.ArrowDtype(solutions.type)),
        ):
            verdicts = sb.check(shaped, series)["verdict"].tolist()
            assert verdicts == ["unique", "unique", "contradiction"], verdicts
            again = sb.solve(series)
            assert again["status"].tolist() == ["solved", "solved", "malformed"]
            assert again["solution"].shape == shaped.shape
    with pytest.raises(TypeError, match=r"puzzles\[0\] is an array of float64"):
        sb.solve(pd.Series([np.full(81, 0.5)]))


def test_arrow_and_pandas_cell_values_out_of_range_raise_as_numpy_ones_do():
    # -1 read as a null cell (the value that marked one), a uint64 above 2**63 as a negative
    # number; numpy cell values outside 0-255 raise ValueError
    grid = [0] * 81
    grid[0] = -1
    for column in (
        pa.array([grid], pa.list_(pa.int8(), 81)),
        pl.Series([grid], dtype=pl.Array(pl.Int64, 81)),
        pd.Series([np.array(grid)]),
    ):
        with pytest.raises(ValueError, match="0 to 255.*not -1"):
            sb.solve(column)
    for value in (2**64 - 1, 2**63):
        grid[0] = value
        with pytest.raises(ValueError, match=f"not {value}"):
            sb.solve(pa.array([grid], pa.list_(pa.uint64(), 81)))


def test_a_list_of_cell_arrays_and_string_dtype_missing_markers_are_taken():
    # a list of numpy grids was refused ("a grid read as a number has lost its leading 0s");
    # a StringDType whose missing marker is NaN or pd.NA raised TypeError
    grid = np.array([int(c) if c != "." else 0 for c in PUZZLE], dtype=np.uint8)
    out = sb.solve([grid, None, grid.reshape(9, 9)])
    assert out["status"].tolist() == ["solved", "malformed", "solved"]
    assert out["solution"].shape == (3, 81)
    assert "".join(map(str, out["solution"][0])) == SOLUTION
    from numpy.dtypes import StringDType

    for na in (np.nan, pd.NA):
        texts = np.array([PUZZLE, na], dtype=StringDType(na_object=na))
        assert sb.solve(texts)["reason"].tolist() == [None, "missing puzzle (None)"]


def test_a_parquet_file_of_cell_grids_with_a_null_read_back_by_pandas_is_taken(tmp_path):
    # pandas reads such a column as float arrays (the null grid's cells are nulls in the child
    # array): refused with TypeError; a list of grids with None first was refused too
    import pyarrow.parquet as pq

    cells = np.array([[int(c) if c != "." else 0 for c in PUZZLE]] * 2, dtype=np.uint8)
    cells[1, 0] = cells[1, 1] = 5  # a clash: no solution, a null grid
    for shaped in (cells, cells.reshape(-1, 9, 9)):
        pq.write_table(sb.solve(shaped, output="arrow"), tmp_path / "out.parquet")
        solutions = pd.read_parquet(tmp_path / "out.parquet")["solution"]
        assert sb.check(shaped, solutions)["verdict"].tolist() == ["unique", "contradiction"]
        assert sb.solve(solutions)["status"].tolist() == ["solved", "malformed"]
    holed = cells[0].astype(float).tolist()
    holed[3] = None
    frame = pa.array([holed, None], pa.list_(pa.uint8(), 81)).to_pandas()
    assert sb.solve(frame)["reason"].tolist() == [
        "cell 4 is null, not 0 to 9", "missing puzzle (None)"
    ]
    assert sb.solve([None, cells[0]])["status"].tolist() == ["malformed", "solved"]
    with pytest.raises(TypeError, match="array of float64"):
        sb.solve(pd.Series([np.full(81, 2.5)]))


def test_numpy_grids_in_a_container_not_read_as_grids_get_the_right_hint():
    # a tuple or an iterator of numpy grids: told where grids are read from (it said "a grid
    # read as a number has lost its leading 0s", an ndarray having __index__)
    grid = np.array([int(c) for c in PUZZLE.replace(".", "0")], dtype=np.uint8).reshape(9, 9)
    assert sb.solve([grid])["status"].tolist() == ["solved"]
    for column in ((grid,), iter([grid])):
        with pytest.raises(TypeError, match="numpy grids are read from a list or a pandas"):
            sb.solve(column)
    # a numpy number keeps the hint for a puzzle read as a number
    with pytest.raises(TypeError, match="lost its leading 0s"):
        sb.solve((np.int64(5),))
