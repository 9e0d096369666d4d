#!/usr/bin/env python3
"""Writes the TA-Lib golden files the indicator tests compare against (dev-only; run by hand).

    python3 Tests/Fixtures/talib/make_goldens.py

Needs `ta-lib` 0.8.2 (TA-Lib C 0.6+), numpy and pandas. Reads data/GOOG.csv and data/EURUSD.csv,
generates a deterministic 20,000-bar random walk (numpy seed 20240607, prices rounded to cents)
and writes, next to this script:
  synth_input.csv          the random walk: open,high,low,close,volume
  <dataset>_goldens.csv    one column per output, named as `bt indicators` names them
                           (sma_20, macd_signal_12_26_9, ...); repr floats; empty = NaN.
For synth only every 10th row plus the first and last 300 rows are written (column `i` is the
bar index) to keep the fixtures small. Donchian and rolling VWAP have no TA-Lib function:
their references are pandas rolling max/min and numpy rolling sums.
"""
import os
import numpy as np
import pandas as pd
import talib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def load(name):
    df = pd.read_csv(os.path.join(ROOT, "data", name), index_col=0)
    return {k.lower(): df[k].to_numpy(dtype=float) for k in ["Open", "High", "Low", "Close", "Volume"]}


def synth(n=20_000, seed=20240607):
    rng = np.random.default_rng(seed)
    close = np.round(100 * np.exp(np.cumsum(rng.normal(0, 0.01, n))), 2)
    open_ = np.round(np.concatenate([[100.0], close[:-1]]) * (1 + rng.normal(0, 0.002, n)), 2)
    high = np.round(np.maximum(open_, close) * (1 + np.abs(rng.normal(0, 0.004, n))), 2)
    low = np.round(np.minimum(open_, close) * (1 - np.abs(rng.normal(0, 0.004, n))), 2)
    volume = np.round(rng.lognormal(13, 0.5, n))
    return {"open": open_, "high": high, "low": low, "close": close, "volume": volume}


def fmt(v):
    return "" if np.isnan(v) else repr(float(v))


def name(base, *params):
    return "_".join([base] + [str(p) for p in params])


def rolling_vwap(h, l, c, v, p):
    tp = (h + l + c) / 3
    pv = pd.Series(tp * v).rolling(p).sum().to_numpy()
    vv = pd.Series(v).rolling(p).sum().to_numpy()
    with np.errstate(invalid="ignore", divide="ignore"):
        out = pv / vv
    out[vv == 0] = np.nan
    return out


def columns(d, full):
    o, h, l, c, v = d["open"], d["high"], d["low"], d["close"], d["volume"]
    cols = {}
    periods = [5, 20, 50] if full else [20]
    for p in periods:
        cols[name("sma", p)] = talib.SMA(c, p)
        cols[name("ema", p)] = talib.EMA(c, p)
        cols[name("wma", p)] = talib.WMA(c, p)
        cols[name("stddev", p)] = talib.STDDEV(c, p, 1)
        cols[name("cci", p)] = talib.CCI(h, l, c, p)
        cols[name("donchian_upper", p)] = pd.Series(h).rolling(p).max().to_numpy()
        cols[name("donchian_lower", p)] = pd.Series(l).rolling(p).min().to_numpy()
        cols[name("donchian_middle", p)] = (cols[name("donchian_upper", p)] + cols[name("donchian_lower", p)]) / 2
        cols[name("vwap", p)] = rolling_vwap(h, l, c, v, p)
    for p in ([2, 14, 30] if full else [14]):
        cols[name("rsi", p)] = talib.RSI(c, p)
        cols[name("atr", p)] = talib.ATR(h, l, c, p)
        cols[name("willr", p)] = talib.WILLR(h, l, c, p)
        cols[name("adx", p)] = talib.ADX(h, l, c, p)
    for p in ([1, 10, 20] if full else [10]):
        cols[name("roc", p)] = talib.ROC(c, p)
    for f, s, g in ([(12, 26, 9), (5, 35, 5), (3, 10, 16)] if full else [(12, 26, 9)]):
        m, sig, hist = talib.MACD(c, f, s, g)
        cols[name("macd", f, s, g)] = m
        cols[name("macd_signal", f, s, g)] = sig
        cols[name("macd_hist", f, s, g)] = hist
    for p, k in ([(20, 2), (10, 1.5), (50, 3)] if full else [(20, 2)]):
        u, mid, low = talib.BBANDS(c, p, k, k, 0)
        ks = str(int(k)) if k == int(k) else str(k)
        cols[name("bb_upper", p, ks)] = u
        cols[name("bb_middle", p, ks)] = mid
        cols[name("bb_lower", p, ks)] = low
    for fk, sk, sd in ([(14, 3, 3), (5, 3, 3), (9, 1, 4)] if full else [(14, 3, 3)]):
        k, dd = talib.STOCH(h, l, c, fk, sk, 0, sd, 0)
        cols[name("stoch_k", fk, sk, sd)] = k
        cols[name("stoch_d", fk, sk, sd)] = dd
    cols["obv"] = talib.OBV(c, v)
    return cols


def write(path, cols, rows):
    names = list(cols)
    with open(path, "w") as f:
        f.write(",".join(["i"] + names) + "\n")
        for i in rows:
            f.write(",".join([str(i)] + [fmt(cols[n][i]) for n in names]) + "\n")


def main():
    s = synth()
    with open(os.path.join(HERE, "synth_input.csv"), "w") as f:
        f.write("open,high,low,close,volume\n")
        for i in range(len(s["close"])):
            f.write(",".join(repr(float(s[k][i])) for k in ["open", "high", "low", "close", "volume"]) + "\n")
    n = len(s["close"])
    rows = sorted(set(range(0, 300)) | set(range(0, n, 10)) | set(range(n - 300, n)))
    write(os.path.join(HERE, "synth_goldens.csv"), columns(s, full=False), rows)
    for label, file in [("goog", "GOOG.csv"), ("eurusd", "EURUSD.csv")]:
        d = load(file)
        write(os.path.join(HERE, f"{label}_goldens.csv"), columns(d, full=(label == "goog")), range(len(d["close"])))


if __name__ == "__main__":
    main()
