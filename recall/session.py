"""A drill session: the queue, the budget, ratings applied and committed, undo, the summary.

The TUI drives it; so can a script or a test, with an injectable clock::

    session = Session.start(store, cards, budget=Budget.minutes(10), clock=clock)
    while (card := session.next_card()) is not None:
        ...  # show the card, grade the typed answer (the formula engine, not us)
        session.record(verdict="correct", rating=Rating.Good, suggested=Rating.Good, seconds=12.5)
    summary = session.summary()

It takes verdicts as strings and never imports the formula engine. Every :meth:`Session.record`
commits the review (log row and next state, one transaction) before it returns, so whatever
happens next, an answered card is never lost; :meth:`Session.recover` picks up a session that
never ended (a crash, a closed terminal) with its budget and history.

A session belongs to the process drilling it (:class:`Owner`: host and process id, recorded in
the store); each review is its heartbeat. :meth:`Session.unfinished` offers a session for
resuming only when that owner is gone: on this machine, its process no longer runs; on another,
it has been silent for :data:`SILENT_OWNER`. Leaving the app mid-session lets go of it
(:meth:`Session.release`), so the next window offers it at once.

Modes: ``normal`` follows the schedule (limits, ordering, sibling burying); ``cram`` (every
card), ``weakest`` (the N cards least likely to be recalled now) and ``missed`` (the cards
failed in the last session) drill off-schedule: reviews are logged, the schedule is untouched.
"""

from __future__ import annotations

import os
import random
import socket
import statistics
import sys
from collections import Counter, deque
from collections.abc import Callable, Collection, Iterable
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime, timedelta, tzinfo
from enum import StrEnum
from typing import Any

from recall.analytics import current_streak, due_counts
from recall.cards.model import Card, CardKind
from recall.clock import utc_now
from recall.config import Settings
from recall.errors import RatingError
from recall.scheduling import (
    VERDICTS,
    Phase,
    Rating,
    ReviewKind,
    Scheduler,
    became_leech,
    build_queue,
    drop_siblings,
    is_leech,
    remaining,
    suggest_rating,
    today_bounds,
)
from recall.store import ReviewEntry, ReviewInput, SessionInfo, Store, StoredCard

#: How far ahead a learning card may be shown when nothing else is left (Anki's default).
LEARN_AHEAD = timedelta(minutes=20)
#: Most cards one session queues up front (a learner with no daily limits set).
MAX_QUEUE = 100_000
#: Extra rows fetched with the due reviews for the learning cards mixed in with them.
LEARNING_HEADROOM = 1_000
#: An unfinished session idle for longer than this is not offered for resuming.
RESUME_WINDOW = timedelta(hours=12)
#: A session held by a process on another machine is offered for resuming once that process
#: has recorded no review for this long (its process cannot be looked up from here).
SILENT_OWNER = timedelta(minutes=30)


class Mode(StrEnum):
    NORMAL = "normal"
    CRAM = "cram"
    WEAKEST = "weakest"
    MISSED = "missed"


@dataclass(frozen=True)
class Budget:
    """How long a session runs: ``minutes`` of time on cards, a number of ``cards``, or
    ``until_done`` (nothing left in the queue)."""

    kind: str = "minutes"
    value: float | None = 10.0

    @classmethod
    def minutes(cls, minutes: float = 10.0) -> Budget:
        return cls("minutes", float(minutes))

    @classmethod
    def cards(cls, count: int) -> Budget:
        return cls("cards", float(count))

    @classmethod
    def until_done(cls) -> Budget:
        return cls("until_done", None)

    def __post_init__(self) -> None:
        if self.kind not in ("minutes", "cards", "until_done"):
            raise ValueError(f"unknown budget kind {self.kind!r}")
        if self.kind != "until_done" and (self.value is None or self.value <= 0):
            raise ValueError(f"a {self.kind} budget needs a positive value")


@dataclass(frozen=True)
class Owner:
    """The process drilling a session: the machine's host name and the process id."""

    host: str
    pid: int

    @classmethod
    def this_process(cls) -> Owner:
        return cls(socket.gethostname()[:255], os.getpid())  # the column holds 255

    def as_tuple(self) -> tuple[str, int]:
        return (self.host, self.pid)


def pid_alive(pid: int) -> bool | None:
    """Whether a process with this id runs on this machine; ``None`` when it cannot be told
    (on Windows ``os.kill`` would end the process rather than probe it)."""
    if pid == os.getpid():
        return True
    if pid <= 0:
        return False
    if sys.platform == "win32":
        return None
    try:
        os.kill(pid, 0)  # signal 0: nothing is sent, only whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, and belongs to another user
    except OSError:
        return None
    return True


def owner_gone(
    info: SessionInfo,
    now: datetime,
    here: Owner,
    alive: Callable[[int], bool | None] = pid_alive,
) -> bool:
    """Whether nobody is drilling an unfinished session any more, so it may be resumed: it has
    no owner (let go of, or from before owners were recorded), its owner on this machine no
    longer runs, or its owner elsewhere (or one whose process cannot be looked up) has been
    silent for :data:`SILENT_OWNER`. A process id reused after a crash looks alive: that
    session waits until :data:`RESUME_WINDOW` has passed."""
    host, pid = info.owner
    if host is None or pid is None:
        return True
    if host == here.host:
        running = alive(pid)
        if running is not None:
            return not running
    return now - info.last_active_at > SILENT_OWNER


@dataclass(frozen=True)
class Recorded:
    """What :meth:`Session.record` committed."""

    entry: ReviewEntry
    card: StoredCard  # its state after the review
    became_leech: bool  # this review made it a leech: surface it to the learner
    buried: int  # siblings buried until tomorrow
    finished: bool  # the budget is spent: this was the last card


@dataclass(frozen=True)
class MissedCard:
    """A card failed in the session, with the right answer to show."""

    key: str
    prompt: str
    right_answer: str
    typed: str | None
    diagnosis: str | None


@dataclass(frozen=True)
class SessionSummary:
    """The end-of-session figures, computed from the log."""

    session_id: int
    mode: str
    started_at: datetime
    ended_at: datetime | None
    reviews: int
    cards: int
    by_kind: dict[str, int]  # distinct cards by what their first review was
    first_try_accuracy: float | None
    median_seconds: float | None
    seconds_on_cards: float
    missed: tuple[MissedCard, ...]
    mistakes: tuple[tuple[str, int], ...]
    leeches: tuple[str, ...]
    due_tomorrow: int
    due_next_7_days: int
    streak_days: int

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["started_at"] = self.started_at.isoformat()
        out["ended_at"] = self.ended_at.isoformat() if self.ended_at else None
        return out


#: The summary's name for each kind of review (its ``by_kind`` keys).
_KIND_NAMES = {
    ReviewKind.NEW: "new",
    ReviewKind.LEARNING: "learning",
    ReviewKind.REVIEW: "review",
    ReviewKind.RELEARNING: "relearn",
    ReviewKind.OFF_SCHEDULE: "off_schedule",
}


@dataclass
class _Done:
    review_id: int
    key: str
    seconds: float
    requeued: bool = False


@dataclass
class _Runtime:
    used_seconds: float = 0.0
    done: list[_Done] = field(default_factory=list)
    shown_at: datetime | None = None
    paused_at: datetime | None = None
    paused_seconds: float = 0.0
    exhausted: bool = False


class Session:
    """One drill session over ``cards`` (the loaded deck content) and a store.

    Create with :meth:`start` or :meth:`recover`. Not thread-safe: drive it from one thread
    (the TUI's drill screen), or hand it between threads without overlapping calls.
    """

    def __init__(
        self,
        store: Store,
        cards: Iterable[Card],
        info: SessionInfo,
        *,
        settings: Settings | None = None,
        clock: Callable[[], datetime] = utc_now,
        tz: tzinfo | None = None,
        fuzz: bool = True,
        owner: Owner | None = None,
    ) -> None:
        self.store = store
        self.info = info
        self.owner = owner or Owner.this_process()
        self.settings = settings or Settings()
        self.clock = clock
        self.tz = tz
        self.scheduler = Scheduler(self.settings.scheduler_settings(enable_fuzzing=fuzz))
        self.mode = Mode(info.mode)
        self.budget = Budget(info.budget_kind, info.budget_value)
        self._cards = {card.key: card for card in cards}
        self._stored: dict[str, StoredCard] = {}
        self._queue: deque[str] = deque()
        self._current: str | None = None
        self._rt = _Runtime()
        self._decks = info.decks or None
        self._topic = info.topic
        self._skipped_learning: set[str] = set()  # learning cards skipped: shown after the others

    # ------------------------------------------------------------------ creating

    @classmethod
    def start(
        cls,
        store: Store,
        cards: Iterable[Card],
        *,
        budget: Budget | None = None,
        mode: str | Mode = Mode.NORMAL,
        weakest_n: int = 20,
        decks: Collection[str] | None = None,
        topic: str | None = None,
        settings: Settings | None = None,
        clock: Callable[[], datetime] = utc_now,
        tz: tzinfo | None = None,
        fuzz: bool = True,
        owner: Owner | None = None,
    ) -> Session:
        """Begin a session (recorded in the store at once, so it can be recovered), held by
        ``owner`` (default: this process)."""
        settings = settings or Settings()
        budget = budget or Budget.minutes(settings.session_minutes)
        mode = Mode(mode)
        owner = owner or Owner.this_process()
        info = store.start_session(
            clock(),
            budget_kind=budget.kind,
            budget_value=budget.value,
            mode=str(mode),
            mode_count=weakest_n if mode is Mode.WEAKEST else None,
            decks=sorted(decks or ()),
            topic=topic,
            owner=owner.as_tuple(),
        )
        session = cls(
            store, cards, info, settings=settings, clock=clock, tz=tz, fuzz=fuzz, owner=owner
        )
        session._build_queue(skip=set())
        return session

    @staticmethod
    def unfinished(
        store: Store,
        now: datetime | None = None,
        *,
        here: Owner | None = None,
        alive: Callable[[int], bool | None] = pid_alive,
    ) -> SessionInfo | None:
        """The latest session left open (a crash, a closed terminal) that nobody is drilling
        (see :func:`owner_gone`), if it was active recently enough to resume. A session still
        running in another window is not offered."""
        now = now or utc_now()
        here = here or Owner.this_process()
        for info in store.unfinished_sessions(newer_than=now - RESUME_WINDOW):
            if owner_gone(info, now, here, alive):
                return info
        return None

    @classmethod
    def recover(
        cls,
        store: Store,
        cards: Iterable[Card],
        *,
        session_id: int | None = None,
        settings: Settings | None = None,
        clock: Callable[[], datetime] = utc_now,
        tz: tzinfo | None = None,
        fuzz: bool = True,
        owner: Owner | None = None,
        alive: Callable[[int], bool | None] = pid_alive,
    ) -> Session | None:
        """Resume an unfinished session (the latest recent one nobody is drilling, or
        ``session_id``): the time and cards already spent count against its budget, and its
        reviews can be undone. ``owner`` (default: this process) takes the session over.

        ``None`` when there is none, it has ended, another process is still drilling it, or
        another window took it over first."""
        now = clock()
        here = owner or Owner.this_process()
        if session_id is not None:
            info: SessionInfo | None = store.session(session_id)
            if info is not None and (
                info.ended_at is not None or not owner_gone(info, now, here, alive)
            ):
                info = None
        else:
            info = cls.unfinished(store, now, here=here, alive=alive)
        if info is None:
            return None
        if not store.claim_session(info.id, here.as_tuple(), now, expected=info.owner):
            return None  # another window resumed it between our look and our claim
        info = replace(info, owner_host=here.host, owner_pid=here.pid, last_active_at=now)
        session = cls(
            store, cards, info, settings=settings, clock=clock, tz=tz, fuzz=fuzz, owner=here
        )
        entries = store.reviews(session_id=info.id)
        session._rt.used_seconds = sum(e.seconds for e in entries)
        session._rt.done = [_Done(e.id, e.card_key, e.seconds) for e in entries]
        passed = {e.card_key for e in entries if e.rating > 1}
        session._build_queue(skip=passed)
        return session

    # ------------------------------------------------------------------ the queue

    def _build_queue(self, skip: set[str]) -> None:
        now = self.clock()
        self.store.release_buried(now)
        if self.mode is Mode.NORMAL:
            keys = self._normal_queue(now)
        elif self.mode is Mode.CRAM:
            keys = self._cram_queue()
        elif self.mode is Mode.WEAKEST:
            keys = self._weakest_queue(now, self.info.mode_count or 20)
        else:
            keys = self._missed_queue()
        self._queue = deque(k for k in keys if k not in skip)

    def _loaded(self, cards: Iterable[StoredCard]) -> list[StoredCard]:
        out = []
        for card in cards:
            if card.key in self._cards:
                self._stored[card.key] = card
                out.append(card)
        return out

    def _normal_queue(self, now: datetime) -> list[str]:
        start, end = today_bounds(now, self.settings.day_rollover_hour, self.tz)
        introduced, reviewed = self.store.introduced_and_reviewed(start)
        new_left = remaining(self.settings.new_per_day, introduced)
        reviews_left = remaining(self.settings.reviews_per_day, reviewed)
        # due_cards mixes learning cards (shown by next_card as they fall due) with reviews:
        # ask for the reviews allowed plus room for the learning cards among them.
        due = self._loaded(
            self.store.due_cards(
                end,
                limit=min(reviews_left, MAX_QUEUE) + LEARNING_HEADROOM,
                decks=self._decks,
                topic=self._topic,
            )
        )
        reviews = [c for c in due if c.state.phase is Phase.REVIEW][:reviews_left]
        new = self._loaded(
            self.store.new_cards(
                limit=min(new_left, MAX_QUEUE), decks=self._decks, topic=self._topic
            )
        )
        queue = drop_siblings(build_queue([], reviews, new), _group_of)
        return [c.key for c in queue]

    def _cram_queue(self) -> list[str]:
        stored = self._loaded(self.store.cards_by_key(self._cards).values())
        keys = sorted(c.key for c in stored if self._drillable(c))
        random.Random(self.info.id).shuffle(keys)
        return keys

    def _weakest_queue(self, now: datetime, count: int) -> list[str]:
        """The ``count`` reviewed cards least likely to be recalled now (new cards have no
        memory to be weak in)."""
        import numpy as np

        memory = self.store.memory(decks=self._decks, topic=self._topic)
        reviewed = ~np.isnan(memory.stability)
        ids = memory.card_db_ids[reviewed]
        r = self.scheduler.retrievability_many(
            memory.stability[reviewed], memory.elapsed_days(now)[reviewed]
        )
        by_id = {c.db_id: c for c in self._loaded(self.store.cards_by_key(self._cards).values())}
        order = [int(ids[i]) for i in np.argsort(r, kind="stable") if int(ids[i]) in by_id]
        return [by_id[i].key for i in order][:count]

    def _missed_queue(self) -> list[str]:
        last = self.store.last_finished_session(mode=None)
        if last is None:
            return []
        keys: list[str] = []
        for entry in self.store.reviews(session_id=last.id):
            if entry.rating == Rating.Again and entry.card_key not in keys:
                keys.append(entry.card_key)
        stored = self._loaded(self.store.cards_by_key(keys).values())
        usable = {c.key for c in stored if self._drillable(c)}
        return [k for k in keys if k in usable]

    def _drillable(self, card: StoredCard) -> bool:
        """In the session's decks and topic, and neither retired nor suspended."""
        return (
            (self._decks is None or card.deck in self._decks)
            and (self._topic is None or card.topic == self._topic)
            and not card.retired
            and not card.suspended
        )

    def _still_due(self, key: str, now: datetime) -> bool:
        """A queued card may have changed since the queue was built (buried by a sibling,
        reviewed from another window, suspended): check before showing it."""
        stored = self.store.card(self._stored[key].db_id)
        self._stored[key] = stored
        if stored.retired or stored.suspended or stored.buried_until is not None:
            return False
        if self.mode is not Mode.NORMAL:
            return True
        start, end = today_bounds(now, self.settings.day_rollover_hour, self.tz)
        state = stored.state
        if state.is_new:
            limit, spent = self.settings.new_per_day, 0
        elif state.phase is Phase.REVIEW and state.due is not None and state.due < end:
            limit, spent = self.settings.reviews_per_day, 1
        else:
            # Learning and relearning cards come back through _learning_due when their step
            # is due; from the queue they would be shown again before it.
            return False
        # The queue was sized when the session began; another window or process may have
        # spent today's allowance since, so the log decides, not the queue.
        return remaining(limit, self.store.introduced_and_reviewed(start)[spent]) > 0

    def _learning_due(self, until: datetime, skip: Collection[str] = ()) -> str | None:
        for card in self._loaded(
            self.store.due_cards(
                until,
                limit=20 + len(skip),
                decks=self._decks,
                topic=self._topic,
                learning_only=True,
            )
        ):
            if card.key not in skip:
                return card.key
        return None

    # ------------------------------------------------------------------ driving

    @property
    def id(self) -> int:
        return self.info.id

    @property
    def current(self) -> Card | None:
        """The card on screen (shown by :meth:`next_card`, not yet recorded)."""
        return self._cards[self._current] if self._current else None

    @property
    def current_state(self) -> StoredCard | None:
        """The store's view of the current card (its phase, stability, lapses)."""
        return self._stored.get(self._current) if self._current else None

    @property
    def cards_done(self) -> int:
        return len(self._rt.done)

    @property
    def queue_length(self) -> int:
        """Cards still queued (learning cards that come back are not counted)."""
        return len(self._queue)

    @property
    def finished(self) -> bool:
        """The budget is spent (after the last recorded card) or nothing is left to show."""
        if self._current is not None:
            return False
        if self._rt.exhausted:
            return True
        if self.budget.kind == "minutes":
            assert self.budget.value is not None
            return self._rt.used_seconds >= self.budget.value * 60
        if self.budget.kind == "cards":
            assert self.budget.value is not None
            return self.cards_done >= self.budget.value
        return False

    def next_card(self) -> Card | None:
        """The card to show now (the same one until it is recorded), or ``None`` when the
        session is over."""
        if self._current is not None:
            return self._cards[self._current]
        if self.finished:
            return None
        now = self.clock()
        key: str | None = None
        later = self._skipped_learning
        if self.mode is Mode.NORMAL:
            key = self._learning_due(now, skip=later)
        while key is None and self._queue:
            candidate = self._queue.popleft()
            if self._still_due(candidate, now):
                key = candidate
        if key is None and self.mode is Mode.NORMAL:
            # The queue is done: skipped learning cards due now, then steps coming up soon.
            key = self._learning_due(now) or self._learning_due(now + LEARN_AHEAD)
        if key is not None:
            later.discard(key)
        if key is None:
            self._rt.exhausted = True
            return None
        return self._show(key, now)

    def _show(self, key: str, now: datetime) -> Card:
        """Put ``key`` on screen with a fresh, unpaused clock."""
        self._current = key
        self._rt.shown_at = now
        self._rt.paused_seconds = 0.0
        self._rt.paused_at = None
        return self._cards[key]

    def set_aside(self, *, requeue: bool) -> bool:
        """Take the card on screen away without a review: a skip (``requeue``: asked again
        later in this session) or a bury or suspend the caller has just stored. Returns
        ``False``, and keeps the card on screen, for a skip with nothing else left to ask."""
        key = self._current
        if key is None:
            return False
        state = self._stored[key].state
        learning = self.mode is Mode.NORMAL and state.phase in (Phase.LEARNING, Phase.RELEARNING)
        if requeue:
            now = self.clock()
            others = self._queue or (
                self.mode is Mode.NORMAL
                and self._learning_due(now + LEARN_AHEAD, skip={key, *self._skipped_learning})
            )
            if not others:
                return False
            if learning:  # learning cards return through _learning_due: hold it back there
                self._skipped_learning.add(key)
            else:
                self._queue.append(key)
        self._current = None
        self._rt.shown_at = None
        self._rt.paused_at = None
        self._rt.paused_seconds = 0.0
        return True

    def seconds_on_current(self) -> float:
        """Time the current card has been on screen, pauses excluded."""
        if self._current is None or self._rt.shown_at is None:
            return 0.0
        end = self._rt.paused_at or self.clock()
        return max(0.0, (end - self._rt.shown_at).total_seconds() - self._rt.paused_seconds)

    @property
    def elapsed_seconds(self) -> float:
        """Time spent on cards so far, the current one included."""
        return self._rt.used_seconds + self.seconds_on_current()

    @property
    def remaining_seconds(self) -> float | None:
        """Time left in a minutes budget (``None`` for other budgets); may go below zero while
        the last card is finished."""
        if self.budget.kind != "minutes" or self.budget.value is None:
            return None
        return self.budget.value * 60 - self.elapsed_seconds

    def suggest(
        self, verdict: str, seconds: float | None = None, used_hint: bool = False
    ) -> Rating | None:
        """:func:`recall.scheduling.suggest_rating` for the current card."""
        state = self.current_state
        mature = state is not None and state.state.is_mature
        if seconds is None:
            seconds = self.seconds_on_current()
        return suggest_rating(verdict, seconds, used_hint, mature)

    def record(
        self,
        *,
        verdict: str,
        rating: Rating | int,
        suggested: Rating | int | None = None,
        diagnosis: str | None = None,
        answer: str | None = None,
        seconds: float | None = None,
        hint_used: bool = False,
        seed: int | None = None,
        params: dict[str, Any] | None = None,
    ) -> Recorded:
        """Rate the current card and commit the review before returning.

        ``rating`` is the learner's choice (the suggestion, or an override); ``seconds`` the
        time taken (default: measured by the session's clock, pauses excluded). In normal mode
        the card's next state comes from FSRS and its siblings are buried until tomorrow; in
        the other modes the review is logged and the schedule is left alone.

        Raises :class:`recall.errors.RatingError`, recording nothing and keeping the card on
        screen, for Hard on an ``incorrect`` verdict (Hard is a passing grade) and for any
        rating of an ``invalid`` one (an unreadable answer costs nothing: the learner tries
        again).
        """
        if self._current is None:
            raise RuntimeError("no card is being shown: call next_card() first")
        if verdict not in VERDICTS:
            raise ValueError(f"unknown verdict {verdict!r}; expected one of {sorted(VERDICTS)}")
        rating = Rating(int(rating))
        _check_rating(verdict, rating)
        key = self._current
        stored = self._stored[key]
        now = self.clock()
        taken = self.seconds_on_current() if seconds is None else max(0.0, float(seconds))
        data = ReviewInput(
            rating=rating,
            reviewed_at=now,
            verdict=verdict,
            seconds=taken,
            suggested=None if suggested is None else Rating(int(suggested)),
            diagnosis=diagnosis,
            answer=answer,
            hint_used=hint_used,
            seed=seed,
            params=params,
            session_id=self.id,
        )
        bury_until = None
        schedule = None
        if self.mode is Mode.NORMAL:
            card_id = stored.db_id
            schedule = lambda state: self.scheduler.review(card_id, state, rating, now)  # noqa: E731
            bury_until = today_bounds(now, self.settings.day_rollover_hour, self.tz)[1]
        applied = self.store.apply_review(
            stored.db_id, data, schedule, bury_siblings_until=bury_until
        )
        # Committed: from here on, nothing can lose this review.
        self._stored[key] = applied.card
        requeue = self.mode is not Mode.NORMAL and rating is Rating.Again
        if requeue:
            self._queue.append(key)
        self._rt.done.append(_Done(applied.entry.id, key, taken, requeued=requeue))
        self._rt.used_seconds += taken
        self._current = None
        self._rt.shown_at = None
        self._rt.exhausted = False
        leech = False
        if applied.entry.before is not None and applied.entry.after is not None:
            leech = became_leech(
                applied.entry.before.lapses,
                applied.card.state.lapses,
                self.settings.leech_threshold,
            )
        return Recorded(applied.entry, applied.card, leech, applied.buried, self.finished)

    def undo(self) -> Card | None:
        """Take back the last review of this session: the log row goes, the card's previous
        state comes back, and the card is shown again next. Returns it, or ``None`` when there
        is nothing to undo (the session has ended: its summary stands) or the card can no longer
        be shown (removed from its deck or suspended since; the review is still taken back).

        Raises :class:`recall.store.StoreError` when the card was reviewed again elsewhere
        since; the review then stays, and still counts in this session."""
        if not self._rt.done or self.info.ended_at is not None:
            return None
        last = self._rt.done[-1]
        stored = self.store.undo_review(last.review_id)
        self._rt.done.pop()
        self._rt.used_seconds = max(0.0, self._rt.used_seconds - last.seconds)
        if last.requeued:  # take back the extra try the miss queued
            if self._current == last.key:  # the extra try is on screen
                self._current = None
            elif self._queue and self._queue[-1] == last.key:
                self._queue.pop()
        if self._current is not None and self._current != last.key:
            self._queue.appendleft(self._current)
        if last.key not in self._cards or stored.retired or stored.suspended:
            self._current = None
            return None
        self._stored[last.key] = stored
        self._rt.exhausted = False
        return self._show(last.key, self.clock())

    @property
    def paused(self) -> bool:
        return self._rt.paused_at is not None

    def pause(self) -> None:
        """Stop the clock on the current card (a break does not spend the budget)."""
        if self._rt.paused_at is None:
            self._rt.paused_at = self.clock()

    def resume(self) -> None:
        """Start the clock again after :meth:`pause`."""
        if self._rt.paused_at is not None:
            self._rt.paused_seconds += (self.clock() - self._rt.paused_at).total_seconds()
            self._rt.paused_at = None

    def release(self) -> None:
        """Let go of the session without ending it (the app closes mid-session): it is
        offered for resuming at once, by this window's next start or another one."""
        self.store.release_session(self.id, self.owner.as_tuple())

    def end(self) -> SessionSummary:
        """Close the session (it will not be offered for resuming) and summarise it. A card
        on screen but not recorded is simply not counted."""
        self._current = None
        self.store.end_session(self.id, self.clock())
        self.info = self.store.session(self.id)
        return self.summary()

    # ------------------------------------------------------------------ summary

    def summary(self) -> SessionSummary:
        """The figures of this session, from the log."""
        entries = self.store.reviews(session_id=self.id)
        now = self.clock()
        first: dict[str, ReviewEntry] = {}
        for entry in entries:
            first.setdefault(entry.card_key, entry)
        by_kind = Counter(_KIND_NAMES[e.kind] for e in first.values())
        # Keys keep the order of each card's first miss; values end as its last miss.
        last_wrong = {e.card_key: e for e in entries if e.rating == Rating.Again}
        missed = tuple(
            MissedCard(
                key=k,
                prompt=self._cards[k].prompt if k in self._cards else "",
                right_answer=right_answer(self._cards[k]) if k in self._cards else "",
                typed=last_wrong[k].answer,
                diagnosis=last_wrong[k].diagnosis,
            )
            for k in last_wrong
        )
        mistakes = Counter(e.diagnosis for e in entries if e.diagnosis and e.verdict == "incorrect")
        threshold = self.settings.leech_threshold
        stored = self.store.cards_by_key(first) if first else {}
        leeches = tuple(k for k, c in stored.items() if is_leech(c.state.lapses, threshold))
        _today, tomorrow, week = due_counts(
            self.store, now, self.settings.day_rollover_hour, self.tz
        )
        return SessionSummary(
            session_id=self.id,
            mode=str(self.mode),
            started_at=self.info.started_at,
            ended_at=self.info.ended_at,
            reviews=len(entries),
            cards=len(first),
            by_kind={
                name: by_kind.get(name, 0)
                for name in ("new", "review", "relearn", "learning", "off_schedule")
            },
            first_try_accuracy=(sum(e.rating > 1 for e in first.values()) / len(first))
            if first
            else None,
            median_seconds=statistics.median(e.seconds for e in entries) if entries else None,
            seconds_on_cards=sum(e.seconds for e in entries),
            missed=missed,
            mistakes=tuple(mistakes.most_common(5)),
            leeches=leeches,
            due_tomorrow=tomorrow,
            due_next_7_days=week,
            streak_days=current_streak(self.store, now, self.settings.day_rollover_hour, self.tz),
        )


def _check_rating(verdict: str, rating: Rating) -> None:
    """Refuse the two ratings the grading rules forbid (see :mod:`recall.scheduling.rating`)."""
    if verdict == "invalid":
        raise RatingError(
            "an answer that could not be read is not rated: it costs nothing, try again"
        )
    if verdict == "incorrect" and rating is Rating.Hard:
        raise RatingError(
            "a wrong answer cannot be rated Hard: Hard is a passing grade. "
            "Rate it Again, or Good or Easy if the grader was wrong"
        )


def _group_of(card: StoredCard) -> tuple[str, str] | None:
    return (card.deck, card.sibling_group) if card.sibling_group else None


def right_answer(card: Card) -> str:
    """The answer to show for a missed card, whatever its kind."""
    if card.kind is CardKind.FACT:
        if card.value_range is not None:
            low, high = card.value_range
            text = f"{low:g}-{high:g}"
        else:
            text = f"{card.value:g}" if card.value is not None else ""
        return f"{text} {card.unit}".strip()
    if card.kind is CardKind.REVERSE or (card.kind is CardKind.CLOZE and not card.answer):
        return card.accept[0] if card.accept else ""
    if card.kind is CardKind.EXPLAIN:
        return card.model_answer
    if card.kind is CardKind.NUMERIC and card.unit:
        return f"{card.answer} {card.unit}"
    return card.answer
