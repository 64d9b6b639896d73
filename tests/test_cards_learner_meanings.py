"""Symbol meanings are written for the learner (issue 12: "(one weight in the identity check)").

A name declared only so a card's identities can be checked (``identities_only``) is not the
learner's to type, so the legend never lists it; and no meaning, shown or not, speaks of the
deck's own checks: a deck author's note about them belongs in a TOML comment.
"""

from __future__ import annotations

import re
import tomllib
from functools import lru_cache

from recall.cards.loader import LoadResult, load_decks
from recall.grading import check_deck
from recall.paths import builtin_decks_dir
from recall.tui.presenting import card_view

#: Words about the deck's machinery, not about the quantity a name stands for.
INTERNAL = re.compile(r"\b(identity|identities|check|checks|checked|grader|engine|internal)\b")


@lru_cache(maxsize=1)
def builtin() -> LoadResult:
    return load_decks([builtin_decks_dir()], check=check_deck)


def every_meaning() -> list[tuple[str, str, str]]:
    """(file, name, meaning) for every symbol of every built-in deck file, deck and card level."""
    found = []
    for path in sorted(builtin_decks_dir().glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        tables = [data.get("deck", {}).get("symbols", {})]
        tables += [card.get("symbols", {}) for card in data.get("card", [])]
        for table in tables:
            for name, spec in table.items():
                if isinstance(spec, dict) and spec.get("meaning"):
                    found.append((path.name, name, spec["meaning"]))
    return found


def test_no_meaning_speaks_of_the_decks_checks() -> None:
    meanings = every_meaning()
    assert len(meanings) > 300
    leaks = [item for item in meanings if INTERNAL.search(item[2])]
    assert not leaks, leaks


def test_the_legend_lists_only_names_the_learner_may_type() -> None:
    cards = builtin().cards
    hidden_shown = 0
    for card in cards:
        hidden = {symbol.name for symbol in card.symbols if symbol.identities_only}
        legend = card_view(card).symbols
        assert not hidden & {name for name, _meaning in legend}, card.key
        for name, meaning in legend:
            assert not INTERNAL.search(meaning), (card.key, name, meaning)
        hidden_shown += bool(hidden)
    assert hidden_shown > 20  # the rule is exercised: many cards declare such names


def test_the_gradient_cards_legend_says_what_w_and_x_are() -> None:
    card = next(c for c in builtin().cards if c.key == "gradients/logreg-grad-coordinate")
    legend = dict(card_view(card).symbols)
    assert legend["w"] == "the weights" and legend["x"] == "the input"
