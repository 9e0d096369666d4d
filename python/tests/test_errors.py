"""Every bad input raises a btcore exception with bt's message, and none crashes the
interpreter: the hostile calls run in a child interpreter, which must finish and report each
one refused. Calls straight through ctypes reach the C checks the Python layer would catch
first (NULL pointers, freed and foreign handles, short buffers, a bt_config of another size)."""
import json
import os
import sqlite3
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import btcore

CHILD = r'''
import ctypes, json, math, sys
import numpy as np, pandas as pd
import btcore
from btcore import _lib, ta
from btcore._lib import lib

db, damaged, garbage = sys.argv[1], sys.argv[2], sys.argv[3]
df = btcore.read("GOOG", db=db)
x = df.close.to_numpy()
results = {}

def refused(name, call, kind=btcore.Error):
    try:
        call()
    except kind as e:
        results[name] = ["raised", type(e).__name__, str(e)]
    except Exception as e:
        results[name] = ["wrong", type(e).__name__, str(e)]
    else:
        results[name] = ["accepted", "", ""]

def status(name, value, expected):
    results[name] = ["raised", "status", lib.bt_last_error().decode()] if value == expected else ["wrong", "status", str(value)]

nan = np.full(len(x), np.nan)
bad = df.copy(); bad.iloc[100, bad.columns.get_loc("close")] = np.nan
allnan = df.copy(); allnan[:] = np.nan
crossed = df.copy(); crossed.iloc[5, crossed.columns.get_loc("high")] = 1.0
unsorted = df.iloc[::-1]
sig = btcore.signals(df, strategy="ma-cross")

# Periods and parameters
refused("period 0", lambda: ta.sma(x, 0), btcore.InputError)
refused("period -5", lambda: ta.rsi(x, -5), btcore.InputError)
refused("period huge", lambda: ta.ema(x, 10**12), btcore.InputError)
refused("period 2.5", lambda: ta.wma(x, 2.5), btcore.InputError)
refused("macd fast >= slow", lambda: ta.macd(x, 26, 12, 9), btcore.InputError)
refused("bbands negative k", lambda: ta.bbands(x, 20, -1, -1), btcore.InputError)
refused("bbands NaN k", lambda: ta.bbands(x, 20, float("nan"), float("nan")), btcore.InputError)
refused("bbands matype", lambda: ta.bbands(x, 20, 2, 2, matype=1), btcore.InputError)
refused("length mismatch", lambda: ta.atr(x, x[:-1], x, 14), btcore.InputError)
refused("2-D input", lambda: ta.sma(np.ones((3, 3)), 2), btcore.InputError)
refused("strings", lambda: ta.sma(np.array(["a", "b"]), 2), btcore.InputError)
refused("unknown lookback", lambda: ta.lookback("smaa"), btcore.InputError)
# NaN-filled input is not an error for an indicator: every output is NaN
out = ta.rsi(nan, 14)
results["NaN-filled rsi"] = ["raised", "ok", "all NaN"] if np.isnan(out).all() else ["wrong", "", ""]

# Expressions
refused("syntax", lambda: btcore.evaluate(df, "sma(close, 20"), btcore.InputError)
refused("unknown function", lambda: btcore.evaluate(df, "smaa(close, 20)"), btcore.InputError)
refused("period 0 in expression", lambda: btcore.evaluate(df, "sma(close, 0)"), btcore.InputError)
refused("position series outside a run", lambda: btcore.evaluate(df, "trade_return > 0"), btcore.InputError)
refused("missing parameter", lambda: btcore.evaluate(df, "sma(close, $n)"), btcore.InputError)
refused("deep nesting", lambda: btcore.evaluate(df, "(" * 5000 + "close" + ")" * 5000), btcore.InputError)
refused("huge text", lambda: btcore.evaluate(df, "close + " * 50000 + "1"), btcore.InputError)
refused("no close column", lambda: btcore.evaluate(df.drop(columns="close"), "close"), btcore.InputError)

# Strategies and backtests
refused("unknown strategy", lambda: btcore.backtest(df, strategy="ma-cros"), btcore.InputError)
refused("unknown parameter", lambda: btcore.backtest(df, strategy="ma-cross", params={"fastt": 3}), btcore.InputError)
refused("period longer than data", lambda: btcore.backtest(df, strategy="ma-cross", params={"slow": 100000}), btcore.InputError)
refused("NaN close", lambda: btcore.backtest(bad, sig.entry, sig.exit), btcore.InputError)
refused("all NaN bars", lambda: btcore.backtest(allnan, sig.entry, sig.exit), btcore.InputError)
refused("high below close", lambda: btcore.backtest(crossed, sig.entry, sig.exit), btcore.InputError)
refused("unsorted times", lambda: btcore.backtest(unsorted, sig.entry, sig.exit), btcore.InputError)
refused("no DatetimeIndex", lambda: btcore.backtest(df.reset_index(drop=True), sig.entry, sig.exit), btcore.InputError)
refused("signals too short", lambda: btcore.backtest(df, sig.entry[:-1], sig.exit), btcore.InputError)
refused("only entries", lambda: btcore.backtest(df, sig.entry), btcore.InputError)
refused("fee -3", lambda: btcore.backtest(df, sig.entry, sig.exit, fee_bps=-3), btcore.InputError)
refused("fee NaN", lambda: btcore.backtest(df, sig.entry, sig.exit, fee_bps=float("nan")), btcore.InputError)
refused("cash 0", lambda: btcore.backtest(df, sig.entry, sig.exit, cash=0), btcore.InputError)
refused("cash inf", lambda: btcore.backtest(df, sig.entry, sig.exit, cash=float("inf")), btcore.InputError)
refused("size without unit", lambda: btcore.backtest(df, sig.entry, sig.exit, size="0.5"), btcore.InputError)
refused("sl 5 (500%)", lambda: btcore.backtest(df, sig.entry, sig.exit, sl=5), btcore.InputError)
refused("sl bad expression", lambda: btcore.backtest(df, sig.entry, sig.exit, sl="2 * atrr(14)"), btcore.InputError)
refused("tp shares over 100%", lambda: btcore.backtest(df, sig.entry, sig.exit, tp=["5%@70%", "9%@70%"]), btcore.InputError)
refused("risk sizing without a stop", lambda: btcore.backtest(df, sig.entry, sig.exit, size="risk:1%"), btcore.InputError)
refused("fill sideways", lambda: btcore.backtest(df, sig.entry, sig.exit, fill="sideways"), btcore.InputError)
refused("depth deep", lambda: btcore.backtest(df, sig.entry, sig.exit, depth="deep"), btcore.InputError)
refused("slippage with synthetic", lambda: btcore.backtest(df, sig.entry, sig.exit, depth="synthetic", slippage_bps=2), btcore.InputError)
refused("book without db", lambda: btcore.backtest(df.assign(), sig.entry, sig.exit, depth="book", db=None) if not df.attrs.clear() else None, btcore.InputError)
refused("book not recorded", lambda: btcore.backtest(btcore.read("GOOG", db=db), sig.entry, sig.exit, depth="book"), btcore.InputError)
refused("participation 2", lambda: btcore.backtest(df, sig.entry, sig.exit, max_participation=2), btcore.InputError)
refused("missing profile file", lambda: btcore.backtest(df, sig.entry, sig.exit, depth_profile="/nonexistent.json"), btcore.InputError)
refused("one-sided depth", lambda: btcore.backtest(df, sig.entry, sig.exit, bid_depth="5,0.5"), btcore.InputError)
kinds = [w["kind"] for w in btcore.backtest(df.drop(columns="volume"), sig.entry, sig.exit).warnings]
results["no volume: a warning"] = ["raised", "ok", "no_volume"] if "no_volume" in kinds else ["wrong", "", str(kinds)]
refused("Bars of NaN close", lambda: btcore.Bars(bad), btcore.InputError)
refused("Bars of unsorted times", lambda: btcore.Bars(unsorted), btcore.InputError)
refused("Bars without a DatetimeIndex", lambda: btcore.Bars(df.reset_index(drop=True)), btcore.InputError)
refused("signals too short for Bars", lambda: btcore.backtest(btcore.Bars(df), sig.entry[:-1], sig.exit), btcore.InputError)
refused("short rules without short", lambda: btcore.backtest(df, entry="close > 1", exit="close < 1", short_entry="close < 1", short_exit="close > 1"), btcore.InputError)

# The store
refused("no store", lambda: btcore.read("GOOG", db="/nonexistent/bt.sqlite"), btcore.InputError)
refused("unknown symbol", lambda: btcore.read("GOOGL", db=db), btcore.InputError)
refused("empty range", lambda: btcore.read("GOOG", db=db, start="2030-01-01"), btcore.InputError)
refused("bad timeframe", lambda: btcore.read("GOOG", db=db, timeframe="7d"), btcore.InputError)
refused("not a store", lambda: btcore.read("GOOG", db=garbage), btcore.Error)
refused("damaged store", lambda: btcore.read("GOOG", db=damaged), btcore.StoreError)
refused("damaged store list", lambda: btcore.series(db=damaged + ".list"), btcore.StoreError)

# Results
run = btcore.backtest(df, sig.entry, sig.exit, depth="none")
refused("unknown statistic", lambda: run.stat("sharp"), btcore.InputError)

# Straight through ctypes: what the Python layer never sends
n = len(x)
out = np.empty(n)
status("NULL input", lib.bt_sma(n, None, 5, _lib.address(out)), 2)
status("NULL output", lib.bt_rsi(n, _lib.address(x), 14, None), 2)
status("n beyond any length", lib.bt_sma(2**63 + 5, _lib.address(x), 5, _lib.address(out)), 3)
status("NULL bars", lib.bt_expr_eval(None, None, _lib.address(out)), 2)
e = btcore.compile("close > 1")
h = e._handle.value
lib.bt_expr_free(h); e._handle.value = None
status("freed expression", lib.bt_expr_is_condition(h), -1)
status("freed expression eval", lib.bt_expr_eval(h, None, None), 2)
lib.bt_expr_free(h)
results["double free"] = ["raised", "status", lib.bt_last_error().decode()]
status("foreign handle", lib.bt_result_bars(ctypes.c_void_p(12345)), 0)
status("wrong kind of handle", lib.bt_result_trade_count(btcore.compile("close")._handle.value), 0)
status("trades into a short buffer", lib.bt_result_trades(run._handle.value, None, 0) if lib.bt_result_trade_count(run._handle.value) else 3, 3)
count = lib.bt_result_trade_count(run._handle.value)
status("trade charges into a short buffer", lib.bt_result_trade_charges(run._handle.value, None, None, None, count - 1) if count else 3, 3)
results["trade charges, all NULL"] = (["raised", "status", "accepted"] if lib.bt_result_trade_charges(run._handle.value, None, None, None, count) == 0
                                       else ["wrong", "status", lib.bt_last_error().decode()])
status("json into a short buffer", lib.bt_result_json(run._handle.value, 0, ctypes.create_string_buffer(4), 4, None), 3)
status("NULL statistic name", lib.bt_result_stat(run._handle.value, None, ctypes.byref(ctypes.c_double())), 2)
cfg = _lib.Config(); lib.bt_config_init(ctypes.byref(cfg)); cfg.struct_size = 8
bars = btcore._arrays.BarsArgument(df, need_time=True)
ent = sig.entry.to_numpy().view(np.uint8); ex = sig.exit.to_numpy().view(np.uint8)
sigs = _lib.Signals(_lib.address(ent), _lib.address(ex), None, None)
res = ctypes.c_void_p()
status("config of another size", lib.bt_backtest(ctypes.byref(bars.struct), ctypes.byref(sigs), ctypes.byref(cfg), ctypes.byref(res)), 2)
status("NULL signals", lib.bt_backtest(ctypes.byref(bars.struct), None, None, ctypes.byref(res)), 2)
status("NULL out", lib.bt_backtest(ctypes.byref(bars.struct), ctypes.byref(sigs), None, None), 2)
status("NULL bars for a series", lib.bt_series_from_bars(None, ctypes.byref(res)), 2)
status("NULL series", lib.bt_backtest_series(None, ctypes.byref(sigs), None, ctypes.byref(res)), 2)
status("series: NULL out", lib.bt_backtest_series(btcore.Bars(df)._handle.value, ctypes.byref(sigs), None, None), 2)
status("series: wrong kind of handle", lib.bt_backtest_strategy_series(run._handle.value, None, None, 0, None, ctypes.byref(res)), 2)
gone = btcore.Bars(df); h = gone._handle.value; gone._handle.close()
status("freed series", lib.bt_backtest_series(h, ctypes.byref(sigs), None, ctypes.byref(res)), 2)
status("NULL store path", lib.bt_store_open(None, ctypes.byref(res)), 2)
lib.bt_config_init(None)
results["config_init NULL"] = ["raised", "status", lib.bt_last_error().decode()]
status("NULL params with a count", lib.bt_expr_compile(b"close", None, 3, ctypes.byref(res)), 2)

# Other series (@): damaged stores, hostile frames, NULLs, freed and foreign handles
refused("@ from a damaged store", lambda: btcore.signals(df, entry="close > close@GOOG@1w", exit="close < 1", db=damaged), btcore.StoreError)
refused("@ from garbage", lambda: btcore.evaluate(df, "close@SPY", db=garbage), btcore.Error)
refused("@ of an all-NaN frame", lambda: btcore.evaluate(df, "close@SPY", other={"SPY": allnan}), btcore.InputError)
refused("@ of a frame with a NaN bar", lambda: btcore.evaluate(df, "close@SPY", other={"SPY": bad}), btcore.InputError)
refused("@ of a crossed bar", lambda: btcore.evaluate(df, "close@SPY", other={"SPY": crossed}), btcore.InputError)
refused("@ of unsorted times", lambda: btcore.evaluate(df, "close@SPY", other={"SPY": unsorted}), btcore.InputError)
refused("@ of an empty frame", lambda: btcore.evaluate(df, "close@SPY", other={"SPY": df.iloc[:0]}), btcore.InputError)
status("NULL other key", lib.bt_other_add(None, None, None), 2)
o = ctypes.c_void_p(); lib.bt_other_new(None, None, ctypes.byref(o))
status("other: NULL key", lib.bt_other_add(o.value, None, ctypes.byref(bars.struct)), 2)
status("other: NULL bars", lib.bt_other_add(o.value, b"SPY", None), 2)
lib.bt_other_free(o.value)
status("freed other", lib.bt_other_add(o.value, b"SPY", ctypes.byref(bars.struct)), 2)
status("expression with a freed other", lib.bt_expr_compile_other(b"close@SPY", None, 0, o.value, ctypes.byref(res)), 2)
status("other of the wrong kind", lib.bt_strategy_reading(run._handle.value, None, ctypes.byref(res)), 2)
weekly_rule = btcore._reading(btcore._strategy(None, "close > close@1w", "close < 1", None, None, None, None), None, None, None, False)[0]
status("warnings into a short buffer", lib.bt_strategy_signal_warnings(
    weekly_rule.value, None, 0, ctypes.byref(bars.struct), ctypes.create_string_buffer(1), 1, None), 3)

print(json.dumps(results))
'''


@pytest.fixture(scope="module")
def hostile(store, tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    damaged = folder / "damaged.sqlite"
    shutil.copyfile(store, damaged)
    with sqlite3.connect(damaged) as db:
        db.execute("UPDATE chunks SET close = X'0000' WHERE symbol = 'GOOG'")
    listed = folder / "damaged.sqlite.list"
    shutil.copyfile(store, listed)
    with sqlite3.connect(listed) as db:
        db.execute("UPDATE series SET bars = -4 WHERE symbol = 'GOOG'")
    garbage = folder / "garbage.sqlite"
    garbage.write_bytes(b"this is not a database" * 300)
    script = folder / "child.py"
    script.write_text(CHILD)
    done = subprocess.run([sys.executable, str(script), store, str(damaged), str(garbage)], capture_output=True, text=True,
                          timeout=600, env=os.environ)
    assert done.returncode == 0, f"the child interpreter died ({done.returncode}):\n{done.stderr[-3000:]}"
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_interpreter_survives_every_bad_input(hostile):
    assert len(hostile) >= 70


def test_each_bad_input_is_refused_with_a_message(hostile):
    wrong = {name: r for name, r in hostile.items() if r[0] != "raised"}
    assert not wrong, wrong
    silent = [name for name, r in hostile.items() if r[1] not in ("ok",) and not r[2]]
    assert not silent, f"refused without a message: {silent}"


@pytest.mark.parametrize("name,words", [
    ("period 0", "sma: period must be at least 1 (got 0)"),
    ("fee -3", "fee_bps '-3': fee must be in [0, 10000) basis points"),
    ("unknown strategy", "did you mean 'ma-cross'?"),
    ("unknown statistic", "did you mean 'sharpe'?"),
    ("unknown function", "smaa"),
    ("NaN close", "bars[100]"),
    ("Bars of NaN close", "bars[100]"),
    ("freed series", "not a live handle"),
    ("damaged store", "the store is damaged"),
    ("freed expression eval", "not a live handle"),
    ("config of another size", "bt_config_init"),
    ("sl 5 (500%)", "500%"),
    ("length mismatch", "differs"),
])
def test_messages_read_like_the_command_line(hostile, name, words):
    assert words in hostile[name][2], hostile[name]


def test_errors_are_python_exceptions_of_the_right_kind():
    assert issubclass(btcore.InputError, ValueError) and issubclass(btcore.InputError, btcore.Error)
    assert issubclass(btcore.StoreError, btcore.Error)
    with pytest.raises(btcore.InputError) as caught:
        btcore.ta.sma(np.arange(10.0), 0)
    assert caught.value.status == 1
