"""A name the card does not know is read as the card's name when its meaning is plain.

The class (issue 18 item 2, "every symbol the screen shows is typable"): a dropped index or
accent suffix (``p`` for ``p_i``, ``γ`` for ``gamma_i``, ``m̂`` for ``m_hat_t``) when exactly one
of the card's names extends it; ``ε_u`` where the card spells it ``eps_u``; ``ℓ`` for ``ell``;
``σ(z)`` for the sigmoid on a card that calls it ``sigmoid``. Tried over every built-in formula
card: each subscripted name typed without its index, where the card has no other name with that
base, grades the answer correct; where two names share the base the learner is asked.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from recall.cards.loader import load_decks
from recall.cards.model import CardKind
from recall.errors import ParseError
from recall.formula import SymbolTable, check, parse
from recall.formula.nodes import BinOp, Call, Negate, Node, Symbol
from recall.formula.printer import to_text
from recall.grading import symbol_table
from recall.paths import builtin_decks_dir


def renamed(node: Node, old: str, new: str) -> Node:
    if isinstance(node, Symbol):
        return Symbol(new) if node.name == old else node
    if isinstance(node, Negate):
        return Negate(renamed(node.operand, old, new))
    if isinstance(node, BinOp):
        return BinOp(node.op, renamed(node.left, old, new), renamed(node.right, old, new))
    if isinstance(node, Call):
        args = tuple(renamed(arg, old, new) for arg in node.args)
        return Call(node.name, args, node.shown)
    return node


@lru_cache(maxsize=1)
def dropped_indices() -> list[tuple[str, str, str, SymbolTable]]:
    found = []
    for deck in load_decks([builtin_decks_dir()]).decks:
        for card in deck.cards:
            if card.kind is not CardKind.FORMULA or card.params:
                continue
            table = symbol_table(card)
            tree = parse(card.answer, table).tree
            names = set(table.variables)
            for name in sorted(names):
                base = name.split("_", 1)[0]
                if "_" not in name or base in names or table.function(base) is not None:
                    continue
                if table.is_constant(base) or len(base) > 1 and base != base.lower():
                    continue
                if [n for n in names if n.startswith(base + "_")] != [name]:
                    continue
                index = name[len(base) + 1 :]
                if index not in {"i", "j", "t", "n", "m", "c"}:
                    continue
                typed = to_text(renamed(tree, name, base))
                found.append((card.key, card.answer, typed, table))
    return found


def test_the_class_is_large() -> None:
    assert len(dropped_indices()) >= 30


@pytest.mark.parametrize("case", dropped_indices(), ids=lambda case: f"{case[0]}:{case[2]}")
def test_a_dropped_index_is_read_as_the_cards_name(case) -> None:
    key, reference, typed, table = case
    verdict = check(reference, typed, table)
    assert verdict.is_correct, (key, typed, verdict.message)


@lru_cache(maxsize=1)
def numbered_names() -> list[tuple[str, str, str, SymbolTable]]:
    """Each numbered name of a built-in formula card (``beta_2``, ``z_1``, ``alpha_1``) whose
    base the card does not declare: the answer typed with the base alone."""
    found = []
    for deck in load_decks([builtin_decks_dir()]).decks:
        for card in deck.cards:
            if card.kind is not CardKind.FORMULA or card.params:
                continue
            table = symbol_table(card)
            parsed = parse(card.answer, table)
            tree = parsed.tree
            for name in sorted(table.variables):
                base, _, index = name.partition("_")
                if not index.isdigit() or base in table.variables or table.is_constant(base):
                    continue
                if name not in parsed.names:
                    continue
                found.append((card.key, base, to_text(renamed(tree, name, base)), table))
    return found


def test_a_number_is_never_dropped() -> None:
    """``v/(1-β^t)`` on Adam's second-moment card: which β goes there is what the card asks, so
    a bare name is never read as a numbered one; it is asked about (did you mean β_2?)."""
    assert len(numbered_names()) >= 10
    read = []
    for key, base, typed, table in numbered_names():
        try:
            parse(typed, table)
        except ParseError as error:
            if f"unknown name '{base}'" not in error.message:
                read.append(f"{key}: {typed}: {error.message}")
            continue
        read.append(f"{key}: {typed} was read")
    assert read == []


def test_adams_bare_beta_is_asked_about() -> None:
    card = next(
        c
        for deck in load_decks([builtin_decks_dir()]).decks
        for c in deck.cards
        if c.key == "optimizers/adam-v-hat"
    )
    with pytest.raises(ParseError, match="unknown name 'β'"):
        parse("v_t/(1-β^t)", symbol_table(card))


def test_two_names_with_the_base_are_asked_about() -> None:
    table = SymbolTable.build({"p_i": "(0, 1)", "p_j": "(0, 1)"})
    with pytest.raises(ParseError, match="unknown name 'p'"):
        parse("-p p_j", table)


def test_a_subscript_that_names_something_is_not_dropped() -> None:
    # d is the model width, d_k the key width: s/√d is a different answer, asked about
    table = SymbolTable.build({"s": "real", "d_k": "positive"})
    with pytest.raises(ParseError, match="unknown name 'd'"):
        parse("s/sqrt(d)", table)


@pytest.mark.parametrize(
    ("variables", "reference", "typed"),
    [
        (
            {"eps_theta": "real", "alpha_bar_t": "(0, 1)"},
            "-eps_theta/sqrt(1 - alpha_bar_t)",
            "−ε_θ/√(1−ᾱ_t)",
        ),
        (
            {"eps_u": "real", "eps_c": "real", "w": "real"},
            "eps_u + w*(eps_c - eps_u)",
            "ε_u + w(ε_c − ε_u)",
        ),
        ({"epsilon": "positive", "x": "real"}, "x + epsilon", "x + eps"),
        ({"ell": "real", "J": "real"}, "ell + log(abs(J))", "ℓ + log|J|"),
        (
            {"m_hat_t": "real", "v_hat_t": "positive", "w": "real"},
            "w - m_hat_t/sqrt(v_hat_t)",
            "w − m̂/√v̂",
        ),
        ({"gamma_i": "real", "x_i": "real", "beta_i": "real"}, "gamma_i*x_i + beta_i", "γx + β"),
    ],
)
def test_the_cards_spelling_is_found(variables, reference: str, typed: str) -> None:
    assert check(reference, typed, SymbolTable.build(variables)).is_correct


def test_sigma_called_is_the_sigmoid_where_the_card_says_sigmoid() -> None:
    table = SymbolTable.build({"theta": "real"})
    assert check("sigmoid(theta)", "σ(θ)", table).is_correct
    assert check("1/(1 + exp(-theta))", "sigma(theta)", table).is_correct
    # a card that declares sigma a variable multiplies, as before
    spread = SymbolTable.build({"sigma": "positive", "x": "real"})
    assert parse("σ(x + 1)", spread).to_text() == "sigma*(x + 1)"


def test_a_superscript_label_is_the_cards_index() -> None:
    """``X W^Q`` as the sheets write head i's projection (W_i^Q): W_Q on a card that declares
    it, never a power; a card where Q is itself a name asks instead."""
    table = SymbolTable.build(
        {"X": "real", "W_Q": "real", "W_K": "real", "W_V": "real"}, functions=["Attention"]
    )
    reference = "Attention(X*W_Q, X*W_K, X*W_V)"
    assert check(reference, "Attention(X W^Q, X W^K, X W^V)", table).is_correct
    assert str(check(reference, "Attention(X W^K, X W^Q, X W^V)", table).status) == "incorrect"
    with pytest.raises(ParseError, match="unknown name 'W'"):
        parse("W^Q", SymbolTable.build({"W_Q": "real", "Q": "real"}))
