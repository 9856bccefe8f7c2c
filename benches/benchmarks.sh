#!/usr/bin/env bash
# Regenerates every figure of BENCHMARKS.md: `sudoku-batch bench` on every corpus of
# ../shared/data/tdoku and ../shared/data/csv, first solution and proof of uniqueness (--limit 1
# and 2), as published and shuffled (--shuffle), on 1 thread pinned to one core and on 2 threads;
# and the speed peer (the `sudoku` crate via ../shared/peer) on exactly the puzzles we timed
# (written out by --write-puzzles), pinned to the same core, in the same session.
#
#   bash benches/benchmarks.sh              # about 10 minutes on a 2-core machine
#
# Environment: SHARED (default ../shared), OUT (results folder, default benches/results),
# MIN_SECONDS (0.5), ROUNDS (3), SEED (shuffle seed, 1), CORE (core to pin to, 0),
# PEER_BIN (a built peer_bench; default: build ../shared/peer into target/peer),
# CARGO_TARGET_DIR (where our build goes, default target), NOTE (a line to print above the
# results, e.g. about the machine). Keep the machine otherwise idle: the load averages at the
# start and the end of the run are printed with the results. REPORT_ONLY=1 skips the measuring
# and rebuilds summary.md and BENCHMARKS.md from the reports already in OUT.
#
# Leaves in OUT: for each configuration TAG (l1-plain, l1-shuffled, l2-plain, l2-shuffled) our
# reports TAG-j1.{md,csv,json,svg} and TAG-j2.{md,csv,json,svg}, the peer's lines TAG-peer.tsv,
# and summary.md (the comparison tables); then BENCHMARKS.md's generated part is replaced by
# summary.md.
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
OUT=${OUT:-benches/results}
MIN_SECONDS=${MIN_SECONDS:-0.5}
ROUNDS=${ROUNDS:-3}
SEED=${SEED:-1}
CORE=${CORE:-0}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

if [ -z "${REPORT_ONLY:-}" ]; then
    cargo build --release --locked --quiet
    OURS=${CARGO_TARGET_DIR:-target}/release/sudoku-batch
    if [ -z "${PEER_BIN:-}" ]; then
        # built from a copy: cargo writes a Cargo.lock beside the manifest, and ../shared may be
        # read-only
        cp -r "$SHARED/peer" "$TMP/peer"
        cargo build --release --quiet --manifest-path "$TMP/peer/Cargo.toml" --target-dir target/peer
        PEER_BIN=target/peer/release/peer_bench
    fi

    corpora=("$SHARED"/data/tdoku/* "$SHARED"/data/csv/*.csv)
    mkdir -p "$OUT"
    start=$(date +%s)
    load_start=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)

    for limit in 1 2; do
        peer_solver=rust_sudoku
        [ "$limit" = 2 ] && peer_solver=rust_sudoku_unique
        for mode in plain shuffled; do
            tag="l$limit-$mode"
            flags=(--limit "$limit" --min-seconds "$MIN_SECONDS" --rounds "$ROUNDS")
            [ "$mode" = shuffled ] && flags+=(--shuffle "$SEED")
            puzzles="$TMP/$mode"
            mkdir -p "$puzzles"
            echo "== $tag: ours, 1 thread (core $CORE)" >&2
            taskset -c "$CORE" "$OURS" bench -q -j1 "${flags[@]}" --write-puzzles "$puzzles" \
                --export-markdown "$OUT/$tag-j1.md" --export-csv "$OUT/$tag-j1.csv" \
                --export-json "$OUT/$tag-j1.json" --export-svg "$OUT/$tag-j1.svg" "${corpora[@]}"
            echo "== $tag: peer, 1 thread (core $CORE)" >&2
            : > "$OUT/$tag-peer.tsv"
            for f in "${corpora[@]}"; do
                taskset -c "$CORE" "$PEER_BIN" bench "$peer_solver" "$puzzles/$(basename "$f").txt" \
                    --min-secs "$MIN_SECONDS" --runs "$ROUNDS" >> "$OUT/$tag-peer.tsv"
            done
            echo "== $tag: ours, 2 threads" >&2
            "$OURS" bench -q -j2 "${flags[@]}" \
                --export-markdown "$OUT/$tag-j2.md" --export-csv "$OUT/$tag-j2.csv" \
                --export-json "$OUT/$tag-j2.json" --export-svg "$OUT/$tag-j2.svg" "${corpora[@]}"
        done
    done
    load_end=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
    {
        echo "seconds=$(($(date +%s) - start))"
        echo "load_start='$load_start'"
        echo "load_end='$load_end'"
        echo "MIN_SECONDS=$MIN_SECONDS ROUNDS=$ROUNDS SEED=$SEED CORE=$CORE"
    } > "$OUT/run.env"
fi
# what the measuring run was (REPORT_ONLY may come much later)
seconds=unknown load_start=unknown load_end=unknown
# shellcheck disable=SC1091
[ -f "$OUT/run.env" ] && . "$OUT/run.env"

# The comparison tables, from our CSV reports (columns by header name) and the peer's key=value
# lines (matched by corpus name: the peer read NAME.txt).
table() {
    local tag=$1
    awk -F, -v peerfile="$OUT/$tag-peer.tsv" '
        function load_peer(   line, n, kv, i, f, name) {
            while ((getline line < peerfile) > 0) {
                n = split(line, kv, "\t")
                delete f
                for (i = 1; i <= n; i++) { split(kv[i], p, "="); f[p[1]] = p[2] }
                name = f["corpus"]; sub(/\.txt$/, "", name)
                peer[name] = f["usec_per_puzzle"]; peer_valid[name] = f["valid"]
            }
        }
        BEGIN { load_peer() }
        FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; file++; next }
        file == 1 { name = $col["name"]; order[++rows] = name
                    n[name] = $col["puzzles"]; j1[name] = $col["usec_per_puzzle"]
                    pps[name] = $col["puzzles_per_sec"]; p99[name] = $col["usec_p99"]
                    ng[name] = $col["no_guess_percent"]; gs[name] = $col["guesses_per_puzzle"]
                    ok[name] = $col["solved"] "/" $col["unsolvable"] "/" $col["multiple"]
                    sum[name] = $col["checksum"] }
        file == 2 { j2[$col["name"]] = $col["usec_per_puzzle"]; sum2[$col["name"]] = $col["checksum"] }
        END {
            print "| corpus | puzzles | µs/puzzle | puzzles/s | p99 µs | peer µs/puzzle | ours / peer | 2 threads µs/puzzle | speedup | % no guess | guesses/puzzle | solved/unsolvable/multiple | checksum |"
            print "| :-- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | :-- | :-- |"
            for (r = 1; r <= rows; r++) {
                k = order[r]
                ratio = (k in peer && peer[k] > 0) ? sprintf("%.2f", j1[k] / peer[k]) : "-"
                pu = (k in peer) ? sprintf("%.2f", peer[k]) : "-"
                # the peer checks its own answers: say so when some were not valid solutions
                if ((k in peer) && peer_valid[k] != n[k]) pu = pu " (only " peer_valid[k] " valid!)"
                # the 2-thread run must give the same answers; say so loudly if not
                same = (sum2[k] == sum[k]) ? "" : " (2 threads: `" sum2[k] "`!)"
                printf "| %s | %d | %.2f | %.0f | %.2f | %s | %s | %.2f | %.2fx | %.1f | %.2f | %s | `%s`%s |\n",
                    k, n[k], j1[k], pps[k], p99[k], pu, ratio, j2[k], j1[k] / j2[k], ng[k], gs[k], ok[k], sum[k], same
            }
        }' "$OUT/$tag-j1.csv" "$OUT/$tag-j2.csv"
}

{
    if [ -n "${NOTE:-}" ]; then
        echo "$NOTE"
        echo
    fi
    # the run line of the first report says where and how it ran
    echo "Run: $(tail -n 1 "$OUT/l1-plain-j1.md")"
    echo
    echo "Script: \`bash benches/benchmarks.sh\` with MIN_SECONDS=$MIN_SECONDS ROUNDS=$ROUNDS SEED=$SEED CORE=$CORE, $seconds s in all; load averages (1, 5, 15 min) $load_start at the start, $load_end at the end."
    for tag in l1-plain l1-shuffled l2-plain l2-shuffled; do
        limit=${tag%%-*}
        mode=${tag#*-}
        echo
        case "$limit" in
            l1) what="first solution (--limit 1)" ;;
            *) what="proof of uniqueness (--limit 2)" ;;
        esac
        case "$mode" in
            plain) how="puzzles as published" ;;
            *) how="shuffled (--shuffle $SEED)" ;;
        esac
        echo "### $what, $how"
        echo
        table "$tag"
        echo
        echo "![µs/puzzle and time distribution, $what, $how, 1 thread]($OUT/$tag-j1.svg)"
        echo
        echo "Reports: [markdown]($OUT/$tag-j1.md), [csv]($OUT/$tag-j1.csv), [json]($OUT/$tag-j1.json), [chart]($OUT/$tag-j1.svg); 2 threads: [markdown]($OUT/$tag-j2.md), [chart]($OUT/$tag-j2.svg)."
    done
} > "$OUT/summary.md"

# BENCHMARKS.md: replace what lies between the markers with the summary
begin='<!-- BEGIN GENERATED by benches/benchmarks.sh -->'
end='<!-- END GENERATED -->'
awk -v begin="$begin" -v end="$end" -v summary="$OUT/summary.md" '
    $0 == begin { print; while ((getline line < summary) > 0) print line; skip = 1; next }
    $0 == end { skip = 0 }
    !skip { print }' BENCHMARKS.md > "$TMP/BENCHMARKS.md"
cp "$TMP/BENCHMARKS.md" BENCHMARKS.md
echo "wrote $OUT/summary.md and BENCHMARKS.md" >&2
