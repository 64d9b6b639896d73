"""Every symbol the drill screen shows next to a math answer box can be typed back, or is named.

The class (issue 18, item 2): the characters of every math card's prompt, its ``shown`` formula
as rendered, its hint and its legend (names and meanings), over the built-in decks. Each one is
either typable with the meaning the screen gives it (Greek letters, letters with a hat, bar or
tilde such as ``ŷ``, ``ᾱ``, ``m̂``, subscripts ``W₁``, ``dₖ``, superscripts ``x²``, ``x⁻¹``, vulgar
fractions ``½r²``, the operators ``· × − ÷ √``), or refused with a message that names it (a
relation such as ``≈`` or ``←``, notation such as ``∂`` or ``▢``), or listed below as display
only, with the reason. A symbol that appears on screen and is none of these fails the test.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from recall.cards.loader import load_decks
from recall.errors import ParseError
from recall.formula import SymbolTable, check, parse
from recall.formula.functions import BUILTINS
from recall.formula.lexer import (
    ACCENT_MARKS,
    NOTATION,
    OPERATORS,
    RELATIONS,
    SUBSCRIPTS,
    SUPERSCRIPT_SIGNS,
    SUPERSCRIPTS,
    VULGAR_FRACTIONS,
    accented,
)
from recall.formula.names import GREEK
from recall.grading.question import asked_prompt
from recall.paths import builtin_decks_dir
from recall.tui.presenting import render_quietly, takes_math

#: Shown but never part of a typed answer, and why.
DISPLAY_ONLY = {
    "─": "the fraction bar of a 2-D drawing",
    "⎧": "a drawn brace of a piecewise formula",
    "⎩": "a drawn brace of a piecewise formula",
    "⎨": "a drawn brace of a piecewise formula",
    "⎪": "a drawn brace of a piecewise formula",
    "𝓛": "the name of a loss in a shown formula (the answer is its value)",
    "𝔼": "an expectation in a shown formula (the answer is the term inside)",
    "𝓝": "a normal distribution's name in a prompt",
    "ℝ": "a matrix's shape in a prompt",
    "∅": "the empty condition of classifier-free guidance, in a prompt",
    "⟨": "an inner product in a prompt",
    "⟩": "an inner product in a prompt",
    "Π": "the product sign (never a name: recall reads no capital pi)",
    "é": "a letter of a name in prose (Fréchet)",
    "–": "a dash in prose (also read as minus)",
}


@lru_cache(maxsize=1)
def screen_symbols() -> dict[str, str]:
    """Every non-ASCII character on a math card's screen → one card that shows it."""
    found: dict[str, str] = {}
    for deck in load_decks([builtin_decks_dir()]).decks:
        for card in deck.cards:
            if not takes_math(card):
                continue
            texts = [asked_prompt(card), card.hint, render_quietly(card.shown, card)]
            texts += [f"{s.name}: {s.meaning}" for s in card.symbols]
            texts += [f"{p.name}: {p.meaning}" for p in card.params]
            for text in texts:
                for char in text:
                    if ord(char) > 127 and not char.isspace():
                        found.setdefault(char, card.key)
    return found


def typed_back(char: str) -> str | None:
    """An answer that types ``char`` as the screen uses it, or ``None`` if it is not typable."""
    if char in GREEK and GREEK[char] in BUILTINS:
        return f"{char}(x)"  # Φ, the normal CDF
    if char in GREEK or accented(char) is not None:
        return char
    if char in ACCENT_MARKS:
        return f"m{char}"  # a combining hat, bar or tilde after its letter
    if char in SUBSCRIPTS:
        return f"x{char}"
    if char in SUPERSCRIPTS:
        return f"x{char}"
    if char in SUPERSCRIPT_SIGNS:
        return f"x{char}¹" if char in "⁻⁺" else f"x{char}"
    if char in VULGAR_FRACTIONS:
        return f"{char}x"
    if char in OPERATORS:
        return f"x {char} y"
    if char == "√":
        return "√x"
    return None


SYMBOLS = sorted(screen_symbols())


def test_the_screens_show_the_symbols_of_the_issue() -> None:
    shown = set(SYMBOLS)
    assert {"ᾱ", "ε", "σ", "θ", "½", "√", "·", "−", "²"} <= shown


@pytest.mark.parametrize("char", SYMBOLS, ids=[f"U+{ord(c):04X}" for c in SYMBOLS])
def test_every_symbol_on_screen_is_typable_or_named(char: str) -> None:
    where = screen_symbols()[char]
    answer = typed_back(char)
    if answer is not None:
        parse(answer, SymbolTable.build())  # raises if it cannot be typed back
        return
    if char in DISPLAY_ONLY:
        return
    with pytest.raises(ParseError) as refused:
        parse(f"x {char} y", SymbolTable.build())
    message = str(refused.value)
    assert "unexpected character" not in message, f"{char!r} (shown by {where}): {message}"
    assert char in RELATIONS or char in NOTATION


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("½r²", "r^2/2"),
        ("½δ", "delta/2"),
        ("¼x", "x/4"),
        ("x⁻¹", "1/x"),
        ("x⁻²", "x^(-2)"),
        ("eⁿ", "e^n"),
        ("W₁ + W₂", "W_1 + W_2"),
        ("dₖ", "d_k"),
        ("√(ᾱₜ) x₀", "sqrt(alpha_bar_t)*x_0"),
        ("ᾱ_t", "alpha_bar_t"),
        ("m̂ₜ/(√v̂ₜ + ε)", "m_hat_t/(sqrt(v_hat_t) + epsilon)"),
        ("ŷ - ȳ", "y_hat - y_bar"),
        ("x̃", "x_tilde"),
        ("β₁m + (1 − β₁)g", "beta_1*m + (1 - beta_1)*g"),
        ("2·3 × 4 ÷ 6", "4"),
    ],
)
def test_a_typed_symbol_means_what_the_screen_means(typed: str, meant: str) -> None:
    verdict = check(meant, typed, SymbolTable.build())
    assert verdict.is_correct, (typed, verdict.message)


def test_a_mixed_number_is_asked_about_not_guessed() -> None:
    with pytest.raises(ParseError, match=r"2 \+ 1/2 or 2\*1/2"):
        parse("2½", SymbolTable.build())
    assert check("5/2", "2 + ½", SymbolTable.build()).is_correct
