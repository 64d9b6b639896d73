"""recall's own grammar for typed math: a small recursive-descent parser, never ``eval``.

Grammar (loosest first)::

    sum      := product (("+" | "-") product)*
    product  := unary (("*" | "/") unary | <implicit> power)*
    unary    := ("-" | "+") unary | power
    power    := atom ("^" unary)?                 right associative: 2^3^2 = 2^9
    atom     := number | name | call | "(" sum ")" | "[" sum "]" | "|" sum "|"
    call     := function ("^" number)? "(" sum ("," sum)* ")"

Implicit multiplication joins adjacent operands (``2x``, ``(a+b)(a-b)``, ``a b``) at the same
precedence as ``*``; the live preview shows the learner how it was read. Nesting depth and the
size of constant powers are bounded here, so nothing downstream sees a hostile tree.
"""

from __future__ import annotations

import difflib
from fractions import Fraction

from recall.errors import AmbiguousReading, LimitError, ParseError
from recall.formula import typed_names
from recall.formula.expression import Expression
from recall.formula.functions import BUILTINS
from recall.formula.latex import latex_to_plain, looks_like_latex
from recall.formula.lexer import Token, tokenize
from recall.formula.magnitude import log10_magnitude
from recall.formula.names import GREEK_LETTERS
from recall.formula.nodes import (
    BinOp,
    Call,
    Constant,
    Negate,
    Node,
    Number,
    Symbol,
    walk,
)
from recall.formula.readings import bare_call_readings, replaced
from recall.formula.symbols import DEFAULT_TABLE, SymbolTable
from recall.spelling import plausible_suggestion

MAX_DEPTH = 64
#: Depth of the finished tree (a long flat sum is deep too); keeps every recursive walk safe.
MAX_TREE_DEPTH = 250
#: Constant parts may not exceed 10**MAX_LOG10 in magnitude.
MAX_LOG10 = 10_000
#: A constant exponent may be at most 10**MAX_EXPONENT_LOG10 in size (x^(10^100) is refused).
MAX_EXPONENT_LOG10 = 4
_ATOM_START = {"num", "name", "open"}


class Parser:
    """Parses one token list against a symbol table."""

    def __init__(self, text: str, table: SymbolTable, *, numeric: bool = False) -> None:
        self.text = text
        self.table = table
        self.numeric = numeric
        self.tokens: list[Token] = tokenize(text, numeric=numeric)
        self.index = 0
        self.depth = 0
        self.abs_depth = 0

    # -- helpers -------------------------------------------------------------------------
    @property
    def token(self) -> Token:
        return self.tokens[self.index]

    def peek(self, offset: int = 1) -> Token:
        return self.tokens[min(self.index + offset, len(self.tokens) - 1)]

    def advance(self) -> Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def error(self, message: str, token: Token | None = None) -> ParseError:
        return ParseError(message, self.text, (token or self.token).pos)

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise LimitError(
                f"nested too deeply (more than {MAX_DEPTH} levels)", self.text, self.token.pos
            )

    # -- grammar -------------------------------------------------------------------------
    def parse(self) -> Node:
        if self.token.kind == "end":
            raise ParseError("empty answer: type an expression", self.text, 0)
        node = self.sum()
        token = self.token
        if token.kind == "end":
            return node
        if token.kind == "close":
            raise self.error(f"unbalanced parenthesis: '{token.text}' has no matching opening")
        if token.kind == "comma":
            raise self.error("unexpected ',' (commas separate a function's arguments)")
        if token.kind == "bar":
            raise self.error("unbalanced '|': an absolute value needs a closing '|'")
        raise self.error(f"unexpected '{token.text}'")

    def sum(self) -> Node:
        self.enter()
        node = self.product()
        while self.token.kind == "op" and self.token.text in "+-":
            op = self.advance().text
            node = BinOp(op, node, self.product())
        self.depth -= 1
        return node

    def product(self) -> Node:
        first = self.index
        node = self.unary()
        # The last '/' of this product and where its divisor's tokens start, while nothing
        # explicit has followed the divisor: "x/2y" is then ambiguous (see _ambiguous_division).
        division: tuple[Token, int] | None = None
        while True:
            token = self.token
            if token.kind == "op" and token.text in "*/":
                self.advance()
                divisor = self.index
                node = BinOp(token.text, node, self.unary())
                division = (token, divisor) if token.text == "/" else None
            elif self._starts_implicit_operand(token):
                if token.kind == "num" and self.tokens[self.index - 1].kind == "num":
                    raise self.error(
                        "two numbers in a row: write one number, or put '*' between them"
                    )
                if division is not None and self.tokens[self.index - 1].kind != "close":
                    raise self._ambiguous_division(first, *division)
                node = BinOp("*", node, self.power())
                division = None
            else:
                return node

    def _ambiguous_division(self, first: int, slash: Token, divisor: int) -> ParseError:
        """``x/2y``, ``1/2σ^2``, ``1/2 x``: an implicit multiplication right after the divisor
        of a division, when the divisor does not end in a bracket. The grammar reads it as
        ``(x/2)·y``; many learners mean ``x/(2y)``. Neither reading is graded: the learner is
        told the one recall would take and asked. ``1/(2π) exp(-x)`` and ``x/2*y`` are not
        ambiguous (the bracket or the ``*`` says where the divisor ends)."""
        after = self.index
        start = self.tokens[after]
        saved, table = self.index, self.table
        self.table = table.with_strictness(False)  # only to find where the operand ends
        try:
            self.power()
            end = self.index
        except ParseError:
            end = after + 1
        self.index, self.table = saved, table
        text = self.text
        numerator = text[self.tokens[first].pos : slash.pos].strip()
        denominator = text[self.tokens[divisor].pos : start.pos]
        following = text[start.pos : self.tokens[end].pos].strip()
        joint = " " if denominator != denominator.rstrip() else ""
        denominator = denominator.strip()
        grouped = numerator if self._one_operand(first, divisor - 1) else f"({numerator})"
        segment = (self.tokens[first].pos, self.tokens[end].pos)
        return AmbiguousReading(
            f"read as ({numerator}/{denominator})·{following}: did you mean "
            f"{grouped}/({denominator}{joint}{following})?",
            text,
            start.pos,
            readings=(
                replaced(text, segment, f"(({numerator})/({denominator}))*({following})"),
                replaced(text, segment, f"({numerator})/(({denominator})*({following}))"),
            ),
        )

    def _one_operand(self, first: int, end: int) -> bool:
        """Whether tokens ``first`` to ``end`` (exclusive) are one token or one bracketed
        group, which needs no brackets of its own inside a fraction."""
        if end - first == 1:
            return True
        if self.tokens[first].kind != "open" or self.tokens[end - 1].kind != "close":
            return False
        depth = 0
        for index in range(first, end):
            kind = self.tokens[index].kind
            depth += 1 if kind == "open" else -1 if kind == "close" else 0
            if depth == 0 and index < end - 1:
                return False
        return True

    def _starts_implicit_operand(self, token: Token) -> bool:
        if token.kind in _ATOM_START:
            return True
        return token.kind == "bar" and self.abs_depth == 0

    def unary(self) -> Node:
        token = self.token
        if token.kind == "op" and token.text in "+-":
            self.advance()
            self.enter()
            operand = self.unary()
            self.depth -= 1
            return Negate(operand) if token.text == "-" else operand
        return self.power()

    def power(self) -> Node:
        base = self.atom()
        if self.token.kind == "op" and self.token.text == "^":
            caret = self.advance()
            if self.token.kind == "end":
                raise self.error("'^' needs an exponent after it")
            self.enter()
            exponent = self.unary()
            self.depth -= 1
            node = BinOp("^", base, exponent)
            _check_power_size(node, self.text, caret.pos)
            return node
        return base

    def atom(self) -> Node:
        token = self.token
        if token.kind == "num":
            self.advance()
            return Number(token.value or Fraction(0), token.text)
        if token.kind == "name":
            return self.name()
        if token.kind == "open":
            return self.group()
        if token.kind == "bar":
            return self.absolute()
        if token.kind == "end":
            previous = self.tokens[self.index - 1] if self.index else token
            raise self.error(f"the answer ends too early, after '{previous.text}'")
        if token.kind == "close":
            raise self.error(f"unbalanced parenthesis: '{token.text}' closes nothing here")
        if token.kind == "comma":
            raise self.error("unexpected ','")
        raise self.error(f"'{token.text}' needs something before it")

    def group(self) -> Node:
        opening = self.advance()
        self.enter()
        saved_abs, self.abs_depth = self.abs_depth, 0
        if self.token.kind == "close":
            raise self.error("empty parentheses")
        node = self.sum()
        self.abs_depth = saved_abs
        self.depth -= 1
        closing = self.token
        if closing.kind == "close":
            if closing.text != {"(": ")", "[": "]"}[opening.text]:
                raise self.error(f"'{opening.text}' is closed by '{closing.text}'", closing)
            self.advance()
            return node
        if closing.kind == "comma":
            before = self.tokens[self.index_of(opening) - 1] if self.index_of(opening) else None
            if before is not None and before.kind == "name" and before.text in self.table.variables:
                raise self.error(
                    f"'{before.text}' is used as a function but the card declares it a variable",
                    before,
                )
            raise self.error("unexpected ',' inside parentheses")
        raise self.error("unbalanced parenthesis: '(' is never closed", opening)

    def index_of(self, token: Token) -> int:
        return self.tokens.index(token)

    def absolute(self) -> Node:
        opening = self.advance()
        self.enter()
        self.abs_depth += 1
        node = self.sum()
        self.abs_depth -= 1
        self.depth -= 1
        if self.token.kind != "bar":
            raise self.error("unbalanced '|': an absolute value needs a closing '|'", opening)
        self.advance()
        return Call("abs", (node,), "abs")

    def name(self) -> Node:
        token = self.advance()
        name = token.text
        table = self.table
        following = self.token
        info = table.function(name)
        if info is not None and name not in table.variables:
            return self.call(token, info.builtin or name)
        if table.is_constant(name):
            return Constant(name)
        if name in table.variables:
            return Symbol(name)
        calls = following.kind == "open" and following.text == "(" and not following.space
        if calls and name == "sigma" and table.function("sigma") is None:
            # σ(z) on a card that names the sigmoid 'sigmoid' (its prompts write σ(z) too)
            return self.call(token, "sigmoid")
        if calls and self._looks_like_a_function(token):
            raise self.unknown_function(token)
        if table.strict:
            alias = typed_names.card_spelling(name, table.variables)
            alias = alias or self._superscript_index(name)
            if alias is not None:
                return Symbol(alias)
            product = self._juxtaposed(token)
            if product is not None:
                return product
            raise self.unknown_name(token)
        return Symbol(name)

    def _superscript_index(self, name: str) -> str | None:
        """``W^Q`` for the card's ``W_Q``: :func:`~recall.formula.typed_names.superscript_index`."""
        caret, index = self.token, self.peek()
        superscript = index.text if caret.text == "^" and index.kind == "name" else ""
        joined = typed_names.superscript_index(name, superscript, self.table.variables)
        self.index += 2 if joined is not None else 0
        return joined

    def _juxtaposed(self, token: Token) -> Node | None:
        """``6ND``, ``12Ld²``, ``2PR``, ``XW_Q``: one-letter names of the card typed side by
        side, as the prompts themselves write products, read as their product when the run
        splits into the card's names in exactly one way and every part is one letter (with
        its subscript). A word (``mean``) or a run that splits two ways stays unknown and is
        answered with the suggestion; the reading is shown as ``N*D``. A run in an exponent
        (``2^ND``, ``e^-ND``) is asked about too (:func:`~typed_names.in_exponent`)."""
        before = self.tokens[max(0, self.index - 3) : self.index - 1]
        parts = typed_names.juxtaposed_parts(token.text, set(self.table.variables), before)
        if parts is None:
            return None
        # The run becomes one token per name, so the grammar reads it as typed with spaces:
        # an exponent binds to the last letter (``Ld²`` is ``L*d^2``).
        pieces, column = [], token.pos
        for index, part in enumerate(parts):
            space = token.space if index == 0 else False
            pieces.append(Token("name", part, column, space, raw=part))
            column += len(part)
        self.tokens[self.index - 1 : self.index] = pieces
        return Symbol(parts[0])

    def _looks_like_a_function(self, token: Token) -> bool:
        """A plain word of three or more letters before '(' is a function call attempt
        (``softmax(z)``, ``sigmoyd(x)``); ``x(1-x)``, ``d_k(...)`` and a letter typed as one
        symbol (``γ(x-μ)``, whose canonical name ``gamma`` is a word) multiply."""
        if len(token.raw) == 1 and not token.raw.isascii():
            return False
        name = token.text
        if difflib.get_close_matches(name, self._function_names(), n=1, cutoff=0.75):
            return True
        return len(name) >= 3 and name.isalpha()

    def call(self, token: Token, resolved: str) -> Node:
        power: Node | None = None
        if token.prefix and not (self.token.kind == "open" and self.token.text == "("):
            self.enter()
            argument = self.power()
            self.depth -= 1
            return Call(resolved, (argument,), token.text)
        if self.token.kind == "op" and self.token.text == "^" and self.peek().kind == "num":
            # sin^2(x) means sin(x)^2
            self.advance()
            number = self.advance()
            power = Number(number.value or Fraction(0), number.text)
        if not (self.token.kind == "open" and self.token.text == "("):
            bare = self._bare_argument(token, resolved)
            node: Node = Call(resolved, (bare,), token.text)
            if power is not None:
                node = BinOp("^", node, power)
            return node
        self.advance()
        self.enter()
        saved_abs, self.abs_depth = self.abs_depth, 0
        args = [self.sum()]
        while self.token.kind == "comma":
            self.advance()
            args.append(self.sum())
        self.abs_depth = saved_abs
        self.depth -= 1
        if not (self.token.kind == "close" and self.token.text == ")"):
            raise self.error(f"unbalanced parenthesis: '{token.text}(' is never closed", token)
        self.advance()
        self._check_arity(token, resolved, len(args))
        node = Call(resolved, tuple(args), token.text)
        if power is not None:
            node = BinOp("^", node, power)
            _check_power_size(node, self.text, token.pos)
        return node

    def _bare_argument(self, token: Token, resolved: str) -> Node:
        """``ln p``, ``sin x``, ``log 2``: a one-argument builtin applied to one name or number
        without parentheses, read as ``ln(p)`` when nothing after the argument could belong to
        it (the answer ends, or ``+``, ``-``, ``)``, ``,`` or another function follows). ``ln
        p^2``, ``ln p q``, ``log x/2`` could be read two ways: the learner is asked for
        parentheses instead. Unknown functions (``f x``) always need them."""
        must = self.error(
            f"'{_as_typed(token)}' is a function: write {_as_typed(token)}(...) with its argument",
            token,
        )
        builtin = BUILTINS.get(resolved)
        argument = self.token
        if builtin is None or builtin.min_args != 1:
            raise must
        grouped = self._bare_group_argument(token)
        if grouped is not None:
            return grouped
        if argument.kind not in ("name", "num"):
            raise must
        if argument.kind == "name" and (
            self.table.function(argument.text) is not None
            and argument.text not in self.table.variables
        ):
            raise must
        after = self.peek()
        ends = after.kind in ("end", "close", "comma", "bar") or (
            after.kind == "op" and after.text in "+-"
        )
        if after.kind == "name" and after.text not in self.table.variables:
            ends = self.table.function(after.text) is not None  # sin x cos x
        if not ends:
            rest = self.peek(2)
            shown = self.text[token.pos : rest.pos].rstrip() + ("…" if rest.kind != "end" else "")
            raise self._two_arguments(token, shown, self.index + 1)
        return self.atom()

    def _two_arguments(self, token: Token, shown: str, tight: int) -> AmbiguousReading:
        """``ln p^2``: the argument could stop after its first operand (token ``tight``) or run
        on to the next ``+``, ``-`` or closing bracket; both readings go with the question."""
        return AmbiguousReading(
            f"'{shown}' could be read more than one way: write {_as_typed(token)}(...) with "
            "parentheses around its argument",
            self.text,
            token.pos,
            readings=bare_call_readings(self.text, self.tokens, self.index, tight),
        )

    def _bare_group_argument(self, token: Token) -> Node | None:
        """``log σ(z)``, ``-log sigmoid(r_w - r_l)``, ``log|J|``: a one-argument builtin applied
        without parentheses to a call written with its own parentheses, or to an absolute value.
        The group says where the argument ends, so there is one reading when nothing binds to
        the group after it (the answer ends, or ``+``, ``-``, ``)``, ``,`` follows): ``log σ(z)``
        is ``log(σ(z))``. ``log σ(z)^2`` or ``log|x| y`` could be read two ways and are asked
        about; anything else is not a group (``None``)."""
        argument = self.token
        if argument.kind == "name":
            name = argument.text
            if self.table.function(name) is None or name in self.table.variables:
                return None
            following = self.peek()
            if not (following.kind == "open" and following.text == "("):
                return None
        elif argument.kind != "bar":
            return None
        self.enter()
        node = self.atom()
        self.depth -= 1
        after = self.token
        if after.kind in ("end", "close", "comma", "bar") or (
            after.kind == "op" and after.text in "+-"
        ):
            return node
        shown = self.text[token.pos : after.pos].rstrip() + "…"
        start = self.tokens.index(argument)
        self.index, tight = start, self.index
        raise self._two_arguments(token, shown, tight)

    def _check_arity(self, token: Token, resolved: str, count: int) -> None:
        builtin = BUILTINS.get(resolved)
        if builtin is None:
            return
        if count < builtin.min_args or count > builtin.max_args:
            if builtin.min_args == builtin.max_args:
                wanted = f"{builtin.min_args} argument" + ("s" if builtin.min_args > 1 else "")
            else:
                wanted = f"{builtin.min_args} to {builtin.max_args} arguments"
            raise self.error(f"{token.text}() takes {wanted}, not {count}", token)

    # -- suggestions ---------------------------------------------------------------------
    def _function_names(self) -> list[str]:
        return sorted(set(BUILTINS) | set(self.table.functions) | {"ln"})

    def unknown_function(self, token: Token) -> ParseError:
        name = token.text
        close = plausible_suggestion(name, (sorted(self.table.functions), self._function_names()))
        typed = _as_typed(token)
        if close:
            return self.error(f"unknown function '{typed}' (did you mean {close}?)", token)
        return self.error(f"unknown function '{typed}'", token)

    def unknown_name(self, token: Token) -> ParseError:
        """The message for a name the card does not know, in the learner's notation: what they
        typed as they typed it, and names offered spelled the same way (``σ`` typed is offered
        ``σ_y``, not ``sigma_y``; ``sigma`` typed is offered ``sigma_y``)."""
        name = token.text
        typed = _as_typed(token)
        show = _greek_spelled if typed != name else str
        known = sorted(self.table.variables)
        split = typed_names.split_into(
            name, set(known) | {"pi"} | ({"e"} if not self.table.e_is_variable else set())
        )
        if split:
            product = "*".join(show(part) for part in split)
            return self.error(f"unknown name '{typed}' (did you mean {product}?)", token)
        # The names the card shows first: a learner reaching for a name most likely means one of
        # those, and a word that is close to none of them is better answered with the list. A
        # deck's other names are accepted but not offered (the card never showed them).
        shown = self.table.shown
        offered = [n for n in known if n in shown] if shown is not None else known
        close = plausible_suggestion(
            name, (offered, sorted(self.table.functions), self._function_names())
        )
        if close:
            return self.error(f"unknown name '{typed}' (did you mean {show(close)}?)", token)
        listing = ", ".join(show(n) for n in offered) if offered else "none"
        return self.error(f"unknown name '{typed}' (this question's names: {listing})", token)


def _as_typed(token: Token) -> str:
    """A name as the learner typed it when that was not plain ASCII (``σ₁``), else its name."""
    return token.raw if token.raw and not token.raw.isascii() else token.text


def _greek_spelled(name: str) -> str:
    """``gamma_i`` → ``γ_i``: each part of a canonical name that names a Greek letter written
    as the letter, for messages to a learner who types Greek letters."""
    return "_".join(GREEK_LETTERS.get(part, part) for part in name.split("_"))


def _check_power_size(node: BinOp, text: str, column: int) -> None:
    exponent = log10_magnitude(node.right)
    if exponent is not None and exponent > MAX_EXPONENT_LOG10:
        raise LimitError(
            f"exponent too large: a power's exponent may be at most "
            f"{10**MAX_EXPONENT_LOG10:,} in size",
            text,
            column,
        )
    magnitude = log10_magnitude(node)
    if magnitude is not None and magnitude > MAX_LOG10:
        raise LimitError(
            f"number out of range: this power goes beyond 10^±{MAX_LOG10:,}", text, column
        )


def parse(text: str, table: SymbolTable | None = None, *, numeric: bool = False) -> Expression:
    """Parse typed math (or LaTeX, detected automatically) into an :class:`Expression`.

    Raises :class:`recall.errors.ParseError` with the column of the problem; never evaluates
    the text as code.
    """
    if not isinstance(text, str):
        raise ParseError("an answer must be text", "", None)
    table = table or DEFAULT_TABLE
    source = latex_to_plain(text) if looks_like_latex(text) else text
    if "\x00" in source:
        raise ParseError(
            "the answer contains a NUL character", source.replace("\x00", " "), source.index("\x00")
        )
    try:
        tree = Parser(source, table, numeric=numeric).parse()
    except ParseError as error:
        if source is text:
            raise
        # The column points into the plain reading of the LaTeX: say so, so the caret
        # drawn under that reading makes sense.
        message = f"{error.message} (in your LaTeX, read as {source})"
        if isinstance(error, AmbiguousReading):
            raise AmbiguousReading(message, source, error.column, error.readings) from None
        raise type(error)(message, source, error.column) from None
    _check_power_budget(tree, source)
    if _tree_depth(tree) > MAX_TREE_DEPTH:
        raise LimitError(
            f"expression too long: more than {MAX_TREE_DEPTH} operations deep", source, None
        )
    return Expression(tree, text, table, numeric)


#: Sum of the sizes of all constant exponents in one expression: each costs big-number work.
MAX_TOTAL_EXPONENT = 20_000


def _check_power_budget(tree: Node, text: str) -> None:
    total = Fraction(0)
    for node in walk(tree):
        if isinstance(node, BinOp) and node.op == "^" and isinstance(node.right, Number):
            total += abs(node.right.value)
    if total > MAX_TOTAL_EXPONENT:
        raise LimitError(
            f"too much power: the exponents add up to more than {MAX_TOTAL_EXPONENT:,}", text, None
        )


def _tree_depth(tree: Node) -> int:
    deepest = 0
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(node, Negate):
            stack.append((node.operand, depth + 1))
        elif isinstance(node, BinOp):
            stack.append((node.left, depth + 1))
            stack.append((node.right, depth + 1))
        elif isinstance(node, Call):
            stack.extend((arg, depth + 1) for arg in node.args)
    return deepest
