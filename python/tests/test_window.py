"""btcore.backtest(start=, end=) trades a window as `bt run --from --to` does: the bars before
`start` warm up the indicators and rules, nothing after `end` is read, and the JSON, trades and
equity equal the command line's on the same stored bars; a window holding no bar is an
InputError naming the argument."""
import numpy as np
import pandas as pd
import pytest

import btcore
from conftest import bt_json, run_bt

WINDOWS = [("2008-01-02", "2010-12-31"), ("2009-06-15", None), (None, "2007-03-01"), ("2012-11-05T00:00:00Z", None)]


@pytest.mark.parametrize("start,end", WINDOWS)
def test_strategy_window_equals_bt_run_from_to(start, end, store, goog):
    flags = (["--from", start] if start else []) + (["--to", end] if end else [])
    expected = bt_json("run", "ma-cross", "GOOG", *flags, "--json", "--db", store)
    run = btcore.backtest(goog, strategy="ma-cross", start=start, end=end)
    assert run.json(costs=True) == expected
    assert len(run.equity) == expected["bars"] < len(goog)
    assert run.equity.index[0] == pd.Timestamp(expected["stats"]["start"]) and run.equity.index[-1] == pd.Timestamp(expected["stats"]["end"])


def test_window_of_rules_signals_and_bars_equals_bt_run(store, goog):
    entry, exit_rule = "cross_above(sma(close, 10), sma(close, 50))", "trade_return > 0.1 or close < sma(close, 20)"
    window = ["--from", "2006-03-01", "--to", "2011-06-30"]
    expected = bt_json("run", "GOOG", "--entry", entry, "--exit", exit_rule, "--sl", "5%", *window, "--json", "--no-costs",
                       "--db", store)
    got = btcore.backtest(goog, entry=entry, exit=exit_rule, sl="5%", start="2006-03-01", end="2011-06-30")
    assert got.json() == expected
    assert btcore.backtest(btcore.Bars(goog), entry=entry, exit=exit_rule, sl="5%", start="2006-03-01",
                           end="2011-06-30").json() == expected
    # Signal arrays cover the whole frame: the window reads them through its last bar.
    sig = btcore.signals(goog, strategy="rsi")
    expected = bt_json("run", "rsi", "GOOG", *window, "--json", "--no-costs", "--db", store)
    for bars in (goog, btcore.Bars(goog)):
        run = btcore.backtest(bars, sig.entry, sig.exit, start="2006-03-01", end="2011-06-30").json()
        assert run["stats"] == expected["stats"] and run["bars"] == expected["bars"]


def test_window_trades_and_equity_equal_the_report_files(store, goog, tmp_path):
    out = tmp_path / "report"
    run_bt("run", "rsi", "GOOG", "--from", "2007-01-01", "--to", "2009-12-31", "--out", str(out), "--no-chart", "--db", store)
    run = btcore.backtest(goog, strategy="rsi", start=pd.Timestamp("2007-01-01"), end="2009-12-31")
    trades = pd.read_csv(out / "trades.csv")
    assert len(trades) == len(run.trades) > 0
    for column in ("entry_index", "exit_index", "quantity", "pnl"):
        np.testing.assert_array_equal(run.trades[column].to_numpy(), trades[column].to_numpy(), err_msg=column)
    assert list(pd.to_datetime(trades.entry_time, utc=True)) == list(run.trades.entry_time)
    equity = pd.read_csv(out / "equity.csv")
    np.testing.assert_array_equal(run.equity.to_numpy(), equity.equity.to_numpy())
    assert list(pd.to_datetime(equity.time, utc=True)) == list(run.equity.index)


def test_window_bounds_as_timestamps_and_seconds(goog):
    text = btcore.backtest(goog, strategy="macd", start="2008-01-02", end="2010-12-31T00:00:00Z").json()
    stamp = btcore.backtest(goog, strategy="macd", start=pd.Timestamp("2008-01-02", tz="UTC"),
                            end=pd.Timestamp("2010-12-31").to_pydatetime()).json()
    seconds = btcore.backtest(goog, strategy="macd", start=int(pd.Timestamp("2008-01-02", tz="UTC").timestamp()),
                              end=np.datetime64("2010-12-31T00:00:00")).json()
    assert text == stamp == seconds


@pytest.mark.parametrize("keywords,match", [
    ({"start": "2030-01-01"}, r"^start '2030-01-01': after the last bar \(2013-03-01T00:00:00Z\): the window holds no bar"),
    ({"end": "1999-01-01"}, r"^end '1999-01-01': before the first bar \(2004-08-19T00:00:00Z\)"),
    ({"start": "2010-01-01", "end": "2009-01-01"}, r"^start '2010-01-01': after end's last bar \(2008-12-31T00:00:00Z\)"),
    ({"start": "soon"}, r"^start 'soon': not a date"),
    ({"end": pd.NaT}, r"^end: NaT is not a time"),
    ({"start": pd.Timestamp("2010-01-01 00:00:00.5")}, r"^start .*whole seconds"),
    ({"start": True}, r"^start True: not a time"),
    ({"start": "2010\x00-01-01"}, r"^start .*NUL"),
])
def test_a_window_without_bars_names_the_argument(keywords, match, goog):
    for bars in (goog, btcore.Bars(goog)):
        with pytest.raises(btcore.InputError, match=match):
            btcore.backtest(bars, strategy="ma-cross", **keywords)
    with pytest.raises(btcore.InputError, match=match):
        btcore.backtest(goog, np.zeros(len(goog), bool), np.zeros(len(goog), bool), **keywords)
