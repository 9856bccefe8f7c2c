#!/usr/bin/env bash
# check's speed target (issue 3): `sudoku-batch check -j2` over a corpus, whole process, against the
# `sudoku` crate's single-threaded in-memory uniqueness search (`peer_bench bench rust_sudoku_unique`,
# its best pass) on the same corpus. Prints both and their ratio (below 1: we are faster); each of our
# figures is the best of RUNS runs. The machine is noisy: quote ratios from one session.
#
#   bash benches/check_compare.sh                 # the two corpora of the issue
#   RUNS=7 bash benches/check_compare.sh FILE...  # other corpora
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
RUNS=${RUNS:-3}
PEER_TARGET=${PEER_TARGET:-target/peer}
TARGET=${CARGO_TARGET_DIR:-target}

cargo build --release --quiet
cargo build --release --quiet --manifest-path "$SHARED/peer/Cargo.toml" --target-dir "$PEER_TARGET"
OURS=$TARGET/release/sudoku-batch
PEER=$PEER_TARGET/release/peer_bench

if [ $# -eq 0 ]; then
    set -- "$SHARED/data/tdoku/puzzles2_17_clue" "$SHARED/data/tdoku/puzzles5_forum_hardest_1905_11+"
fi

printf '%-40s %12s %12s %8s\n' corpus "check_-j2_s" "peer_mem_s" "ratio"
for f in "$@"; do
    best=1000000000
    for _ in $(seq "$RUNS"); do
        t0=$(date +%s%N)
        "$OURS" check -j2 -q "$f" || [ $? -eq 1 ] # problems found are not a failure here
        t1=$(date +%s%N)
        best=$(echo "t = ($t1 - $t0) / 1000000000; if (t < $best) t else $best" | bc -l)
    done
    peer=$("$PEER" bench rust_sudoku_unique "$f" | tr '\t' '\n' | sed -n 's/^best_pass_s=//p')
    printf '%-40s %12.4f %12.4f %8.2f\n' "$(basename "$f")" "$best" "$peer" "$(echo "$best / $peer" | bc -l)"
done
