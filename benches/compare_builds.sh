#!/usr/bin/env bash
# Whole-process time of two builds of sudoku-batch on the same inputs, run interleaved (old, new,
# old, new, ...), best of RUNS each: to show that a change to reading, writing or the pipeline
# costs nothing. Prints a Markdown table with the ratio new / old (below 1: the new build is
# faster). Outputs are compared too (--no-timings, so equal answers give equal bytes).
#
#   bash benches/compare_builds.sh OLD_BINARY [NEW_BINARY]      (new: this tree's release build)
#
# To build an old commit beside this tree:
#   git worktree add /tmp/base COMMIT && (cd /tmp/base && CARGO_TARGET_DIR=/tmp/basetarget \
#       cargo build --release) && bash benches/compare_builds.sh /tmp/basetarget/release/sudoku-batch
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
RUNS=${RUNS:-5}
OLD=$(realpath "$1")
if [ $# -ge 2 ]; then
    NEW=$(realpath "$2")
else
    cargo build --release --quiet
    NEW=$PWD/target/release/sudoku-batch
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

kaggle="$SHARED/data/csv/kaggle_quizzes_solutions_20k.csv"
hard="$SHARED/data/sudoku_exchange/hard.txt"
forum="$SHARED/data/tdoku/puzzles5_forum_hardest_1905_11+"
# 1M Kaggle rows: the header once, then the 20k rows 50 times (the file has no final LF)
{ sed -e '$a\' "$kaggle"; for _ in $(seq 49); do tail -n +2 "$kaggle" | sed -e '$a\'; done; } \
    > "$TMP/kaggle1m.csv"

secs() { # seconds taken by a command, stdout to $TMP/out
    local t0 t1
    t0=$(date +%s%N)
    "$@" > "$TMP/out" 2>/dev/null
    t1=$(date +%s%N)
    echo "scale=6; ($t1 - $t0) / 1000000000" | bc
}
min() { if [ "$(echo "$1 < $2" | bc)" = 1 ]; then echo "$1"; else echo "$2"; fi; }

# case name | arguments after the binary ("STDIN:FILE" as the last word reads FILE from stdin)
cases=(
    "kaggle 1M rows, -O csv, -j1|solve -q -j1 --no-timings -O csv $TMP/kaggle1m.csv"
    "kaggle 1M rows, -O csv, -j2|solve -q -j2 --no-timings -O csv $TMP/kaggle1m.csv"
    "kaggle 1M rows, check -O jsonl, -j2|check -q -j2 -O jsonl $TMP/kaggle1m.csv"
    "hard.txt (321k), -j1|solve -q -j1 $hard"
    "hard.txt (321k), -j2|solve -q -j2 $hard"
    "hard.txt (321k) on stdin, -j2|solve -q -j2 - STDIN:$hard"
    "forum_hardest (49k), -j1|solve -q -j1 $forum"
)

echo "| case | old s | new s | new / old | same output |"
echo "|---|---|---|---|---|"
for case in "${cases[@]}"; do
    name=${case%%|*}
    read -r -a args <<< "${case#*|}"
    stdin=/dev/null
    last=${args[${#args[@]}-1]}
    if [[ $last == STDIN:* ]]; then
        stdin=${last#STDIN:}
        unset 'args[${#args[@]}-1]'
    fi
    best_old=1000000
    best_new=1000000
    for _ in $(seq "$RUNS"); do
        best_old=$(min "$best_old" "$(secs "$OLD" "${args[@]}" < "$stdin")")
        cp "$TMP/out" "$TMP/old.out"
        best_new=$(min "$best_new" "$(secs "$NEW" "${args[@]}" < "$stdin")")
    done
    same=$(cmp -s "$TMP/old.out" "$TMP/out" && echo yes || echo no)
    printf '| %s | %.3f | %.3f | %.2f | %s |\n' "$name" "$best_old" "$best_new" \
        "$(echo "scale=4; $best_new / $best_old" | bc)" "$same"
done
