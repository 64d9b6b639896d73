"""Numeric-card parameters: drawn from a recorded seed, shown the way a person writes them.

A numeric card's values are a pure function of its parameter specs and an integer seed
(``random.Random(seed)``), so the store only records the seed and any review can be replayed
exactly. Values are rounded to what a person would say (``sigfigs``, ``step``, ``integer``) *before*
the answer is computed, so the learner and the engine work from the same numbers.
"""

from __future__ import annotations

import itertools
import math
import random
import re
from collections.abc import Iterator, Sequence

from recall.cards.model import ParamSpec

Number = int | float

#: Number of parameter combinations at the range ends checked before sampling instead.
MAX_CORNERS = 64
#: Significant figures a ranged parameter keeps when its spec names no rounding, so the value
#: shown in the prompt is exactly the value the answer is computed from.
DEFAULT_SIGFIGS = 3


def draw(params: Sequence[ParamSpec], seed: int) -> dict[str, Number]:
    """The values of ``params`` for ``seed``, in declaration order (the same seed always gives
    the same values)."""
    rng = random.Random(seed)
    return {spec.name: _draw_one(spec, rng) for spec in params}


def _draw_one(spec: ParamSpec, rng: random.Random) -> Number:
    if spec.choices:
        return _tidy(spec, rng.choice(spec.choices))
    low, high = _bounds(spec)
    if spec.log:
        raw = math.exp(rng.uniform(math.log(low), math.log(high)))
    else:
        raw = rng.uniform(low, high)
    return snap(spec, raw)


def _bounds(spec: ParamSpec) -> tuple[float, float]:
    if spec.low is None or spec.high is None:
        raise ValueError(f"parameter '{spec.name}' has neither choices nor a range")
    return spec.low, spec.high


def snap(spec: ParamSpec, raw: float) -> Number:
    """Round a raw value the way the spec asks (step, then sigfigs, then integer), keeping it
    inside the range: a value that rounding pushed out is rounded toward the inside instead."""
    if spec.choices:
        return _tidy(spec, raw)
    low, high = _bounds(spec)
    value = raw
    if spec.step:
        value = _round_step(value, spec.step, low, high)
    sigfigs = spec.sigfigs
    if sigfigs is None and not spec.step and not spec.integer:
        sigfigs = DEFAULT_SIGFIGS
    if sigfigs:
        value = _round_sigfigs(value, sigfigs, low, high)
    if spec.integer:
        value = float(round(value))
        if value < low:
            value = float(math.ceil(low))
        elif value > high:
            value = float(math.floor(high))
    return _tidy(spec, value)


def _round_step(value: float, step: float, low: float, high: float) -> float:
    """Snap to the grid ``low + k * step``, staying in ``[low, high]``."""
    k = round((value - low) / step)
    k_max = math.floor((high - low) / step + 1e-9)
    k = min(max(k, 0), k_max)
    # repr-based rounding removes the binary noise of ``0.1 * 3``.
    return float(f"{low + k * step:.12g}")


def _round_sigfigs(value: float, sigfigs: int, low: float, high: float) -> float:
    if value == 0:
        return 0.0
    rounded = float(f"{value:.{sigfigs}g}")
    if low <= rounded <= high:
        return rounded
    exponent = math.floor(math.log10(abs(value))) - sigfigs + 1
    unit = 10.0**exponent
    inside = math.ceil(value / unit) * unit if rounded < low else math.floor(value / unit) * unit
    inside = float(f"{inside:.{sigfigs}g}")
    return inside if low <= inside <= high else value


def _tidy(spec: ParamSpec, value: float) -> Number:
    """Integers as ``int`` (so prompts and substitutions read ``4096``, not ``4096.0``)."""
    if spec.integer or (float(value).is_integer() and abs(value) < 1e15):
        return int(round(value))
    return float(value)


def extremes(spec: ParamSpec) -> list[Number]:
    """The values a spec can take at its range ends (every choice, for a choice list)."""
    if spec.choices:
        return sorted({_tidy(spec, c) for c in spec.choices})
    low, high = _bounds(spec)
    return sorted({snap(spec, low), snap(spec, high)})


def corner_cases(params: Sequence[ParamSpec]) -> Iterator[dict[str, Number]]:
    """Every combination of range ends (up to :data:`MAX_CORNERS`; past that, the all-low and
    all-high corners and each parameter alone at its ends)."""
    ends = [extremes(spec) for spec in params]
    total = math.prod(len(e) for e in ends)
    if total <= MAX_CORNERS:
        for combo in itertools.product(*ends):
            yield {spec.name: value for spec, value in zip(params, combo, strict=True)}
        return
    lows = {spec.name: e[0] for spec, e in zip(params, ends, strict=True)}
    highs = {spec.name: e[-1] for spec, e in zip(params, ends, strict=True)}
    yield lows
    yield highs
    for spec, e in zip(params, ends, strict=True):
        for value in e:
            yield {**lows, spec.name: value}
            yield {**highs, spec.name: value}


def grid(spec: ParamSpec, limit: int = 64) -> list[Number] | None:
    """Every value a discrete spec can take (choices, integers, steps), or ``None`` when it is
    continuous or has more than ``limit`` values."""
    if spec.choices:
        return extremes(spec)
    low, high = _bounds(spec)
    if spec.integer and not spec.step and not spec.sigfigs and not spec.log:
        count = math.floor(high) - math.ceil(low) + 1
        if count <= limit:
            return list(range(math.ceil(low), math.floor(high) + 1))
    if spec.step and not spec.sigfigs and not spec.integer:
        count = math.floor((high - low) / spec.step + 1e-9) + 1
        if count <= limit:
            return sorted({snap(spec, low + k * spec.step) for k in range(count)})
    return None


def exhaustive_cases(
    params: Sequence[ParamSpec], limit: int = 512
) -> list[dict[str, Number]] | None:
    """Every combination of values when all params are discrete and there are at most
    ``limit`` combinations; else ``None``."""
    grids = [grid(spec) for spec in params]
    if any(g is None for g in grids) or math.prod(len(g) for g in grids if g) > limit:
        return None
    return [
        {spec.name: value for spec, value in zip(params, combo, strict=True)}
        for combo in itertools.product(*[g for g in grids if g is not None])
    ]


# ----- showing numbers -----------------------------------------------------------------------

_SCALES = ((1e12, "trillion"), (1e9, "billion"), (1e6, "million"))


def format_number(value: Number, *, sigfigs: int = 6) -> str:
    """A number as a person would write it in a question.

    Whole numbers below a million get thousands separators (``12,288``); millions to trillions
    read in words (``7 billion``, ``1.5 trillion``); anything larger or tiny is written in
    scientific notation that recall's answer syntax also reads back (``6e23``, ``3e-4``).
    """
    if isinstance(value, bool):
        raise TypeError("not a number")
    if not math.isfinite(value):
        return str(value)
    magnitude = abs(value)
    if magnitude == 0:
        return "0"
    if magnitude >= 1e15 or magnitude < 1e-3:
        return _scientific(value, sigfigs)
    if magnitude >= 1e6:
        for scale, word in _SCALES:
            if magnitude >= scale:
                mantissa = _trim(f"{value / scale:.{sigfigs}g}")
                if "e" not in mantissa and _same(float(mantissa) * scale, value):
                    return f"{mantissa} {word}"
                break
        if float(value).is_integer():
            return f"{int(value):,}"
        return _scientific(value, sigfigs)
    if float(value).is_integer():
        return f"{int(value):,}"
    text = _trim(f"{value:.{sigfigs}g}")
    if "e" in text:
        return _scientific(value, sigfigs)
    whole, _, frac = text.partition(".")
    whole_digits = whole.lstrip("-")
    if len(whole_digits) > 3:
        whole = ("-" if whole.startswith("-") else "") + f"{int(whole_digits):,}"
    return f"{whole}.{frac}" if frac else whole


def _same(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=0.0)


def _scientific(value: float, sigfigs: int) -> str:
    mantissa, _, exponent = f"{value:.{sigfigs - 1}e}".partition("e")
    return f"{_trim(mantissa)}e{int(exponent)}"


def _trim(text: str) -> str:
    if "e" in text:
        mantissa, _, exponent = text.partition("e")
        return f"{_trim(mantissa)}e{exponent}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def fill_prompt(prompt: str, values: dict[str, Number]) -> str:
    """The prompt with each ``{name}`` replaced by its formatted value.

    An article right before a placeholder ("a {N}-parameter model") is made to agree with the
    value drawn, as it is spoken: "an 89 billion-parameter model", "a 7 billion-parameter
    model". A template cannot choose one article for every draw (8, 11, 18, 80... take "an").
    """
    from recall.cards.schema import PLACEHOLDER

    def replace(match: re.Match[str]) -> str:
        name = match.group("name")
        if name not in values:
            return match.group(0)
        shown = format_number(values[name])
        article = match.group("article")
        if article is None:
            return shown
        agreed = article_for(shown)
        if article[0].isupper():
            agreed = agreed.capitalize()
        return f"{agreed}{match.group('space')}{shown}"

    pattern = _ARTICLE_BEFORE + PLACEHOLDER.pattern.replace("([", "(?P<name>[", 1)
    return re.sub(pattern, replace, prompt)


#: An optional "a"/"an" (any case of its first letter) and the spaces before a placeholder.
_ARTICLE_BEFORE = r"(?:\b(?P<article>[Aa]n?)(?P<space>[ \u00a0]+))?"


def article_for(shown: str) -> str:
    """ "a" or "an" before the number ``shown`` (as :func:`format_number` writes it), by how it
    is read aloud: "an" before eight..., eleven and eighteen (also as the leading group of
    thousands: "an 18,000", "an 11 billion"), "a" otherwise ("a 1.8", "a 180", "a -8")."""
    whole = re.split(r"[.eE ]", shown, maxsplit=1)[0].replace(",", "")
    if not whole.isdigit():
        return "a"
    digits = whole.lstrip("0") or "0"
    leading = digits[: len(digits) % 3 or 3]
    return "an" if leading.startswith("8") or leading in ("11", "18") else "a"
