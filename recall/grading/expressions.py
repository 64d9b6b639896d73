"""Formula and math-cloze cards: the engine decides equivalence under the card's symbol table.

Strict: an undeclared name makes the answer *invalid*, with a suggestion, at no cost to the
learner (a silently different variable would be graded wrong instead).
"""

from __future__ import annotations

import re
from dataclasses import replace

from recall.cards.matching import head_phrases
from recall.cards.model import Card, CardKind
from recall.cards.rules import breach
from recall.errors import FormulaError, GradingError, ParseError
from recall.formula import Status, SymbolTable, Verdict, check, parse
from recall.grading.tables import symbol_table


def card_table(card: Card) -> SymbolTable:
    """The card's strict symbol table; a bad declaration is the card's fault
    (:class:`~recall.errors.GradingError`), not the learner's."""
    try:
        return symbol_table(card)
    except FormulaError as error:
        raise GradingError(
            f"card '{card.key}' declares a bad symbol or function: {error}"
        ) from None


def grade_expression(card: Card, answer_text: str) -> Verdict:
    """Grade a typed expression against the card's answer."""
    answer_text = without_prompt_words(card, answer_text)
    shift, answer_text = without_label(answer_text)
    answer_text = number_word(card, answer_text)
    broken = form_rule_breach(card, answer_text)
    verdict = check(card.answer, answer_text, card_table(card))
    if broken is not None and verdict.status is not Status.INCORRECT:
        # The form rule says how a right answer must be written (sigmoid(x) is not "the
        # definition with exp"); an answer wrong in any form is graded wrong instead:
        # min(αx, x) on "type it with max" is the wrong function, not the wrong form.
        return broken
    if shift and verdict.column is not None:
        verdict = replace(verdict, column=verdict.column + shift)
    # The deck's own spelling (``sigma(x)`` where the card aliases the sigmoid), not the engine's
    # canonical one: it is the form the prompt and hint use.
    return replace(verdict, expected=card.answer)


#: Units a formula's prompt may name ("Model-state memory in bytes", "FLOPs per token").
_UNITS = ("bytes", "FLOPs", "FLOP", "nats", "bits", "parameters", "params", "tokens")


def _without_unit(card: Card, answer_text: str) -> str:
    """``16N bytes`` on a card whose prompt asks for bytes: the unit the prompt names, after the
    expression, is dropped (a unit that is one of the card's names never is). Plain string
    tests, no backtracking: a hostile answer of spaces costs one pass."""
    names = {spec.name.casefold() for spec in card.symbols}
    text = answer_text.rstrip()
    for unit in _UNITS:
        size = len(unit)
        if len(text) <= size or not text[-size - 1].isspace():
            continue
        if text[-size:].casefold() != unit.casefold() or unit.casefold() in names:
            continue
        if re.search(rf"\b{unit}\b", card.prompt, flags=re.IGNORECASE) is None:
            continue
        head = text[:-size].rstrip()
        if head:
            return head
    return answer_text


#: ``d_h =``, ``α_t =``, ``R² =``, ``w_{t+1} =``, ``σ'(x) =``: a name, with its subscripts,
#: superscripts, primes and an argument list, before one ``=``.
_LABEL = re.compile(r"\\?[^\W\d][\w'′\\^²³⁺⁻ⁿᵗ₀-₉ₐ-ₜᵢⱼ\u0300-\u036f]*")
_BRACKETED = re.compile(r"\{[^{}=]*\}|\([^()=]*\)")
MAX_LABEL = 40


def without_label(answer_text: str) -> tuple[int, str]:
    """An equation typed where an expression is asked, ``d_h = d/H``: the right side and how
    far it starts into the text, when the left side is a name (with subscripts, a power, a
    prime or an argument list: the quantity asked for, written as its label); otherwise the
    text as it is (``1 - β = α`` or ``x = y = z`` are not labels, and the grammar says why)."""
    left, equals, right = answer_text.partition("=")
    if not equals or not right.strip() or right.lstrip().startswith("=") or "=" in right:
        return 0, answer_text
    label = left.strip()
    if not label or len(label) > MAX_LABEL or left.rstrip()[-1:] in "<>!≤≥":
        return 0, answer_text
    bare = label
    for _ in range(4):  # a subscript in braces, an argument list: each level at most
        bare = _BRACKETED.sub("", bare)
    if not _LABEL.fullmatch(bare.replace(" ", "")) or " " in bare.strip():
        return 0, answer_text
    start = len(left) + 1 + (len(right) - len(right.lstrip()))
    return start, right.strip()


_NUMBER_WORDS = {
    "zero": "0",
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
    "half": "1/2",
    "a half": "1/2",
    "one half": "1/2",
}


def number_word(card: Card, answer_text: str) -> str:
    """``one`` for a cloze blank whose answer is ``1``: a small number written as a word is that
    number (never a name of the card's, which is read as the name)."""
    word = answer_text.strip().casefold()
    if card.kind is not CardKind.CLOZE or word not in _NUMBER_WORDS:
        return answer_text
    if any(spec.name.casefold() == word for spec in card.symbols):
        return answer_text
    return _NUMBER_WORDS[word]


def form_rule_breach(card: Card, answer_text: str) -> Verdict | None:
    """An answer in a form the card rules out (``require``/``forbid``) is invalid with the reason,
    whatever its value: ``sigmoid(x)`` is not "the definition with exp"."""
    rule = card.form_rule
    if not rule:
        return None
    try:
        used = parse(answer_text, card_table(card)).names
    except ParseError:
        return None  # the check that follows says what cannot be read
    reason = breach(rule, used)
    if reason is None:
        return None
    return Verdict(Status.INVALID, "form", reason, interpreted=answer_text.strip())


def without_prompt_words(card: Card, answer_text: str) -> str:
    """The typed answer without the words a cloze prompt already puts after its blank: ``8
    bytes`` for "▢ bytes per parameter", ``6N FLOPs`` for "▢ FLOPs per token", ``C - 1 degrees
    of freedom``. A word that is one of the card's own names is never dropped."""
    if card.kind is CardKind.FORMULA:
        return _without_unit(card, answer_text)
    if card.kind is not CardKind.CLOZE or not card.text:
        return answer_text
    names = {spec.name.casefold() for spec in card.symbols} | {
        spec.name.casefold() for spec in card.functions
    }
    for head in sorted(head_phrases(card.text), key=len, reverse=True):
        words = head.split()
        if any(word in names for word in words):
            continue
        pattern = r"(?<![\w])" + r"[\W_]*".join(re.escape(word) for word in words) + r"\W*$"
        found = re.search(pattern, answer_text, flags=re.IGNORECASE)
        if found is not None and answer_text[: found.start()].strip():
            return answer_text[: found.start()].rstrip()
    return answer_text
