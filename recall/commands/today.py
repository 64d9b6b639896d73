"""``recall today [--json]``: today's plan, without changing anything.

The queue a session would drill today, in order (learning cards, then due reviews with today's
new cards spread among them), how many cards of each deck and topic, the daily limits and what
is left of them, and the minutes it should take at the learner's own pace. ``--json`` prints
the same as one object (:meth:`recall.scheduling.today.TodayPlan.to_dict`, and
``new_extra_today``: today's raise of the new-card limit) whose ``queue`` is a list of
``{"deck", "card", "kind", "state"}``. The plan is :meth:`recall.workspace.Workspace.plan_today`,
the one the home screen shows.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from recall.wording import count_of

if TYPE_CHECKING:
    from recall.scheduling.today import Limit, TodayPlan

#: Cards of the queue the text output lists (``--all`` lists every one).
SHOWN = 20


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "today",
        help="show today's plan: the queue, counts, limits and minutes",
        description="What a session would drill today, in order, and how long it should take. "
        "Nothing is changed.",
    )
    parser.add_argument("--json", action="store_true", help="print the plan as JSON")
    parser.add_argument("--all", action="store_true", help="list the whole queue")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from recall.commands import open_workspace

    workspace = open_workspace(args)
    try:
        plan = workspace.plan_today()
        extra = workspace.extra_new_today()
        exam = workspace.exam_guidance()
    finally:
        workspace.close()
    if args.json:
        followed = None
        if exam is not None:
            followed = {
                "exam": exam.followed.exam.isoformat(),
                "days_left": exam.days_left,
                "new_today": exam.today.new,
                "minutes_today": exam.today.minutes,
                "review_only": exam.review_only,
                "behind": exam.today.behind,
            }
        print(
            json.dumps(
                {**plan.to_dict(), "new_extra_today": extra, "exam_followed": followed}, indent=2
            )
        )
    else:
        print(render(plan, shown=None if args.all else SHOWN, extra_new=extra))
        if exam is not None:
            print(f"\n{exam.headers()[0][:1].upper()}{exam.headers()[0][1:]}.")
    return 0


def _limit(name: str, limit: Limit, extra: int = 0) -> str:
    if limit.limit is None:
        return f"{name}: no daily limit ({limit.spent} today)"
    daily = f"{limit.limit - extra} a day + {extra} today" if extra else f"{limit.limit} a day"
    return f"{name}: {daily}, {limit.spent} done, {limit.left} left after this plan"


def _waiting(count: int, noun: str = "new card") -> str:
    """``1 new card waits`` / ``5 new cards wait``: the verb agrees with the count."""
    from recall.wording import count_of

    return f"{count_of(count, noun)} {'waits' if count == 1 else 'wait'}"


def render(plan: TodayPlan, shown: int | None = SHOWN, extra_new: int = 0) -> str:
    """The plan as plain text for a terminal (``shown``: how many queued cards to list;
    ``extra_new``: today's raise of the new-card limit, "learn N more today")."""
    counts = plan.counts
    pace = "your pace" if plan.pace.measured else "a first-week pace until the log has yours"
    out = [
        f"Today, {plan.day.isoformat()}: {counts.new} new, {counts.learning} learning, "
        f"{counts.review} to review, about {count_of(plan.minutes, 'minute')}",
        f"({pace}: {plan.pace.review_seconds:.0f} s a review, "
        f"{plan.pace.new_card_seconds:.0f} s a new card)",
        _limit("new cards", plan.new_limit, extra_new)
        + " · "
        + _limit("reviews", plan.review_limit),
    ]
    limit = plan.new_limit.limit
    if limit is not None and plan.new_waiting and plan.new_limit.left == 0:
        if plan.new_limit.spent >= limit:
            out.append(
                f"Today's new-card allowance is spent ({plan.new_limit.spent} of {limit}); "
                f"{_waiting(plan.new_waiting)} for the next days "
                "(`n` on the home screen learns more today only; "
                "`recall config new_per_day N` raises every day's)."
            )
        else:
            out.append(f"{_waiting(plan.new_waiting, 'more new card')} for the next days.")
    if not plan.queue:
        out.append("Nothing to drill today.")
        return "\n".join(out)
    width = max(len(name) for name in plan.by_deck) + 2
    out += ["", f"{'deck':<{width}}  new  learning  review"]
    for deck, c in sorted(plan.by_deck.items()):
        out.append(f"{deck:<{width}} {c.new:>4} {c.learning:>9} {c.review:>7}")
    if 1 < len(plan.by_topic) < len(plan.by_deck) or len(plan.by_topic) > len(plan.by_deck):
        width = max(len(name or "(no topic)") for name in plan.by_topic) + 2
        out += ["", f"{'topic':<{width}}  new  learning  review"]
        for topic, c in sorted(plan.by_topic.items()):
            out.append(f"{topic or '(no topic)':<{width}} {c.new:>4} {c.learning:>9} {c.review:>7}")
    listed = plan.queue if shown is None else plan.queue[:shown]
    out += ["", "in drill order:"]
    for number, card in enumerate(listed, start=1):
        out.append(f"{number:>4}. {card.state:<8}  {card.deck}/{card.card}  ({card.kind})")
    if len(listed) < len(plan.queue):
        out.append(f"      … and {len(plan.queue) - len(listed)} more (--all lists them)")
    return "\n".join(out)
