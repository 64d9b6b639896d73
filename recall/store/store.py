"""The :class:`Store`: every read and write recall makes, as methods taking and returning
plain values. Each write is one transaction, committed before the method returns."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import (
    Connection,
    Engine,
    Select,
    and_,
    delete,
    func,
    insert,
    literal_column,
    or_,
    select,
    update,
)
from sqlalchemy.engine import URL

from recall.cards.model import Deck
from recall.errors import StoreError
from recall.scheduling.state import CardState, Phase
from recall.store.engine import DATABASE_ERRORS, WRITE, store_error
from recall.store.models import (
    KIND_CRAM,
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
    ReviewEntry,
    ReviewInput,
    SessionInfo,
    StoredCard,
    SyncReport,
)
from recall.store.sync import requeue_expression, sync_decks
from recall.store.timeutil import from_millis

P = ParamSpec("P")
R = TypeVar("R")

# Literal zero: SQLite uses a partial index only when the query repeats its WHERE term
# verbatim, and a bound parameter (queue > ?) does not count.
_ACTIVE = CardStateRow.queue > literal_column("0")
_NEW = CardStateRow.queue == literal_column("0")


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
            return sync_decks(conn, decks, now or _now())

    @_translated
    def card(self, card_id: int) -> StoredCard:
        """One card by its database id."""
        with self._read() as conn:
            row = conn.execute(_card_query().where(CardStateRow.card_id == card_id)).one_or_none()
        if row is None:
            raise StoreError(f"no card with id {card_id} in the database")
        return _stored_card(row)

    @_translated
    def cards_by_key(self, keys: Collection[str] | None = None) -> dict[str, StoredCard]:
        """Cards by ``deck/card`` key (all cards when ``keys`` is ``None``)."""
        with self._read() as conn:
            rows = conn.execute(_card_query()).all()
        cards = (_stored_card(row) for row in rows)
        if keys is None:
            return {c.card_key: c for c in cards}
        wanted = set(keys)
        return {c.card_key: c for c in cards if c.card_key in wanted}

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
        query = _card_query().where(_ACTIVE, CardStateRow.due <= now)
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
        query = _filtered(_card_query().where(_NEW), decks, topic)
        query = query.order_by(CardStateRow.deck_id, CardStateRow.card_id).limit(limit)
        with self._read() as conn:
            return [_stored_card(row) for row in conn.execute(query)]

    @_translated
    def deck_counts(
        self, now: datetime, day_end: datetime, new_limit: int | None = None
    ) -> list[DeckCounts]:
        """New / learning / due counts per deck for the home screen.

        ``learning`` and ``due`` count cards due before ``day_end`` (the end of the study day);
        ``new`` is capped at ``new_limit`` (what is left of today's allowance) when given.
        """
        self.release_buried(now)
        with self._read() as conn:
            decks = conn.execute(
                select(DeckRow.id, DeckRow.slug, DeckRow.name).order_by(DeckRow.id)
            ).all()
            due = conn.execute(
                select(CardStateRow.deck_id, CardStateRow.queue, func.count())
                .where(_ACTIVE, CardStateRow.due < day_end)
                .group_by(CardStateRow.deck_id, CardStateRow.queue)
            ).all()
            totals = (
                conn.execute(
                    select(CardStateRow.deck_id, CardStateRow.queue, func.count()).group_by(
                        CardStateRow.deck_id, CardStateRow.queue
                    )
                ).all()
                if new_limit is None
                else []
            )
            new_counts: dict[int, int] = {}
            if new_limit is not None:
                for deck_id, _slug, _name in decks:
                    capped = (
                        select(CardStateRow.card_id)
                        .where(_NEW, CardStateRow.deck_id == deck_id)
                        .limit(new_limit)
                        .subquery()
                    )
                    new_counts[deck_id] = int(
                        conn.execute(select(func.count()).select_from(capped)).scalar_one()
                    )
        per_queue: dict[tuple[int, int], int] = {(d, q): n for d, q, n in due}
        all_queue: dict[tuple[int, int], int] = {(d, q): n for d, q, n in totals}
        out = []
        for deck_id, slug, name in decks:
            new = new_counts.get(deck_id, all_queue.get((deck_id, QUEUE_NEW), 0))
            out.append(
                DeckCounts(
                    deck=slug,
                    name=name,
                    new=new,
                    learning=per_queue.get((deck_id, QUEUE_LEARNING), 0),
                    due=per_queue.get((deck_id, QUEUE_REVIEW), 0),
                    total=sum(
                        n for (d, q), n in all_queue.items() if d == deck_id and q != QUEUE_RETIRED
                    ),
                    suspended=all_queue.get((deck_id, QUEUE_SUSPENDED), 0),
                )
            )
        return out

    @_translated
    def introduced_and_reviewed(self, since: datetime) -> tuple[int, int]:
        """(new cards first seen, review-phase reviews) since ``since``: today's limits spent."""
        with self._read() as conn:
            rows = conn.execute(
                select(ReviewRow.kind, func.count(func.distinct(ReviewRow.card_id)))
                .where(ReviewRow.reviewed_at >= since, ReviewRow.kind.in_([0, 2]))
                .group_by(ReviewRow.kind)
            ).all()
        counts = dict(rows)
        return int(counts.get(0, 0)), int(counts.get(2, 0))

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
        """Hide new and review cards until ``until`` (the next study day); returns how many."""
        with self._write() as conn:
            return _bury(conn, card_ids, until)

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
        query = (
            _card_query()
            .where(CardStateRow.lapses >= threshold, CardStateRow.queue != QUEUE_RETIRED)
            .order_by(CardStateRow.lapses.desc(), CardStateRow.card_id)
        )
        with self._read() as conn:
            return [_stored_card(row) for row in conn.execute(query)]

    @_translated
    def memory(
        self, decks: Collection[str] | None = None, topic: str | None = None
    ) -> tuple[list[int], list[float], list[datetime]]:
        """(card ids, stabilities, last reviews) of every reviewed, active card: the inputs of
        retrievability, for "weakest N" and stats. Plain lists; callers vectorise."""
        query = select(
            CardStateRow.card_id, CardStateRow.stability, CardStateRow.last_review
        ).where(CardStateRow.queue >= QUEUE_NEW, CardStateRow.stability.is_not(None))
        if decks is not None or topic is not None:
            query = _filtered(
                query.join(CardRow, CardRow.id == CardStateRow.card_id), decks, topic, joined=True
            )
        with self._read() as conn:
            rows = conn.execute(query).all()
        return [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows]

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
                _card_query()
                .where(CardStateRow.card_id == card_id)
                .with_for_update(of=CardStateRow)
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
            entry_row = conn.execute(_review_query().where(ReviewRow.id == review_id)).one()
            after_row = conn.execute(_card_query().where(CardStateRow.card_id == card_id)).one()
        return AppliedReview(
            entry=_review_entry(entry_row), card=_stored_card(after_row), buried=buried
        )

    @_translated
    def undo_review(self, review_id: int) -> StoredCard:
        """Remove a review from the log and restore the card's exact previous state.

        Only a card's latest review can be undone (a later one was computed from it). Siblings
        the review buried come back unless another review of their group remains that day.
        """
        with self._write() as conn:
            log = conn.execute(
                select(ReviewRow.__table__).where(ReviewRow.id == review_id)
            ).one_or_none()
            if log is None:
                raise StoreError("that review is not in the log (already undone?)")
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
                current = conn.execute(
                    select(CardStateRow.__table__)
                    .where(CardStateRow.card_id == log.card_id)
                    .with_for_update()
                ).one()
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
            row = conn.execute(_card_query().where(CardStateRow.card_id == log.card_id)).one()
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
    ) -> SessionInfo:
        """Record the start of a drill session."""
        spec = json.dumps({"decks": list(decks), "topic": topic}) if decks or topic else None
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
        query = select(SessionRow.__table__).where(SessionRow.ended_at.is_(None))
        if newer_than is not None:
            query = query.where(SessionRow.last_active_at >= newer_than)
        with self._read() as conn:
            row = conn.execute(query.order_by(SessionRow.id.desc()).limit(1)).one_or_none()
            return None if row is None else _session_info(row)

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
    def due_times(self, until: datetime) -> list[datetime]:
        """Due times of active learning and review cards due before ``until`` (overdue
        included): the input of the forecast."""
        with self._read() as conn:
            values = conn.execute(
                select(CardStateRow.due).where(_ACTIVE, CardStateRow.due < until)
            ).scalars()
            return list(values)

    @_translated
    def review_times(self, since: datetime | None = None) -> list[datetime]:
        """Times of every review since ``since`` (for heatmaps and streaks)."""
        query = select(ReviewRow.reviewed_at)
        if since is not None:
            query = query.where(ReviewRow.reviewed_at >= since)
        with self._read() as conn:
            return list(conn.execute(query.order_by(ReviewRow.reviewed_at)).scalars())

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


def _now() -> datetime:

    return datetime.now(UTC)


def _card_query() -> Select[Any]:
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


def _filtered(
    query: Select[Any], decks: Collection[str] | None, topic: str | None, *, joined: bool = True
) -> Select[Any]:
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


def _review_query() -> Select[Any]:
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
    )


def _bury(conn: Connection, card_ids: Collection[int], until: datetime) -> int:
    if not card_ids:
        return 0
    result = conn.execute(
        update(CardStateRow)
        .where(
            CardStateRow.card_id.in_(list(card_ids)),
            CardStateRow.queue.in_([QUEUE_NEW, QUEUE_REVIEW]),
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


__all__ = ["Store", "from_millis"]
