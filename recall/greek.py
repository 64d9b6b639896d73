"""The Greek alphabet by name: ``alpha`` → ``α``, and LaTeX's variant letters.

Outside the engine on purpose: the terminal's LaTeX display (:mod:`recall.tui.latex_display`)
reads these tables to show a formula before SymPy is imported (the first card's ``shown``
formula), and importing anything under ``recall.formula`` imports the engine, SymPy with it.
:mod:`recall.formula.names` re-exports them for the engine's readers and writers.
"""

from __future__ import annotations

#: Every Greek letter by its spelled name, which is also its LaTeX command (``\\alpha``) and how a
#: learner types it (``alpha``). The one Greek table: the lexer, the LaTeX reader and the
#: terminal's LaTeX display all read it.
GREEK_LETTERS: dict[str, str] = {
    "alpha": "α",
    "beta": "β",
    "gamma": "γ",
    "delta": "δ",
    "epsilon": "ε",
    "zeta": "ζ",
    "eta": "η",
    "theta": "θ",
    "iota": "ι",
    "kappa": "κ",
    "lambda": "λ",
    "mu": "μ",
    "nu": "ν",
    "xi": "ξ",
    "omicron": "ο",
    "pi": "π",
    "rho": "ρ",
    "sigma": "σ",
    "tau": "τ",
    "upsilon": "υ",
    "phi": "φ",
    "chi": "χ",
    "psi": "ψ",
    "omega": "ω",
    "Gamma": "Γ",
    "Delta": "Δ",
    "Theta": "Θ",
    "Lambda": "Λ",
    "Xi": "Ξ",
    "Pi": "Π",
    "Sigma": "Σ",
    "Upsilon": "Υ",
    "Phi": "Φ",
    "Psi": "Ψ",
    "Omega": "Ω",
}

#: LaTeX's variant letters, and the letter each one names.
GREEK_VARIANTS: dict[str, str] = {
    f"var{name}": name for name in ("epsilon", "theta", "pi", "rho", "sigma", "phi")
}
