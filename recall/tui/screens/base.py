"""The base every recall screen shares: worker failures go to the app's one handler."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, TypeVar, cast

from textual.screen import Screen
from textual.worker import Worker, WorkerState

if TYPE_CHECKING:
    from recall.config import Settings
    from recall.tui.services import Services
    from recall.tui.views import HomeData, SessionPlan

#: What a dialog opened with :meth:`RecallAppApi.open_typed_into` gives back.
T = TypeVar("T")


class RecallAppApi(Protocol):
    """What the screens use of the app (:class:`recall.tui.app.RecallApp` provides it).

    Screens name this, never the app itself: the app imports the screens, so a screen that
    imported the app would close an import cycle."""

    services: Services
    settings: Settings
    home_data: HomeData | None

    def start_session(self, plan: SessionPlan, *, replace: bool = False) -> None: ...

    def refresh_home(self) -> None: ...

    def first_frame_painted(self) -> None: ...

    def report_worker_failure(self, worker: Worker[object]) -> None: ...

    def open_typed_into(self, screen: Screen[T], callback: Callable[[T | None], None]) -> None: ...


#: Below this many columns (a phone in landscape, a split window, a browser tab through
#: ``recall serve``) screens keep only what is essential: the home screen drops its topic
#: column and forecast, the drill's rating row wraps rather than cut "Enter accepts".
NARROW_COLUMNS = 70


class RecallScreen(Screen[None]):
    """A screen of the recall app.

    Textual delivers a worker's state changes to the node that started it, not to the app, so
    each screen forwards failures to :meth:`RecallAppApi.report_worker_failure`; the screen then
    gets a :class:`recall.tui.messages.WorkerFailed` to recover its own widgets.
    """

    @property
    def recall(self) -> RecallAppApi:
        """The app, typed by what screens may use of it."""
        return cast("RecallAppApi", self.app)

    @property
    def services(self) -> Services:
        return self.recall.services

    @property
    def narrow(self) -> bool:
        """The app is narrower than :data:`NARROW_COLUMNS`."""
        return self.app.size.width < NARROW_COLUMNS

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state is WorkerState.ERROR:
            self.recall.report_worker_failure(event.worker)
