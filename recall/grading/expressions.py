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
from recall.errors import FormulaError, GradingError, LimitError, ParseError
from recall.formula import Status, SymbolTable, Verdict, check, parse
from recall.formula.lexer import MAX_LENGTH
from recall.grading.labels import card_labels, label_key, label_text
from recall.grading.tables import symbol_table
from recall.inert import inert


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
    read = read_answer(card, answer_text)
    if isinstance(read, Verdict):
        return replace(read, expected=card.answer)
    shift, answer_text = read
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


def read_answer(card: Card, answer_text: str) -> tuple[int, str] | Verdict:
    """What of a typed answer the engine grades, read the same way for Enter and for the live
    preview: the expression, and how far into the text it starts; or the verdict that sends
    the answer back (too long, a unit the prompt does not ask for, a left side that is not the
    card's label).

    The length limit and control characters are checked first, before any rewrite, so no
    rewrite ever runs on more than :data:`~recall.formula.lexer.MAX_LENGTH` characters or
    launders a control character away."""
    if len(answer_text) > MAX_LENGTH:
        return Verdict.unreadable(
            LimitError(
                f"answer too long ({len(answer_text):,} characters; the limit is {MAX_LENGTH:,})",
                answer_text[:80],
                None,
            )
        )
    # Refused as the engine refuses it, before a rewrite could strip it with the spaces around
    # a unit or a label.
    refused = Verdict.control_character(answer_text, caret=True)
    if refused is not None:
        return refused
    text = without_prompt_words(card, answer_text)
    if isinstance(text, Verdict):
        return text
    shift, text = _label_read(card, text)
    if isinstance(text, Verdict):
        return text
    return shift, number_word(card, text)


def _label_read(card: Card, answer_text: str) -> tuple[int, str | Verdict]:
    """``d_h = d/H`` on a card asking for d_h: the right side (and where it starts). A left side
    shaped like a label (a name, a call, a power) that is not the card's label sends the
    answer back, invalid at no cost: ``H = d/H`` states that H is d/H, which the card never
    asked, and its right side alone is not what was typed. A left side that is an expression
    (``1 - β = α``) is left to the grammar, which asks for the expression alone."""
    start, right = without_label(answer_text)
    if not start:
        return 0, answer_text
    left = answer_text[: answer_text.index("=")].strip()
    labels = card_labels(card)
    if label_key(left) in labels:
        return start, right
    if labels:
        wanted = " or ".join(dict.fromkeys(label_text(label) for label in labels.values()))
        message = (
            f"the left side should be {wanted}, not {inert(left)} "
            "(or type only the expression, without '=')"
        )
    else:
        message = f"type only the expression, without '{inert(left)} ='"
    column = len(answer_text) - len(answer_text.lstrip())
    return 0, Verdict(
        Status.INVALID,
        "parse",
        message,
        interpreted=answer_text.strip(),
        column=column,
        caret=" " * column + "^" * max(1, len(left)),
    )


#: Units a formula's prompt may name ("Model-state memory in bytes", "FLOPs per token").
_UNITS = ("bytes", "FLOPs", "FLOP", "nats", "bits", "parameters", "params", "tokens")


def asked_units(card: Card) -> set[str]:
    """The units ``card``'s prompt asks the answer in, casefolded: the unit after "in" ("Weight
    memory in bytes", "(in nats)"), a unit before "per" that opens a clause ("Forward FLOPs per
    token", not "q bits per weight"), or the prompt's first word ("Bits per
    character", "Parameters of a dense ..."). A unit the prompt only gives an input in ("L_total
    (in nats)", "L nats per token") is not asked."""
    words = card.prompt.replace("(", " ( ").split()
    asked = set()
    for index, word in enumerate(words):
        unit = word.strip(".,;:)")
        if _unit_name(unit) is None:
            continue
        before = words[index - 1] if index else ""
        after = words[index + 1] if index + 1 < len(words) else ""
        if index == 0:
            asked.add(unit)
        elif before.casefold() == "in" and not _names_a_quantity(words[: index - 1]):
            asked.add(unit)
        elif after == "per" and _opens_the_question(before):
            asked.add(unit)
    return asked


#: One unit, two spellings.
_SAME_UNIT = {"flop": "flops", "params": "parameters", "byte": "bytes", "bit": "bits"}


def _unit_name(word: str) -> str | None:
    """``FLOPs`` → ``flops``, ``params`` → ``parameters``: the unit a word names, or ``None``."""
    folded = word.casefold()
    folded = _SAME_UNIT.get(folded, folded)
    return folded if folded in {unit.casefold() for unit in _UNITS} else None


def _opens_the_question(word: str) -> bool:
    """ "Forward FLOPs per", "Model-state bytes per", ": FLOPs per": the word before a unit
    opens a sentence or a clause, so the unit is what is asked ("T cached tokens per
    sequence" gives an input, and so does "q bits per weight")."""
    return word.endswith(":") or (word[:1].isupper() and not _is_quantity(word))


def _is_quantity(word: str) -> bool:
    """``L``, ``q``, ``N_d``, ``16``: a name or number, which a unit after it measures."""
    word = word.strip("(")
    return bool(word) and (len(word) == 1 or "_" in word or word[0].isdigit())


def _names_a_quantity(words: list[str]) -> bool:
    """ "L_total (in": the "in" gives an input's unit (a name just before the bracket)."""
    if not words or words[-1] != "(":
        return False
    return len(words) >= 2 and _is_quantity(words[-2])


def _without_unit(card: Card, answer_text: str) -> str | Verdict:
    """``16N bytes`` on a card whose prompt asks for bytes: the unit asked, after the
    expression, is dropped; another unit (``N*q/8 bits``) sends the answer back naming both,
    invalid at no cost: the expression is in one unit and the prompt asks for another, so its
    value cannot be graded either way (``N*q bits`` is the right amount in the wrong unit). A
    unit that is one of the card's names never is one. Plain string tests, no backtracking."""
    names = {spec.name.casefold() for spec in card.symbols}
    text = answer_text.rstrip()
    for unit in _UNITS:
        size = len(unit)
        if len(text) <= size or not text[-size - 1].isspace():
            continue
        if text[-size:].casefold() != unit.casefold() or unit.casefold() in names:
            continue
        head = text[:-size].rstrip()
        asked = asked_units(card)
        if not head or not asked:
            return answer_text
        if _unit_name(unit) in {_unit_name(word) for word in asked}:
            return head
        wanted = " or ".join(
            sorted({word.lower() if word[1:].islower() else word for word in asked})
        )
        return Verdict(
            Status.INVALID,
            "parse",
            f"the prompt asks for {wanted}, not {unit}: type the expression in {wanted}",
            interpreted=text,
            column=len(text) - size,
            caret=" " * (len(text) - size) + "^" * size,
        )
    return answer_text


#: ``d_h =``, ``α_t =``, ``R² =``, ``w_{t+1} =``, ``σ'(x) =``: a name, with its subscripts,
#: superscripts, primes and an argument list, before one ``=``.
_LABEL = re.compile(r"\\?[^\W\d][\w'′\\^²³⁺⁻ⁿᵗ₀-₉ₐ-ₜᵢⱼ\u0300-\u036f]*")
_BRACKETED = re.compile(r"\{[^{}=]*\}|\([^()=]*\)")
_LATEX_SPACE = re.compile(r"(\\[A-Za-z]+) +")
MAX_LABEL = 40


def without_label(answer_text: str) -> tuple[int, str]:
    """An equation typed where an expression is asked, ``d_h = d/H``: the right side and how
    far it starts into the text, when the left side is a name (with subscripts, a power, a
    prime or an argument list: the quantity asked for, written as its label); otherwise the
    text as it is (``1 - β = α`` or ``x = y = z`` are not labels, and the grammar says why).
    The shape only: whether the left side is *this card's* label (:mod:`recall.grading.labels`)
    is :func:`read_answer`'s question; the leak check uses the shape alone."""
    left, equals, right = answer_text.partition("=")
    if not equals or not right.strip() or right.lstrip().startswith("=") or "=" in right:
        return 0, answer_text
    label = left.strip()
    if not label or len(label) > MAX_LABEL or left.rstrip()[-1:] in "<>!≤≥":
        return 0, answer_text
    bare = _LATEX_SPACE.sub(r"\1", label)  # \hat m_t: a command's space is no word break
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


def without_prompt_words(card: Card, answer_text: str) -> str | Verdict:
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
        start = _words_at_end(answer_text, words)
        if start is not None and answer_text[:start].strip():
            return answer_text[:start].rstrip()
    return answer_text


def _words_at_end(text: str, words: list[str]) -> int | None:
    """Where ``words`` start when ``text`` ends with them (any case; anything but letters and
    digits between and after them; not glued to a word before): one pass from the end, no
    backtracking, so a hostile run of spaces costs its length."""
    end = len(text)
    while end and not (text[end - 1].isalnum()):
        end -= 1
    for position, word in enumerate(reversed(words)):
        start = end - len(word)
        if start < 0 or text[start:end].casefold() != word.casefold():
            return None
        end = start
        if position < len(words) - 1:
            while end and not text[end - 1].isalnum():
                end -= 1
    if end and (text[end - 1].isalnum() or text[end - 1] == "_"):
        return None
    return end
