# ruff: noqa: F811  (pytest fixtures imported from store_fixtures shadow their parameters)
"""The store: opening and creating, syncing decks, due queries, counts, flags, reviews, undo."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from store_fixtures import T0, db_url, make_card, make_deck, store  # noqa: F401

from recall.scheduling import NEW_STATE, Phase, Rating, ReviewKind, Scheduler, SchedulerSettings
from recall.store import ReviewInput, Store, StoreError, open_store

SCHED = Scheduler(SchedulerSettings(enable_fuzzing=False))


def review(store: Store, card_id: int, rating: Rating = Rating.Good, at=T0, **extra):  # noqa: ANN001, ANN201
    data = ReviewInput(rating=int(rating), reviewed_at=at, verdict="correct", seconds=4.2, **extra)
    return store.apply_review(card_id, data, lambda s: SCHED.review(card_id, s, rating, at))


def ids(store: Store) -> dict[str, int]:
    return {key: c.db_id for key, c in store.cards_by_key().items()}


def test_a_new_database_is_created_empty_and_reopens(db_url: str) -> None:
    first = open_store(db_url)
    assert first.cards_by_key() == {}
    first.close()
    again = open_store(db_url)
    assert again.review_count() == 0
    again.close()


def test_open_store_does_not_import_alembic_for_a_current_database(db_url: str) -> None:
    open_store(db_url).close()  # create it first
    code = (
        "import sys; from recall.store import open_store; "
        f"open_store({db_url!r}).close(); "
        "print('alembic' in sys.modules, 'sympy' in sys.modules, 'textual' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False", "False"]


def test_sync_adds_new_cards_as_new(store: Store) -> None:
    report = store.sync_decks(
        [make_deck("losses", "mse", "ce"), make_deck("optim", "adam")], now=T0
    )
    assert set(report.added) == {"losses/mse", "losses/ce", "optim/adam"}
    cards = store.cards_by_key()
    assert all(c.state == NEW_STATE and not c.retired for c in cards.values())
    assert [c.id for c in store.new_cards(limit=10)] == ["mse", "ce", "adam"]


def test_sync_keeps_state_when_a_card_is_edited(store: Store) -> None:
    store.sync_decks([make_deck("losses", "mse")], now=T0)
    card_id = ids(store)["losses/mse"]
    review(store, card_id)
    before = store.card(card_id)
    edited = dataclasses.replace(
        make_deck("losses"), cards=(make_card("losses", "mse", "Reworded?"),)
    )
    report = store.sync_decks([edited], now=T0)
    assert report.changed == ("losses/mse",) and not report.added
    after = store.card(card_id)
    assert after.state == before.state and after.db_id == card_id
    assert len(store.reviews(card_db_id=card_id)) == 1
    assert store.sync_decks([edited], now=T0).unchanged == 1


def test_removed_cards_are_retired_not_deleted_and_come_back(store: Store) -> None:
    store.sync_decks([make_deck("losses", "mse", "ce")], now=T0)
    card_id = ids(store)["losses/ce"]
    review(store, card_id)
    report = store.sync_decks([make_deck("losses", "mse")], now=T0)
    assert report.retired == ("losses/ce",)
    gone = store.card(card_id)
    assert gone.retired and gone.state.reps == 1
    assert len(store.reviews(card_db_id=card_id)) == 1  # history kept
    assert all(c.db_id != card_id for c in store.due_cards(T0 + timedelta(days=400)))
    with pytest.raises(StoreError, match="removed from its deck"):
        review(store, card_id)
    report = store.sync_decks([make_deck("losses", "mse", "ce")], now=T0)
    assert report.restored == ("losses/ce",)
    back = store.card(card_id)
    assert not back.retired and back.state.phase is Phase.LEARNING


def test_decks_not_passed_are_left_alone(store: Store) -> None:
    store.sync_decks([make_deck("losses", "mse"), make_deck("optim", "adam")], now=T0)
    report = store.sync_decks([make_deck("losses", "mse")], now=T0)  # optim failed validation
    assert not report.retired
    assert not store.cards_by_key()["optim/adam"].retired


def test_decks_whose_file_was_deleted_are_retired_and_come_back_with_it(
    store: Store, tmp_path: Path
) -> None:
    folder, elsewhere = tmp_path / "decks", tmp_path / "other"
    folder.mkdir()
    elsewhere.mkdir()
    files = {name: folder / f"{name}.toml" for name in ("losses", "optim", "broken")}
    files["away"] = elsewhere / "away.toml"
    for file in files.values():
        file.write_text("# stands in for a deck file\n")
    decks = [
        dataclasses.replace(make_deck(name, "a", "b"), path=str(file))
        for name, file in files.items()
    ]
    store.sync_decks(decks, now=T0)
    card_id = ids(store)["losses/a"]
    review(store, card_id, Rating.Again)
    before = store.card(card_id)
    assert store.count_due(T0 + timedelta(days=1)) == 1

    files["losses"].unlink()  # deleted
    files["away"].unlink()  # deleted, but from a folder that was not scanned
    # "broken" failed validation: not loaded, but its file is still there
    report = store.retire_vanished_decks([folder], keep={"optim"}, now=T0)
    assert sorted(report.retired) == ["losses/a", "losses/b"]
    cards = store.cards_by_key()
    assert cards["losses/a"].retired and cards["losses/b"].retired
    assert not any(cards[f"{deck}/a"].retired for deck in ("optim", "broken", "away"))
    assert store.count_due(T0 + timedelta(days=1)) == 0  # no longer due forever
    assert len(store.due_millis(T0 + timedelta(days=30))) == 0  # nor in the forecast
    assert store.retire_vanished_decks([folder], keep={"optim"}, now=T0).retired == ()

    files["losses"].write_text("# restored\n")
    report = store.sync_decks([decks[0]], now=T0)
    assert sorted(report.restored) == ["losses/a", "losses/b"]
    back = store.card(card_id)
    assert not back.retired and back.state == before.state
    assert len(store.reviews(card_db_id=card_id)) == 1  # history kept


def test_a_review_is_logged_with_everything_and_state_updates(store: Store) -> None:
    store.sync_decks([make_deck("numbers", "flops")], now=T0)
    card_id = ids(store)["numbers/flops"]
    applied = review(
        store,
        card_id,
        Rating.Hard,
        suggested=3,
        diagnosis="factor",
        answer="6*N*D",
        hint_used=True,
        seed=1234567890123,
        params={"N": 7e9, "D": 1.4e12},
    )
    entry = applied.entry
    assert entry.card_key == "numbers/flops" and entry.rating == 2 and entry.suggested == 3
    assert entry.verdict == "correct" and entry.diagnosis == "factor" and entry.answer == "6*N*D"
    assert entry.seconds == pytest.approx(4.2) and entry.hint_used
    assert entry.seed == 1234567890123 and entry.params == {"N": 7e9, "D": 1.4e12}
    assert entry.before == NEW_STATE.__class__(phase=Phase.NEW)
    assert entry.after is not None and entry.after.phase is Phase.LEARNING
    assert entry.reviewed_at == T0 and entry.reviewed_at.tzinfo is not None
    assert applied.card.state.reps == 1 and applied.card.state.due == entry.after.due


def test_undo_restores_the_exact_previous_state_and_removes_the_row(store: Store) -> None:
    store.sync_decks([make_deck("d", "a")], now=T0)
    card_id = ids(store)["d/a"]
    first = review(store, card_id, Rating.Good, at=T0)
    state_after_first = store.card(card_id).state
    second = review(store, card_id, Rating.Again, at=T0 + timedelta(minutes=11))
    with pytest.raises(StoreError, match="reviewed again"):
        store.undo_review(first.entry.id)
    restored = store.undo_review(second.entry.id)
    assert restored.state == state_after_first
    assert [e.id for e in store.reviews(card_db_id=card_id)] == [first.entry.id]
    assert store.undo_review(first.entry.id).state == NEW_STATE
    assert store.review_count() == 0
    with pytest.raises(StoreError, match="not in the log"):
        store.undo_review(first.entry.id)


def test_lapses_are_restored_by_undo(store: Store) -> None:
    store.sync_decks([make_deck("d", "a")], now=T0)
    card_id = ids(store)["d/a"]
    at = T0
    for rating in (Rating.Good, Rating.Good):
        at = review(store, card_id, rating, at=at).card.state.due  # type: ignore[assignment]
    lapse = review(store, card_id, Rating.Again, at=at)
    assert lapse.card.state.lapses == 1
    assert store.undo_review(lapse.entry.id).state.lapses == 0


def test_due_cards_come_most_overdue_first_and_respect_filters(store: Store) -> None:
    store.sync_decks(
        [make_deck("a", "x", "y", topic="losses"), make_deck("b", "z", topic="optim")], now=T0
    )
    keys = ids(store)
    review(store, keys["a/y"], at=T0)
    review(store, keys["a/x"], at=T0 + timedelta(minutes=1))
    review(store, keys["b/z"], at=T0 + timedelta(minutes=2))
    later = T0 + timedelta(hours=1)
    assert [c.id for c in store.due_cards(later)] == ["y", "x", "z"]
    assert [c.id for c in store.due_cards(later, decks=["b"])] == ["z"]
    assert [c.id for c in store.due_cards(later, topic="losses")] == ["y", "x"]
    assert store.due_cards(T0 + timedelta(minutes=5)) == []
    assert [c.id for c in store.due_cards(later, limit=1)] == ["y"]


def test_deck_counts_split_new_learning_and_due_and_cap_new(store: Store) -> None:
    store.sync_decks([make_deck("a", "n1", "n2", "n3", "l1", "r1"), make_deck("b", "n4")], now=T0)
    keys = ids(store)
    review(store, keys["a/l1"], Rating.Good, at=T0)  # learning, due in 10 min
    review(store, keys["a/r1"], Rating.Easy, at=T0)  # review, due in days
    day_end = T0 + timedelta(hours=12)
    counts = {c.deck: c for c in store.deck_counts(T0, day_end)}
    assert (counts["a"].new, counts["a"].learning, counts["a"].due) == (3, 1, 0)
    assert counts["b"].new == 1
    sizes = {s.deck: s for s in store.deck_sizes()}
    assert (sizes["a"].total, sizes["b"].total, sizes["a"].retired) == (5, 1, 0)
    capped = {c.deck: c for c in store.deck_counts(T0, day_end, new_limit=2, due_limit=0)}
    assert capped["a"].new == 2 and capped["b"].new == 1 and capped["a"].learning == 0
    far = {c.deck: c for c in store.deck_counts(T0, T0 + timedelta(days=60))}
    assert far["a"].due == 1


def test_suspend_removes_a_card_from_every_queue_and_keeps_its_state(store: Store) -> None:
    store.sync_decks([make_deck("d", "a", "b")], now=T0)
    keys = ids(store)
    review(store, keys["d/a"], at=T0)
    state = store.card(keys["d/a"]).state
    assert store.set_suspended(keys["d/a"], True).suspended
    assert store.set_suspended(keys["d/b"], True).suspended
    later = T0 + timedelta(days=30)
    assert store.due_cards(later) == [] and store.new_cards(limit=5) == []
    assert store.deck_sizes()[0].suspended == 2
    back = store.set_suspended(keys["d/a"], False)
    assert back.state == state and not back.suspended
    assert [c.id for c in store.due_cards(later)] == ["a"]


def test_reviewing_a_card_buries_its_siblings_until_the_next_day(store: Store) -> None:
    store.sync_decks([make_deck("att", "attn.formula", "attn.scale", "attn.name", "other")], now=T0)
    keys = ids(store)
    tomorrow = T0 + timedelta(hours=20)
    data = ReviewInput(rating=3, reviewed_at=T0, verdict="correct", seconds=3)
    card_id = keys["att/attn.formula"]
    applied = store.apply_review(
        card_id,
        data,
        lambda s: SCHED.review(card_id, s, Rating.Good, T0),
        bury_siblings_until=tomorrow,
    )
    assert applied.buried == 2
    assert [c.id for c in store.new_cards(limit=10)] == ["other"]
    assert store.card(keys["att/attn.scale"]).buried_until == tomorrow
    assert store.release_buried(T0 + timedelta(hours=1)) == 0
    assert store.release_buried(tomorrow) == 2
    assert {c.id for c in store.new_cards(limit=10)} == {"attn.scale", "attn.name", "other"}


def test_undo_unburies_the_siblings_it_buried(store: Store) -> None:
    store.sync_decks([make_deck("att", "attn.formula", "attn.scale")], now=T0)
    keys = ids(store)
    card_id = keys["att/attn.formula"]
    data = ReviewInput(rating=3, reviewed_at=T0, verdict="correct", seconds=3)
    applied = store.apply_review(
        card_id,
        data,
        lambda s: SCHED.review(card_id, s, Rating.Good, T0),
        bury_siblings_until=T0 + timedelta(hours=20),
    )
    store.undo_review(applied.entry.id)
    assert {c.id for c in store.new_cards(limit=10)} == {"attn.formula", "attn.scale"}


def test_off_schedule_reviews_are_logged_without_touching_state(store: Store) -> None:
    store.sync_decks([make_deck("d", "a")], now=T0)
    card_id = ids(store)["d/a"]
    review(store, card_id, at=T0)
    state = store.card(card_id).state
    data = ReviewInput(
        rating=1, reviewed_at=T0 + timedelta(hours=1), verdict="incorrect", seconds=9
    )
    cram = store.apply_review(card_id, data, None)
    assert cram.entry.kind is ReviewKind.OFF_SCHEDULE
    assert cram.entry.before is None and cram.entry.after is None
    assert store.card(card_id).state == state
    store.undo_review(cram.entry.id)
    assert store.card(card_id).state == state and store.review_count() == 1


def test_leeches_are_cards_past_the_lapse_threshold(store: Store) -> None:
    store.sync_decks([make_deck("d", "hard", "easy")], now=T0)
    keys = ids(store)
    at = T0
    card_id = keys["d/hard"]
    for rating in [Rating.Good, Rating.Good] + [Rating.Again, Rating.Good] * 3:
        at = review(store, card_id, rating, at=at).card.state.due  # type: ignore[assignment]
    assert store.card(card_id).state.lapses == 3
    assert [c.id for c in store.leeches(3)] == ["hard"]
    assert store.leeches(4) == [] and store.leeches(0) == []


def test_introduced_and_reviewed_today_count_distinct_cards(store: Store) -> None:
    store.sync_decks([make_deck("d", "a", "b")], now=T0)
    keys = ids(store)
    review(store, keys["d/a"], at=T0)
    review(store, keys["d/a"], at=T0 + timedelta(minutes=10))
    review(store, keys["d/b"], at=T0 + timedelta(minutes=1))
    assert store.introduced_and_reviewed(T0) == (2, 0)
    assert store.introduced_and_reviewed(T0 + timedelta(minutes=5)) == (0, 0)


def test_sessions_are_recorded_and_found_when_unfinished(store: Store) -> None:
    info = store.start_session(
        T0, budget_kind="minutes", budget_value=10, mode="normal", decks=["d"]
    )
    assert info.decks == ("d",) and info.ended_at is None
    assert store.unfinished_session() == info
    store.end_session(info.id, T0 + timedelta(minutes=10))
    assert store.unfinished_session() is None
    assert store.session(info.id).ended_at == T0 + timedelta(minutes=10)


def test_a_session_records_its_owner_who_can_hand_it_over_or_let_go(store: Store) -> None:
    first = store.start_session(
        T0, budget_kind="minutes", budget_value=10, mode="normal", owner=("laptop", 4242)
    )
    second = store.start_session(T0, budget_kind="cards", budget_value=5, mode="normal")
    assert (first.owner_host, first.owner_pid) == ("laptop", 4242)
    assert (second.owner_host, second.owner_pid) == (None, None)
    assert [s.id for s in store.unfinished_sessions()] == [second.id, first.id]  # newest first
    later = T0 + timedelta(minutes=40)
    # Taken over only from the owner it was seen with: two windows cannot both take it.
    assert store.claim_session(first.id, ("desktop", 7), later, expected=("laptop", 4242))
    assert not store.claim_session(first.id, ("tablet", 9), later, expected=("laptop", 4242))
    taken = store.session(first.id)
    assert (taken.owner_host, taken.owner_pid, taken.last_active_at) == ("desktop", 7, later)
    assert store.claim_session(second.id, ("desktop", 7), later, expected=(None, None))
    store.release_session(first.id, ("laptop", 4242))  # no longer its owner: changes nothing
    assert store.session(first.id).owner_pid == 7
    store.release_session(first.id, ("desktop", 7))
    assert (store.session(first.id).owner_host, store.session(first.id).owner_pid) == (None, None)


def test_params_are_stored_as_json(store: Store) -> None:
    store.sync_decks([make_deck("d", "a")], now=T0)
    entry = review(store, ids(store)["d/a"], params={"k": 3}).entry
    assert json.dumps(entry.params) == '{"k": 3}'


def test_memory_arrays_give_the_same_retrievability_as_one_card_at_a_time(store: Store) -> None:
    store.sync_decks([make_deck("d", "a", "b", "new")], now=T0)
    keys = ids(store)
    review(store, keys["d/a"], Rating.Good, at=T0)
    review(store, keys["d/b"], Rating.Easy, at=T0 - timedelta(days=3))
    now = T0 + timedelta(days=9, hours=5)
    memory = store.memory()
    vector = SCHED.retrievability_many(memory.stability, memory.elapsed_days(now))
    by_id = dict(zip(memory.card_db_ids.tolist(), vector.tolist(), strict=True))
    for key in ("d/a", "d/b", "d/new"):
        card = store.card(keys[key])
        assert by_id[card.db_id] == pytest.approx(SCHED.retrievability(card.state, now), rel=1e-12)
    assert by_id[keys["d/new"]] == 0.0
    assert len(store.memory(decks=["nope"]).card_db_ids) == 0


def test_the_session_layer_never_loads_the_formula_engine_or_textual() -> None:
    code = (
        "import sys, recall.session, recall.store, recall.scheduling, recall.config; "
        "heavy = ('sympy', 'textual', 'alembic', 'recall.formula'); "
        "print(sorted(m for m in heavy if m in sys.modules))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"


def test_cards_by_key_finds_exactly_the_keys_asked_for(store: Store) -> None:
    store.sync_decks([make_deck("a", "x", "y"), make_deck("b", "x")], now=T0)
    found = store.cards_by_key(["a/x", "b/x", "b/y", "c/x"])
    assert sorted(found) == ["a/x", "b/x"]
    assert found["a/x"].db_id != found["b/x"].db_id
    assert store.cards_by_key([]) == {}


def test_a_learning_card_can_be_buried_by_hand_and_comes_back_learning(store: Store) -> None:
    store.sync_decks([make_deck("d", "a")], now=T0)
    card_id = ids(store)["d/a"]
    state = review(store, card_id, Rating.Again, at=T0).card.state  # learning, due in a minute
    tomorrow = T0 + timedelta(hours=20)
    assert store.bury([card_id], tomorrow) == 1
    assert store.due_cards(T0 + timedelta(hours=1), learning_only=True) == []
    assert store.release_buried(tomorrow) == 1
    back = store.card(card_id)
    assert back.buried_until is None and back.state == state
    assert [c.db_id for c in store.due_cards(tomorrow, learning_only=True)] == [card_id]


def test_review_kinds_are_stored_as_the_schema_integers() -> None:
    """The records speak ReviewKind; the column keeps the integers old databases hold."""
    from recall.store.rows import KIND_CODES, review_kind

    assert {kind.value: code for kind, code in KIND_CODES.items()} == {
        "new": 0,
        "learning": 1,
        "review": 2,
        "relearning": 3,
        "off_schedule": 4,
    }
    assert [review_kind(code) for code in range(5)] == list(ReviewKind)
    assert [ReviewKind.of(phase) for phase in Phase] == list(ReviewKind)[:4]


@pytest.mark.parametrize("caps", [(None, None), (2, 1), (0, 0), (1, None)])
def test_home_counts_in_one_grouped_scan_equal_the_capped_scans(
    store: Store, caps: tuple[int | None, int | None]
) -> None:
    """PostgreSQL's home counts are one grouped scan (row security calls the login's
    ``current_learner()`` once per scan, and the per-deck form makes three scans a deck); both
    forms give the same figures on either backend, caps included."""
    from recall.store import queries as q
    from recall.store.rows import deck_counts

    store.sync_decks([make_deck(d, *[f"c{i}" for i in range(6)]) for d in "abcd"], now=T0)
    keys = ids(store)
    for n, key in enumerate(sorted(keys)):
        if n % 3 == 0:
            review(store, keys[key], Rating.Good, at=T0)  # learning
        elif n % 3 == 1 and n % 2:
            review(store, keys[key], Rating.Easy, at=T0)  # review, due in days
    day_end = T0 + timedelta(days=30)
    new_cap, due_cap = caps
    with store._read() as conn:
        decks = conn.execute(q.DECKS, {"learner": store.learner_id}).all()
        params = {f"d{i}": deck_id for i, (deck_id, _s, _n) in enumerate(decks)}
        params.update(day_end=day_end, new_cap=new_cap, due_cap=due_cap, learner=store.learner_id)
        scans = conn.execute(
            q.per_deck_counts(len(decks), new_cap is not None, due_cap is not None), params
        ).all()
        grouped = store._grouped_deck_counts(conn, decks, day_end, new_cap, due_cap)
    assert grouped == deck_counts(decks, scans)
    assert any(c.new for c in grouped) == (new_cap != 0)  # the decks hold new cards
    assert any(c.learning for c in grouped) == (due_cap != 0)  # and learning ones
