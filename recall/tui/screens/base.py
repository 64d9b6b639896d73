"""The base every recall screen shares: worker failures go to the app's one handler."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.screen import Screen
from textual.worker import Worker, WorkerState

if TYPE_CHECKING:
    from recall.tui.app import RecallApp
    from recall.tui.services import Services


class RecallScreen(Screen[None]):
    """A screen of the recall app.

    Textual delivers a worker's state changes to the node that started it, not to the app, so
    each screen forwards failures to :meth:`RecallApp.report_worker_failure`; the screen then
    gets a :class:`recall.tui.messages.WorkerFailed` to recover its own widgets.
    """

    @property
    def recall(self) -> RecallApp:
        """The app, typed."""
        return cast("RecallApp", self.app)

    @property
    def services(self) -> Services:
        return self.recall.services

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state is WorkerState.ERROR:
            self.recall.report_worker_failure(event.worker)
