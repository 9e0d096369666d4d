"""Every indicator and output of `bt indicators` through btcore.ta equals the committed TA-Lib
goldens (Tests/Fixtures/talib, written by TA-Lib 0.8.2; Donchian and VWAP by pandas/numpy)
within 1e-9 relative, with the warm-up NaN where TA-Lib has it; lookbacks equal TA-Lib's."""
import math
import re

import numpy as np
import pandas as pd
import pytest

import btcore
from btcore import ta
from conftest import REPO

FIXTURES = REPO / "Tests" / "Fixtures" / "talib"


def load(dataset):
    if dataset == "synth":
        d = pd.read_csv(FIXTURES / "synth_input.csv")
    else:
        d = pd.read_csv(REPO / "data" / f"{dataset.upper()}.csv", index_col=0)
        d.columns = [c.lower() for c in d.columns]
    return {c: d[c].to_numpy(dtype=float) for c in ("open", "high", "low", "close", "volume")}


def goldens(dataset):
    return pd.read_csv(FIXTURES / f"{dataset}_goldens.csv")


def compute(column, d):
    """The btcore.ta call for a golden column named as `bt indicators` names it."""
    o, h, l, c, v = d["open"], d["high"], d["low"], d["close"], d["volume"]
    match = re.fullmatch(r"([a-z_]+?)_((?:[0-9.]+_?)+)", column)
    if column == "obv":
        return ta.obv(c, v)
    name, params = match.group(1), [float(p) for p in match.group(2).split("_")]
    p = [int(x) if x.is_integer() else x for x in params]
    single = {"sma": ta.sma, "ema": ta.ema, "wma": ta.wma, "rsi": ta.rsi, "roc": ta.roc, "stddev": ta.stddev}
    triple = {"atr": ta.atr, "willr": ta.willr, "cci": ta.cci, "adx": ta.adx}
    if name in single:
        return single[name](c, p[0])
    if name in triple:
        return triple[name](h, l, c, p[0])
    if name == "vwap":
        return ta.vwap(h, l, c, v, p[0])
    if name.startswith("macd"):
        out = dict(zip(["macd", "macd_signal", "macd_hist"], ta.macd(c, p[0], p[1], p[2])))
        return out[name]
    if name.startswith("bb_"):
        out = dict(zip(["bb_upper", "bb_middle", "bb_lower"], ta.bbands(c, p[0], p[1], p[1])))
        return out[name]
    if name.startswith("donchian"):
        out = dict(zip(["donchian_upper", "donchian_middle", "donchian_lower"], ta.donchian(h, l, p[0])))
        return out[name]
    if name.startswith("stoch"):
        out = dict(zip(["stoch_k", "stoch_d"], ta.stoch(h, l, c, fastk_period=p[0], slowk_period=p[1], slowd_period=p[2])))
        return out[name]
    raise AssertionError(f"no btcore.ta call for golden column {column}")


def close(a, b, tolerance=1e-9):
    """As the Swift tests: |a - b| <= tolerance x max(|b|, 1e-3), NaN equal to NaN."""
    both_nan = np.isnan(a) & np.isnan(b)
    ok = np.abs(a - b) <= tolerance * np.maximum(np.abs(b), 1e-3)
    return both_nan | ok


CASES = [(dataset, column) for dataset in ("goog", "eurusd", "synth") for column in goldens(dataset).columns if column != "i"]


@pytest.mark.parametrize("dataset,column", CASES, ids=[f"{d}-{c}" for d, c in CASES])
def test_equals_talib(dataset, column):
    d = load(dataset)
    table = goldens(dataset)
    rows = table["i"].to_numpy()
    expected = table[column].to_numpy(dtype=float)
    got = np.asarray(compute(column, d))[rows]
    bad = np.flatnonzero(~close(got, expected))
    assert bad.size == 0, f"{column} differs at bar {rows[bad[0]]}: {got[bad[0]]!r} vs TA-Lib {expected[bad[0]]!r} ({bad.size} bars)"


def test_every_output_of_bt_indicators_is_covered():
    names = {c for c in goldens("goog").columns if c != "i"}
    kinds = {re.sub(r"(_[0-9.]+)+$", "", n) for n in names}
    assert kinds == {"sma", "ema", "wma", "rsi", "roc", "stddev", "macd", "macd_signal", "macd_hist", "bb_upper", "bb_middle",
                     "bb_lower", "atr", "willr", "cci", "adx", "stoch_k", "stoch_d", "obv", "donchian_upper", "donchian_middle",
                     "donchian_lower", "vwap"}


@pytest.mark.parametrize("call,expected", [
    (("sma", 20), 19), (("ema", 20), 19), (("wma", 20), 19), (("rsi", 14), 14), (("roc", 10), 10), (("stddev", 5), 4),
    (("macd", 12, 26, 9), 33), (("bbands", 20), 19), (("atr", 14), 14), (("willr", 14), 13), (("cci", 14), 13),
    (("adx", 14), 27), (("stoch", 14, 3, 3), 17), (("obv",), 0), (("donchian", 20), 19), (("vwap", 20), 19),
    (("macd",), 33), (("stoch",), 8),
])
def test_lookbacks_are_talibs(call, expected):
    assert ta.lookback(*call) == expected


def test_warmup_is_nan_and_length_kept():
    d = load("goog")
    out = ta.rsi(d["close"], 14)
    assert len(out) == len(d["close"])
    assert np.isnan(out[:14]).all() and not np.isnan(out[14:]).any()


def test_series_in_series_out_aligned(goog):
    out = ta.atr(goog.high, goog.low, goog.close, 14)
    assert isinstance(out, pd.Series) and out.index.equals(goog.index)
    macd, signal, hist = ta.macd(goog.close)
    assert all(isinstance(x, pd.Series) and x.index.equals(goog.index) for x in (macd, signal, hist))
    assert isinstance(ta.sma(goog.close.to_numpy(), 5), np.ndarray)


def test_talib_defaults_and_upper_case_names(goog):
    c = goog.close.to_numpy()
    np.testing.assert_array_equal(ta.SMA(c), ta.sma(c, 30))
    np.testing.assert_array_equal(ta.RSI(c), ta.rsi(c, timeperiod=14))
    u, m, l = ta.BBANDS(c)  # timeperiod 5, nbdev 2 as TA-Lib
    assert ta.lookback("bbands") == 4 and np.isnan(u[3]) and not np.isnan(u[4])


def test_asymmetric_bands_and_nbdev():
    c = load("goog")["close"]
    u, m, l = ta.bbands(c, 20, 2.0, 1.0)
    u2, m2, l2 = ta.bbands(c, 20, 2.0, 2.0)
    u1, m1, l1 = ta.bbands(c, 20, 1.0, 1.0)
    np.testing.assert_array_equal(u, u2)
    np.testing.assert_array_equal(l, l1)
    np.testing.assert_allclose(ta.stddev(c, 20, 2.0)[19:], 2 * ta.stddev(c, 20)[19:])


def test_float64_arrays_are_not_copied(monkeypatch):
    """A C-contiguous float64 array reaches bt as its own memory (the address given is the array's)."""
    from btcore import _arrays
    x = np.linspace(1, 2, 100)
    assert _arrays.doubles(x, "x") is x
    s = pd.Series(x)
    assert np.shares_memory(_arrays.doubles(s, "x"), s.to_numpy())
    converted = _arrays.doubles(np.arange(100), "x")
    assert converted.dtype == np.float64 and converted.flags.c_contiguous
    strided = _arrays.doubles(x[::2], "x")
    assert strided.flags.c_contiguous and np.array_equal(strided, x[::2])


def test_nan_splits_into_runs_like_bt_indicators():
    x = np.arange(1.0, 41.0)
    x[20] = np.nan
    out = ta.sma(x, 5)
    assert np.isnan(out[20:25]).all()  # the gap, then the restarted warm-up
    assert out[25] == pytest.approx(np.mean(x[21:26]))
    assert out[19] == pytest.approx(np.mean(x[15:20]))


def test_series_shorter_than_the_warmup_is_all_nan():
    assert np.isnan(ta.sma(np.array([1.0, 2.0]), 5)).all()
    assert len(ta.rsi(np.array([]), 14)) == 0


def test_out_buffers_are_written_in_place_and_equal_new_arrays():
    d = load("goog")
    c, h, l = d["close"], d["high"], d["low"]
    n = len(c)
    buffer = np.full(n, 123.0)
    got = ta.rsi(c, 14, out=buffer)
    assert got is buffer
    assert np.array_equal(buffer, ta.rsi(c, 14), equal_nan=True)
    three = (np.empty(n), np.empty(n), np.empty(n))
    upper, middle, lower = ta.bbands(c, 20, 2.0, 2.0, out=three)
    assert upper is three[0] and middle is three[1] and lower is three[2]
    for mine, fresh in zip(three, ta.bbands(c, 20, 2.0, 2.0)):
        assert np.array_equal(mine, fresh, equal_nan=True)
    atr = np.empty(n)
    assert np.array_equal(ta.atr(h, l, c, 14, out=atr), ta.atr(h, l, c, 14), equal_nan=True)


@pytest.mark.parametrize("bad", [
    lambda n: np.empty(n - 1),                       # wrong length
    lambda n: np.empty(n, dtype=np.float32),         # wrong dtype
    lambda n: np.empty(2 * n)[::2],                  # not contiguous
    lambda n: (np.empty(n), np.empty(n)),            # two arrays for one output
    lambda n: [1.0] * n,                             # not an array
])
def test_out_buffers_refused_with_a_message(bad):
    c = load("goog")["close"]
    with pytest.raises(btcore.InputError, match="out"):
        ta.sma(c, 20, out=bad(len(c)))


def test_out_buffers_refused_when_read_only():
    c = load("goog")["close"]
    frozen = np.empty(len(c))
    frozen.setflags(write=False)
    with pytest.raises(btcore.InputError, match="writable"):
        ta.sma(c, 20, out=frozen)
    with pytest.raises(btcore.InputError, match="expected 3 arrays"):
        ta.macd(c, out=np.empty(len(c)))
