"""Units on numeric and fact answers: ``17.6 GB``, ``17600 MB``, ``8x``, ``45%``, ``7B params``.

A card states the unit its answer is in (``unit = "GB"``, ``"×"``, ``"% of peak"``,
``"FLOPs/token"``, ``"parameters"``). A learner may type the number bare (it is then in the
card's unit) or with the card's unit or a compatible one, which is converted before grading:

* memory: ``B``, ``KB`` … ``PB`` (powers of 1000), ``KiB`` … ``PiB`` (powers of 1024), and ``bits``
  (an eighth of a byte) on a memory card;
* compute: ``FLOP``, ``FLOPs`` with ``k M G T P E Z Y`` prefixes (``FLOP/s`` is a rate, not a
  count);
* plain ratios: ``%`` (``percent``), ``×`` (``x``, ``times``, ``fold``) and no unit at all;
* information: ``bits`` and ``nats`` (never converted into each other: a card that asks in bits
  is asking for the log base too), angles in ``rad``;
* counts: the card's noun (``parameters``, ``tokens``, ``KV heads``), in singular or plural or a
  usual short form (``params``), after a number that may carry ``k M B T`` or ``thousand`` …
  ``trillion`` (read by the engine's number grammar);
* a rate ``X/Y`` or ``X per Y`` converts ``X`` and needs the card's ``Y`` (or none).

A unit of another kind (``GB`` on a parameter count, ``nats`` on a bits card) is reported as a
:class:`UnitMismatch` with the reason, which grading turns into an *invalid* verdict. Words this
module does not know as units are left in the text for the engine, so ``2pi`` and ``log(2)``
still read as numbers. Pure and stdlib-only: no number is evaluated here; the number part is
returned as text for the engine and the conversion as an exact :class:`~fractions.Fraction`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from recall.wording import unit_for

_SI = {
    "": 0,
    "k": 3,
    "K": 3,
    "M": 6,
    "G": 9,
    "T": 12,
    "P": 15,
    "E": 18,
    "Z": 21,
    "Y": 24,
}
_BINARY = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50}

#: Kinds of quantity, as the learner reads them in a reason.
_KIND_WORDS = {
    "memory": "memory",
    "compute": "compute",
    "ratio": "a plain ratio",
    "bits": "information in bits",
    "nats": "information in nats",
    "angle": "an angle",
    "count": "a count",
}

#: Count nouns and their usual spellings, by the singular the card unit is compared on.
_NOUNS: dict[str, tuple[str, ...]] = {
    "parameter": ("parameter", "parameters", "param", "params"),
    "token": ("token", "tokens", "tok"),
    "step": ("step", "steps"),
    "head": ("head", "heads"),
    "unit": ("unit", "units"),
    "character": ("character", "characters", "char", "chars"),
    "hour": ("hour", "hours", "h"),
    "layer": ("layer", "layers"),
    "sample": ("sample", "samples"),
    "example": ("example", "examples"),
    "second": ("second", "seconds", "s", "sec"),
}
_NOUN_OF = {spelling.lower(): noun for noun, spellings in _NOUNS.items() for spelling in spellings}


@dataclass(frozen=True)
class Unit:
    """One unit: its kind and its size in the kind's base unit (bytes, FLOPs, 1, bits, ...).
    ``noun`` names what a count counts (``parameter``)."""

    kind: str
    scale: Fraction = Fraction(1)
    noun: str = ""


@dataclass(frozen=True)
class CardUnit:
    """A card's ``unit`` as written: the measure (``None`` for a unitless card), what a rate is
    per (``token``), and the words after it (``of peak``)."""

    text: str
    unit: Unit
    per: str = ""
    label: str = ""

    @property
    def is_percent(self) -> bool:
        return self.unit.kind == "ratio" and self.unit.scale == Fraction(1, 100)


@dataclass(frozen=True)
class Quantity:
    """A typed answer split into the number (text, for the engine) and its unit.

    ``factor`` converts the typed number into the card's unit; ``unit`` is the unit as typed
    (empty for a bare number) and ``column`` where it starts.
    """

    number: str
    factor: Fraction = Fraction(1)
    unit: str = ""
    column: int = 0

    def engine_text(self) -> str:
        """The number in the card's unit, as text the engine's number grammar reads exactly."""
        if self.factor == 1:
            return self.number
        return f"({self.number})*({self.factor.numerator}/{self.factor.denominator})"


@dataclass(frozen=True)
class UnitMismatch:
    """A unit the card cannot take, with the reason and the column where it starts."""

    message: str
    column: int


def _measure(word: str, memory_card: bool) -> Unit | None:
    """The unit one word names, or ``None``. ``bit`` is an eighth of a byte on a memory card
    and information elsewhere; ``B`` alone is a byte only on a memory card (elsewhere it is the
    engine's "billion")."""
    low = word.lower()
    if word == "%" or low == "percent":
        return Unit("ratio", Fraction(1, 100))
    if word in ("×", "x", "X") or low in ("times", "fold"):
        return Unit("ratio")
    if low in ("bit", "bits"):
        return Unit("memory", Fraction(1, 8)) if memory_card else Unit("bits")
    if low in ("nat", "nats"):
        return Unit("nats")
    if low in ("rad", "rads", "radian", "radians"):
        return Unit("angle")
    if low in ("byte", "bytes") or (word == "B" and memory_card):
        return Unit("memory")
    flops = re.fullmatch(r"([kKMGTPEZY]?)(?:FLOPS|FLOPs|FLOP|Flops|Flop|flops|flop)", word)
    if flops:
        return Unit("compute", Fraction(10) ** _SI[flops.group(1)])
    binary = re.fullmatch(r"([KMGTP]i)B", word)
    if binary:
        return Unit("memory", Fraction(2) ** _BINARY[binary.group(1)])
    decimal = re.fullmatch(r"([kKMGTPE])B|([kmgtpe])b", word)
    if decimal:
        return Unit("memory", Fraction(10) ** _SI[(decimal.group(1) or decimal.group(2)).upper()])
    noun = _NOUN_OF.get(low)
    return Unit("count", noun=noun) if noun is not None else None


def _noun(phrase: str) -> str:
    """The count noun a phrase ends in (``KV heads`` → ``head``, ``GPU-hours`` → ``hour``), or
    the phrase itself, lowercased, when it is not a known noun."""
    last = re.split(r"[\s\-]+", phrase.strip())[-1]
    return _NOUN_OF.get(last.lower(), phrase.strip().lower())


def _split_per(text: str) -> tuple[str, str, str]:
    """``FLOPs/token`` and ``tokens per param`` → (head, per noun, words after it)."""
    match = re.match(r"^(?P<head>.*?)\s*(?:/|\bper\s)\s*(?P<per>[^\s/]+)\s*(?P<rest>.*)$", text)
    if match is None or not match["head"]:
        return text.strip(), "", ""
    return match["head"].strip(), _noun(match["per"]), match["rest"].strip()


def card_unit(text: str) -> CardUnit:
    """Read a card's ``unit`` string: ``GB``, ``×``, ``% of peak``, ``FLOPs/token``,
    ``tokens/param``, ``KV heads``, ``GPU-hours`` (anything unknown is a count noun)."""
    stripped = " ".join(text.split())
    if not stripped:
        return CardUnit("", Unit("ratio"))
    head, per, label = _split_per(stripped)
    words = head.split(" ")
    if words[0].startswith("%") and len(words[0]) > 1:
        words = ["%", words[0][1:], *words[1:]]
    first = words[0]
    unit = Unit("memory") if first == "B" else _measure(first, memory_card=False)
    if unit is not None and unit.kind != "count":
        label = " ".join([*words[1:], label]).strip()
    else:
        unit = Unit("count", noun=_noun(head))
    return CardUnit(stripped, unit, per, label)


#: A unit after a number: words, ``%``, ``×``, with ``/`` or ``per``; the number before it ends
#: in a digit, a point, a closing bracket, ``%`` or a space.
_TAIL = re.compile(
    r"(?<=[\d.)%\s])\s*(?![eE][+\-]?\d)(?P<unit>(?:%|×|[^\W\d_][\w\-]*)(?:\s*/?\s*(?:%|[^\W\d_][\w\-]*))*)\s*$"
)


def _describe(unit: Unit) -> str:
    if unit.kind == "count":
        return f"a number of {unit.noun}s"
    return _KIND_WORDS[unit.kind]


def _parse_unit(typed: str, target: CardUnit) -> tuple[Unit, str, str] | None:
    """The unit a typed phrase names (``GB``, ``FLOPs/token``, ``tokens per param``,
    ``% of peak``, ``KV heads``), what it is per, and any words after it; ``None`` when it does
    not start with a unit."""
    head, per, rest = _split_per(typed)
    words = head.split(" ")
    if words[0].startswith("%") and len(words[0]) > 1:
        words = ["%", words[0][1:], *words[1:]]
    unit = _measure(words[0], memory_card=target.unit.kind == "memory")
    if unit is not None and unit.kind != "count":
        if words[0] in ("x", "X") and (len(words) > 1 or per):
            return None  # "x y" is not a factor
        return unit, per, " ".join([*words[1:], rest]).strip()
    if target.unit.kind == "count" and _noun(head) == target.unit.noun:
        return Unit("count", noun=target.unit.noun), per, rest
    if unit is not None and len(words) == 1:
        return unit, per, rest  # another count ("tokens" on a parameter card)
    return None


def read_quantity(text: str, card: str | CardUnit) -> Quantity | UnitMismatch:
    """Split ``text`` into its number and unit and convert to the card's unit.

    A bare number is in the card's unit. Words that are not units (``pi``, a typo) are left in
    the number for the engine to read or report; a unit of another kind is a
    :class:`UnitMismatch` with the reason.
    """
    target = card if isinstance(card, CardUnit) else card_unit(card)
    stripped = text.strip()
    match = _TAIL.search(stripped)
    if match is None:
        return Quantity(stripped)
    start = match.start("unit")
    # A scale word or suffix belongs to the number: "7 billion tokens", "7B params".
    while (
        scale := re.match(
            r"(thousand|million|billion|trillion|[kKMBGT])(?![\w])\s*", stripped[start:]
        )
    ) and not (scale.group(1) == "B" and target.unit.kind == "memory"):
        start += scale.end()
    typed = " ".join(stripped[start:].split())
    if not typed:
        return Quantity(stripped)
    parsed = _parse_unit(typed, target)
    if parsed is None:
        return Quantity(stripped)  # not a unit: the engine reads (and reports) it
    unit, per, label = parsed
    number = stripped[:start].strip()
    reason = _mismatch(unit, per, label, typed, target)
    if reason is not None:
        return UnitMismatch(reason, start)
    return Quantity(number, unit.scale / target.unit.scale, typed, start)


def _mismatch(unit: Unit, per: str, label: str, typed: str, target: CardUnit) -> str | None:
    want = target.unit
    if not target.text:
        return (
            None
            if unit.kind == "ratio" and not per
            else (f"This card takes a plain number, not {typed}.")
        )
    same = unit.kind == want.kind and (unit.kind != "count" or unit.noun == want.noun)
    if not same and (unit.kind == "count" or want.kind == "count"):
        return f"This card's answer is in {target.text}, not {typed}."
    if not same:
        return f"This card's answer is in {target.text}; {typed} is {_describe(unit)}."
    if per and per != target.per:
        return f"This card's answer is in {target.text}, not per {per}."
    if label and label.lower() != target.label.lower():
        return f"This card's answer is in {target.text}: type the number and its unit only."
    return None


def fraction_hint(
    quantity: Quantity, value: float | Fraction | None, card: str | CardUnit, accepted: list[float]
) -> str | None:
    """The "did you mean 45%?" for a bare ``0.45`` (``value``, as the engine read ``quantity``) on
    a percent card whose accepted values are all at least 1: the learner wrote the fraction, not
    the percentage. ``None`` when the reading is not in doubt: a unit was typed, the card is not
    a percent card, or its answer is itself below 1%."""
    target = card if isinstance(card, CardUnit) else card_unit(card)
    if quantity.unit or value is None or not target.is_percent or not accepted:
        return None
    number = float(value)
    if min(accepted) < 1 or not 0 < abs(number) < 1:
        return None
    return f"This card asks for a percentage: did you mean {number * 100:.6g}%?"


def with_unit(number: str, card: str | CardUnit) -> str:
    """A number shown with the card's unit exactly once: ``45%``, ``8×``, ``2 bytes``, ``1 byte``,
    ``10% of peak`` (text that already ends in the unit is returned as it is)."""
    target = card if isinstance(card, CardUnit) else card_unit(card)
    text = number.strip()
    unit = unit_for(text, target.text)
    if not target.text or text.endswith((target.text, unit_for("1", target.text))):
        return text
    if target.text.startswith(("%", "×")):
        return f"{text}{target.text}"
    return f"{text} {unit}"
