"""The home screen's dialogs about today: what to do when a session would have nothing to drill,
"learn N more today", and the exam plan.

A session that would end at once ("Session done, 0 reviews") is never started: the home screen
asks :meth:`recall.tui.services.Services.empty_offer` first and, when the scope's plan is empty,
shows :class:`EmptyOfferDialog` instead, which says why (today's new cards are done, the deck's
own limit is reached, nothing is due) and offers what can be drilled: more new cards today,
the weakest cards ahead of schedule, or cram.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from recall.tui.plain import plain
from recall.tui.views import EmptyOffer
from recall.tui.widgets.text_input import TextInput
from recall.wording import REVIEW_AHEAD, count_of, in_scope, key_name

#: The layout these dialogs share (kept here, with the dialogs, rather than in the app's
#: stylesheet: ``.dialog`` there gives the box).
DIALOG_CSS = """
.more-row {
    height: 3;
}
.more-row Label {
    width: 12;
    padding-top: 1;
}
.more-row Input {
    width: 1fr;
}
#offer-reason {
    margin-bottom: 1;
}
#exam-plan {
    height: 1fr;
}
"""

#: New cards "learn more today" offers unless the learner types another number.
DEFAULT_MORE = 10
#: Most new cards one "learn more today" adds (the day's raise is bounded again when kept).
MAX_MORE = 500


@dataclass(frozen=True)
class OfferChoice:
    """What the learner chose: ``more`` (learn ``count`` more new cards today, then drill),
    ``ahead`` (review the weakest cards ahead of schedule) or ``cram``."""

    action: str
    count: int = 0


def more_count(text: str) -> int | None:
    """The number typed for "learn N more today", or ``None`` when it is not 1 to
    :data:`MAX_MORE`."""
    cleaned = text.strip()
    if not (cleaned.isascii() and cleaned.isdecimal()) or len(cleaned) > 4:
        return None
    count = int(cleaned)
    return count if 1 <= count <= MAX_MORE else None


class LearnMoreDialog(ModalScreen[int | None]):
    """Ask how many more new cards to learn today (``None``: cancelled)."""

    DEFAULT_CSS = DIALOG_CSS

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="more.cancel"),
    ]

    def __init__(self, message: str, default: int = DEFAULT_MORE) -> None:
        super().__init__()
        self.message = message
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical(id="more-box", classes="dialog"):
            yield Static("Learn more today", classes="dialog-title")
            yield Static(self.message)
            with Horizontal(classes="more-row"):
                yield Label("New cards")
                yield TextInput(str(self.default), id="more-count", type="integer", max_length=4)
            yield Static("", id="more-error")
            yield Static("Enter raises today's limit (today only) · Esc cancels", classes="dim")

    @on(Input.Submitted, "#more-count")
    def _submit(self) -> None:
        count = more_count(self.query_one("#more-count", Input).value)
        if count is None:
            self.query_one("#more-error", Static).update(
                f"A whole number of cards from 1 to {MAX_MORE}."
            )
            return
        self.dismiss(count)

    def action_cancel(self) -> None:
        self.dismiss(None)


class EmptyOfferDialog(ModalScreen[OfferChoice | None]):
    """The session asked for has nothing to drill today: say why and offer the rest."""

    DEFAULT_CSS = DIALOG_CSS

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="offer.cancel"),
        # w, as on the home screen: one key and one name for reviewing ahead everywhere.
        Binding("w", "ahead", REVIEW_AHEAD.capitalize(), id="offer.ahead", priority=True),
        Binding("c", "cram", "Cram", id="offer.cram", priority=True),
    ]

    def __init__(self, offer: EmptyOffer) -> None:
        super().__init__()
        self.offer = offer

    def compose(self) -> ComposeResult:
        offer = self.offer
        with Vertical(id="offer-box", classes="dialog"):
            title = "Nothing to drill now" if offer.learning_later else "Nothing left today"
            yield Static(plain(f"{title} {in_scope(offer.scope)}"), classes="dialog-title")
            yield Static(plain(offer_reason(offer)), id="offer-reason")  # names typed text
            if offer.held_back:
                with Horizontal(classes="more-row"):
                    yield Label("Learn more")
                    yield TextInput(
                        str(min(DEFAULT_MORE, offer.held_back)),
                        id="more-count",
                        type="integer",
                        max_length=4,
                    )
                yield Static("", id="more-error")
            yield Static(offer_keys(offer), id="offer-keys", classes="dim")

    @on(Input.Submitted, "#more-count")
    def _submit(self) -> None:
        count = more_count(self.query_one("#more-count", Input).value)
        if count is None:
            self.query_one("#more-error", Static).update(
                f"A whole number of cards from 1 to {MAX_MORE}."
            )
            return
        self.dismiss(OfferChoice("more", count))

    def action_ahead(self) -> None:
        if self.offer.reviewed:
            self.dismiss(OfferChoice("ahead"))
        else:
            self.notify(
                f"No card here has been reviewed yet: nothing to {REVIEW_AHEAD}.", timeout=3
            )

    def action_cram(self) -> None:
        if self.offer.cards:
            self.dismiss(OfferChoice("cram"))

    def action_cancel(self) -> None:
        self.dismiss(None)


def offer_reason(offer: EmptyOffer) -> str:
    """Why the scope has nothing to drill, in a sentence or two."""
    today = offer.today
    if offer.unknown:
        return offer.unknown
    if offer.cards == 0:
        return "It has no cards to drill (every card is suspended or retired)."
    if offer.learning_later:
        count = offer.learning_later
        verb = "comes" if count == 1 else "come"
        return (
            f"{count_of(count, 'card')} between learning steps {verb} back later today; "
            "nothing else is due now."
        )
    if offer.held_back:
        limit = today.new_limit or 0
        raised = f", {today.new_extra} of them added today" if today.new_extra else ""
        # The waiting count is the home screen's and `recall today`'s; of those, a raise
        # brings only the ones not buried with a sibling or held by a deck's own limit.
        waiting = max(today.new_waiting, offer.held_back)
        can = (
            ""
            if offer.held_back == waiting
            else f" ({offer.held_back} of them can be learned today: the others are siblings "
            "of cards seen today, or held by a deck's own limit)"
        )
        return (
            f"Today's new cards are done ({today.new_spent} of {limit}{raised}); "
            f"{count_of(waiting, 'new card')} here "
            f"{'waits' if waiting == 1 else 'wait'} for the next days{can}. "
            "Learn some now: they count for today only."
        )
    if offer.own_limit:
        return (
            "This deck's own new-card limit for today is reached "
            f"(`recall config deck_new_limits.{_deck_of(offer)} N` changes it); "
            "nothing else is due."
        )
    return "Every card due today is done, and no new card is waiting."


def _deck_of(offer: EmptyOffer) -> str:
    """The deck id the offer is about, for a command the learner can copy (``DECK`` when the
    scope is several decks or a topic)."""
    decks = offer.asked.deck_ids
    return decks[0] if len(decks) == 1 else "DECK"


def offer_keys(offer: EmptyOffer) -> Text:
    """The choices, as keys."""
    parts: list[tuple[str, str]] = []
    if offer.held_back:
        parts.append(("Enter", "learn that many more"))
    if offer.reviewed:
        parts.append(("w", f"{REVIEW_AHEAD} (the weakest of {offer.reviewed}, off schedule)"))
    if offer.cards:
        parts.append(("c", "cram (the schedule is left alone)"))
    parts.append(("Esc", "back"))
    text = Text()
    for index, (key, what) in enumerate(parts):
        if index:
            text.append(" · ")
        text.append(key, style="bold")
        text.append(f" {what}")
    return text


#: A scope the exam dialog can plan for: its name ("every deck", "deck Losses") and decks.
ExamScope = tuple[str, tuple[str, ...]]


class ExamPlanDialog(ModalScreen[None]):
    """Ask for an exam date and show the plan ``recall exam`` prints for it, for one of
    ``scopes`` (Ctrl-O goes to the next: every deck, the deck under the cursor)."""

    DEFAULT_CSS = DIALOG_CSS

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="exam.close"),
        Binding("ctrl+o", "other_scope", "Other decks", id="exam.scope", priority=True),
        Binding("ctrl+f", "follow", "Follow plan", id="exam.follow", priority=True),
        Binding("ctrl+b", "stop_following", "Stop following", id="exam.stop", priority=True),
    ]

    def __init__(
        self,
        scopes: Sequence[ExamScope],
        plan_text: Callable[[str, tuple[str, ...], str], str],
        follow: Callable[[str, tuple[str, ...]], str] | None = None,
        stop_following: Callable[[], str] | None = None,
        *,
        date_text: str = "",
        followed: Callable[[], tuple[str, tuple[str, ...]] | None] | None = None,
    ) -> None:
        """``plan_text(date_text, deck_ids, narrowing)`` returns the plan's text, or raises
        ``ValueError`` with a message for a date that does not read; ``follow(date_text,
        deck_ids)`` adopts the plan and says so (``ValueError`` likewise);
        ``stop_following()`` goes back to the normal schedule and says so. ``date_text``:
        a date filled in, its plan shown at once (the followed plan's). ``followed()``: the
        followed plan's day and decks, or ``None`` (the title offers Ctrl-B for that plan's
        decks, Ctrl-F for others)."""
        super().__init__()
        self.date_text = date_text
        self.scopes = list(scopes)
        self.chosen = 0
        self.plan_text = plan_text
        self.follow = follow
        self.stop_following = stop_following
        self.followed = followed
        #: The decks of the plan followed now (``None``: none is).
        self.followed_decks = self._followed_decks()
        #: Whether following changed what the home screen counts (it recounts on close).
        self.changed = False

    @property
    def scope(self) -> ExamScope:
        return self.scopes[self.chosen]

    def _followed_decks(self) -> tuple[str, ...] | None:
        followed = self.followed() if self.followed is not None else None
        return None if followed is None else followed[1]

    def _title(self) -> str:
        other = f" · {key_name('ctrl+o')}: other decks" if len(self.scopes) > 1 else ""
        if self.followed_decks is not None and self.followed_decks == self.scope[1]:
            follow = f" · {key_name('ctrl+b')}: stop following"
        elif self.follow is not None:
            follow = f" · {key_name('ctrl+f')}: follow it"
        else:
            follow = ""
        return f"Exam plan: {self.scope[0]}{other}{follow}"

    def _retitle(self) -> None:
        """The title again, after following or stopping changed which plan is followed."""
        self.followed_decks = self._followed_decks()
        self.query_one("#exam-title", Static).update(self._title())

    def _narrowing(self) -> str:
        """How this dialog plans for fewer cards, said under a plan's suggestions."""
        if len(self.scopes) < 2:
            return "Put the cursor on a deck before x to plan for that deck alone."
        following = self.scopes[(self.chosen + 1) % len(self.scopes)][0]
        return f"{key_name('ctrl+o')} plans for {following} instead."

    def compose(self) -> ComposeResult:
        with Vertical(id="exam-box", classes="dialog"):
            yield Static(self._title(), id="exam-title", classes="dialog-title")
            with Horizontal(classes="more-row"):
                yield Label("Exam date")
                yield TextInput(
                    self.date_text, id="exam-date", placeholder="2026-12-24, +14, 3w", max_length=20
                )
            with VerticalScroll(id="exam-plan"):
                yield Static("Enter shows the plan · Esc closes", id="exam-text", classes="dim")

    def on_mount(self) -> None:
        # Wider than the app's other dialogs: a plan has a row per day.
        box = self.query_one("#exam-box")
        box.styles.width = "90%"
        box.styles.height = "90%"
        if self.date_text:
            self._submit()

    @on(Input.Submitted, "#exam-date")
    def _submit(self) -> None:
        text = self.query_one("#exam-date", Input).value
        shown = self.query_one("#exam-text", Static)
        try:
            plan = self.plan_text(text, self.scope[1], self._narrowing())
        except ValueError as error:
            shown.update(plain(str(error), "bold"))
            return
        shown.update(plain(plan))  # names decks and topics: text recall did not write

    def action_other_scope(self) -> None:
        """Plan for the next scope (the date typed is kept; a plan shown is redone)."""
        if len(self.scopes) < 2:
            self.notify("Put the cursor on a deck before x to plan for that deck.", timeout=3)
            return
        self.chosen = (self.chosen + 1) % len(self.scopes)
        self.query_one("#exam-title", Static).update(self._title())
        if self.query_one("#exam-date", Input).value.strip():
            self._submit()

    def action_follow(self) -> None:
        """Follow the plan for the date typed: it drives the days until the exam."""
        text = self.query_one("#exam-date", Input).value
        if self.follow is None or not text.strip():
            self.notify(
                f"Type the exam date first, then {key_name('ctrl+f')} follows its plan.",
                timeout=3,
            )
            return
        try:
            said = self.follow(text, self.scope[1])
        except ValueError as error:
            self.notify(str(error), severity="error", timeout=5)
            return
        self.changed = True
        self._retitle()
        self.notify(said, timeout=8)

    def action_stop_following(self) -> None:
        if self.stop_following is not None:
            self.changed = True
            said = self.stop_following()
            self._retitle()
            self.notify(said, timeout=5)

    def action_close(self) -> None:
        self.dismiss(None)
