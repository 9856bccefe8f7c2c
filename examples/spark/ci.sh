#!/usr/bin/env bash
# The Spark example against real Spark: pyspark and pytest from PyPI into a venv, the example
# run on local[2] by examples/spark/test_spark_job.py. Called by .ci/run; needs Java 17+ and
# Python 3.9+, and fails (never skips) when either is missing.
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
if [ ! -x "$venv/bin/spark-submit" ] || [ ! -x "$venv/bin/pytest" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check pyspark==4.3.0 pytest==9.2.0
fi

cargo build --locked --quiet
SUDOKU_BATCH="$PWD/target/debug/sudoku-batch" "$venv/bin/python" -m pytest -q -p no:cacheprovider examples/spark
