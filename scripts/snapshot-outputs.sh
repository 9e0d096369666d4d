#!/usr/bin/env bash
# Snapshots of bt's outputs on the shipped data, for refactors that must not change behaviour
# (dev-only; not run by make test):
#
#   scripts/snapshot-outputs.sh OUTDIR [BT]      # BT defaults to .build/release/bt
#   diff -r BEFORE AFTER                         # two snapshots, before and after a change
#
# Covers `bt run --json` for every built-in strategy, report folders of a run and a portfolio
# with the terminal summaries, strategy and condition screens, a sweep
# with walk-forward, shards and merges of each kind (a multi-symbol sweep with a missing symbol
# among them), portfolios and portfolio sweeps, and error cases (their messages and exit codes in
# NAME.err / NAME.out). It runs in a fixed work folder with relative paths, so the command lines
# recorded in manifests are the same whatever OUTDIR is; reports hold no times, so two runs of
# the same build are byte-identical.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
OUT=$(realpath -m "${1:?usage: scripts/snapshot-outputs.sh OUTDIR [BT]}")
BT=$(realpath -m "${2:-$repo/.build/release/bt}")
DATA=$repo/data
W=${TMPDIR:-/tmp}/bt-snapshot-work
[ -x "$BT" ] || { echo "snapshot-outputs: no bt at $BT (swift build -c release first)" >&2; exit 2; }
rm -rf "$W" "$OUT"; mkdir -p "$W"; cd "$W"
run() { # name, command...
  local name=$1; shift
  "$BT" "$@" > "$name.out" 2> "$name.err"; echo "rc=$?" >> "$name.out"
}
run import data import "$DATA/GOOG.csv" "$DATA/EURUSD.csv" --db s.db
for s in $("$BT" strategies --json | python3 -c 'import json,sys; print(" ".join(x["name"] for x in json.load(sys.stdin)))'); do
  run "run-$s" run "$s" GOOG --json --db s.db
done
run strategies strategies
# Execution options the simulators share (stops, shorts, close fills, sizes, instrument rules,
# depth models), run by both drivers: every exit path of the one execution core.
for s in $("$BT" strategies --json | python3 -c 'import json,sys; print(" ".join(x["name"] for x in json.load(sys.stdin)))'); do
  run "x-stops-$s" run "$s" GOOG --sl 3% --tp 6% --tick 0.01 --json --db s.db
  run "x-short-$s" run "$s" EURUSD --short --sl 0.5% --tp 1% --json --db s.db
done
run x-close run ma-cross GOOG --fill close --sl 4% --json --db s.db
run x-units run rsi GOOG --size 20u --depth none --lot 1 --min-notional 500 --fee-min 5 --json --db s.db
run x-cash run macd GOOG --size 5000$ --slippage-bps 5 --json --db s.db
run x-cap run ma-cross EURUSD --max-participation 0.0000001 --json --db s.db
run x-shortout run rsi EURUSD --short --sl 1% --tp 2% --out xshortout --db s.db
run x-pstops portfolio ma-cross --symbols GOOG,EURUSD --sl 3% --tp 6% --json --db s.db
run x-pclose portfolio ma-cross --symbols GOOG,EURUSD --fill close --sl 2% --rebalance 1M --json --db s.db
run x-prot portfolio --symbols GOOG,EURUSD --rotate --rank "roc(close, 20)" --sl 5% --max-positions 1 --json --db s.db
run x-pout portfolio ma-cross --symbols GOOG,EURUSD --sl 3% --tp 6% --out xpout --db s.db
run screen screen ma-cross --all --json --out screen --db s.db
SW=(sweep ma-cross GOOG --grid fast=5:50:5 --grid slow=20:200:10 --where "fast<slow" --walk-forward 4 --db s.db)
run sweep "${SW[@]}" --out sweep
run shard0 "${SW[@]}" --shard 0/2 --out parts
run shard1 "${SW[@]}" --shard 1/2 --out parts
run merge merge parts --out merged --db s.db
SC=(screen ma-cross --all --db s.db)
run sshard0 "${SC[@]}" --shard 0/2 --out sparts
run sshard1 "${SC[@]}" --shard 1/2 --out sparts
run smerge merge sparts --out smerged --db s.db
run cond screen --all --where "close > sma(close, 20)" --show "rsi(close, 14)" --json --db s.db
CS=(screen --all --where "close > sma(close, 20)" --show "rsi(close, 14)" --db s.db)
run cshard0 "${CS[@]}" --shard 0/2 --out cparts
run cshard1 "${CS[@]}" --shard 1/2 --out cparts
run cmerge merge cparts --out cmerged --db s.db
run cout "${CS[@]}" --out cout
run cat screen --all --where "close > sma(close, 20)" --at 2010-01-04 --json --db s.db
run cfrom screen --all --where "close > sma(close, 20)" --from 2018-01-01 --param n=3 --json --db s.db
run e-smerge merge sparts/shard-1-of-2 --out e11 --db s.db
run e-exists screen ma-cross --all --out screen --db s.db
run portfolio portfolio ma-cross --symbols GOOG,EURUSD --json --db s.db
# Report folders and the terminal summaries with their charts (text, markdown, SVG, HTML, CSV).
run runout run ma-cross GOOG --out runout --db s.db
run runtext run rsi EURUSD --width 90 --height 24 --db s.db
run porttext portfolio ma-cross --symbols GOOG,EURUSD --width 90 --height 24 --db s.db
run portout portfolio ma-cross --symbols GOOG,EURUSD --out portout --db s.db
run psweep sweep ma-cross --portfolio --symbols GOOG,EURUSD --grid fast=5:20:5 --grid slow=30:60:10 --out psweep --db s.db
run psweepk sweep ma-cross --portfolio --symbols GOOG,EURUSD --grid fast=5:20:5 --grid max_positions=1,2 --rank sortino --walk-forward 2 --weight equal --out psweepk --db s.db
run e-pk sweep ma-cross --portfolio --symbols GOOG,EURUSD --grid fast=5:20:5 --grid max_positions=0.5,2 --out e12 --db s.db
run multi sweep ma-cross --symbols GOOG,EURUSD --grid fast=5:20:5 --grid slow=30:60:10 --out multi --db s.db
MS=(sweep ma-cross --symbols GOOG,NOPE,EURUSD --grid fast=5:20:5 --grid slow=30:60:10 --walk-forward 2 --db s.db)
run mshard0 "${MS[@]}" --shard 0/2 --out mparts
run mshard1 "${MS[@]}" --shard 1/2 --out mparts
run mmerge merge mparts --out mmerged --db s.db
run mone "${MS[@]}" --out mone
run e-oneshard sweep ma-cross NOPE --grid fast=5:20:5 --shard 0/2 --out nparts --db s.db
run e-ppyshard sweep ma-cross --symbols GOOG,EURUSD --grid fast=5:20:5 --periods-per-year 0 --shard 0/2 --out pparts --db s.db
run e-nocombo sweep ma-cross GOOG --grid fast=5:50:5 --where "fast>100" --out e1 --db s.db
run e-unknown sweep ma-cross GOOG --grid foo=1:2:1 --out e2 --db s.db
run e-clash sweep ma-cross GOOG --grid fast=1:3:1 --param fast=2 --out e3 --db s.db
run e-nogrid sweep ma-cross GOOG --out e4 --db s.db
run e-missing merge parts/shard-0-of-2 --out e5 --db s.db
run e-top screen ma-cross --all --top 0 --db s.db
run e-ppy sweep ma-cross GOOG --grid fast=5:10:5 --periods-per-year -1 --out e6 --db s.db
run e-nosym sweep ma-cross NOPE --grid fast=5:10:5 --periods-per-year -1 --out e7 --db s.db
run e-order sweep ma-cross GOOG --grid fast=5:50:5 --where "fast>100" --top 0 --out e8 --db s.db
run e-order2 sweep ma-cross GOOG --grid fast=5:50:5 --where "fast>100" --rank nosuch --out e9 --db s.db
run e-order3 sweep ma-cross GOOG --grid foo=5:50:5 --rank nosuch --out e10 --db s.db
rm -f s.db s.db-shm s.db-wal
cd /; cp -r "$W" "$OUT"
echo "snapshot-outputs: $OUT" >&2
