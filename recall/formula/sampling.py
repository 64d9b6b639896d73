"""Test points drawn from each variable's declared domain.

Points are exact decimals (six significant figures) so that the float, exact-rational and
mpmath evaluators all see the same input.

Where the points fall is planned, not left to chance, because an unlucky draw is a false
accept: with only positive draws of ``a``, ``log(a)`` passes for ``log(|a|)``; with only small
draws of ``alpha``, ``relu(x) - alpha*relu(-x)`` passes for ``max(alpha*x, x)``. So each
variable cycles through both signs and three bands of magnitude (about 0.05–0.7, 0.7–3 and
3–40), with the signs of different variables balanced against each other. *Edge* points (zero,
closed endpoints, values just inside open ones, tiny magnitudes) catch ``sign(x)`` for ``1``
on ``[0, 1]`` and ``max(p, 0.01)`` for ``p``; *far* points (hundreds to millions, and beyond
the large constants the expressions mention) catch ``min(x, 10^6)`` for ``x`` and
``|x - 1000|`` for ``1000 - x``.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction

from recall.formula.symbols import Domain

#: Magnitude bands for unbounded domains, (low, high), drawn log-uniformly.
BANDS: tuple[tuple[float, float], ...] = ((0.05, 0.7), (0.7, 3.0), (3.0, 40.0))
#: Shares of a bounded interval's width, one per band.
SHARES: tuple[tuple[float, float], ...] = ((0.02, 0.35), (0.35, 0.65), (0.65, 0.98))
#: Integer magnitudes per band.
INTEGER_BANDS: tuple[tuple[int, int], ...] = ((0, 2), (3, 6), (7, 20))


@dataclass(frozen=True)
class Plan:
    """Where one variable's value should fall at one point: its sign and magnitude band, or a
    far magnitude (``far`` set) for unbounded domains."""

    negative: bool
    band: int
    far: float | None = None


def _hadamard_sign(index: int, column: int) -> bool:
    """Entry (index, column) of the 16x16 Sylvester-Hadamard matrix, as "negative?"."""
    return bin(index & column).count("1") % 2 == 1


def plan(index: int, position: int) -> Plan:
    """The plan for variable number ``position`` at point number ``index``.

    Signs come from the columns of a 16x16 Hadamard matrix: over sixteen points every pair of
    (up to fifteen) variables meets all four sign combinations equally often, so no two
    variables are tied to the same or opposite signs. Bands step with the index, so each
    variable also meets every (sign, band) pair."""
    column = position % 15 + 1
    negative = _hadamard_sign(index % 16, column)
    band = (index + position) % len(BANDS)
    return Plan(negative, band)


def far_plans(index: int, positions: int, scales: list[float]) -> list[Plan]:
    """Plans for far point number ``index``: every variable at ``scales[index // 2]``; the two
    points of a scale have opposite sign patterns."""
    scale = scales[(index // 2) % len(scales)]
    flip = index % 2 == 1
    return [Plan(plan(index // 2, p).negative ^ flip, 2, far=scale) for p in range(positions)]


def far_scales(constants: list[float]) -> list[float]:
    """Magnitudes for far points: fixed decades, and around each constant the expressions
    mention (``log(x - 39.99)`` is defined only past 39.99; ``min(x, 10^6)`` differs only past
    a million)."""
    scales = [300.0, 2.0e4, 3.0e6]
    for value in sorted({abs(v) for v in constants if 3 < abs(v) < 1e12}, reverse=True)[:3]:
        scales.extend([2.0 * value, 0.5 * value, value + 1.0])
    return sorted(set(scales))


def _decimal(value: float) -> Fraction:
    return Fraction(f"{value:.6g}")


def _log_uniform(rng: random.Random, low: float, high: float) -> float:
    return 10 ** rng.uniform(math.log10(low), math.log10(high))


def sample(domain: Domain, rng: random.Random, where: Plan | None = None) -> Fraction:
    """One point of ``domain``, following ``where`` as far as the domain allows."""
    for _ in range(50):
        value = _draw(domain, rng, where)
        if domain.contains(float(value)):
            return value
    # A very narrow domain: fall back to its midpoint.
    low = domain.low if math.isfinite(domain.low) else domain.high - 1
    high = domain.high if math.isfinite(domain.high) else domain.low + 1
    middle = Fraction((low + high) / 2)
    return Fraction(round(middle)) if domain.integer else middle


def _draw(domain: Domain, rng: random.Random, where: Plan | None) -> Fraction:
    where = where or Plan(rng.random() < 0.5, rng.randrange(len(BANDS)))
    low, high = domain.low, domain.high
    if domain.integer:
        return Fraction(_draw_integer(domain, rng, where))
    if math.isfinite(low) and math.isfinite(high) and high - low <= 1e12:
        share_low, share_high = SHARES[where.band]
        if low < 0 < high:  # both signs: the band applies within the chosen side
            zero = -low / (high - low)
            if where.negative:
                share_low, share_high = share_low * zero, share_high * zero
            else:
                share_low = zero + share_low * (1 - zero)
                share_high = zero + share_high * (1 - zero)
        return _decimal(low + (high - low) * rng.uniform(share_low, share_high))
    if where.far is not None:
        size = where.far * rng.uniform(1.0, 1.1)
    else:
        size = _log_uniform(rng, *BANDS[where.band])
    if math.isfinite(low) and math.isfinite(high):  # a huge interval: like the reals, clamped
        value = -size if (where.negative and low < 0) or high <= 0 else size
        return _decimal(min(max(value, low), high))
    if math.isfinite(low):  # (low, inf)
        if low < 0 and where.negative:
            return _decimal(low * rng.uniform(0.05, 0.95))
        return _decimal(max(low, 0.0) + size)
    if math.isfinite(high):  # (-inf, high)
        if high > 0 and not where.negative:
            return _decimal(high * rng.uniform(0.05, 0.95))
        return _decimal(min(high, 0.0) - size)
    return _decimal(-size if where.negative else size)


def _draw_integer(domain: Domain, rng: random.Random, where: Plan) -> int:
    low = math.ceil(domain.low) if math.isfinite(domain.low) else None
    high = math.floor(domain.high) if math.isfinite(domain.high) else None
    if where.far is not None:
        size = int(where.far)
    else:
        size = rng.randint(*INTEGER_BANDS[where.band])
    value = -size if where.negative else size
    if low is not None and value < low:
        value = low + size
    if high is not None and value > high:
        value = high - size
    if low is not None and high is not None:
        value = min(max(value, low), high)
    return value


def special_values(domain: Domain) -> list[Fraction]:
    """Values at the edges of ``domain``: zero, closed endpoints, points just inside open
    endpoints, and tiny magnitudes of each sign the domain allows."""
    values: list[Fraction] = []
    low, high = domain.low, domain.high
    if domain.integer:
        candidates = [0, 1, -1]
        if math.isfinite(low):
            candidates.append(math.ceil(low))
        if math.isfinite(high):
            candidates.append(math.floor(high))
        return [Fraction(c) for c in dict.fromkeys(candidates) if domain.contains(c)]
    finite_width = high - low if math.isfinite(low) and math.isfinite(high) else 1.0
    nudge = Fraction(1, 10**4) * Fraction(str(max(1.0, min(finite_width, 1e6))))
    for edge, inward in ((low, 1), (high, -1)):
        if not math.isfinite(edge):
            continue
        exact_edge = Fraction(str(edge))
        if domain.contains(edge):
            values.append(exact_edge)
        values.append(exact_edge + inward * nudge)
    for value in (Fraction(0), Fraction(1, 1000), Fraction(-1, 1000)):
        values.append(value)
    return [v for v in dict.fromkeys(values) if domain.contains(float(v))]


def edge_points(domains: list[Domain], rng: random.Random, count: int = 4) -> list[list[Fraction]]:
    """``count`` points built from each domain's :func:`special_values` (cycled, offset by the
    variable's position so different edges meet); a domain without any takes a regular draw."""
    specials = [special_values(domain) for domain in domains]
    points = []
    for index in range(count):
        point = []
        for position, (domain, values) in enumerate(zip(domains, specials, strict=True)):
            if values:
                point.append(values[(index + position) % len(values)])
            else:
                point.append(sample(domain, rng, plan(index, position)))
        points.append(point)
    return points
