"""``recall serve`` in a real browser: Debian's chromium driven by playwright (never a browser
download: ``executable_path``), on a learner's data in a temporary ``RECALL_HOME``.

The learner opens the printed address, waits for the home screen, presses ``s``, types a right
answer to the first card and presses Enter twice (grade, then accept the suggested rating). What
is checked is the store, not the pixels: one review of that card with that answer and the
verdict "correct". A screenshot of each step is kept under ``test-artifacts/serve/`` for a person
to look at.

One real browser run: the gate's refusals are tested with a plain client in
``tests/test_serve_process.py``.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import time
from contextlib import closing
from pathlib import Path

import pytest

from recall.verdicts import Status
from tests.serve_fixtures import CARD_KEY, RIGHT_ANSWER, prepare_home, recall_serve, wait_for

CHROMIUM = os.environ.get("RECALL_TEST_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts" / "serve"

#: Set by .ci/run: there a missing browser or playwright fails the test instead of skipping it.
REQUIRED = os.environ.get("RECALL_REQUIRE_BROWSER") == "1"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        shutil.which(CHROMIUM) is None and not REQUIRED,
        reason=f"{CHROMIUM} is not installed (.ci/run installs it)",
    ),
]

if REQUIRED:
    import playwright.sync_api as playwright_api
else:
    playwright_api = pytest.importorskip("playwright.sync_api")


def _reviews(home: Path) -> list[object]:
    from recall.store import open_store

    store = open_store(f"sqlite:///{home / 'recall.sqlite3'}")
    try:
        return list(store.reviews())
    finally:
        store.close()


def _launch(p: object) -> object:
    args = ["--no-sandbox"] if os.geteuid() == 0 else []  # root in a container: no sandbox
    return p.chromium.launch(  # type: ignore[attr-defined]
        executable_path=CHROMIUM, headless=True, args=[*args, "--disable-gpu"]
    )


def _count(home: Path, table: str) -> int:
    """Rows in ``table`` of the learner's database, read-only (0 while it does not exist yet):
    how the test knows what the app is showing without reading pixels."""
    database = home / "recall.sqlite3"
    if not database.exists():
        return 0
    try:
        with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=1)) as db:
            return int(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
    except sqlite3.Error:
        return 0  # not created or migrated yet


def test_a_learner_drills_one_card_in_chromium(tmp_path: Path) -> None:
    home = prepare_home(tmp_path / "home")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with recall_serve(home) as served, playwright_api.sync_playwright() as p:
        browser = _launch(p)
        try:
            page = browser.new_page(viewport={"width": 1000, "height": 700})
            page.goto(served.url)
            assert "token=" not in page.url  # the login swapped it for the cookie
            page.wait_for_selector("body.-first-byte", timeout=60_000)  # the app drew
            page.click(".xterm-screen")  # keys go to the terminal, as a learner's click does
            assert len(served.children()) >= 1
            # The home screen has its decks once they are synced into the store.
            assert wait_for(lambda: _count(home, "cards") > 0, timeout=120)
            page.screenshot(path=str(ARTIFACTS / "1-home.png"))
            page.keyboard.press("s")
            # The drill screen starts a session and claims the card it shows.
            assert wait_for(lambda: _count(home, "card_claims") > 0, timeout=120), (
                page.screenshot(path=str(ARTIFACTS / "failed-to-start.png")),
                _count(home, "sessions"),
            )
            time.sleep(1)
            page.keyboard.type(RIGHT_ANSWER)
            page.keyboard.press("Enter")  # graded in a worker: the verdict and the rating row
            for _attempt in range(4):
                time.sleep(3)
                if _attempt == 0:
                    page.screenshot(path=str(ARTIFACTS / "2-graded.png"))
                page.keyboard.press("Enter")  # accept the suggested rating: recorded
                if wait_for(lambda: _count(home, "review_log") > 0, timeout=10):
                    break
            time.sleep(1)
            page.screenshot(path=str(ARTIFACTS / "3-recorded.png"))
        finally:
            browser.close()
    reviews = _reviews(home)
    assert [(r.card_key, r.answer, r.verdict) for r in reviews] == [  # type: ignore[attr-defined]
        (CARD_KEY, RIGHT_ANSWER, Status.CORRECT)
    ]
