"""ctypes over bt.h: the library, its structs and prototypes, and errors as exceptions.

The library is found at $BT_LIB when set (a path to libbt.so), else beside this file (the copy
the wheel carries). Every function is declared with its argument and result types, so a wrong
call fails in Python before it reaches C. ctypes releases the GIL during each call, so calls
from several threads run in parallel.
"""
from __future__ import annotations

import ctypes
import json
import os
from ctypes import POINTER, c_char_p, c_double, c_int, c_int32, c_int64, c_size_t, c_uint8, c_void_p
from pathlib import Path
from typing import Any, Callable, Optional, Sequence, Tuple

import numpy as np


class Error(Exception):
    """Any failure reported by bt. `status` is the bt_status code."""

    status: int = 0

    def __init__(self, message: str, status: int = 0):
        super().__init__(message)
        self.status = status


class InputError(Error, ValueError):
    """A bad value: a period, a setting, an expression, a name, a bar, a length. The message
    reads like bt's command line: what, where and why."""


class StoreError(Error, OSError):
    """The candle store failed: damaged, locked or unreadable."""


class InternalError(Error):
    """A failure inside bt that is not the caller's."""


BT_OK, BT_E_INPUT, BT_E_ARGUMENT, BT_E_LENGTH, BT_E_STORE, BT_E_INTERNAL, BT_E_CANCELLED = range(7)


def _library_path() -> Path:
    given = os.environ.get("BT_LIB")
    if given:
        path = Path(given)
        if not path.exists():
            raise ImportError(f"btcore: BT_LIB={given} does not exist")
        return path
    here = Path(__file__).resolve().parent / "libbt.so"
    if here.exists():
        return here
    raise ImportError("btcore: libbt.so not found: install the package from a clone after `make lib` "
                      "(pip install ./python), or set BT_LIB to the library's path")


path = _library_path()
lib = ctypes.CDLL(str(path))

P_DOUBLE = c_void_p  # arrays are passed as addresses (ndarray.ctypes.data): no conversion per call
P_INT64 = c_void_p
P_UINT8 = c_void_p


class Bars(ctypes.Structure):
    _fields_ = [("n", c_size_t), ("time", P_INT64), ("open", P_DOUBLE), ("high", P_DOUBLE), ("low", P_DOUBLE),
                ("close", P_DOUBLE), ("volume", P_DOUBLE), ("symbol", c_char_p), ("timeframe", c_char_p)]


class Signals(ctypes.Structure):
    _fields_ = [("entries", P_UINT8), ("exits", P_UINT8), ("short_entries", P_UINT8), ("short_exits", P_UINT8)]


def _execution_settings() -> list:
    """bt_config's fields as the library describes them (bt_execution_settings): names, C types
    and, for the fields that carry an execution setting, its keyword, kind, default and help."""
    function = lib.bt_execution_settings
    function.restype = c_char_p
    function.argtypes = []
    return json.loads(function().decode("utf-8"))["fields"]


#: bt_config's fields in order; those with a "setting" are the execution settings, each a
#: keyword of btcore.backtest.
FIELDS = _execution_settings()

_C_TYPES = {"double": c_double, "int": c_int, "size_t": c_size_t, "char*": c_char_p}


def config_class(fields: list) -> type:
    """bt_config as a ctypes Structure laid out from `fields` (the library's description), so a
    setting added to the library is here with its field."""
    return type("Config", (ctypes.Structure,), {"_fields_": [(f["name"], _C_TYPES[f["type"]]) for f in fields]})


Config = config_class(FIELDS)


class SeriesInfo(ctypes.Structure):
    _fields_ = [("symbol", c_char_p), ("timeframe", c_char_p), ("first", c_int64), ("last", c_int64), ("bars", c_int64)]


#: bt_trade and bt_fill as numpy records, so trades and fills are copied straight into arrays.
TRADE_DTYPE = np.dtype([
    ("side", np.int32), ("exit_kind", np.int32), ("entry_index", np.int64), ("exit_index", np.int64),
    ("entry_time", np.int64), ("exit_time", np.int64), ("quantity", np.float64), ("entry_price", np.float64),
    ("exit_price", np.float64), ("slippage_bps", np.float64), ("fees", np.float64), ("pnl", np.float64),
    ("return", np.float64), ("is_open", np.int32), ("reserved", np.int32),
], align=True)
FILL_DTYPE = np.dtype([
    ("index", np.int64), ("time", np.int64), ("side", np.int32), ("is_partial", np.int32),
    ("reference_price", np.float64), ("vwap", np.float64), ("slippage_bps", np.float64), ("quantity_asked", np.float64),
    ("quantity_filled", np.float64), ("fee", np.float64), ("spread_cost", np.float64), ("impact_cost", np.float64),
    ("depth_available", np.float64),
], align=True)

HANDLE = c_void_p
P_HANDLE = POINTER(c_void_p)
STRINGS = POINTER(c_char_p)


def _declare(name: str, result: Any, *arguments: Any) -> None:
    function = getattr(lib, name)
    function.restype = result
    function.argtypes = list(arguments)


# Errors and versions
_declare("bt_last_error", c_char_p)
_declare("bt_last_status", c_int)
_declare("bt_version", c_char_p)
_declare("bt_abi_version", c_int)

# Indicators: (n, inputs..., parameters..., outputs...)
ONE_SERIES = ["sma", "ema", "wma", "rsi", "roc", "stddev"]
THREE_SERIES = ["atr", "willr", "cci", "adx"]
for _name in ONE_SERIES:
    _declare(f"bt_{_name}", c_int, c_size_t, P_DOUBLE, c_int, P_DOUBLE)
    _declare(f"bt_{_name}_lookback", c_int, c_int)
for _name in THREE_SERIES:
    _declare(f"bt_{_name}", c_int, c_size_t, P_DOUBLE, P_DOUBLE, P_DOUBLE, c_int, P_DOUBLE)
    _declare(f"bt_{_name}_lookback", c_int, c_int)
_declare("bt_macd", c_int, c_size_t, P_DOUBLE, c_int, c_int, c_int, P_DOUBLE, P_DOUBLE, P_DOUBLE)
_declare("bt_macd_lookback", c_int, c_int, c_int, c_int)
_declare("bt_bbands", c_int, c_size_t, P_DOUBLE, c_int, c_double, P_DOUBLE, P_DOUBLE, P_DOUBLE)
_declare("bt_bbands_lookback", c_int, c_int)
_declare("bt_stoch", c_int, c_size_t, P_DOUBLE, P_DOUBLE, P_DOUBLE, c_int, c_int, c_int, P_DOUBLE, P_DOUBLE)
_declare("bt_stoch_lookback", c_int, c_int, c_int, c_int)
_declare("bt_obv", c_int, c_size_t, P_DOUBLE, P_DOUBLE, P_DOUBLE)
_declare("bt_obv_lookback", c_int)
_declare("bt_donchian", c_int, c_size_t, P_DOUBLE, P_DOUBLE, c_int, P_DOUBLE, P_DOUBLE, P_DOUBLE)
_declare("bt_donchian_lookback", c_int, c_int)
_declare("bt_vwap", c_int, c_size_t, P_DOUBLE, P_DOUBLE, P_DOUBLE, P_DOUBLE, c_int, P_DOUBLE)
_declare("bt_vwap_lookback", c_int, c_int)

# Expressions
_declare("bt_expr_compile", c_int, c_char_p, STRINGS, c_size_t, P_HANDLE)
_declare("bt_expr_is_condition", c_int, HANDLE)
_declare("bt_expr_eval", c_int, HANDLE, POINTER(Bars), P_DOUBLE)
_declare("bt_expr_signal", c_int, HANDLE, POINTER(Bars), P_UINT8)
_declare("bt_expr_free", None, HANDLE)
_declare("bt_expr_compile_other", c_int, c_char_p, STRINGS, c_size_t, HANDLE, P_HANDLE)

# Other series (what rules read with @)
_declare("bt_other_new", c_int, c_char_p, c_char_p, P_HANDLE)
_declare("bt_other_add", c_int, HANDLE, c_char_p, POINTER(Bars))
_declare("bt_other_free", None, HANDLE)

# Strategies
_declare("bt_strategy_named", c_int, c_char_p, c_char_p, P_HANDLE)
_declare("bt_strategy_rules", c_int, c_char_p, c_char_p, c_char_p, c_char_p, STRINGS, c_size_t, P_HANDLE)
_declare("bt_strategy_signals", c_int, HANDLE, STRINGS, c_size_t, POINTER(Bars), P_UINT8, P_UINT8, P_UINT8, P_UINT8,
         POINTER(c_int))
_declare("bt_strategy_reading", c_int, HANDLE, HANDLE, P_HANDLE)
_declare("bt_strategy_reads_other", c_int, HANDLE)
_declare("bt_strategy_signal_warnings", c_int, HANDLE, STRINGS, c_size_t, POINTER(Bars), c_char_p, c_size_t,
         POINTER(c_size_t))
_declare("bt_strategy_free", None, HANDLE)

# Backtests and results
_declare("bt_config_init", None, POINTER(Config))
_declare("bt_backtest", c_int, POINTER(Bars), POINTER(Signals), POINTER(Config), P_HANDLE)
_declare("bt_backtest_strategy", c_int, POINTER(Bars), HANDLE, STRINGS, c_size_t, POINTER(Config), P_HANDLE)
_declare("bt_backtest_series", c_int, HANDLE, POINTER(Signals), POINTER(Config), P_HANDLE)
_declare("bt_backtest_strategy_series", c_int, HANDLE, HANDLE, STRINGS, c_size_t, POINTER(Config), P_HANDLE)
_declare("bt_result_bars", c_size_t, HANDLE)
_declare("bt_result_window", c_int, HANDLE, POINTER(c_size_t), POINTER(c_size_t))
_declare("bt_result_equity", c_int, HANDLE, P_DOUBLE, P_DOUBLE, P_DOUBLE)
_declare("bt_exit_kind_name", c_char_p, c_int)
_declare("bt_result_trade_count", c_size_t, HANDLE)
_declare("bt_result_trades", c_int, HANDLE, c_void_p, c_size_t)
_declare("bt_result_trade_charges", c_int, HANDLE, P_DOUBLE, P_DOUBLE, P_DOUBLE, c_size_t)
_declare("bt_result_fill_count", c_size_t, HANDLE)
_declare("bt_result_fills", c_int, HANDLE, c_void_p, c_size_t)
_declare("bt_result_stat", c_int, HANDLE, c_char_p, POINTER(c_double))
_declare("bt_stat_count", c_size_t)
_declare("bt_stat_name", c_char_p, c_size_t)
_declare("bt_result_json", c_int, HANDLE, c_int, ctypes.c_char_p, c_size_t, POINTER(c_size_t))
_declare("bt_result_json_with", c_int, HANDLE, c_int, c_int, ctypes.c_char_p, c_size_t, POINTER(c_size_t))
_declare("bt_result_set_monte_carlo", c_int, HANDLE, c_char_p, c_char_p, c_char_p)
_declare("bt_result_stats_json", c_int, HANDLE, c_int, ctypes.c_char_p, c_size_t, POINTER(c_size_t))
_declare("bt_result_report", c_int, HANDLE, c_char_p, c_int, c_int)
_declare("bt_result_html", c_int, HANDLE, c_int, ctypes.c_char_p, c_size_t, POINTER(c_size_t))
_declare("bt_result_free", None, HANDLE)

# Many runs
_declare("bt_text_copy", c_int, HANDLE, ctypes.c_char_p, c_size_t, POINTER(c_size_t))
_declare("bt_text_free", None, HANDLE)
_declare("bt_sweep", c_int, POINTER(Bars), c_char_p, HANDLE, STRINGS, c_size_t, STRINGS, c_size_t, STRINGS, c_size_t,
         POINTER(Config), c_char_p, POINTER(c_int), P_HANDLE)
_declare("bt_screen", c_int, STRINGS, c_size_t, HANDLE, STRINGS, c_size_t, STRINGS, c_size_t, POINTER(Config), c_char_p,
         P_HANDLE)
_declare("bt_screen_bars", c_int, POINTER(Bars), c_size_t, HANDLE, STRINGS, c_size_t, STRINGS, c_size_t, POINTER(Config),
         c_char_p, P_HANDLE)
_declare("bt_where", c_int, STRINGS, c_size_t, c_char_p, STRINGS, c_size_t, STRINGS, c_size_t, POINTER(Config), P_HANDLE)
_declare("bt_portfolio", c_int, c_void_p, c_size_t, STRINGS, c_size_t, HANDLE, STRINGS, c_size_t, STRINGS, c_size_t,
         POINTER(Config), c_int, P_HANDLE)

# The store
_declare("bt_store_open", c_int, c_char_p, P_HANDLE)
_declare("bt_store_list", c_int, HANDLE, POINTER(c_size_t))
_declare("bt_store_series", c_int, HANDLE, c_size_t, POINTER(SeriesInfo))
_declare("bt_store_read", c_int, HANDLE, c_char_p, c_char_p, POINTER(c_int64), POINTER(c_int64), P_HANDLE)
_declare("bt_series_count", c_size_t, HANDLE)
_declare("bt_series_symbol", c_char_p, HANDLE)
_declare("bt_series_timeframe", c_char_p, HANDLE)
_declare("bt_series_copy", c_int, HANDLE, P_INT64, P_DOUBLE, P_DOUBLE, P_DOUBLE, P_DOUBLE, P_DOUBLE)
_declare("bt_series_from_bars", c_int, POINTER(Bars), P_HANDLE)
_declare("bt_series_free", None, HANDLE)
_declare("bt_store_close", None, HANDLE)

ERRORS = _ERRORS = {BT_E_INPUT: InputError, BT_E_ARGUMENT: InputError, BT_E_LENGTH: InputError, BT_E_STORE: StoreError,
           BT_E_INTERNAL: InternalError}


def check(status: int) -> None:
    """Raises the exception for a failed call's status, with bt_last_error()'s message."""
    if status != BT_OK:
        message = lib.bt_last_error().decode("utf-8", "replace")
        raise _ERRORS.get(status, InternalError)(message, status)


def text(value: Any, name: str) -> Optional[bytes]:
    """`value` as the C string bt takes (NUL-terminated UTF-8), None as NULL: a str, a path
    (os.PathLike), bytes holding UTF-8, or anything else as str(value).

    Raises:
        InputError naming the argument `name` for a NUL character (C would end the string there
        and bt would silently read only the text before it) and for text that is not UTF-8 (a
        lone surrogate in a str, invalid bytes)."""
    if value is None:
        return None
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if isinstance(value, (bytes, bytearray)):
        try:
            value = bytes(value).decode("utf-8")
        except UnicodeDecodeError as e:
            raise InputError(f"{name}: not UTF-8 at byte {e.start} (0x{value[e.start]:02X}): bt takes UTF-8 text",
                             BT_E_INPUT) from None
    elif not isinstance(value, str):
        value = str(value)
    nul = value.find("\0")
    if nul >= 0:
        raise InputError(f"{name} {_excerpt(value)}: a NUL character at position {nul}; bt's C library reads a string "
                         "up to its first NUL and would silently lose the rest", BT_E_INPUT)
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError as e:
        raise InputError(f"{name} {_excerpt(value)}: {value[e.start]!r} at position {e.start} is not a Unicode "
                         "character (a lone surrogate) and has no UTF-8", BT_E_INPUT) from None


def text_of(value: Any, name: str) -> str:
    """`text(value, name)` back as str (the checked text of a value that is not None)."""
    encoded = text(value, name)
    return "" if encoded is None else encoded.decode()


def _excerpt(value: str, limit: int = 60) -> str:
    """`value` quoted for a message (escapes shown), cut to about `limit` characters."""
    return repr(value) if len(value) <= limit else repr(value[:limit]) + "..."


def strings(values: Sequence[Tuple[str, str]]) -> Tuple[Any, int]:
    """(argument name, text) pairs as a C array of C strings (and its length), kept alive by the
    returned array; each checked by `text`."""
    array = (c_char_p * len(values))(*[text(v, name) for name, v in values])
    return array, len(values)


def address(array: np.ndarray) -> int:
    """The address of a C-contiguous array's first element (0 for an empty array)."""
    return array.ctypes.data if array.size else 0


class Handle:
    """Owns a bt handle and frees it once, with its _free function."""

    __slots__ = ("value", "_free")

    def __init__(self, value: Optional[int], free: Callable[[int], Any]) -> None:
        self.value = value
        self._free = free

    def close(self) -> None:
        if self.value:
            self._free(self.value)
            self.value = None

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - the interpreter may be shutting down
            pass


def read_text(handle: Handle) -> str:
    """The text of a bt_text handle (bt_text_copy), as str."""
    length = c_size_t()
    check(lib.bt_text_copy(handle.value, None, 0, ctypes.byref(length)))
    buffer = ctypes.create_string_buffer(length.value + 1)
    check(lib.bt_text_copy(handle.value, buffer, length.value + 1, ctypes.byref(length)))
    return buffer.raw[:length.value].decode("utf-8")


def new_handle(call: Callable[[Any], int], free: Callable[[int], Any]) -> Handle:
    """Runs `call(out)` with an out-pointer for a handle; raises on failure."""
    out = c_void_p()
    check(call(ctypes.byref(out)))
    return Handle(out.value, free)
