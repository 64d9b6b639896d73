"""Which way round a KL divergence is written.

The KL divergence is not symmetric: ``KL(p‖q)`` and ``KL(q‖p)`` are different quantities
(forward and reverse, mass-covering and mode-seeking). Several points say which way theirs goes
("cross-entropy is H(p) + D_KL(p‖q)", "the ELBO falls short of log p(x) by the KL *from the
encoder's q(z|x) to the true posterior*"); a learner who writes it the other way round
("H(p) + KL(q||p)", "the gap is KL(p(z|x) ‖ q(z|x))") keeps every word of the point and names
another divergence.

A point's direction is the one its model sentence writes; a sentence that speaks of a KL without
writing one takes the card's model answer's. A text's directions are its KLs written as calls
(``KL(A‖B)``, ``D_KL(A || B)``, ``KL(A, B)``) or in words ("the KL from A to B"), less any named
only to be set aside ("..., *not* KL(q||p)", "*unlike* KL(p_θ‖p_data)"), and the directions
it names: "the forward KL" (also "mass-covering", "inclusive", "zero-avoiding") puts the truth
first, "the reverse KL" ("mode-seeking", "exclusive", "zero-forcing") the model. Those words
decide a point only where one of its sides is the truth (p, the data, the true posterior) and
the other the model fitted to it (q, p_θ, the encoder): "the gap is the reverse KL" says the
ELBO's KL from q(z|x) to the posterior, "H(p) plus the reverse KL" not the cross-entropy's.

Each side is read as its words and symbols, Greek letters by name ("the encoder's q(z|x)" is
encoder, q, z, x; "p_θ" is p, theta), less those both sides share (z, x). A text's KL whose
first side shares more with the point's second side, and whose second side more with the
point's first, than the other way round is reversed; the text writes the point's KL the other
way when it writes a reversed one and none the point's way. A side that names nothing ("the KL
from it to the model") decides nothing, and a card that writes both directions leans on neither.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from recall.greek import GREEK_LETTERS

#: Where a KL written as a call opens: "KL(", "D_KL(", "D_{KL}(", "KL[".
_KL_OPEN = re.compile(r"(?:\bD_?\{?KL\}?|\bKL)\s*[(\[]", re.IGNORECASE)
#: A KL said in words: "the KL (divergence) from A to B".
_KL_FROM_TO = re.compile(
    r"\bKL\b(?:\s+divergence)?\s+from\s+(?:the\s+)?([^,.;:)]{1,60}?)\s+to\s+(?:the\s+)?([^,.;:)]{1,60})",
    re.IGNORECASE,
)
#: A divergence named only to be set aside: "not KL(q||p)", "unlike KL(p_θ‖p_data)".
_SET_ASIDE = re.compile(
    r"(?:\bnot|\bnever|\bnor|\bunlike|\brather\s+than|\binstead\s+of|\bas\s+opposed\s+to|\bvs\.?"
    r"|\bversus)\s*(?:the\s+)?(?:reverse\s+|forward\s+)?(?:one\s*,?\s*)?$",
    re.IGNORECASE,
)
#: A model sentence that speaks of a divergence, whose direction the model answer may fix.
_SPEAKS_OF_KL = re.compile(r"\bkl\b|\bd_?kl\b|divergence", re.IGNORECASE)
#: Words of a side that name nothing.
_EMPTY = frozenset("the a an of s it its".split())
#: Greek letters as their names ("p_θ" is "p_theta"), from the one Greek table.
_GREEK_NAMES = {symbol: name for name, symbol in GREEK_LETTERS.items() if name.islower()}

Side = frozenset[str]

#: A direction named in words, before "KL", "divergence" or "direction": group 1 when it puts
#: the truth first ("forward"), group 2 when it puts the model first ("reverse").
_NAMED = re.compile(
    r"\b(?:(forward|inclusive|mass[\s-]covering|zero[\s-]avoiding|mean[\s-]seeking)"
    r"|(reverse|reversed|backward|exclusive|mode[\s-]seeking|zero[\s-]forcing))"
    r"[\s-]+(?:d_?kl\b|kl\b|kullback|divergence\b|direction\b)",
    re.IGNORECASE,
)
#: What the truth's and the model's sides of a KL are called, and the tags a point's sides
#: carry for them (no word of a side has a colon, so no side written out meets them).
_MODEL_NAMES = frozenset(
    "q theta model encoder approximate approximation approx g generator".split()
)
_TRUTH_NAMES = frozenset("p data true real target posterior".split())
_TRUTH, _MODEL = "kl:truth", "kl:model"
_ROLES = frozenset({_TRUTH, _MODEL})


def _side(text: str) -> Side:
    """A side of a KL as the words and symbols it names, one spelling each."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = "".join(f" {_GREEK_NAMES[c]} " if c in _GREEK_NAMES else c for c in text)
    return frozenset(w for w in re.findall(r"[^\W_]+", text) if w not in _EMPTY)


def _call_sides(text: str, start: int) -> tuple[str, str] | None:
    """The two sides of the KL call whose bracket opens just before ``start``: parted by
    "‖", "||" or, failing those, the first comma or semicolon at the call's own depth."""
    depth, cut, comma = 1, None, None
    i = start
    while i < len(text) and depth:
        ch = text[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 1 and cut is None and (ch == "‖" or text.startswith("||", i)):
            cut = (i, i + (1 if ch == "‖" else 2))
        elif depth == 1 and comma is None and ch in ",;":
            comma = (i, i + 1)
        i += 1
    cut = cut or comma
    if depth or cut is None:
        return None
    return text[start : cut[0]], text[cut[1] : i - 1]


@lru_cache(maxsize=1 << 12)
def directions(text: str) -> tuple[tuple[Side, Side], ...]:
    """The (first side, second side) of every KL the text writes, as calls or in words, except
    those it names only to set them aside."""
    found = []
    for match in _KL_OPEN.finditer(text):
        if _SET_ASIDE.search(text, max(0, match.start() - 24), match.start()):
            continue
        sides = _call_sides(text, match.end())
        if sides is not None:
            found.append((_side(sides[0]), _side(sides[1])))
    for match in _KL_FROM_TO.finditer(text):
        found.append((_side(match.group(1)), _side(match.group(2))))
    for match in _NAMED.finditer(text):
        if not _SET_ASIDE.search(text, max(0, match.start() - 24), match.start()):
            truth, model = frozenset({_TRUTH}), frozenset({_MODEL})
            found.append((truth, model) if match.group(1) else (model, truth))
    return tuple(pair for pair in found if pair[0] != pair[1])


@lru_cache(maxsize=1 << 10)
def meant(say: str, model_answer: str) -> tuple[Side, Side] | None:
    """The direction a point means, its two sides less what they share, or ``None``: its
    model sentence's KL, else (for a sentence that speaks of a divergence) the model
    answer's; none where the source writes both directions."""
    found = _naming(directions(say)) or (
        _naming(directions(model_answer)) if _SPEAKS_OF_KL.search(say) else ()
    )
    if not found:
        return None
    first, second = found[0]
    if any(_leans(pair, (first, second)) < 0 for pair in found):
        return None  # both directions written: the card leans on neither
    shared = first & second
    first, second = first - shared, second - shared
    return _with_roles(first, second) if first and second else None


def _with_roles(first: Side, second: Side) -> tuple[Side, Side]:
    """A point's two sides, each tagged as the truth or the model where one is plainly the
    truth and the other the model (so that "the reverse KL" can be read against them)."""
    one, other = _role(first), _role(second)
    if one is None or other is None or one == other:
        return first, second
    return first | {one}, second | {other}


def _role(side: Side) -> str | None:
    """Whether a side names the model (q, θ, the encoder), else the truth (p, the data)."""
    if side & _MODEL_NAMES:
        return _MODEL
    return _TRUTH if side & _TRUTH_NAMES else None


def _naming(pairs: tuple[tuple[Side, Side], ...]) -> tuple[tuple[Side, Side], ...]:
    """The KLs whose two sides each name something ("from it to the model" names one) other
    than a direction said in words ("the forward KL"), which a point's sides are read against."""
    return tuple(pair for pair in pairs if pair[0] - _ROLES and pair[1] - _ROLES)


def _leans(pair: tuple[Side, Side], point: tuple[Side, Side]) -> int:
    """How much more ``pair`` shares with ``point`` the same way round than the other way."""
    (a, b), (first, second) = pair, point
    return len(a & first) + len(b & second) - len(a & second) - len(b & first)


def reversed_kl(point: tuple[Side, Side] | None, text: str) -> bool:
    """Whether ``text`` writes the point's KL only the other way round."""
    if point is None or ("kl" not in text.lower() and not _NAMED.search(text)):
        return False  # a sentence may name its direction alone ("it's the reverse direction")
    leanings = [_leans(pair, point) for pair in directions(text)]
    return any(lean < 0 for lean in leanings) and not any(lean > 0 for lean in leanings)
