"""Split typed math into tokens, with the column of each, under hard size bounds.

The lexer is where the forgiving parts of the syntax live: Unicode operators (``×``, ``·``,
``−``), superscript digits, Greek letters, and, in numeric answers only, the ways people write
big numbers (``6.4×10^9``, ``6.4 billion``, ``512k``, ``1,000,000``, ``40%``).
"""

from __future__ import annotations

import unicodedata
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
#: Superscript signs and letters inside a superscript run (``x⁻¹``, ``eⁿ``): the run is the
#: exponent, read as if typed in parentheses after ``^``.
SUPERSCRIPT_SIGNS = {"⁻": "-", "⁺": "+", "ⁿ": "n", "ⁱ": "i", "ᵗ": "t", "ᵏ": "k", "ˣ": "x"}
#: Subscripts glued to a name, as the screen renders them (``W₁``, ``dₖ``, ``x₀``, ``βₜ``).
SUBSCRIPTS = {
    **{chr(0x2080 + digit): str(digit) for digit in range(10)},
    "ₐ": "a",
    "ₑ": "e",
    "ₒ": "o",
    "ₓ": "x",
    "ₕ": "h",
    "ₖ": "k",
    "ₗ": "l",
    "ₘ": "m",
    "ₙ": "n",
    "ₚ": "p",
    "ₛ": "s",
    "ₜ": "t",
    "ᵢ": "i",
    "ⱼ": "j",
    "ᵣ": "r",
    "ᵤ": "u",
    "ᵥ": "v",
}
#: Accents over a letter (a combining mark, or a letter that decomposes into one: ``ŷ``,
#: ``ȳ``, ``ᾱ``, ``m̂``) and the name suffix each one is typed as.
ACCENT_MARKS = {"\u0302": "hat", "\u0304": "bar", "\u0305": "bar", "\u0303": "tilde"}
#: Vulgar fractions the screen shows (``½δ``, ``¼``): each is its number.
VULGAR_FRACTIONS = {
    "½": Fraction(1, 2),
    "⅓": Fraction(1, 3),
    "⅔": Fraction(2, 3),
    "¼": Fraction(1, 4),
    "¾": Fraction(3, 4),
    "⅕": Fraction(1, 5),
    "⅖": Fraction(2, 5),
    "⅗": Fraction(3, 5),
    "⅘": Fraction(4, 5),
    "⅙": Fraction(1, 6),
    "⅚": Fraction(5, 6),
    "⅐": Fraction(1, 7),
    "⅛": Fraction(1, 8),
    "⅜": Fraction(3, 8),
    "⅝": Fraction(5, 8),
    "⅞": Fraction(7, 8),
    "⅑": Fraction(1, 9),
    "⅒": Fraction(1, 10),
}
#: Relations and arrows a prompt shows around a formula; an answer is only the expression.
RELATIONS = frozenset("=≈≃≅≡≠<>≤≥≲≳≻≺∝∈∉←→⇒⇐↔⇔↦∼~")
#: Notation a prompt shows that no answer here contains, and what to type instead.
NOTATION = {
    "▢": "'▢' marks the blank: type only what goes in it",
    "∂": "'∂' is derivative notation: type the derivative itself",
    "∇": "'∇' is gradient notation: type the gradient itself",
    "∞": "'∞' is not a value an answer can use here",
    "±": "'±' stands for two answers: type one sign",
    "…": "'…' stands for terms left out: type every term",
    "ᵀ": "'ᵀ' (transpose) is matrix notation: answers here are about single entries",
    "⊙": "'⊙' is matrix notation: answers here are about single entries; type '*'",
    "‖": "'‖' is the prompt's notation (a divergence or a norm): type the expression itself",
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
    raw: str = ""  # a name as typed (``σ₁`` for the name ``sigma_1``)


def accented(char: str) -> tuple[str, str] | None:
    """``ŷ`` → ``("y", "hat")``, ``ᾱ`` → ``("α", "bar")``: a letter with one accent recall
    reads as a name suffix, or ``None``."""
    parts = unicodedata.normalize("NFD", char)
    if len(parts) != 2 or parts[1] not in ACCENT_MARKS:
        return None
    base = parts[0]
    if not (_is_ascii_letter(base) or base in GREEK):
        return None
    return base, ACCENT_MARKS[parts[1]]


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
            elif _is_ascii_letter(char) or char in GREEK or accented(char) is not None:
                self._name(space)
            elif char in VULGAR_FRACTIONS:
                if self.tokens and self.tokens[-1].kind == "num" and not space:
                    whole, part = self.tokens[-1].text, VULGAR_FRACTIONS[char]
                    raise self.error(
                        f"'{whole}{char}' could be {whole} + {part} or {whole}·{part}: "
                        f"write {whole} + {part} or {whole}*{part}"
                    )
                value = VULGAR_FRACTIONS[char]
                self.tokens.append(Token("num", char, start, space, value))
                self.pos += 1
            elif char in OPERATORS:
                if char == "*" and text.startswith("**", start):
                    self._add("op", "^", start, space)
                    self.pos += 2
                else:
                    self._add("op", OPERATORS[char], start, space)
                    self.pos += 1
            elif char in SUPERSCRIPTS or char in SUPERSCRIPT_SIGNS:
                self._superscript(start, space)
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
            elif char in RELATIONS:
                raise self.error(
                    f"type only the expression, without '{char}' (the left side is given)"
                )
            elif char in NOTATION:
                raise self.error(NOTATION[char])
            else:
                shown = char if char.isprintable() else f"U+{ord(char):04X}"
                raise self.error(f"unexpected character '{shown}'")
            space = False
        self.tokens.append(Token("end", "", n, space))
        return self.tokens

    def _superscript(self, start: int, space: bool) -> None:
        """A run of superscripts is one exponent: ``x²³`` is ``x^23``, ``x⁻¹`` is ``x^(-1)``,
        ``eⁿ`` is ``e^(n)``."""
        text = self.text
        end = start
        while end < len(text) and (text[end] in SUPERSCRIPTS or text[end] in SUPERSCRIPT_SIGNS):
            end += 1
        run = "".join(SUPERSCRIPTS.get(c) or SUPERSCRIPT_SIGNS[c] for c in text[start:end])
        self._add("op", "^", start, space)
        if run.isdigit():
            self.tokens.append(Token("num", run, start, False, Fraction(int(run))))
        else:
            self._add("open", "(", start, False)
            for token in Lexer(run).run()[:-1]:
                self._add(token.kind, token.text, start + token.pos, False)
                if token.kind == "num":
                    self.tokens[-1] = Token(
                        "num", token.text, start + token.pos, False, token.value
                    )
            self._add("close", ")", end - 1, False)
        self.pos = end

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
        pieces: list[str] = []
        first = accented(text[self.pos])
        if first is not None:  # ŷ, ȳ, ᾱ: the letter and its accent as a suffix
            pieces.append(f"{first[0]}_{first[1]}")
            self.pos += 1
        elif text[self.pos] in GREEK:
            pieces.append(text[self.pos])
            self.pos += 1
        else:
            begin = self.pos
            while self.pos < n and (_is_ascii_letter(text[self.pos]) or self._digit_at(self.pos)):
                self.pos += 1
            pieces.append(text[begin : self.pos])
        # An accent typed as a combining mark after the letter: m̂, x̄, x̃.
        while self.pos < n and text[self.pos] in ACCENT_MARKS:
            pieces.append("_" + ACCENT_MARKS[text[self.pos]])
            self.pos += 1
        # Subscript segments: _k, _hat, _1, _σ, and subscripts as the screen shows them (W₁, dₖ)
        while self.pos < n:
            if text[self.pos] in SUBSCRIPTS:
                begin = self.pos
                while self.pos < n and text[self.pos] in SUBSCRIPTS:
                    self.pos += 1
                pieces.append("_" + "".join(SUBSCRIPTS[c] for c in text[begin : self.pos]))
                continue
            if self.pos + 1 >= n or text[self.pos] != "_":
                break
            nxt = text[self.pos + 1]
            if nxt in GREEK:
                pieces.append(text[self.pos : self.pos + 2])
                self.pos += 2
            elif _is_ascii_letter(nxt) or self._digit_at(self.pos + 1):
                begin = self.pos
                self.pos += 1
                while self.pos < n and (
                    _is_ascii_letter(text[self.pos]) or self._digit_at(self.pos)
                ):
                    self.pos += 1
                pieces.append(text[begin : self.pos])
            else:
                break
        if self.pos < n and text[self.pos] == "_":
            raise self.error("a subscript needs letters or digits after '_'", self.pos)
        while self.pos < n and text[self.pos] in "'′":
            pieces.append("'")
            self.pos += 1
        raw = "".join(pieces)
        typed = text[start : self.pos]
        self.tokens.append(Token("name", canonical_name(raw), start, space, raw=typed))


def spellings(text: str) -> dict[str, str]:
    """How the learner spelled each name that is not plain ASCII (``sigma`` → ``σ``, ``x_0``
    → ``x₀``, ``m_hat_t`` → ``m̂_t``), the first spelling of each; ``{}`` for text that does
    not lex. Feedback echoes the learner's notation with it."""
    try:
        tokens = Lexer(text).run()
    except ParseError:
        return {}
    found: dict[str, str] = {}
    for token in tokens:
        if token.kind == "name" and token.raw and token.raw != token.text:
            if not token.raw.isascii():
                found.setdefault(token.text, token.raw)
    return found


def tokenize(text: str, *, numeric: bool = False) -> list[Token]:
    """The tokens of ``text``; raises :class:`ParseError` (or :class:`LimitError`)."""
    return Lexer(text, numeric=numeric).run()
