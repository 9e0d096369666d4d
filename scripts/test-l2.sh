#!/usr/bin/env bash
# The real-L2 test suite: fetches the ob-analytics 0.1.0 sample from PyPI into the
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

. scripts/lib/l2-sample.sh
data="$(l2_sample)"
stale="$(l2_sample --keep-stale)"

"$SWIFT" build --build-tests
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
BT_L2_DATA="$data" BT_L2_STALE_DATA="$stale" \
  "$SWIFT" test --skip-build --filter 'L2SampleTests|L2CommandTests|ReplayGoldenTests' 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then exit "$status"; fi
if grep -q "skipped" "$log" || ! grep -Eq "Test run with [1-9][0-9]* tests? .*passed" "$log"; then
  echo "error: the real-L2 tests did not all run" >&2
  exit 1
fi
