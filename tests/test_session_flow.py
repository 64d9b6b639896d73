# ruff: noqa: F811  (pytest fixtures imported from store_fixtures shadow their parameters)
"""Sessions: queue rules, budgets with an injectable clock, commit-before-return, undo, pause,
modes that leave the schedule alone, recovery after a crash, and the summary."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from datetime import UTC, timedelta

import pytest
from store_fixtures import T0, FakeClock, db_url, make_deck, store  # noqa: F401

from recall.cards.model import Card, CardKind, Deck
from recall.config import Settings
from recall.errors import RatingError
from recall.scheduling import Phase, Rating
from recall.session import Budget, Mode, Owner, Session, right_answer
from recall.store import ReviewInput, Store, StoreError, open_store

UTC = UTC


def load(store: Store, *decks: Deck) -> list[Card]:
    store.sync_decks(list(decks), now=T0)
    return [card for deck in decks for card in deck.cards]


def start(store: Store, cards: list[Card], clock: FakeClock, **kwargs) -> Session:  # noqa: ANN003
    kwargs.setdefault("settings", Settings(new_per_day=50))
    return Session.start(store, cards, clock=clock, tz=UTC, fuzz=False, **kwargs)


def answer(
    session: Session, clock: FakeClock, rating: Rating = Rating.Good, seconds: float = 10, **kw
):  # noqa: ANN001, ANN003, ANN201
    card = session.next_card()
    assert card is not None
    clock.advance(seconds)
    verdict = "correct" if rating > 1 else "incorrect"
    return card, session.record(verdict=verdict, rating=rating, seconds=seconds, **kw)


def test_every_record_is_committed_before_it_returns(store: Store, db_url: str) -> None:
    cards = load(store, make_deck("d", "a", "b"))
    clock = FakeClock()
    session = start(store, cards, clock)
    card, recorded = answer(session, clock, diagnosis=None, answer="x", seed=7, params={"n": 2})
    other = open_store(db_url)  # a separate engine sees it at once
    entries = other.reviews(session_id=session.id)
    other.close()
    assert [e.card_key for e in entries] == [card.key]
    assert entries[0].seed == 7 and entries[0].params == {"n": 2} and entries[0].answer == "x"
    assert recorded.entry.id == entries[0].id


def test_new_cards_respect_the_daily_limit(store: Store) -> None:
    cards = load(store, make_deck("d", *[f"c{i}" for i in range(10)]))
    clock = FakeClock()
    session = start(
        store, cards, clock, settings=Settings(new_per_day=3), budget=Budget.until_done()
    )
    seen = []
    while (card := session.next_card()) is not None:
        clock.advance(5)
        session.record(verdict="correct", rating=Rating.Easy, seconds=5)  # Easy graduates at once
        seen.append(card.id)
    assert seen == ["c0", "c1", "c2"]
    again = start(store, cards, clock, settings=Settings(new_per_day=3), budget=Budget.until_done())
    assert again.next_card() is None  # today's allowance is spent


def test_learning_cards_come_back_within_the_session(store: Store) -> None:
    cards = load(store, make_deck("d", "a"))
    clock = FakeClock()
    session = start(store, cards, clock, budget=Budget.until_done())
    first, _ = answer(session, clock, Rating.Again)
    again = session.next_card()  # due in a minute: shown ahead since nothing else is left
    assert again is not None and again.id == first.id


def test_due_reviews_and_new_cards_are_interleaved(store: Store) -> None:
    cards = load(store, make_deck("d", *[f"r{i}" for i in range(6)], "n0", "n1"))
    clock = FakeClock()
    warm = start(store, cards[:6], clock, budget=Budget.cards(6))
    for _ in range(6):
        answer(warm, clock, Rating.Easy)
    clock.advance(timedelta(days=30).total_seconds())
    session = start(
        store, cards, clock, budget=Budget.until_done(), settings=Settings(new_per_day=2)
    )
    order = []
    while (card := session.next_card()) is not None:
        order.append(card.id)
        clock.advance(3)
        session.record(verdict="correct", rating=Rating.Easy, seconds=3)
    assert sorted(order) == sorted(c.id for c in cards)
    assert order[0].startswith("r") and order[-1].startswith("r")


def test_a_minutes_budget_ends_after_the_current_card(store: Store) -> None:
    cards = load(store, make_deck("d", *[f"c{i}" for i in range(20)]))
    clock = FakeClock()
    session = start(store, cards, clock, budget=Budget.minutes(1))
    answer(session, clock, seconds=40)
    assert not session.finished and session.remaining_seconds == pytest.approx(20)
    card = session.next_card()
    clock.advance(35)  # the budget runs out while the card is on screen ...
    assert not session.finished and session.remaining_seconds is not None
    assert session.remaining_seconds < 0
    recorded = session.record(verdict="correct", rating=Rating.Good)  # ... it is still finished
    assert recorded.finished and session.finished
    assert recorded.entry.seconds == pytest.approx(35) and card is not None
    assert session.next_card() is None


def test_a_card_budget_counts_cards(store: Store) -> None:
    cards = load(store, make_deck("d", *[f"c{i}" for i in range(5)]))
    clock = FakeClock()
    session = start(store, cards, clock, budget=Budget.cards(2))
    answer(session, clock)
    assert not session.finished
    _, recorded = answer(session, clock)
    assert recorded.finished and session.next_card() is None


def test_pause_stops_the_clock(store: Store) -> None:
    cards = load(store, make_deck("d", "a"))
    clock = FakeClock()
    session = start(store, cards, clock)
    session.next_card()
    clock.advance(10)
    session.pause()
    clock.advance(600)
    assert session.paused and session.seconds_on_current() == pytest.approx(10)
    session.resume()
    clock.advance(5)
    recorded = session.record(verdict="correct", rating=Rating.Good)
    assert recorded.entry.seconds == pytest.approx(15)
    assert session.elapsed_seconds == pytest.approx(15)


def test_undo_restores_the_card_and_shows_it_again(store: Store) -> None:
    cards = load(store, make_deck("d", "a", "b"))
    clock = FakeClock()
    session = start(store, cards, clock)
    card, recorded = answer(session, clock, seconds=12)
    before = recorded.entry.before
    shown = session.undo()
    assert shown is not None and shown.id == card.id
    assert session.next_card() is shown and session.cards_done == 0
    assert session.elapsed_seconds == pytest.approx(12)  # undo gives no time back (issue 11)
    assert store.review_count() == 0
    stored = store.cards_by_key()[card.key]
    assert stored.state.phase is Phase.NEW and before is not None and before.phase is Phase.NEW
    assert store.cards_by_key()["d/b"].buried_until is None
    assert session.undo() is None


def test_reviewing_a_card_buries_its_siblings_for_the_day(store: Store) -> None:
    cards = load(store, make_deck("att", "attn.formula", "attn.scale", "other"))
    clock = FakeClock()
    session = start(store, cards, clock, budget=Budget.until_done())
    seen = []
    while (card := session.next_card()) is not None:
        seen.append(card.id)
        clock.advance(3)
        session.record(verdict="correct", rating=Rating.Easy, seconds=3)
    assert seen == ["attn.formula", "other"]
    clock.advance(timedelta(days=1).total_seconds())
    later = start(store, cards, clock, budget=Budget.until_done())
    assert later.next_card() is not None and later.next_card().id == "attn.scale"  # type: ignore[union-attr]


@pytest.mark.parametrize("mode", [Mode.CRAM, Mode.WEAKEST, Mode.MISSED])
def test_off_schedule_modes_never_touch_the_schedule(store: Store, mode: Mode) -> None:
    cards = load(store, make_deck("d", "a", "b", "c"))
    clock = FakeClock()
    normal = start(store, cards, clock, budget=Budget.until_done())
    for rating in (Rating.Easy, Rating.Again, Rating.Easy):
        answer(normal, clock, rating)
    while normal.next_card() is not None:  # finish the relearning of the missed card
        clock.advance(60)
        normal.record(verdict="correct", rating=Rating.Good, seconds=2)
    normal.end()
    snapshot = {k: c.state for k, c in store.cards_by_key().items()}
    drill = start(store, cards, clock, budget=Budget.cards(6), mode=mode, weakest_n=2)
    shown = []
    while (card := drill.next_card()) is not None:
        shown.append(card.id)
        clock.advance(2)
        drill.record(verdict="incorrect", rating=Rating.Again, seconds=2)
    assert shown, "the mode had cards to drill"
    assert {k: c.state for k, c in store.cards_by_key().items()} == snapshot
    if mode is Mode.MISSED:
        assert set(shown) == {"b"}
    if mode is Mode.WEAKEST:
        assert len(set(shown)) == 2
    if mode is Mode.CRAM:
        assert set(shown) == {"a", "b", "c"}
    assert drill.summary().by_kind["off_schedule"] == len(set(shown))


def dead_pid() -> int:
    """The id of a process that has exited (and been reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_crashed_session_is_recovered_with_its_budget(store: Store, db_url: str) -> None:
    cards = load(store, make_deck("d", *[f"c{i}" for i in range(10)]))
    clock = FakeClock()
    crashed = Owner(Owner.this_process().host, dead_pid())  # the process that died
    session = start(store, cards, clock, budget=Budget.minutes(2), owner=crashed)
    done = [answer(session, clock, seconds=30)[0].id for _ in range(2)]
    session.next_card()  # on screen when the process dies: not recorded, not counted
    fresh = open_store(db_url)
    assert Session.unfinished(fresh, clock()) is not None
    resumed = Session.recover(fresh, cards, clock=clock, tz=UTC, fuzz=False)
    assert resumed is not None and resumed.id == session.id
    assert resumed.cards_done == 2 and resumed.elapsed_seconds == pytest.approx(60)
    nxt = resumed.next_card()
    assert nxt is not None and nxt.id not in done
    resumed.undo()  # the history survived the crash too
    assert resumed.cards_done == 1
    resumed.end()
    assert Session.unfinished(fresh, clock()) is None
    assert Session.recover(fresh, cards, clock=clock) is None
    fresh.close()


def test_a_running_session_is_not_offered_for_resuming(store: Store) -> None:
    cards = load(store, make_deck("d", "a", "b", "c"))
    clock = FakeClock()
    here = Owner("laptop", 100)
    running: set[int] = {100, 200}

    def alive(pid: int) -> bool:
        return pid in running

    def offered() -> int | None:
        info = Session.unfinished(store, clock(), here=here, alive=alive)
        return None if info is None else info.id

    same_host = start(store, cards, clock, owner=Owner("laptop", 200))
    answer(same_host, clock)
    assert offered() is None  # another window on this machine is drilling it
    running.discard(200)
    assert offered() == same_host.id  # that window died
    same_host.end()

    elsewhere = start(store, cards, clock, owner=Owner("desktop", 200))
    answer(elsewhere, clock)
    clock.advance(minutes=29)
    assert offered() is None  # another machine, heard from recently
    answer(elsewhere, clock)  # each review is a heartbeat
    clock.advance(minutes=29)
    assert offered() is None
    clock.advance(minutes=2)
    assert offered() == elsewhere.id  # silent for more than half an hour

    resumed = Session.recover(
        store, cards, session_id=elsewhere.id, clock=clock, owner=here, alive=alive
    )
    assert resumed is not None and store.session(elsewhere.id).owner == ("laptop", 100)
    assert offered() is None  # this window (alive) holds it now
    again = Session.recover(
        store, cards, session_id=elsewhere.id, clock=clock, owner=here, alive=alive
    )
    assert again is None  # not resumed twice
    resumed.release()  # the window closes mid-session: at once offered to the next one
    assert store.session(elsewhere.id).owner == (None, None)
    assert offered() == elsewhere.id


def test_two_windows_resuming_one_session_at_once_only_one_gets_it(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    cards = load(store, make_deck("d", "a", "b"))
    clock = FakeClock()
    crashed = start(store, cards, clock, owner=Owner("laptop", 1))
    answer(crashed, clock)
    seen = store.session(crashed.id)  # both windows saw it ownerless (pid 1 is gone) ...

    def alive(pid: int) -> bool:
        return pid in (2, 3)

    first = Session.recover(
        store, cards, session_id=crashed.id, clock=clock, owner=Owner("laptop", 2), alive=alive
    )
    assert first is not None
    monkeypatch.setattr(store, "session", lambda session_id: seen)  # ... the second still does
    second = Session.recover(
        store, cards, session_id=crashed.id, clock=clock, owner=Owner("laptop", 3), alive=alive
    )
    assert second is None
    monkeypatch.undo()
    assert store.session(crashed.id).owner == ("laptop", 2)


def test_summary_figures(store: Store) -> None:
    deck = make_deck("d", "a", "b", "c")
    deck = dataclasses.replace(
        deck, cards=(dataclasses.replace(deck.cards[0], answer="sigma^2"), *deck.cards[1:])
    )
    cards = load(store, deck)
    clock = FakeClock()
    session = start(store, cards, clock, budget=Budget.until_done())
    answer(session, clock, Rating.Again, seconds=20, answer="sigma", diagnosis="missing_square")
    answer(session, clock, Rating.Good, seconds=10)
    answer(session, clock, Rating.Easy, seconds=4)
    clock.advance(120)
    answer(session, clock, Rating.Good, seconds=8)  # "a" again, relearning step
    summary = session.end()
    assert summary.reviews == 4 and summary.cards == 3
    assert summary.by_kind["new"] == 3
    assert summary.first_try_accuracy == pytest.approx(2 / 3)
    assert summary.median_answer_seconds == pytest.approx(9)
    assert summary.seconds_on_cards == pytest.approx(42)
    assert [(m.key, m.right_answer, m.typed) for m in summary.missed] == [
        ("d/a", "sigma^2", "sigma")
    ]
    assert summary.mistakes == (("missing_square", 1),)
    # The learning steps fall due today: not "due tomorrow" (the forecast's tomorrow).
    assert summary.due_today >= 1
    assert summary.due_next_7_days >= summary.due_today + summary.due_tomorrow
    assert summary.streak_days == 1
    assert summary.to_dict()["missed"][0]["key"] == "d/a"


def test_summary_shows_a_missed_card_as_it_was_asked(store: Store) -> None:
    """A numeric card's prompt is a template: the summary showed "A {N}-parameter model…",
    not the numbers the learner was given; a cloze card showed its key, not its statement."""
    deck = make_deck("d", "flops", "blank")
    numeric = dataclasses.replace(
        deck.cards[0],
        kind=CardKind.NUMERIC,
        prompt="A {N}-parameter model is trained on {D} tokens. How many FLOPs?",
        answer="6*N*D",
    )
    cloze = dataclasses.replace(
        deck.cards[1], kind=CardKind.CLOZE, prompt="", text="Training takes {{}} FLOPs."
    )
    cards = load(store, dataclasses.replace(deck, cards=(numeric, cloze)))
    clock = FakeClock()
    session = start(store, cards, clock, budget=Budget.until_done())
    for _ in cards:
        card = session.next_card()
        assert card is not None
        clock.advance(5)
        params = {"N": 89_000_000_000, "D": 13_000_000_000} if card.id == "flops" else None
        session.record(
            verdict="incorrect", rating=Rating.Again, seconds=5, answer="2", params=params
        )
    prompts = {m.key: m.prompt for m in session.end().missed}
    assert prompts["d/flops"] == (
        "An 89 billion-parameter model is trained on 13 billion tokens. How many FLOPs?"
    )
    assert "Training takes" in prompts["d/blank"] and "{{}}" not in prompts["d/blank"]


def test_record_rejects_nonsense(store: Store) -> None:
    cards = load(store, make_deck("d", "a"))
    session = start(store, cards, FakeClock())
    with pytest.raises(RuntimeError, match="next_card"):
        session.record(verdict="correct", rating=Rating.Good)
    session.next_card()
    with pytest.raises(ValueError, match="verdict"):
        session.record(verdict="close enough", rating=Rating.Good)
    with pytest.raises(ValueError):
        session.record(verdict="correct", rating=7)
    assert store.review_count() == 0


def test_a_wrong_answer_is_never_rated_hard_and_an_invalid_one_is_never_recorded(
    store: Store,
) -> None:
    cards = load(store, make_deck("d", "a"))
    clock = FakeClock()
    session = start(store, cards, clock)
    card = session.next_card()
    assert card is not None
    before = store.cards_by_key([card.key])[card.key]
    with pytest.raises(RatingError, match="Hard is a passing grade"):
        session.record(verdict="incorrect", rating=Rating.Hard, suggested=Rating.Again)
    with pytest.raises(RatingError, match="costs nothing"):
        session.record(verdict="invalid", rating=Rating.Again)
    assert store.review_count() == 0  # nothing written, nothing changed
    assert store.cards_by_key([card.key])[card.key] == before
    assert session.current is not None and session.current.key == card.key  # still on screen
    recorded = session.record(verdict="incorrect", rating=Rating.Good)  # a grader overruled
    assert recorded.entry.rating == Rating.Good and store.review_count() == 1


def test_suggest_uses_the_current_cards_maturity(store: Store) -> None:
    cards = load(store, make_deck("d", "a"))
    session = start(store, cards, FakeClock())
    session.next_card()
    assert session.suggest("correct", 2.0) is Rating.Good  # new card: not mature
    assert session.suggest("incorrect", 2.0) is Rating.Again
    assert session.suggest("invalid") is None


def test_leech_is_surfaced_on_the_review_that_makes_it(store: Store) -> None:
    cards = load(store, make_deck("d", "a"))
    clock = FakeClock()
    settings = Settings(leech_threshold=2, new_per_day=5)
    flags = []
    for rating in [Rating.Easy, Rating.Again, Rating.Good, Rating.Again]:
        session = start(store, cards, clock, budget=Budget.cards(1), settings=settings)
        card = session.next_card()
        assert card is not None
        flags.append(
            session.record(
                verdict="correct" if rating > 1 else "incorrect", rating=rating
            ).became_leech
        )
        clock.advance(timedelta(days=40).total_seconds())
    assert flags == [False, False, False, True]


def test_a_leech_is_announced_once_and_never_by_an_off_schedule_review(store: Store) -> None:
    cards = load(store, make_deck("d", "a"))
    clock = FakeClock()
    settings = Settings(leech_threshold=2, new_per_day=5)

    def review(rating: Rating, mode: Mode = Mode.NORMAL) -> bool:
        session = start(store, cards, clock, budget=Budget.cards(1), settings=settings, mode=mode)
        assert session.next_card() is not None
        verdict = "correct" if rating > 1 else "incorrect"
        flag = session.record(verdict=verdict, rating=rating).became_leech
        clock.advance(timedelta(days=40).total_seconds())
        return flag

    assert [review(r) for r in (Rating.Easy, Rating.Again, Rating.Good)] == [False] * 3
    assert review(Rating.Again, Mode.CRAM) is False  # off-schedule: no lapse counted
    session = start(store, cards, clock, budget=Budget.cards(1), settings=settings)
    assert session.next_card() is not None
    assert session.record(verdict="incorrect", rating=Rating.Again).became_leech
    assert session.undo() is not None  # taken back: rating it again announces it again
    assert session.record(verdict="incorrect", rating=Rating.Again).became_leech
    clock.advance(timedelta(days=40).total_seconds())
    assert review(Rating.Good) is False
    assert review(Rating.Again) is False  # already a leech: not announced a second time


def test_right_answer_for_each_kind() -> None:
    fact = Card(deck_id="d", id="f", kind=CardKind.FACT, prompt="p", value=16, unit="bytes")
    ranged = Card(deck_id="d", id="r", kind=CardKind.FACT, prompt="p", value_range=(0.6, 1.3))
    reverse = Card(deck_id="d", id="n", kind=CardKind.REVERSE, prompt="p", accept=("MSE", "L2"))
    explain = Card(deck_id="d", id="e", kind=CardKind.EXPLAIN, prompt="p", model_answer="because")
    assert [right_answer(c) for c in (fact, ranged, reverse, explain)] == [
        "16 bytes",
        "0.6-1.3",
        "MSE",
        "because",
    ]


def test_two_sessions_open_at_once_share_one_daily_new_card_allowance(
    store: Store, db_url: str
) -> None:
    """Two windows (or processes) each build their queue before either introduces a card;
    the allowance is checked again when a new card is about to be shown."""
    cards = load(store, make_deck("x", *[f"c{i}" for i in range(5)]), make_deck("y", "c0", "c1"))
    clock = FakeClock()
    settings = Settings(new_per_day=3, new_card_order="deck")  # x's cards first
    first = start(store, cards, clock, settings=settings, budget=Budget.until_done())
    other_store = open_store(db_url)
    second = Session.start(
        other_store,
        cards,
        settings=settings,
        budget=Budget.until_done(),
        decks=["y"],
        clock=clock,
        tz=UTC,
        fuzz=False,
    )
    introduced = []
    for session in (first, second):
        while (card := session.next_card()) is not None:
            clock.advance(5)
            session.record(verdict="correct", rating=Rating.Easy, seconds=5)
            introduced.append(card.key)
    other_store.close()
    assert introduced == ["x/c0", "x/c1", "x/c2"]
    assert store.introduced_and_reviewed(T0) == (3, 0)


def test_two_sessions_open_at_once_share_one_daily_review_allowance(
    store: Store, db_url: str
) -> None:
    cards = load(store, make_deck("x", "c0", "c1", "c2"), make_deck("y", "c0", "c1"))
    clock = FakeClock()
    warm = start(store, cards, clock, budget=Budget.until_done())
    while warm.next_card() is not None:
        clock.advance(3)
        warm.record(verdict="correct", rating=Rating.Easy, seconds=3)  # straight to review
    clock.advance(timedelta(days=60).total_seconds())
    settings = Settings(reviews_per_day=2)
    first = start(store, cards, clock, settings=settings, budget=Budget.until_done())
    other_store = open_store(db_url)
    second = Session.start(
        other_store,
        cards,
        settings=settings,
        budget=Budget.until_done(),
        decks=["y"],
        clock=clock,
        tz=UTC,
        fuzz=False,
    )
    reviewed = 0
    for session in (first, second):
        while session.next_card() is not None:
            clock.advance(3)
            session.record(verdict="correct", rating=Rating.Good, seconds=3)
            reviewed += 1
    other_store.close()
    assert reviewed == 2


def drain(session: Session, clock: FakeClock, limit: int = 20) -> list[str]:
    """Answer Good to every card the session still shows; the ids in order."""
    shown = []
    while len(shown) < limit and (card := session.next_card()) is not None:
        shown.append(card.id)
        clock.advance(3)
        session.record(verdict="correct", rating=Rating.Good, seconds=3)
    return shown


def test_undo_while_a_learning_card_is_on_screen_does_not_show_it_twice(store: Store) -> None:
    cards = load(store, make_deck("d", "a", "b"))
    clock = FakeClock()
    session = start(store, cards, clock, budget=Budget.until_done())
    answer(session, clock, Rating.Again, seconds=3)  # a: learning, due in a minute
    answer(session, clock, Rating.Good, seconds=30)  # b
    clock.advance(70)
    assert session.next_card().id == "a"  # type: ignore[union-attr]  # a is due again
    assert session.undo().id == "b"  # type: ignore[union-attr]  # take back b's review
    clock.advance(3)
    session.record(verdict="correct", rating=Rating.Good, seconds=3)  # b again
    shown = drain(session, clock)
    # a (its step is due), then b ahead of time at the end; never a twice in a row.
    assert shown[:2] == ["a", "b"]


def test_undoing_the_review_of_the_card_on_screen_shows_it_once(store: Store) -> None:
    cards = load(store, make_deck("d", "a"))
    clock = FakeClock()
    session = start(store, cards, clock, budget=Budget.cards(3))
    answer(session, clock, Rating.Again, seconds=3)
    clock.advance(70)
    assert session.next_card().id == "a"  # type: ignore[union-attr]
    assert session.undo().id == "a"  # type: ignore[union-attr]  # back to new, on screen
    assert session.queue_length == 0


def test_undoing_a_cram_miss_whose_retry_is_on_screen_keeps_one_retry(store: Store) -> None:
    cards = load(store, make_deck("d", "a"))
    clock = FakeClock()
    session = start(store, cards, clock, mode=Mode.CRAM, budget=Budget.until_done())
    answer(session, clock, Rating.Again, seconds=3)  # requeued for another try
    assert session.next_card().id == "a"  # type: ignore[union-attr]  # the retry, on screen
    assert session.undo().id == "a"  # type: ignore[union-attr]
    assert drain(session, clock) == ["a"]


def test_a_refused_undo_keeps_the_review_in_the_session(store: Store, db_url: str) -> None:
    cards = load(store, make_deck("d", "a", "b"))
    clock = FakeClock()
    session = start(store, cards, clock, budget=Budget.cards(2))
    answer(session, clock, Rating.Again, seconds=3)
    a_id = store.cards_by_key()["d/a"].db_id
    other = open_store(db_url)  # another window reviews the same card meanwhile
    scheduler = session.scheduler
    at = clock.advance(60)
    other.apply_review(
        a_id,
        ReviewInput(rating=3, reviewed_at=at, verdict="correct", seconds=2),
        lambda s: scheduler.review(a_id, s, Rating.Good, at),
    )
    other.close()
    with pytest.raises(StoreError, match="reviewed again"):
        session.undo()
    assert session.cards_done == 1 and store.review_count() == 2
    answer(session, clock)
    assert session.finished  # the card budget still counts the review that stayed


def test_undo_after_the_card_left_its_deck_does_not_show_it(store: Store) -> None:
    cards = load(store, make_deck("d", "a", "b"))
    clock = FakeClock()
    session = start(store, cards, clock, budget=Budget.until_done())
    answer(session, clock)
    store.sync_decks([make_deck("d", "b")], now=clock())  # "a" deleted from the deck file
    assert session.undo() is None
    assert store.review_count() == 0 and store.cards_by_key()["d/a"].retired
    assert set(drain(session, clock)) == {"b"}


def test_undo_after_the_session_ended_changes_nothing(store: Store) -> None:
    cards = load(store, make_deck("d", "a"))
    clock = FakeClock()
    session = start(store, cards, clock)
    answer(session, clock)
    summary = session.end()
    assert session.undo() is None
    assert store.review_count() == summary.reviews == 1


def test_a_skipped_card_is_asked_again_after_the_others(store: Store) -> None:
    cards = load(store, make_deck("d", "a", "b", "c"))
    clock = FakeClock()
    session = start(store, cards, clock, budget=Budget.until_done())
    answer(session, clock, Rating.Again, seconds=3)  # a: learning, due in a minute
    clock.advance(70)
    assert session.next_card().id == "a"  # type: ignore[union-attr]  # its step is due
    assert session.set_aside(requeue=True)  # skip it: a learning card, due now
    assert session.next_card().id == "b"  # type: ignore[union-attr]  # not a again at once
    assert session.set_aside(requeue=True)  # skip a new card: it goes to the back
    assert [session.next_card().id for _ in range(1)] == ["c"]  # type: ignore[union-attr]
    clock.advance(3)
    session.record(verdict="correct", rating=Rating.Good, seconds=3)
    assert session.next_card().id == "b"  # type: ignore[union-attr]
    clock.advance(3)
    session.record(verdict="correct", rating=Rating.Good, seconds=3)
    assert session.next_card().id == "a"  # type: ignore[union-attr]  # the queue is done
    assert store.review_count() == 3


def test_skipping_the_only_card_left_keeps_it_on_screen(store: Store) -> None:
    cards = load(store, make_deck("d", "a"))
    session = start(store, cards, FakeClock(), budget=Budget.until_done())
    assert session.next_card() is not None
    assert not session.set_aside(requeue=True)  # skipping it would only end the session
    assert session.current is not None and session.current.id == "a"


def test_set_aside_after_a_bury_drops_the_card(store: Store) -> None:
    cards = load(store, make_deck("d", "a", "b"))
    clock = FakeClock()
    session = start(store, cards, clock, budget=Budget.until_done())
    card = session.next_card()
    assert card is not None and card.id == "a"
    state = session.current_state
    assert state is not None
    store.bury([state.db_id], clock() + timedelta(days=1))
    assert session.set_aside(requeue=False)
    assert drain(session, clock)[0] == "b" and "a" not in drain(session, clock)
