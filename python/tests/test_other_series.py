"""Rules that read other series with `@` from Python: `other={"SPY": spy_df}`, the store (`db=`)
and the frame's own bars (`close@1d` on hourly bars), against the pandas goldens of
Tests/Fixtures/timeframes/make_goldens.py and against `bt signals` / `bt run` on the same data.
Bad keys raise InputError with bt's message and a caret under the key."""
from io import StringIO

import numpy as np
import pandas as pd
import pytest

import btcore
from conftest import REPO, bt_json, run_bt

FIXTURES = REPO / "Tests" / "Fixtures" / "timeframes"


def cases():
    """The goldens on the shipped data (GOOG, EURUSD); the session stock's need its session,
    which frames do not carry (OtherSeriesSessionGoldenTests checks them in Swift)."""
    out = []
    for line in (FIXTURES / "cases.txt").read_text().splitlines():
        case_id, dataset, text, stale = line.split("\t")
        if dataset in ("goog", "eurusd"):
            out.append((case_id, dataset, text, f"{int(stale) // 86400}d" if stale else None))
    return out


def golden(dataset: str, case_id: str) -> np.ndarray:
    return pd.read_csv(FIXTURES / f"{dataset}_goldens.csv")[case_id].to_numpy(dtype=float)


def plain(df: pd.DataFrame) -> pd.DataFrame:
    """The frame's bars without the attrs btcore.read sets: no store, no symbol."""
    out = df.copy()
    out.attrs.clear()
    return out


@pytest.fixture(scope="module")
def googx(goog) -> pd.DataFrame:
    """GOOG without every 7th bar from the 4th: the goldens' symbol with other holidays."""
    return plain(goog[np.arange(len(goog)) % 7 != 3])


@pytest.fixture(scope="module")
def store_x(tmp_path_factory, googx) -> str:
    """A store holding GOOG, EURUSD and GOOGX, imported by bt."""
    folder = tmp_path_factory.mktemp("store_x")
    frame = googx.copy()
    frame.index = frame.index.strftime("%Y-%m-%d")
    frame.columns = ["Open", "High", "Low", "Close", "Volume"]
    frame.to_csv(folder / "GOOGX.csv")
    path = folder / "bt.sqlite"
    run_bt("data", "import", "data/GOOG.csv", "data/EURUSD.csv", str(folder / "GOOGX.csv"), "--db", str(path))
    return str(path)


@pytest.mark.parametrize("case_id,dataset,text,stale", cases(), ids=[c[0] for c in cases()])
def test_every_golden_case_from_frames_and_from_the_store(case_id, dataset, text, stale, goog, eurusd, googx, store_x):
    run = goog if dataset == "goog" else eurusd
    expected = golden(dataset, case_id)
    # The frame's own bars and GOOGX given as a frame, no store.
    given = btcore.evaluate(plain(run), text, other={"GOOGX": googx}, max_stale=stale, symbol=run.attrs["symbol"])
    np.testing.assert_allclose(given.to_numpy(), expected, rtol=1e-12, atol=0, equal_nan=True)
    # Everything from the store.
    stored = btcore.evaluate(plain(run), text, db=store_x, max_stale=stale, symbol=run.attrs["symbol"])
    np.testing.assert_allclose(stored.to_numpy(), expected, rtol=1e-12, atol=0, equal_nan=True)


def test_a_higher_timeframe_of_the_frame_itself_needs_nothing_else(eurusd):
    """No other data, no store, no symbol: `close@1d` resamples the frame's own hourly bars."""
    values = btcore.evaluate(plain(eurusd), "sma(close, 5)@1d")
    np.testing.assert_allclose(values.to_numpy(), golden("eurusd", "sma5_1d"), rtol=1e-12, equal_nan=True)
    sig = btcore.signals(plain(eurusd), entry="close > sma(close, 3)@1d", exit="close < sma(close, 3)@1d")
    np.testing.assert_array_equal(sig.entry.to_numpy(), golden("eurusd", "filter_1d") == 1)


def test_a_finer_frame_is_resampled_to_the_timeframe_asked(goog, googx):
    values = btcore.evaluate(plain(goog), "close@GOOGX@1w", other={"GOOGX@1d": googx})
    np.testing.assert_allclose(values.to_numpy(), golden("goog", "close_x_1w"), rtol=1e-12, equal_nan=True)


@pytest.mark.parametrize("entry,exit_,symbol", [
    ("close > sma(close, 3)@1d", "close < sma(close, 5)@1d", "EURUSD"),
    ("close > close@GOOGX", "close < sma(close, 3)@GOOGX@1w", "GOOG"),
])
def test_signals_equal_bt_signals(entry, exit_, symbol, store_x, googx):
    csv = pd.read_csv(StringIO(run_bt("signals", symbol, "--entry", entry, "--exit", exit_, "--db", store_x)))
    df = btcore.read(symbol, db=store_x)
    for sig in (btcore.signals(df, entry=entry, exit=exit_),                         # the store, from df.attrs
                btcore.signals(plain(df), entry=entry, exit=exit_, other={"GOOGX": googx}, symbol=symbol)):
        np.testing.assert_array_equal(sig.entry.to_numpy(), csv.entry.astype(bool).to_numpy())
        np.testing.assert_array_equal(sig.exit.to_numpy(), csv.exit.astype(bool).to_numpy())
        assert sig.entry.any() and sig.exit.any()


def test_a_backtest_reading_other_series_equals_bt_run_and_warns_of_bars_without_a_closed_bar(store_x, googx):
    entry, exit_ = "close > close@GOOGX", "close < sma(close, 3)@GOOGX"
    expected = bt_json("run", "GOOG", "--entry", entry, "--exit", exit_, "--db", store_x, "--depth", "none", "--json", "--no-costs")
    goog = btcore.read("GOOG", db=store_x)
    for df, keywords in ((goog, {}), (btcore.Bars(goog), {}), (plain(goog), {"other": {"GOOGX": googx}, "symbol": "GOOG"})):
        run = btcore.backtest(df, entry=entry, exit=exit_, depth="none", **keywords)
        if keywords:
            assert run.stats(intervals=True) == expected["stats"] and run.warnings == expected["warnings"]
        else:
            assert run.json() == expected
        warned = [w for w in run.warnings if w["kind"] == "no_closed_bar"]
        assert len(warned) == 1 and "bars had no closed GOOGX@1d bar" in warned[0]["message"], run.warnings
        assert warned == [w for w in expected["warnings"] if w["kind"] == "no_closed_bar"]
    stale = btcore.backtest(plain(goog), entry=entry, exit=exit_, depth="none", other={"GOOGX": googx}, max_stale="3d")
    assert stale.stats != run.stats


def test_signals_carry_the_warnings_a_run_would_give(store_x, googx, goog):
    """sig.attrs["warnings"]: the bars without a closed bar of a series read with @, as the
    backtest of the same rules warns of them (and nothing for rules without @)."""
    entry, exit_ = "close > close@GOOGX", "close < sma(close, 3)@GOOGX"
    sig = btcore.signals(plain(goog), entry=entry, exit=exit_, other={"GOOGX": googx})
    run = btcore.backtest(plain(goog), entry=entry, exit=exit_, other={"GOOGX": googx}, depth="none")
    expected = [w for w in run.warnings if w["kind"] == "no_closed_bar"]
    assert sig.attrs["warnings"] == expected and len(expected) == 1
    missing = int(np.isnan(golden("goog", "close_x")).sum())
    assert expected[0]["message"].startswith(f"{missing} bars had no closed GOOGX@1d bar"), expected
    assert btcore.signals(goog, entry="close > 1", exit="close < 1").attrs["warnings"] == []
    # A frame without a symbol: its own series is "@1w".
    weekly = int(btcore.evaluate(plain(goog), "close@1w").isna().sum())
    own = btcore.signals(plain(goog), entry="close > close@1w", exit="close < 1").attrs["warnings"]
    assert weekly > 0 and own[0]["message"].startswith(f"{weekly} bars had no closed @1w bar:"), own


def test_without_other_series_a_rule_reading_another_symbol_says_where_it_looked(goog):
    with pytest.raises(btcore.InputError) as caught:
        btcore.signals(plain(goog), entry="close > close@SPY", exit="close < 1")
    message = str(caught.value)
    assert message.startswith("entry: no candles stored for 'SPY' (read as 'SPY@1d')"), message
    assert "close > close@SPY\n" in message and "^^^" in message


@pytest.mark.parametrize("call,words", [
    (lambda s: btcore.signals(s.goog, entry="close > close@GOOGXX", exit="close < 1", other={"GOOGX": s.googx}),
     ["entry: no candles stored for 'GOOGXX'", "did you mean 'GOOGX@1d'?", "close > close@GOOGXX\n", "^^^^^^"]),
    (lambda s: btcore.evaluate(s.goog, "close@1h"), ["expression: '@1h' is a lower timeframe than the run's (1d)", "^^"]),
    (lambda s: btcore.evaluate(s.goog, "close@GOOGX@1d", other={"GOOGX@1w": s.googx.iloc[::5]}),
     ["cannot make 1d candles for 'GOOGX' from its given 1w series"]),
    (lambda s: btcore.evaluate(s.goog, "close@GOOGX", other={"GOOGX@1h": s.googx}), ["the key says 1h, the bars are 1d"]),
    (lambda s: btcore.evaluate(s.goog, "close@X", other={"X": pd.DataFrame({"close": [1.0, 2.0]})}),
     ["not a DatetimeIndex"]),
    (lambda s: btcore.evaluate(s.goog, "close@GOOGX", other={"GO OG": s.googx}), ["GO OG"]),
    (lambda s: btcore.evaluate(s.goog, "close@GOOGX", other={"GOOGX": s.googx, "googx@1d": s.googx}),
     ["GOOGX@1d was given already"]),
    (lambda s: btcore.evaluate(s.goog, "close@GOOGX", other=[s.googx]), ["other: expected a dict"]),
    (lambda s: btcore.evaluate(s.goog, "close@GOOGX", other={"GOOGX": s.googx}, max_stale="3x"),
     ["max_stale '3x': a duration is a whole number and a unit"]),
    (lambda s: btcore.signals(s.goog, entry="close > close@GOOGX", exit="close < 1", db="/nonexistent/bt.sqlite"), ["/nonexistent"]),
    (lambda s: btcore.backtest(s.goog, s.goog.close > 0, s.goog.close < 0, other={"GOOGX": s.googx}), ["entries/exits are signals"]),
    (lambda s: btcore.backtest(btcore.Bars(s.goog), strategy="ma-cross", symbol="X"), ["symbol: a Bars keeps"]),
])
def test_bad_keys_and_series_raise_with_the_reason(call, words, goog, googx):
    class Scope:
        pass
    s = Scope()
    s.goog, s.googx = goog, googx
    with pytest.raises(btcore.InputError) as caught:
        call(s)
    for w in words:
        assert w in str(caught.value), str(caught.value)


@pytest.mark.parametrize("where", ["frames", "store"])
def test_an_expression_compiled_once_reads_other_series_on_many_frames(where, goog, googx, store_x):
    """One bt_other serves every evaluation (the store's series read once): each frame gets
    the values of its own bars."""
    e = btcore.compile("close@GOOGX", **({"other": {"GOOGX": googx}} if where == "frames" else {"db": store_x}))
    whole, tail = e.values(goog), e.values(goog.iloc[1000:])
    np.testing.assert_array_equal(whole.to_numpy()[1000:], tail.to_numpy())
    np.testing.assert_allclose(whole.to_numpy(), golden("goog", "close_x"), equal_nan=True)


def test_evaluate_reads_the_store_the_frame_came_from(store_x):
    goog = btcore.read("GOOG", db=store_x)
    np.testing.assert_allclose(btcore.evaluate(goog, "close@GOOGX").to_numpy(), golden("goog", "close_x"), equal_nan=True)
