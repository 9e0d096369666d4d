#!/usr/bin/env bash
# bt live end to end: Tests/Fixtures/live/test_live.py runs the debug bt against the
# local exchange (Tests/Fixtures/live/live_exchange.py: REST and WebSocket on 127.0.0.1, a
# generated session replayed at 120x) under Debian's /usr/bin/python3 with python3-websockets,
# which scripts/install-deps.sh installs, and over the real L2 sample (ob-analytics, fetched from
# PyPI into .cache/ as make test-l2 does). Every server is stopped by its PID; each case is
# bounded by --duration or a signal (about 1 minute in all). Fails when a case fails.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
SWIFT="${SWIFT:-swift}"
BT="${BT:-}"
if [[ -z "$BT" ]]; then
  "$SWIFT" build --product bt
  BT="$root/.build/debug/bt"
fi
if ! /usr/bin/python3 -c 'import websockets' 2>/dev/null; then
  bash scripts/install-deps.sh
fi
# The real L2 sample for the recorded-session case (fetched once into .cache/, as make test-l2 does).
. scripts/lib/pypi.sh
ensure_python_pip
. scripts/lib/l2-sample.sh
BT_L2_DATA="$(l2_sample)" BT="$BT" /usr/bin/python3 Tests/Fixtures/live/test_live.py "$@"
