"""Whether a learner's text divides (or multiplies, scales) by another thing than the point does.

A point's model sentence may say what is divided by what: "Dividing by √d_k brings the logit
variance back to one", "Dividing by 1 − β^t rescales each to an unbiased estimate". A learner
who writes the same operation with another operand of the same names ("dividing the logits by
*d_k* itself brings their variance back to one", "the correction divides by *β^t*") uses the
point's words and states something false; the words alone would credit it.

Only an operand written as math right after the operation's "by" counts, and only one sharing a
name with the model sentence's operand of the same operation and written differently from every
such operand ("by sqrt(d_k)" is "by √d_k"; "by the square root of d_k" is prose, left to the
words; "by 8" shares no name with √d_k and may be its value). The comparison is of spellings
folded to one form (Greek names to letters, ``sqrt`` to ``√``, brackets, spaces and products
dropped): linear, no engine call.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from recall.grading.explain_formulas import formula_spans

#: The operations compared, by the beginning of their verb.
_OPERATION = re.compile(r"\b(divid|multipl|rescal|scal)\w*\b[^.;!?\n]{0,40}?\bby\s+", re.IGNORECASE)
_GREEK = {
    "alpha": "α",
    "beta": "β",
    "gamma": "γ",
    "delta": "δ",
    "epsilon": "ε",
    "eps": "ε",
    "eta": "η",
    "theta": "θ",
    "lambda": "λ",
    "mu": "μ",
    "sigma": "σ",
    "tau": "τ",
    "phi": "φ",
    "rho": "ρ",
}
_GREEK_RE = re.compile(r"(?<![a-z])(" + "|".join(_GREEK) + r")(?![a-z])")
#: A Greek letter's index, typed without a subscript key (``β1^t`` is β₁ᵗ, Adam's β^t).
_GREEK_INDEX = re.compile(r"([α-ω])\d+")
_DROPPED = re.compile(r"[\s_*·×()\[\]{}]")
_NAME = re.compile(r"[^\W\d_]+")
#: How many characters of a text are searched for operations (the explanation's own limit
#: applies before; this bounds the work per point).
MAX_TEXT = 4000


#: Where an operand ends inside a span read as math ("sqrt(d_k) -> logit var back to 1").
_OPERAND_END = re.compile(r"->|→|=>|⇒|=|,")
#: A hat written out ("v-hat", "v_hat"), which a typed operand spells where the sentence has v̂.
_HAT = re.compile(r"[-_ ]?hat\b")


def _folded(span: str) -> str:
    """An operand in one spelling: no accents or hats (``v̂``, ``v-hat`` and ``v`` are one),
    Greek names as letters and without their index, ``sqrt``/``root`` as ``√``, no brackets,
    spaces or products."""
    text = _OPERAND_END.split(span, maxsplit=1)[0].lower().replace("−", "-")
    text = unicodedata.normalize("NFKD", _HAT.sub("", text))
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = unicodedata.normalize("NFKC", text).replace("sqrt", "√").replace("root", "√")
    text = _DROPPED.sub("", _GREEK_RE.sub(lambda m: _GREEK[m.group(1)], text))
    return _GREEK_INDEX.sub(r"\1", text)


@lru_cache(maxsize=64)
def operands(text: str) -> tuple[tuple[str, str], ...]:
    """The text's operations with a math operand right after their "by": (the operation's
    stem, the operand folded). Read once per text, however many points ask."""
    return _operands(text)


@lru_cache(maxsize=1 << 10)
def _say_operands(say: str) -> tuple[tuple[str, str], ...]:
    return _operands(say)


def _operands(text: str) -> tuple[tuple[str, str], ...]:
    text = text[:MAX_TEXT]
    if _OPERATION.search(text) is None:
        return ()
    spans = formula_spans(text)
    found = []
    for match in _OPERATION.finditer(text):
        span = next((s for s in spans if text.startswith(s, match.end())), None)
        if span is not None:
            found.append((match.group(1).lower(), _folded(span)))
    return tuple(found)


def wrong_operand(say: str, text: str) -> str | None:
    """The text's operand of an operation the model sentence ``say`` performs, written with
    the same names as the sentence's operand but differently from every one of them, where
    the text never writes the right one; ``None`` when there is none (or the sentence
    performs no operation on math)."""
    said = _say_operands(say)
    if not said:
        return None
    written = operands(text)
    for operation, operand in written:
        own = [o for op, o in said if op == operation]
        if not own or any(op == operation and o in own for op, o in written):
            continue  # the right operand is written too ("not by d_k but by √d_k")
        names = set(_NAME.findall(operand))
        if any(names & set(_NAME.findall(o)) for o in own):
            return operand
    return None
