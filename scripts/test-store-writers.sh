#!/usr/bin/env bash
# Several bt processes writing one store at once: every pair and triple of bt live,
# bt data import, bt data fetch and bt calibrate on one store, with SQLite's integrity check and
# the series stored before compared after each case (Tests/Fixtures/live/test_store_writers.py,
# under Debian's /usr/bin/python3 with python3-websockets; the local exchanges on 127.0.0.1 are
# stopped by their PIDs). About 2 minutes. Fails when a case fails.
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
BT="$BT" /usr/bin/python3 Tests/Fixtures/live/test_store_writers.py "$@"
