"""Spacing siblings apart in the new-card order stays linear in the cards (issue 18, item 7).

:func:`recall.scheduling.new_order._siblings_apart` used to look over every sibling group at
every step, which took seconds for 20,000 new cards; it now keeps the groups' sizes so it looks
only when a group can be urgent. Its order must be exactly the one of the plain rule, written out
here as the reference: at each step, the first card of a group that must be placed now to stay
spaced, else the first card with no sibling among the last ``gap`` placed, else the first card.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest

from recall.scheduling.new_order import NewCard, _siblings_apart


def reference(cards: Sequence[NewCard], gap: int) -> list[NewCard]:
    rest = list(cards)
    left = Counter(card.group for card in rest if card.group is not None)
    out: list[NewCard] = []
    while rest:
        recent = {card.group for card in out[-gap:]}
        urgent = {g for g, n in left.items() if (n - 1) * (gap + 1) + 1 >= len(rest)} - recent
        chosen = next((i for i, c in enumerate(rest) if c.group in urgent), None)
        if chosen is None:
            chosen = next(
                (i for i, c in enumerate(rest) if c.group is None or c.group not in recent), 0
            )
        card = rest.pop(chosen)
        if card.group is not None:
            left[card.group] -= 1
            if not left[card.group]:
                del left[card.group]
        out.append(card)
    return out


@pytest.mark.parametrize("seed", range(6))
def test_the_order_is_the_plain_rules_order(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(300):
        groups = rng.randint(1, 8)
        share = rng.random()
        cards = [
            NewCard(
                rng.choice(("a", "b")),
                f"c{i}",
                sibling_group=f"g{rng.randint(1, groups)}" if rng.random() < share else None,
            )
            for i in range(rng.randint(1, 40))
        ]
        for gap in (1, 2, 3, 5):
            assert _siblings_apart(cards, gap) == reference(cards, gap)


def test_one_large_group_is_still_spread_through_the_order() -> None:
    cards = [NewCard("d", f"g{i}", sibling_group="big") for i in range(5)]
    cards += [NewCard("d", f"x{i}") for i in range(16)]
    order = _siblings_apart(cards, 3)
    places = [i for i, card in enumerate(order) if card.sibling_group == "big"]
    assert all(b - a >= 4 for a, b in zip(places, places[1:], strict=False))
