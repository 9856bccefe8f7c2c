#!/usr/bin/env bash
# The solver against tdoku (issue 30): µs a puzzle and guesses a puzzle, ours / tdoku, per corpus,
# limit 1 and 2, the puzzles as published and shuffled (`bench --shuffle 1`), one pinned core,
# interleaved, the better of RUNS runs each. tdoku is not built here: build it as
# ../shared/peer/README.md says and pass its `run_benchmark`.
#
#   bash benches/tdoku_compare.sh /path/to/tdoku/build/run_benchmark [CORPUS...]
#
# Guesses are counted differently by the two: tdoku counts branch points (each binary split
# once), ours counts alternatives tried beyond the first at a branch point (see
# `solver::Outcome::guesses`). At limit 2 nearly every branch is searched to its end, so both
# then count about one per branch point and the columns compare; at limit 1 ours counts
# backtracks only.
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
RUNS=${RUNS:-2}
CORE=${CORE:-0}
TDOKU=$(realpath "$1")
shift
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

cargo build --release --quiet
OURS=${CARGO_TARGET_DIR:-target}/release/sudoku-batch

if [ $# -eq 0 ]; then
    D=$SHARED/data/tdoku
    set -- "$D/puzzles2_17_clue" "$D/puzzles3_magictour_top1465" "$D/puzzles5_forum_hardest_1905_11+" \
        "$D/puzzles6_forum_hardest_1106" "$D/puzzles7_serg_benchmark" "$D/puzzles1_unbiased_first1000" \
        "$SHARED/data/csv/kaggle_quizzes_solutions_20k.csv"
fi

# "µs guesses" of ours on a puzzle file
ours() {
    taskset -c "$CORE" "$OURS" bench -j1 --limit "$2" --min-seconds 1 --rounds 3 -q --export-json - "$1" |
        python3 -c 'import json,sys; d=json.load(sys.stdin)["datasets"][0]; print(d["usec_per_puzzle"], d["guesses_per_puzzle"])'
}
# "µs guesses" of tdoku on a puzzle file
tdoku() {
    local first=()
    [ "$2" = 1 ] && first=(-f)
    taskset -c "$CORE" "$TDOKU" -s tdoku -r0 -n "$(grep -c . "$1")" -w 1 -t 3 "${first[@]}" -c 1 "$1" 2>/dev/null |
        tail -1 | awk -F, '{ print $7, $9 }'
}
better() { awk -v a="$1" -v b="$2" 'BEGIN { print (b == "" || a + 0 < b + 0) ? a : b }'; }

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); tdoku: $("$TDOKU" -h 2>&1 | grep 'build info' | cut -d: -f2-)"
echo
echo "| corpus | limit | order | ours µs | tdoku µs | ours / tdoku | ours guesses | tdoku guesses |"
echo "|---|--:|---|--:|--:|--:|--:|--:|"
for corpus in "$@"; do
    name=$(basename "$corpus")
    for order in published shuffled; do
        shuffle=()
        [ "$order" = shuffled ] && shuffle=(--shuffle 1)
        "$OURS" bench -j1 --limit 1 --min-seconds 0 --rounds 1 -q "${shuffle[@]}" \
            --write-puzzles "$TMP/p.txt" "$corpus"
        for limit in 1 2; do
            best_ours="" best_tdoku="" g_ours="" g_tdoku=""
            for _ in $(seq "$RUNS"); do
                read -r us g < <(ours "$TMP/p.txt" "$limit")
                best_ours=$(better "$us" "$best_ours"); g_ours=$g
                read -r us g < <(tdoku "$TMP/p.txt" "$limit")
                best_tdoku=$(better "$us" "$best_tdoku"); g_tdoku=$g
            done
            awk -v c="$name" -v l="$limit" -v o="$order" -v a="$best_ours" -v b="$best_tdoku" \
                -v ga="$g_ours" -v gb="$g_tdoku" \
                'BEGIN { printf "| %s | %s | %s | %.3f | %.3f | %.2f | %.2f | %.2f |\n", c, l, o, a, b, a / b, ga, gb }'
        done
    done
done
