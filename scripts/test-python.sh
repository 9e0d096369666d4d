#!/usr/bin/env bash
# make test-python: btcore's pytest suite (python/tests) against the debug build of libbt and bt.
# Makes a venv in .build/python-venv (numpy, pandas and pytest from PyPI, kept between runs),
# installs ./python into it as a user would (pip install ./python, libbt.so copied into the
# wheel from .build/debug), then runs the suite with BT_LIB unset so the package loads its own
# copy. Needs .build/debug/bt and .build/debug/libbt.so (the Makefile builds them first).
#   scripts/test-python.sh [PYTEST_ARGS...]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
venv=.build/python-venv
lib=.build/debug/libbt.so
[ -e "$lib" ] || { echo "test-python: no $lib (make test-python builds it)" >&2; exit 2; }
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import numpy, pandas, pytest" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check numpy pandas pytest
fi
# A fresh wheel each run, so the package carries the library just built.
rm -rf python/build python/*.egg-info
BT_LIB="$repo/$lib" "$venv/bin/pip" install --quiet --disable-pip-version-check --force-reinstall --no-deps ./python
rm -rf python/build python/*.egg-info
env -u BT_LIB -u BT_DB BT_BIN="$repo/.build/debug/bt" "$venv/bin/python" -m pytest -q python/tests "$@"
