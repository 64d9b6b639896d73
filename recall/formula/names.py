"""Names: Greek letters, subscripts, hats and bars, spelled however the learner types them.

``σ`` and ``sigma`` are one name; so are ``ϵ``, ``ε`` and ``epsilon``. Canonical names are ASCII:
letters and digits with ``_`` segments (``beta_1``, ``m_hat_t``) and trailing primes.
"""

from __future__ import annotations

from recall.greek import GREEK_LETTERS as GREEK_LETTERS
from recall.greek import GREEK_VARIANTS as GREEK_VARIANTS

#: Capitals a learner never types as a name: ``Π`` is read as the product sign and ``Υ`` looks
#: like ``Y``.
_NOT_TYPED = frozenset({"Pi", "Upsilon"})

#: A typed Greek glyph → its canonical name (``σ`` → ``sigma``), variant glyphs included.
GREEK: dict[str, str] = {
    **{letter: name for name, letter in GREEK_LETTERS.items() if name not in _NOT_TYPED},
    "ϵ": "epsilon",
    "ϑ": "theta",
    "µ": "mu",  # the micro sign
    "ϱ": "rho",
    "ς": "sigma",
    "ϕ": "phi",
    "ℓ": "ell",  # the script l of log-likelihoods (ℓ = log p_Z(…)), read as the name ell
}

#: Spelled Greek names, for rendering them as letters again.
GREEK_NAMES: frozenset[str] = (frozenset(GREEK.values()) - {"ell"}) | {"varepsilon", "varphi"}

#: Name suffixes that decorate a letter rather than subscript it.
ACCENTS: tuple[str, ...] = ("hat", "bar", "tilde", "dot", "star")


def canonical_name(name: str) -> str:
    """The canonical ASCII spelling of a typed name (``σ_1`` → ``sigma_1``)."""
    out = []
    for char in name:
        greek = GREEK.get(char)
        if greek is None:
            out.append(char)
            continue
        out.append(greek)
    text = "".join(out)
    if text == "varepsilon":
        return "epsilon"
    if text == "varphi":
        return "phi"
    return text
