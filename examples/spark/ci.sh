#!/usr/bin/env bash
# The Spark examples against real Spark: pyspark, pytest, numpy, pyarrow, pandas from PyPI into a venv
# with the sudoku_batch package built from ./python, the examples run on local[2] by
# examples/spark/test_spark_job.py (the CLI through --pipe, and the package through mapInArrow).
# Called by .ci/run; needs Java 17+ and Python 3.9+, and fails (never skips) when either is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v java >/dev/null 2>&1; then
    echo "examples/spark/ci.sh: java not found; the Spark test needs a Java 17+ runtime on PATH" >&2
    exit 1
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "examples/spark/ci.sh: python3 not found; the Spark test needs Python 3.9+" >&2
    exit 1
fi

venv=target/spark-venv
if [ ! -x "$venv/bin/spark-submit" ] || [ ! -x "$venv/bin/pytest" ] || [ ! -d "$venv/lib/python3"*/site-packages/pyarrow ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check pyspark==4.3.0 pytest==9.2.0 \
        numpy==2.4.6 pyarrow==26.0.1 pandas==2.3.3
fi
# the package for the mapInArrow route (examples/spark/map_in_arrow.py)
"$venv/bin/pip" install --quiet --disable-pip-version-check ./python

cargo build --locked --quiet
SUDOKU_BATCH="$PWD/target/debug/sudoku-batch" "$venv/bin/python" -m pytest -q -p no:cacheprovider examples/spark
