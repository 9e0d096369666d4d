#!/usr/bin/env python3
"""Writes the goldens of expressions that read other series with `@`, and signals of `@` rules
for `bt run --signals` (dev-only; run by hand, never in CI).

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install pandas numpy
    /tmp/venv/bin/python Tests/Fixtures/timeframes/make_goldens.py [--shift K]

(Last run with pandas 3.1.1, numpy 2.4.6.) Computed independently of bt, with pandas, the way
issue 41 defines `@`:

- a higher timeframe is the run's bars grouped into UTC buckets (days at midnight, weeks from
  Monday 00:00, months from the 1st) for the shipped files, which are UTC and have no session,
  first open, max high, min low, last close, summed volume, empty buckets dropped;
- a bar stamped t closes at the end of its bucket (t + its length; the next month's 1st);
- a series with a session (STOCK: America/New_York 09:30-16:00, as `bt data import --tz
  America/New_York --session 09:30-16:00` stores it) is resampled along the session in local
  time: hourly buckets from 09:30 (09:30, 10:30, ..., 15:30), daily buckets one local date each,
  stamped 00:00 UTC of that date; an hourly bar closes an hour after it starts or at the day's
  16:00 if sooner (the 15:30 bar at 16:00), a daily bar at 16:00 local of its date (20:00 UTC
  in daylight time, 21:00 in standard time), a minute bar a minute after it starts;
- at a run bar that closes at T the value is that of the last bar of the other series that
  closed at or before T (an as-of join on close times), NaN where none has;
- another symbol's value is NaN once T is more than its bar length (or the stale allowance
  of the case) past that bar's close; the run's own symbol never goes stale;
- sma is the rolling mean, highest the rolling max, of the other series' own bars; a
  condition `close > X` is 1/0 where X is known, NaN elsewhere (a rule's NaN is false).

The two-symbol cases read GOOGX: data/GOOG.csv without every 7th bar (other holidays). STOCK is
synthetic (`stock_minutes`): 1m bars from 28 Oct to 6 Dec 2024, across the change of clocks on
3 Nov, Thanksgiving, the 13:00 half day after it, two days ending at 15:56, 2% of minutes missing.

--shift K joins at the close of the run bar K bars later (1: one bar of look-ahead; -1: one bar
late), to see that every alignment test fails with goldens off by one bar; never commit those.

Writes, next to this script:
  cases.txt               id <TAB> dataset <TAB> expression <TAB> max stale seconds (empty: none);
                          datasets: goog (daily), eurusd (hourly), stock (STOCK's minutes),
                          stock1h (STOCK resampled to 1h along its session, as --timeframe 1h)
  <dataset>_goldens.csv   the bar, then one column per case of that dataset, one row per run bar;
                          repr floats; empty = NaN
  STOCK.csv               the minute stock, New York times with their offset
  stock_bars_<1h|1d>.csv  STOCK resampled along the session: the bar, time and end (UTC epoch
                          seconds: when the bar starts and closes), open, high, low, close, volume
  signals.txt             dataset <TAB> entry rule <TAB> exit rule, each reading `@`
  <dataset>_signals.csv   those rules' signals computed here from the aligned values, in the
                          format `bt signals` prints and `bt run --signals` reads (time,entry,exit)
"""
import argparse
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


def aligned(run_close, other_close, values, max_age, shift=0):
    """values (one per bar of the other series, which close at other_close) as of each run bar's
    close (run_close); NaN where none has closed, or the last closed more than max_age before.
    shift != 0 joins at the close of the run bar that many bars later (for --shift only)."""
    if shift:
        run_close = run_close[np.clip(np.arange(len(run_close)) + shift, 0, len(run_close) - 1)]
    j = np.searchsorted(other_close, run_close, side="right") - 1
    out = np.where(j >= 0, np.asarray(values, dtype=float)[np.maximum(j, 0)], np.nan)
    if max_age is not None:
        age = run_close - other_close[np.maximum(j, 0)]
        out = np.where((j >= 0) & (age <= max_age), out, np.nan)
    return out


def condition(close, value, ties=False):
    """close > value as 1/0, NaN where value is. Near-ties, which the order of a sum could decide
    either way, are refused unless ties (the EURUSD filter has one, at bar 4291: 1.18634 against
    an SMA of 1.1863400000000002, false in pandas and in bt)."""
    close = np.asarray(close, dtype=float)
    known = ~np.isnan(value)
    gap = np.abs(close[known] - value[known])
    assert ties or gap.size == 0 or gap.min() > 1e-9 * np.abs(value[known]).max(), "a near-tie: pick other data or rules"
    return np.where(known, (close > value).astype(float), np.nan)


# A minute stock with a session -------------------------------------------------------------

NY = "America/New_York"
SESSION_OPEN = pd.Timedelta(hours=9, minutes=30)
SESSION_CLOSE = pd.Timedelta(hours=16)
HALF_DAY = pd.Timestamp("2024-11-29")
HALF_DAY_CLOSE = pd.Timedelta(hours=13)
# Days whose last bars are missing (a halt): the last bar is 15:56, so no minute sees the day.
EARLY_ENDS = [pd.Timestamp("2024-11-05"), pd.Timestamp("2024-12-03")]


def stock_minutes():
    """STOCK: 1m bars of a random walk (seed 41) in New York's 09:30-16:00 session, 28 Oct to
    6 Dec 2024: the clocks go back on 3 Nov (the close is 20:00 UTC before, 21:00 after), no
    bars on Thanksgiving (28 Nov), the half day after it ends at 13:00, two days end at 15:56
    (EARLY_ENDS), and about 2% of the minutes have no bar. Index: New York times."""
    rng = np.random.default_rng(41)
    days = [d for d in pd.bdate_range("2024-10-28", "2024-12-06") if d != pd.Timestamp("2024-11-28")]
    walls = []
    for d in days:
        end = HALF_DAY_CLOSE if d == HALF_DAY else SESSION_CLOSE
        if d in EARLY_ENDS:
            end -= pd.Timedelta(minutes=3)
        minutes = pd.timedelta_range(SESSION_OPEN, end - pd.Timedelta(minutes=1), freq="1min")
        walls.extend(d + m for m in minutes[rng.random(len(minutes)) >= 0.02])
    index = pd.DatetimeIndex(walls).tz_localize(NY)
    n = len(index)
    close = np.round(100 * np.exp(np.cumsum(rng.normal(0, 0.0008, n))), 4)
    open_ = np.round(np.concatenate([[100.0], close[:-1]]) + rng.normal(0, 0.005, n), 4)
    high = np.round(np.maximum(open_, close) + np.abs(rng.normal(0, 0.02, n)), 4)
    low = np.round(np.minimum(open_, close) - np.abs(rng.normal(0, 0.02, n)), 4)
    volume = rng.integers(100, 5000, n).astype(float)
    return pd.DataFrame({"open": open_, "high": high, "low": low, "close": close, "volume": volume}, index=index)


def session_bars(minutes, tf):
    """minutes resampled along the session: hourly buckets from 09:30 local (the 15:30 bar 30
    minutes long), ending at the earlier of an hour later and the day's 16:00; daily bars stamped
    00:00 UTC of the local date, ending at 16:00 local. Columns time and end: UTC seconds."""
    wall = minutes.index.tz_localize(None)
    day = wall.normalize()
    if tf == "1h":
        start_wall = day + SESSION_OPEN + ((wall - day - SESSION_OPEN) // pd.Timedelta(hours=1)) * pd.Timedelta(hours=1)
        end_wall = np.minimum(start_wall + pd.Timedelta(hours=1), day + SESSION_CLOSE)
        key = pd.DatetimeIndex(start_wall).tz_localize(NY).tz_convert("UTC")
        end = pd.DatetimeIndex(end_wall).tz_localize(NY).tz_convert("UTC")
    elif tf == "1d":
        key = pd.DatetimeIndex(day).tz_localize("UTC")
        end = pd.DatetimeIndex(day + SESSION_CLOSE).tz_localize(NY).tz_convert("UTC")
    else:
        raise ValueError(tf)
    out = minutes.groupby(key).agg({"open": "first", "high": "max", "low": "min", "close": "last", "volume": "sum"})
    out["end"] = pd.Series(seconds(end), index=key).groupby(level=0).first()
    out.insert(0, "time", seconds(out.index))
    return out


def stock_cases(minutes, shift):
    """The cases of the minute run (stock) and of its hourly resampling (stock1h)."""
    hours, days = session_bars(minutes, "1h"), session_bars(minutes, "1d")
    minute_close = seconds(minutes.index.tz_convert("UTC")) + 60
    cases = []
    for cid, expr, bars, f in [
        ("close_1h", "close@1h", hours, lambda o: o.close),
        ("highest5_1h", "highest(high, 5)@1h", hours, lambda o: o.high.rolling(5).max()),
        ("volume_1h", "volume@1h", hours, lambda o: o.volume),
        ("sma2_1h", "sma(close, 2)@1h", hours, lambda o: o.close.rolling(2).mean()),
        ("sma3_1d", "sma(close, 3)@1d", days, lambda o: o.close.rolling(3).mean()),
        ("filter_1d", "close > sma(close, 2)@1d", days, lambda o: o.close.rolling(2).mean()),
    ]:
        v = aligned(minute_close, bars.end.to_numpy(), f(bars), None, shift)
        if cid == "filter_1d":
            v = condition(minutes.close, v)
        cases.append((cid, "stock", expr, None, v))
    for cid, expr, f in [
        ("close_1d", "close@1d", lambda o: o.close),
        ("sma3_1d", "sma(close, 3)@1d", lambda o: o.close.rolling(3).mean()),
        ("filter_1d", "close > sma(close, 2)@1d", lambda o: o.close.rolling(2).mean()),
    ]:
        v = aligned(hours.end.to_numpy(), days.end.to_numpy(), f(days), None, shift)
        if cid == "filter_1d":
            v = condition(hours.close, v)
        cases.append((cid, "stock1h", expr, None, v))
    return hours, days, cases


# Signals for --signals ----------------------------------------------------------------------

def write_signals(path, times, entry_value, exit_value, close):
    """time,entry,exit rows: entry where close > entry_value, exit where close < exit_value (the
    rules' NaN is false). times: UTC seconds."""
    entry = condition(close, entry_value)
    exit_ = 1 - condition(close, exit_value)  # close < v, away from ties
    stamps = pd.to_datetime(times, unit="s", utc=True).strftime("%Y-%m-%dT%H:%M:%SZ")
    with open(path, "w") as f:
        f.write("time,entry,exit\n")
        for t, a, b in zip(stamps, entry, exit_):
            f.write(f"{t},{int(a == 1)},{int(b == 1)}\n")


def write_goldens(path, rows, columns):
    """bar, then columns (name, values): repr floats; empty = NaN."""
    with open(path, "w") as f:
        f.write(",".join(["bar"] + [name for name, _ in columns]) + "\n")
        for i in range(rows):
            f.write(",".join([str(i)] + ["" if np.isnan(v[i]) else repr(float(v[i])) for _, v in columns]) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shift", type=int, default=0,
                        help="join at the close of the run bar SHIFT bars later (-1: one bar late): "
                             "goldens to see the tests fail; never commit them")
    shift = parser.parse_args().shift
    goog = load("GOOG.csv")
    eurusd = load("EURUSD.csv")
    googx = goog[np.arange(len(goog)) % 7 != 3]
    cases = []  # id, dataset, expression, max stale, values

    def own(dataset, run, run_tf, cid, expr, tf, f):
        other = resample(run, tf)
        v = aligned(seconds(ends(run.index, run_tf)), seconds(ends(other.index, tf)), f(other), None, shift)
        cases.append((cid, dataset, expr, None, v))

    own("eurusd", eurusd, "1h", "close_1d", "close@1d", "1d", lambda o: o.close)
    own("eurusd", eurusd, "1h", "sma5_1d", "sma(close, 5)@1d", "1d", lambda o: o.close.rolling(5).mean())
    own("eurusd", eurusd, "1h", "highest3_4h", "highest(high, 3)@4h", "4h", lambda o: o.high.rolling(3).max())
    own("eurusd", eurusd, "1h", "open_1w", "open@1w", "1w", lambda o: o.open)
    own("eurusd", eurusd, "1h", "filter_1d", "close > sma(close, 3)@1d", "1d", lambda o: o.close.rolling(3).mean())
    own("goog", goog, "1d", "sma10_1w", "sma(close, 10)@1w", "1w", lambda o: o.close.rolling(10).mean())
    own("goog", goog, "1d", "close_1M", "close@1M", "1M", lambda o: o.close)
    # The filter's condition: the run's close against the aligned value (NaN: unknown).
    cid, d, e, s, eurusd_sma3 = cases[4]
    # sma(close, 6)@1d: the window of 2 to 5 gives a tie with some hourly close.
    eurusd_days = resample(eurusd, "1d")
    eurusd_sma6 = aligned(seconds(ends(eurusd.index, "1h")), seconds(ends(eurusd_days.index, "1d")),
                          eurusd_days.close.rolling(6).mean(), None, shift)
    cases[4] = (cid, d, e, s, condition(eurusd.close, eurusd_sma3, ties=True))

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
        v = aligned(seconds(ends(goog.index, "1d")), seconds(ends(other.index, tf)), f(other), max_age, shift)
        cases.append((cid, "goog", expr, stale, v))

    minutes = stock_minutes()
    hours, days, stock = stock_cases(minutes, shift)
    cases += stock

    with open(os.path.join(HERE, "cases.txt"), "w") as f:
        for cid, dataset, expr, stale, _ in cases:
            f.write(f"{cid}\t{dataset}\t{expr}\t{'' if stale is None else stale}\n")
    for dataset, rows in [("goog", len(goog)), ("eurusd", len(eurusd)), ("stock", len(minutes)), ("stock1h", len(hours))]:
        write_goldens(os.path.join(HERE, f"{dataset}_goldens.csv"), rows,
                      [(c[0], c[4]) for c in cases if c[1] == dataset])

    out = minutes.rename(columns=str.capitalize)
    out.index.name = None
    out.to_csv(os.path.join(HERE, "STOCK.csv"))
    for tf, bars in [("1h", hours), ("1d", days)]:
        write_goldens(os.path.join(HERE, f"stock_bars_{tf}.csv"), len(bars),
                      [(c, bars[c].to_numpy(dtype=float)) for c in ["time", "end", "open", "high", "low", "close", "volume"]])

    def column(dataset, cid):
        return next(c[4] for c in cases if c[1] == dataset and c[0] == cid)

    googx_sma3 = column("goog", "sma3_x")
    stock_sma3 = column("stock", "sma3_1d")
    stock_sma2_1h = column("stock", "sma2_1h")
    stock1h_sma3 = column("stock1h", "sma3_1d")
    rules = [
        ("eurusd", "close > sma(close, 6)@1d", "close < sma(close, 6)@1d",
         seconds(eurusd.index), eurusd_sma6, eurusd_sma6, eurusd.close),
        ("goog", "close > sma(close, 3)@GOOGX", "close < sma(close, 3)@GOOGX",
         seconds(goog.index), googx_sma3, googx_sma3, goog.close),
        ("stock", "close > sma(close, 3)@1d", "close < sma(close, 2)@1h",
         seconds(minutes.index.tz_convert("UTC")), stock_sma3, stock_sma2_1h, minutes.close),
        ("stock1h", "close > sma(close, 3)@1d", "close < sma(close, 3)@1d",
         hours.time.to_numpy(), stock1h_sma3, stock1h_sma3, hours.close),
    ]
    with open(os.path.join(HERE, "signals.txt"), "w") as f:
        for dataset, entry, exit_, *_ in rules:
            f.write(f"{dataset}\t{entry}\t{exit_}\n")
    for dataset, _, _, times, entry, exit_, close in rules:
        write_signals(os.path.join(HERE, f"{dataset}_signals.csv"), times, entry, exit_, close)


if __name__ == "__main__":
    main()
