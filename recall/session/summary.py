"""The end-of-session figures (:class:`SessionSummary`), computed from the review log.

The summary is read back from the store rather than kept while drilling, so a session resumed
after a crash, or undone into, sums up exactly what was committed. A missed card comes with the
answer to show (:func:`right_answer`), whatever its kind.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING, Any

from recall.analytics import current_streak, due_counts, right_first_time
from recall.cards.model import Card, CardKind
from recall.config import Settings
from recall.mistakes import MISSED_POINT, counts_as_mistake
from recall.scheduling.rating import Rating
from recall.scheduling.state import ReviewKind, is_leech

if TYPE_CHECKING:
    from recall.store import ReviewEntry, SessionInfo, Store


@dataclass(frozen=True)
class MissedCard:
    """A card failed in the session, with the right answer to show."""

    key: str
    prompt: str
    right_answer: str
    typed: str | None
    diagnosis: str | None
    #: A numeric card's answer at the values it was asked with (``""`` for other kinds, or a
    #: question that cannot be replayed): the number the learner should have typed.
    value: str = ""


@dataclass(frozen=True)
class SessionSummary:
    """The end-of-session figures, computed from the log."""

    session_id: int
    mode: str
    started_at: datetime
    ended_at: datetime | None
    reviews: int
    cards: int
    by_kind: dict[str, int]  # distinct cards by what their first review was
    first_try_accuracy: float | None
    #: The median time to answer: each review's answer time (shown, or asked again after a
    #: verdict was taken back, to the answer given), never its time reading the verdict, an
    #: answer taken back, a skip or an undone review (all of which ``seconds_on_cards`` and
    #: the set-aside time count). A review logged before answer times were kept counts its
    #: time on screen.
    median_answer_seconds: float | None
    seconds_on_cards: float  # the reviews' whole time on screen
    missed: tuple[MissedCard, ...]
    mistakes: tuple[tuple[str, int], ...]
    leeches: tuple[str, ...]
    due_tomorrow: int  # falling due tomorrow: the forecast's tomorrow
    due_next_7_days: int  # today (overdue included) and the 7 days after it
    streak_days: int
    due_today: int = 0  # still due today, overdue included (the forecast's today)
    #: Explanations that left key points out: (card key, the model sentence of each point
    #: missed), from each card's last checked explanation in the session.
    missed_points: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["started_at"] = self.started_at.isoformat()
        out["ended_at"] = self.ended_at.isoformat() if self.ended_at else None
        return out


#: The summary's name for each kind of review (its ``by_kind`` keys).
KIND_NAMES = {
    ReviewKind.NEW: "new",
    ReviewKind.LEARNING: "learning",
    ReviewKind.REVIEW: "review",
    ReviewKind.RELEARNING: "relearn",
    ReviewKind.OFF_SCHEDULE: "off_schedule",
}


def _asked(card: Card, entry: ReviewEntry) -> str:
    """The prompt as the learner read it when they missed it: a numeric card's placeholders
    filled with the values logged with that review, a cloze card's statement with its blank."""
    from recall.grading.question import asked_prompt

    values = {
        name: value
        for name, value in (entry.params or {}).items()
        if isinstance(value, int | float) and not isinstance(value, bool)
    }
    return asked_prompt(card, values)


def _value_asked(card: Card, entry: ReviewEntry) -> str:
    """A numeric card's answer at the values logged with the review (``""`` for other kinds, or
    when the logged question cannot be computed again)."""
    if card.kind is not CardKind.NUMERIC:
        return ""
    from recall.errors import RecallError
    from recall.grading.question import Question

    try:
        return Question.replay(card, entry).expected_text
    except RecallError:
        return ""


def summarise(
    store: Store,
    info: SessionInfo,
    cards: Mapping[str, Card],
    *,
    settings: Settings,
    now: datetime,
    tz: tzinfo | None,
) -> SessionSummary:
    """The figures of session ``info``, from its log; ``cards`` (by ``deck/card`` key) give the
    prompts and right answers of the missed ones."""
    entries = store.reviews(session_id=info.id)
    first: dict[str, ReviewEntry] = {}
    for entry in entries:
        first.setdefault(entry.card_key, entry)
    by_kind = Counter(KIND_NAMES[e.kind] for e in first.values())
    answer_times = [e.seconds if e.answer_seconds is None else e.answer_seconds for e in entries]
    # Keys keep the order of each card's first miss; values end as its last miss.
    last_wrong = {e.card_key: e for e in entries if e.rating == Rating.Again}
    missed = tuple(
        MissedCard(
            key=k,
            prompt=_asked(cards[k], last_wrong[k]) if k in cards else "",
            right_answer=right_answer(cards[k]) if k in cards else "",
            typed=last_wrong[k].answer,
            diagnosis=last_wrong[k].diagnosis,
            value=_value_asked(cards[k], last_wrong[k]) if k in cards else "",
        )
        for k in last_wrong
    )
    mistakes = Counter(
        e.diagnosis for e in entries if e.diagnosis and counts_as_mistake(e.diagnosis, e.verdict)
    )
    explained = {e.card_key: e for e in entries if e.diagnosis == MISSED_POINT and e.answer}
    missed_points = tuple(
        (key, points)
        for key, entry in explained.items()
        if key in cards and (points := points_missed(cards[key], entry.answer or ""))
    )
    threshold = settings.leech_threshold
    stored = store.cards_by_key(first) if first else {}
    leeches = tuple(k for k, c in stored.items() if is_leech(c.state.lapses, threshold))
    today, tomorrow, week = due_counts(store, now, settings.day_rollover_hour, tz)
    return SessionSummary(
        session_id=info.id,
        mode=info.mode,
        started_at=info.started_at,
        ended_at=info.ended_at,
        reviews=len(entries),
        cards=len(first),
        by_kind={
            name: by_kind.get(name, 0)
            for name in ("new", "review", "relearn", "learning", "off_schedule")
        },
        first_try_accuracy=(sum(right_first_time(e) for e in first.values()) / len(first))
        if first
        else None,
        median_answer_seconds=statistics.median(answer_times) if answer_times else None,
        seconds_on_cards=sum(e.seconds for e in entries),
        missed=missed,
        mistakes=tuple(mistakes.most_common(5)),
        leeches=leeches,
        due_tomorrow=tomorrow,
        due_next_7_days=week,
        streak_days=current_streak(store, now, settings.day_rollover_hour, tz),
        due_today=today,
        missed_points=missed_points,
    )


def points_missed(card: Card, typed: str) -> tuple[str, ...]:
    """The model sentences of the key points ``typed`` left out (the check is deterministic, so
    the log's typed text gives back what the learner was shown)."""
    from recall.grading.explain import check_explanation

    if not card.points:
        return ()
    result = check_explanation(card, typed)
    return tuple(outcome.say for outcome in result.outcomes if not outcome.made)


def right_answer(card: Card) -> str:
    """The answer to show for a missed card, whatever its kind."""
    if card.kind is CardKind.FACT:
        if card.value_range is not None:
            low, high = card.value_range
            text = f"{low:g}-{high:g}"
        else:
            text = f"{card.value:g}" if card.value is not None else ""
        return f"{text} {card.unit}".strip()
    if card.kind is CardKind.REVERSE or (card.kind is CardKind.CLOZE and not card.answer):
        return card.accept[0] if card.accept else ""
    if card.kind is CardKind.EXPLAIN:
        return card.model_answer
    if card.kind is CardKind.NUMERIC and card.unit:
        return f"{card.answer} {card.unit}"
    return card.answer


__all__ = ["KIND_NAMES", "MissedCard", "SessionSummary", "right_answer", "summarise"]
