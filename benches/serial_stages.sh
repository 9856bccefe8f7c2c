#!/usr/bin/env bash
# What the serial stages of `solve` cost a record, measured: callgrind instructions of the
# reading thread and of the writing thread of `solve -j2` (threads counted apart), on Kaggle
# rows 100k and 1M times over. The difference between the two runs over the 900k records more is
# what a record adds (start-up and teardown cancel out). A stage that costs N instructions a
# record caps a run on any number of cores near (instructions per second) / N records/s; the
# kernel's copies (a read of the input, a write of the output) are not instructions of the
# process and are not counted: see BENCHMARKS.md for them.
#
#   bash benches/serial_stages.sh [OUTPUT_FORMAT]      (needs valgrind; about 2 minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
FORMAT=${1:-csv}
command -v valgrind > /dev/null || { echo "valgrind is needed" >&2; exit 1; }
cargo build --release --quiet
BIN=$PWD/target/release/sudoku-batch
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

kaggle="$SHARED/data/csv/kaggle_quizzes_solutions_20k.csv"
for copies in 5 50; do
    { sed -e '$a\' "$kaggle"; for _ in $(seq $((copies - 1))); do tail -n +2 "$kaggle" | sed -e '$a\'; done; } \
        > "$TMP/k$copies.csv"
    valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$TMP/cg$copies" \
        "$BIN" solve -q -j2 --no-timings -O "$FORMAT" "$TMP/k$copies.csv" > /dev/null 2> "$TMP/log$copies"
done

# thread 1 reads (the main thread); the pool's threads start next, the writing thread last
python3 - "$TMP" <<'EOF'
import glob, re, sys
tmp = sys.argv[1]
def threads(copies):
    counts = []
    for path in sorted(glob.glob(f"{tmp}/cg{copies}-*")):
        text = open(path).read()
        counts.append(int(re.search(r"^(?:summary|totals): (\d+)", text, re.M).group(1)))
    return counts
small, large = threads(5), threads(50)
records = (50 - 5) * 20000
names = ["reading thread"] + [f"pool thread {i}" for i in range(len(small) - 2)] + ["writing thread"]
print("| thread | instructions, 100k rows | instructions, 1M rows | a record adds |")
print("|---|---|---|---|")
for name, a, b in zip(names, small, large):
    print(f"| {name} | {a:,} | {b:,} | {(b - a) / records:.1f} |")
EOF
