"""The TUI's adapter over the workspace: what the screens ask for, as plain views.

Screens call these methods and get views back (:mod:`recall.tui.views`); they never see a
database row, a SymPy object or a scheduler state. Loading, syncing and every store call happen
in :class:`recall.workspace.Workspace`; this module only turns its answers into views. Every
import of a heavy layer happens inside a method, so importing this module costs nothing before
the first frame.

Threads: :meth:`Services.load` runs in the app's load worker; a drill's preview and grading run
in workers (see :mod:`recall.tui.drill_run`); every other call runs on the event loop.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from recall.clock import Clock, utc_now
from recall.paths import redact_url
from recall.session.mode import Mode
from recall.tui.views import (
    CardView,
    DeckFailure,
    DeckRow,
    EmptyOffer,
    HomeData,
    PreviewView,
    SessionPlan,
    StatsView,
    TodayView,
)
from recall.wording import key_name

if TYPE_CHECKING:
    from recall.cards.model import Card
    from recall.config import Settings
    from recall.scheduling.today import TodayPlan
    from recall.tui.card_writer import CardDraft
    from recall.tui.drill_run import DrillRun
    from recall.tui.home_prefetch import Prefetch
    from recall.workspace import Workspace


class Services:
    """The facade. ``settings`` are the learner's (read once at start; ``None``: read them at
    the first load); ``clock`` is the time source (tests pass a fake one); ``deck_dirs``
    overrides where decks are loaded from; ``custom_decks`` the custom deck folder; ``db_url``
    the database (default: ``RECALL_DB`` or the SQLite file); ``learner`` the learner's name in
    it (``--learner``; ``None``: see :func:`recall.store.open_store`). :attr:`prefetch` is set
    by the command line's launch: a child process computing the first home data with these
    same arguments (:mod:`recall.tui.home_prefetch`)."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        clock: Clock | None = None,
        deck_dirs: Sequence[Path] | None = None,
        custom_decks: Path | None = None,
        db_url: str | None = None,
        learner: str | None = None,
        defer_checks: bool = False,
    ) -> None:
        self.clock: Clock = clock or utc_now
        #: Custom decks never checked before are checked after the first counts
        #: (:meth:`check_pending`), not before them.
        self.defer_checks = defer_checks
        self.learner = learner
        self.deck_dirs = list(deck_dirs) if deck_dirs is not None else None
        self.custom_decks = custom_decks
        self.db_url = db_url
        self._settings = settings
        self._workspace: Workspace | None = None
        #: The prefetching child of a start from the command line (see :meth:`prefetched`).
        self.prefetch: Prefetch | None = None
        self.closed = False
        #: Told each loading step in words ("Loading decks 5/17…"), from the load worker's
        #: thread; the home screen sets it to post the words to itself.
        self.progress: Callable[[str], None] | None = None

    # ------------------------------------------------------------------ loading

    def prefetched(self) -> HomeData | None:
        """The first home data, from the child process the launch started (a worker: blocks
        until it is sent, without holding the interpreter's lock); ``None`` when there is
        none, it failed, or it was asked for before. Only for showing: anything that acts on
        the data waits for :meth:`load`, which opens this process's own workspace."""
        prefetch = self.prefetch
        return prefetch.receive() if prefetch is not None else None

    def load(self) -> HomeData:
        """Open the workspace (decks loaded and synced) or reload it, and count (a worker).
        Each step is told to :attr:`progress`, when a screen has set it."""
        try:
            return self._load()
        finally:
            # The child's counts are moot once this load is in (or has failed: its failure is
            # what the screen says). Killed without waiting: a child inside an fsync goes
            # when the disk is done, and this load's counts are not held back for it.
            if self.prefetch is not None:
                self.prefetch.abandon()

    def _load(self) -> HomeData:
        progress = self.progress
        if self._workspace is None:
            from recall.workspace import Workspace

            self._workspace = Workspace.open(
                self.settings,
                self.deck_dirs,
                self.db_url,
                custom_decks=self.custom_decks,
                clock=self.clock,
                progress=progress,
                learner=self.learner,
                # Decks parsed afresh reach the parsed-deck cache after the counts are shown
                # (:meth:`warm`), not before: a first start's home is up 0.15 s sooner.
                defer_cache_writes=True,
                defer_checks=self.defer_checks,
            )
        else:
            self._workspace.reload(progress=progress)
        if progress is not None:
            progress("Counting today's cards…")
        return self.home()

    def check_pending(self) -> HomeData:
        """Check the custom decks the load left for later with the formula engine, bring them
        into the store and recount (a worker, once counts saying some were left are on
        screen): the home data with them (their failures listed with the others). Recounted
        even when another reload has checked them meanwhile, so the screen never keeps a
        "checking" line nothing will clear. What was parsed reaches the parsed-deck cache
        with :meth:`write_parse_cache` (after the counts are shown), so the next start finds
        these decks checked."""
        self.workspace.check_pending()
        return self.home()

    def write_parse_cache(self) -> None:
        """Write the decks parsed afresh into the parsed-deck cache (a worker)."""
        if self._workspace is not None:
            self._workspace.write_parse_cache()

    def warm(self) -> None:
        """Import SymPy and the engine and read one expression end to end, so the first
        preview and grading do not pay for the import, then draw the cards' formulas for the
        next start's first prompt (:mod:`recall.tui.shown_cache`) and write the decks parsed
        afresh into the parsed-deck cache (called from a worker)."""
        import numpy  # noqa: F401 - the scheduler's retrievability (weakest N, stats) uses it

        from recall.formula import SymbolTable, parse, render

        table = SymbolTable.build(variables={"x": "real"})
        render(parse("sqrt(x^2 + 1)/2", table), table)
        if self._workspace is not None:  # the next start shows them without importing SymPy
            from recall.tui.presenting import remember_shown_formulas

            # A copy: a reload on the UI thread may change the card map while this runs.
            remember_shown_formulas(list(self._workspace.cards.values()))
            self._workspace.write_parse_cache()

    @property
    def workspace(self) -> Workspace:
        if self._workspace is None:
            raise RuntimeError("the workspace is opened by Services.load() first")
        return self._workspace

    @property
    def settings(self) -> Settings:
        if self._settings is None:
            from recall.tui.settings import read_settings

            self._settings, _problem = read_settings()
        return self._settings

    def card(self, key: str) -> Card:
        return self.workspace.card(key)

    def home(self) -> HomeData:
        """Recount without reloading the decks."""
        from recall.cards.deck_names import shown_deck_names
        from recall.tui.presenting import deck_error_line

        workspace = self.workspace
        # One load's decks, failures and pending files, though a worker may reload meanwhile.
        loaded = workspace.loaded
        today = workspace.today()
        plan = today.plan
        rows = []
        # A deck's new cards include those buried with a sibling today: the same count of
        # cards waiting as the plan's, the dialogs' and `recall today`'s.
        buried = workspace.store.buried_new_by_deck()
        names = shown_deck_names(loaded.decks)
        for deck in loaded.decks:
            count = today.counts.get(deck.id)
            planned = plan.by_deck.get(deck.id)
            rows.append(
                DeckRow(
                    id=deck.id,
                    name=names[deck.id],
                    topic=deck.topic or names[deck.id],
                    builtin=deck.builtin,
                    cards=len(deck.cards),
                    new=(count.new if count else 0) + buried.get(deck.id, 0),
                    learning=count.learning if count else 0,
                    due=count.due if count else 0,
                    path=deck.path,
                    description=deck.description,
                    today=planned.total if planned else 0,
                    new_today=planned.new if planned else 0,
                    review_today=planned.review if planned else 0,
                )
            )
        failures = []
        for failure in loaded.failures:
            first = failure.errors[0] if failure.errors else None
            failures.append(
                DeckFailure(
                    path=failure.path,
                    message="\n".join(deck_error_line(e) for e in failure.errors) or "did not load",
                    line=getattr(first, "line", None),
                    card_id=getattr(first, "card_id", None),
                )
            )
        unfinished, done = self._unfinished()
        synced = workspace.last_sync
        return HomeData(
            decks=tuple(rows),
            failures=tuple(failures),
            shared_decks_behind=synced.behind if synced is not None else (),
            streak_days=today.streak_days,
            reviewed_today=today.reviewed_today,
            forecast=today.forecast,
            database=redact_url(self.db_url) if self.db_url else "",
            unfinished=unfinished,
            unfinished_done=done,
            new_allowance=today.new_left,
            review_allowance=today.reviews_left,
            today=today_view(plan, today.due_tomorrow, today.extra_new, today.exam),
            checking=len(loaded.pending),
        )

    def _unfinished(self) -> tuple[SessionPlan | None, int]:
        """A recent session that never ended and has reviews, as a plan that resumes it."""
        found = self.workspace.unfinished()
        if found is None:
            return None, 0
        info = found.info
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
        return plan, found.reviews

    # ------------------------------------------------------------------ sessions

    def begin(self, plan: SessionPlan) -> DrillRun:
        """Start a drill session for ``plan``."""
        from recall.tui.drill_run import DrillRun  # with the session: not needed for home

        return DrillRun(self.workspace, plan)

    def empty_offer(self, plan: SessionPlan) -> EmptyOffer | None:
        """``None`` when ``plan`` has cards to drill; else what can be done instead (a normal
        session whose cards are all done today, or held back by the new-card limits): the
        workspace's answer (:meth:`recall.workspace.Workspace.empty_scope`) as a view."""
        if plan.mode is not Mode.NORMAL or plan.card_keys or plan.resume_id is not None:
            return None
        workspace = self.workspace
        empty = workspace.empty_scope(plan.deck_ids or None, plan.topic)
        if empty is None:
            return None
        return EmptyOffer(
            asked=plan,
            scope=self._scope(plan),
            today=today_view(empty.plan, 0, workspace.extra_new_today()),
            held_back=empty.held_back,
            own_limit=empty.own_limit,
            reviewed=empty.reviewed,
            cards=empty.cards,
            learning_later=empty.learning_later,
            unknown=self._unknown_scope(plan),
        )

    def _unknown_scope(self, plan: SessionPlan) -> str:
        """A sentence naming the deck or topic ``plan`` asks for that no deck has (``recall
        drill --deck activaton``), with the nearest that exists; "" when every one exists."""
        from recall.cards.problems import did_you_mean
        from recall.inert import quote

        decks = self.workspace.decks
        known = [deck.id for deck in decks]
        for deck_id in plan.deck_ids:
            if deck_id not in known:
                hint = did_you_mean(deck_id, known) or "`recall decks list` lists them"
                return f"There is no deck '{quote(deck_id)}' ({hint})."
        topics = sorted(
            {deck.topic for deck in decks if deck.topic}
            | {card.topic for card in self.workspace.cards.values() if card.topic}
        )
        if plan.topic and plan.topic not in topics:
            hint = did_you_mean(plan.topic, topics) or "the home screen's Topic column lists them"
            return f"There is no topic '{quote(plan.topic)}' ({hint})."
        return ""

    def scope_cards(self, decks: Sequence[str] | None, topic: str | None) -> tuple[int, int]:
        """(cards that can be drilled, of them the ones reviewed before): see
        :meth:`recall.workspace.Workspace.scope_cards`."""
        return self.workspace.scope_cards(decks, topic)

    def missed_last_time(self) -> tuple[int, int] | None:
        """See :meth:`recall.workspace.Workspace.missed_last_time`."""
        return self.workspace.missed_last_time()

    def _scope(self, plan: SessionPlan) -> str:
        if plan.deck_ids:
            shown = self.workspace.deck_names
            names = [shown[deck_id] for deck_id in plan.deck_ids if deck_id in shown]
            return "deck " + ", ".join(names or plan.deck_ids)
        if plan.topic:
            return f"topic {plan.topic}"
        return "every deck"

    def exam_text(self, date_text: str, deck_ids: Sequence[str] = (), narrowing: str = "") -> str:
        """``recall exam``'s plan for the date typed (every deck, or ``deck_ids``), as text,
        ``narrowing`` saying how the dialog chooses fewer decks; ``ValueError`` with the
        reason for a date or a choice that does not work."""
        from recall.errors import ConfigError
        from recall.planning import render_exam

        try:
            plan = self.workspace.plan_exam(date_text, decks=deck_ids)
        except ConfigError as error:
            raise ValueError(str(error)) from None
        return render_exam(plan, narrowing)

    def follow_exam(self, date_text: str, deck_ids: Sequence[str] = ()) -> str:
        """Follow the exam plan for the date typed (every deck, or ``deck_ids``); what
        happened, in words. ``ValueError`` with the reason for a date that does not work."""
        from recall.errors import ConfigError

        try:
            plan = self.workspace.follow_exam(date_text, decks=deck_ids)
        except ConfigError as error:
            raise ValueError(str(error)) from None
        if not plan.feasible:
            return "Not followed: no plan fits (Enter shows why and what would)."
        return (
            f"Following the plan until {plan.exam.isoformat()}: each day's new cards and "
            "retention come from it, the last days are reviews only, weakest first. "
            f"{key_name('ctrl+b')} stops following it."
        )

    def followed_exam(self) -> tuple[str, tuple[str, ...]] | None:
        """The followed exam plan's day (ISO) and decks, when it is one the exam dialog can
        show (one planned for decks, not for a topic); else ``None``."""
        guidance = self.workspace.exam_guidance()
        if guidance is None or guidance.followed.topic is not None:
            return None
        return guidance.followed.exam.isoformat(), guidance.followed.decks

    def stop_following_exam(self) -> str:
        """Back to the normal schedule, in words."""
        if self.workspace.stop_following_exam():
            return "Stopped following the exam plan: back to the normal schedule."
        return "No exam plan is followed."

    def learn_more_today(self, count: int) -> int:
        """Raise today's new-card limit by ``count`` (today only); the day's raise in all."""
        return self.workspace.learn_more_today(count)

    # ------------------------------------------------------------------ browsing decks

    def cards(self, deck_id: str | None, search: str = "") -> tuple[CardView, ...]:
        """Cards of one deck (or all), filtered by a case-insensitive search of id, prompt,
        answer and tags."""
        from recall.tui.presenting import card_view

        if self._workspace is None:
            return ()
        needle = search.lower().strip()
        out = []
        for deck in self._workspace.decks:
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

        original = self.workspace.cards.get(card.key)
        return reference_rendered(original) if original is not None else ""

    def custom_deck_ids(self) -> tuple[str, ...]:
        if self._workspace is None:
            return ()
        return tuple(deck.id for deck in self._workspace.decks if not deck.builtin)

    def draft_of(self, card: CardView) -> CardDraft | None:
        """The form's draft of a custom card (``None`` for kinds the form does not edit)."""
        original = self.workspace.cards.get(card.key)
        from recall.tui.card_writer import draft_from_card

        return None if original is None else draft_from_card(original)

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
        """Write the card into its custom deck (a built-in deck is never written to) and
        validate the deck with the real loader; the errors, or an empty list when saved."""
        deck = self.workspace.deck(draft.deck_id)
        if deck is not None and not deck.builtin and deck.path:
            path = Path(deck.path)
        else:
            path = self.workspace.custom_folder() / f"{draft.deck_id}.toml"
        from recall.tui.card_writer import save_draft

        return save_draft(path, draft, line)

    # ------------------------------------------------------------------ stats

    def stats(self, days: int = 26 * 7) -> StatsView:
        """The stats screen's figures, from the review log."""
        figures = self.workspace.stats(days=days, forecast_days=30)

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
        """Close the store (every review is already committed); a prefetching child still
        running is ended and reaped."""
        self.closed = True
        if self.prefetch is not None:
            self.prefetch.close()
        if self._workspace is not None:
            self._workspace.close()


def today_view(
    plan: TodayPlan, due_tomorrow: int, extra_new: int = 0, exam: tuple[str, ...] = ()
) -> TodayView:
    """The home screen's view of today's plan (the numbers ``recall today`` prints)."""
    counts = plan.counts
    return TodayView(
        new=counts.new,
        learning=counts.learning,
        review=counts.review,
        minutes=plan.minutes,
        new_limit=plan.new_limit.limit,
        new_spent=plan.new_limit.spent,
        new_extra=extra_new,
        new_waiting=plan.new_waiting,
        review_limit=plan.review_limit.limit,
        review_spent=plan.review_limit.spent,
        due_tomorrow=due_tomorrow,
        pace_measured=plan.pace.measured,
        exam=exam,
    )


def _haystack(card: Card) -> str:
    return " ".join(
        (card.key, card.prompt, card.answer, card.text, card.model_answer, " ".join(card.tags))
    ).lower()
