#!/usr/bin/env python3
"""Writes the expression-language goldens (dev-only; run by hand, never in CI).

    pip install TA-Lib numpy pandas      # ta-lib 0.8.2, numpy 2, pandas 2+
    python3 Tests/Fixtures/expressions/make_goldens.py

Evaluates the expressions listed in EXPRESSIONS below on data/GOOG.csv and data/EURUSD.csv
independently of bt: indicators with TA-Lib (its Python wrappers start an indicator of a
derived series after the input's leading NaNs, which is bt's rule), windows with pandas, the
rest with numpy, following the semantics docs/guide/strategies.md documents:

- values are floats, NaN where undefined; conditions are 1.0, 0.0 or NaN (unknown);
- arithmetic propagates NaN; division by zero, log of x <= 0 and sqrt of x < 0 give NaN;
- comparisons with NaN are unknown; and/or/not are Kleene's three-valued logic;
- x[n] is x shifted n bars later (NaN for the first n bars);
- indicators and windows of a series with NaN inside it are computed on each run of finite
  values separately (`by_runs`), as bt's indicator core splits gaps;
- cross_above(a, b): a > b now and a <= b on the previous bar, unknown if any of the four is NaN;
- rising(x, n): x above each of its previous n values (Pine Script's ta.rising);
  falling(x, n) mirrors it;
- zscore(x, n) = (x - SMA(x, n)) / STDDEV(x, n) (population sd, as TA-Lib STDDEV);
- bars_since(c): bars since c was last true (0 on that bar), NaN before it first is.

Writes, next to this script:
  expressions.txt         id <TAB> expression <TAB> parameters (name=value,...), one per line
  <dataset>_goldens.csv   one column per expression id; repr floats; empty = NaN.
"""
import os
import numpy as np
import pandas as pd
import talib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
NAN = np.nan


def load(name):
    df = pd.read_csv(os.path.join(ROOT, "data", name), index_col=0)
    return {k.lower(): df[k].to_numpy(dtype=float) for k in ["Open", "High", "Low", "Close", "Volume"]}


# ---- helpers: the documented semantics, written independently of bt -------------------------

def by_runs(f, *xs):
    """f applied to each maximal run of bars where every input is finite; NaN elsewhere."""
    n = len(xs[0])
    finite = np.all([np.isfinite(x) for x in xs], axis=0)
    outs = None
    i = 0
    while i < n:
        if not finite[i]:
            i += 1
            continue
        j = i
        while j < n and finite[j]:
            j += 1
        r = f(*[x[i:j] for x in xs])
        r = r if isinstance(r, tuple) else (r,)
        if outs is None:
            outs = [np.full(n, NAN) for _ in r]
        for o, v in zip(outs, r):
            o[i:j] = v
        i = j
    if outs is None:
        outs = [np.full(n, NAN)]
    return outs[0] if len(outs) == 1 else tuple(outs)


def run_talib(fn, x, *args, **kw):
    # A run shorter than the lookback is all NaN (TA-Lib raises or returns NaN for those).
    def g(seg):
        try:
            return fn(seg, *args, **kw)
        except Exception:
            return NAN * np.ones_like(seg)
    return by_runs(g, x)


def shift(x, n):
    if n == 0:
        return x.copy()
    return np.concatenate([np.full(n, NAN), x[:-n]])


def defined(*xs):
    return np.all([~np.isnan(x) for x in xs], axis=0)


def cond(mask, known):
    out = np.where(mask, 1.0, 0.0)
    out[~known] = NAN
    return out


def cmp(a, b, op):
    a, b = np.broadcast_to(a, np.shape(a if np.ndim(a) else b)), np.broadcast_to(b, np.shape(b if np.ndim(b) else a))
    with np.errstate(invalid="ignore"):
        return cond(op(a, b), defined(a, b))


def k_and(a, b):
    out = np.where((a == 0) | (b == 0), 0.0, np.where(np.isnan(a) | np.isnan(b), NAN, 1.0))
    return out


def k_or(a, b):
    return np.where((a == 1) | (b == 1), 1.0, np.where(np.isnan(a) | np.isnan(b), NAN, 0.0))


def k_not(a):
    return np.where(np.isnan(a), NAN, 1.0 - a)


def div(a, b):
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(b == 0, NAN, a / np.where(b == 0, 1, b))


def log(x):
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(x > 0, np.log(np.where(x > 0, x, 1)), NAN)


def sqrt(x):
    with np.errstate(invalid="ignore"):
        return np.where(x >= 0, np.sqrt(np.where(x >= 0, x, 0)), NAN)


def nmin(*xs):
    out = xs[0]
    for x in xs[1:]:
        out = np.where(np.isnan(out) | np.isnan(x), NAN, np.minimum(out, x))
    return out


def nmax(*xs):
    out = xs[0]
    for x in xs[1:]:
        out = np.where(np.isnan(out) | np.isnan(x), NAN, np.maximum(out, x))
    return out


def cross(a, b, above):
    a1, b1, a0, b0 = a, np.broadcast_to(b, a.shape), shift(a, 1), shift(np.broadcast_to(b, a.shape).astype(float), 1)
    with np.errstate(invalid="ignore"):
        hit = (a1 > b1) & (a0 <= b0) if above else (a1 < b1) & (a0 >= b0)
    return cond(hit, defined(a1, b1, a0, b0))


def window(x, n, how):
    return by_runs(lambda s: getattr(pd.Series(s).rolling(n), how)().to_numpy(), x)


def rising(x, n):
    return cmp(x, shift(window(x, n, "max"), 1), np.greater)


def falling(x, n):
    return cmp(x, shift(window(x, n, "min"), 1), np.less)


def zscore(x, n):
    return div(x - run_talib(talib.SMA, x, n), run_talib(talib.STDDEV, x, n, 1))


def bars_since(c):
    out = np.full(len(c), NAN)
    last = -1
    for i, v in enumerate(c):
        if v == 1:
            last = i
        if last >= 0:
            out[i] = i - last
    return out


def donchian(d, n):
    upper = pd.Series(d["high"]).rolling(n).max().to_numpy()
    lower = pd.Series(d["low"]).rolling(n).min().to_numpy()
    return upper, (upper + lower) / 2, lower


def vwap(d, n):
    h, l, c, v = d["high"], d["low"], d["close"], d["volume"]
    tp = (h + l + c) / 3
    pv = pd.Series(tp * v).rolling(n).sum().to_numpy()
    vv = pd.Series(v).rolling(n).sum().to_numpy()
    return div(pv, vv)


# ---- the expressions: text for bt, and the same computation here ----------------------------

def expressions(d):
    o, h, l, c, v = d["open"], d["high"], d["low"], d["close"], d["volume"]
    hl2, hlc3, ohlc4 = (h + l) / 2, (h + l + c) / 3, (o + h + l + c) / 4
    macd, signal, hist = talib.MACD(c, 12, 26, 9)
    rsi14 = talib.RSI(c, 14)
    stoch_k, stoch_d = talib.STOCH(h, l, c, 14, 3, 0, 3, 0)
    bb_u, bb_m, bb_l = talib.BBANDS(c, 20, 2, 2, 0)
    bb25_u, _, _ = talib.BBANDS(c, 20, 2.5, 2.5, 0)
    dc_u, dc_m, dc_l = donchian(d, 20)
    ema5 = talib.EMA(c, 5)
    return [
        ("arith", "(sma(close, 10) - ema(close, 20)) / wma(close, 15) * 100 + change(close, 3)", {},
         div(talib.SMA(c, 10) - talib.EMA(c, 20), talib.WMA(c, 15)) * 100 + (c - shift(c, 3))),
        ("macd_cross", "cross_above(macd(close, 12, 26, 9), macd(close, 12, 26, 9).signal) or cross_below(macd(close).hist, 0)", {},
         k_or(cross(macd, signal, True), cross(hist, 0.0, False))),
        ("bands", "(close <= bb(close, 20, 2).lower or close >= bb(close, 20, 2.5).upper) and not (rsi(close, $n) > 50)",
         {"n": 14},
         k_and(k_or(cmp(c, bb_l, np.less_equal), cmp(c, bb25_u, np.greater_equal)), k_not(cmp(rsi14, 50.0, np.greater)))),
        ("derived", "sma(atr(14), 50)", {}, talib.SMA(talib.ATR(h, l, c, 14), 50)),
        ("oscillators", "stoch(14, 3, 3).k - stoch(14, 3, 3).d + willr(14) + cci(20) / 10", {},
         stoch_k - stoch_d + talib.WILLR(h, l, c, 14) + talib.CCI(h, l, c, 20) / 10),
        ("volume", "adx(14) * (obv() / sum(volume, 20))", {},
         talib.ADX(h, l, c, 14) * div(talib.OBV(c, v), window(v, 20, "sum"))),
        ("prices", "vwap(20) - hlc3 + (hl2 - ohlc4) * 2", {}, vwap(d, 20) - hlc3 + (hl2 - ohlc4) * 2),
        ("range", "(highest(high, 20) - lowest(low, 20)) / stddev(close, 20)", {},
         div(window(h, 20, "max") - window(l, 20, "min"), talib.STDDEV(c, 20, 1))),
        ("zscore", "zscore(close, 30) + roc(close, $r) / 100", {"r": 10}, zscore(c, 30) + talib.ROC(c, 10) / 100),
        ("trend", "rising(close, 3) and not falling(sma(close, 5), 2) or close[1] == open", {},
         k_or(k_and(rising(c, 3), k_not(falling(talib.SMA(c, 5), 2))), cmp(shift(c, 1), o, np.equal))),
        ("since", "bars_since(cross_above(close, sma(close, 20))) + bars_since(close > open and volume != volume[1])", {},
         bars_since(cross(c, talib.SMA(c, 20), True)) + bars_since(k_and(cmp(c, o, np.greater), cmp(v, shift(v, 1), np.not_equal)))),
        ("math", "log(close) - log(close[1]) + sqrt(abs(change(close, 1))) - exp(-abs(close - open) / close)"
                 " + min(open, close, high) - max(low, open) + floor(close) - ceil(open)", {},
         log(c) - log(shift(c, 1)) + sqrt(np.abs(c - shift(c, 1))) - np.exp(-np.abs(c - o) / c)
         + nmin(o, c, h) - nmax(l, o) + np.floor(c) - np.ceil(o)),
        ("channel", "donchian(20).upper[1] < high or donchian(20).lower[1] > low or (close - donchian(20).middle) / close >= 0.05", {},
         k_or(k_or(cmp(shift(dc_u, 1), h, np.less), cmp(shift(dc_l, 1), l, np.greater)),
              cmp(div(c - dc_m, c), 0.05, np.greater_equal))),
        # Comparisons of values that can be exactly equal (a flat RSI) are left out: there the
        # last ulp, which no two implementations share, decides.
        ("negate", "-rsi(close, 7) < -80 or ema(close, 5)[2] <= ema(close, 5) and rising(hl2, 2)", {},
         k_or(cmp(-talib.RSI(c, 7), -80.0, np.less), k_and(cmp(shift(ema5, 2), ema5, np.less_equal), rising(hl2, 2)))),
        ("domain", "sqrt(close - low - 0.5 * (high - low)) + log(close - open)", {},
         sqrt(c - l - 0.5 * (h - l)) + log(c - o)),
        ("gaps", "sma((close - open) / (high - low), 5) + highest((close - open) / (high - low), 3)", {},
         run_talib(talib.SMA, div(c - o, h - l), 5) + window(div(c - o, h - l), 3, "max")),
    ]


def fmt(x):
    return "" if np.isnan(x) else repr(float(x))


def main():
    datasets = {"goog": load("GOOG.csv"), "eurusd": load("EURUSD.csv")}
    listing = None
    for name, d in datasets.items():
        exprs = expressions(d)
        lines = ["\t".join([i, text, ",".join(f"{k}={v}" for k, v in p.items())]) for i, text, p, _ in exprs]
        if listing is None:
            listing = lines
            with open(os.path.join(HERE, "expressions.txt"), "w") as f:
                f.write("\n".join(lines) + "\n")
        cols = [np.asarray(values, dtype=float) for _, _, _, values in exprs]
        with open(os.path.join(HERE, f"{name}_goldens.csv"), "w") as f:
            f.write(",".join(["i"] + [i for i, _, _, _ in exprs]) + "\n")
            for row in range(len(d["close"])):
                f.write(",".join([str(row)] + [fmt(col[row]) for col in cols]) + "\n")
        defined_share = {i: float(np.mean(~np.isnan(col))) for (i, _, _, _), col in zip(exprs, cols)}
        trues = {i: int(np.nansum(col == 1)) for (i, t, _, _), col in zip(exprs, cols)}
        print(name, "defined:", {k: round(x, 3) for k, x in defined_share.items()})
        print(name, "ones:", trues)


if __name__ == "__main__":
    main()
