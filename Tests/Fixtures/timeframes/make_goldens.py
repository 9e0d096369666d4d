#!/usr/bin/env python3
"""Writes the goldens of expressions that read other series with `@` (dev-only; run by hand,
never in CI).

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install pandas numpy
    /tmp/venv/bin/python Tests/Fixtures/timeframes/make_goldens.py

Computed independently of bt, with pandas, the way issue 41 defines `@`:

- a higher timeframe is the run's bars grouped into UTC buckets (days at midnight, weeks from
  Monday 00:00, months from the 1st; no session: the shipped files are UTC), first open, max
  high, min low, last close, summed volume, empty buckets dropped;
- a bar stamped t closes at the end of its bucket (t + its length; the next month's 1st);
- at a run bar that closes at T the value is that of the last bar of the other series that
  closed at or before T (an as-of join on close times), NaN where none has;
- another symbol's value is NaN once T is more than its bar length (or the stale allowance
  of the case) past that bar's close; the run's own symbol never goes stale;
- sma is the rolling mean, highest the rolling max, of the other series' own bars.

The two-symbol cases read GOOGX: data/GOOG.csv without every 7th bar (other holidays).

Writes, next to this script:
  cases.txt           id <TAB> dataset (goog|eurusd) <TAB> expression <TAB> max stale seconds (empty: none)
  <dataset>_goldens.csv   the bar, then one column per case of that dataset, one row per run bar; repr floats; empty = NaN.
"""
import os
import numpy as np
import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
DAY = 86400


def load(name):
    df = pd.read_csv(os.path.join(ROOT, "data", name), index_col=0)
    df.index = pd.to_datetime(df.index, utc=True)
    df.columns = [c.lower() for c in df.columns]
    return df


def resample(df, tf):
    t = df.index
    if tf == "4h":
        bucket = t.floor("4h")
    elif tf == "1d":
        bucket = t.floor("1D")
    elif tf == "1w":
        day = t.floor("1D")
        bucket = day - pd.to_timedelta(day.day_of_week, unit="D")
    elif tf == "1M":
        bucket = pd.DatetimeIndex([pd.Timestamp(year=x.year, month=x.month, day=1, tz="UTC") for x in t])
    else:
        raise ValueError(tf)
    out = df.groupby(bucket).agg({"open": "first", "high": "max", "low": "min", "close": "last", "volume": "sum"})
    return out


def ends(index, tf):
    if tf == "1M":
        return pd.DatetimeIndex([(x + pd.offsets.MonthBegin(1)) for x in index])
    length = {"1h": 3600, "4h": 4 * 3600, "1d": DAY, "1w": 7 * DAY}[tf]
    return index + pd.Timedelta(seconds=length)


def seconds(index):
    # Not asi8: its unit is the index's resolution (ns or us, by pandas version).
    return np.asarray((index - pd.Timestamp(0, tz="UTC")) // pd.Timedelta(seconds=1), dtype=np.int64)


def aligned(run, run_tf, other, other_tf, values, max_age):
    """values (one per other bar) as of each run bar's close."""
    run_close = seconds(ends(run.index, run_tf))
    other_close = seconds(ends(other.index, other_tf))
    j = np.searchsorted(other_close, run_close, side="right") - 1
    out = np.where(j >= 0, np.asarray(values, dtype=float)[np.maximum(j, 0)], np.nan)
    if max_age is not None:
        age = run_close - other_close[np.maximum(j, 0)]
        out = np.where((j >= 0) & (age <= max_age), out, np.nan)
    return out


def main():
    goog = load("GOOG.csv")
    eurusd = load("EURUSD.csv")
    googx = goog[np.arange(len(goog)) % 7 != 3]
    cases = []  # id, dataset, expression, max stale, values

    def own(dataset, run, run_tf, cid, expr, tf, f):
        other = resample(run, tf)
        cases.append((cid, dataset, expr, None, aligned(run, run_tf, other, tf, f(other), None)))

    own("eurusd", eurusd, "1h", "close_1d", "close@1d", "1d", lambda o: o.close)
    own("eurusd", eurusd, "1h", "sma5_1d", "sma(close, 5)@1d", "1d", lambda o: o.close.rolling(5).mean())
    own("eurusd", eurusd, "1h", "highest3_4h", "highest(high, 3)@4h", "4h", lambda o: o.high.rolling(3).max())
    own("eurusd", eurusd, "1h", "open_1w", "open@1w", "1w", lambda o: o.open)
    own("eurusd", eurusd, "1h", "filter_1d", "close > sma(close, 3)@1d", "1d", lambda o: o.close.rolling(3).mean())
    own("goog", goog, "1d", "sma10_1w", "sma(close, 10)@1w", "1w", lambda o: o.close.rolling(10).mean())
    own("goog", goog, "1d", "close_1M", "close@1M", "1M", lambda o: o.close)
    # The filter's condition: the run's close against the aligned value (NaN: unknown).
    cid, d, e, s, v = cases[4]
    close = eurusd.close.to_numpy()
    cases[4] = (cid, d, e, s, np.where(np.isnan(v), np.nan, (close > v).astype(float)))

    for cid, expr, f, stale in [
        ("close_x", "close@GOOGX", lambda o: o.close, None),
        ("sma3_x", "sma(close, 3)@GOOGX", lambda o: o.close.rolling(3).mean(), None),
        ("close_x_stale3d", "close@GOOGX", lambda o: o.close, 3 * DAY),
        ("close_x_1w", "close@GOOGX@1w", lambda o: o.close, None),
    ]:
        tf = "1w" if expr.endswith("@1w") else "1d"
        other = googx if tf == "1d" else resample(googx, "1w")
        length = DAY if tf == "1d" else 7 * DAY
        max_age = max(length, stale or 0)
        cases.append((cid, "goog", expr, stale, aligned(goog, "1d", other, tf, f(other), max_age)))

    with open(os.path.join(HERE, "cases.txt"), "w") as f:
        for cid, dataset, expr, stale, _ in cases:
            f.write(f"{cid}\t{dataset}\t{expr}\t{'' if stale is None else stale}\n")
    for dataset, run in [("goog", goog), ("eurusd", eurusd)]:
        mine = [c for c in cases if c[1] == dataset]
        with open(os.path.join(HERE, f"{dataset}_goldens.csv"), "w") as f:
            f.write(",".join(["bar"] + [c[0] for c in mine]) + "\n")
            for i in range(len(run)):
                f.write(",".join([str(i)] + ["" if np.isnan(c[4][i]) else repr(float(c[4][i])) for c in mine]) + "\n")


if __name__ == "__main__":
    main()
