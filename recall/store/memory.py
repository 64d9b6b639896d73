"""The memory model's storage: fitted parameter sets (versioned, one in use) and imported reviews.

:class:`MemoryModelStore` wraps an open :class:`~recall.store.store.Store` and uses its
transactions (one per method, committed on return) and its error translation, so the fitting
code's reads and writes sit in one module beside the facade rather than inside it.

Versioning: every fit is recorded (:meth:`MemoryModelStore.record_fit`), kept or not, so the
learner can see what was tried. A kept fit becomes the one in use. :meth:`revert` puts the
previous kept fit back in use (or the FSRS defaults when there is none); nothing is deleted.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from itertools import chain
from operator import itemgetter
from typing import Any

from sqlalchemy import (
    BigInteger,
    Connection,
    bindparam,
    insert,
    select,
    type_coerce,
    update,
)

from recall.clock import utc_now
from recall.scheduling.state import CardState
from recall.store.engine import DATABASE_ERRORS, store_error
from recall.store.models import (
    CardRow,
    CardStateRow,
    DeckRow,
    ImportedReviewRow,
    ParameterSetRow,
    ReviewRow,
    decks_visible_to,
    queue_for,
)
from recall.store.rows import review_kind
from recall.store.store import Store
from recall.store.timeutil import from_millis, to_millis


@dataclass(frozen=True)
class ParameterSet:
    """One recorded fit."""

    id: int
    created_at: datetime
    parameters: tuple[float, ...]
    status: str
    reviews: int
    log_loss: float | None
    rmse_bins: float | None
    comparison: dict[str, Any] | None
    in_use: bool


#: Imported reviews checked and inserted together, each batch in its own short write
#: transaction (a few hundred kB of rows at a time).
IMPORT_BATCH = 5_000
#: Cards looked up in one query (bound values, under every driver's cap).
PROBE_CARDS = 400

#: One imported review as the batches hold it: (card id, time in epoch ms).
_Key = tuple[int, int]


def _stored(conn: Connection, learner: int, keys: Collection[_Key]) -> set[_Key]:
    """Which of ``keys`` (card id, epoch ms) ``learner``'s imported log holds already.

    Each query names a few hundred cards and the span of the times asked about them, so the
    database walks the unique (learner, card, time) index over that span only: a batch of a
    file in time order reads the few rows of its own days, a batch grouped by card reads those
    cards' rows. (Asking for ``card IN (…) AND time IN (…)`` made SQLite try every card with
    every time, the product of the two lists: 16 s of re-importing 100,000 Anki reviews; a
    row-value ``(card, time) IN (VALUES …)`` scans the learner's whole log per query.)"""
    by_card: dict[int, list[int]] = {}
    for card_id, at_ms in keys:
        by_card.setdefault(card_id, []).append(at_ms)
    cards = sorted(by_card)
    at = type_coerce(ImportedReviewRow.reviewed_at, BigInteger)
    found: set[_Key] = set()
    for start in range(0, len(cards), PROBE_CARDS):
        chunk = cards[start : start + PROBE_CARDS]
        times = [ms for card_id in chunk for ms in by_card[card_id]]
        rows = conn.execute(
            select(ImportedReviewRow.card_id, at).where(
                ImportedReviewRow.learner_id == learner,
                ImportedReviewRow.card_id.in_(chunk),
                at.between(min(times), max(times)),
            )
        ).all()  # fetched at once: row by row costs a call per row
        found.update(map(tuple, rows))  # two integers each (the time coerced to BIGINT)
    return found.intersection(keys)


#: The insert of imported reviews, its values bound in this order, times as epoch ms.
_INSERT_COLUMNS = (
    "learner_id",
    "card_id",
    "reviewed_at",
    "rating",
    "state",
    "duration_ms",
    "imported_at",
)
_INSERT = (
    insert(ImportedReviewRow)
    .inline()  # no RETURNING of the new ids, which a PostgreSQL insert would add
    .values(
        {
            name: bindparam(name, type_=BigInteger if name.endswith("_at") else None)
            for name in _INSERT_COLUMNS
        }
    )
)


def _insert_rows(conn: Connection, rows: list[tuple[int | None, ...]]) -> None:
    """Insert imported-review rows (values in :data:`_INSERT_COLUMNS` order) with one
    ``executemany`` of the driver (:func:`_execute_many`)."""
    _execute_many(conn, _INSERT, _INSERT_COLUMNS, rows)


def _execute_many(
    conn: Connection, statement: Any, names: tuple[str, ...], rows: list[tuple[Any, ...]]
) -> None:
    """Run ``statement`` once per row with one ``executemany`` of the driver, each row's values
    in ``names`` order: the values are plain numbers already (times as epoch ms), so the
    per-row parameter processing of a Core ``execute`` (most of the time of 100,000 rows) is
    skipped. The statement is still Core's, compiled for the connection's dialect."""
    compiled = statement.compile(dialect=conn.dialect)
    if compiled.positional:
        order = tuple(names.index(name) for name in compiled.positiontup or ())
        in_order = order == tuple(range(len(names)))
        params: list[Any] = rows if in_order else list(map(itemgetter(*order), rows))
    else:
        params = [dict(zip(names, row, strict=True)) for row in rows]
    conn.exec_driver_sql(compiled.string, params)


#: The columns a state scheduled elsewhere sets on a card's ``card_state`` row, in the order
#: :data:`_ADOPT` binds them (after them the learner and the card).
_ADOPT_COLUMNS = (
    "queue",
    "phase",
    "step",
    "stability",
    "difficulty",
    "due",
    "last_review",
    "reps",
    "lapses",
    "suspended",
    "buried_until",
)
_MOMENTS = frozenset({"due", "last_review", "buried_until"})  # bound as epoch ms
#: The update of one card's schedule; bound names apart from the column names, which
#: SQLAlchemy keeps for itself. Times are bound as epoch ms.
_ADOPT = (
    update(CardStateRow)
    .where(
        CardStateRow.learner_id == bindparam("learner"),
        CardStateRow.card_id == bindparam("cid"),
    )
    .values(
        {
            name: bindparam(f"new_{name}", type_=BigInteger if name in _MOMENTS else None)
            for name in _ADOPT_COLUMNS
        }
    )
)
_ADOPT_NAMES = (*(f"new_{name}" for name in _ADOPT_COLUMNS), "learner", "cid")


def _adopt_values(state: CardState, suspended: bool) -> tuple[Any, ...]:
    """The :data:`_ADOPT_COLUMNS` values of a card given ``state`` (times as epoch ms; the
    state's columns as :func:`~recall.store.rows.state_columns` names them, not buried)."""
    due, last = state.due, state.last_review
    return (
        queue_for(int(state.phase), suspended=suspended),
        int(state.phase),
        state.step,
        state.stability,
        state.difficulty,
        None if due is None else to_millis(due),
        None if last is None else to_millis(last),
        state.reps,
        state.lapses,
        suspended,
        None,
    )


def _is_newer(state: CardState, last_ms: int | None, phase: int) -> bool:
    """Whether a card whose stored schedule last saw a review at ``last_ms`` (epoch ms) and is
    in ``phase`` takes ``state``: a state that saw a later review does; a state with no review
    time only where the card was never seen."""
    if state.last_review is not None:
        return last_ms is None or to_millis(state.last_review) > last_ms
    return last_ms is None and phase == 0 and state.phase != 0


@dataclass(frozen=True)
class ImportedReview:
    """A review imported from another FSRS tool, matched to one of recall's cards."""

    card_key: str
    reviewed_at: datetime
    rating: int
    state: int | None
    duration_ms: int | None


@dataclass(frozen=True, slots=True)
class ScheduledReview:
    """What the memory model reads of one scheduled review of the log: the card, the moment,
    the rating and the seconds it took. Nothing else, so 100k of them load in one lean query
    (:meth:`MemoryModelStore.scheduled_reviews`) instead of 100k full log entries."""

    card_key: str
    reviewed_at: datetime
    rating: int
    seconds: float


def _parameter_set(row: Any) -> ParameterSet:
    return ParameterSet(
        id=row.id,
        created_at=row.created_at,
        parameters=tuple(float(w) for w in json.loads(row.parameters)),
        status=row.status,
        reviews=row.reviews,
        log_loss=row.log_loss,
        rmse_bins=row.rmse_bins,
        comparison=json.loads(row.comparison) if row.comparison else None,
        in_use=bool(row.in_use),
    )


class MemoryModelStore:
    """Parameter sets and imported reviews in ``store``'s database."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._learner = store.learner_id
        self._mine = ParameterSetRow.learner_id == store.learner_id

    def _fail(self, error: BaseException) -> Exception:
        return store_error(error, self._store.url)

    def fits(self) -> list[ParameterSet]:
        """Every recorded fit, oldest first."""
        try:
            with self._store._read() as conn:
                rows = conn.execute(
                    select(ParameterSetRow).where(self._mine).order_by(ParameterSetRow.id)
                )
                return [_parameter_set(r) for r in rows]
        except DATABASE_ERRORS as error:
            raise self._fail(error) from error

    def in_use(self) -> ParameterSet | None:
        """The fit the scheduler uses, or ``None`` for the FSRS defaults."""
        return next((f for f in self.fits() if f.in_use), None)

    def record_fit(
        self,
        parameters: Iterable[float],
        *,
        kept: bool,
        reviews: int,
        comparison: Mapping[str, Any] | None,
        now: datetime | None = None,
    ) -> ParameterSet:
        """Record a fit; a kept one becomes the one in use (the mark moves in one transaction)."""
        candidate = (comparison or {}).get("candidate", {})
        values = {
            "created_at": now or utc_now(),
            "parameters": json.dumps([float(w) for w in parameters]),
            "status": "kept" if kept else "rejected",
            "reviews": int(reviews),
            "log_loss": candidate.get("log_loss"),
            "rmse_bins": candidate.get("rmse_bins"),
            "comparison": json.dumps(comparison, sort_keys=True) if comparison else None,
            "in_use": kept,
            "learner_id": self._learner,
        }
        try:
            with self._store._write() as conn:
                if kept:
                    conn.execute(update(ParameterSetRow).where(self._mine).values(in_use=False))
                new_id = conn.execute(
                    insert(ParameterSetRow).values(**values).returning(ParameterSetRow.id)
                ).scalar_one()
                row = conn.execute(
                    select(ParameterSetRow).where(self._mine, ParameterSetRow.id == new_id)
                ).one()
                return _parameter_set(row)
        except DATABASE_ERRORS as error:
            raise self._fail(error) from error

    def revert(self) -> ParameterSet | None:
        """Put the kept fit before the one in use back in use; ``None`` means the defaults are
        now in use (there was no earlier kept fit, or nothing to revert)."""
        try:
            with self._store._write() as conn:
                current = conn.execute(
                    select(ParameterSetRow.id).where(self._mine, ParameterSetRow.in_use.is_(True))
                ).scalar_one_or_none()
                if current is None:
                    return None
                conn.execute(update(ParameterSetRow).where(self._mine).values(in_use=False))
                earlier = conn.execute(
                    select(ParameterSetRow)
                    .where(
                        self._mine, ParameterSetRow.id < current, ParameterSetRow.status == "kept"
                    )
                    .order_by(ParameterSetRow.id.desc())
                    .limit(1)
                ).one_or_none()
                if earlier is None:
                    return None
                conn.execute(
                    update(ParameterSetRow)
                    .where(self._mine, ParameterSetRow.id == earlier.id)
                    .values(in_use=True)
                )
                return replace(_parameter_set(earlier), in_use=True)
        except DATABASE_ERRORS as error:
            raise self._fail(error) from error

    def import_reviews(
        self,
        reviews: Iterable[ImportedReview],
        now: datetime | None = None,
        *,
        own_within_ms: int = 0,
    ) -> tuple[int, int]:
        """Store matched reviews; returns (added, already there). Unknown card keys raise
        ``KeyError``: match them first (:func:`recall.interop.review_csv.match_cards`).

        With ``own_within_ms``, a review of a card that recall's own log holds within that many
        milliseconds is already there too: it is one of ours coming back from another tool
        (an Anki package moves a review by a millisecond where two share one)."""
        imported_ms = to_millis(now or utc_now())
        added = duplicates = 0

        def store(batch: dict[_Key, tuple[int | None, ...]]) -> None:
            """Store what ``batch`` adds to the log: looked up first in a read (a batch that is
            all there already, a file imported again, never takes the write lock), then the rest
            in one write transaction, looked up again there (another import may have run in
            between) and inserted in one statement."""
            nonlocal added, duplicates
            with self._store._read() as conn:
                there = _stored(conn, self._learner, batch.keys())
            new = [key for key in batch if key not in there]
            if new:
                with self._store._write() as conn:
                    there = _stored(conn, self._learner, new)
                    rows = [
                        (self._learner, card_id, at_ms, *batch[(card_id, at_ms)], imported_ms)
                        for card_id, at_ms in new
                        if (card_id, at_ms) not in there
                    ]
                    if rows:
                        _insert_rows(conn, rows)
                stored = len(rows)
            else:
                stored = 0
            added, duplicates = added + stored, duplicates + len(batch) - stored

        try:
            with self._store._read() as conn:
                own: dict[int, list[int]] = {}
                if own_within_ms > 0:
                    for card_id, at in conn.execute(
                        select(
                            ReviewRow.card_id, type_coerce(ReviewRow.reviewed_at, BigInteger)
                        ).where(ReviewRow.learner_id == self._learner)
                    ):
                        own.setdefault(card_id, []).append(int(at))
                ids = self._card_ids(conn)
            # In batches, each checked against the log as it stands (earlier batches of this
            # import included) and written in its own short write transaction: memory is one
            # batch's whatever the file's size, and a window drilling meanwhile never waits for
            # the whole file to be read. An import cut short keeps its stored batches; run
            # again, they count as already there.
            batch: dict[_Key, tuple[int | None, ...]] = {}
            for review in reviews:
                card_id = ids[review.card_key]
                at_ms = to_millis(review.reviewed_at)
                key = (card_id, at_ms)
                mine = own.get(card_id)
                if key in batch or (mine and any(abs(at_ms - m) <= own_within_ms for m in mine)):
                    duplicates += 1
                    continue
                batch[key] = (review.rating, review.state, review.duration_ms)
                if len(batch) >= IMPORT_BATCH:
                    store(batch)
                    batch = {}
            if batch:
                store(batch)
        except DATABASE_ERRORS as error:
            raise self._fail(error) from error
        return added, duplicates

    def adopt_states(self, states: Mapping[str, tuple[CardState, bool]]) -> tuple[int, int]:
        """Give cards (by ``deck/card`` key) a state scheduled elsewhere, with its suspension
        (:meth:`adopt`). Returns (adopted, kept as they were)."""
        adopted = self.adopt(states)
        return len(adopted), len(states) - len(adopted)

    def newer_states(self, states: Mapping[str, tuple[CardState, bool]]) -> set[str]:
        """The keys of ``states`` that :meth:`adopt` would adopt now, read without the write
        lock: an importer completes only these (an SM-2 card's replay through FSRS, say) and
        hands them to :meth:`adopt`, which checks again as it writes. Unknown keys raise
        ``KeyError``."""
        try:
            with self._store._read() as conn:
                stored = self._schedule_times(conn)
        except DATABASE_ERRORS as error:
            raise self._fail(error) from error
        newer = set()
        for card_key, (state, _suspended) in states.items():
            _card_id, last_ms, phase = stored[card_key]
            if _is_newer(state, last_ms, phase):
                newer.add(card_key)
        return newer

    def adopt(self, states: Mapping[str, tuple[CardState, bool]]) -> list[str]:
        """Give cards (by ``deck/card`` key) a state scheduled elsewhere, with its suspension:
        only where that state saw a later review than the one recall has (or, for a state with
        no review time, where recall's card is still new), so recall's own newer reviews are
        never overwritten and adopting the same states again changes nothing. Returns the keys
        adopted; unknown keys raise ``KeyError``.

        Written as the imported reviews are (:meth:`import_reviews`): in batches of
        :data:`IMPORT_BATCH` cards, each in its own short write transaction that reads its
        cards' schedules again (one range of card ids) and updates those it adopts with one
        driver ``executemany`` of plain values."""
        try:
            with self._store._read() as conn:
                ids = self._card_ids(conn)
            by_id = sorted((ids[card_key], card_key) for card_key in states)
            adopted: list[str] = []
            for start in range(0, len(by_id), IMPORT_BATCH):
                batch = by_id[start : start + IMPORT_BATCH]
                with self._store._write() as conn:
                    stored = self._schedule_times_between(conn, batch[0][0], batch[-1][0])
                    rows = []
                    for card_id, card_key in batch:
                        state, suspended = states[card_key]
                        last_ms, phase = stored[card_id]
                        if _is_newer(state, last_ms, phase):
                            rows.append((*_adopt_values(state, suspended), self._learner, card_id))
                            adopted.append(card_key)
                    if rows:
                        _execute_many(conn, _ADOPT, _ADOPT_NAMES, rows)
        except DATABASE_ERRORS as error:
            raise self._fail(error) from error
        return adopted

    def _schedule_times(self, conn: Connection) -> dict[str, tuple[int, int | None, int]]:
        """Every card's (id, last review in epoch ms, phase) by ``deck/card`` key, read in one
        query with the time as a plain integer (no per-row conversion)."""
        last = type_coerce(CardStateRow.last_review, BigInteger)
        rows = conn.execute(
            select(CardRow.id, DeckRow.slug, CardRow.key, last, CardStateRow.phase)
            .join(DeckRow, DeckRow.id == CardRow.deck_id)
            .join(CardStateRow, CardStateRow.card_id == CardRow.id)
            .where(CardStateRow.learner_id == self._learner)
        ).all()
        return {f"{slug}/{key}": (card_id, ms, phase) for card_id, slug, key, ms, phase in rows}

    def _schedule_times_between(
        self, conn: Connection, first: int, last: int
    ) -> dict[int, tuple[int | None, int]]:
        """(last review in epoch ms, phase) of the cards with ids ``first`` to ``last``."""
        at = type_coerce(CardStateRow.last_review, BigInteger)
        rows = conn.execute(
            select(CardStateRow.card_id, at, CardStateRow.phase).where(
                CardStateRow.learner_id == self._learner,
                CardStateRow.card_id.between(first, last),
            )
        ).all()
        return {card_id: (ms, phase) for card_id, ms, phase in rows}

    def scheduled_reviews(self) -> list[ScheduledReview]:
        """Every scheduled review of the log (a state after it, a rating 1..4: not cramming),
        in log order. Times are read as raw milliseconds and converted here, which is several
        times cheaper than the column type's per-row conversion of every time column."""
        query = (
            select(
                DeckRow.slug,
                CardRow.key,
                type_coerce(ReviewRow.reviewed_at, BigInteger),
                ReviewRow.rating,
                ReviewRow.duration_ms,
            )
            .join(CardRow, CardRow.id == ReviewRow.card_id)
            .join(DeckRow, DeckRow.id == CardRow.deck_id)
            .where(
                ReviewRow.learner_id == self._learner,
                ReviewRow.after_phase.is_not(None),
                ReviewRow.rating.between(1, 4),
            )
            .order_by(ReviewRow.id)
        )
        try:
            with self._store._read() as conn:
                return [
                    ScheduledReview(f"{slug}/{key}", from_millis(int(at)), rating, ms / 1000)
                    for slug, key, at, rating, ms in conn.execute(query)
                ]
        except DATABASE_ERRORS as error:
            raise self._fail(error) from error

    def review_columns(self) -> tuple[Any, Any, Any]:
        """(card id, time in epoch milliseconds, rating) of every scheduled review of the log
        and then of every imported review, as three NumPy int64 arrays: the health report's
        input (:class:`recall.scheduling.review_table.ReviewTable`), read without a Python
        object per review. Own reviews come first (in log order), so a review imported back
        from an export of this log is the one dropped as a repeat."""
        import numpy as np

        own = (
            select(
                ReviewRow.card_id, type_coerce(ReviewRow.reviewed_at, BigInteger), ReviewRow.rating
            )
            .where(
                ReviewRow.learner_id == self._learner,
                ReviewRow.after_phase.is_not(None),
                ReviewRow.rating.between(1, 4),
            )
            .order_by(ReviewRow.id)
        )
        imported = (
            select(
                ImportedReviewRow.card_id,
                type_coerce(ImportedReviewRow.reviewed_at, BigInteger),
                ImportedReviewRow.rating,
            )
            .where(
                ImportedReviewRow.learner_id == self._learner,
                ImportedReviewRow.rating.between(1, 4),
            )
            .order_by(ImportedReviewRow.reviewed_at, ImportedReviewRow.id)
        )
        try:
            with self._store._read() as conn:
                rows = [*conn.execute(own).all(), *conn.execute(imported).all()]
        except DATABASE_ERRORS as error:
            raise self._fail(error) from error
        # Flattened first: NumPy probing each row object for an array interface costs seconds.
        flat = np.fromiter(chain.from_iterable(rows), dtype=np.int64, count=3 * len(rows))
        table = flat.reshape(-1, 3)
        return table[:, 0], table[:, 1], table[:, 2]

    def recent_answers(self, limit: int) -> list[tuple[str, float]]:
        """(kind, seconds) of the latest ``limit`` reviews of the log, oldest first: what the
        learner's pace is measured on (:func:`recall.scheduling.today.pace_from_log`)."""
        query = (
            select(ReviewRow.kind, ReviewRow.duration_ms)
            .where(ReviewRow.learner_id == self._learner)
            .order_by(ReviewRow.id.desc())
            .limit(max(0, limit))
        )
        try:
            with self._store._read() as conn:
                rows = conn.execute(query).all()
        except DATABASE_ERRORS as error:
            raise self._fail(error) from error
        return [(str(review_kind(kind)), ms / 1000) for kind, ms in reversed(rows)]

    def _card_ids(self, conn: Connection) -> dict[str, int]:
        """The database id of every card this learner sees, by ``deck/card`` key."""
        rows = conn.execute(
            select(CardRow.id, DeckRow.slug, CardRow.key)
            .join(DeckRow, DeckRow.id == CardRow.deck_id)
            .where(decks_visible_to(self._learner))
        ).all()  # fetched at once: row by row costs a call per row
        return {f"{slug}/{key}": card_id for card_id, slug, key in rows}

    def imported_times(self, card_keys: Iterable[str]) -> dict[str, set[int]]:
        """When each of these cards (by ``deck/card`` key) was reviewed in the imported log
        (epoch ms): what an importer reads first to set aside the reviews already there, so
        a file imported again costs one read rather than a look-up per review. Unknown keys
        have no times."""
        try:
            with self._store._read() as conn:
                ids = self._card_ids(conn)
                key_of = {ids[key]: key for key in set(card_keys) if key in ids}
                cards = sorted(key_of)
                times: dict[str, set[int]] = {}
                at = type_coerce(ImportedReviewRow.reviewed_at, BigInteger)
                for start in range(0, len(cards), PROBE_CARDS):
                    rows = conn.execute(
                        select(ImportedReviewRow.card_id, at).where(
                            ImportedReviewRow.learner_id == self._learner,
                            ImportedReviewRow.card_id.in_(cards[start : start + PROBE_CARDS]),
                        )
                    ).all()
                    for card_id, ms in rows:
                        times.setdefault(key_of[card_id], set()).add(ms)
                return times
        except DATABASE_ERRORS as error:
            raise self._fail(error) from error

    def imported_reviews(self) -> list[ImportedReview]:
        """Every imported review, oldest first."""
        query = (
            select(
                DeckRow.slug,
                CardRow.key,
                ImportedReviewRow.reviewed_at,
                ImportedReviewRow.rating,
                ImportedReviewRow.state,
                ImportedReviewRow.duration_ms,
            )
            .join(CardRow, CardRow.id == ImportedReviewRow.card_id)
            .join(DeckRow, DeckRow.id == CardRow.deck_id)
            .where(ImportedReviewRow.learner_id == self._learner)
            .order_by(ImportedReviewRow.reviewed_at, ImportedReviewRow.id)
        )
        try:
            with self._store._read() as conn:
                return [
                    ImportedReview(f"{slug}/{key}", at, rating, state, duration)
                    for slug, key, at, rating, state, duration in conn.execute(query)
                ]
        except DATABASE_ERRORS as error:
            raise self._fail(error) from error
