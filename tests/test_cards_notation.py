"""Prompts, legends and hints write formulas the way the screen draws them (issue 18, item 6).

A shown formula is drawn as text (``x_(t-1)``, ``ᾱ_(t-1)``, ``ℝ^(d×r)``, ``σ^(1/ρ)``: see
:mod:`recall.tui.latex_display`), and the names a learner types are ``d_k``, ``beta_1``. So the
words around a formula use that one notation: a subscript or superscript of more than one
character in parentheses, never LaTeX braces (``x_{t−1}``) or commands (``\\bar``), and
subscripts with ``_``, never Unicode subscript letters (``dₖ``, ``β₁``) mixed in with ``d_k``.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import pytest

from recall.cards.loader import load_decks
from recall.cards.model import Card
from recall.paths import builtin_decks_dir
from recall.tui.latex_display import latex_to_unicode

#: ``x_{…}`` or ``x^{…}`` (a numeric prompt's ``{N}`` placeholder is not preceded by ``_``/``^``).
LATEX_BRACES = re.compile(r"[_^]\{")
LATEX_COMMAND = re.compile(r"\\[A-Za-z]+")
UNICODE_SUBSCRIPT = re.compile("[ₐₑₒₓₔₕₖₗₘₙₚₛₜᵢⱼᵣᵤᵥ₀₁₂₃₄₅₆₇₈₉]")


@lru_cache(maxsize=1)
def builtin_cards() -> tuple[Card, ...]:
    result = load_decks([builtin_decks_dir()])
    assert result.ok, result.errors
    return result.cards


def screen_texts(card: Card) -> dict[str, str]:
    """Every text the drill screen prints around the formulas, by where it comes from."""
    texts = {"prompt": card.prompt, "text": card.text, "hint": card.hint}
    for symbol in card.symbols:
        texts[f"legend {symbol.name}"] = symbol.meaning
    for param in card.params:
        texts[f"legend {param.name}"] = param.meaning
    return {where: text for where, text in texts.items() if text}


def notation_faults(text: str) -> list[str]:
    faults = []
    if LATEX_BRACES.search(text):
        faults.append("LaTeX braces")
    if LATEX_COMMAND.search(text):
        faults.append("a LaTeX command")
    if UNICODE_SUBSCRIPT.search(text):
        faults.append("a Unicode subscript")
    return faults


@pytest.mark.parametrize(
    ("text", "faults"),
    [
        ("q(x_t | x_{t−1})", ["LaTeX braces"]),
        ("B ∈ ℝ^{d×r}", ["LaTeX braces"]),
        ("E_{p_data}[log p]", ["LaTeX braces"]),
        ("interpolates in σ^{1/ρ} space", ["LaTeX braces"]),
        (r"\bar\alpha_t", ["a LaTeX command"]),
        ("softmax(QKᵀ/√dₖ)", ["a Unicode subscript"]),
        ("β₁ and the gradient", ["a Unicode subscript"]),
        ("q(x_t | x_(t-1)), ℝ^(d×r), σ^(1/ρ), d_k, x², {N} tokens, the blank {{}}", []),
    ],
)
def test_the_scan_finds_each_kind_of_other_notation(text: str, faults: list[str]) -> None:
    assert notation_faults(text) == faults


def test_the_screen_draws_latex_the_way_prompts_write_it() -> None:
    """The notation the prompts use is the one the shown formulas are drawn in."""
    assert latex_to_unicode(r"x_{t-1}") == "x_(t-1)"
    assert latex_to_unicode(r"\sigma^{1/\rho}") == "σ^(1/ρ)"
    assert unicodedata.normalize("NFC", latex_to_unicode(r"\bar\alpha_{t-1}")) == "ᾱ_(t-1)"


def test_every_builtin_prompt_legend_and_hint_is_in_the_rendered_notation() -> None:
    faults = [
        f"{card.key} ({where}): {', '.join(found)}: {text[:80]!r}"
        for card in builtin_cards()
        for where, text in screen_texts(card).items()
        if (found := notation_faults(text))
    ]
    assert faults == []
