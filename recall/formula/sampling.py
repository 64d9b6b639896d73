"""Test points drawn from each variable's declared domain.

Points are exact decimals (six significant figures) so that the float, exact-rational and
mpmath evaluators all see the same input. Magnitudes are moderate (mostly 0.05 to 5, sometimes
up to 40) and both signs are drawn on the reals: that is where equal-on-part-of-the-domain
answers (``sqrt(x^2)`` for ``x``) show themselves.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

from recall.formula.symbols import Domain


def _decimal(value: float) -> Fraction:
    return Fraction(f"{value:.6g}")


def _magnitude(rng: random.Random) -> float:
    if rng.random() < 0.85:
        return 10 ** rng.uniform(math.log10(0.05), math.log10(5.0))
    return rng.uniform(5.0, 40.0)


def sign_plan(index: int, position: int) -> bool:
    """Whether variable number ``position`` takes a negative value at point number ``index``.

    Signs follow the bits of the point index, so over eight points every pattern of signs of
    three variables appears (a random draw can give ten positive values in a row, and then
    ``log(a)`` passes for ``log(|a|)``)."""
    return bool((index >> (position % 3)) & 1) ^ bool(position // 3 % 2)


def sample(domain: Domain, rng: random.Random, *, negative: bool | None = None) -> Fraction:
    """One point of ``domain``; ``negative`` picks the sign where the domain has both."""
    for _ in range(50):
        value = _draw(domain, rng, negative)
        if domain.contains(float(value)):
            return value
    # A very narrow domain: fall back to its midpoint.
    low = domain.low if math.isfinite(domain.low) else domain.high - 1
    high = domain.high if math.isfinite(domain.high) else domain.low + 1
    middle = Fraction((low + high) / 2)
    return Fraction(round(middle)) if domain.integer else middle


def _draw(domain: Domain, rng: random.Random, negative: bool | None = None) -> Fraction:
    low, high = domain.low, domain.high
    if domain.integer:
        if math.isfinite(low) and math.isfinite(high):
            lo, hi = math.ceil(low), math.floor(high)
        elif math.isfinite(low):
            lo = math.ceil(low)
            hi = lo + 12
        elif math.isfinite(high):
            hi = math.floor(high)
            lo = hi - 12
        else:
            lo, hi = -8, 8
        if negative is not None and lo < 0 < hi:
            lo, hi = (lo, -1) if negative else (1, hi)
        return Fraction(rng.randint(lo, max(lo, hi)))
    if math.isfinite(low) and math.isfinite(high):
        width = high - low
        if negative is not None and low < 0 < high:
            share = -low / width
            u = rng.uniform(0.02, share) if negative else rng.uniform(share, 0.98)
            return _decimal(low + width * u)
        return _decimal(low + width * rng.uniform(0.02, 0.98))
    if math.isfinite(low) and (negative is None or low >= 0):
        return _decimal(low + _magnitude(rng))
    if math.isfinite(high) and (negative is None or high <= 0):
        return _decimal(high - _magnitude(rng))
    if math.isfinite(low):  # (low, inf) with low < 0: a sign was asked for
        return _decimal(rng.uniform(low, 0) if negative else _magnitude(rng))
    if math.isfinite(high):
        return _decimal(-_magnitude(rng) if negative else rng.uniform(0, high))
    if negative is None:
        negative = rng.random() < 0.5
    return _decimal((-1 if negative else 1) * _magnitude(rng))
