"""A drill session: the queue, the budget, ratings applied and committed, undo, the summary.

The TUI drives it; so can a script or a test, with an injectable clock::

    session = Session.start(store, cards, budget=Budget.minutes(10), clock=clock)
    while (card := session.next_card()) is not None:
        ...  # show the card, grade the typed answer (the formula engine, not us)
        session.record(verdict=Status.CORRECT, rating=Rating.Good, suggested=Rating.Good)
    summary = session.summary()

It takes verdicts as :class:`recall.verdicts.Status` and never imports the formula engine.
Every :meth:`Session.record` commits the review (log row and next state, one transaction)
before it returns, so whatever happens next, an answered card is never lost;
:meth:`Session.recover` picks up a session that never ended (a crash, a closed terminal) with
its budget and history.

One concept per module:

* :mod:`.mode`: :class:`Mode`, what a session draws from. ``normal`` follows the schedule
  (limits, ordering, sibling burying); ``cram`` (every card), ``weakest`` (the N cards least
  likely to be recalled now) and ``missed`` (the cards failed in the last session) drill
  off-schedule: reviews are logged, the schedule is untouched;
* :mod:`.queues`: which card comes next, per mode, checked against the store before it is shown;
* :mod:`.budget`: :class:`Budget` and the card clock (pauses do not count);
* :mod:`.recording`: the rating checks, :class:`Recorded` (with ``became_leech``), undo's memory;
* :mod:`.ownership`: :class:`Owner`, when a session left open may be resumed, and when another
  window's claim on a card no longer stands (two windows never answer one card at once);
* :mod:`.summary`: :class:`SessionSummary` and the right answer of a missed card;
* :mod:`.session`: the :class:`Session` facade that strings them together.

Names are loaded on first use, so ``from recall.session import Mode`` (the TUI, before its first
frame) does not import the store and SQLAlchemy that :class:`Session` needs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from recall.session.budget import Budget, Stopwatch
    from recall.session.mode import Mode
    from recall.session.ownership import (
        CLAIM_EXPIRY,
        RESUME_WINDOW,
        SILENT_OWNER,
        Owner,
        owner_gone,
        pid_alive,
    )
    from recall.session.queues import LEARN_AHEAD, LEARNING_HEADROOM, MAX_QUEUE
    from recall.session.recording import Recorded
    from recall.session.session import Session
    from recall.session.summary import MissedCard, SessionSummary, right_answer

#: Where each public name lives.
_HOMES = {
    "Budget": "budget",
    "Stopwatch": "budget",
    "Mode": "mode",
    "CLAIM_EXPIRY": "ownership",
    "RESUME_WINDOW": "ownership",
    "SILENT_OWNER": "ownership",
    "Owner": "ownership",
    "owner_gone": "ownership",
    "pid_alive": "ownership",
    "LEARN_AHEAD": "queues",
    "LEARNING_HEADROOM": "queues",
    "MAX_QUEUE": "queues",
    "Recorded": "recording",
    "Session": "session",
    "MissedCard": "summary",
    "SessionSummary": "summary",
    "right_answer": "summary",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


__all__ = [
    "Budget",
    "CLAIM_EXPIRY",
    "LEARNING_HEADROOM",
    "LEARN_AHEAD",
    "MAX_QUEUE",
    "MissedCard",
    "Mode",
    "Owner",
    "RESUME_WINDOW",
    "Recorded",
    "SILENT_OWNER",
    "Session",
    "SessionSummary",
    "Stopwatch",
    "owner_gone",
    "pid_alive",
    "right_answer",
]
