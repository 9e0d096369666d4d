"""Strings crossing into bt's C library. bt.h takes NUL-terminated UTF-8,
so a NUL in a Python string would end it early and bt would silently read only the text before
it (`compile('close > 1\\x00 and close < 0')` fired on every bar; `sl='5%\\x00...'` acted as 5%;
`read('GOOG\\x00...')` returned GOOG). Every string argument of btcore refuses a NUL with an
InputError (a ValueError) naming the argument; text that is not UTF-8 is refused the same way,
by btcore for Python strings and bytes, and by the library for C callers."""
import ctypes
import shutil
from pathlib import Path

import numpy as np
import pytest

import btcore
from btcore import _lib
from btcore._lib import lib
from conftest import REPO

NUL = "\x00 and close < 0"  # what follows the NUL: valid text, so a cut string runs


@pytest.fixture(scope="module")
def sig(goog):
    return btcore.signals(goog, strategy="ma-cross")


@pytest.fixture(scope="module")
def strategies(tmp_path_factory):
    folder = tmp_path_factory.mktemp("strategies")
    shutil.copyfile(REPO / "strategies" / "ma-cross.bt", folder / "mine.bt")
    return str(folder)


def named(goog, **attrs):
    df = goog.copy()
    df.attrs.update(attrs)
    return df


def run(goog, sig, **keywords):
    return btcore.backtest(goog, sig.entry, sig.exit, depth="none", **keywords)


#: (the argument the error must name, a call giving it a NUL after text that would work alone).
CASES = [
    ("symbol", lambda s: btcore.read("GOOG" + NUL, db=s.store)),
    ("timeframe", lambda s: btcore.read("GOOG", db=s.store, timeframe="1d" + NUL)),
    ("db", lambda s: btcore.read("GOOG", db=s.store + NUL)),
    ("db", lambda s: btcore.series(db=s.store + NUL)),
    ("text", lambda s: btcore.compile("close > 1" + NUL)),
    ("text", lambda s: btcore.Expression("close > 1" + NUL)),
    ("text", lambda s: btcore.evaluate(s.goog, "close > 1" + NUL)),
    ("params['n']", lambda s: btcore.compile("close > $n", params={"n": "5" + NUL})),
    ("params['n\\x00x']", lambda s: btcore.compile("close > 1", params={"n\x00x": 5})),
    ("entry", lambda s: btcore.signals(s.goog, entry="close > 1" + NUL, exit="close < 1")),
    ("exit", lambda s: btcore.signals(s.goog, entry="close > 1", exit="close < 1" + NUL)),
    ("short_entry", lambda s: btcore.signals(s.goog, entry="close > 1", exit="close < 1",
                                             short_entry="close < 1" + NUL, short_exit="close > 1")),
    ("short_exit", lambda s: btcore.signals(s.goog, entry="close > 1", exit="close < 1",
                                            short_entry="close < 1", short_exit="close > 1" + NUL)),
    ("strategy", lambda s: btcore.signals(s.goog, strategy="ma-cross" + NUL)),
    ("strategy", lambda s: btcore.backtest(s.goog, strategy="ma-cross" + NUL)),
    ("strategies", lambda s: btcore.signals(s.goog, strategy="mine", strategies=s.strategies + NUL)),
    ("params['fast']", lambda s: btcore.signals(s.goog, strategy="ma-cross", params={"fast": "5" + NUL})),
    ("params['fast']", lambda s: btcore.backtest(s.goog, strategy="ma-cross", params={"fast": "5" + NUL})),
    ("fill", lambda s: run(s.goog, s.sig, fill="close" + NUL)),
    ("size", lambda s: run(s.goog, s.sig, size="50%" + NUL)),
    ("fee_max", lambda s: run(s.goog, s.sig, fee_max="1%" + NUL)),
    ("margin", lambda s: run(s.goog, s.sig, margin="cross" + NUL)),
    ("instrument", lambda s: run(s.goog, s.sig, instrument="perp" + NUL)),
    ("mmr", lambda s: run(s.goog, s.sig, mmr="1%" + NUL)),
    ("margin_rate", lambda s: run(s.goog, s.sig, margin_rate="5%" + NUL)),
    ("sl", lambda s: run(s.goog, s.sig, sl="5%" + NUL)),
    ("tp", lambda s: run(s.goog, s.sig, tp="5%" + NUL)),
    ("tp[1]", lambda s: run(s.goog, s.sig, tp=["3%@50%", "6%" + NUL])),
    ("trail", lambda s: run(s.goog, s.sig, trail="8%" + NUL)),
    ("trail_from", lambda s: run(s.goog, s.sig, trail="8%", trail_from="close" + NUL)),
    ("conventions", lambda s: run(s.goog, s.sig, conventions="vectorbt" + NUL)),
    ("breakeven", lambda s: run(s.goog, s.sig, breakeven="2%" + NUL)),
    ("exit_after", lambda s: run(s.goog, s.sig, exit_after="10" + NUL)),
    ("entry_limit", lambda s: run(s.goog, s.sig, entry_limit="close * 0.99" + NUL)),
    ("entry_stop", lambda s: run(s.goog, s.sig, entry_stop="close * 1.01" + NUL)),
    ("short_entry_limit", lambda s: run(s.goog, s.sig, short=True, entry_limit="close * 0.99",
                                        short_entry_limit="close * 1.01" + NUL)),
    ("short_entry_stop", lambda s: run(s.goog, s.sig, short=True, entry_stop="close * 1.01",
                                       short_entry_stop="close * 0.99" + NUL)),
    ("order_bars", lambda s: run(s.goog, s.sig, entry_limit="close * 0.99", order_bars="3" + NUL)),
    ("pyramid", lambda s: run(s.goog, s.sig, pyramid="2" + NUL)),
    ("depth", lambda s: btcore.backtest(s.goog, s.sig.entry, s.sig.exit, depth="none" + NUL)),
    ("depth_profile", lambda s: btcore.backtest(s.goog, s.sig.entry, s.sig.exit, depth_profile="p.json" + NUL)),
    ("bid_depth", lambda s: btcore.backtest(s.goog, s.sig.entry, s.sig.exit, bid_depth="5,0.5" + NUL, ask_depth="5,0.5")),
    ("ask_depth", lambda s: btcore.backtest(s.goog, s.sig.entry, s.sig.exit, bid_depth="5,0.5", ask_depth="5,0.5" + NUL)),
    ("db", lambda s: run(s.goog, s.sig, db=s.store + NUL)),
    ("df.attrs['symbol']", lambda s: run(named(s.goog, symbol="GOOG" + NUL), s.sig)),
    ("df.attrs['timeframe']", lambda s: run(named(s.goog, timeframe="1d" + NUL), s.sig)),
    ("df.attrs['symbol']", lambda s: btcore.Bars(named(s.goog, symbol="GOOG" + NUL))),
    ("df.attrs['symbol']", lambda s: btcore.evaluate(named(s.goog, symbol="GOOG" + NUL), "close")),
    ("df.attrs['symbol']", lambda s: btcore.signals(named(s.goog, symbol="GOOG" + NUL), strategy="ma-cross")),
    ("name", lambda s: run(s.goog, s.sig).stat("sharpe" + NUL)),
    # The other series rules read with @: keys, the store, how stale, the run's symbol.
    ("other key", lambda s: btcore.evaluate(s.goog, "close@SPY", other={"SPY" + NUL: s.goog})),
    ("other['SPY'].attrs['symbol']", lambda s: btcore.evaluate(s.goog, "close@SPY", other={"SPY": named(s.goog, symbol="X" + NUL)})),
    ("max_stale", lambda s: btcore.evaluate(s.goog, "close@SPY", max_stale="3d" + NUL)),
    ("max_stale", lambda s: btcore.signals(s.goog, entry="close > close@SPY", exit="close < 1", max_stale="3d" + NUL)),
    ("db", lambda s: btcore.evaluate(s.goog, "close@SPY", db=s.store + NUL)),
    ("db", lambda s: btcore.signals(s.goog, entry="close > close@SPY", exit="close < 1", db=s.store + NUL)),
    ("symbol", lambda s: btcore.signals(s.goog, entry="close > close@1w", exit="close < 1", symbol="GOOG" + NUL)),
    ("symbol", lambda s: btcore.evaluate(s.goog, "close@1w", symbol="GOOG" + NUL)),
    ("symbol", lambda s: btcore.backtest(s.goog, entry="close > close@1w", exit="close < 1", symbol="GOOG" + NUL)),
    # The window, and a portfolio's symbols and options.
    ("start", lambda s: btcore.backtest(s.goog, strategy="ma-cross", start="2010-01-04" + NUL)),
    ("end", lambda s: btcore.backtest(s.goog, strategy="ma-cross", end="2010-01-04" + NUL)),
    ("data[0]", lambda s: btcore.portfolio(["GOOG" + NUL], "ma-cross", db=s.store)),
    ("rank", lambda s: btcore.portfolio({"GOOG": s.goog}, "ma-cross", rank="roc(close, 5)" + NUL)),
    ("weight", lambda s: btcore.portfolio({"GOOG": s.goog}, "ma-cross", weight="equal" + NUL)),
    ("rebalance", lambda s: btcore.portfolio({"GOOG": s.goog}, "ma-cross", rebalance="1M" + NUL)),
    ("timeframe", lambda s: btcore.portfolio(["GOOG"], "ma-cross", db=s.store, timeframe="1d" + NUL)),
    ("max_stale", lambda s: btcore.portfolio({"GOOG": s.goog}, "ma-cross", max_stale="3d" + NUL)),
    ("data key", lambda s: btcore.portfolio({"GOOG" + NUL: s.goog}, "ma-cross")),
]


class Scope:
    def __init__(self, **values):
        self.__dict__.update(values)


@pytest.mark.parametrize("argument,call", CASES, ids=[f"{i}-{a}" for i, (a, _) in enumerate(CASES)])
def test_a_nul_in_any_string_is_refused_naming_the_argument(argument, call, store, goog, sig, strategies):
    with pytest.raises(btcore.InputError) as caught:
        call(Scope(store=store, goog=goog, sig=sig, strategies=strategies))
    message = str(caught.value)
    assert message.startswith(argument + " ") and "a NUL character at position" in message, message
    assert isinstance(caught.value, ValueError) and caught.value.status == _lib.BT_E_INPUT


def test_every_string_field_of_bt_config_is_covered():
    """Each text field of bt_config is a keyword of backtest with a case above (db by its own)."""
    text_fields = {name for name, kind in _lib.Config._fields_ if kind is ctypes.c_char_p}
    covered = {argument for argument, _ in CASES}
    assert text_fields <= covered, text_fields - covered


def test_the_examples_of_the_finding(store, goog):
    with pytest.raises(ValueError, match="text 'close > 1\\\\x00 and close < 0': a NUL character at position 9"):
        btcore.compile("close > 1\x00 and close < 0")
    with pytest.raises(ValueError, match="^sl '5%\\\\x00"):
        btcore.backtest(goog, strategy="ma-cross", sl="5%\x00junk")
    with pytest.raises(ValueError, match="^symbol 'GOOG\\\\x00"):
        btcore.read("GOOG\x00junk", db=store)


def test_text_without_a_nul_still_works(store, goog, strategies):
    """The checks refuse only what they should: the same calls without the NUL run."""
    assert btcore.compile("close > $n", params={"n": "5"}).is_condition
    assert btcore.signals(goog, strategy="mine", strategies=strategies).entry.sum() > 0
    run = btcore.backtest(goog, strategy="ma-cross", sl="5%", tp=["3%@50%", "6%"], depth="none")
    assert run.stat("sharpe") == pytest.approx(run.stats["sharpe"])


def test_paths_and_utf8_bytes_are_their_text(store, goog):
    """A path (os.PathLike) and UTF-8 bytes cross as the text they hold, as open() takes them;
    before, bytes crossed as their repr ("b'GOOG'")."""
    df = btcore.read(b"GOOG", db=Path(store))
    assert df.equals(goog) and df.attrs["symbol"] == "GOOG"
    assert btcore.compile(b"close > 1").is_condition
    by_bytes = btcore.backtest(goog, strategy="ma-cross", sl=b"5%", depth="none").json()
    assert by_bytes == btcore.backtest(goog, strategy="ma-cross", sl="5%", depth="none").json()


@pytest.mark.parametrize("call,words", [
    (lambda s: btcore.read(b"GOOG\xff", db=s), "symbol: not UTF-8 at byte 4 (0xFF)"),
    (lambda s: btcore.read("GOOG\udcff", db=s), "symbol 'GOOG\\udcff': '\\udcff' at position 4 is not a Unicode character"),
    (lambda s: btcore.compile("close > \ud800"), "text 'close > \\ud800': '\\ud800' at position 8"),
    (lambda s: btcore.compile("close > $n", params={"n": "\udcff"}), "params['n']"),
])
def test_text_that_is_not_utf8_is_refused_naming_the_argument(call, words, store):
    with pytest.raises(btcore.InputError) as caught:
        call(store)
    assert words in str(caught.value)


def test_a_parameter_name_with_an_equals_sign_is_refused(goog):
    """{'a=b': 1} would cross as 'a=b=1', read by bt as a = 'b=1'."""
    with pytest.raises(btcore.InputError, match="a name has no '='"):
        btcore.compile("close > 1", params={"a=b": 1})


# Straight through ctypes: the library refuses text that is not UTF-8 (a C caller's bytes) with
# BT_E_INPUT naming the argument, where it used to replace the bad bytes with U+FFFD and go on.

def c_status(call):
    status = call()
    return status, lib.bt_last_error().decode()


def test_the_library_refuses_bars_whose_symbol_is_not_utf8(goog):
    bars = btcore._arrays.BarsArgument(goog, need_time=True)
    bars.struct.symbol = b"GO\xffOG"
    out = ctypes.c_void_p()
    status, message = c_status(lambda: lib.bt_series_from_bars(ctypes.byref(bars.struct), ctypes.byref(out)))
    assert status == _lib.BT_E_INPUT, (status, lib.bt_series_symbol(out.value) if out.value else None)
    assert message == "bars.symbol: not UTF-8 at byte 2 (0xFF): bt.h takes UTF-8 text"
    bars.struct.symbol = b"GOOG"
    bars.struct.timeframe = b"1d\xc3"
    status, message = c_status(lambda: lib.bt_series_from_bars(ctypes.byref(bars.struct), ctypes.byref(out)))
    assert status == _lib.BT_E_INPUT and message == "bars.timeframe: not UTF-8 at byte 2 (0xC3): bt.h takes UTF-8 text", message


def test_the_library_refuses_arguments_fields_and_lists_that_are_not_utf8(store, goog, sig):
    out = ctypes.c_void_p()
    status, message = c_status(lambda: lib.bt_expr_compile(b"close > 1\xfe", None, 0, ctypes.byref(out)))
    assert (status, message.split(":")[0]) == (_lib.BT_E_INPUT, "text")
    params, count = (ctypes.c_char_p * 2)(b"a=1", b"n=\x80"), 2
    status, message = c_status(lambda: lib.bt_expr_compile(b"close > $n", params, count, ctypes.byref(out)))
    assert (status, message.split(":")[0]) == (_lib.BT_E_INPUT, "params[1]")
    store_handle = btcore._open(store)
    status, message = c_status(lambda: lib.bt_store_read(store_handle.value, b"GOOG\xff", None, None, None, ctypes.byref(out)))
    assert (status, message.split(":")[0]) == (_lib.BT_E_INPUT, "symbol")
    store_handle.close()
    config, keep = btcore._config({"sl": "5%", "depth": "none"}, None)
    config.sl = b"5%\xff"
    bars = btcore._arrays.BarsArgument(goog, need_time=True)
    entries, exits = sig.entry.to_numpy().view(np.uint8), sig.exit.to_numpy().view(np.uint8)
    signals = _lib.Signals(_lib.address(entries), _lib.address(exits), None, None)
    status, message = c_status(lambda: lib.bt_backtest(ctypes.byref(bars.struct), ctypes.byref(signals), ctypes.byref(config),
                                                       ctypes.byref(out)))
    assert (status, message.split(":")[0]) == (_lib.BT_E_INPUT, "sl")
