"""The names of densities a formula writes, said beside it for the word reader.

A learner who answers in formulas names things by their notation: "θ_MAP = argmax log p(D|θ) +
log p(θ)" is the log-likelihood plus the log-prior, "∇log p(x|c) = ∇log p(x) + ∇log p(c|x)" is
the unconditional score plus the classifier's gradient. A reader of words alone sees letters
("p d θ plus p θ") where the point's phrasings ask for "likelihood plus prior" or "score plus
classifier gradient". So the name each density goes by is written after it, for the words only
(:func:`recall.grading.explain_words.normalised` calls :func:`named_densities`; formulas are
still read from the text as typed):

* a density of the parameters alone, p(θ) or p(w), is the **prior**; of the data given them,
  p(D|θ), p(x|θ), p(y|x, w), the **likelihood**; of the parameters given the data, p(θ|D),
  the **posterior**;
* a label given the input, p(c|x) or p(y|x_t), is a **classifier**;
* the gradient in x of a log-density of x, ∇log p(x), ∇_x log p_t(x_t|c), "grad_x log p",
  is the **score** (a gradient in θ, ∇_θ log p, is not).

The name goes after the density, so a phrasing that spells the formula ("log>p>c>x") still
finds its letters in a row.

A derivative set to zero says what does not depend on what: "∇_θ H(p) = 0", "∂log Z/∂x = 0" and
"Z is constant in x" (or "const w.r.t. θ") are each followed by "and does not depend on θ" (x),
the words the points ask for ("the entropy does not depend on the parameters"); two derivatives
set equal ("∇_θ H(p, q) = ∇_θ KL(p‖q)") are "the same gradient". A curve named by its shape,
"the S-curve" or "the logistic curve", is the sigmoid ("squashing function" is left alone: it
may be a softmax or a tanh).
"""

from __future__ import annotations

import re
from collections.abc import Callable

_PARAMETER = r"(?:θ|theta|w|φ|phi)"
#: What the density is of and given what: brackets of a few characters, no nesting.
_ARGS = r"[^()|]{1,12}"
_DENSITIES = (
    (re.compile(r"\bp\(\s*" + _PARAMETER + r"\s*\)"), "prior"),
    (
        re.compile(r"\bp\(" + _ARGS + r"\|\s*(?:[^()|,]{1,8},\s*)?" + _PARAMETER + r"\s*\)"),
        "likelihood",
    ),
    (re.compile(r"\bp\(\s*" + _PARAMETER + r"\s*\|" + _ARGS + r"\)"), "posterior"),
    (re.compile(r"\bp\(\s*[cy]\s*\|\s*x(?:_?t)?\s*\)"), "classifier"),
)
#: The gradient in x (or unmarked) of log p of x: "∇log p(x)", "∇_x log p_t(x_t|c)",
#: "grad_x log p"; not "∇_θ log p".
_SCORE = re.compile(
    r"(?:∇|\bgrad\b|\bgrad_)(?:_?\{?x(?:_?t)?\}?)?\s*log\s*p(?:_\{?\w{1,3}\}?)?"
    r"(?:\(\s*x(?:_?t)?\s*(?:\|[^()]{0,12})?\)|(?![\w(]))"
)


_VARIABLE = r"(θ|theta|x|w|φ|phi)"
#: A name, maybe a log's, with its arguments: "H(p)", "log Z", "log p(c)", "A".
_NAME = r"(?:log\s*)?[^\W\d_]\w{0,3}(?:\([^()]{0,20}\))?"
#: "∇_θ H(p) = 0", "grad_x log Z = 0", "∂H(p)/∂θ = 0", "dA/dx = 0".
_ZERO_DERIVATIVE = re.compile(
    r"(?:(?:∇|\bgrad)_?\{?"
    + _VARIABLE
    + r"\}?\s*"
    + _NAME
    + r"|[∂d]\s*"
    + _NAME
    + r"\s*/\s*[∂d]\s*"
    + _VARIABLE
    + r")\s*=\s*0(?![.,]?\d)"
)
_DERIVATIVE = (
    r"(?:(?:∇|\bgrad)_?\{?(?:θ|theta|x|w|φ|phi)\}?\s*"
    + _NAME
    + r"|[∂d]\s*"
    + _NAME
    + r"\s*/\s*[∂d]\s*(?:θ|theta|x|w|φ|phi))"
)
#: Two derivatives set equal: "∇_θ H(p, q) = ∇_θ KL(p‖q)", "dH/dθ = dKL/dθ".
_EQUAL_DERIVATIVES = re.compile(_DERIVATIVE + r"\s*=\s*" + _DERIVATIVE)
#: "constant in x", "const w.r.t. θ", "constant with respect to the parameters".
_CONSTANT_IN = re.compile(
    r"\b(?:constant|const)\s+(?:in|w\.?r\.?t\.?|with\s+respect\s+to)\s+"
    r"((?:the\s+)?[^\W\d_]\w*)",
    re.IGNORECASE,
)


#: "the S-curve", "s curve", "logistic function": the sigmoid.
_S_CURVE = re.compile(r"\b(?:s[\s-]curve|logistic\s+(?:curve|function))\b", re.IGNORECASE)


def named_densities(text: str) -> str:
    """``text`` with the name of each density of :data:`_DENSITIES` (and each score) written
    after it, and each derivative set to zero said as what does not depend on what."""
    text = _S_CURVE.sub(lambda m: f"{m.group()} (sigmoid)", text)
    text = _ZERO_DERIVATIVE.sub(_independent, text)
    text = _EQUAL_DERIVATIVES.sub(lambda m: f"{m.group()} (the same gradient)", text)
    text = _CONSTANT_IN.sub(lambda m: f"{m.group()} and does not depend on {m.group(1)}", text)
    if "p" not in text:
        return text
    text = _SCORE.sub(lambda m: f"{m.group()} score", text)
    for density, name in _DENSITIES:
        text = density.sub(_named(name), text)
    return text


def _independent(match: re.Match[str]) -> str:
    variable = match.group(1) or match.group(2)
    return f"{match.group()} and does not depend on {variable}"


def _named(name: str) -> Callable[[re.Match[str]], str]:
    return lambda match: f"{match.group()} {name}"
