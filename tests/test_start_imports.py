"""A second start loads only what the home screen needs: decks from the parse cache never load
the deck builder, the position scanner or the sibling finder, and the home counts never load
the drill screen's run or the card form (each module is compiled again at every start when
bytecode is not kept). Fresh interpreters: this test process has imported everything."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SCRIPT = r"""
import json, sys
from recall.tui.services import Services
from recall.tui.settings import read_settings

settings, _problem = read_settings()
services = Services(settings)
home = services.load()
services.close()
print(json.dumps({"decks": len(home.decks), "modules": sorted(sys.modules)}))
"""

NOT_AT_HOME = [
    "recall.cards.build",
    "recall.cards.positions",
    "recall.cards.siblings",
    "recall.tui.drill_run",
    "recall.tui.card_writer",
    "sqlalchemy.orm",
]


def _start(home: Path) -> dict[str, object]:
    env = {**os.environ, "RECALL_HOME": str(home)}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_second_start_loads_only_what_the_home_screen_needs(tmp_path: Path) -> None:
    first = _start(tmp_path)  # parses every deck and fills the cache
    assert "recall.cards.build" in first["modules"]  # type: ignore[operator]
    second = _start(tmp_path)
    assert second["decks"] == first["decks"] and int(second["decks"]) > 10  # type: ignore[call-overload]
    loaded = [name for name in NOT_AT_HOME if name in second["modules"]]  # type: ignore[operator]
    assert loaded == []
