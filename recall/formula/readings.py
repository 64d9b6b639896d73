"""The readings of an answer recall will not choose between (``x/2y``, ``ln p^2``).

Each reading is the whole answer with brackets put in where the learner left them out, so it
parses one way only; the grader asks which was meant only when the readings grade differently
(:class:`recall.errors.AmbiguousReading`).
"""

from __future__ import annotations

from collections.abc import Sequence

from recall.formula.lexer import Token


def replaced(text: str, segment: tuple[int, int], reading: str) -> str:
    """``text`` with ``segment`` (start, end columns) replaced by ``(reading)``."""
    start, end = segment
    return f"{text[:start]}({reading}){text[end:]}"


def bare_call_readings(
    text: str, tokens: Sequence[Token], argument: int, tight: int
) -> tuple[str, str]:
    """A function applied without brackets to the tokens from ``argument`` on: its argument run
    on to the next ``+``, ``-``, comma or closing bracket at its own level (``ln(p^2)``,
    ``ln(p q)``, ``log(x/2)``), and its argument stopped before token ``tight`` (``ln(p)^2``,
    ``ln(p)*q``, ``log(x)/2``)."""
    depth, index = 0, argument
    while index < len(tokens) - 1:
        token = tokens[index]
        if token.kind == "open":
            depth += 1
        elif token.kind == "close":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and (
            token.kind in ("comma", "end")
            or (token.kind == "op" and token.text in "+-" and tokens[index - 1].kind != "op")
        ):
            break
        index += 1
    start = tokens[argument].pos
    run_on = (start, tokens[index].pos)
    stopped = (start, tokens[tight].pos)
    return (
        replaced(text, run_on, text[run_on[0] : run_on[1]].rstrip()),
        replaced(text, stopped, text[stopped[0] : stopped[1]].rstrip()),
    )
