"""Deck content the learner meets: names a card offers mean what the prompt says they mean.

A prompt that defines ``z = w·x`` accepts ``w*x`` where ``z`` is expected; a deck-wide ``g`` and a
card's ``g_t`` for the same gradient are one name on that card, not two independent variables
(an answer in the other spelling would be graded wrong).
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from functools import lru_cache
from pathlib import Path

import pytest

from recall.cards.loader import LoadResult, load_decks, read_deck
from recall.cards.model import Card, CardKind
from recall.grading import check_deck, grade
from recall.paths import builtin_decks_dir
from recall.verdicts import Status


@lru_cache(maxsize=1)
def builtin() -> LoadResult:
    result = load_decks([builtin_decks_dir()], check=check_deck)
    assert result.ok, result.errors
    return result


def card(key: str) -> Card:
    deck_id, card_id = key.split("/")
    return builtin().deck(deck_id).card(card_id)


@pytest.mark.parametrize(
    ("key", "typed"),
    [
        ("gradients/logreg-grad-coordinate", "(sigma(w*x) - y)*x_j"),
        ("gradients/logreg-grad-coordinate", "(sigma(z) - y)*x_j"),
        ("gradients/linreg-grad-coordinate", "(w*x - y)*x_j"),
        ("gradients/mse-on-sigmoid-grad", "(sigma(w*x) - y)*sigma(w*x)*(1 - sigma(w*x))*x"),
        ("optimizers/adam-m", "beta_1*m_prev + (1 - beta_1)*g"),
        ("optimizers/adam-v", "beta_2*v_prev + (1 - beta_2)*g^2"),
    ],
)
def test_a_name_the_prompt_defines_can_be_typed_either_way(key: str, typed: str) -> None:
    assert grade(card(key), typed).is_correct


def test_the_definition_does_not_make_a_different_answer_right() -> None:
    assert not grade(card("gradients/logreg-grad-coordinate"), "(sigma(z) - y)*x").is_correct


def test_a_deck_name_and_a_cards_step_indexed_name_are_one_name() -> None:
    """``g`` (deck) beside ``g_t`` (card) in a card whose answer uses ``g_t``: either ``g`` is
    defined as ``g_t`` on that card, or the card does not offer it."""
    twins = []
    for item in builtin().cards:
        if item.kind is not CardKind.FORMULA:
            continue
        used = set(re.findall(r"[A-Za-z][A-Za-z0-9_]*", item.answer))
        symbols = {s.name: s for s in item.symbols}
        for name, spec in symbols.items():
            indexed = f"{name}_t"
            if indexed in used and name not in used and spec.equals != indexed:
                twins.append(f"{item.key}: {name} beside {indexed}")
    assert not twins, "\n".join(twins)


_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def _names(text: str) -> set[str]:
    spelled = "".join(
        unicodedata.name(c, "").rsplit(" ", 1)[-1].lower() if "\u0370" <= c <= "\u03ff" else c
        for c in text
    )
    return set(_NAME.findall(spelled))


def test_a_symbol_only_the_identities_use_is_not_offered_to_the_learner() -> None:
    """The class of ``w`` and ``x`` behind ``logreg-grad-coordinate``: a name declared on a card
    only so its identities can be checked is ``identities_only``, so a learner who types it is
    told it is not one of the question's names instead of being graded against it."""
    offered = []
    for path in sorted(builtin_decks_dir().glob("*.toml")):
        for raw in tomllib.loads(path.read_text(encoding="utf-8"))["card"]:
            own = raw.get("symbols", {})
            checked = set()
            for identity in raw.get("identities", []):
                checked |= _names(" ".join(str(v) for v in identity.values()))
            seen = _names(
                " ".join(str(raw.get(k, "")) for k in ("answer", "prompt", "shown", "text", "hint"))
            )
            seen |= {
                n for v in own.values() if isinstance(v, dict) for n in _names(v.get("equals", ""))
            }
            for name, spec in own.items():
                hidden = isinstance(spec, dict) and spec.get("identities_only", False)
                equals = isinstance(spec, dict) and spec.get("equals")
                if name in checked and name not in seen and not equals and not hidden:
                    offered.append(f"{path.stem}/{raw['id']}: {name}")
    assert not offered, "\n".join(offered)


def test_an_identities_only_name_is_invalid_in_an_answer() -> None:
    item = card("activations/softmax-jacobian-diagonal")
    assert any(s.identities_only for s in item.symbols)
    verdict = grade(item, "exp(z_1)/(exp(z_1) + exp(z_2) + exp(z_3))")
    assert verdict.status is Status.INVALID
    assert grade(item, "p_i - p_i^2").is_correct


def test_a_card_answer_may_not_use_an_identities_only_name(tmp_path: Path) -> None:
    path = tmp_path / "deck.toml"
    path.write_text(
        '[deck]\nid = "t"\nname = "T"\n\n[[card]]\nid = "c"\nkind = "formula"\n'
        'prompt = "?"\nanswer = "w*x"\n[card.symbols]\nw = "real"\n'
        'x = { domain = "real", identities_only = true }\n',
        encoding="utf-8",
    )
    deck, errors = read_deck(path, check=check_deck)
    assert deck is None
    assert any("'x' is used in answer but not declared" in str(e) for e in errors)
