"""The one place the TUI talks to the lower layers: decks, engine, grading, store, session.

Screens call these methods and get plain views back (:mod:`recall.tui.views`); they never see a
database row, a SymPy object or a scheduler state. Every import of a heavy layer happens inside a
method, so importing this module costs nothing before the first frame.

Threads: :meth:`Services.load` runs in the app's load worker; :meth:`DrillRun.preview` and
:meth:`DrillRun.grade` run in preview and grading workers (pure engine work, no database); every
other call (recording, undo, counts) runs on the event loop, so the store is never used from two
threads at once by the TUI.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from recall.clock import Clock, utc_now
from recall.session import Mode
from recall.tui.card_writer import CardDraft, write_card
from recall.tui.views import (
    CardView,
    DeckFailure,
    DeckRow,
    FeedbackView,
    HomeData,
    PreviewView,
    Rating,
    SessionPlan,
    StatsView,
    SummaryView,
)

if TYPE_CHECKING:
    from recall.cards.loader import LoadResult
    from recall.cards.model import Card, Deck
    from recall.config import Settings
    from recall.grading import Question
    from recall.session import SessionSummary
    from recall.store import SessionInfo, Store


#: Days shown by the forecast line on the home screen.
FORECAST_DAYS = 14


class Services:
    """The facade. ``clock`` is the time source for everything (tests pass a fake one);
    ``deck_dirs`` overrides where decks are loaded from (default: built-in, then custom);
    ``db_url`` overrides the database (default: ``RECALL_DB`` or the SQLite file)."""

    def __init__(
        self,
        clock: Clock | None = None,
        deck_dirs: Sequence[Path] | None = None,
        db_url: str | None = None,
    ) -> None:
        self.clock: Clock = clock or utc_now
        self.deck_dirs = list(deck_dirs) if deck_dirs is not None else None
        self.db_url = db_url
        self._store: Store | None = None
        self._loaded: LoadResult | None = None
        self._cards: dict[str, Card] = {}
        self._lock = threading.Lock()
        self._settings: Settings | None = None
        self.closed = False

    # ------------------------------------------------------------------ loading

    def load(self) -> HomeData:
        """Load and sync the decks, open the store, and count (called from a worker)."""
        from recall.config import load_settings
        from recall.errors import ConfigError

        with self._lock:
            try:
                self._settings = load_settings()
            except ConfigError:
                from recall.config import Settings

                self._settings = Settings()
            result = self._load_decks()
            store = self._open_store()
            now = self.clock()
            store.sync_decks(result.decks, now)
            # A deck file deleted since the last start: its cards leave the queues and stats
            # (history kept; they come back with the file). A deck that failed to load still
            # has its file and is left alone.
            store.retire_vanished_decks(
                self._deck_folders(), keep={deck.id for deck in result.decks}, now=now
            )
            self._loaded = result
            self._cards = {card.key: card for card in result.cards}
            return self._home_data()

    def warm(self) -> None:
        """Import SymPy and the engine and read one expression end to end, so the first
        preview and grading do not pay for the import (called from a worker)."""
        _warm_engine()

    def _deck_folders(self) -> list[Path]:
        """Where decks are loaded from: the override, or the built-in and custom folders."""
        from recall.paths import builtin_decks_dir, custom_decks_dir

        if self.deck_dirs is not None:
            return list(self.deck_dirs)
        return [builtin_decks_dir(), custom_decks_dir()]

    def _load_decks(self) -> LoadResult:
        """Built-in decks are checked for structure only (the test suite verifies them with the
        engine, and that check costs a second at every start); custom decks get the full check,
        so a broken formula in a learner's deck is reported here, not in the middle of a drill.
        """
        from recall.cards.loader import DeckFailure as LoaderFailure
        from recall.cards.loader import LoadResult, load_decks
        from recall.errors import DeckError
        from recall.grading import check_deck

        if self.deck_dirs is not None:
            return load_decks(self.deck_dirs, check=check_deck)
        builtin_dir, custom_dir = self._deck_folders()
        builtin = load_decks([builtin_dir])
        custom = load_decks([custom_dir], check=check_deck)
        taken = {deck.id: deck.path for deck in builtin.decks}
        decks = list(builtin.decks)
        failures = list(builtin.failures) + list(custom.failures)
        for deck in custom.decks:
            if deck.id in taken:
                error = DeckError(
                    f"deck id '{deck.id}' is already used by {taken[deck.id]}",
                    path=deck.path,
                    suggestion="give this deck another id",
                )
                failures.append(LoaderFailure(deck.path, (error,)))
                continue
            decks.append(deck)
        return LoadResult(tuple(decks), tuple(failures))

    def _open_store(self) -> Store:
        if self._store is None:
            from recall.store import open_store

            self._store = open_store(self.db_url)
        return self._store

    @property
    def store(self) -> Store:
        if self._store is None:
            raise RuntimeError("the store is opened by Services.load() first")
        return self._store

    @property
    def settings(self) -> Settings:
        if self._settings is None:
            from recall.config import Settings

            self._settings = Settings()
        return self._settings

    def card(self, key: str) -> Card:
        return self._cards[key]

    def home(self) -> HomeData:
        """Recount without reloading the decks."""
        return self._home_data()

    def _home_data(self) -> HomeData:
        from recall.analytics import compute_stats
        from recall.scheduling import remaining, today_bounds

        assert self._loaded is not None
        now = self.clock()
        rollover = self.settings.day_rollover_hour
        start, end = today_bounds(now, rollover)
        introduced, reviewed = self.store.introduced_and_reviewed(start)
        new_left = remaining(self.settings.new_per_day, introduced)
        reviews_left = remaining(self.settings.reviews_per_day, reviewed)
        counts = {c.deck: c for c in self.store.deck_counts(now, end, new_limit=new_left)}
        rows = []
        for deck in self._loaded.decks:
            count = counts.get(deck.id)
            rows.append(
                DeckRow(
                    id=deck.id,
                    name=deck.name,
                    topic=deck.topic or deck.name,
                    builtin=deck.builtin,
                    cards=len(deck.cards),
                    new=count.new if count else 0,
                    learning=count.learning if count else 0,
                    due=min(count.due, reviews_left) if count else 0,
                    path=deck.path,
                    description=deck.description,
                )
            )
        failures = []
        for failure in self._loaded.failures:
            first = failure.errors[0] if failure.errors else None
            failures.append(
                DeckFailure(
                    path=failure.path,
                    message="\n".join(_error_line(e) for e in failure.errors) or "did not load",
                    line=getattr(first, "line", None),
                    card_id=getattr(first, "card_id", None),
                )
            )
        today = compute_stats(
            self.store, days=1, now=now, rollover_hour=rollover, forecast_days=FORECAST_DAYS
        )
        unfinished, done = self._unfinished(now)
        return HomeData(
            decks=tuple(rows),
            failures=tuple(failures),
            streak_days=today.streak,
            reviewed_today=today.reviews,
            forecast=tuple(n for _day, n in today.forecast),
            database=self.db_url or "",
            unfinished=unfinished,
            unfinished_done=done,
            new_allowance=new_left,
            review_allowance=reviews_left,
        )

    def _unfinished(self, now: datetime) -> tuple[SessionPlan | None, int]:
        """A recent session that never ended and has reviews, as a plan that resumes it."""
        from recall.session import Session

        info = Session.unfinished(self.store, now)
        if info is None:
            return None, 0
        done = len(self.store.reviews(session_id=info.id))
        if not done:
            return None, 0
        modes = {str(mode): mode for mode in Mode}
        plan = SessionPlan(
            minutes=info.budget_value if info.budget_kind == "minutes" else None,
            cards=int(info.budget_value)
            if info.budget_kind == "cards" and info.budget_value
            else None,
            deck_ids=tuple(info.decks),
            topic=info.topic,
            mode=modes.get(info.mode, Mode.NORMAL),
            resume_id=info.id,
        )
        return plan, done

    # ------------------------------------------------------------------ sessions

    def begin(self, plan: SessionPlan) -> DrillRun:
        """Start a drill session for ``plan``."""
        return DrillRun(self, plan)

    # ------------------------------------------------------------------ browsing decks

    def cards(self, deck_id: str | None, search: str = "") -> tuple[CardView, ...]:
        """Cards of one deck (or all), filtered by a case-insensitive search of id, prompt,
        answer and tags."""
        from recall.tui.presenting import card_view

        if self._loaded is None:
            return ()
        needle = search.lower().strip()
        out = []
        for deck in self._loaded.decks:
            if deck_id and deck.id != deck_id:
                continue
            for card in deck.cards:
                if needle and needle not in _haystack(card):
                    continue
                out.append(card_view(card))
        return tuple(out)

    def reference(self, card: CardView) -> str:
        """The card's reference answer, rendered."""
        from recall.tui.presenting import reference_rendered

        return reference_rendered(self._cards[card.key]) if card.key in self._cards else ""

    def custom_deck_ids(self) -> tuple[str, ...]:
        if self._loaded is None:
            return ()
        return tuple(deck.id for deck in self._loaded.decks if not deck.builtin)

    def draft_of(self, card: CardView) -> CardDraft | None:
        """The form's draft of a custom card (``None`` for kinds the form does not edit)."""
        original = self._cards.get(card.key)
        if original is None or str(original.kind) not in ("formula", "fact", "reverse", "explain"):
            return None
        kind = str(original.kind)
        answer = original.answer
        if kind == "fact":
            answer = "" if original.value is None else f"{original.value:g}"
        return CardDraft(
            deck_id=original.deck_id,
            id=original.id,
            kind=kind,
            prompt=original.prompt,
            answer=answer,
            accept=original.accept,
            shown=original.shown,
            model_answer=original.model_answer,
            hint=original.hint,
            symbols={s.name: s.domain for s in original.symbols},
        )

    def preview_draft(self, draft: CardDraft) -> PreviewView | None:
        """The form's live preview of the answer (math kinds only)."""
        from recall.errors import RecallError
        from recall.formula import SymbolTable, preview

        text = draft.answer
        if draft.kind not in ("formula", "fact") or not text.strip():
            return None
        try:
            table = SymbolTable.build(variables=draft.symbols) if draft.kind == "formula" else None
        except RecallError as error:
            return PreviewView(text=text, ok=False, message=f"symbols: {error}")
        from recall.tui.presenting import preview_view

        return preview_view(text, preview(text, table, numeric=draft.kind == "fact"))

    def save_card(self, draft: CardDraft, line: int | None) -> list[str]:
        """Write the card into its custom deck and validate the deck with the real loader.

        Returns the errors (and restores the file) when the deck would no longer load; an empty
        list means saved.
        """
        from recall.cards.loader import read_deck
        from recall.grading import check_deck
        from recall.paths import custom_decks_dir

        problems = _draft_problems(draft)
        if problems:
            return problems
        path = self._deck_path(draft.deck_id) or custom_decks_dir() / f"{draft.deck_id}.toml"
        existed = path.exists()
        old = write_card(path, draft, line)
        deck, errors = read_deck(path, check=check_deck)
        if deck is None:
            if existed:
                path.write_text(old, encoding="utf-8")
            else:
                path.unlink()
            return [_error_line(e) for e in errors]
        return []

    def _deck(self, deck_id: str) -> Deck | None:
        """The loaded deck with that id, if any."""
        if self._loaded is None:
            return None
        return next((deck for deck in self._loaded.decks if deck.id == deck_id), None)

    def _deck_path(self, deck_id: str) -> Path | None:
        """The file of a custom deck (a built-in deck is never written to)."""
        deck = self._deck(deck_id)
        if deck is None or deck.builtin or not deck.path:
            return None
        return Path(deck.path)

    # ------------------------------------------------------------------ stats

    def stats(self, days: int = 26 * 7) -> StatsView:
        """The stats screen's figures, from the review log (the store's own stats)."""
        from recall.analytics import compute_stats

        figures = compute_stats(
            self.store,
            days=days,
            now=self.clock(),
            rollover_hour=self.settings.day_rollover_hour,
            forecast_days=30,
        )

        def rows(table: dict[str, Any]) -> tuple[tuple[str, float, int], ...]:
            return tuple((name, r.rate, r.total) for name, r in table.items() if r.rate is not None)

        extra = {
            "retention": "—" if figures.retention.rate is None else f"{figures.retention.rate:.0%}",
            "first try": "—"
            if figures.first_try_accuracy is None
            else f"{figures.first_try_accuracy:.0%}",
            "study days": str(figures.study_days),
            "due today": str(figures.due_today),
            "due tomorrow": str(figures.due_tomorrow),
            "due in 7 days": str(figures.due_next_7_days),
        }
        return StatsView(
            heatmap=tuple(figures.heatmap),
            forecast=tuple(n for _day, n in figures.forecast),
            retention_by_deck=rows(figures.retention_by_deck),
            retention_by_topic=rows(figures.retention_by_topic),
            mistakes=tuple(figures.mistakes),
            total_reviews=figures.reviews,
            streak_days=figures.streak,
            extra=extra,
        )

    # ------------------------------------------------------------------ shutdown

    def close(self) -> None:
        """Close the store (every review is already committed)."""
        self.closed = True
        if self._store is not None:
            self._store.close()
            self._store = None


class DrillRun:
    """One drill session as the drill screen sees it, over :class:`recall.session.Session`.

    The session owns the queue, the budget on its clock, committing each review before it
    returns, undo, and the summary; this class adds what the screen needs around it: cards as
    views (numeric parameters drawn from a recorded seed), previews and grading through the
    engine, and the rating suggestion.
    """

    def __init__(self, services: Services, plan: SessionPlan) -> None:
        from recall.session import Budget, Session

        self.services = services
        self.plan = plan
        self._questions: dict[str, Question] = {}  # the card on screen, as asked this time
        self._summary: SessionSummary | None = None
        if plan.resume_id is not None:
            from recall.errors import StoreError

            recovered = Session.recover(
                services.store,
                list(services._cards.values()),
                session_id=plan.resume_id,
                settings=services.settings,
                clock=services.clock,
            )
            if recovered is None:
                raise StoreError(
                    "that session cannot be resumed: it has ended, or another window is "
                    "drilling it. Start a new one"
                )
            self.session = recovered
            return
        if plan.minutes is not None:
            budget = Budget.minutes(plan.minutes)
        elif plan.cards is not None:
            budget = Budget.cards(plan.cards)
        else:
            budget = Budget.until_done()
        cards = list(services._cards.values())
        mode = plan.mode
        if plan.card_keys:  # exactly these cards ("drill the missed ones again"), off-schedule:
            wanted = set(plan.card_keys)  # the schedule decides its own cards, not a list
            cards = [card for card in cards if card.key in wanted]
            if mode is Mode.NORMAL:
                mode = Mode.CRAM
        self.session = Session.start(
            services.store,
            cards,
            budget=budget,
            mode=mode,
            weakest_n=plan.cards or 20,
            decks=plan.deck_ids or None,
            topic=plan.topic,
            settings=services.settings,
            clock=services.clock,
        )

    @property
    def info(self) -> SessionInfo:
        return self.session.info

    def next_card(self) -> CardView | None:
        """The card to ask now (``None`` when the session is over)."""
        card = self.session.next_card()
        if card is None:
            return None
        return self._view(card)

    def _view(self, card: Card, question: Question | None = None) -> CardView:
        """The card as asked now: its question is drawn here, once per review (a given one is
        kept), and the prompt, grading and the recorded review all use it."""
        from recall.grading import Question
        from recall.tui.presenting import card_view

        original = self.services.card(card.key)
        asked = question or Question.draw(original)
        self._questions[card.key] = asked
        state = self.session.current_state
        new = bool(state is not None and state.state.is_new)
        return card_view(original, question=asked, new=new)

    # ------------------------------------------------------------------ engine work (threads)

    def preview(self, card: CardView, text: str) -> PreviewView:
        """How the answer box reads (parse and render only; safe in a worker thread)."""
        from recall.grading import preview
        from recall.tui.presenting import preview_view, takes_math

        original = self.services.card(card.key)
        if not takes_math(original):
            return preview_view(text, None)
        return preview_view(text, preview(original, text))

    def grade(self, card: CardView, text: str, hinted: bool = False) -> FeedbackView:
        """Grade ``text`` in a worker thread: the engine only; the session is only read (the
        time on the card and its maturity, for the suggested rating)."""
        from recall.errors import GradingError
        from recall.grading import grade
        from recall.tui.presenting import feedback_view
        from recall.verdicts import Status

        original = self.services.card(card.key)
        started = time.perf_counter()
        try:
            asked = self._questions.get(card.key, original)
            verdict = grade(asked, text, others=self._others(original))
        except GradingError as error:
            return FeedbackView(
                outcome=Status.INVALID,
                answer=text,
                headline="This card cannot be graded",
                diagnosis=f"{error} (Ctrl-S skips it; Ctrl-E opens its file)",
            )
        suggested = self.session.suggest(verdict.status, used_hint=hinted)
        rating = None if suggested is None else Rating(int(suggested))
        view = feedback_view(original, text, verdict, rating)
        return replace(view, grading_ms=(time.perf_counter() - started) * 1000)

    def _others(self, card: Card) -> tuple[str, ...]:
        """Names from the card's neighbours, so a typo is never forgiven toward one of them."""
        if not card.accept:
            return ()
        deck = self.services._deck(card.deck_id)
        if deck is None:
            return ()
        return tuple(name for other in deck.cards if other.id != card.id for name in other.accept)

    # ------------------------------------------------------------------ recording

    def record(
        self,
        card: CardView,
        rating: Rating,
        feedback: FeedbackView | None,
        hinted: bool = False,
    ) -> None:
        """Rate the current card; the session commits the review before this returns."""
        from recall.verdicts import Status

        verdict = Status.SELF if feedback is None else feedback.outcome
        asked = self._questions.get(card.key)
        suggested = None
        if feedback is not None and feedback.suggested is not None:
            suggested = feedback.suggested
        self.session.record(
            verdict=verdict,
            rating=rating,
            suggested=suggested,
            diagnosis=(feedback.diagnosis_kind or None) if feedback else None,
            answer=feedback.answer if feedback else None,
            hint_used=hinted,
            seed=asked.seed if asked else None,
            params=asked.params if asked else None,
        )

    def undo(self) -> CardView | None:
        """Undo this session's last review; that card is asked again (the one on screen goes
        back to the front of the queue)."""
        card = self.session.undo()
        return None if card is None else self._view(card)

    def skip(self) -> bool:
        """Ask the card on screen later in the session (nothing is recorded); ``False`` when
        it is the only card left."""
        return self.session.set_aside(requeue=True)

    def bury(self) -> None:
        """Hide the card on screen until the next study day."""
        from recall.scheduling import today_bounds

        stored = self.session.current_state
        if stored is None:
            return
        settings = self.services.settings
        _start, tomorrow = today_bounds(self.services.clock(), settings.day_rollover_hour)
        self.services.store.bury([stored.db_id], tomorrow)
        self.session.set_aside(requeue=False)

    def suspend(self) -> None:
        """Take the card on screen out of every queue until it is unsuspended."""
        stored = self.session.current_state
        if stored is None:
            return
        self.services.store.set_suspended(stored.db_id, True)
        self.session.set_aside(requeue=False)

    def reload(self, card: CardView) -> CardView | None:
        """Re-read the card's deck file after an edit (the old card stays if the file broke)."""
        from recall.cards.loader import read_deck
        from recall.grading import check_deck

        if not card.path:
            return None
        builtin = Path(card.path).resolve().is_relative_to(_builtin_dir().resolve())
        deck, _errors = read_deck(card.path, builtin=builtin, check=check_deck)
        if deck is None:
            return None
        for fresh in deck.cards:
            self.services._cards[fresh.key] = fresh
        self.services.store.sync_decks([deck], self.services.clock())
        if card.key not in self.services._cards:
            return None
        from recall.grading import Question

        fresh = self.services.card(card.key)
        old = self._questions.get(card.key)  # the same values, if the parameters still fit
        return self._view(fresh, Question.draw(fresh, old.seed if old else None))

    # ------------------------------------------------------------------ the budget

    def pause(self) -> None:
        self.session.pause()

    def resume(self) -> None:
        self.session.resume()

    def seconds_left(self) -> float | None:
        remaining = self.session.remaining_seconds
        return None if remaining is None else max(0.0, remaining)

    def cards_left(self) -> int | None:
        budget = self.session.budget
        if budget.kind != "cards" or budget.value is None:
            return None
        return max(0, int(budget.value) - self.session.cards_done)

    def budget_spent(self) -> bool:
        """Time or cards used up (checked between cards: the current card is always finished)."""
        return self.session.finished

    def reviewed(self) -> int:
        return self.session.cards_done

    # ------------------------------------------------------------------ the end

    def release(self) -> None:
        """Let go of the session without ending it (the app is closing mid-session), so the
        next window offers to resume it at once."""
        if self._summary is None:
            self.session.release()

    def finish(self) -> SummaryView:
        """End the session in the store and return its summary (from the log)."""
        if self._summary is None:
            self.session.resume()
            self._summary = self.session.end()
        return summary_view(self._summary, self.services)


def summary_view(summary: SessionSummary, services: Services) -> SummaryView:
    """The session layer's summary as the summary screen shows it (answers rendered)."""
    from recall.tui.presenting import reference_rendered
    from recall.tui.views import MissedCard

    missed = []
    for item in summary.missed:
        card = services._cards.get(item.key)
        reference = reference_rendered(card) if card is not None else item.right_answer
        missed.append(
            MissedCard(
                key=item.key,
                prompt=item.prompt or item.key,
                answer=item.typed or "",
                reference=reference or item.right_answer,
            )
        )
    by_kind = summary.by_kind
    return SummaryView(
        reviews=summary.reviews,
        cards=summary.cards,
        new=by_kind.get("new", 0),
        review=by_kind.get("review", 0) + by_kind.get("learning", 0),
        relearn=by_kind.get("relearn", 0),
        off_schedule=by_kind.get("off_schedule", 0),
        first_try_accuracy=summary.first_try_accuracy,
        median_seconds=summary.median_seconds or 0.0,
        elapsed_seconds=summary.seconds_on_cards,
        missed=tuple(missed),
        mistakes=tuple(summary.mistakes),
        leeches=tuple(summary.leeches),
        due_tomorrow=summary.due_tomorrow,
        due_week=summary.due_next_7_days,
        streak_days=summary.streak_days,
        mode=summary.mode,
    )


def _builtin_dir() -> Path:
    from recall.paths import builtin_decks_dir

    return builtin_decks_dir()


def _warm_engine() -> None:
    """Import SymPy, NumPy and the engine, and read one expression end to end."""
    import numpy  # noqa: F401 - the scheduler's retrievability (weakest N, stats) uses it

    from recall.formula import SymbolTable, parse, render

    table = SymbolTable.build(variables={"x": "real"})
    render(parse("sqrt(x^2 + 1)/2", table), table)


def _error_line(error: BaseException) -> str:
    """A deck error without its path (the screens show the file name once, beside it)."""
    from recall.errors import DeckError

    if not isinstance(error, DeckError):
        return str(error)
    text = f"line {error.line}: " if error.line is not None else ""
    if error.card_id:
        text += f"card '{error.card_id}': "
    text += error.message
    if error.suggestion:
        text += f" ({error.suggestion})"
    return text


def _haystack(card: Card) -> str:
    return " ".join(
        (card.key, card.prompt, card.answer, card.text, card.model_answer, " ".join(card.tags))
    ).lower()


def _draft_problems(draft: CardDraft) -> list[str]:
    """What the loader would not explain well for a form (empty fields)."""
    problems = []
    if not draft.deck_id:
        problems.append("deck id: required")
    if not draft.id:
        problems.append("card id: required")
    if not draft.prompt:
        problems.append("prompt: required")
    if draft.kind in ("formula", "fact") and not draft.answer:
        problems.append("answer: required")
    if draft.kind == "reverse" and not draft.accept:
        problems.append("answer: give at least one accepted name")
    if draft.kind == "explain" and not draft.model_answer:
        problems.append("answer: the model answer is required")
    return problems
