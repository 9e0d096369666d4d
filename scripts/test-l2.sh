#!/usr/bin/env bash
# The real-L2 test suite (issue 10): fetches the ob-analytics 0.1.0 sample from PyPI into the
# ignored .cache/ (GPL-2.0-or-later data, never committed), converts it with the standard-library
# converter, then runs the Swift tests that need it (L2SampleTests, L2CommandTests) with
# BT_L2_DATA and BT_L2_STALE_DATA set. Works on a fresh Debian machine: installs python3 and
# pip when missing (apt-get update first). Fails when the tests did not run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
SWIFT="${SWIFT:-swift}"

. scripts/lib/pypi.sh
ensure_python_pip

cache="${BT_L2_CACHE:-$root/.cache/ob-analytics}"
wheel="$(Tests/Fixtures/l2/fetch_ob_analytics.sh "$cache")"
convert() {  # convert OUT_DIR [--keep-stale]: skipped when the output is newer than its inputs
  local out="$1"; shift
  if [[ -f "$out/summary.json" && "$out/summary.json" -nt "$wheel" \
        && "$out/summary.json" -nt Tests/Fixtures/l2/convert_ob_analytics.py ]]; then return; fi
  python3 Tests/Fixtures/l2/convert_ob_analytics.py "$@" "$wheel" "$out" >/dev/null
}
convert "$cache/out"
convert "$cache/out-stale" --keep-stale

"$SWIFT" build --build-tests
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
BT_L2_DATA="$cache/out" BT_L2_STALE_DATA="$cache/out-stale" \
  "$SWIFT" test --skip-build --filter 'L2SampleTests|L2CommandTests' 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then exit "$status"; fi
if grep -q "skipped" "$log" || ! grep -Eq "Test run with [1-9][0-9]* tests? .*passed" "$log"; then
  echo "error: the real-L2 tests did not all run" >&2
  exit 1
fi
