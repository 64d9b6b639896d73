"""The time source every layer shares.

Everything that needs "now" takes a :data:`Clock` (a function returning an aware UTC datetime)
and defaults to :func:`utc_now`, so a test drives a whole session with a fake clock by passing
one function. Times are stored in UTC and shown in local time.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

#: A function returning the current moment as an aware UTC datetime.
Clock = Callable[[], datetime]


def utc_now() -> datetime:
    """The real clock: now, in UTC."""
    return datetime.now(UTC)


__all__ = ["Clock", "utc_now"]
