#!/usr/bin/env bash
# The Python package (issues 15 and 27) against the Python sudoku packages on PyPI and against the
# CLI, on 1M Kaggle puzzles (kaggle_quizzes_solutions_20k.csv 50 times), side by side in one run:
# list of str in, columns out (status, solution, guesses, reason) for ours, as numpy (the
# default) and as a pyarrow.Table (output="arrow"); our numpy (n, 81) uint8 input; the same work
# one puzzle at a time for lib-sudoku (a list of 81 ints a call) and rustoku (a str a call), which
# take no columns; and the CLI's whole process on the file, as issue 27 names it (`solve -jT -q -O
# line -c quizzes FILE -o OUT`) and without per-puzzle timings (`--no-timings`). Threads: all
# cores for ours (the default pool) and the CLI (-j nproc), or THREADS for both (ours then start
# them each call); the peers use one.
#
# The runs take turns (round r runs each once), so a build starting beside them slows every row
# alike; each row's best of RUNS is quoted, with its median and worst to show the noise, and the
# ratios are of bests from this one run. PEERS=0 leaves out the two PyPI packages (12-14 s a run).
#
#   bash benches/python.sh            # RUNS=5, N=1000000, PEERS=1
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
RUNS=${RUNS:-5}
N=${N:-1000000}
THREADS=${THREADS:-}
PEERS=${PEERS:-1}
venv=target/python-bench-venv

# pip through the venv's python, never its pip script: a script's first line names the venv it
# was made in, so in a venv copied from another checkout it installed into that one
if ! "$venv/bin/python" -c "import numpy, pyarrow, lib_sudoku, rustoku" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        maturin==1.16.0 numpy==2.4.6 pyarrow==26.0.1 lib-sudoku==2.2.0 rustoku==0.16.0
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check ./python
cargo build --release --quiet

data=target/kaggle_python_bench.csv
K="$SHARED/data/csv/kaggle_quizzes_solutions_20k.csv"
{ sed -e '$a\' "$K"; for _ in $(seq 49); do tail -n +2 "$K" | sed -e '$a\'; done; } > "$data"

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) logical"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
"$venv/bin/python" - "$data" "$RUNS" "$N" target/release/sudoku-batch "$THREADS" "$PEERS" <<'PY'
import os, statistics, subprocess, sys, time
import numpy as np
import pyarrow as pa
import lib_sudoku, rustoku
import sudoku_batch as sb

path, runs, n, cli, peers = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], \
    sys.argv[6] == "1"
threads = int(sys.argv[5]) if sys.argv[5] else None  # None: our default pool
jobs = threads or len(os.sched_getaffinity(0))
every = open(path).read().splitlines()
lines = every[:n + 1]
puzzles = [line.split(",", 1)[0] for line in lines[1:]]
cells = np.frombuffer("".join(puzzles).encode(), dtype=np.uint8).reshape(-1, 81) - ord("0")
head = path  # the CLI reads the same rows (both columns, as issue 27 has it)
if len(lines) < len(every):
    head = "target/kaggle_python_bench_head.csv"
    with open(head, "w") as f:
        f.write("\n".join(lines) + "\n")

def lib_sudoku_all():
    return [lib_sudoku.solve([ord(c) - 48 for c in p]) for p in puzzles]

def rustoku_all():
    return [rustoku.solve(p) for p in puzzles]

def cli_run(*extra):
    subprocess.run([cli, "solve", f"-j{jobs}", "-q", *extra, "-O", "line", "-c", "quizzes",
                    head, "-o", "target/kaggle_python_bench_out.txt"], check=True)

# the answers agree: ours as numpy, as Arrow, the CLI's file, and the peers'
ours = sb.solve(puzzles[:1000])["solution"].tolist()
table = sb.solve(puzzles[:1000], output="arrow")
assert isinstance(table, pa.Table) and table["solution"].to_pylist() == ours
cli_run()
assert open("target/kaggle_python_bench_out.txt").read().split()[:1000] == ours
assert ours == [rustoku.solve(p) for p in puzzles[:1000]]
assert ours == ["".join(map(str, lib_sudoku.solve([ord(c) - 48 for c in p])))
                for p in puzzles[:1000]]

rows = [
    ("`sudoku_batch.solve(list of str)` (numpy)", lambda: sb.solve(puzzles, threads=threads)),
    ('`sudoku_batch.solve(list of str, output="arrow")`',
     lambda: sb.solve(puzzles, threads=threads, output="arrow")),
    ("`sudoku_batch.solve(numpy (n, 81) uint8)`", lambda: sb.solve(cells, threads=threads)),
    (f"`sudoku-batch solve -j{jobs} -q -O line -c quizzes FILE -o OUT`, whole process",
     cli_run),
    ("the same with `--no-timings`", lambda: cli_run("--no-timings")),
]
if peers:
    rows += [("`rustoku.solve` 0.16.0, a str a call", rustoku_all),
             ("`lib_sudoku.solve` 2.2.0, 81 ints a call", lib_sudoku_all)]
times = {name: [] for name, _ in rows}
for _ in range(runs):
    for name, f in rows:
        t = time.perf_counter()
        f()
        times[name].append(time.perf_counter() - t)

best = {name: min(ts) for name, ts in times.items()}
base = best[rows[0][0]]
print(f"{len(puzzles):,} Kaggle puzzles, {jobs} threads, best of {runs} (runs taking turns)")
print("| run | best s | median s | worst s | puzzles/s (best) | vs ours (numpy) |")
print("|---|---:|---:|---:|---:|---:|")
for name, ts in times.items():
    print(f"| {name} | {min(ts):.3f} | {statistics.median(ts):.3f} | {max(ts):.3f} | "
          f"{len(puzzles) / min(ts):,.0f} | {min(ts) / base:.2f} |")
arrow, cli, untimed = (rows[i][0] for i in (1, 3, 4))
for against, what in [(cli, "the CLI's whole process (issue 27: at most 1.3)"),
                      (untimed, "the CLI with --no-timings")]:
    rounds = sorted(a / c for a, c in zip(times[arrow], times[against]))
    print(f"Arrow Table from a list of str / {what}: {best[arrow] / best[against]:.2f} "
          f"(best / best); round by round {rounds[0]:.2f} to {rounds[-1]:.2f}, median "
          f"{statistics.median(rounds):.2f}")
PY
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
