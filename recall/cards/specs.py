"""The named specs a deck file declares: symbols, functions, identities, tolerances, parameters.

Each reader turns one declaration table into its model spec (:mod:`recall.cards.model`) and
reports what is wrong with it, so the deck header and a card read their specs the same way.
Parameter numbers are bounded here (finite, at most ``schema.MAX_MAGNITUDE``, a bounded grid)
because the engine draws from them later and must never meet a number float arithmetic cannot
survive.
"""

from __future__ import annotations

import math
from typing import Any

from recall.cards import schema
from recall.cards.checking import TableChecker
from recall.cards.model import FunctionSpec, Identity, ParamSpec, SymbolSpec, Tolerance
from recall.cards.positions import Path
from recall.inert import quote


class SpecReader(TableChecker):
    """Reads symbol, function, identity, tolerance and parameter tables."""

    def _symbols(self, raw: dict[str, Any], where: Path, card_id: str | None) -> list[SymbolSpec]:
        specs = []
        for name, value in raw.items():
            at = (*where, name)
            if not schema.NAME.match(name):
                self.problems.add(
                    f"'{quote(name)}' is not a valid symbol name",
                    at,
                    card_id=card_id,
                    suggestion="use letters and digits with '_' subscripts, e.g. 'd_k', 'beta_1'",
                )
                continue
            if isinstance(value, str):
                specs.append(SymbolSpec(name=name, domain=value.strip() or "real"))
            elif isinstance(value, dict):
                entry = self._check_table(
                    value, schema.SYMBOL_KEYS, at, card_id, f"symbol '{quote(name)}'"
                )
                specs.append(
                    SymbolSpec(
                        name=name,
                        domain=entry.get("domain", "real").strip() or "real",
                        meaning=entry.get("meaning", ""),
                        equals=entry.get("equals", "").strip(),
                        identities_only=entry.get("identities_only", False),
                    )
                )
            else:
                self.problems.add(
                    f"symbol '{quote(name)}' must be a domain string or a table",
                    at,
                    card_id=card_id,
                    suggestion=f'{name} = "positive" or '
                    f'{name} = {{ domain = "real", meaning = "..." }}',
                )
        return specs

    def _functions(
        self, raw: dict[str, Any], where: Path, card_id: str | None
    ) -> list[FunctionSpec]:
        specs = []
        for name, value in raw.items():
            at = (*where, name)
            if not schema.NAME.match(name):
                self.problems.add(
                    f"'{quote(name)}' is not a valid function name",
                    at,
                    card_id=card_id,
                    suggestion="use letters and digits, e.g. 'f', 'sigma', 'D_KL'",
                )
                continue
            if isinstance(value, str):
                specs.append(FunctionSpec(name=name, means=value.strip() or "unknown"))
            elif isinstance(value, dict):
                entry = self._check_table(
                    value, schema.FUNCTION_KEYS, at, card_id, f"function '{quote(name)}'"
                )
                specs.append(
                    FunctionSpec(
                        name=name,
                        means=entry.get("means", "unknown").strip() or "unknown",
                        meaning=entry.get("meaning", ""),
                    )
                )
            else:
                self.problems.add(
                    f"function '{quote(name)}' must be a string or a table",
                    at,
                    card_id=card_id,
                    suggestion=f'{name} = "sigmoid" or {name} = "unknown"',
                )
        return specs

    def _identities(self, raw: list[dict[str, Any]], where: Path, card_id: str) -> list[Identity]:
        out = []
        for i, item in enumerate(raw):
            at = (*where, i)
            entry = self._check_table(item, schema.IDENTITY_KEYS, at, card_id, "an identity")
            if "rhs" not in entry:
                self.problems.add(
                    "identity has no 'rhs'",
                    at,
                    card_id=card_id,
                    suggestion='{ lhs = "...", rhs = "..." }',
                )
                continue
            if "derivative_of" in entry:
                if "lhs" in entry:
                    self.problems.add(
                        "identity has both 'lhs' and 'derivative_of'",
                        at,
                        card_id=card_id,
                        suggestion="a derivative check is { derivative_of, wrt, rhs }",
                    )
                    continue
                if "wrt" not in entry:
                    self.problems.add(
                        "derivative identity has no 'wrt'",
                        at,
                        card_id=card_id,
                        suggestion='add wrt = "x", the variable to differentiate by',
                    )
                    continue
                out.append(
                    Identity(
                        lhs="",
                        rhs=entry["rhs"],
                        derivative_of=entry["derivative_of"],
                        wrt=entry["wrt"],
                    )
                )
            elif "lhs" in entry:
                if "wrt" in entry:
                    self.problems.add(
                        "'wrt' is only used with 'derivative_of'",
                        (*at, "wrt"),
                        card_id=card_id,
                    )
                    continue
                out.append(Identity(lhs=entry["lhs"], rhs=entry["rhs"]))
            else:
                self.problems.add(
                    "identity has no 'lhs' (or 'derivative_of')",
                    at,
                    card_id=card_id,
                    suggestion='{ lhs = "...", rhs = "..." }',
                )
        return out

    def _tolerance(self, raw: dict[str, Any] | None, where: Path, card_id: str) -> Tolerance | None:
        if raw is None:
            return None
        at = (*where, "tolerance")
        entry = self._check_table(raw, schema.TOLERANCE_KEYS, at, card_id, "tolerance")
        if len(entry) != 1 or len(raw) != 1:
            if len(raw) == len(entry):
                self.problems.add(
                    "tolerance must have exactly one of relative, absolute, sigfigs, exact",
                    at,
                    card_id=card_id,
                    suggestion="e.g. tolerance = { relative = 0.01 }",
                )
            return None
        ((key, value),) = entry.items()
        if key == "exact":
            if value is not True:
                self.problems.add(
                    "'exact' can only be true",
                    at,
                    card_id=card_id,
                    suggestion="drop the tolerance for the default 1% relative",
                )
                return None
            return Tolerance(kind="exact", value=0.0)
        if key == "sigfigs" and value < 1:
            self.problems.add("'sigfigs' must be at least 1", at, card_id=card_id)
            return None
        if key in ("relative", "absolute") and (value < 0 or not math.isfinite(value)):
            self.problems.add(f"'{quote(key)}' must be a finite number >= 0", at, card_id=card_id)
            return None
        if key == "relative" and value >= 1:
            self.problems.add(
                f"relative tolerance {value} accepts anything within {value:.0%}",
                at,
                card_id=card_id,
                suggestion="write it as a fraction: 0.05 means 5%",
            )
            return None
        return Tolerance(kind=key, value=float(value))

    def _params(self, raw: dict[str, Any], where: Path, card_id: str) -> list[ParamSpec]:
        specs = []
        for name, value in raw.items():
            at = (*where, name)
            if not schema.NAME.match(name):
                self.problems.add(
                    f"'{quote(name)}' is not a valid parameter name", at, card_id=card_id
                )
                continue
            if not isinstance(value, dict):
                self.problems.add(
                    f"parameter '{quote(name)}' must be a table",
                    at,
                    card_id=card_id,
                    suggestion=f"{name} = {{ low = 1, high = 10 }} "
                    f"or {name} = {{ choices = [8, 16] }}",
                )
                continue
            before = len(self.problems.errors)
            entry = self._check_table(
                value, schema.PARAM_KEYS, at, card_id, f"parameter '{quote(name)}'"
            )
            wild = _wild_number(entry)
            if wild is not None:
                self.problems.add(
                    f"parameter '{quote(name)}' has {wild[0]} = {_shown(wild[1])}: numbers must be "
                    f"finite and at most {schema.MAX_MAGNITUDE:g} in size",
                    at,
                    card_id=card_id,
                )
                continue
            choices = entry.get("choices")
            low, high = entry.get("low"), entry.get("high")
            if choices is not None:
                if low is not None or high is not None:
                    self.problems.add(
                        f"parameter '{quote(name)}' has both 'choices' and a range",
                        at,
                        card_id=card_id,
                        suggestion="keep one: choices = [...] or low/high",
                    )
                elif not choices:
                    self.problems.add(
                        f"parameter '{quote(name)}' has no choices", at, card_id=card_id
                    )
            elif low is None or high is None:
                self.problems.add(
                    f"parameter '{quote(name)}' needs 'low' and 'high' (or 'choices')",
                    at,
                    card_id=card_id,
                    suggestion=f"{name} = {{ low = 1, high = 10 }}",
                )
            elif not (math.isfinite(low) and math.isfinite(high)) or low > high:
                self.problems.add(
                    f"parameter '{quote(name)}' has low > high",
                    at,
                    card_id=card_id,
                    suggestion="swap them",
                )
            elif entry.get("log") and low <= 0:
                self.problems.add(
                    f"parameter '{quote(name)}' is drawn in log space but low = {low}",
                    at,
                    card_id=card_id,
                    suggestion="a log-scale range must be positive",
                )
            step = entry.get("step")
            if step is not None and not step > 0:
                self.problems.add(f"parameter '{quote(name)}' has step <= 0", at, card_id=card_id)
            elif step is not None and low is not None and high is not None:
                grid = (high - low) / step
                if not (math.isfinite(grid) and grid <= schema.MAX_STEPS):
                    self.problems.add(
                        f"parameter '{quote(name)}' has a step of {step:g} over "
                        f"[{low:g}, {high:g}]: more than {schema.MAX_STEPS:g} values",
                        at,
                        card_id=card_id,
                        suggestion="use a larger step, or sigfigs instead",
                    )
            sigfigs = entry.get("sigfigs")
            if sigfigs is not None and not 1 <= sigfigs <= schema.MAX_SIGFIGS:
                self.problems.add(
                    f"parameter '{quote(name)}' has sigfigs = {sigfigs}: it must be from 1 to "
                    f"{schema.MAX_SIGFIGS}",
                    at,
                    card_id=card_id,
                )
            if (
                entry.get("integer")
                and low is not None
                and high is not None
                and math.ceil(low) > math.floor(high)
            ):
                self.problems.add(
                    f"parameter '{quote(name)}' has no integer in [{low}, {high}]",
                    at,
                    card_id=card_id,
                )
            if len(self.problems.errors) > before:
                continue
            specs.append(
                ParamSpec(
                    name=name,
                    low=None if low is None else float(low),
                    high=None if high is None else float(high),
                    choices=tuple(choices or ()),
                    log=bool(entry.get("log", False)),
                    integer=bool(entry.get("integer", False)),
                    step=None if step is None else float(step),
                    sigfigs=sigfigs,
                    meaning=entry.get("meaning", ""),
                )
            )
        return specs


def _wild_number(entry: dict[str, Any]) -> tuple[str, Any] | None:
    """The first number of a parameter spec that no float arithmetic survives (an integer of
    400 digits, ``inf``, ``nan``, ``1e308`` whose range overflows), as ``(key, value)``."""
    for key in ("low", "high", "step"):
        if not _tame(entry.get(key, 0)):
            return key, entry[key]
    for choice in entry.get("choices") or ():
        if not _tame(choice):
            return "choices", choice
    return None


def _shown(number: int | float) -> str:
    """A number for a message, never hundreds of digits long."""
    text = repr(number)
    return text if len(text) <= 24 else f"{text[:12]}… ({len(text)} digits)"


def _tame(value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return True  # not a number: the type check reports it
    try:
        return math.isfinite(value) and abs(value) <= schema.MAX_MAGNITUDE
    except OverflowError:
        return False
