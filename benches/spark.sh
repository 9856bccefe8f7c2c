#!/usr/bin/env bash
# The Spark example (examples/spark/solve_dataset.py) on local[2] against the binary alone on the
# same file: whole spark-submit time, the write job's own time (printed by the example), and
# `sudoku-batch solve -j2` writing CSV. Best of RUNS. Needs the venv examples/spark/ci.sh makes
# (pyspark from PyPI) and Java 17+.
#
#   bash examples/spark/ci.sh    # once: makes target/spark-venv
#   bash benches/spark.sh
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
RUNS=${RUNS:-3}
VENV=${VENV:-target/spark-venv}
cargo build --release --quiet
BIN=$PWD/target/release/sudoku-batch
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export PATH="$PWD/$VENV/bin:$PATH" PYSPARK_PYTHON="$PWD/$VENV/bin/python"

hard="$SHARED/data/sudoku_exchange/hard.txt"
forum="$SHARED/data/tdoku/puzzles5_forum_hardest_1905_11+"
cp "$hard" "$TMP/hard.txt"
for _ in 1 2 3 4 5 6; do cat "$forum"; done > "$TMP/forum_hardest_x6.txt"

now() { date +%s%N; }
secs() { printf "%.2f\n" "$(echo "($2 - $1) / 1000000000" | bc -l)"; }
best() { sort -n | head -1; }

# one spark-submit run; prints its whole time and the job's own time (the example prints it)
submit() {
    local t0 t1
    rm -rf "$TMP/out"
    t0=$(now)
    spark-submit --master 'local[2]' --files "$BIN" examples/spark/solve_dataset.py \
        --partitions 2 "$@" > "$TMP/log" 2>&1
    t1=$(now)
    echo "$(secs "$t0" "$t1") $(sed -n 's/^solve_dataset: .* in \([0-9.]*\) s$/\1/p' "$TMP/log")"
}

echo "| input | records | binary alone -j2 | route | spark-submit | write CSV job | status-count job |"
echo "|---|---|---|---|---|---|---|"
for input in "$TMP/hard.txt" "$TMP/forum_hardest_x6.txt"; do
    records=$(wc -l < "$input")
    alone=$(for _ in $(seq "$RUNS"); do
        t0=$(now); "$BIN" solve -q -j2 --no-timings -I line -O csv -o "$TMP/alone.csv" "$input"; t1=$(now)
        secs "$t0" "$t1"
    done | best)
    for route in sql rdd; do
        : > "$TMP/write"; : > "$TMP/count"
        for _ in $(seq "$RUNS"); do
            submit "$input" "$TMP/out" --route "$route" >> "$TMP/write"
            # one output row per input line (each CSV part has its header)
            rows=$(cat "$TMP"/out/part-*.csv | wc -l)
            parts=$(find "$TMP/out" -name 'part-*.csv' | wc -l)
            [ $((rows - parts)) = "$records" ] || { echo "rows $rows, parts $parts" >&2; exit 1; }
            submit "$input" --output-format summary --route "$route" >> "$TMP/count"
        done
        echo "| $(basename "$input") | $records | $alone s | $route | $(cut -d' ' -f1 "$TMP/write" | best) s" \
            "| $(cut -d' ' -f2 "$TMP/write" | best) s | $(cut -d' ' -f2 "$TMP/count" | best) s |"
    done
done
