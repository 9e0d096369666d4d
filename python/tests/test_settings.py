"""btcore's execution keywords come from the library (bt_execution_settings): the same settings,
names, defaults and help as `bt run`'s options and bt_config's fields, so a setting added to the
library's table reaches btcore with its field and nothing written here."""
import ctypes
import inspect
import os

import numpy as np
import pandas as pd
import pytest

import btcore
from btcore import _lib

from conftest import run_bt


@pytest.fixture(scope="module")
def sig(goog):
    return btcore.signals(goog, strategy="ma-cross")


def test_every_setting_is_a_keyword_a_field_and_a_bt_run_option():
    settings = btcore.SETTINGS
    signature = inspect.signature(btcore.backtest).parameters
    fields = {f["name"] for f in _lib.FIELDS}
    help_text = run_bt("help", "run")
    for name, field in settings.items():
        assert name in signature and signature[name].kind == inspect.Parameter.KEYWORD_ONLY, name
        assert field["name"] in fields, name
        assert "--" + name.replace("_", "-") + " " in help_text, name
    assert {f["name"] for f in _lib.FIELDS if "setting" not in f} == {"struct_size", "db", "start", "end"}
    # An instrument setting is None: the symbol's stored one in db (bt data instrument), else bt's default.
    assert signature["cash"].default == 10_000 and signature["fee_bps"].default is None and signature["leverage"].default is None
    assert signature["sl"].default is None and signature["short"].default is None
    assert settings["short"]["name"] == "allow_short"
    frame = btcore.execution_settings()
    assert list(frame["name"]) == list(settings) and "Fee in basis points" in frame.set_index("name").loc["fee_bps", "help"]
    assert "(with short= and entry_limit=)" in settings["short_entry_limit"]["help"]


def test_an_unknown_keyword_is_an_input_error_with_the_closest_setting(goog, sig):
    with pytest.raises(btcore.InputError, match=r"^fee_bp: backtest\(\) has no keyword argument 'fee_bp'; did you mean 'fee_bps'\?"):
        btcore.backtest(goog, sig.entry, sig.exit, fee_bp=5)


def test_a_setting_added_to_the_library_reaches_the_struct_the_keywords_and_the_help():
    # The library's description with one more field, as a new entry in its table would give it.
    dummy = {"name": "dummy_knob", "type": "double", "setting": "dummy_knob", "kind": "number", "default": "1.5",
             "help": "A knob no run has yet (default 1.5)"}
    fields = _lib.FIELDS + [dummy]  # bt_config grows only at its end (bt.h)
    settings = {f["setting"]: f for f in fields if "setting" in f}
    config = _lib.config_class(fields)
    assert [name for name, _ in config._fields_] == [f["name"] for f in _lib.FIELDS] + ["dummy_knob"]
    c, keep = btcore._config({"dummy_knob": 2.5, "fee_bps": 5.0}, None, settings=settings, config=config)
    assert c.dummy_knob == 2.5 and c.fee_bps == 5.0
    signature = btcore._signature(settings).parameters
    assert signature["dummy_knob"].default == 1.5 and signature["dummy_knob"].kind == inspect.Parameter.KEYWORD_ONLY


def test_none_leaves_a_setting_to_its_default_and_nan_is_refused(goog, sig):
    a = btcore.backtest(goog, sig.entry, sig.exit, depth="none").stats
    b = btcore.backtest(goog, sig.entry, sig.exit, depth="none", cash=None, fee_bps=None, max_participation=None).stats
    assert a["final_equity"] == b["final_equity"]
    with pytest.raises(btcore.InputError, match="cash nan: not a number"):
        btcore.backtest(goog, sig.entry, sig.exit, cash=float("nan"))


def test_a_window_longer_than_the_series_is_a_warning_of_the_run(goog, sig):
    run = btcore.backtest(goog.iloc[:300], sig.entry.iloc[:300], sig.exit.iloc[:300], spread_window=1000)
    warnings = run.json()["warnings"]
    assert any(w["kind"] == "long_window" and w["message"].startswith("spread_window 1000 is longer than the series")
               for w in warnings), warnings


def test_fee_settings_work_and_bad_values_are_refused_by_their_keyword(goog):
    # Limit entries and a take-profit, so maker fills happen: a maker rebate, a fee per unit and
    # a cap change the fees paid; each equals bt run with the same options.
    sig = btcore.signals(goog, strategy="ma-cross")
    orders = dict(depth="none", entry_limit="close * 0.99", order_bars="3", tp="6%")
    plain = btcore.backtest(goog, sig.entry, sig.exit, **orders)
    fees = dict(maker_bps=-2.0, fee_per_unit=0.01, fee_max="0.5%", fee_min=1.0)
    run = btcore.backtest(goog, sig.entry, sig.exit, **orders, **fees)
    assert run.stats["fees_paid"] != plain.stats["fees_paid"]
    assert (run.fills["fee"] < 0).any(), "a maker rebate should be paid on some fill"
    notional = run.fills["quantity_filled"] * run.fills["vwap"]
    assert (run.fills["fee"] <= 0.005 * notional + 1e-9).all(), "no fill pays more than the cap"
    for keyword, value, reason in [
        ("fee_per_unit", -1.0, r"fee_per_unit '-1': fee per unit must be in \[0, 1e15\]"),
        ("maker_bps", -150.0, r"maker_bps '-150': maker fee must be in \[-100, 10000\) basis points"),
        ("fee_max", "150%", r"fee_max: fee cap must be above 0% and at most 100% of the notional"),
        ("fee_max", "2", r"fee_max '2': a bare number is a fraction of the notional"),
    ]:
        with pytest.raises(btcore.InputError, match=reason):
            btcore.backtest(goog, sig.entry, sig.exit, **{keyword: value})


def test_borrow_bps_charges_a_short_and_bad_values_are_refused_by_their_keyword(goog):
    # Shorts at the down-crossings pay the annual rate at each close they are held: less equity
    # than without it, the borrow paid in the statistics and each trade; longs alone pay nothing.
    sig = btcore.signals(goog, strategy="ma-cross")
    plain = btcore.backtest(goog, sig.entry, sig.exit, short=True, depth="none")
    run = btcore.backtest(goog, sig.entry, sig.exit, short=True, depth="none", borrow_bps=2000.0)
    assert plain.stats["borrow_paid"] == 0
    assert run.stats["borrow_paid"] > 0
    assert run.stats["final_equity"] < plain.stats["final_equity"]
    longs = btcore.backtest(goog, sig.entry, sig.exit, depth="none", borrow_bps=2000.0)
    assert longs.stats["borrow_paid"] == 0
    assert longs.stats["final_equity"] == btcore.backtest(goog, sig.entry, sig.exit, depth="none").stats["final_equity"]
    for value, reason in [
        (-1.0, r"borrow_bps '-1': borrow fee must be in \[0, 100000\] basis points a year"),
        (100_001.0, r"borrow_bps '100001': borrow fee must be in \[0, 100000\] basis points a year"),
    ]:
        with pytest.raises(btcore.InputError, match=reason):
            btcore.backtest(goog, sig.entry, sig.exit, short=True, borrow_bps=value)


def test_a_margin_account_through_its_keywords(goog):
    # Leverage 3 on spot: 300% sizing, cash below 0 paying interest, the account's statistics;
    # bad values are refused naming the keyword; a perpetual without stored funding says so.
    sig = btcore.signals(goog, strategy="ma-cross")
    plain = btcore.backtest(goog, sig.entry, sig.exit, depth="none")
    run = btcore.backtest(goog, sig.entry, sig.exit, depth="none", leverage=3.0, size="300%", margin_rate="8%")
    assert plain.stats["max_leverage"] <= 1.01 and plain.stats["interest_paid"] == 0
    assert run.stats["max_leverage"] > 2.5 and run.stats["interest_paid"] > 0
    assert run.stats["min_margin_ratio"] > 0
    for kwargs, reason in [
        (dict(leverage=200.0), r"leverage '200': leverage must be from 1 to 125"),
        (dict(size="300%"), r"size '300%': is more than the leverage allows: at most 100% of equity at leverage 1"),
        (dict(leverage=10.0, mmr="10%"), r"mmr: the maintenance margin rate 10% must be below 1 / leverage = 10%"),
        (dict(instrument="swap"), r"instrument 'swap': not one of spot, perp, future, inverse-perp"),
    ]:
        with pytest.raises(btcore.InputError, match=reason):
            btcore.backtest(goog, sig.entry, sig.exit, **kwargs)
    perp = btcore.backtest(goog, sig.entry, sig.exit, depth="none", instrument="perp", leverage=5.0, size="300%")
    assert any(w["kind"] == "no_funding" for w in perp.warnings)
    assert perp.stats["funding_paid"] == 0


def test_an_inverse_perpetual_is_kept_in_the_coin(goog):
    # instrument="inverse-perp": cash, equity and PnL in the coin (stats' currency), the trades
    # adding up to the equity; a per-unit fee is refused naming the keyword.
    sig = btcore.signals(goog, strategy="ma-cross")
    run = btcore.backtest(goog, sig.entry, sig.exit, depth="none", instrument="inverse-perp", multiplier=100.0,
                          cash=2.0, leverage=3.0, size="300%")
    assert run.stats["currency"] == "coin" and run.stats["initial_cash"] == 2
    assert abs(run.trades["pnl"].sum() - (run.stats["final_equity"] - 2)) <= 1e-9 * max(1.0, run.stats["final_equity"])
    assert run.json()["execution"]["instrument"] == "inverse-perp"
    with pytest.raises(btcore.InputError, match=r"fee_per_unit '0.1': an inverse-perp's fees are in the coin"):
        btcore.backtest(goog, sig.entry, sig.exit, instrument="inverse-perp", fee_per_unit=0.1)


def test_stored_instrument_settings_are_the_defaults_a_keyword_overrides(tmp_path):
    db = str(tmp_path / "bt.sqlite")
    run_bt("data", "import", "data/GOOG.csv", "--db", db)
    run_bt("data", "instrument", "GOOG", "--kind", "future", "--fee-bps", "2", "--db", db)
    goog = btcore.read("GOOG", db=db)
    stored = btcore.backtest(goog, strategy="ma-cross", db=db).json()["execution"]
    assert stored["instrument"] == "future" and stored["fee_bps"] == 2
    given = btcore.backtest(goog, strategy="ma-cross", db=db, fee_bps=5, instrument="spot").json()["execution"]
    assert given["fee_bps"] == 5 and "instrument" not in given
    # The frame keeps its store (attrs["db"]); without one, bt's defaults.
    assert btcore.backtest(goog, strategy="ma-cross").json()["execution"]["fee_bps"] == 2
    alone = goog.copy()
    alone.attrs.pop("db")
    assert btcore.backtest(alone, strategy="ma-cross").json()["execution"]["fee_bps"] == 10


def test_a_store_kept_open_between_backtests_sees_each_change_and_a_replaced_file(tmp_path):
    """libbt opens a config's store once per process (a notebook's loop would pay the opening
    every call); what a backtest reads from it is still the store as it is at that call."""
    db = str(tmp_path / "bt.sqlite")
    run_bt("data", "import", "data/GOOG.csv", "--db", db)
    goog = btcore.read("GOOG", db=db)
    fee = lambda: btcore.backtest(goog, strategy="ma-cross", db=db).json()["execution"].get("fee_bps")  # noqa: E731
    assert fee() == 10
    run_bt("data", "instrument", "GOOG", "--fee-bps", "2", "--db", db)
    assert fee() == 2  # written by another process since the store was opened
    run_bt("data", "instrument", "GOOG", "--fee-bps", "3", "--db", db)
    assert fee() == 3
    # The file replaced by another store at the same path: its settings, not the first file's.
    os.remove(db)
    for leftover in (db + "-wal", db + "-shm"):
        if os.path.exists(leftover):
            os.remove(leftover)
    run_bt("data", "import", "data/GOOG.csv", "--db", db)
    run_bt("data", "instrument", "GOOG", "--fee-bps", "7", "--db", db)
    assert fee() == 7
    os.remove(db)
    with pytest.raises(btcore.InputError, match="no candle store here"):
        btcore.backtest(goog, strategy="ma-cross", db=db)


def test_conventions_and_trail_from_equal_bt_run_and_explicit_settings_win(store, goog, tmp_path):
    """conventions= and trail_from= reach the library as bt run's options do: the same trades
    as trades.csv, the preset named in the execution, and a keyword given over the preset wins."""
    flags = ["--conventions", "backtesting.py", "--trail", "3 * atr(20)", "--trail-from", "close"]
    out = tmp_path / "report"
    run_bt("run", "ma-cross", "GOOG", *flags, "--out", str(out), "--no-chart", "--db", store)
    got = btcore.backtest(goog, strategy="ma-cross", conventions="backtesting.py", trail="3 * atr(20)", trail_from="close")
    trades = pd.read_csv(out / "trades.csv")
    assert len(trades) == len(got.trades) > 0 and (trades["quantity"] == trades["quantity"].round()).all()
    for column in ("entry_index", "exit_index", "quantity", "entry_price", "exit_price", "pnl"):
        np.testing.assert_allclose(got.trades[column], trades[column], rtol=1e-12, err_msg=column)
    assert (trades["exit_kind"] == "trail").any()
    cash = btcore.backtest(goog, strategy="ma-cross", conventions="vectorbt", cash=5000)
    assert cash.stats["final_equity"] != btcore.backtest(goog, strategy="ma-cross", conventions="vectorbt").stats["final_equity"]
    with pytest.raises(btcore.InputError, match="^conventions 'zipline'"):
        btcore.backtest(goog, strategy="ma-cross", conventions="zipline")
    with pytest.raises(btcore.InputError, match="^trail_from 'open'"):
        btcore.backtest(goog, strategy="ma-cross", trail="5%", trail_from="open")
