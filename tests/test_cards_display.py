"""Every built-in card reads as clean math on screen: no LaTeX left over, the right scope.

Over every card (not samples): the prompt, the shown formula and the symbol legend as the drill
screen shows them (:func:`recall.tui.presenting.card_view`), and the reference answer as the
feedback shows it (:func:`recall.tui.presenting.reference_rendered`). None may contain a LaTeX
control word, ``begin{``/``cases``, SymPy's ``Max(``/``Min(`` or a doubled interval ``((0, 1))``;
a fraction under a function stays under it; ``cases`` is drawn as one row per case.
"""

from __future__ import annotations

import re
from functools import lru_cache

import pytest

from recall.cards.loader import LoadResult, load_decks
from recall.cards.model import Card
from recall.grading import Question, check_deck
from recall.paths import builtin_decks_dir
from recall.tui.latex_display import latex_to_unicode
from recall.tui.presenting import card_view, reference_rendered


@lru_cache(maxsize=1)
def builtin() -> LoadResult:
    result = load_decks([builtin_decks_dir()], check=check_deck)
    assert result.ok, result.errors
    return result


def every_card() -> list[Card]:
    return list(builtin().cards)


def card(key: str) -> Card:
    deck_id, card_id = key.split("/")
    return builtin().deck(deck_id).card(card_id)


LEFTOVERS = [
    (re.compile(r"\\[A-Za-z]+"), "a LaTeX control word"),
    (re.compile(r"begin\{|end\{|\{cases\}"), "a raw environment"),
    (re.compile(r"\b(?:Max|Min|Abs)\("), "SymPy's capitalised function"),
    (re.compile(r"\(\([^()]*,[^()]*\)\)"), "a doubled interval"),
    (re.compile(r"\b(?:t|d)?frac\d|\bcdot[a-z]"), "a command glued to its argument"),
]


def screen_texts(item: Card) -> dict[str, str]:
    view = card_view(item, question=Question.draw(item, 3))
    texts = {"prompt": view.prompt, "shown": view.shown, "reference": reference_rendered(item)}
    for name, meaning in view.symbols:
        texts[f"legend {name}"] = meaning
    return texts


@pytest.mark.parametrize("item", every_card(), ids=lambda c: c.key)
def test_nothing_on_screen_is_raw_latex(item: Card) -> None:
    for where, text in screen_texts(item).items():
        for pattern, what in LEFTOVERS:
            found = pattern.search(text)
            assert found is None, f"{where} shows {what} {found.group(0)!r}:\n{text}"


def _parenthesised_after(text: str, name: str) -> list[str]:
    """What each ``name(`` in ``text`` applies to, up to its matching parenthesis."""
    out = []
    for match in re.finditer(rf"{name}\s?\(", text):
        depth, start = 0, match.end() - 1
        for index in range(start, len(text)):
            depth += {"(": 1, ")": -1}.get(text[index], 0)
            if depth == 0:
                out.append(text[start + 1 : index])
                break
        else:
            out.append("<unclosed>")
    return out


_FUNCTION_OF_FRACTION = re.compile(r"\\(log|exp|ln|det|sigma)\s*(?:\\left\s*\|?)?\\[dt]?frac")


@pytest.mark.parametrize(
    "item",
    [c for c in every_card() if _FUNCTION_OF_FRACTION.search(c.shown)],
    ids=lambda c: c.key,
)
def test_a_fraction_under_a_function_stays_under_it(item: Card) -> None:
    shown = card_view(item).shown
    if "\n" in shown:
        return  # drawn 2-D by the engine: the fraction bar shows the scope
    for match in _FUNCTION_OF_FRACTION.finditer(item.shown):
        name = {"sigma": "σ"}.get(match.group(1), match.group(1))
        arguments = _parenthesised_after(shown, name)
        assert arguments, f"{name} has no parenthesised argument in {shown!r}"
        assert any("/" in argument for argument in arguments), (
            f"the fraction after {name} is not inside its parentheses: {shown!r}"
        )


@pytest.mark.parametrize("item", every_card(), ids=lambda c: c.key)
def test_one_line_shown_formulas_have_balanced_brackets(item: Card) -> None:
    shown = card_view(item).shown
    for line in shown.splitlines() if "⎛" not in shown and "─" not in shown else []:
        assert line.count("(") == line.count(")"), line
        assert line.count("[") == line.count("]"), line


def test_infonce_takes_the_log_of_the_whole_fraction() -> None:
    shown = card_view(card("losses/name-infonce")).shown
    (argument,) = _parenthesised_after(shown, "log")
    assert argument.startswith("exp(") and "/" in argument and "Σ" in argument


def test_huber_cases_are_drawn_one_row_per_case() -> None:
    for key in ("losses/huber-inner", "losses/huber-outer", "losses/name-huber"):
        lines = card_view(card(key)).shown.splitlines()
        assert len(lines) == 2, lines
        assert lines[0].lstrip().startswith("𝓛_δ(r) = ⎧") and "if |r| ≤ δ" in lines[0]
        assert "⎩" in lines[1] and "if |r| > δ" in lines[1]
        # the two rows line up under the brace
        assert lines[0].index("⎧") == lines[1].index("⎩")


def test_the_kv_cache_formula_keeps_bytes_apart() -> None:
    shown = card_view(card("inference-cost/name-kv-cache")).shown
    assert "bytes" in shown and "cdot" not in shown


@pytest.mark.parametrize(
    ("key", "reference"),
    [
        ("activations/relu", "max(0, x)"),
        ("activations/leaky-relu", "max(α⋅x, x)"),
        ("losses/triplet", "max(0, dₐₚ - dₐₙ + m)"),
    ],
)
def test_references_show_the_learners_function_names_in_order(key: str, reference: str) -> None:
    assert reference_rendered(card(key)) == reference


def test_an_interval_domain_is_shown_once_in_parentheses() -> None:
    legend = dict(card_view(card("activations/leaky-relu")).symbols)
    assert legend["alpha"].endswith(", in (0, 1)")


@pytest.mark.parametrize(
    ("latex", "shown"),
    [
        (r"-\log\frac{a}{b}", "-log(a/b)"),
        (r"\tfrac12 r^2", "½ r²"),
        (r"2\cdot B\cdot\text{bytes}", "2·B·bytes"),
        # TeX's rule: a control word swallows the spaces after it (a product and a prefix
        # symbol sit against their operands), and ∂ or ∇ before a name is one token.
        (r"\frac{\partial}{\partial w_j}", "∂/∂w_j"),
        (r"\frac{\partial L}{\partial w}", "∂L/∂w"),
        (r"\lambda\lVert w\rVert_2^2", "λ‖w‖_2²"),
        (r"\frac{a\cdot b}{\|a\|\,\|b\|}", "(a·b)/(‖a‖ ‖b‖)"),
        (r"a \times b", "a×b"),
        (r"x \in A", "x ∈ A"),
        (r"\beta\log\sigma(x)", "β log σ(x)"),
        (r"\frac{x-\mu}{\sqrt{\sigma^2+\epsilon}}", "(x-μ)/√(σ²+ε)"),
        (r"(2\pi)^{-d/2}", "(2π)^(-d/2)"),
        (r"\operatorname{diag}\sigma^2", "diag σ²"),
        (r"\binom{n}{k}", "C(n, k)"),
        (r"\mathbb{E}_{x\sim p_{\text{data}}}", "𝔼_(x~ p_data)"),
    ],
)
def test_latex_to_unicode(latex: str, shown: str) -> None:
    assert latex_to_unicode(latex) == shown


def test_a_shown_formula_reads_as_its_prompt_writes_it(capsys: pytest.CaptureFixture[str]) -> None:
    """Found by trying recall as a learner: the L2 card's prompt says ``λ‖w‖_2²`` and
    ``∂L/∂w_j`` while the formula under it read ``λ‖ w‖_2² ⇒ (∂)/(∂ w_j) += ▢``."""
    from recall.cli import main

    assert main(["decks", "show", "regularization", "--rendered", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "𝓛 + λ‖w‖_2² ⇒ ∂/∂w_j += ▢" in out
    assert "‖ w" not in out and "(∂)" not in out
    assert main(["decks", "show", "retrieval-evaluation", "--rendered", "--seed", "3"]) == 0
    assert "cos θ = (a·b)/(‖a‖ ‖b‖) = ▢" in capsys.readouterr().out
