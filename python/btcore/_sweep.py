"""btcore.sweep: a parameter sweep of one series, as `bt sweep` runs it, through bt_sweep
(bt.h), in a worker thread the interpreter's main thread waits on, so Ctrl-C stops it."""
from __future__ import annotations

import ctypes
import json as _json
import os
import shutil
import tempfile
import threading
import weakref
from typing import Any, Callable, Dict, List, Optional

import numpy as np
import pandas as pd

from . import _lib
from ._inline import iframe
from ._lib import InputError, check, lib


class Sweep:
    """A sweep: `.table` (one row per combination: the swept values, the statistics, status and
    error, as `bt sweep`'s sweep.csv; with objectives, its `pareto` column), `.best` (the best
    combination's values by axis, ranked by `.rank`), `.objectives` (the Pareto front's
    statistics, empty without), `.deflated_sharpe`, `.pbo`, `.heatmap(x, y, stat)` and `.run(**values)` (the full
    Result of one combination). `.folder` is the sweep's report folder (sweep.md, report.html);
    a temporary one (no `out=`) is removed with the Sweep."""

    def __init__(self, table: pd.DataFrame, summary: Dict[str, Any], axes: List[str], folder: str,
                 rerun: Callable[[Dict[str, Any]], Any]) -> None:
        self.table: pd.DataFrame = table
        self.axes: List[str] = axes
        self.rank: str = summary["rank"]
        self.objectives: List[str] = summary["objectives"]
        self.best: Optional[Dict[str, float]] = summary["best"]
        self.deflated_sharpe: Optional[float] = summary["deflated_sharpe"]
        self.pbo: Optional[float] = summary["pbo"]
        self.folder: str = folder
        self._rerun = rerun

    def heatmap(self, x: str, y: str, stat: Optional[str] = None) -> pd.DataFrame:
        """`stat` (default the rank statistic) of each combination, rows `y`, columns `x`
        (a DataFrame ready for a plot). With other axes swept too, each cell is their best
        (the highest value; NaN where no combination ran)."""
        stat = stat or self.rank
        for name, what in ((x, "x"), (y, "y")):
            if name not in self.axes:
                raise InputError(f"{what} {name!r}: not a swept axis (axes: {', '.join(self.axes)})")
        if stat not in self.table.columns or stat in self.axes or stat in ("status", "error", "pareto"):
            raise InputError(f"stat {stat!r}: not a statistic of the table")
        return self.table.pivot_table(index=y, columns=x, values=stat, aggfunc="max", dropna=False)

    def run(self, **values: Any) -> Any:
        """The full Result (`btcore.Result`) of the combination with the swept `values` (the
        axes not given take the best combination's), as `bt run` with those parameters."""
        unknown = [k for k in values if k not in self.axes]
        if unknown:
            from ._keywords import check as check_keywords
            check_keywords("Sweep.run", unknown, self.axes)
        chosen = dict(self.best or {})
        chosen.update(values)
        missing = [a for a in self.axes if a not in chosen]
        if missing:
            raise InputError(f"{missing[0]}: give a value (the sweep has no best combination to take it from)")
        return self._rerun(chosen)

    def html(self) -> str:
        """The sweep's report.html as text: the heatmap of the rank statistic over the first two
        axes, the best combinations' equity curves, the overfitting statistics and the table."""
        with open(os.path.join(self.folder, "report.html"), encoding="utf-8") as f:
            return f.read()

    def _repr_html_(self) -> str:
        """The sweep's page inline in Jupyter, as `Result._repr_html_` shows a run's."""
        return iframe(self.html(), height=900)

    def __repr__(self) -> str:
        return (f"<btcore.Sweep {len(self.table)} combinations of {', '.join(self.axes)}: best {self.best} by {self.rank}, "
                f"deflated Sharpe {self.deflated_sharpe}, PBO {self.pbo}>")


def axis_text(name: Any, values: Any) -> str:
    """A grid axis as --grid takes it: "fast=5,10,15" (a range, list or array), or "k=2"."""
    if not isinstance(name, str):
        raise InputError(f"grid: an axis is a parameter's name, not a {type(name).__name__}")
    if isinstance(values, str):
        return f"{name}={values}"
    if isinstance(values, (int, float, np.integer, np.floating)) and not isinstance(values, bool):
        values = [values]
    try:
        items = list(values)
    except TypeError:
        raise InputError(f"grid[{name!r}]: give the values as a range, a list or 'start:stop:step'") from None
    if not items:
        raise InputError(f"grid[{name!r}]: no values")
    texts = []
    for v in items:
        if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
            raise InputError(f"grid[{name!r}]: {v!r} is not a number")
        f = float(v)
        texts.append(str(int(f)) if f.is_integer() and abs(f) < 1e15 else repr(f))
    return f"{name}={','.join(texts)}"


def run(call: Callable[[ctypes.c_int, ctypes.c_void_p, str], int], axes: List[str],
        rerun: Callable[[Dict[str, Any]], Any], out_dir: Optional[str]) -> Sweep:
    """Runs `call(cancel, out, folder)` (bt_sweep) in a worker thread; the main thread waits in
    short joins, so Ctrl-C raises KeyboardInterrupt there, sets the cancel flag, and returns once
    the library has stopped (between two small chunks of combinations)."""
    folder = out_dir if out_dir is not None else tempfile.mkdtemp(prefix="btcore-sweep-")
    cancel = ctypes.c_int(0)
    out = ctypes.c_void_p()
    status: List[int] = []
    error: List[str] = []

    def work() -> None:
        status.append(call(cancel, out, folder))
        if status[0] != _lib.BT_OK:
            error.append(lib.bt_last_error().decode("utf-8", "replace"))  # the message is the worker thread's

    worker = threading.Thread(target=work, name="btcore-sweep", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.05)
    except KeyboardInterrupt:
        cancel.value = 1
        worker.join()
        if out.value:
            lib.bt_text_free(out.value)
        if out_dir is None:
            shutil.rmtree(folder, ignore_errors=True)
        raise
    if status[0] != _lib.BT_OK:
        if out_dir is None:
            shutil.rmtree(folder, ignore_errors=True)
        raise _lib.ERRORS.get(status[0], _lib.InternalError)(error[0], status[0])
    summary = _json.loads(_lib.read_text(_lib.Handle(out.value, lib.bt_text_free)))
    table = pd.read_csv(os.path.join(folder, "sweep.csv"), keep_default_na=False, na_values=[""],
                        dtype={"status": str, "error": str})
    table["error"] = table["error"].fillna("")
    sweep = Sweep(table, summary, axes, folder, rerun)
    if out_dir is None:  # a temporary folder goes with its Sweep
        weakref.finalize(sweep, shutil.rmtree, folder, True)
    return sweep
