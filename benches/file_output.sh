#!/usr/bin/env bash
# Writing to a regular file against writing to /dev/null (issue 27 item 1): `solve -j2` on the
# 1M-row Kaggle CSV for csv, jsonl and line output, two builds side by side, interleaved, the
# median of RUNS each. Prints, per build and format, the wall time to a file over the wall time
# to /dev/null (target: at most 1.15), and the CPU a record spends outside the solver: whole
# process CPU (user + sys) to a file, less `bench -j1`'s in-memory solve time, per record (the
# figure that scales to many cores; this machine has 2). STAT=min takes the least of the runs.
#
#   bash benches/file_output.sh OLD_BINARY [NEW_BINARY]     (new: this tree's release build)
#
# To build an old commit beside this tree, see benches/compare_builds.sh. Needs GNU time.
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
RUNS=${RUNS:-7}
OLD=$(realpath "$1")
if [ $# -ge 2 ]; then
    NEW=$(realpath "$2")
else
    cargo build --release --quiet
    NEW=$PWD/target/release/sudoku-batch
fi
OUT_DIR=${OUT_DIR:-$(mktemp -d)}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

kaggle="$SHARED/data/csv/kaggle_quizzes_solutions_20k.csv"
# 1M Kaggle rows: the header once, then the 20k rows 50 times
{ sed -e '$a\' "$kaggle"; for _ in $(seq 49); do tail -n +2 "$kaggle" | sed -e '$a\'; done; } \
    > "$TMP/k1m.csv"
records=$(($(wc -l < "$TMP/k1m.csv") - 1))

# "wall cpu" of one run
run() {
    /usr/bin/time -f '%e %U %S' -o "$TMP/t" "$@" > /dev/null 2>&1
    awk '{ printf "%s %.3f\n", $1, $2 + $3 }' "$TMP/t"
}
# the median of the runs (STAT=min: the least, for a machine busy with other work)
median() {
    if [ "${STAT:-median}" = min ]; then sort -n | head -1; else
        sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; fi
}

# the solver's own time a record, in memory, one thread (the same for both builds' solver)
solve_us=$("$NEW" bench -q -j1 --rounds 3 --min-seconds 0 "$TMP/k1m.csv" --export-json - |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["datasets"][0]["usec_per_puzzle"])')

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $records records;" \
    "solver alone: $solve_us µs a record (bench -j1)"
echo
echo "| build | format | wall to file | wall to /dev/null | file / null | CPU outside the solver, µs a record |"
echo "|---|---|--:|--:|--:|--:|"
for format in csv jsonl line; do
    for build in old new; do
        : > "$TMP/$build-file"; : > "$TMP/$build-null"
    done
    for _ in $(seq "$RUNS"); do
        for build in old new; do
            bin=$OLD; [ "$build" = new ] && bin=$NEW
            # a new file each run, and no earlier run's writeback going on in the background
            rm -f "$OUT_DIR/out.$format"; sync
            run "$bin" solve -q -j2 -O "$format" "$TMP/k1m.csv" -o "$OUT_DIR/out.$format" >> "$TMP/$build-file"
            run "$bin" solve -q -j2 -O "$format" "$TMP/k1m.csv" -o /dev/null >> "$TMP/$build-null"
        done
    done
    for build in old new; do
        file=$(cut -d' ' -f1 "$TMP/$build-file" | median)
        null=$(cut -d' ' -f1 "$TMP/$build-null" | median)
        cpu=$(cut -d' ' -f2 "$TMP/$build-file" | median)
        awk -v b="$build" -v f="$format" -v w="$file" -v n="$null" -v c="$cpu" -v r="$records" -v s="$solve_us" \
            'BEGIN { printf "| %s | %s | %.3f s | %.3f s | %.2f | %.3f |\n", b, f, w, n, w / n, c * 1e6 / r - s }'
    done
done
rm -f "$OUT_DIR"/out.*
