"""Which card comes next: what FSRS leaves to the application.

FSRS says when each card is due; it does not say how many new cards a day, in what order due and
new cards are mixed, or that two cards about the same formula should not both be asked the same
day. These are pure functions over ids and counts, so the store's queries and the session's
queue share one set of rules.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import TypeVar

T = TypeVar("T")


def sibling_group(card_id: str) -> str | None:
    """The sibling group of a card id: the part before the first ``.``, or ``None``.

    Deck authors name related cards ``attention.formula``, ``attention.scale``,
    ``attention.name``; seeing one of them answers the others, so after one is reviewed the rest
    are buried until the next study day.
    """
    head, dot, _rest = card_id.partition(".")
    return head if dot and head else None


def remaining(limit: int, used: int) -> int:
    """What is left of a daily limit (never negative; a limit below 0 means no limit)."""
    if limit < 0:
        return 1 << 31
    return max(0, limit - used)


def interleave(reviews: Sequence[T], new: Sequence[T]) -> list[T]:
    """Reviews with new cards spread evenly among them, starting with a review.

    With 10 reviews and 2 new cards a new card comes after every 5 reviews, rather than all new
    cards first (front-loading the hardest part) or last (never reached when time runs out).
    """
    if not new:
        return list(reviews)
    if not reviews:
        return list(new)
    out: list[T] = []
    gap = (len(reviews) + 1) / (len(new) + 1)
    next_new_at = gap
    new_iter = iter(new)
    placed = 0
    for index, review in enumerate(reviews, start=1):
        out.append(review)
        while placed < len(new) and index >= next_new_at:
            out.append(next(new_iter))
            placed += 1
            next_new_at += gap
    out.extend(new_iter)
    return out


def build_queue(learning: Sequence[T], reviews: Sequence[T], new: Sequence[T]) -> list[T]:
    """Learning cards first (their short steps are the most urgent), then reviews and new cards
    interleaved."""
    return [*learning, *interleave(reviews, new)]


def drop_siblings(queue: Iterable[T], group_of: Callable[[T], Hashable | None]) -> list[T]:
    """Keep the first card of each sibling group (cards without a group are all kept)."""
    seen: set[Hashable] = set()
    out: list[T] = []
    for item in queue:
        group = group_of(item)
        if group is not None:
            if group in seen:
                continue
            seen.add(group)
        out.append(item)
    return out
