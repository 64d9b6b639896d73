"""A display-only reading of LaTeX as plain Unicode, for formulas the engine cannot draw in 2-D.

A card's ``shown`` formula gives the context around the typed part (``\\frac{1}{n}\\sum_i
\\square``) and may use notation the answer grammar does not need (sums, expectations, norms,
boxes, calligraphic letters, ``cases``). When the engine cannot render it, this turns it into
text a learner reads as the same formula: ``𝓛 = 1/n Σ_i ▢``. It only rewrites text; nothing is
parsed as math or evaluated, and Textual is not needed.

Two things it must get right, because a wrong rendering teaches a different formula:

* **scope**: a fraction under a function stays under it (``-\\log\\frac{a}{b}`` is
  ``−log(a/b)``, never ``−log(a)/b``), and a part of a fraction that is more than one token is
  parenthesised;
* **no leftovers**: every control word becomes a symbol, a name, or nothing (``\\cdot\\text{bytes}``
  is ``·bytes``, not ``cdotbytes``); ``cases`` is drawn as rows, one per case, with a brace.
"""

from __future__ import annotations

import re

from recall.greek import GREEK_LETTERS, GREEK_VARIANTS

#: Commands that stand for one symbol (or a function name) and take no argument.
_SYMBOLS = {
    **GREEK_LETTERS,
    **{variant: GREEK_LETTERS[letter] for variant, letter in GREEK_VARIANTS.items()},
    "ell": "ℓ",
    "sum": "Σ",
    "prod": "∏",
    "int": "∫",
    "partial": "∂",
    "nabla": "∇",
    "infty": "∞",
    "cdot": "·",
    "times": "×",
    "odot": "⊙",
    "otimes": "⊗",
    "oplus": "⊕",
    "le": "≤",
    "leq": "≤",
    "ge": "≥",
    "geq": "≥",
    "ne": "≠",
    "neq": "≠",
    "approx": "≈",
    "propto": "∝",
    "sim": "~",
    "succ": "≻",
    "in": "∈",
    "to": "→",
    "rightarrow": "→",
    "leftarrow": "←",
    "Rightarrow": "⇒",
    "square": "▢",
    "Box": "▢",
    "ldots": "…",
    "dots": "…",
    "cdots": "⋯",
    "top": "ᵀ",
    "mid": "|",
    "lVert": "‖",
    "rVert": "‖",
    "Vert": "‖",
    "langle": "⟨",
    "rangle": "⟩",
    "varnothing": "∅",
    "emptyset": "∅",
    "pm": "±",
    "quad": "  ",
    "qquad": "    ",
    "textstyle": "",
    "displaystyle": "",
    **{name: name for name in "log ln exp sin cos tan sinh cosh tanh max min arg det".split()},
}
#: Names after which a fraction is the function's argument (so it is parenthesised as one).
_FUNCTION_NAMES = frozenset("log ln exp sin cos tan sinh cosh tanh det σ".split())
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
_VULGAR = {("1", "2"): "½", ("1", "3"): "⅓", ("2", "3"): "⅔", ("1", "4"): "¼", ("3", "4"): "¾"}
_SUPERSCRIPTS = str.maketrans("0123456789+-−=()n", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁿ")

_GROUP = r"\{((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}"
#: A command's argument: a braced group, or (TeX's rule) one character that is not a brace.
_ARG = rf"(?:{_GROUP}|([^\s{{}}\\]))"
_FRAC = re.compile(rf"\\[dt]?frac\s*{_ARG}\s*{_ARG}")
_BINOM = re.compile(rf"\\[dt]?binom\s*{_ARG}\s*{_ARG}")
_SQRT = re.compile(rf"\\sqrt\s*{_ARG}")
_XARROW = re.compile(rf"\\xrightarrow\s*{_GROUP}")
_FONT = re.compile(
    r"\\(mathcal|mathbb|mathrm|operatorname|text|mathbf|boldsymbol|textrm|mathit|mathsf|"
    rf"mathrel)\s*{_GROUP}"
)
_ACCENT = re.compile(rf"\\(hat|bar|tilde|dot|vec|widehat|overline|widetilde)\s*{_GROUP}")
_BARE_ACCENT = re.compile(r"\\(hat|bar|tilde|dot|vec)\s*([^\W\d_])")
_SIZING = re.compile(r"\\(?:left|right|[bB]igg?[lr]?)(?![A-Za-z])\s*")
_COMMAND = re.compile(r"\\([A-Za-z]+)")
#: TeX's rule for the symbols that sit against what follows: a control word swallows the spaces
#: after it (``\partial w`` is ``∂w``, ``\lVert w\rVert`` is ``‖w‖``); a product swallows the
#: spaces on both sides, so ``a\cdot b`` and ``a \cdot b`` both read ``a·b``. Relations (``\in``,
#: ``\le``) and letters keep the spacing as written.
_PREFIX = re.compile(r"\\(partial|nabla|lVert|langle)(?![A-Za-z])\s*")
_PRODUCT = re.compile(r"\s*\\(cdot|times|odot|otimes)(?![A-Za-z])\s*")
_CASES = re.compile(r"\\begin\{cases\}(.*?)\\end\{cases\}", re.DOTALL)


def latex_to_unicode(text: str) -> str:
    """``text`` with LaTeX turned into Unicode; a ``cases`` block becomes one line per case."""
    cases = _CASES.search(text)
    if cases is None:
        return _inline(text)
    before = _inline(text[: cases.start()])
    after = _inline(text[cases.end() :])
    rows = [row.split("&", 1) for row in re.split(r"\\\\", cases.group(1)) if row.strip()]
    values = [_inline(row[0]) for row in rows]
    conditions = [_inline(row[1]) if len(row) > 1 else "" for row in rows]
    width = max(len(value) for value in values)
    braces = _brace(len(rows))
    lines = []
    for index, (brace, value, condition) in enumerate(zip(braces, values, conditions, strict=True)):
        lead = (before + " ") if index == 0 and before else " " * (len(before) + 1 if before else 0)
        line = f"{lead}{brace} {value.ljust(width)}"
        if condition:
            line += f"   if {condition}"
        lines.append(line.rstrip())
    if after:
        lines[-1] += " " + after
    return "\n".join(lines)


def _brace(rows: int) -> list[str]:
    """The left brace of a ``cases`` block, one piece per row."""
    if rows == 1:
        return ["{"]
    if rows == 2:
        return ["⎧", "⎩"]
    middle = rows // 2
    return ["⎧", *(["⎨" if i == middle else "⎪" for i in range(1, rows - 1)]), "⎩"]


def _inline(text: str) -> str:
    out = text
    out = _SIZING.sub("", out)
    out = out.replace("\\left.", "").replace("\\right.", "")
    for escaped, plain in (("\\,", " "), ("\\;", " "), ("\\:", " "), ("\\ ", " "), ("\\!", "")):
        out = out.replace(escaped, plain)
    out = out.replace("\\{", "⦃").replace("\\}", "⦄").replace("\\|", "‖").replace("\\#", "#")
    # Commands that stand for one symbol first, while the text still shows where each ends.
    out = _PREFIX.sub(lambda m: _SYMBOLS[m.group(1)], out)
    out = _PRODUCT.sub(lambda m: _SYMBOLS[m.group(1)], out)
    out = _COMMAND.sub(_symbol, out)
    for _ in range(6):  # nested constructs, innermost first
        before = out
        out = _FONT.sub(_font, out)
        out = _ACCENT.sub(_accent, out)
        out = _BARE_ACCENT.sub(lambda m: m.group(2) + _ACCENTS.get(m.group(1), ""), out)
        out = _SQRT.sub(_sqrt, out)
        out = _BINOM.sub(lambda m: f"C({_arg(m, 1)}, {_arg(m, 3)})", out)
        out = _FRAC.sub(_fraction, out)
        out = _XARROW.sub(lambda m: f" ─{_inline(m.group(1)).strip()}→ ", out)
        if out == before:
            break
    # Whatever command is left loses its backslash, and never runs into a following letter.
    out = _COMMAND.sub(lambda m: m.group(1) + (" " if _letter_at(out, m.end()) else ""), out)
    out = out.replace("^ᵀ", "ᵀ").replace("^{ᵀ}", "ᵀ")
    for _ in range(4):  # scripts, innermost first
        before = out
        out = re.sub(r"\^\{([^{}]*)\}", lambda m: _superscript(m.group(1)), out)
        out = re.sub(r"_\{([^{}]*)\}", lambda m: "_" + _grouped(m.group(1)), out)
        if out == before:
            break
    out = re.sub(r"\^([0-9])(?![0-9.])", lambda m: m.group(1).translate(_SUPERSCRIPTS), out)
    for _ in range(4):  # braces that only grouped
        out, count = re.subn(r"(?<![\^_])\{([^{}]*)\}", r"\1", out)
        if not count:
            break
    out = out.replace("⦃", "{").replace("⦄", "}")
    return re.sub(r"[ \t]{2,}", " ", out).strip()


def _symbol(match: re.Match[str]) -> str:
    """A symbol command as its glyph; a function name (``log``, ``max``) kept apart from the
    letters around it, so ``\\beta\\log\\sigma`` reads ``β log σ``, not ``βlogσ``."""
    name = match.group(1)
    glyph = _SYMBOLS.get(name)
    if glyph is None:
        return match.group(0)
    if len(glyph) > 1 and glyph.isalpha():
        text, start, end = match.string, match.start(), match.end()
        if start and (text[start - 1].isalnum() or text[start - 1] in ")]}"):
            glyph = " " + glyph
        if _letter_at(text, end) or (
            text.startswith("\\", end)
            and _letter_at(text, end + 1)
            and not _sizer_at(text, end)
            and _FRAC.match(text, end) is None
        ):
            glyph += " "
    return glyph


def _sizer_at(text: str, index: int) -> bool:
    return _SIZING.match(text, index) is not None or text.startswith("\\!", index)


def _letter_at(text: str, index: int) -> bool:
    return index < len(text) and text[index].isalpha()


def _arg(match: re.Match[str], group: int) -> str:
    """A matched argument: the braced group's inside, or the single character."""
    braced = match.group(group)
    return _inline(braced) if braced is not None else match.group(group + 1)


def _plain(part: str) -> bool:
    """One token, or one function application such as ``exp(x/τ)``: no parentheses needed."""
    if re.fullmatch(r"[\w.′'ᵀ⁰¹²³⁴⁵⁶⁷⁸⁹⁻̂̄̃∂∇]+", part):  # ∂w_j is one token
        return True
    if part.startswith("√"):
        return _plain(part[1:]) or (part[1:2] == "(" and _closes_at_end(part[1:]))
    match = re.fullmatch(r"[\w.]+(\(.*\))", part)
    return match is not None and _closes_at_end(match.group(1))


def _closes_at_end(group: str) -> bool:
    """Whether the ``(`` that opens ``group`` is closed by its last character."""
    depth = 0
    for index, char in enumerate(group):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0:
            return index == len(group) - 1
    return False


def _wrap(part: str) -> str:
    part = part.strip()
    return part if _plain(part) else f"({part})"


def _fraction(match: re.Match[str]) -> str:
    top, bottom = _arg(match, 1), _arg(match, 3)
    vulgar = _VULGAR.get((top.strip(), bottom.strip()))
    text = vulgar or f"{_wrap(top)}/{_wrap(bottom)}"
    preceding = match.string[: match.start()].rstrip()
    name = re.search(r"([\w]+|σ)$", preceding)
    if vulgar:
        return vulgar
    if name is not None and name.group(1) in _FUNCTION_NAMES:
        return f"({text})"  # the function's argument is the whole fraction
    lead = " " if preceding and (preceding[-1].isalnum() or preceding[-1] in ")]}") else ""
    following = match.string[match.end() :]
    trail = " " if following and following[0] not in " \t+-−=,;.)]}|/^_·⊙×" else ""
    return f"{lead}{text}{trail}"


def _sqrt(match: re.Match[str]) -> str:
    return f"√{_wrap(_arg(match, 1))}"


def _superscript(body: str) -> str:
    """``^{2}`` is ``²``; ``^{-1/2}`` is ``^(-1/2)``; one token stays ``^x``."""
    if body and all(char in "0123456789+-−=()n" for char in body):
        return body.translate(_SUPERSCRIPTS)
    return "^" + _grouped(body)


def _grouped(body: str) -> str:
    if re.fullmatch(r"[\w.]+", body) or (body.startswith("(") and _closes_at_end(body)):
        return body
    return f"({body})"


def _font(match: re.Match[str]) -> str:
    font, body = match.group(1), _inline(match.group(2))
    if (
        font in ("operatorname", "mathrm")
        and len(body) > 1
        and _letter_at(match.string, match.end())
    ):
        return body + " "  # \\operatorname{diag}\\sigma is "diag σ"
    if font == "mathcal":
        return "".join(_SCRIPT.get(c, c) for c in body)
    if font == "mathbb":
        return "".join(_BLACKBOARD.get(c, c) for c in body)
    return body


def _accent(match: re.Match[str]) -> str:
    accent, body = match.group(1), _inline(match.group(2))
    mark = _ACCENTS.get(accent.replace("wide", "").replace("overline", "bar"), "")
    return body + mark if len(body) == 1 else f"({body}){mark}"
