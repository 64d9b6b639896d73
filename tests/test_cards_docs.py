"""The examples in docs/decks.md are valid decks: a learner copying them gets no errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from recall.cards.loader import load_deck
from recall.cards.model import CardKind
from recall.grading import check_card_claims, check_deck

DOC = Path(__file__).parent.parent / "docs" / "decks.md"
BLOCKS = re.findall(r"```toml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
HEADER = '[deck]\nid = "doc-example"\nname = "Doc example"\n\n'


def test_the_docs_show_every_kind() -> None:
    text = "\n".join(BLOCKS)
    for kind in CardKind:
        assert f'kind = "{kind}"' in text


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block-{i + 1}" for i in range(len(BLOCKS))])
def test_each_toml_example_loads_and_its_identities_hold(tmp_path: Path, block: str) -> None:
    source = block if block.lstrip().startswith("[deck]") else HEADER + block
    path = tmp_path / "example.toml"
    path.write_text(source, encoding="utf-8")
    deck = load_deck(path, check=check_deck)
    assert deck.cards
    for card in deck.cards:
        for outcome in check_card_claims(card):
            assert outcome.ok, outcome.describe()
