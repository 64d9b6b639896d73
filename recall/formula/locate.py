"""Where a wrong answer goes wrong: the smallest part that differs from the reference.

Both trees are normalised the same way: a sum into signed terms (``a - b + c`` is ``+a, -b,
+c``), a product into a rational coefficient and factors with exponents (``2*a/sqrt(b)`` is
``2 · a^1 · b^(-1/2)``). Parts are matched by their values at a few sample points of the
variables' domains, not by their spelling, so ``b*a`` matches ``a*b`` and ``x^2`` matches
``x*x``. What is left unmatched is the mistake, named as plainly as possible:

* a term with the wrong sign ("the second term has the wrong sign");
* a term that is extra or missing ("this term is extra: + V*d");
* a factor with the wrong exponent ("the exponent of sigma should be 2"), a missing or extra
  square root ("the denominator is missing a square root"), a factor on the wrong side of the
  fraction bar, or extra or missing;
* a function that should be another (``log2`` for ``log``);
* a constant that is wrong, or only rounded ("a constant is rounded: 0.0447 for 0.044715").

When one term or factor differs on each side and both have parts of their own (a sum inside a
function, a function's argument), the search goes down into them, so the part named is the
smallest one. The part's *path* (child indices from the root, as
:func:`recall.formula.printer.to_text_with_spans` numbers them) locates it in the answer's
tree, and in the reference's; :func:`recall.formula.render.highlight` turns the path into a span
of the "read as" text.
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from fractions import Fraction

from recall.formula.evaluate import UnknownFunctions, eval_float
from recall.formula.nodes import BinOp, Call, Negate, Node, Number, Symbol, walk
from recall.formula.printer import format_fraction, to_text
from recall.formula.sampling import plan, sample
from recall.formula.shorthand import SpokenText, unnamed_message
from recall.formula.symbols import SymbolTable
from recall.formula.verdict import Part

Path = tuple[int, ...]
POINTS = 6
_CLOSE = 1e-9
#: Deepest the search goes into nested parts (bounded like every walk over typed trees).
MAX_DEPTH = 12
#: Sums and products with more parts than this are not lined up (the matching is quadratic).
MAX_PARTS = 48

_ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"]


@dataclass
class _Term:
    sign: int
    node: Node
    path: Path


@dataclass
class _Factor:
    """``base^exponent``; ``path`` is the whole factor as typed (``x^2``, ``sqrt(b)``), for
    marking it, and ``base_path`` where its base sits, for looking inside it."""

    base: Node
    exponent: Fraction
    path: Path
    base_path: Path = ()


class _Values:
    """Float values of subtrees at fixed sample points: the fingerprints parts match by."""

    def __init__(self, names: list[str], table: SymbolTable, seed: int) -> None:
        rng = random.Random(seed + 11)
        self.unknown = UnknownFunctions(seed)
        self.points = [
            {
                name: float(sample(table.domain(name), rng, plan(index, position)))
                for position, name in enumerate(names)
            }
            for index in range(POINTS)
        ]
        self._cache: dict[int, tuple[float | None, ...]] = {}

    def of(self, node: Node) -> tuple[float | None, ...]:
        key = id(node)
        if key not in self._cache:
            values = []
            for point in self.points:
                value = eval_float(node, point, self.unknown)
                values.append(None if value is None or math.isinf(value) else value)
            self._cache[key] = tuple(values)
        return self._cache[key]


def _close(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= _CLOSE * max(abs(a), abs(b)) or a == b


def _same(first: tuple[float | None, ...], second: tuple[float | None, ...], scale=1.0) -> bool:
    if all(v is None for v in first) or all(v is None for v in second):
        return False
    return all(
        _close(a, None if b is None else scale * b) for a, b in zip(first, second, strict=True)
    )


def _terms(node: Node, path: Path, sign: int = 1) -> list[_Term]:
    if isinstance(node, BinOp) and node.op in "+-":
        right_sign = sign if node.op == "+" else -sign
        return _terms(node.left, path + (0,), sign) + _terms(node.right, path + (1,), right_sign)
    if isinstance(node, Negate) and isinstance(node.operand, BinOp) and node.operand.op in "+-":
        return _terms(node.operand, path + (0,), -sign)
    return [_Term(sign, node, path)]


def _factors(
    node: Node, path: Path, exponent: Fraction, out: list[_Factor], numbers: list[tuple]
) -> Fraction:
    """Split a product into ``out`` (factors with exponents) and return its rational
    coefficient; ``numbers`` collects the number nodes that made the coefficient."""
    if isinstance(node, Negate):
        return -_factors(node.operand, path + (0,), exponent, out, numbers)
    if isinstance(node, BinOp) and node.op in "*/":
        right = exponent if node.op == "*" else -exponent
        return _factors(node.left, path + (0,), exponent, out, numbers) * _factors(
            node.right, path + (1,), right, out, numbers
        )
    if isinstance(node, Number) and exponent.denominator == 1 and node.value:
        numbers.append((node, path))
        return node.value ** int(exponent)
    if isinstance(node, BinOp) and node.op == "^" and isinstance(node.right, Number):
        power = node.right.value
        if abs(power.numerator) <= 64 and power.denominator <= 64:
            out.append(_Factor(node.left, exponent * power, path, path + (0,)))
            return Fraction(1)
    if isinstance(node, Call) and node.name == "sqrt" and len(node.args) == 1:
        out.append(_Factor(node.args[0], exponent / 2, path, path + (0,)))
        return Fraction(1)
    out.append(_Factor(node, exponent, path, path))
    return Fraction(1)


def _is_sum(node: Node) -> bool:
    return isinstance(node, BinOp) and node.op in "+-"


def _is_power(node: Node) -> bool:
    return isinstance(node, BinOp) and node.op == "^"


def _power(base: Node, exponent: Fraction, render=to_text) -> str:
    """``base^exponent`` as typed syntax (``sqrt(v + e)``, ``1/x``, ``x^3``)."""
    text = render(base)
    inner = text if isinstance(base, (Symbol, Call, Number)) else f"({text})"
    size = abs(exponent)
    body = (
        text
        if size == 1
        else f"sqrt({text})"
        if size == Fraction(1, 2)
        else f"{inner}^{format_fraction(size)}"
    )
    return body if exponent > 0 else f"1/{body if size != 1 else inner}"


def _signed(sign: int, node: Node, render=to_text) -> str:
    return ("- " if sign < 0 else "+ ") + render(node)


def _ordinal(index: int, count: int) -> str:
    if count > 1 and index == count - 1 and count > 2:
        return "last"
    return _ORDINALS[index] if index < len(_ORDINALS) else f"term number {index + 1}"


def _where(exponent: Fraction) -> str:
    return "denominator" if exponent < 0 else "numerator"


def _power_text(exponent: Fraction) -> str:
    return format_fraction(abs(exponent))


def _rounded(answer: Fraction, reference: Fraction, text: str) -> bool:
    """Whether ``answer`` (typed as ``text``) is ``reference`` rounded or cut to fewer
    significant figures."""
    if answer == reference or not reference or not answer:
        return False
    digits = sum(c.isdigit() for c in text.lstrip("-0.").split("e")[0].replace(".", ""))
    if not 0 < digits < 30:
        return False
    exponent = math.floor(math.log10(abs(float(reference))))
    unit = Fraction(10) ** (exponent - digits + 1)
    return abs(answer - reference) < unit and len(format_fraction(reference)) > len(text)


class _Locator:
    def __init__(self, values: _Values, text: SpokenText) -> None:
        self.values = values
        self.text = text

    def locate(self, reference: Node, answer: Node, r_path: Path, a_path: Path, depth: int):
        if depth > MAX_DEPTH:
            return None
        r_terms, a_terms = _terms(reference, r_path), _terms(answer, a_path)
        if max(len(r_terms), len(a_terms)) > MAX_PARTS:
            return None
        if len(r_terms) > 1 or len(a_terms) > 1:
            return self._sums(r_terms, a_terms, depth)
        r_term, a_term = r_terms[0], a_terms[0]
        found = self._products(r_term.node, a_term.node, r_term.path, a_term.path, depth)
        if found is None and r_term.sign != a_term.sign:
            return Part("sign", "the sign is wrong", a_term.path, r_term.path)
        return found

    # -- sums --------------------------------------------------------------------------------
    def _fingerprint(self, term: _Term) -> tuple[float | None, ...]:
        values = self.values.of(term.node)
        return tuple(None if v is None else term.sign * v for v in values)

    def _sums(self, r_terms: list[_Term], a_terms: list[_Term], depth: int) -> Part | None:
        r_left = list(range(len(r_terms)))
        a_left = []
        for index, term in enumerate(a_terms):
            mine = self._fingerprint(term)
            match = next((j for j in r_left if _same(mine, self._fingerprint(r_terms[j]))), None)
            if match is None:
                a_left.append(index)
            else:
                r_left.remove(match)
        count = len(a_terms)
        nothing_shared = len(a_left) == len(a_terms) and len(r_left) == len(r_terms)
        if nothing_shared and (len(a_terms) == 1 or len(r_terms) == 1):
            return None  # a sum for a single term (1 - b^t for (1 - b)^t): no part lines up
        for index in a_left:
            term = a_terms[index]
            flipped = tuple(None if v is None else -v for v in self._fingerprint(term))
            match = next((j for j in r_left if _same(flipped, self._fingerprint(r_terms[j]))), None)
            if match is not None:
                return Part(
                    "sign",
                    f"the {_ordinal(index, count)} term has the wrong sign",
                    term.path,
                    r_terms[match].path,
                    _signed(term.sign, term.node, self.text),
                    _signed(r_terms[match].sign, r_terms[match].node, self.text),
                )
        if a_left and not r_left:
            term = a_terms[a_left[0]]
            text = _signed(term.sign, term.node, self.text)
            return Part("extra-term", f"this term is extra: {text}", term.path, None, text)
        if r_left and not a_left:
            term = r_terms[r_left[0]]
            text = _signed(term.sign, term.node, self.text)
            return Part("missing-term", f"a term is missing: {text}", None, term.path, "", text)
        if len(a_left) == 1 and len(r_left) == 1:
            a_term, r_term = a_terms[a_left[0]], r_terms[r_left[0]]
            ordinal = _ordinal(a_left[0], count)
            inner = self._products(r_term.node, a_term.node, r_term.path, a_term.path, depth)
            if inner is None and a_term.sign != r_term.sign:
                return Part(
                    "sign",
                    f"the {ordinal} term has the wrong sign",
                    a_term.path,
                    r_term.path,
                    _signed(a_term.sign, a_term.node, self.text),
                    _signed(r_term.sign, r_term.node, self.text),
                )
            if inner is not None:
                return inner
            return Part(
                "term",
                f"the {ordinal} term should be {_signed(r_term.sign, r_term.node, self.text)}",
                a_term.path,
                r_term.path,
                _signed(a_term.sign, a_term.node, self.text),
                _signed(r_term.sign, r_term.node, self.text),
            )
        if a_left:
            term = a_terms[a_left[0]]
            return Part(
                "term",
                f"the {_ordinal(a_left[0], count)} term is wrong",
                term.path,
                None,
                _signed(term.sign, term.node, self.text),
            )
        return None

    # -- products ----------------------------------------------------------------------------
    def _products(
        self, reference: Node, answer: Node, r_path: Path, a_path: Path, depth: int
    ) -> Part | None:
        r_factors: list[_Factor] = []
        a_factors: list[_Factor] = []
        r_numbers: list[tuple] = []
        a_numbers: list[tuple] = []
        r_coefficient = _factors(reference, r_path, Fraction(1), r_factors, r_numbers)
        a_coefficient = _factors(answer, a_path, Fraction(1), a_factors, a_numbers)
        if max(len(r_factors), len(a_factors)) > MAX_PARTS:
            return None
        r_left = list(range(len(r_factors)))
        a_left: list[int] = []
        for index, factor in enumerate(a_factors):
            mine = self.values.of(factor.base)
            match = next(
                (
                    j
                    for j in r_left
                    if r_factors[j].exponent == factor.exponent
                    and _same(mine, self.values.of(r_factors[j].base))
                ),
                None,
            )
            if match is None:
                a_left.append(index)
            else:
                r_left.remove(match)
        # The same base with another exponent.
        for index in a_left:
            factor = a_factors[index]
            mine = self.values.of(factor.base)
            match = next(
                (j for j in r_left if _same(mine, self.values.of(r_factors[j].base))), None
            )
            if match is not None:
                return self._exponent(factor, r_factors[match])
        if len(a_left) == 1 and len(r_left) == 1:
            inner = self._pair(a_factors[a_left[0]], r_factors[r_left[0]], depth)
            if inner is not None:
                return inner
        if a_left and not r_left:
            factor = a_factors[a_left[0]]
            text = self.text(factor.base)
            where = "" if factor.exponent > 0 else " in the denominator"
            return Part(
                "extra-factor", f"this factor is extra{where}: {text}", factor.path, None, text
            )
        if r_left and not a_left:
            factor = r_factors[r_left[0]]
            text = self.text(factor.base)
            if factor.exponent.denominator == 2 and any(
                _same(self.values.of(factor.base), self.values.of(f.base)) for f in a_factors
            ):
                return Part(
                    "square-root",
                    f"the {_where(factor.exponent)} is missing a square root",
                    None,
                    factor.path,
                    "",
                    text,
                )
            where = "the denominator" if factor.exponent < 0 else "a factor"
            return Part(
                "missing-factor", f"{where} is missing: {text}", None, factor.path, "", text
            )
        if a_left or r_left:
            if a_left:
                factor = a_factors[a_left[0]]
                return Part(
                    "factor",
                    f"this factor is wrong: {self.text(factor.base)}",
                    factor.path,
                    None,
                    self.text(factor.base),
                )
            return None
        if a_coefficient != r_coefficient:
            return self._coefficient(
                a_coefficient, r_coefficient, a_numbers, r_numbers, a_path, r_path
            )
        return None

    def _exponent(self, answer: _Factor, reference: _Factor) -> Part:
        base = self.text(reference.base)
        a_exp, r_exp = answer.exponent, reference.exponent
        texts = ("", "")  # filled from the paths: the whole power, not only its base
        if a_exp == -r_exp:
            return Part(
                "reciprocal",
                f"the factor {base} belongs in the {_where(r_exp)}, not the {_where(a_exp)}",
                answer.path,
                reference.path,
                *texts,
            )
        if (a_exp > 0) == (r_exp > 0) and abs(r_exp) * 2 == abs(a_exp) and r_exp.denominator == 2:
            return Part(
                "square-root",
                "the denominator is missing a square root"
                if r_exp < 0
                else f"a square root is missing: sqrt({self.text(reference.base)})",
                answer.path,
                reference.path,
                *texts,
            )
        if (a_exp > 0) == (r_exp > 0) and abs(a_exp) * 2 == abs(r_exp) and a_exp.denominator == 2:
            return Part(
                "square-root",
                "the denominator has a square root too many"
                if a_exp < 0
                else f"a square root too many: {self.text(reference.base)} needs none",
                answer.path,
                reference.path,
                *texts,
            )
        if (a_exp > 0) == (r_exp > 0):
            return Part(
                "exponent",
                f"the exponent of {base} should be {_power_text(r_exp)}, not {_power_text(a_exp)}",
                answer.path,
                reference.path,
                *texts,
            )
        return Part(
            "exponent",
            f"the factor {base} should be to the power {format_fraction(r_exp)}, "
            f"not {format_fraction(a_exp)}",
            answer.path,
            reference.path,
            *texts,
        )

    def _pair(self, answer: _Factor, reference: _Factor, depth: int) -> Part | None:
        """One factor differs on each side (same exponent): go inside when they share a
        shape, else name the factor."""
        a_base, r_base = answer.base, reference.base
        texts = ("", "")  # filled from the paths: the factor as typed (sqrt(pi), not pi)
        if answer.exponent != reference.exponent:
            # Different bases and different powers (sqrt(v + e) for sqrt(v) + e): the whole
            # factor is what differs; looking inside either one would mislead.
            whole = (
                _power(a_base, answer.exponent, self.text),
                _power(r_base, reference.exponent, self.text),
            )
            return Part(
                "factor",
                f"the factor {whole[0]} should be {whole[1]}",
                answer.path,
                reference.path,
                *whole,
            )
        if _is_power(a_base) and _is_power(r_base):
            assert isinstance(a_base, BinOp) and isinstance(r_base, BinOp)
            if _same(self.values.of(a_base.left), self.values.of(r_base.left)):
                inner = self.locate(
                    r_base.right,
                    a_base.right,
                    reference.base_path + (1,),
                    answer.base_path + (1,),
                    depth + 1,
                )
                if inner is not None:
                    return inner
        if isinstance(a_base, Call) and isinstance(r_base, Call):
            if a_base.name != r_base.name or len(a_base.args) != len(r_base.args):
                return Part(
                    "function",
                    f"the function {a_base.name} should be {r_base.name}",
                    answer.path,
                    reference.path,
                    *texts,
                )
            for index, (a_arg, r_arg) in enumerate(zip(a_base.args, r_base.args, strict=True)):
                if not _same(self.values.of(a_arg), self.values.of(r_arg)):
                    inner = self.locate(
                        r_arg,
                        a_arg,
                        reference.base_path + (index,),
                        answer.base_path + (index,),
                        depth + 1,
                    )
                    if inner is not None:
                        return inner
                    return Part(
                        "factor",
                        f"the argument of {a_base.name} should be {self.text(r_arg)}",
                        answer.base_path + (index,),
                        reference.base_path + (index,),
                        self.text(a_arg),
                        self.text(r_arg),
                    )
            return None
        composite = (BinOp, Negate, Call)
        either_sum = _is_sum(a_base) or _is_sum(r_base)
        if either_sum or (isinstance(a_base, composite) and isinstance(r_base, composite)):
            inner = self.locate(r_base, a_base, reference.base_path, answer.base_path, depth + 1)
            if inner is not None:
                return inner
        if isinstance(a_base, Symbol) and isinstance(r_base, Symbol):
            return Part(
                "factor",
                f"the factor {self.text(a_base)} should be {self.text(r_base)}",
                answer.path,
                reference.path,
                *texts,
            )
        return Part(
            "factor",
            f"the factor {self.text(a_base)} should be {self.text(r_base)}",
            answer.path,
            reference.path,
            *texts,
        )

    def _coefficient(
        self,
        answer: Fraction,
        reference: Fraction,
        a_numbers: list[tuple],
        r_numbers: list[tuple],
        a_path: Path,
        r_path: Path,
    ) -> Part:
        if answer == -reference:
            return Part("sign", "the sign is wrong", a_path, r_path)
        if len(a_numbers) == 1 and len(r_numbers) == 1:
            (a_node, a_at), (r_node, r_at) = a_numbers[0], r_numbers[0]
            a_text, r_text = format_fraction(a_node.value), format_fraction(r_node.value)
            if _rounded(a_node.value, r_node.value, a_node.text or a_text):
                return Part(
                    "rounded-constant",
                    f"a constant is rounded: {a_node.text or a_text} for {r_text}",
                    a_at,
                    r_at,
                    a_node.text or a_text,
                    r_text,
                )
            return Part(
                "constant", f"the constant {a_text} should be {r_text}", a_at, r_at, a_text, r_text
            )
        same_sign = (answer > 0) == (reference > 0)
        shown = format_fraction(abs(reference) if same_sign else reference)
        typed = format_fraction(abs(answer) if same_sign else answer)
        target = a_numbers[0][1] if len(a_numbers) == 1 else a_path
        return Part(
            "constant",
            f"the constant factor should be {shown}, not {typed}",
            target,
            r_numbers[0][1] if len(r_numbers) == 1 else r_path,
        )


def locate(
    reference: Node,
    answer: Node,
    table: SymbolTable,
    *,
    seed: int = 0,
    shorthands: Mapping[str, Node] | None = None,
    spoken: Collection[str] | None = None,
) -> Part | None:
    """The smallest part of ``answer`` that differs from ``reference``, or ``None`` when the
    two cannot be lined up part by part.

    ``shorthands`` (name → expanded definition) are folded back into their names in the
    message; ``spoken`` is every name the learner or the reference typed: a message that would
    name anything else (a piece of an expanded shorthand) says which kind of part is wrong
    without naming it."""
    names = sorted(
        {n.name for tree in (reference, answer) for n in walk(tree) if isinstance(n, Symbol)}
    )
    render = SpokenText(shorthands)
    locator = _Locator(_Values(names, table, seed), render)
    part = locator.locate(reference, answer, (), (), 0)
    if part is None:
        return None
    answer_node = None if part.answer_path is None else subtree_at(answer, part.answer_path)
    expected_node = (
        None if part.expected_path is None else subtree_at(reference, part.expected_path)
    )
    if (part.answer_path is not None and answer_node is None) or (
        part.expected_path is not None and expected_node is None
    ):
        return None  # a path that misses its tree would mark the wrong thing: say nothing
    answer_text = part.answer_text or ("" if answer_node is None else render(answer_node))
    expected_text = part.expected_text or ("" if expected_node is None else render(expected_node))
    message = part.message
    if spoken is not None and not render.speaks_only(spoken):
        message, answer_text, expected_text = unnamed_message(part.kind, part.message), "", ""
    return Part(
        part.kind, message, part.answer_path, part.expected_path, answer_text, expected_text
    )


def subtree_at(node: Node, path: Path) -> Node | None:
    """The subtree at ``path``, or ``None`` if the path leaves the tree."""
    for index in path:
        if isinstance(node, Negate) and index == 0:
            node = node.operand
        elif isinstance(node, BinOp) and index in (0, 1):
            node = node.right if index else node.left
        elif isinstance(node, Call) and 0 <= index < len(node.args):
            node = node.args[index]
        else:
            return None
    return node
