"""An Anki collection's rows as recall's terms: note text, card schedules, reviews.

Pure conversion over :mod:`recall.interop.apkg_read`'s rows; the caller decides what to store.

* Fields are HTML: they are reduced to text (line breaks kept, tags dropped, entities decoded),
  and media references (``<img>``, ``[sound:…]``) are dropped and counted.
* A card's schedule: ``type`` is the phase (0 new, 1 learning, 2 review, 3 relearning),
  ``queue`` -1 is suspended; ``due`` is a collection day number for review cards and interday
  steps (converted with the collection's own day numbering, :mod:`recall.interop.anki_days`)
  and epoch seconds for a step due today; a card in a filtered deck has its real due in ``odue``.
  The FSRS memory state is ``data``'s ``s`` (stability) and ``d`` (difficulty), ``lrt`` the last
  review; without it (an SM-2 card) the caller rebuilds it from the reviews.
* A revlog row is a review: ``ease`` 1-4 the rating, ``type`` the phase before (learning 0,
  the card's first review being new; review 1; relearning 2; a filtered-deck review that
  rescheduled, 3 with a ``factor``, a review), ``time`` the milliseconds taken. Rows that are
  not reviews are skipped with the reason: manual (4) and rescheduled (5) entries, ``ease`` 0,
  and cram rows (3 with ``factor`` 0, which changed no schedule).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from recall.interop.anki_days import DayClock, local_minutes_west
from recall.interop.anki_schema import RevlogRow
from recall.interop.apkg_read import AnkiCard, AnkiCollection
from recall.scheduling.state import CardState, Phase

_TAG = re.compile(r"<[^>]+>")
_BREAK = re.compile(r"<\s*(?:br\s*/?|/div|/p|/li)\s*>", re.IGNORECASE)
_MEDIA = re.compile(r"<\s*(?:img|audio|video|source)\b[^>]*>|\[sound:[^\]]*\]", re.IGNORECASE)
_SPACES = re.compile(r"[ \t\xa0]+")

#: revlog.type → recall's phase before the review (0 is new for a card's first review).
_PHASE_OF_TYPE = {0: Phase.LEARNING, 1: Phase.REVIEW, 2: Phase.RELEARNING, 3: Phase.REVIEW}


def html_to_text(field: str) -> tuple[str, int]:
    """A field's HTML as plain text, and how many media references it dropped."""
    media = len(_MEDIA.findall(field))
    text = _MEDIA.sub("", field)
    text = _BREAK.sub("\n", text)
    text = _TAG.sub("", text)
    text = html.unescape(text)
    lines = [_SPACES.sub(" ", line).strip() for line in text.splitlines()]
    return "\n".join(line for line in lines if line).strip(), media


def day_clock(collection: AnkiCollection, now: datetime) -> DayClock:
    """The collection's day numbering (its creation offset, or this machine's offset now as
    Anki reads a collection that has none)."""
    west = collection.creation_offset
    if west is None:
        west = local_minutes_west(now)
    return DayClock(crt=collection.crt, offset_minutes_west=west, rollover=collection.rollover)


@dataclass(frozen=True)
class Memory:
    """FSRS memory state from ``cards.data``."""

    stability: float
    difficulty: float
    last_review: datetime | None


def memory_of(card: AnkiCard) -> Memory | None:
    """The card's FSRS state from ``data``, or ``None`` (no FSRS state, or not readable)."""
    if not card.data.strip().startswith("{"):
        return None
    try:
        data = json.loads(card.data)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    stability, difficulty = data.get("s"), data.get("d")
    if not isinstance(stability, int | float) or not isinstance(difficulty, int | float):
        return None
    if not (0 < stability < 1e6 and 1 <= difficulty <= 10):
        return None
    lrt = data.get("lrt")
    last = (
        datetime.fromtimestamp(lrt, tz=UTC)
        if isinstance(lrt, int) and 946_684_800 <= lrt < 7_258_118_400
        else None
    )
    return Memory(float(stability), float(difficulty), last)


@dataclass(frozen=True)
class Schedule:
    """A card's schedule in recall's terms (memory state filled in when ``data`` had it)."""

    state: CardState
    suspended: bool
    has_memory: bool


def schedule_of(
    card: AnkiCard,
    clock: DayClock,
    *,
    last_review: datetime | None,
    learning_steps: int,
    relearning_steps: int,
) -> Schedule:
    """The schedule of ``card``; ``last_review`` is its latest review in the revlog (``lrt``
    wins when ``data`` has it)."""
    suspended = card.queue == -1
    memory = memory_of(card)
    if card.type == 0 or card.type not in (1, 2, 3):
        return Schedule(CardState(), suspended, False)
    queue = card.queue
    due_value = card.original_due if card.original_deck and card.original_due else card.due
    if card.type == 2 or queue in (2, 3) or (queue < 0 and due_value < 1_000_000_000):
        due = clock.day_start(due_value)
    else:
        due = datetime.fromtimestamp(due_value, tz=UTC)
    phase = {1: Phase.LEARNING, 2: Phase.REVIEW, 3: Phase.RELEARNING}[card.type]
    step = None
    if phase is not Phase.REVIEW:
        steps = learning_steps if phase is Phase.LEARNING else relearning_steps
        remaining = card.left % 1000
        step = max(0, min(steps - 1, steps - remaining)) if steps else 0
    last = (memory.last_review if memory and memory.last_review else None) or last_review
    state = CardState(
        phase=phase,
        step=step,
        stability=memory.stability if memory else None,
        difficulty=memory.difficulty if memory else None,
        due=due,
        last_review=last,
        reps=max(0, card.reps),
        lapses=max(0, card.lapses),
    )
    return Schedule(state, suspended, memory is not None)


@dataclass(frozen=True, slots=True)
class Review:
    """A revlog row that is a review: Anki's card id, the time, the rating 1-4, the phase
    before (0 new .. 3 relearning) and the milliseconds it took."""

    anki_card: int
    revlog_id: int
    reviewed_at: datetime
    rating: int
    phase: int
    duration_ms: int


@dataclass(frozen=True)
class Skipped:
    """A revlog row that is not a review, and why."""

    revlog_id: int
    reason: str

    def __str__(self) -> str:
        # 0: a summary of several rows rather than one row
        return f"revlog row {self.revlog_id}: {self.reason}" if self.revlog_id else self.reason


def reviews_of(rows: Iterable[RevlogRow]) -> tuple[list[Review], list[Skipped]]:
    """Every revlog row as a review or as skipped with the reason, oldest first."""
    reviews: list[Review] = []
    skipped: list[Skipped] = []
    seen_cards: set[int] = set()
    for row in sorted(rows, key=lambda r: r.id):
        if row.type in (4, 5):
            what = "manual" if row.type == 4 else "rescheduled"
            skipped.append(Skipped(row.id, f"a {what} change of the due date, not a review"))
            continue
        if row.ease == 0:
            skipped.append(Skipped(row.id, "ease 0: a change made without answering"))
            continue
        if row.type == 3 and row.factor == 0:
            skipped.append(Skipped(row.id, "a cram review, which changed no schedule"))
            continue
        phase = _PHASE_OF_TYPE[row.type]
        if row.type == 0 and row.cid not in seen_cards:
            phase = Phase.NEW
        seen_cards.add(row.cid)
        reviews.append(
            Review(
                anki_card=row.cid,
                revlog_id=row.id,
                reviewed_at=datetime.fromtimestamp(row.id / 1000, tz=UTC),
                rating=row.ease,
                phase=int(phase),
                duration_ms=min(max(0, row.time), 86_400_000),
            )
        )
    return reviews, skipped
