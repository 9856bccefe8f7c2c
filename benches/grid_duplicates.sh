#!/usr/bin/env bash
# Isomorphic duplicates and canonical forms on complete solution grids (issue 26 item 11): plain
# `check -j2` against `check -j2 --duplicates=iso`, and `canon -j1` (forms per second through the
# whole process), on a grid dataset: by default the solutions column of the Kaggle 20k CSV. Best
# wall time of RUNS runs each, side by side in one run; with BEFORE=BINARY, the same rows for that
# build too (build an older revision in a worktree of its own), so before and after come from
# one session. The machine is noisy: quote ratios from one session.
#
#   bash benches/grid_duplicates.sh
#   BEFORE=/tmp/old/sudoku-batch RUNS=5 bash benches/grid_duplicates.sh
#   COLUMN=solution bash benches/grid_duplicates.sh ../shared/data/csv/radcliffe_curated_5000.csv
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
RUNS=${RUNS:-3}
COLUMN=${COLUMN:-solutions}
TARGET=${CARGO_TARGET_DIR:-target}

cargo build --release --quiet
builds=("$TARGET/release/sudoku-batch")
if [ -n "${BEFORE:-}" ]; then
    builds=("$BEFORE" "${builds[@]}")
fi

if [ $# -eq 0 ]; then
    set -- "$SHARED/data/csv/kaggle_quizzes_solutions_20k.csv"
fi

# best wall time in nanoseconds of RUNS runs of "$@" (exit 1, problems found, is not a failure)
best() {
    local best=1000000000000 t0 t1
    for _ in $(seq "$RUNS"); do
        t0=$(date +%s%N)
        "$@" > /dev/null 2>&1 || [ $? -eq 1 ]
        t1=$(date +%s%N)
        [ $((t1 - t0)) -lt "$best" ] && best=$((t1 - t0))
    done
    echo "$best"
}

grep -m1 'model name' /proc/cpuinfo || true
printf '%-36s %-28s %8s %9s %9s %9s %9s %11s\n' corpus build grids check iso iso/check canon_j1 canon_j1_g/s
for f in "$@"; do
    # lines less the header; wc counts newlines, so a file without a final one counts right as is
    n=$(wc -l < "$f")
    [ -n "$(tail -c1 "$f")" ] || n=$((n - 1))
    for b in "${builds[@]}"; do
        plain=$(best "$b" check -q -j2 -c "$COLUMN" "$f")
        iso=$(best "$b" check -q -j2 -c "$COLUMN" --duplicates=iso "$f")
        c1=$(best "$b" canon -q -j1 -c "$COLUMN" "$f" -o /dev/null)
        awk -v name="$(basename "$f")" -v build="$b" -v n="$n" -v p="$plain" -v i="$iso" -v c1="$c1" \
            'BEGIN { printf "%-36s %-28s %8d %8.3fs %8.3fs %9.2f %8.3fs %11.0f\n", name, build, n, p/1e9, i/1e9, i/p, c1/1e9, n/(c1/1e9) }'
    done
done
