"""``recall reviews export -`` writes to standard output, as ``recall check --batch -`` reads
standard input: it wrote a file named ``-`` in the current folder and printed "7 reviews written
to -" (seen trying the product)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from recall.cli import main
from recall.scheduling import Rating, Scheduler, SchedulerSettings
from recall.store import ReviewInput, open_store
from tests.store_fixtures import T0, make_deck


def _one_review() -> None:
    store = open_store()
    try:
        store.sync_decks([make_deck("deck", "a")], now=T0)
        card = store.cards_by_key()["deck/a"]
        scheduler = Scheduler(SchedulerSettings(enable_fuzzing=False))
        at = T0 + timedelta(days=1)
        store.apply_review(
            card.db_id,
            ReviewInput(rating=int(Rating.Good), reviewed_at=at, verdict="correct", seconds=4.0),
            lambda s: scheduler.review(card.db_id, s, Rating.Good, at),
        )
    finally:
        store.close()


def test_export_to_dash_writes_the_log_to_standard_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _one_review()
    monkeypatch.chdir(tmp_path)
    assert main(["reviews", "export"]) == 0
    default = capsys.readouterr().out
    assert main(["reviews", "export", "-"]) == 0
    dashed = capsys.readouterr().out
    assert dashed == default
    assert (
        dashed.splitlines()[0] == "card_id,review_time,review_rating,review_state,review_duration"
    )
    assert dashed.splitlines()[1].startswith("deck/a,")
    assert not (tmp_path / "-").exists()
