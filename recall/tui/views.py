"""Plain data the screens display, produced by :mod:`recall.tui.services`.

The screens never hold database rows, SymPy objects or scheduler states: the facade converts what
the lower layers return into these small frozen dataclasses. That keeps every screen testable with
nothing but data, and it means a change in a lower layer's API is absorbed in one module.

Nothing here imports Textual or anything heavy; this module is loaded before the first frame.

Every view is a :class:`ShownText`: its strings (deck names, prompts, hints, typed answers, error
messages: text recall did not write) are made inert once, when the view is built, so no screen
can hand a control character to the terminal whatever widget it puts the text in. Deck files and
imports refuse control characters on the way in (:mod:`recall.cards.untrusted`), so for valid
data this changes nothing; it is the second wall. A ``path`` is kept as it is (it opens the
file); a screen shows it through :func:`recall.tui.plain.plain`. Markup is the screens' part:
deck text reaches a widget as a Rich ``Text`` (never a string a widget would parse as markup).
The rating and the session mode are the lower layers' own (:class:`recall.scheduling.Rating`,
:class:`recall.session.Mode`), imported from their light modules.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import date
from typing import Any

from recall.inert import inert
from recall.scheduling.rating import Rating
from recall.session.mode import Mode
from recall.verdicts import PointOutcome, Status
from recall.wording import count_of

#: Fields kept as they are: a path opens a file, so it must stay the file's real name.
RAW_FIELDS = frozenset({"path"})


def _inert_value(value: Any) -> Any:
    """Strings, and strings inside tuples and dicts, made inert as on any terminal: control
    characters (a deck refuses them, bidi overrides included, but a typed answer or a message
    may still hold one) and hidden characters (a zero-width space) shown by code point; joiners
    and direction marks kept, since a right-to-left or joining script needs them."""
    if isinstance(value, str):
        return inert(value)
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return tuple(_inert_value(item) for item in value)
    if isinstance(value, dict):
        return {_inert_value(k): _inert_value(v) for k, v in value.items()}
    return value


class ShownText:
    """Base of every view: its string fields are made inert when it is built (see the module
    docstring); the one place deck text is neutralised for the screens."""

    def __post_init__(self) -> None:
        for item in fields(self):  # type: ignore[arg-type]
            if item.name in RAW_FIELDS:
                continue
            value = getattr(self, item.name)
            cleaned = _inert_value(value)
            if cleaned is not value and cleaned != value:
                object.__setattr__(self, item.name, cleaned)


@dataclass(frozen=True)
class SessionPlan(ShownText):
    """What the learner asked for: a budget (minutes or cards) and where the cards come from.

    ``minutes`` and ``cards`` are mutually exclusive; with neither the session runs until nothing
    is due. ``card_keys`` pins the exact cards (used by "drill the missed ones again").
    """

    minutes: float | None = 10.0
    cards: int | None = None
    deck_ids: tuple[str, ...] = ()
    topic: str | None = None
    mode: Mode = Mode.NORMAL
    card_keys: tuple[str, ...] = ()
    resume_id: int | None = None  # pick up this unfinished session instead of starting one

    def describe(self) -> str:
        """A short line for the drill header, e.g. ``10 min · cram · losses``."""
        parts: list[str] = ["resumed"] if self.resume_id is not None else []
        if self.minutes is not None:
            parts.append(f"{self.minutes:g} min")
        elif self.cards is not None:
            parts.append(count_of(self.cards, "card"))
        else:
            parts.append("until done")
        if self.mode is not Mode.NORMAL:
            parts.append(str(self.mode))
        if self.topic:
            parts.append(self.topic)
        if self.deck_ids:
            parts.append(", ".join(self.deck_ids))
        return " · ".join(parts)


@dataclass(frozen=True)
class DeckRow(ShownText):
    """One deck on the home screen and in the deck browser."""

    id: str
    name: str
    topic: str
    builtin: bool
    cards: int
    new: int = 0
    learning: int = 0
    due: int = 0
    path: str = ""
    description: str = ""
    #: Cards of this deck in today's plan (the share of "Today" that drilling everything gives
    #: it), and how many of them are new.
    today: int = 0
    new_today: int = 0
    review_today: int = 0


@dataclass(frozen=True)
class TodayView(ShownText):
    """Today's plan as the home screen shows it: the numbers ``recall today`` prints (the
    queue by kind, the minutes), what the limits have left, and what waits."""

    new: int = 0
    learning: int = 0
    review: int = 0
    minutes: float = 0.0
    #: The daily new-card limit today (``None``: no limit), today's raise included, what today
    #: has introduced, the raise itself, and the new cards not in today's plan.
    new_limit: int | None = None
    new_spent: int = 0
    new_extra: int = 0
    new_waiting: int = 0
    review_limit: int | None = None
    review_spent: int = 0
    due_tomorrow: int = 0
    pace_measured: bool = False
    #: A followed exam plan's line, in words longest first (``()``: no plan followed).
    exam: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        return self.new + self.learning + self.review

    @property
    def new_allowance_spent(self) -> bool:
        """Today's new-card limit is used up while new cards still wait (say so, and offer
        "learn N more today")."""
        return (
            self.new_limit is not None and self.new_spent >= self.new_limit and self.new_waiting > 0
        )


@dataclass(frozen=True)
class EmptyOffer(ShownText):
    """A session that would have nothing to drill, and what the learner can do instead.

    ``asked`` is the session the learner asked for; ``scope`` names its cards ("every deck",
    "deck Activations"); ``today`` is the scope's plan (empty); ``held_back`` the scope's new
    cards that only the shared daily limit holds back today ("learn N more today" brings them
    in); ``own_limit`` is true when the deck's own limit (``[deck_new_limits]``) holds them;
    ``reviewed`` counts the scope's cards seen before (review ahead drills the weakest of
    them); ``cards`` all the scope's cards (cram drills any); ``learning_later`` the cards whose
    next learning step falls later today."""

    asked: SessionPlan
    scope: str
    today: TodayView
    held_back: int = 0
    own_limit: bool = False
    reviewed: int = 0
    cards: int = 0
    #: Cards between learning steps that come back later today (none is due soon enough for
    #: a session to show it now).
    learning_later: int = 0
    #: The asked deck or topic does not exist, said with a "did you mean" ("" when it does).
    unknown: str = ""


@dataclass(frozen=True)
class DeckFailure(ShownText):
    """A deck file that did not load, and why, for the learner to fix."""

    path: str
    message: str
    line: int | None = None
    card_id: str | None = None


@dataclass(frozen=True)
class HomeData(ShownText):
    """Everything the home screen shows once the lower layers are loaded."""

    decks: tuple[DeckRow, ...]
    failures: tuple[DeckFailure, ...] = ()
    #: Shared decks of a shared database that are not this recall's built-in ones, used as the
    #: database has them (a learner's login never writes them; the owner syncs them).
    shared_decks_behind: tuple[str, ...] = ()
    streak_days: int = 0
    reviewed_today: int = 0
    forecast: tuple[int, ...] = ()  # reviews due on each of the next days, today first
    database: str = ""
    unfinished: SessionPlan | None = None  # a session left open (crash, closed terminal)
    unfinished_done: int = 0  # reviews it already has
    #: What is left of today's new-card and review allowances (``new_per_day`` and
    #: ``reviews_per_day`` are limits over all decks together); ``None``: no limit.
    new_allowance: int | None = None
    review_allowance: int | None = None
    #: Today's plan over every deck (``recall today``'s numbers).
    today: TodayView | None = None
    #: Custom deck files still being checked (a first start, a new or edited deck: see
    #: :meth:`recall.tui.services.Services.check_pending`); none of their cards is counted or
    #: offered until then.
    checking: int = 0

    def shows_work_for(self, plan: SessionPlan) -> bool:
        """Whether these counts already show that normal session ``plan`` has a card to drill
        now: new cards or reviews in its scope's share of today's plan. A cheap yes, from
        counts the load made anyway (``recall drill``'s first prompt waits for no second
        plan); ``False`` means "ask :meth:`recall.tui.services.Services.empty_offer`", not
        "empty": learning cards alone may all come back later today.

        A deck's share of the plan over every deck is at most what a plan over that deck
        alone holds (the same limits, fewer cards competing for them)."""
        if plan.mode is not Mode.NORMAL or plan.card_keys or plan.resume_id is not None:
            return False
        if plan.topic is not None:  # a card's topic may differ from its deck's row
            return False
        if not plan.deck_ids:
            today = self.today or TodayView()
            return today.new + today.review > 0
        return any(
            deck.new_today + deck.review_today > 0
            for deck in self.decks
            if deck.id in plan.deck_ids
        )

    @property
    def topics(self) -> tuple[str, ...]:
        """Topics in display order (alphabetical, each once)."""
        return tuple(sorted({deck.topic for deck in self.decks}))

    @property
    def due_total(self) -> int:
        """Learning cards due today, plus the reviews today's allowance still lets through.

        Each deck's own count is capped by the allowance (it is what drilling that deck alone
        would do); summed over decks they would overstate the day."""
        reviews = sum(deck.due for deck in self.decks)
        if self.review_allowance is not None:
            reviews = min(reviews, self.review_allowance)
        return sum(deck.learning for deck in self.decks) + reviews

    @property
    def new_total(self) -> int:
        """New cards today's sessions will introduce: the decks' new cards, up to what is left
        of the daily allowance (17 decks showing 20 each is still 20 for the day)."""
        new = sum(deck.new for deck in self.decks)
        return new if self.new_allowance is None else min(new, self.new_allowance)


@dataclass(frozen=True)
class PreviewView(ShownText):
    """How the typed answer is being read, or why it cannot be: shown on every keystroke."""

    text: str
    ok: bool
    rendered: str = ""  # 2-D Unicode of the parsed answer
    message: str = ""  # the error, for the learner
    column: int | None = None  # where the caret goes under ``text``
    math: bool = True  # False for answers that are words (reverse cards, word blanks)

    def caret_line(self) -> str:
        """``text`` with a caret under the offending column (empty when there is no column)."""
        if self.column is None:
            return ""
        line = self.text.replace("\n", " ")
        return f"{line}\n{' ' * min(self.column, len(line))}^"


@dataclass(frozen=True)
class FeedbackView(ShownText):
    """The result of grading one answer, ready to show."""

    outcome: Status  # invalid: not a readable answer, costs nothing, try again
    answer: str
    headline: str  # "Correct", "Not quite", "Can't read that"
    diagnosis: str = ""  # "off by a factor of 2"
    diagnosis_kind: str = ""  # stable key for statistics: "sign", "factor", ...
    reference: str = ""  # the reference answer rendered in 2-D Unicode
    reference_typed: str = ""  # the reference in typed syntax, for copying
    worked: str = ""  # the worked computation for numeric cards
    #: The typed answer as read, split around the part that differs from the reference (before,
    #: part, after), for a wrong answer whose mistake the engine located; ``None`` otherwise.
    answer_marked: tuple[str, str, str] | None = None
    method: str = ""  # which check decided (symbolic, numeric, ...)
    suggested: Rating | None = None
    error_column: int | None = None  # for invalid answers
    grading_ms: float = 0.0  # time in the worker: grading and rendering the reference
    #: A checked explanation: each key point, made (with the learner's words) or missed.
    points: tuple[PointOutcome, ...] = ()

    @property
    def unavailable(self) -> frozenset[Rating]:
        """Ratings the learner may not give this answer: Hard for a wrong one (Hard is a
        passing grade; the session refuses it too)."""
        return frozenset({Rating.Hard}) if self.outcome is Status.INCORRECT else frozenset()


@dataclass(frozen=True)
class CardView(ShownText):
    """A card as the drill screen shows it (parameters already drawn for numeric cards)."""

    key: str
    deck_id: str
    card_id: str
    kind: str
    prompt: str
    shown: str = ""  # the formula parts around the answer, rendered 2-D
    #: ``shown`` is the formula's plain Unicode placeholder (``presenting.shown_placeholder``): its
    #: 2-D drawing was not drawn before and is drawn off the event loop
    #: (:meth:`recall.tui.drill_run.DrillRun.draw_shown`).
    shown_pending: bool = False
    symbols: tuple[tuple[str, str], ...] = ()  # (name, meaning and domain)
    hint: str = ""
    unit: str = ""
    source: str = ""
    model_answer: str = ""  # explain cards
    numbers: tuple[str, ...] = ()  # explain cards
    self_rated: bool = False  # explain cards without key points are self-rated
    key_points: int = 0  # explain cards with key points: a typed explanation is checked
    math_answer: bool = True  # the answer box takes math (vs words)
    path: str = ""
    line: int = 0
    new: bool = False


@dataclass(frozen=True)
class Leech(ShownText):
    """A card the review just recorded made a leech: missed so often (``lapses`` times, the
    ``leech_threshold`` setting) that drilling it again as it is will not help."""

    key: str
    lapses: int


@dataclass(frozen=True)
class MissedCard(ShownText):
    """A card answered wrongly in a session, with what was typed and what was right."""

    key: str
    prompt: str
    answer: str
    reference: str  # as the feedback panel draws it: 2-D for math
    #: The reference on one line, as typed (what the summary shows where the 2-D drawing does
    #: not fit its column); empty when it is the same as ``reference``.
    reference_line: str = ""
    #: A numeric card's answer at the values it was asked with.
    value: str = ""


@dataclass(frozen=True)
class SummaryView(ShownText):
    """The figures at the end of a session, taken from the session layer's summary."""

    reviews: int
    cards: int = 0
    new: int = 0
    review: int = 0
    relearn: int = 0
    off_schedule: int = 0
    first_try_accuracy: float | None = None
    #: To the answer given, not to the rating; ``None`` when nothing was answered.
    median_answer_seconds: float | None = None
    learning: int = 0  # cards in their learning steps (first seen earlier today)
    elapsed_seconds: float = 0.0  # everything the budget counted
    missed: tuple[MissedCard, ...] = ()
    mistakes: tuple[tuple[str, int], ...] = ()  # (kind of mistake, count)
    leeches: tuple[str, ...] = ()
    due_tomorrow: int = 0
    due_week: int = 0
    streak_days: int = 0
    mode: str = "normal"
    #: Explanations that left key points out: (card, the model sentences of the points missed).
    missed_points: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True)
class StatsView(ShownText):
    """The stats screen's figures."""

    heatmap: tuple[tuple[date, int], ...] = ()  # reviews per day, oldest first
    forecast: tuple[int, ...] = ()  # reviews due per day, today first
    retention_by_deck: tuple[tuple[str, float, int], ...] = ()  # (deck, retention, reviews)
    retention_by_topic: tuple[tuple[str, float, int], ...] = ()
    mistakes: tuple[tuple[str, int], ...] = ()
    total_reviews: int = 0
    streak_days: int = 0
    extra: dict[str, str] = field(default_factory=dict)
