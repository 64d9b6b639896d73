"""One formula, one subscript style: ``S_xy`` is never drawn beside ``Sₓₓ``.

SymPy writes a subscript in Unicode subscript letters only when every character has one, symbol
by symbol; :func:`recall.formula.render` writes every subscript of a formula with ``_`` as soon
as one of them cannot be written in subscript letters."""

from __future__ import annotations

import re

import pytest

from recall.formula import render
from recall.formula.parser import parse

UNICODE_SUBSCRIPT = re.compile("[ₐₑₒₓₔₕₖₗₘₙₚₛₜᵢⱼᵣᵤᵥᵦᵧᵨᵩᵪ₀-₉]")
UNDERSCORE_SUBSCRIPT = re.compile(r"[^\W_]_[^\W_]")


def mixes_styles(drawn: str) -> bool:
    return bool(UNICODE_SUBSCRIPT.search(drawn) and UNDERSCORE_SUBSCRIPT.search(drawn))


@pytest.mark.parametrize(
    "typed",
    [
        "S_xy/S_xx",
        "S_xy/(S_xx + lambda)",
        "r_w - r_l",
        "p_i*p_j",
        "x_i + x_j",
        "H_pq - H_p",
        "pi_theta/pi_ref",
        "sigma_1*S_xy + x_t^2 + beta1",
        "L_total/(log(2)*n_chars)",
    ],
)
def test_a_subscript_without_letters_writes_every_subscript_with_underscores(typed: str) -> None:
    drawn = render(parse(typed))
    assert not mixes_styles(drawn), drawn
    assert "_" in drawn


@pytest.mark.parametrize(
    ("typed", "drawn"), [("sigma_1*x_t + beta_2", "σ₁⋅xₜ + β₂"), ("a_0 + a_1*x", "a₀ + a₁⋅x")]
)
def test_subscript_letters_stay_when_every_subscript_has_them(typed: str, drawn: str) -> None:
    assert render(parse(typed)) == drawn


def test_no_builtin_card_draws_both_subscript_styles_in_one_formula() -> None:
    from recall.cards.loader import load_decks
    from recall.paths import builtin_decks_dir
    from recall.tui.presenting import render_quietly, takes_math

    drawn = 0
    for card in load_decks([builtin_decks_dir()]).cards:
        texts = ([card.answer] if takes_math(card) else []) + [card.shown]
        for text in filter(str.strip, texts):
            shown = render_quietly(text, card)
            drawn += 1
            assert not mixes_styles(shown), (card.key, shown)
    assert drawn > 300
