"""Row ─▶ record conversion: the store's edge.

Everything the store hands out is built here from a result row (:func:`stored_card`,
:func:`review_entry`, :func:`session_info`), and everything it writes about a card's scheduler
state is spelled here as columns (:func:`state_columns`, :func:`review_values`). Keeping the two
directions in one module means a column's meaning (``queue`` −3 is "buried", ``before_phase``
NULL is "off-schedule", times as epoch milliseconds) is decoded in one place, and no caller ever
holds a row.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from recall.scheduling.rating import Rating
from recall.scheduling.state import CardState, Phase, ReviewKind
from recall.store.models import (
    KIND_CRAM,
    KIND_LEARNING,
    KIND_NEW,
    KIND_RELEARNING,
    KIND_REVIEW,
    QUEUE_BURIED,
    QUEUE_LEARNING,
    QUEUE_NEW,
    QUEUE_RETIRED,
    QUEUE_REVIEW,
    QUEUE_SUSPENDED,
)
from recall.store.records import (
    DeckCounts,
    DeckSize,
    Memory,
    ReviewEntry,
    ReviewInput,
    SessionInfo,
    StoredCard,
)
from recall.verdicts import Status

#: ``review_log.kind`` as stored, per kind of review (the integers are the schema's).
KIND_CODES = {
    ReviewKind.NEW: KIND_NEW,
    ReviewKind.LEARNING: KIND_LEARNING,
    ReviewKind.REVIEW: KIND_REVIEW,
    ReviewKind.RELEARNING: KIND_RELEARNING,
    ReviewKind.OFF_SCHEDULE: KIND_CRAM,
}
_KINDS = {code: kind for kind, code in KIND_CODES.items()}


def review_kind(code: int) -> ReviewKind:
    """A stored ``review_log.kind`` as a :class:`ReviewKind`."""
    return _KINDS[code]


def stored_card(row: Any) -> StoredCard:
    """A row of :data:`recall.store.queries.CARD_SELECT` as a :class:`StoredCard`."""
    return StoredCard(
        db_id=row.card_id,
        deck=row.slug,
        id=row.key,
        kind=row.kind,
        topic=row.topic,
        sibling_group=row.sibling_group,
        state=CardState(
            phase=Phase(row.phase),
            step=row.step,
            stability=row.stability,
            difficulty=row.difficulty,
            due=row.due,
            last_review=row.last_review,
            reps=row.reps,
            lapses=row.lapses,
        ),
        suspended=bool(row.suspended),
        buried_until=row.buried_until if row.queue == QUEUE_BURIED else None,
        retired=row.queue == QUEUE_RETIRED,
    )


def deck_counts(decks: Sequence[Any], counts: Iterable[Any]) -> list[DeckCounts]:
    """Home-screen counts from :data:`recall.store.queries.DECKS` rows and the (deck slot,
    queue, count) rows of :func:`recall.store.queries.per_deck_counts`."""
    by_slot = {(slot, queue): n for slot, queue, n in counts}
    return [
        DeckCounts(
            deck=slug,
            name=name,
            new=int(by_slot.get((i, QUEUE_NEW), 0)),
            learning=int(by_slot.get((i, QUEUE_LEARNING), 0)),
            due=int(by_slot.get((i, QUEUE_REVIEW), 0)),
        )
        for i, (_deck_id, slug, name) in enumerate(decks)
    ]


def deck_sizes(decks: Sequence[Any], per_queue: Iterable[Any]) -> list[DeckSize]:
    """Deck sizes from :data:`recall.store.queries.DECKS` rows and the (deck key, queue,
    cards) rows of :data:`recall.store.queries.CARDS_PER_QUEUE`."""
    by = {(deck, queue): n for deck, queue, n in per_queue}
    out = []
    for deck_id, slug, name in decks:
        counts = {queue: n for (deck, queue), n in by.items() if deck == deck_id}
        retired = counts.pop(QUEUE_RETIRED, 0)
        suspended = counts.get(QUEUE_SUSPENDED, 0)
        out.append(DeckSize(slug, name, sum(counts.values()), suspended, retired))
    return out


def memory_arrays(rows: Sequence[Any]) -> Memory:
    """:func:`recall.store.queries.memory_query` rows as NumPy arrays (NULL becomes NaN)."""
    import numpy as np

    if not rows:
        empty = np.zeros(0)
        return Memory(empty.astype(np.int64), empty, empty)
    id_col, stability_col, last_col = zip(*rows, strict=True)
    ids = np.array(id_col, dtype=np.int64)
    stability = np.array(stability_col, dtype=np.float64)  # None becomes NaN
    last = np.array(last_col, dtype=np.float64)
    return Memory(ids, stability, last)


def state_columns(prefix: str, state: CardState, *, with_counters: bool = True) -> dict[str, Any]:
    """A scheduler state as columns named ``prefix + field`` (``before_``, ``after_`` in the
    review log, no prefix in ``card_state``)."""
    values = {
        f"{prefix}phase": int(state.phase),
        f"{prefix}step": state.step,
        f"{prefix}stability": state.stability,
        f"{prefix}difficulty": state.difficulty,
        f"{prefix}due": state.due,
        f"{prefix}last_review": state.last_review,
    }
    if with_counters:
        values[f"{prefix}lapses"] = state.lapses
    return values


def review_values(
    card_id: int,
    review: ReviewInput,
    kind: ReviewKind,
    before: CardState,
    after: CardState | None,
) -> dict[str, Any]:
    """The ``review_log`` row for a review of ``card_id`` (``after`` ``None``: off-schedule, so
    no state columns: the review changed nothing to undo)."""
    values: dict[str, Any] = {
        "card_id": card_id,
        "session_id": review.session_id,
        "reviewed_at": review.reviewed_at,
        "kind": KIND_CODES[kind],
        "rating": int(review.rating),
        "suggested": None if review.suggested is None else int(review.suggested),
        "verdict": str(review.verdict),  # the enum's value: what every row ever stored
        "diagnosis": review.diagnosis,
        "answer": review.answer,
        "duration_ms": max(0, round(review.seconds * 1000)),
        "answer_ms": None
        if review.answer_seconds is None
        else max(0, round(review.answer_seconds * 1000)),
        "hint_used": review.hint_used,
        "seed": review.seed,
        "params": json.dumps(review.params, sort_keys=True) if review.params else None,
    }
    if after is not None:
        values.update(state_columns("before_", before), **state_columns("after_", after))
        values["before_lapses"] = before.lapses
        values["before_last_review"] = before.last_review
        del values["after_last_review"], values["after_lapses"]
    return values


def review_entry(row: Any) -> ReviewEntry:
    """A ``review_log`` row joined with its deck slug and card key (see
    :func:`recall.store.queries.review_query`) as a :class:`ReviewEntry`. The state after the
    review is rebuilt from what the log keeps: its last review is the review itself, and a
    review-phase Again added a lapse."""
    log = row
    before = after = None
    if log.before_phase is not None:
        before = CardState(
            phase=Phase(log.before_phase),
            step=log.before_step,
            stability=log.before_stability,
            difficulty=log.before_difficulty,
            due=log.before_due,
            last_review=log.before_last_review,
            lapses=log.before_lapses or 0,
        )
    if log.after_phase is not None:
        after = CardState(
            phase=Phase(log.after_phase),
            step=log.after_step,
            stability=log.after_stability,
            difficulty=log.after_difficulty,
            due=log.after_due,
            last_review=log.reviewed_at,
            lapses=(log.before_lapses or 0) + int(log.before_phase == 2 and log.rating == 1),
        )
    return ReviewEntry(
        id=log.id,
        card_db_id=log.card_id,
        card_key=f"{row.slug}/{row.key}",
        session_id=log.session_id,
        reviewed_at=log.reviewed_at,
        kind=review_kind(log.kind),
        rating=Rating(log.rating),
        suggested=None if log.suggested is None else Rating(log.suggested),
        verdict=Status(log.verdict),
        diagnosis=log.diagnosis,
        answer=log.answer,
        seconds=log.duration_ms / 1000,
        hint_used=bool(log.hint_used),
        seed=log.seed,
        params=json.loads(log.params) if log.params else None,
        before=before,
        after=after,
        answer_seconds=None if log.answer_ms is None else log.answer_ms / 1000,
    )


def session_values(
    started_at: datetime,
    *,
    budget_kind: str,
    budget_value: float | None,
    mode: str,
    mode_count: int | None,
    decks: Sequence[str],
    topic: str | None,
    owner: tuple[str, int] | None,
) -> dict[str, Any]:
    """The ``sessions`` row of a session starting now (its deck and topic filter as JSON)."""
    spec = json.dumps({"decks": list(decks), "topic": topic}) if decks or topic else None
    host, pid = owner if owner is not None else (None, None)
    return {
        "started_at": started_at,
        "last_active_at": started_at,
        "budget_kind": budget_kind,
        "budget_value": budget_value,
        "mode": mode,
        "mode_count": mode_count,
        "filter": spec,
        "owner_host": host,
        "owner_pid": pid,
    }


def session_info(row: Any) -> SessionInfo:
    """A ``sessions`` row as a :class:`SessionInfo` (its JSON filter unpacked)."""
    spec = json.loads(row.filter) if row.filter else {}
    return SessionInfo(
        id=row.id,
        started_at=row.started_at,
        last_active_at=row.last_active_at,
        ended_at=row.ended_at,
        budget_kind=row.budget_kind,
        budget_value=row.budget_value,
        mode=row.mode,
        mode_count=row.mode_count,
        decks=tuple(spec.get("decks") or ()),
        topic=spec.get("topic"),
        owner_host=row.owner_host,
        owner_pid=row.owner_pid,
        set_aside_seconds=float(row.set_aside_seconds or 0.0),
    )


__all__ = [
    "KIND_CODES",
    "deck_counts",
    "deck_sizes",
    "memory_arrays",
    "review_entry",
    "review_kind",
    "review_values",
    "session_info",
    "session_values",
    "state_columns",
    "stored_card",
]
