"""Calls from several threads at once (ctypes releases the GIL, so they run in parallel in the
library) give exactly the results of the same calls made one after another: indicators,
expressions, signals, backtests and store reads, on separate handles, plus one compiled
expression, one reading other series (a bt_other) and one series of bars (btcore.Bars) shared by
every thread. A failing call on one thread leaves another thread's
last error alone."""
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import btcore
from btcore import ta
from btcore._lib import lib

THREADS = 8


def jobs(df, store, shared):
    bars = btcore.Bars(df)  # one series shared by every thread
    weekly = df.iloc[::5].copy()
    weekly.attrs.clear()  # not the daily frame's timeframe
    reading = btcore.compile("close / close@WEEKLY@1w", other={"WEEKLY@1w": weekly})  # one bt_other shared by every thread
    c, h, l, v = df.close.to_numpy(), df.high.to_numpy(), df.low.to_numpy(), df.volume.to_numpy()
    return [
        lambda: ta.rsi(c, 14),
        lambda: np.concatenate(ta.macd(c, 12, 26, 9)),
        lambda: np.concatenate(ta.bbands(c, 20, 2, 2)),
        lambda: ta.adx(h, l, c, 14),
        lambda: ta.cci(h, l, c, 20),
        lambda: np.concatenate(ta.stoch(h, l, c, 14, 3, 0, 3, 0)),
        lambda: ta.vwap(h, l, c, v, 20),
        lambda: shared.values(df).to_numpy(),
        lambda: btcore.evaluate(df, "zscore(close, 50) + highest(high, 20) / lowest(low, 20)").to_numpy(),
        lambda: btcore.signals(df, strategy="bollinger").to_numpy().astype(float).ravel(),
        lambda: btcore.backtest(df, strategy="ma-cross").equity.to_numpy(),
        lambda: btcore.backtest(df, strategy="rsi", sl="5%", depth="none").trades["pnl"].to_numpy(),
        lambda: np.array([btcore.backtest(df, strategy="donchian", tp=["5%@50%", "10%"]).stat("sharpe")]),
        lambda: btcore.read("EURUSD", db=store).close.to_numpy(),
        lambda: btcore.backtest(bars, strategy="macd").equity.to_numpy(),
        lambda: btcore.backtest(bars, strategy="ma-cross", params={"fast": 5}).trades["pnl"].to_numpy(),
        lambda: reading.values(df).to_numpy(),
        lambda: btcore.signals(df, entry="close > sma(close, 20)@1w", exit="close < sma(close, 20)@1w",
                               db=store).to_numpy().astype(float).ravel(),
    ]


def test_parallel_calls_equal_serial_calls(goog, store):
    shared = btcore.compile("sma(close, 10) - ema(close, 30)")
    work = jobs(goog, store, shared)
    serial = [job() for job in work]
    tasks = [i % len(work) for i in range(len(work) * 4)]
    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        parallel = list(pool.map(lambda i: work[i](), tasks))
    for i, got in zip(tasks, parallel):
        np.testing.assert_array_equal(got, serial[i], err_msg=f"job {i}")


def test_the_last_error_is_per_thread():
    barrier = threading.Barrier(2)
    seen = {}

    def fail(name, period):
        with pytest.raises(btcore.InputError):
            ta.sma(np.arange(10.0), period)
        barrier.wait()  # both have failed before either reads its message
        seen[name] = lib.bt_last_error().decode()

    threads = [threading.Thread(target=fail, args=("zero", 0)), threading.Thread(target=fail, args=("negative", -7))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {"zero": "sma: period must be at least 1 (got 0)", "negative": "sma: period must be at least 1 (got -7)"}
