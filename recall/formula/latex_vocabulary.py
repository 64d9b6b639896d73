"""The LaTeX commands :func:`recall.formula.latex.latex_to_plain` knows, and what each becomes.

Data only: the tokenizer, the operand reader and the emitter all read these tables.
"""

from __future__ import annotations

from recall.formula.names import GREEK_LETTERS, GREEK_VARIANTS

MAX_LENGTH = 2000
"""Longest LaTeX input read, in characters (the same bound as plain answers)."""

MAX_DEPTH = 64
"""Deepest nesting of braces and command arguments."""

# Greek letters, and variant glyphs naming the same letter (the engine's one Greek table).
GREEK_COMMANDS = {name: name for name in GREEK_LETTERS} | GREEK_VARIANTS | {"ell": "ell"}

# Commands that name a builtin function of the plain syntax.
FUNCTION_COMMANDS = {name: name for name in "log ln exp sin cos tan sinh cosh tanh max min".split()}

BINOMIAL_COMMANDS = {"binom", "dbinom", "tbinom"}

FRACTION_COMMANDS = {"frac", "dfrac", "tfrac"}

# Accents become name suffixes: \hat{m} is m_hat.
ACCENTS = {
    **dict.fromkeys(("hat", "widehat"), "hat"),
    **dict.fromkeys(("bar", "overline"), "bar"),
    **dict.fromkeys(("tilde", "widetilde"), "tilde"),
}

# Commands that only change how their argument looks; the argument is kept as it is.
STYLES = set(
    "mathrm mathit mathbf mathsf mathtt mathnormal boldsymbol bm vec "
    "text textrm textit textbf textsf operatorname".split()
)

# Commands that can start a factor of a function's unparenthesised argument.
FACTOR_COMMANDS = {
    *GREEK_COMMANDS,
    *FRACTION_COMMANDS,
    *BINOMIAL_COMMANDS,
    *ACCENTS,
    *STYLES,
    "sqrt",
}

SPACES = {",", ";", ":", "!", " ", "quad", "qquad", "enspace", "thinspace"}

# \odot is the elementwise product; on the scalars a card asks for, it is plain multiplication.
OPERATORS = {
    "cdot": "*",
    "times": "*",
    "ast": "*",
    "odot": "*",
    "div": "/",
    "%": "%",
    "prime": "'",
}

# Size prefixes before a delimiter: \left( \big[ ... all read as the bare delimiter.
SIZERS = set("left right big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr".split())

NORMS = {"|", "Vert", "lVert", "rVert"}

HINTS = {
    "infty": "infinity is not a value an answer can use",
    "pm": "choose one sign",
    "mp": "choose one sign",
    "sum": "write the terms out",
    "prod": "write the factors out",
}

ABS_OPEN = "abs("

# How an unclosed group is named in an error, by the closer it waits for.
OPENERS = {
    "}": "'{'",
    "]": "'['",
    ")": "'('",
    "|": "'|'",
    "rvert": "\\lvert",
    "right|": "\\left|",
}
