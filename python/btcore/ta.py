"""TA-Lib's functions computed by bt's kernels, with TA-Lib's names, argument order and defaults.

    import btcore
    btcore.ta.rsi(df.close, 14)                   # or btcore.ta.RSI(df.close, timeperiod=14)
    btcore.ta.atr(df.high, df.low, df.close, 14)
    macd, signal, hist = btcore.ta.macd(df.close)

Each function takes Series or arrays and returns the same kind: a Series on the first input's
index, or a float64 array. Outputs have the input's length; the first `lookback` values are NaN
(the warm-up), as TA-Lib's Python wrapper shows them. Values equal TA-Lib's within 1e-9 relative.
C-contiguous float64 arrays (and float64 Series) are passed to bt without a copy; other numeric
inputs are converted once; anything else raises `btcore.InputError`.

Two differences from TA-Lib: a NaN in the input splits the series into runs, each computed on
its own (the warm-up restarts after a gap) where TA-Lib lets one NaN poison everything after it;
and MA types other than SMA (`matype`, `slowk_matype`, `slowd_matype`) are refused. `donchian`
and `vwap` have no TA-Lib function (bt's defaults, 20 bars). `lookback(name, ...)` gives the
warm-up for the same parameters (TA-Lib's `TA_NAME_Lookback`).

Every function also takes `out=`: preallocated float64 arrays (a tuple for several outputs) that
bt writes into, so repeated calls allocate nothing (TA-Lib's C API with caller buffers). An output
may be the input itself or a view overlapping it (`sma(a, 3, out=a)`, `sma(a[:-1], 3, out=a[1:])`):
the values are those of separate arrays, as numpy's `out=` and TA-Lib's in-place calls give (the
input is copied once first). Outputs overlapping each other are refused (InputError).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, List, Tuple, Union

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

from . import _lib
from ._arrays import doubles, like
from ._keywords import checked
from ._lib import InputError, address, check, lib

ArrayLike = Any
Output = Union[np.ndarray, "pd.Series"]

__all__ = ["sma", "ema", "wma", "rsi", "roc", "stddev", "macd", "bbands", "atr", "willr", "cci", "adx", "stoch", "obv",
           "donchian", "vwap", "lookback"]


def _inputs(*named: Tuple[ArrayLike, str]) -> List[np.ndarray]:
    first = doubles(named[0][0], named[0][1])
    return [first] + [doubles(x, name, len(first)) for x, name in named[1:]]


def _outputs(out: Any, count: int, n: int) -> list:
    """`count` output arrays of `n` float64s: new ones, or the caller's `out` (an array, or a tuple
    of `count` arrays), each C-contiguous, float64, writable and of length `n`, written in place."""
    if out is None:
        return [np.empty(n) for _ in range(count)]
    arrays = list(out) if isinstance(out, (tuple, list)) else [out]
    if len(arrays) != count:
        raise InputError(f"out: expected {count} array{'s' if count > 1 else ''}, got {len(arrays)}")
    for a in arrays:
        if not isinstance(a, np.ndarray) or a.dtype != np.float64 or not a.flags.c_contiguous or not a.flags.writeable \
                or a.ndim != 1 or len(a) != n:
            raise InputError(f"out: each array must be a writable C-contiguous float64 array of length {n}")
    return arrays


def _period(value: Any, name: str) -> int:
    if isinstance(value, bool) or not float(value).is_integer():
        raise InputError(f"{name} must be a whole number (got {value!r})")
    v = int(value)
    if not -2**31 <= v < 2**31:
        raise InputError(f"{name} must be at most 10000000 (got {v})")
    return v


def _one(name: str, real: ArrayLike, timeperiod: Any, out: Any = None, scale: float = 1.0) -> Output:
    (x,) = _inputs((real, "real"))
    (o,) = _outputs(out, 1, len(x))
    check(getattr(lib, f"bt_{name}")(len(x), address(x), _period(timeperiod, "timeperiod"), address(o)))
    if scale != 1:
        o *= scale
    return like(real, o)


def _three(name: str, high: ArrayLike, low: ArrayLike, close: ArrayLike, timeperiod: Any, out: Any = None) -> Output:
    h, l, c = _inputs((high, "high"), (low, "low"), (close, "close"))
    (o,) = _outputs(out, 1, len(c))
    check(getattr(lib, f"bt_{name}")(len(c), address(h), address(l), address(c), _period(timeperiod, "timeperiod"), address(o)))
    return like(high, o)


def sma(real: ArrayLike, timeperiod: int = 30, *, out: Any = None) -> Output:
    """Simple moving average (TA-Lib SMA). Warm-up timeperiod - 1."""
    return _one("sma", real, timeperiod, out)


def ema(real: ArrayLike, timeperiod: int = 30, *, out: Any = None) -> Output:
    """Exponential moving average, k = 2 / (timeperiod + 1), seeded with an SMA (TA-Lib EMA).
    Warm-up timeperiod - 1."""
    return _one("ema", real, timeperiod, out)


def wma(real: ArrayLike, timeperiod: int = 30, *, out: Any = None) -> Output:
    """Linearly weighted moving average (TA-Lib WMA). Warm-up timeperiod - 1."""
    return _one("wma", real, timeperiod, out)


def rsi(real: ArrayLike, timeperiod: int = 14, *, out: Any = None) -> Output:
    """Relative strength index, Wilder's smoothing, 0..100 (TA-Lib RSI). Warm-up timeperiod."""
    return _one("rsi", real, timeperiod, out)


def roc(real: ArrayLike, timeperiod: int = 10, *, out: Any = None) -> Output:
    """Rate of change in percent (TA-Lib ROC). Warm-up timeperiod."""
    return _one("roc", real, timeperiod, out)


def stddev(real: ArrayLike, timeperiod: int = 5, nbdev: float = 1.0, *, out: Any = None) -> Output:
    """Rolling population standard deviation times nbdev (TA-Lib STDDEV). Warm-up timeperiod - 1."""
    return _one("stddev", real, timeperiod, out, float(nbdev))


def macd(real: ArrayLike, fastperiod: int = 12, slowperiod: int = 26, signalperiod: int = 9, *,
         out: Any = None) -> Tuple[Output, Output, Output]:
    """MACD line, signal line and histogram (TA-Lib MACD). Warm-up slowperiod + signalperiod - 2."""
    (x,) = _inputs((real, "real"))
    m, s, h = _outputs(out, 3, len(x))
    check(lib.bt_macd(len(x), address(x), _period(fastperiod, "fastperiod"), _period(slowperiod, "slowperiod"),
                      _period(signalperiod, "signalperiod"), address(m), address(s), address(h)))
    return like(real, m), like(real, s), like(real, h)


def bbands(real: ArrayLike, timeperiod: int = 5, nbdevup: float = 2.0, nbdevdn: float = 2.0,
           matype: int = 0, *, out: Any = None) -> Tuple[Output, Output, Output]:
    """Bollinger Bands: upper, middle (SMA) and lower (TA-Lib BBANDS with matype 0). Warm-up
    timeperiod - 1."""
    if matype != 0:
        raise InputError(f"bbands: matype {matype!r}: bt's bands are on the SMA (matype 0) only")
    (x,) = _inputs((real, "real"))
    period = _period(timeperiod, "timeperiod")
    u, m, l = _outputs(out, 3, len(x))
    if nbdevdn != nbdevup and any(np.may_share_memory(x, o) for o in (u, m, l)):
        x = x.copy()  # the first call writes over x, and the second reads it
    check(lib.bt_bbands(len(x), address(x), period, float(nbdevup), address(u), address(m), address(l)))
    if nbdevdn != nbdevup:
        scratch = np.empty(len(x))
        check(lib.bt_bbands(len(x), address(x), period, float(nbdevdn), address(scratch), address(m), address(l)))
    return like(real, u), like(real, m), like(real, l)


def atr(high: ArrayLike, low: ArrayLike, close: ArrayLike, timeperiod: int = 14, *, out: Any = None) -> Output:
    """Average true range, Wilder's smoothing (TA-Lib ATR). Warm-up timeperiod."""
    return _three("atr", high, low, close, timeperiod, out)


def willr(high: ArrayLike, low: ArrayLike, close: ArrayLike, timeperiod: int = 14, *, out: Any = None) -> Output:
    """Williams %R, -100..0 (TA-Lib WILLR). Warm-up timeperiod - 1."""
    return _three("willr", high, low, close, timeperiod, out)


def cci(high: ArrayLike, low: ArrayLike, close: ArrayLike, timeperiod: int = 14, *, out: Any = None) -> Output:
    """Commodity channel index (TA-Lib CCI). Warm-up timeperiod - 1."""
    return _three("cci", high, low, close, timeperiod, out)


def adx(high: ArrayLike, low: ArrayLike, close: ArrayLike, timeperiod: int = 14, *, out: Any = None) -> Output:
    """Average directional index (TA-Lib ADX). Warm-up 2 * timeperiod - 1."""
    return _three("adx", high, low, close, timeperiod, out)


def stoch(high: ArrayLike, low: ArrayLike, close: ArrayLike, fastk_period: int = 5, slowk_period: int = 3,
          slowk_matype: int = 0, slowd_period: int = 3, slowd_matype: int = 0, *, out: Any = None) -> Tuple[Output, Output]:
    """Slow stochastic: slow %K and slow %D with SMA smoothing (TA-Lib STOCH). Warm-up
    (fastk_period - 1) + (slowk_period - 1) + (slowd_period - 1)."""
    if slowk_matype != 0 or slowd_matype != 0:
        raise InputError("stoch: bt smooths %K and %D with the SMA only (slowk_matype = slowd_matype = 0)")
    h, l, c = _inputs((high, "high"), (low, "low"), (close, "close"))
    k, d = _outputs(out, 2, len(c))
    check(lib.bt_stoch(len(c), address(h), address(l), address(c), _period(fastk_period, "fastk_period"),
                       _period(slowk_period, "slowk_period"), _period(slowd_period, "slowd_period"), address(k), address(d)))
    return like(high, k), like(high, d)


def obv(real: ArrayLike, volume: ArrayLike, *, out: Any = None) -> Output:
    """On-balance volume of the close and the volume (TA-Lib OBV). No warm-up."""
    c, v = _inputs((real, "real"), (volume, "volume"))
    (o,) = _outputs(out, 1, len(c))
    check(lib.bt_obv(len(c), address(c), address(v), address(o)))
    return like(real, o)


def donchian(high: ArrayLike, low: ArrayLike, timeperiod: int = 20, *, out: Any = None) -> Tuple[Output, Output, Output]:
    """Donchian channels: upper (highest high), middle and lower (lowest low) over timeperiod bars
    (no TA-Lib function). Warm-up timeperiod - 1."""
    h, l = _inputs((high, "high"), (low, "low"))
    u, m, lo = _outputs(out, 3, len(h))
    check(lib.bt_donchian(len(h), address(h), address(l), _period(timeperiod, "timeperiod"), address(u), address(m), address(lo)))
    return like(high, u), like(high, m), like(high, lo)


def vwap(high: ArrayLike, low: ArrayLike, close: ArrayLike, volume: ArrayLike, timeperiod: int = 20, *,
         out: Any = None) -> Output:
    """Rolling volume-weighted average of the typical price over timeperiod bars (no TA-Lib
    function); NaN where the window's volume is 0. Warm-up timeperiod - 1."""
    h, l, c, v = _inputs((high, "high"), (low, "low"), (close, "close"), (volume, "volume"))
    (o,) = _outputs(out, 1, len(c))
    check(lib.bt_vwap(len(c), address(h), address(l), address(c), address(v), _period(timeperiod, "timeperiod"), address(o)))
    return like(high, o)


_LOOKBACK_DEFAULTS = {
    "sma": (30,), "ema": (30,), "wma": (30,), "rsi": (14,), "roc": (10,), "stddev": (5,), "macd": (12, 26, 9),
    "bbands": (5,), "atr": (14,), "willr": (14,), "cci": (14,), "adx": (14,), "stoch": (5, 3, 3), "obv": (),
    "donchian": (20,), "vwap": (20,),
}


def lookback(name: str, *params: int) -> int:
    """The warm-up of `name` with `params` (TA-Lib's defaults for those left out): the number of
    leading NaN outputs, TA-Lib's TA_NAME_Lookback. `lookback("macd")` is 33.

    Raises InputError for an unknown name or parameters the indicator refuses."""
    key = name.lower()
    if key not in _LOOKBACK_DEFAULTS:
        raise InputError(f"unknown indicator '{name}' (one of: {', '.join(_LOOKBACK_DEFAULTS)})")
    defaults = _LOOKBACK_DEFAULTS[key]
    if len(params) > len(defaults):
        raise InputError(f"{key} takes {len(defaults)} parameters, got {len(params)}")
    values = [_period(p, "period") for p in params] + list(defaults[len(params):])
    value = getattr(lib, f"bt_{key}_lookback")(*values)
    if value < 0:
        raise InputError(f"{key}: parameters {tuple(values)} are out of range")
    return int(value)


# TA-Lib's upper-case names, so `from btcore import ta as talib` reads like TA-Lib's wrapper.
SMA, EMA, WMA, RSI, ROC, STDDEV, MACD, BBANDS = sma, ema, wma, rsi, roc, stddev, macd, bbands
ATR, WILLR, CCI, ADX, STOCH, OBV = atr, willr, cci, adx, stoch, obv
del _lib


# A keyword a function does not take is a btcore.KeywordError (an InputError and a TypeError)
# naming the closest one (`sma(x, timeperiodd=5)`: did you mean 'timeperiod'?).
for _name in __all__:
    globals()[_name] = checked(globals()[_name])
del _name
