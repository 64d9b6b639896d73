# ruff: noqa: F811  (pytest fixtures imported from store_fixtures shadow their parameters)
"""Fitted parameters versioned in the database, and imported reviews kept apart from the log."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from recall.store import Store
from recall.store.memory import ImportedReview, MemoryModelStore
from tests.store_fixtures import T0, db_url, make_deck, store  # noqa: F401

A = tuple(float(i) for i in range(21))
B = tuple(float(i) / 2 for i in range(21))
C = tuple(float(i) / 3 for i in range(21))
COMPARISON = {"candidate": {"log_loss": 0.41, "rmse_bins": 0.05}, "current": {"log_loss": 0.5}}


def test_every_fit_is_kept_and_the_one_in_use_is_marked(store: Store) -> None:
    model = MemoryModelStore(store)
    assert model.in_use() is None and model.fits() == []
    first = model.record_fit(A, kept=True, reviews=500, comparison=COMPARISON, now=T0)
    assert first.in_use and first.parameters == A and first.log_loss == 0.41
    rejected = model.record_fit(B, kept=False, reviews=700, comparison=COMPARISON, now=T0)
    assert not rejected.in_use and rejected.status == "rejected"
    assert model.in_use() == first
    second = model.record_fit(C, kept=True, reviews=900, comparison=None, now=T0)
    fits = model.fits()
    assert [f.id for f in fits] == [first.id, rejected.id, second.id]
    assert [f.in_use for f in fits] == [False, False, True]
    assert fits[2].comparison is None and fits[0].comparison == COMPARISON


def test_revert_goes_back_one_kept_fit_then_to_the_defaults(store: Store) -> None:
    model = MemoryModelStore(store)
    assert model.revert() is None  # nothing to revert: the defaults stay
    first = model.record_fit(A, kept=True, reviews=500, comparison=None, now=T0)
    model.record_fit(B, kept=False, reviews=600, comparison=None, now=T0)
    model.record_fit(C, kept=True, reviews=900, comparison=None, now=T0)
    back = model.revert()
    assert back is not None and back.id == first.id and back.in_use
    assert model.in_use() == back
    assert model.revert() is None
    assert model.in_use() is None
    assert len(model.fits()) == 3  # nothing deleted


def test_imported_reviews_are_stored_once_and_kept_out_of_the_log(store: Store) -> None:
    store.sync_decks([make_deck("ml", "a", "b")], now=T0)
    model = MemoryModelStore(store)
    reviews = [
        ImportedReview("ml/a", T0 - timedelta(days=3), 3, 2, 8000),
        ImportedReview("ml/b", T0 - timedelta(days=2), 1, None, None),
    ]
    assert model.import_reviews(reviews, now=T0) == (2, 0)
    assert model.import_reviews(reviews, now=T0) == (0, 2)
    assert model.imported_reviews() == reviews
    assert store.review_count() == 0
    with pytest.raises(KeyError):
        model.import_reviews([ImportedReview("ml/zzz", T0, 3, None, None)])


@pytest.mark.parametrize("seed", [1, 2])
def test_a_partly_new_import_adds_exactly_what_the_log_lacks(
    store: Store, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over several batches and lookups (both made small here), in any order, with repeats in
    the file and cards sharing a moment: every review the log lacks is added once, and every
    other one counts as there already."""
    import random

    import recall.store.memory as memory

    monkeypatch.setattr(memory, "IMPORT_BATCH", 97)
    monkeypatch.setattr(memory, "PROBE_CARDS", 7)
    rng = random.Random(seed)
    ids = [f"c{n}" for n in range(40)]
    store.sync_decks([make_deck("ml", *ids)], now=T0)
    model = MemoryModelStore(store)
    moments = [T0 - timedelta(days=rng.randrange(400), milliseconds=rng.randrange(3)) for _ in ids]
    every = [(f"ml/{rng.choice(ids)}", rng.choice(moments)) for _ in range(900)]

    def reviews(pairs: list[tuple[str, datetime]]) -> list[ImportedReview]:
        return [ImportedReview(key, at, 3, 2, 1000) for key, at in pairs]

    first = rng.sample(every, 300)
    second = rng.sample(every, 600) + first[:50]  # overlaps the first, repeats itself
    rng.shuffle(second)
    added, there = model.import_reviews(reviews(first), now=T0)
    assert (added, there) == (len(set(first)), len(first) - len(set(first)))
    added, there = model.import_reviews(reviews(second), now=T0)
    assert added == len(set(second) - set(first))
    assert added + there == len(second)
    stored = [(r.card_key, r.reviewed_at) for r in model.imported_reviews()]
    assert sorted(stored, key=str) == sorted(set(first) | set(second), key=str)


def test_imported_times_are_the_log_s_by_card(store: Store) -> None:
    """What an importer reads first: each named card's imported review times, in epoch ms;
    a card with none, or unknown, has no entry."""
    from recall.store.timeutil import to_millis

    store.sync_decks([make_deck("ml", "a", "b", "c")], now=T0)
    model = MemoryModelStore(store)
    moments = [T0 - timedelta(days=3), T0 - timedelta(days=1, milliseconds=7)]
    model.import_reviews(
        [ImportedReview("ml/a", at, 3, 2, 100) for at in moments]
        + [ImportedReview("ml/b", moments[0], 1, None, None)],
        now=T0,
    )
    got = model.imported_times(["ml/a", "ml/c", "ml/zzz", "ml/a"])
    assert got == {"ml/a": {to_millis(at) for at in moments}}
    assert model.imported_times(["ml/b"]) == {"ml/b": {to_millis(moments[0])}}


def test_a_kept_fit_schedules_the_next_session(store: Store) -> None:
    """The parameters marked in use are the ones a new session's scheduler runs on; a revert
    brings the defaults back for the session after."""
    from recall.memory.model import default_parameters
    from recall.session import Session

    fitted = tuple(default_parameters())[:-1] + (0.3,)  # a valid FSRS-6 vector, one weight moved
    assert fitted != tuple(default_parameters())
    before = Session.start(store, [], clock=lambda: T0)
    assert tuple(before.scheduler.settings.parameters) == tuple(default_parameters())
    MemoryModelStore(store).record_fit(fitted, kept=True, reviews=500, comparison=None, now=T0)
    after = Session.start(store, [], clock=lambda: T0)
    assert tuple(after.scheduler.settings.parameters) == fitted
    MemoryModelStore(store).revert()
    reverted = Session.start(store, [], clock=lambda: T0)
    assert tuple(reverted.scheduler.settings.parameters) == tuple(default_parameters())


def test_the_lean_reads_match_the_full_log(store: Store) -> None:
    """What the memory model reads in one lean query is what the full log entries hold:
    scheduled reviews only (a cram review left out), in log order; the pace's answers are the
    latest ones, oldest first."""
    from recall.memory.report import events_from_log, events_from_scheduled
    from recall.scheduling import Rating, Scheduler, SchedulerSettings
    from recall.store import ReviewInput

    store.sync_decks([make_deck("deck", "a", "b")], now=T0)
    cards = store.cards_by_key()
    scheduler = Scheduler(SchedulerSettings(enable_fuzzing=False))
    plan = [("deck/a", 0, Rating.Good, True), ("deck/b", 0, Rating.Again, True)]
    plan += [("deck/a", 1, Rating.Again, False), ("deck/a", 3, Rating.Hard, True)]
    for key, day, rating, scheduled in plan:
        card = cards[key]
        at = T0 + timedelta(days=day, seconds=len(key))
        store.apply_review(
            card.db_id,
            ReviewInput(rating=rating, reviewed_at=at, verdict="correct", seconds=4.0 + day),
            (lambda s, at=at, rating=rating, c=card: scheduler.review(c.db_id, s, rating, at))
            if scheduled
            else None,
        )
    model = MemoryModelStore(store)
    lean = model.scheduled_reviews()
    assert [(r.card_key, r.rating) for r in lean] == [
        ("deck/a", 3),
        ("deck/b", 1),
        ("deck/a", 2),
    ]
    assert events_from_scheduled(lean) == events_from_log(store.reviews())
    everything = [(str(e.kind), e.seconds) for e in store.reviews()]
    assert model.recent_answers(2) == everything[-2:]
    assert model.recent_answers(100) == everything
    assert everything[2][0] == "off_schedule"


def test_states_from_elsewhere_are_adopted_only_when_newer(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An Anki import's schedules: taken where Anki saw a later review (or recall's card is
    new and the schedule has no review time), never over recall's own newer review; taking the
    same states again changes nothing. On both backends, in batches (two here: one
    executemany each), and what would be adopted is known before the write."""
    import recall.store.memory as memory_store

    monkeypatch.setattr(memory_store, "IMPORT_BATCH", 2)
    from recall.scheduling import Rating, Scheduler, SchedulerSettings
    from recall.scheduling.state import CardState, Phase
    from recall.store import ReviewInput

    store.sync_decks([make_deck("deck", "a", "b", "c")], now=T0)
    cards = store.cards_by_key()
    scheduler = Scheduler(SchedulerSettings(enable_fuzzing=False))
    drilled_at = T0 + timedelta(days=10)
    card_b = cards["deck/b"]
    store.apply_review(
        card_b.db_id,
        ReviewInput(rating=Rating.Good, reviewed_at=drilled_at, verdict="correct", seconds=3.0),
        lambda s: scheduler.review(card_b.db_id, s, Rating.Good, drilled_at),
    )
    drilled = store.card(card_b.db_id).state
    anki = CardState(
        phase=Phase.REVIEW,
        stability=12.5,
        difficulty=5.25,
        due=T0 + timedelta(days=20),
        last_review=T0 + timedelta(days=8),
        reps=4,
        lapses=1,
    )
    learning = CardState(phase=Phase.LEARNING, step=0, due=T0 + timedelta(minutes=10), reps=1)
    model = MemoryModelStore(store)
    states = {"deck/a": (anki, True), "deck/b": (anki, False), "deck/c": (learning, False)}
    assert model.newer_states(states) == {"deck/a", "deck/c"}
    assert model.adopt_states(states) == (2, 1)
    after = store.cards_by_key()
    assert after["deck/a"].state == anki and after["deck/a"].suspended
    assert after["deck/b"].state == drilled  # recall's review (day 10) is newer than day 8
    assert after["deck/c"].state == learning and not after["deck/c"].suspended
    assert model.newer_states(states) == set()
    assert model.adopt(states) == []
    assert store.cards_by_key() == after


def test_imported_reviews_skip_recall_s_own_coming_back(store: Store) -> None:
    from recall.scheduling import Rating
    from recall.store import ReviewInput

    store.sync_decks([make_deck("deck", "a")], now=T0)
    card = store.cards_by_key()["deck/a"]
    store.apply_review(
        card.db_id,
        ReviewInput(rating=Rating.Good, reviewed_at=T0, verdict="correct", seconds=3.0),
        None,
    )
    model = MemoryModelStore(store)
    back = [
        ImportedReview("deck/a", T0 + timedelta(milliseconds=1), 3, 1, 3000),  # ours, moved
        ImportedReview("deck/a", T0 + timedelta(days=1), 3, 2, 3000),  # Anki's
    ]
    assert model.import_reviews(back, T0, own_within_ms=1000) == (1, 1)
    assert model.import_reviews(back, T0, own_within_ms=1000) == (0, 2)
    assert [r.reviewed_at for r in model.imported_reviews()] == [T0 + timedelta(days=1)]
