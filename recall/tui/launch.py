"""Open the TUI from the command line: ``recall`` (home) and ``recall drill`` (a session).

Only cheap modules are imported here; the app paints its home screen before the heavy layers
load (see :mod:`recall.tui.app`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from recall.tui.views import SessionPlan

if TYPE_CHECKING:
    from recall.config import Settings
    from recall.tui.app import RecallApp


def build_app(
    plan: SessionPlan | None = None,
    *,
    settings: Settings | None = None,
    settings_problem: str = "",
    db_url: str | None = None,
    custom_decks: Path | None = None,
) -> RecallApp:
    """The app on the learner's data (``db_url``, ``custom_decks``: ``--db``, ``--decks``),
    with their settings: read here once, unless the caller read them already (imported
    lazily: Textual is heavy)."""
    from recall.tui.app import RecallApp
    from recall.tui.services import Services

    if settings is None:
        from recall.tui.settings import read_settings

        settings, settings_problem = read_settings()
    services = Services(settings, db_url=db_url, custom_decks=custom_decks)
    return RecallApp(services, settings, plan=plan, settings_problem=settings_problem)


def run_app(
    plan: SessionPlan | None = None,
    *,
    settings: Settings | None = None,
    settings_problem: str = "",
    db_url: str | None = None,
    custom_decks: Path | None = None,
) -> int:
    """Run the app until the learner quits; returns the exit status.

    Ctrl-C inside the app quits it cleanly (reviews are committed as they happen); a
    ``KeyboardInterrupt`` that arrives before the app is up or after it is gone is also a clean
    exit.
    """
    app = build_app(
        plan,
        settings=settings,
        settings_problem=settings_problem,
        db_url=db_url,
        custom_decks=custom_decks,
    )
    try:
        result = app.run()
    except KeyboardInterrupt:
        result = 130
    finally:
        app.shutdown()
    return int(result or 0)
