"""polars DataFrames and pyarrow Tables taken as they come: the same results as the pandas frame
they hold, float64 columns read without a copy, and the same refusals, named for the library."""
import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import btcore
from btcore._frames import frame


def plain(df: pd.DataFrame) -> pd.DataFrame:
    """df without its attrs (symbol, timeframe, db): neither polars nor pyarrow carries them."""
    out = df.copy()
    out.attrs = {}
    return out


def as_polars(df: pd.DataFrame) -> pl.DataFrame:
    return pl.from_pandas(df.reset_index())


def as_arrow(df: pd.DataFrame) -> pa.Table:
    return pa.Table.from_pandas(df.reset_index(), preserve_index=False)


@pytest.mark.parametrize("convert", [as_polars, as_arrow], ids=["polars", "pyarrow"])
def test_backtest_equals_the_pandas_frame(convert, goog):
    expected = btcore.backtest(goog, strategy="ma-cross", params={"fast": 10, "slow": 30}, fee_bps=5).json()
    got = btcore.backtest(convert(goog), strategy="ma-cross", params={"fast": 10, "slow": 30}, fee_bps=5, symbol="GOOG")
    assert got.json() == {**expected, "timeframe": None}
    expected = btcore.backtest(plain(goog), strategy="ma-cross", params={"fast": 10, "slow": 30}, fee_bps=5)
    got = btcore.backtest(convert(goog), strategy="ma-cross", params={"fast": 10, "slow": 30}, fee_bps=5)
    assert got.json() == expected.json()
    pd.testing.assert_series_equal(got.equity, expected.equity)


@pytest.mark.parametrize("convert", [as_polars, as_arrow], ids=["polars", "pyarrow"])
def test_signals_and_expressions_equal_the_pandas_frame(convert, goog):
    pd.testing.assert_frame_equal(btcore.signals(convert(goog), strategy="rsi"), btcore.signals(goog, strategy="rsi"))
    pd.testing.assert_series_equal(btcore.evaluate(convert(goog), "sma(close, 20) / close"),
                                   btcore.evaluate(goog, "sma(close, 20) / close"))


def test_float64_columns_are_read_without_a_copy(goog):
    polars_frame = as_polars(goog)
    assert np.shares_memory(frame(polars_frame)["close"].to_numpy(), polars_frame["close"].to_numpy())
    table = as_arrow(goog)
    assert np.shares_memory(frame(table)["close"].to_numpy(), table.column("close").chunks[0].to_numpy())


def test_other_layouts_are_converted_once_with_nulls_as_nan(goog):
    df = as_polars(goog).with_columns(pl.col("volume").cast(pl.Int64), pl.col("close").cast(pl.Float32))
    df = df.with_columns(pl.when(pl.int_range(pl.len()) == 3).then(None).otherwise(pl.col("open")).alias("open"))
    converted = frame(df)
    assert converted["volume"].dtype == np.float64 or converted["volume"].dtype.kind == "i"
    assert np.isnan(converted["open"].to_numpy()[3])
    chunked = pa.concat_tables([as_arrow(goog.iloc[:100]), as_arrow(goog.iloc[100:])])
    assert chunked.column("close").num_chunks == 2
    expected = btcore.backtest(plain(goog), strategy="ma-cross")
    assert btcore.backtest(chunked, strategy="ma-cross").json() == expected.json()


def test_times_with_a_zone_are_the_same_instants(goog):
    zoned = as_polars(goog).with_columns(pl.col("time").dt.convert_time_zone("America/New_York"))
    assert frame(zoned).index.equals(goog.index)
    naive = as_arrow(goog.tz_convert(None) if goog.index.tz is not None else goog)
    assert frame(naive).index.equals(goog.index.tz_convert("UTC") if goog.index.tz is not None else goog.index.tz_localize("UTC"))


def test_parquet_through_pandas_and_pyarrow(goog, tmp_path):
    path = tmp_path / "goog.parquet"
    goog.to_parquet(path)
    expected = btcore.backtest(plain(goog), strategy="macd").json()
    assert btcore.backtest(pd.read_parquet(path), strategy="macd").json() == btcore.backtest(goog, strategy="macd").json()
    assert btcore.backtest(pq.read_table(path), strategy="macd").json() == expected
    assert btcore.backtest(pl.read_parquet(path), strategy="macd").json() == expected


def test_ta_functions_return_the_input_kind(goog):
    expected = btcore.ta.rsi(goog["close"], 14).to_numpy()
    series = btcore.ta.rsi(pl.Series("close", goog["close"].to_numpy()), 14)
    assert isinstance(series, pl.Series)
    np.testing.assert_array_equal(series.to_numpy(), expected)
    arrow = btcore.ta.rsi(pa.chunked_array([goog["close"].to_numpy()[:50], goog["close"].to_numpy()[50:]]), 14)
    assert isinstance(arrow, pa.Array)
    np.testing.assert_array_equal(arrow.to_numpy(zero_copy_only=False), expected)


def test_signals_as_polars_series(goog):
    rules = btcore.signals(goog, strategy="ma-cross")
    expected = btcore.backtest(plain(goog), rules["entry"], rules["exit"]).json()
    got = btcore.backtest(as_polars(goog), pl.Series(rules["entry"].to_numpy()), pa.array(rules["exit"].to_numpy()))
    assert got.json() == expected


def test_refusals_name_the_library(goog):
    with pytest.raises(btcore.InputError, match="LazyFrame: collect"):
        btcore.backtest(as_polars(goog).lazy(), strategy="ma-cross")
    with pytest.raises(btcore.InputError, match="polars DataFrame without a time column"):
        btcore.backtest(as_polars(goog).drop("time"), strategy="ma-cross")
    with pytest.raises(btcore.InputError, match="pyarrow Table without a time column"):
        btcore.backtest(as_arrow(goog).drop_columns(["time"]), strategy="ma-cross")
    two = as_polars(goog).rename({"time": "a"}).with_columns(pl.col("a").alias("b"))
    with pytest.raises(btcore.InputError, match="2 time columns"):
        btcore.backtest(two, strategy="ma-cross")
    with pytest.raises(btcore.InputError, match="null times"):
        btcore.backtest(as_polars(goog).with_columns(pl.lit(None, dtype=pl.Datetime("ns", "UTC")).alias("time")),
                        strategy="ma-cross")
    with pytest.raises(btcore.InputError, match="no 'close' column"):
        btcore.backtest(as_polars(goog).drop("close"), strategy="ma-cross")
    strings = as_polars(goog).with_columns(pl.col("close").cast(pl.String))
    with pytest.raises(btcore.InputError, match="close: expected numbers"):
        btcore.backtest(strings, strategy="ma-cross")
