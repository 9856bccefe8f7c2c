#!/usr/bin/env bash
# Whole-process speed against the speed peer (the `sudoku` crate via ../shared/peer), side by side in
# one run: file in -> solutions out, one solver thread, pinned to one core; then our 2-thread speedup
# and peak memory on a 3.9M-record stream. Prints ratios; the machine is noisy, so each figure is the
# best of RUNS alternating runs.
#
#   bash benches/peer_compare.sh                 # default corpora
#   RUNS=7 bash benches/peer_compare.sh FILE...  # other corpora
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
RUNS=${RUNS:-5}
PEER_TARGET=${PEER_TARGET:-target/peer}
CORE=${CORE:-0}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

cargo build --release --quiet
cargo build --release --quiet --manifest-path "$SHARED/peer/Cargo.toml" --target-dir "$PEER_TARGET"
OURS=${CARGO_TARGET_DIR:-target}/release/sudoku-batch
PEER=$PEER_TARGET/release/peer_bench

if [ $# -eq 0 ]; then
    set -- "$SHARED/data/tdoku/puzzles2_17_clue" "$SHARED/data/tdoku/puzzles5_forum_hardest_1905_11+"
fi

# seconds taken by a command, to the microsecond
secs() {
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null 2>&1
    t1=$(date +%s%N)
    echo "scale=6; ($t1 - $t0) / 1000000000" | bc
}
min() { if [ "$(echo "$1 < $2" | bc)" = 1 ]; then echo "$1"; else echo "$2"; fi; }

printf '%-40s %10s %10s %8s %s\n' corpus "ours_s" "peer_s" "ratio" "same_output"
for f in "$@"; do
    best_ours=1000000000
    best_peer=1000000000
    for _ in $(seq "$RUNS"); do
        best_ours=$(min "$best_ours" "$(secs taskset -c "$CORE" "$OURS" solve -q -j1 -I line -O line "$f" -o "$TMP/ours")")
        best_peer=$(min "$best_peer" "$(secs taskset -c "$CORE" "$PEER" pipe rust_sudoku "$f" "$TMP/peer")")
    done
    same=$(cmp -s "$TMP/ours" "$TMP/peer" && echo yes || echo no)
    printf '%-40s %10.4f %10.4f %8.2f %s\n' "$(basename "$f")" "$best_ours" "$best_peer" \
        "$(echo "scale=4; $best_ours / $best_peer" | bc)" "$same"
done

hard="$SHARED/data/tdoku/puzzles5_forum_hardest_1905_11+"
if [ -f "$hard" ]; then
    best1=1000000000
    best2=1000000000
    for _ in $(seq "$RUNS"); do
        best1=$(min "$best1" "$(secs "$OURS" solve -q -j1 "$hard" -o /dev/null)")
        best2=$(min "$best2" "$(secs "$OURS" solve -q -j2 "$hard" -o /dev/null)")
    done
    printf '\n2-thread speedup on %s: %.2fx (%.4f s -> %.4f s)\n' "$(basename "$hard")" \
        "$(echo "scale=4; $best1 / $best2" | bc)" "$best1" "$best2"
fi

big="$SHARED/data/sudoku_exchange/hard.txt"
if [ -f "$big" ]; then
    inputs=()
    for _ in $(seq 12); do inputs+=("$big"); done
    /usr/bin/time -f '%M %e' -o "$TMP/rss" "$OURS" solve -q "${inputs[@]}" -o "$TMP/big.out"
    read -r kib wall < "$TMP/rss"
    printf '12 x hard.txt: %s records out, peak RSS %.1f MiB, %s s\n' "$(wc -l < "$TMP/big.out")" \
        "$(echo "scale=1; $kib / 1024" | bc)" "$wall"
fi
