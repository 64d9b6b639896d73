"""Messages that workers and screens post upward.

Small dataclasses, each owned by the part of the app that sends it. Workers run in threads and
never touch widgets: they post one of these and the handler on the event loop updates the screen.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from recall.tui.views import CardView, FeedbackView, HomeData, PreviewView


@dataclass
class HomeLoaded(Message):
    """The decks are loaded and synced, and the counts are in (sent by the load worker)."""

    data: HomeData


@dataclass
class HomePrefetched(Message):
    """The first counts, computed by the prefetching child process before this process has
    its own workspace (:mod:`recall.tui.home_prefetch`): to show, not to act on; a
    :class:`HomeLoaded` follows."""

    data: HomeData


@dataclass
class LoadFailed(Message):
    """The store or the decks could not be opened at all; ``message`` says why, for a person."""

    message: str


@dataclass
class EngineWarm(Message):
    """SymPy, NumPy and the engine are imported: grading will not pay an import on first use."""

    seconds: float


@dataclass
class PreviewReady(Message):
    """The preview worker read the answer box (``serial`` drops stale results)."""

    serial: int
    preview: PreviewView


@dataclass
class ShownDrawn(Message):
    """The drawing worker drew the ``shown`` formula of a card on the drill screen (``card``:
    the same card with it drawn)."""

    card: CardView


@dataclass
class Graded(Message):
    """The grading worker finished one answer for the card with key ``card_key``."""

    card_key: str
    feedback: FeedbackView


@dataclass
class DataChanged(Message):
    """Reviews, buries, suspensions or deck edits changed what the home screen counts (sent by
    the drill and deck screens; the app marks the home screen stale, and it recounts when it
    is shown again). ``what`` says what happened, for the log."""

    what: str


@dataclass
class WorkerFailed(Message):
    """Re-posted by the app's central worker-error handler so the screen that started the
    worker can recover its own state (stop showing "checking…", re-enable the answer box)."""

    group: str
    error: BaseException | None
