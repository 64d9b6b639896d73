"""The :class:`Store`: every read and write recall makes, as methods taking and returning
plain values. Each write is one transaction, committed before the method returns."""

from __future__ import annotations

import dataclasses
import functools
import json
import os
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import (
    BigInteger,
    Connection,
    Engine,
    Integer,
    Select,
    and_,
    bindparam,
    case,
    delete,
    func,
    insert,
    literal_column,
    or_,
    select,
    text,
    type_coerce,
    update,
)
from sqlalchemy.engine import URL

from recall.cards.model import Deck
from recall.clock import utc_now
from recall.errors import StoreError
from recall.scheduling.state import CardState, Phase
from recall.store.engine import DATABASE_ERRORS, WRITE, store_error
from recall.store.models import (
    KIND_CRAM,
    KIND_NEW,
    KIND_REVIEW,
    QUEUE_BURIED,
    QUEUE_LEARNING,
    QUEUE_NEW,
    QUEUE_RETIRED,
    QUEUE_REVIEW,
    QUEUE_SUSPENDED,
    CardRow,
    CardStateRow,
    DeckRow,
    ReviewRow,
    SessionRow,
    queue_for,
)
from recall.store.records import (
    AppliedReview,
    DeckCounts,
    DeckSize,
    Memory,
    ReviewEntry,
    ReviewInput,
    SessionInfo,
    StoredCard,
    SyncReport,
)
from recall.store.sync import requeue_expression, retire_decks, sync_decks, vanished_decks
from recall.store.timeutil import UTCMillis, from_millis

P = ParamSpec("P")
R = TypeVar("R")

# Literal zero: SQLite uses a partial index only when the query repeats its WHERE term
# verbatim, and a bound parameter (queue > ?) does not count.
_ACTIVE = CardStateRow.queue > literal_column("0")
_NEW = CardStateRow.queue == literal_column("0")
_BURIED = CardStateRow.queue == literal_column(str(QUEUE_BURIED))
#: When a buried learning or review card is due again: its due time or the end of its burial,
#: whichever is later (NULL for a buried new card, which is never "due").
_BACK_FROM_BURIAL = case(
    (CardStateRow.buried_until > CardStateRow.due, CardStateRow.buried_until),
    else_=CardStateRow.due,
)


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
    """recall's database. Open one with :func:`recall.store.open_store`."""

    def __init__(self, engine: Engine, url: URL) -> None:
        self._engine = engine
        self.url = url

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
            return sync_decks(conn, decks, now or utc_now())

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
            if not vanished_decks(conn, folders, keep):
                return SyncReport()
        with self._write() as conn:
            return retire_decks(conn, vanished_decks(conn, folders, keep), now or utc_now())

    @_translated
    def card(self, card_id: int) -> StoredCard:
        """One card by its database id."""
        with self._read() as conn:
            row = conn.execute(_CARD_SELECT.where(CardStateRow.card_id == card_id)).one_or_none()
        if row is None:
            raise StoreError(f"no card with id {card_id} in the database")
        return _stored_card(row)

    @_translated
    def cards_by_key(self, keys: Collection[str] | None = None) -> dict[str, StoredCard]:
        """Cards by ``deck/card`` key (all cards when ``keys`` is ``None``; unknown keys are
        left out)."""
        if keys is None:
            with self._read() as conn:
                return {c.card_key: c for c in map(_stored_card, conn.execute(_CARD_SELECT))}
        by_deck: dict[str, list[str]] = {}
        for key in keys:
            deck, _slash, card = key.partition("/")
            by_deck.setdefault(deck, []).append(card)
        out: dict[str, StoredCard] = {}
        with self._read() as conn:
            for deck, cards in by_deck.items():
                for start in range(0, len(cards), 500):  # stay under every driver's parameter cap
                    chunk = cards[start : start + 500]
                    query = _CARD_SELECT.where(DeckRow.slug == deck, CardRow.key.in_(chunk))
                    out.update((c.card_key, c) for c in map(_stored_card, conn.execute(query)))
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
                rows = conn.execute(_DUE_ALL, {"now": now, "limit": limit})
                return [_stored_card(row) for row in rows]
        query = _CARD_SELECT.where(_ACTIVE, CardStateRow.due <= now)
        if learning_only:
            query = query.where(CardStateRow.queue == QUEUE_LEARNING)
        query = _filtered(query, decks, topic).order_by(CardStateRow.due).limit(limit)
        with self._read() as conn:
            return [_stored_card(row) for row in conn.execute(query)]

    @_translated
    def new_cards(
        self, *, limit: int, decks: Collection[str] | None = None, topic: str | None = None
    ) -> list[StoredCard]:
        """New cards in deck-file order (decks in the order they were first synced)."""
        if limit <= 0:
            return []
        query = _filtered(_CARD_SELECT.where(_NEW), decks, topic)
        query = query.order_by(CardStateRow.deck_id, CardStateRow.card_id).limit(limit)
        with self._read() as conn:
            return [_stored_card(row) for row in conn.execute(query)]

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
            decks = conn.execute(_DECKS).all()
            if not decks:
                return []
            params: dict[str, Any] = {f"d{i}": deck_id for i, (deck_id, _s, _n) in enumerate(decks)}
            params.update(day_end=day_end, new_cap=new_limit, due_cap=due_limit)
            statement = _per_deck_counts(len(decks), new_limit is not None, due_limit is not None)
            counts = {(slot, queue): n for slot, queue, n in conn.execute(statement, params)}
        return [
            DeckCounts(
                deck=slug,
                name=name,
                new=int(counts.get((i, QUEUE_NEW), 0)),
                learning=int(counts.get((i, QUEUE_LEARNING), 0)),
                due=int(counts.get((i, QUEUE_REVIEW), 0)),
            )
            for i, (_deck_id, slug, name) in enumerate(decks)
        ]

    @_translated
    def deck_sizes(self) -> list[DeckSize]:
        """Cards per deck: active, suspended and retired (counts every card: not for every
        frame, for the deck list)."""
        with self._read() as conn:
            decks = conn.execute(_DECKS).all()
            rows = conn.execute(
                select(CardStateRow.deck_id, CardStateRow.queue, func.count()).group_by(
                    CardStateRow.deck_id, CardStateRow.queue
                )
            ).all()
        by = {(d, q): n for d, q, n in rows}
        out = []
        for deck_id, slug, name in decks:
            counts = {q: n for (d, q), n in by.items() if d == deck_id}
            retired = counts.pop(QUEUE_RETIRED, 0)
            suspended = counts.get(QUEUE_SUSPENDED, 0)
            out.append(DeckSize(slug, name, sum(counts.values()), suspended, retired))
        return out

    @_translated
    def introduced_and_reviewed(self, since: datetime) -> tuple[int, int]:
        """(new cards first seen, review-phase reviews) since ``since``: today's limits spent."""
        with self._read() as conn:
            rows = conn.execute(
                select(ReviewRow.kind, func.count(func.distinct(ReviewRow.card_id)))
                .where(ReviewRow.reviewed_at >= since, ReviewRow.kind.in_([KIND_NEW, KIND_REVIEW]))
                .group_by(ReviewRow.kind)
            ).all()
        counts = dict(rows)
        return int(counts.get(KIND_NEW, 0)), int(counts.get(KIND_REVIEW, 0))

    # ------------------------------------------------------------------ flags

    @_translated
    def set_suspended(self, card_id: int, suspended: bool) -> StoredCard:
        """Suspend a card (it leaves every queue, state kept) or bring it back."""
        with self._write() as conn:
            conn.execute(
                update(CardStateRow)
                .where(CardStateRow.card_id == card_id, CardStateRow.queue != QUEUE_RETIRED)
                .values(suspended=suspended, buried_until=None)
            )
            conn.execute(
                update(CardStateRow)
                .where(CardStateRow.card_id == card_id, CardStateRow.queue != QUEUE_RETIRED)
                .values(queue=requeue_expression())
            )
        return self.card(card_id)

    @_translated
    def bury(self, card_ids: Collection[int], until: datetime) -> int:
        """Hide cards until ``until`` (the next study day), at the learner's request; returns
        how many. Learning cards too: the learner asked (sibling burying spares them, see
        :meth:`apply_review`, because their short steps cannot wait a day unasked)."""
        with self._write() as conn:
            return _bury(conn, card_ids, until, queues=(QUEUE_NEW, QUEUE_LEARNING, QUEUE_REVIEW))

    @_translated
    def release_buried(self, now: datetime) -> int:
        """Return cards whose burial has ended to their queues; returns how many."""
        expired = and_(
            CardStateRow.queue == literal_column(str(QUEUE_BURIED)),
            CardStateRow.buried_until <= now,
        )
        with self._read() as conn:
            if conn.execute(select(CardStateRow.card_id).where(expired).limit(1)).first() is None:
                return 0
        with self._write() as conn:
            result = conn.execute(
                update(CardStateRow)
                .where(expired)
                .values(queue=requeue_expression(), buried_until=None)
            )
            return int(result.rowcount or 0)

    @_translated
    def leeches(self, threshold: int) -> list[StoredCard]:
        """Cards with at least ``threshold`` lapses (not retired), most lapses first."""
        if threshold <= 0:
            return []
        query = _CARD_SELECT.where(
            CardStateRow.lapses >= threshold, CardStateRow.queue != QUEUE_RETIRED
        ).order_by(CardStateRow.lapses.desc(), CardStateRow.card_id)
        with self._read() as conn:
            return [_stored_card(row) for row in conn.execute(query)]

    @_translated
    def memory(self, decks: Collection[str] | None = None, topic: str | None = None) -> Memory:
        """Stability and last review of every card in a queue (new, learning, review), as
        NumPy arrays: the inputs of retrievability for "weakest N" and stats."""
        import numpy as np

        query = select(
            CardStateRow.card_id,
            CardStateRow.stability,
            type_coerce(
                CardStateRow.last_review, BigInteger
            ),  # raw milliseconds: no per-row datetime
        ).where(CardStateRow.queue >= literal_column("0"))
        if decks is not None or topic is not None:
            query = _filtered(query.join(CardRow, CardRow.id == CardStateRow.card_id), decks, topic)
        with self._read() as conn:
            rows = conn.execute(query).all()
        if not rows:
            empty = np.zeros(0)
            return Memory(empty.astype(np.int64), empty, empty)
        id_col, stability_col, last_col = zip(*rows, strict=True)
        ids = np.array(id_col, dtype=np.int64)
        stability = np.array(stability_col, dtype=np.float64)  # None becomes NaN
        last = np.array(last_col, dtype=np.float64)
        return Memory(ids, stability, last)

    # ------------------------------------------------------------------ reviews

    @_translated
    def apply_review(
        self,
        card_id: int,
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
                _CARD_SELECT.where(CardStateRow.card_id == card_id).with_for_update(of=CardStateRow)
            ).one_or_none()
            if row is None:
                raise StoreError(f"no card with id {card_id} in the database")
            card = _stored_card(row)
            if card.retired:
                raise StoreError(
                    f"card {card.card_key} was removed from its deck and cannot be reviewed"
                )
            before = card.state
            after = schedule(before) if schedule is not None else None
            kind = KIND_CRAM if after is None else int(before.phase)
            values: dict[str, Any] = {
                "card_id": card_id,
                "session_id": review.session_id,
                "reviewed_at": review.reviewed_at,
                "kind": kind,
                "rating": int(review.rating),
                "suggested": None if review.suggested is None else int(review.suggested),
                "verdict": review.verdict,
                "diagnosis": review.diagnosis,
                "answer": review.answer,
                "duration_ms": max(0, round(review.seconds * 1000)),
                "hint_used": review.hint_used,
                "seed": review.seed,
                "params": json.dumps(review.params, sort_keys=True) if review.params else None,
            }
            if after is not None:
                values.update(_state_columns("before_", before), **_state_columns("after_", after))
                values["before_lapses"] = before.lapses
                values["before_last_review"] = before.last_review
                del values["after_last_review"], values["after_lapses"]
            review_id = conn.execute(
                insert(ReviewRow).values(**values).returning(ReviewRow.id)
            ).scalar_one()
            buried = 0
            if after is not None:
                conn.execute(
                    update(CardStateRow)
                    .where(CardStateRow.card_id == card_id)
                    .values(
                        queue=queue_for(after.phase, suspended=card.suspended),
                        buried_until=None,
                        reps=after.reps,
                        lapses=after.lapses,
                        **_state_columns("", after, with_counters=False),
                    )
                )
                if bury_siblings_until is not None and card.sibling_group is not None:
                    siblings = (
                        conn.execute(
                            select(CardRow.id).where(
                                CardRow.sibling_group == card.sibling_group,
                                CardRow.deck_id == row.deck_pk,
                                CardRow.id != card_id,
                            )
                        )
                        .scalars()
                        .all()
                    )
                    buried = _bury(conn, siblings, bury_siblings_until)
            if review.session_id is not None:
                conn.execute(
                    update(SessionRow)
                    .where(SessionRow.id == review.session_id)
                    .values(last_active_at=review.reviewed_at)
                )
        # Committed. Build the results from what was written rather than reading it back.
        columns = {column.name: None for column in ReviewRow.__table__.columns}
        written = SimpleNamespace(
            **{**columns, **values, "id": review_id, "slug": card.deck, "key": card.key}
        )
        if after is not None:
            card = dataclasses.replace(card, state=after, buried_until=None)
        return AppliedReview(entry=_review_entry(written), card=card, buried=buried)

    @_translated
    def undo_review(self, review_id: int) -> StoredCard:
        """Remove a review from the log and restore the card's exact previous state.

        Only a card's latest review can be undone (a later one was computed from it). Siblings
        the review buried come back unless another review of their group remains that day.
        """
        gone = StoreError("that review is not in the log (already undone?)")
        with self._write() as conn:
            card_id = conn.execute(
                select(ReviewRow.card_id).where(ReviewRow.id == review_id)
            ).scalar()
            if card_id is None:
                raise gone
            # Lock the card first, then read the log: on PostgreSQL a review committed by
            # another process while we waited for the lock is seen by the reads below.
            current = conn.execute(
                select(CardStateRow.__table__)
                .where(CardStateRow.card_id == card_id)
                .with_for_update()
            ).one()
            log = conn.execute(
                select(ReviewRow.__table__).where(ReviewRow.id == review_id)
            ).one_or_none()
            if log is None:
                raise gone
            latest = conn.execute(
                select(func.max(ReviewRow.id)).where(
                    ReviewRow.card_id == log.card_id, ReviewRow.kind != KIND_CRAM
                )
            ).scalar()
            if log.kind != KIND_CRAM:
                if latest != review_id:
                    raise StoreError(
                        "the card was reviewed again after that review; undo the later one first"
                    )
                assert log.before_phase is not None
                conn.execute(
                    update(CardStateRow)
                    .where(CardStateRow.card_id == log.card_id)
                    .values(
                        phase=log.before_phase,
                        step=log.before_step,
                        stability=log.before_stability,
                        difficulty=log.before_difficulty,
                        due=log.before_due,
                        last_review=log.before_last_review,
                        lapses=log.before_lapses,
                        reps=max(0, current.reps - 1),
                        queue=current.queue
                        if current.queue in (QUEUE_RETIRED, QUEUE_SUSPENDED)
                        else queue_for(log.before_phase),
                    )
                )
                _unbury_group(conn, log.card_id, review_id, log.reviewed_at)
            conn.execute(delete(ReviewRow).where(ReviewRow.id == review_id))
            row = conn.execute(_CARD_SELECT.where(CardStateRow.card_id == log.card_id)).one()
        return _stored_card(row)

    @_translated
    def reviews(
        self,
        *,
        session_id: int | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        card_id: int | None = None,
    ) -> list[ReviewEntry]:
        """Log entries, oldest first, filtered by session, time range and card."""
        query = _review_query()
        if session_id is not None:
            query = query.where(ReviewRow.session_id == session_id)
        if since is not None:
            query = query.where(ReviewRow.reviewed_at >= since)
        if until is not None:
            query = query.where(ReviewRow.reviewed_at < until)
        if card_id is not None:
            query = query.where(ReviewRow.card_id == card_id)
        with self._read() as conn:
            return [_review_entry(row) for row in conn.execute(query.order_by(ReviewRow.id))]

    @_translated
    def review_count(self) -> int:
        """How many reviews the log holds."""
        with self._read() as conn:
            return int(conn.execute(select(func.count()).select_from(ReviewRow)).scalar_one())

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
        spec = json.dumps({"decks": list(decks), "topic": topic}) if decks or topic else None
        host, pid = owner if owner is not None else (None, None)
        with self._write() as conn:
            session_id = conn.execute(
                insert(SessionRow)
                .values(
                    started_at=started_at,
                    last_active_at=started_at,
                    budget_kind=budget_kind,
                    budget_value=budget_value,
                    mode=mode,
                    mode_count=mode_count,
                    filter=spec,
                    owner_host=host,
                    owner_pid=pid,
                )
                .returning(SessionRow.id)
            ).scalar_one()
        return self.session(int(session_id))

    @_translated
    def session(self, session_id: int) -> SessionInfo:
        """A session by id."""
        with self._read() as conn:
            row = conn.execute(
                select(SessionRow.__table__).where(SessionRow.id == session_id)
            ).one_or_none()
            if row is None:
                raise StoreError(f"no session with id {session_id}")
            return _session_info(row)

    @_translated
    def end_session(self, session_id: int, ended_at: datetime) -> None:
        """Mark a session finished (it will not be offered for resuming)."""
        with self._write() as conn:
            conn.execute(
                update(SessionRow).where(SessionRow.id == session_id).values(ended_at=ended_at)
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
        query = select(SessionRow.__table__).where(SessionRow.ended_at.is_(None))
        if newer_than is not None:
            query = query.where(SessionRow.last_active_at >= newer_than)
        with self._read() as conn:
            rows = conn.execute(query.order_by(SessionRow.id.desc()).limit(limit))
            return [_session_info(row) for row in rows]

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
        host, pid = expected
        with self._write() as conn:
            result = conn.execute(
                update(SessionRow)
                .where(
                    SessionRow.id == session_id,
                    SessionRow.ended_at.is_(None),
                    SessionRow.owner_host.is_not_distinct_from(host),
                    SessionRow.owner_pid.is_not_distinct_from(pid),
                )
                .values(owner_host=owner[0], owner_pid=owner[1], last_active_at=now)
            )
            return bool(result.rowcount)

    @_translated
    def release_session(self, session_id: int, owner: tuple[str, int]) -> None:
        """Let go of a session ``owner`` holds (leaving the app mid-session): another window
        may resume it at once. A session someone else has taken over is left alone."""
        with self._write() as conn:
            conn.execute(
                update(SessionRow)
                .where(
                    SessionRow.id == session_id,
                    SessionRow.owner_host == owner[0],
                    SessionRow.owner_pid == owner[1],
                )
                .values(owner_host=None, owner_pid=None)
            )

    @_translated
    def last_finished_session(self, mode: str | None = "normal") -> SessionInfo | None:
        """The latest ended session (of ``mode``, when given) that has reviews."""
        query = select(SessionRow.__table__).where(
            SessionRow.ended_at.is_not(None),
            select(ReviewRow.id).where(ReviewRow.session_id == SessionRow.id).exists(),
        )
        if mode is not None:
            query = query.where(SessionRow.mode == mode)
        with self._read() as conn:
            row = conn.execute(query.order_by(SessionRow.id.desc()).limit(1)).one_or_none()
            return None if row is None else _session_info(row)

    # ------------------------------------------------------------------ stats inputs

    @_translated
    def count_due(self, before: datetime) -> int:
        """How many learning and review cards fall due before ``before`` (overdue included).

        A buried card counts from the end of its burial: it is not due today, but it is waiting
        tomorrow."""
        active = select(func.count()).where(_ACTIVE, CardStateRow.due < before)
        buried = select(func.count()).where(_BURIED, _BACK_FROM_BURIAL < before)
        query = select(active.scalar_subquery() + buried.scalar_subquery())
        with self._read() as conn:
            return int(conn.execute(query).scalar_one())

    @_translated
    def due_millis(self, until: datetime) -> Any:
        """Due times (epoch milliseconds, a sorted NumPy int64 array) of active learning and
        review cards due before ``until``, overdue included: the input of the forecast.
        A buried card is due when its burial ends, if that is later."""
        import numpy as np

        active = select(type_coerce(CardStateRow.due, BigInteger)).where(
            _ACTIVE, CardStateRow.due < until
        )
        buried = select(type_coerce(_BACK_FROM_BURIAL, BigInteger)).where(
            _BURIED, _BACK_FROM_BURIAL < until
        )
        with self._read() as conn:
            values = conn.execute(active.union_all(buried)).scalars().all()
        return np.sort(np.array(values, dtype=np.int64))

    @_translated
    def review_millis(self, since: datetime | None = None) -> Any:
        """Times (epoch milliseconds, a sorted NumPy int64 array) of every review since
        ``since``: the input of heatmaps and streaks."""
        import numpy as np

        query = select(type_coerce(ReviewRow.reviewed_at, BigInteger))
        if since is not None:
            query = query.where(ReviewRow.reviewed_at >= since)
        with self._read() as conn:
            values = conn.execute(query.order_by(ReviewRow.reviewed_at)).scalars().all()
        return np.array(values, dtype=np.int64)

    @_translated
    def review_facts(
        self, since: datetime, until: datetime
    ) -> list[tuple[datetime, int, int, str, str | None, str, str]]:
        """(time, kind, rating, verdict, diagnosis, deck, topic) of each review in a period."""
        topic = func.coalesce(CardRow.topic, DeckRow.topic)
        query = (
            select(
                ReviewRow.reviewed_at,
                ReviewRow.kind,
                ReviewRow.rating,
                ReviewRow.verdict,
                ReviewRow.diagnosis,
                DeckRow.slug,
                topic,
            )
            .join(CardRow, CardRow.id == ReviewRow.card_id)
            .join(DeckRow, DeckRow.id == CardRow.deck_id)
            .where(ReviewRow.reviewed_at >= since, ReviewRow.reviewed_at < until)
            .order_by(ReviewRow.id)
        )
        with self._read() as conn:
            return [tuple(row) for row in conn.execute(query)]  # type: ignore[misc]


# ---------------------------------------------------------------------- row ─▶ value helpers


def _card_query() -> Select:
    """Every column a :class:`StoredCard` needs (build on it with ``.where``)."""
    return (
        select(
            CardStateRow.card_id,
            DeckRow.slug,
            CardRow.key,
            CardRow.kind,
            func.coalesce(CardRow.topic, DeckRow.topic).label("topic"),
            CardRow.sibling_group,
            CardStateRow.queue,
            CardStateRow.phase,
            CardStateRow.step,
            CardStateRow.stability,
            CardStateRow.difficulty,
            CardStateRow.due,
            CardStateRow.last_review,
            CardStateRow.reps,
            CardStateRow.lapses,
            CardStateRow.suspended,
            CardStateRow.buried_until,
            CardStateRow.deck_id.label("deck_pk"),
        )
        .join(CardRow, CardRow.id == CardStateRow.card_id)
        .join(DeckRow, DeckRow.id == CardStateRow.deck_id)
    )


def _filtered(query: Select, decks: Collection[str] | None, topic: str | None) -> Select:
    if decks is not None:
        deck_ids = select(DeckRow.id).where(DeckRow.slug.in_(list(decks))).scalar_subquery()
        query = query.where(CardStateRow.deck_id.in_(deck_ids))
    if topic is not None:
        topic_decks = select(DeckRow.id).where(DeckRow.topic == topic).scalar_subquery()
        query = query.where(
            or_(
                CardRow.topic == topic,
                and_(CardRow.topic.is_(None), CardStateRow.deck_id.in_(topic_decks)),
            )
        )
    return query


def _stored_card(row: Any) -> StoredCard:
    return StoredCard(
        id=row.card_id,
        deck=row.slug,
        key=row.key,
        kind=row.kind,
        topic=row.topic,
        sibling_group=row.sibling_group,
        state=CardState(
            phase=Phase(row.phase),
            step=row.step,
            stability=row.stability,
            difficulty=row.difficulty,
            due=row.due,
            last_review=row.last_review,
            reps=row.reps,
            lapses=row.lapses,
        ),
        suspended=bool(row.suspended),
        buried_until=row.buried_until if row.queue == QUEUE_BURIED else None,
        retired=row.queue == QUEUE_RETIRED,
    )


def _state_columns(prefix: str, state: CardState, *, with_counters: bool = True) -> dict[str, Any]:
    values = {
        f"{prefix}phase": int(state.phase),
        f"{prefix}step": state.step,
        f"{prefix}stability": state.stability,
        f"{prefix}difficulty": state.difficulty,
        f"{prefix}due": state.due,
        f"{prefix}last_review": state.last_review,
    }
    if with_counters:
        values[f"{prefix}lapses"] = state.lapses
    return values


def _review_query() -> Select:
    return (
        select(ReviewRow.__table__, DeckRow.slug, CardRow.key)
        .join(CardRow, CardRow.id == ReviewRow.card_id)
        .join(DeckRow, DeckRow.id == CardRow.deck_id)
    )


def _review_entry(row: Any) -> ReviewEntry:
    log = row
    before = after = None
    if log.before_phase is not None:
        before = CardState(
            phase=Phase(log.before_phase),
            step=log.before_step,
            stability=log.before_stability,
            difficulty=log.before_difficulty,
            due=log.before_due,
            last_review=log.before_last_review,
            lapses=log.before_lapses or 0,
        )
    if log.after_phase is not None:
        after = CardState(
            phase=Phase(log.after_phase),
            step=log.after_step,
            stability=log.after_stability,
            difficulty=log.after_difficulty,
            due=log.after_due,
            last_review=log.reviewed_at,
            lapses=(log.before_lapses or 0) + int(log.before_phase == 2 and log.rating == 1),
        )
    return ReviewEntry(
        id=log.id,
        card_id=log.card_id,
        card_key=f"{row.slug}/{row.key}",
        session_id=log.session_id,
        reviewed_at=log.reviewed_at,
        kind=log.kind,
        rating=log.rating,
        suggested=log.suggested,
        verdict=log.verdict,
        diagnosis=log.diagnosis,
        answer=log.answer,
        seconds=log.duration_ms / 1000,
        hint_used=bool(log.hint_used),
        seed=log.seed,
        params=json.loads(log.params) if log.params else None,
        before=before,
        after=after,
    )


def _session_info(row: Any) -> SessionInfo:
    spec = json.loads(row.filter) if row.filter else {}
    return SessionInfo(
        id=row.id,
        started_at=row.started_at,
        last_active_at=row.last_active_at,
        ended_at=row.ended_at,
        budget_kind=row.budget_kind,
        budget_value=row.budget_value,
        mode=row.mode,
        mode_count=row.mode_count,
        decks=tuple(spec.get("decks") or ()),
        topic=spec.get("topic"),
        owner_host=row.owner_host,
        owner_pid=row.owner_pid,
    )


def _bury(
    conn: Connection,
    card_ids: Collection[int],
    until: datetime,
    queues: tuple[int, ...] = (QUEUE_NEW, QUEUE_REVIEW),
) -> int:
    if not card_ids:
        return 0
    result = conn.execute(
        update(CardStateRow)
        .where(
            CardStateRow.card_id.in_(list(card_ids)),
            CardStateRow.queue.in_(list(queues)),
        )
        .values(queue=QUEUE_BURIED, buried_until=until)
    )
    return int(result.rowcount or 0)


def _unbury_group(conn: Connection, card_id: int, review_id: int, reviewed_at: datetime) -> None:
    """After undoing a review, release the siblings it buried, unless another review of the
    group within the day before still justifies the burial."""
    group = conn.execute(
        select(CardRow.sibling_group, CardRow.deck_id).where(CardRow.id == card_id)
    ).one()
    if group.sibling_group is None:
        return
    members = select(CardRow.id).where(
        CardRow.sibling_group == group.sibling_group, CardRow.deck_id == group.deck_id
    )
    other = conn.execute(
        select(ReviewRow.id)
        .where(
            ReviewRow.card_id.in_(members),
            ReviewRow.id != review_id,
            ReviewRow.kind != KIND_CRAM,
            ReviewRow.reviewed_at >= reviewed_at - timedelta(days=1),
        )
        .limit(1)
    ).first()
    if other is None:
        conn.execute(
            update(CardStateRow)
            .where(CardStateRow.card_id.in_(members), CardStateRow.queue == QUEUE_BURIED)
            .values(queue=requeue_expression(), buried_until=None)
        )


_CARD_SELECT = _card_query()
_DUE_ALL = (
    _CARD_SELECT.where(_ACTIVE, CardStateRow.due <= bindparam("now", type_=UTCMillis()))
    .order_by(CardStateRow.due)
    .limit(bindparam("limit", type_=Integer()))
)
_DECKS = select(DeckRow.id, DeckRow.slug, DeckRow.name).order_by(DeckRow.id)
_DUE_COUNTS = (
    select(CardStateRow.deck_id, CardStateRow.queue, func.count())
    .where(_ACTIVE, CardStateRow.due < bindparam("day_end", type_=UTCMillis()))
    .group_by(CardStateRow.deck_id, CardStateRow.queue)
)


@functools.lru_cache(maxsize=16)
def _per_deck_counts(decks: int, cap_new: bool, cap_due: bool) -> Any:
    """One statement returning (deck slot, queue, count) for new, learning and review cards of
    ``decks`` decks: a UNION ALL of scalar counts over short index range scans (the partial
    indexes ``ix_card_state_new`` and ``ix_card_state_deck_queue_due``), each stopped by a
    LIMIT when capped. Unlike one GROUP BY over all due cards, nothing is sorted. The same SQL
    runs on SQLite and PostgreSQL; the partial-index conditions are repeated verbatim because
    SQLite only uses a partial index when the query states its WHERE term literally."""
    new_limit = " LIMIT :new_cap" if cap_new else ""
    due_limit = " LIMIT :due_cap" if cap_due else ""
    parts = []
    for i in range(decks):
        new = f"SELECT 1 FROM card_state WHERE queue = 0 AND deck_id = :d{i}{new_limit}"
        parts.append(f"SELECT {i}, 0, (SELECT count(*) FROM ({new}) AS n{i})")
        for queue in (QUEUE_LEARNING, QUEUE_REVIEW):
            due = (
                f"SELECT 1 FROM card_state WHERE queue > 0 AND deck_id = :d{i} "
                f"AND queue = {queue} AND due < :day_end{due_limit}"
            )
            parts.append(f"SELECT {i}, {queue}, (SELECT count(*) FROM ({due}) AS q{queue}_{i})")
    statement = text(" UNION ALL ".join(parts)).bindparams(bindparam("day_end", type_=UTCMillis()))
    if cap_new:
        statement = statement.bindparams(bindparam("new_cap", type_=Integer()))
    if cap_due:
        statement = statement.bindparams(bindparam("due_cap", type_=Integer()))
    return statement


__all__ = ["Store", "from_millis"]
