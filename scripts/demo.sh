#!/usr/bin/env bash
# The main job on the shipped data: import into a fresh demo store, list, summarise; then run the
# card's strategies on GOOG (and one on EURUSD), printing stats, cost tables and equity charts,
# and writing each report into notebooks-out/demo/<strategy>-<symbol>/ (--force: reruns replace them);
# then a parameter sweep on GOOG with walk-forward, and a screen over a synthetic universe.
set -euo pipefail
bt="$1"; db="$2"
mkdir -p "$(dirname "$db")"
rm -f "$db" "$db-wal" "$db-shm"
"$bt" data import data/GOOG.csv data/EURUSD.csv --db "$db"
"$bt" data list --db "$db"
"$bt" data summary --db "$db"

run() {
    local strategy="$1" symbol="$2"; shift 2
    echo
    echo "== bt run $strategy $symbol${*:+ $*} =="
    "$bt" run "$strategy" "$symbol" "$@" --db "$db" --width 100 --height 24 \
        --out "notebooks-out/demo/$strategy-$symbol" --force
}
run ma-cross GOOG
run rsi GOOG
run macd GOOG
run ma-cross EURUSD --param fast=20 --param slow=50

echo
echo "== bt sweep ma-cross GOOG (fast 5..50 x slow 20..200, walk-forward 4) =="
"$bt" sweep ma-cross GOOG --db "$db" --grid fast=5:50:5 --grid slow=20:200:10 --where "fast<slow" \
    --walk-forward 4 --out notebooks-out/demo/sweep-ma-cross-GOOG --force

echo
echo "== bt screen ma-cross over 30 synthetic symbols and GOOG =="
"$bt" data synth --symbols 30 --bars 2520 --db "$db" > /dev/null
"$bt" screen ma-cross --all --db "$db" --min-trades 5 --out notebooks-out/demo/screen-ma-cross --force

echo
echo "reports: notebooks-out/demo/*/report.md, sweep.md, screen.md"
