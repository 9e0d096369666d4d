"""btcore.portfolio: several symbols sharing one account, as `bt portfolio` runs them, through
bt_portfolio (bt.h)."""
from __future__ import annotations

import ctypes
import json as _json
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import pandas as pd

from . import _lib
from ._arrays import BarsArgument, parameters
from ._lib import InputError, check, lib


class PortfolioResult:
    """A portfolio run: `.json()` is the object `bt portfolio --json` prints, `.stats` its
    account's statistics (as `bt run --json`'s "stats"), `.figures` the portfolio's own (slots
    used, turnover, ...), `.contributions` each symbol's share of the result as a DataFrame and
    `.warnings` what bt warns of the run."""

    def __init__(self, report: Dict[str, Any]) -> None:
        self._report = report

    def json(self) -> Dict[str, Any]:
        """The whole object `bt portfolio --json` prints for this run ("costs" is null unless the
        run was asked for them with `costs=True`)."""
        return self._report

    @property
    def stats(self) -> Dict[str, Any]:
        """The account's statistics by bt's machine name: `bt portfolio --json`'s "stats"."""
        return self._report["stats"]

    @property
    def figures(self) -> Dict[str, Any]:
        """The portfolio's own figures: `bt portfolio --json`'s "figures"."""
        return self._report["figures"]

    @property
    def contributions(self) -> pd.DataFrame:
        """Each symbol's contribution, one row per symbol: `bt portfolio --json`'s "contributions"."""
        return pd.DataFrame(self._report["contributions"])

    @property
    def warnings(self) -> List[Dict[str, str]]:
        """What the reader must know about the run ({"kind", "message"}), as bt warns."""
        return self._report["warnings"]

    def __repr__(self) -> str:
        stats = self.stats
        return (f"<btcore.PortfolioResult {self._report['strategy']} on {len(self._report['symbols'])} symbols: "
                f"{self._report['bars']} bars, total_return {stats['total_return']:.4f}>")


def run(data: Union[Mapping[str, pd.DataFrame], Sequence[str]], strategy: Optional[str], *, entry: Optional[str],
        exit: Optional[str], short_entry: Optional[str], short_exit: Optional[str],  # noqa: A002
        params: Optional[Dict[str, Any]], strategies: Optional[str], options: Dict[str, Any], db: Optional[str],
        start: Any, end: Any, costs: bool, settings: Dict[str, Any]) -> PortfolioResult:
    """btcore.portfolio's work (its arguments checked there)."""
    from . import SETTINGS, _config, _keyword_default, _strategy, _window_text

    frames: List[BarsArgument] = []
    names: List[str] = []
    if isinstance(data, Mapping):
        frames, db = frames_by_symbol(data, db, "the portfolio's")
    elif isinstance(data, (list, tuple)) and all(isinstance(s, str) for s in data):
        if not data:
            raise InputError("data: an empty list: give the portfolio's symbols (with db=) or DataFrames by symbol")
        names = list(data)
        if db is None:
            db = _lib_default_db()
    else:
        raise InputError(f"data: expected a dict of DataFrames by symbol or a list of stored symbols, got {type(data).__name__}")
    values = {k: settings.get(k, _keyword_default(f)) for k, f in SETTINGS.items()}
    config, keep = _config(values, db, window=(_window_text(start, "start"), _window_text(end, "end")))
    rotate = bool(options.get("rotate"))
    handle = None
    if not rotate or strategy is not None or any(r is not None for r in (entry, exit, short_entry, short_exit)):
        handle = _strategy(strategy, entry, exit, short_entry, short_exit, params, strategies)
    assignments, count = _lib.strings(parameters(params))
    texts = [(name, f"{name}={_option_text(value, name)}") for name, value in options.items() if value is not None]
    option_array, noptions = _lib.strings(texts)
    symbol_array, nsymbols = _lib.strings([(f"data[{i}]", s) for i, s in enumerate(names)])
    series = (_lib.Bars * len(frames))(*[f.struct for f in frames])
    out = ctypes.c_void_p()
    check(lib.bt_portfolio(series if frames else None, len(frames), symbol_array, nsymbols,
                           None if handle is None else handle.value, assignments, count, option_array, noptions,
                           ctypes.byref(config), int(bool(costs)), ctypes.byref(out)))
    del keep
    text = _lib.Handle(out.value, lib.bt_text_free)
    return PortfolioResult(_json.loads(_lib.read_text(text)))


def frames_by_symbol(data: Mapping[str, pd.DataFrame], db: Optional[str], whose: str) -> Tuple[List[BarsArgument], Optional[str]]:
    """A dict of DataFrames by symbol as bt_bars (each named by its key), and the store: `db`, else
    the one store every frame's attrs["db"] names (None when they name several or none)."""
    if not data:
        raise InputError(f"data: an empty dict: give {whose} DataFrames by symbol")
    frames = []
    for key, frame in data.items():
        if not isinstance(key, str):
            raise InputError(f"data: a key is a symbol ('SPY'), not a {type(key).__name__}")
        _lib.text(key, "data key")  # a NUL or no UTF-8, named as the key rather than the bars' symbol
        frames.append(BarsArgument(frame, need_time=True, what=f"data[{key!r}]", symbol=key))
    if db is None:
        stores = {f.attrs.get("db") for f in data.values()}
        db = stores.pop() if len(stores) == 1 else None
    return frames, db


def _lib_default_db() -> str:
    from . import _default_db
    return _default_db(None)


def _option_text(value: Any, name: str) -> str:
    """An option's value as bt's text: True/False as 1/0, numbers and words as themselves."""
    if isinstance(value, bool):
        return "1" if value else "0"
    return _lib.text_of(value, name)
