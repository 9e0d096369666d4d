"""btcore.sweep equals `bt sweep` on the same stored bars: every row of sweep.csv (the same
values, to the bit), the best combination, the deflated Sharpe ratio and PBO of sweep.md, and
one combination's full run equals `bt run` with its parameters; bad grids are InputErrors naming
grid or where; Ctrl-C stops a long sweep within a second and leaves the interpreter usable."""
import os
import re
import signal
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest

import btcore
from conftest import REPO, bt_json, run_bt


def cli_table(*args, tmp_path, name="cli"):
    out = tmp_path / name
    run_bt("sweep", *args, "--out", str(out))
    table = pd.read_csv(out / "sweep.csv", keep_default_na=False, na_values=[""], dtype={"status": str, "error": str})
    table["error"] = table["error"].fillna("")
    return table, out


def same_rows(got: pd.DataFrame, expected: pd.DataFrame):
    assert list(got.columns) == list(expected.columns)
    assert len(got) == len(expected) > 0
    for column in expected.columns:
        if expected[column].dtype.kind == "f":
            np.testing.assert_array_equal(got[column].to_numpy(), expected[column].to_numpy(), err_msg=column)
        else:
            assert list(got[column]) == list(expected[column]), column


def test_every_row_equals_bt_sweep_csv(store, goog, tmp_path):
    grid = ["--grid", "fast=5:30:5", "--grid", "slow=20,40,80"]
    expected, folder = cli_table("ma-cross", "GOOG", *grid, "--where", "fast < slow", "--db", store, tmp_path=tmp_path)
    for data, db in ((goog, None), ("GOOG", store)):
        sw = btcore.sweep(data, "ma-cross", grid={"fast": range(5, 31, 5), "slow": [20, 40, 80]}, where="fast < slow", db=db)
        same_rows(sw.table, expected)
        best = expected.loc[expected.sharpe.idxmax()]
        assert sw.best == {"fast": best.fast, "slow": best.slow} and sw.rank == "sharpe"
        markdown = (folder / "sweep.md").read_text()
        assert f"| **deflated Sharpe ratio** | **{sw.deflated_sharpe * 100:.2f}%** |" in markdown
        assert f"splits over 15 trials): **{sw.pbo * 100:.1f}%**" in markdown
        heat = sw.heatmap("fast", "slow")
        assert heat.loc[40, 10] == expected.query("fast == 10 and slow == 40").sharpe.item()
        assert np.isnan(heat.loc[20, 25])  # removed by where
    run = sw.run(fast=10, slow=40)
    assert run.json() == bt_json("run", "ma-cross", "GOOG", "--param", "fast=10", "--param", "slow=40", "--json", "--no-costs",
                                 "--db", store)
    assert sw.run().stats["sharpe"] == best.sharpe


def test_a_window_exit_axis_rules_and_walk_forward_equal_bt_sweep(store, goog, tmp_path):
    args = ["--grid", "period=10,14,20", "--grid", "sl=0.03,0.06", "--from", "2008-01-02", "--to", "2011-12-30",
            "--fee-bps", "5", "--walk-forward", "3", "--rank", "sortino"]
    expected, folder = cli_table("rsi", "GOOG", *args, "--db", store, tmp_path=tmp_path)
    sw = btcore.sweep(goog, "rsi", grid={"period": [10, 14, 20], "sl": [0.03, 0.06]}, start="2008-01-02", end="2011-12-30",
                      fee_bps=5, walk_forward=3, rank="sortino")
    same_rows(sw.table, expected)
    assert sw.rank == "sortino" and (folder / "walk_forward.csv").exists() and (sw.folder and os.path.exists(sw.folder))
    entry, exit_rule = "cross_above(sma(close, $n), sma(close, 50))", "cross_below(sma(close, $n), sma(close, 50))"
    expected, _ = cli_table("GOOG", "--entry", entry, "--exit", exit_rule, "--grid", "n=5:25:10", "--db", store, tmp_path=tmp_path,
                            name="rules")
    sw = btcore.sweep(goog, entry=entry, exit=exit_rule, grid={"n": range(5, 26, 10)})
    same_rows(sw.table, expected)


def test_bad_sweeps_name_the_argument(goog):
    cases = [
        ({"grid": {"fastt": [5]}}, r"^grid: 'fastt' is not a parameter of ma-cross; did you mean 'fast'\?"),
        ({"grid": {"fast": [50]}, "where": "fast < slow"}, r"^where 'fast < slow': leaves no combination of the grid$"),
        ({"grid": {"fast": [5, 10]}, "params": {"fast": 5}}, r"^grid: 'fast' is both swept and fixed \(params\)$"),
        ({"grid": {}}, r"^grid: give each swept parameter"),
        ({"grid": {"fast": []}}, r"^grid\['fast'\]: no values"),
        ({"grid": {"fast": ["a"]}}, r"^grid\['fast'\]: 'a' is not a number"),
        ({"grid": {"fast": [5]}, "rank": "nope"}, r"^rank 'nope'"),
        ({"grid": {"fast": [5]}, "top": 0}, r"^top '0'"),
        ({"grid": {"fast": [5]}, "gird": 1}, r"^gird: sweep\(\) has no keyword argument 'gird'; did you mean 'grid'\?"),
        ({"grid": {"fast": [5]}, "start": "2030-01-01"}, r"^start '2030-01-01': after the last bar"),
    ]
    for keywords, match in cases:
        with pytest.raises(btcore.InputError, match=match):
            btcore.sweep(goog, "ma-cross", **keywords)
    sw = btcore.sweep(goog, "ma-cross", grid={"fast": [5, 10]})
    with pytest.raises(btcore.InputError, match=r"did you mean 'fast'"):
        sw.run(fats=5)
    with pytest.raises(btcore.InputError, match=r"^x 'slow': not a swept axis"):
        sw.heatmap("slow", "fast")


CHILD = """
import os, sys, time
import btcore
df = btcore.read("GOOG", db=sys.argv[1])
print("ready", flush=True)
started = time.monotonic()
try:
    btcore.sweep(df, "ma-cross", grid={"fast": range(2, 200), "slow": range(20, 400, 2)}, depth="none")
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted", time.monotonic(), flush=True)
run = btcore.backtest(df, strategy="ma-cross", depth="none")
print("usable", run.stats["trades"], flush=True)
"""


def test_ctrl_c_stops_a_long_sweep_within_a_second_and_the_interpreter_goes_on(store):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    child = subprocess.Popen([sys.executable, "-c", CHILD, store], cwd=REPO, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(1.5)  # well into a sweep of 37,000 combinations
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        line = child.stdout.readline().split()
        assert line and line[0] == "interrupted", (line, child.stderr.read())
        assert float(line[1]) - sent < 1.0, f"stopped {float(line[1]) - sent:.2f} s after SIGINT"
        assert re.fullmatch(r"usable \d+(\.0)?", child.stdout.readline().strip())
        assert child.wait(timeout=60) == 0
    finally:
        child.kill()


def test_a_temporary_report_folder_goes_with_its_sweep(goog, tmp_path):
    import gc
    sw = btcore.sweep(goog, "ma-cross", grid={"fast": [5, 10]})
    folder = sw.folder
    assert os.path.exists(os.path.join(folder, "sweep.csv"))
    del sw
    gc.collect()
    assert not os.path.exists(folder)
    kept = btcore.sweep(goog, "ma-cross", grid={"fast": [5, 10]}, out=str(tmp_path / "kept"))
    del kept
    gc.collect()
    assert (tmp_path / "kept" / "sweep.md").exists()


def test_a_random_search_equals_bt_sweep_search_random(store, goog, tmp_path):
    """search="random" with trials and seed draws the combinations `bt sweep --search random
    --trials N --seed S` draws (ranges without a step included), the same rows to the bit."""
    expected, folder = cli_table("ma-cross", "GOOG", "--grid", "fast=5:40", "--grid", "slow=20,40,80,120", "--search", "random",
                                 "--trials", "12", "--seed", "7", "--where", "fast < slow", "--db", store, tmp_path=tmp_path)
    for data, db in ((goog, None), ("GOOG", store)):
        sw = btcore.sweep(data, "ma-cross", grid={"fast": "5:40", "slow": [20, 40, 80, 120]}, search="random", trials=12, seed=7,
                          where="fast < slow", db=db)
        same_rows(sw.table, expected)
        assert len(sw.table) == 12
    assert "12 combinations drawn at random (seed 7)" in (folder / "sweep.md").read_text()
    # Another seed draws other combinations; "grid" is every combination, as without search.
    other = btcore.sweep(goog, "ma-cross", grid={"fast": "5:40", "slow": [20, 40, 80, 120]}, search="random", trials=12, seed=8)
    assert not other.table[["fast", "slow"]].equals(expected[["fast", "slow"]])
    every = btcore.sweep(goog, "ma-cross", grid={"fast": [5, 10], "slow": [20, 40]}, search="grid")
    same_rows(every.table, btcore.sweep(goog, "ma-cross", grid={"fast": [5, 10], "slow": [20, 40]}).table)


def test_a_bayesian_search_equals_bt_sweep_search_bayes(store, goog, tmp_path):
    """search="bayes" chooses the combinations `bt sweep --search bayes --trials N --seed S`
    chooses, in the same order, the same rows to the bit."""
    expected, folder = cli_table("ma-cross", "GOOG", "--grid", "fast=5:40", "--grid", "slow=20:120:10", "--search", "bayes",
                                 "--trials", "12", "--seed", "3", "--where", "fast < slow", "--db", store, tmp_path=tmp_path)
    sw = btcore.sweep(goog, "ma-cross", grid={"fast": "5:40", "slow": range(20, 121, 10)}, search="bayes", trials=12, seed=3,
                      where="fast < slow")
    same_rows(sw.table, expected)
    assert len(sw.table) == 12
    assert "chosen by a Bayesian search" in (folder / "sweep.md").read_text()


def test_bad_searches_name_the_argument(goog):
    grid = {"fast": "5:40"}
    cases = [
        ({"search": "annealing", "trials": 5}, r"^search 'annealing': expected grid, random or bayes$"),
        ({"search": "random"}, r"^a random search needs the number of combinations to draw \(set trials\)$"),
        ({"search": "random", "trials": 0}, r"^trials '0': must be 1 to "),
        ({"search": "random", "trials": 2.5}, r"^trials 2\.5: not a whole number$"),
        ({"search": "random", "trials": 5, "seed": -1}, r"^seed '-1'"),
        ({"trials": 5}, r"^trials '5': trials is for search random or bayes$"),
        ({"search": 1}, r"^search 1: give the search by its name"),
        ({"search": "random", "trials": 5, "sede": 1}, r"did you mean 'seed'\?"),
    ]
    for keywords, match in cases:
        with pytest.raises(btcore.InputError, match=match):
            btcore.sweep(goog, "ma-cross", grid=grid, **keywords)
    with pytest.raises(btcore.InputError, match=r"'slow' has one value"):
        btcore.sweep(goog, "ma-cross", grid={"fast": "5:40", "slow": [80]}, search="bayes", trials=3)


def test_objectives_and_the_pareto_front_equal_bt_sweep_objectives(store, goog, tmp_path):
    """objective= and objectives=[...] are `bt sweep --objective STAT --objectives A,B,...`: the
    same rows to the bit, the `pareto` column included, and the same best."""
    grid = ["--grid", "fast=5:30:5", "--grid", "slow=20,40,80", "--where", "fast < slow"]
    expected, _ = cli_table("ma-cross", "GOOG", *grid, "--objectives", "sharpe,max_drawdown,trades", "--db", store,
                            tmp_path=tmp_path)
    assert "pareto" in expected.columns and 0 < expected.pareto.astype(bool).sum() < len(expected)
    py_grid = {"fast": range(5, 31, 5), "slow": [20, 40, 80]}
    for objectives in (["sharpe", "max_drawdown", "trades"], "sharpe,max_drawdown,trades"):
        sw = btcore.sweep(goog, "ma-cross", grid=py_grid, where="fast < slow", objectives=objectives)
        same_rows(sw.table, expected)
        assert sw.objectives == ["sharpe", "max_drawdown", "trades"] and sw.rank == "sharpe"
    expected, _ = cli_table("ma-cross", "GOOG", *grid, "--objective", "sortino", "--objectives", "calmar,sharpe", "--db", store,
                            tmp_path=tmp_path, name="cli2")
    sw = btcore.sweep("GOOG", "ma-cross", grid=py_grid, where="fast < slow", objective="sortino", objectives=["calmar", "sharpe"],
                      db=store)
    same_rows(sw.table, expected)
    best = expected.loc[expected.sortino.idxmax()]
    assert sw.rank == "sortino" and sw.best == {"fast": best.fast, "slow": best.slow}
    # The objective alone ranks as --objective (and as rank, its older name); no front, no pareto column.
    expected, _ = cli_table("ma-cross", "GOOG", *grid, "--objective", "calmar", "--db", store, tmp_path=tmp_path, name="cli3")
    for keywords in ({"objective": "calmar"}, {"rank": "calmar"}, {"objective": "calmar", "rank": "calmar"}):
        sw = btcore.sweep(goog, "ma-cross", grid=py_grid, where="fast < slow", **keywords)
        same_rows(sw.table, expected)
        assert "pareto" not in sw.table.columns and sw.objectives == [] and sw.rank == "calmar"


def test_bad_objectives_name_the_argument(goog):
    grid = {"fast": [5, 10], "slow": [20, 40]}
    cases = [
        ({"objective": "sharpee"}, r"^objective 'sharpee': unknown metric; did you mean 'sharpe'\?"),
        ({"objective": "sharpe", "rank": "sortino"}, r"^objective 'sharpe': differs from rank 'sortino' \(rank is objective's older"),
        ({"objectives": ["sharpe"]}, r"^objectives 'sharpe': "),
        ({"objectives": "sharpe,sharpe"}, r"^objectives 'sharpe,sharpe': "),
        ({"objectives": "sharpe,nope"}, r"^objectives 'nope': unknown metric"),
        ({"objectives": ["sharpe", 3]}, r"^objectives \['sharpe', 3\]: give the statistics by name"),
        ({"objectivs": "sharpe,calmar"}, r"did you mean 'objectives'\?"),
    ]
    for keywords, match in cases:
        with pytest.raises(btcore.InputError, match=match):
            btcore.sweep(goog, "ma-cross", grid=grid, **keywords)
