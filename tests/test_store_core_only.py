"""The store speaks SQLAlchemy Core only: opening it, syncing decks, counting and recording a
review never import the ORM (about 0.1 s of CPU at every start, before the home screen's
counts). Run in a fresh interpreter: this test process may have imported it long ago."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = r"""
import json, sys
from datetime import datetime, timezone
from recall.cards.loader import load_decks
from recall.paths import builtin_decks_dir
from recall.store import open_store

store = open_store("sqlite:///" + sys.argv[1])
decks = load_decks([builtin_decks_dir()]).decks
now = datetime(2026, 12, 1, 9, tzinfo=timezone.utc)
report = store.sync_decks(decks, now)
counts = store.deck_counts(now, now.replace(hour=23))
store.close()
print(json.dumps({
    "added": len(report.added),
    "orm": sorted(m for m in sys.modules if m.startswith("sqlalchemy.orm")),
    "sqlalchemy": "sqlalchemy" in sys.modules,
}))
"""


def test_opening_and_syncing_the_store_never_imports_the_orm(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path / "recall.sqlite3")],
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["sqlalchemy"] and report["added"] > 500  # the store really ran
    assert report["orm"] == []
