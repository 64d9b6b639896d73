"""The Anki package writer's mappings, without Anki: card rows, revlog rows, ids.

The oracle tests (``tests/test_anki_oracle.py``) check what Anki makes of a package; these
check the writer's own rules where Anki is not needed to know the answer: a learning step due
after today is an interday step (queue 3, a day number), a review card's interval, revlog ids
unique within a package, the kinds' revlog types, and ids that are the same for the same key.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from recall.interop.anki_days import clock_for_export
from recall.interop.anki_schema import stable_guid
from recall.interop.apkg_write import (
    ExportSettings,
    card_id,
    card_row,
    difficulty_factor,
    note_id,
    revlog_rows,
)
from recall.scheduling.rating import Rating
from recall.scheduling.state import CardState, Phase, ReviewKind

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
CLOCK = clock_for_export(NOW)
SETTINGS = ExportSettings(learning_minutes=(1.0, 10.0, 1440.0 * 2))


def row(state: CardState, *, suspended: bool = False):  # noqa: ANN201
    return card_row(state, suspended=suspended, position=7, now=NOW, clock=CLOCK, settings=SETTINGS)


def test_phases_become_types_and_queues() -> None:
    new = row(CardState())
    assert (new.type, new.queue, new.due, new.ivl, new.data) == (0, 0, 7, 0, "")
    soon = CardState(
        Phase.LEARNING,
        step=1,
        stability=0.5,
        difficulty=6.0,
        due=NOW + timedelta(minutes=10),
        last_review=NOW,
        reps=2,
    )
    learning = row(soon)
    assert (learning.type, learning.queue) == (1, 1)
    assert learning.due == int((NOW + timedelta(minutes=10)).timestamp())
    assert learning.left % 1000 == 2  # two of three steps to go
    later = row(
        CardState(
            Phase.LEARNING,
            step=2,
            stability=2.0,
            difficulty=6.0,
            due=NOW + timedelta(days=2),
            last_review=NOW,
            reps=3,
        )
    )
    assert (later.type, later.queue) == (1, 3)
    assert later.due == CLOCK.day_number(NOW + timedelta(days=2))
    review = row(
        CardState(
            Phase.REVIEW,
            stability=20.0,
            difficulty=4.0,
            due=NOW + timedelta(days=15),
            last_review=NOW - timedelta(days=5),
            reps=6,
            lapses=1,
        )
    )
    assert (review.type, review.queue, review.ivl, review.reps, review.lapses) == (2, 2, 20, 6, 1)
    assert review.due == CLOCK.day_number(NOW + timedelta(days=15))
    assert '"s":20.0' in review.data and '"lrt":' in review.data
    relearning = row(
        CardState(
            Phase.RELEARNING,
            step=0,
            stability=3.0,
            difficulty=7.0,
            due=NOW + timedelta(minutes=5),
            last_review=NOW,
            reps=7,
            lapses=2,
        )
    )
    assert (relearning.type, relearning.queue, relearning.ivl) == (3, 1, 3)
    suspended = row(
        CardState(
            Phase.REVIEW,
            stability=20.0,
            difficulty=4.0,
            due=NOW + timedelta(days=15),
            last_review=NOW,
        ),
        suspended=True,
    )
    assert (suspended.type, suspended.queue) == (2, -1)


@dataclass(frozen=True)
class Entry:
    reviewed_at: datetime
    rating: Rating
    kind: ReviewKind
    seconds: float
    before: CardState | None
    after: CardState | None


def test_revlog_ids_are_unique_and_kinds_map_to_types() -> None:
    at = NOW - timedelta(days=1)
    after = CardState(
        Phase.REVIEW, stability=3.0, difficulty=5.5, due=at + timedelta(days=3), last_review=at
    )
    entries = [
        Entry(at, Rating.Good, ReviewKind.NEW, 4.0, CardState(), after),
        Entry(at, Rating.Good, ReviewKind.REVIEW, 2.5, after, after),
        Entry(at, Rating.Again, ReviewKind.OFF_SCHEDULE, 1.0, None, None),
    ]
    taken: set[int] = set()
    rows = revlog_rows(42, entries, taken)
    ms = round(at.timestamp() * 1000)
    assert [r.id for r in rows] == [ms, ms + 1, ms + 2]
    assert [r.type for r in rows] == [0, 1, 3]
    assert [r.ease for r in rows] == [3, 3, 1]
    assert [r.time for r in rows] == [4000, 2500, 1000]
    assert rows[0].ivl == 3 and rows[0].factor == difficulty_factor(5.5)
    assert (rows[2].ivl, rows[2].factor) == (0, 0)  # cram: Anki's "changed no schedule"
    again = revlog_rows(43, entries[:1], taken)  # another card, same millisecond
    assert again[0].id == ms + 3


def test_ids_depend_on_the_key_only() -> None:
    assert note_id("a/b") == note_id("a/b") != note_id("a/c")
    assert card_id("a/b") != note_id("a/b")
    assert stable_guid("a/b") == stable_guid("a/b") != stable_guid("b/a")
    # in the past, as Anki ids (creation times in ms) are: a future id is replaced on import
    assert 1_000_000_000_000 <= note_id("x/y") < int(NOW.timestamp() * 1000)
    assert (difficulty_factor(1.0), difficulty_factor(10.0)) == (100, 1100)
