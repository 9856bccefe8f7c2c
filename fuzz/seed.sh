#!/usr/bin/env bash
# Seeds the fuzzer's corpus from the samples in data/ and the test fixtures (compressed and
# broken inputs among them), cut into pieces of at most 4 KiB so each run stays quick.
set -euo pipefail
cd "$(dirname "$0")"
corpus=corpus/records
mkdir -p "$corpus"
for f in ../data/* ../tests/fixtures/*.txt ../tests/fixtures/*.csv ../tests/fixtures/compressed/*; do
    [ -f "$f" ] || continue
    name=$(basename "$f")
    head -c 4096 "$f" > "$corpus/$name"
    tail -c 4096 "$f" > "$corpus/$name.tail"
done
echo "seeded $(ls "$corpus" | wc -l) inputs into fuzz/$corpus"
