"""The :class:`Store` facade: every read and write recall makes, as methods taking and
returning plain values.

Each method opens one transaction (a write is committed before the method returns), runs the
statements of :mod:`recall.store.queries` in it, and converts the rows with
:mod:`recall.store.rows`. Database errors become :class:`recall.errors.StoreError` here.
"""

from __future__ import annotations

import dataclasses
import functools
import os
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from types import SimpleNamespace
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import Connection, Engine, delete, func, insert, select, update
from sqlalchemy.engine import URL

from recall.cards.model import Deck
from recall.clock import utc_now
from recall.errors import StoreError
from recall.scheduling.rating import Rating
from recall.scheduling.state import CardState, ReviewKind
from recall.store import claims
from recall.store import queries as q
from recall.store.engine import DATABASE_ERRORS, WRITE, store_error
from recall.store.models import (
    DEFAULT_LEARNER,
    KIND_CRAM,
    KIND_NEW,
    KIND_REVIEW,
    QUEUE_LEARNING,
    QUEUE_NEW,
    QUEUE_RETIRED,
    QUEUE_REVIEW,
    CardRow,
    CardStateRow,
    DeckRow,
    ReviewRow,
    SessionRow,
)
from recall.store.records import (
    AppliedReview,
    CardClaim,
    DeckCounts,
    DeckSize,
    Memory,
    ReviewEntry,
    ReviewInput,
    SessionInfo,
    StoredCard,
    SyncReport,
)
from recall.store.rows import (
    deck_counts,
    deck_sizes,
    memory_arrays,
    review_entry,
    review_kind,
    review_values,
    session_info,
    session_values,
    stored_card,
)
from recall.store.sync import retire_decks, sync_decks, vanished_decks
from recall.store.timeutil import from_millis
from recall.verdicts import Status

P = ParamSpec("P")
R = TypeVar("R")


def _translated(method: Callable[P, R]) -> Callable[P, R]:
    """Turn database errors raised inside a store method into :class:`StoreError`."""

    @functools.wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except DATABASE_ERRORS as error:
            store = args[0]
            assert isinstance(store, Store)
            raise store_error(error, store.url) from error

    return wrapper


class Store:
    """recall's database, as one learner sees it. Open one with :func:`recall.store.open_store`.

    This is the choke point of learner isolation: every statement the store runs over a
    per-learner table (:data:`recall.store.models.PER_LEARNER_TABLES`) names ``learner_id``,
    filtering by :attr:`learner_id` and setting it on inserts; decks and cards are shared."""

    def __init__(self, engine: Engine, url: URL, learner_id: int = DEFAULT_LEARNER) -> None:
        self._engine = engine
        self.url = url
        self.learner_id = learner_id

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self._engine.dialect.name

    def close(self) -> None:
        """Release every connection (the store can still be used; it reconnects)."""
        self._engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        with self._engine.connect() as conn, conn.begin():
            yield conn

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        with self._engine.connect().execution_options(**WRITE) as conn, conn.begin():
            yield conn

    # ------------------------------------------------------------------ decks and cards

    @_translated
    def sync_decks(self, decks: Sequence[Deck], now: datetime | None = None) -> SyncReport:
        """Bring the cards of ``decks`` in line with their files (see :mod:`.sync`)."""
        with self._write() as conn:
            return sync_decks(conn, decks, now or utc_now(), self.learner_id)

    @_translated
    def retire_vanished_decks(
        self,
        folders: Iterable[str | os.PathLike[str]],
        keep: Collection[str],
        now: datetime | None = None,
    ) -> SyncReport:
        """Retire the cards of decks whose file lived in one of ``folders`` (just scanned) and
        is gone, unless their id is in ``keep`` (see :func:`.sync.vanished_decks`). Nothing is
        written, and no write lock taken, when no deck has vanished (the usual start)."""
        folders = list(folders)
        with self._read() as conn:
            if not vanished_decks(conn, folders, keep, self.learner_id):
                return SyncReport()
        with self._write() as conn:
            gone = vanished_decks(conn, folders, keep, self.learner_id)
            return retire_decks(conn, gone, now or utc_now())

    @_translated
    def card(self, card_db_id: int) -> StoredCard:
        """One card by its database key (:attr:`StoredCard.db_id`)."""
        with self._read() as conn:
            row = conn.execute(
                q.cards_of(self.learner_id).where(CardStateRow.card_id == card_db_id)
            ).one_or_none()
        if row is None:
            raise StoreError(f"no card with database key {card_db_id}")
        return stored_card(row)

    @_translated
    def cards_by_key(self, keys: Collection[str] | None = None) -> dict[str, StoredCard]:
        """Cards by ``deck/card`` key (all cards when ``keys`` is ``None``; unknown keys are
        left out)."""
        if keys is None:
            with self._read() as conn:
                mine = q.cards_of(self.learner_id)
                return {c.key: c for c in map(stored_card, conn.execute(mine))}
        by_deck: dict[str, list[str]] = {}
        for key in keys:
            deck, _slash, card = key.partition("/")
            by_deck.setdefault(deck, []).append(card)
        out: dict[str, StoredCard] = {}
        with self._read() as conn:
            for deck, cards in by_deck.items():
                for start in range(0, len(cards), 500):  # stay under every driver's parameter cap
                    chunk = cards[start : start + 500]
                    query = q.cards_of(self.learner_id).where(
                        DeckRow.slug == deck, CardRow.key.in_(chunk)
                    )
                    out.update((c.key, c) for c in map(stored_card, conn.execute(query)))
        return out

    @_translated
    def due_cards(
        self,
        now: datetime,
        *,
        limit: int = 50,
        decks: Collection[str] | None = None,
        topic: str | None = None,
        learning_only: bool = False,
    ) -> list[StoredCard]:
        """Learning and review cards due at ``now``, most overdue first."""
        if decks is None and topic is None and not learning_only:
            with self._read() as conn:
                rows = conn.execute(
                    q.DUE_ALL, {"now": now, "limit": limit, "learner": self.learner_id}
                )
                return [stored_card(row) for row in rows]
        query = q.cards_of(self.learner_id).where(q.ACTIVE, CardStateRow.due <= now)
        if learning_only:
            query = query.where(CardStateRow.queue == QUEUE_LEARNING)
        query = q.filtered(query, decks, topic).order_by(CardStateRow.due).limit(limit)
        with self._read() as conn:
            return [stored_card(row) for row in conn.execute(query)]

    @_translated
    def new_cards(
        self, *, limit: int, decks: Collection[str] | None = None, topic: str | None = None
    ) -> list[StoredCard]:
        """New cards in deck-file order (decks in the order they were first synced)."""
        if limit <= 0:
            return []
        query = q.filtered(q.cards_of(self.learner_id).where(q.NEW), decks, topic)
        query = query.order_by(CardStateRow.deck_id, CardStateRow.card_id).limit(limit)
        with self._read() as conn:
            return [stored_card(row) for row in conn.execute(query)]

    @_translated
    def new_card_heads(
        self, *, limit: int, decks: Collection[str] | None = None, topic: str | None = None
    ) -> list[tuple[str, str, str, str | None]]:
        """(deck, card, topic, sibling group) of the new cards :meth:`new_cards` gives, in its
        order: what ordering them needs, as plain tuples (a :class:`StoredCard` for each of
        20,000 new cards was half of planning a day)."""
        if limit <= 0:
            return []
        query = q.NEW_CARD_HEADS.where(CardStateRow.learner_id == self.learner_id)
        query = q.filtered(query, decks, topic)
        query = query.order_by(CardStateRow.deck_id, CardStateRow.card_id).limit(limit)
        with self._read() as conn:
            rows = conn.execute(query).all()  # fetched at once, not row by row
        return [(row[0], row[1], row[2], row[3]) for row in rows]

    def buried_new_by_deck(
        self, *, decks: Collection[str] | None = None, topic: str | None = None
    ) -> dict[str, int]:
        """New cards (never reviewed) buried until tomorrow as siblings of a card seen today,
        per deck: still waiting to be learned, though no session today shows them."""
        query = q.filtered(
            q.cards_of(self.learner_id).where(q.BURIED, CardStateRow.last_review.is_(None)),
            decks,
            topic,
        )
        found: dict[str, int] = {}
        with self._read() as conn:
            for row in conn.execute(query):
                deck = stored_card(row).deck
                found[deck] = found.get(deck, 0) + 1
        return found

    @_translated
    def deck_counts(
        self,
        now: datetime,
        day_end: datetime,
        new_limit: int | None = None,
        due_limit: int | None = None,
    ) -> list[DeckCounts]:
        """New / learning / due counts per deck for the home screen.

        ``learning`` and ``due`` count cards due before ``day_end`` (the end of the study day).
        Each count stops at a cap when one is given: ``new_limit`` (what is left of today's
        new-card allowance) for new cards, ``due_limit`` (reviews left today) for the others;
        counting further would show work the learner cannot do today, and the cap keeps each
        count a short index scan however large the collection or the backlog.
        """
        self.release_buried(now)
        with self._read() as conn:
            decks = conn.execute(q.DECKS, {"learner": self.learner_id}).all()
            if not decks:
                return []
            if conn.dialect.name == "postgresql":
                return self._grouped_deck_counts(conn, decks, day_end, new_limit, due_limit)
            params: dict[str, Any] = {f"d{i}": deck_id for i, (deck_id, _s, _n) in enumerate(decks)}
            params.update(
                day_end=day_end, new_cap=new_limit, due_cap=due_limit, learner=self.learner_id
            )
            statement = q.per_deck_counts(len(decks), new_limit is not None, due_limit is not None)
            return deck_counts(decks, conn.execute(statement, params).all())

    def _grouped_deck_counts(
        self,
        conn: Connection,
        decks: Sequence[Any],
        day_end: datetime,
        new_limit: int | None,
        due_limit: int | None,
    ) -> list[DeckCounts]:
        """:meth:`deck_counts` in one scan (PostgreSQL: :func:`q.grouped_deck_counts` says
        why), each count then stopped at its cap as the capped scans stop."""
        slots = {deck_id: i for i, (deck_id, _s, _n) in enumerate(decks)}
        rows = []
        for deck_id, queue, count in conn.execute(
            q.grouped_deck_counts(self.learner_id, list(slots), day_end)
        ):
            cap = new_limit if queue == QUEUE_NEW else due_limit
            rows.append((slots[deck_id], queue, count if cap is None else min(count, cap)))
        return deck_counts(decks, rows)

    @_translated
    def own_deck_path(self, slug: str) -> str | None:
        """The file this learner's custom deck ``slug`` was last synced from (``None``: no such
        deck, or one synced before paths were kept): which of two deck files claiming one id
        already holds it (:func:`recall.cards.loader.load_decks`)."""
        with self._read() as conn:
            path = conn.execute(
                q.OWN_DECK_PATH, {"slug": slug, "learner": self.learner_id}
            ).scalar_one_or_none()
        return str(path) if path else None

    @_translated
    def deck_sizes(self) -> list[DeckSize]:
        """Cards per deck: active, suspended and retired (counts every card: not for every
        frame, for the deck list)."""
        with self._read() as conn:
            decks = conn.execute(q.DECKS, {"learner": self.learner_id}).all()
            per_queue = conn.execute(q.CARDS_PER_QUEUE, {"learner": self.learner_id}).all()
            return deck_sizes(decks, per_queue)

    @_translated
    def introduced_and_reviewed(self, since: datetime) -> tuple[int, int]:
        """(new cards first seen, review-phase reviews) since ``since``: today's limits spent."""
        with self._read() as conn:
            rows = conn.execute(q.limits_spent_query(since, self.learner_id)).all()
        counts = dict(rows)
        return int(counts.get(KIND_NEW, 0)), int(counts.get(KIND_REVIEW, 0))

    # ------------------------------------------------------------------ flags

    @_translated
    def set_suspended(self, card_db_id: int, suspended: bool) -> StoredCard:
        """Suspend a card (it leaves every queue, state kept) or bring it back."""
        with self._write() as conn:
            q.set_suspended(conn, self.learner_id, card_db_id, suspended)
        return self.card(card_db_id)

    @_translated
    def bury(self, card_db_ids: Collection[int], until: datetime) -> int:
        """Hide cards until ``until`` (the next study day), at the learner's request; returns
        how many. Learning cards too: the learner asked (sibling burying spares them, see
        :meth:`apply_review`, because their short steps cannot wait a day unasked)."""
        with self._write() as conn:
            return q.bury(
                conn,
                self.learner_id,
                card_db_ids,
                until,
                queues=(QUEUE_NEW, QUEUE_LEARNING, QUEUE_REVIEW),
            )

    @_translated
    def release_buried(self, now: datetime) -> int:
        """Return cards whose burial has ended to their queues; returns how many."""
        with self._read() as conn:
            if not q.any_burial_over(conn, now, self.learner_id):
                return 0
        with self._write() as conn:
            return q.release_buried(conn, now, self.learner_id)

    @_translated
    def leeches(self, threshold: int) -> list[StoredCard]:
        """Cards with at least ``threshold`` lapses (not retired), most lapses first."""
        if threshold <= 0:
            return []
        query = (
            q.cards_of(self.learner_id)
            .where(CardStateRow.lapses >= threshold, CardStateRow.queue != QUEUE_RETIRED)
            .order_by(CardStateRow.lapses.desc(), CardStateRow.card_id)
        )
        with self._read() as conn:
            return [stored_card(row) for row in conn.execute(query)]

    @_translated
    def memory(self, decks: Collection[str] | None = None, topic: str | None = None) -> Memory:
        """Stability and last review of every card in a queue (new, learning, review), as
        NumPy arrays: the inputs of retrievability for "weakest N" and stats."""
        with self._read() as conn:
            rows = conn.execute(q.memory_query(decks, topic, self.learner_id)).all()
            return memory_arrays(rows)

    # ------------------------------------------------------------------ reviews

    @_translated
    def apply_review(
        self,
        card_db_id: int,
        review: ReviewInput,
        schedule: Callable[[CardState], CardState] | None,
        *,
        bury_siblings_until: datetime | None = None,
    ) -> AppliedReview:
        """Log a review and store the card's next state, in one committed transaction.

        ``schedule`` maps the state read *inside* the transaction (under a write lock, so a
        second process cannot interleave) to the next state; ``None`` logs an off-schedule
        review (cram, weakest, missed) that changes no state. Siblings of the card are buried
        until ``bury_siblings_until`` when it is given.
        """
        with self._write() as conn:
            row = conn.execute(
                q.cards_of(self.learner_id)
                .where(CardStateRow.card_id == card_db_id)
                .with_for_update(of=CardStateRow)
            ).one_or_none()
            if row is None:
                raise StoreError(f"no card with database key {card_db_id}")
            card = stored_card(row)
            if card.retired:
                raise StoreError(
                    f"card {card.key} was removed from its deck and cannot be reviewed"
                )
            before = card.state
            after = schedule(before) if schedule is not None else None
            kind = ReviewKind.OFF_SCHEDULE if after is None else ReviewKind.of(before.phase)
            values = review_values(card_db_id, review, kind, before, after)
            values["learner_id"] = self.learner_id
            review_id = conn.execute(
                insert(ReviewRow).values(**values).returning(ReviewRow.id)
            ).scalar_one()
            buried = 0
            if after is not None:
                q.store_next_state(
                    conn, self.learner_id, card_db_id, after, suspended=card.suspended
                )
                if bury_siblings_until is not None and card.sibling_group is not None:
                    siblings = q.sibling_ids(conn, card.sibling_group, row.deck_pk, card_db_id)
                    buried = q.bury(conn, self.learner_id, siblings, bury_siblings_until)
            if review.session_id is not None:
                q.touch_session(conn, self.learner_id, review.session_id, review.reviewed_at)
        # Committed. Build the results from what was written rather than reading it back.
        columns = {column.name: None for column in ReviewRow.__table__.columns}
        written = SimpleNamespace(
            **{**columns, **values, "id": review_id, "slug": card.deck, "key": card.id}
        )
        if after is not None:
            card = dataclasses.replace(card, state=after, buried_until=None)
        return AppliedReview(entry=review_entry(written), card=card, buried=buried)

    @_translated
    def undo_review(self, review_id: int) -> StoredCard:
        """Remove a review from the log and restore the card's exact previous state.

        Only a card's latest review can be undone (a later one was computed from it). Siblings
        the review buried come back unless another review of their group remains that day.
        """
        gone = StoreError("that review is not in the log (already undone?)")
        with self._write() as conn:
            card_db_id = conn.execute(
                select(ReviewRow.card_id).where(
                    ReviewRow.learner_id == self.learner_id, ReviewRow.id == review_id
                )
            ).scalar()
            if card_db_id is None:
                raise gone
            # Lock the card first, then read the log: on PostgreSQL a review committed by
            # another process while we waited for the lock is seen by the reads below.
            current = conn.execute(
                select(CardStateRow.__table__)
                .where(
                    CardStateRow.learner_id == self.learner_id,
                    CardStateRow.card_id == card_db_id,
                )
                .with_for_update()
            ).one()
            log = conn.execute(
                select(ReviewRow.__table__).where(
                    ReviewRow.learner_id == self.learner_id, ReviewRow.id == review_id
                )
            ).one_or_none()
            if log is None:
                raise gone
            if log.kind != KIND_CRAM:
                if q.latest_scheduled_review(conn, self.learner_id, log.card_id) != review_id:
                    raise StoreError(
                        "the card was reviewed again after that review; undo the later one first"
                    )
                assert log.before_phase is not None
                q.restore_before(conn, log, current)
                q.unbury_group(conn, self.learner_id, log.card_id, review_id, log.reviewed_at)
            conn.execute(
                delete(ReviewRow).where(
                    ReviewRow.learner_id == self.learner_id, ReviewRow.id == review_id
                )
            )
            row = conn.execute(
                q.cards_of(self.learner_id).where(CardStateRow.card_id == log.card_id)
            ).one()
        return stored_card(row)

    @_translated
    def reviews(
        self,
        *,
        session_id: int | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        card_db_id: int | None = None,
    ) -> list[ReviewEntry]:
        """Log entries, oldest first, filtered by session, time range and card."""
        query = q.review_query(self.learner_id)
        if session_id is not None:
            query = query.where(ReviewRow.session_id == session_id)
        if since is not None:
            query = query.where(ReviewRow.reviewed_at >= since)
        if until is not None:
            query = query.where(ReviewRow.reviewed_at < until)
        if card_db_id is not None:
            query = query.where(ReviewRow.card_id == card_db_id)
        with self._read() as conn:
            return [review_entry(row) for row in conn.execute(query.order_by(ReviewRow.id))]

    @_translated
    def review_count(self) -> int:
        """How many reviews the log holds."""
        with self._read() as conn:
            count = select(func.count()).where(ReviewRow.learner_id == self.learner_id)
            return int(conn.execute(count).scalar_one())

    # ------------------------------------------------------------------ sessions

    @_translated
    def start_session(
        self,
        started_at: datetime,
        *,
        budget_kind: str,
        budget_value: float | None,
        mode: str,
        mode_count: int | None = None,
        decks: Sequence[str] = (),
        topic: str | None = None,
        owner: tuple[str, int] | None = None,
    ) -> SessionInfo:
        """Record the start of a drill session, held by ``owner`` (``(host, pid)``) if given."""
        values = session_values(
            started_at,
            budget_kind=budget_kind,
            budget_value=budget_value,
            mode=mode,
            mode_count=mode_count,
            decks=decks,
            topic=topic,
            owner=owner,
        )
        with self._write() as conn:
            session_id = conn.execute(
                insert(SessionRow)
                .values(learner_id=self.learner_id, **values)
                .returning(SessionRow.id)
            ).scalar_one()
        return self.session(int(session_id))

    @_translated
    def session(self, session_id: int) -> SessionInfo:
        """A session by id."""
        with self._read() as conn:
            row = conn.execute(
                select(SessionRow.__table__).where(
                    SessionRow.learner_id == self.learner_id, SessionRow.id == session_id
                )
            ).one_or_none()
            if row is None:
                raise StoreError(f"no session with id {session_id}")
            return session_info(row)

    @_translated
    def end_session(self, session_id: int, ended_at: datetime) -> None:
        """Mark a session finished (it will not be offered for resuming)."""
        with self._write() as conn:
            conn.execute(
                update(SessionRow)
                .where(SessionRow.learner_id == self.learner_id, SessionRow.id == session_id)
                .values(ended_at=ended_at)
            )

    @_translated
    def unfinished_session(self, newer_than: datetime | None = None) -> SessionInfo | None:
        """The latest session that never ended (a crash, a closed terminal), if any."""
        found = self.unfinished_sessions(newer_than, limit=1)
        return found[0] if found else None

    @_translated
    def unfinished_sessions(
        self, newer_than: datetime | None = None, *, limit: int = 20
    ) -> list[SessionInfo]:
        """Sessions that never ended, active since ``newer_than``, newest first (running in
        another window, or left by a crash or a closed terminal: the caller tells which)."""
        query = select(SessionRow.__table__).where(
            SessionRow.learner_id == self.learner_id, SessionRow.ended_at.is_(None)
        )
        if newer_than is not None:
            query = query.where(SessionRow.last_active_at >= newer_than)
        with self._read() as conn:
            rows = conn.execute(query.order_by(SessionRow.id.desc()).limit(limit))
            return [session_info(row) for row in rows]

    @_translated
    def claim_session(
        self,
        session_id: int,
        owner: tuple[str, int],
        now: datetime,
        *,
        expected: tuple[str | None, int | None],
    ) -> bool:
        """Make ``owner`` the holder of an unfinished session, if it is still held by
        ``expected`` (the owner seen when deciding to resume it): of two windows resuming the
        same session at once, one gets it. Returns whether this one did."""
        with self._write() as conn:
            return q.claim_session(conn, self.learner_id, session_id, owner, now, expected)

    @_translated
    def release_session(self, session_id: int, owner: tuple[str, int]) -> None:
        """Let go of a session ``owner`` holds (leaving the app mid-session): another window
        may resume it at once. A session someone else has taken over is left alone."""
        with self._write() as conn:
            q.release_session(conn, self.learner_id, session_id, owner)

    @_translated
    def claim_card(
        self,
        card_db_id: int,
        session_id: int,
        owner: tuple[str, int],
        now: datetime,
        *,
        free: Callable[[CardClaim], bool],
    ) -> bool:
        """Claim a card for the session showing it (atomically): refused while another
        session's claim stands, i.e. ``free(claim)`` is false. Returns whether it was claimed."""
        with self._write() as conn:
            return claims.claim_card(
                conn, self.learner_id, card_db_id, session_id, owner, now, free
            )

    @_translated
    def release_cards(self, session_id: int, card_db_id: int | None = None) -> None:
        """Let go of the session's claim on a card (on every card, when ``None``)."""
        with self._write() as conn:
            claims.release_claims(conn, self.learner_id, session_id, card_db_id)

    @_translated
    def add_set_aside_seconds(self, session_id: int, seconds: float) -> None:
        """Count ``seconds`` spent on a card that left the screen unreviewed (kept for good)."""
        with self._write() as conn:
            claims.add_set_aside_seconds(conn, self.learner_id, session_id, seconds)

    @_translated
    def last_finished_session(self, mode: str | None = "normal") -> SessionInfo | None:
        """The latest ended session (of ``mode``, when given) that has reviews."""
        query = q.finished_sessions_query(mode, self.learner_id)
        with self._read() as conn:
            row = conn.execute(query.order_by(SessionRow.id.desc()).limit(1)).one_or_none()
            return None if row is None else session_info(row)

    # ------------------------------------------------------------------ stats inputs

    @_translated
    def count_due(self, before: datetime) -> int:
        """How many learning and review cards fall due before ``before`` (overdue included).

        A buried card counts from the end of its burial: it is not due today, but it is waiting
        tomorrow."""
        with self._read() as conn:
            return int(conn.execute(q.count_due_query(before, self.learner_id)).scalar_one())

    @_translated
    def due_millis(self, until: datetime) -> list[int]:
        """Due times (epoch milliseconds, sorted) of active learning and review cards due
        before ``until``, overdue included: the input of the forecast. A buried card is due
        when its burial ends, if that is later. (Plain lists: the home screen's counts are
        made without importing NumPy.)"""
        with self._read() as conn:
            values = conn.execute(q.due_millis_query(until, self.learner_id)).scalars().all()
        return sorted(int(value) for value in values)

    @_translated
    def review_millis(self, since: datetime | None = None) -> list[int]:
        """Times (epoch milliseconds, in order) of every review since ``since``: the input of
        heatmaps and streaks."""
        with self._read() as conn:
            values = conn.execute(q.review_millis_query(since, self.learner_id)).scalars().all()
        return [int(value) for value in values]

    @_translated
    def review_facts(
        self, since: datetime, until: datetime
    ) -> list[tuple[datetime, ReviewKind, Rating, Status, str | None, str, str]]:
        """(time, kind, rating, verdict, diagnosis, deck, topic) of each review in a period."""
        with self._read() as conn:
            rows = conn.execute(q.review_facts_query(since, until, self.learner_id)).all()
        return [
            (at, review_kind(kind), Rating(rating), Status(verdict), diagnosis, deck, topic)
            for at, kind, rating, verdict, diagnosis, deck, topic in rows
        ]


__all__ = ["Store", "from_millis"]
