#!/usr/bin/env bash
# The large-cap cost tests (the default run pays at most 5 bps a fill on liquid stocks): fetches
# real daily bars of AAPL, GOOG, IBM and MSFT (2000-2013) from the PyPI package bokeh-sampledata
# 2026.1 into the ignored .cache/ (public domain, never committed), then runs the Swift tests that
# need them (LargeCapCostCommandTests) with BT_STOCKS_DATA set. Works on a fresh Debian machine:
# installs python3 and pip when missing (apt-get update first). Fails when the tests did not run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
SWIFT="${SWIFT:-swift}"

. scripts/lib/pypi.sh
ensure_python_pip

data="$(Tests/Fixtures/costs/fetch_stocks.sh)"

"$SWIFT" build --build-tests
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
BT_STOCKS_DATA="$data" "$SWIFT" test --skip-build --filter 'LargeCapCostCommandTests' 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then exit "$status"; fi
if grep -q "skipped" "$log" || ! grep -Eq "Test run with [1-9][0-9]* tests? .*passed" "$log"; then
  echo "error: the large-cap tests did not all run" >&2
  exit 1
fi
