#!/usr/bin/env bash
# Does the whole pipeline scale on easy data? Whole-process time of `solve` at -j1 and -j2 for
# each output format, against the solver alone on the same puzzles in memory (`bench -j2`), on
# the 1M-row Kaggle CSV and hard.txt x 4. Best of RUNS; prints a Markdown table: -j2 speedup over
# -j1 (target 1.8x) and -j2 whole process / bench -j2 (target at most 1.3). Then the serial
# reader alone (cutting blocks, benches/io.rs read_blocks) on the same files: the records/s it
# reaches cap a run of a stream, or of a file at -j1, on any number of cores.
#
#   bash benches/scaling.sh [OLD_BINARY]
#
# With OLD_BINARY (another build, see compare_builds.sh), its -j1 and -j2 times are measured in
# the same loop and the table adds them: "-j1 no slower than before".
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
RUNS=${RUNS:-5}
cargo build --release --quiet
BIN=$PWD/target/release/sudoku-batch
OLD=${1:+$(realpath "$1")}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

kaggle="$SHARED/data/csv/kaggle_quizzes_solutions_20k.csv"
hard="$SHARED/data/sudoku_exchange/hard.txt"
# 1M Kaggle rows: the header once, then the 20k rows 50 times (the file has no final LF)
{ sed -e '$a\' "$kaggle"; for _ in $(seq 49); do tail -n +2 "$kaggle" | sed -e '$a\'; done; } \
    > "$TMP/kaggle1m.csv"
for _ in 1 2 3 4; do cat "$hard"; done > "$TMP/hard_x4.txt"

secs() { # best of RUNS, seconds
    local t0 t1
    for _ in $(seq "$RUNS"); do
        t0=$(date +%s%N)
        "$@" > /dev/null 2>&1
        t1=$(date +%s%N)
        printf "%.3f\n" "$(echo "($t1 - $t0) / 1000000000" | bc -l)"
    done | sort -n | head -1
}
ratio() { printf "%.2f" "$(echo "$1 / $2" | bc -l)"; }

head="| input | records | output | -j1 | -j2 | -j2 speedup | bench -j2 (in memory) | -j2 / bench |"
rule="|---|---|---|---|---|---|---|---|"
if [ -n "$OLD" ]; then
    head="$head old -j1 | old -j2 | -j1 new / old | -j2 new / old |"
    rule="$rule---|---|---|---|"
fi
echo "$head"
echo "$rule"
for input in "$TMP/kaggle1m.csv" "$TMP/hard_x4.txt"; do
    "$BIN" bench -q -j2 --min-seconds 1 --rounds "$RUNS" --export-csv "$TMP/bench.csv" "$input"
    memory=$(python3 -c '
import csv, sys
row = next(csv.DictReader(open(sys.argv[1])))
print("%.4f" % (float(row["usec_per_puzzle"]) * int(row["puzzles"]) / 1e6))
' "$TMP/bench.csv")
    records=$(python3 -c 'import csv, sys; print(next(csv.DictReader(open(sys.argv[1])))["records"])' "$TMP/bench.csv")
    for format in line csv jsonl; do
        j1=$(secs "$BIN" solve -q -j1 --no-timings -O "$format" "$input")
        j2=$(secs "$BIN" solve -q -j2 --no-timings -O "$format" "$input")
        row="| $(basename "$input") | $records | $format | $j1 s | $j2 s | $(ratio "$j1" "$j2")x"
        row="$row | $memory s | $(ratio "$j2" "$memory") |"
        if [ -n "$OLD" ]; then
            o1=$(secs "$OLD" solve -q -j1 --no-timings -O "$format" "$input")
            o2=$(secs "$OLD" solve -q -j2 --no-timings -O "$format" "$input")
            row="$row $o1 s | $o2 s | $(ratio "$j1" "$o1") | $(ratio "$j2" "$o2") |"
        fi
        echo "$row"
    done
done

# The serial reader alone: cutting the same inputs into blocks (benches/io.rs, read_blocks),
# nothing parsed or solved. It reads streams (stdin, compressed input) and files at -j1; its
# records/s cap a run of those on any number of cores. With more threads a file is read in
# chunks by the pool, and the reading thread copies nothing (benches/serial_stages.sh).
echo
echo "Serial reader alone (read_blocks; streams, and files at -j1): records/s, the cap on any core count"
echo
IO_BENCH_CSV="$TMP/kaggle1m.csv" IO_BENCH_LINE="$TMP/hard_x4.txt" \
    cargo bench --quiet --bench io -- read_blocks 2>&1 | grep -E "fastest|read_blocks|csv|line|item/s"
