"""What the store hands out: frozen dataclasses, never rows or ORM sessions.

The rest of recall holds these values freely (across threads, after the database is closed).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from recall.scheduling.rating import Rating
from recall.scheduling.state import CardState, ReviewKind
from recall.verdicts import Status


@dataclass(frozen=True)
class SyncReport:
    """What :meth:`Store.sync_decks` did, as ``deck/card`` keys."""

    added: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()  # content edited; state and history kept
    retired: tuple[str, ...] = ()  # gone from the deck file; kept with its history
    restored: tuple[str, ...] = ()  # back in the deck file after being retired
    unchanged: int = 0
    #: Shared (built-in) decks whose rows differ from the deck files synced, left as the
    #: database has them: logged in as a learner on a shared PostgreSQL database, a sync writes
    #: no shared row (the owner syncs them, e.g. with ``recall decks sync``). Deck ids.
    behind: tuple[str, ...] = ()

    @property
    def touched(self) -> bool:
        """Whether anything changed."""
        return bool(self.added or self.changed or self.retired or self.restored)


@dataclass(frozen=True)
class StoredCard:
    """A card as the store knows it: identity, topic and scheduling state.

    ``id``, ``deck`` and :attr:`key` mean what they mean on :class:`recall.cards.model.Card`;
    ``db_id`` is the card's integer key in the database, which is what the store's methods take.
    """

    db_id: int
    deck: str  # deck id (slug) as written in the deck file
    id: str  # card id as written in the deck file
    kind: str
    topic: str
    sibling_group: str | None
    state: CardState
    suspended: bool = False
    buried_until: datetime | None = None
    retired: bool = False

    @property
    def key(self) -> str:
        """``deck/card``, the same as :attr:`recall.cards.model.Card.key`."""
        return f"{self.deck}/{self.id}"


@dataclass(frozen=True)
class DeckCounts:
    """Home-screen counts for one deck (each stops at the cap the caller asked for)."""

    deck: str
    name: str
    new: int
    learning: int
    due: int


@dataclass(frozen=True)
class DeckSize:
    """How many cards a deck has: in its queues (suspended included), suspended, retired."""

    deck: str
    name: str
    total: int
    suspended: int
    retired: int


@dataclass(frozen=True)
class Memory:
    """Memory inputs for many cards at once, as NumPy arrays of equal length: the cards'
    database keys (:attr:`StoredCard.db_id`), stability in days (NaN while new) and last review
    in epoch milliseconds (NaN while new)."""

    card_db_ids: Any
    stability: Any
    last_review_ms: Any

    def elapsed_days(self, now: datetime) -> Any:
        """Whole days since each card's last review (FSRS counts whole days)."""
        import numpy as np

        return np.floor((now.timestamp() * 1000.0 - self.last_review_ms) / 86_400_000.0)


@dataclass(frozen=True)
class ReviewInput:
    """Everything a review records besides the card and the state change."""

    rating: Rating
    reviewed_at: datetime
    verdict: Status
    seconds: float
    #: The time to give this answer (``None``: not measured apart from ``seconds``).
    answer_seconds: float | None = None
    suggested: Rating | None = None
    diagnosis: str | None = None
    answer: str | None = None
    hint_used: bool = False
    seed: int | None = None
    params: dict[str, Any] | None = None
    session_id: int | None = None


@dataclass(frozen=True)
class ReviewEntry:
    """One row of the review log. ``before``/``after`` are ``None`` for off-schedule reviews."""

    id: int
    card_db_id: int  # the card's database key (:attr:`StoredCard.db_id`)
    card_key: str  # ``deck/card`` (:attr:`StoredCard.key`)
    session_id: int | None
    reviewed_at: datetime
    kind: ReviewKind
    rating: Rating
    suggested: Rating | None
    verdict: Status
    diagnosis: str | None
    answer: str | None
    seconds: float  # the review's whole time on screen (pauses excluded)
    hint_used: bool
    seed: int | None
    params: dict[str, Any] | None
    before: CardState | None
    after: CardState | None
    #: The time to give the recorded answer: from the card shown (or asked again after its
    #: verdict was taken back) to Enter or Space; ``None`` for reviews logged before it was kept.
    answer_seconds: float | None = None


@dataclass(frozen=True)
class AppliedReview:
    """The outcome of :meth:`Store.apply_review`: the log entry, committed."""

    entry: ReviewEntry
    card: StoredCard  # state after the review
    buried: int = 0  # siblings buried for the day


@dataclass(frozen=True)
class SessionInfo:
    """A drill session's row: what it was asked to do, when it ran, and who is running it
    (``last_active_at`` is the owner's heartbeat: each review moves it)."""

    id: int
    started_at: datetime
    last_active_at: datetime
    ended_at: datetime | None
    budget_kind: str
    budget_value: float | None
    mode: str
    mode_count: int | None = None
    decks: tuple[str, ...] = ()
    topic: str | None = None
    owner_host: str | None = None  # the process drilling it (None: nobody holds it)
    owner_pid: int | None = None
    set_aside_seconds: float = 0.0  # time on cards that left the screen without a review

    @property
    def owner(self) -> tuple[str | None, int | None]:
        """``(host, pid)`` of the process holding the session, ``(None, None)`` when none does."""
        return self.owner_host, self.owner_pid


@dataclass(frozen=True)
class CardClaim:
    """A card on screen in session ``session_id``, held by process ``owner_host``/``owner_pid``
    since ``claimed_at``: another window skips it while that owner is alive."""

    card_db_id: int
    session_id: int
    owner_host: str
    owner_pid: int
    claimed_at: datetime
