#!/usr/bin/env python3
"""Writes the tutorial notebooks of docs/notebooks from the cells below, without outputs (as they
are committed): edit the cells here, run `python3 docs/notebooks/make_notebooks.py` (needs the
PyPI package nbformat), and commit the .ipynb files. `make test-python` executes each one in a
real Jupyter kernel (python/tests/test_notebooks.py)."""
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent

FIRST_HOUR = [
    new_markdown_cell("""# The first hour: a CSV to a report

A daily CSV of Google's prices (shipped in `data/GOOG.csv`), a moving-average crossover backtested
on it with bt's engine, the statistics and trades read as DataFrames, the interactive chart shown
here, and the report folder `bt run --out` writes. Run from `docs/notebooks` (Jupyter's folder
for this file)."""),
    new_code_cell("""from pathlib import Path

import pandas as pd

import btcore

ROOT = Path.cwd().parents[1]  # the repository: this notebook lives in docs/notebooks
df = pd.read_csv(ROOT / "data" / "GOOG.csv", index_col=0, parse_dates=True)
df.index = df.index.tz_localize("UTC")
df.tail(3)"""),
    new_markdown_cell("""Columns may be in any case (`Open` or `open`); the index is the bars' times (naive times are
UTC). `btcore.backtest` takes the frame as it is: a built-in strategy with its parameters, and
`bt run`'s execution options as keywords (`fee_bps`, `sl`, `depth`, ...) with `bt run`'s defaults.
`symbol=` names the run. Shown last in a cell, a result draws its chart: candles and trades,
equity against buy and hold, drawdown, and the statistics beside them."""),
    new_code_cell("""result = btcore.backtest(df, strategy="ma-cross", params={"fast": 10, "slow": 30}, symbol="GOOG")
result"""),
    new_markdown_cell("""Statistics are computed when read: one with `.stat(name)`, the table with `.stats` (fractions,
not percents; the Sharpe interval's bootstrap only on `.stats(intervals=True)`)."""),
    new_code_cell("""stats = pd.Series(result.stats)
stats[["total_return", "cagr", "sharpe", "max_drawdown", "trades", "win_rate"]]"""),
    new_code_cell("""result.trades[["side", "entry_time", "exit_time", "entry_price", "exit_price", "pnl", "return", "exit_kind"]].head()"""),
    new_markdown_cell("""The same folder `bt run ma-cross GOOG --out notebooks-out/first-hour` writes: report.md,
report.html, the SVG charts and the CSVs (`force=True` replaces an earlier one)."""),
    new_code_cell("""folder = Path(result.report(ROOT / "notebooks-out" / "first-hour", force=True))
sorted(p.name for p in folder.iterdir())"""),
]


SWEEP = [
    new_markdown_cell("""# Exits, a sweep, walk-forward and the odds of overfitting

The GOOG CSV again: a crossover with a stop, a target and a trailing stop; then every pair of
averages on a grid, each fold of a walk-forward choosing its best in sample and trading it out of
sample, and the two statistics that say how much of the best result is the search itself: the
deflated Sharpe ratio and the probability of backtest overfitting (PBO)."""),
    new_code_cell("""from pathlib import Path

import pandas as pd

import btcore

ROOT = Path.cwd().parents[1]
df = pd.read_csv(ROOT / "data" / "GOOG.csv", index_col=0, parse_dates=True)
df.index = df.index.tz_localize("UTC")
df.attrs["symbol"] = "GOOG"
plain = btcore.backtest(df, strategy="ma-cross")
exits = btcore.backtest(df, strategy="ma-cross", sl="5%", tp="15%", trail="3 * atr(14)")
pd.DataFrame({"no exits": pd.Series(plain.stats), "sl 5%, tp 15%, trail 3 ATR": pd.Series(exits.stats)}).loc[
    ["total_return", "sharpe", "max_drawdown", "trades", "win_rate"]]"""),
    new_code_cell("""exits.trades["exit_kind"].value_counts()"""),
    new_markdown_cell("""`btcore.sweep` runs `bt sweep`: `grid` gives each parameter's values, `where` keeps the
combinations where it holds, `walk_forward` cuts the bars into folds. `.table` is sweep.csv as a
DataFrame, one row per combination."""),
    new_code_cell("""sweep = btcore.sweep(df, "ma-cross", grid={"fast": range(5, 50, 5), "slow": range(20, 200, 20)},
                     where="fast < slow", walk_forward=4)
sweep.table.sort_values("sharpe", ascending=False).head()"""),
    new_code_cell("""{"best": sweep.best, "deflated_sharpe": sweep.deflated_sharpe, "pbo": sweep.pbo}"""),
    new_markdown_cell("""A PBO near 0.5 or above says the in-sample winner is no better than a random pick out of
sample; the deflated Sharpe ratio is the probability that the best Sharpe ratio beats the best of
as many trials of no skill. The heatmap is a DataFrame ready for any plot; shown last, the sweep
draws its own page (heatmap, best curves, walk-forward equity)."""),
    new_code_cell("""sweep.heatmap("fast", "slow", "sharpe").round(2)"""),
    new_code_cell("""sweep"""),
    new_code_cell("""best = sweep.run()  # the best combination, as bt run runs it
pd.Series(best.stats)[["total_return", "sharpe", "max_drawdown"]]"""),
]

PORTFOLIO = [
    new_markdown_cell("""# A portfolio against its benchmark

Six synthetic daily series (a seeded random walk, so the notebook runs anywhere), traded as one
account: each symbol's crossover signals compete for three slots, the strongest 20-day momentum
first. The benchmark is what a researcher would compare it with: the same six held in equal
weights from the first bar."""),
    new_code_cell("""import numpy as np
import pandas as pd

import btcore

rng = np.random.default_rng(7)
index = pd.date_range("2020-01-01", periods=750, freq="D", tz="UTC")
frames = {}
for k in range(6):
    close = 100 * np.exp(np.cumsum(rng.normal(0.0003, 0.015, len(index))))
    open_ = np.r_[close[0], close[:-1]]
    high = np.maximum(open_, close) * (1 + rng.uniform(0, 0.01, len(index)))
    low = np.minimum(open_, close) * (1 - rng.uniform(0, 0.01, len(index)))
    frames[f"S{k}"] = pd.DataFrame({"open": open_, "high": high, "low": low, "close": close, "volume": 1e6}, index=index)
{symbol: round(float(f["close"].iloc[-1] / f["close"].iloc[0] - 1), 4) for symbol, f in frames.items()}"""),
    new_code_cell("""book = btcore.portfolio(frames, strategy="ma-cross", max_positions=3, rank="roc(close, 20)")
pd.Series(book.stats)[["total_return", "cagr", "sharpe", "max_drawdown", "trades", "exposure"]]"""),
    new_code_cell("""book.contributions[["symbol", "trades", "exposure", "skipped_entries"]]"""),
    new_markdown_cell("""The benchmark: equal weights bought at the first close and held. Its return beside the
portfolio's, and the portfolio's own figures (positions held, exposure, turnover)."""),
    new_code_cell("""closes = pd.DataFrame({symbol: f["close"] for symbol, f in frames.items()})
benchmark = (closes / closes.iloc[0]).mean(axis=1)
pd.Series({"portfolio total_return": book.stats["total_return"],
           "equal-weight buy and hold": benchmark.iloc[-1] - 1,
           "portfolio max_drawdown": book.stats["max_drawdown"],
           "benchmark max_drawdown": (benchmark / benchmark.cummax() - 1).min()})"""),
    new_code_cell("""book.figures"""),
]

NOTEBOOKS = {"01-first-hour": FIRST_HOUR, "02-sweep-walk-forward": SWEEP, "03-portfolio-benchmark": PORTFOLIO}


def render(name: str) -> str:
    """The notebook `name` as committed: its cells, no outputs, stable cell ids."""
    nb = new_notebook(cells=NOTEBOOKS[name], metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"},
    })
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"{name.split('-')[0]}-{i:02d}"  # stable ids: the file changes only with the cells
    nbformat.validate(nb)
    return nbformat.writes(nb) + "\n"


if __name__ == "__main__":
    for name in NOTEBOOKS:
        (HERE / f"{name}.ipynb").write_text(render(name), encoding="utf-8")
