#!/usr/bin/env bash
# `rate -j1` against Sudoku Explainer's serate on puzzles whose paths need nested forcing chains
# (serate's 9.5 and up), one puzzle at a time, taking turns, each under `timeout` (serate takes
# minutes to hours on these). Prints, per puzzle, both ratings and both wall and CPU seconds.
# Not run by CI: serate is a Java program built apart (see tests/fixtures/se/README.md).
#
#   bash benches/rate_nested_compare.sh SERATE_CLASSPATH [PUZZLES_FILE]
#   e.g. bash benches/rate_nested_compare.sh /path/to/se/out:/usr/share/java/json-simple.jar
#
# PUZZLES_FILE (one 81-character puzzle a line) defaults to the forum's hardest fixture lists;
# LIMIT (default 900) is each rater's timeout in seconds per puzzle.
set -euo pipefail
cd "$(dirname "$0")/.."
CP=${1:?usage: rate_nested_compare.sh SERATE_CLASSPATH [PUZZLES_FILE]}
LIMIT=${LIMIT:-900}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
if [ $# -ge 2 ]; then cp "$2" "$TMP/all"; else
    cat tests/fixtures/se/in/hardest*.txt >"$TMP/all"
fi
cargo build --release --quiet
OURS=${CARGO_TARGET_DIR:-target}/release/sudoku-batch

echo "| puzzle | ours ER/EP/ED | ours s (wall / CPU) | serate ER/EP/ED | serate s (wall / CPU) |"
echo "|---|---|---:|---|---:|"
while read -r p; do
    echo "$p" >"$TMP/one.txt"
    ours=$( { /usr/bin/time -f "%e / %U" -o "$TMP/t1" timeout "$LIMIT" nice "$OURS" rate -j1 -q "$TMP/one.txt" || true; } | awk '{print $1"/"$2"/"$3}')
    serate=$( (cd "$TMP" && { /usr/bin/time -f "%e / %U" -o "$TMP/t2" timeout "$LIMIT" nice java -cp "$CP" diuf.sudoku.test.serate --format='%r/%p/%d' --input=one.txt 2>/dev/null || true; }) )
    echo "| \`$p\` | ${ours:-timeout} | $(tail -1 "$TMP/t1") | ${serate:-timeout} | $(tail -1 "$TMP/t2") |"
done <"$TMP/all"
