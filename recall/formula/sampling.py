"""Test points drawn from each variable's declared domain.

Points are exact decimals (six significant figures) so that the float, exact-rational and
mpmath evaluators all see the same input.

Where the points fall is planned, not left to chance, because an unlucky draw is a false
accept: with only positive draws of ``a``, ``log(a)`` passes for ``log(|a|)``; with only small
draws of ``alpha``, ``relu(x) - alpha*relu(-x)`` passes for ``max(alpha*x, x)``. So each
variable cycles through both signs and three bands of magnitude (about 0.05–0.7, 0.7–3 and
3–40), and over twelve points every (sign, band) pair of every variable appears. *Far* points
(hundreds to millions, and beyond the large constants the expressions mention) then catch
answers that only differ far out: ``min(x, 10^6)`` for ``x``, ``|x - 1000|`` for ``1000 - x``.
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


def plan(index: int, position: int) -> Plan:
    """The plan for variable number ``position`` at point number ``index``.

    Signs follow the bits of the index (over eight points every sign pattern of three variables
    appears) and bands step every two points, so over twelve points each variable meets every
    (sign, band) pair."""
    negative = bool((index >> (position % 3)) & 1) ^ bool(position // 3 % 2)
    band = (index // 2 + position) % len(BANDS)
    return Plan(negative, band)


def far_plans(index: int, positions: int, scales: list[float]) -> list[Plan]:
    """Plans for one far point: every variable at ``scales[index % len(scales)]``, with the
    usual sign pattern."""
    scale = scales[index % len(scales)]
    return [Plan(plan(index, p).negative, 2, far=scale) for p in range(positions)]


def far_scales(constants: list[float]) -> list[float]:
    """Magnitudes for far points: fixed decades, and twice and half each large constant."""
    scales = [300.0, 2.0e4, 3.0e6]
    for value in constants:
        magnitude = abs(value)
        if 40 < magnitude < 1e12:
            scales.extend([2.0 * magnitude, 0.5 * magnitude])
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
    if math.isfinite(low) and math.isfinite(high):
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
        size = where.far * rng.uniform(1.0, 1.5)
    else:
        size = _log_uniform(rng, *BANDS[where.band])
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
