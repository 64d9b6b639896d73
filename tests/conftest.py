"""Suite-wide isolation: no test ever reads or writes the learner's own data.

Every test gets a fresh ``RECALL_HOME`` under its ``tmp_path`` (database, config and custom decks
all live there), and the variables that would point recall elsewhere (``RECALL_DB``,
``RECALL_DECKS``, ``RECALL_THEME``) are cleared. Tests that need them set them again
explicitly, with ``monkeypatch``.
"""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def isolated_recall_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "recall-home"
    monkeypatch.setenv("RECALL_HOME", str(home))
    for name in ("RECALL_DB", "RECALL_DECKS", "RECALL_THEME"):
        monkeypatch.delenv(name, raising=False)
    return home
