"""examples/c/rsi.c compiles against include/bt.h alone (with -Wall -Wextra -Werror), links
against the libbt that btcore loads and runs: its RSI values equal the TA-Lib golden, its
backtest equals the same run through btcore, and bad input comes back as a message."""
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import btcore
from conftest import REPO


def test_rsi_example_compiles_and_runs(store, goog, tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler")
    library = Path(btcore.library_path).resolve()
    link = tmp_path / "libbt.so"
    link.symlink_to(library)
    program = tmp_path / "rsi"
    subprocess.run([cc, "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-I", str(REPO / "include"),
                    str(REPO / "examples" / "c" / "rsi.c"), "-L", str(tmp_path), "-lbt", f"-Wl,-rpath,{tmp_path}", "-lm",
                    "-o", str(program)], check=True, timeout=120)
    done = subprocess.run([str(program), store, "GOOG", "14"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "GOOG: 2148 bars, rsi(14) lookback 14"
    golden = pd.read_csv(REPO / "Tests" / "Fixtures" / "talib" / "goog_goldens.csv")["rsi_14"].to_numpy()
    for line, expected in zip(lines[1:6], golden[-5:]):
        assert float(line.split()[2]) == pytest.approx(expected, rel=1e-6)
    entries = btcore.evaluate(goog, "cross_above(rsi(close, 14), 30)")
    assert lines[6] == f"entries: {int((entries == 1).sum())}"
    run = btcore.backtest(goog, entries == 1, btcore.evaluate(goog, "cross_below(rsi(close, 14), 70)") == 1, depth="none", sl="2%")
    assert lines[7] == f"trades: {len(run.trades)}, total_return: {run.stats['total_return']:.6f}"
    assert lines[8] == "period 0: sma: period must be at least 1 (got 0)"


def test_a_missing_store_is_reported_not_crashed(tmp_path):
    cc = shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler")
    link = tmp_path / "libbt.so"
    link.symlink_to(Path(btcore.library_path).resolve())
    program = tmp_path / "rsi"
    subprocess.run([cc, "-I", str(REPO / "include"), str(REPO / "examples" / "c" / "rsi.c"), "-L", str(tmp_path), "-lbt",
                    f"-Wl,-rpath,{tmp_path}", "-lm", "-o", str(program)], check=True, timeout=120)
    done = subprocess.run([str(program), str(tmp_path / "none.sqlite"), "GOOG"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "no candle store here" in done.stderr
