#!/usr/bin/env python3
"""Write real report folders with the bt binary for the browser tests (dev/test helper).

    python3 Tests/Browser/make_reports.py [--bt .build/debug/bt] [--out .build/browser-reports]

Imports the shipped data and 30 synthetic symbols into a scratch store, then lets bt write:

- OUT/run           bt run ma-cross GOOG --out ...            (daily bars, SMA overlays, stats.json)
- OUT/run-eurusd    bt run macd EURUSD --short --out ...      (hourly bars, MACD pane, shorts)
- OUT/run-exits     bt run ma-cross GOOG --sl 3% --tp 6% --out ... (trades ending at stops and targets)
- OUT/run-mc        bt run ma-cross GOOG --monte-carlo 400 --seed 3 --out ... (the Monte Carlo bands on the equity)
- OUT/portfolio-mc  bt portfolio ma-cross --symbols SYN0001,...,SYN0004 --monte-carlo 300 --out ... (the bands without candles)
- OUT/portfolio     bt portfolio --rotate ... --sl 5% --out ... (ten symbols: the equity on top, rebalance and stop exits)
- OUT/sweep         bt sweep ma-cross GOOG --grid ... --walk-forward 4 --out ...
- OUT/sweep-pareto  bt sweep ma-cross GOOG --grid ... --objectives total_return,volatility_ann --out ... (the Pareto scatter)
- OUT/screen        bt screen ma-cross --all --out ...
- OUT/run-thinned   bt run ma-cross LONG --out ...             (100,000 1m bars: the chart thinned for display)
- OUT/chart         bt chart GOOG --ind bb:20,2 --ind ema:50 --ind rsi --ind macd --html .../report.html
- OUT/replay        bt replay SYN --quote-bid best_bid --quote-ask 'best_ask + 1' ... --out ... (the committed
                    synthetic L2 market of the replay tests: a point per 50 ms step, fills.csv beside it)
- OUT/replay-thinned the same every 1 ms: 124,031 steps, the chart thinned for display

and the stored candles of every symbol used, as `bt data export` prints them, in OUT/exports/SYMBOL.csv
(test_reports.py --exports reads the tooltip values back against them).
"""
import argparse
import os
import shutil
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bt", default=os.path.join(ROOT, ".build", "debug", "bt"))
    ap.add_argument("--out", default=os.path.join(ROOT, ".build", "browser-reports"))
    args = ap.parse_args()
    bt_path = os.path.abspath(args.bt)
    if not os.path.exists(bt_path):
        raise SystemExit(f"{bt_path} not found: build bt first (swift build)")
    out = os.path.abspath(args.out)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(os.path.join(out, "exports"))
    db = os.path.join(out, "store.sqlite")

    def bt(*words, capture=False, store=None):
        cmd = [bt_path, *words, "--db", store or db]
        r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        if r.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed ({r.returncode}):\n{r.stderr}")
        return r.stdout

    bt("data", "import", "data/GOOG.csv", "data/EURUSD.csv")
    bt("data", "synth", "--symbols", "30")
    bt("run", "ma-cross", "GOOG", "--out", os.path.join(out, "run"), "--no-chart")
    bt("run", "macd", "EURUSD", "--short", "--out", os.path.join(out, "run-eurusd"), "--no-chart", "--no-costs")
    bt("run", "ma-cross", "GOOG", "--sl", "3%", "--tp", "6%", "--out", os.path.join(out, "run-exits"), "--no-chart", "--no-costs")
    bt("run", "ma-cross", "GOOG", "--monte-carlo", "400", "--seed", "3", "--out", os.path.join(out, "run-mc"), "--no-chart", "--no-costs")
    bt("portfolio", "ma-cross", "--symbols", "SYN0001,SYN0002,SYN0003,SYN0004", "--monte-carlo", "300",
       "--out", os.path.join(out, "portfolio-mc"), "--no-chart", "--no-costs")
    bt("portfolio", "--rotate", "--rank", "roc(close, 20)", "--symbols", ",".join(f"SYN{k:04d}" for k in range(1, 11)),
       "--max-positions", "3", "--sl", "5%", "--out", os.path.join(out, "portfolio"), "--no-chart", "--no-costs")
    bt("sweep", "ma-cross", "GOOG", "--grid", "fast=5:50:5", "--grid", "slow=20:200:10", "--where", "fast<slow",
       "--walk-forward", "4", "--out", os.path.join(out, "sweep"))
    bt("sweep", "ma-cross", "GOOG", "--grid", "fast=5:50:5", "--grid", "slow=20:200:20", "--where", "fast<slow",
       "--objectives", "total_return,volatility_ann", "--out", os.path.join(out, "sweep-pareto"))
    bt("screen", "ma-cross", "--all", "--out", os.path.join(out, "screen"))
    # A long run, drawn thinned: 100,000 one-minute bars stored as LONG.
    side = os.path.join(out, "long.sqlite")
    bt("data", "synth", "--symbols", "1", "--bars", "100000", "--timeframe", "1m", "--seed", "5", store=side)
    with open(os.path.join(out, "long.csv"), "w", encoding="utf-8") as f:
        f.write(bt("data", "export", "SYN0001", capture=True, store=side))
    bt("data", "import", os.path.join(out, "long.csv"), "--symbol", "LONG")
    bt("run", "ma-cross", "LONG", "--out", os.path.join(out, "run-thinned"), "--no-chart", "--no-costs")
    os.makedirs(os.path.join(out, "chart"))
    bt("chart", "GOOG", "--ind", "bb:20,2", "--ind", "ema:50", "--ind", "rsi", "--ind", "macd",
       "--html", os.path.join(out, "chart", "report.html"))
    # Replays need a stored book: the replay tests' synthetic L2 market (Tests/Fixtures/replay).
    books = os.path.join(out, "book.sqlite")
    bt("data", "import", "Tests/Fixtures/replay/synthetic_book.jsonl", "--format", "book", "--symbol", "SYN", store=books)
    bt("data", "import", "Tests/Fixtures/replay/synthetic_trades.jsonl", "--format", "trades", "--timeframe", "1m",
       "--symbol", "SYN", store=books)
    for name, every in (("replay", "50ms"), ("replay-thinned", "1ms")):
        bt("replay", "SYN", "--quote-bid", "best_bid", "--quote-ask", "best_ask + 1", "--quote-size", "0.5", "--max-position", "1",
           "--every", every, "--latency", "1ms,3ms", "--out", os.path.join(out, name), store=books)
    symbols = ["GOOG", "EURUSD", "LONG"] + [f"SYN{k:04d}" for k in range(1, 31)]
    for symbol in symbols:
        with open(os.path.join(out, "exports", symbol + ".csv"), "w", encoding="utf-8") as f:
            f.write(bt("data", "export", symbol))
    for name in sorted(os.listdir(out)):
        page = os.path.join(out, name, "report.html")
        if os.path.exists(page):
            print(f"{name:12s} {os.path.getsize(page) / 1e6:6.2f} MB  {page}")


if __name__ == "__main__":
    sys.exit(main())
