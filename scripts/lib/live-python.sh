# The bt and the Python that the live test scripts use (make test-live, make test-writers):
# sourced after `cd "$root"`. Sets BT to the debug bt, built here, unless BT names one, and
# installs python3-websockets (scripts/install-deps.sh) when Debian's /usr/bin/python3 lacks it.
SWIFT="${SWIFT:-swift}"
BT="${BT:-}"
if [[ -z "$BT" ]]; then
  "$SWIFT" build --product bt
  BT="$root/.build/debug/bt"
fi
if ! /usr/bin/python3 -c 'import websockets' 2>/dev/null; then
  bash scripts/install-deps.sh
fi
