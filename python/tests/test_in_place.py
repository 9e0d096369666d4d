"""btcore.ta with `out=` over its own input: an output may be the input's array or a view
overlapping it, and the values are those of separate arrays (as numpy's `out=` and TA-Lib's
in-place calls); outputs overlapping each other are refused. Every function, every output over
every input, and views shifted by one element either way."""
import numpy as np
import pandas as pd
import pytest

import btcore
from btcore import ta
from conftest import REPO

_frame = pd.read_csv(REPO / "data" / "GOOG.csv", index_col=0)
_frame.columns = [c.lower() for c in _frame.columns]
DATA = {c: _frame[c].to_numpy(dtype=float)[:400].copy() for c in ("high", "low", "close", "volume")}
DATA["close"][150] = np.nan  # a gap: the runs are split around it, in place as well

#: Each function of btcore.ta: its call (inputs, out), the columns it reads and its outputs.
#: Parameters other than TA-Lib's defaults where a second call would differ (bbands' nbdevdn,
#: stddev's nbdev).
FUNCTIONS = {
    "sma": (lambda i, out: ta.sma(*i, 10, out=out), ["close"], 1),
    "ema": (lambda i, out: ta.ema(*i, 10, out=out), ["close"], 1),
    "wma": (lambda i, out: ta.wma(*i, 10, out=out), ["close"], 1),
    "rsi": (lambda i, out: ta.rsi(*i, 14, out=out), ["close"], 1),
    "roc": (lambda i, out: ta.roc(*i, 10, out=out), ["close"], 1),
    "stddev": (lambda i, out: ta.stddev(*i, 10, 2.0, out=out), ["close"], 1),
    "macd": (lambda i, out: ta.macd(*i, 12, 26, 9, out=out), ["close"], 3),
    "bbands": (lambda i, out: ta.bbands(*i, 20, 2.0, 1.5, out=out), ["close"], 3),
    "atr": (lambda i, out: ta.atr(*i, 14, out=out), ["high", "low", "close"], 1),
    "willr": (lambda i, out: ta.willr(*i, 14, out=out), ["high", "low", "close"], 1),
    "cci": (lambda i, out: ta.cci(*i, 14, out=out), ["high", "low", "close"], 1),
    "adx": (lambda i, out: ta.adx(*i, 14, out=out), ["high", "low", "close"], 1),
    "stoch": (lambda i, out: ta.stoch(*i, 5, 3, 0, 3, 0, out=out), ["high", "low", "close"], 2),
    "obv": (lambda i, out: ta.obv(*i, out=out), ["close", "volume"], 1),
    "donchian": (lambda i, out: ta.donchian(*i, 20, out=out), ["high", "low"], 3),
    "vwap": (lambda i, out: ta.vwap(*i, 20, out=out), ["high", "low", "close", "volume"], 1),
}


def as_tuple(result):
    return result if isinstance(result, tuple) else (result,)


def expected(name, inputs):
    call, _, _ = FUNCTIONS[name]
    return as_tuple(call([x.copy() for x in inputs], None))


def assert_same(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)  # NaN where NaN, every other value to the last bit


def test_every_function_is_covered():
    assert set(FUNCTIONS) == set(ta.__all__) - {"lookback"}


CASES = [(name, i, j) for name, (_, columns, outputs) in FUNCTIONS.items()
         for i in range(len(columns)) for j in range(outputs)]


@pytest.mark.parametrize("name,i,j", CASES, ids=[f"{n}-in{i}-out{j}" for n, i, j in CASES])
def test_an_output_may_be_an_input(name, i, j):
    call, columns, outputs = FUNCTIONS[name]
    inputs = [DATA[c].copy() for c in columns]
    want = expected(name, inputs)
    out = [np.empty(len(inputs[0])) for _ in range(outputs)]
    out[j] = inputs[i]
    got = as_tuple(call(inputs, out[0] if outputs == 1 else tuple(out)))
    assert got[j] is inputs[i]
    assert_same(got, want)


@pytest.mark.parametrize("shift", [1, -1], ids=["out-ahead", "out-behind"])
@pytest.mark.parametrize("name,i,j", CASES, ids=[f"{n}-in{i}-out{j}" for n, i, j in CASES])
def test_an_output_may_overlap_an_input(name, i, j, shift):
    """out = a[1:] over an input a[:-1] (and the other way): each output element lands on the
    input element one bar later (or earlier), which the kernel has or has not read yet."""
    call, columns, outputs = FUNCTIONS[name]
    n = len(DATA["close"])
    buffer = np.empty(n + 1)
    view_in, view_out = (buffer[:-1], buffer[1:]) if shift == 1 else (buffer[1:], buffer[:-1])
    view_in[:] = DATA[columns[i]]
    inputs = [DATA[c].copy() for c in columns]
    inputs[i] = view_in
    want = expected(name, inputs)
    out = [np.empty(n) for _ in range(outputs)]
    out[j] = view_out
    got = as_tuple(call(inputs, out[0] if outputs == 1 else tuple(out)))
    assert_same(got, want)


def test_a_series_over_the_output_array():
    x = DATA["close"].copy()
    s = pd.Series(x, copy=False)
    assert np.shares_memory(s.to_numpy(), x)
    want = ta.sma(x.copy(), 10)
    got = ta.sma(s, 10, out=x)  # the Series' memory is x
    np.testing.assert_array_equal(got.to_numpy(), want)


def test_out_holds_what_is_returned_for_a_series_input():
    """stddev's nbdev scales the caller's out array itself (it scaled only the returned Series)."""
    x = DATA["close"].copy()
    buffer = np.empty(len(x))
    got = ta.stddev(pd.Series(x), 10, 2.0, out=buffer)
    np.testing.assert_array_equal(got.to_numpy(), buffer)
    np.testing.assert_array_equal(buffer, 2.0 * ta.stddev(x, 10))


@pytest.mark.parametrize("name,out", [
    ("macd", lambda a, b, c: (a, a, b)),
    ("bbands", lambda a, b, c: (a, b, b)),
    ("stoch", lambda a, b, c: (a, a)),
    ("donchian", lambda a, b, c: (a, b, a)),
    ("bbands", lambda a, b, c: (c[:-1], c[1:], b)),  # two views one element apart
])
def test_outputs_overlapping_each_other_are_refused(name, out):
    call, columns, outputs = FUNCTIONS[name]
    n = len(DATA["close"])
    a, b, c = np.empty(n), np.empty(n), np.empty(n + 1)
    with pytest.raises(btcore.InputError, match="overlap: each output needs its own array"):
        call([DATA[col] for col in columns], out(a, b, c))
