"""btcore.screen equals `bt screen STRATEGY`'s screen.csv on the same store (every row, in its
ranked order, the same values), with the series it left out or resampled and their reasons;
btcore.where equals `bt screen --where --json` and its screen.csv."""
import json

import numpy as np
import pandas as pd
import pytest

import btcore
from conftest import run_bt


@pytest.fixture(scope="module")
def mixed(tmp_path_factory) -> str:
    """A store with GOOG (daily), EURUSD (hourly) and six synthetic daily symbols."""
    path = str(tmp_path_factory.mktemp("screen") / "bt.sqlite")
    run_bt("data", "import", "data/GOOG.csv", "data/EURUSD.csv", "--db", path)
    run_bt("data", "synth", "--symbols", "6", "--bars", "800", "--seed", "3", "--db", path)
    return path


def csv(path) -> pd.DataFrame:
    table = pd.read_csv(path, keep_default_na=False, na_values=[""], dtype={"symbol": str, "timeframe": str, "status": str,
                                                                            "error": str})
    table["error"] = table["error"].fillna("")
    return table


def same(got: pd.DataFrame, expected: pd.DataFrame, skip=()):
    assert list(got.columns) == list(expected.columns) and len(got) == len(expected) > 0
    for column in expected.columns:
        if column in skip:
            continue
        if expected[column].dtype.kind == "f":
            np.testing.assert_array_equal(got[column].to_numpy(), expected[column].to_numpy(), err_msg=column)
        else:
            assert list(got[column]) == list(expected[column]), column


def test_screen_of_every_series_equals_screen_csv(mixed, tmp_path):
    run_bt("screen", "ma-cross", "--all", "--timeframe", "1d", "--out", str(tmp_path / "cli"), "--db", mixed)
    got = btcore.screen("all", "ma-cross", timeframe="1d", db=mixed)
    same(got, csv(tmp_path / "cli" / "screen.csv"))
    assert got.attrs["notes"] == [{"series": "EURUSD@1d", "kind": "resampled", "reason": "1d bars made from its 1h bars, in UTC days"}]
    assert list(got["rank"].dropna()) == list(range(1, int(got["rank"].max()) + 1))


def test_screen_options_window_and_failed_symbols_equal_bt_screen(mixed, tmp_path):
    flags = ["--symbols", "SYN0001,GOOG,SYN0004,NOPE,SYN0002", "--param", "fast=5", "--rank", "sortino", "--min-trades", "5",
             "--from", "2010-01-04", "--fee-bps", "5", "--sl", "6%"]
    run_bt("screen", "ma-cross", *flags, "--out", str(tmp_path / "cli"), "--db", mixed)
    got = btcore.screen(["SYN0001", "GOOG", "SYN0004", "NOPE", "SYN0002"], "ma-cross", params={"fast": 5}, rank="sortino",
                        min_trades=5, start="2010-01-04", fee_bps=5, sl="6%", db=mixed, out=str(tmp_path / "py"))
    expected = csv(tmp_path / "cli" / "screen.csv")
    # The command words a symbol's error with its flags; the library with btcore's names.
    same(got, expected, skip=("error",))
    assert got.attrs["folder"] == str(tmp_path / "py") and (tmp_path / "py" / "screen.md").exists()
    failed = got[got.status == "error"]
    assert list(failed.symbol) == ["NOPE"] and "NOPE" in failed.error.item()
    assert set(got.status) >= {"ok", "error"}


def test_where_equals_bt_screen_where(mixed, tmp_path):
    flags = ["--where", "close > sma(close, $n) and rsi(close) < 70", "--show", "rsi(close)", "--show", "close / sma(close, $n)",
             "--param", "n=50", "--at", "2013-01-15"]
    expected = json.loads(run_bt("screen", "--all", *flags, "--json", "--db", mixed))
    run_bt("screen", "--all", *flags, "--out", str(tmp_path / "cli"), "--db", mixed)
    got = btcore.where("all", "close > sma(close, $n) and rsi(close) < 70", show=["rsi(close)", "close / sma(close, $n)"],
                       params={"n": 50}, at="2013-01-15", db=mixed)
    assert got.attrs["json"] == expected and got.attrs["matches"] == expected["matches"]
    same(got, csv(tmp_path / "cli" / "screen.csv"))


def test_bad_screens_name_the_argument(mixed):
    with pytest.raises(btcore.InputError, match=r"^where: unknown series 'closee'"):
        btcore.where(["GOOG"], "closee > 1", db=mixed)
    with pytest.raises(btcore.InputError, match=r"^rank 'nope'"):
        btcore.screen(["GOOG"], "ma-cross", rank="nope", db=mixed)
    with pytest.raises(btcore.InputError, match=r"^top '0'"):
        btcore.screen(["GOOG"], "ma-cross", top=0, db=mixed)
    with pytest.raises(btcore.InputError, match=r"^data: an empty list"):
        btcore.screen([], "ma-cross", db=mixed)
    with pytest.raises(btcore.KeywordError, match=r"did you mean 'min_trades'\?"):
        btcore.screen(["GOOG"], "ma-cross", min_trade=3, db=mixed)
    with pytest.raises(btcore.KeywordError, match=r"did you mean 'show'\?"):
        btcore.where(["GOOG"], "close > 1", shw=["close"], db=mixed)
    with pytest.raises(btcore.InputError, match=r"^at: give at or end, not both"):
        btcore.where(["GOOG"], "close > 1", at="2010-01-01", end="2010-01-01", db=mixed)


def test_screen_of_caller_dataframes_equals_bt_screen_of_the_same_bars(mixed, tmp_path):
    """A dict of DataFrames by symbol (as portfolio takes it) ranks as `bt screen` ranks the same
    bars stored: the same rows in the same order, the same values; each frame at its own timeframe."""
    symbols = ["SYN0001", "GOOG", "SYN0004", "EURUSD", "SYN0002"]
    frames = {s.lower() if s == "GOOG" else s: btcore.read(s, db=mixed) for s in symbols}
    flags = ["--symbols", ",".join(symbols), "--param", "fast=5", "--rank", "sortino", "--min-trades", "5", "--fee-bps", "5"]
    run_bt("screen", "ma-cross", *flags, "--out", str(tmp_path / "cli"), "--db", mixed)
    got = btcore.screen(frames, "ma-cross", params={"fast": 5}, rank="sortino", min_trades=5, fee_bps=5, out=str(tmp_path / "py"))
    same(got, csv(tmp_path / "cli" / "screen.csv"))
    assert got.attrs["notes"] == [] and (tmp_path / "py" / "report.html").exists()
    # A window, as --from.
    run_bt("screen", "ma-cross", "--symbols", "GOOG,SYN0003", "--from", "2010-01-04", "--out", str(tmp_path / "cli2"), "--db", mixed)
    got = btcore.screen({"GOOG": frames["goog"], "SYN0003": btcore.read("SYN0003", db=mixed)}, "ma-cross", start="2010-01-04")
    same(got, csv(tmp_path / "cli2" / "screen.csv"))


def test_bad_screens_of_dataframes_name_the_argument(mixed):
    goog = btcore.read("GOOG", db=mixed)
    cases = [
        ({}, r"^data: an empty dict"),
        ({"GOOG": goog, "goog": goog}, r"two series are named GOOG"),
        ({"GOOG": goog.drop(columns="close")}, r"^data\['GOOG'\]"),
        ({1: goog}, r"^data: a key is a symbol"),
    ]
    for data, match in cases:
        with pytest.raises(btcore.InputError, match=match):
            btcore.screen(data, "ma-cross")
    with pytest.raises(btcore.InputError, match=r"^timeframe"):
        btcore.screen({"GOOG": goog}, "ma-cross", timeframe="1w")


@pytest.mark.parametrize("keywords, flags", [
    ({"monte_carlo": 200}, ["--monte-carlo", "200"]),
    ({"monte_carlo": 150, "seed": 7, "ruin": "30%"}, ["--monte-carlo", "150", "--seed", "7", "--ruin", "30%"]),
])
def test_screen_monte_carlo_equals_bt_screen_monte_carlo(keywords, flags, mixed, tmp_path):
    """screen(monte_carlo=N, seed=S, ruin=PCT) is `bt screen --monte-carlo N --seed S --ruin PCT`:
    the same rows, the 20 mc_ columns included, to the bit; from the store and from DataFrames."""
    symbols = ["SYN0001", "GOOG", "SYN0004", "SYN0002"]
    run_bt("screen", "ma-cross", "--symbols", ",".join(symbols), *flags, "--out", str(tmp_path / "cli"), "--db", mixed)
    expected = csv(tmp_path / "cli" / "screen.csv")
    assert len([c for c in expected.columns if c.startswith("mc_")]) == 20
    same(btcore.screen(symbols, "ma-cross", db=mixed, **keywords), expected)
    frames = {s: btcore.read(s, db=mixed) for s in symbols}
    same(btcore.screen(frames, "ma-cross", **keywords), expected)
    assert not any(c.startswith("mc_") for c in btcore.screen(symbols, "ma-cross", db=mixed).columns)


def test_bad_screen_monte_carlo_names_the_argument(mixed):
    cases = [
        ({"monte_carlo": 0}, r"^monte_carlo '0': must be 1 to "),
        ({"monte_carlo": 2.5}, r"^monte_carlo 2\.5: not a whole number"),
        ({"monte_carlo": 10, "ruin": "0%"}, r"^ruin"),
        ({"monte_carlo": 10, "ruin": 30}, r"^ruin 30: give the drawdown in percent"),
        ({"seed": 3}, r"^seed '3': is for monte_carlo"),
    ]
    for keywords, match in cases:
        with pytest.raises(btcore.InputError, match=match):
            btcore.screen(["GOOG"], "ma-cross", db=mixed, **keywords)
