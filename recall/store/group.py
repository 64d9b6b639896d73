"""What whoever runs a group may read: per-card aggregates across learners, never a learner's
rows or answers (``recall group``).

A group reader is a PostgreSQL login role granted only ``SELECT`` on the view
``group_card_stats`` (each shared card's learners, reviews, misses and summed lapses) and
``EXECUTE`` on ``group_readiness(exam_at)`` (per learner, unnamed: how many active cards, how
many seen, how many ready at the exam), both owned by the owner and created by migration 0010
(:mod:`recall.store.rls`). It has no privilege on any per-learner table, and no learner row, so
row-level security would show it none either. The report is read without opening a store: a
reader may not write, so the schema check's write is not theirs to make.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Engine, text

from recall.errors import StoreError
from recall.store.engine import DATABASE_ERRORS, make_engine, parse_url, store_error
from recall.store.learners import checked_name, create_login_role
from recall.store.rls import GRANT_READER, GROUP_CARDS_VIEW, GROUP_READINESS

#: A learner is on track when at least this share of their active cards is ready at the exam.
ON_TRACK_SHARE = 0.9


@dataclass(frozen=True)
class CardFigures:
    """One shared card across the group: how many learners reviewed it, reviews, misses
    (rated Again) and lapses summed over learners."""

    deck: str
    card: str
    kind: str
    learners: int
    reviews: int
    misses: int
    lapses: int

    @property
    def miss_rate(self) -> float | None:
        return self.misses / self.reviews if self.reviews else None


@dataclass(frozen=True)
class Readiness:
    """One learner, unnamed: active cards, cards seen, cards ready at the exam."""

    active: int
    seen: int
    ready: int

    @property
    def on_track(self) -> bool:
        return self.active > 0 and self.ready >= ON_TRACK_SHARE * self.active


@dataclass(frozen=True)
class GroupReport:
    cards: list[CardFigures]
    learners: list[Readiness] | None  # with an exam date only

    def most_missed_formulas(self, count: int = 10) -> list[CardFigures]:
        """The formula cards missed most (most misses, then the higher miss rate)."""
        formulas = [c for c in self.cards if c.kind == "formula" and c.misses > 0]
        formulas.sort(key=lambda c: (-c.misses, -(c.miss_rate or 0.0), c.deck, c.card))
        return formulas[:count]


def read_group_report(url: str, exam_at: datetime | None) -> GroupReport:
    """The group's figures, read as the login in ``url`` (a group reader, or the owner)."""
    parsed = parse_url(url)
    if parsed.get_backend_name() != "postgresql":
        raise StoreError(
            "a group report needs a database several learners share (PostgreSQL); a SQLite "
            "database has one learner: recall stats shows theirs"
        )
    engine = make_engine(parsed)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text(
                    f"SELECT deck, card, kind, learners, reviews, misses, lapses "
                    f"FROM {GROUP_CARDS_VIEW} ORDER BY deck, card"
                )
            ).all()
            readiness = None
            if exam_at is not None:
                millis = int(exam_at.timestamp() * 1000)
                readiness = [
                    Readiness(int(r.active), int(r.seen), int(r.ready))
                    for r in conn.execute(
                        text(f"SELECT active, seen, ready FROM {GROUP_READINESS}(:at)"),
                        {"at": millis},
                    )
                ]
    except DATABASE_ERRORS as error:
        raise store_error(error, parsed) from error
    finally:
        engine.dispose()
    cards = [
        CardFigures(
            str(r.deck),
            str(r.card),
            str(r.kind),
            int(r.learners),
            int(r.reviews),
            int(r.misses),
            int(r.lapses),
        )
        for r in rows
    ]
    return GroupReport(cards, readiness)


def add_group_reader(engine: Engine, role: str) -> str:
    """Create login role ``role`` that may read the group's aggregates only; its password."""
    checked_name(role, "a role name")
    password = secrets.token_urlsafe(24)
    with engine.connect() as conn, conn.begin():
        if conn.dialect.name != "postgresql":
            raise StoreError(
                "a group reader is a PostgreSQL login; a SQLite database has one learner"
            )
        create_login_role(conn, role, password)
        conn.execute(text(f"SELECT {GRANT_READER}(:role)"), {"role": role})
    return password
