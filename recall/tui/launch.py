"""Open the TUI from the command line: ``recall`` (home) and ``recall drill`` (a session).

Only cheap modules are imported here; the app paints its home screen before the heavy layers
load (see :mod:`recall.tui.app`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from recall.tui.views import SessionPlan

if TYPE_CHECKING:
    from recall.tui.app import RecallApp


def build_app(plan: SessionPlan | None = None) -> RecallApp:
    """The app on the learner's data, with their settings (imported lazily: Textual is heavy)."""
    from recall.tui.app import RecallApp
    from recall.tui.services import Services
    from recall.tui.settings import load_settings

    return RecallApp(Services(), load_settings(), plan=plan)


def run_app(plan: SessionPlan | None = None) -> int:
    """Run the app until the learner quits; returns the exit status.

    Ctrl-C inside the app quits it cleanly (reviews are committed as they happen); a
    ``KeyboardInterrupt`` that arrives before the app is up or after it is gone is also a clean
    exit.
    """
    app = build_app(plan)
    try:
        result = app.run()
    except KeyboardInterrupt:
        result = 130
    finally:
        app.shutdown()
    return int(result or 0)
