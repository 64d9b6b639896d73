"""``recall check --card DECK/CARD ANSWER``: one answer graded exactly as the drill screen would.

The card comes from the learner's workspace (built-in and custom decks, as ``recall`` loads them),
the question is drawn once from the seed (:meth:`recall.grading.Question.draw`: the values the
drill screen would show for that seed) and the verdict is :func:`recall.grading.grade`'s, with the
deck's neighbour names as ``others``. Nothing here grades on its own.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from recall.errors import ConfigError
from recall.inert import inert, quote

if TYPE_CHECKING:
    from recall.cards.model import Card
    from recall.formula import Verdict
    from recall.grading import Question
    from recall.workspace import Workspace

#: Exit status by verdict; a self-rated (explain) card has nothing to decide: 0.
EXIT = {"correct": 0, "incorrect": 1, "invalid": 2, "self": 0}


def run_card(args: argparse.Namespace, print_verdict: Callable[[dict[str, Any]], None]) -> int:
    """Grade ``args.answer`` (or the lone positional) against ``args.card``; ``print_verdict``
    is ``recall check``'s own verdict printer (passed in: no import cycle)."""
    from recall.commands import open_workspace

    answer = args.answer if args.answer is not None else args.expected
    if args.answer is not None and args.expected is not None:
        print(
            "recall check: with --card give only ANSWER (the card is the reference)",
            file=sys.stderr,
        )
        return 2
    if answer is None:
        print("recall check: give the ANSWER to grade against --card", file=sys.stderr)
        return 2
    if args.var or args.funcs or args.tolerance is not None:
        print(
            "recall check: --var, --func and --tolerance come from the card with --card",
            file=sys.stderr,
        )
        return 2
    workspace = open_workspace(args, sync=False)
    card = find_card(workspace, args.card)
    started = time.perf_counter()
    question, verdict = grade_on_card(workspace, card, answer, args.seed)
    data = verdict.to_dict()
    data["ms"] = round((time.perf_counter() - started) * 1000, 3)
    data["card"] = card.key
    data["seed"] = question.seed
    data["values"] = dict(question.values)
    data["prompt"] = question.prompt
    status = data["status"]
    if args.json:
        print(json.dumps({"verdict": data.pop("status"), **data}, ensure_ascii=False))
    else:
        _print_card_verdict(card, data, print_verdict)
    return EXIT[status]


def grade_on_card(
    workspace: Workspace, card: Card, answer: str, seed: int | None = None
) -> tuple[Question, Verdict]:
    """The question drawn from ``seed`` and the verdict for ``answer``, exactly as the drill
    screen grades it (the deck's neighbour names as ``others``). The one path of ``recall check
    --card``; the learner-answer corpus test grades through it too."""
    from recall.grading import Question, grade

    question = Question.draw(card, seed)
    return question, grade(question, answer, others=workspace.neighbour_names(card))


def find_card(workspace: Workspace, key: str) -> Card:
    """The loaded card ``DECK/CARD``; a :class:`ConfigError` with "did you mean" otherwise (the
    argument is wrong, not a deck file)."""
    from recall.cards.problems import did_you_mean

    deck_id, sep, card_id = key.partition("/")
    if not sep or not deck_id or not card_id:
        raise ConfigError(
            f"--card takes DECK/CARD, got '{quote(key)}' (e.g. --card losses/mse; "
            "see `recall decks show DECK`)"
        )
    deck = workspace.deck(deck_id)
    if deck is None:
        ids = [d.id for d in workspace.decks]
        hint = did_you_mean(deck_id, ids) or "see `recall decks list`"
        raise ConfigError(f"no deck '{quote(deck_id)}' ({hint})")
    try:
        return workspace.card(f"{deck_id}/{card_id}")
    except KeyError:
        ids = [c.id for c in deck.cards]
        hint = did_you_mean(card_id, ids) or f"see `recall decks show {deck_id}`"
        raise ConfigError(
            f"deck '{quote(deck_id)}' has no card '{quote(card_id)}' ({hint})"
        ) from None


def _print_card_verdict(
    card: Card, data: dict[str, Any], print_verdict: Callable[[dict[str, Any]], None]
) -> None:
    print(f"card: {card.key} ({card.kind})")
    if data["seed"] is not None:
        print(f"seed: {data['seed']}")
    for line in data["prompt"].splitlines():
        print(f"  {line}")
    print_verdict(data)
    if data.get("points"):
        _print_points(data["points"])
    elif data["status"] != "correct" and data.get("expected") and not data.get("worked"):
        print(f"reference: {data['expected']}")


def _print_points(points: list[dict[str, Any]]) -> None:
    """Each key point of a checked explanation: made, with the words that made it, or missed,
    with its model sentence."""
    for point in points:
        if point["made"]:
            print(f"  made:   {inert(point['say'])}  (you said: {quote(point['said'])})")
        else:
            print(f"  missed: {inert(point['say'])}")
