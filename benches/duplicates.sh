#!/usr/bin/env bash
# Isomorphic duplicates (issue 14): `check` against `check --duplicates` and `check --duplicates=iso`
# on the same corpus, whole process, -j2, best of RUNS runs each, side by side in one run; and
# `canon -j1` / `canon -j2` (forms per second through the whole pipeline). Ratios are to plain
# `check`. The machine is noisy: quote ratios from one session. Then the tables' memory per
# distinct puzzle (skip with NO_MEMORY=1).
#
#   bash benches/duplicates.sh                 # 17-clue, forum_hardest, Kaggle 20k
#   RUNS=7 bash benches/duplicates.sh FILE...  # other corpora
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
RUNS=${RUNS:-5}
TARGET=${CARGO_TARGET_DIR:-target}

cargo build --release --quiet
OURS=$TARGET/release/sudoku-batch

if [ $# -eq 0 ]; then
    set -- "$SHARED/data/tdoku/puzzles2_17_clue" "$SHARED/data/tdoku/puzzles5_forum_hardest_1905_11+" \
        "$SHARED/data/csv/kaggle_quizzes_solutions_20k.csv"
fi

# best wall time in seconds of RUNS runs of "$@" (exit 1, problems found, is not a failure)
best() {
    local best=1000000000000 t0 t1
    for _ in $(seq "$RUNS"); do
        t0=$(date +%s%N)
        "$@" > /dev/null || [ $? -eq 1 ]
        t1=$(date +%s%N)
        [ $((t1 - t0)) -lt "$best" ] && best=$((t1 - t0))
    done
    echo "$best"
}

printf '%-36s %8s %9s %9s %9s %9s %9s %11s\n' corpus records check exact iso iso/check canon_j1 canon_j2_r/s
for f in "$@"; do
    n=$(grep -cv '^#' "$f" || true)
    plain=$(best "$OURS" check -q -j2 "$f")
    exact=$(best "$OURS" check -q -j2 --duplicates "$f")
    iso=$(best "$OURS" check -q -j2 --duplicates=iso "$f")
    c1=$(best "$OURS" canon -q -j1 "$f")
    c2=$(best "$OURS" canon -q -j2 "$f")
    awk -v name="$(basename "$f")" -v n="$n" -v p="$plain" -v e="$exact" -v i="$iso" -v c1="$c1" -v c2="$c2" \
        'BEGIN { printf "%-36s %8d %8.3fs %8.3fs %8.3fs %9.2f %8.3fs %11.0f\n", name, n, p/1e9, e/1e9, i/1e9, i/p, c1/1e9, n/(c2/1e9) }'
done

# Memory of the duplicate tables: peak RSS of `check --duplicates` and `--duplicates=iso` over
# plain `check`, per distinct puzzle, on every shared line corpus at once (about 552k puzzles,
# nearly all distinct). Needs GNU time (/usr/bin/time).
if [ -z "${NO_MEMORY:-}" ] && [ -x /usr/bin/time ]; then
    all=$(mktemp)
    trap 'rm -f "$all"' EXIT
    cat "$SHARED"/data/tdoku/* "$SHARED"/data/sudoku_exchange/* | grep -v '^#' > "$all"
    rss() { /usr/bin/time -f '%M' "$OURS" check -q -j2 "$@" "$all" 2>&1 >/dev/null | tail -1; }
    # distinct puzzles: records less the duplicates check reports
    distinct() {
        "$OURS" check -j2 --max-problems 0 "$@" "$all" 2>&1 >/dev/null |
            awk '/records:/ { for (i = 1; i <= NF; i++) if ($i ~ /^duplicate/) d = $(i - 1); n = $1 }
                 END { print n - d }'
    }
    plain=$(rss)
    printf '\n%-18s %10s %10s %14s\n' mode distinct peak_KiB bytes/distinct
    for mode in --duplicates --duplicates=iso; do
        peak=$(rss "$mode")
        n=$(distinct "$mode")
        awk -v m="$mode" -v n="$n" -v p="$peak" -v b="$plain" \
            'BEGIN { printf "%-18s %10d %10d %14.0f\n", m, n, p, (p - b) * 1024 / n }'
    done
    echo "(plain check: $plain KiB)"
fi
