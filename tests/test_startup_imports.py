"""What a start of the home screen imports before its counts are shown (a fresh process: this
test process has imported everything long before).

Without custom decks the grading package (and its seed and HMAC modules) is not needed to load
the decks, and the offer to resume an unfinished session is found without importing the session
facade (queues, recording, summary): both are imported later, when a session starts.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_LOAD = """
import json, sys
from recall.tui.services import Services
from recall.tui.settings import read_settings
settings, _problem = read_settings()
services = Services(settings)
data = services.load()
loaded = sorted(m for m in sys.modules if m.startswith("recall."))
services.close()
print(json.dumps({"modules": loaded, "rows": [[r.id, r.new, r.due] for r in data.decks],
                  "unfinished": data.unfinished is not None}))
"""


def _load(home: Path) -> dict[str, object]:
    env = {**os.environ, "RECALL_HOME": str(home)}
    for name in ("RECALL_DB", "RECALL_DECKS"):
        env.pop(name, None)
    done = subprocess.run(
        [sys.executable, "-c", _LOAD],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_start_without_custom_decks_leaves_grading_and_the_session_facade(
    tmp_path: Path,
) -> None:
    first = _load(tmp_path)
    second = _load(tmp_path)
    assert second["rows"] == first["rows"] and len(second["rows"]) >= 17
    for report in (first, second):
        modules = report["modules"]
        assert isinstance(modules, list)
        assert "recall.grading" not in modules
        assert "recall.session.session" not in modules
        assert "recall.session.ownership" in modules  # the resume offer is still looked for


def test_a_custom_deck_is_still_checked_by_the_engine(tmp_path: Path) -> None:
    custom = tmp_path / "decks"
    custom.mkdir()
    sample = ROOT / "tests" / "fixtures" / "decks" / "sample" / "sample.toml"
    (custom / "sample.toml").write_bytes(sample.read_bytes())
    report = _load(tmp_path)
    assert "sample" in [row[0] for row in report["rows"]]  # type: ignore[index, union-attr]
    assert "recall.grading.checks" in report["modules"]  # type: ignore[operator]
