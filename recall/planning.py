"""Today's plan and the exam planner's inputs, from the store and the loaded decks.

The planners in :mod:`recall.scheduling` are pure; this module asks the store for what they
need (the cards due today, the new cards, what today has spent, the learner's pace) and turns
store records and deck cards into their inputs. New cards are chosen as a normal session chooses
them (:mod:`recall.session.new_cards`), so ``recall today`` shows what a session would drill.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta, tzinfo
from typing import TYPE_CHECKING, Any

from recall.cards.model import Card
from recall.config import Settings
from recall.scheduling.day import study_date, today_bounds
from recall.scheduling.exam_plan import (
    REQUIRED_REVIEWS,
    ExamCard,
    Problem,
    Remedy,
    RemedyKind,
    Shortfall,
)
from recall.scheduling.new_order import NewAllowance, NewCard, order_new_cards
from recall.scheduling.queue import remaining
from recall.scheduling.state import Phase
from recall.scheduling.today import (
    PACE_WINDOW,
    DueCard,
    Pace,
    TodayPlan,
    pace_from_log,
    plan_today,
)
from recall.session.new_cards import (
    MAX_CARDS,
    deck_order,
    new_allowance,
    new_card,
    ordered_new_cards,
)
from recall.wording import count_of

if TYPE_CHECKING:
    from recall.exam_follow import DayGuidance, FollowedExam
    from recall.scheduling.exam import ExamPlan
    from recall.store import Store, StoredCard

__all__ = [
    "ExamGuidance",
    "cumulative_new",
    "day_guidance",
    "exam_cards",
    "reviews_done",
    "learner_pace",
    "ordered_new_cards",
    "parse_exam_date",
    "render_exam",
    "todays_plan",
]
#: Extra rows read with the due reviews for the learning cards among them (as a session does).
LEARNING_HEADROOM = 1_000


def learner_pace(store: Store) -> Pace:
    """The learner's pace from their latest :data:`PACE_WINDOW` answers (the defaults, not
    ``measured``, while the log is too short to tell). Read as the stats screen reads it
    (:meth:`recall.store.memory.MemoryModelStore.recent_answers`: kind and seconds of
    the latest rows only), so every recount of the home screen stays one small query and
    the two places show the same pace."""
    from recall.store.memory import MemoryModelStore

    return pace_from_log(MemoryModelStore(store).recent_answers(PACE_WINDOW))


def todays_plan(
    store: Store,
    cards: Mapping[str, Card],
    settings: Settings,
    now: datetime,
    *,
    tz: tzinfo | None = None,
    deck_limits: Mapping[str, int] | None = None,
    extra_today: int = 0,
    decks: Collection[str] | None = None,
    topic: str | None = None,
    introduce: Sequence[str] | None = None,
) -> TodayPlan:
    """What a normal session over every deck (or over ``decks``, or ``topic``) would drill
    today, without changing anything. ``deck_limits`` default to the learner's
    ``[deck_new_limits]``; ``extra_today`` is today's raise of the daily limit ("learn N more
    today"), as the session is given it. ``introduce``: the new cards a followed exam plan
    introduces today, in its order, which the session introduces instead of its own choice
    (within the daily limit only: the plan has already chosen among the decks)."""
    rollover = settings.day_rollover_hour
    start, end = today_bounds(now, rollover, tz)
    day = study_date(now, rollover, tz)
    # Cards buried yesterday are back today: a session releases them as it builds its queue
    # and the home screen as it counts, so the plan does too (nothing the learner sees
    # changes: the burial is over). Without it the first `recall today` of a day planned
    # without them, and split the new cards across decks unlike the session that followed.
    store.release_buried(now)
    allowance, introduced = new_allowance(
        store, settings, start, deck_limits=deck_limits, extra_today=extra_today
    )
    _introduced, reviewed = store.introduced_and_reviewed(start)
    reviews_left = remaining(settings.reviews_per_day, reviewed)
    due = [
        due_card(c, cards[c.key])
        for c in store.due_cards(
            end,
            limit=min(reviews_left, MAX_CARDS) + LEARNING_HEADROOM,
            decks=decks or None,
            topic=topic,
        )
        if c.key in cards
    ]
    in_order = ordered_new_cards(
        store,
        cards,
        order=settings.new_card_order,
        seed=day.toordinal(),
        decks=decks or None,
        topic=topic,
    )
    waiting = len(in_order)
    ordered: Sequence[NewCard] = in_order
    if introduce is not None:
        by_key = {card.key: card for card in in_order.unordered}  # no need to order them all
        ordered = [by_key[key] for key in introduce if key in by_key]
        allowance = NewAllowance(allowance.total)
    new_limit = settings.new_per_day + extra_today if settings.new_per_day >= 0 else -1
    plan = plan_today(
        day=day,
        due=due,
        new_in_order=ordered,
        allowance=allowance,
        new_limit=new_limit,
        new_spent=introduced,
        review_limit=settings.reviews_per_day,
        review_spent=reviewed,
        pace=learner_pace(store),
    )
    # The one count of new cards waiting, wherever it is shown: every new card not in today's
    # queue, those buried as siblings of a card seen today included (they still wait; leaving
    # them out made the count drop after a session and come back the next day), and those a
    # followed exam plan leaves for another day.
    buried = store.buried_new_by_deck(decks=decks or None, topic=topic)
    new_waiting = plan.new_waiting + (waiting - len(ordered)) + sum(buried.values())
    return dataclasses.replace(plan, new_waiting=new_waiting)


def due_card(stored: StoredCard, card: Card) -> DueCard:
    assert stored.state.due is not None
    return DueCard(
        deck=stored.deck,
        card=stored.id,
        due=stored.state.due,
        learning=stored.state.phase in (Phase.LEARNING, Phase.RELEARNING),
        kind=str(card.kind),
        topic=stored.topic,
        sibling_group=stored.sibling_group,
    )


def exam_cards(
    store: Store,
    cards: Mapping[str, Card],
    *,
    decks: Collection[str] = (),
    topic: str | None = None,
    order: str = "gathered",
    seed: int = 0,
    done: Mapping[str, int] | None = None,
) -> list[ExamCard]:
    """The cards an exam plan prepares (of ``decks``, or ``topic``, or all), seen ones with
    their memory, new ones in introduction order; suspended and retired cards left out.
    ``done``: the reviews each card already had towards a followed plan (:func:`reviews_done`)."""
    done = done or {}
    keys = [
        key
        for key, card in cards.items()
        if (not decks or card.deck_id in decks) and (topic is None or card.topic == topic)
    ]
    stored = [s for s in store.cards_by_key(keys).values() if not s.retired and not s.suspended]

    def group(key: str) -> str:
        card = cards.get(key)
        return card.sibling_group if card is not None else ""

    seen = [
        ExamCard(s.deck, s.id, s.topic, s.state, group(s.key)) for s in stored if not s.state.is_new
    ]
    new = [new_card(s, cards.get(s.key)) for s in stored if s.state.is_new]
    ordered = order_new_cards(new, order, seed=seed, deck_order=deck_order(cards))
    spread = _siblings_apart([n.key for n in ordered], cards)
    by_key = {n.key: n for n in ordered}
    return seen + [
        ExamCard(by_key[k].deck, by_key[k].card, by_key[k].topic, group=group(k)) for k in spread
    ]


def reviews_done(
    store: Store, since: datetime, rollover_hour: int, tz: tzinfo | None = None
) -> dict[str, int]:
    """Per card, the study days since ``since`` it was reviewed on, the day it was first seen
    left out (a followed plan's reviews so far: a plan made again counts them)."""
    from recall.scheduling.state import ReviewKind

    first: dict[str, date] = {}
    days: dict[str, set[date]] = {}
    for entry in store.reviews(since=since):
        day = study_date(entry.reviewed_at, rollover_hour, tz)
        if entry.kind is ReviewKind.NEW:
            first[entry.card_key] = day
        days.setdefault(entry.card_key, set()).add(day)
    return {key: len(seen - {first.get(key)}) for key, seen in days.items()}


def _siblings_apart(keys: list[str], cards: Mapping[str, Card]) -> list[str]:
    """``keys`` with the cards of a sibling group far apart: every group's first card in the
    given order, then every group's second, and so on. A plan introduces cards a few a day in
    this order, and siblings (cards that give each other's answers away) are never drilled on
    one day, so siblings side by side would each hold the other back a day."""
    rank: dict[str, int] = {}
    seen: Counter[str] = Counter()
    for key in keys:
        group = cards[key].sibling_group if key in cards else ""
        rank[key] = seen[group] if group else 0
        if group:
            seen[group] += 1
    return sorted(keys, key=lambda key: rank[key])  # stable: the given order within a rank


#: A distance from today: ``+14``, ``14d``, ``2 weeks``.
_RELATIVE = re.compile(r"^\+?(\d{1,4})\s*(d|days?|w|weeks?)$")


def parse_exam_date(text: str, today: date) -> date:
    """``2026-12-24``, or a distance from ``today``: ``+14``/``14d`` days, ``3w`` weeks.
    Raises ``ValueError`` with a sentence for anything else."""
    cleaned = text.strip().lower()
    if cleaned.startswith("+") and cleaned[1:].isdigit() and len(cleaned) <= 5:
        return today + timedelta(days=int(cleaned[1:]))
    match = _RELATIVE.match(cleaned)
    if match:
        amount = int(match.group(1))
        return today + timedelta(days=amount * (7 if match.group(2).startswith("w") else 1))
    try:
        return date.fromisoformat(cleaned)
    except ValueError:
        raise ValueError(
            f"{text[:40]!r} is not a date: give it as 2026-12-24, or +14 / 14d / 3w from today"
        ) from None


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"


def problem_sentence(problem: Problem) -> str:
    """Why a plan is not feasible, in words a learner can act on."""
    f = problem.figures
    kind = problem.kind
    if kind is Shortfall.EXAM_NOT_AHEAD:
        return (
            f"the exam ({f['exam'].isoformat()}) is not after today: there is no day left to study"
        )
    if kind is Shortfall.NEW_CARDS_NEED_DAYS:
        new = f["new"]
        return (
            f"{count_of(new, 'card')} {'is' if new == 1 else 'are'} new: each needs "
            f"{REQUIRED_REVIEWS + 1} study days before the exam (one to learn it, "
            f"{REQUIRED_REVIEWS} to review it), and the exam is in {count_of(f['days'], 'day')}"
        )
    if kind is Shortfall.REVIEWS_NEED_DAYS:
        return (
            f"each card needs {REQUIRED_REVIEWS} reviews on different days before the exam, "
            f"and the exam is in {count_of(f['days'], 'day')}"
        )
    if kind is Shortfall.NOT_ENOUGH_TIME:
        return (
            f"{count_of(f['cards'], 'card')} ({f['new']} new) "
            f"{'needs' if f['cards'] == 1 else 'need'} at least "
            f"{count_of(f['needed_minutes'], 'minute')} in all (about "
            f"{f['new_card_seconds']:.0f} s to learn a card, {f['review_seconds']:.0f} s a "
            f"review, {REQUIRED_REVIEWS} reviews each), and {count_of(f['days'], 'day')} at "
            f"{count_of(f['daily_minutes'], 'minute')} {'gives' if f['days'] == 1 else 'give'} "
            f"{f['available_minutes']:.0f}"
        )
    if kind is Shortfall.CARDS_SHORT:
        text = (
            f"at {count_of(f['daily_minutes'], 'minute')} a day, {count_of(f['short'], 'card')} "
            f"of {f['cards']} would not get {REQUIRED_REVIEWS} reviews before the exam"
        )
        if f["sibling_group"]:
            text += (
                ": cards that give each other's answers away are drilled on different days, "
                f"and a group of {f['sibling_group']} such cards needs about "
                f"{count_of(f['sibling_days'], 'day')}"
            )
        return text
    assert kind is Shortfall.DAY_OVER
    return (
        f"{f['day'].isoformat()} would need {count_of(f['minutes'], 'minute')}, more than the "
        f"{count_of(f['daily_minutes'], 'minute')} a day"
    )


def remedy_sentence(remedy: Remedy) -> str:
    """What would make a plan feasible, as advice."""
    f = remedy.figures
    if remedy.kind is RemedyKind.MORE_MINUTES:
        return f"study {count_of(f['minutes'], 'minute')} a day instead of {f['daily_minutes']:g}"
    if remedy.kind is RemedyKind.LATER_EXAM:
        return (
            f"move the exam to {f['exam'].isoformat()} or later "
            f"at {count_of(f['daily_minutes'], 'minute')} a day"
        )
    if remedy.kind is RemedyKind.FEWER_NEW_CARDS:
        return (
            f"prepare fewer cards: {f['fit']} of the {f['new']} new ones fit "
            "(plan for fewer decks or one topic)"
        )
    return "plan for fewer decks or one topic"


def exam_plan_dict(plan: ExamPlan) -> dict[str, Any]:
    """The plan as ``recall exam --json`` prints it: the planner's figures, each problem and
    suggestion with its sentence beside its kind and figures."""
    data = plan.to_dict()
    data["problems"] = [
        {**problem.to_dict(), "text": problem_sentence(problem)} for problem in plan.problems
    ]
    data["suggestions"] = [
        {**remedy.to_dict(), "text": remedy_sentence(remedy)} for remedy in plan.suggestions
    ]
    return data


#: How ``recall exam`` narrows a plan to fewer cards, said under its suggestions.
CLI_NARROWING = "recall exam --deck ID (repeatable) or --topic T plans for fewer cards."


def render_exam(plan: ExamPlan, narrowing: str = CLI_NARROWING) -> str:
    """The plan as plain text for a terminal. ``narrowing`` says how the place showing it
    chooses fewer decks (the command's options, the TUI dialog's key); it follows the
    suggestions of a plan that is not feasible."""
    days = (plan.exam - plan.today).days
    cards = len(plan.reviews_before)
    new = sum(len(d.new) for d in plan.days)
    pace = "your pace" if plan.pace.measured else "a first-week pace until the log has yours"
    out = [
        f"Exam on {plan.exam.isoformat()} ({count_of(days, 'day')} from {plan.today.isoformat()}): "
        f"{count_of(cards, 'card')}, {count_of(plan.daily_minutes, 'minute')} a day "
        f"({pace}: {plan.pace.review_seconds:.0f} s a review, "
        f"{plan.pace.new_card_seconds:.0f} s a new card)."
    ]
    if not plan.feasible:
        out += ["", "Not feasible:"]
        out += [f"  - {problem_sentence(problem)}" for problem in plan.problems]
        if plan.suggestions:
            out += ["", "What would make it feasible:"]
            out += [f"  - {remedy_sentence(remedy)}" for remedy in plan.suggestions]
            if narrowing:
                out += ["", narrowing]
        return "\n".join(out)
    by_deck = plan.recall_by_deck()
    out += [
        f"Feasible: {count_of(new, 'new card')} introduced, and every card reviewed at least "
        "twice before "
        "the exam.",
        f"Predicted recall on the exam day: {_pct(plan.predicted_recall)} "
        "(FSRS, if every review is answered right)",
    ]
    if len(by_deck) > 1:
        weakest = sorted(by_deck.items(), key=lambda item: item[1])[:5]
        out.append("weakest decks then: " + ", ".join(f"{d} {_pct(r)}" for d, r in weakest))
    baseline = plan.baseline_by_deck()
    if baseline:
        out += ["", "recall on the exam day   following the plan   normal schedule"]
        width = max(len(d) for d in by_deck)
        for deck, value in sorted(by_deck.items()):
            out.append(
                f"  {deck:<{max(width, 22)}} {_pct(value):>14}   {_pct(baseline.get(deck)):>15}"
            )
    out += ["", "day          new  reviews  weakest  minutes"]
    for day in plan.days:
        out.append(
            f"{day.day.isoformat()}  {len(day.new):>4} {len(day.reviews):>8} "
            f"{len(day.weakest):>8} {day.minutes:>8g}"
        )
    return "\n".join(out)


# --------------------------------------------------------------------------- a followed exam


def cumulative_new(plan: ExamPlan) -> dict[str, int]:
    """Cards ``plan`` introduces by the end of each of its days, cumulative, by ISO date (what
    a followed plan is measured against)."""
    total, out = 0, {}
    for day in plan.days:
        total += len(day.new)
        out[day.day.isoformat()] = total
    return out


@dataclass(frozen=True)
class ExamGuidance:
    """A followed exam plan and what it asks of today (:class:`recall.exam_follow.DayGuidance`)."""

    followed: FollowedExam
    today: DayGuidance

    @property
    def review_only(self) -> bool:
        return self.today.review_only

    @property
    def days_left(self) -> int:
        return self.followed.days_left(self.today.day)

    def settings(self, base: Settings, deck_ids: Collection[str]) -> Settings:
        """``base`` as today runs it under the plan: its new cards, none from a deck it does
        not cover, and its retention."""
        limits = dict(base.deck_new_limits)
        if self.followed.decks:
            limits.update({d: 0 for d in deck_ids if d not in self.followed.decks})
        return replace(
            base,
            new_per_day=0 if self.today.review_only else self.today.new,
            desired_retention=self.followed.retention,
            deck_new_limits=limits,
        )

    def headers(self) -> list[str]:
        """The home screen's line in words that fit less and less room, longest first:
        ``exam in 12 days: on track, ~14 min today`` down to ``exam 12d: on track ~14m``."""
        days, minutes = self.days_left, f"~{self.today.minutes:.0f} min"
        when = "exam today" if days == 0 else f"exam in {count_of(days, 'day')}"
        short_when = "exam today" if days == 0 else f"exam {days}d"
        if self.review_only:
            return [
                f"{when}: last days, reviews only, weakest first, {minutes}",
                f"{when}: reviews only, weakest first, {minutes}",
                f"{short_when}: reviews only, weakest first",
            ]
        if self.today.behind:
            behind = count_of(self.today.behind, "card")
            return [
                f"{when}: behind by {behind} (spread over the days left), {minutes} today",
                f"{when}: behind by {behind}, {minutes} today",
                f"{short_when}: behind {self.today.behind}, {minutes}",
            ]
        return [
            f"{when}: on track, {minutes} today",
            f"{short_when}: on track, {minutes}",
        ]


def day_guidance(
    store: Store,
    settings: Settings,
    followed: FollowedExam,
    plan: ExamPlan,
    now: datetime,
    tz: tzinfo | None = None,
) -> DayGuidance:
    """What ``plan`` (made this study day from the cards' states now) asks of today: the day's
    new cards (those introduced earlier today counted in), its minutes, whether it is one of the
    last review-only days, and how far behind the adoption plan the learner is."""
    from recall.exam_follow import DayGuidance
    from recall.scheduling.day import day_start
    from recall.scheduling.exam_plan import FINAL_DAYS
    from recall.session.new_cards import introduced_by_deck

    rollover = settings.day_rollover_hour
    today = study_date(now, rollover, tz)
    start = day_start(today, rollover, tz)

    def introduced(since: datetime) -> int:
        by_deck = introduced_by_deck(store, since)
        wanted = followed.decks or by_deck.keys()
        return sum(by_deck.get(deck, 0) for deck in wanted)

    today_so_far = introduced(start)
    before_today = introduced(day_start(followed.adopted, rollover, tz)) - today_so_far
    # The day's new-card limit is charged with every card introduced today, in any deck (the
    # allowance counts them all: :func:`recall.session.new_cards.new_allowance`), so the day's
    # count starts from that same figure; counting only the plan's decks here left the limit
    # spent by cards of other decks, and today's plan short of the plan's row for today.
    spent_today, _reviewed = store.introduced_and_reviewed(start)
    first = plan.days[0] if plan.days and plan.days[0].day == today else None
    review_only = followed.days_left(today) <= FINAL_DAYS
    # The planner knows nothing of burials: a new card whose sibling was seen today waits for
    # tomorrow, so no session introduces it today and the day's count leaves it out (the plan
    # made tomorrow takes it); counted, the day's limit kept a card that never came.
    stored = store.cards_by_key(first.new) if first else {}
    introduce = tuple(
        key
        for key in (first.new if first else ())
        if key not in stored or not _buried(stored[key].buried_until, now)
    )
    return DayGuidance(
        day=today,
        new=0 if review_only else spent_today + len(introduce),
        minutes=first.minutes if first else 0.0,
        review_only=review_only,
        behind=max(0, followed.target_by(today - timedelta(days=1)) - before_today),
        feasible=plan.feasible,
        ahead=(*first.reviews, *first.weakest) if first else (),
        introduce=() if review_only else introduce,
        later=()
        if review_only
        else tuple(key for day in plan.days if day.day > today for key in day.new)[:MAX_LATER],
    )


#: The plan's later new cards kept for a raise of today's limit, at most (a raise is a few).
MAX_LATER = 200


def _buried(until: datetime | None, now: datetime) -> bool:
    return until is not None and until > now
