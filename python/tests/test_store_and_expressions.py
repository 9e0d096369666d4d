"""The store read-only (btcore.read and btcore.series equal `bt data export` and `bt data list`,
bit for bit, resampling and date ranges included; the file is never changed) and expressions
compiled once (values equal TA-Lib's; signals as bt's rules fire)."""
import hashlib
from io import StringIO

import numpy as np
import pandas as pd
import pytest

import btcore
from conftest import run_bt


@pytest.mark.parametrize("symbol,args", [("GOOG", []), ("EURUSD", ["--timeframe", "4h"]),
                                        ("GOOG", ["--from", "2010-01-01", "--to", "2010-06-30"])])
def test_read_equals_bt_data_export(store, symbol, args):
    csv = pd.read_csv(StringIO(run_bt("data", "export", symbol, *args, "--db", store)))
    options = dict(zip(args[::2], args[1::2]))
    df = btcore.read(symbol.lower(), db=store, timeframe=options.get("--timeframe"), start=options.get("--from"),
                     end=options.get("--to") and options["--to"] + "T23:59:59")
    assert list(df.columns) == ["open", "high", "low", "close", "volume"]
    assert df.index.name == "time" and str(df.index.tz) == "UTC"
    assert list(df.index) == list(pd.to_datetime(csv.time, utc=True))
    for column in df.columns:
        np.testing.assert_array_equal(df[column].to_numpy(), csv[column].to_numpy(dtype=float))
    assert df.attrs["symbol"] == symbol


def test_series_equals_bt_data_list(store):
    listed = btcore.series(db=store)
    assert list(listed.symbol) == ["EURUSD", "GOOG"] and list(listed.timeframe) == ["1h", "1d"]
    assert list(listed.bars) == [5000, 2148]
    assert listed["first"][1] == pd.Timestamp("2004-08-19", tz="UTC")


def test_reading_never_changes_the_store(store):
    before = hashlib.sha256(open(store, "rb").read()).hexdigest()
    for _ in range(3):
        btcore.read("GOOG", db=store)
        btcore.series(db=store)
    assert hashlib.sha256(open(store, "rb").read()).hexdigest() == before


def test_expression_values_equal_talib(goog):
    from test_indicators import goldens
    got = btcore.evaluate(goog, "rsi(close, 14)").to_numpy()
    expected = goldens("goog")["rsi_14"].to_numpy(dtype=float)
    np.testing.assert_allclose(got[14:], expected[14:], rtol=1e-9)
    assert np.isnan(got[:14]).all()


def test_compiled_once_evaluated_on_many_frames(goog, eurusd):
    e = btcore.compile("close > sma(close, $n)", {"n": 20})
    assert e.is_condition
    for df in (goog, eurusd):
        values = e.values(df)
        signal = e.signal(df)
        assert set(np.unique(values.dropna())) <= {0.0, 1.0} and values[:19].isna().all()
        np.testing.assert_array_equal(signal.to_numpy(), (values == 1).to_numpy())
        assert signal.index.equals(df.index)
    assert not btcore.compile("sma(close, 5) - close").is_condition


def test_word_parameters_name_functions(goog):
    a = btcore.evaluate(goog, "$ma(close, 10)", {"ma": "ema"})
    np.testing.assert_array_equal(a.to_numpy(), btcore.ta.ema(goog.close, 10).to_numpy())


def test_expressions_on_a_plain_frame_without_times():
    df = pd.DataFrame({"close": np.linspace(1, 2, 50)})
    out = btcore.evaluate(df, "close - close[1]")
    assert np.isnan(out[0]) and out[1:].round(12).nunique() == 1


def test_rule_signals_equal_bt_signals(store, goog):
    entry, exit_ = "cross_above(close, bb(close, 20, 2).upper)", "cross_below(close, sma(close, 20))"
    csv = pd.read_csv(StringIO(run_bt("signals", "GOOG", "--entry", entry, "--exit", exit_, "--db", store)))
    sig = btcore.signals(goog, entry=entry, exit=exit_)
    np.testing.assert_array_equal(sig.entry.to_numpy(), csv.entry.astype(bool).to_numpy())
    np.testing.assert_array_equal(sig.exit.to_numpy(), csv.exit.astype(bool).to_numpy())
