"""recall's cards, schedules and histories out as an Anki package (``.apkg``, legacy format).

A package is a zip holding a schema-11 SQLite collection (``collection.anki2``, see
:mod:`recall.interop.anki_schema`) and a ``media`` map (``{}``: recall cards have no media).
Written with the standard library only.

What each card carries:

* a note of recall's note type, with a guid and note/card ids derived from the card's
  ``deck/card`` key (so exporting twice gives Anki the same note, which it skips);
* its schedule: phase as ``type``/``queue`` (new 0/0, learning 1/1, review 2/2, relearning 3/1;
  queue 3 for a learning step due after today, -1 when suspended), ``due`` in Anki's units
  (:mod:`recall.interop.anki_days`), ``ivl``, ``reps``, ``lapses`` and the FSRS memory state in
  ``data`` (``s``, ``d``, ``dr``, ``decay``, ``lrt``);
* every review as a ``revlog`` row: ``id`` the review's time in milliseconds (moved on by a
  millisecond where two reviews share one, as Anki needs ids unique), ``ease`` the rating,
  ``type`` from the kind (new or learning 0, review 1, relearning 2, off-schedule 3 with
  ``factor`` 0, which is how Anki marks a review that did not reschedule), ``time`` the
  milliseconds on screen, ``ivl``/``lastIvl`` in days (negative seconds for learning steps).

Anki imports a package once: a card it already has is never updated by a later package. This is
a hand-off, not a sync, and :func:`write_apkg`'s callers say so.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Protocol

from recall.interop import anki_schema as schema
from recall.interop.anki_days import DayClock, clock_for_export
from recall.interop.anki_schema import RevlogRow
from recall.scheduling.rating import Rating
from recall.scheduling.state import CardState, Phase, ReviewKind


class ReviewEntry(Protocol):
    """What a review-log entry gives the package (the store's ``ReviewEntry`` has it all)."""

    @property
    def reviewed_at(self) -> datetime: ...
    @property
    def rating(self) -> Rating: ...
    @property
    def kind(self) -> ReviewKind: ...
    @property
    def seconds(self) -> float: ...
    @property
    def before(self) -> CardState | None: ...
    @property
    def after(self) -> CardState | None: ...


#: ``factor`` written on review cards: SM-2's starting ease, used only if FSRS stays off.
DEFAULT_FACTOR = 2500
#: Longest review time written, in milliseconds (a day: longer is not a measured answer).
MAX_TIME_MS = 86_400_000

_DAY = timedelta(days=1)


@dataclass(frozen=True)
class ExportSettings:
    """The learner's scheduler settings the package records (steps in minutes)."""

    desired_retention: float = 0.9
    decay: float = 0.1542
    learning_minutes: tuple[float, ...] = (1.0, 10.0)
    relearning_minutes: tuple[float, ...] = (10.0,)
    parameters: tuple[float, ...] = ()


@dataclass(frozen=True)
class ExportCard:
    """One recall card as it goes to Anki: identity, fields (HTML), schedule and history."""

    key: str
    deck_name: str
    prompt: str
    answer: str
    state: CardState
    suspended: bool = False
    tags: tuple[str, ...] = ()
    created_at: datetime | None = None
    reviews: Sequence[ReviewEntry] = field(default_factory=tuple)


@dataclass(frozen=True)
class CardRow:
    """The schedule columns of one ``cards`` row (what the tests compare with Anki's)."""

    type: int
    queue: int
    due: int
    ivl: int
    factor: int
    reps: int
    lapses: int
    left: int
    data: str


@dataclass(frozen=True)
class Written:
    """What :func:`write_apkg` wrote."""

    notes: int
    reviews: int
    decks: tuple[str, ...]


def note_id(key: str) -> int:
    return schema.stable_id(key, "note")


def card_id(key: str) -> int:
    return schema.stable_id(key, "card")


def deck_id(name: str) -> int:
    return schema.stable_id(name, "deck")


def _days(span: timedelta) -> int:
    return max(1, round(span / _DAY))


def _seconds(span: timedelta) -> int:
    return max(1, round(span.total_seconds()))


def card_row(
    state: CardState,
    *,
    suspended: bool,
    position: int,
    now: datetime,
    clock: DayClock,
    settings: ExportSettings,
) -> CardRow:
    """The ``cards`` columns for a card in ``state`` at ``now``."""
    data = ""
    if state.stability is not None and state.difficulty is not None:
        memory = {
            "s": round(state.stability, 4),
            "d": round(state.difficulty, 4),
            "dr": round(settings.desired_retention, 2),
            "decay": round(settings.decay, 4),
        }
        if state.last_review is not None:
            memory["lrt"] = int(state.last_review.timestamp())
        data = schema.dumps(memory)
    factor = DEFAULT_FACTOR if state.phase is not Phase.NEW else 0

    def row(type_: int, queue: int, due: int, ivl: int, left: int) -> CardRow:
        return CardRow(
            type=type_,
            queue=queue,
            due=due,
            ivl=ivl,
            factor=factor,
            reps=state.reps,
            lapses=state.lapses,
            left=left,
            data=data,
        )

    queue_if_suspended = -1 if suspended else None
    if state.phase is Phase.NEW or state.due is None:
        queue = queue_if_suspended if queue_if_suspended is not None else 0
        return row(0, queue, position, 0, 0)
    if state.phase is Phase.REVIEW:
        since = state.last_review or (state.due - _DAY)
        queue = queue_if_suspended if queue_if_suspended is not None else 2
        due = clock.day_number(state.due)
        return row(2, queue, due, _days(state.due - since), 0)
    # learning (type 1) or relearning (type 3): minutes away today, a day number after that
    steps = (
        settings.learning_minutes if state.phase is Phase.LEARNING else settings.relearning_minutes
    )
    remaining = max(1, len(steps) - (state.step or 0))
    interday = state.due >= clock.next_day_at(now)
    queue = 3 if interday else 1
    due = clock.day_number(state.due) if interday else int(state.due.timestamp())
    if queue_if_suspended is not None:
        queue = queue_if_suspended
    ivl = 0
    if state.phase is Phase.RELEARNING:
        ivl = max(1, round(state.stability or 1))
    type_ = 1 if state.phase is Phase.LEARNING else 3
    return row(type_, queue, due, ivl, remaining * 1000 + remaining)


_REVLOG_TYPE = {
    ReviewKind.NEW: 0,
    ReviewKind.LEARNING: 0,
    ReviewKind.REVIEW: 1,
    ReviewKind.RELEARNING: 2,
    ReviewKind.OFF_SCHEDULE: 3,
}


def revlog_type(kind: ReviewKind) -> int:
    """``revlog.type`` for a review of ``kind`` (off-schedule is Anki's Filtered, 3)."""
    return _REVLOG_TYPE[kind]


def difficulty_factor(difficulty: float | None) -> int:
    """FSRS difficulty (1..10) as Anki's revlog ``factor`` (100..1100)."""
    if difficulty is None:
        return 0
    return round((difficulty - 1) / 9 * 1000 + 100)


def _interval(state: CardState | None, at: datetime) -> int:
    """A revlog interval: days for a review-phase state, negative seconds for a step."""
    if state is None or state.due is None or state.phase is Phase.NEW:
        return 0
    if state.phase is Phase.REVIEW:
        return _days(state.due - at)
    return -_seconds(state.due - at)


def revlog_rows(cid: int, reviews: Iterable[ReviewEntry], taken: set[int]) -> list[RevlogRow]:
    """The ``revlog`` rows of one card's reviews; ``taken`` holds the ids already used in the
    package (a review sharing a millisecond with another moves on by one)."""
    rows = []
    for entry in reviews:
        at_ms = round(entry.reviewed_at.timestamp() * 1000)
        while at_ms in taken:
            at_ms += 1
        taken.add(at_ms)
        before = entry.before
        after = entry.after
        last = 0
        if before is not None and before.last_review is not None:
            last = _interval(before, before.last_review)
        rows.append(
            RevlogRow(
                id=at_ms,
                cid=cid,
                ease=int(entry.rating),
                ivl=0 if after is None else _interval(after, entry.reviewed_at),
                last_ivl=last,
                factor=0 if after is None else difficulty_factor(after.difficulty),
                time=min(MAX_TIME_MS, max(0, round(entry.seconds * 1000))),
                type=revlog_type(entry.kind),
            )
        )
    return rows


def _fields(card: ExportCard) -> list[str]:
    return [card.prompt, card.answer, card.key]


def build_collection(
    path: Path, cards: Sequence[ExportCard], *, now: datetime, settings: ExportSettings
) -> Written:
    """Write the schema-11 collection for ``cards`` into a new SQLite file at ``path``."""
    clock = clock_for_export(now)
    mtime = int(now.timestamp())
    decks = sorted({card.deck_name for card in cards})
    deck_ids = {name: deck_id(name) for name in decks}
    deck_json = {
        str(schema.DEFAULT_DECK_ID): schema.deck_entry(schema.DEFAULT_DECK_ID, "Default", mtime)
    }
    for name, did in deck_ids.items():
        deck_json[str(did)] = schema.deck_entry(did, name, mtime)
    config = schema.deck_config(
        mtime,
        learning_minutes=settings.learning_minutes,
        relearning_minutes=settings.relearning_minutes,
        desired_retention=settings.desired_retention,
        parameters=settings.parameters,
    )
    conf = schema.collection_conf(
        offset_minutes_west=clock.offset_minutes_west, rollover=clock.rollover
    )
    conf["curModel"] = schema.NOTE_TYPE_ID
    models = {str(schema.NOTE_TYPE_ID): schema.note_type(mtime)}
    taken: set[int] = set()
    reviews = 0
    connection = sqlite3.connect(path)
    try:
        connection.executescript(schema.TABLES)
        connection.execute(
            "INSERT INTO col VALUES (1, ?, ?, ?, ?, 0, 0, 0, ?, ?, ?, ?, '{}')",
            (
                clock.crt,
                mtime * 1000,
                mtime * 1000,
                schema.SCHEMA_VERSION,
                schema.dumps(conf),
                schema.dumps(models),
                schema.dumps(deck_json),
                schema.dumps({str(schema.DEFAULT_CONFIG_ID): config}),
            ),
        )
        for position, card in enumerate(cards, start=1):
            nid, cid = note_id(card.key), card_id(card.key)
            fields = _fields(card)
            connection.execute(
                "INSERT INTO notes VALUES (?, ?, ?, ?, -1, ?, ?, ?, ?, 0, '')",
                (
                    nid,
                    schema.stable_guid(card.key),
                    schema.NOTE_TYPE_ID,
                    mtime,
                    " " + " ".join(card.tags) + " " if card.tags else "",
                    schema.FIELD_SEPARATOR.join(fields),
                    fields[0],
                    schema.field_checksum(fields[0]),
                ),
            )
            row = card_row(
                card.state,
                suspended=card.suspended,
                position=position,
                now=now,
                clock=clock,
                settings=settings,
            )
            connection.execute(
                "INSERT INTO cards VALUES (?, ?, ?, 0, ?, -1, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, ?)",
                (
                    cid,
                    nid,
                    deck_ids[card.deck_name],
                    mtime,
                    row.type,
                    row.queue,
                    row.due,
                    row.ivl,
                    row.factor,
                    row.reps,
                    row.lapses,
                    row.left,
                    row.data,
                ),
            )
            rows = revlog_rows(cid, card.reviews, taken)
            connection.executemany(
                "INSERT INTO revlog VALUES (?, ?, -1, ?, ?, ?, ?, ?, ?)",
                [(r.id, r.cid, r.ease, r.ivl, r.last_ivl, r.factor, r.time, r.type) for r in rows],
            )
            reviews += len(rows)
        connection.commit()
    finally:
        connection.close()
    return Written(notes=len(cards), reviews=reviews, decks=tuple(decks))


def write_apkg(
    target: Path,
    cards: Sequence[ExportCard],
    *,
    now: datetime,
    settings: ExportSettings | None = None,
) -> Written:
    """Write ``cards`` as a legacy ``.apkg`` at ``target``: whole or not at all (a temporary
    file beside it, renamed over it), readable by the owner only (mode 0600)."""
    settings = settings or ExportSettings()
    target = Path(target)
    with tempfile.TemporaryDirectory(prefix="recall-apkg-") as scratch:
        database = Path(scratch) / "collection.anki2"
        written = build_collection(database, cards, now=now, settings=settings)
        handle, temp_name = tempfile.mkstemp(
            prefix=f".{target.name}.", suffix=".tmp", dir=target.parent
        )
        temp = Path(temp_name)
        try:
            with os.fdopen(handle, "wb") as raw:
                with zipfile.ZipFile(raw, "w", compression=zipfile.ZIP_DEFLATED) as package:
                    package.write(database, "collection.anki2")
                    package.writestr("media", "{}")
                raw.flush()
                os.fsync(raw.fileno())
            os.chmod(temp, 0o600)
            os.replace(temp, target)
        except BaseException:
            temp.unlink(missing_ok=True)
            raise
    return written
