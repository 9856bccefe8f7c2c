#!/usr/bin/env bash
# Peak memory (RSS) of whole runs on inputs built to test the bounds: a 2 GB line, a 200 MB CSV
# row, a CSV whose quote never closes, a 5-million-record run, and `augment -n 100` (2 million
# copies of 20,000 rows). Not timed: memory only.
#
#   bash benches/memory.sh [WORKDIR]     (default: a fresh temporary folder, removed at the end)
#
# Needs GNU time (/usr/bin/time) and about 3 GB of free disk in WORKDIR; the 5M records are 16
# copies of sudoku_exchange/hard.txt, on stdin: from a pipe (read as a stream) and redirected from
# the file (read in chunks, as a named file). The shared datasets are looked for in
# $SHARED_DATA (default ../shared/data); the runs that need them are skipped without them.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=$PWD/target/release/sudoku-batch
work=${1:-$(mktemp -d)}
mkdir -p "$work"
[ -n "${1:-}" ] || trap 'rm -rf "$work"' EXIT
puzzle='..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..'

# a 2 GiB line of digits between two puzzles
{ echo "$puzzle"; head -c $((2 << 30)) /dev/zero | tr '\0' '1'; echo; echo "$puzzle"; } \
    > "$work/line2g.txt"
# a 200 MiB CSV row, its puzzle field quoted
{ echo 'id,puzzle'; printf '1,"'; head -c $((200 << 20)) /dev/zero | tr '\0' '1'; echo '"';
  echo "2,$puzzle"; } > "$work/row200m.csv"
# a quote that never closes, then 999,999 good rows: none of them lost (the row that reaches the
# cap is one malformed record, its lines after the first read again), memory bounded
{ echo 'id,puzzle'; echo "1,\"$puzzle";
  awk -v p="$puzzle" 'BEGIN { for (i = 2; i <= 1000000; i++) print i "," p }'; } > "$work/unclosed.csv"

# one run of `solve -O line`: its records (output lines), malformed ones, and peak RSS in MiB
measure() {
    local label=$1; shift
    /usr/bin/time -o "$work/rss" -f '%M' "$bin" solve -q -O line "$@" > "$work/out" 2> "$work/err"
    local records malformed
    records=$(wc -l < "$work/out")
    malformed=$(grep -c '^malformed$' "$work/out" || true)
    echo "| $label | $records ($malformed malformed) | $(rss) MiB |"
}

# the peak RSS of the last run, in MiB
rss() {
    awk '{printf "%.1f", $1 / 1024}' "$work/rss"
}

echo "| input | records | peak RSS |"
echo "|---|---|---|"
measure "2 GiB line between two puzzles" "$work/line2g.txt"
measure "200 MiB CSV row" "$work/row200m.csv"
measure "unclosed quote, then 999,999 rows" "$work/unclosed.csv"
shared=${SHARED_DATA:-../shared/data}
hard=$shared/sudoku_exchange/hard.txt
if [ -f "$hard" ]; then
    for i in $(seq 16); do cat "$hard"; done > "$work/hard16.txt"
    cat "$work/hard16.txt" | measure "hard.txt x 16, on stdin from a pipe" -
    measure "hard.txt x 16, on stdin redirected from the file" - < "$work/hard16.txt"
fi
# 100 copies of each row: the copies stream, a few thousand at a time, however many a row gets
kaggle=$shared/csv/kaggle_quizzes_solutions_20k.csv
if [ -f "$kaggle" ]; then
    /usr/bin/time -o "$work/rss" -f '%M' "$bin" augment -q -n 100 "$kaggle" > "$work/out"
    copies=$(($(wc -l < "$work/out") - 1))
    echo "| augment -n 100 of kaggle_quizzes_solutions_20k.csv | $copies copies | $(rss) MiB |"
fi
