"""Analytics over the store's API: retention by deck and topic, forecast, heatmap, mistakes,
streak.

This is arithmetic on what :class:`recall.store.Store` returns (review facts, due times as
epoch milliseconds), not SQL, so it lives above the store, which keeps only the queries. One
function, :func:`compute_stats`, serves ``recall stats`` and the TUI's stats screen; the
session summary reuses :func:`current_streak` and :func:`due_counts`; the home screen reads
:func:`today_counts`. Every "due" figure comes from :func:`due_forecast`, so "due tomorrow" in
the summary and in ``recall stats`` is the forecast's tomorrow. Day arithmetic follows the
study day (rollover hour, local time) so a review at 1 am counts for the evening before.

*Retention* is the true retention of FSRS/Anki: the share of review-phase reviews (cards that
had graduated) rated anything but Again. Learning steps and off-schedule drills are left out:
they measure how fast a card is learnt, not how well it is remembered.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import TYPE_CHECKING, Any

from recall.mistakes import counts_as_mistake
from recall.scheduling.day import day_start, study_date
from recall.scheduling.state import ReviewKind

if TYPE_CHECKING:
    from recall.config import Settings
    from recall.store import DeckCounts, ReviewEntry, Store


@dataclass(frozen=True)
class Retention:
    """Passed and total review-phase reviews; ``rate`` is ``None`` with no reviews."""

    passed: int
    total: int

    @property
    def rate(self) -> float | None:
        return self.passed / self.total if self.total else None


@dataclass(frozen=True)
class Stats:
    """Everything ``recall stats`` prints, for a period ending today."""

    since: date
    until: date
    reviews: int
    study_days: int
    retention: Retention
    retention_by_deck: dict[str, Retention]
    retention_by_topic: dict[str, Retention]
    first_try_accuracy: float | None
    mistakes: list[tuple[str, int]]
    heatmap: list[tuple[date, int]]  # reviews per study day in the period, zero days included
    forecast: list[tuple[date, int]]  # cards falling due per day from today (overdue on today)
    streak: int
    due_today: int
    due_tomorrow: int
    due_next_7_days: int
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: dates as ISO strings, retention with its rate."""

        def ret(r: Retention) -> dict[str, Any]:
            return {"passed": r.passed, "total": r.total, "rate": r.rate}

        out = asdict(self)
        out["since"], out["until"] = self.since.isoformat(), self.until.isoformat()
        out["retention"] = ret(self.retention)
        out["retention_by_deck"] = {k: ret(v) for k, v in self.retention_by_deck.items()}
        out["retention_by_topic"] = {k: ret(v) for k, v in self.retention_by_topic.items()}
        out["heatmap"] = [[d.isoformat(), n] for d, n in self.heatmap]
        out["forecast"] = [[d.isoformat(), n] for d, n in self.forecast]
        out["mistakes"] = [[k, n] for k, n in self.mistakes]
        return out


def streak(
    times: Iterable[datetime], now: datetime, rollover_hour: int, tz: tzinfo | None = None
) -> int:
    """Consecutive study days with at least one review, ending today (or yesterday, when
    nothing has been reviewed yet today: the streak is not broken until the day is over)."""
    return _streak_from_days(
        {study_date(t, rollover_hour, tz) for t in times}, now, rollover_hour, tz
    )


def _streak_from_days(days: set[date], now: datetime, rollover_hour: int, tz: tzinfo | None) -> int:
    today = study_date(now, rollover_hour, tz)
    day = today if today in days else today - timedelta(days=1)
    count = 0
    while day in days:
        count += 1
        day -= timedelta(days=1)
    return count


def day_buckets(
    millis: Iterable[float], first: date, days: int, rollover_hour: int, tz: tzinfo | None = None
) -> list[int]:
    """How many of the epoch-millisecond times fall on each of ``days`` study days from
    ``first`` (times before ``first`` or after the last day are not counted). The day
    boundaries are computed one by one, so a daylight-saving change is a 23- or 25-hour day.

    Plain Python over the sorted times (two binary searches a day; the store's times come
    sorted, so sorting is a pass): the home screen's counts need no NumPy import."""
    edges = [
        day_start(first + timedelta(days=i), rollover_hour, tz).timestamp() * 1000
        for i in range(days + 1)
    ]
    times = sorted(millis)
    cuts = [bisect_left(times, edge) for edge in edges]
    return [cuts[i + 1] - cuts[i] for i in range(days)]


def current_streak(
    store: Store, now: datetime, rollover_hour: int, tz: tzinfo | None = None
) -> int:
    """:func:`streak` from the log, reading only as far back as the streak could reach."""
    today = study_date(now, rollover_hour, tz)
    window = 64
    while True:
        first = today - timedelta(days=window - 1)
        since = day_start(first, rollover_hour, tz)
        counts = day_buckets(store.review_millis(since), first, window, rollover_hour, tz)
        days = {first + timedelta(days=i) for i, n in enumerate(counts) if n}
        length = _streak_from_days(days, now, rollover_hour, tz)
        if length < window - 2 or window > 36500:
            return length
        window *= 4


def due_forecast(
    store: Store, now: datetime, rollover_hour: int, tz: tzinfo | None = None, days: int = 30
) -> list[tuple[date, int]]:
    """Cards falling due on each of the next ``days`` study days from today, overdue cards on
    today: the forecast of ``recall stats``, and the one definition every "due" figure uses."""
    today = study_date(now, rollover_hour, tz)
    if days <= 0:
        return []
    due = store.due_millis(day_start(today + timedelta(days=days), rollover_hour, tz))
    per_day = day_buckets(due, today, days, rollover_hour, tz)
    overdue_before = day_start(today, rollover_hour, tz).timestamp() * 1000
    per_day[0] += sum(1 for millis in due if millis < overdue_before)
    return [(today + timedelta(days=i), n) for i, n in enumerate(per_day)]


def due_counts(
    store: Store, now: datetime, rollover_hour: int, tz: tzinfo | None = None
) -> tuple[int, int, int]:
    """(due today, overdue cards included; falling due tomorrow; due over the 8 days from today
    to the 7th day after it, overdue included): the forecast's first day, its second day, and
    the sum of its first 8, so "due tomorrow" and the forecast's tomorrow are the same number."""
    forecast = due_forecast(store, now, rollover_hour, tz, days=8)
    return forecast[0][1], forecast[1][1], sum(n for _day, n in forecast)


@dataclass(frozen=True)
class TodayCounts:
    """What today holds, for the home screen: each deck's own new / learning / due (``decks``,
    by deck id, not capped by the shared daily allowance), and for the header what is left
    today: ``new_left`` new cards and ``reviews_left`` reviews the daily limits still allow
    (and the decks still hold), ``learning`` steps due today (no limit applies to those)."""

    decks: dict[str, DeckCounts]
    new_left: int
    reviews_left: int
    learning: int


#: Most cards one deck's row counts (a count stops there, keeping it a short index scan).
DECK_COUNT_CAP = 100_000


def today_counts(
    store: Store, now: datetime, settings: Settings, tz: tzinfo | None = None
) -> TodayCounts:
    """Each deck's own counts and what is left of today's limits (see :class:`TodayCounts`)."""
    from recall.scheduling.day import today_bounds
    from recall.scheduling.queue import remaining

    start, end = today_bounds(now, settings.day_rollover_hour, tz)
    introduced, reviewed = store.introduced_and_reviewed(start)
    counts = store.deck_counts(now, end, new_limit=DECK_COUNT_CAP, due_limit=DECK_COUNT_CAP)
    by_deck = {c.deck: c for c in counts}
    return TodayCounts(
        decks=by_deck,
        new_left=min(remaining(settings.new_per_day, introduced), sum(c.new for c in counts)),
        reviews_left=min(remaining(settings.reviews_per_day, reviewed), sum(c.due for c in counts)),
        learning=sum(c.learning for c in counts),
    )


def compute_stats(
    store: Store,
    *,
    days: int = 30,
    now: datetime | None = None,
    rollover_hour: int = 4,
    tz: tzinfo | None = None,
    forecast_days: int = 30,
) -> Stats:
    """Figures for the last ``days`` study days (today included) and the next ``forecast_days``."""
    now = now or datetime.now(UTC)
    today = study_date(now, rollover_hour, tz)
    first = today - timedelta(days=max(1, days) - 1)
    since = day_start(first, rollover_hour, tz)
    until = day_start(today + timedelta(days=1), rollover_hour, tz)
    facts = store.review_facts(since, until)

    per_day: Counter[date] = Counter()
    by_deck: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    by_topic: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    mistakes: Counter[str] = Counter()
    passed_all = total_all = 0
    for at, kind, rating, verdict, diagnosis, deck, topic in facts:
        day = study_date(at, rollover_hour, tz)
        per_day[day] += 1
        if diagnosis and counts_as_mistake(diagnosis, verdict):
            mistakes[diagnosis] += 1
        if kind is not ReviewKind.REVIEW:
            continue
        ok = int(rating > 1)
        passed_all += ok
        total_all += 1
        for table, key in ((by_deck, deck), (by_topic, topic)):
            table[key][0] += ok
            table[key][1] += 1

    heatmap = [
        (first + timedelta(days=i), per_day.get(first + timedelta(days=i), 0))
        for i in range((today - first).days + 1)
    ]
    forecast = due_forecast(store, now, rollover_hour, tz, days=forecast_days)
    due_today, due_tomorrow, due_week = due_counts(store, now, rollover_hour, tz)
    return Stats(
        since=first,
        until=today,
        reviews=len(facts),
        study_days=sum(1 for _d, n in heatmap if n),
        retention=Retention(passed_all, total_all),
        retention_by_deck={k: Retention(*v) for k, v in sorted(by_deck.items())},
        retention_by_topic={k: Retention(*v) for k, v in sorted(by_topic.items())},
        first_try_accuracy=_first_try_accuracy(store, since, until),
        mistakes=mistakes.most_common(10),
        heatmap=heatmap,
        forecast=forecast,
        streak=current_streak(store, now, rollover_hour, tz),
        due_today=due_today,
        due_tomorrow=due_tomorrow,
        due_next_7_days=due_week,
    )


def right_first_time(entry: ReviewEntry) -> bool:
    """Whether a card's first review in a session was right first time: passed, and without
    help. A hint counts as help, and so does an answer taken back (Ctrl-Z over a verdict): the
    session logs the retake as helped, since the learner has seen the reference, so a wrong
    answer taken back and typed again is never counted as right."""
    return entry.rating > 1 and not entry.hint_used


def _first_try_accuracy(store: Store, since: datetime, until: datetime) -> float | None:
    """Share of (card, study session) pairs whose first answer in the period was
    :func:`right_first_time`."""
    seen: dict[tuple[int, int | None], bool] = {}
    for entry in store.reviews(since=since, until=until):
        seen.setdefault((entry.card_db_id, entry.session_id), right_first_time(entry))
    return sum(seen.values()) / len(seen) if seen else None
