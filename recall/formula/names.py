"""Names: Greek letters, subscripts, hats and bars, spelled however the learner types them.

``σ`` and ``sigma`` are one name; so are ``ϵ``, ``ε`` and ``epsilon``. Canonical names are ASCII:
letters and digits with ``_`` segments (``beta_1``, ``m_hat_t``) and trailing primes.
"""

from __future__ import annotations

GREEK: dict[str, str] = {
    "α": "alpha",
    "β": "beta",
    "γ": "gamma",
    "δ": "delta",
    "ε": "epsilon",
    "ϵ": "epsilon",
    "ζ": "zeta",
    "η": "eta",
    "θ": "theta",
    "ϑ": "theta",
    "ι": "iota",
    "κ": "kappa",
    "λ": "lambda",
    "μ": "mu",
    "µ": "mu",
    "ν": "nu",
    "ξ": "xi",
    "ο": "omicron",
    "ρ": "rho",
    "ϱ": "rho",
    "σ": "sigma",
    "ς": "sigma",
    "τ": "tau",
    "υ": "upsilon",
    "φ": "phi",
    "ϕ": "phi",
    "χ": "chi",
    "ψ": "psi",
    "ω": "omega",
    "π": "pi",
    "Γ": "Gamma",
    "Δ": "Delta",
    "Θ": "Theta",
    "Λ": "Lambda",
    "Ξ": "Xi",
    "Σ": "Sigma",
    "Φ": "Phi",
    "Ψ": "Psi",
    "Ω": "Omega",
}

#: Spelled Greek names, for rendering them as letters again.
GREEK_NAMES: frozenset[str] = frozenset(GREEK.values()) | {"varepsilon", "varphi"}

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
