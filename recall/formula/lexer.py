"""Split typed math into tokens, with the column of each, under hard size bounds.

The lexer is where the forgiving parts of the syntax live: Unicode operators (``×``, ``·``,
``−``), superscript digits, Greek letters, and, in numeric answers only, the ways people write
big numbers (``6.4×10^9``, ``6.4 billion``, ``512k``, ``1,000,000``, ``40%``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from recall.errors import LimitError, ParseError
from recall.formula.names import GREEK, canonical_name

MAX_LENGTH = 2000
MAX_DIGITS = 40
MAX_LITERAL_EXPONENT = 1000

OPERATORS = {
    "+": "+",
    "-": "-",
    "−": "-",
    "–": "-",
    "*": "*",
    "×": "*",
    "·": "*",
    "⋅": "*",
    "∗": "*",
    "/": "/",
    "÷": "/",
    "^": "^",
}
OPEN = {"(": ")", "[": "]"}
CLOSE = {")": "(", "]": "["}
SUPERSCRIPTS = {
    "⁰": "0",
    "¹": "1",
    "²": "2",
    "³": "3",
    "⁴": "4",
    "⁵": "5",
    "⁶": "6",
    "⁷": "7",
    "⁸": "8",
    "⁹": "9",
}
SUFFIXES = {"k": 3, "K": 3, "M": 6, "B": 9, "G": 9, "T": 12}
WORDS = {"thousand": 3, "million": 6, "billion": 9, "trillion": 12}


@dataclass(frozen=True, slots=True)
class Token:
    """One token: ``kind`` is ``num``, ``name``, ``op``, ``open``, ``close``, ``comma``, ``bar``
    or ``end``; ``pos`` is the 0-based column; ``space`` says whitespace came before it."""

    kind: str
    text: str
    pos: int
    space: bool = False
    value: Fraction | None = None
    prefix: bool = False  # a name written as a prefix operator (√x)


def _is_ascii_letter(char: str) -> bool:
    return ("a" <= char <= "z") or ("A" <= char <= "Z")


class Lexer:
    """Turns a string into a list of :class:`Token`; ``numeric`` enables number shorthands."""

    def __init__(self, text: str, *, numeric: bool = False) -> None:
        if len(text) > MAX_LENGTH:
            raise LimitError(
                f"answer too long ({len(text):,} characters; the limit is {MAX_LENGTH:,})",
                text[:80],
                None,
            )
        self.text = text
        self.numeric = numeric
        self.pos = 0
        self.tokens: list[Token] = []
        self.depth = 0
        # Brackets open so far (kept as tokens are added: counting them again at every number
        # made a long answer's lexing quadratic).
        self.open_brackets = 0

    def error(self, message: str, pos: int | None = None) -> ParseError:
        return ParseError(message, self.text, self.pos if pos is None else pos)

    def run(self) -> list[Token]:
        text = self.text
        n = len(text)
        space = False
        while self.pos < n:
            char = text[self.pos]
            if char in " \t\n\r\u00a0":
                self.pos += 1
                space = True
                continue
            start = self.pos
            if char.isdigit() and char.isascii() or (char == "." and self._digit_at(self.pos + 1)):
                self._number(space)
            elif _is_ascii_letter(char) or char in GREEK:
                self._name(space)
            elif char in OPERATORS:
                if char == "*" and text.startswith("**", start):
                    self._add("op", "^", start, space)
                    self.pos += 2
                else:
                    self._add("op", OPERATORS[char], start, space)
                    self.pos += 1
            elif char in SUPERSCRIPTS:
                # A run of superscript digits is one exponent: x²³ is x^23.
                end = start
                while end < n and text[end] in SUPERSCRIPTS:
                    end += 1
                digits = "".join(SUPERSCRIPTS[c] for c in text[start:end])
                self._add("op", "^", start, space)
                self.tokens.append(Token("num", digits, start, False, Fraction(int(digits))))
                self.pos = end
            elif char in OPEN:
                self._add("open", char, start, space)
                self.pos += 1
            elif char in CLOSE:
                self._add("close", char, start, space)
                self.pos += 1
            elif char == ",":
                self._add("comma", ",", start, space)
                self.pos += 1
            elif char == "|":
                self._add("bar", "|", start, space)
                self.pos += 1
            elif char == "√":
                self.tokens.append(Token("name", "sqrt", start, space, prefix=True))
                self.pos += 1
            elif char == "%":
                raise self.error("'%' is only allowed right after a number in a numeric answer")
            elif char == "=":
                raise self.error("type only the expression, without '=' (the left side is given)")
            else:
                shown = char if char.isprintable() else f"U+{ord(char):04X}"
                raise self.error(f"unexpected character '{shown}'")
            space = False
        self.tokens.append(Token("end", "", n, space))
        return self.tokens

    def _add(self, kind: str, text: str, pos: int, space: bool) -> None:
        if kind == "open":
            self.open_brackets += 1
        elif kind == "close":
            self.open_brackets -= 1
        self.tokens.append(Token(kind, text, pos, space))

    def _digit_at(self, index: int) -> bool:
        return index < len(self.text) and self.text[index].isascii() and self.text[index].isdigit()

    def _digits(self) -> str:
        start = self.pos
        while self._digit_at(self.pos):
            self.pos += 1
        return self.text[start : self.pos]

    def _number(self, space: bool) -> None:
        text = self.text
        start = self.pos
        whole = self._digits()
        # Digit groups: "1,000,000" (only where a comma cannot separate arguments).
        if self.numeric or not self._inside_brackets():
            while (
                text.startswith(",", self.pos)
                and len(whole.split(",")[0]) <= 3
                and not whole.startswith("0")  # "0,001" is a decimal comma: refused below
                and self._group_follows(self.pos + 1)
            ):
                self.pos += 1
                whole += "," + self._digits()
        frac = ""
        if text.startswith(".", self.pos) and (self._digit_at(self.pos + 1) or whole):
            self.pos += 1
            frac = self._digits()
        exponent = 0
        if self.pos < len(text) and text[self.pos] in "eE":
            look = self.pos + 1
            if look < len(text) and text[look] in "+-−":
                look += 1
            if self._digit_at(look):
                sign = -1 if text[self.pos + 1] in "-−" else 1
                self.pos = look
                exp_text = self._digits()
                if len(exp_text) > 5 or int(exp_text) > MAX_LITERAL_EXPONENT:
                    raise LimitError(
                        f"exponent too large in '{text[start : self.pos]}' (at most "
                        f"{MAX_LITERAL_EXPONENT})",
                        text,
                        start,
                    )
                exponent = sign * int(exp_text)
        digits = whole.replace(",", "") + frac
        if len(digits.lstrip("0")) > MAX_DIGITS:
            raise LimitError(f"number too long (more than {MAX_DIGITS} digits)", text, start)
        value = Fraction(int(digits or "0"), 10 ** len(frac)) * Fraction(10) ** exponent
        if self.numeric:
            value = self._numeric_tail(value, start)
        self.tokens.append(Token("num", text[start : self.pos], start, space, value))

    def _group_follows(self, index: int) -> bool:
        """Three digits and then no further digit: a thousands group."""
        return all(self._digit_at(index + k) for k in range(3)) and not self._digit_at(index + 3)

    def _inside_brackets(self) -> bool:
        return self.open_brackets > 0

    def _numeric_tail(self, value: Fraction, start: int) -> Fraction:
        """Scientific ``×10^k``, suffixes ``k M B G T``, number words, and ``%``."""
        text = self.text
        n = len(text)
        # 6.4×10^9, 6.4x10^9, 6.4 × 10^9
        look = self.pos
        while look < n and text[look] == " ":
            look += 1
        if look < n and text[look] in "x×X*·":
            after = look + 1
            while after < n and text[after] == " ":
                after += 1
            if text.startswith("10^", after) or text.startswith("10**", after):
                after += 3 if text.startswith("10^", after) else 4
                sign = 1
                if after < n and text[after] in "+-−":
                    sign = -1 if text[after] != "+" else 1
                    after += 1
                paren = after < n and text[after] == "("
                if paren:
                    after += 1
                    if after < n and text[after] in "+-−":
                        sign = -1 if text[after] != "+" else 1
                        after += 1
                begin = after
                while self._digit_at(after):
                    after += 1
                if after > begin:
                    if paren:
                        if after < n and text[after] == ")":
                            after += 1
                        else:
                            raise self.error("missing ')' after the exponent", after)
                    power = int(text[begin:after].rstrip(")") or "0")
                    if power > MAX_LITERAL_EXPONENT:
                        raise LimitError(
                            f"exponent too large (at most {MAX_LITERAL_EXPONENT})", text, begin
                        )
                    self.pos = after
                    return value * Fraction(10) ** (sign * power)
        # 512k, 4M, 2T: a suffix letter glued to the number, not starting a longer name.
        if self.pos < n and text[self.pos] in SUFFIXES:
            nxt = self.pos + 1
            if nxt >= n or not (_is_ascii_letter(text[nxt]) or self._digit_at(nxt)):
                value *= Fraction(10) ** SUFFIXES[text[self.pos]]
                self.pos += 1
                return self._percent(value)
        # 6.4 billion
        look = self.pos
        while look < n and text[look] == " ":
            look += 1
        for word, power in WORDS.items():
            end = look + len(word)
            if text[look:end].lower() == word and (end >= n or not _is_ascii_letter(text[end])):
                self.pos = end
                return value * Fraction(10) ** power
        return self._percent(value)

    def _percent(self, value: Fraction) -> Fraction:
        look = self.pos
        while look < len(self.text) and self.text[look] == " ":
            look += 1
        if look < len(self.text) and self.text[look] == "%":
            self.pos = look + 1
            return value / 100
        return value

    def _name(self, space: bool) -> None:
        text = self.text
        start = self.pos
        n = len(text)
        if text[self.pos] in GREEK:
            self.pos += 1
        else:
            while self.pos < n and (_is_ascii_letter(text[self.pos]) or self._digit_at(self.pos)):
                self.pos += 1
        # Subscript segments: _k, _hat, _1, _σ
        while self.pos + 1 < n and text[self.pos] == "_":
            nxt = text[self.pos + 1]
            if nxt in GREEK:
                self.pos += 2
            elif _is_ascii_letter(nxt) or self._digit_at(self.pos + 1):
                self.pos += 1
                while self.pos < n and (
                    _is_ascii_letter(text[self.pos]) or self._digit_at(self.pos)
                ):
                    self.pos += 1
            else:
                break
        if self.pos < n and text[self.pos] == "_":
            raise self.error("a subscript needs letters or digits after '_'", self.pos)
        while self.pos < n and text[self.pos] in "'′":
            self.pos += 1
        raw = text[start : self.pos].replace("′", "'")
        self.tokens.append(Token("name", canonical_name(raw), start, space))


def tokenize(text: str, *, numeric: bool = False) -> list[Token]:
    """The tokens of ``text``; raises :class:`ParseError` (or :class:`LimitError`)."""
    return Lexer(text, numeric=numeric).run()
