"""What the drill screen lists under a prompt."""

from __future__ import annotations

from recall.cards.model import Card, CardKind, SymbolSpec
from recall.tui.presenting import card_view


def test_only_the_symbols_a_card_mentions_are_listed() -> None:
    """Deck-wide declarations (N, D, C on every scaling card) are not all shown on each card."""
    card = Card(
        deck_id="training-scaling",
        id="batch-scaling",
        kind=CardKind.FORMULA,
        prompt="steps(B)/steps(inf) in terms of B and B_crit",
        answer="1 + B_crit/B",
        symbols=(
            SymbolSpec("N", "positive", "parameters"),
            SymbolSpec("D", "positive", "tokens"),
            SymbolSpec("B", "positive", "batch size"),
            SymbolSpec("B_crit", "positive", "critical batch size"),
        ),
    )
    listed = [name for name, _ in card_view(card).symbols]
    assert listed == ["B", "B_crit"]
