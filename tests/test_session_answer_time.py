# ruff: noqa: F811  (pytest fixtures imported from store_fixtures shadow their parameters)
"""The summary's time per card is each answer's own time, read back from the log.

A review's time on screen (``seconds``: what the budget and the pace count) runs from the card
shown to its rating; its answer time runs from the card shown, or asked again after its verdict
was taken back, to the answer given (:meth:`Session.mark_answered`). The summary's median is of
answer times, so reading a verdict, an answer taken back, a skip, an undone review and a pause
never make a card look slower; its total time still counts all of them. A fake clock moves time.
"""

from __future__ import annotations

from datetime import UTC

import pytest
from store_fixtures import T0, FakeClock, db_url, make_deck, store  # noqa: F401

from recall.cards.model import Card
from recall.config import Settings
from recall.scheduling import Rating
from recall.session import Budget, Session
from recall.store import ReviewInput, Store
from recall.verdicts import Status


def start(store: Store, clock: FakeClock, *card_ids: str, **kwargs: object) -> Session:
    deck = make_deck("d", *card_ids)
    store.sync_decks([deck], now=T0)
    cards: list[Card] = list(deck.cards)
    return Session.start(
        store,
        cards,
        clock=clock,
        tz=UTC,
        fuzz=False,
        settings=Settings(new_per_day=50),
        **kwargs,  # type: ignore[arg-type]
    )


def good(session: Session) -> None:
    session.record(verdict=Status.CORRECT, rating=Rating.Good)


def logged(store: Store, session: Session) -> list[tuple[str, float, float | None]]:
    """(card, time on screen, answer time) of each review in the log."""
    return [(e.card_key, e.seconds, e.answer_seconds) for e in store.reviews(session_id=session.id)]


def test_the_answer_time_stops_at_the_answer_not_at_the_rating(store: Store) -> None:
    clock = FakeClock()
    session = start(store, clock, "a", budget=Budget.until_done())
    card = session.next_card()
    assert card is not None
    clock.advance(12)
    session.mark_answered()
    clock.advance(40)  # reading the verdict and the worked answer
    good(session)
    assert logged(store, session) == [(card.key, 52.0, 12.0)]
    summary = session.end()
    assert summary.median_answer_seconds == pytest.approx(12)
    assert summary.seconds_on_cards == pytest.approx(52)


def test_an_answer_given_again_moves_the_mark_and_a_pause_is_not_counted(store: Store) -> None:
    clock = FakeClock()
    session = start(store, clock, "a", budget=Budget.until_done())
    assert session.next_card() is not None
    clock.advance(5)
    session.mark_answered()  # unreadable: back to typing
    clock.advance(3)
    session.pause("help")
    clock.advance(100)
    session.resume("help")
    clock.advance(2)
    session.mark_answered()
    clock.advance(9)
    good(session)
    assert [(s, a) for _, s, a in logged(store, session)] == [(19.0, 10.0)]


def test_a_taken_back_answer_is_not_the_retakes_time(store: Store) -> None:
    clock = FakeClock()
    session = start(store, clock, "a", budget=Budget.until_done())
    assert session.next_card() is not None
    clock.advance(6)
    session.mark_answered()
    clock.advance(4)  # the verdict, then Ctrl-Z
    session.ask_again()
    clock.advance(7)
    session.mark_answered()
    clock.advance(1)
    good(session)
    # All 18 s were on this card and stay in its time on screen; the answer took 7.
    assert [(s, a) for _, s, a in logged(store, session)] == [(18.0, 7.0)]


def test_skipped_and_undone_time_stay_out_of_the_median_but_in_the_time_spent(
    store: Store,
) -> None:
    clock = FakeClock()
    session = start(store, clock, "a", "b", "c", budget=Budget.cards(2))
    assert session.next_card() is not None
    clock.advance(50)
    assert session.set_aside(requeue=True)  # skipped after 50 s: asked later
    second = session.next_card()
    assert second is not None
    clock.advance(4)
    session.mark_answered()
    clock.advance(1)
    good(session)
    assert session.next_card() is not None
    clock.advance(2)
    back = session.undo()  # that review goes; the card just shown goes back in the queue
    assert back is not None and back.key == second.key
    clock.advance(3)
    session.mark_answered()
    clock.advance(1)
    good(session)
    assert session.next_card() is not None
    clock.advance(8)
    session.mark_answered()
    clock.advance(1)
    good(session)
    assert [(s, a) for _, s, a in logged(store, session)] == [(4.0, 3.0), (9.0, 8.0)]
    summary = session.end()
    assert summary.median_answer_seconds == pytest.approx(5.5)
    # The time spent is everything: the skip, the undone review and the 2 s before the undo.
    assert summary.seconds_on_cards == pytest.approx(13)
    assert store.session(session.id).set_aside_seconds == pytest.approx(50 + 5 + 2)


def test_the_last_card_past_time_up_counts_its_answer_not_the_time_after_it(
    store: Store,
) -> None:
    clock = FakeClock()
    session = start(store, clock, "a", "b", budget=Budget.minutes(1))
    assert session.next_card() is not None
    clock.advance(50)
    session.mark_answered()
    clock.advance(5)
    good(session)
    assert session.next_card() is not None
    clock.advance(20)  # time is up at 5 s into this card: it is still finished
    assert session.time_up
    session.mark_answered()
    clock.advance(300)  # the verdict left on screen while the learner was away
    good(session)
    assert [a for _, _, a in logged(store, session)] == [50.0, 20.0]
    summary = session.end()
    assert summary.median_answer_seconds == pytest.approx(35)
    assert summary.seconds_on_cards == pytest.approx(375)


def test_a_resumed_session_sums_up_the_same_answer_times(store: Store) -> None:
    clock = FakeClock()
    crashed = start(store, clock, "a", "b", "c", budget=Budget.until_done())
    for seconds in (3, 11):
        assert crashed.next_card() is not None
        clock.advance(seconds)
        crashed.mark_answered()
        clock.advance(30)
        good(crashed)
    crashed.release()
    resumed = Session.recover(
        store, list(make_deck("d", "a", "b", "c").cards), session_id=crashed.id, clock=clock
    )
    assert resumed is not None
    assert resumed.next_card() is not None
    clock.advance(5)
    resumed.mark_answered()
    good(resumed)
    summary = resumed.end()
    assert summary.median_answer_seconds == pytest.approx(5)  # of 3, 5 and 11, from the log


def test_a_review_logged_without_an_answer_time_counts_its_time_on_screen(store: Store) -> None:
    clock = FakeClock()
    session = start(store, clock, "a", budget=Budget.until_done())
    card = session.next_card()
    assert card is not None
    clock.advance(9)
    session.record(verdict=Status.CORRECT, rating=Rating.Good)  # nothing marked: all of it
    assert logged(store, session) == [(card.key, 9.0, 9.0)]
    stored = store.cards_by_key([card.key])[card.key]
    old = ReviewInput(rating=Rating.Good, reviewed_at=clock(), verdict=Status.CORRECT, seconds=4)
    entry = store.apply_review(stored.db_id, old, None).entry
    assert entry.answer_seconds is None and entry.seconds == pytest.approx(4)
