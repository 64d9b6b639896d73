# ruff: noqa: F811  (pytest fixtures imported from store_fixtures shadow their parameters)
"""Two windows never answer the same card at once (issue 10, item 11): the card on screen is
claimed in the store, another session's queue passes over it while its owner lives, and the
claim goes with a record, a skip, an undo, the end of the session, a dead owner or time."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from datetime import UTC, timedelta
from pathlib import Path

from store_fixtures import T0, FakeClock, db_url, make_deck, store  # noqa: F401

from recall.cards.model import Card, Deck
from recall.config import Settings
from recall.scheduling import Rating
from recall.session import CLAIM_EXPIRY, Mode, Owner, Session
from recall.store import Store, open_store


def load(store: Store, *decks: Deck) -> list[Card]:
    store.sync_decks(list(decks), now=T0)
    return [card for deck in decks for card in deck.cards]


def window(store: Store, cards: list[Card], clock: FakeClock, **kwargs) -> Session:  # noqa: ANN003
    """A session as one window would start it (the same process unless ``owner`` says not)."""
    kwargs.setdefault("settings", Settings(new_per_day=50))
    return Session.start(store, cards, clock=clock, tz=UTC, fuzz=False, **kwargs)


def claimed_keys(store: Store) -> set[str]:
    """The ``deck/card`` keys the store holds claims on, counted with SQL."""
    from sqlalchemy import text

    engine = store._engine  # noqa: SLF001 - the test reads the table itself
    with engine.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT d.slug || '/' || c.key FROM card_claims k JOIN cards c ON c.id = k.card_id"
                " JOIN decks d ON d.id = c.deck_id WHERE k.learner_id = :learner"
            ),
            {"learner": store.learner_id},
        ).all()
    return {row[0] for row in rows}


def test_a_second_window_skips_the_card_on_screen_in_the_first(store: Store) -> None:
    cards = load(store, make_deck("d", "a", "b", "c"))
    clock = FakeClock()
    first, second = window(store, cards, clock), window(store, cards, clock)
    shown_first = first.next_card()
    shown_second = second.next_card()
    assert shown_first is not None and shown_second is not None
    assert shown_first.key != shown_second.key
    assert claimed_keys(store) == {shown_first.key, shown_second.key}


def test_a_skipped_card_is_let_go_and_answered_in_the_other_window(store: Store) -> None:
    cards = load(store, make_deck("d", "a", "b", "c"))
    clock = FakeClock()
    first, second = window(store, cards, clock), window(store, cards, clock)
    a = first.next_card()
    b = second.next_card()
    assert a is not None and b is not None
    assert first.set_aside(requeue=True)  # skip a: another window may take it now
    c = first.next_card()  # b is on screen in the second window: passed over
    assert c is not None and c.key not in (a.key, b.key)
    clock.advance(5)
    second.record(verdict="correct", rating=Rating.Good, seconds=5)
    assert b.key not in claimed_keys(store)
    assert second.next_card() == a  # first's skipped card, free again


def test_recording_and_ending_release_claims(store: Store) -> None:
    cards = load(store, make_deck("d", "a", "b"))
    clock = FakeClock()
    first = window(store, cards, clock)
    shown = first.next_card()
    assert shown is not None and claimed_keys(store) == {shown.key}
    first.record(verdict="correct", rating=Rating.Good, seconds=3)
    assert claimed_keys(store) == set()
    first.next_card()
    first.end()
    assert claimed_keys(store) == set()


def test_undo_claims_the_card_it_shows_again(store: Store) -> None:
    cards = load(store, make_deck("d", "a", "b"), make_deck("e", "x"))
    clock = FakeClock()
    first = window(store, cards, clock, mode=Mode.CRAM)
    shown = first.next_card()
    assert shown is not None
    first.record(verdict="correct", rating=Rating.Good, seconds=3)
    following = first.next_card()
    assert following is not None
    assert first.undo() == shown
    assert claimed_keys(store) == {shown.key}  # the card pushed back is let go
    second = window(store, cards, clock, mode=Mode.CRAM)
    seen = set()
    while (card := second.next_card()) is not None:
        seen.add(card.key)
        second.record(verdict="correct", rating=Rating.Good, seconds=1)
    assert shown.key not in seen and following.key in seen


def test_a_claim_whose_owner_died_on_this_machine_is_taken_over(store: Store) -> None:
    cards = load(store, make_deck("d", "a"))
    clock = FakeClock()
    host = Owner.this_process().host
    crashed = window(store, cards, clock, owner=Owner(host, 4_000_001))
    on_screen = crashed.next_card()
    assert on_screen is not None
    alive = window(store, cards, clock, owner=Owner(host, 2), alive=lambda pid: True)
    assert alive.next_card() is None  # its owner looks alive: the only card is taken
    dead = window(store, cards, clock, owner=Owner(host, 3), alive=lambda pid: pid != 4_000_001)
    assert dead.next_card() == on_screen


def test_a_claim_expires_so_a_crash_elsewhere_never_locks_a_card(store: Store) -> None:
    cards = load(store, make_deck("d", "a"))
    clock = FakeClock()
    elsewhere = window(store, cards, clock, owner=Owner("another-machine", 77))
    on_screen = elsewhere.next_card()
    assert on_screen is not None
    clock.advance(CLAIM_EXPIRY.total_seconds() - 1)
    assert window(store, cards, clock).next_card() is None
    clock.advance(2)
    assert window(store, cards, clock).next_card() == on_screen


def test_resuming_after_a_pause_renews_the_claim(store: Store) -> None:
    cards = load(store, make_deck("d", "a"))
    clock = FakeClock()
    first = window(store, cards, clock, owner=Owner("another-machine", 77))
    on_screen = first.next_card()
    assert on_screen is not None
    first.pause("help")
    clock.advance(CLAIM_EXPIRY.total_seconds() - 1)
    first.resume("help")
    clock.advance(2)  # past the first claim's expiry, not the renewed one's
    assert window(store, cards, clock).next_card() is None


def test_two_processes_never_show_the_same_card(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'two.sqlite3'}"
    store = open_store(url)
    cards = load(store, make_deck("d", "a", "b"))
    tests = Path(__file__).parent
    script = textwrap.dedent(
        f"""
        import sys
        sys.path.insert(0, {str(tests)!r})
        from datetime import UTC, timedelta
        from store_fixtures import make_deck
        from recall.config import Settings
        from recall.session import Session
        from recall.store import open_store
        store = open_store({url!r})
        deck = make_deck("d", "a", "b")
        session = Session.start(store, deck.cards, settings=Settings(new_per_day=50), tz=UTC)
        print(session.next_card().key, flush=True)
        sys.stdin.readline()  # hold the card until told to die
        """
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        held = child.stdout.readline().strip()
        here = Session.start(store, cards, settings=Settings(new_per_day=50), tz=UTC)
        mine = here.next_card()
        assert held in ("d/a", "d/b") and mine is not None and mine.key != held
        here.release()
    finally:
        child.kill()  # a crash: no release
        child.wait()
    after = Session.start(store, cards, settings=Settings(new_per_day=50), tz=UTC)
    shown = after.next_card()  # its owner is dead: the first card in the queue is free again
    assert shown is not None and shown.key == "d/a"
    store.close()


def test_leaving_mid_card_lets_the_card_go(store: Store) -> None:
    cards = load(store, make_deck("d", "a"))
    clock = FakeClock()
    first = window(store, cards, clock)
    first.next_card()
    first.pause("dialog")
    first.release()
    assert claimed_keys(store) == set()


# ----- issue 17, item 6: the card is checked at the moment it is shown --------------------------


def test_a_card_the_other_window_just_answered_is_not_asked_ahead_of_its_step(
    store: Store,
) -> None:
    """Both queues were built before either answered. The other window's answer puts ``a`` on
    a learning step; this window must not learn it ahead (it would be asked twice, minutes
    before due): only its own card may come back early."""
    cards = load(store, make_deck("d", "a", "b"))
    clock = FakeClock(T0 + timedelta(microseconds=654_321))  # the store keeps milliseconds
    first, second = window(store, cards, clock), window(store, cards, clock)
    a, b = first.next_card(), second.next_card()
    assert a is not None and b is not None and a.key != b.key
    clock.advance(4)
    first.record(verdict="correct", rating=Rating.Good, seconds=4)
    clock.advance(2)
    second.record(verdict="correct", rating=Rating.Good, seconds=6)
    again = second.next_card()  # its own card, learnt ahead
    assert again is not None and again.key == b.key
    second.record(verdict="correct", rating=Rating.Good, seconds=1)
    due = store.card(first._queue.stored[a.key].db_id).state.due  # noqa: SLF001
    assert due is not None
    clock.now = due  # once its step is due, either window may take it
    later = second.next_card()
    assert later is not None and later.key == a.key


def test_a_card_answered_and_let_go_between_the_check_and_the_claim_is_not_shown(
    store: Store,
) -> None:
    """The race behind two real windows showing one card: this window looks at ``a`` (still
    new), the other answers it and lets go, then this window claims it. The card is read again
    after the claim, so it is passed over."""
    cards = load(store, make_deck("d", "a", "b"))
    clock = FakeClock()
    first = window(store, cards, clock)
    shown = first.next_card()
    assert shown is not None and shown.key == "d/a"
    second = window(store, cards, clock)
    claim = second._claim  # noqa: SLF001

    def other_window_answers_first(key: str, now):  # noqa: ANN001, ANN202
        if key == "d/a" and first.current is not None:
            clock.advance(3)
            first.record(verdict="correct", rating=Rating.Good, seconds=3)  # and lets go
        return claim(key, now)

    second._claim = other_window_answers_first  # type: ignore[method-assign]  # noqa: SLF001
    second._queue.held_elsewhere.clear()  # noqa: SLF001
    second._queue.pending.appendleft("d/a")  # noqa: SLF001 - as if queued before the claim
    following = second.next_card()
    assert following is not None and following.key == "d/b"
    assert claimed_keys(store) == {"d/b"}  # the card passed over was let go again
    log = store.reviews()
    assert [entry.card_key for entry in log] == ["d/a"]
