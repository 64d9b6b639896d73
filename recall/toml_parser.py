"""The one TOML reader: ``tomli`` where its compiled wheel is installed, else stdlib ``tomllib``.

``tomllib`` is ``tomli`` moved into the standard library; in Python 3.11 it runs as pure Python,
and reading the decks' TOML was a tenth of a first start over many custom cards. ``tomli``'s
wheels are compiled with mypyc: the same parser, the same TOML 1.0 grammar and the same error
messages, about three times faster (20,000 generated cards: 0.39 → 0.13 CPU s). The dependency
is bounded below 2.4, which reads TOML 1.1: a deck file must mean the same wherever recall runs,
with either parser, so the one in use never accepts a file the other refuses.

Text is bounded before it reaches either (:mod:`recall.toml_limits`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tomllib import TOMLDecodeError, loads
else:
    try:
        from tomli import TOMLDecodeError, loads
    except ImportError:  # an install without it (the dependency is declared): the same parser
        from tomllib import TOMLDecodeError, loads

__all__ = ["TOMLDecodeError", "loads", "parser_name"]


def parser_name() -> str:
    """Which parser is in use (``"tomli"`` or ``"tomllib"``), for a benchmark or a bug report."""
    module: Any = loads
    return str(module.__module__).split(".")[0]
