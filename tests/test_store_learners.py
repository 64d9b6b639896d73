# ruff: noqa: F811  (pytest fixtures imported from store_fixtures shadow their parameters)
"""Two learners in one database see exactly what each would see alone (issue 22).

Learners A and B drill the same cards at the same moments with opposite answers, in one
database; A alone drills the same script in another. Every read of the store's API gives A the
same result in both (ids of reviews and sessions aside: B's rows take their turns in the shared
sequences), and the same for B. Claims are each learner's own: both drill a card at once.
"""

from __future__ import annotations

import dataclasses
import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from store_fixtures import T0, db_url, make_deck, pg_worker_url  # noqa: F401

from recall.scheduling import Rating, Scheduler, SchedulerSettings
from recall.store import ReviewInput, Store, open_store
from recall.store.engine import make_engine, parse_url
from recall.store.memory import ImportedReview, MemoryModelStore

SCHED = Scheduler(SchedulerSettings(enable_fuzzing=False))
#: Built-in decks: shared by every learner of the database (a custom deck is one learner's own).
DECKS = [
    dataclasses.replace(deck, builtin=True)
    for deck in (
        make_deck("losses", "mse", "mae", "ce", "hinge"),
        make_deck("optim", "sgd", "adam"),
    )
]
#: (hours after T0, card, A's rating); B answers the opposite at the same moment.
SCRIPT = [
    (0, "losses/mse", Rating.Good),
    (0, "losses/mae", Rating.Again),
    (1, "optim/sgd", Rating.Easy),
    (2, "losses/mse", Rating.Again),
    (30, "losses/mae", Rating.Good),
    (30, "optim/adam", Rating.Hard),
    (50, "losses/mse", Rating.Good),
]
OPPOSITE = {Rating.Again: Rating.Good, Rating.Hard: Rating.Easy}
OPPOSITE.update({v: k for k, v in OPPOSITE.items()})


def other_url(db_url: str, tmp_path: Path) -> str:
    """A second fresh database on the same backend as ``db_url``."""
    if db_url.startswith("sqlite"):
        return f"sqlite:///{tmp_path / 'alone.sqlite3'}"
    return pg_worker_url(os.environ.get("PYTEST_XDIST_WORKER", "main") + "_alone")


def add_learner(url: str, learner: int, name: str) -> None:
    """A second learner in a (new) database: recall has no command for it yet."""
    open_store(url).close()
    engine = make_engine(parse_url(url))
    with engine.begin() as conn:
        conn.execute(
            text("INSERT INTO learners (id, name, created_at) VALUES (:id, :name, 0)"),
            {"id": learner, "name": name},
        )
    engine.dispose()


def drill(store: Store, flip: bool) -> list[int]:
    """Run the script as one learner (``flip``: B's opposite answers), in one session, with a
    bury, a suspension and an undo along the way; returns the review ids."""
    keys = {key: card.db_id for key, card in store.cards_by_key().items()}
    session = store.start_session(T0, budget_kind="minutes", budget_value=20, mode="normal")
    done = []
    for hours, key, rating in SCRIPT:
        at = T0 + timedelta(hours=hours)
        rating = OPPOSITE[rating] if flip else rating
        card = keys[key]
        data = ReviewInput(
            rating=int(rating), reviewed_at=at, verdict="correct", seconds=3, session_id=session.id
        )
        applied = store.apply_review(
            card, data, lambda s, c=card, r=rating, t=at: SCHED.review(c, s, r, t)
        )
        done.append(applied.entry.id)
        assert store.claim_card(card, session.id, ("h", 1), at, free=lambda _c: False)
    store.undo_review(done.pop())  # the latest: undo's target is this learner's own review
    store.bury([keys["losses/hinge"]], T0 + timedelta(hours=60))
    store.set_suspended(keys["optim/adam" if flip else "losses/ce"], True)
    store.add_set_aside_seconds(session.id, 7 if flip else 3)
    MemoryModelStore(store).record_fit([0.5] * 21, kept=True, reviews=6, comparison=None, now=T0)
    MemoryModelStore(store).import_reviews(
        [ImportedReview("losses/ce", T0 - timedelta(days=3), 1 if flip else 3, 2, 1000)]
    )
    return done


def without_ids(value: Any) -> Any:
    """A record with its review and session ids blanked (shared sequences give B's rows
    their own turns); everything else compared as it is."""
    if isinstance(value, list):
        return [without_ids(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {n: 0 for n in ("id", "session_id") if hasattr(value, n)}
        return dataclasses.replace(value, **changes)  # type: ignore[arg-type]
    return value


def memory_arrays(store: Store) -> list[Any]:
    found = store.memory()
    return [getattr(found, field.name) for field in dataclasses.fields(found)]


def reads(store: Store) -> dict[str, Any]:
    """Every read the store offers, at a moment after the script."""
    now = T0 + timedelta(hours=80)
    memory = MemoryModelStore(store)
    fits = [dataclasses.replace(f, id=0) for f in memory.fits()]
    return {
        "due": store.due_cards(now, limit=50),
        "due in a deck": store.due_cards(now, decks=["losses"]),
        "new": store.new_cards(limit=10),
        "cards": store.cards_by_key(),
        "counts": store.deck_counts(now, now + timedelta(hours=4), new_limit=5, due_limit=50),
        "sizes": store.deck_sizes(),
        "spent": store.introduced_and_reviewed(T0),
        "count due": store.count_due(now),
        "due millis": store.due_millis(now + timedelta(days=30)),
        "review millis": store.review_millis(),
        "facts": store.review_facts(T0, now),
        "reviews": without_ids(store.reviews()),
        "review count": store.review_count(),
        "leeches": store.leeches(1),
        "memory": [[None if x != x else x for x in a.tolist()] for a in memory_arrays(store)],
        "unfinished": without_ids(store.unfinished_sessions()),
        "fits": fits,
        "scheduled": memory.scheduled_reviews(),
        "optimizer input": [a.tolist() for a in memory.review_columns()][1:],
        "pace": memory.recent_answers(10),
        "imported": memory.imported_reviews(),
    }


@pytest.mark.parametrize("flip", [False, True], ids=["A", "B"])
def test_a_learner_reads_the_same_sharing_a_database_as_alone(
    db_url: str, tmp_path: Path, flip: bool
) -> None:
    add_learner(db_url, 2, "b")
    a, b = open_store(db_url, learner=1), open_store(db_url, learner=2)
    a.sync_decks(DECKS, now=T0)  # cards are shared: one sync gives both learners their cards
    mine, other = (b, a) if flip else (a, b)
    drill(other, not flip)
    drill(mine, flip)
    shared = reads(mine)

    alone = open_store(other_url(db_url, tmp_path))
    alone.sync_decks(DECKS, now=T0)
    drill(alone, flip)
    assert shared == reads(alone)
    assert shared["review count"] == len(SCRIPT) - 1  # and the script really ran
    for store in (a, b, alone):
        store.close()


def test_both_learners_drill_the_same_card_at_once(db_url: str) -> None:
    add_learner(db_url, 2, "b")
    a, b = open_store(db_url, learner=1), open_store(db_url, learner=2)
    a.sync_decks(DECKS, now=T0)
    card = a.cards_by_key()["losses/mse"].db_id
    sessions = [
        s.start_session(T0, budget_kind="minutes", budget_value=5, mode="normal") for s in (a, b)
    ]
    never_free = lambda _claim: False  # noqa: E731 - another session's claim always stands
    assert a.claim_card(card, sessions[0].id, ("h", 1), T0, free=never_free)
    assert b.claim_card(card, sessions[1].id, ("h", 2), T0, free=never_free)
    # while a second window of A's is still refused it
    second = a.start_session(T0, budget_kind="minutes", budget_value=5, mode="normal")
    assert not a.claim_card(card, second.id, ("h", 3), T0, free=never_free)
    assert [s.id for s in a.unfinished_sessions()] == [second.id, sessions[0].id]
    assert [s.id for s in b.unfinished_sessions()] == [sessions[1].id]
    for store in (a, b):
        store.close()


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT count(*) FROM review_log",
        "SELECT sessions.learner_id, sessions.id FROM sessions",  # named, but not a filter
        "UPDATE card_state SET queue=1 WHERE card_state.card_id = ?",
        'DELETE FROM "card_claims" WHERE session_id = 3',
        "INSERT INTO imported_reviews (card_id, reviewed_at) VALUES (?, ?)",
        "SELECT s.id FROM sessions s WHERE s.learner_id = ? AND EXISTS "
        "(SELECT 1 FROM review_log r WHERE r.session_id = s.id)",  # the subquery forgot it
    ],
)
def test_the_suite_listener_catches_sql_that_forgets_the_learner(sql: str) -> None:
    from learner_sql import unfiltered

    assert unfiltered(sql)


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT count(*) FROM review_log WHERE review_log.learner_id = ?",
        "INSERT INTO card_claims (learner_id, card_id) VALUES (?, ?)",
        "SELECT 1 FROM card_state WHERE learner_id = %(learner)s AND queue = 0",
        "SELECT id FROM cards JOIN decks ON decks.id = cards.deck_id",  # shared tables
        "CREATE TABLE card_state (learner_id INTEGER)",
    ],
)
def test_the_suite_listener_lets_filtered_sql_through(sql: str) -> None:
    from learner_sql import unfiltered

    assert not unfiltered(sql)


def test_a_learner_added_after_the_sync_has_every_card_new(db_url: str) -> None:
    extra = dataclasses.replace(make_deck("extra", "x", "y"), builtin=True)
    a = open_store(db_url, learner=1)
    a.sync_decks([*DECKS, extra], now=T0)
    a.sync_decks([*DECKS, dataclasses.replace(extra, cards=extra.cards[:1])], now=T0)
    drill(a, False)  # A's history exists before B does
    before = reads(a)
    add_learner(db_url, 2, "b")
    b = open_store(db_url, learner=2)
    assert b.cards_by_key() == {}  # no state rows yet: nothing to read until B's first sync
    report = b.sync_decks([*DECKS, extra], now=T0)  # extra/y back from retirement
    assert report.restored == ("extra/y",) and not report.added
    cards = b.cards_by_key()
    assert sorted(cards) == sorted(card.key for deck in [*DECKS, extra] for card in deck.cards)
    assert all(card.state.is_new and not card.retired for card in cards.values())
    assert len(b.new_cards(limit=50)) == len(cards) and b.review_count() == 0
    assert not a.cards_by_key()["extra/y"].retired  # restored for A too (shared content)
    after = reads(a)
    changed = ("cards", "new", "counts", "sizes", "memory")  # extra/y is back
    assert after["cards"] != before["cards"]
    assert {k: v for k, v in after.items() if k not in changed} == {
        k: v for k, v in before.items() if k not in changed
    }
    for store in (a, b):
        store.close()


def test_each_learners_custom_deck_is_their_own_even_with_the_same_id(db_url: str) -> None:
    add_learner(db_url, 2, "b")
    a, b = open_store(db_url, learner=1), open_store(db_url, learner=2)
    a.sync_decks([*DECKS, make_deck("my-losses", "focal", "dice")], now=T0)
    b.sync_decks([*DECKS, make_deck("my-losses", "triplet")], now=T0)
    shared = {card.key for deck in DECKS for card in deck.cards}
    assert set(a.cards_by_key()) == shared | {"my-losses/focal", "my-losses/dice"}
    assert set(b.cards_by_key()) == shared | {"my-losses/triplet"}
    for store, size in ((a, 2), (b, 1)):
        sizes = {s.deck: s.total for s in store.deck_sizes()}
        assert sizes == {"losses": 4, "optim": 2, "my-losses": size}
        counts = store.deck_counts(T0, T0 + timedelta(hours=4), new_limit=None, due_limit=None)
        assert [(c.deck, c.new) for c in counts] == [
            ("losses", 4),
            ("optim", 2),
            ("my-losses", size),
        ]
    # A renames and empties theirs: B's deck of the same id is untouched
    a.sync_decks([make_deck("my-losses", "focal", name="Mine")], now=T0)
    assert a.cards_by_key()["my-losses/dice"].retired
    assert not b.cards_by_key()["my-losses/triplet"].retired
    assert [s.name for s in b.deck_sizes() if s.deck == "my-losses"] == ["My-Losses"]
    for store in (a, b):
        store.close()
