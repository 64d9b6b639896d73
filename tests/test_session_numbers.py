# ruff: noqa: F811  (pytest fixtures imported from store_fixtures shadow their parameters)
"""Numbers that add up (issue 11, item 4, the data side): each deck's own counts, what is left
today, "due tomorrow" that is the forecast's tomorrow, and a session summary checked against
the review log counted with SQL."""

from __future__ import annotations

from datetime import UTC, timedelta

from sqlalchemy import text
from store_fixtures import T0, FakeClock, db_url, make_deck, store  # noqa: F401

from recall.analytics import compute_stats, due_counts, today_counts
from recall.cards.model import Card, Deck
from recall.config import Settings
from recall.scheduling import Rating
from recall.session import Budget, Session
from recall.store import Store

#: review_log.kind codes, as the migrations define them.
KIND_CODES = {"new": 0, "learning": 1, "review": 2, "relearn": 3, "off_schedule": 4}


def load(store: Store, *decks: Deck) -> list[Card]:
    store.sync_decks(list(decks), now=T0)
    return [card for deck in decks for card in deck.cards]


def start(store: Store, cards: list[Card], clock: FakeClock, **kwargs) -> Session:  # noqa: ANN003
    kwargs.setdefault("settings", Settings(new_per_day=50))
    return Session.start(store, cards, clock=clock, tz=UTC, fuzz=False, **kwargs)


def drill(session: Session, clock: FakeClock, ratings: list[Rating]) -> list[str]:
    """Answer the cards shown with ``ratings`` in turn (70 s each); the keys answered."""
    keys = []
    for rating in ratings:
        card = session.next_card()
        if card is None:
            break
        clock.advance(70)
        verdict = "correct" if rating > 1 else "incorrect"
        session.record(verdict=verdict, rating=rating, seconds=70)
        keys.append(card.key)
    return keys


def test_each_deck_counts_its_own_cards_not_the_shared_allowance(store: Store) -> None:
    load(store, make_deck("big", *[f"b{i}" for i in range(30)]), make_deck("small", "s1", "s2"))
    settings = Settings(new_per_day=20)
    counts = today_counts(store, T0, settings, tz=UTC)
    assert counts.decks["big"].new == 30 and counts.decks["small"].new == 2
    assert counts.new_left == 20  # the shared allowance, once, for the header


def test_what_is_left_today_follows_the_log(store: Store) -> None:
    cards = load(store, make_deck("d", *[f"c{i}" for i in range(6)]))
    clock = FakeClock()
    settings = Settings(new_per_day=4)
    session = start(store, cards, clock, settings=settings)
    drill(session, clock, [Rating.Good, Rating.Good, Rating.Good])
    counts = today_counts(store, clock(), settings, tz=UTC)
    assert counts.new_left == 1  # 4 a day, 3 introduced
    assert counts.decks["d"].new == 3  # the deck still holds 3
    assert counts.learning == counts.decks["d"].learning == 3  # their steps fall today
    assert counts.reviews_left == 0


def test_due_tomorrow_is_the_forecasts_tomorrow(store: Store) -> None:
    cards = load(store, make_deck("d", *[f"c{i}" for i in range(8)]))
    clock = FakeClock()
    # Two groups learnt a day apart, straight to review: due on two days next week.
    drill(start(store, cards, clock, budget=Budget.cards(4)), clock, [Rating.Easy] * 4)
    clock.advance(days=1)
    drill(start(store, cards, clock, budget=Budget.cards(4)), clock, [Rating.Easy] * 4)
    while due_counts(store, clock(), 4, UTC)[0] == 0:  # to the day the first group falls due
        clock.advance(days=1)
    stats = compute_stats(store, now=clock(), rollover_hour=4, tz=UTC, forecast_days=10)
    today, tomorrow, week = due_counts(store, clock(), 4, UTC)
    assert stats.forecast[1][1] == stats.due_tomorrow == tomorrow
    assert stats.forecast[0][1] == stats.due_today == today
    assert sum(n for _d, n in stats.forecast[:8]) == stats.due_next_7_days == week
    summary = start(store, cards, clock).end()
    assert summary.due_tomorrow == tomorrow and summary.due_next_7_days == week
    assert today > 0 and tomorrow > 0  # the figures are not vacuous: tomorrow is not today's


def log_counts(store: Store, session_id: int) -> tuple[int, dict[int, int]]:
    """Reviews in a session, and its cards by the kind of their first review, counted with SQL."""
    engine = store._engine  # noqa: SLF001 - the test counts the log itself
    with engine.connect() as conn:
        total = conn.execute(
            text("SELECT count(*) FROM review_log WHERE learner_id = :l AND session_id = :s"),
            {"s": session_id, "l": store.learner_id},
        ).scalar_one()
        rows = conn.execute(
            text(
                "SELECT r.kind, count(*) FROM review_log r WHERE r.learner_id = :l"
                " AND r.session_id = :s AND r.id = (SELECT min(f.id) FROM review_log f"
                " WHERE f.learner_id = :l AND f.session_id = :s AND f.card_id = r.card_id)"
                " GROUP BY r.kind"
            ),
            {"s": session_id, "l": store.learner_id},
        ).all()
    return int(total), {int(kind): int(n) for kind, n in rows}


def test_the_summary_matches_the_log_after_a_scripted_session(store: Store) -> None:
    cards = load(store, make_deck("d", *[f"c{i}" for i in range(10)]))
    clock = FakeClock()
    # Day 0: three cards learnt straight to review.
    drill(start(store, cards, clock, budget=Budget.cards(3)), clock, [Rating.Easy] * 3)
    # A month on: one review failed (now relearning), one passed, one left due.
    clock.advance(days=30)
    month = start(store, cards, clock, budget=Budget.cards(2))
    drill(month, clock, [Rating.Again, Rating.Good])
    month.end()
    # An hour later, the scripted session: the relearning card, the review left, new cards.
    clock.advance(3600)
    session = start(store, cards, clock, budget=Budget.cards(8))
    drill(session, clock, [Rating.Good, Rating.Again, Rating.Good, Rating.Good] * 2)
    summary = session.end()
    total, first_kinds = log_counts(store, session.id)
    assert summary.reviews == total
    assert summary.cards == sum(first_kinds.values())
    for name, code in KIND_CODES.items():
        assert summary.by_kind[name] == first_kinds.get(code, 0), name
    for name in ("new", "review", "relearn"):
        assert summary.by_kind[name] > 0, name  # each count is checked on real rows
    assert timedelta(seconds=summary.seconds_on_cards) == timedelta(seconds=70 * total)
