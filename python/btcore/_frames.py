"""polars DataFrames and pyarrow Tables (and their columns) as btcore's pandas inputs.

A frame from either library becomes a pandas DataFrame over the same memory: each bar column
(open, high, low, close, volume; any case) that is float64 without nulls in one chunk is viewed,
not copied (numpy over the Arrow buffer, read-only), any other is converted once (nulls become
NaN, as pandas shows them). Neither library has an index, so the bars' times come from a column:
the temporal one named time, timestamp, datetime, date or open_time (any case), else the only
temporal column; naive times are UTC, as a naive DatetimeIndex is. Without one the frame has a
RangeIndex, and what needs times says so as it does for pandas. Nothing here imports polars or
pyarrow: a frame is recognised by its type's module, so neither is a dependency of btcore."""
from __future__ import annotations

from typing import Any, Dict, List, Optional

import numpy as np
import pandas as pd

from ._lib import InputError

BAR_COLUMNS = ("open", "high", "low", "close", "volume")
TIME_NAMES = ("time", "timestamp", "datetime", "date", "open_time")


def library(x: Any) -> str:
    """"polars", "pyarrow", "pandas", ... : the top-level module of x's type."""
    return type(x).__module__.split(".")[0]


def frame(data: Any, what: str = "df") -> Any:
    """`data` as a pandas DataFrame when it is a polars DataFrame or a pyarrow Table; anything
    else unchanged (a pandas DataFrame, or what BarsArgument refuses with its own message)."""
    kind, name = library(data), type(data).__name__
    if kind == "polars" and name == "LazyFrame":
        raise InputError(f"{what}: a polars LazyFrame: collect() it first (btcore reads the bars in memory)")
    if kind == "polars" and name == "DataFrame":
        return _polars(data, what)
    if kind == "pyarrow" and name == "Table":
        return _arrow(data, what)
    if kind == "pyarrow" and name == "RecordBatch":
        import pyarrow as pa
        return _arrow(pa.Table.from_batches([data]), what)
    return data


def column_values(x: Any) -> Any:
    """A polars Series or a pyarrow Array/ChunkedArray as a numpy array (a view when it is
    float64 without nulls in one chunk); anything else unchanged."""
    kind = library(x)
    if kind == "polars" and type(x).__name__ == "Series":
        return _polars_values(x)
    if kind == "pyarrow" and type(x).__name__.endswith("Array"):  # pa.Array's typed subclasses and ChunkedArray
        return _arrow_values(x)
    return x


def like_input(template: Any, values: np.ndarray, name: Optional[str]) -> Any:
    """`values` as the kind of a polars or pyarrow `template` (None when it is neither)."""
    kind = library(template)
    if kind == "polars" and type(template).__name__ == "Series":
        import polars as pl
        return pl.Series(name if name is not None else template.name, values)
    if kind == "pyarrow":
        import pyarrow as pa
        return pa.array(values)
    return None


def _pick_time(names: List[str], temporal: List[str], what: str) -> Optional[str]:
    for wanted in TIME_NAMES:
        for column in temporal:
            if column.lower() == wanted:
                return column
    if len(temporal) == 1:
        return temporal[0]
    if temporal:
        raise InputError(f"{what}: {len(temporal)} time columns ({', '.join(temporal)}) and none named "
                         f"{', '.join(TIME_NAMES)}: rename the bars' time column to time")
    return None


def _bar_columns(names: List[str]) -> List[str]:
    return [c for c in names if c.lower() in BAR_COLUMNS]


def _index(ns: np.ndarray) -> pd.DatetimeIndex:
    """Nanoseconds as the UTC index btcore.read gives (whole seconds, as bt stores bars); other
    times keep their nanoseconds, for BarsArgument to refuse with its message."""
    whole = ns % 1_000_000_000 == 0
    if whole.all():
        return pd.DatetimeIndex(pd.to_datetime(ns // 1_000_000_000, unit="s", utc=True)).rename("time")
    return pd.DatetimeIndex(pd.to_datetime(ns, unit="ns", utc=True)).rename("time")


def _pandas(columns: Dict[str, Any], index: pd.Index, source: str) -> pd.DataFrame:
    """The columns over their own memory (copy=False keeps pandas from gathering them into one
    block), marked with where they came from for BarsArgument's messages."""
    out = pd.DataFrame(columns, index=index, copy=False)
    out.attrs["btcore_source"] = source
    return out


def _polars_values(s: Any) -> np.ndarray:
    import polars as pl
    if s.dtype.is_numeric() or s.dtype == pl.Boolean:
        if s.null_count() == 0:
            return s.to_numpy()  # a view for float64 in one chunk
        return s.cast(pl.Float64).to_numpy()  # nulls as NaN, one conversion
    return s.to_numpy()  # strings and the like: refused downstream with the pandas message


def _polars(df: Any, what: str) -> pd.DataFrame:
    import polars as pl
    names = [str(c) for c in df.columns]
    temporal = [c for c in names if df.schema[c].is_temporal() and df.schema[c] != pl.Duration and df.schema[c] != pl.Time]
    time = _pick_time(names, temporal, what)
    index: pd.Index = pd.RangeIndex(df.height)
    if time is not None:
        t = df[time]
        if t.null_count():
            raise InputError(f"{what}: the time column {time!r} has {t.null_count()} null times")
        if t.dtype == pl.Date:
            t = t.cast(pl.Datetime("ns"))
        index = _index(t.dt.epoch("ns").to_numpy())
    columns: Dict[str, Any] = {c: _polars_values(df[c]) for c in _bar_columns(names)}
    return _pandas(columns, index, "a polars DataFrame")


def _arrow_values(column: Any) -> np.ndarray:
    import pyarrow as pa
    chunks = column.chunks if isinstance(column, pa.ChunkedArray) else [column]
    if len(chunks) == 1 and column.null_count == 0 and pa.types.is_floating(column.type):
        return chunks[0].to_numpy(zero_copy_only=False)  # float64 without nulls: a view
    if pa.types.is_integer(column.type) or pa.types.is_floating(column.type) or pa.types.is_boolean(column.type) \
            or pa.types.is_decimal(column.type):
        cast = column.cast(pa.float64()) if column.null_count or pa.types.is_decimal(column.type) else column
        return cast.to_numpy() if isinstance(cast, pa.ChunkedArray) else cast.to_numpy(zero_copy_only=False)
    return column.to_numpy() if isinstance(column, pa.ChunkedArray) else column.to_numpy(zero_copy_only=False)


def _arrow(table: Any, what: str) -> pd.DataFrame:
    import pyarrow as pa
    names = [str(c) for c in table.column_names]
    temporal = [c for c in names if pa.types.is_timestamp(table.schema.field(c).type) or pa.types.is_date(table.schema.field(c).type)]
    time = _pick_time(names, temporal, what)
    index: pd.Index = pd.RangeIndex(table.num_rows)
    if time is not None:
        t = table.column(time)
        if t.null_count:
            raise InputError(f"{what}: the time column {time!r} has {t.null_count} null times")
        unit_ns = t.cast(pa.timestamp("ns", tz=getattr(t.type, "tz", None)))
        index = _index(unit_ns.cast(pa.int64()).to_numpy())
    columns = {c: _arrow_values(table.column(c)) for c in _bar_columns(names)}
    return _pandas(columns, index, "a pyarrow Table")
