#!/usr/bin/env bash
# The main job on the shipped data: import into a fresh demo store, list, summarise; then run the
# card's strategies on GOOG (and one on EURUSD), printing stats, cost tables and equity charts,
# and writing each report into notebooks-out/demo/<strategy>-<symbol>/ (--force: reruns replace them);
# then a strategy written as expressions, a parameter sweep on GOOG with walk-forward, a screen over
# a synthetic universe, a condition screen, and a portfolio of the daily series with shared cash.
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
echo "== bt run GOOG --entry/--exit (golden cross with an RSI filter, written as expressions) =="
"$bt" run GOOG --entry 'cross_above(sma(close, 50), sma(close, 200)) and rsi(close, 14) < 70' \
    --exit 'cross_below(sma(close, 50), sma(close, 200))' --db "$db" --width 100 --height 24 \
    --out notebooks-out/demo/golden-cross-GOOG --force

echo
echo "== bt sweep ma-cross GOOG (fast 5..50 x slow 20..200, walk-forward 4) =="
"$bt" sweep ma-cross GOOG --db "$db" --grid fast=5:50:5 --grid slow=20:200:10 --where "fast<slow" \
    --walk-forward 4 --out notebooks-out/demo/sweep-ma-cross-GOOG --force

echo
echo "== bt screen ma-cross over 30 synthetic symbols and GOOG =="
"$bt" data synth --symbols 30 --bars 2520 --db "$db" > /dev/null
"$bt" screen ma-cross --all --db "$db" --min-trades 5 --out notebooks-out/demo/screen-ma-cross --force

echo
echo "== bt screen --where: which daily series are above their 50-day average with RSI over 50 =="
"$bt" screen --where 'close > sma(close, 50) and rsi(close, 14) > 50' --show 'rsi(close, 14)' \
    --all --timeframe 1d --db "$db"

echo
echo "== bt portfolio ma-cross over every daily series: 5 slots ranked by 126-day momentum =="
"$bt" portfolio ma-cross --all --timeframe 1d --max-positions 5 --rank 'roc(close, 126)' \
    --rebalance 1M --db "$db" --width 100 --height 20 --out notebooks-out/demo/portfolio-ma-cross --force

echo
echo "reports: notebooks-out/demo/*/report.md (and report.html), sweep.md, screen.md"
