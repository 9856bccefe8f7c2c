#!/usr/bin/env bash
# The Python package (issue 15) against the Python sudoku packages on PyPI and against the CLI, on
# 1M Kaggle puzzles (kaggle_quizzes_solutions_20k.csv 50 times), side by side in one run, best of
# RUNS each: list of str in, columns out (status, solution) for ours; the same work one puzzle at
# a time for lib-sudoku (a list of 81 ints a call) and rustoku (a str a call), which take no
# columns; our numpy (n, 81) uint8 input; and `sudoku-batch solve -O line` on the file, whole
# process. Threads: all cores for ours and the CLI (the peers use one).
#
#   bash benches/python.sh            # RUNS=3, N=1000000
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
RUNS=${RUNS:-3}
N=${N:-1000000}
venv=target/python-bench-venv

# pip through the venv's python, never its pip script: a script's first line names the venv it
# was made in, so in a venv copied from another checkout it installed into that one
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        maturin==1.16.0 numpy==2.4.6 lib-sudoku==2.2.0 rustoku==0.16.0
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check ./python
cargo build --release --quiet

data=target/kaggle_python_bench.csv
K="$SHARED/data/csv/kaggle_quizzes_solutions_20k.csv"
{ sed -e '$a\' "$K"; for _ in $(seq 49); do tail -n +2 "$K" | sed -e '$a\'; done; } > "$data"

"$venv/bin/python" - "$data" "$RUNS" "$N" target/release/sudoku-batch <<'PY'
import subprocess, sys, time
import numpy as np
import lib_sudoku, rustoku
import sudoku_batch as sb

path, runs, n, cli = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
puzzles = [line.split(",", 1)[0] for line in open(path).read().splitlines()[1:]][:n]
cells = np.frombuffer("".join(puzzles).encode(), dtype=np.uint8).reshape(-1, 81) - ord("0")

def best(f):
    times = []
    for _ in range(runs):
        t = time.perf_counter(); f(); times.append(time.perf_counter() - t)
    return min(times)

def lib_sudoku_all():
    return [lib_sudoku.solve([ord(c) - 48 for c in p]) for p in puzzles]

def rustoku_all():
    return [rustoku.solve(p) for p in puzzles]

def cli_run():
    subprocess.run([cli, "solve", "-q", "--no-timings", "-O", "line", path],
                   check=True, stdout=subprocess.DEVNULL)

# the answers agree
ours = sb.solve(puzzles[:1000])["solution"].tolist()
assert ours == [rustoku.solve(p) for p in puzzles[:1000]]
assert ours == ["".join(map(str, lib_sudoku.solve([ord(c) - 48 for c in p]))) for p in puzzles[:1000]]

rows = [
    ("sudoku_batch.solve(list of str)", best(lambda: sb.solve(puzzles))),
    ("sudoku_batch.solve(numpy (n, 81) uint8)", best(lambda: sb.solve(cells))),
    ("sudoku-batch CLI, whole process", best(cli_run)),
    ("rustoku.solve, a str a call", best(rustoku_all)),
    ("lib_sudoku.solve, 81 ints a call", best(lib_sudoku_all)),
]
base = rows[0][1]
print(f"{len(puzzles)} Kaggle puzzles, best of {runs}")
print("| run | seconds | puzzles/s | vs sudoku_batch list |")
print("|---|---:|---:|---:|")
for name, t in rows:
    print(f"| {name} | {t:.3f} | {len(puzzles) / t:,.0f} | {t / base:.2f} |")
PY
