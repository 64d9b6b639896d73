"""Which way round a KL is written.

The KL divergence is not symmetric, and several points say which way theirs goes: "the ELBO
falls short of log p(x) by the KL *from the encoder's q(z|x) to the true posterior*", "cross-
entropy is H(p) + D_KL(p‖q)". A learner who writes it the other way round ("the gap is
KL(p(z|x) ‖ q(z|x))", "H(p) + KL(q‖p)") keeps every word of the point and names the wrong
divergence. This module reads the direction of a KL from a model sentence (``KL(A‖B)``, or "the
KL from A to B"), and the directions of the KLs a text writes, and tells whether the text writes
the point's KL only the other way round.

Each side is read as its words and symbols ("the encoder's q(z|x)" is encoder, q, z, x), less
those both sides share (z, x): a text's KL whose first side shares more with the point's second
side, and whose second side with the point's first, than the other way ("KL(p(z|x) ‖ q(z|x))"
against "from the encoder's q(z|x) to the true posterior": q is second) is reversed. A side
that names neither ("the KL from it to the model": "it") decides nothing.
"""

from __future__ import annotations

import re
from functools import lru_cache

#: Where a KL written as a formula opens: "KL(", "D_KL(", "D_{KL}(", "KL[".
_KL_OPEN = re.compile(r"(?:\bD_?\{?KL\}?|\bKL)\s*[(\[]", re.IGNORECASE)
#: A KL said in words: "the KL (divergence) from A to B".
_KL_FROM_TO = re.compile(
    r"\bKL\b(?:\s+divergence)?\s+from\s+(?:the\s+)?(.+?)\s+to\s+(?:the\s+)?([^,.;:)]+)",
    re.IGNORECASE,
)
#: Words of a side that name nothing.
_EMPTY = frozenset("the a an of s it its".split())

Side = frozenset[str]


def _side(text: str) -> Side:
    return frozenset(w.lower() for w in re.findall(r"[^\W_]+", text) if w.lower() not in _EMPTY)


def _formula_sides(text: str, start: int) -> tuple[str, str] | None:
    """The two sides of the KL formula whose bracket opens just before ``start``."""
    depth = 1
    cut = None
    i = start
    while i < len(text) and depth:
        ch = text[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 1 and cut is None and (ch == "‖" or text.startswith("||", i)):
            cut = (i, i + (1 if ch == "‖" else 2))
        i += 1
    if depth or cut is None:
        return None
    return text[start : cut[0]], text[cut[1] : i - 1]


@lru_cache(maxsize=1 << 12)
def kl_directions(text: str) -> tuple[tuple[Side, Side], ...]:
    """The (first side, second side) of every KL the text writes, in formulas and in words."""
    found = []
    for match in _KL_OPEN.finditer(text):
        sides = _formula_sides(text, match.end())
        if sides is not None:
            found.append((_side(sides[0]), _side(sides[1])))
    for match in _KL_FROM_TO.finditer(text):
        found.append((_side(match.group(1)), _side(match.group(2))))
    return tuple(found)


def reversed_kl(say: str, text: str) -> bool:
    """Whether ``text`` writes the KL of the model sentence ``say`` only the other way round."""
    point = kl_directions(say)
    if not point or "kl" not in text.lower():
        return False
    first, second = point[0]
    shared = first & second
    first, second = first - shared, second - shared
    if not first or not second:
        return False
    same = turned = False
    for a, b in kl_directions(text):
        ahead = len(a & first) + len(b & second)
        behind = len(a & second) + len(b & first)
        same |= ahead > behind
        turned |= behind > ahead
    return turned and not same
