"""Speed of the boundary, in `bt bench` style: `python -m btcore.bench`.

    make lib && BT_LIB=.build/release/libbt.so python -m btcore.bench [--bars N] [--bt PATH]

Prints, for each indicator of `bt bench indicators` on N bars (default 1,000,000), in ns per bar:
  - out=: `btcore.ta.NAME(array, ..., out=buffers)` into preallocated buffers, against bt: `bt
    bench indicators --json` (the kernel over preallocated buffers, run by the same machine at
    the same moment), and their ratio: what the boundary costs;
  - new: `btcore.ta.NAME(array, ...)` allocating its outputs, against TA-Lib's Python wrapper on
    the same arrays (which allocates too) when `talib` is importable, and their ratio;
then a backtest of ma-cross 10/30 (signals + engine, depth none) on N synthetic 1m bars written by
`bt data synth`, through btcore.backtest(strategy="ma-cross") on the DataFrame (the bars copied
and checked each call) and on `btcore.Bars(df)` (copied and checked once, as `bt bench engine`
generates its bars once), against `bt bench engine --json`;
then, on the same backtest, what reading its results costs: one statistic (`stat`), the table
without the bootstrap (`stats`, every value read) and with it (`stats(intervals=True)`), each
added to the backtest, the first two also as the median over rounds of their ratio to the
backtest alone measured in the same round (with the load average: the machine may be shared);
then 10,000 backtests of the same 1,000 bars' signal arrays in a Python loop (a notebook's
parameter loop), beside vectorbt's `Portfolio.from_signals` on the same arrays when `vectorbt` is
importable (in a loop of 100 calls, per backtest, and once with 10,000 columns, its vectorized way);
and the cost of one call on 100 bars (the boundary itself). Best of several runs each; build
with `make lib` (release): a debug library measures the debug build. Like `bt bench engine`,
the process asks glibc's malloc to keep freed memory (mallopt), so repeated runs reuse mapped
pages instead of page-faulting fresh ones.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

import numpy as np
import pandas as pd

import btcore
from btcore import ta


def best(call: Callable[[], object], budget: float = 0.5, minimum: int = 5) -> float:
    """The best of repeated calls, in seconds: at least `minimum`, for about `budget` seconds."""
    times: List[float] = []
    start = time.perf_counter()
    while len(times) < minimum or time.perf_counter() - start < budget:
        t = time.perf_counter()
        call()
        times.append(time.perf_counter() - t)
        if len(times) > 10_000:
            break
    return min(times)


def walk(n: int, seed: int = 0x12345678) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A random-walk OHLC series like `bt bench indicators`' (not the same numbers)."""
    rng = np.random.default_rng(seed)
    close = 100 * np.cumprod(1 + (rng.random(n) - 0.5) * 0.02)
    high = close * (1 + rng.random(n) * 0.01)
    low = close * (1 - rng.random(n) * 0.01)
    return high, low, close


def keep_freed_memory() -> None:
    """mallopt(M_TRIM_THRESHOLD and M_MMAP_THRESHOLD, 1 GiB), as `bt bench engine` does."""
    try:
        import ctypes
        libc = ctypes.CDLL(None)
        libc.mallopt(-1, 1 << 30)
        libc.mallopt(-3, 1 << 30)
    except (OSError, AttributeError):
        pass


def find_bt(given: Optional[str]) -> Optional[str]:
    if given:
        return given
    if os.environ.get("BT_BIN"):
        return os.environ["BT_BIN"]
    here = Path(btcore.library_path).resolve().parent
    for candidate in (here / "bt", Path.cwd() / ".build" / "release" / "bt"):
        if candidate.exists():
            return str(candidate)
    return shutil.which("bt")


def reading(bars: "btcore.Bars", rounds: int = 5) -> Dict[str, float]:
    """Seconds of the backtest plus one statistic, plus the table (every value read), plus the
    table with intervals; and the first two as ratios to the backtest alone: the median over
    `rounds` rounds of the ratio of each round's best times, measured in the same round, so a
    shared machine's load changes both sides alike (the load average is printed beside them)."""
    run = lambda: btcore.backtest(bars, strategy="ma-cross", depth="none")  # noqa: E731
    alone, stat, table = [], [], []
    for _ in range(rounds):
        alone.append(best(run, budget=0.5, minimum=5))
        stat.append(best(lambda: run().stat("final_equity"), budget=0.5, minimum=5))
        table.append(best(lambda: dict(run().stats), budget=0.5, minimum=5))
    return {
        "btcore_stat": min(stat), "btcore_stats": min(table),
        "btcore_stats_intervals": best(lambda: dict(run().stats(intervals=True)), budget=3.0, minimum=3),
        "ratio_stat": statistics.median(s / a for s, a in zip(stat, alone)),
        "ratio_stats": statistics.median(t / a for t, a in zip(table, alone)),
        "load_average": os.getloadavg()[0],
    }


def loop(small: pd.DataFrame, count: int = 10_000) -> Dict[str, float]:
    """Seconds per backtest of `small`'s ma-cross signal arrays: btcore in a loop of `count`, and
    vectorbt's from_signals in a loop of 100 and once with `count` columns when it is installed."""
    signals = btcore.signals(small, strategy="ma-cross")
    entries, exits = signals["entry"].to_numpy(), signals["exit"].to_numpy()
    bars = btcore.Bars(small)
    started = time.perf_counter()
    for _ in range(count):
        btcore.backtest(bars, entries, exits, depth="none")
    out = {"loop_btcore": (time.perf_counter() - started) / count}
    try:
        import vectorbt as vbt  # type: ignore
    except ImportError:
        return out
    close = small["close"].to_numpy()
    vbt.Portfolio.from_signals(close, entries, exits)  # compiles vectorbt's numba kernels first
    started = time.perf_counter()
    for _ in range(100):
        vbt.Portfolio.from_signals(close, entries, exits).final_value()
    out["loop_vectorbt"] = (time.perf_counter() - started) / 100
    wide = lambda a: np.repeat(a[:, None], count, axis=1)  # noqa: E731
    columns = (wide(close), wide(entries), wide(exits))
    vbt.Portfolio.from_signals(*columns).final_value()
    started = time.perf_counter()
    vbt.Portfolio.from_signals(*columns).final_value()
    out["columns_vectorbt"] = (time.perf_counter() - started) / count
    return out


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m btcore.bench", description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--bars", type=int, default=1_000_000)
    parser.add_argument("--bt", help="the bt binary for the reference figures (default $BT_BIN, else beside libbt, else ./.build/release/bt)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    args = parser.parse_args(argv)
    n = args.bars
    bt = find_bt(args.bt)
    keep_freed_memory()
    high, low, close = walk(n)
    o1, o2, o3 = np.empty(n), np.empty(n), np.empty(n)
    into: Dict[str, Callable[[], object]] = {
        "sma_20": lambda: ta.sma(close, 20, out=o1),
        "ema_20": lambda: ta.ema(close, 20, out=o1),
        "rsi_14": lambda: ta.rsi(close, 14, out=o1),
        "macd_12_26_9": lambda: ta.macd(close, 12, 26, 9, out=(o1, o2, o3)),
        "bb_20_2": lambda: ta.bbands(close, 20, 2, 2, out=(o1, o2, o3)),
        "atr_14": lambda: ta.atr(high, low, close, 14, out=o1),
    }
    calls: Dict[str, Callable[[], object]] = {
        "sma_20": lambda: ta.sma(close, 20),
        "ema_20": lambda: ta.ema(close, 20),
        "rsi_14": lambda: ta.rsi(close, 14),
        "macd_12_26_9": lambda: ta.macd(close, 12, 26, 9),
        "bb_20_2": lambda: ta.bbands(close, 20, 2, 2),
        "atr_14": lambda: ta.atr(high, low, close, 14),
    }
    try:
        import talib  # type: ignore
        reference = {
            "sma_20": lambda: talib.SMA(close, 20), "ema_20": lambda: talib.EMA(close, 20),
            "rsi_14": lambda: talib.RSI(close, 14), "macd_12_26_9": lambda: talib.MACD(close, 12, 26, 9),
            "bb_20_2": lambda: talib.BBANDS(close, 20, 2, 2, 0), "atr_14": lambda: talib.ATR(high, low, close, 14),
        }
    except ImportError:
        reference = {}
    boundary = {name: best(call) * 1e9 / n for name, call in into.items()}
    ours = {name: best(call) * 1e9 / n for name, call in calls.items()}
    theirs = {name: best(call) * 1e9 / n for name, call in reference.items()}
    cli: Dict[str, float] = {}
    if bt:
        out = subprocess.run([bt, "bench", "indicators", "--bars", str(n), "--json"], capture_output=True, text=True)
        if out.returncode == 0:
            cli = json.loads(out.stdout)["results"]
    small = np.ascontiguousarray(close[:100])
    call_us = best(lambda: ta.sma(small, 20), budget=0.3, minimum=1000) * 1e6

    engine: Dict[str, float] = {}
    if bt:
        with tempfile.TemporaryDirectory() as folder:
            db = os.path.join(folder, "bench.sqlite")
            made = subprocess.run([bt, "data", "synth", "--symbols", "1", "--bars", str(n), "--timeframe", "1m", "--seed", "1",
                                   "--db", db], capture_output=True, text=True)
            if made.returncode == 0:
                symbol = btcore.series(db=db).symbol[0]
                df = btcore.read(symbol, db=db)
                engine["btcore"] = best(lambda: btcore.backtest(df, strategy="ma-cross", depth="none"), budget=2.0, minimum=5)
                bars = btcore.Bars(df)
                engine["btcore_bars"] = best(lambda: btcore.backtest(bars, strategy="ma-cross", depth="none"), budget=2.0,
                                             minimum=5)
                engine.update(reading(bars))
                engine.update(loop(df.iloc[:1000]))
            out = subprocess.run([bt, "bench", "engine", "--bars", str(n), "--json"], capture_output=True, text=True)
            if out.returncode == 0:
                engine["bt"] = json.loads(out.stdout)["seconds"]

    if args.json:
        print(json.dumps({"bars": n, "library": btcore.library_path, "btcore_out_ns_per_bar": boundary,
                          "btcore_ns_per_bar": ours, "bt_ns_per_bar": cli,
                          "talib_ns_per_bar": theirs, "call_us_100_bars": call_us, "backtest_seconds": engine}))
        return 0
    print(f"btcore {btcore.version} ({btcore.library_path}), {n} bars, best of several runs")
    print(f"{'ns/bar':<14}{'btcore out=':>12}{'bt kernel':>11}{'x bt':>7}{'btcore new':>12}{'TA-Lib':>15}{'x TA-Lib':>10}")
    for name in calls:
        c = cli.get(name)
        t = theirs.get(name)
        print(f"{name:<14}{boundary[name]:>12.2f}{(f'{c:.2f}' if c else '-'):>11}{(f'{boundary[name] / c:.2f}' if c else '-'):>7}"
              f"{ours[name]:>12.2f}{(f'{t:.2f}' if t else 'not installed'):>15}{(f'{ours[name] / t:.2f}' if t else '-'):>10}")
    print(f"one call on 100 bars (sma 20): {call_us:.2f} us")
    if engine:
        c = engine.get("bt")
        print("backtest ma-cross 10/30, depth none" + (f": bt bench engine {c * 1e3:.1f} ms" if c else ""))
        for key, what in (("btcore", "backtest(df): copies and checks the bars"), ("btcore_bars", "backtest(Bars(df))")):
            b = engine.get(key)
            if b:
                print(f"  {what:<42}{b * 1e3:>8.1f} ms" + (f"  ({b / c:.2f}x)" if c else ""))
        alone = engine.get("btcore_bars")
        for key, what, ratio in (("btcore_stat", "  + .stat('final_equity')", "ratio_stat"),
                                 ("btcore_stats", "  + .stats (no intervals)", "ratio_stats"),
                                 ("btcore_stats_intervals", "  + .stats(intervals=True)", None)):
            b = engine.get(key)
            if b and alone:
                times = f"{engine[ratio]:.2f}x the backtest alone, median of rounds" if ratio else f"{b / alone:.2f}x the backtest alone"
                print(f"  {what:<42}{b * 1e3:>8.1f} ms  ({times})")
        if "load_average" in engine:
            print(f"  (load average {engine['load_average']:.2f} while the reading was measured)")
    if "loop_btcore" in engine:
        print("10,000 backtests of one 1,000-bar frame's signal arrays, per backtest")
        print(f"  {'btcore.backtest(Bars, entries, exits) loop':<42}{engine['loop_btcore'] * 1e6:>8.1f} us")
        for key, what in (("loop_vectorbt", "vectorbt from_signals, loop of 100"),
                          ("columns_vectorbt", "vectorbt from_signals, 10,000 columns")):
            if key in engine:
                print(f"  {what:<42}{engine[key] * 1e6:>8.1f} us  (btcore {engine[key] / engine['loop_btcore']:.1f}x faster)")
        if "loop_vectorbt" not in engine:
            print("  vectorbt: not installed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
