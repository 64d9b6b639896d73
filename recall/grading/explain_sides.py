"""A point about one side of a contrast, said mostly of the other side.

A point with a ``subject`` and what it is ``versus`` ("the reverse SDE subtracts the full
g²·score and injects fresh noise") is checked phrasing by phrasing: each phrasing's words must
be said of its own term. A learner who swaps the two sides often keeps one phrasing true by
accident ("the ODE uses the full g² score term, and the SDE uses only half of it plus injected
noise": the SDE does inject noise) while the rest of the point's claim goes to the other side.
Read phrasing by phrasing, the true fragment makes the point.

Here the whole model sentence is weighed across the text instead: each of its words the text
says (not under a negation) is said of the term mentioned nearest before it
(:meth:`recall.grading.explain._Contrast.owners_of`). Words said of both sides tell nothing
("gradient" of BCE and of MSE); of the rest, when more of the model sentence's words are said
only of another term than are said of the subject, the text gives the point to the wrong side
and does not make it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from recall.grading.explain_words import SMALL_WORDS, Token, read_clauses

#: Signs read as words.
_SIGN_WORDS = frozenset("minus plus times over".split())
#: Fewest words said of the other side that outweigh the subject's: one stray word is no swap.
_LEAST = 2


@lru_cache(maxsize=1 << 10)
def say_stems(say: str) -> frozenset[str]:
    """The stems the model sentence asserts (no small words, nothing under a negation)."""
    return frozenset(
        token.stem
        for clause in read_clauses(say)
        for token in clause
        if not token.negated and token.word not in SMALL_WORDS and not _formula_piece(token)
    )


def _formula_piece(token: Token) -> bool:
    """Whether the word is a letter or sign of a formula ("p", "y", "minus" of "(p − y)x"),
    which both sides of a contrast write: no claim of either."""
    return len(token.word) == 1 or token.word in _SIGN_WORDS


def said_of_other_side(
    stems: frozenset[str],
    clauses: Sequence[tuple[Token, ...]],
    owners: Sequence[Sequence[int | None]],
    names_term: Callable[[Token], bool],
    subject: int = 0,
) -> bool:
    """Whether more of the model sentence's ``stems`` are said only of a term other than the
    ``subject`` than are said of it, over the ``clauses`` and their ``owners``."""
    sides: dict[str, set[int]] = {}
    for clause, owned in zip(clauses, owners, strict=True):
        for token, owner in zip(clause, owned, strict=True):
            if owner is None or token.negated or token.stem not in stems or names_term(token):
                continue
            sides.setdefault(token.stem, set()).add(owner)
    own = {s for s, by in sides.items() if subject in by}
    other = {s for s, by in sides.items() if subject not in by}
    return len(other) >= _LEAST and len(other) > len(own)
