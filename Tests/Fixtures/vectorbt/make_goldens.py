#!/usr/bin/env python3
"""Dev-only: writes the vectorbt goldens for the engine's `--depth none` agreement test.

Not run by CI or the test suite; the tests read the committed `goldens.json`. Run by hand from
the repository root after changing a strategy's signal definition:

    pip install vectorbt TA-Lib pandas numpy   # vectorbt pulls numba; takes a few minutes
    python3 Tests/Fixtures/vectorbt/make_goldens.py

For each shipped data file (data/GOOG.csv, data/EURUSD.csv) and each strategy at its default
parameters, it computes the strategy's signals independently (TA-Lib indicators, pandas
crossings, exactly as documented in Sources/Strategies), then runs

    vbt.Portfolio.from_signals(close, entries.shift(1), exits.shift(1), price=open,
                               size=np.inf, fees=0.001, init_cash=10000)

which is bt's next-open execution (signal at t's close, fill at t+1's open, all in, 10 bps fee).
It records the signal bar indices (so the Swift test checks its own signals match), the final
portfolio value, and the trade count (closed plus a still-open trade).
"""
import json
import os

import numpy as np
import pandas as pd
import talib
import vectorbt as vbt

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
OUT = os.path.join(os.path.dirname(__file__), "goldens.json")


def cross_above(a, b):
    return (a > b) & (a.shift(1) <= b.shift(1))


def cross_below(a, b):
    return (a < b) & (a.shift(1) >= b.shift(1))


def ma_cross(df):
    c = df["Close"].values
    fast = pd.Series(talib.SMA(c, 10), index=df.index)
    slow = pd.Series(talib.SMA(c, 30), index=df.index)
    return cross_above(fast, slow), cross_below(fast, slow)


def rsi(df):
    r = pd.Series(talib.RSI(df["Close"].values, 14), index=df.index)
    lower = pd.Series(30.0, index=df.index)
    upper = pd.Series(70.0, index=df.index)
    return cross_below(r, lower), cross_above(r, upper)


def macd(df):
    m, s, _ = talib.MACD(df["Close"].values, 12, 26, 9)
    m = pd.Series(m, index=df.index)
    s = pd.Series(s, index=df.index)
    return cross_above(m, s), cross_below(m, s)


def bollinger(df):
    up, mid, low = talib.BBANDS(df["Close"].values, 20, 2.0, 2.0, 0)
    close = df["Close"]
    return close < pd.Series(low, index=df.index), close >= pd.Series(mid, index=df.index)


def donchian(df):
    upper = df["High"].rolling(20).max().shift(1)
    lower = df["Low"].rolling(10).min().shift(1)
    return df["Close"] > upper, df["Close"] < lower


STRATEGIES = {"ma-cross": ma_cross, "rsi": rsi, "macd": macd, "bollinger": bollinger, "donchian": donchian}


def main():
    goldens = {"vectorbt": vbt.__version__, "talib": talib.__version__, "cases": []}
    for name in ["GOOG", "EURUSD"]:
        df = pd.read_csv(os.path.join(ROOT, "data", f"{name}.csv"), index_col=0, parse_dates=True)
        for strategy, fn in STRATEGIES.items():
            entries, exits = fn(df)
            entries = entries.fillna(False).astype(bool)
            exits = exits.fillna(False).astype(bool)
            pf = vbt.Portfolio.from_signals(
                df["Close"], entries.shift(1, fill_value=False), exits.shift(1, fill_value=False),
                price=df["Open"], size=np.inf, fees=0.001, init_cash=10000)
            goldens["cases"].append({
                "data": name,
                "strategy": strategy,
                "bars": len(df),
                "entries": [int(i) for i in np.flatnonzero(entries.values)],
                "exits": [int(i) for i in np.flatnonzero(exits.values)],
                "final_value": float(pf.final_value()),
                "trades": int(pf.trades.count()),
                "open_trades": int(pf.trades.open.count()),
                "orders": int(pf.orders.count()),
            })
            c = goldens["cases"][-1]
            print(f"{name:7s} {strategy:10s} final {c['final_value']:.6f} trades {c['trades']} orders {c['orders']}")
    with open(OUT, "w") as f:
        json.dump(goldens, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
