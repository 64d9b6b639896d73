"""A best-effort, display-only reading of LaTeX as one line of Unicode.

A card's ``shown`` formula gives the context around the typed part (``\\frac{1}{n}\\sum_i
\\square``) and may use notation the answer grammar does not need (sums, expectations, boxes,
calligraphic letters). When the engine cannot render it in 2-D, this turns the common commands
into Unicode so the learner reads ``𝓛 = (1)/(n) Σ_{i=1}^{n} ▢`` instead of raw LaTeX. It only
rewrites text; nothing is parsed as math or evaluated.
"""

from __future__ import annotations

import re

_SYMBOLS = {
    "alpha": "α",
    "beta": "β",
    "gamma": "γ",
    "delta": "δ",
    "epsilon": "ε",
    "varepsilon": "ε",
    "zeta": "ζ",
    "eta": "η",
    "theta": "θ",
    "iota": "ι",
    "kappa": "κ",
    "lambda": "λ",
    "mu": "μ",
    "nu": "ν",
    "xi": "ξ",
    "pi": "π",
    "rho": "ρ",
    "sigma": "σ",
    "tau": "τ",
    "phi": "φ",
    "varphi": "φ",
    "chi": "χ",
    "psi": "ψ",
    "omega": "ω",
    "Gamma": "Γ",
    "Delta": "Δ",
    "Theta": "Θ",
    "Lambda": "Λ",
    "Sigma": "Σ",
    "Phi": "Φ",
    "Psi": "Ψ",
    "Omega": "Ω",
    "sum": "Σ",
    "prod": "∏",
    "int": "∫",
    "partial": "∂",
    "nabla": "∇",
    "infty": "∞",
    "cdot": "·",
    "times": "×",
    "le": "≤",
    "leq": "≤",
    "ge": "≥",
    "geq": "≥",
    "ne": "≠",
    "neq": "≠",
    "approx": "≈",
    "propto": "∝",
    "sim": "~",
    "to": "→",
    "rightarrow": "→",
    "leftarrow": "←",
    "in": "∈",
    "square": "▢",
    "Box": "▢",
    "ldots": "…",
    "cdots": "⋯",
    "log": "log",
    "exp": "exp",
    "ln": "ln",
    "min": "min",
    "max": "max",
    "top": "ᵀ",
    "quad": "  ",
    "qquad": "    ",
    "mid": "|",
    "lVert": "‖",
    "rVert": "‖",
    "|": "‖",
    "langle": "⟨",
    "rangle": "⟩",
    "odot": "⊙",
    "otimes": "⊗",
    "oplus": "⊕",
}
_SCRIPT = {
    "L": "𝓛",
    "N": "𝓝",
    "D": "𝓓",
    "O": "𝓞",
    "H": "𝓗",
    "X": "𝓧",
    "Y": "𝓨",
    "U": "𝓤",
    "E": "𝓔",
    "F": "𝓕",
    "P": "𝓟",
    "R": "𝓡",
    "S": "𝓢",
    "T": "𝓣",
    "Z": "𝓩",
}
_BLACKBOARD = {"E": "𝔼", "R": "ℝ", "N": "ℕ", "P": "ℙ", "Z": "ℤ", "V": "𝕍"}
_ACCENTS = {"hat": "\u0302", "bar": "\u0304", "tilde": "\u0303", "dot": "\u0307", "vec": "\u20d7"}

_GROUP = r"\{((?:[^{}]|\{[^{}]*\})*)\}"
_FRAC = re.compile(r"\\[dt]?frac\s*" + _GROUP + r"\s*" + _GROUP)
_SQRT = re.compile(r"\\sqrt\s*" + _GROUP)
_FONT = re.compile(
    r"\\(mathcal|mathbb|mathrm|operatorname|text|mathbf|boldsymbol|textrm)\s*" + _GROUP
)
_ACCENT = re.compile(r"\\(hat|bar|tilde|dot|vec|widehat|overline)\s*" + _GROUP)
_BARE_ACCENT = re.compile(r"\\(hat|bar|tilde|dot|vec)\s+([A-Za-z])")
_SIZING = re.compile(r"\\(?:left|right|[bB]igg?[lr]?)(?![A-Za-z])")
_COMMAND = re.compile(r"\\([A-Za-z]+|\|)")


def latex_to_unicode(text: str) -> str:
    """``text`` with common LaTeX commands replaced by Unicode (unknown ones lose the
    backslash); braces that only grouped are dropped."""
    out = text
    for _ in range(4):  # nested fractions and roots, innermost first
        before = out
        out = _FRAC.sub(lambda m: f"{_wrap(m.group(1))}/{_wrap(m.group(2))} ", out)
        out = _SQRT.sub(lambda m: f"√({m.group(1)})", out)
        if out == before:
            break
    out = _FONT.sub(_font, out)
    out = _ACCENT.sub(_accent, out)
    out = _BARE_ACCENT.sub(lambda m: m.group(2) + _ACCENTS.get(m.group(1), ""), out)
    out = _SIZING.sub("", out)
    out = out.replace("\\,", " ").replace("\\;", " ").replace("\\ ", " ").replace("\\quad", "  ")
    out = out.replace("\\!", "").replace("\\{", "{").replace("\\}", "}")
    out = out.replace("^\\top", "ᵀ").replace("^{\\top}", "ᵀ")
    out = _COMMAND.sub(lambda m: _SYMBOLS.get(m.group(1), m.group(1)), out)
    out = re.sub(
        r"([_^])\{([^{}]*)\}",
        lambda m: f"{m.group(1)}{m.group(2)}" if m.group(2).isalnum() else m.group(0),
        out,
    )
    return re.sub(r"\s{2,}", " ", out).strip()


def _wrap(group: str) -> str:
    """A fraction's part, parenthesised unless it is one plain token."""
    return group if re.fullmatch(r"[\w.]+", group) else f"({group})"


def _font(match: re.Match[str]) -> str:
    font, body = match.group(1), match.group(2)
    if font == "mathcal":
        return "".join(_SCRIPT.get(c, c) for c in body)
    if font == "mathbb":
        return "".join(_BLACKBOARD.get(c, c) for c in body)
    if font == "operatorname":
        return body + " "
    return body


def _accent(match: re.Match[str]) -> str:
    accent, body = match.group(1), match.group(2)
    mark = _ACCENTS.get(accent.replace("wide", "").replace("overline", "bar"), "")
    body = latex_to_unicode(body)
    return body + mark if len(body) == 1 else f"{body}{mark}"
