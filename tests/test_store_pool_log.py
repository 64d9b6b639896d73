"""A Ctrl-C that lands while SQLAlchemy's pool closes a connection prints no traceback.

The pool logs "Exception closing connection" with the interrupt's traceback before the
interrupt goes on to end recall with status 130 (seen once in the full suite: ``recall today``
interrupted at 0.6 s). recall's handler on the ``sqlalchemy.pool`` logger drops such a record
and prints every other warning or error as Python's last-resort handler would.
"""

from __future__ import annotations

import logging
import sys

import pytest

import recall.store.engine  # noqa: F401  (installs the handler)


def _record(error: BaseException) -> logging.LogRecord:
    try:
        raise error
    except BaseException:  # noqa: BLE001 - the record is built from whatever was raised
        return logging.getLogger("sqlalchemy.pool.impl.QueuePool").makeRecord(
            "sqlalchemy.pool.impl.QueuePool",
            logging.ERROR,
            __file__,
            1,
            "Exception closing connection %r",
            ("<conn>",),
            sys.exc_info(),
        )


@pytest.fixture
def recall_handler() -> logging.Handler:
    handlers = logging.getLogger("sqlalchemy.pool").handlers
    [handler] = [h for h in handlers if type(h).__name__ == "_UnlessInterrupted"]
    return handler


@pytest.fixture
def printed(monkeypatch: pytest.MonkeyPatch) -> list[logging.LogRecord]:
    """What the last-resort handler is handed, with no handler set up on the root logger."""
    seen: list[logging.LogRecord] = []

    class Catch(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record)

    monkeypatch.setattr(logging, "lastResort", Catch(logging.WARNING))
    return seen


def _no_root_handler(monkeypatch: pytest.MonkeyPatch) -> None:
    """As in a learner's run: no handler on the root logger (pytest adds its own when a test
    starts, after the fixtures)."""
    monkeypatch.setattr(logging.getLogger(), "handlers", [])


@pytest.mark.parametrize("interrupt", [KeyboardInterrupt(), SystemExit(130)])
def test_an_interrupt_logged_by_the_pool_is_not_printed(
    recall_handler: logging.Handler,
    printed: list[logging.LogRecord],
    interrupt: BaseException,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _no_root_handler(monkeypatch)
    recall_handler.handle(_record(interrupt))
    assert printed == []


def test_any_other_pool_error_is_printed_as_before(
    recall_handler: logging.Handler,
    printed: list[logging.LogRecord],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _no_root_handler(monkeypatch)
    record = _record(ValueError("disk I/O error"))
    recall_handler.handle(record)
    assert printed == [record]
