#!/usr/bin/env bash
# `rate -j1` against Sudoku Explainer's serate, one core each (both pinned to the same core with
# taskset, taking turns), same puzzles, same run: puzzles a second per band of serate's ER and on
# a mixed set, and the ratio. Not run by CI: serate is a Java program built apart (see
# tests/fixtures/se/README.md), and it takes about ten minutes here.
#
#   bash benches/rate_compare.sh SERATE_CLASSPATH
#   e.g. bash benches/rate_compare.sh /path/to/se/out:/usr/share/java/json-simple.jar
#
# The puzzles are fixtures serate has rated (tests/fixtures/se/out, the forum's hardest lists
# left out: serate takes minutes to hours on each), taken evenly through each band: LOW (default
# 300) below 6.5, MID (40) at 6.5-7.9, HIGH (12) at 8.0 and up, and MIXED (120) evenly through all
# of them, so the mix is the fixtures' own. serate runs each file once, then the file COPIES
# (default 3) times over in one JVM: the first gives its whole-process speed, the difference its
# speed once warm (JIT compiled; the fairer figure to serate), over COPIES - 1 copies because one
# copy's difference moved by half between runs (its JIT compiles on the core it is timed on).
# Ours runs the same file repeated REPEAT times (default 20) so that the time is measurable, best
# of RUNS (3), whole process. Both answers are checked against the fixtures' ratings.
set -euo pipefail
cd "$(dirname "$0")/.."
CP=${1:?usage: rate_compare.sh SERATE_CLASSPATH}
LOW=${LOW:-300} MID=${MID:-40} HIGH=${HIGH:-12} MIXED=${MIXED:-120}
REPEAT=${REPEAT:-20} RUNS=${RUNS:-3} CORE=${CORE:-0} COPIES=${COPIES:-3}
case $COPIES in
    [2-9] | [1-9][0-9]) ;;
    *) echo "rate_compare.sh: COPIES must be a whole number from 2 to 99 (got '$COPIES')" >&2; exit 2 ;;
esac
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

cargo build --release --quiet
OURS=${CARGO_TARGET_DIR:-target}/release/sudoku-batch

# serate's rated fixtures: "PUZZLE ER EP ED", the hardest lists and timeouts left out
for f in tests/fixtures/se/out/*.txt; do
    case $(basename "$f") in hardest*) continue ;; esac
    sed -n 's#^\([^ ]*\) ED=\([0-9.]*\)/\([0-9.]*\)/\([0-9.]*\)$#\1 \2 \3 \4#p' "$f"
done >"$TMP/all"
# every k-th line of a band, k chosen so that about N come out
pick() { # N AWK_CONDITION_ON_$2
    awk -v n="$1" "$2" "$TMP/all" >"$TMP/band"
    awk -v n="$1" -v total="$(wc -l <"$TMP/band")" \
        'BEGIN { k = total / n; if (k < 1) k = 1 } NR - 1 >= next_at && c < n { print; c++; next_at += k }' "$TMP/band"
}
pick "$LOW" '$2 < 6.5' >"$TMP/low.want"
pick "$MID" '$2 >= 6.5 && $2 < 8.0' >"$TMP/mid.want"
pick "$HIGH" '$2 >= 8.0' >"$TMP/high.want"
pick "$MIXED" '1' >"$TMP/mixed.want"

secs() { # seconds a command takes, to the microsecond
    local t0 t1
    t0=$(date +%s%N)
    "$@"
    t1=$(date +%s%N)
    echo "scale=6; ($t1 - $t0) / 1000000000" | bc
}
serate() { # IN OUT
    taskset -c "$CORE" java -cp "$CP" diuf.sudoku.test.serate --format='%g ED=%r/%p/%d' \
        --input="$1" >"$2" 2>/dev/null
}
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), one core each (taskset -c $CORE)"
echo
echo "| set | puzzles | serate s (once / x$COPIES) | serate puzzles/s (whole / warm) | rate -j1 s (x$REPEAT) | rate -j1 puzzles/s | ratio to serate whole / warm | same ratings |"
echo "|---|---:|---:|---:|---:|---:|---:|---|"
for band in low mid high mixed; do
    want=$TMP/$band.want
    n=$(wc -l <"$want")
    cut -d' ' -f1 "$want" >"$TMP/$band.txt"
    for _ in $(seq "$REPEAT"); do cat "$TMP/$band.txt"; done >"$TMP/$band.rep"
    ours=1000000
    for _ in $(seq "$RUNS"); do
        t=$(secs taskset -c "$CORE" "$OURS" rate -q -j1 -O line "$TMP/$band.rep" -o "$TMP/ours.out")
        ours=$(echo "if ($t < $ours) $t else $ours" | bc)
    done
    se=$(secs serate "$TMP/$band.txt" "$TMP/serate.out")
    for _ in $(seq "$COPIES"); do cat "$TMP/$band.txt"; done >"$TMP/$band.copies"
    se2=$(secs serate "$TMP/$band.copies" /dev/null)
    # both answers against the fixtures: serate's own lines, and ours (first copy) as ER EP ED
    awk '{ print $1 " ED=" $2 "/" $3 "/" $4 }' "$want" >"$TMP/want.serate"
    awk '{ print $2 " " $3 " " $4 }' "$want" >"$TMP/want.ours"
    head -n "$n" "$TMP/ours.out" | cut -d' ' -f1-3 >"$TMP/got.ours"
    same=no
    if cmp -s "$TMP/want.serate" "$TMP/serate.out" && cmp -s "$TMP/want.ours" "$TMP/got.ours"; then
        same=yes
    elif cmp -s "$TMP/want.serate" "$TMP/serate.out"; then
        same="serate yes, ours $(paste -d' ' "$TMP/want.ours" "$TMP/got.ours" | awk '$1 == $4 && $2 == $5 && $3 == $6' | wc -l)/$n"
    fi
    se_rate=$(echo "scale=3; $n / $se" | bc)
    warm_rate=$(echo "scale=3; $n * ($COPIES - 1) / ($se2 - $se)" | bc)
    our_rate=$(echo "scale=1; $n * $REPEAT / $ours" | bc)
    printf '| %s | %d | %.2f / %.2f | %.2f / %.2f | %.3f | %.0f | %.0fx / %.0fx | %s |\n' "$band" "$n" \
        "$se" "$se2" "$se_rate" "$warm_rate" "$ours" "$our_rate" \
        "$(echo "scale=2; $our_rate / $se_rate" | bc)" "$(echo "scale=2; $our_rate / $warm_rate" | bc)" "$same"
done
