"""The statements behind card claims: which session shows a card right now.

A session claims the card it puts on screen (:func:`claim_card`) and lets go of it when the card
leaves the screen (:func:`release_claims`), so another window's queue skips it. Whether a claim
held by someone else may be taken over (its owner is gone, or it expired) is the caller's rule,
passed in as ``free``: the store only makes the take-over atomic. On SQLite the write
transaction already holds the database's write lock; on PostgreSQL the row is locked with
``FOR UPDATE`` and a race to insert the first claim is settled by the primary key.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from recall.store.models import CardClaimRow, SessionRow
from recall.store.records import CardClaim


def claim_record(row: Any) -> CardClaim:
    return CardClaim(
        card_db_id=row.card_id,
        session_id=row.session_id,
        owner_host=row.owner_host,
        owner_pid=row.owner_pid,
        claimed_at=row.claimed_at,
    )


def claim_card(
    conn: Connection,
    learner: int,
    card_id: int,
    session_id: int,
    owner: tuple[str, int],
    now: datetime,
    free: Callable[[CardClaim], bool],
) -> bool:
    """Make session ``session_id`` (held by ``owner``) the claimant of card ``card_id`` unless
    another session holds it and ``free`` says that claim still stands; whether it did. Claims
    are ``learner``'s own: two learners may drill the same card at once."""
    table = CardClaimRow.__table__
    row = conn.execute(
        select(table)
        .where(CardClaimRow.learner_id == learner, CardClaimRow.card_id == card_id)
        .with_for_update()
    ).one_or_none()
    values = {
        "session_id": session_id,
        "owner_host": owner[0],
        "owner_pid": owner[1],
        "claimed_at": now,
    }
    if row is None:
        try:
            with conn.begin_nested():
                conn.execute(
                    insert(CardClaimRow).values(learner_id=learner, card_id=card_id, **values)
                )
        except IntegrityError:
            return False  # another window claimed it between our look and our insert
        return True
    if row.session_id != session_id and not free(claim_record(row)):
        return False
    result = conn.execute(
        update(CardClaimRow)
        .where(
            CardClaimRow.learner_id == learner,
            CardClaimRow.card_id == card_id,
            CardClaimRow.session_id == row.session_id,
            CardClaimRow.claimed_at == row.claimed_at,
        )
        .values(**values)
    )
    return bool(result.rowcount)


def release_claims(
    conn: Connection, learner: int, session_id: int, card_id: int | None = None
) -> None:
    """Let go of session ``session_id``'s claim on ``card_id`` (every claim it holds, when
    ``None``). A claim another session has taken over is left alone."""
    statement = delete(CardClaimRow).where(
        CardClaimRow.learner_id == learner, CardClaimRow.session_id == session_id
    )
    if card_id is not None:
        statement = statement.where(CardClaimRow.card_id == card_id)
    conn.execute(statement)


def add_set_aside_seconds(conn: Connection, learner: int, session_id: int, seconds: float) -> None:
    """Add ``seconds`` to the time session ``session_id`` spent on cards it set aside."""
    conn.execute(
        update(SessionRow)
        .where(SessionRow.learner_id == learner, SessionRow.id == session_id)
        .values(set_aside_seconds=SessionRow.set_aside_seconds + float(seconds))
    )


__all__ = ["add_set_aside_seconds", "claim_card", "claim_record", "release_claims"]
