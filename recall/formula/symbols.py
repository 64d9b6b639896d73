"""Symbol tables: which names are variables (and where they live), functions, constants.

A card supplies the table; without one, defaults apply: every name is a real variable, ``pi``
and ``e`` are constants, and the builtin functions are known. The domain of each variable is
where the numeric checks draw their test points, so it decides what "equivalent" means:
``log(sigma^2) = 2 log(sigma)`` is true for a positive ``sigma`` and false for a real one.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction

from recall.errors import FormulaError
from recall.formula.functions import BUILTINS, resolve_builtin
from recall.formula.names import canonical_name

INF = math.inf


@dataclass(frozen=True)
class Domain:
    """A set of reals a variable ranges over: an interval, optionally integers only."""

    low: float = -INF
    high: float = INF
    low_open: bool = True
    high_open: bool = True
    integer: bool = False
    label: str = "real"

    def contains(self, value: float) -> bool:
        """Whether ``value`` lies in the domain."""
        if self.integer and not float(value).is_integer():
            return False
        if value < self.low or (value == self.low and self.low_open):
            return False
        return not (value > self.high or (value == self.high and self.high_open))

    def __str__(self) -> str:
        return self.label


REAL = Domain()

_WORDS: dict[str, Domain] = {
    "real": REAL,
    "positive": Domain(0.0, INF, True, True, False, "positive"),
    "nonnegative": Domain(0.0, INF, False, True, False, "nonnegative"),
    "negative": Domain(-INF, 0.0, True, True, False, "negative"),
    "integer": Domain(-INF, INF, True, True, True, "integer"),
    "positive integer": Domain(1.0, INF, False, True, True, "positive integer"),
    "nonnegative integer": Domain(0.0, INF, False, True, True, "nonnegative integer"),
}
_INTERVAL = re.compile(r"^\s*([\(\[])\s*([^,\s]+)\s*,\s*([^,\s\)\]]+)\s*([\)\]])\s*$")


def _bound(text: str, spec: str) -> float:
    lowered = text.lower()
    if lowered in ("inf", "+inf", "oo", "infinity"):
        return INF
    if lowered in ("-inf", "-oo", "-infinity"):
        return -INF
    try:
        value = float(Fraction(text))
    except (ValueError, ZeroDivisionError):
        raise FormulaError(f"bad interval bound '{text}' in domain '{spec}'") from None
    except OverflowError:  # beyond float64: as good as infinite for drawing test points
        value = -INF if text.strip().startswith("-") else INF
    return value


def parse_domain(spec: str | Domain) -> Domain:
    """Read a domain: a word (``real``, ``positive``, ``nonnegative``, ``negative``, ``integer``,
    ``positive integer``, ``nonnegative integer``) or an interval such as ``(0, 1)``,
    ``[0, inf)``; an interval may be prefixed by ``integer``."""
    if isinstance(spec, Domain):
        return spec
    text = " ".join(str(spec).strip().lower().split())
    if text in _WORDS:
        return _WORDS[text]
    integer = False
    body = text
    if text.startswith("integer "):
        integer, body = True, text[len("integer ") :]
    match = _INTERVAL.match(body)
    if not match:
        words = ", ".join(_WORDS)
        raise FormulaError(
            f"unknown domain '{spec}': use one of {words}, or an interval like (0, 1) or [0, inf)"
        )
    open_low, low_text, high_text, close_high = match.groups()
    low, high = _bound(low_text, str(spec)), _bound(high_text, str(spec))
    if not low < high:
        raise FormulaError(f"empty domain '{spec}': the lower bound must be below the upper one")
    return Domain(
        low, high, open_low == "(" or low == -INF, close_high == ")" or high == INF, integer, text
    )


@dataclass(frozen=True)
class FunctionInfo:
    """A name usable as a function: ``builtin`` is the canonical builtin it means, or ``None`` for
    an unknown (arbitrary) function, which the numeric checks replace by a random smooth one."""

    name: str
    builtin: str | None
    arity: int | None = None


@dataclass(frozen=True)
class SymbolTable:
    """Names a card declares. ``strict`` tables (from a card or ``--var``) make any other name in
    an answer *invalid*, with a suggestion, instead of silently a new variable."""

    variables: Mapping[str, Domain] = field(default_factory=dict)
    functions: Mapping[str, FunctionInfo] = field(default_factory=dict)
    e_is_variable: bool = False
    strict: bool = False
    #: Names that stand for an expression of other names (``beta_t = 1 - alpha_t``): an answer
    #: may use either spelling, and both are compared after substituting the definition.
    definitions: Mapping[str, str] = field(default_factory=dict)
    #: The names the card shows the learner (its legend): an unknown-name message lists these.
    #: Every variable is still accepted (a deck's names are its cards' shared vocabulary, and
    #: explanation points and identities use them); ``None`` lists every variable.
    shown: frozenset[str] | None = None

    @classmethod
    def build(
        cls,
        variables: Mapping[str, str | Domain] | None = None,
        functions: Mapping[str, str] | list[str] | tuple[str, ...] | None = None,
        *,
        strict: bool | None = None,
        definitions: Mapping[str, str] | None = None,
        shown: Iterable[str] | None = None,
    ) -> SymbolTable:
        """A table from plain data: ``variables`` maps names to domain specs; ``functions`` maps
        names to ``"unknown"`` or a builtin they alias (a list means all unknown);
        ``definitions`` maps a name to the expression it stands for. Names may be written in
        any accepted spelling (``σ`` or ``sigma``)."""
        vars_: dict[str, Domain] = {}
        for raw, spec in (variables or {}).items():
            name = canonical_name(str(raw))
            vars_[name] = parse_domain(spec)
        funcs: dict[str, FunctionInfo] = {}
        items = (
            [(f, "unknown") for f in functions]
            if isinstance(functions, (list, tuple))
            else list((functions or {}).items())
        )
        for raw, means in items:
            name = canonical_name(str(raw))
            means_text = str(means).strip()
            if means_text in ("unknown", "function", ""):
                if resolve_builtin(name) is not None:
                    raise FormulaError(
                        f"'{raw}' is a builtin function and cannot be declared unknown: "
                        "give the unknown function another name (f, g, h, ...)"
                    )
                funcs[name] = FunctionInfo(name, None)
            else:
                target = resolve_builtin(means_text)
                if target is None:
                    known = ", ".join(sorted(BUILTINS))
                    raise FormulaError(
                        f"function '{raw}' is declared as '{means}', which is not a builtin "
                        f"(use 'unknown' or one of: {known})"
                    )
                funcs[name] = FunctionInfo(name, target)
        clash = set(vars_) & set(funcs)
        if clash:
            raise FormulaError(f"'{sorted(clash)[0]}' is declared both a variable and a function")
        defined = {canonical_name(str(k)): str(v) for k, v in (definitions or {}).items()}
        for name in defined:
            vars_.setdefault(name, REAL)
        return cls(
            variables=vars_,
            functions=funcs,
            e_is_variable="e" in vars_,
            strict=bool(vars_ or funcs) if strict is None else strict,
            definitions=defined,
            shown=None if shown is None else frozenset(canonical_name(str(n)) for n in shown),
        )

    def domain(self, name: str) -> Domain:
        """The declared domain of a variable, or the default (real)."""
        return self.variables.get(name, REAL)

    def function(self, name: str) -> FunctionInfo | None:
        """What ``name`` means as a function: declared first, then builtins, else ``None``."""
        if name in self.functions:
            return self.functions[name]
        if name in self.variables:
            return None
        target = resolve_builtin(name)
        if target is not None:
            return FunctionInfo(name, target)
        return None

    def is_constant(self, name: str) -> bool:
        """``pi`` always; ``e`` unless declared a variable."""
        if name in self.variables:
            return False
        return name == "pi" or (name == "e" and not self.e_is_variable)

    def with_variables(self, names: set[str] | frozenset[str]) -> SymbolTable:
        """A copy that also knows ``names`` (real unless already declared) and is strict."""
        merged = dict(self.variables)
        for name in names:
            merged.setdefault(name, REAL)
        return replace(self, variables=merged, strict=True)

    def with_strictness(self, strict: bool) -> SymbolTable:
        """A copy that is (or is not) strict about undeclared names."""
        return replace(self, strict=strict)


DEFAULT_TABLE = SymbolTable()
