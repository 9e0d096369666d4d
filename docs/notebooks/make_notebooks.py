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


NOTEBOOKS = {"01-first-hour": FIRST_HOUR}


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
