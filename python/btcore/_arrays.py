"""Conversions between pandas/numpy and bt's C arrays: float64 arrays passed without copies,
anything else converted once, wrong shapes and dtypes refused with InputError."""
from __future__ import annotations

import weakref
from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import pandas as pd

from . import _lib
from ._frames import column_values, frame, like_input
from ._lib import InputError

COLUMNS = ("open", "high", "low", "close", "volume")


def doubles(x: Any, name: str, length: Optional[int] = None) -> np.ndarray:
    """`x` (a Series of pandas or polars, a pyarrow array, a numpy array or a sequence of numbers)
    as a 1-D C-contiguous float64 array: the same memory when it already is one, else one
    converted copy."""
    x = column_values(x)
    if isinstance(x, pd.Series):
        if x.dtype.kind not in "biuf" and not pd.api.types.is_numeric_dtype(x.dtype):
            raise InputError(f"{name}: expected numbers, got a Series of dtype {x.dtype}")
        # A float64 Series gives its own memory; other numeric dtypes (nullable ones too) convert once.
        array = x.to_numpy() if x.dtype == np.float64 else x.to_numpy(dtype=np.float64, na_value=np.nan)
    elif isinstance(x, pd.DataFrame):
        raise InputError(f"{name}: expected one column, got a DataFrame ({', '.join(map(str, x.columns[:5]))})")
    else:
        array = np.asarray(x)
    if array.dtype.kind not in "biuf":
        raise InputError(f"{name}: expected numbers, got dtype {array.dtype}")
    if array.ndim != 1:
        raise InputError(f"{name}: expected one dimension, got shape {array.shape}")
    array = np.ascontiguousarray(array, dtype=np.float64)
    if length is not None and len(array) != length:
        raise InputError(f"{name}: length {len(array)} differs from the first input's {length}")
    return array


def flags(x: Any, name: str, length: int) -> np.ndarray:
    """Signals (bools or 0/1 numbers) as a C-contiguous uint8 array of `length` values."""
    x = column_values(x)
    array = x.to_numpy() if isinstance(x, pd.Series) else np.asarray(x)
    if array.ndim != 1:
        raise InputError(f"{name}: expected one dimension, got shape {array.shape}")
    if len(array) != length:
        raise InputError(f"{name}: length {len(array)} differs from the bars' {length}")
    if array.dtype == np.bool_:
        return np.ascontiguousarray(array).view(np.uint8)
    if array.dtype.kind not in "biuf":
        raise InputError(f"{name}: expected booleans, got dtype {array.dtype}")
    with np.errstate(invalid="ignore"):
        return np.ascontiguousarray(np.nan_to_num(array.astype(np.float64), nan=0.0) != 0).view(np.uint8)


_SECONDS: Dict[int, Any] = {}


def seconds(index: pd.Index) -> Optional[np.ndarray]:
    """A DatetimeIndex as UTC seconds since 1970 (naive times are taken as UTC); None for any
    other index. Made once per index (indexes are immutable) and kept while the index lives,
    so a notebook's repeated calls on one frame convert its times once."""
    if not isinstance(index, pd.DatetimeIndex):
        return None
    key = id(index)
    cached = _SECONDS.get(key)
    if cached is not None and cached[0]() is index:
        return cached[1]
    utc = index.tz_convert("UTC").tz_localize(None) if index.tz is not None else index
    nanoseconds = utc.as_unit("ns").asi8
    out = nanoseconds // 1_000_000_000
    if not np.array_equal(out * 1_000_000_000, nanoseconds):
        raise InputError("the index has times that are not whole seconds: bt's bars start on a second")
    out = np.ascontiguousarray(out, dtype=np.int64)
    try:
        _SECONDS[key] = (weakref.ref(index), out)
        weakref.finalize(index, _SECONDS.pop, key, None)
    except TypeError:  # an index that cannot be weakly referenced is converted every time
        pass
    return out


def _column(df: pd.DataFrame, name: str) -> Optional[Any]:
    for column in df.columns:
        if str(column).lower() == name:
            return df[column]
    return None


class BarsArgument:
    """A DataFrame's columns as a `bt_bars` struct, with the arrays it points into kept alive."""

    def __init__(self, df: pd.DataFrame, *, need_time: bool, what: str = "df", symbol: Optional[str] = None) -> None:
        df = frame(df, what)
        if not isinstance(df, pd.DataFrame):
            raise InputError(f"{what}: expected a DataFrame with open, high, low, close and volume columns, got {type(df).__name__}")
        self.index = df.index
        n = len(df)
        close = _column(df, "close")
        if close is None:
            raise InputError(f"{what}: no 'close' column (columns: {', '.join(map(str, df.columns))})")
        self.arrays: Dict[str, Optional[np.ndarray]] = {"close": doubles(close, f"{what}.close")}
        for name in ("open", "high", "low"):
            column = _column(df, name)
            if column is None and need_time:
                raise InputError(f"{what}: no '{name}' column: a backtest needs open, high, low and close")
            self.arrays[name] = self.arrays["close"] if column is None else doubles(column, f"{what}.{name}", n)
        volume = _column(df, "volume")
        self.arrays["volume"] = None if volume is None else doubles(volume, f"{what}.volume", n)
        self.time = seconds(df.index)
        if self.time is None and need_time and "btcore_source" in df.attrs:
            raise InputError(f"{what}: {df.attrs['btcore_source']} without a time column (a datetime column named "
                             "time, timestamp, datetime, date or open_time): a backtest needs each bar's time")
        if self.time is None and need_time:
            raise InputError(f"{what}: the index is a {type(df.index).__name__}, not a DatetimeIndex: "
                             "a backtest needs each bar's time (btcore.read gives one)")
        self.symbol = str(df.attrs.get("symbol", "")) if symbol is None else symbol
        timeframe = df.attrs.get("timeframe")
        self.timeframe = None if timeframe is None else str(timeframe)
        self.struct = _lib.Bars(
            n, 0 if self.time is None else _lib.address(self.time),
            *[0 if (column := self.arrays[c]) is None else _lib.address(column) for c in COLUMNS],
            _lib.text(self.symbol, f"{what}.attrs['symbol']" if symbol is None else "symbol"),
            _lib.text(self.timeframe, f"{what}.attrs['timeframe']"))

    @property
    def n(self) -> int:
        return int(self.struct.n)


def like(template: Any, values: np.ndarray, name: Optional[str] = None) -> Any:
    """`values` as the kind of `template`: a Series on its index when it is a pandas Series, a
    polars Series or a pyarrow array for theirs, else the array."""
    if isinstance(template, pd.Series):
        return pd.Series(values, index=template.index, name=name)
    converted = like_input(template, values, name)
    return values if converted is None else converted


def times(seconds_: np.ndarray) -> pd.DatetimeIndex:
    """UTC seconds as a UTC DatetimeIndex."""
    return pd.DatetimeIndex(pd.to_datetime(seconds_, unit="s", utc=True))


def parameters(params: Optional[Dict[str, Any]]) -> List[Tuple[str, str]]:
    """A dict of parameters as bt's `name=value` assignments, each with the argument it came
    from (`params['fast']`) for `_lib.strings` to name in its errors."""
    if not params:
        return []
    out = []
    for name, value in params.items():
        if isinstance(value, bool) or value is None:
            raise InputError(f"parameter {name}: {value!r} is not a number or a word")
        if "=" in str(name):
            raise InputError(f"parameter {str(name)!r}: a name has no '=' (letters, digits and '_')")
        argument = f"params[{name!r}]"
        numeric = isinstance(value, (int, float, np.integer, np.floating))
        out.append((argument, f"{name}={_number(value) if numeric else _lib.text_of(value, argument)}"))
    return out


def _number(value: Any) -> str:
    v = float(value)
    return str(int(v)) if v.is_integer() and abs(v) < 1e15 else repr(v)
