"""``recall serve`` in a real browser: Debian's chromium driven by playwright (never a browser
download: ``executable_path``), on a learner's data in a temporary ``RECALL_HOME``.

The learner opens the printed address, waits for the home screen, presses ``s``, types a right
answer to the first card and presses Enter twice (grade, then accept the suggested rating). What
is checked is the store, not the pixels: one review of that card with that answer and the
verdict "correct". A screenshot of each step is kept under ``test-artifacts/serve/`` for a person
to look at.

In the same browser, logged in, a page of another site (same-site: ``127.0.0.1`` on another
port, so the cookie goes along) tries the websocket: the attack the research measured on plain
textual-serve. It is refused and starts nothing. One real browser run: the gate's other
refusals are tested with a plain client in ``tests/test_serve_process.py``.
"""

from __future__ import annotations

import functools
import os
import shutil
import sqlite3
import threading
import time
from contextlib import closing
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from recall.verdicts import Status
from tests.serve_fixtures import (
    CARD_KEY,
    RIGHT_ANSWER,
    Served,
    prepare_home,
    recall_serve,
    wait_for,
)

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


OTHER_SITE_PAGE = """<!doctype html><title>waiting</title><script>
const socket = new WebSocket("WS_URL");
socket.onopen = () => { document.title = "opened"; };
socket.onclose = () => { if (document.title !== "opened") document.title = "refused"; };
</script>"""


def _cross_site_websocket(context: object, served: Served, folder: Path) -> str:
    """What happens when a page of another site (``127.0.0.1`` on another port: same-site, so
    the browser sends the session cookie along) opens the served websocket: "opened" or
    "refused". No app process may start for it."""
    folder.mkdir()
    ws_url = "ws" + served.origin.removeprefix("http") + "/ws"
    (folder / "index.html").write_text(OTHER_SITE_PAGE.replace("WS_URL", ws_url))
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(folder))
    handler.log_message = lambda *args: None  # type: ignore[attr-defined, method-assign]
    other = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=other.serve_forever, daemon=True)
    thread.start()
    children = sorted(served.children())
    try:
        page = context.new_page()  # type: ignore[attr-defined]
        page.goto(f"http://127.0.0.1:{other.server_address[1]}/index.html")
        page.wait_for_function("document.title !== 'waiting'", timeout=30_000)
        outcome = str(page.title())
        page.close()
    finally:
        other.shutdown()
        other.server_close()
    time.sleep(1)
    assert sorted(served.children()) == children  # nothing started for it
    return outcome


def test_a_learner_drills_one_card_in_chromium(tmp_path: Path) -> None:
    home = prepare_home(tmp_path / "home")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with recall_serve(home) as served, playwright_api.sync_playwright() as p:
        browser = _launch(p)
        try:
            context = browser.new_context(viewport={"width": 1000, "height": 700})
            page = context.new_page()
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
            # Another site in the same browser, logged-in cookie and all, tries to drive it.
            assert _cross_site_websocket(context, served, tmp_path / "other-site") == "refused"
        finally:
            browser.close()
    reviews = _reviews(home)
    assert [(r.card_key, r.answer, r.verdict) for r in reviews] == [  # type: ignore[attr-defined]
        (CARD_KEY, RIGHT_ANSWER, Status.CORRECT)
    ]
