"""One verdict kind: the engine, the rating rules, the screens and the review log share it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import recall
from recall.scheduling import Rating, as_status, suggest_rating
from recall.verdicts import Status

STORED = ("correct", "incorrect", "invalid", "self")  # review_log.verdict values ever written


@pytest.mark.parametrize("stored", STORED)
def test_every_stored_verdict_reads_back_as_the_enum(stored: str) -> None:
    status = Status(stored)
    assert status == stored and str(status) == stored  # and it is written back the same
    assert as_status(stored) is status


def test_the_engine_the_scheduler_and_the_screens_use_the_same_enum() -> None:
    from recall.formula import Status as EngineStatus
    from recall.tui.views import FeedbackView

    assert EngineStatus is Status
    assert FeedbackView.__dataclass_fields__["outcome"].type in ("Status", Status)


def test_the_rating_rules_take_the_enum() -> None:
    assert suggest_rating(Status.INCORRECT, 3.0, False, False) is Rating.Again
    assert suggest_rating(Status.CORRECT, 20.0, False, False) is Rating.Good
    assert suggest_rating(Status.INVALID, 3.0, False, False) is None
    assert suggest_rating(Status.SELF, 3.0, False, False) is None
    assert [status.graded for status in Status] == [True, True, False, False]
    with pytest.raises(ValueError, match="unknown verdict"):
        as_status("partial")


def test_no_second_spelling_of_the_verdict_is_defined() -> None:
    # An enum or constant table spelling the verdict again (a member `INCORRECT = "incorrect"`)
    # anywhere but recall/verdicts.py is a second name for the same concept.
    root = Path(recall.__file__).parent
    member = re.compile(r"^\s*\w+\s*=\s*[\"']incorrect[\"']", re.M)
    offenders = [
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if path.name != "verdicts.py" and member.search(path.read_text())
    ]
    assert offenders == []


@pytest.mark.parametrize("stored", STORED)
def test_the_review_log_writes_the_value_and_reads_the_member(stored: str, tmp_path: Path) -> None:
    from sqlalchemy import text
    from store_fixtures import T0, make_deck

    from recall.store import ReviewInput, open_store

    store = open_store(f"sqlite:///{tmp_path / 'recall.sqlite3'}")
    try:
        store.sync_decks([make_deck("d", "a")], now=T0)
        card = store.cards_by_key()["d/a"]
        data = ReviewInput(rating=Rating.Good, reviewed_at=T0, verdict=Status(stored), seconds=2)
        store.apply_review(card.db_id, data, None)
        (entry,) = store.reviews(card_db_id=card.db_id)
        assert entry.verdict is Status(stored)
        with store._engine.connect() as conn:  # noqa: SLF001 - the column itself, as rows hold it
            raw = conn.execute(
                text("SELECT verdict FROM review_log WHERE learner_id = 1")
            ).scalar_one()
        assert type(raw) is str and raw == stored
    finally:
        store.close()
