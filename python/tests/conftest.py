"""Shared fixtures: the repository, the bt binary (for `bt run --json` and imports), a scratch
store holding the shipped data, and the shipped candles as DataFrames.

The bt binary is $BT_BIN, else the clone's .build/debug/bt, else .build/release/bt; libbt is
whatever btcore loads ($BT_LIB, else the copy in the installed package)."""
import json
import os
import subprocess
from pathlib import Path

import pandas as pd
import pytest

import btcore

REPO = Path(__file__).resolve().parents[2]


def bt_binary() -> Path:
    given = os.environ.get("BT_BIN")
    if given:
        return Path(given)
    for config in ("debug", "release"):
        candidate = REPO / ".build" / config / "bt"
        if candidate.exists():
            return candidate
    pytest.skip("no bt binary: build it (swift build --product bt) or set BT_BIN")


def run_bt(*args: str) -> str:
    """Runs bt with `args` from the repository root (NO_COLOR, no BT_DB) and returns its stdout."""
    env = {k: v for k, v in os.environ.items() if k != "BT_DB"}
    env["NO_COLOR"] = "1"
    done = subprocess.run([str(bt_binary()), *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"bt {' '.join(args)} failed ({done.returncode}): {done.stderr}"
    return done.stdout


def bt_json(*args: str) -> dict:
    return json.loads(run_bt(*args))


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture(scope="session")
def store(tmp_path_factory) -> str:
    """A store with data/GOOG.csv and data/EURUSD.csv imported by bt."""
    path = tmp_path_factory.mktemp("store") / "bt.sqlite"
    run_bt("data", "import", "data/GOOG.csv", "data/EURUSD.csv", "--db", str(path))
    return str(path)


@pytest.fixture(scope="session")
def goog(store) -> pd.DataFrame:
    return btcore.read("GOOG", db=store)


@pytest.fixture(scope="session")
def eurusd(store) -> pd.DataFrame:
    return btcore.read("EURUSD", db=store)
