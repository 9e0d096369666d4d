#!/usr/bin/env bash
# The large-cap cost tests (issue 25): fetches real daily bars of AAPL, GOOG, IBM and MSFT
# (2000-2013) from the PyPI package bokeh-sampledata 2026.1 into the ignored .cache/ (public
# domain, never committed), then runs the Swift tests that need them (LargeCapCostCommandTests)
# with BT_STOCKS_DATA set. Works on a fresh Debian machine: installs python3 and pip when missing
# (apt-get update first). Fails when the tests did not run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
SWIFT="${SWIFT:-swift}"

if ! command -v python3 >/dev/null 2>&1 || ! python3 -m pip --version >/dev/null 2>&1; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq python3 python3-pip >/dev/null
fi

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
