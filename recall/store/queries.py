"""The store's SQL: select and update builders, and the statements run inside a transaction.

:class:`recall.store.store.Store` opens the transaction and calls these; they take a
:class:`~sqlalchemy.Connection` (or build a statement) and never commit. Rows come back raw and
are converted by :mod:`recall.store.rows`.

Hot queries repeat the partial indexes' WHERE terms literally (``queue > 0``, ``queue = 0``):
SQLite uses a partial index only when the query states its condition verbatim, and a bound
parameter (``queue > ?``) does not count. See :mod:`recall.store.models` for the queue numbers.

Every statement over a per-learner table names the learner (``learner_id = :learner``, in each
subquery too): recall uses SQLAlchemy Core, so nothing adds that filter for us. Each builder
takes the ``learner`` the :class:`~recall.store.store.Store` was opened for; the prepared
statements bind it as ``:learner``. A test listener fails any SQL over those tables that does not
name ``learner_id`` (``tests/conftest.py``).
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import (
    BigInteger,
    Connection,
    Integer,
    Select,
    and_,
    bindparam,
    case,
    func,
    literal_column,
    or_,
    select,
    text,
    type_coerce,
    update,
)

from recall.scheduling.state import CardState
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
    decks_visible_to,
    queue_for,
)
from recall.store.rows import state_columns
from recall.store.sync import requeue_expression
from recall.store.timeutil import UTCMillis

#: Cards in a learning or review queue (literal zero: see the module docstring).
ACTIVE = CardStateRow.queue > literal_column("0")
#: New cards, never reviewed.
NEW = CardStateRow.queue == literal_column("0")
#: Cards buried until the next study day.
BURIED = CardStateRow.queue == literal_column(str(QUEUE_BURIED))
#: When a buried learning or review card is due again: its due time or the end of its burial,
#: whichever is later (NULL for a buried new card, which is never "due").
BACK_FROM_BURIAL = case(
    (CardStateRow.buried_until > CardStateRow.due, CardStateRow.buried_until),
    else_=CardStateRow.due,
)


def card_query() -> Select:
    """Every column a :class:`~recall.store.records.StoredCard` needs (build on it with
    ``.where``); ``deck_pk`` is the deck's integer key, for sibling lookups."""
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


CARD_SELECT = card_query()
#: What ordering new cards needs of each, and no more (slug, card key, topic, sibling group):
#: planning a day reads every new card, 20,000 with large custom decks.
NEW_CARD_HEADS = (
    select(
        DeckRow.slug,
        CardRow.key,
        func.coalesce(CardRow.topic, DeckRow.topic).label("topic"),
        CardRow.sibling_group,
    )
    .join(CardRow, CardRow.id == CardStateRow.card_id)
    .join(DeckRow, DeckRow.id == CardStateRow.deck_id)
    .where(NEW)
)
#: The learner a prepared statement is for (pass ``{"learner": ...}`` when running it).
LEARNER = bindparam("learner", type_=Integer())


def cards_of(learner: int) -> Select:
    """:data:`CARD_SELECT` for one learner's cards (build on it with ``.where``)."""
    return CARD_SELECT.where(CardStateRow.learner_id == learner)


#: Due cards of every deck, most overdue first: the common case, prepared once.
DUE_ALL = (
    CARD_SELECT.where(
        CardStateRow.learner_id == LEARNER,
        ACTIVE,
        CardStateRow.due <= bindparam("now", type_=UTCMillis()),
    )
    .order_by(CardStateRow.due)
    .limit(bindparam("limit", type_=Integer()))
)
#: (integer key, slug, name) of every deck, in the order they were first synced.
DECKS = (
    select(DeckRow.id, DeckRow.slug, DeckRow.name)
    .where(decks_visible_to(LEARNER))
    .order_by(DeckRow.id)
)
#: The file a learner's own custom deck (by slug) was last synced from.
OWN_DECK_PATH = select(DeckRow.path).where(
    DeckRow.slug == bindparam("slug"), DeckRow.owner_learner_id == LEARNER
)
#: (deck key, queue, cards) for every deck and queue.
CARDS_PER_QUEUE = (
    select(CardStateRow.deck_id, CardStateRow.queue, func.count())
    .where(CardStateRow.learner_id == LEARNER)
    .group_by(CardStateRow.deck_id, CardStateRow.queue)
)


def filtered(query: Select, decks: Collection[str] | None, topic: str | None) -> Select:
    """``query`` limited to cards of the ``decks`` (by slug) and of ``topic`` (a card's own
    topic, else its deck's); ``None`` leaves that filter off."""
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


def review_query(learner: int) -> Select:
    """Every ``review_log`` column of ``learner``'s reviews with its card's deck slug and card
    key (for :func:`recall.store.rows.review_entry`)."""
    return (
        select(ReviewRow.__table__, DeckRow.slug, CardRow.key)
        .join(CardRow, CardRow.id == ReviewRow.card_id)
        .join(DeckRow, DeckRow.id == CardRow.deck_id)
        .where(ReviewRow.learner_id == learner)
    )


def limits_spent_query(since: datetime, learner: int) -> Select:
    """(kind, distinct cards) of new and review-phase reviews since ``since``."""
    return (
        select(ReviewRow.kind, func.count(func.distinct(ReviewRow.card_id)))
        .where(
            ReviewRow.learner_id == learner,
            ReviewRow.reviewed_at >= since,
            ReviewRow.kind.in_([KIND_NEW, KIND_REVIEW]),
        )
        .group_by(ReviewRow.kind)
    )


def memory_query(decks: Collection[str] | None, topic: str | None, learner: int) -> Select:
    """(card key, stability, last review in raw epoch milliseconds: no per-row datetime) of
    every card in a queue (new, learning, review)."""
    query = select(
        CardStateRow.card_id,
        CardStateRow.stability,
        type_coerce(CardStateRow.last_review, BigInteger),
    ).where(CardStateRow.learner_id == learner, CardStateRow.queue >= literal_column("0"))
    if decks is not None or topic is not None:
        query = filtered(query.join(CardRow, CardRow.id == CardStateRow.card_id), decks, topic)
    return query


def count_due_query(before: datetime, learner: int) -> Select:
    """How many learning and review cards fall due before ``before``; a buried card from the
    end of its burial."""
    mine = CardStateRow.learner_id == learner
    active = select(func.count()).where(mine, ACTIVE, CardStateRow.due < before)
    buried = select(func.count()).where(mine, BURIED, BACK_FROM_BURIAL < before)
    return select(active.scalar_subquery() + buried.scalar_subquery())


def due_millis_query(until: datetime, learner: int) -> Any:
    """Due times (epoch milliseconds) of learning and review cards due before ``until``; a
    buried card's when its burial ends, if that is later."""
    mine = CardStateRow.learner_id == learner
    active = select(type_coerce(CardStateRow.due, BigInteger)).where(
        mine, ACTIVE, CardStateRow.due < until
    )
    buried = select(type_coerce(BACK_FROM_BURIAL, BigInteger)).where(
        mine, BURIED, BACK_FROM_BURIAL < until
    )
    return active.union_all(buried)


def review_millis_query(since: datetime | None, learner: int) -> Select:
    """Times (epoch milliseconds) of every review since ``since``, in order."""
    query = select(type_coerce(ReviewRow.reviewed_at, BigInteger)).where(
        ReviewRow.learner_id == learner
    )
    if since is not None:
        query = query.where(ReviewRow.reviewed_at >= since)
    return query.order_by(ReviewRow.reviewed_at)


def review_facts_query(since: datetime, until: datetime, learner: int) -> Select:
    """(time, kind, rating, verdict, diagnosis, deck slug, topic) of each review in a period."""
    topic = func.coalesce(CardRow.topic, DeckRow.topic)
    return (
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
        .where(
            ReviewRow.learner_id == learner,
            ReviewRow.reviewed_at >= since,
            ReviewRow.reviewed_at < until,
        )
        .order_by(ReviewRow.id)
    )


def set_suspended(conn: Connection, learner: int, card_id: int, suspended: bool) -> None:
    """Set a card's suspended flag (unburying it) and move it to the queue that follows; a
    retired card is left alone."""
    not_retired = (
        CardStateRow.learner_id == learner,
        CardStateRow.card_id == card_id,
        CardStateRow.queue != QUEUE_RETIRED,
    )
    conn.execute(
        update(CardStateRow).where(*not_retired).values(suspended=suspended, buried_until=None)
    )
    conn.execute(update(CardStateRow).where(*not_retired).values(queue=requeue_expression()))


def _burial_over(now: datetime, learner: int) -> Any:
    return and_(
        CardStateRow.learner_id == learner,
        CardStateRow.queue == literal_column(str(QUEUE_BURIED)),
        CardStateRow.buried_until <= now,
    )


def any_burial_over(conn: Connection, now: datetime, learner: int) -> bool:
    """Whether some card's burial has ended by ``now`` (a read: no write lock for nothing)."""
    found = conn.execute(select(CardStateRow.card_id).where(_burial_over(now, learner)).limit(1))
    return found.first() is not None


def release_buried(conn: Connection, now: datetime, learner: int) -> int:
    """Return the cards whose burial has ended to their queues; returns how many."""
    result = conn.execute(
        update(CardStateRow)
        .where(_burial_over(now, learner))
        .values(queue=requeue_expression(), buried_until=None)
    )
    return int(result.rowcount or 0)


def claim_session(
    conn: Connection,
    learner: int,
    session_id: int,
    owner: tuple[str, int],
    now: datetime,
    expected: tuple[str | None, int | None],
) -> bool:
    """Make ``owner`` hold an unfinished session still held by ``expected``; whether it did."""
    host, pid = expected
    result = conn.execute(
        update(SessionRow)
        .where(
            SessionRow.learner_id == learner,
            SessionRow.id == session_id,
            SessionRow.ended_at.is_(None),
            SessionRow.owner_host.is_not_distinct_from(host),
            SessionRow.owner_pid.is_not_distinct_from(pid),
        )
        .values(owner_host=owner[0], owner_pid=owner[1], last_active_at=now)
    )
    return bool(result.rowcount)


def release_session(
    conn: Connection, learner: int, session_id: int, owner: tuple[str, int]
) -> None:
    """Clear a session's owner, if ``owner`` still holds it."""
    conn.execute(
        update(SessionRow)
        .where(
            SessionRow.learner_id == learner,
            SessionRow.id == session_id,
            SessionRow.owner_host == owner[0],
            SessionRow.owner_pid == owner[1],
        )
        .values(owner_host=None, owner_pid=None)
    )


def finished_sessions_query(mode: str | None, learner: int) -> Select:
    """Ended sessions (of ``mode``, when given) that have reviews."""
    reviewed = select(ReviewRow.id).where(
        ReviewRow.learner_id == learner, ReviewRow.session_id == SessionRow.id
    )
    query = select(SessionRow.__table__).where(
        SessionRow.learner_id == learner, SessionRow.ended_at.is_not(None), reviewed.exists()
    )
    if mode is not None:
        query = query.where(SessionRow.mode == mode)
    return query


def bury(
    conn: Connection,
    learner: int,
    card_ids: Collection[int],
    until: datetime,
    queues: tuple[int, ...] = (QUEUE_NEW, QUEUE_REVIEW),
) -> int:
    """Bury the cards of ``card_ids`` that sit in one of ``queues`` until ``until``; returns
    how many were buried."""
    if not card_ids:
        return 0
    result = conn.execute(
        update(CardStateRow)
        .where(
            CardStateRow.learner_id == learner,
            CardStateRow.card_id.in_(list(card_ids)),
            CardStateRow.queue.in_(list(queues)),
        )
        .values(queue=QUEUE_BURIED, buried_until=until)
    )
    return int(result.rowcount or 0)


def sibling_ids(conn: Connection, group: str, deck_id: int, card_id: int) -> list[int]:
    """Integer keys of the other cards of sibling ``group`` in the deck ``deck_id``."""
    return list(
        conn.execute(
            select(CardRow.id).where(
                CardRow.sibling_group == group,
                CardRow.deck_id == deck_id,
                CardRow.id != card_id,
            )
        )
        .scalars()
        .all()
    )


def store_next_state(
    conn: Connection, learner: int, card_id: int, after: CardState, *, suspended: bool
) -> None:
    """Write a reviewed card's next state into ``card_state`` (unburying it: it was shown)."""
    conn.execute(
        update(CardStateRow)
        .where(CardStateRow.learner_id == learner, CardStateRow.card_id == card_id)
        .values(
            queue=queue_for(after.phase, suspended=suspended),
            buried_until=None,
            reps=after.reps,
            lapses=after.lapses,
            **state_columns("", after, with_counters=False),
        )
    )


def touch_session(conn: Connection, learner: int, session_id: int, at: datetime) -> None:
    """Move a session's heartbeat (``last_active_at``) to ``at``."""
    conn.execute(
        update(SessionRow)
        .where(SessionRow.learner_id == learner, SessionRow.id == session_id)
        .values(last_active_at=at)
    )


def latest_scheduled_review(conn: Connection, learner: int, card_id: int) -> int | None:
    """The id of a card's latest review that changed its state (cram reviews changed none)."""
    return conn.execute(
        select(func.max(ReviewRow.id)).where(
            ReviewRow.learner_id == learner,
            ReviewRow.card_id == card_id,
            ReviewRow.kind != KIND_CRAM,
        )
    ).scalar()


def restore_before(conn: Connection, log: Any, current: Any) -> None:
    """Put back the state a ``review_log`` row recorded before its review (``current`` is the
    card's ``card_state`` row now). A card suspended or retired since stays so."""
    conn.execute(
        update(CardStateRow)
        .where(CardStateRow.learner_id == log.learner_id, CardStateRow.card_id == log.card_id)
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


def unbury_group(
    conn: Connection, learner: int, card_id: int, review_id: int, reviewed_at: datetime
) -> None:
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
            ReviewRow.learner_id == learner,
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
            .where(
                CardStateRow.learner_id == learner,
                CardStateRow.card_id.in_(members),
                CardStateRow.queue == QUEUE_BURIED,
            )
            .values(queue=requeue_expression(), buried_until=None)
        )


def grouped_deck_counts(learner: int, deck_ids: Sequence[int], day_end: datetime) -> Any:
    """(deck id, queue, count) of ``learner``'s new, learning and review cards of ``deck_ids``
    due before ``day_end``, in one scan grouped by deck and queue: the home counts on
    PostgreSQL. There row-level security (:mod:`recall.store.rls`) calls the login's
    ``current_learner()`` once per scan of ``card_state``, and :func:`per_deck_counts` makes
    three scans a deck (51 for the built-in decks, 10-15 ms of policy calls against under a
    millisecond here); the caps are applied to the counts afterwards, which is the same figure
    the capped scans give, for reading every row of the learner's decks once."""
    return (
        select(CardStateRow.deck_id, CardStateRow.queue, func.count())
        .where(
            CardStateRow.learner_id == learner,
            CardStateRow.deck_id.in_(deck_ids),
            or_(
                CardStateRow.queue == QUEUE_NEW,
                and_(
                    CardStateRow.queue.in_((QUEUE_LEARNING, QUEUE_REVIEW)),
                    CardStateRow.due < day_end,
                ),
            ),
        )
        .group_by(CardStateRow.deck_id, CardStateRow.queue)
    )


@functools.lru_cache(maxsize=16)
def per_deck_counts(decks: int, cap_new: bool, cap_due: bool) -> Any:
    """One statement returning (deck slot, queue, count) for new, learning and review cards of
    ``decks`` decks, the learner's bound as ``:learner``: a UNION ALL of scalar counts over
    short index range scans (the partial indexes ``ix_card_state_new`` and
    ``ix_card_state_deck_queue_due``, both led by ``learner_id``), each stopped by a LIMIT when
    capped. Unlike one GROUP BY over all due cards, nothing is sorted. The same SQL runs on
    SQLite and PostgreSQL; the partial-index conditions are repeated verbatim because SQLite
    only uses a partial index when the query states its WHERE term literally."""
    new_limit = " LIMIT :new_cap" if cap_new else ""
    due_limit = " LIMIT :due_cap" if cap_due else ""
    parts = []
    for i in range(decks):
        new = (
            "SELECT 1 FROM card_state WHERE learner_id = :learner AND queue = 0 "
            f"AND deck_id = :d{i}{new_limit}"
        )
        parts.append(f"SELECT {i}, 0, (SELECT count(*) FROM ({new}) AS n{i})")
        for queue in (QUEUE_LEARNING, QUEUE_REVIEW):
            due = (
                "SELECT 1 FROM card_state WHERE learner_id = :learner AND queue > 0 "
                f"AND deck_id = :d{i} "
                f"AND queue = {queue} AND due < :day_end{due_limit}"
            )
            parts.append(f"SELECT {i}, {queue}, (SELECT count(*) FROM ({due}) AS q{queue}_{i})")
    statement = text(" UNION ALL ".join(parts)).bindparams(
        bindparam("day_end", type_=UTCMillis()), bindparam("learner", type_=Integer())
    )
    if cap_new:
        statement = statement.bindparams(bindparam("new_cap", type_=Integer()))
    if cap_due:
        statement = statement.bindparams(bindparam("due_cap", type_=Integer()))
    return statement
