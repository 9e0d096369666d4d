"""btcore.portfolio equals `bt portfolio --json` on the same stored bars (the whole object: its
stats, figures and contributions), given stored symbols with db= or DataFrames by symbol, with
the rank, weights, rebalance, rotation, a window and execution keywords; bad data and options
are InputErrors naming the argument."""
import pytest

import btcore
from conftest import bt_json, run_bt

SYMBOLS = ["SYN0001", "SYN0002", "SYN0003", "SYN0004"]


@pytest.fixture(scope="module")
def universe(tmp_path_factory) -> str:
    """A store with four synthetic daily symbols of 700 bars (bt data synth)."""
    path = tmp_path_factory.mktemp("universe") / "bt.sqlite"
    run_bt("data", "synth", "--symbols", "4", "--bars", "700", "--seed", "7", "--db", str(path))
    return str(path)


@pytest.fixture(scope="module")
def frames(universe):
    return {s: btcore.read(s, db=universe) for s in SYMBOLS}


CASES = [
    ("ma-cross", ["--max-positions", "2"], {"max_positions": 2}),
    ("rsi", ["--max-positions", "2", "--rank", "roc(close, 20)", "--weight", "inverse-vol", "--rebalance", "1M",
             "--fee-bps", "5", "--depth", "none", "--sl", "8%"],
     {"max_positions": 2, "rank": "roc(close, 20)", "weight": "inverse-vol", "rebalance": "1M", "fee_bps": 5, "depth": "none",
      "sl": "8%"}),
    ("macd", ["--from", "2018-09-03", "--to", "2019-12-31", "--weight", "rank", "--rank", "-stddev(close, 30)", "--rebalance", "20"],
     {"start": "2018-09-03", "end": "2019-12-31", "weight": "rank", "rank": "-stddev(close, 30)", "rebalance": 20}),
    # A market-neutral long/short book (bt portfolio --short --neutral).
    ("ma-cross", ["--short", "--neutral", "--max-positions", "2", "--rank", "roc(close, 20)"],
     {"short": True, "neutral": True, "max_positions": 2, "rank": "roc(close, 20)"}),
]


@pytest.mark.parametrize("strategy,flags,keywords", CASES)
def test_portfolio_equals_bt_portfolio_json(strategy, flags, keywords, universe, frames):
    expected = bt_json("portfolio", strategy, "--symbols", ",".join(SYMBOLS), *flags, "--json", "--no-costs", "--db", universe)
    stored = btcore.portfolio(SYMBOLS, strategy, db=universe, **keywords)
    assert stored.json() == expected
    assert stored.stats == expected["stats"] and stored.stats["trades"] > 0
    given = btcore.portfolio(frames, strategy, **keywords)
    assert given.json() == expected
    assert list(given.contributions.columns) and len(given.contributions) == len(SYMBOLS)


def test_rotation_rules_and_cost_table_equal_bt_portfolio(universe, frames):
    rotation = ["--rotate", "--rank", "roc(close, 60)", "--max-positions", "2"]
    expected = bt_json("portfolio", "--symbols", ",".join(SYMBOLS), *rotation, "--json", "--db", universe)
    got = btcore.portfolio(SYMBOLS, rotate=True, rank="roc(close, 60)", max_positions=2, db=universe, costs=True)
    assert got.json() == expected and expected["costs"] is not None
    entry, exit_rule = "close > sma(close, 50)", "close < sma(close, 50)"
    expected = bt_json("portfolio", "--symbols", ",".join(SYMBOLS), "--entry", entry, "--exit", exit_rule, "--json", "--no-costs",
                       "--db", universe)
    assert btcore.portfolio(frames, entry=entry, exit=exit_rule).json() == expected


def test_bad_portfolios_name_the_argument(universe, frames, goog, eurusd):
    with pytest.raises(btcore.InputError, match=r"GOOG is at 1d, EURUSD at 1h: a portfolio's series share one timeframe"):
        btcore.portfolio({"GOOG": goog, "EURUSD": eurusd}, "ma-cross")
    cases = [
        ({"max_position": 2}, r"^max_position: portfolio\(\) has no keyword argument 'max_position'; did you mean 'max_positions'\?"),
        ({"rank": "roc(closee, 20)"}, r"^rank: unknown series 'closee'"),
        ({"weight": "bad"}, r"^weight 'bad': not one of equal, inverse-vol, rank"),
        ({"rebalance": "2d"}, r"^rebalance '2d'"),
        ({"max_positions": 0}, r"^max_positions '0': needs at least one position"),
        ({"max_positions": 1.5}, r"^max_positions 1.5: not a whole number"),
        ({"weight": "rank"}, r"rank weights need a rank \(set rank\)"),
        ({"rotate": True, "rank": "roc(close, 5)"}, r"rotate .* leave out the strategy"),
        ({"start": "2030-01-01"}, r"^start\b.*(after the last bar|no candles for 'SYN0001' in the requested range)"),
        ({"end": "2001-01-01"}, r"^end\b.*(before the first bar|no candles for 'SYN0001' in the requested range)"),
        ({"fee_bps": -1}, r"^fee_bps '-1'"),
    ]
    for keywords, match in cases:
        for data in (frames, SYMBOLS):
            with pytest.raises(btcore.InputError, match=match):
                btcore.portfolio(data, "ma-cross", db=universe, **keywords)
    with pytest.raises(btcore.InputError, match="NOPE"):
        btcore.portfolio(["SYN0001", "NOPE"], "ma-cross", db=universe)
    with pytest.raises(btcore.InputError, match="SYN0001 is given twice"):
        btcore.portfolio(["SYN0001", "syn0001"], "ma-cross", db=universe)
    with pytest.raises(btcore.InputError, match="^data: expected a dict of DataFrames"):
        btcore.portfolio(frames["SYN0001"], "ma-cross")
    with pytest.raises(btcore.InputError, match="give a strategy"):
        btcore.portfolio(frames)
