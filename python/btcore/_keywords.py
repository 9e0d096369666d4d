"""Keyword arguments checked against those a function takes: an unknown one is an InputError
(also a TypeError, as Python raises for an unexpected keyword) naming it and the closest known."""
from __future__ import annotations

import difflib
import functools
import inspect
from typing import Any, Callable, Iterable, TypeVar

from ._lib import InputError


class KeywordError(InputError, TypeError):
    """A keyword argument the function does not take; the message suggests the closest one."""


def check(function: str, given: Iterable[str], known: Iterable[str]) -> None:
    """Raises KeywordError for the first of `given` that is not in `known`."""
    known = list(known)
    for name in given:
        if name not in known:
            # The nearest by spelling, else one the name begins (fastk for fastk_period).
            close = difflib.get_close_matches(name, known, n=1) or [k for k in known if k.startswith(name)][:1]
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise KeywordError(f"{name}: {function}() has no keyword argument {name!r}{hint}")


F = TypeVar("F", bound=Callable[..., Any])


def checked(function: F) -> F:
    """`function` with its keyword arguments checked first: one it does not take is a
    KeywordError naming it and the closest it takes, instead of Python's bare TypeError. A
    function with **kwargs checks those itself (`check`)."""
    parameters = inspect.signature(function).parameters.values()
    if any(p.kind == inspect.Parameter.VAR_KEYWORD for p in parameters):
        return function
    known = [p.name for p in parameters if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)]
    name = function.__qualname__.replace(".__init__", "")

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        if kwargs:
            check(name, kwargs, known)
        return function(*args, **kwargs)

    return call  # type: ignore[return-value]
