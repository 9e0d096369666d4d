#!/usr/bin/env bash
# make test-python: btcore's pytest suite (python/tests) against the debug build of libbt and bt.
# Makes a venv in .build/python-venv (numpy, pandas, pytest, polars, pyarrow, and nbclient, ipykernel and
# selenium for the tutorial notebooks, mypy and pandas-stubs for the signatures, from PyPI, kept between runs),
# installs ./python into it as a user would (pip install ./python, libbt.so copied into the
# wheel from .build/debug), then runs the suite with BT_LIB unset so the package loads its own
# copy. The install must leave the clone as it was (python/setup.py builds out of tree): the
# script fails when `git status` of python/, ignored files included, changes across it. Needs
# .build/debug/bt and .build/debug/libbt.so (the Makefile builds them first).
#   scripts/test-python.sh [PYTEST_ARGS...]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
venv=.build/python-venv
lib=.build/debug/libbt.so
[ -e "$lib" ] || { echo "test-python: no $lib (make test-python builds it)" >&2; exit 2; }
# The notebooks' inline page is opened in Debian's headless Chromium (python/tests/test_notebooks.py).
bash scripts/install-browser-deps.sh
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import numpy, pandas, pytest, polars, pyarrow, nbclient, ipykernel, selenium, mypy, importlib.metadata as m; m.version('pandas-stubs')" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check numpy pandas pytest polars pyarrow nbclient ipykernel selenium mypy pandas-stubs
fi
# python/ as git sees it, untracked and ignored files included (nothing outside a git clone).
tree_state() {
  if git -C "$repo" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git -C "$repo" status --porcelain --untracked-files=all --ignored -- python/
  fi
}
before=$(tree_state)
# A fresh wheel each run, so the package carries the library just built.
BT_LIB="$repo/$lib" "$venv/bin/pip" install --quiet --disable-pip-version-check --force-reinstall --no-deps ./python
after=$(tree_state)
if [ "$before" != "$after" ]; then
  echo "test-python: pip install ./python changed the clone (it must build out of tree):" >&2
  diff <(printf '%s\n' "$before") <(printf '%s\n' "$after") >&2 || true
  exit 1
fi
env -u BT_LIB -u BT_DB BT_BIN="$repo/.build/debug/bt" "$venv/bin/python" -m pytest -q python/tests "$@"
