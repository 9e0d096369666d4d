"""The tutorial notebooks of docs/notebooks, executed by a real Jupyter kernel (nbclient and
ipykernel): committed without outputs, every cell runs (a cell that raises fails the suite), each
output is checked, and a result's inline page (`_repr_html_`) is opened in headless Chromium,
where the chart's first candle is the CSV's first bar."""
import json
import shutil
import time
from pathlib import Path

import nbformat
import pandas as pd
from nbclient import NotebookClient

from conftest import REPO

NOTEBOOKS = REPO / "docs" / "notebooks"


def executed(name: str) -> nbformat.NotebookNode:
    path = NOTEBOOKS / name
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, f"{name}: committed with outputs"
    # Raises CellExecutionError (naming the cell and its traceback) when any cell raises.
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    return nb


def output(cell: nbformat.NotebookNode, mime: str = "text/plain") -> str:
    texts = [o["data"][mime] for o in cell.outputs if o.get("output_type") in ("execute_result", "display_data")
             and mime in o.get("data", {})]
    assert texts, f"no {mime} output from:\n{cell.source}"
    return texts[-1]


def code_cells(nb: nbformat.NotebookNode) -> list:
    return [c for c in nb.cells if c.cell_type == "code"]


def test_every_notebook_is_made_by_the_generator():
    """The .ipynb files are docs/notebooks/make_notebooks.py's output (cells, no outputs), so
    what is reviewed is what runs."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("make_notebooks", NOTEBOOKS / "make_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    committed = sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb"))
    assert committed == sorted(module.NOTEBOOKS), "a notebook without cells in make_notebooks.py, or the reverse"
    for name in committed:
        assert (NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8") == module.render(name), \
            f"{name}.ipynb differs from make_notebooks.py's cells: run it and commit"


def test_first_hour(tmp_path):
    nb = executed("01-first-hour.ipynb")
    read, run, stats, trades, report = code_cells(nb)
    assert "2013-03-01" in output(read) and "Close" in output(read)
    page = output(run, "text/html")
    assert page.startswith("<iframe") and "btcore-report" in page
    assert "<btcore.Result ma-cross on GOOG: 2148 bars" in output(run)
    for name in ("sharpe", "max_drawdown", "trades"):
        assert name in output(stats)
    assert "exit_kind" in output(trades) and "long" in output(trades)
    assert "'report.html'" in output(report) and "'trades.csv'" in output(report)
    first_candle_in_chromium(page, tmp_path)


def test_sweep_walk_forward():
    nb = executed("02-sweep-walk-forward.ipynb")
    compare, kinds, table, summary, heatmap, shown, best = code_cells(nb)
    assert "sl 5%, tp 15%, trail 3 ATR" in output(compare) and "sharpe" in output(compare)
    assert "stop" in output(kinds) or "target" in output(kinds) or "trail" in output(kinds)
    assert "fast" in output(table) and "slow" in output(table)
    assert "'deflated_sharpe'" in output(summary) and "'pbo'" in output(summary) and "'best'" in output(summary)
    assert "slow" in output(heatmap)
    page = output(shown, "text/html")
    assert page.startswith("<iframe") and "btcore-report" in page and "&quot;kind&quot;:&quot;sweep&quot;" in page
    assert "total_return" in output(best)


def test_portfolio_benchmark():
    nb = executed("03-portfolio-benchmark.ipynb")
    frames, stats, contributions, benchmark, figures = code_cells(nb)
    assert "'S0'" in output(frames) and "'S5'" in output(frames)
    assert "total_return" in output(stats) and "sharpe" in output(stats)
    assert "S0" in output(contributions) and "skipped_entries" in output(contributions)
    assert "equal-weight buy and hold" in output(benchmark)
    assert "'max_positions': 3" in output(figures)


def first_candle_in_chromium(page: str, folder: Path) -> None:
    """Opens the inline page as a notebook shows it (the iframe on a page of its own) in headless
    Chromium and reads the chart's first candle through the page's read-only test hook."""
    from selenium import webdriver  # in the test venv (scripts/test-python.sh): never skipped
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    chromium, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    assert chromium and driver_path, "chromium and chromium-driver are needed (scripts/install-browser-deps.sh)"
    wrapper = folder / "notebook-output.html"
    wrapper.write_text(f"<!doctype html><html><body>{page}</body></html>", encoding="utf-8")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        driver.get(wrapper.as_uri())
        driver.switch_to.frame(driver.find_element(By.CSS_SELECTOR, "iframe.btcore-report"))
        deadline = time.time() + 30
        while not driver.execute_script("return !!(window.btPage && window.btPage.ready)"):
            assert time.time() < deadline, "the inline page never became ready"
            time.sleep(0.1)
        assert driver.execute_script("return window.btPage.errors") == []
        bar = driver.execute_script("return window.btCharts['bt-chart'].bar(0)")
        first = pd.read_csv(REPO / "data" / "GOOG.csv", nrows=1)
        assert bar["time"] == pd.Timestamp(first.iloc[0, 0], tz="UTC").timestamp()
        assert [bar[k] for k in ("open", "high", "low", "close", "volume")] == \
            [float(first[c].iloc[0]) for c in ("Open", "High", "Low", "Close", "Volume")]
        assert driver.execute_script("return window.btCharts['bt-chart'].state().drawCount") > 0
        data = json.loads(driver.execute_script("return document.getElementById('bt-data').textContent"))
        assert data["title"] == "ma-cross on GOOG"
    finally:
        driver.quit()
