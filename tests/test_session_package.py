"""The session package: its re-exported names, its light modules, one Rating and one Mode.

``recall.session`` loads its modules on first use, so the TUI can import the session mode (and
scheduling's Rating) before its first frame without the store, SQLAlchemy or FSRS; these tests
check that in fresh interpreters, where nothing heavy was imported before.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest

import recall.session
from recall.scheduling.rating import Rating
from recall.session import Budget, Mode, Session, Stopwatch

HEAVY = ["sqlalchemy", "numpy", "sympy", "fsrs", "recall.store", "textual"]


def loaded_after(statement: str) -> set[str]:
    code = f"import json, sys\n{statement}\nprint(json.dumps(sorted(sys.modules)))\n"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    return set(json.loads(done.stdout))


@pytest.mark.parametrize(
    "statement",
    [
        "import recall.tui.views",
        "from recall.session import Mode, Budget",
        "from recall.scheduling.rating import Rating",
        "from recall.scheduling import Phase, ReviewKind, suggest_rating",
    ],
)
def test_light_names_import_without_the_store_or_fsrs(statement: str) -> None:
    loaded = loaded_after(statement)
    assert [name for name in HEAVY if name in loaded] == []


def test_the_facade_still_loads_on_first_use() -> None:
    loaded = loaded_after("from recall.session import Session")
    assert {"recall.session.session", "recall.store", "fsrs"} <= loaded


def test_every_public_name_resolves_from_its_module() -> None:
    for name in recall.session.__all__:
        value = getattr(recall.session, name)
        assert value is not None
        if isinstance(value, type):
            assert value.__module__.startswith("recall.session."), name
    assert Session.__module__ == "recall.session.session"
    with pytest.raises(AttributeError):
        recall.session.no_such_name  # noqa: B018


def test_the_tui_speaks_the_lower_layers_rating_and_mode() -> None:
    from recall.tui import views

    assert views.Rating is Rating
    assert views.SessionPlan().mode is Mode.NORMAL
    assert not hasattr(views, "SessionMode")


def test_rating_keys_and_names() -> None:
    assert [r.key for r in Rating] == ["1", "2", "3", "4"]
    assert [Rating.named(n) for n in ("again", "HARD", "Good", "easy")] == list(Rating)
    with pytest.raises(ValueError, match="no rating is called"):
        Rating.named("meh")


def test_old_session_rows_read_back_as_the_one_mode() -> None:
    assert Mode("normal") is Mode.NORMAL  # what every session row before today holds
    assert [m.on_schedule for m in Mode] == [True, False, False, False]


def test_budget_and_stopwatch_count_only_time_on_the_card() -> None:
    t0 = datetime(2025, 1, 1, tzinfo=UTC)
    watch = Stopwatch()
    watch.start(t0)
    watch.pause(t0 + timedelta(seconds=10))
    watch.resume(t0 + timedelta(seconds=70))  # a minute's break is not counted
    assert watch.on_card(t0 + timedelta(seconds=75)) == pytest.approx(15)
    budget = Budget.minutes(1)
    assert not budget.spent(59, 100) and budget.spent(60, 0)
    assert budget.seconds_left(75) == pytest.approx(-15)
    assert Budget.cards(3).spent(0, 3) and not Budget.until_done().spent(10**9, 10**9)
