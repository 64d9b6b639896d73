"""Whether a learner's text writes a divergence the other way round from the card.

The KL divergence is not symmetric: ``KL(p‖q)`` and ``KL(q‖p)`` are different quantities
(forward and reverse, mass-covering and mode-seeking). A point's model sentence, or the card's
model answer where the sentence writes none, fixes the direction it means ("cross-entropy is
H(p) + KL(p‖q)"); a learner who writes the same divergence with its arguments swapped ("CE =
H(p) + KL(q||p)") uses the point's words and states another quantity.

Only a divergence written as a call with two arguments counts (``KL(p||q)``, ``D_KL(p ‖ q)``,
``KL(p, q)``); the arguments are compared as typed, folded to one spelling (no spaces,
underscores or case). A card that writes both directions leans on neither.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from recall.greek import GREEK_LETTERS

#: A divergence written as a call of two arguments: ``KL(p||q)``, ``D_KL(p ‖ q)``, ``KL(p, q)``.
_DIVERGENCE = re.compile(
    r"\b(?:d_?kl|kl)\s*\(\s*([^|‖,;()]{1,20}?)\s*(?:\|\||‖|,|;)\s*([^|‖,;()]{1,20}?)\s*\)",
    re.IGNORECASE,
)
#: A divergence named only to be set aside ("..., *not* KL(q||p)", "*unlike* KL(p_θ‖p_data)",
#: "*rather than* D_KL(q‖p)") states no direction.
_SET_ASIDE = re.compile(
    r"(?:\bnot|\bnever|\bnor|\bunlike|\brather\s+than|\binstead\s+of|\bas\s+opposed\s+to|\bvs\.?"
    r"|\bversus)\s*(?:the\s+)?(?:reverse\s+|forward\s+)?(?:one\s*,?\s*)?$",
    re.IGNORECASE,
)
#: A model sentence that speaks of a divergence, whose direction the model answer may fix.
_SPEAKS_OF_KL = re.compile(r"\bkl\b|\bd_?kl\b|divergence", re.IGNORECASE)
#: How many characters of a text are searched (the explanation's own limit applies before).
MAX_TEXT = 4000


#: Greek letters as their names ("p_θ" is "p_theta"), from the one Greek table.
_GREEK_NAMES = {symbol: name for name, symbol in GREEK_LETTERS.items() if name.islower()}


def _folded(argument: str) -> str:
    """An argument in one spelling: no spaces, underscores, braces or case, Greek letters as
    their names."""
    text = unicodedata.normalize("NFKC", argument).lower()
    text = "".join(_GREEK_NAMES.get(char, char) for char in text)
    return re.sub(r"[\s_{}]", "", text)


@lru_cache(maxsize=1 << 10)
def directions(text: str) -> frozenset[tuple[str, str]]:
    """The divergences the text writes, as (first argument, second argument), folded; not one
    it names only to set it aside ("not KL(q||p)")."""
    text = text[:MAX_TEXT]
    return frozenset(
        (_folded(m.group(1)), _folded(m.group(2)))
        for m in _DIVERGENCE.finditer(text)
        if _folded(m.group(1)) != _folded(m.group(2))
        and not _SET_ASIDE.search(text, max(0, m.start() - 24), m.start())
    )


def reference(say: str, model_answer: str) -> frozenset[tuple[str, str]]:
    """The directions a point means: those its model sentence writes, else, for a sentence
    that speaks of a divergence, the card's model answer's; none where both directions of one
    pair are written. A point about something else ("both have the same minimiser") leans on
    no direction."""
    found = directions(say) or (
        directions(model_answer) if _SPEAKS_OF_KL.search(say) else frozenset()
    )
    return frozenset(pair for pair in found if pair[::-1] not in found)


def swapped(meant: frozenset[tuple[str, str]], text: str) -> bool:
    """Whether ``text`` writes a divergence of ``meant`` the other way round, and never the
    meant way: "KL(q||p)" where the card means KL(p‖q)."""
    if not meant:
        return False
    written = directions(text)
    return any(pair[::-1] in written and pair not in written for pair in meant)
