"""btcore.backtest equals `bt run --json` on the shipped data: the five built-ins, expression
strategies (one reading position series), signals given as arrays, and execution options set
as keywords against the same options on bt's command line; its trades, fills and equity equal
the report's CSV files."""
import math

import numpy as np
import pandas as pd
import pytest

import btcore
from conftest import bt_json, run_bt

BUILT_INS = ["ma-cross", "rsi", "macd", "bollinger", "donchian"]


@pytest.mark.parametrize("strategy", BUILT_INS)
def test_built_in_equals_bt_run_json(strategy, store, goog):
    expected = bt_json("run", strategy, "GOOG", "--json", "--db", store)
    assert btcore.backtest(goog, strategy=strategy).json(costs=True) == expected


def test_built_in_with_parameters_on_hourly_bars(store, eurusd):
    expected = bt_json("run", "ma-cross", "EURUSD", "--param", "fast=5", "--param", "slow=40", "--json", "--no-costs", "--db", store)
    assert btcore.backtest(eurusd, strategy="ma-cross", params={"fast": 5, "slow": 40}).json() == expected


ENTRY = "cross_above(sma(close, $fast), sma(close, 50)) and rsi(close) < 70"
EXIT = "cross_below(sma(close, $fast), sma(close, 50))"


def test_expression_strategy_equals_bt_run_json(store, goog):
    expected = bt_json("run", "GOOG", "--entry", ENTRY, "--exit", EXIT, "--param", "fast=20", "--json", "--db", store)
    got = btcore.backtest(goog, entry=ENTRY, exit=EXIT, params={"fast": 20}).json(costs=True)
    assert got == expected
    assert got["rules"] == [{"role": "entry", "text": ENTRY}, {"role": "exit", "text": EXIT}]


def test_rules_reading_the_position_equal_bt_run_json(store, goog):
    exit_rule = "trade_return > 0.08 or bars_in_trade > 30"
    expected = bt_json("run", "GOOG", "--entry", "cross_above(close, sma(close, 20))", "--exit", exit_rule, "--json",
                       "--no-costs", "--db", store)
    got = btcore.backtest(goog, entry="cross_above(close, sma(close, 20))", exit=exit_rule)
    assert got.json() == expected
    assert expected["stats"]["trades"] > 5


def test_short_only_rules_equal_bt_run_json(store, goog):
    short = ["--short-entry", "close < sma(close, 20)", "--short-exit", "close > sma(close, 10)"]
    expected = bt_json("run", "GOOG", *short, "--short", "--json", "--no-costs", "--db", store)
    got = btcore.backtest(goog, short_entry="close < sma(close, 20)", short_exit="close > sma(close, 10)", short=True)
    assert got.json() == expected
    assert expected["stats"]["trades"] > 5
    with pytest.raises(btcore.InputError, match="short rules come in pairs"):
        btcore.backtest(goog, short_entry="close < 1", short=True)


def test_cut_orders_and_unprotected_entries_are_in_the_json_warnings(goog):
    cut = btcore.backtest(goog, entry="close > open", exit="close < open", size="500u", depth="none", max_participation=0)
    w = next(w for w in cut.json()["warnings"] if w["kind"] == "cut_orders")
    assert w["cut_orders"] == w["cash_cut_orders"] > 0 and 0 < w["avg_cut_fill_share"] < 1
    kinds = [w["kind"] for w in btcore.backtest(goog, entry="close > open", exit="close < open", sl="0.5 * atr(300)").json()["warnings"]]
    assert "unprotected_entries" in kinds
    allowed = btcore.backtest(goog, entry="close > open", exit="close < open", sl="0.5 * atr(300)", allow_unprotected=True)
    assert "unprotected_entries" not in [w["kind"] for w in allowed.json()["warnings"]]


def test_signal_arrays_equal_the_strategy_run(store, goog):
    sig = btcore.signals(goog, strategy="macd")
    by_arrays = btcore.backtest(goog, sig.entry, sig.exit).json()
    by_strategy = bt_json("run", "macd", "GOOG", "--json", "--no-costs", "--db", store)
    for key in ("stats", "cost_split", "warnings", "execution", "bars", "candles_sha256"):
        assert by_arrays[key] == by_strategy[key], key
    assert by_arrays["strategy"] == "signals"


def test_signals_equal_bt_signals_csv(store, goog):
    text = run_bt("signals", "rsi", "GOOG", "--db", store)
    csv = pd.read_csv(pd.io.common.StringIO(text))
    sig = btcore.signals(goog, strategy="rsi")
    assert list(sig.columns) == ["entry", "exit"]
    np.testing.assert_array_equal(sig.entry.to_numpy(), csv.entry.to_numpy().astype(bool))
    np.testing.assert_array_equal(sig.exit.to_numpy(), csv.exit.to_numpy().astype(bool))


# Execution options as keywords, each against the same options on bt's command line.
OPTIONS = [
    ({"cash": 25_000, "fee_bps": 5, "fee_min": 1}, ["--cash", "25000", "--fee-bps", "5", "--fee-min", "1"]),
    ({"fill": "close", "size": "50%"}, ["--fill", "close", "--size", "50%"]),
    ({"depth": "none", "max_participation": 0}, ["--depth", "none", "--max-participation", "0"]),
    ({"slippage_bps": 3}, ["--slippage-bps", "3"]),
    ({"sl": "5%", "tp": ["8%@50%", "15%"], "breakeven": "3%"}, ["--sl", "5%", "--tp", "8%@50%", "--tp", "15%", "--breakeven", "3%"]),
    ({"sl": "2 * atr(14)", "trail": 0.07, "exit_after": 20}, ["--sl", "2 * atr(14)", "--trail", "0.07", "--exit-after", "20"]),
    ({"entry_limit": "close * 0.99", "order_bars": 3, "pyramid": 2}, ["--entry-limit", "close * 0.99", "--order-bars", "3", "--pyramid", "2"]),
    ({"size": "risk:1%", "sl": "4%"}, ["--size", "risk:1%", "--sl", "4%"]),
    ({"size": "vol:15%"}, ["--size", "vol:15%"]),
    ({"short": True, "depth": "none"}, ["--short", "--depth", "none"]),
    ({"tick": 0.05, "lot": 5, "min_notional": 500}, ["--tick", "0.05", "--lot", "5", "--min-notional", "500"]),
    ({"spread_bps": 4, "impact": 0.5, "touch_seconds": 30, "spread_window": 100, "impact_window": 10, "refill_seconds": 90},
     ["--spread-bps", "4", "--impact", "0.5", "--touch-seconds", "30", "--spread-window", "100", "--impact-window", "10",
      "--refill-seconds", "90"]),
    ({"bid_depth": "50000,0.6", "ask_depth": "40000,0.5"}, ["--bid-depth", "50000,0.6", "--ask-depth", "40000,0.5"]),
    ({"periods_per_year": 250}, ["--periods-per-year", "250"]),
]


@pytest.mark.parametrize("keywords,flags", OPTIONS, ids=[",".join(k) for k, _ in OPTIONS])
def test_execution_keywords_equal_bt_run_options(keywords, flags, store, goog):
    expected = bt_json("run", "ma-cross", "GOOG", *flags, "--json", "--no-costs", "--db", store)
    assert btcore.backtest(goog, strategy="ma-cross", **keywords).json() == expected


def test_trades_fills_and_equity_equal_the_report_files(store, goog, tmp_path):
    out = tmp_path / "report"
    run_bt("run", "rsi", "GOOG", "--sl", "5%", "--out", str(out), "--no-chart", "--db", store)
    run = btcore.backtest(goog, strategy="rsi", sl="5%")
    trades = pd.read_csv(out / "trades.csv")
    got = run.trades
    # trades.csv writes the account's charges only when the run charged them; btcore always.
    assert list(trades.columns) + ["borrow", "interest", "funding"] == list(got.columns)
    assert (got[["borrow", "interest", "funding"]] == 0).all().all()
    assert len(trades) == len(got) > 0
    for column in trades.columns:
        if column.endswith("_time"):
            assert list(pd.to_datetime(trades[column], utc=True)) == list(got[column]), column
        elif trades[column].dtype.kind == "f":
            np.testing.assert_allclose(got[column], trades[column], rtol=1e-12, err_msg=column)
        else:
            assert list(got[column]) == list(trades[column]), column
    fills = pd.read_csv(out / "fills.csv")
    for column in fills.columns:
        if column == "time":
            assert list(pd.to_datetime(fills[column], utc=True)) == list(run.fills[column])
        elif fills[column].dtype.kind == "f":
            np.testing.assert_allclose(run.fills[column], fills[column], rtol=1e-12, err_msg=column)
        else:
            assert list(run.fills[column]) == list(fills[column]), column
    equity = pd.read_csv(out / "equity.csv")
    np.testing.assert_allclose(run.equity.to_numpy(), equity.equity.to_numpy(), rtol=1e-12)
    np.testing.assert_allclose(run.ledger.cash.to_numpy(), equity.cash.to_numpy(), rtol=1e-12)
    assert run.equity.index.equals(goog.index)


def test_stat_by_name_and_the_names(goog):
    run = btcore.backtest(goog, strategy="ma-cross", depth="none")
    names = btcore.stat_names()
    assert names[:3] == ["start", "end", "bars"] and "sharpe" in names
    # Each statistic read alone first (computed with its group), then the whole table.
    values = {name: run.stat(name) for name in names}
    table = run.stats(intervals=True)
    for name in names:
        value = values[name]
        expected = table[name]
        if name in ("start", "end"):
            assert pd.Timestamp(value, unit="s", tz="UTC") == pd.Timestamp(expected)
        elif expected is None:
            assert math.isnan(value)
        else:
            assert value == expected, name


# Bars: the bars copied and checked once, then backtested many times.
@pytest.mark.parametrize("strategy", BUILT_INS)
def test_bars_backtest_equals_the_dataframe_backtest(strategy, goog):
    bars = btcore.Bars(goog)
    assert len(bars) == len(goog) and bars.symbol == "GOOG" and bars.timeframe == goog.attrs["timeframe"]
    assert bars.index.equals(goog.index)
    for keywords in ({}, {"depth": "none", "sl": "5%"}, {"fill": "close", "size": "50%", "depth": "synthetic"}):
        assert btcore.backtest(bars, strategy=strategy, **keywords).json(costs=True) == \
            btcore.backtest(goog, strategy=strategy, **keywords).json(costs=True), keywords


def test_bars_backtest_of_signals_and_rules_equals_bt_run(store, goog):
    bars = btcore.Bars(goog)
    sig = btcore.signals(goog, strategy="macd")
    assert btcore.backtest(bars, sig.entry, sig.exit).json() == btcore.backtest(goog, sig.entry, sig.exit).json()
    expected = bt_json("run", "GOOG", "--entry", ENTRY, "--exit", EXIT, "--param", "fast=20", "--json", "--no-costs",
                       "--db", store)
    run = btcore.backtest(bars, entry=ENTRY, exit=EXIT, params={"fast": 20})
    assert run.json() == expected
    assert run.equity.index.equals(goog.index)


def test_bars_are_a_snapshot(goog):
    df = goog.copy()
    bars = btcore.Bars(df)
    before = btcore.backtest(bars, strategy="ma-cross").json()
    df["close"] = df["close"] * 1.1
    df["high"] = df[["high", "close"]].max(axis=1)
    assert btcore.backtest(bars, strategy="ma-cross").json() == before
    assert btcore.backtest(df, strategy="ma-cross").json() != before


@pytest.mark.parametrize("keywords,flags", [
    ({"short": True, "borrow_bps": 300}, ["--short", "--borrow-bps", "300"]),
    ({"leverage": 3, "size": "300%", "margin_rate": "8%", "short": True, "borrow_bps": 200},
     ["--leverage", "3", "--size", "300%", "--margin-rate", "8%", "--short", "--borrow-bps", "200"]),
], ids=["borrow", "margin"])
def test_trade_charges_equal_trades_csv_and_add_up_to_the_statistics(keywords, flags, store, goog, tmp_path):
    out = tmp_path / "report"
    run_bt("run", "ma-cross", "GOOG", *flags, "--out", str(out), "--no-chart", "--db", store)
    got = btcore.backtest(goog, strategy="ma-cross", **keywords).trades
    trades = pd.read_csv(out / "trades.csv")
    charged = [c for c in ("borrow", "interest", "funding") if c in trades.columns]
    assert charged and len(trades) == len(got) > 0
    for column in charged:
        np.testing.assert_allclose(got[column], trades[column], rtol=1e-12, atol=1e-12, err_msg=column)
    stats = btcore.backtest(goog, strategy="ma-cross", **keywords).stats
    assert got["borrow"].sum() == pytest.approx(stats["borrow_paid"], rel=1e-9, abs=1e-9)
    if "interest" in charged:
        assert got["interest"].sum() > 0
        assert got["interest"].sum() == pytest.approx(stats["interest_paid"], rel=1e-9, abs=1e-9)


def test_statistics_on_demand(goog):
    """.stats is the table without the bootstrap; .stats(intervals=True) and .intervals() add
    the Sharpe interval and PSR; the table with them is `bt run --json`'s."""
    run = btcore.backtest(goog, strategy="ma-cross", depth="none")
    plain = run.stats
    assert all(plain[name] is None for name in ("sharpe_ci_low", "sharpe_ci_high", "psr"))
    full = run.stats(intervals=True)
    assert full == run.json()["stats"]
    assert full["sharpe_ci_low"] < full["sharpe"] < full["sharpe_ci_high"] and 0 < full["psr"] < 1
    assert {k: v for k, v in full.items() if k not in ("sharpe_ci_low", "sharpe_ci_high", "psr")} == \
        {k: v for k, v in plain.items() if k not in ("sharpe_ci_low", "sharpe_ci_high", "psr")}
    assert run.intervals() == {name: full[name] for name in ("sharpe_ci_low", "sharpe_ci_high", "psr")}
    # Read after the intervals were computed, the table stays without them.
    assert run.stats["psr"] is None and run.stats == plain
    # A fresh run read with intervals first: the same table.
    again = btcore.backtest(goog, strategy="ma-cross", depth="none")
    assert again.intervals() == run.intervals() and again.stats == plain


@pytest.mark.parametrize("keywords,flags", [
    ({"monte_carlo": 300}, ["--monte-carlo", "300"]),
    ({"monte_carlo": 200, "seed": 7, "ruin": "30%"}, ["--monte-carlo", "200", "--seed", "7", "--ruin", "30%"]),
], ids=["defaults", "seed-and-ruin"])
def test_monte_carlo_equals_bt_run_monte_carlo(keywords, flags, store, goog, tmp_path):
    """backtest(monte_carlo=N, seed=S, ruin=PCT) is `bt run --monte-carlo N --seed S --ruin PCT`:
    the same JSON ("monte_carlo" included) and the same report.md."""
    expected = bt_json("run", "ma-cross", "GOOG", *flags, "--json", "--no-costs", "--db", store)
    run = btcore.backtest(goog, strategy="ma-cross", **keywords)
    assert "monte_carlo" in expected and run.json() == expected
    assert run.monte_carlo == expected["monte_carlo"]
    run_bt("run", "ma-cross", "GOOG", *flags, "--no-costs", "--out", str(tmp_path / "cli"), "--db", store)
    run.report(tmp_path / "py", costs=False)
    assert "Monte Carlo" in (tmp_path / "cli" / "report.md").read_text()
    cli, py = ((tmp_path / side / "report.md").read_text().splitlines() for side in ("cli", "py"))
    assert [line for line in py if "command" not in line] == [line for line in cli if "command" not in line]
    assert btcore.backtest(goog, strategy="ma-cross").monte_carlo is None


def test_bad_monte_carlo_values_name_the_argument(goog):
    cases = [
        ({"monte_carlo": 0}, r"^monte_carlo '0': must be 1 to "),
        ({"monte_carlo": 2.5}, r"^monte_carlo 2\.5: not a whole number$"),
        ({"monte_carlo": 10, "ruin": "0%"}, r"^ruin '0%': give a drawdown above 0% and at most 100%$"),
        ({"monte_carlo": 10, "ruin": 0.3}, r"^ruin 0\.3: give the drawdown in percent"),
        ({"monte_carlo": 10, "seed": -1}, r"^seed '-1'"),
        ({"seed": 7}, r"^seed '7': is for monte_carlo"),
        ({"ruin": "30%"}, r"^ruin '30%': is for monte_carlo"),
        ({"monte_carlo": 10, "ruins": "30%"}, r"did you mean 'ruin'\?"),
    ]
    for keywords, match in cases:
        with pytest.raises(btcore.InputError, match=match):
            btcore.backtest(goog, strategy="ma-cross", **keywords)


@pytest.mark.parametrize("keywords", [{}, {"short": True, "borrow_bps": 300, "depth": "none"},
                                      {"leverage": 3, "size": "300%", "short": True, "fee_bps": 5},
                                      {"tick": 50.0}],
                         ids=["plain", "borrow", "margin", "rejections"])
def test_the_statistics_table_is_the_json_s(keywords, goog):
    """.stats, .warnings and .stats(intervals=True), made without the rest of the run's JSON, are
    exactly its "stats" and "warnings" (the counters, a margin account's currency and charges
    included); one statistic read alone equals the table's."""
    run = btcore.backtest(goog, strategy="ma-cross", **keywords)
    fresh = btcore.backtest(goog, strategy="ma-cross", **keywords)
    assert run.stats == fresh.json(intervals=False)["stats"] and run.warnings == fresh.json()["warnings"]
    assert run.stats(intervals=True) == fresh.json()["stats"]
    alone = btcore.backtest(goog, strategy="ma-cross", **keywords)
    for name in ("final_equity", "total_return", "alpha", "max_drawdown_duration", "avg_position_share", "periods_per_year"):
        value, expected = alone.stat(name), run.stats[name]
        assert (math.isnan(value) and expected is None) or value == expected, name
    assert repr(run).startswith("<btcore.Result ma-cross on GOOG: 2148 bars")
