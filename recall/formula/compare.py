"""Equivalence of a typed answer and a reference: structural, then numeric, then symbolic.

The order is the one the best checkers use, cheapest first:

1. *structural*: equal up to order and grouping (a proof, microseconds);
2. *numeric*: both sides at planned points of each variable's domain
   (:mod:`recall.formula.search`), float64 first and every decision that matters exactly or in
   arbitrary precision, so a float comparison never accepts on its own; a point where only one
   side is defined is a mismatch;
3. *symbolic*: a bounded SymPy proof, only when too few points had both sides defined.

False accepts are the worst failure, so anything undecided is *not* accepted.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace
from fractions import Fraction

from recall.errors import AmbiguousReading, FormulaError, GradingError, ParseError
from recall.formula.definitions import expand_definitions
from recall.formula.diagnose import diagnose
from recall.formula.evaluate import UnknownFunctions, eval_float
from recall.formula.expression import Expression
from recall.formula.highlight import span_of
from recall.formula.latex import looks_like_latex
from recall.formula.lexer import spellings
from recall.formula.locate import locate, subtree_at
from recall.formula.magnitude import constant_profile
from recall.formula.nodes import BinOp, Call, Negate, Node, Symbol, walk
from recall.formula.numeric import grade_constant
from recall.formula.parser import parse
from recall.formula.pointwise import Agreement, precise_value
from recall.formula.printer import format_fraction, to_text
from recall.formula.reach import OutOfReach
from recall.formula.search import NumericComparison, compare_numerically, float_env
from recall.formula.shorthand import sentence_case, symbol_names
from recall.formula.showing import difference_text, distinct
from recall.formula.structural import structurally_equal
from recall.formula.symbols import DEFAULT_TABLE, SymbolTable
from recall.formula.tolerance import Tolerance
from recall.formula.verdict import Diagnosis, Part, Status, Verdict


def _describe_point(point: dict[str, Fraction]) -> str:
    return ", ".join(f"{k} = {format_fraction(v)}" for k, v in sorted(point.items()))


#: The values a shown test point tries first, plainest first: a symbol whose legend says "0
#: or −∞" (a mask) or "0 or 1" (a label) is shown at a value it can take whenever the
#: difference does not hang on it.
_PLAIN_VALUES = (Fraction(0), Fraction(1), Fraction(2), Fraction(-1), Fraction(1, 2))

#: Symbols tried one by one; past this many the drawn point is shown as it is.
_MAX_SIMPLIFIED = 8


def simpler_witness(
    reference: Node, answer: Node, table: SymbolTable, point: dict[str, Fraction]
) -> dict[str, Fraction]:
    """``point`` (where the two differ) with each symbol moved, in turn, to the plainest value
    of its domain at which they still differ, both defined: the point shown to the learner
    reads as the legend does (``M = 0``, not a drawn ``M = 0.464``)."""
    if len(point) > _MAX_SIMPLIFIED:
        return point
    shown = dict(point)
    for name in sorted(shown):
        domain = table.domain(name)
        for value in _PLAIN_VALUES:
            if value == shown[name] or not domain.contains(float(value)):
                continue
            trial = {**shown, name: value}
            if _still_differ(reference, answer, trial):
                shown = trial
                break
    return shown


def _still_differ(reference: Node, answer: Node, point: dict[str, Fraction]) -> bool:
    try:
        expected = precise_value(reference, point)
        typed = precise_value(answer, point)
    except (OutOfReach, ArithmeticError, ValueError):
        return False
    if expected is None or typed is None:
        return False
    return distinct(expected, typed)[2]


def _values_text(reference: Node, answer: Node, point: dict[str, Fraction]) -> str:
    """ "the reference is A but your answer gives B", with enough digits that A and B differ
    in print (or the size of the difference, when they agree to 30 figures)."""
    try:
        expected = precise_value(reference, point)
        typed = precise_value(answer, point)
    except OutOfReach:
        expected = typed = None
    if expected is None or typed is None:
        unknown = UnknownFunctions(0)
        floats = [eval_float(tree, float_env(point), unknown) for tree in (reference, answer)]
        texts = ["undefined" if v is None else f"{v:.6g}" for v in floats]
        return f"the reference is {texts[0]} but your answer gives {texts[1]}"
    left, right, differ = distinct(expected, typed)
    if differ:
        return f"the reference is {left} but your answer gives {right}"
    try:
        gap = precise_value(BinOp("-", answer, reference), point)  # precision follows the gap
    except OutOfReach:
        gap = None
    shown = difference_text(gap if gap is not None else typed - expected, 0)
    return f"the reference is {left} and your answer differs from it by {shown}"


#: Set while only a verdict's status is wanted: ``recall decks check`` grades thousands of
#: pieces of text that are not the answer, and diagnosing each (a simpler witness, the part
#: that differs) was most of its time. The status never depends on the diagnosis.
_STATUS_ONLY: ContextVar[bool] = ContextVar("status_only", default=False)


@contextmanager
def status_only() -> Iterator[None]:
    """Within this block, an answer found different is graded *incorrect* without saying why."""
    token = _STATUS_ONLY.set(True)
    try:
        yield
    finally:
        _STATUS_ONLY.reset(token)


def check(
    expected: str | Expression,
    answer: str,
    table: SymbolTable | None = None,
    *,
    tolerance: Tolerance | None = None,
    seed: int = 0,
) -> Verdict:
    """Grade ``answer`` against ``expected``.

    ``expected`` is trusted text (a deck's reference) or an already parsed expression; a
    reference that does not parse raises :class:`GradingError`. The answer is read with the
    same table, made strict so a name that is neither declared nor in the reference is
    *invalid* with a suggestion. A reference with no variables is graded as a number with
    ``tolerance`` (exact when ``None``).
    """
    table = table or DEFAULT_TABLE
    if isinstance(expected, Expression):
        reference = expected
    else:
        try:
            reference = parse(expected, table.with_strictness(False))
        except FormulaError as error:
            raise GradingError(f"the reference answer does not parse: {error}") from error
    if reference.is_constant:
        formula = _formula_answer(answer, table)
        if formula is not None:
            return compare_expressions(reference, formula, table, seed=seed)
        return grade_constant(reference, answer, tolerance, table)
    answer_table = table.with_variables(reference.free_symbols)
    try:
        typed = parse(answer, answer_table)
    except AmbiguousReading as error:
        either = _wrong_either_way(reference, error, answer_table, seed)
        return either or Verdict.unreadable(error, expected=reference.to_text())
    except ParseError as error:
        return Verdict.unreadable(error, expected=reference.to_text())
    return compare_expressions(reference, typed, answer_table, seed=seed)


def _wrong_either_way(
    reference: Expression, error: AmbiguousReading, table: SymbolTable, seed: int
) -> Verdict | None:
    """An answer that could be read two ways is asked about only when the choice matters: when
    every reading grades *incorrect*, it is wrong whichever was meant, and is graded as recall
    reads it (the first reading), saying so. ``None`` when a reading is right or unreadable."""
    verdicts = []
    for reading in error.readings:
        try:
            read = parse(reading, table)
        except ParseError:
            return None
        verdicts.append(compare_expressions(reference, read, table, seed=seed))
    if len(verdicts) < 2 or any(v.status is not Status.INCORRECT for v in verdicts):
        return None
    first = verdicts[0]
    readings = " or ".join(v.interpreted for v in verdicts)
    return replace(first, message=f"{first.message} Wrong either way it is read: {readings}.")


def _formula_answer(answer: str, table: SymbolTable) -> Expression | None:
    """The answer as a formula when it uses the table's declared variables or functions.

    A constant reference is still a formula when the card declares variables: ``sin(x)^2 +
    cos(x)^2`` for ``1`` is compared as an identity over x's domain, not refused as "not a
    number". Anything else (a plain number, an undeclared name, a typo) is left to
    :func:`~recall.formula.numeric.grade_constant`, which reads numbers and explains errors."""
    if not table.variables and not table.functions:
        return None
    try:
        typed = parse(answer, table.with_strictness(True))
    except ParseError:
        return None
    return None if typed.is_constant else typed


def compare_expressions(
    reference: Expression, typed: Expression, table: SymbolTable, *, seed: int = 0
) -> Verdict:
    """Equivalence of two parsed expressions over ``table``'s domains (defined names are
    expanded on both sides first)."""
    spelling = learner_spelling(typed)
    shown_tree, called = learner_calls(typed)
    spelling = {**spelling, **called}
    interpreted = to_text(shown_tree, spelling or None)
    expected_text = reference.to_text()
    spoken = symbol_names(reference.tree) | symbol_names(typed.tree)
    as_typed = typed.tree
    if table.definitions:
        reference = replace(reference, tree=expand_definitions(reference.tree, table), _cache={})
        typed = replace(typed, tree=expand_definitions(typed.tree, table), _cache={})
    if structurally_equal(reference.tree, typed.tree):
        return Verdict(
            Status.CORRECT,
            "structural",
            "Correct: the same expression.",
            interpreted=interpreted,
            expected=expected_text,
        )
    names = sorted(reference.free_symbols | typed.free_symbols)
    constants, extra_digits = constant_profile(reference.tree, typed.tree)
    comparison = compare_numerically(
        reference.tree,
        typed.tree,
        names,
        table,
        seed,
        constants=constants,
        extra_digits=extra_digits,
    )
    if comparison.outcome == "equal":
        return Verdict(
            Status.CORRECT,
            "numeric",
            f"Correct: equal to the reference at {len(comparison.points)} random points "
            "(confirmed exactly or in high precision).",
            interpreted=interpreted,
            expected=expected_text,
        )
    if comparison.outcome == "different" and _STATUS_ONLY.get():
        return Verdict(
            Status.INCORRECT,
            "numeric",
            "Not equivalent.",
            interpreted=interpreted,
            expected=expected_text,
        )
    if comparison.outcome == "different":
        return _incorrect(
            reference,
            typed,
            table,
            comparison,
            seed,
            interpreted,
            expected_text,
            spoken,
            as_typed,
            spelling,
            shown_tree,
        )
    notes = comparison.notes
    if comparison.outcome in ("undecided", "inconclusive") and notes.out_of_reach is not None:
        return Verdict(
            Status.INVALID,
            "bounds",
            f"This cannot be graded: {notes.out_of_reach}.",
            interpreted=interpreted,
            expected=expected_text,
        )
    if comparison.outcome == "undecided":
        reason = (
            notes.saturated
            if notes.saturated
            else "the two could not be confirmed equal within the precision and time allowed"
        )
        return Verdict(
            Status.INCORRECT,
            "undecided",
            f"Not accepted: {reason}.",
            interpreted=interpreted,
            expected=expected_text,
        )
    from recall.formula.prover import prove_equal

    proof = prove_equal(reference, typed)
    if proof is True:
        return Verdict(
            Status.CORRECT,
            "symbolic",
            "Correct: proved equal symbolically.",
            interpreted=interpreted,
            expected=expected_text,
        )
    message = (
        "Not accepted: the two could not be compared where both are defined, and no "
        "proof was found."
    )
    if proof is False:
        return Verdict(
            Status.INCORRECT,
            "symbolic",
            "Not equal: their difference simplifies to a nonzero expression.",
            interpreted=interpreted,
            expected=expected_text,
        )
    return Verdict(
        Status.INCORRECT, "undecided", message, interpreted=interpreted, expected=expected_text
    )


def _incorrect(
    reference: Expression,
    typed: Expression,
    table: SymbolTable,
    comparison: NumericComparison,
    seed: int,
    interpreted: str,
    expected_text: str,
    spoken: set[str],
    as_typed: Node,
    spelling: dict[str, str] | None = None,
    shown_tree: Node | None = None,
) -> Verdict:
    spelling = spelling or {}
    drawn = comparison.witness or {}
    witness = drawn  # the point shown; the diagnosis below reads the drawn one
    if drawn and comparison.agreement not in (
        Agreement.ONLY_EXPECTED_DEFINED,
        Agreement.ONLY_ANSWER_DEFINED,
    ):
        witness = simpler_witness(reference.tree, typed.tree, table, drawn)
    where = _describe_point(witness) if witness else "a test point"
    if comparison.agreement is Agreement.ONLY_EXPECTED_DEFINED:
        detail = f"at {where} your answer is undefined but the reference is not"
    elif comparison.agreement is Agreement.ONLY_ANSWER_DEFINED:
        detail = f"at {where} the reference is undefined but your answer is not"
    else:
        detail = f"at {where} {_values_text(reference.tree, typed.tree, witness)}"
    undefined = comparison.agreement in (
        Agreement.ONLY_EXPECTED_DEFINED,
        Agreement.ONLY_ANSWER_DEFINED,
    )
    diagnosis = diagnose(
        reference,
        typed,
        table,
        seed=seed,
        undefined_mismatch=undefined,
        witness=float_env(drawn) if drawn else None,
    )
    part = _located(reference, typed, table, seed, spoken, as_typed, spelling, shown_tree)
    diagnosis, part = one_error(diagnosis, part, interpreted)
    message = f"Not equivalent: {detail}."
    if diagnosis is not None:
        message = f"{diagnosis.message} ({detail})."
    if spelling:
        message = in_learner_notation(message, spelling)
        if diagnosis is not None:
            diagnosis = Diagnosis(diagnosis.kind, in_learner_notation(diagnosis.message, spelling))
        if part is not None:
            part = replace(
                part,
                message=in_learner_notation(part.message, spelling),
                answer_text=in_learner_notation(part.answer_text, spelling),
                expected_text=in_learner_notation(part.expected_text, spelling),
            )
    return Verdict(
        Status.INCORRECT,
        "numeric",
        message,
        interpreted=interpreted,
        diagnosis=diagnosis,
        expected=expected_text,
        part=part,
    )


def learner_spelling(typed: Expression) -> dict[str, str]:
    """The learner's own spelling of each variable typed in Unicode (``sigma`` → ``σ``), for
    echoing the answer and naming its parts in their notation; LaTeX answers keep the
    canonical names (``\\sigma`` is not how they would write it either)."""
    if looks_like_latex(typed.text):
        return {}
    names = typed.free_symbols
    return {name: shown for name, shown in spellings(typed.text).items() if name in names}


def learner_calls(typed: Expression) -> tuple[Node, dict[str, str]]:
    """The answer's tree with each function named as the learner typed it (``σ(x)`` where the
    card aliases ``sigma`` to the sigmoid, ``ln p``), for the "read as" text and its spans, and
    the renaming (``sigmoid`` → ``σ``) for the messages. A function typed in two spellings, or
    in LaTeX, keeps its canonical name."""
    if looks_like_latex(typed.text):
        return typed.tree, {}
    typed_names = spellings(typed.text)
    seen: dict[str, set[str]] = {}
    for node in walk(typed.tree):
        if isinstance(node, Call) and node.shown and node.shown != node.name:
            seen.setdefault(node.name, set()).add(typed_names.get(node.shown, node.shown))
    renamed = {name: next(iter(ways)) for name, ways in seen.items() if len(ways) == 1}
    if not renamed or any(
        isinstance(node, Call) and node.name in renamed and node.shown in ("", node.name)
        for node in walk(typed.tree)
    ):
        return typed.tree, {}
    return _calls_renamed(typed.tree, renamed), renamed


def _calls_renamed(node: Node, renamed: dict[str, str]) -> Node:
    if isinstance(node, Call):
        args = tuple(_calls_renamed(arg, renamed) for arg in node.args)
        return Call(renamed.get(node.name, node.name), args, node.shown)
    if isinstance(node, Negate):
        return Negate(_calls_renamed(node.operand, renamed))
    if isinstance(node, BinOp):
        return BinOp(
            node.op, _calls_renamed(node.left, renamed), _calls_renamed(node.right, renamed)
        )
    return node


def in_learner_notation(text: str, spelling: dict[str, str]) -> str:
    """``text`` with every canonical name the learner spelled otherwise in their spelling."""
    if not spelling or not text:
        return text
    pattern = re.compile(
        r"(?<![A-Za-z0-9_'])("
        + "|".join(re.escape(name) for name in sorted(spelling, key=len, reverse=True))
        + r")(?![A-Za-z0-9_'])"
    )
    return pattern.sub(lambda found: spelling[found.group(1)], text)


#: Diagnoses of the whole answer (the catalogue's), marked as the whole answer when the part
#: found names something else: the mark and the message then describe one error.
WHOLE_ANSWER = frozenset(
    {
        "sign",
        "factor",
        "magnitude",
        "reciprocal",
        "square-root",
        "swapped",
        "complement",
        "log-base",
        "partial-domain",
        "approximation",
        "additive",
    }
)
#: A diagnosis and the kinds of part that describe the same mistake.
SAME_ERROR = {
    "exponent": {"exponent", "missing-factor", "extra-factor", "square-root"},
    "missing-factor": {"missing-factor", "exponent", "factor"},
    "factor": {"constant", "factor"},
    "magnitude": {"constant"},
    "square-root": {"square-root", "exponent"},
    "reciprocal": {"reciprocal", "exponent", "sign"},
    "log-base": {"function", "constant"},
}
#: "x and y are swapped": the names a swap diagnosis is about.
_SWAPPED = re.compile(r"^(\S+) and (\S+) are swapped")
#: A part with no variable in it (``+ 1``, ``log(2)``, ``2*pi``): a constant term.
_CONSTANT_TEXT = re.compile(r"(?:[\s\d.+\-*/^()]|\b(?:log|ln|exp|sqrt|pi|π|e)\b)+")
#: "p where 1 - p belongs": the name a complement diagnosis is about.
_COMPLEMENT = re.compile(r"^(\S+) where 1 - \S+ belongs")


def one_error(
    diagnosis: Diagnosis | None, part: Part | None, interpreted: str
) -> tuple[Diagnosis | None, Part | None]:
    """A message and a marked part that describe the same mistake.

    With no part, the diagnosis stands alone. With no diagnosis (or a rounded constant), the
    part's message is the message. When both describe the same mistake, both stay. Otherwise
    a whole-answer diagnosis ("off by a sign", "x and y are swapped") marks the whole answer,
    and any other gives way to the part, which is the more specific of the two."""
    if part is None:
        return diagnosis, None
    if diagnosis is None or part.kind == "rounded-constant":
        return Diagnosis(part.kind, sentence_case(part.message)), part
    if part.kind == diagnosis.kind or part.kind in SAME_ERROR.get(diagnosis.kind, ()):
        return diagnosis, part
    swapped = _SWAPPED.match(diagnosis.message) if diagnosis.kind == "swapped" else None
    if swapped and any(
        re.search(rf"\b{re.escape(n)}\b", part.answer_text) for n in swapped.groups()
    ):
        return diagnosis, part  # the swap shows where one of the two names stands
    flipped = _COMPLEMENT.match(diagnosis.message) if diagnosis.kind == "complement" else None
    if flipped and re.search(
        rf"(?<![\w']){re.escape(flipped.group(1))}(?![\w'])", part.answer_text
    ):
        return diagnosis, part  # "p where 1 - p belongs", marked where that p stands
    if diagnosis.kind == "additive" and _CONSTANT_TEXT.fullmatch(part.answer_text or "-"):
        return diagnosis, part  # off by a constant, marked on the constant term at fault
    if diagnosis.kind == "partial-domain" and not diagnosis.message.startswith("Right only"):
        return Diagnosis(part.kind, sentence_case(part.message)), part  # the part says more
    if diagnosis.kind in WHOLE_ANSWER:
        whole = Part(
            diagnosis.kind,
            diagnosis.message,
            (),
            None,
            interpreted,
            "",
            (0, len(interpreted)) if interpreted else None,
        )
        return diagnosis, whole
    return Diagnosis(part.kind, sentence_case(part.message)), part


def _located(
    reference: Expression,
    typed: Expression,
    table: SymbolTable,
    seed: int,
    spoken: set[str],
    as_typed: Node,
    spelling: dict[str, str] | None = None,
    shown_tree: Node | None = None,
):
    """The differing part (:func:`recall.formula.locate.locate`), with its span in the answer's
    "read as" text. The trees have the card's shorthands expanded; the message folds back the
    ones the learner or the reference used (``spoken``) and names nothing else."""
    try:
        shorthands = {
            name: expand_definitions(Symbol(name), table)
            for name in table.definitions
            if name in spoken
        }
        part = locate(
            reference.tree, typed.tree, table, seed=seed, shorthands=shorthands, spoken=spoken
        )
    except Exception:  # noqa: BLE001 - naming the part is a courtesy: it must never cost the verdict
        return None
    if part is None:
        return None
    return replace(
        part,
        answer_span=_span_as_typed(
            part, typed.tree, as_typed, table, spelling or None, shown_tree or as_typed
        ),
    )


def _span_as_typed(
    part: Part,
    compared: Node,
    as_typed: Node,
    table: SymbolTable,
    spelling: dict[str, str] | None = None,
    shown_tree: Node | None = None,
):
    """Where the part lies in the answer as typed (the "read as" text). The part's path is in
    the tree with shorthands expanded; it marks the same thing in the typed tree only when the
    subtree there expands to the part (else, inside an expanded shorthand, nothing is marked)."""
    path = part.answer_path
    if path is None:
        return None
    typed_node, compared_node = subtree_at(as_typed, path), subtree_at(compared, path)
    if typed_node is None or compared_node is None:
        return None
    if expand_definitions(typed_node, table) != compared_node:
        return None
    return span_of(shown_tree or as_typed, path, spelling)
