"""Operands of LaTeX input: names with their scripts, numbers, groups and commands.

The middle layer of the LaTeX translation (:mod:`recall.formula.latex`): fractions, roots,
accents, binomials, function commands and their arguments, subscripts and superscripts. A group
inside an operand is a whole sequence again, which the emitter above reads
(:meth:`OperandReader._sequence`).
"""

from __future__ import annotations

from recall.errors import LimitError, ParseError
from recall.formula.latex_reader import LatexToken, PlainOutput, TokenReader, is_name
from recall.formula.latex_vocabulary import (
    ACCENTS,
    BINOMIAL_COMMANDS,
    FACTOR_COMMANDS,
    FRACTION_COMMANDS,
    FUNCTION_COMMANDS,
    GREEK_COMMANDS,
    HINTS,
    MAX_LENGTH,
    NORMS,
    OPERATORS,
    SIZERS,
    SPACES,
    STYLES,
)


class OperandReader(TokenReader):
    """Reads one operand at a time; :class:`~recall.formula.latex.LatexEmitter` supplies the
    sequences (groups, arguments in parentheses, absolute values) that operands contain."""

    def _sequence(self, depth: int, closer: str | None, opened_at: int) -> str:
        """Translate tokens up to ``closer``: implemented by the emitter."""
        raise NotImplementedError

    def _norm_error(self, token: LatexToken) -> ParseError:
        return self._error(
            "norms (\\| x \\|) cannot be typed in an answer; write the scalar they stand for",
            token.column,
        )

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

    def _primary(self, token: LatexToken, depth: int) -> tuple[str, str]:
        if not token.is_command:
            c = token.value
            if c == "{":
                self.pos += 1
                inner = self._sequence(depth + 1, "}", token.column)
                return (inner, "name") if is_name(inner) else (f"({inner})", "value")
            if c.isdigit() or c == ".":
                return self._run(first_is_digit=True), "value"
            if c.isalpha():
                return self._run(first_is_digit=False), "name"
            raise self._error(f"'{c}' cannot start an operand here", token.column)
        self.pos += 1
        return self._command(token, depth)

    def _command(self, token: LatexToken, depth: int) -> tuple[str, str]:
        self._check_depth(depth, token.column)
        name = token.value
        if name in GREEK_COMMANDS:
            return GREEK_COMMANDS[name], "name"
        if name in FUNCTION_COMMANDS:
            return self._function(token, depth), "function"
        if name in BINOMIAL_COMMANDS:
            return self._binomial(token, depth), "value"
        if name in FRACTION_COMMANDS:
            top = self._argument(token, depth)
            bottom = self._argument(token, depth)
            return f"(({top})/({bottom}))", "value"
        if name == "sqrt":
            return self._sqrt(token, depth), "value"
        if name in ACCENTS:
            return self._accent(token, depth), "name"
        if name in STYLES:
            inner = self._argument(token, depth)
            if is_name(inner):
                return inner, "name"
            return (f"({inner})", "value") if inner else ("", "op")
        if name in NORMS:
            raise self._norm_error(token)
        message = f"unknown LaTeX command \\{name}"
        if name in HINTS:
            message += f" ({HINTS[name]})"
        raise self._error(message, token.column)

    def _argument(self, command: LatexToken, depth: int) -> str:
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

    def _sqrt(self, token: LatexToken, depth: int) -> str:
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

    def _binomial(self, token: LatexToken, depth: int) -> str:
        """``\\binom{n}{k}`` is ``binom(n, k)``."""
        top = self._argument(token, depth)
        bottom = self._argument(token, depth)
        return f"binom({top}, {bottom})"

    def _accent(self, token: LatexToken, depth: int) -> str:
        """``\\hat{m}`` is ``m_hat``; a subscript inside stays last, as in the plain syntax
        (``\\hat{m_t}`` is ``m_hat_t``)."""
        inner = self._argument(token, depth)
        if not is_name(inner):
            raise self._error(f"\\{token.value} must sit on a single name", token.column)
        base, _, subscript = inner.partition("_")
        accented = f"{base}_{ACCENTS[token.value]}"
        return _with_subscript(accented, subscript) if subscript else accented

    def _function(self, token: LatexToken, depth: int) -> str:
        """A function command, its optional power and base, and its argument.

        With parentheses after it (``\\log(x)``, ``\\log\\left(x\\right)``) only the name is
        written and the parentheses follow. Otherwise the argument is read as written math reads
        it: an absolute value (``\\ln|x|``), or the run of juxtaposed factors up to the next
        operator or function (``\\log 2\\pi e\\sigma^2`` is ``log(2 pi e sigma^2)``,
        ``\\sin x \\cos x`` is ``sin(x) cos(x)``).
        """
        name = FUNCTION_COMMANDS[token.value]
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
            after.is_command and after.value in (SIZERS | {"{", "lbrace"})
        ):
            return name
        if self._is_char(after, "{"):
            self.pos += 1
            return f"{name}({self._sequence(depth + 1, '}', after.column)})"
        factors = self._factors(depth + 1)
        return f"{name}({factors})" if factors else name

    def _function_power(self, token: LatexToken, script: LatexToken, depth: int) -> str:
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

    def _opens_bar(self, token: LatexToken) -> bool:
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
        out = PlainOutput()
        while True:
            index = self._past_spaces()
            if index >= len(self.tokens):
                break
            token = self.tokens[index]
            nested_function = token.is_command and token.value in FUNCTION_COMMANDS
            if nested_function:
                starts = not out.parts  # \log\log x is log(log(x)); \sin x \cos x is two
            elif token.is_command:
                starts = token.value in FACTOR_COMMANDS
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

    def _log_base(self, token: LatexToken, script: LatexToken, depth: int) -> str:
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

    def _subscript(self, script: LatexToken, depth: int) -> str:
        """What follows ``_``: it must be letters and digits, since it becomes part of a name."""
        token = self._skip_spaces()
        if token is None:
            raise self._error("a subscript is missing after '_'", script.column)
        if self._is_char(token, "{"):
            self.pos += 1
            text = self._sequence(depth + 1, "}", token.column)
        elif token.is_command and token.value in GREEK_COMMANDS:
            self.pos += 1
            text = GREEK_COMMANDS[token.value]
        elif token.is_command and token.value in STYLES:
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
            if token.value in OPERATORS and OPERATORS[token.value] == "'":
                self.pos += 1
                return "'", "value"
            if token.value in SPACES | SIZERS | {"{", "lbrace", "lvert", "vert"}:
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
