"""``recall optimize``, ``recall plan`` and ``recall reviews`` through the real entry point.

A simulated forgetful learner's review log (known true parameters) is imported as CSV for the
cards of a synced deck; the fit must then be kept, schedule from the next review, show in the
plan, and be revertible.
"""

from __future__ import annotations

import io
import json
from datetime import timedelta
from pathlib import Path

import pytest

from recall.cli import main
from recall.config import load_settings
from recall.interop.review_csv import RevlogRow, write_revlog
from recall.memory import model as memory_model
from recall.memory.report import events_from_log
from recall.scheduling import Rating, Scheduler, SchedulerSettings
from recall.scheduling.history import History
from recall.store import ReviewInput, open_store
from tests.simulated_learners import DEFAULTS, FORGETFUL, simulate_history
from tests.store_fixtures import T0, make_deck

CARDS = 400


def _write_log(path: Path, events, extra: str = "") -> None:
    rows = [
        RevlogRow(0, e.card, e.reviewed_at, e.rating, None, round(e.seconds * 1000)) for e in events
    ]
    out = io.StringIO()
    write_revlog(rows, out)
    path.write_text(out.getvalue() + extra, encoding="utf-8", newline="")


@pytest.fixture
def learner(tmp_path: Path) -> Path:
    """A database with one deck of 400 cards and a CSV of a forgetful learner's reviews."""
    store = open_store()
    try:
        store.sync_decks([make_deck("deck", *(f"c{i}" for i in range(CARDS)))], now=T0)
    finally:
        store.close()
    events = simulate_history(FORGETFUL, cards=CARDS, days=240, new_per_day=5, seed=3)
    path = tmp_path / "revlog.csv"
    _write_log(path, events, extra="deck/unknown,1741005015250,3,,\nbad,row\n")
    return path


def test_import_then_optimize_keeps_a_better_fit_and_revert_undoes_it(
    learner: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["reviews", "import", str(learner)]) == 1  # two rows not used: exit 1
    out = capsys.readouterr().out
    assert "2 rows not used:" in out
    assert "no card 'deck/unknown' in your collection" in out
    assert "2 fields where the header has 5" in out
    assert main(["reviews", "import", str(learner)]) == 1
    assert "0 reviews imported" in capsys.readouterr().out  # a second import adds nothing

    assert main(["optimize", "--json"]) == 0
    outcome = json.loads(capsys.readouterr().out)
    assert outcome["status"] == "kept", outcome["summary"]
    assert outcome["comparison"]["candidate_better"] is True
    assert outcome["recorded"] is not None
    fitted = tuple(outcome["parameters"])
    assert fitted != DEFAULTS

    store = open_store()
    try:
        settings = load_settings()
        in_use = memory_model.scheduler_settings(store, settings)
        assert in_use.parameters == pytest.approx(fitted)
        assert in_use.desired_retention == settings.desired_retention
    finally:
        store.close()

    assert main(["optimize", "--revert"]) == 0
    assert "FSRS default parameters" in capsys.readouterr().out
    store = open_store()
    try:
        assert memory_model.parameters_in_use(store) == SchedulerSettings().parameters
    finally:
        store.close()


def test_plan_json_is_reproducible_and_rises_with_retention(
    learner: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["reviews", "import", str(learner)])
    capsys.readouterr()
    assert main(["plan", "--days", "30", "--json", "--seed", "5"]) == 0
    first = capsys.readouterr().out
    assert main(["plan", "--days", "30", "--json", "--seed", "5"]) == 0
    assert capsys.readouterr().out == first
    plan = json.loads(first)
    assert plan["days"] == 30 and plan["cards"] > CARDS  # the built-in decks are synced too
    points = [p for p in plan["points"] if p["desired_retention"] >= 0.8]
    minutes = [p["minutes_per_day"] for p in points]
    assert all(a < b for a, b in zip(minutes, minutes[1:], strict=False)), minutes
    assert [p["desired_retention"] for p in plan["points"] if p["current"]] == [0.9]
    assert main(["plan", "--days", "30"]) == 0
    text = capsys.readouterr().out
    assert "◀ your setting" in text and "recall config desired_retention" in text


def test_optimize_with_too_little_history_says_how_many_more(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["optimize"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Too little history")
    assert "400 more needed" in out


def test_export_writes_the_scheduled_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = open_store()
    try:
        store.sync_decks([make_deck("deck", "a")], now=T0)
        card = store.cards_by_key()["deck/a"]
        scheduler = Scheduler(SchedulerSettings(enable_fuzzing=False))
        for day, rating in ((0, Rating.Good), (3, Rating.Again)):
            at = T0 + timedelta(days=day)
            store.apply_review(
                card.db_id,
                ReviewInput(rating=int(rating), reviewed_at=at, verdict="correct", seconds=6.5),
                lambda s, at=at, rating=rating: scheduler.review(card.db_id, s, rating, at),
            )
        own = events_from_log(store.reviews())
    finally:
        store.close()
    target = tmp_path / "out.csv"
    assert main(["reviews", "export", str(target)]) == 0
    assert "2 reviews written" in capsys.readouterr().out
    lines = target.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "card_id,review_time,review_rating,review_state,review_duration"
    assert lines[1].startswith("deck/a,") and lines[1].endswith(",3,0,6500")
    assert lines[2].endswith(",1,1,6500")  # Again while still in its learning steps
    assert main(["reviews", "export"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == lines[1:]
    # Importing the export of one's own log adds nothing new to the fit's history.
    assert main(["reviews", "import", str(target)]) == 0
    store = open_store()
    try:
        history = memory_model.load_history(store, load_settings())
        assert len(history) == len(History.from_events(own)) == 2
    finally:
        store.close()


def test_import_refuses_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reviews", "import", str(tmp_path / "nope.csv")]) == 2
    assert "cannot read it" in capsys.readouterr().err


def test_stats_show_the_models_health(learner: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["reviews", "import", str(learner)])
    capsys.readouterr()
    assert main(["stats", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    memory = figures["memory_model"]
    # The defaults overestimate this forgetful learner: the verdict says so and asks for a fit.
    assert memory["verdict"]["health"] == "overestimates_long_intervals"
    assert len(memory["calibration"]) == 10
    assert [g["group"] for g in memory["retention_by_deck"]] == ["deck"]
    assert memory["retention_by_deck"][0]["observed"] < memory["desired_retention"]
    assert main(["stats"]) == 0
    text = capsys.readouterr().out
    assert "memory model" in text and "fit again" in text and "true retention by deck" in text


def test_stats_suggest_a_fit_once_history_grew_by_half(
    learner: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["reviews", "import", str(learner)])
    capsys.readouterr()
    assert main(["stats", "--json"]) == 0
    memory = json.loads(capsys.readouterr().out)["memory_model"]
    assert memory["refit_suggested"] is True and memory["parameters"] == "defaults"
    assert main(["stats"]) == 0
    assert "enough history to fit the model to you" in capsys.readouterr().out
    assert main(["optimize"]) == 0
    capsys.readouterr()
    assert main(["stats", "--json"]) == 0
    memory = json.loads(capsys.readouterr().out)["memory_model"]
    assert memory["refit_suggested"] is False and memory["parameters"] == "fitted"
    assert main(["stats"]) == 0
    assert "fitted to your reviews on" in capsys.readouterr().out
