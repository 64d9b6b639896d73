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


def named_densities(text: str) -> str:
    """``text`` with the name of each density of :data:`_DENSITIES` (and each score) written
    after it."""
    if "p" not in text:
        return text
    text = _SCORE.sub(lambda m: f"{m.group()} score", text)
    for density, name in _DENSITIES:
        text = density.sub(_named(name), text)
    return text


def _named(name: str) -> Callable[[re.Match[str]], str]:
    return lambda match: f"{match.group()} {name}"
