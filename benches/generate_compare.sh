#!/usr/bin/env bash
# `generate` against the peers' generators, side by side in one run (issue 28's proof):
#
# 1. speed, one core pinned (CORE), whole process, N minimal puzzles of one seed: ours -j1 against
#    the `sudoku` crate's generator (../shared/peer: `peer_bench gen`) and qqwing (when installed;
#    its puzzles are not minimal, a row for scale), alternating, best of RUNS each;
# 2. -j2 against -j1 (wall, best of RUNS), and CPU seconds (user + sys) per record, which a busy
#    second core does not inflate;
# 3. `--guesses A..`: the time for 20 puzzles on two threads and the guesses reached, at a few
#    targets;
# 4. the number of givens of plain generation next to tdoku's unbiased sample.
#
#   bash benches/generate_compare.sh            # N=20000 RUNS=5 CORE=0
#   N=5000 RUNS=3 bash benches/generate_compare.sh
#
# Build first, time after: the script builds both, then times; do not run it beside a build.
set -euo pipefail
cd "$(dirname "$0")/.."
# ../shared beside the main checkout, ../../shared beside a work tree in wt/
SHARED=${SHARED:-$([ -d ../shared ] && echo ../shared || echo ../../shared)}
N=${N:-20000}
RUNS=${RUNS:-5}
CORE=${CORE:-0}
PEER_TARGET=${PEER_TARGET:-target/peer}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

cargo build --release --quiet
cargo build --release --quiet --manifest-path "$SHARED/peer/Cargo.toml" --target-dir "$PEER_TARGET" 2>/dev/null
OURS=${CARGO_TARGET_DIR:-target}/release/sudoku-batch
PEER=$PEER_TARGET/release/peer_bench

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) logical CPUs; $(date -u +%FT%TZ); commit $(git rev-parse --short HEAD)"
echo "load before timing: $(cut -d' ' -f1-3 /proc/loadavg)"

# wall seconds (to the microsecond) and user+sys seconds (to 10 ms) of a command, its output
# discarded
run() {
    local t0 t1
    t0=$(date +%s%N)
    if ! /usr/bin/time -f '%U %S' -o "$TMP/t" "$@" >/dev/null 2>"$TMP/err"; then
        # say so: the caller's `read` would otherwise end the script without a word
        echo "generate_compare: failed: $*" >&2
        grep -v '^Command exited' "$TMP/err" | tail -n 3 >&2
        exit 1
    fi
    t1=$(date +%s%N)
    awk -v w="$(( (t1 - t0) / 1000 ))" '{printf "%.6f %.3f\n", w / 1000000, $1 + $2}' "$TMP/t"
}
min() { if [ "$(echo "$1 < $2" | bc)" = 1 ]; then echo "$1"; else echo "$2"; fi; }
us() { echo "scale=2; 1000000 * $1 / $2" | bc; }

echo
echo "## 1. $N minimal puzzles, one thread pinned to core $CORE, best of $RUNS (alternating)"
best_ours=1000000000; best_peer=1000000000; best_qq=1000000000
# qqwing is about 40 times slower than the others: a tenth of the puzzles, scaled
NQ=$(( N / 10 ))
have_qq=$(command -v qqwing >/dev/null && echo yes || echo no)
for _ in $(seq "$RUNS"); do
    read -r w _ < <(run taskset -c "$CORE" "$OURS" generate -q -j1 -n "$N" --seed 1 -o "$TMP/ours.txt")
    best_ours=$(min "$best_ours" "$w")
    read -r w _ < <(run taskset -c "$CORE" "$PEER" gen "$N" "$TMP/peer.txt" --seed 1)
    best_peer=$(min "$best_peer" "$w")
    if [ "$have_qq" = yes ]; then
        read -r w _ < <(run taskset -c "$CORE" qqwing --generate "$NQ" --one-line --difficulty any)
        best_qq=$(min "$best_qq" "$w")
    fi
done
printf '| generator | s | µs/puzzle | ratio to ours |\n|---|---|---|---|\n'
printf '| sudoku-batch generate -j1 | %.3f | %s | 1.00 |\n' "$best_ours" "$(us "$best_ours" "$N")"
printf '| sudoku crate (peer_bench gen) | %.3f | %s | %.2f |\n' "$best_peer" "$(us "$best_peer" "$N")" \
    "$(echo "scale=4; $best_peer / $best_ours" | bc)"
if [ "$have_qq" = yes ]; then
        qq=$(echo "scale=6; $best_qq * $N / $NQ" | bc)
    printf '| qqwing --generate (not minimal; %s puzzles, scaled) | %.3f | %s | %.2f |\n' "$NQ" "$qq" \
        "$(us "$qq" "$N")" "$(echo "scale=4; $qq / $best_ours" | bc)"
fi
# both outputs' records are checked for one solution and minimality by check
bad=$(cut -d' ' -f1 "$TMP/ours.txt" | "$OURS" check --minimal -q - 2>&1 | grep -c 'not minimal\|multiple' || true)
echo "ours: $(wc -l <"$TMP/ours.txt") records, $bad not unique or not minimal (check --minimal)"

echo
echo "## 2. -j2 against -j1, $N records, best of $RUNS (alternating)"
b1=1000000000; b2=1000000000; c1=1000000000; c2=1000000000
for _ in $(seq "$RUNS"); do
    read -r w c < <(run "$OURS" generate -q -j1 -n "$N" --seed 2 -o "$TMP/j1.txt")
    b1=$(min "$b1" "$w"); c1=$(min "$c1" "$c")
    read -r w c < <(run "$OURS" generate -q -j2 -n "$N" --seed 2 -o "$TMP/j2.txt")
    b2=$(min "$b2" "$w"); c2=$(min "$c2" "$c")
done
cmp -s "$TMP/j1.txt" "$TMP/j2.txt" && same=yes || same=no
printf -- '-j1 %.3f s, -j2 %.3f s: %.2fx; CPU a record -j1 %s µs, -j2 %s µs; same bytes: %s\n' \
    "$b1" "$b2" "$(echo "scale=4; $b1 / $b2" | bc)" "$(us "$c1" "$N")" "$(us "$c2" "$N")" "$same"

echo
echo "## 3. --guesses A..: 20 puzzles, -j2"
for target in 20.. 50.. 80..; do
    read -r w c < <(run "$OURS" generate -q -j2 -n 20 --seed 1 --guesses "$target" -O csv -o "$TMP/hard.csv")
    dist=$(tail -n +2 "$TMP/hard.csv" | cut -d, -f4 | sort -n | awk '{a[NR]=$1} END {printf "min %d, median %d, max %d", a[1], a[int((NR+1)/2)], a[NR]}')
    tries=$(tail -n +2 "$TMP/hard.csv" | awk -F, '{t+=$6} END {printf "%.0f", t/NR}')
    printf -- '--guesses %-5s %7.2f s (%.2f puzzles/s, CPU %.1f s), %s tries a puzzle; guesses reached: %s\n' \
        "$target" "$w" "$(echo "scale=4; 20 / $w" | bc)" "$c" "$tries" "$dist"
done

echo
echo "## 4. givens: plain generation ($N records of seed 1) against tdoku's unbiased sample"
dist() {
    awk '{n++; c[$1]++; s+=$1} END {printf "mean %.2f:", s/n; for (k=20; k<=30; k++) if (c[k]) printf " %d:%.1f%%", k, 100*c[k]/n; print ""}'
}
printf 'ours:     '; awk '{print $3}' "$TMP/ours.txt" | dist
printf 'crate:    '; awk '{p=substr($0,1,81); print gsub(/[1-9]/,"",p)}' "$TMP/peer.txt" | dist
printf 'unbiased: '; grep -v '^#' "$SHARED/data/tdoku/puzzles1_unbiased_first1000" |
    awk '{p=substr($0,1,81); print gsub(/[1-9]/,"",p)}' | dist
printf 'guesses of plain generation (ours): '
awk '{g=$4; n++; if (g==0) a++; else if (g==1) b++; else if (g<=5) c++; else if (g<=20) d++; else e++}
    END {printf "0: %.1f%%, 1: %.1f%%, 2-5: %.1f%%, 6-20: %.1f%%, over 20: %.2f%%\n", 100*a/n, 100*b/n, 100*c/n, 100*d/n, 100*e/n}' "$TMP/ours.txt"
echo "load after timing: $(cut -d' ' -f1-3 /proc/loadavg)"
