"""Near-miss spellings: how far apart two words are, and whether "did you mean X?" is worth saying.

Two layers need this and may not import each other: the deck format (:mod:`recall.cards`, which
forgives typos in typed names) and the formula engine (:mod:`recall.formula`, which suggests a
declared name for an unknown one). Both sit above this stdlib-only module.

A suggestion is a claim about what the learner meant, so it must be plausible: a slip of one key
in a short word, two in a long one, never a different word that happens to share letters
("margin" is not a misspelt ``min``; "cost" is not a misspelt ``cos``). When nothing is that
close, saying nothing and listing the names the card allows helps more than a guess.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["edit_distance", "plausible_suggestion", "suggestion_allowance"]


def edit_distance(a: str, b: str, limit: int = 3) -> int:
    """Optimal string alignment distance (insert, delete, substitute, swap neighbours), stopping
    early past ``limit`` (returns ``limit + 1``).

    Only the band of cells within ``limit`` of the diagonal is computed: an alignment that
    strays further already costs more than ``limit``. The work is ``len(a) × (2·limit + 1)``,
    so a name of a thousand letters costs as little as its length, not its length squared.
    """
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    over = limit + 1
    width = len(b)
    previous2: list[int] = []
    previous = [j if j <= limit else over for j in range(width + 1)]
    for i in range(1, len(a) + 1):
        current = [over] * (width + 1)
        if i <= limit:
            current[0] = i
        low, high = max(1, i - limit), min(width, i + limit)
        for j in range(low, high + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                best = min(best, previous2[j - 2] + 1)
            current[j] = min(best, over)
        if min(current[low - 1 : high + 1]) > limit:
            return over
        previous2, previous = previous, current
    return min(previous[-1], over)


def _folded(word: str) -> str:
    """Case and underscores do not make a different word (``W_q`` and ``wq``, ``Sigma``)."""
    return word.casefold().replace("_", "")


def suggestion_allowance(word: str) -> int:
    """Edits a typed word may be from a name for the name to be suggested: none below three
    characters (any one-letter change of ``x`` is some other name), one up to seven, two from
    eight."""
    if len(word) < 3:
        return 0
    return 1 if len(word) < 8 else 2


def _distance(typed: str, name: str) -> int | None:
    """The edits from ``typed`` to ``name`` if the name is a plausible reading, else ``None``."""
    a, b = _folded(typed), _folded(name)
    if not a or not b:
        return None
    if a == b:
        return 0
    allowance = min(suggestion_allowance(a), suggestion_allowance(b))
    distance = edit_distance(a, b, allowance)
    if distance > allowance:
        return None
    if min(len(a), len(b)) <= 4 and not _slip_of_one_key(a, b):
        # In a short word a changed or added letter usually makes another word ("cost" is not
        # cosh or cos, "sine" not sinh); only slips that keep every letter are read as typos.
        return None
    return distance


def _slip_of_one_key(typed: str, name: str) -> bool:
    """Two neighbours swapped (``mni``), a letter typed twice (``expp``) or one left out
    (``sqr``, ``tnh``): slips that keep the name's letters, as opposed to changing them."""
    if len(typed) == len(name):
        return any(
            typed[:i] + typed[i + 1] + typed[i] + typed[i + 2 :] == name
            for i in range(len(typed) - 1)
        )
    if len(typed) == len(name) + 1:
        return any(
            typed[i] == typed[i - 1] and typed[:i] + typed[i + 1 :] == name
            for i in range(1, len(typed))
        )
    if len(typed) + 1 == len(name):
        return any(name[:i] + name[i + 1 :] == typed for i in range(len(name)))
    return False


def plausible_suggestion(typed: str, tiers: Sequence[Iterable[str]]) -> str | None:
    """The name ``typed`` most plausibly misspells, or ``None`` when no name is close enough.

    ``tiers`` are candidate names in order of preference (the card's own names before the
    engine's functions): the fewest edits win, and among equally close names the earlier tier.
    """
    best: tuple[int, int, str] | None = None
    for rank, names in enumerate(tiers):
        for name in names:
            if name == typed:
                continue
            distance = _distance(typed, name)
            if distance is None:
                continue
            key = (distance, rank, name)
            if best is None or key < best:
                best = key
    return None if best is None else best[2]
