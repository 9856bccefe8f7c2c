#!/usr/bin/env bash
# The Python package against the real thing: maturin, pytest, numpy, pandas, pyarrow and polars
# from PyPI into a venv, the package built and installed with pip from ./python (as a user would),
# its tests run, the binding crate formatted and linted. Called by .ci/run; fails (never skips)
# when python3 is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v python3 >/dev/null 2>&1; then
    echo "python/ci.sh: python3 not found; the Python package needs Python 3.9+" >&2
    exit 1
fi

cargo fmt --check --manifest-path python/Cargo.toml
cargo clippy --locked --quiet --manifest-path python/Cargo.toml -- -D warnings

venv=target/python-venv
# pip through the venv's python, never its pip script: a script's first line names the venv it
# was made in, so in a venv copied from another checkout it installed into that one
if [ ! -x "$venv/bin/pytest" ]; then
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        maturin==1.16.0 pytest==9.2.0 numpy==2.4.6 pandas==3.1.1 pyarrow==26.0.1 polars==2.1.0
fi
# the README's install line
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check ./python

cargo build --locked --quiet
SUDOKU_BATCH="$PWD/target/debug/sudoku-batch" "$venv/bin/python" -m pytest -q -p no:cacheprovider python/tests
