#!/usr/bin/env python3
"""bt against TA-Lib and vectorbt in one run, on this machine (dev-only; run by hand).

    python3 -m venv .build/refvenv && .build/refvenv/bin/pip install ta-lib==0.6.8 vectorbt==1.2.0
    swift build -c release
    .build/refvenv/bin/python Benchmarks/reference.py [--bt .build/release/bt] [--quick]

Prints, for the Benchmarks table (docs/guide/benchmarks.md; the README has it in short), each
figure beside its reference and their ratio (bt's time over the reference's: below 1 is faster),
with the load average before and after:

- indicators: ns/bar of SMA 20, EMA 20, RSI 14, MACD 12/26/9, BBANDS 20/2 and ATR 14 at 1,000
  and 1,000,000 bars. The arrays are the ones `bt bench indicators` builds (the same SplitMix64
  random walk, reproduced here bit for bit), TA-Lib C 0.6 through its Python wrapper, best of
  many repetitions as bt does.
- engine: one ma-cross 10/30 backtest of 1,000,000 1m bars (`bt data synth`, seed 1, exported),
  fees 10 bps, whole equity per trade: vectorbt `Portfolio.from_signals` alone (its moving
  averages and crossings are computed before the clock starts) in two calls, on pandas Series
  with next-open fills (shifted signals priced at the open, as bt fills) and on plain numpy arrays
  with close fills (its fastest path), against `bt bench engine` (whose figure includes bt's
  signals).
- sweep: the 2,850-combination grid of `bt bench sweep` (SMA windows 5..50 and 20, 25, ..., 200,
  every pair fast < slow) over 10,000 daily bars: vectorbt `MA.run_combs`, crossings,
  `from_signals` (fees 10 bps) and the Sharpe ratio of every column, against `bt bench sweep`,
  as bar-backtests per second. Numba compiles on a first, untimed run.
"""
import argparse
import json
import os
import subprocess
import tempfile
import time

import numpy as np
import talib

MASK = (1 << 64) - 1


def bt_walk(bars):
    """IndicatorBenchmark.Workload's series: SplitMix64 uniforms, a multiplicative random walk."""
    state = 0x12345678
    close = np.empty(bars)
    high = np.empty(bars)
    low = np.empty(bars)

    def unit():
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return ((z ^ (z >> 31)) >> 11) * 2.0 ** -53

    price = 100.0
    for i in range(bars):
        price *= 1 + (unit() - 0.5) * 0.02
        close[i] = price
        high[i] = price * (1 + unit() * 0.01)
        low[i] = price * (1 - unit() * 0.01)
    return high, low, close


def best_seconds(fn, budget, minimum):
    fn()
    best, spent, reps = float("inf"), 0.0, 0
    while reps < minimum or spent < budget:
        t0 = time.perf_counter()
        fn()
        dt = time.perf_counter() - t0
        best, spent, reps = min(best, dt), spent + dt, reps + 1
    return best


def talib_ns_per_bar(bars):
    high, low, close = bt_walk(bars)
    calls = {
        "sma_20": lambda: talib.SMA(close, 20),
        "ema_20": lambda: talib.EMA(close, 20),
        "rsi_14": lambda: talib.RSI(close, 14),
        "macd_12_26_9": lambda: talib.MACD(close, 12, 26, 9),
        "bb_20_2": lambda: talib.BBANDS(close, 20, 2, 2),
        "atr_14": lambda: talib.ATR(high, low, close, 14),
    }
    budget, minimum = (0.3, 5) if bars > 10_000 else (0.1, 100)
    return {k: best_seconds(f, budget, minimum) * 1e9 / bars for k, f in calls.items()}


def run_json(bt, *args):
    out = subprocess.run([bt, *args, "--json"], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def export_synth(bt, bars, timeframe, directory):
    db = os.path.join(directory, "ref.sqlite")
    subprocess.run([bt, "data", "synth", "--symbols", "1", "--bars", str(bars), "--timeframe", timeframe,
                    "--db", db], check=True, capture_output=True)
    csv = subprocess.run([bt, "data", "export", "SYN0001", "--db", db], check=True, capture_output=True,
                         text=True).stdout
    os.remove(db)
    import pandas as pd
    from io import StringIO
    return pd.read_csv(StringIO(csv), index_col=0, parse_dates=True)


def vectorbt_engine(df):
    import vectorbt as vbt
    close = df["close"]
    fast, slow = vbt.MA.run(close, 10), vbt.MA.run(close, 30)
    entries, exits = fast.ma_crossed_above(slow), fast.ma_crossed_below(slow)

    def run():
        # Decided at t's close, filled at t+1's open: signals shifted one bar, priced at the open.
        return vbt.Portfolio.from_signals(close, entries.shift(1, fill_value=False), exits.shift(1, fill_value=False),
                                          price=df["open"], fees=0.001, init_cash=10_000, freq="1min")

    def plain():
        # The simplest call (numpy arrays, fills at the signal bar's close): vectorbt's fastest path.
        return vbt.Portfolio.from_signals(close.values, entries.values, exits.values, fees=0.001, init_cash=10_000)

    pf = run()
    plain()
    return best_seconds(run, 2.0, 5), best_seconds(plain, 2.0, 5), int(pf.orders.count())


def vectorbt_sweep(df):
    import vectorbt as vbt
    close = df["close"]
    windows = sorted(set(list(range(5, 51)) + list(range(20, 201, 5))))

    def run():
        fast, slow = vbt.MA.run_combs(close, window=windows, r=2, short_names=["fast", "slow"])
        entries, exits = fast.ma_crossed_above(slow), fast.ma_crossed_below(slow)
        pf = vbt.Portfolio.from_signals(close, entries, exits, fees=0.001, freq="1D")
        return pf.sharpe_ratio()

    sharpe = run()
    combos = len(sharpe)
    return best_seconds(run, 0, 3), combos


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bt", default=".build/release/bt")
    parser.add_argument("--quick", action="store_true", help="indicators only")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"load average at start: {load:.2f}")

    for bars in (1000, 1_000_000):
        ref = talib_ns_per_bar(bars)
        ours = run_json(args.bt, "bench", "indicators", "--bars", str(bars))["results"]
        print(f"\nindicators at {bars:,} bars, ns/bar: bt / TA-Lib = ratio")
        for k, v in ref.items():
            print(f"  {k:<14} {ours[k]:7.3f} / {v:7.3f} = {ours[k] / v:5.2f}x")
    if args.quick:
        return

    with tempfile.TemporaryDirectory() as tmp:
        minute = export_synth(args.bt, 1_000_000, "1m", tmp)
        daily = export_synth(args.bt, 10_000, "1d", tmp)
    vbt_pandas, vbt_numpy, orders = vectorbt_engine(minute)
    engine = run_json(args.bt, "bench", "engine", "--repeat", "9")
    none = engine["seconds"]
    print(f"\nma-cross 10/30, 1M bars ({orders} vectorbt orders): bt depth none {none * 1e3:.2f} ms; "
          f"vectorbt from_signals on pandas Series, next-open fills {vbt_pandas * 1e3:.1f} ms = bt {vbt_pandas / none:.1f}x faster; "
          f"on numpy arrays, close fills {vbt_numpy * 1e3:.1f} ms = bt {vbt_numpy / none:.1f}x faster; "
          f"bt depth synthetic {engine['seconds_synthetic'] * 1e3:.2f} ms "
          f"({engine['seconds_synthetic'] / none:.2f}x depth none)")

    vbt_sweep, combos = vectorbt_sweep(daily)
    sweep = run_json(args.bt, "bench", "sweep")
    vbt_rate = combos * 10_000 / vbt_sweep
    bt_rate = sweep["combos"] * sweep["bars"] / sweep["seconds"]
    print(f"\nsweep {combos} combinations x 10,000 bars: vectorbt {vbt_sweep:.2f} s = {vbt_rate / 1e6:.2f} M bar-backtests/s; "
          f"bt {sweep['seconds']:.3f} s = {bt_rate / 1e6:.1f} M/s = {bt_rate / vbt_rate:.0f}x")
    print(f"\nload average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
