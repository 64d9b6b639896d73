"""Suite-wide isolation: no test ever reads or writes the learner's own data.

Every test gets a fresh ``RECALL_HOME`` under its ``tmp_path`` (database, config and custom decks
all live there), and the variables that would point recall elsewhere (``RECALL_DB``,
``RECALL_LEARNER``, ``RECALL_DECKS``, ``RECALL_THEME``) are cleared. Tests that need them set
them again explicitly, with ``monkeypatch``.

And every SQL statement any engine sends is checked to name ``learner_id`` when it reads or
writes a per-learner table (:mod:`learner_sql`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from learner_sql import LearnerSqlCheck


@pytest.fixture(autouse=True)
def isolated_recall_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "recall-home"
    monkeypatch.setenv("RECALL_HOME", str(home))
    for name in ("RECALL_DB", "RECALL_DECKS", "RECALL_THEME", "RECALL_LEARNER", "RECALL_PREFETCH"):
        monkeypatch.delenv(name, raising=False)
    return home


@pytest.fixture(scope="session")
def learner_sql_check() -> Iterator[LearnerSqlCheck]:
    """The listener of :mod:`learner_sql`, on every engine for the whole run."""
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    check = LearnerSqlCheck()
    event.listen(Engine, "before_cursor_execute", check)
    yield check
    event.remove(Engine, "before_cursor_execute", check)


@pytest.fixture(autouse=True)
def every_statement_names_its_learner(
    request: pytest.FixtureRequest, learner_sql_check: LearnerSqlCheck
) -> Iterator[None]:
    """Fails a test that sent SQL over a per-learner table without ``learner_id`` (even when the
    code under test swallowed the listener's error)."""
    learner_sql_check.seen.clear()
    learner_sql_check.enabled = request.node.get_closest_marker("learner_sql_unchecked") is None
    yield
    learner_sql_check.enabled = False
    assert learner_sql_check.seen == [], "SQL over a per-learner table without learner_id"
