"""The home screen paints before the heavy layers are imported, and they are imported after.

Run in a fresh interpreter (``benchmarks/startup_probe.py``): this test process has usually
imported SymPy long before, so only a new process can show what the first frame waited for.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from recall.tui.app import HEAVY_MODULES

ROOT = Path(__file__).resolve().parent.parent


def _probe(tmp_path: Path, *flags: str) -> dict[str, object]:
    env = {**os.environ, "RECALL_HOME": str(tmp_path)}
    env.pop("RECALL_DB", None)
    env.pop("RECALL_DECKS", None)
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.startup_probe", *flags],
        cwd=ROOT,  # the checkout's root: the probe lives in benchmarks/, not in the package
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_first_frame_is_painted_before_sympy_numpy_and_sqlalchemy(tmp_path: Path) -> None:
    report = _probe(tmp_path, "--wait-load")
    assert report["heavy_at_first_paint"] == []
    # ...and the warm-up after the first frame really loads them: the laziness is a deferral.
    assert set(report["heavy_after_warm"]) == set(HEAVY_MODULES)
    assert report["decks"] > 0


#: Opens the workspace as the TUI's load worker does and prints which heavy modules it imported;
#: with ``show``, then builds the drill screen's view of every card that shows a formula (as the
#: first prompt did before the drawings were cached), with ``ask`` as the drill screen asks it now
#: (a formula never drawn is not drawn there), and with ``warm`` runs the engine warm-up last.
_LOAD_AND_REPORT = """
import json, sys
from recall.tui.services import Services
from recall.tui.settings import read_settings
settings, _problem = read_settings()
services = Services(settings)
data = services.load()
shown = {}
if "show" in sys.argv:
    from recall.tui.presenting import card_view
    cards = [card for card in services.workspace.cards.values() if card.shown]
    shown = {card.key: card_view(card).shown for card in cards}
asked = {}
if "ask" in sys.argv:  # as the drill screen asks a card: a drawing not made before is not made
    from recall.tui.presenting import card_view
    for card in services.workspace.cards.values():
        if card.shown:
            view = card_view(card, draw=False)
            asked[card.key] = [card.shown, view.shown, view.shown_pending]
engine = [m for m in ("sympy", "recall.formula") if m in sys.modules]
if "warm" in sys.argv:
    services.warm()
services.close()
print(json.dumps(
    {"decks": [row.id for row in data.decks], "engine": engine, "shown": shown, "asked": asked}
))
"""


def _load_in_fresh_process(home: Path, *steps: str) -> dict[str, object]:
    env = {**os.environ, "RECALL_HOME": str(home)}
    env.pop("RECALL_DB", None)
    env.pop("RECALL_DECKS", None)
    done = subprocess.run(
        [sys.executable, "-c", _LOAD_AND_REPORT, *steps],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_a_second_start_counts_without_importing_the_engine_for_cached_custom_decks(
    tmp_path: Path,
) -> None:
    custom = tmp_path / "decks"
    custom.mkdir()
    sample = ROOT / "tests" / "fixtures" / "decks" / "sample" / "sample.toml"
    (custom / "sample.toml").write_bytes(sample.read_bytes())
    first = _load_in_fresh_process(tmp_path)
    assert "sample" in first["decks"]
    assert "sympy" in first["engine"]  # the first start checks the custom deck with the engine
    second = _load_in_fresh_process(tmp_path)
    assert second["decks"] == first["decks"]
    assert second["engine"] == []  # read back from the parse cache: nothing to check again
    # ...and an edit is checked with the engine again.
    (custom / "sample.toml").write_text(
        sample.read_text(encoding="utf-8").replace("One card of every kind.", "Edited."),
        encoding="utf-8",
    )
    assert "sympy" in _load_in_fresh_process(tmp_path)["engine"]


@pytest.mark.slow
def test_a_second_start_shows_a_cards_formula_without_importing_sympy(tmp_path: Path) -> None:
    first = _load_in_fresh_process(tmp_path, "show", "warm")
    assert first["shown"] and "sympy" in first["engine"]  # drawn by SymPy the first time
    second = _load_in_fresh_process(tmp_path, "show")
    assert second["engine"] == []  # the first prompt does not wait for SymPy's import
    assert second["shown"] == first["shown"]  # and shows the very same drawings


@pytest.mark.slow
def test_a_card_whose_formula_was_never_drawn_is_asked_without_importing_sympy(
    tmp_path: Path,
) -> None:
    """A first start (or one after an upgrade: the drawings of other code are not trusted) has
    no drawing of any formula: the drill screen's card gives the formula's plain Unicode
    placeholder (never its TeX), to be drawn in a worker, and the engine is not imported for it
    (neither SymPy nor any of ``recall.formula``, whose package imports SymPy)."""
    first = _load_in_fresh_process(tmp_path, "ask")
    asked = first["asked"]
    assert len(asked) > 10  # a third of the built-in cards show a formula
    assert first["engine"] == []
    assert sum("\\" in typed for typed, _shown, _pending in asked.values()) > 10
    for typed, shown, pending in asked.values():
        assert pending is True and shown.strip()
        assert re.search(r"\\[A-Za-z]+|[{}]", shown) is None, (typed, shown)


#: Runs the real app in a fresh process, straight into a drill of the one card ``argv[1]``, with
#: the drawing of its formula held back (as a slow SymPy import would hold it) and no engine
#: warm-up, and reports, once the card's frame is painted, what was imported and what its
#: formula reads.
_FIRST_CARD = """
import asyncio, json, sys, threading
from recall.tui.drill_run import DrillRun
released = threading.Event()
draw = DrillRun.draw_shown
def held(self, card):
    assert released.wait(60)
    return draw(self, card)
DrillRun.draw_shown = held
from recall.tui.app import RecallApp
from recall.tui.services import Services
from recall.tui.settings import read_settings
from recall.tui.views import SessionPlan
report = {}
async def pilot(driver):
    app = driver.app
    for _ in range(30000):
        if getattr(app.screen, "card", None) is not None:
            break
        await asyncio.sleep(0.002)
    await app.screen.wait_for_refresh()
    report["engine"] = [m for m in ("sympy", "recall.formula") if m in sys.modules]
    report["key"] = app.screen.card.key
    report["pending"] = app.screen.card.shown_pending
    report["shown"] = str(app.screen.query_one("#shown").render())
    released.set()
    app.exit(0)
settings, _problem = read_settings()
plan = SessionPlan(minutes=None, cards=1, card_keys=(sys.argv[1],))
RecallApp(Services(settings), settings, plan=plan, warm_engine=False).run(
    headless=True, size=(80, 24), auto_pilot=pilot
)
print(json.dumps(report))
"""


@pytest.mark.slow
def test_the_first_card_paints_its_formula_rendered_before_sympy_is_imported(
    tmp_path: Path,
) -> None:
    """The tryout's first card on a fresh home (``\\text{logit}_{ij}=\\square`` in its deck
    file): its frame is painted with the formula as recall renders it, never as TeX, and
    neither SymPy nor the engine package has been imported by then."""
    env = {**os.environ, "RECALL_HOME": str(tmp_path)}
    env.pop("RECALL_DB", None)
    env.pop("RECALL_DECKS", None)
    done = subprocess.run(
        [sys.executable, "-c", _FIRST_CARD, "attention-transformers/sdpa-logit"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["key"] == "attention-transformers/sdpa-logit"
    assert report["engine"] == []
    assert report["pending"] is True  # a fresh home: never drawn before
    assert report["shown"] == "logit_ij=▢"
