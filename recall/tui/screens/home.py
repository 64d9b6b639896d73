"""The home screen: the decks with what each holds, today's plan, and one key to start.

It is the first thing painted, so it is built from cheap modules only and shows the load
worker's progress ("Loading decks 5/17…", caught up with five times a second) until the app's
load worker posts :class:`recall.tui.messages.HomeLoaded`. Keys pressed meanwhile are queued
and run once the decks are in (``s`` while loading starts the session as soon as it can). On a
start from the command line the counts may come first from a child process
(:mod:`recall.tui.home_prefetch`): they are shown at once, and keys are still queued until the
app's own load is in, since only that load's workspace can start a session.

The numbers add up: each row is what its deck holds (new, learning steps due today, due
reviews) and how many of its cards today's plan takes; the header is today's plan itself, the
one ``recall today`` prints (new / learning / due, the minutes), what the new-card limit has
left, and the forecast's "due tomorrow". A session that would have nothing to drill is not
started: the learner is told why and offered more new cards today, review ahead, or cram.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Header, Sparkline, Static

from recall.inert import inert
from recall.session import Mode
from recall.tui.plain import plain
from recall.tui.screens.base import RecallScreen
from recall.tui.views import DeckRow, EmptyOffer, HomeData, SessionPlan, TodayView
from recall.tui.widgets.footer import Footer
from recall.wording import REVIEW_AHEAD, count_of, plural

if TYPE_CHECKING:
    from textual.timer import Timer

    from recall.tui.screens.today_dialogs import OfferChoice

#: Size of the "weakest N" session (also "review ahead").
WEAKEST_COUNT = 20

#: What a queued key does, in the loading line ("s: starts once loaded").
QUEUED_WORDS = {
    "start": "a session starts",
    "custom": "the session dialog opens",
    "deck": "this deck's session starts",
    "topic": "this topic's session starts",
    "cram": "cram starts",
    "weakest": "the weakest cards start",
    "missed": "the missed cards start",
    "resume": "the unfinished session resumes",
    "stats": "stats open",
    "decks": "the decks open",
    "more": "learn more opens",
    "exam": "the exam plan opens",
    "reload": "the decks reload",
}


#: How often the loading line catches up with the load worker's steps (seconds). A repaint per
#: step (about twenty on every start: "Loading decks 5/17…") cost the event loop 0.03 s of CPU
#: taken from the load itself, for words a second start shows for a fraction of a second.
PROGRESS_EVERY = 0.2


class HomeScreen(RecallScreen):
    """Decks grouped by topic with new / learning / due counts, and the session launchers."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Footer labels are short so the footer fits 80 columns; the tooltip is what the help
        # and the palette say. Cram and q are in both, not in the footer (Ctrl-Q quits there).
        Binding("s", "start", "Start", id="home.start", tooltip="Start a session"),
        # The keys that open a dialog with a field are priority bindings: they run as the app
        # reads them, so the keys typed after them wait for the field (recall.tui.type_ahead).
        Binding(
            "l", "custom", "Custom", id="home.custom", tooltip="Choose a session", priority=True
        ),
        Binding("d", "deck", "One deck", id="home.deck", tooltip="Drill this deck"),
        Binding("o", "topic", "This topic", id="home.topic", show=False),
        Binding("c", "cram", "Cram", id="home.cram", show=False),
        Binding(
            "w",
            "weakest",
            f"{REVIEW_AHEAD.capitalize()} (the weakest {WEAKEST_COUNT})",
            id="home.weakest",
            show=False,
        ),
        Binding("m", "missed", "Missed last time", id="home.missed", show=False),
        Binding("u", "resume", "Resume unfinished", id="home.resume", show=False),
        Binding("t", "stats", "Stats", id="home.stats"),
        Binding("b", "decks", "Decks", id="home.decks"),
        Binding("r", "reload", "Reload decks", id="home.reload", show=False),
        Binding("n", "more", "Learn more today", id="home.more", show=False, priority=True),
        Binding("x", "exam", "Exam plan", id="home.exam", show=False, priority=True),
        Binding("q", "app.quit", "Quit", id="home.quit", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        #: Reviews or edits changed the data since the counts were shown (set by the app on
        #: :class:`recall.tui.messages.DataChanged`): recount when shown again.
        self._stale = False
        #: Actions asked for while the decks were loading, run in order once they are in.
        self._queued: list[str] = []
        #: A normal session asked for while custom decks were still being checked that found
        #: nothing to drill yet: started (or answered) once their cards are in, never met with
        #: "nothing left today" while cards may be on their way.
        self._after_checks: SessionPlan | None = None
        #: The screen is narrow (:attr:`RecallScreen.narrow`, set when mounted).
        self._narrow = False
        #: The load worker is at work (its progress is shown; once the counts are in, a late
        #: progress message is ignored).
        self._loading = True
        #: The counts shown are the prefetching child's (:meth:`show_data` ``early``): the
        #: load is still at work, and keys wait for it as while loading.
        self._early: HomeData | None = None
        #: The load worker died (:meth:`show_failure`): what it said, until a load succeeds.
        self._failure: str | None = None
        self._progress = "Loading decks…"
        #: The load worker's latest step in words (set from its thread; shown by the timer).
        self._latest_progress: str | None = None
        self._progress_timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False, icon="∑")
        with Vertical(id="home-body"):
            with Horizontal(id="today"):
                yield Static("Loading decks…", id="today-figures")
                yield Sparkline([], id="forecast", summary_function=max)
            yield Static("", id="home-resume")
            yield Static("", id="home-problems")
            yield DataTable(id="decks", cursor_type="row", zebra_stripes=False)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#decks", DataTable)
        self._narrow = self.narrow
        self._add_columns(table)
        table.focus()
        self.query_one("#forecast", Sparkline).display = False  # until there is a forecast
        self.services.progress = self._post_progress
        self._progress_timer = self.set_interval(PROGRESS_EVERY, self._follow_progress)
        if self.recall.home_data is not None:
            self.show_data(self.recall.home_data)
        self.call_after_refresh(self.recall.first_frame_painted)

    # ------------------------------------------------------------------ data in

    def _add_columns(self, table: DataTable[object]) -> None:
        """The deck table's columns: on a narrow screen without the topic (the decks stay
        grouped by it) and with a deck column that leaves room for the counts."""
        if not self._narrow:
            table.add_column("Topic", key="topic", width=TOPIC_WIDTH)
        table.add_column("Deck", key="deck", width=self._deck_width())
        table.add_column("New", key="new", width=5)
        table.add_column("Learn", key="learn", width=5)
        table.add_column("Due", key="due", width=5)
        table.add_column("Today", key="today", width=5)

    def _deck_width(self) -> int:
        if not self._narrow:
            return DECK_WIDTH
        # Each column has a cell of padding on both sides; the scrollbar takes two more.
        return max(8, self.app.size.width - 4 * (5 + 2) - 2 - 2)

    def on_resize(self) -> None:
        """Becoming narrow or wide again (:attr:`RecallScreen.narrow`) rebuilds the table for
        the new width: narrow, it leaves out the topic column and the forecast, so each deck's
        name and counts stay whole."""
        narrow = self.narrow
        if narrow == self._narrow:
            return
        self._narrow = narrow
        table = self.query_one("#decks", DataTable)
        selected = self.selected_deck()
        table.clear(columns=True)
        self._add_columns(table)
        shown = self._early or (None if self._loading else self.recall.home_data)
        if shown is not None:
            self._fill_table(shown, selected)
            self.query_one("#forecast", Sparkline).display = not narrow

    def _fill_table(self, data: HomeData, selected: DeckRow | None) -> None:
        table = self.query_one("#decks", DataTable)
        table.clear()
        previous_topic = None
        deck_width = self._deck_width()
        for deck in sorted(data.decks, key=lambda d: (d.topic.lower(), d.name.lower())):
            topic = _fit(deck.topic, TOPIC_WIDTH) if deck.topic != previous_topic else ""
            previous_topic = deck.topic
            name = _fit(deck.name if deck.builtin else f"{deck.name} (mine)", deck_width)
            counts = (
                _count(deck.new, "new"),
                _count(deck.learning, "learning"),
                _count(deck.due, "due"),
                _count(deck.today, "today"),
            )
            if self._narrow:
                table.add_row(plain(name), *counts, key=deck.id)
            else:
                table.add_row(plain(topic, "bold"), plain(name), *counts, key=deck.id)
        if selected is not None and selected.id in table.rows:
            table.move_cursor(row=table.get_row_index(selected.id))

    def show_data(self, data: HomeData, *, early: bool = False) -> None:
        """Fill the table and the figures from the load worker's result, then run the keys
        pressed while it was loading. ``early``: the prefetching child's counts, shown while
        the load goes on (keys pressed meanwhile wait for it), never after it failed."""
        if early and self._failure is not None:
            return
        self._fill_table(data, self.selected_deck())
        self._early = data if early else None
        if not early:
            self._loading = False
            self._failure = None
            if self._progress_timer is not None:
                self._progress_timer.pause()  # until a reload: no ticks while nothing loads
        if early and self._queued:
            self._show_loading()  # the keys waiting stay said
        else:
            self.query_one("#today-figures", Static).update(today_figures(data))
        # On a narrow screen the header's lines take the whole width (the forecast is a nicety).
        self.query_one("#forecast", Sparkline).display = not self._narrow
        self.query_one("#forecast", Sparkline).data = list(data.forecast) or [0]
        resume = self.query_one("#home-resume", Static)
        if data.unfinished is not None:
            resume.update(
                Text.assemble(
                    ("An unfinished session ", "bold"),
                    # Not "resumed": this session has not been resumed (yet).
                    f"({replace(data.unfinished, resume_id=None).describe()}, "
                    f"{data.unfinished_done} done) ",
                    ("u resumes it", "dim"),
                )
            )
        resume.display = data.unfinished is not None
        problems = self.query_one("#home-problems", Static)
        lines: list[Text] = []
        if data.checking:
            # New or edited custom decks: their cards are counted and offered once the formula
            # engine has checked them (a worker, started now; the counts follow by themselves).
            lines.append(
                Text.assemble(
                    (f"Checking {count_of(data.checking, 'custom deck file')}… ", "bold"),
                    ("their cards join when checked", "dim"),
                    (
                        ("; then the session starts (Esc forgets)", "dim")
                        if self._after_checks is not None
                        else ""
                    ),
                )
            )
        if data.failures:
            # One short line that always fits: the problems themselves are listed in full,
            # every one of every file, in one place (b, the decks screen), not cut off here.
            files = count_of(len(data.failures), "deck file")
            found = sum(len(f.message.splitlines()) or 1 for f in data.failures)
            lines.append(
                Text.assemble(
                    (f"{files} did not load ({count_of(found, 'problem')}): ", "bold"),
                    ("b lists them all", "dim"),
                )
            )
        if data.shared_decks_behind:
            # A shared database's decks from another recall version: the learner cannot change
            # them (the owner syncs them); one line, the command in full (recall decks sync).
            decks = count_of(len(data.shared_decks_behind), "shared deck")
            lines.append(
                Text.assemble(
                    (f"{decks} from another recall version: ", "bold"),
                    ("the owner runs recall decks sync", "dim"),
                )
            )
        problems.update(Text("\n").join(lines))
        problems.display = bool(lines)
        if early:
            return
        self._run_queued()
        if not data.checking and self._after_checks is not None:
            plan, self._after_checks = self._after_checks, None
            if self.app.screen is self:
                self.start_checked(plan)

    # ------------------------------------------------------------------ loading

    def _post_progress(self, text: str) -> None:
        """Called from the load worker's thread: keep the words for the loading line's next
        tick (:meth:`_follow_progress`; one attribute set, no message and no repaint)."""
        self._latest_progress = text

    def _follow_progress(self) -> None:
        """Show the load worker's latest step, if it is new (every :data:`PROGRESS_EVERY`
        seconds while loading)."""
        text = self._latest_progress
        if self._loading and text is not None and text != self._progress:
            self._progress = text
            if self._early is None or self._queued:  # early counts stay until a key waits
                self._show_loading()

    def _show_loading(self) -> None:
        if self._early is not None and not self._queued:
            self.query_one("#today-figures", Static).update(today_figures(self._early))
            return
        line = Text(self._progress, style="bold")
        if self._queued:
            line.append("\nthen " + ", then ".join(QUEUED_WORDS[a] for a in self._queued))
            line.append(" (Esc forgets)", style="dim")
        self.query_one("#today-figures", Static).update(line)

    def show_failure(self, message: str) -> None:
        """The load worker died (``message``: its error; see
        :meth:`recall.tui.app.RecallApp._home_load_failed`): say so where the counts go, with
        what can be done (r loads again), and drop the keys that waited for the load, which
        will not come. Counts the prefetching child showed go too: they looked ready, and
        nothing could act on them."""
        self._failure = message
        self._queued.clear()
        self._loading = False
        if self._progress_timer is not None:
            self._progress_timer.pause()
        if self._early is not None:
            self._early = None
            self.query_one("#decks", DataTable).clear()
            self.query_one("#forecast", Sparkline).display = False
            self.query_one("#home-resume", Static).display = False
            self.query_one("#home-problems", Static).display = False
        self._say_failure()

    def _say_failure(self) -> None:
        line = Text("Loading failed: ", style="bold")
        line.append(inert(self._failure or "", one_line=True))
        line.append("\nr loads again, q quits", style="dim")
        self.query_one("#today-figures", Static).update(line)

    def _run_queued(self) -> None:
        """Run the actions asked for while loading, in order, until one opens a screen."""
        queued, self._queued = self._queued, []
        for name in queued:
            getattr(self, f"action_{name}")()
            if self.app.screen is not self:
                break

    def key_escape(self) -> None:
        """Forget the keys queued while loading, and a session waiting for the checks."""
        if self._queued:
            self._queued.clear()
            self._show_loading()
        if self._after_checks is not None:
            self._after_checks = None
            if self.recall.home_data is not None:
                self.show_data(self.recall.home_data)

    # ------------------------------------------------------------------ helpers

    def selected_deck(self) -> DeckRow | None:
        data = self._early or self.recall.home_data
        table = self.query_one("#decks", DataTable)
        if data is None or table.row_count == 0:
            return None
        try:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        except Exception:  # noqa: BLE001 - an empty or stale cursor means "no deck"
            return None
        return next((deck for deck in data.decks if deck.id == key), None)

    @property
    def _minutes(self) -> float:
        """The learner's default session length (``session_minutes``, ten unless changed)."""
        return self.recall.settings.session_minutes

    def _ready(self, action: str | None = None) -> bool:
        """Whether the decks are in; if not, ``action`` is queued to run once they are (after
        a failed load it is not: the failure is said again)."""
        if self._failure is not None:
            self._say_failure()
            self.app.bell()
            return False
        if self.recall.home_data is not None and not self._loading:
            return True
        if action is not None and action not in self._queued:
            self._queued.append(action)
        self._show_loading()
        return False

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a deck drills that deck."""
        event.stop()
        self.action_deck()

    # ------------------------------------------------------------------ actions

    def action_start(self) -> None:
        if self._ready("start"):
            self.start_checked(SessionPlan(minutes=self._minutes))

    def action_custom(self) -> None:
        from recall.tui.screens.dialogs import SessionDialog

        if not self._ready("custom"):
            return
        deck = self.selected_deck()
        self.recall.open_typed_into(
            SessionDialog(deck.id if deck else None, deck.topic if deck else None),
            self._start_if_chosen,
        )

    def _start_if_chosen(self, plan: SessionPlan | None) -> None:
        if plan is not None:
            self.start_checked(plan)

    def action_deck(self) -> None:
        if not self._ready("deck"):
            return
        deck = self.selected_deck()
        if deck is not None:
            self.start_checked(SessionPlan(minutes=self._minutes, deck_ids=(deck.id,)))

    def action_topic(self) -> None:
        if not self._ready("topic"):
            return
        deck = self.selected_deck()
        if deck is not None:
            self.start_checked(SessionPlan(minutes=self._minutes, topic=deck.topic))

    def start_checked(self, plan: SessionPlan, counts: HomeData | None = None) -> None:
        """Start ``plan`` unless it would have no card to drill: then say why (and, for a
        normal session, offer what can be drilled instead). Every key that starts a session
        and ``recall drill``'s session come through here: "Session done, 0 reviews" is never
        the answer to a key. ``counts``: the home counts just loaded, when they are fresh
        (``recall drill``); a normal session they show cards for starts without a second
        plan of the day."""
        if plan.resume_id is not None or plan.card_keys:
            self.recall.start_session(plan)
        elif plan.mode is Mode.CRAM:
            self._start_cram(plan)
        elif plan.mode is Mode.WEAKEST:
            self._start_weakest(plan)
        elif plan.mode is Mode.MISSED:
            self._start_missed(plan)
        elif counts is not None and counts.shows_work_for(plan):
            self.recall.start_session(plan)
        else:
            self._start_normal(plan)

    def _start_normal(self, plan: SessionPlan) -> None:
        """Start normal session ``plan``, unless it would have nothing to drill: then say why
        and offer what can be drilled instead."""
        from recall.tui.screens.today_dialogs import EmptyOfferDialog

        offer = self.services.empty_offer(plan)
        if offer is None:
            self.recall.start_session(plan)
            return
        data = self.recall.home_data
        if data is not None and data.checking:
            # Nothing to drill yet, but custom decks are being checked: their cards may be
            # the session. Wait for them rather than say that nothing is left today.
            self._after_checks = plan
            self.show_data(data)
            return
        self.app.push_screen(
            EmptyOfferDialog(offer), lambda choice: self._take_offer(offer, choice)
        )

    def _take_offer(self, offer: EmptyOffer, choice: OfferChoice | None) -> None:
        if choice is None:
            return
        asked = offer.asked
        if choice.action == "more":
            if not self._learn_more(choice.count):
                return
            self.start_checked(asked)  # the raise may still leave nothing: then say why
        elif choice.action == "ahead":
            self.recall.start_session(
                SessionPlan(
                    minutes=None,
                    cards=WEAKEST_COUNT,
                    deck_ids=asked.deck_ids,
                    topic=asked.topic,
                    mode=Mode.WEAKEST,
                )
            )
        elif choice.action == "cram":
            self.recall.start_session(
                SessionPlan(
                    minutes=asked.minutes if asked.cards is None else None,
                    cards=asked.cards,
                    deck_ids=asked.deck_ids,
                    topic=asked.topic,
                    mode=Mode.CRAM,
                )
            )

    def _learn_more(self, count: int) -> bool:
        """Raise today's new-card limit by ``count``; the counts are redone on return."""
        from recall.errors import RecallError

        try:
            total = self.services.learn_more_today(count)
        except (RecallError, ValueError) as error:
            self.notify(str(error), title="Today's limit was not raised", severity="error")
            return False
        in_all = f" ({total} today in all)" if total != count else ""
        self.notify(
            f"Today's new-card limit is raised by {count}{in_all}, for today only.", timeout=4
        )
        self.mark_stale()
        return True

    def action_more(self) -> None:
        """Learn N more new cards today: today's limit only, kept until the day ends."""
        from recall.tui.screens.today_dialogs import DEFAULT_MORE, LearnMoreDialog

        data = self.recall.home_data
        if not self._ready("more") or data is None:
            return
        today = data.today or TodayView()
        waiting = today.new_waiting
        if not waiting:
            self.notify("No new card is waiting: every card has been introduced.", timeout=3)
            return
        limit = "no limit" if today.new_limit is None else str(today.new_limit)
        message = (
            f"{count_of(waiting, 'new card')} {'waits' if waiting == 1 else 'wait'}. "
            f"Today's limit is {limit}, {today.new_spent} introduced; the raise is for today only."
        )

        def chosen(count: int | None) -> None:
            if count is not None and self._learn_more(count):
                self._stale = False
                self.recall.refresh_home()

        self.recall.open_typed_into(LearnMoreDialog(message, min(DEFAULT_MORE, waiting)), chosen)

    def action_cram(self) -> None:
        if not self._ready("cram"):
            return
        deck = self.selected_deck()
        decks = (deck.id,) if deck is not None else ()
        self._start_cram(SessionPlan(minutes=self._minutes, deck_ids=decks, mode=Mode.CRAM))

    def _start_cram(self, plan: SessionPlan) -> None:
        if not self.services.scope_cards(plan.deck_ids, plan.topic)[0]:
            self.notify("Every card here is suspended or retired: nothing to cram.", timeout=4)
            return
        self.recall.start_session(plan)

    def action_weakest(self) -> None:
        """The cards closest to being forgotten, off the schedule ("review ahead")."""
        if self._ready("weakest"):
            self._start_weakest(SessionPlan(minutes=None, cards=WEAKEST_COUNT, mode=Mode.WEAKEST))

    def _start_weakest(self, plan: SessionPlan) -> None:
        if not self.services.scope_cards(plan.deck_ids, plan.topic)[1]:
            self.notify(
                "No card has been reviewed yet: the weakest cards come once you have some.",
                timeout=4,
            )
            return
        self.recall.start_session(plan)

    def action_missed(self) -> None:
        if self._ready("missed"):
            self._start_missed(SessionPlan(minutes=None, mode=Mode.MISSED))

    def _start_missed(self, plan: SessionPlan) -> None:
        """The cards rated Again in the last finished session, or why there are none."""
        missed = self.services.missed_last_time()
        if missed is None:
            why = "No session has finished yet: nothing was missed."
        elif not missed[0]:
            why = "Nothing was missed last time: every answer of the last session was right."
        elif not missed[1]:
            why = "The cards missed last time are suspended or retired: nothing to drill."
        else:
            self.recall.start_session(plan)
            return
        self.notify(why, timeout=4)

    def action_resume(self) -> None:
        data = self.recall.home_data
        if not self._ready("resume") or data is None:
            return
        if data.unfinished is None:
            self.notify("There is no unfinished session to resume.", timeout=3)
            return
        self.recall.start_session(data.unfinished)

    def action_stats(self) -> None:
        from recall.tui.screens.stats import StatsScreen

        if self._ready("stats"):
            self.app.push_screen(StatsScreen())

    def action_decks(self) -> None:
        from recall.tui.screens.decks import DecksScreen

        if self._ready("decks"):
            self.app.push_screen(DecksScreen())

    def action_exam(self) -> None:
        """Ask for an exam date and show ``recall exam``'s plan for every deck, or (Ctrl-O in
        the dialog) for the deck under the cursor."""
        from recall.tui.screens.today_dialogs import ExamPlanDialog

        if not self._ready("exam"):
            return
        scopes: list[tuple[str, tuple[str, ...]]] = [("every deck", ())]
        deck = self.selected_deck()
        if deck is not None:
            scopes.append((f"deck {deck.name}", (deck.id,)))
        # A followed plan opens first, its date filled in: the dialog shows the plan that
        # sets today's new cards, as `recall exam` and the header count them.
        followed = self.services.followed_exam()
        date_text = ""
        if followed is not None:
            date_text, decks = followed
            scopes = [s for s in scopes if s[1] != decks]
            name = "the followed plan" + (f" ({', '.join(decks)})" if decks else "")
            scopes.insert(0, (name, decks))
        dialog = ExamPlanDialog(
            scopes,
            self.services.exam_text,
            self.services.follow_exam,
            self.services.stop_following_exam,
            date_text=date_text,
            followed=self.services.followed_exam,
        )

        def closed(_result: None) -> None:
            if dialog.changed:
                self.recall.refresh_home()  # today's new cards come from the plan now

        self.recall.open_typed_into(dialog, closed)

    def action_reload(self) -> None:
        if self._loading:  # the load at work reads the decks: read them again after it
            self._ready("reload")
            return
        self._loading = True
        self._failure = None
        self._progress = "Reloading decks…"
        self._latest_progress = None
        if self._progress_timer is not None:
            self._progress_timer.resume()
        self._show_loading()
        self.recall.refresh_home()

    def mark_stale(self) -> None:
        """The counts on this screen are out of date (see :class:`DataChanged`)."""
        self._stale = True

    def on_screen_resume(self) -> None:
        """Back from a session or an edit that changed the data: recount."""
        if self._stale:
            self._stale = False
            self.recall.refresh_home()


#: Column widths of the deck table (the six columns fit 80 columns).
TOPIC_WIDTH = 18
DECK_WIDTH = 26


#: Columns the header's lines have at 80 columns (the forecast takes 30, the blank column before
#: it 1, the padding 2): each line is said in the longest words that fit, so no line wraps and
#: pushes the next one off.
HEADER_WIDTH = 47

#: A header line as parts: (words, whether they are a figure shown in bold).
Line = list[tuple[str, bool]]


def today_figures(data: HomeData) -> Text:
    """The header: today's plan (``recall today``'s numbers), what the new-card limit has
    left, the day's reviews and streak, and "due tomorrow" with what can be done next.

    Every line keeps every fact; when the long words would not fit :data:`HEADER_WIDTH`
    (large counts, today's raise) shorter ones are used instead (see :func:`fitted`)."""
    today = data.today or TodayView()
    plan = [
        _plan_line(today, "learning", " min"),
        _plan_line(today, "learn", " min"),
        _plan_line(today, "learn", "m"),
    ]
    if today.new_limit is None:
        spent: Line = [(f"{today.new_spent} new today (no limit)", False)]
        spent_short = [(f"{today.new_spent} new (no limit)", False)]
    else:
        spent = [("New ", False), (f"{today.new_spent}/{today.new_limit}", True), (" done", False)]
        spent_short = list(spent)
        if today.new_extra:
            spent = [*spent, (f" (+{today.new_extra} today)", False)]
            spent_short = [*spent_short, (f" (+{today.new_extra})", False)]
    # "New 7/7 (+5)": the count says it is done.
    spent_shortest = [part for part in spent_short if part[0] != " done"]
    answers, streak = (str(data.reviewed_today), True), (str(data.streak_days), True)
    said = plural("answer", data.reviewed_today)  # "1 answer today", "2 answers today"
    day = [
        [
            *spent,
            (" · ", False),
            answers,
            (f" {said} today · streak ", False),
            streak,
            ("d", False),
        ],
        [*spent, (" · ", False), answers, (f" {said} · streak ", False), streak, ("d", False)],
        [
            *spent_short,
            (" · ", False),
            answers,
            (f" {said} · streak ", False),
            streak,
            ("d", False),
        ],
        [
            *spent_shortest,
            (" · ", False),
            answers,
            (f" {said} · streak ", False),
            streak,
            ("d", False),
        ],
    ]
    tomorrow = (str(today.due_tomorrow), True)
    if today.exam:
        # A followed exam plan: how it stands today takes the place of the exam offer and of
        # "n learns more" (the plan sets the day's new cards, whatever the limit has left).
        next_line = [[(words, False)] for words in today.exam]
    elif today.new_allowance_spent and not today.total:
        # Line 2 says the new cards are done and line 1 that nothing is left: what next.
        next_line = [
            [tomorrow, (f" due tomorrow · n more · w {REVIEW_AHEAD} · c cram", False)],
            [tomorrow, (f" tomorrow · n more · w {REVIEW_AHEAD} · c cram", False)],
            [tomorrow, (f" tomorrow · n more · w {REVIEW_AHEAD}", False)],
        ]
    elif today.new_allowance_spent:
        waiting = (str(today.new_waiting), True)
        next_line = [
            [waiting, (" new wait (n learns more) · ", False), tomorrow, (" due tomorrow", False)],
            [waiting, (" new wait (n: more) · ", False), tomorrow, (" due tomorrow", False)],
        ]
    else:
        next_line = [
            [tomorrow, (" due tomorrow · x plans an exam", False)],
            [tomorrow, (" due tomorrow · x: exam", False)],
        ]
    text = Text()
    for index, candidates in enumerate((plan, day, next_line)):
        if index:
            text.append("\n")
        for words, figure in fitted(candidates):
            text.append(words, style="bold" if figure else "")
    return text


def _plan_line(today: TodayView, learning: str, minutes: str) -> Line:
    return [
        ("Today: ", False),
        (str(today.new), True),
        (" new · ", False),
        (str(today.learning), True),
        (f" {learning} · ", False),
        (str(today.review), True),
        (" due · ", False),
        (f"~{today.minutes:g}", True),
        (minutes, False),
    ]


def fitted(candidates: list[Line], width: int = HEADER_WIDTH) -> Line:
    """The first of ``candidates`` (longest words first) that fits ``width``, else the last."""
    for line in candidates:
        if sum(len(words) for words, _figure in line) <= width:
            return line
    return candidates[-1]


def _count(value: int, kind: str) -> Text:
    if not value:
        return Text("·", style="dim", justify="right")
    style = {"new": "green", "learning": "yellow", "today": "cyan"}.get(kind, "red")
    return Text(str(value), style=f"bold {style}", justify="right")


def _fit(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
