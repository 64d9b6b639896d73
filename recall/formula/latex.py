"""Translate LaTeX math input into recall's plain typed syntax (``docs/syntax.md``).

Learners who think in LaTeX type ``\\frac{1}{1+e^{-x}}`` or ``\\hat{m}_t``; the engine's parser only
reads the plain syntax, so it calls :func:`latex_to_plain` first whenever :func:`looks_like_latex`
says so. The translation is text to text and never evaluates anything: a small tokenizer splits the
input into commands (``\\frac``) and single characters, and a recursive emitter walks those tokens
once, writing plain text as it goes.

Two deliberate departures from how TeX would typeset the input, both to read what a person meant:

* a run of letters and digits stays one name (``lr`` is the name ``lr``, not ``l*r``), exactly as in
  the plain syntax, so the parser's "did you mean l*r?" hint still applies;
* a bare superscript or subscript takes the whole run after it (``x^10`` is ``x^10``, ``d_model`` is
  ``d_model``), where TeX would take one character. Command arguments keep TeX's one-token rule
  (``\\frac12`` is one half), because that idiom is common in written formulas.

Whatever cannot be read raises :class:`recall.errors.ParseError` with the column (0-based, into the
LaTeX text) of the offending command or brace; size bounds raise :class:`recall.errors.LimitError`.
"""

from __future__ import annotations

from dataclasses import dataclass

from recall.errors import LimitError, ParseError

MAX_LENGTH = 2000
"""Longest LaTeX input read, in characters (the same bound as plain answers)."""

MAX_DEPTH = 64
"""Deepest nesting of braces and command arguments."""

_GREEK = {
    name: name
    for name in (
        "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi pi rho sigma "
        "tau upsilon phi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega"
    ).split()
}
# Variant glyphs name the same letter.
_GREEK.update(
    {f"var{name}": name for name in ("epsilon", "theta", "pi", "rho", "sigma", "phi")}, ell="ell"
)

# Commands that name a builtin function of the plain syntax.
_FUNCTIONS = {name: name for name in "log ln exp sin cos tan sinh cosh tanh max min".split()}

_BINOMIALS = {"binom", "dbinom", "tbinom"}

_FRACTIONS = {"frac", "dfrac", "tfrac"}

# Accents become name suffixes: \hat{m} is m_hat.
_ACCENTS = {
    **dict.fromkeys(("hat", "widehat"), "hat"),
    **dict.fromkeys(("bar", "overline"), "bar"),
    **dict.fromkeys(("tilde", "widetilde"), "tilde"),
}

# Commands that only change how their argument looks; the argument is kept as it is.
_STYLES = set(
    "mathrm mathit mathbf mathsf mathtt mathnormal boldsymbol bm vec "
    "text textrm textit textbf textsf operatorname".split()
)

# Commands that can start a factor of a function's unparenthesised argument.
_FACTOR_COMMANDS = {*_GREEK, *_FRACTIONS, *_BINOMIALS, *_ACCENTS, *_STYLES, "sqrt"}

_SPACES = {",", ";", ":", "!", " ", "quad", "qquad", "enspace", "thinspace"}

# \odot is the elementwise product; on the scalars a card asks for, it is plain multiplication.
_OPERATORS = {
    "cdot": "*",
    "times": "*",
    "ast": "*",
    "odot": "*",
    "div": "/",
    "%": "%",
    "prime": "'",
}

# Size prefixes before a delimiter: \left( \big[ ... all read as the bare delimiter.
_SIZERS = set("left right big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr".split())

_NORMS = {"|", "Vert", "lVert", "rVert"}

_HINTS = {
    "infty": "infinity is not a value an answer can use",
    "pm": "choose one sign",
    "mp": "choose one sign",
    "sum": "write the terms out",
    "prod": "write the factors out",
}

_ABS_OPEN = "abs("

# How an unclosed group is named in an error, by the closer it waits for.
_OPENERS = {
    "}": "'{'",
    "]": "'['",
    ")": "'('",
    "|": "'|'",
    "rvert": "\\lvert",
    "right|": "\\left|",
}


def _touches(char: str) -> bool:
    return char.isalnum() or char in ")]'"


@dataclass(frozen=True, slots=True)
class _Token:
    """One command (``\\frac``, ``\\,``) or one plain character, with its column in the input."""

    is_command: bool
    value: str
    column: int


def looks_like_latex(text: str) -> bool:
    """True when ``text`` should go through :func:`latex_to_plain` before the plain parser.

    A backslash never appears in the plain syntax, and neither do braces after ``^`` or ``_``.
    """
    return "\\" in text or "^{" in text or "_{" in text


def latex_to_plain(text: str) -> str:
    """Translate LaTeX math ``text`` into the plain typed syntax.

    Raises :class:`ParseError` (with the column in ``text``) for what cannot be read, and
    :class:`LimitError` past the length and nesting bounds.
    """
    if len(text) > MAX_LENGTH:
        raise LimitError(f"the answer is longer than {MAX_LENGTH:,} characters", text, MAX_LENGTH)
    return _Emitter(text, _tokenize(text)).translate()


def _tokenize(text: str) -> list[_Token]:
    """Split ``text`` into commands (a backslash and a run of ASCII letters, or one other
    character) and single characters."""
    tokens: list[_Token] = []
    i = 0
    while i < len(text):
        if text[i] != "\\":
            tokens.append(_Token(False, text[i], i))
            i += 1
            continue
        j = i + 1
        while j < len(text) and text[j].isascii() and text[j].isalpha():
            j += 1
        if j == i + 1:
            if j == len(text):
                raise ParseError("a backslash with no command after it", text, i)
            j += 1  # a one-character command such as \, or \{
        tokens.append(_Token(True, text[i + 1 : j], i))
        i = j
    return tokens


def _is_name(text: str) -> bool:
    """A plain-syntax identifier: a letter, then letters, digits and underscores."""
    return bool(text) and text[0].isalpha() and all(c.isalnum() or c == "_" for c in text)


class _Output:
    """Plain text being written, and the kind of the last piece written.

    ``kind`` is ``name``, ``value`` (a number or something closed, like ``)``), ``op`` or
    ``open``; it decides whether a ``|`` opens or closes an absolute value and whether a
    subscript may follow. A piece produced by a command, or separated by a space in the input,
    gets a space between it and a touching letter or digit, so ``\\pi r`` does not become the
    name ``pir`` and ``a b`` stays two names.
    """

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.kind = "open"
        self.separate_next = False

    def gap(self) -> None:
        """The input had a space here: keep the next piece apart from the last one."""
        self.separate_next = True

    def add(self, piece: str, kind: str, from_command: bool = False) -> None:
        if not piece:
            return
        if (
            self.parts
            and (from_command or self.separate_next)
            and _touches(self.parts[-1][-1])
            and piece[0].isalnum()
        ):
            self.parts.append(" ")
        self.parts.append(piece)
        self.kind = kind
        self.separate_next = from_command

    def text(self) -> str:
        return "".join(self.parts).strip()


class _Emitter:
    """Walks the tokens once; each method consumes what it reads and returns plain text."""

    def __init__(self, text: str, tokens: list[_Token]) -> None:
        self.text = text
        self.tokens = tokens
        self.pos = 0

    # -- small helpers -------------------------------------------------------------------

    def translate(self) -> str:
        return self._sequence(depth=0, closer=None, opened_at=0)

    def _error(self, message: str, column: int | None) -> ParseError:
        return ParseError(message, self.text, column)

    def _peek(self) -> _Token | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def _next(self) -> _Token:
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def _skip_spaces(self) -> _Token | None:
        """Skip what TeX ignores between tokens, and return the next token (not consumed)."""
        self.pos = self._past_spaces()
        return self._peek()

    def _past_spaces(self) -> int:
        """The index of the next token that is not a space, without consuming anything."""
        i = self.pos
        while i < len(self.tokens):
            token = self.tokens[i]
            if token.is_command and token.value in _SPACES:
                i += 1
            elif not token.is_command and (token.value.isspace() or token.value in "$~"):
                i += 1
            else:
                break
        return i

    def _next_script(self) -> _Token | None:
        """Consume and return a ``^`` or ``_`` that comes next (spaces allowed before it)."""
        i = self._past_spaces()
        if i < len(self.tokens) and self._is_char(self.tokens[i], "^_"):
            self.pos = i + 1
            return self.tokens[i]
        return None

    def _end_column(self) -> int:
        return len(self.text)

    def _check_depth(self, depth: int, column: int) -> None:
        if depth > MAX_DEPTH:
            raise LimitError(f"the LaTeX nests deeper than {MAX_DEPTH} levels", self.text, column)

    def _is_char(self, token: _Token | None, chars: str) -> bool:
        return token is not None and not token.is_command and token.value in chars

    def _run(self, first_is_digit: bool) -> str:
        """Consume a run of letters and digits (a name) or of digits and dots (a number)."""
        chars: list[str] = []
        while (token := self._peek()) is not None and not token.is_command:
            c = token.value
            ok = (c.isdigit() or c == ".") if first_is_digit else c.isalnum()
            if not ok:
                break
            chars.append(c)
            self.pos += 1
        return "".join(chars)

    # -- sequences and groups ------------------------------------------------------------

    def _sequence(self, depth: int, closer: str | None, opened_at: int) -> str:
        """Translate tokens up to ``closer`` (consumed) or to the end of the input.

        ``closer`` is ``}`` or ``]`` (braces, a root index), ``)`` (a parenthesised argument,
        nesting counted), ``|``, ``rvert`` or ``right|`` (an absolute value read as a function's
        argument), or ``None`` for the whole input.
        """
        self._check_depth(depth, opened_at)
        out = _Output()
        open_bars: list[int] = []
        nested_parens = 0
        while True:
            before = self.pos
            token = self._skip_spaces()
            if self.pos != before:
                out.gap()
            if token is None:
                if closer is not None:
                    raise self._error(f"this {_OPENERS[closer]} is never closed", opened_at)
                break
            if self._is_char(token, "}") and closer != "}":
                raise self._error("a '}' with no '{' before it", token.column)
            if closer == ")" and self._is_char(token, "("):
                nested_parens += 1
            elif closer == ")" and self._is_char(token, ")") and nested_parens:
                nested_parens -= 1
            elif self._closes(token, closer):
                break
            self._item(token, out, open_bars, depth)
        if open_bars:
            raise self._error("an absolute value bar '|' that is never closed", open_bars[-1])
        return out.text()

    def _closes(self, token: _Token, closer: str | None) -> bool:
        """Whether ``token`` ends a sequence opened with ``closer``; if so, it is consumed."""
        if closer in ("}", "]", ")", "|") and self._is_char(token, closer):
            self.pos += 1
            return True
        if closer == "rvert" and token.is_command and token.value == "rvert":
            self.pos += 1
            return True
        if closer == "right|" and token.is_command and token.value == "right":
            following = self.tokens[self.pos + 1] if self.pos + 1 < len(self.tokens) else None
            if self._is_char(following, "|"):
                self.pos += 2
                return True
        return False

    def _item(self, token: _Token, out: _Output, open_bars: list[int], depth: int) -> None:
        """Translate one thing in a sequence: an operator, a bar, a delimiter or an operand."""
        if not token.is_command:
            c = token.value
            if c == "|":
                self.pos += 1
                self._bar(token, out, open_bars, opening=None)
            elif c == "^":
                self.pos += 1
                out.add("^", "op")
                piece, kind = self._superscript(depth)
                out.add(piece, kind, from_command=True)
            elif c == "_":
                raise self._error("a subscript must follow a name", token.column)
            elif c in "([":
                self.pos += 1
                out.add(c, "open")
            elif c in ")]'!%":
                self.pos += 1
                out.add(c, "value")
            elif c.isalnum() or c in "{.":
                piece, kind = self._operand(depth)
                out.add(piece, kind)
            else:
                self.pos += 1
                out.add(c, "op")
            return
        name = token.value
        if name in _SIZERS:
            self.pos += 1
            self._delimiter(token, out, open_bars)
        elif name in ("{", "lbrace"):
            self.pos += 1
            out.add("(", "open")
        elif name in ("}", "rbrace"):
            self.pos += 1
            out.add(")", "value")
        elif name in ("lvert", "rvert", "vert"):
            self.pos += 1
            opening = {"lvert": True, "rvert": False}.get(name)
            self._bar(token, out, open_bars, opening)
        elif name in _OPERATORS:
            self.pos += 1
            symbol = _OPERATORS[name]
            out.add(symbol, "value" if symbol in "'%" else "op")
        else:
            piece, kind = self._operand(depth)
            out.add(piece, kind, from_command=True)

    def _bar(self, token: _Token, out: _Output, open_bars: list[int], opening: bool | None) -> None:
        """Write an absolute-value bar as ``abs(`` or ``)``.

        ``opening`` is known for ``\\lvert`` and ``\\left|``; a bare ``|`` closes when a bar is
        open and what precedes it is an operand, and opens otherwise.
        """
        if opening is None:
            opening = not (open_bars and out.kind in ("name", "value"))
        if opening:
            open_bars.append(token.column)
            out.add(_ABS_OPEN, "open", from_command=True)
        elif not open_bars:
            raise self._error("a closing '|' with no opening '|' before it", token.column)
        else:
            open_bars.pop()
            out.add(")", "value")

    def _delimiter(self, sizer: _Token, out: _Output, open_bars: list[int]) -> None:
        """Read the delimiter after ``\\left``, ``\\right``, ``\\big`` and friends."""
        token = self._skip_spaces()
        if token is None:
            raise self._error(f"\\{sizer.value} needs a delimiter after it", sizer.column)
        self.pos += 1
        value = token.value
        opening = (
            None
            if sizer.value in ("big", "Big", "bigg", "Bigg")
            else (sizer.value == "left" or sizer.value.endswith("l"))
        )
        if token.is_command and value in _NORMS:
            raise self._norm_error(token)
        if not token.is_command and value in "([":
            out.add(value, "open")
        elif not token.is_command and value in ")]":
            out.add(value, "value")
        elif token.is_command and value in ("{", "lbrace"):
            out.add("(", "open")
        elif token.is_command and value in ("}", "rbrace"):
            out.add(")", "value")
        elif (not token.is_command and value == "|") or (
            token.is_command and value in ("vert", "lvert", "rvert")
        ):
            if value in ("lvert", "rvert"):
                opening = value == "lvert"
            self._bar(token, out, open_bars, opening)
        elif not token.is_command and value == ".":
            pass  # \left. and \right. are invisible delimiters
        else:
            shown = f"\\{value}" if token.is_command else value
            raise self._error(
                f"'{shown}' cannot follow \\{sizer.value}; use ( ), [ ] or |", token.column
            )

    def _norm_error(self, token: _Token) -> ParseError:
        return self._error(
            "norms (\\| x \\|) cannot be typed in an answer; write the scalar they stand for",
            token.column,
        )

    # -- operands --------------------------------------------------------------------------

    def _operand(self, depth: int) -> tuple[str, str]:
        """One operand with its scripts: a name, a number, a group or a command, then any
        ``_sub`` and ``^sup`` after it (in either order, as TeX allows)."""
        token = self._skip_spaces()
        if token is None:
            raise self._error("something is missing at the end", self._end_column())
        piece, kind = self._primary(token, depth)
        if kind == "function":
            return piece, "value"
        subscript: str | None = None
        superscript: tuple[str, str] | None = None
        while (script := self._next_script()) is not None:
            if script.value == "_":
                if subscript is not None:
                    raise self._error("a second subscript on the same name", script.column)
                if kind != "name":
                    raise self._error("a subscript must follow a name", script.column)
                subscript = self._subscript(script, depth)
            else:
                if superscript is not None:
                    raise self._error("a second superscript; group it with braces", script.column)
                superscript = self._superscript(depth)
        if subscript is not None:
            piece = _with_subscript(piece, subscript)
        if superscript is not None:
            sup, sup_kind = superscript
            if sup and set(sup) == {"'"}:
                piece += sup  # f^{\prime} is the derivative name f'
            else:
                piece += "^" + sup
                kind = sup_kind if sup else "op"
        return piece, kind

    def _primary(self, token: _Token, depth: int) -> tuple[str, str]:
        if not token.is_command:
            c = token.value
            if c == "{":
                self.pos += 1
                inner = self._sequence(depth + 1, "}", token.column)
                return (inner, "name") if _is_name(inner) else (f"({inner})", "value")
            if c.isdigit() or c == ".":
                return self._run(first_is_digit=True), "value"
            if c.isalpha():
                return self._run(first_is_digit=False), "name"
            raise self._error(f"'{c}' cannot start an operand here", token.column)
        self.pos += 1
        return self._command(token, depth)

    def _command(self, token: _Token, depth: int) -> tuple[str, str]:
        self._check_depth(depth, token.column)
        name = token.value
        if name in _GREEK:
            return _GREEK[name], "name"
        if name in _FUNCTIONS:
            return self._function(token, depth), "function"
        if name in _BINOMIALS:
            return self._binomial(token, depth), "value"
        if name in _FRACTIONS:
            top = self._argument(token, depth)
            bottom = self._argument(token, depth)
            return f"(({top})/({bottom}))", "value"
        if name == "sqrt":
            return self._sqrt(token, depth), "value"
        if name in _ACCENTS:
            return self._accent(token, depth), "name"
        if name in _STYLES:
            inner = self._argument(token, depth)
            if _is_name(inner):
                return inner, "name"
            return (f"({inner})", "value") if inner else ("", "op")
        if name in _NORMS:
            raise self._norm_error(token)
        message = f"unknown LaTeX command \\{name}"
        if name in _HINTS:
            message += f" ({_HINTS[name]})"
        raise self._error(message, token.column)

    def _argument(self, command: _Token, depth: int) -> str:
        """A command's argument: a braced group, or (TeX's rule) a single character or command."""
        token = self._skip_spaces()
        if token is None or self._is_char(token, "}"):
            column = self._end_column() if token is None else token.column
            raise self._error(f"\\{command.value} is missing an argument", column)
        self._check_depth(depth + 1, token.column)
        if self._is_char(token, "{"):
            self.pos += 1
            return self._sequence(depth + 1, "}", token.column)
        self.pos += 1
        if token.is_command:
            piece, _ = self._command(token, depth + 1)
            return piece
        if token.value.isalnum():
            return token.value
        raise self._error(
            f"\\{command.value} cannot take '{token.value}' as its argument", token.column
        )

    def _sqrt(self, token: _Token, depth: int) -> str:
        """``\\sqrt{x}`` is ``sqrt(x)``; ``\\sqrt[n]{x}`` is ``(x)^(1/(n))``.

        An odd whole-number index is the real odd root, defined for negative radicands too
        (``\\sqrt[3]{-8}`` is ``-2``); the plain syntax has no such root, so it is written as
        ``sign(x)*abs(x)^(1/3)``. That repeats the radicand, so its size is bounded.
        """
        index = None
        bracket = self._skip_spaces()
        if self._is_char(bracket, "[") and bracket is not None:
            self.pos += 1
            index = self._sequence(depth + 1, "]", bracket.column)
            if not index:
                raise self._error("\\sqrt[ ] has an empty root index", bracket.column)
        radicand = self._argument(token, depth)
        if index is None:
            return f"sqrt({radicand})"
        if index.isdigit() and int(index) % 2 == 1:
            if len(radicand) > MAX_LENGTH:
                raise LimitError("odd roots nested too deeply", self.text, token.column)
            return f"(sign({radicand})*abs({radicand})^(1/{index}))"
        return f"({radicand})^(1/({index}))"

    def _binomial(self, token: _Token, depth: int) -> str:
        """``\\binom{n}{k}`` is ``binom(n, k)``."""
        top = self._argument(token, depth)
        bottom = self._argument(token, depth)
        return f"binom({top}, {bottom})"

    def _accent(self, token: _Token, depth: int) -> str:
        """``\\hat{m}`` is ``m_hat``; a subscript inside stays last, as in the plain syntax
        (``\\hat{m_t}`` is ``m_hat_t``)."""
        inner = self._argument(token, depth)
        if not _is_name(inner):
            raise self._error(f"\\{token.value} must sit on a single name", token.column)
        base, _, subscript = inner.partition("_")
        accented = f"{base}_{_ACCENTS[token.value]}"
        return _with_subscript(accented, subscript) if subscript else accented

    def _function(self, token: _Token, depth: int) -> str:
        """A function command, its optional power and base, and its argument.

        With parentheses after it (``\\log(x)``, ``\\log\\left(x\\right)``) only the name is
        written and the parentheses follow. Otherwise the argument is read as written math reads
        it: an absolute value (``\\ln|x|``), or the run of juxtaposed factors up to the next
        operator or function (``\\log 2\\pi e\\sigma^2`` is ``log(2 pi e sigma^2)``,
        ``\\sin x \\cos x`` is ``sin(x) cos(x)``).
        """
        name = _FUNCTIONS[token.value]
        power = ""
        while (script := self._next_script()) is not None:
            if script.value == "^":
                power = self._function_power(token, script, depth)
            else:
                name = self._log_base(token, script, depth)
        name += power
        after = self._skip_spaces()
        if after is None:
            return name
        if self._opens_bar(after):
            return f"{name}({self._bar_argument(depth)})"
        if self._is_char(after, "([") or (
            after.is_command and after.value in (_SIZERS | {"{", "lbrace"})
        ):
            return name
        if self._is_char(after, "{"):
            self.pos += 1
            return f"{name}({self._sequence(depth + 1, '}', after.column)})"
        factors = self._factors(depth + 1)
        return f"{name}({factors})" if factors else name

    def _function_power(self, token: _Token, script: _Token, depth: int) -> str:
        """``\\sin^2`` and ``\\sin^{2}``: a whole-number power of the function's value."""
        sup, _ = self._superscript(depth)
        digits = sup[1:-1] if sup.startswith("(") and sup.endswith(")") else sup
        if not digits.isdigit():
            raise self._error(
                f"only a whole-number power can follow \\{token.value} "
                f"(write (\\{token.value} x)^{{p}} for other powers)",
                script.column,
            )
        return "^" + digits

    def _opens_bar(self, token: _Token) -> bool:
        if self._is_char(token, "|") or (token.is_command and token.value == "lvert"):
            return True
        if token.is_command and token.value == "left":
            following = self.tokens[self.pos + 1] if self.pos + 1 < len(self.tokens) else None
            return self._is_char(following, "|")
        return False

    def _bar_argument(self, depth: int) -> str:
        """An absolute value taken whole as a function's argument: ``|x|``, ``\\lvert x
        \\rvert`` or ``\\left| x \\right|``, written ``abs(x)``."""
        opening = self._next()
        if opening.is_command and opening.value == "left":
            self.pos += 1
            closer = "right|"
        else:
            closer = "rvert" if opening.is_command else "|"
        return f"abs({self._sequence(depth + 1, closer, opening.column)})"

    def _factors(self, depth: int) -> str:
        """The juxtaposed factors after a function without parentheses.

        Each factor is an operand with its scripts; a name followed at once by parentheses
        keeps them (``\\log p(x)`` is ``log(p(x))``). A function command first is applied
        in turn (``\\log\\log x``); the run stops at anything else: an operator, a bracket, a
        bar, or a function command after a factor.
        """
        out = _Output()
        while True:
            index = self._past_spaces()
            if index >= len(self.tokens):
                break
            token = self.tokens[index]
            nested_function = token.is_command and token.value in _FUNCTIONS
            if nested_function:
                starts = not out.parts  # \log\log x is log(log(x)); \sin x \cos x is two
            elif token.is_command:
                starts = token.value in _FACTOR_COMMANDS
            else:
                starts = token.value.isalnum() or token.value in ".{"
            if not starts:
                break
            self.pos = index
            piece, kind = self._operand(depth)
            if kind == "name" and self._is_char(self._peek(), "("):
                opening = self._next()
                piece += f"({self._sequence(depth + 1, ')', opening.column)})"
            out.add(piece, kind, from_command=True)
            if nested_function:
                break
        return out.text()

    def _log_base(self, token: _Token, script: _Token, depth: int) -> str:
        if token.value != "log":
            raise self._error(f"\\{token.value} cannot take a subscript", script.column)
        base = self._subscript(script, depth)
        if base in ("2", "10"):
            return "log" + base
        if base == "e":
            return "log"
        raise self._error(
            f"a logarithm to base {base} cannot be typed directly; write log(x)/log({base})",
            script.column,
        )

    def _subscript(self, script: _Token, depth: int) -> str:
        """What follows ``_``: it must be letters and digits, since it becomes part of a name."""
        token = self._skip_spaces()
        if token is None:
            raise self._error("a subscript is missing after '_'", script.column)
        if self._is_char(token, "{"):
            self.pos += 1
            text = self._sequence(depth + 1, "}", token.column)
        elif token.is_command and token.value in _GREEK:
            self.pos += 1
            text = _GREEK[token.value]
        elif token.is_command and token.value in _STYLES:
            self.pos += 1
            text = self._argument(token, depth)
        elif not token.is_command and token.value.isalnum():
            text = self._run(first_is_digit=False)
        else:
            text = ""
        if not text or not text.isalnum():
            raise self._error(
                "a subscript must be letters or digits, since it becomes part of the name "
                "(x_{t-1} cannot be typed; name it, e.g. x_prev)",
                script.column,
            )
        return text

    def _superscript(self, depth: int) -> tuple[str, str]:
        """What follows ``^``: a braced group (written in parentheses), a run, or a command.

        Anything else (``x^-1``) is left for the plain parser to read, so the result may be
        empty.
        """
        token = self._skip_spaces()
        if token is None:
            return "", "op"
        if self._is_char(token, "{"):
            self.pos += 1
            inner = self._sequence(depth + 1, "}", token.column)
            if inner and set(inner) == {"'"}:
                return inner, "value"
            return f"({inner})", "value"
        if token.is_command:
            if token.value in _OPERATORS and _OPERATORS[token.value] == "'":
                self.pos += 1
                return "'", "value"
            if token.value in _SPACES | _SIZERS | {"{", "lbrace", "lvert", "vert"}:
                return "", "op"
            self.pos += 1
            piece, kind = self._command(token, depth + 1)
            return piece, ("value" if kind == "function" else kind)
        if token.value.isdigit() or token.value == ".":
            return self._run(first_is_digit=True), "value"
        if token.value.isalpha():
            return self._run(first_is_digit=False), "name"
        return "", "op"


def _with_subscript(name: str, subscript: str) -> str:
    return f"{name}_{subscript}"
