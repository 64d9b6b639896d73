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

from collections.abc import Collection, Mapping
from fractions import Fraction

from recall.formula.nodes import BinOp, Call, Negate, Node, Symbol, walk
from recall.formula.part_shapes import (
    MISSING_IN_TERM,
    Factor,
    Term,
    Values,
    agree_where_defined,
    common_path,
    distributed,
    factors,
    is_power,
    is_sum,
    ordinal,
    power_form,
    power_text,
    powered,
    rebuilt,
    rounded,
    same,
    signed,
    terms,
    where,
)
from recall.formula.printer import format_fraction
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


class _Locator:
    def __init__(self, values: Values, text: SpokenText) -> None:
        self.values = values
        self.text = text

    def locate(self, reference: Node, answer: Node, r_path: Path, a_path: Path, depth: int):
        if depth > MAX_DEPTH:
            return None
        r_terms, a_terms = terms(reference, r_path), terms(answer, a_path)
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
    def _fingerprint(self, term: Term) -> tuple[float | None, ...]:
        values = self.values.of(term.node)
        return tuple(None if v is None else term.sign * v for v in values)

    def _sums(self, r_terms: list[Term], a_terms: list[Term], depth: int) -> Part | None:
        if len(r_terms) != len(a_terms):
            # w - η(u + λw) typed as w - ηu - λw: multiply a product over its sum on the side
            # with fewer terms, so the terms line up and the one that differs is named.
            fewer = r_terms if len(r_terms) < len(a_terms) else a_terms
            spread = distributed(fewer)
            if spread is not None and self._unmatched(
                spread if fewer is r_terms else r_terms, spread if fewer is a_terms else a_terms
            ) < self._unmatched(r_terms, a_terms):
                if fewer is r_terms:
                    r_terms = spread
                else:
                    a_terms = spread
        r_left = list(range(len(r_terms)))
        a_left = []
        for index, term in enumerate(a_terms):
            mine = self._fingerprint(term)
            match = next((j for j in r_left if same(mine, self._fingerprint(r_terms[j]))), None)
            if match is None:
                a_left.append(index)
            else:
                r_left.remove(match)
        count = len(a_terms)
        nothing_shared = len(a_left) == len(a_terms) and len(r_left) == len(r_terms)
        if nothing_shared and (len(a_terms) == 1 or len(r_terms) == 1):
            # A sum for a single term: a power typed on one term of a sum (1 - b^t for
            # (1 - b)^t), or the whole sum scaled (p + q for (p + q)/2); else no part lines up.
            return self._whole(r_terms, a_terms, depth)
        for index in a_left:
            term = a_terms[index]
            flipped = tuple(None if v is None else -v for v in self._fingerprint(term))
            match = next((j for j in r_left if same(flipped, self._fingerprint(r_terms[j]))), None)
            if match is not None:
                return Part(
                    "sign",
                    f"the {ordinal(index, count)} term has the wrong sign",
                    term.path,
                    r_terms[match].path,
                    signed(term.sign, term.node, self.text),
                    signed(r_terms[match].sign, r_terms[match].node, self.text),
                )
        if a_left and not r_left:
            term = a_terms[a_left[0]]
            text = signed(term.sign, term.node, self.text)
            return Part("extra-term", f"this term is extra: {text}", term.path, None, text)
        if r_left and not a_left:
            term = r_terms[r_left[0]]
            text = signed(term.sign, term.node, self.text)
            return Part("missing-term", f"a term is missing: {text}", None, term.path, "", text)
        if len(a_left) == 1 and len(r_left) == 1:
            a_term, r_term = a_terms[a_left[0]], r_terms[r_left[0]]
            nth = ordinal(a_left[0], count)
            inner = self._products(r_term.node, a_term.node, r_term.path, a_term.path, depth)
            if inner is not None and inner.answer_path is None and inner.kind in MISSING_IN_TERM:
                # A factor missing from one term: the term it is missing from is what to mark.
                inner = Part(
                    inner.kind,
                    inner.message,
                    a_term.path,
                    inner.expected_path,
                    signed(a_term.sign, a_term.node, self.text),
                    inner.expected_text,
                )
            if inner is None and a_term.sign != r_term.sign:
                return Part(
                    "sign",
                    f"the {nth} term has the wrong sign",
                    a_term.path,
                    r_term.path,
                    signed(a_term.sign, a_term.node, self.text),
                    signed(r_term.sign, r_term.node, self.text),
                )
            if inner is not None:
                return inner
            return Part(
                "term",
                f"the {nth} term should be {signed(r_term.sign, r_term.node, self.text)}",
                a_term.path,
                r_term.path,
                signed(a_term.sign, a_term.node, self.text),
                signed(r_term.sign, r_term.node, self.text),
            )
        if a_left:
            term = a_terms[a_left[0]]
            return Part(
                "term",
                f"the {ordinal(a_left[0], count)} term is wrong",
                term.path,
                None,
                signed(term.sign, term.node, self.text),
            )
        return None

    def _unmatched(self, r_terms: list[Term], a_terms: list[Term]) -> int:
        """How many terms of both sides find no equal term on the other side."""
        r_left = [self._fingerprint(term) for term in r_terms]
        left = 0
        for term in a_terms:
            mine = self._fingerprint(term)
            match = next((j for j, theirs in enumerate(r_left) if same(mine, theirs)), None)
            if match is None:
                left += 1
            else:
                r_left.pop(match)
        return left + len(r_left)

    def _whole(self, r_terms: list[Term], a_terms: list[Term], depth: int) -> Part | None:
        """One side is a single term and the other a sum, and no term is shared."""
        if len(a_terms) > 1 and len(r_terms) == 1:
            found = self._power_on_one_term(r_terms[0], a_terms)
            if found is not None:
                return found
        r_node, a_node = rebuilt(r_terms), rebuilt(a_terms)
        if r_node is None or a_node is None:
            return None
        r_path, a_path = common_path(t.path for t in r_terms), common_path(t.path for t in a_terms)
        found = self._products(r_node, a_node, r_path, a_path, depth)
        if found is not None and found.kind == "constant" and found.answer_path == a_path:
            return found  # (p + q)/2 typed p + q: the whole answer is off by the constant
        return None

    def _power_on_one_term(self, reference: Term, a_terms: list[Term]) -> Part | None:
        """``1 - beta^t`` for ``(1 - beta)^t``: the answer is the reference's sum with the
        power put on one of its terms only (the brackets were left out)."""
        node = reference.node
        if not (is_power(node) and isinstance(node, BinOp) and is_sum(node.left)):
            return None
        inner = terms(node.left, reference.path + (0,), reference.sign)
        if len(inner) != len(a_terms):
            return None
        exponent = node.right
        for index, term in enumerate(a_terms):
            typed = term.node
            if not (is_power(typed) and isinstance(typed, BinOp)):
                continue
            if not same(self.values.of(typed.right), self.values.of(exponent)):
                continue
            others = [t for k, t in enumerate(a_terms) if k != index]
            bare = Term(term.sign, typed.left, term.path + (0,))
            if self._unmatched(inner, [*others, bare]) == 0:
                base = self.text(node.left)
                power = self.text(exponent)
                return Part(
                    "parentheses",
                    f"the power ^{power} belongs to the whole ({base}), not only to "
                    f"{self.text(typed.left)}: type ({base})^{power}",
                    term.path,
                    reference.path,
                    signed(term.sign, typed, self.text),
                    self.text(node),
                )
        return None

    # -- products ----------------------------------------------------------------------------
    def _products(
        self, reference: Node, answer: Node, r_path: Path, a_path: Path, depth: int
    ) -> Part | None:
        r_factors: list[Factor] = []
        a_factors: list[Factor] = []
        r_numbers: list[tuple] = []
        a_numbers: list[tuple] = []
        r_coefficient = factors(reference, r_path, Fraction(1), r_factors, r_numbers)
        a_coefficient = factors(answer, a_path, Fraction(1), a_factors, a_numbers)
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
                    and same(mine, self.values.of(r_factors[j].base))
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
            match = next((j for j in r_left if same(mine, self.values.of(r_factors[j].base))), None)
            if match is not None:
                return self._exponent(factor, r_factors[match])
        if len(a_left) == 1 and len(r_left) == 1:
            inner = self._pair(a_factors[a_left[0]], r_factors[r_left[0]], depth)
            if inner is not None:
                return inner
        elif a_left and r_left:
            # Several factors differ in form on each side (σ·√(2π) for √(2πσ²)): find the one
            # pair whose difference is the whole difference, the rest agreeing as a product.
            pair = self._differing_pair(
                reference,
                answer,
                r_factors,
                a_factors,
                r_left,
                a_left,
                r_coefficient,
                a_coefficient,
            )
            if pair is not None:
                inner = self._pair(a_factors[pair[0]], r_factors[pair[1]], depth)
                if inner is not None:
                    return inner
        if a_left and not r_left:
            factor = a_factors[a_left[0]]
            text = self.text(factor.base)
            side = "" if factor.exponent > 0 else " in the denominator"
            return Part(
                "extra-factor", f"this factor is extra{side}: {text}", factor.path, None, text
            )
        if r_left and not a_left:
            factor = r_factors[r_left[0]]
            text = self.text(factor.base)
            if factor.exponent.denominator == 2 and any(
                same(self.values.of(factor.base), self.values.of(f.base)) for f in a_factors
            ):
                return Part(
                    "square-root",
                    f"the {where(factor.exponent)} is missing a square root",
                    None,
                    factor.path,
                    "",
                    text,
                )
            side = "the denominator" if factor.exponent < 0 else "a factor"
            return Part("missing-factor", f"{side} is missing: {text}", None, factor.path, "", text)
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

    def _differing_pair(
        self,
        reference: Node,
        answer: Node,
        r_factors: list[Factor],
        a_factors: list[Factor],
        r_left: list[int],
        a_left: list[int],
        r_coefficient: Fraction,
        a_coefficient: Fraction,
    ) -> tuple[int, int] | None:
        """The one (answer factor, reference factor) pair, of the same exponent, such that
        the answer with its factor swapped for the reference's equals the reference: then
        everything else agrees and that pair is the mistake. ``None`` unless exactly one pair
        does. The whole values carry every constant, so the test holds whatever the numeric
        coefficients are (``1/(σ√(2π))`` beside ``1/√(2πσ²)``)."""
        whole_a, whole_r = self.values.of(answer), self.values.of(reference)
        found = None
        for i in a_left:
            a_values = powered(self.values.of(a_factors[i].base), a_factors[i].exponent)
            for j in r_left:
                if a_factors[i].exponent != r_factors[j].exponent:
                    continue
                r_values = powered(self.values.of(r_factors[j].base), r_factors[j].exponent)
                swapped = tuple(
                    w / a * r if w is not None and a and r is not None else None
                    for w, a, r in zip(whole_a, a_values, r_values, strict=True)
                )
                if agree_where_defined(swapped, whole_r):
                    if found is not None:
                        return None
                    found = (i, j)
        return found

    def _exponent(self, answer: Factor, reference: Factor) -> Part:
        base = self.text(reference.base)
        a_exp, r_exp = answer.exponent, reference.exponent
        texts = ("", "")  # filled from the paths: the whole power, not only its base
        if a_exp == -r_exp:
            return Part(
                "reciprocal",
                f"the factor {base} belongs in the {where(r_exp)}, not the {where(a_exp)}",
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
                f"the exponent of {base} should be {power_text(r_exp)}, not {power_text(a_exp)}",
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

    def _pair(self, answer: Factor, reference: Factor, depth: int) -> Part | None:
        """One factor differs on each side (same exponent): go inside when they share a
        shape, else name the factor."""
        a_base, r_base = answer.base, reference.base
        texts = ("", "")  # filled from the paths: the factor as typed (sqrt(pi), not pi)
        if answer.exponent != reference.exponent:
            # Different bases and different powers (sqrt(v + e) for sqrt(v) + e): the whole
            # factor is what differs; looking inside either one would mislead.
            whole = (
                power_form(a_base, answer.exponent, self.text),
                power_form(r_base, reference.exponent, self.text),
            )
            return Part(
                "factor",
                f"the factor {whole[0]} should be {whole[1]}",
                answer.path,
                reference.path,
                *whole,
            )
        if is_power(a_base) and is_power(r_base):
            assert isinstance(a_base, BinOp) and isinstance(r_base, BinOp)
            if same(self.values.of(a_base.left), self.values.of(r_base.left)):
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
                if not same(self.values.of(a_arg), self.values.of(r_arg)):
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
        either_sum = is_sum(a_base) or is_sum(r_base)
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
            if rounded(a_node.value, r_node.value, a_node.text or a_text):
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
    locator = _Locator(Values(names, table, seed), render)
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
