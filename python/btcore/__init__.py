"""bt's core from Python: the candle store, TA-Lib-exact indicators, the rule language and the
backtest engine of bt, through libbt (bt.h) with ctypes.

    import btcore
    df = btcore.read("GOOG", db="data/bt.sqlite")          # DataFrame, UTC DatetimeIndex
    df["rsi"] = btcore.ta.rsi(df.close, 14)               # TA-Lib's names and argument order
    sig = btcore.signals(df, entry="cross_above(sma(close, 10), sma(close, 30))",
                         exit="cross_below(sma(close, 10), sma(close, 30))")
    run = btcore.backtest(df, sig.entry, sig.exit, fee_bps=5, depth="none", sl="5%")
    run.stats["sharpe"], run.trades, run.fills, run.equity

`btcore.backtest(df, strategy="ma-cross")` runs a built-in (or a strategy file) and equals
`bt run ma-cross SYMBOL --json` on the same bars. Errors raise `btcore.InputError` (bad values,
with bt's message), `btcore.StoreError` (the store) or `btcore.InternalError`; nothing crashes
the interpreter. The library is found at $BT_LIB, else inside the package.
"""
from __future__ import annotations

import ctypes
import inspect
import io
import json as _json
import math
import os
import shutil
import tempfile
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union, cast

import numpy as np
import pandas as pd

from . import _lib, ta
from ._arrays import BarsArgument, doubles, flags, parameters, seconds, times
from ._frames import frame as as_frame
from ._inline import iframe
from ._lib import Error, InputError, InternalError, StoreError, check, lib
from ._keywords import KeywordError, checked

__all__ = ["read", "series", "Bars", "compile", "Expression", "evaluate", "signals", "backtest", "Result", "stat_names",
           "portfolio", "PortfolioResult", "sweep", "Sweep", "screen", "where", "KeywordError",
           "execution_settings", "ta",
           "Error", "InputError", "StoreError", "InternalError", "version", "library_path"]

#: bt's version (the library's).
version: str = lib.bt_version().decode()
#: Where libbt.so was loaded from.
library_path: str = str(_lib.path)

if lib.bt_abi_version() != 1:  # pragma: no cover - a library of another bt.h
    raise ImportError(f"btcore: {library_path} implements bt.h ABI {lib.bt_abi_version()}, this package needs 1")

Bool = Union[np.ndarray, pd.Series, Sequence[bool]]


def _default_db(db: Optional[str]) -> str:
    return db if db is not None else os.environ.get("BT_DB", "data/bt.sqlite")


def _open(db: Optional[str]) -> _lib.Handle:
    path = _default_db(db)
    return _lib.new_handle(lambda out: lib.bt_store_open(_lib.text(path, "db"), out), lib.bt_store_close)


def _seconds(t: Any, name: str) -> Optional[ctypes.c_int64]:
    if t is None:
        return None
    stamp = pd.Timestamp(t)
    stamp = stamp.tz_localize("UTC") if stamp.tzinfo is None else stamp.tz_convert("UTC")
    return ctypes.c_int64(int(stamp.timestamp()))


@checked
def read(symbol: str, db: Optional[str] = None, timeframe: Optional[str] = None,
         start: Any = None, end: Any = None) -> pd.DataFrame:
    """The stored candles of `symbol` as a DataFrame.

    Args:
        symbol: the symbol ("GOOG", case-insensitive) or a series ("EURUSD@1h").
        db: the store (default $BT_DB, else data/bt.sqlite); opened read-only, never changed.
        timeframe: "1m", "5m", "15m", "30m", "1h", "4h", "1d", "1w" or "1M": the series stored at
            it, or resampled from a finer one, as `bt run --timeframe` loads it.
        start, end: keep bars whose time is within [start, end] (anything pd.Timestamp reads;
            naive times are UTC).

    Returns:
        A DataFrame indexed by bar open time (DatetimeIndex, UTC, named "time") with float
        columns open, high, low, close, volume. `df.attrs` holds "symbol", "timeframe" and
        "db", which `backtest` and `signals` pass on to bt.

    Raises:
        InputError: no store there, no such symbol, an empty range. StoreError: a damaged store.
    """
    store = _open(db)
    try:
        out = ctypes.c_void_p()
        first, last = _seconds(start, "start"), _seconds(end, "end")
        check(lib.bt_store_read(store.value, _lib.text(symbol, "symbol"), _lib.text(timeframe, "timeframe"),
                                ctypes.byref(first) if first is not None else None,
                                ctypes.byref(last) if last is not None else None, ctypes.byref(out)))
        loaded = _lib.Handle(out.value, lib.bt_series_free)
        n = lib.bt_series_count(loaded.value)
        t = np.empty(n, dtype=np.int64)
        columns = {name: np.empty(n) for name in ("open", "high", "low", "close", "volume")}
        check(lib.bt_series_copy(loaded.value, _lib.address(t), *[_lib.address(columns[c]) for c in columns]))
        frame = pd.DataFrame(columns, index=times(t).rename("time"))
        frame.attrs["symbol"] = lib.bt_series_symbol(loaded.value).decode()
        tf = lib.bt_series_timeframe(loaded.value)
        frame.attrs["timeframe"] = tf.decode() if tf else None
        frame.attrs["db"] = _default_db(db)
        loaded.close()
        return frame
    finally:
        store.close()


@checked
def series(db: Optional[str] = None) -> pd.DataFrame:
    """Every stored series, as `bt data list` shows them: symbol, timeframe, first and last bar
    times (UTC) and bars, ordered by symbol then timeframe."""
    store = _open(db)
    try:
        count = ctypes.c_size_t()
        check(lib.bt_store_list(store.value, ctypes.byref(count)))
        rows = []
        for i in range(count.value):
            info = _lib.SeriesInfo()
            check(lib.bt_store_series(store.value, i, ctypes.byref(info)))
            rows.append((info.symbol.decode(), info.timeframe.decode(), info.first, info.last, info.bars))
        frame = pd.DataFrame(rows, columns=["symbol", "timeframe", "first", "last", "bars"])
        for column in ("first", "last"):
            frame[column] = pd.to_datetime(frame[column], unit="s", utc=True)
        return frame
    finally:
        store.close()


class Bars:
    """A DataFrame's bars copied into bt and checked once, for many backtests on the same bars.

    `backtest(df, ...)` copies and checks df's columns on every call: on a million bars that
    takes about as long as the backtest itself. `Bars(df)` does it once, and `backtest(bars,
    ...)` starts from the copy, as a parameter search wants:

        bars = btcore.Bars(df)
        runs = {fast: btcore.backtest(bars, strategy="ma-cross", params={"fast": fast})
                for fast in range(5, 30, 5)}

    The copy is a snapshot: later changes to df do not reach it. It is read-only, so threads
    may share one. `len(bars)`, `.index`, `.symbol`, `.timeframe` and `.attrs` (df's, for the
    store `db`) describe it.

    Raises:
        InputError: what `backtest(df)` would raise for the bars (a missing column, a bar bt
        could not store, times that do not increase).
    """

    @checked
    def __init__(self, df: pd.DataFrame) -> None:
        df = as_frame(df)
        bars = BarsArgument(df, need_time=True)
        out = ctypes.c_void_p()
        check(lib.bt_series_from_bars(ctypes.byref(bars.struct), ctypes.byref(out)))
        self._handle = _lib.Handle(out.value, lib.bt_series_free)
        self.index: pd.Index = df.index
        self.attrs: Dict[str, Any] = {str(k): v for k, v in df.attrs.items()}
        self._n = bars.n

    def __len__(self) -> int:
        return self._n

    @property
    def symbol(self) -> str:
        return lib.bt_series_symbol(self._handle.value).decode()

    @property
    def timeframe(self) -> Optional[str]:
        tf = lib.bt_series_timeframe(self._handle.value)
        return tf.decode() if tf else None

    def __repr__(self) -> str:
        span = f"{self.index[0]} to {self.index[-1]}" if self._n else "empty"
        return f"btcore.Bars({self.symbol or 'unnamed'}, {self.timeframe or 'unknown timeframe'}, {self._n} bars, {span})"


def _other_series(other: Optional[Dict[str, Any]], db: Any, max_stale: Optional[str]) -> Optional[_lib.Handle]:
    """The series rules read with `@` as a bt_other: the frames of `other` by key ("SPY",
    "SPY@1d"), the store `db`, `max_stale`; None when none is given (the run's own bars only)."""
    if not other and db is None and max_stale is None:
        return None
    if other is not None and not isinstance(other, dict):
        raise InputError(f"other: expected a dict of frames by key ({{'SPY': spy_df, 'SPY@1d': daily}}), got {type(other).__name__}")
    path, stale = _lib.text(db, "db"), _lib.text(max_stale, "max_stale")
    handle = _lib.new_handle(lambda out: lib.bt_other_new(path, stale, out), lib.bt_other_free)
    for key, frame in (other or {}).items():
        what = f"other[{key!r}]"
        if not isinstance(key, str):
            raise InputError(f"{what}: a key is a symbol ('SPY') or a series ('SPY@1d'), not a {type(key).__name__}")
        bars = BarsArgument(frame, need_time=False, what=what)
        if bars.time is None:
            raise InputError(f"{what}: the index is a {type(bars.index).__name__}, not a DatetimeIndex: "
                             "@ lines a series up with the run's bars by their times")
        check(lib.bt_other_add(handle.value, _lib.text(key, "other key"), ctypes.byref(bars.struct)))
    return handle


class Expression:
    """An expression of bt's rule language (`bt help expressions`), compiled once.

    `params` gives `$name` values ({"fast": 10} or {"ma": "ema"}). Expressions that read position
    series (trade_return, ...) have values only inside a run: give them to `backtest(entry=...)`.
    An Expression may be shared by threads.

    `@` reads other series (`close@1d`, `close@SPY`, `sma(close, 200)@SPY@1d`), lined up with
    the bars evaluated without look-ahead: from `other` (frames by key, "SPY" or "SPY@1d"), the
    store `db`, and the evaluated frame's own bars resampled for its own symbol (`symbol`, else
    df.attrs["symbol"]) at a higher timeframe; `max_stale` as bt run's --max-stale ("3d")."""

    @checked
    def __init__(self, text: str, params: Optional[Dict[str, Any]] = None, *, other: Optional[Dict[str, Any]] = None,
                 db: Any = None, max_stale: Optional[str] = None) -> None:
        self.text = text
        assignments, count = _lib.strings(parameters(params))
        encoded = _lib.text(text, "text")
        self._other = _other_series(other, db, max_stale)
        reading = None if self._other is None else self._other.value
        self._handle = _lib.new_handle(lambda out: lib.bt_expr_compile_other(encoded, assignments, count, reading, out),
                                       lib.bt_expr_free)
        self.is_condition: bool = lib.bt_expr_is_condition(self._handle.value) == 1

    @checked
    def values(self, df: pd.DataFrame, *, symbol: Optional[str] = None) -> pd.Series:
        """The value at every bar of `df` (conditions as 1.0, 0.0 or NaN for unknown)."""
        bars = BarsArgument(df, need_time=False, symbol=symbol)
        out = np.empty(bars.n)
        check(lib.bt_expr_eval(self._handle.value, ctypes.byref(bars.struct), _lib.address(out)))
        return pd.Series(out, index=bars.index, name=self.text)

    @checked
    def signal(self, df: pd.DataFrame, *, symbol: Optional[str] = None) -> pd.Series:
        """True where the condition is true (false where false or unknown), as a rule fires."""
        bars = BarsArgument(df, need_time=False, symbol=symbol)
        out = np.empty(bars.n, dtype=np.uint8)
        check(lib.bt_expr_signal(self._handle.value, ctypes.byref(bars.struct), _lib.address(out)))
        return pd.Series(out.view(np.bool_), index=bars.index, name=self.text)

    def __repr__(self) -> str:
        return f"Expression({self.text!r}, {'condition' if self.is_condition else 'number'})"


@checked
def compile(text: str, params: Optional[Dict[str, Any]] = None, *, other: Optional[Dict[str, Any]] = None,  # noqa: A001
            db: Any = None, max_stale: Optional[str] = None) -> Expression:
    """`Expression(text, params, ...)`: compile once, evaluate on many frames."""
    return Expression(text, params, other=other, db=db, max_stale=max_stale)


@checked
def evaluate(df: pd.DataFrame, text: str, params: Optional[Dict[str, Any]] = None, *, other: Optional[Dict[str, Any]] = None,
             db: Any = None, max_stale: Optional[str] = None, symbol: Optional[str] = None) -> pd.Series:
    """The expression's value at every bar of `df`: `btcore.evaluate(df, "sma(close, 20) / close")`;
    `other`, `db` (default df.attrs["db"] when the text reads `@`), `max_stale` and `symbol` as
    `Expression` and `signals` take them."""
    df = as_frame(df)
    if db is None and "@" in str(text):  # `@` is the language's only use of the character
        db = df.attrs.get("db")
    return Expression(text, params, other=other, db=db, max_stale=max_stale).values(df, symbol=symbol)


def _strategy(strategy: Optional[str], entry: Optional[str], exit: Optional[str], short_entry: Optional[str],
              short_exit: Optional[str], params: Optional[Dict[str, Any]], strategies: Optional[str]) -> _lib.Handle:
    if strategy is not None:
        if any(r is not None for r in (entry, exit, short_entry, short_exit)):
            raise InputError("strategy is the rules: leave out entry/exit, or leave out strategy")
        name, directory = _lib.text(strategy, "strategy"), _lib.text(strategies, "strategies")
        return _lib.new_handle(lambda out: lib.bt_strategy_named(name, directory, out),
                               lib.bt_strategy_free)
    if all(r is None for r in (entry, exit, short_entry, short_exit)):
        raise InputError("give a strategy (a built-in name or a strategy file) or both entry and exit rules "
                         "(or, short only, both short_entry and short_exit)")
    declared, count = _lib.strings(parameters(params))
    rules = [_lib.text(entry, "entry"), _lib.text(exit, "exit"), _lib.text(short_entry, "short_entry"),
             _lib.text(short_exit, "short_exit")]
    return _lib.new_handle(lambda out: lib.bt_strategy_rules(*rules, declared, count, out),
                           lib.bt_strategy_free)


def _reading(strategy: _lib.Handle, other: Optional[Dict[str, Any]], db: Any, max_stale: Optional[str],
             explicit_db: bool) -> Tuple[_lib.Handle, Optional[_lib.Handle]]:
    """`strategy` reading its rules' `@` series from `other`, the store `db` and the run's own
    bars, when a rule reads one (or when other series were given, which are then checked); else
    unchanged. Returns the strategy and the bt_other it holds."""
    reads = lib.bt_strategy_reads_other(strategy.value) == 1
    if not reads and not other and max_stale is None and not explicit_db:
        return strategy, None
    series = _other_series(other, db, max_stale)
    handle = _lib.new_handle(lambda out: lib.bt_strategy_reading(strategy.value, None if series is None else series.value, out),
                             lib.bt_strategy_free)
    return handle, series


@checked
def signals(df: pd.DataFrame, entry: Optional[str] = None, exit: Optional[str] = None,  # noqa: A002 - bt's name
            short_entry: Optional[str] = None, short_exit: Optional[str] = None, *,
            strategy: Optional[str] = None, params: Optional[Dict[str, Any]] = None,
            strategies: Optional[str] = None, other: Optional[Dict[str, Any]] = None, db: Any = None,
            max_stale: Optional[str] = None, symbol: Optional[str] = None) -> pd.DataFrame:
    """A strategy's signals on `df`, as `bt signals` prints them.

    Give rules (`entry` and `exit`, optionally `short_entry` and `short_exit`, in bt's rule
    language) or `strategy`: a built-in ("ma-cross", "rsi", "macd", "bollinger", "donchian"), a
    strategy file's path, or a file's name in `strategies` (default "strategies"). `params`
    sets parameters ({"fast": 10, "slow": 30}) or defines `$names` for rules.

    Rules read other series with `@`, as in `bt run` (`close > sma(close, 200)@SPY@1d`,
    `close@1d`): at each bar, the value of the other series' last bar closed by then, never a
    later one (NaN, so the rule is false, where none has closed). They come from `other`
    (DataFrames by key: {"SPY": spy_df} at its own timeframe, {"SPY@1d": daily}; a finer one is
    resampled to the timeframe asked), then from the store `db` (default df.attrs["db"], set by
    `btcore.read`), then, for df's own symbol (`symbol`, default df.attrs["symbol"]), df's own
    bars resampled: `close@1d` on hourly bars needs nothing else. `max_stale` is bt run's
    --max-stale ("36h", "3d"): how long another symbol's value may be carried past its bar.

    Returns a DataFrame on `df`'s index with bool columns entry and exit (and short_entry,
    short_exit when the strategy has short rules); `.attrs["warnings"]` lists what `bt run` would
    warn of the signals ({"kind", "message"}: "no_closed_bar", the bars where a series read with
    `@` had no closed bar, so the rules reading it were false there)."""
    df = as_frame(df)
    handle = _strategy(strategy, entry, exit, short_entry, short_exit, params, strategies)
    handle, reading = _reading(handle, other, db if db is not None else df.attrs.get("db"), max_stale, explicit_db=db is not None)
    assignments, count = _lib.strings(parameters(params))
    bars = BarsArgument(df, need_time=False, symbol=symbol)
    columns = {name: np.zeros(bars.n, dtype=np.uint8) for name in ("entry", "exit", "short_entry", "short_exit")}
    has_short = ctypes.c_int()
    check(lib.bt_strategy_signals(handle.value, assignments, count, ctypes.byref(bars.struct),
                                  *[_lib.address(columns[c]) for c in columns], ctypes.byref(has_short)))
    names = ["entry", "exit"] + (["short_entry", "short_exit"] if has_short.value else [])
    frame = pd.DataFrame({name: columns[name].view(np.bool_) for name in names}, index=df.index)
    frame.attrs["warnings"] = _signal_warnings(handle, assignments, count, bars)
    return frame


def _signal_warnings(handle: _lib.Handle, assignments: Any, count: int, bars: BarsArgument) -> List[Dict[str, str]]:
    """The warnings of a strategy's signals (bt_strategy_signal_warnings), as Result.warnings."""
    if lib.bt_strategy_reads_other(handle.value) != 1:
        return []
    length = ctypes.c_size_t()
    buffer = ctypes.create_string_buffer(4096)
    status = lib.bt_strategy_signal_warnings(handle.value, assignments, count, ctypes.byref(bars.struct), buffer, 4096,
                                             ctypes.byref(length))
    if status == _lib.BT_E_LENGTH:
        buffer = ctypes.create_string_buffer(length.value + 1)
        status = lib.bt_strategy_signal_warnings(handle.value, assignments, count, ctypes.byref(bars.struct), buffer,
                                                 length.value + 1, ctypes.byref(length))
    check(status)
    return _json.loads(buffer.raw[:length.value].decode("utf-8"))


def _exit_kinds() -> List[str]:
    """bt_exit_kind_name's names, in bt_exit_kind order, up to its NULL."""
    names: List[str] = []
    while (name := lib.bt_exit_kind_name(len(names))) is not None:
        names.append(name.decode())
    return names


_EXIT_KINDS = _exit_kinds()


_INTERVALS = ("sharpe_ci_low", "sharpe_ci_high", "psr")


class StatsTable(dict):
    """A run's statistics by bt's machine name, as `bt run --json` has them under "stats". Called,
    it gives the table again: `result.stats(intervals=True)` with the Sharpe interval and PSR."""

    def __init__(self, values: Dict[str, Any], result: "Result") -> None:
        super().__init__(values)
        self._result = result

    def __call__(self, intervals: bool = False) -> Dict[str, Any]:
        """The table; with `intervals`, the Sharpe interval (a bootstrap of the returns) and the
        PSR too, exactly the "stats" of `bt run --json`."""
        return self._result._table(intervals=True)["stats"] if intervals else dict(self)


class Result:
    """A backtest: `.stats` (dict), `.trades` and `.fills` (DataFrames), `.equity` (Series), as
    `bt run --json` and the report's trades.csv, fills.csv and equity.csv have them. Statistics
    are computed when asked for: `.stat(name)` computes that one (with the few computed
    alongside it), `.stats` the table without the bootstrap, `.intervals()` the bootstrap's."""

    def __init__(self, handle: _lib.Handle, index: pd.Index) -> None:
        self._handle = handle
        self._index = index
        self._json: Dict[Any, Dict[str, Any]] = {}

    @checked
    def json(self, costs: bool = False, intervals: bool = True) -> Dict[str, Any]:
        """The object `bt run --json` prints for this run (with `costs=False`, as with
        `--no-costs`: "costs" is null; True adds the cost-sensitivity table, four more runs).
        `intervals=False` leaves "sharpe_ci_low", "sharpe_ci_high" and "psr" None and skips the
        bootstrap."""
        key = (bool(costs), bool(intervals))
        if key not in self._json:
            length = ctypes.c_size_t()
            check(lib.bt_result_json_with(self._handle.value, int(costs), int(intervals), None, 0, ctypes.byref(length)))
            buffer = ctypes.create_string_buffer(length.value + 1)
            check(lib.bt_result_json_with(self._handle.value, int(costs), int(intervals), buffer, length.value + 1,
                                          ctypes.byref(length)))
            self._json[key] = _json.loads(buffer.raw[:length.value].decode("utf-8"))
        return self._json[key]

    def _table(self, intervals: bool = False) -> Dict[str, Any]:
        """The run's statistics, {"strategy", "symbol", "warnings", "stats"} (bt_result_stats_json):
        "warnings" and "stats" as `bt run --json` has them, made without the rest of its JSON
        (the manifest's hash of the bars, the cost split); without `intervals`, the Sharpe
        interval and PSR None and their bootstrap not run."""
        key = ("table", bool(intervals))
        if key not in self._json:
            length = ctypes.c_size_t()
            check(lib.bt_result_stats_json(self._handle.value, int(intervals), None, 0, ctypes.byref(length)))
            buffer = ctypes.create_string_buffer(length.value + 1)
            check(lib.bt_result_stats_json(self._handle.value, int(intervals), buffer, length.value + 1, ctypes.byref(length)))
            self._json[key] = _json.loads(buffer.raw[:length.value].decode("utf-8"))
        return self._json[key]

    @property
    def stats(self) -> StatsTable:
        """Every statistic by bt's machine name (fractions, not percents; start and end as ISO
        times; None where undefined) plus the engine's counters: the "stats" of `bt run --json`,
        with the Sharpe interval and PSR None (their bootstrap is most of a long run's statistics
        time). Call it for them: `result.stats(intervals=True)`, or `result.intervals()`."""
        return StatsTable(self._table()["stats"], self)

    def intervals(self) -> Dict[str, Any]:
        """The Sharpe ratio's bootstrap interval and the probabilistic Sharpe ratio:
        {"sharpe_ci_low", "sharpe_ci_high", "psr"} (None where undefined)."""
        stats = self._table(intervals=True)["stats"]
        return {name: stats[name] for name in _INTERVALS}

    @checked
    def stat(self, name: str) -> float:
        """One statistic as a float (times as UTC seconds, NaN where undefined), computed alone
        with the few computed alongside it: the value the table has."""
        value = ctypes.c_double()
        check(lib.bt_result_stat(self._handle.value, _lib.text(name, "name"), ctypes.byref(value)))
        return value.value

    @property
    def monte_carlo(self) -> Optional[Dict[str, Any]]:
        """The run's Monte Carlo (`backtest(..., monte_carlo=N)`), as `bt run --monte-carlo N
        --json` has it under "monte_carlo"; None when none was asked for."""
        return self.json(intervals=False).get("monte_carlo")

    @property
    def warnings(self) -> List[Dict[str, str]]:
        """What the reader must know about the run ({"kind", "message"}), as `bt run` warns."""
        return self._table()["warnings"]

    @property
    def ledger(self) -> pd.DataFrame:
        """Cash, signed position (units) and equity at each close."""
        n = lib.bt_result_bars(self._handle.value)
        equity, cash, position = np.empty(n), np.empty(n), np.empty(n)
        check(lib.bt_result_equity(self._handle.value, _lib.address(equity), _lib.address(cash), _lib.address(position)))
        return pd.DataFrame({"cash": cash, "position": position, "equity": equity}, index=self._index)

    @property
    def equity(self) -> pd.Series:
        """Equity (cash + position x close) at each close."""
        n = lib.bt_result_bars(self._handle.value)
        equity = np.empty(n)
        check(lib.bt_result_equity(self._handle.value, _lib.address(equity), None, None))
        return pd.Series(equity, index=self._index, name="equity")

    @property
    def trades(self) -> pd.DataFrame:
        """Round trips, as a report's trades.csv: side, entry_time, exit_time, entry_index,
        exit_index, bars_held, quantity, entry_price, exit_price, slippage_bps, fees, pnl,
        return, is_open, exit_kind, and always the account's charges each trade paid (in
        pnl): borrow (a short's borrow fee), interest (on borrowed cash) and funding (a
        perpetual's, net paid), 0 where the run charged none (trades.csv writes them only then)."""
        n = lib.bt_result_trade_count(self._handle.value)
        records = np.zeros(n, dtype=_lib.TRADE_DTYPE)
        check(lib.bt_result_trades(self._handle.value, _lib.address(records), n))
        charges = np.zeros((3, n))
        check(lib.bt_result_trade_charges(self._handle.value, *(_lib.address(c) for c in charges), n))
        return pd.DataFrame({
            "side": np.where(records["side"] > 0, "long", "short"),
            "entry_time": times(records["entry_time"]), "exit_time": times(records["exit_time"]),
            "entry_index": records["entry_index"], "exit_index": records["exit_index"],
            "bars_held": records["exit_index"] - records["entry_index"],
            "quantity": records["quantity"], "entry_price": records["entry_price"], "exit_price": records["exit_price"],
            "slippage_bps": records["slippage_bps"], "fees": records["fees"], "pnl": records["pnl"],
            "return": records["return"], "is_open": records["is_open"].astype(bool),
            "exit_kind": [_EXIT_KINDS[k] for k in records["exit_kind"]],
            "borrow": charges[0], "interest": charges[1], "funding": charges[2],
        })

    @property
    def fills(self) -> pd.DataFrame:
        """Executed orders, as a report's fills.csv (plus spread_cost, impact_cost and
        depth_available): time, index, side, reference_price, vwap, slippage_bps,
        quantity_asked, quantity_filled, fee, partial, ..."""
        n = lib.bt_result_fill_count(self._handle.value)
        records = np.zeros(n, dtype=_lib.FILL_DTYPE)
        check(lib.bt_result_fills(self._handle.value, _lib.address(records), n))
        return pd.DataFrame({
            "time": times(records["time"]), "index": records["index"],
            "side": np.where(records["side"] > 0, "buy", "sell"),
            "reference_price": records["reference_price"], "vwap": records["vwap"], "slippage_bps": records["slippage_bps"],
            "quantity_asked": records["quantity_asked"], "quantity_filled": records["quantity_filled"], "fee": records["fee"],
            "partial": records["is_partial"].astype(bool), "spread_cost": records["spread_cost"],
            "impact_cost": records["impact_cost"], "depth_available": records["depth_available"],
        })

    def report(self, path: Union[str, "os.PathLike[str]"], *, costs: bool = True, force: bool = False) -> str:
        """Writes the report folder `bt run --out PATH` writes: report.md, report.html (the
        interactive page), equity.svg, price.svg, equity.csv, trades.csv, fills.csv, stats.csv
        and stats.json. `costs=False` leaves out the cost-sensitivity table (four more runs), as
        `--no-costs` does. An existing folder is refused unless `force=True` (then replaced; one
        holding files bt did not write is refused even so). The folder is staged beside `path`
        and moved into place, so a failure leaves nothing half-written. Returns the path.

        Raises:
            InputError: `path` exists (without force), or is not a folder bt may write.
        """
        folder = os.fspath(path)
        check(lib.bt_result_report(self._handle.value, _lib.text(folder, "path"), int(bool(costs)), int(bool(force))))
        return folder

    def html(self, costs: bool = True) -> str:
        """The run's report.html as text: one self-contained page (candles, volume, trades,
        equity and drawdown, the statistics and cost tables; scripts and styles inline, nothing
        fetched from the network)."""
        length = ctypes.c_size_t()
        check(lib.bt_result_html(self._handle.value, int(bool(costs)), None, 0, ctypes.byref(length)))
        buffer = ctypes.create_string_buffer(length.value + 1)
        check(lib.bt_result_html(self._handle.value, int(bool(costs)), buffer, length.value + 1, ctypes.byref(length)))
        return buffer.raw[:length.value].decode("utf-8")

    def _repr_html_(self) -> str:
        """The interactive page inline in Jupyter: report.html in a sandboxed iframe (its own
        document, so its scripts and styles do not touch the notebook's; scripts allowed, no
        network fetch). Without the cost table, which would run the backtest four more times."""
        return iframe(self.html(costs=False))

    def __repr__(self) -> str:
        s = self._table()
        stats = s["stats"]
        return (f"<btcore.Result {s['strategy']} on {s.get('symbol') or '?'}: {stats['bars']:.0f} bars, {stats['trades']:.0f} trades, "
                f"total_return {stats['total_return']:.4f}, sharpe {stats['sharpe'] if stats['sharpe'] is not None else 'n/a'}>")


def _number(value: Optional[float], name: str, default: float = math.nan) -> float:
    if value is None:
        return default
    if isinstance(value, bool):
        raise InputError(f"{name}: {value!r} is not a number")
    try:
        return float(value)
    except (TypeError, ValueError):
        raise InputError(f"{name} {value!r}: not a number") from None


def _order_text(value: Any, name: str) -> Optional[str]:
    """An order or exit setting as bt's text: "5%" or a float fraction (0.05) or an expression;
    several take-profits as a list."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise InputError(f"{name}: {value!r} is not a setting")
    if isinstance(value, (list, tuple)):
        return ", ".join(_order_text(v, f"{name}[{i}]") or "" for i, v in enumerate(value))
    if isinstance(value, (int, float, np.integer, np.floating)):
        return repr(float(value)) if isinstance(value, (float, np.floating)) else str(int(value))
    return _lib.text_of(value, name)


#: The execution settings by keyword (as bt names them: `--fee-bps` is fee_bps), each with its
#: bt_config field, kind, default and help, read from the library (bt_execution_settings).
SETTINGS: Dict[str, Dict[str, Any]] = {f["setting"]: f for f in _lib.FIELDS if "setting" in f}


@checked
def execution_settings() -> pd.DataFrame:
    """Every execution keyword of `backtest`: name, kind, default (None: off, or set by the run)
    and help, in bt's order, as the library describes them."""
    return pd.DataFrame([{"name": k, "kind": f["kind"], "default": f["default"], "help": f["help"]}
                         for k, f in SETTINGS.items()])


def _keyword_default(field: Dict[str, Any]) -> Any:
    """A setting's default as backtest's signature shows it: a number for numbers with a literal
    default (cash=10000.0), else None (not given: bt's default applies)."""
    if field["kind"] == "number" and field["default"] is not None:
        return float(field["default"])
    return None


def _window_text(value: Any, name: str) -> Optional[str]:
    """A window bound as the text bt run's --from/--to read: a str as given ("2010-01-04"; a bare
    date as `end` includes that whole day), whole seconds as themselves, anything pd.Timestamp
    reads (naive is UTC) as that instant ("2010-01-04T00:00:00Z")."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        raise InputError(f"{name} {value!r}: not a time (give a date, a pd.Timestamp or UTC seconds)")
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    try:
        stamp = pd.Timestamp(value)
    except (TypeError, ValueError):
        raise InputError(f"{name} {value!r}: not a time (give a date, a pd.Timestamp or UTC seconds)") from None
    if stamp is pd.NaT:
        raise InputError(f"{name}: NaT is not a time (give None for no bound)")
    stamp = stamp.tz_localize("UTC") if stamp.tzinfo is None else stamp.tz_convert("UTC")
    if stamp != stamp.floor("s"):
        raise InputError(f"{name} {value!r}: bt's bar times are whole seconds; give a time without a fraction of a second")
    return stamp.strftime("%Y-%m-%dT%H:%M:%SZ")


def _config(values: Dict[str, Any], db: Optional[str], settings: Optional[Dict[str, Dict[str, Any]]] = None,
            config: Optional[type] = None, window: Tuple[Optional[str], Optional[str]] = (None, None)) -> Tuple[Any, List[Any]]:
    """bt_config for `values` (keyword: value; None leaves the setting to its default), of the
    library's `settings` laid out as `config` (SETTINGS and _lib.Config; tests add a setting),
    trading `window` (start, end as bt run's --from/--to read them)."""
    settings = SETTINGS if settings is None else settings
    c = (config or _lib.Config)()
    if config is None:
        lib.bt_config_init(ctypes.byref(c))
    keep: List[Any] = []

    def text(value: Any, name: str) -> Optional[bytes]:
        encoded = _lib.text(value, name)
        keep.append(encoded)
        return encoded

    for name, value in values.items():
        if value is None:
            continue
        field = settings[name]
        kind, target = field["kind"], field["name"]
        if kind == "number":
            number = _number(value, name)
            if math.isnan(number):
                # NaN is how the C struct says "not given": a NaN given here is a missing value.
                raise InputError(f"{name} nan: not a number (give a finite value, or None for bt's default)")
            setattr(c, target, number)
        elif kind == "whole_number":
            if isinstance(value, bool) or not float(value).is_integer() or not 1 <= int(value) < 2**31:
                raise InputError(f"{name} {value!r}: not a whole number of bars >= 1")
            setattr(c, target, int(value))
        elif kind == "flag":
            if not isinstance(value, (bool, np.bool_)):
                raise InputError(f"{name} {value!r}: give True or False")
            setattr(c, target, 1 if value else 0)
        else:
            setattr(c, target, text(_order_text(value, name), name))
    c.db = text(db, "db")
    c.start, c.end = text(window[0], "start"), text(window[1], "end")
    return c, keep


def backtest(df: Union[pd.DataFrame, Bars], entries: Optional[Bool] = None, exits: Optional[Bool] = None,
             short_entries: Optional[Bool] = None, short_exits: Optional[Bool] = None, *,
             strategy: Optional[str] = None, entry: Optional[str] = None, exit: Optional[str] = None,  # noqa: A002
             short_entry: Optional[str] = None, short_exit: Optional[str] = None,
             params: Optional[Dict[str, Any]] = None, strategies: Optional[str] = None,
             db: Optional[str] = None, other: Optional[Dict[str, Any]] = None, max_stale: Optional[str] = None,
             symbol: Optional[str] = None, start: Any = None, end: Any = None, monte_carlo: Optional[int] = None,
             seed: Optional[int] = None, ruin: Optional[str] = None, **settings: Any) -> Result:
    """Backtests signals (or a strategy, or rules) on `df` with bt's engine, as `bt run` does.

    What trades, one of:
        entries, exits (and short_entries, short_exits): bool Series or arrays of df's length,
            each signal at a bar's close (as `bt run --signals FILE`).
        strategy: a built-in ("ma-cross", "rsi", "macd", "bollinger", "donchian"), a strategy
            file's path or a file's name in `strategies`, with `params` ({"fast": 10}).
        entry, exit (and short_entry, short_exit): rules in bt's language (as `bt run --entry`),
            `params` defining their `$names`; rules may read position series (trade_return).

    Execution: every `bt run` execution option as a keyword, named as bt names the setting
    (`--fee-bps` is fee_bps), with bt run's defaults; None leaves a setting to its default.
    Order and exit settings take bt's text ("5%", "2 * atr(14)") or a number (a fraction 0.05, a
    count of bars); tp takes several targets as a list. The keywords, from the library:

    {settings}

    db: the store with the symbol's recorded book, calibrated profile, funding rates and
    instrument settings (`bt data instrument`: the defaults of the keywords not given) (default
    df.attrs["db"], set by `btcore.read`), and the other series rules read with `@`.

    other, max_stale, symbol: the series rules read with `@` and how stale another symbol's
    may go, as `signals` takes them; `symbol` names df's bars (default df.attrs["symbol"]).

    start, end: the window traded and measured, as `bt run --from START --to END`: the bars
    before `start` only warm up the indicators, rules and order expressions (the run starts flat
    at `start`), nothing after `end` is read, and the statistics, trades and equity cover the
    window. Each is a date or time as bt reads it ("2010-01-04", "2010-01-04T14:30:00Z"; a bare
    date as `end` includes that whole day), a pd.Timestamp or datetime (that instant; naive is
    UTC) or UTC seconds. Signal arrays still cover all of df. None: the first or last bar.
    Bars where a series read with `@` had no closed bar are in `.warnings` ("no_closed_bar").

    monte_carlo, seed, ruin: a Monte Carlo of the run, as `bt run --monte-carlo N --seed S
    --ruin PCT`: N resamples of the trades and of the bar returns (percentiles of the final
    equity, the drawdown and the CAGR, and the chance of ruin), in `.json()["monte_carlo"]`,
    `.monte_carlo` and the report; `seed` a whole number from 0 to 2**32 - 1 (default 1), `ruin`
    the drawdown counted as ruin as --ruin reads it, in percent ("30%", default "50%").

    `df` needs a DatetimeIndex and open, high, low, close (and volume for the synthetic book
    and the participation cap) of bars bt could store; `df.attrs` "symbol" and "timeframe"
    (set by `btcore.read`) name the run. `df` may also be `Bars(df)`, the bars copied and
    checked once: many backtests on the same bars then skip that work.

    Returns:
        A Result: `.stats`, `.trades`, `.fills`, `.equity`, `.ledger`, `.json()`.

    Raises:
        InputError: bad signals, bars or settings, with bt's message ("fee_bps '-3': fee must be
        in [0, 10000) basis points"); a window holding no bar, naming start or end; a keyword
        backtest does not take (KeywordError, also a TypeError), with the closest one.
        StoreError: the store named by db failed.
    """
    _keywords.check("backtest", settings, list(SETTINGS) + _BACKTEST_KEYWORDS)
    values = {k: settings.get(k, _keyword_default(f)) for k, f in SETTINGS.items()}
    monte = _monte_carlo_texts(monte_carlo, seed, ruin)
    df = as_frame(df)
    prepared = df if isinstance(df, Bars) else None
    if prepared is not None and symbol is not None:
        raise InputError("symbol: a Bars keeps the symbol of the frame it was made from (set df.attrs['symbol'] before Bars(df))")
    bars = None if isinstance(df, Bars) else BarsArgument(df, need_time=True, symbol=symbol)
    n = len(df) if isinstance(df, Bars) else cast(BarsArgument, bars).n
    config, keep = _config(values, db if db is not None else df.attrs.get("db"),
                           window=(_window_text(start, "start"), _window_text(end, "end")))
    out = ctypes.c_void_p()
    given = entries is not None or exits is not None
    if given:
        if strategy is not None or entry is not None or exit is not None:
            raise InputError("entries/exits are the signals: leave out strategy and entry/exit rules")
        if entries is None or exits is None:
            raise InputError("give both entries and exits")
        if (short_entries is None) != (short_exits is None):
            raise InputError("short_entries and short_exits come as a pair")
        if other is not None or max_stale is not None:
            raise InputError("other/max_stale are for rules that read other series with @: entries/exits are signals already")
        arrays: List[Optional[np.ndarray]] = [flags(entries, "entries", n), flags(exits, "exits", n)]
        arrays += [None, None] if short_entries is None else [flags(short_entries, "short_entries", n),
                                                             flags(short_exits, "short_exits", n)]
        vectors = _lib.Signals(*[0 if a is None else _lib.address(a) for a in arrays])
        if prepared is not None:
            check(lib.bt_backtest_series(prepared._handle.value, ctypes.byref(vectors), ctypes.byref(config), ctypes.byref(out)))
        else:
            check(lib.bt_backtest(ctypes.byref(cast(BarsArgument, bars).struct), ctypes.byref(vectors), ctypes.byref(config),
                                  ctypes.byref(out)))
    else:
        handle = _strategy(strategy, entry, exit, short_entry, short_exit, params, strategies)
        # db is also the run's store here (its book, instrument settings): not only for @.
        handle, reading = _reading(handle, other, db if db is not None else df.attrs.get("db"), max_stale, explicit_db=False)
        assignments, count = _lib.strings(parameters(params))
        if prepared is not None:
            check(lib.bt_backtest_strategy_series(prepared._handle.value, handle.value, assignments, count,
                                                  ctypes.byref(config), ctypes.byref(out)))
        else:
            check(lib.bt_backtest_strategy(ctypes.byref(cast(BarsArgument, bars).struct), handle.value, assignments, count,
                                           ctypes.byref(config), ctypes.byref(out)))
    del keep
    result = _lib.Handle(out.value, lib.bt_result_free)
    if monte is not None:
        check(lib.bt_result_set_monte_carlo(result.value, *monte))
    first, traded = ctypes.c_size_t(), ctypes.c_size_t()
    check(lib.bt_result_window(result.value, ctypes.byref(first), ctypes.byref(traded)))
    return Result(result, df.index[first.value:first.value + traded.value])


def _whole_text(value: Any, name: str) -> Optional[str]:
    """A whole-number option as bt's text (None: not given)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InputError(f"{name} {value!r}: not a whole number")
    return str(int(value))


def _monte_carlo_texts(monte_carlo: Any, seed: Any, ruin: Any) -> Optional[Tuple[Optional[bytes], Optional[bytes], Optional[bytes]]]:
    """backtest's monte_carlo, seed and ruin as bt_result_set_monte_carlo takes them (the
    library checks the values, as bt run checks its options); None when none is given."""
    if monte_carlo is None and seed is None and ruin is None:
        return None
    if ruin is not None and not isinstance(ruin, str):
        raise InputError(f"ruin {ruin!r}: give the drawdown in percent as --ruin reads it ('30%')")
    return (_lib.text(_whole_text(monte_carlo, "monte_carlo"), "monte_carlo"), _lib.text(_whole_text(seed, "seed"), "seed"),
            _lib.text(ruin, "ruin"))


#: backtest's own keywords besides the execution settings.
_BACKTEST_KEYWORDS = [p for p in inspect.signature(backtest).parameters if p != "settings"]


def _settings_doc() -> str:
    lines = []
    for name, f in SETTINGS.items():
        lines.append(f"{name}: {f['help']}")
    return "\n    ".join(lines)


#: backtest's own signature, its **settings not yet spelled out.
_BACKTEST = inspect.signature(backtest)


def _signature(settings: Dict[str, Dict[str, Any]]) -> inspect.Signature:
    """backtest's signature with its **settings spelled out: every setting a keyword with its
    default, as help() and editors show them."""
    fixed = [p for p in _BACKTEST.parameters.values() if p.kind != inspect.Parameter.VAR_KEYWORD]
    return _BACKTEST.replace(parameters=fixed + [inspect.Parameter(k, inspect.Parameter.KEYWORD_ONLY, default=_keyword_default(f))
                                                 for k, f in settings.items()])


backtest.__doc__ = (backtest.__doc__ or "").replace("{settings}", _settings_doc())
setattr(backtest, "__signature__", _signature(SETTINGS))


@checked
def stat_names() -> List[str]:
    """Every statistic's machine name, in bt's output order."""
    return [lib.bt_stat_name(i).decode() for i in range(lib.bt_stat_count())]


from ._portfolio import PortfolioResult  # noqa: E402 - needs the helpers above
from . import _keywords, _portfolio  # noqa: E402,F811



def portfolio(data: Union[Dict[str, pd.DataFrame], Sequence[str]], strategy: Optional[str] = None, *,
              entry: Optional[str] = None, exit: Optional[str] = None,  # noqa: A002 - bt's name
              short_entry: Optional[str] = None, short_exit: Optional[str] = None, params: Optional[Dict[str, Any]] = None,
              strategies: Optional[str] = None, max_positions: Optional[int] = None, rank: Optional[str] = None,
              weight: Optional[str] = None, rebalance: Optional[Union[str, int]] = None, rotate: bool = False,
              neutral: bool = False, timeframe: Optional[str] = None, db: Optional[str] = None,
              max_stale: Optional[str] = None, start: Any = None, end: Any = None, costs: bool = False,
              **settings: Any) -> PortfolioResult:
    """Several symbols sharing one account, as `bt portfolio` runs them: each symbol's signals
    open positions in up to `max_positions` slots, ranked by `rank` when more signal at once.

    data: the bars, one of
        a dict of DataFrames by symbol ({"AAPL": aapl, "MSFT": msft}), all at one timeframe
            (their attrs["timeframe"], else inferred from the times), as `backtest` takes a frame;
        a list of stored symbols (["AAPL", "MSFT"]) read from the store `db` (default $BT_DB,
            else data/bt.sqlite) as `bt portfolio --symbols` reads them (`timeframe` picks or
            resamples the stored series).
    strategy, entry, exit, short_entry, short_exit, params, strategies: what trades, as
        `backtest` takes them (a built-in, a strategy file, or rules).
    max_positions (--max-positions): K slots (default: one per symbol).
    rank (--rank): an expression ranking the symbols that signal at once ("roc(close, 20)").
    weight (--weight): "equal", "inverse-vol" or "rank".
    rebalance (--rebalance): "never", "1w", "1M" or a number of bars.
    rotate (--rotate): hold the top `max_positions` by `rank` at each rebalance, whatever the
        signals (no strategy then).
    neutral (--neutral): with `short=True`, a market-neutral book: the long leg's notional kept
        equal to the short leg's (`bt help portfolio` has the rule).
    max_stale (--max-stale), start and end (--from, --to, as `backtest`), costs (False: "costs"
    is null, as --no-costs; True runs the cost table, four more runs) and every execution
    keyword of `backtest` (fee_bps=5, depth="none", ...).

    Returns:
        A PortfolioResult: `.stats` equal `bt portfolio --json`'s "stats" on the same bars,
        `.json()` the whole object, `.figures`, `.contributions`, `.warnings`.

    Raises:
        InputError: bad data (series at different timeframes, a symbol given twice, an
        unknown symbol), options or settings, naming the argument; a keyword portfolio does
        not take (with the closest one). StoreError: the store failed.
    """
    _keywords.check("portfolio", settings, list(SETTINGS) + _PORTFOLIO_KEYWORDS)
    options = {"max_positions": max_positions, "rank": rank, "weight": weight, "rebalance": rebalance, "rotate": rotate or None,
               "neutral": neutral or None, "timeframe": timeframe, "max_stale": max_stale}
    if max_positions is not None and (isinstance(max_positions, bool) or not float(max_positions).is_integer()):
        raise InputError(f"max_positions {max_positions!r}: not a whole number of positions")
    if max_positions is not None:
        options["max_positions"] = int(max_positions)
    return _portfolio.run(data, strategy, entry=entry, exit=exit, short_entry=short_entry, short_exit=short_exit, params=params,
                          strategies=strategies, options=options, db=db, start=start, end=end, costs=costs, settings=settings)


#: portfolio's own keywords besides the execution settings.
_PORTFOLIO_KEYWORDS = [p for p in inspect.signature(portfolio).parameters if p != "settings"]


from ._sweep import Sweep  # noqa: E402 - needs the helpers above
from . import _sweep  # noqa: E402


def sweep(data: Union[pd.DataFrame, str], strategy: Optional[str] = None, *, grid: Dict[str, Any],
          where: Optional[str] = None, walk_forward: Optional[int] = None, rank: Optional[str] = None,
          pbo_blocks: Optional[int] = None, top: Optional[int] = None, entry: Optional[str] = None,
          exit: Optional[str] = None, short_entry: Optional[str] = None,  # noqa: A002 - bt's name
          short_exit: Optional[str] = None, params: Optional[Dict[str, Any]] = None, strategies: Optional[str] = None,
          db: Optional[str] = None, timeframe: Optional[str] = None, start: Any = None, end: Any = None,
          out: Optional[str] = None, search: Optional[str] = None, trials: Optional[int] = None, seed: Optional[int] = None,
          objective: Optional[str] = None, objectives: Union[Sequence[str], str, None] = None, **settings: Any) -> Sweep:
    """Every combination of `grid` backtested on one series, as `bt sweep` runs them.

    data: a DataFrame of bars (as `backtest` takes it), or a stored symbol ("GOOG") read from
        `db` (default df.attrs["db"], $BT_DB, data/bt.sqlite) with `timeframe`, as bt sweep reads it.
    strategy, entry, exit, short_entry, short_exit, strategies: what trades, as `backtest` takes
        them; rules read the swept names as `$names`.
    grid: each swept parameter's values by name ({"fast": range(5, 50, 5), "slow": [20, 50, 100]},
        or bt's text "5:50:5"), as --grid; a name may also be an exit setting bt sweeps (sl, tp,
        trail, ...).
    where (--where): keep the combinations where it holds ("fast < slow").
    walk_forward (--walk-forward): K folds, each choosing its best in sample and trading it out
        of sample; rank (--rank): the statistic ranking the combinations (default "sharpe");
        pbo_blocks (--pbo-blocks), top (--top).
    params: fixed parameters; start, end: the window (as `backtest`'s); out: the report folder
        (default a temporary one, as `.folder`); every execution keyword of `backtest`.
    search (--search): how the combinations are chosen, by bt's name: "grid" (every one, the
        default), "random" (`trials` of them drawn at random from the axes, with `seed`, as
        --trials and --seed; an axis may then be a range without a step, "5:50" (whole numbers)
        or "0.5:2.5" (reals), to draw from) or "bayes" (`trials` chosen one by one by a
        Gaussian-process model of the rank statistic after a seeded random design, as
        bt sweep --search bayes).
    objective (--objective): the statistic the combinations are ranked by and a search
        optimises (default "sharpe"; `rank` is its older name: both given must agree).
    objectives (--objectives): two or more statistics (["sharpe", "max_drawdown"], or
        "sharpe,max_drawdown"): the table's `pareto` column marks the combinations no other
        beats on all of them (the Pareto front), as bt sweep --objectives; the first is the
        objective when none is given.

    Returns:
        A Sweep: `.table` (the rows of bt sweep's sweep.csv, the same values, `pareto` included
        with `objectives`), `.best`, `.objectives`, `.deflated_sharpe`, `.pbo`,
        `.heatmap(x, y, stat)`, `.run(**values)`.

    Raises:
        InputError: a grid axis that is not a parameter (with the closest), a grid that `where`
        leaves empty, bad data or settings, naming the argument; a keyword sweep does not take.
        KeyboardInterrupt: Ctrl-C stops the sweep within about a second (between two small
        chunks of combinations) and the interpreter stays usable.
    """
    _keywords.check("sweep", settings, list(SETTINGS) + _SWEEP_KEYWORDS)
    if not isinstance(grid, dict) or not grid:
        raise InputError("grid: give each swept parameter's values by name ({'fast': range(5, 50, 5)})")
    axes = [str(name) for name in grid]
    specs = [(f"grid[{name!r}]", _sweep.axis_text(name, values)) for name, values in grid.items()]
    frame = data if isinstance(data, pd.DataFrame) else None
    if frame is None and not isinstance(data, str):
        raise InputError(f"data: expected a DataFrame of bars or a stored symbol, got {type(data).__name__}")
    store = db if db is not None else (frame.attrs.get("db") if frame is not None else _default_db(None))
    values = {k: settings.get(k, _keyword_default(f)) for k, f in SETTINGS.items()}
    config, keep = _config(values, store, window=(_window_text(start, "start"), _window_text(end, "end")))
    rules = any(r is not None for r in (entry, exit, short_entry, short_exit))
    # Rules declare the swept names as $names (their first values), as bt sweep does.
    declared = dict(params or {})
    if rules:
        for name, values_ in grid.items():
            first = _sweep.axis_text(name, values_).split("=", 1)[1].split(",")[0].split(":")[0]
            declared.setdefault(name, float(first))
    handle = _strategy(strategy, entry, exit, short_entry, short_exit, declared, strategies)
    fixed, nfixed = _lib.strings(parameters(params))
    axis_array, naxes = _lib.strings(specs)
    if search is not None and not isinstance(search, str):
        raise InputError(f"search {search!r}: give the search by its name ('grid', 'random' or 'bayes')")
    if objectives is not None and not isinstance(objectives, str):
        if not all(isinstance(o, str) for o in objectives):
            raise InputError(f"objectives {objectives!r}: give the statistics by name (['sharpe', 'max_drawdown'])")
        objectives = ",".join(objectives)
    options = {"where": where, "rank": rank, "objective": objective, "objectives": objectives, "walk_forward": walk_forward,
               "pbo_blocks": pbo_blocks, "top": top, "timeframe": timeframe, "search": search, "trials": trials, "seed": seed}
    for name in ("walk_forward", "pbo_blocks", "top", "trials", "seed"):
        value = options[name]
        if value is not None and (isinstance(value, bool) or not float(value).is_integer()):
            raise InputError(f"{name} {value!r}: not a whole number")
        options[name] = None if value is None else int(value)
    option_array, noptions = _lib.strings([(k, f"{k}={v}") for k, v in options.items() if v is not None])
    bars = BarsArgument(frame, need_time=True) if frame is not None else None
    symbol = None if frame is not None else _lib.text(data, "data")
    if out is not None:
        _lib.text(out, "out")

    def call(cancel: ctypes.c_int, result: ctypes.c_void_p, folder: str) -> int:
        return lib.bt_sweep(None if bars is None else ctypes.byref(bars.struct), symbol, handle.value, axis_array, naxes, fixed,
                            nfixed, option_array, noptions, ctypes.byref(config), _lib.text(folder, "out"),
                            ctypes.byref(cancel), ctypes.byref(result))

    def rerun(chosen: Dict[str, Any]) -> Result:
        swept_settings = {k: v for k, v in chosen.items() if k in SETTINGS}
        swept_params = {k: v for k, v in chosen.items() if k not in SETTINGS}
        bars_ = frame if frame is not None else read(str(data), db=store, timeframe=timeframe)
        kwargs = {**settings, **swept_settings}
        if rules:
            return backtest(bars_, entry=entry, exit=exit, short_entry=short_entry, short_exit=short_exit,
                            params={**(params or {}), **swept_params}, db=store, start=start, end=end, **kwargs)
        return backtest(bars_, strategy=strategy, strategies=strategies, params={**(params or {}), **swept_params}, db=store,
                        start=start, end=end, **kwargs)

    try:
        return _sweep.run(call, axes, rerun, out)
    finally:
        del keep


#: sweep's own keywords besides the execution settings.
_SWEEP_KEYWORDS = [p for p in inspect.signature(sweep).parameters if p != "settings"]


def _screen_symbols(data: Union[Sequence[str], str, None]) -> List[Tuple[str, str]]:
    """A screen's symbols as (argument, text) pairs: a list of stored symbols or series, or
    "all" / None for every stored series (--all)."""
    if data is None or (isinstance(data, str) and data == "all"):
        return []
    if isinstance(data, str) or not all(isinstance(s, str) for s in data):
        raise InputError(f"data: expected a list of stored symbols (or 'all'), got {data!r:.60}")
    if not data:
        raise InputError("data: an empty list: give the symbols to screen, or 'all'")
    return [(f"data[{i}]", s) for i, s in enumerate(data)]


def screen(data: Union[Mapping[str, pd.DataFrame], Sequence[str], str, None], strategy: Optional[str] = None, *,
           entry: Optional[str] = None,
           exit: Optional[str] = None, short_entry: Optional[str] = None,  # noqa: A002 - bt's name
           short_exit: Optional[str] = None, params: Optional[Dict[str, Any]] = None, strategies: Optional[str] = None,
           rank: Optional[str] = None, min_trades: Optional[int] = None, top: Optional[int] = None,
           timeframe: Optional[str] = None, db: Optional[str] = None, start: Any = None, end: Any = None,
           out: Optional[str] = None, monte_carlo: Optional[int] = None, seed: Optional[int] = None,
           ruin: Optional[str] = None, **settings: Any) -> pd.DataFrame:
    """The strategy backtested on each stored symbol and ranked, as `bt screen STRATEGY`.

    data: stored symbols or series (["GOOG", "EURUSD@1h"]) of the store `db` (default $BT_DB,
        else data/bt.sqlite), or "all" (every stored series at `timeframe`, --all); or a dict of
        DataFrames by symbol ({"SPY": df, ...}, as `portfolio` takes them), each at its own
        timeframe, ranked as `bt screen` ranks the same bars stored (`timeframe` is then refused;
        `db` is the store of the symbols' settings, default the frames' attrs["db"]).
    strategy, entry, exit, short_entry, short_exit, params, strategies: what trades, as
        `backtest` takes them; rank (--rank, default "sharpe"), min_trades (--min-trades),
        top (--top), timeframe (--timeframe), start and end (the window, as `backtest`'s), every
        execution keyword of `backtest`; out: the report folder (default a temporary one).
    monte_carlo, seed, ruin: Monte Carlo columns, as `bt screen --monte-carlo N --seed S --ruin
        PCT`: each symbol's `backtest(..., monte_carlo=N, seed=S, ruin=PCT)` Monte Carlo as the
        mc_ columns of screen.csv (percentiles of the final equity, drawdown and CAGR, and the
        chance of ruin); `seed` 0 to 2**32 - 1 (default 1), `ruin` in percent ("30%", default "50%").

    Returns:
        A DataFrame with the rows of bt screen's screen.csv in its order: rank (NaN for the
        unranked), symbol, timeframe, status ("ok", "few_trades", "error", ...), error (the
        reason), then every statistic (and the mc_ columns with `monte_carlo`). `.attrs["notes"]` lists the series the screen left out or
        resampled, each with its reason ({"series", "kind", "reason"}); `.attrs["folder"]` is the
        report folder `out` (None without one: the temporary folder is removed).

    Raises:
        InputError: no symbols, bad settings, naming the argument; a keyword screen does not
        take. StoreError: the store failed.
    """
    _keywords.check("screen", settings, list(SETTINGS) + _SCREEN_KEYWORDS)
    frames: Optional[List[BarsArgument]] = None
    if isinstance(data, Mapping):
        frames, db = _portfolio.frames_by_symbol(data, db, "the screen's")
    store = db if db is not None else (None if frames is not None else _default_db(None))
    values = {k: settings.get(k, _keyword_default(f)) for k, f in SETTINGS.items()}
    config, keep = _config(values, store, window=(_window_text(start, "start"), _window_text(end, "end")))
    handle = _strategy(strategy, entry, exit, short_entry, short_exit, params, strategies)
    assignments, count = _lib.strings(parameters(params))
    symbols, nsymbols = _lib.strings([] if frames is not None else _screen_symbols(cast(Union[Sequence[str], str, None], data)))
    options = {"rank": rank, "min_trades": min_trades, "top": top, "timeframe": timeframe}
    for name in ("min_trades", "top"):
        value = options[name]
        if value is not None and (isinstance(value, bool) or not float(value).is_integer()):
            raise InputError(f"{name} {value!r}: not a whole number")
    pairs = [(k, f"{k}={int(v) if k in ('min_trades', 'top') else v}") for k, v in options.items() if v is not None]
    monte = _monte_carlo_texts(monte_carlo, seed, ruin)
    pairs += [(k, f"{k}={v.decode()}") for k, v in zip(("monte_carlo", "seed", "ruin"), monte or ()) if v is not None]
    option_array, noptions = _lib.strings(pairs)
    folder = out if out is not None else tempfile.mkdtemp(prefix="btcore-screen-")
    result = ctypes.c_void_p()
    try:
        if frames is not None:
            series = (_lib.Bars * len(frames))(*[f.struct for f in frames])
            check(lib.bt_screen_bars(series, len(frames), handle.value, assignments, count, option_array, noptions,
                                     ctypes.byref(config), _lib.text(folder, "out"), ctypes.byref(result)))
        else:
            check(lib.bt_screen(symbols, nsymbols, handle.value, assignments, count, option_array, noptions, ctypes.byref(config),
                                _lib.text(folder, "out"), ctypes.byref(result)))
    except Error:
        if out is None:
            shutil.rmtree(folder, ignore_errors=True)
        raise
    summary = _json.loads(_lib.read_text(_lib.Handle(result.value, lib.bt_text_free)))
    del keep
    table = pd.read_csv(os.path.join(folder, "screen.csv"), keep_default_na=False, na_values=[""],
                        dtype={"symbol": str, "timeframe": str, "status": str, "error": str})
    table["error"] = table["error"].fillna("")
    table.attrs["notes"] = summary["notes"]
    table.attrs["folder"] = out
    if out is None:  # the temporary folder held only what the table now has
        shutil.rmtree(folder, ignore_errors=True)
    return table


def where(data: Union[Sequence[str], str, None], condition: str, *, show: Optional[Sequence[str]] = None,
          params: Optional[Dict[str, Any]] = None, at: Any = None, timeframe: Optional[str] = None, db: Optional[str] = None,
          start: Any = None, end: Any = None, max_stale: Optional[str] = None) -> pd.DataFrame:
    """The stored symbols where `condition` holds on their last bar, as `bt screen --where`.

    data: stored symbols or series of the store `db`, or "all" (every stored series at
        `timeframe`). condition (--where): a condition of bt's rule language ("close > sma(close,
        50)"); show (--show): expressions whose values are listed beside it; params: `$names`;
        at (--at): the last bar at or before this time (else `end`); start: the first bar read;
        max_stale: as `backtest`'s, for series read with `@`.

    Returns:
        A DataFrame with the rows of the condition screen's screen.csv (every symbol checked:
        symbol, timeframe, status, the bar's time, whether it matched, the shown values, error).
        `.attrs["matches"]` is the `bt screen --where --json` object's "matches" (the symbols
        where it holds), `.attrs["json"]` the whole object, `.attrs["notes"]` the series left out
        or resampled with their reason.

    Raises:
        InputError: a bad condition (with a caret under it), no symbols, naming the argument.
    """
    store = db if db is not None else _default_db(None)
    values = {k: _keyword_default(f) for k, f in SETTINGS.items()}
    if at is not None and end is not None:
        raise InputError("at: give at or end, not both")
    config, keep = _config(values, store, window=(_window_text(start, "start"), _window_text(end, "end")))
    assignments, count = _lib.strings(parameters(params))
    symbols, nsymbols = _lib.strings(_screen_symbols(data))
    if isinstance(show, str):
        show = [show]
    pairs = [(f"show[{i}]", f"show={_lib.text_of(s, f'show[{i}]')}") for i, s in enumerate(show or [])]
    pairs += [(k, f"{k}={v}") for k, v in (("at", _window_text(at, "at")), ("timeframe", timeframe), ("max_stale", max_stale))
              if v is not None]
    option_array, noptions = _lib.strings(pairs)
    result = ctypes.c_void_p()
    check(lib.bt_where(symbols, nsymbols, _lib.text(condition, "condition"), assignments, count, option_array, noptions,
                       ctypes.byref(config), ctypes.byref(result)))
    del keep
    summary = _json.loads(_lib.read_text(_lib.Handle(result.value, lib.bt_text_free)))
    table = pd.read_csv(io.StringIO(summary["csv"]), keep_default_na=False, na_values=[""],
                        dtype={"symbol": str, "timeframe": str, "status": str, "error": str})
    table["error"] = table["error"].fillna("")
    table.attrs["matches"] = summary["report"]["matches"]
    table.attrs["json"] = summary["report"]
    table.attrs["notes"] = summary["notes"]
    return table


where = checked(where)

#: screen's own keywords besides the execution settings.
_SCREEN_KEYWORDS = [p for p in inspect.signature(screen).parameters if p != "settings"]
