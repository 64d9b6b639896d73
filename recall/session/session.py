"""The :class:`Session` facade: one drill session, driven card by card.

It strings the session's parts together: the queue (:mod:`.queues`), the budget and the card
clock (:mod:`.budget`), the rating checks and undo's memory (:mod:`.recording`), who holds the
session (:mod:`.ownership`) and the closing figures (:mod:`.summary`). Every :meth:`Session.record`
commits the review (log row and next state, one transaction) before it returns.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime, tzinfo
from typing import Any

from recall.cards.model import Card
from recall.clock import utc_now
from recall.config import Settings
from recall.scheduling import Rating, Scheduler, as_status, suggest_rating, today_bounds
from recall.session.budget import Budget, Stopwatch
from recall.session.mode import Mode
from recall.session.ownership import (
    Owner,
    claim_gone,
    latest_resumable,
    pid_alive,
    resumable,
)
from recall.session.queues import SessionQueue
from recall.session.recording import Done, Recorded, check_rating, made_leech
from recall.session.summary import SessionSummary, summarise
from recall.store import CardClaim, ReviewInput, SessionInfo, Store, StoredCard
from recall.store.memory import MemoryModelStore
from recall.verdicts import Status


class Session:
    """One drill session over ``cards`` (the loaded deck content) and a store.

    ``cards`` given as a mapping by key is kept as it is, not copied: the workspace hands in its
    one card cache, so a card re-read after an edit is the card the session asks and sums up.

    Create with :meth:`start` or :meth:`recover`. Not thread-safe: drive it from one thread
    (the TUI's drill screen), or hand it between threads without overlapping calls.
    """

    def __init__(
        self,
        store: Store,
        cards: Iterable[Card] | Mapping[str, Card],
        info: SessionInfo,
        *,
        settings: Settings | None = None,
        clock: Callable[[], datetime] = utc_now,
        tz: tzinfo | None = None,
        fuzz: bool = True,
        owner: Owner | None = None,
        alive: Callable[[int], bool | None] = pid_alive,
    ) -> None:
        self.store = store
        self.info = info
        self.owner = owner or Owner.this_process()
        self.alive = alive  # whether a process on this machine runs (another window's claim)
        self.settings = settings or Settings()
        self.clock = clock
        self.tz = tz
        # The learner's fitted FSRS parameters when a fit is in use (``recall optimize``), the
        # defaults otherwise: a kept fit schedules from the next review on.
        fitted = MemoryModelStore(store).in_use()
        self.scheduler = Scheduler(
            self.settings.scheduler_settings(
                enable_fuzzing=fuzz, parameters=None if fitted is None else fitted.parameters
            )
        )
        self.mode = Mode(info.mode)
        self.budget = Budget(info.budget_kind, info.budget_value)
        self._cards: Mapping[str, Card] = (
            cards if isinstance(cards, Mapping) else {card.key: card for card in cards}
        )
        self._queue = SessionQueue(
            store,
            self._cards,
            info,
            self.mode,
            settings=self.settings,
            scheduler=self.scheduler,
            tz=tz,
        )
        self._current: str | None = None
        self._watch = Stopwatch()
        self._done: list[Done] = []
        self._exhausted = False
        # Cards whose hint was used for an answer since taken back (or shown for the card on
        # screen): answered again, they are still marked as hinted.
        self._hinted: set[str] = set()

    # ------------------------------------------------------------------ creating

    @classmethod
    def start(
        cls,
        store: Store,
        cards: Iterable[Card] | Mapping[str, Card],
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
        alive: Callable[[int], bool | None] = pid_alive,
        weakest_first: bool = False,
        ahead: Collection[str] = (),
        introduce: Sequence[str] | None = None,
    ) -> Session:
        """Begin a session (recorded in the store at once, so it can be recovered), held by
        ``owner`` (default: this process). ``weakest_first`` orders the due reviews by how
        likely they are to be forgotten (the last days before a followed exam); ``ahead`` are
        reviewed cards to drill today although FSRS has not made them due yet (a followed exam
        plan's reviews); ``introduce`` the new cards to introduce today in place of the
        session's own choice (a followed exam plan's)."""
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
            store,
            cards,
            info,
            settings=settings,
            clock=clock,
            tz=tz,
            fuzz=fuzz,
            owner=owner,
            alive=alive,
        )
        session._queue.weakest_first = weakest_first
        session._queue.ahead = frozenset(ahead)
        session._queue.introduce = None if introduce is None else tuple(introduce)
        session._queue.build(session.clock(), skip=set())
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
        (see :func:`recall.session.owner_gone`), if it was active recently enough to resume. A
        session still running in another window is not offered."""
        now = now or utc_now()
        here = here or Owner.this_process()
        return latest_resumable(store, now, here, alive)

    @classmethod
    def recover(
        cls,
        store: Store,
        cards: Iterable[Card] | Mapping[str, Card],
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
            info = resumable(store, session_id, now, here, alive)
        else:
            info = latest_resumable(store, now, here, alive)
        if info is None:
            return None
        if not store.claim_session(info.id, here.as_tuple(), now, expected=info.owner):
            return None  # another window resumed it between our look and our claim
        info = replace(info, owner_host=here.host, owner_pid=here.pid, last_active_at=now)
        session = cls(
            store,
            cards,
            info,
            settings=settings,
            clock=clock,
            tz=tz,
            fuzz=fuzz,
            owner=here,
            alive=alive,
        )
        entries = store.reviews(session_id=info.id)
        # Time on answered cards, and on cards skipped or undone before the crash: all spent.
        session._watch.used_seconds = sum(e.seconds for e in entries) + info.set_aside_seconds
        session._done = [Done(e.id, e.card_key, e.seconds, hint_used=e.hint_used) for e in entries]
        passed = {e.card_key for e in entries if e.rating > 1}
        session._queue.build(session.clock(), skip=passed)
        return session

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
        return self._queue.stored.get(self._current) if self._current else None

    @property
    def cards_done(self) -> int:
        return len(self._done)

    @property
    def queue_length(self) -> int:
        """Cards still queued (learning cards that come back are not counted)."""
        return len(self._queue.pending)

    @property
    def finished(self) -> bool:
        """The budget is spent (after the last recorded card) or nothing is left to show."""
        if self._current is not None:
            return False
        if self._exhausted:
            return True
        return self.budget.spent(self._watch.used_seconds, self.cards_done)

    def next_card(self) -> Card | None:
        """The card to show now (the same one until it is recorded), or ``None`` when the
        session is over."""
        if self._current is not None:
            return self._cards[self._current]
        if self.finished:
            return None
        now = self.clock()
        key = self._queue.next_key(
            now, claim=lambda key: self._claim(key, now), release=self._let_go
        )
        if key is None:
            self._exhausted = True
            return None
        return self._show(key, now)

    def _show(self, key: str, now: datetime) -> Card:
        """Put ``key`` on screen with a fresh clock (claimed already, or by undo)."""
        self._current = key
        self._watch.start(now)
        return self._cards[key]

    def _claim(self, key: str, now: datetime) -> bool:
        """Claim card ``key`` for this session before it is shown: refused while another
        session shows it and its claim stands (:func:`recall.session.ownership.claim_gone`)."""

        def free(claim: CardClaim) -> bool:
            return claim_gone(claim, now, self.owner, self.alive)

        card_db_id = self._queue.stored[key].db_id
        return self.store.claim_card(card_db_id, self.id, self.owner.as_tuple(), now, free=free)

    def _let_go(self, key: str) -> None:
        """Release this session's claim on card ``key`` (it left the screen)."""
        self.store.release_cards(self.id, self._queue.stored[key].db_id)

    def _spend_set_aside(self) -> None:
        """The card on screen leaves it unreviewed: its time stays spent, here and in the
        store (a resumed session counts it), and its claim is released."""
        key = self._current
        if key is None:
            return
        spent = self.seconds_on_current()
        if spent > 0:
            self._watch.used_seconds += spent
            self.store.add_set_aside_seconds(self.id, spent)
        self._let_go(key)
        self._current = None
        self._watch.reset()

    def set_aside(self, *, requeue: bool) -> bool:
        """Take the card on screen away without a review: a skip (``requeue``: asked again
        later in this session) or a bury or suspend the caller has just stored. The time it
        was on screen stays spent. Returns ``False``, and keeps the card on screen, for a skip
        with nothing else left to ask."""
        key = self._current
        if key is None:
            return False
        if requeue and not self._queue.ask_later(key, self.clock()):
            return False
        self._spend_set_aside()
        return True

    def seconds_on_current(self) -> float:
        """Time the current card has been on screen, pauses excluded."""
        if self._current is None or self._watch.shown_at is None:
            return 0.0
        return self._watch.on_card(self._watch.paused_at or self.clock())

    @property
    def elapsed_seconds(self) -> float:
        """Time spent on cards so far, the current one included."""
        return self._watch.used_seconds + self.seconds_on_current()

    @property
    def remaining_seconds(self) -> float | None:
        """Time left in a minutes budget (``None`` for other budgets); may go below zero while
        the last card is finished."""
        if self.budget.kind != "minutes" or self.budget.value is None:
            return None
        return self.budget.seconds_left(self.elapsed_seconds)

    @property
    def time_up(self) -> bool:
        """A minutes budget ran out while the card on screen was shown: the screen says "time
        is up, finish this card" (the card is still answered and recorded; no other follows)."""
        remaining = self.remaining_seconds
        return self._current is not None and remaining is not None and remaining <= 0

    def mark_hint(self) -> None:
        """The learner saw the hint for the card on screen: its answer counts as hinted (the
        suggestion is Hard at best), even if it is undone and answered again."""
        if self._current is not None:
            self._hinted.add(self._current)

    def mark_answered(self) -> None:
        """The learner gave the answer to the card on screen (Enter on a typed answer, Space
        on a self-rated card): its answer time stops here, while its time on screen runs on
        to the rating. An answer given again (the first was unreadable) moves the mark."""
        if self._current is not None:
            self._watch.answered(self.clock())

    def ask_again(self) -> None:
        """The answer on screen was taken back and the card is asked again: its answer time
        starts again now. The time so far stays spent (in the budget and the review's time on
        screen); it is just not this answer's time."""
        if self._current is not None:
            self._watch.ask_again(self.clock())

    @property
    def current_hinted(self) -> bool:
        """Whether the card on screen carries a hint penalty (:meth:`mark_hint`, or an undone
        answer that used the hint)."""
        return self._current is not None and self._current in self._hinted

    def suggest(
        self,
        verdict: Status,
        seconds: float | None = None,
        used_hint: bool = False,
        *,
        complete: bool = True,
    ) -> Rating | None:
        """:func:`recall.scheduling.suggest_rating` for the current card (``used_hint`` or
        :attr:`current_hinted`; ``complete`` false for an explanation that missed a point)."""
        state = self.current_state
        mature = state is not None and state.state.is_mature
        if seconds is None:
            seconds = self.seconds_on_current()
        return suggest_rating(
            verdict, seconds, used_hint or self.current_hinted, mature, complete=complete
        )

    def record(
        self,
        *,
        verdict: Status,
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
        time taken (default: measured by the session's clock, pauses excluded), and the
        review's answer time is the part of it up to :meth:`mark_answered` since the card was
        last asked (:meth:`ask_again`); with neither marked, all of it. ``hint_used``
        is also set for a card with :attr:`current_hinted`. In normal mode
        the card's next state comes from FSRS and its siblings are buried until tomorrow; in
        the other modes the review is logged and the schedule is left alone.
        ``Recorded.became_leech`` tells whether this review made the card a leech.

        Raises :class:`recall.errors.RatingError`, recording nothing and keeping the card on
        screen, for Hard on an ``incorrect`` verdict (Hard is a passing grade) and for any
        rating of an ``invalid`` one (an unreadable answer costs nothing: the learner tries
        again).
        """
        if self._current is None:
            raise RuntimeError("no card is being shown: call next_card() first")
        verdict = as_status(verdict)  # a stored string ("correct") reads as its member
        rating = Rating(int(rating))
        check_rating(verdict, rating)
        key = self._current
        stored = self._queue.stored[key]
        now = self.clock()
        taken = self.seconds_on_current() if seconds is None else max(0.0, float(seconds))
        watch = self._watch
        marked = watch.answered_after is not None or watch.asked_from > 0
        answer_time = min(taken, watch.answer_seconds(now)) if marked else taken
        hint_used = hint_used or key in self._hinted
        data = ReviewInput(
            rating=rating,
            reviewed_at=now,
            verdict=verdict,
            seconds=taken,
            answer_seconds=answer_time,
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
        if self.mode.on_schedule:
            card_db_id = stored.db_id
            schedule = lambda state: self.scheduler.review(card_db_id, state, rating, now)  # noqa: E731
            bury_until = today_bounds(now, self.settings.day_rollover_hour, self.tz)[1]
        applied = self.store.apply_review(
            stored.db_id, data, schedule, bury_siblings_until=bury_until
        )
        # Committed: from here on, nothing can lose this review.
        self._queue.note_reviewed(key, applied.card)
        requeue = not self.mode.on_schedule and rating is Rating.Again
        if requeue:
            self._queue.pending.append(key)
        self._done.append(Done(applied.entry.id, key, taken, requeue, hint_used))
        self._watch.used_seconds += taken
        self._hinted.discard(key)
        self._current = None
        self._watch.reset()
        self._exhausted = False
        self._let_go(key)
        leech = made_leech(applied, self.settings.leech_threshold)
        return Recorded(applied.entry, applied.card, leech, applied.buried, self.finished)

    def undo(self) -> Card | None:
        """Take back the last review of this session: the log row goes, the card's previous
        state comes back, and the card is shown again next. Returns it, or ``None`` when there
        is nothing to undo (the session has ended: its summary stands) or the card can no longer
        be shown (removed from its deck or suspended since; the review is still taken back).

        Undo gives no time back: the undone answer's seconds, and the time on the card that was
        on screen, stay spent. An answer that used the hint keeps its penalty when the card is
        answered again.

        Raises :class:`recall.store.StoreError` when the card was reviewed again elsewhere
        since; the review then stays, and still counts in this session."""
        if not self._done or self.info.ended_at is not None:
            return None
        last = self._done[-1]
        stored = self.store.undo_review(last.review_id)
        self._done.pop()
        # Its log row is gone, but its time stays spent (and counts again after a resume).
        self.store.add_set_aside_seconds(self.id, last.seconds)
        if last.hint_used:
            self._hinted.add(last.key)
        pending = self._queue.pending
        shown = self._current
        self._spend_set_aside()
        if last.requeued and shown != last.key and pending and pending[-1] == last.key:
            pending.pop()  # take back the extra try the miss queued
        elif shown is not None and shown != last.key:
            pending.appendleft(shown)
        if last.key not in self._cards or stored.retired or stored.suspended:
            return None
        self._queue.note_reviewed(last.key, stored)
        self._exhausted = False
        now = self.clock()
        self._claim(last.key, now)  # the learner asked for it back: shown even if claimed
        return self._show(last.key, now)

    @property
    def paused(self) -> bool:
        """Whether any pause is in force (the clock stands)."""
        return self._watch.paused

    def pause(self, reason: str = "pause") -> None:
        """Stop the clock on the current card (a break, help, the command palette, a dialog
        does not spend the budget). Pauses nest: each :meth:`pause` needs its own
        :meth:`resume` with the same ``reason``, and the clock runs again after the last."""
        self._watch.pause(self.clock(), reason)

    def resume(self, reason: str = "pause") -> None:
        """End one :meth:`pause` for ``reason`` (one with none in force is ignored, so a
        screen closing twice cannot restart the clock under another pause). When the clock
        runs again, the claim on the card on screen is renewed."""
        now = self.clock()
        if self._watch.resume(now, reason) and self._current is not None:
            self._claim(self._current, now)

    @contextmanager
    def paused_for(self, reason: str) -> Iterator[None]:
        """The clock stands inside the block (``with session.paused_for("help"): ...``)."""
        self.pause(reason)
        try:
            yield
        finally:
            self.resume(reason)

    def release(self) -> None:
        """Let go of the session without ending it (the app closes mid-session): it is
        offered for resuming at once, by this window's next start or another one. The card
        on screen is let go too; its time stays spent."""
        self._spend_set_aside()
        self.store.release_cards(self.id)
        self.store.release_session(self.id, self.owner.as_tuple())

    def end(self) -> SessionSummary:
        """Close the session (it will not be offered for resuming) and summarise it. A card
        on screen but not recorded is not counted as a review (its time is spent)."""
        self._spend_set_aside()
        self.store.release_cards(self.id)
        self.store.end_session(self.id, self.clock())
        self.info = self.store.session(self.id)
        return self.summary()

    def summary(self) -> SessionSummary:
        """The figures of this session, from the log."""
        return summarise(
            self.store,
            self.info,
            self._cards,
            settings=self.settings,
            now=self.clock(),
            tz=self.tz,
        )


__all__ = ["Session"]
