"""A keyword argument a btcore function does not take is a btcore.KeywordError: an InputError
(as every bad argument is) and a TypeError (as Python raises for one), naming the keyword and
the closest one the function takes."""
import numpy as np
import pytest

import btcore


def calls(goog, store):
    """(function name, a call with the keyword misspelt, the suggestion) for every public function."""
    close = goog.close.to_numpy()
    run = btcore.backtest(goog, strategy="ma-cross", depth="none")
    expr = btcore.compile("close > 1")
    return [
        ("read", lambda: btcore.read("GOOG", db=store, timeframee="1d"), "timeframe"),
        ("series", lambda: btcore.series(dbb=store), "db"),
        ("Bars", lambda: btcore.Bars(df=goog, symbl="X"), None),
        ("compile", lambda: btcore.compile("close > 1", parms={}), "params"),
        ("Expression", lambda: btcore.Expression("close > 1", max_stal="3d"), "max_stale"),
        ("Expression.values", lambda: expr.values(goog, symbl="X"), "symbol"),
        ("Expression.signal", lambda: expr.signal(goog, symbl="X"), "symbol"),
        ("evaluate", lambda: btcore.evaluate(goog, "close", otherr={}), "other"),
        ("signals", lambda: btcore.signals(goog, strategy="ma-cross", parms={"fast": 5}), "params"),
        ("backtest", lambda: btcore.backtest(goog, strategy="ma-cross", strat="x"), "start"),
        ("backtest", lambda: btcore.backtest(goog, strategy="ma-cross", stop_loss="5%"), None),
        ("portfolio", lambda: btcore.portfolio({"GOOG": goog}, "ma-cross", rebalanc="1M"), "rebalance"),
        ("Result.json", lambda: run.json(cost=True), "costs"),
        ("Result.stat", lambda: run.stat(nam="sharpe"), "name"),
        ("execution_settings", lambda: btcore.execution_settings(verbose=True), None),
        ("stat_names", lambda: btcore.stat_names(all=True), None),
        ("sma", lambda: btcore.ta.sma(close, timeperiodd=5), "timeperiod"),
        ("macd", lambda: btcore.ta.macd(close, fastperiod=5, slowperiodd=9), "slowperiod"),
        ("bbands", lambda: btcore.ta.bbands(close, nbdevup=2, nbdevdown=2), "nbdevdn"),
        ("stoch", lambda: btcore.ta.stoch(close, close, close, fastk=5), "fastk_period"),
        ("lookback", lambda: btcore.ta.lookback("sma", period=5), None),
    ]


def test_an_unknown_keyword_names_itself_and_the_closest(goog, store):
    for function, call, suggestion in calls(goog, store):
        with pytest.raises(btcore.KeywordError) as caught:
            call()
        message = str(caught.value)
        assert f"{function}() has no keyword argument" in message, message
        assert isinstance(caught.value, btcore.InputError) and isinstance(caught.value, TypeError)
        if suggestion:
            assert message.endswith(f"did you mean '{suggestion}'?"), message


def test_known_keywords_still_pass(goog):
    out = np.empty(len(goog))
    assert btcore.ta.sma(goog.close.to_numpy(), timeperiod=5, out=out) is not None
    assert btcore.Bars(df=goog).symbol == "GOOG"
    assert btcore.backtest(goog, strategy="ma-cross", params={"fast": 5}, fee_bps=5, start="2010-01-04").stats["trades"] >= 0
