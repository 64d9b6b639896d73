"""Formulas written inside a typed explanation, found and graded against a key point's formulas.

A learner who states a point as a formula writes it inline, the way their keyboard types it:
``so var(q·k) = d_k, hence…``, ``‖a − b‖² = 2 − 2cos θ``, ``D*(x) = p_data(x)/(p_data(x) +
p_g(x))``. This module finds those runs of math in prose, cuts them at relations, and asks the
engine whether one of them says what a point's formula says. Nothing here reads math itself:
every candidate is text handed to the engine (:func:`recall.formula.parse` and
:func:`recall.formula.check`, with their size, depth and time limits); what this module adds is
where a formula starts and ends, and a few rewrites of how people write prose math, made on the
engine's own tokens:

* **Runs.** Whitespace-separated words that hold an operator, a digit, a relation, a one-letter
  or subscripted name, a Greek letter or a function name join into a run, and so does a short
  word beside a lone operator (``SE = σ/√n``, ``a + b``); a run ends at a prose word, or at
  ``,`` ``;`` ``:`` ``.`` closing a word outside brackets. A run right after a negation ("it is
  *not* σ/n") is no evidence, neither for the point nor against it.
* **Relations cut a run into parts** (``= ≈ ≤ → ∝ ~ ≪ ± …``); two parts around ``=``,
  ``≈``, ``≃``, ``≡`` or ``:=`` also make an *equation*. Parts around ``≠`` are never
  evidence. Small words glued to a bracket (``(so var(q·k)``), an aside whose bracket never
  closes (``h/g (h query heads``), a dangling operator and a ``+ const`` are cut off a part;
  the argument of a function the grammar does not know (``softmax(q·k/√d_k)``) and the term of
  a sum (``Σ_r 1/(k + r)``) are parts of their own.
* **Keyboard notation.** Divergence bars inside a call (``KL(p‖q)``, ``JS(p || q)``) and a
  conditional bar (``p(x|c)``) read as a comma, ``⊙`` as a product, ``log₂`` as ``log2``,
  braces typed without LaTeX (``β_{1}``, ``e^{-x}``) as brackets; a transpose (``wᵀx``,
  ``q^T k``: entries are scalars here), backticks, quotes and dollars are dropped. ``over``,
  ``times`` and ``squared`` between pieces of math are operators (``σ over √n``); ``plus`` and
  ``minus`` are not, since a sentence leaves their grouping open (``h over h plus λ``), except
  inside brackets, which settle it (``(p plus q) over 2``).
* **Names as the point spells them.** A glued product of the point's names (``6ND`` for
  ``6*N*D``, ``wx`` for ``w*x``) is split; a subscripted or accented form of one of its names
  (``β₁``, ``β1``, ``m_t``, ``m̂_t`` for ``beta``, ``m``, ``m_hat``; ``p_G`` for ``p_g``, ``M``
  for ``m``, ``k1`` for ``k_1``, ``eps`` for ``epsilon``), and a quantity written as a word the
  field writes with a letter (``params`` for ``N``, ``tokens`` for ``D``), is read as that name
  when the mapping is one-to-one; a name
  of the point applied to names the point does not use (``p_data(x)``, ``JS(p_data, p_g)``,
  ``Var(q·k)``) is read as the name alone; ``σ(…)`` is the sigmoid and ``C(n, k)`` the binomial
  when the point's formula uses that function and the card gives the letter no other meaning.

A point's formula is an expression (``2 - 2*cos(theta)``) or an equation with one ``=``
(``lambda = 1/(eta*t)``). An expression is made by any part equal to it; an equation only by an
equation of the text that is the same equation: the same two sides in either order, or sides
whose difference is a nonzero constant times the point's (``w − η(g + 2λw) = (1 − 2ηλ)w − ηg``
rearranged any way), or whose ratio is the point's ratio or its inverse (``ηt ≈ 1/λ`` for ``λ =
1/(ηt)``). An equation that holds for every value (an identity) is made only by its own two
sides. Every part must use exactly the point formula's names, so a bare number or a formula
about something else never credits it.

Bounded: at most :data:`MAX_SPANS` parts with a letter, :data:`MAX_NUMBERS` without and
:data:`MAX_EQUATIONS` equations per explanation, each at most :data:`MAX_SPAN_CHARS`
characters, and the comparisons of one explanation stop at :data:`BUDGET_SECONDS` (what was not
compared by then is not credited).
"""

from __future__ import annotations

import gc
import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from recall.errors import FormulaError, GradingError
from recall.formula import Expression, Status, SymbolTable, check, evaluate_constant, parse
from recall.formula.functions import BUILTINS
from recall.formula.lexer import (
    ACCENT_MARKS,
    OPERATORS,
    RELATIONS,
    SUBSCRIPTS,
    SUPERSCRIPT_SIGNS,
    SUPERSCRIPTS,
    VULGAR_FRACTIONS,
    Token,
    accented,
    tokenize,
)
from recall.formula.names import GREEK, GREEK_NAMES
from recall.formula.nodes import Number, replace_symbols
from recall.formula.typed_names import split_into

#: Most parts (expressions) and equations taken from one explanation.
MAX_SPANS = 40
MAX_EQUATIONS = 16
#: Most parts without a letter (``20``, ``1/61``): compared only with a constant formula, and
#: kept apart so a number-heavy text does not crowd the formulas out.
MAX_NUMBERS = 12
#: Most runs and parts :func:`formula_spans` lists.
MAX_LISTED = 24
#: Longest part compared (characters): prose math is short; a longer run is not a formula.
MAX_SPAN_CHARS = 300
#: Budget for the formula comparisons of one explanation (seconds of this thread's CPU time, so a
#: busy machine does not change what is credited).
BUDGET_SECONDS = 0.15

#: Relations that make an equation of the two parts around them.
_EQUALS = frozenset({"=", "≈", "≃", "≅", "≡", ":=", "=="})
#: Relations whose parts are never evidence (a denial).
_DENIES = frozenset({"≠", "!=", "=/="})
#: Signs that separate two formulas without being part of either: the relations the grammar
#: refuses, and ``≪ ≫ ± ∓`` (``√d ± 0.7`` gives ``√d`` and ``0.7``).
_SEPARATORS = RELATIONS | frozenset("≪≫±∓⟹⟶⟺")
_RELATION = re.compile(
    r"(=/=|:=|==|!=|<=|>=|->|=>|<-|[" + re.escape("".join(sorted(_SEPARATORS))) + r"])"
)
#: ``+ const`` after a formula (``w²/(2τ²) + const``): the additive constant a log-density
#: drops, not a term of the formula.
_PLUS_CONSTANT = re.compile(r"\s*[+−-]\s*(?:const|constant|cst)\.?$", re.IGNORECASE)
#: Operators left dangling at a part's end (``(h/g)× smaller``).
_DANGLING = "×·*+−-/^"
_MATHY_CHARS = (
    frozenset("()[]√_′|‖ᵀ⊙")
    | frozenset(OPERATORS)
    | frozenset(SUPERSCRIPTS)
    | frozenset(SUPERSCRIPT_SIGNS)
    | frozenset(VULGAR_FRACTIONS)
    | RELATIONS
)
#: Characters that make a word a name of math: Greek letters and subscripts as typed.
_MATH_LETTERS = frozenset(GREEK) | frozenset(SUBSCRIPTS) | frozenset(ACCENT_MARKS)
#: A word that is only an operator or a relation (``=``, ``+``, ``≈``, ``->``).
_OPERATOR_WORD = re.compile(
    "[" + re.escape("".join(sorted(set(OPERATORS) | RELATIONS))) + r"]{1,2}|:=|->|<-|=>"
)
_SMALL = frozenset(
    """a an the of to in on at by for from with as and or is are was were be it its this that
    so than then do does has have we you they i our your their""".split()
)
_FUNCTION_WORDS = frozenset(BUILTINS) | {"ln", "var", "cov", "softmax", "kl", "js", "e"}
_GREEK_WORDS = frozenset(name.lower() for name in GREEK_NAMES)
#: ``p(x|c)``: a conditional bar between two plain arguments.
_CONDITIONAL = re.compile(r"\(([^()|‖]+)\|([^()|‖]+)\)")
#: ``log-odds``, ``one-hot``, ``mass-covering``: prose words joined by hyphens, not a difference.
_HYPHENATED = re.compile(r"[A-Za-z]{3,}(?:-[A-Za-z]{3,})+")
_FOLDS = str.maketrans({"⊙": "·", "∗": "*", "ᵀ": " ", **dict.fromkeys('`$"“”', " ")})
#: ``q^T k``: a transpose typed as a power of ``T`` (entries are scalars here).
_TRANSPOSE = re.compile(r"\^\s*T\b")
#: ``softmax(q·k/√d_k)``: a call of a function the grammar does not know; its argument is
#: offered as a part of its own.
_CALL = re.compile(r"([A-Za-z][A-Za-z0-9_]*)\((.+)\)")
_BRACED_SUBSCRIPT = re.compile(r"_\{(\w+)\}")
_BRACES = str.maketrans("{}", "()")
#: Operators said in words between two pieces of math (``σ over √n``); not ``plus`` and
#: ``minus``, whose grouping a sentence leaves open (``h over h plus λ``).
_SPOKEN = {"times": "*", "over": "/"}
#: Operators said in words that count only inside brackets (see :func:`_spoken`).
_BRACKETED_SPOKEN = {"plus": "+", "minus": "-"}
#: A sum sign in front of a term (``Σ_r 1/(k + r)``): the term is offered as a part.
_SUM = re.compile(r"(?:Σ|∑|Sigma)(?:_\w+|[\u2080-\u209c\u1d62-\u1d65]+)?\s+(.+)")
#: Words that deny the math right after them ("the error is *not* σ/n"), and how far back one
#: is looked for.
_NEGATORS = frozenset({"not", "no", "never", "nor", "neither", "without", "cannot"})
_NEGATION_REACH = 4
#: Letters that name a builtin in common notation, read so when a point's formula uses it.
_NOTATION_ALIASES = {"sigma": "sigmoid", "C": "binom"}
#: ``sgn(w)``: the sign function as often abbreviated.
_SGN = re.compile(r"\bsgn(?=\s*\()")
#: A Greek letter with digits glued on (``β1``, ``β2^t``): a subscript typed without the key.
_GREEK_DIGITS = re.compile(r"(?<![^\W\d_])([\u0370-\u03ff])(\d+)(?!\d)")
#: Short spellings of a Greek name that learners type.
_ALIASES = {"eps": "epsilon"}
#: Quantities written as words inside a formula (``6·params·tokens``), read as the letter the
#: field writes them with, when the point's formula uses that letter: parameters N, tokens or
#: data D, compute C, batch B, vocabulary V, layers L, dimension d, heads h, steps T.
_QUANTITY_WORDS = {
    **dict.fromkeys(("params", "parameters", "param", "parameter", "weights"), ("N",)),
    **dict.fromkeys(("tokens", "tokens_seen", "data", "toks"), ("D",)),
    **dict.fromkeys(("compute", "flops", "FLOPs", "FLOPS"), ("C",)),
    **dict.fromkeys(("batch", "batchsize", "batch_size"), ("B",)),
    **dict.fromkeys(("vocab", "vocabulary"), ("V",)),
    **dict.fromkeys(("layers", "depth"), ("L",)),
    **dict.fromkeys(("dim", "dims", "dimension", "width"), ("d", "d_model")),
    **dict.fromkeys(("heads",), ("h", "H")),
    **dict.fromkeys(("steps",), ("T", "t")),
}


@dataclass(frozen=True)
class Candidates:
    """What one explanation offers: its parts (expressions) with a letter, its equations (pairs
    of parts) and its parts that are numbers alone."""

    parts: tuple[str, ...]
    equations: tuple[tuple[str, str], ...]
    numbers: tuple[str, ...] = ()
    #: Pairs of parts around ``≠``: never evidence for a point, only against its words.
    denials: tuple[tuple[str, str], ...] = ()


def formula_spans(text: str) -> list[str]:
    """Runs of ``text`` that look like math, and each part of them between relations: the
    text's candidate formulas as written. Bounded by :data:`MAX_LISTED`."""
    spans: list[str] = []
    for run in _runs(text):
        spans.append(run)
        spans.extend(part for part, _ in _parts(run) if part)
    return list(dict.fromkeys(spans))[:MAX_LISTED]


def candidates(text: str) -> Candidates:
    """The parts and equations of every math run of ``text`` (bounded)."""
    parts: list[str] = []
    equations: list[tuple[str, str]] = []
    denials: list[tuple[str, str]] = []
    chained: list[tuple[str, str]] = []
    for run in _runs(text):
        pieces = _parts(run)
        for index, (part, _) in enumerate(pieces):
            before = pieces[index - 1][1] if index else ""
            after = pieces[index][1]
            if part and before not in _DENIES and after not in _DENIES:
                parts.append(part)
                parts.extend(_arguments(part))
                parts.extend(_scaled(part))
            if index and part and pieces[index - 1][0] and before in _EQUALS:
                equations.append((pieces[index - 1][0], part))
            if index and part and pieces[index - 1][0] and before in _DENIES:
                denials.append((pieces[index - 1][0], part))
        chained.extend(_chained(pieces))
    # an equality a chain implies comes after every one the text writes out, so a long
    # derivation does not crowd the written ones out of the bound
    equations.extend(chained)
    unique = [p for p in dict.fromkeys(parts) if len(p) <= MAX_SPAN_CHARS]
    lettered = [p for p in unique if _has_letter(p)]
    numbers = [p for p in unique if not _has_letter(p)]
    pairs = [
        e
        for e in dict.fromkeys(equations)
        if max(map(len, e)) <= MAX_SPAN_CHARS and any(map(_has_letter, e))
    ]
    return Candidates(
        tuple(lettered[:MAX_SPANS]),
        tuple(pairs[:MAX_EQUATIONS]),
        tuple(numbers[:MAX_NUMBERS]),
        tuple(dict.fromkeys(denials))[:MAX_EQUATIONS],
    )


def _chained(pieces: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The equations a chain of equalities states between parts that are not neighbours:
    ``Var(q·k) = d_k·Var(q_i k_i) = d_k`` says ``Var(q·k) = d_k``, the step a derivation
    writes last being its claim. Only parts joined by equalities all the way (never across
    ``≤``, ``→`` or ``≠``), and an empty part breaks the chain."""
    chains: list[list[str]] = [[]]
    for index, (part, relation) in enumerate(pieces):
        if not part:
            chains.append([])
            continue
        chains[-1].append(part)
        if relation not in _EQUALS and index + 1 < len(pieces):
            chains.append([])
    return [
        (chain[i], chain[j])
        for chain in chains
        for i in range(len(chain))
        for j in range(i + 2, len(chain))
    ]


#: A prose word times math, or math times a prose word ("variance * 1/(2L)"): the word names
#: what is scaled, the math is the factor.
_PROSE_TIMES = re.compile(r"([A-Za-z]{3,})\s*[*·×]\s*(.+)")
_TIMES_PROSE = re.compile(r"(.+?)\s*[*·×]\s*([A-Za-z]{3,})")


def _scaled(part: str) -> list[str]:
    """The factor of a part that multiplies a quantity named in prose: "each branch's variance
    * 1/(2L)" offers ``1/(2L)``, the factor a point may name ("shrinks its variance by
    1/(2L)"). A name the grammar reads (``exp``, ``sigma``) is math, not prose."""
    found = []
    for pattern, word, factor in ((_PROSE_TIMES, 1, 2), (_TIMES_PROSE, 2, 1)):
        match = pattern.fullmatch(part)
        if match is None:
            continue
        name = match.group(word).lower()
        if name not in _FUNCTION_WORDS and name not in _GREEK_WORDS:
            found.append(match.group(factor).strip())
    return found


def _has_letter(part: str) -> bool:
    return any(char.isalpha() for char in part)


# --- finding runs -----------------------------------------------------------------------------


def _runs(text: str) -> list[str]:
    """The runs of math in ``text``, after the keyboard notation is folded (module docstring)."""
    text = text.translate(_FOLDS).replace("log₂", "log2").replace("log₁₀", "log10")
    text = _SGN.sub("sign", text)
    text = _TRANSPOSE.sub(" ", text)
    text = _divergences(_CONDITIONAL.sub(r"(\1, \2)", text))
    if "\\" not in text:  # braces without LaTeX: β_{1}, e^{-E(x)}, sqrt{p(1-p)/n}
        text = _BRACED_SUBSCRIPT.sub(r"_\1", text).translate(_BRACES)
    words = _spoken(text.split())
    runs: list[str] = []
    run: list[str] = []
    depth = 0
    start = 0

    def close() -> None:
        nonlocal depth
        if run:
            joined = " ".join(run).strip(",.;:!?")
            has_math = any(ch in _MATHY_CHARS or ch.isdigit() for ch in joined)
            if has_math and not _negated(words[max(start - _NEGATION_REACH, 0) : start]):
                runs.append(joined)
            run.clear()
        depth = 0

    mathy = [_mathy(word) for word in words]
    for index, word in enumerate(words):
        if not mathy[index] and _name_like(word):
            # ``SE = σ/√n``, ``= wx + b``: a name beside a lone operator or relation
            neighbours = words[max(index - 1, 0) : index] + words[index + 1 : index + 2]
            mathy[index] = any(_operator(n) for n in neighbours)
    for index, word in enumerate(words):
        if mathy[index]:
            if not run:
                start = index
            run.append(word)
            depth += word.count("(") + word.count("[") - word.count(")") - word.count("]")
            if word.endswith((",", ";", ":", ".", "!", "?")) and depth <= 0:
                close()
        else:
            close()
    close()
    return runs


def _divergences(text: str) -> str:
    """``KL(q(z|x) ‖ p(z|x))``, ``JS(p || q)``: a double bar inside brackets separates two
    arguments; outside brackets it is a norm and stays."""
    out: list[str] = []
    depth = 0
    index = 0
    while index < len(text):
        char = text[index]
        depth += (char in "([") - (char in ")]")
        bars = 1 if char == "‖" else 2 if text.startswith("||", index) else 0
        if depth > 0 and bars:
            while out and out[-1].isspace():
                out.pop()  # ``q ‖ p``: the comma stays on the word before, inside the run
            out.append(",")
            index += bars - 1
        else:
            out.append(char)
        index += 1
    return "".join(out)


def _negated(before: list[str]) -> bool:
    """Whether a negation governs the math that follows these words ("it is *not* σ/n"): one
    of the last few words, after any punctuation that ends a phrase, negates."""
    for word in reversed(before):
        if word[-1] in ",;:.!?":
            return False
        lower = word.lower().replace("’", "'")
        if lower in _NEGATORS or lower.endswith("n't"):
            return True
    return False


def _spoken(words: list[str]) -> list[str]:
    """``σ over √n`` → ``σ / √n``, ``σ squared`` → ``σ ^2``: an operator said in words counts
    only between (or, for ``squared``, after) words that are math already. ``plus`` and
    ``minus`` count inside brackets only, where the brackets settle the grouping a sentence
    leaves open (``(p plus q) over 2``)."""
    out = list(words)
    depth = 0
    for index, word in enumerate(words):
        lower = word.lower()
        before = index > 0 and _mathy(out[index - 1]) and out[index - 1][-1] not in ",.;:"
        after = index + 1 < len(words) and _mathy(words[index + 1])
        if lower in _SPOKEN and before and after:
            out[index] = _SPOKEN[lower]
        elif lower in _BRACKETED_SPOKEN and depth > 0 and before and after:
            out[index] = _BRACKETED_SPOKEN[lower]
        elif lower.rstrip(",.;:") == "squared" and before:
            out[index] = "^2" + word[len("squared") :]
        depth = max(
            0, depth + word.count("(") + word.count("[") - word.count(")") - word.count("]")
        )
    return out


def _mathy(word: str) -> bool:
    """Whether a word of prose may be part of a formula: it holds an operator, a digit or a
    relation, or is a one-letter or subscripted name, a Greek letter (typed or spelled) or a
    function name; English words (``it``, ``is``, ``so``) are not."""
    bare = word.strip(",.;:!?")
    if not bare or _HYPHENATED.fullmatch(bare):
        return False
    if any(ch in _MATHY_CHARS or ch.isdigit() for ch in bare):
        return True
    lower = bare.lower()
    if lower in _SMALL:
        return False
    return (
        len(bare) == 1
        or lower in _FUNCTION_WORDS
        or lower in _GREEK_WORDS
        or any(ch in _MATH_LETTERS or accented(ch) is not None for ch in bare)
    )


def _name_like(word: str) -> bool:
    """``SE``, ``PPL``, ``wx``, ``a`` in ``a + b``: a word that is a name when an operator
    stands beside it."""
    bare = word.strip(",.;:!?")
    return bare.isalnum() and len(bare) <= 12 and (len(bare) == 1 or bare.lower() not in _SMALL)


def _parts(run: str) -> list[tuple[str, str]]:
    """The run cut at relations: each part with the relation that follows it (``""`` last).
    A part far longer than any formula read (:data:`MAX_SPAN_CHARS`) is left empty before it is
    trimmed: trimming strips a bracket at a time, and 4,000 typed ``(`` took a second."""
    pieces = _RELATION.split(run)
    out: list[tuple[str, str]] = []
    for index in range(0, len(pieces), 2):
        relation = pieces[index + 1] if index + 1 < len(pieces) else ""
        piece = pieces[index]
        out.append((_trimmed(piece) if len(piece) <= 2 * MAX_SPAN_CHARS else "", relation))
    return out


def _trimmed(part: str) -> str:
    """A part without the prose punctuation and small words around it (``(so var(q·k)``) or
    a bracket the relation cut off."""
    previous = None
    while part != previous:
        previous = part
        part = _PLUS_CONSTANT.sub("", part.strip().strip(",.;:!?").strip()).rstrip(_DANGLING)
        opened = part.count("(") + part.count("[")
        closed = part.count(")") + part.count("]")
        unclosed = _first_unclosed(part)
        if part.startswith(("(", "[")) and opened > closed:
            part = part[1:]
        elif unclosed is not None:
            part = part[:unclosed]  # ``h/g (h`` before "query heads": the aside is prose
        elif part.endswith((")", "]")) and closed > opened:
            part = part[:-1]
        words = part.split(" ")
        # ``so`` in ``so var(q·k)`` is prose; ``a`` in ``a + b`` is a name
        if len(words) > 1 and words[0].lower() in _SMALL and not _operator(words[1]):
            part = " ".join(words[1:])
        elif len(words) > 1 and words[-1].lower() in _SMALL and not _operator(words[-2]):
            part = " ".join(words[:-1])
    return part


def _first_unclosed(part: str) -> int | None:
    """Where the first bracket that is never closed opens, if anywhere but the start."""
    stack: list[int] = []
    for index, char in enumerate(part):
        if char in "([":
            stack.append(index)
        elif char in ")]" and stack:
            stack.pop()
    return stack[0] if stack and stack[0] > 0 else None


def _operator(word: str) -> bool:
    return bool(_OPERATOR_WORD.fullmatch(word))


def _arguments(part: str) -> list[str]:
    """The argument of an unknown function applied to the whole part (``softmax(…)``), or the
    term of a sum (``Σ_r 1/(k + r)``)."""
    summed = _SUM.fullmatch(part)
    if summed is not None:
        return [summed.group(1)]
    call = _CALL.fullmatch(part)
    if call is None or call.group(1).lower() in _FUNCTION_WORDS - {"softmax", "var", "cov"}:
        return []
    inner = call.group(2)
    depth = 0
    for char in inner:
        depth += (char in "([") - (char in ")]")
        if depth < 0:
            return []  # ``f(a)(b)``: the brackets do not enclose one argument
    return [inner.strip()] if depth == 0 and "," not in inner else []


# --- grading a point's formulas ---------------------------------------------------------------


def formula_sides(formula: str) -> tuple[str, ...]:
    """A point formula's sides: one for an expression, two for an equation (``a = b``)."""
    if formula.count("=") == 1:
        left, right = formula.split("=")
        return (left.strip(), right.strip())
    return (formula.strip(),)


_warmed = False
#: CPU seconds this process has spent collecting garbage (:func:`_count_collections`): a
#: collection is not the explanation's work, and in a large process one can take a tenth of a
#: second, so the budget leaves it out.
_collecting = [0.0, 0.0]  # [seconds in all, start of the collection under way]


def _count_collections(phase: str, _info: dict[str, int]) -> None:
    if phase == "start":
        _collecting[1] = time.thread_time()
    elif _collecting[1]:
        _collecting[0] += time.thread_time() - _collecting[1]
        _collecting[1] = 0.0


gc.callbacks.append(_count_collections)


def _spent() -> float:
    """This thread's CPU seconds, less the time garbage collection took."""
    return time.thread_time() - _collecting[0]


def _deadline() -> float:
    """The end of one explanation's budget, counted from now. The first grader of a process
    first lets the engine do one comparison of its own: SymPy loads parts of itself on first
    use (tenths of a second of CPU), which the budget is not meant to measure and which made
    the first explanation after a start lose formula points a later one is given."""
    global _warmed
    if not _warmed:
        _warmed = True
        table = SymbolTable.build(variables={"x": "real", "y": "real"})
        try:
            check("(x - y)^2/2", "x^2/2 - x*y + y^2/2", table)
        except (FormulaError, GradingError):
            pass
    return _spent() + BUDGET_SECONDS


@dataclass
class FormulaGrader:
    """Grades one explanation's candidates against point formulas, within one time budget.
    Parses are cached for the explanation (several points share names and parts)."""

    found: Candidates
    table: SymbolTable
    deadline: float = field(default_factory=_deadline)
    _parsed: dict[tuple[str, int], Expression | None] = field(default_factory=dict)
    _identity: dict[str, bool] = field(default_factory=dict)
    _graded: dict[tuple[str, str, int, frozenset[str] | None], bool] = field(default_factory=dict)
    # Points are kept for the grader's life: the caches above key on their tables' ids.
    _points: dict[str, _Point | None] = field(default_factory=dict)

    @classmethod
    def of(cls, text: str, table: SymbolTable) -> FormulaGrader:
        return cls(candidates(text), table)

    def evidence(self, formulas: Iterable[str]) -> str | None:
        """The part or equation of the text that states one of ``formulas``, or ``None``."""
        for formula in formulas:
            sides = formula_sides(formula)
            point = self._point(formula)
            if point is None:
                continue
            found = self._equation(point) if len(sides) == 2 else self._expression(point)
            if found is not None:
                return found
        return None

    def miswritten(self, formulas: Sequence[str]) -> list[str]:
        """The parts (or equations) of the text that write a point's formula wrongly: they use
        exactly its names, yet the engine grades none of ``formulas`` equal to them (with the
        equation such a part is a side of), and what a ``≠`` denies. Empty when one of them is
        stated, or when the budget ran out before that was decided: a formula that was not
        compared is not called wrong."""
        if self.evidence(formulas) is not None or _spent() > self.deadline:
            return []
        wrong: list[str] = []
        pairs = [(*pair, "=") for pair in self.found.equations]
        pairs += [(*pair, "≠") for pair in self.found.denials]
        for formula in formulas:
            sides = formula_sides(formula)
            point = self._point(formula)
            if point is None:
                continue
            if len(sides) == 1:
                bad = [p for p in self.found.parts if self._readings(p, point)]
                wrong.extend(bad)
                # and the equation it is a side of (``PPL = exp(−CE)``), or a denial's side
                for left, right, relation in pairs:
                    if relation == "=":
                        said = left in bad or right in bad
                    else:
                        said = bool(self._readings(left, point) or self._readings(right, point))
                    if said:
                        wrong.append(f"{left} {relation} {right}")
                continue
            for left, right, relation in pairs:
                lhs = self._readings(left, point, whole=False)
                rhs = self._readings(right, point, whole=False)
                if any(a.free_symbols | b.free_symbols == point.names for a in lhs for b in rhs):
                    wrong.append(f"{left} {relation} {right}")
        return list(dict.fromkeys(wrong))

    def _point(self, formula: str) -> _Point | None:
        if formula not in self._points:
            try:
                self._points[formula] = _Point.read(formula_sides(formula), self.table)
            except FormulaError:
                self._points[formula] = None
        return self._points[formula]

    # -- expressions ----------------------------------------------------------------------

    def _expression(self, point: _Point) -> str | None:
        (reference,) = point.sides
        numbers = () if point.names else self.found.numbers
        for part in (*self.found.parts, *numbers):
            for typed in self._readings(part, point):
                if self._equal(reference, typed, point.table):
                    return part
        return None

    # -- equations ------------------------------------------------------------------------

    def _equation(self, point: _Point) -> str | None:
        identity = self._is_identity(point)
        for left, right in self.found.equations:
            for lhs in self._readings(left, point, whole=False):
                for rhs in self._readings(right, point, whole=False):
                    if (lhs.free_symbols | rhs.free_symbols) != point.names:
                        continue
                    if self._same_equation(point, lhs, rhs, identity):
                        return f"{left} = {right}"
        return None

    def _same_equation(
        self, point: _Point, lhs: Expression, rhs: Expression, identity: bool
    ) -> bool:
        a, b = point.sides
        table = point.table
        # An identity holds for any sides equal in value (``β/β = 1``): its own sides must be
        # written, up to order and grouping.
        same = {"structural", "exact"} if identity else None
        if self._sides_equal(a, lhs, table, same) and self._sides_equal(b, rhs, table, same):
            return True
        if self._sides_equal(a, rhs, table, same) and self._sides_equal(b, lhs, table, same):
            return True
        if identity:
            return False
        difference = self._parse(f"({lhs.to_text()}) - ({rhs.to_text()})", table)
        factor = None if difference is None else _factor(point.difference, difference)
        if difference is not None and factor is not None:
            scaled = self._parse(f"({factor}) * ({difference.to_text()})", table)
            if scaled is not None and self._equal(point.difference, scaled, table):
                return True
        if point.ratio is None:
            return False
        left, right = lhs.to_text(), rhs.to_text()
        for ratio in (f"({left}) / ({right})", f"({right}) / ({left})"):
            typed = self._parse(ratio, table)
            if typed is not None and self._equal(point.ratio, typed, table):
                return True
        return False

    def _sides_equal(
        self,
        reference: Expression,
        typed: Expression,
        table: SymbolTable,
        methods: set[str] | None = None,
    ) -> bool:
        if typed.free_symbols != reference.free_symbols:
            return False
        return self._equal(reference, typed, table, methods=methods)

    def _is_identity(self, point: _Point) -> bool:
        key = point.key
        if key not in self._identity:
            zero = self._parse("0", point.table)
            self._identity[key] = zero is not None and self._equal(
                point.difference, zero, point.table, names=False
            )
        return self._identity[key]

    # -- the engine -----------------------------------------------------------------------

    def _readings(self, part: str, point: _Point, *, whole: bool = True) -> list[Expression]:
        """The part read with the point's names: as typed, then rewritten the way the point
        spells its names. ``whole``: a reading must use exactly the point's names."""
        readings = []
        for text in dict.fromkeys((part, *_rewritten(part, point))):
            typed = self._parse(text, point.table)
            if typed is None:
                continue
            if whole and typed.free_symbols != point.names:
                continue
            readings.append(typed)
        return readings

    def _parse(self, text: str, table: SymbolTable) -> Expression | None:
        key = (text, id(table))
        if key not in self._parsed:
            try:
                self._parsed[key] = parse(text, table)
            except FormulaError:
                self._parsed[key] = None
        return self._parsed[key]

    def _equal(
        self,
        reference: Expression,
        typed: Expression,
        table: SymbolTable,
        *,
        names: bool = True,
        methods: set[str] | None = None,
    ) -> bool:
        """Whether the engine grades ``typed`` equal to ``reference`` (by one of ``methods``
        when given); ``False`` once the explanation's time budget is spent."""
        if names and typed.free_symbols - reference.free_symbols:
            return False
        key = (reference.to_text(), typed.to_text(), id(table), frozenset(methods or ()) or None)
        if key in self._graded:
            return self._graded[key]
        if _spent() > self.deadline:
            return False
        try:
            verdict = check(reference, typed.to_text(), table)
        except (FormulaError, GradingError):
            verdict = None
        equal = (
            verdict is not None
            and verdict.status is Status.CORRECT
            and (methods is None or verdict.method in methods)
        )
        self._graded[key] = equal
        return equal


@dataclass(frozen=True)
class _Point:
    """A point formula read: its sides, its names, and (for an equation) the difference and
    ratio of its sides, all with the table its text is read with."""

    key: str
    sides: tuple[Expression, ...]
    names: frozenset[str]
    table: SymbolTable
    difference: Expression
    ratio: Expression | None

    @classmethod
    def read(cls, sides: Sequence[str], table: SymbolTable) -> _Point:
        loose = table.with_strictness(False)
        parsed = [parse(side, loose) for side in sides]
        names = frozenset().union(*(side.free_symbols for side in parsed))
        strict = table.with_variables(names)
        used = frozenset().union(*(side.names for side in parsed))
        # σ(z) for the sigmoid, C(n, k) for the binomial: the notation of the formula's own
        # function, when the card gives the letter no other meaning
        aliases = {
            letter: builtin
            for letter, builtin in _NOTATION_ALIASES.items()
            if builtin in used
            and letter not in table.variables
            and letter not in table.functions
            and letter not in names
        }
        if aliases:
            strict = replace(
                strict,
                functions={**strict.functions, **SymbolTable.build(functions=aliases).functions},
            )
        if len(sides) == 1:
            return cls(sides[0], tuple(parsed), names, strict, parsed[0], None)
        left, right = sides
        difference = parse(f"({left}) - ({right})", loose)
        try:
            ratio: Expression | None = parse(f"({left}) / ({right})", loose)
        except FormulaError:
            ratio = None
        return cls(" = ".join(sides), tuple(parsed), names, strict, difference, ratio)


#: Where a constant factor is guessed: the ``i``-th name at ``(a + b·i)/(c + d·i)``, distinct
#: values in (0, 1) first (a probability's domain), then above 1, then in (0, 1) again.
_SAMPLES = ((2, 1, 7, 2), (7, 2, 5, 1), (3, 1, 4, 1))


def _factor(reference: Expression, typed: Expression) -> str | None:
    """The constant ``k`` with ``reference = k·typed`` if there is one, guessed at one point
    (the engine then decides): a small fraction, as text."""
    names = sorted(reference.free_symbols | typed.free_symbols)
    for a, b, c, d in _SAMPLES:
        values = {
            name: Number(value, str(value))
            for i, name in enumerate(names)
            for value in [Fraction(a + b * i, c + d * i)]
        }
        try:
            top = evaluate_constant(replace_symbols(reference.tree, values))
            bottom = evaluate_constant(replace_symbols(typed.tree, values))
        except FormulaError:
            continue
        if bottom == 0 or top == 0:
            continue
        factor = Fraction(top / bottom).limit_denominator(1000)
        return f"{factor.numerator}/{factor.denominator}"
    return None


# --- rewriting a part the way the point spells its names ---------------------------------------


def _rewritten(part: str, point: _Point) -> list[str]:
    """``part`` with glued names split, subscripted names read as the point's, and the point's
    names applied to foreign names read bare; nothing when no rewrite applies. A Greek letter
    with digits glued on (``β1``, which the grammar reads as ``β·1``) is that letter with a
    subscript (``β₁``), as a learner without a subscript key means it."""
    subscripted = _GREEK_DIGITS.sub(r"\1_\2", part)
    if subscripted != part:
        return [*(_rewritten(subscripted, point) or [subscripted])]
    try:
        tokens = tokenize(part)
    except FormulaError:
        return []
    known = set(point.names)
    edits: list[tuple[int, int, str]] = []
    renamed: dict[str, str] = {}
    for token in tokens:
        if token.kind != "name" or not token.raw or token.text in known:
            continue
        if point.table.function(token.text) is not None or token.text in ("pi", "e"):
            continue
        target = _base_name(token.text, known)
        if target is not None:
            renamed.setdefault(token.text, target)
            continue
        split = _split_glued(token.text, known)
        if split:
            edits.append((token.pos, token.pos + len(token.raw), " " + " ".join(split) + " "))
    typed_names = {t.text for t in tokens if t.kind == "name"}
    targets = list(renamed.values())
    if len(set(targets)) == len(targets) and not (set(targets) & typed_names):
        for token in tokens:
            if token.kind == "name" and token.text in renamed:
                edits.append((token.pos, token.pos + len(token.raw), f" {renamed[token.text]} "))
    edits.extend(_applications(tokens, known, renamed))
    if not edits:
        return []
    return [_apply(part, edits)]


def _base_name(name: str, known: set[str]) -> str | None:
    """``beta_1`` → ``beta``, ``m_hat_t`` → ``m_hat``, ``m_t`` → ``m`` when that is a point
    name: the name with its trailing subscripts dropped, one at a time; ``p_G`` → ``p_g`` (a
    subscript's case, or a name's: ``M = (P+Q)/2`` for ``m = (p + q)/2`` when the point has no
    ``M``), ``eps`` → ``epsilon`` and ``params`` → ``N`` (:data:`_QUANTITY_WORDS`)."""
    if _ALIASES.get(name) in known:
        return _ALIASES[name]
    quantity = next((q for q in _QUANTITY_WORDS.get(name, ()) if q in known), None)
    if quantity is not None:
        return quantity
    numbered = re.fullmatch(r"([A-Za-z]+)(\d+)", name)  # ``k1`` for ``k_1``, ``beta1`` for beta
    if numbered is not None:
        name = f"{numbered[1]}_{numbered[2]}"
        if name in known:
            return name
    head, _, tail = name.partition("_")
    folded = [
        k for k in known if k.lower() == name.lower() and (k.partition("_")[0] == head or not tail)
    ]
    if len(folded) == 1:
        return folded[0]  # ``p_G`` for ``p_g``: a subscript's case; ``M`` for ``m``
    while "_" in name:
        name = name.rsplit("_", 1)[0]
        if name in known:
            return name
    return None


def _split_glued(name: str, known: set[str]) -> list[str] | None:
    """``ND`` → ``N``, ``D`` when both are point names (as the engine suggests ``N*D``): the
    engine's own split (:func:`~recall.formula.typed_names.split_into`, which keeps a word a
    word), for a name with no subscript of its own."""
    return None if "_" in name else split_into(name, known)


def _applications(
    tokens: Sequence[Token], known: set[str], renamed: dict[str, str]
) -> list[tuple[int, int, str]]:
    """``p_data(x)`` → ``p_data``: a point name applied (no space) to a bracket of names the
    point does not use; the bracket is dropped."""
    edits = []
    for index, token in enumerate(tokens[:-1]):
        name = renamed.get(token.text, token.text)
        opener = tokens[index + 1]
        if token.kind != "name" or name not in known or opener.kind != "open" or opener.space:
            continue
        depth, inner, end = 0, [], None
        for later in tokens[index + 1 :]:
            if later.kind == "open":
                depth += 1
            elif later.kind == "close":
                depth -= 1
                if depth == 0:
                    end = later
                    break
            elif depth:
                inner.append(later)
        if end is None:
            continue
        names = [t.text for t in inner if t.kind == "name"]
        if names and not any(renamed.get(n, n) in known for n in names):
            if all(t.kind in ("name", "op", "comma") for t in inner):
                edits.append((opener.pos, end.pos + 1, " "))
    return edits


def _apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    out = []
    cursor = 0
    for start, end, replacement in sorted(edits):
        if start < cursor:
            continue
        out.append(text[cursor:start])
        out.append(replacement)
        cursor = end
    out.append(text[cursor:])
    return re.sub(r"\s+", " ", "".join(out)).strip()
