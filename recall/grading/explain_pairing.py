"""Two figures said of two things, each of the other's: "4 in the forward pass and 2 in the
backward" for "2 in the forward, 4 in the backward".

A phrasing that pairs figures with things ("2 forward 4 backward": two figures, each followed or
preceded by the thing it is of) asks for all four words in one clause, in any order, so the
figures handed round still make it. Which figure goes with which thing is read here from where
the words stand: the pairing the phrasing writes (each figure with the word beside it) against
the one the other way round, each figure taken with the nearest place its word is said in the
clause. When the crossed pairing sits strictly closer than the phrasing's own, the clause says
the figures of the wrong things. A clause where both pairings sit as close ("forward is 2 and
backward is 4": each figure between the two words) reads as the phrasing's own.
"""

from __future__ import annotations

from collections.abc import Sequence

from recall.grading.explain_words import Token


def _figure(words: Sequence[str]) -> bool:
    return bool(words) and all(w.replace(".", "", 1).isdigit() for w in words)


def _pairs(
    slots: Sequence[tuple[tuple[str, ...], frozenset[str]]],
) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The phrasing's two (figure, word) pairs as slot indices, when it has two figures each
    with a word beside it on the same side ("2 forward 4 backward", "2 forward pass 4
    backward", "forward 2 backward 4"), else ``None``."""
    figures = [k for k, (words, _) in enumerate(slots) if _figure(words)]
    if len(figures) != 2 or len(slots) < 4:
        return None
    side = 1 if figures[0] == 0 else -1
    pairs = tuple((k, k + side) for k in figures)
    if any(not 0 <= w < len(slots) or w in figures for _, w in pairs):
        return None
    (n1, w1), (n2, w2) = pairs
    if set(slots[n1][0]) & set(slots[n2][0]) or slots[w1][1] & slots[w2][1]:
        return None  # the same figure or word twice pairs nothing
    return (n1, w1), (n2, w2)


def _nearest(places: Sequence[int], to: Sequence[int]) -> int | None:
    distances = [abs(a - b) for a in places for b in to]
    return min(distances) if distances else None


def crosses_figures(
    slots: Sequence[tuple[tuple[str, ...], frozenset[str]]], clause: Sequence[Token]
) -> bool:
    """Whether the clause pairs a phrasing's two figures with each other's words. ``slots``
    are the phrasing's slots as (words, stems)."""
    pairs = _pairs(slots)
    if pairs is None:
        return False
    (n1, w1), (n2, w2) = pairs

    def places(k: int) -> list[int]:
        words, stems = slots[k]
        if _figure(words):
            return [i for i, t in enumerate(clause) if t.word in words]
        return [i for i, t in enumerate(clause) if t.stem in stems]

    a, b, x, y = places(n1), places(n2), places(w1), places(w2)
    own = [_nearest(a, x), _nearest(b, y)]
    crossed = [_nearest(a, y), _nearest(b, x)]
    if None in own or None in crossed:
        return False
    return sum(d for d in crossed if d is not None) < sum(d for d in own if d is not None)
