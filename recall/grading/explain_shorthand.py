"""The shorthand of study notes, read as the words it stands for.

Learners who explain in notes write the signs and clipped words they would scribble on a
formula sheet: "variance << REINFORCE", "no Lipschitz -> gap -> ∞", "bound ≤ log N",
"decay coef ∝ η", "X̄ ≈ N(μ, σ²/n)", "σ'(z) ~0 when |z| big", "Cov = 0", "Elo == BT",
"100s–1000s tok/param", "#neg", "RMSNorm -> LN minus the centering". Each sign and clipped
word says a word the point's phrasings ask for, and a reader of words alone sees none of
them: ``<<`` is "much smaller than", ``≤`` "at most" (so "≥" against "at most 0.25" leans
the other way, as "at least" does), ``∞`` "infinite", ``∝`` "proportional to", ``Σ`` "sum"
(lower-cased it would read as the letter sigma), ``∏`` "product", ``∇`` "gradient", ``Δ``
"change in" before a name and "difference" alone, ``∂z`` "dz", a prime after a one-letter
name or before an argument ("σ′(z)", "A′(θ)", "sigma'(z)") "prime", "grad_x" "gradient
x", ``!= 0`` "nonzero", "x2 odds" "doubles",
``==`` between terms "the same as", "never fewer than" "at least" and "never exceeds" "at
most", "floating point operations" "FLOPs", "100s" "hundreds", ``#`` before a word "number of", a
slash before a unit ("FLOPs/tok", "16B/param") "per", and a clipped word its whole word
("cond", "indep", "vecs", "coef", "recon"). A formula sheet's notation is named beside it:
"H(p)" is an entropy, "H(p, q)" a cross-entropy, "N(μ, σ²/n)" a normal, "x̄" a mean,
"(1/n) Σ" an average, "p(z|x)" the posterior and "p(z)" the prior. An arrow right after a
note's head term ("RMSNorm -> LN minus the centering", "BN -> per feature") heads the note,
as a colon does: it says what the term is, not what it causes.

Only the words are read this way (:func:`recall.grading.explain_words.normalised` calls
:func:`read_shorthand` first); formulas and numbers are still read from the text as typed.
Clipped words with two common readings ("dist": distance or distribution, "dec": decoder or
decrease, "disc": discount or discriminator, "pos": positive or positional, "acc": accuracy or
accumulation) and real words ("infer") are left as typed. At
most :data:`MAX_SIGNS_READ` signs of a text are read as words.
"""

from __future__ import annotations

import re
from collections.abc import Callable

#: At most this many signs of a text are read as words: each is two or three words, and a
#: text of nothing but signs ("≪≪≪…", 4,000 of them) would otherwise be read as 12,000 words,
#: seconds of matching for no sentence anyone writes.
MAX_SIGNS_READ = 64
#: Signs read as words, wherever they stand (upper-case sums and products before the text is
#: lower-cased, or "Σ" would read as the letter σ).
_SIGN_WORDS = (
    (re.compile(r"<<|≪"), " much smaller than "),
    (re.compile(r">>|≫"), " much larger than "),
    # "!= 0", "≠ 0": the value is nonzero ("w small but != 0"); not "≠ 0.5"
    (re.compile(r"(?:!=|≠|=/=)\s*(?:0|zero)\b(?![.,]\d)"), " nonzero "),
    (re.compile(r"≤|<=(?!>)"), " at most "),
    (re.compile(r"≥|(?<![<=])>="), " at least "),
    (re.compile(r"∞"), " infinite "),
    (re.compile(r"∝"), " proportional to "),
    (re.compile(r"[Σ∑]"), " sum "),
    (re.compile(r"∏"), " product "),
    (re.compile(r"∇"), " gradient "),
    (re.compile(r"∂"), "d"),
    # "x2 odds", "×2 the memory": doubles (not "x2" the second input, "x2 = ...")
    (
        re.compile(
            r"(?<![\w.])[x×]\s?2(?![\w.=(])"
            r"(?!\s+(?:is|are|was|were|has|have|and|or|equals|gets|becomes)\b)(?=\s+[^\W\d_])"
        ),
        " doubles ",
    ),
    # "Δlog-odds" is a change in them; "only Δ matters", "Δ0 -> 50%" a difference
    (re.compile(r"Δ(?=[^\W\d_])"), " change in "),
    (re.compile(r"Δ"), " difference "),
)
#: Bounds said in words: "never fewer than one", "no less than 0.5" are "at least"; "never more
#: than", "no greater than", "never exceeds" are "at most" (so "at most 0.25" is made, and a
#: bound the other way leans against it).
_AT_LEAST = re.compile(r"\b(?:never|not|no)\s+(?:fewer|less|lower|smaller)\s+than\b", re.IGNORECASE)
_AT_MOST = re.compile(
    r"\b(?:(?:never|not|no)\s+(?:more|greater|larger|higher|bigger)\s+than"
    r"|(?:never|does\s+not|doesn't|can't|cannot|can\s+not)\s+exceeds?)\b",
    re.IGNORECASE,
)
#: Floating-point operations, however written, are FLOPs.
_FLOPS = re.compile(r"\bfloating[\s-]point\s+operations\b", re.IGNORECASE)
#: The names of a formula sheet's notation, said beside it: "H(p)" is an entropy and "H(p, q)" a
#: cross-entropy, "N(μ, σ²/n)" a normal distribution, "x̄" a mean, "(1/n) Σ" an average ("H(data)
#: const" says the entropy is constant, "X̄ ≈ N(μ, σ²/n)" that the mean is normal).
_ENTROPY = re.compile(r"\bH\((?=[^(),]{1,20}\))")
_CROSS = re.compile(r"\bH\((?=[^(),]{1,20},[^(),]{1,20}\))")
#: (a standard normal, "N(0, 1)", "N(0, I)", is left as typed: the decks ask for "n 0 i")
_NORMAL = re.compile(r"(?:\bN|𝒩)\((?!\s*0\s*,\s*[1I]\s*\))(?=[^()]{1,30},[^()]{1,30}\))")
#: A latent's distribution given the data, p(z|x), is the posterior; p(z) alone the prior.
_POSTERIOR = re.compile(r"\bp\(\s*z\s*\|\s*x\s*\)")
_PRIOR = re.compile(r"\bp\(\s*z\s*\)")
_BAR = re.compile(r"\b[^\W\d_]\u0304")
_AVERAGE = re.compile(r"\(?\b1\s*/\s*[nNmMBK]\b\)?\s*(?=[Σ∑])")
#: "Elo == BT", "L2 == WD": two terms said to be one thing; between one-letter names ("q == p")
#: it is a formula's equality and stays a sign.
_SAME = re.compile(r"(?<=\w\w)\s*==\s*(?=\w\w)")
#: A prime after a one-letter name is the derivative: "σ′(z)", "σ'(z)", "A′(θ)".
_PRIME = re.compile(
    r"(?<![\w'′])([^\W\d_])[′'](?=\s*\(|\s|$|[,.;:)])"
    # a longer name primed before its argument: "sigma'(z)", "f′(x)"
    r"|(?<![\w'′])([^\W\d_]{2,7})[′'](?=\()"
)
#: "grad_x log p", "grad_θ": the gradient with respect to what follows.
_GRAD_OF = re.compile(r"\bgrad_(?=\w)")
#: "100s of tokens", "1000s": hundreds, thousands.
_ROUND_PLURALS = {"10": "tens", "100": "hundreds", "1000": "thousands", "1k": "thousands"}
_ROUND_PLURAL = re.compile(r"\b(10|100|1000|1k)(?:'s|s)\b", re.IGNORECASE)
#: "#neg", "# of layers": the number of.
_COUNT = re.compile(r"#\s*(?:of\s+)?(?=[^\W\d_])")
#: Units a slash divides by ("FLOPs/tok", "16B/param", "2 passes/step"): "per".
_UNITS = """tok toks token tokens param params parameter parameters step steps sample samples
example examples layer layers query queries head heads pass batch batches epoch epochs iter
iteration iterations sec second request requests seq sequence sequences coord coordinate"""
#: Only after a figure or a word for an amount ("16B/param", "FLOPs/tok", "cost/step"): "key/query"
#: and "batch/layer norm" are two things, not a rate.
_PER = re.compile(
    r"(\b(?:\d[\w.]*|flops?|bytes?|[kmgt]?b|ops|costs?|passes|time|mem|memory|compute|gb|mb"
    r"|tok|toks|tokens?|params?|parameters?|steps?|samples?|examples?|epochs?|requests?))"
    r"/(?=(?:" + "|".join(_UNITS.split()) + r")\b)",
    re.IGNORECASE,
)
#: Capitals that name one thing, where the lower case is another word or nothing.
_CAPITALS = {"IP": "inner product", "MI": "mutual information", "BT": "bradley terry"}
_CAPITAL = re.compile(r"\b(?:" + "|".join(_CAPITALS) + r")\b")
#: Clipped words of notes, each with one reading in the decks.
_CLIPPED = {
    "cond": "condition",
    "conds": "conditions",
    "uncond": "unconditional",
    "vars": "variables",
    "indep": "independent",
    "dup": "duplicate",
    "dups": "duplicates",
    "pref": "preference",
    "fn": "function",
    "fns": "functions",
    "cov": "covariance",
    "recon": "reconstruction",
    "subgrad": "subgradient",
    "coef": "coefficient",
    "coeff": "coefficient",
    "coefs": "coefficients",
    "coeffs": "coefficients",
    "vec": "vector",
    "vecs": "vectors",
    "gauss": "gaussian",
    "orig": "original",
    "proj": "projection",
    "projs": "projections",
    "sim": "similarity",
    "sims": "similarities",
    "obj": "objective",
    "prec": "precision",
    "nonlin": "nonlinear",
    "distr": "distribution",
    "distn": "distribution",
}
_CLIPPED_RE = re.compile(r"(?<![\w/])(?:" + "|".join(_CLIPPED) + r")(?![\w/])", re.IGNORECASE)
#: A note's head term and the arrow after it ("RMSNorm -> LN minus the centering", "graded ->
#: differ"): at the text's start, after a full stop, semicolon, colon or line break.
_HEAD_ARROW = re.compile(
    r"(^|[.;:\n][^\S\n]*)((?:[^\W\d_][\w-]{0,20})(?:\s+[^\W\d_][\w-]{0,20})?)\s*(?:->|→|=>|⇒)(?=\s)"
)


def read_shorthand(text: str) -> str:
    """``text`` with the signs and clipped words of notes written out as words."""
    text = _HEAD_ARROW.sub(r"\1\2:", text)
    text = _CROSS.sub("cross-entropy H(", _ENTROPY.sub("entropy H(", text))
    text = _NORMAL.sub("normal N(", text)
    text = _PRIOR.sub(r"prior \g<0>", _POSTERIOR.sub(r"posterior \g<0>", text))
    text = _BAR.sub("mean", _AVERAGE.sub(" average ", text))
    budget = [MAX_SIGNS_READ]

    def spelt(words: str) -> Callable[[re.Match[str]], str]:
        def say(match: re.Match[str]) -> str:
            if budget[0] <= 0:
                return match.group()  # past the budget a sign stays a sign
            budget[0] -= 1
            return words

        return say

    for sign, words in _SIGN_WORDS:
        text = sign.sub(spelt(words), text)
    text = _SAME.sub(" the same as ", text)
    text = _AT_MOST.sub(" at most", _AT_LEAST.sub(" at least", text))
    text = _FLOPS.sub("FLOPs", text)
    text = _PRIME.sub(lambda m: f"{m.group(1) or m.group(2)} prime", text)
    text = _GRAD_OF.sub("gradient ", text)
    text = _ROUND_PLURAL.sub(_plural, text)
    text = _COUNT.sub(" number of ", text)
    text = _PER.sub(r"\1 per ", text)
    text = _CAPITAL.sub(_capital, text)
    return _CLIPPED_RE.sub(_clipped, text)


def _plural(match: re.Match[str]) -> str:
    return _ROUND_PLURALS[match.group(1).lower()]


def _capital(match: re.Match[str]) -> str:
    return _CAPITALS[match.group()]


def _clipped(match: re.Match[str]) -> str:
    return _CLIPPED[match.group().lower()]
