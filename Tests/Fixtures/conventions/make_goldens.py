#!/usr/bin/env python3
"""Dev-only: writes goldens.json, the trades backtesting.py and vectorbt make on the shipped
GOOG with their own defaults, for bt's `--conventions` presets and `--trail-from close`.

Not run by CI or the test suite; the Swift tests (`ConventionsGoldenTests`) read the committed
`goldens.json` and run bt with the command line each case names. From the repository root:

    python3 -m venv /tmp/conv-venv
    /tmp/conv-venv/bin/pip install backtesting==0.6.6 vectorbt==1.2.0 TA-Lib==0.8.2 numpy pandas
    /tmp/conv-venv/bin/python Tests/Fixtures/conventions/make_goldens.py

Versions of the committed file: backtesting.py 0.6.6, vectorbt 1.2.0, TA-Lib 0.8.2, numpy 2.4.6,
pandas 3.1.1, Python 3.11.

Signals are ma-cross's (Sources/Strategies): fast = SMA(close, 10), slow = SMA(close, 30);
entry where fast crosses above slow (fast > slow, and fast <= slow the bar before), exit where
it crosses below. Each case runs one tool *with its defaults*, as its users write it:

- backtesting.py `Backtest(GOOG, S)` (cash 10,000, commission 0, spread 0, margin 1,
  trade_on_close False, hedging False, exclusive_orders False, finalize_trades False):
  `self.buy()` on an entry signal while flat, `self.position.close()` on an exit signal.
  `bt_ma_cross`: that alone. `bt_trailing`: the same as a `backtesting.lib.TrailingStrategy`
  with `set_atr_periods(20)` and `set_trailing_sl(3)`: after every bar, each trade's stop is
  max(stop, close - 3 x ATR), ATR the 20-bar simple mean of the true range
  max(high - low, |close[-1] - high|, |close[-1] - low|) (NaN on the first bar, so first defined
  at bar 20). backtesting.py fills the stop at min(open, stop) on a bar whose low reaches it.
  Trading starts at bar 31 (backtesting.py skips the SMA's warm-up), after the ATR's 20 bars,
  so TrailingStrategy's back-filled ATR (a look-ahead in the warm-up) is never read; asserted.
  The trade still open at the end is not closed (finalize_trades False): it is written with
  `open: true`, its PnL at the last close, as `Backtest.run`'s equity marks it.
- vectorbt `Portfolio.from_signals(close, entries.shift(1), exits.shift(1), price=open,
  open=open, high=high, low=low, size=np.inf, init_cash=100, fees=0, stop_entry_price="price")`:
  the next-open fill its users set up, with the bars' ranges for the stops (without open, high
  and low vectorbt checks and fills stops at the close), cash 100, fees 0 and slippage 0 being its
  defaults (`stop_exit_price` its default, the stop's level, or the open when the open is through). `vbt_ma_cross`: that alone.
  `vbt_sl`: with `sl_stop=0.05`; `vbt_sl_trail`: with `sl_stop=0.08, sl_trail=True`. vectorbt
  checks the stop from the bar after the entry's and its peak leaves the entry bar's high out.

Both tools take a stop (or a trailing stop) reached inside the bar at whose open a signal exit
is due, before that exit: backtesting.py processes its contingent stop-loss order first,
vectorbt checks stops before signals. bt's presets do the same (`levelsBeforeSignalExit`); each
case records how many of its trades ended so (`stops_before_signal_exits`), and the stop
distances were chosen so that some do (`vbt_sl`: 3, `vbt_sl_trail`: 1; none of backtesting.py's
TrailingStrategy trades on GOOG ends so, at n_atr 1 to 6).
"""
import json
import os
import sys
import warnings

import numpy as np
import pandas as pd
import talib
import backtesting
import vectorbt as vbt
from backtesting import Backtest, Strategy
from backtesting.lib import TrailingStrategy

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
OUT = os.path.join(os.path.dirname(__file__), "goldens.json")
ATR_PERIODS, N_ATR = 20, 3
SL, SL_TRAIL = 0.05, 0.08


def load():
    return pd.read_csv(os.path.join(ROOT, "data", "GOOG.csv"), index_col=0, parse_dates=True)


def signals(df):
    c = df["Close"].values
    fast = pd.Series(talib.SMA(c, 10), index=df.index)
    slow = pd.Series(talib.SMA(c, 30), index=df.index)
    entries = (fast > slow) & (fast.shift(1) <= slow.shift(1))
    exits = (fast < slow) & (fast.shift(1) >= slow.shift(1))
    return entries.fillna(False).astype(bool).values, exits.fillna(False).astype(bool).values


def make_strategy(base, entries, exits, n_atr=N_ATR):
    class S(base):
        def init(self):
            super().init()
            if base is TrailingStrategy:
                self.set_atr_periods(ATR_PERIODS)
                self.set_trailing_sl(n_atr)

        def next(self):
            super().next()
            i = len(self.data) - 1
            if entries[i] and not self.position:
                self.buy()
            elif exits[i] and self.position:
                self.position.close()
    return S


def backtesting_case(name, df, entries, exits, trailing, n_atr=N_ATR):
    strategy = make_strategy(TrailingStrategy if trailing else Strategy, entries, exits, n_atr)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        stats = Backtest(df, strategy).run()
    index = {t: i for i, t in enumerate(df.index)}
    trades = []
    for _, r in stats["_trades"].iterrows():
        trades.append({"entry_index": index[r["EntryTime"]], "exit_index": index[r["ExitTime"]],
                       "quantity": float(r["Size"]), "entry_price": float(r["EntryPrice"]),
                       "exit_price": float(r["ExitPrice"]), "pnl": float(r["PnL"]), "open": False})
    last = len(df) - 1
    for t in stats["_strategy"].trades:  # still open: finalize_trades is False
        trades.append({"entry_index": int(t.entry_bar), "exit_index": last, "quantity": float(t.size),
                       "entry_price": float(t.entry_price), "exit_price": float(df["Close"].iloc[-1]),
                       "pnl": float(t.pl), "open": True})
    first_entry = min(t["entry_index"] for t in trades)
    assert first_entry - 1 >= ATR_PERIODS, "an entry reads TrailingStrategy's back-filled ATR"
    return {"name": name, "tool": "backtesting.py", "trades": trades,
            "final_equity": float(stats["Equity Final [$]"]),
            "stops_before_signal_exits": stops_before_signal_exits(df, trades, exits)}


def vectorbt_case(name, df, entries, exits, sl=None, trail=False):
    kwargs = dict(price=df["Open"], open=df["Open"], high=df["High"], low=df["Low"], size=np.inf, init_cash=100, fees=0.0,
                  stop_entry_price="price")
    if sl:
        kwargs.update(sl_stop=sl, sl_trail=trail)
    pf = vbt.Portfolio.from_signals(df["Close"], pd.Series(entries, index=df.index).shift(1, fill_value=False),
                                    pd.Series(exits, index=df.index).shift(1, fill_value=False), **kwargs)
    records = pf.trades.records_readable
    index = {t: i for i, t in enumerate(df.index)}
    trades = []
    for _, r in records.iterrows():
        is_open = r["Status"] == "Open"
        trades.append({"entry_index": index[r["Entry Timestamp"]],
                       "exit_index": len(df) - 1 if is_open else index[r["Exit Timestamp"]],
                       "quantity": float(r["Size"]), "entry_price": float(r["Avg Entry Price"]),
                       "exit_price": float(r["Avg Exit Price"]), "pnl": float(r["PnL"]), "open": bool(is_open)})
    return {"name": name, "tool": "vectorbt", "trades": trades, "final_equity": float(pf.final_value()),
            "stops_before_signal_exits": stops_before_signal_exits(df, trades, exits)}


def stops_before_signal_exits(df, trades, exits):
    """Trades that ended inside the bar after an exit signal, at a level: the tool took the
    stop before the signal exit due at that bar's open (bt's `levelsBeforeSignalExit`)."""
    return sum(1 for t in trades
               if not t["open"] and t["exit_index"] >= 1 and exits[t["exit_index"] - 1]
               and t["exit_price"] != df["Open"].iloc[t["exit_index"]])


def main():
    df = load()
    entries, exits = signals(df)
    cases = [
        backtesting_case("bt_ma_cross", df, entries, exits, trailing=False),
        backtesting_case("bt_trailing", df, entries, exits, trailing=True),
        vectorbt_case("vbt_ma_cross", df, entries, exits),
        vectorbt_case("vbt_sl", df, entries, exits, sl=SL),
        vectorbt_case("vbt_sl_trail", df, entries, exits, sl=SL_TRAIL, trail=True),
    ]
    out = {"about": "trades of backtesting.py and vectorbt with their defaults on data/GOOG.csv (make_goldens.py)",
           "versions": {"backtesting": backtesting.__version__, "vectorbt": vbt.__version__, "talib": talib.__version__,
                        "numpy": np.__version__, "pandas": pd.__version__},
           "atr_periods": ATR_PERIODS, "n_atr": N_ATR, "sl": SL, "sl_trail": SL_TRAIL, "cases": cases}
    for c in cases:
        print(f"{c['name']:14s} {len(c['trades']):3d} trades  final {c['final_equity']:.6f}", file=sys.stderr)
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
