"""Everything the stats screen and ``recall stats --json`` show about the memory model, at once.

This is where the pure pieces meet the shapes the rest of recall holds: review-log entries become
:class:`~recall.scheduling.history.ReviewEvent` (through :func:`events_from_log`, which reads the
attributes every store record has rather than importing the store), card states become
:class:`~recall.scheduling.simulation.PlannedCard`, and :func:`model_health` bundles the
calibration bins, the verdict and retention per deck and topic into one report.

The learner's own habits feed the planner too: :func:`rating_shares` counts how they grade a
card the first time and when they recall it; their pace comes from
:func:`recall.scheduling.today.pace_from_log`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, tzinfo
from typing import Any, Protocol

from recall.memory.sentences import verdict_sentence
from recall.scheduling.calibration import (
    Bias,
    CalibrationBin,
    GroupRetention,
    Health,
    Verdict,
    by_deck,
    by_topic,
    calibration_bins,
    calibration_bins_of,
    group_retention,
    group_retention_of,
    verdict,
    verdict_of,
)
from recall.scheduling.day import study_date
from recall.scheduling.evaluation import predict
from recall.scheduling.history import History, ReviewEvent
from recall.scheduling.rating import Rating
from recall.scheduling.review_row import RevlogRow
from recall.scheduling.review_table import ReviewTable, group_codes, score_table
from recall.scheduling.simulation import FIRST_RATINGS, PASS_RATINGS, PlannedCard
from recall.scheduling.state import CardState

#: Rating shares are the learner's own once they rest on this many ratings; before, the
#: simulator's defaults (from many Anki users) stand in.
MIN_RATINGS_FOR_SHARES = 50


class ScheduledEntry(Protocol):
    """A scheduled review as :func:`events_from_scheduled` reads it (the store's
    ``ScheduledReview`` and ``ReviewEntry`` both have these)."""

    @property
    def card_key(self) -> str: ...
    @property
    def reviewed_at(self) -> datetime: ...
    @property
    def rating(self) -> int: ...
    @property
    def seconds(self) -> float: ...


class LogEntry(ScheduledEntry, Protocol):
    """What :func:`events_from_log` reads from a review-log record (the store's ``ReviewEntry``
    has these): a scheduled review plus the state after it."""

    @property
    def after(self) -> CardState | None: ...


#: Rating by its number, looked up rather than built: 100k enum calls are a visible cost.
_RATINGS = {int(r): r for r in Rating}


def events_from_scheduled(
    entries: Iterable[ScheduledEntry], topic_of: Mapping[str, str] | None = None
) -> list[ReviewEvent]:
    """Scheduled reviews as events, ratings outside 1..4 left out. The deck is the part of
    the card key before ``/``; the topic comes from ``topic_of`` (card key ─▶ topic)."""
    topics = topic_of or {}
    out = []
    for entry in entries:
        rating = _RATINGS.get(entry.rating)
        if rating is None:
            continue
        key = entry.card_key
        deck = key.partition("/")[0]
        out.append(
            ReviewEvent(
                card=key,
                reviewed_at=entry.reviewed_at,
                rating=rating,
                seconds=entry.seconds if entry.seconds > 0 else None,
                deck=deck or None,
                topic=topics.get(key),
            )
        )
    return out


def events_from_log(
    entries: Iterable[LogEntry], topic_of: Mapping[str, str] | None = None
) -> list[ReviewEvent]:
    """Scheduled reviews of the log as events. Off-schedule reviews (no state after them:
    cramming) are left out, as are ratings outside 1..4. The deck is the part of the card key
    before ``/``; the topic comes from ``topic_of`` (card key ─▶ topic) when given."""
    return events_from_scheduled((e for e in entries if e.after is not None), topic_of)


def planned_card(
    state: CardState, now: datetime, rollover_hour: int = 4, tz: tzinfo | None = None
) -> PlannedCard:
    """A card's state as the planner needs it, in study days from ``now``'s study day."""
    if state.is_new or state.stability is None or state.last_review is None:
        return PlannedCard()
    today = study_date(now, rollover_hour, tz)
    since = (today - study_date(state.last_review, rollover_hour, tz)).days
    due = 0 if state.due is None else (study_date(state.due, rollover_hour, tz) - today).days
    return PlannedCard(
        stability=state.stability,
        difficulty=state.difficulty,
        days_since_review=max(0, since),
        due_in_days=due,
    )


def rating_shares(
    history: History, minimum: int = MIN_RATINGS_FOR_SHARES
) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """(first ratings Again..Easy, passing ratings Hard..Easy) as shares, the learner's own when
    each rests on ``minimum`` ratings, else the simulator defaults."""
    first: Counter[int] = Counter()
    passing: Counter[int] = Counter()
    for card in history.cards:
        first[int(card.events[0].rating)] += 1
        for target in card.targets():
            rating = int(card.events[target.index].rating)
            if rating != Rating.Again:
                passing[rating] += 1
    return _shares(first, passing, minimum)


def rating_shares_of_table(
    table: ReviewTable, minimum: int = MIN_RATINGS_FOR_SHARES
) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """:func:`rating_shares` of a history held as columns."""
    first = Counter(table.rating[table.position == 0].tolist())
    passed = table.rating[table.targets & (table.rating != int(Rating.Again))]
    return _shares(first, Counter(passed.tolist()), minimum)


def _shares(
    first: Counter[int], passing: Counter[int], minimum: int
) -> tuple[tuple[float, ...], tuple[float, ...]]:
    first_total, pass_total = sum(first.values()), sum(passing.values())
    first_shares = (
        tuple(first[int(r)] / first_total for r in Rating)
        if first_total >= minimum
        else FIRST_RATINGS
    )
    pass_shares = (
        tuple(passing[int(r)] / pass_total for r in (Rating.Hard, Rating.Good, Rating.Easy))
        if pass_total >= minimum
        else PASS_RATINGS
    )
    return first_shares, pass_shares


@dataclass(frozen=True)
class ModelHealth:
    """The model's health for the stats screen and ``stats --json``."""

    verdict: Verdict
    bins: tuple[CalibrationBin, ...]
    by_deck: tuple[GroupRetention, ...]
    by_topic: tuple[GroupRetention, ...]
    desired_retention: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "verdict": {**self.verdict.to_dict(), "message": verdict_sentence(self.verdict)},
            "calibration": [b.to_dict() for b in self.bins],
            "desired_retention": self.desired_retention,
            "retention_by_deck": [g.to_dict() for g in self.by_deck],
            "retention_by_topic": [g.to_dict() for g in self.by_topic],
        }


def model_health(
    history: History, parameters: Sequence[float], desired_retention: float
) -> ModelHealth:
    """Predict every scored review with ``parameters`` and read the result."""
    predictions = predict(parameters, history)
    return _said_of_what_is_shown(
        ModelHealth(
            verdict=verdict(predictions),
            bins=tuple(calibration_bins(predictions)),
            by_deck=tuple(group_retention(predictions, desired_retention, by_deck)),
            by_topic=tuple(group_retention(predictions, desired_retention, by_topic)),
            desired_retention=desired_retention,
        )
    )


def _said_of_what_is_shown(health: ModelHealth) -> ModelHealth:
    """The verdict as the figures shown beside it bear it out. "Predicts your recall well" is
    a sentence over all the reviews; the stats screen also shows each calibration bin and each
    deck and topic, and one of them may be far off (an imported history: 96% recalled against
    67% predicted) while the whole is not. A row off by more than :data:`MAX_BIAS` and by more
    than noise (the same test as the verdict's) turns "well" into the row that is off."""
    if health.verdict.health is not Health.GOOD:
        return health
    rows: list[tuple[str, Bias]] = [
        (f"{kind} {group.group}", Bias(group.reviews, group.mean_predicted, group.observed))
        for kind, groups in (("deck", health.by_deck), ("topic", health.by_topic))
        for group in groups
    ]
    rows += [
        (f"the {b.low:.0%}–{b.high:.0%} bar", Bias(b.reviews, b.mean_predicted, b.observed))
        for b in health.bins
        if b.reviews and b.mean_predicted is not None and b.observed is not None
    ]
    off = [(name, b) for name, b in rows if b.direction()]
    if not off:
        return health
    name, worst = max(off, key=lambda row: abs(row[1].gap))
    others = len(off) - 1
    figures = {
        "name": name,
        "observed": worst.observed,
        "predicted": worst.mean_predicted,
        "others": others,
    }
    shown = replace(health.verdict, health=Health.UNEVEN, figures=figures)
    return replace(health, verdict=shown)


def model_health_of_table(
    table: ReviewTable,
    parameters: Sequence[float],
    desired_retention: float,
    decks: dict[int, str],
    topics: dict[int, str],
) -> ModelHealth:
    """:func:`model_health` of a history held as columns (``decks``/``topics``: card code ─▶
    name), the same report at a fraction of the cost for a big history."""
    scored = score_table(parameters, table)
    predicted, recalled = scored.predicted, scored.recalled
    deck_codes, deck_names = group_codes(scored.card, decks)
    topic_codes, topic_names = group_codes(scored.card, topics)
    return _said_of_what_is_shown(
        ModelHealth(
            verdict=verdict_of(predicted, recalled, scored.elapsed_days),
            bins=tuple(calibration_bins_of(predicted, recalled)),
            by_deck=tuple(
                group_retention_of(predicted, recalled, deck_codes, deck_names, desired_retention)
            ),
            by_topic=tuple(
                group_retention_of(predicted, recalled, topic_codes, topic_names, desired_retention)
            ),
            desired_retention=desired_retention,
        )
    )


class ExportEntry(LogEntry, Protocol):
    """A log record as an export reads it: :class:`LogEntry` plus the state before."""

    @property
    def before(self) -> CardState | None: ...


def revlog_rows(entries: Iterable[ExportEntry]) -> list[RevlogRow]:
    """Scheduled reviews of the log as review-log CSV rows (state = the phase before, duration
    in milliseconds); off-schedule reviews are not exported, as they are not fitted."""
    rows = []
    for number, entry in enumerate(
        (e for e in entries if e.after is not None and e.rating in (1, 2, 3, 4)), start=2
    ):
        rows.append(
            RevlogRow(
                row=number,
                card_id=entry.card_key,
                reviewed_at=entry.reviewed_at,
                rating=Rating(entry.rating),
                state=None if entry.before is None else entry.before.phase,
                duration_ms=max(0, round(entry.seconds * 1000)) if entry.seconds else None,
            )
        )
    return rows


def events_from_revlog(
    rows: Iterable[RevlogRow], topic_of: Mapping[str, str] | None = None
) -> list[ReviewEvent]:
    """Imported rows (already matched to the learner's cards) as events for the fit."""
    topics = topic_of or {}
    return [
        ReviewEvent(
            card=row.card_id,
            reviewed_at=row.reviewed_at,
            rating=row.rating,
            seconds=None if row.duration_ms is None else row.duration_ms / 1000.0,
            deck=row.card_id.partition("/")[0] or None,
            topic=topics.get(row.card_id),
        )
        for row in rows
    ]


def merged(*sources: Iterable[ReviewEvent]) -> list[ReviewEvent]:
    """Events of several sources with duplicates dropped: the same card at the same moment
    (an export of recall's own log imported back) counts once, first source first."""
    seen: set[tuple[object, datetime]] = set()
    out = []
    for source in sources:
        for event in source:
            key = (event.card, event.reviewed_at)
            if key not in seen:
                seen.add(key)
                out.append(event)
    return out
