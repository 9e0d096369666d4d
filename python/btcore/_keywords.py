"""Keyword arguments checked against those a function takes: an unknown one is an InputError
(also a TypeError, as Python raises for an unexpected keyword) naming it and the closest known."""
from __future__ import annotations

import difflib
from typing import Iterable

from ._lib import InputError


class KeywordError(InputError, TypeError):
    """A keyword argument the function does not take; the message suggests the closest one."""


def check(function: str, given: Iterable[str], known: Iterable[str]) -> None:
    """Raises KeywordError for the first of `given` that is not in `known`."""
    known = list(known)
    for name in given:
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise KeywordError(f"{name}: {function}() has no keyword argument {name!r}{hint}")
