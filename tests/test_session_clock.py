# ruff: noqa: F811  (pytest fixtures imported from store_fixtures shadow their parameters)
"""A clock that cannot be cheated (issue 11, item 3, the session side), with a fake clock: skip
and undo give no time back (and a resumed session still counts it), undo keeps the hint
penalty, "time is up" while the last card is on screen, and pauses that nest."""

from __future__ import annotations

from datetime import UTC

import pytest
from store_fixtures import T0, FakeClock, db_url, make_deck, store  # noqa: F401

from recall.cards.model import Card, Deck
from recall.config import Settings
from recall.scheduling import Rating
from recall.session import Budget, Owner, Session
from recall.store import Store


def load(store: Store, *decks: Deck) -> list[Card]:
    store.sync_decks(list(decks), now=T0)
    return [card for deck in decks for card in deck.cards]


def start(store: Store, cards: list[Card], clock: FakeClock, **kwargs) -> Session:  # noqa: ANN003
    kwargs.setdefault("settings", Settings(new_per_day=50))
    return Session.start(store, cards, clock=clock, tz=UTC, fuzz=False, **kwargs)


def five_cards(store: Store) -> list[Card]:
    return load(store, make_deck("d", "a", "b", "c", "e", "f"))


def test_a_skip_gives_no_time_back(store: Store) -> None:
    clock = FakeClock()
    session = start(store, five_cards(store), clock, budget=Budget.minutes(1))
    session.next_card()
    clock.advance(40)
    assert session.set_aside(requeue=True)
    assert session.elapsed_seconds == pytest.approx(40)
    session.next_card()
    clock.advance(25)
    recorded = session.record(verdict="correct", rating=Rating.Good)
    assert recorded.finished and session.next_card() is None  # 40 + 25 s of a 60 s budget


def test_a_bury_gives_no_time_back(store: Store) -> None:
    clock = FakeClock()
    session = start(store, five_cards(store), clock)
    session.next_card()
    clock.advance(30)
    assert session.set_aside(requeue=False)
    assert session.elapsed_seconds == pytest.approx(30)


def test_an_undo_gives_no_time_back(store: Store) -> None:
    clock = FakeClock()
    session = start(store, five_cards(store), clock, budget=Budget.minutes(1))
    session.next_card()
    clock.advance(35)
    session.record(verdict="correct", rating=Rating.Good)
    session.next_card()
    clock.advance(10)  # time on the next card, taken off screen by the undo: spent too
    shown = session.undo()
    assert shown is not None
    assert session.elapsed_seconds == pytest.approx(45)
    clock.advance(20)
    recorded = session.record(verdict="correct", rating=Rating.Good)
    assert recorded.entry.seconds == pytest.approx(20)  # the new answer's own time
    assert recorded.finished  # 35 + 10 + 20 s of a 60 s budget


def test_skipped_and_undone_time_survives_a_crash(store: Store) -> None:
    clock = FakeClock()
    host = Owner.this_process().host
    crashed = start(store, five_cards(store), clock, owner=Owner(host, 4_000_002))
    crashed.next_card()
    clock.advance(30)
    crashed.set_aside(requeue=True)
    crashed.next_card()
    clock.advance(12)
    crashed.record(verdict="correct", rating=Rating.Good)
    crashed.undo()  # the 12 s answer is taken back, its time is not
    clock.advance(1)
    resumed = Session.recover(
        store, five_cards(store), clock=clock, tz=UTC, fuzz=False, alive=lambda pid: False
    )
    assert resumed is not None and resumed.id == crashed.id
    assert resumed.cards_done == 0
    assert resumed.elapsed_seconds == pytest.approx(30 + 12)


def test_undo_keeps_the_hint_penalty(store: Store) -> None:
    clock = FakeClock()
    session = start(store, five_cards(store), clock)
    first = session.next_card()
    clock.advance(3)
    assert session.suggest("correct") is Rating.Good
    session.record(verdict="correct", rating=Rating.Good, hint_used=True)
    assert session.undo() == first
    assert session.current_hinted
    clock.advance(2)
    assert session.suggest("correct") is Rating.Hard  # quick and right, but hinted before
    recorded = session.record(verdict="correct", rating=Rating.Hard)
    assert recorded.entry.hint_used  # the log says so, though the caller did not repeat it
    assert session.next_card() is not None and not session.current_hinted


def test_a_hint_seen_on_screen_is_remembered_for_the_answer(store: Store) -> None:
    clock = FakeClock()
    session = start(store, five_cards(store), clock)
    session.next_card()
    session.mark_hint()
    clock.advance(2)
    assert session.suggest("correct") is Rating.Hard
    assert session.record(verdict="correct", rating=Rating.Good).entry.hint_used


def test_time_is_up_while_the_last_card_is_on_screen(store: Store) -> None:
    clock = FakeClock()
    session = start(store, five_cards(store), clock, budget=Budget.minutes(1))
    session.next_card()
    clock.advance(59)
    assert not session.time_up and session.remaining_seconds == pytest.approx(1)
    clock.advance(2)
    assert session.time_up and session.current is not None  # finish this card
    recorded = session.record(verdict="correct", rating=Rating.Good)
    assert recorded.finished and not session.time_up and session.next_card() is None


def test_a_cards_budget_is_never_time_up(store: Store) -> None:
    clock = FakeClock()
    session = start(store, five_cards(store), clock, budget=Budget.cards(2))
    session.next_card()
    clock.advance(3600)
    assert not session.time_up


def test_nested_pauses_neither_double_count_nor_resume_early(store: Store) -> None:
    clock = FakeClock()
    session = start(store, five_cards(store), clock)
    session.next_card()
    clock.advance(10)
    session.pause("help")
    clock.advance(100)
    session.pause("dialog")  # a dialog over the help screen
    clock.advance(100)
    session.resume("dialog")
    assert session.paused  # help is still open
    clock.advance(100)
    session.resume("help")
    assert not session.paused
    session.resume("help")  # a second close is ignored
    session.resume("palette")  # and so is a resume nothing paused
    clock.advance(5)
    assert session.seconds_on_current() == pytest.approx(15)


def test_the_same_reason_nests_too(store: Store) -> None:
    clock = FakeClock()
    session = start(store, five_cards(store), clock)
    session.next_card()
    session.pause("dialog")
    session.pause("dialog")
    session.resume("dialog")
    clock.advance(50)
    assert session.paused and session.seconds_on_current() == 0
    session.resume("dialog")
    clock.advance(4)
    assert session.seconds_on_current() == pytest.approx(4)


def test_a_card_shown_during_a_pause_starts_with_its_clock_standing(store: Store) -> None:
    clock = FakeClock()
    session = start(store, five_cards(store), clock)
    session.next_card()
    clock.advance(3)
    with session.paused_for("palette"):
        session.record(verdict="correct", rating=Rating.Good)
        session.next_card()
        clock.advance(100)
        assert session.seconds_on_current() == 0
    clock.advance(6)
    assert session.seconds_on_current() == pytest.approx(6)
    assert session.elapsed_seconds == pytest.approx(9)
