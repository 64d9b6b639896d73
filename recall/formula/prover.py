"""A bounded symbolic proof, for the rare pairs the numeric test cannot decide.

It runs only on small trees with small integer powers (so ``expand`` cannot explode), tries
cheap rewrites of the difference (``cancel``, ``expand``, ``powsimp``/``logcombine`` under the
variables' assumptions) and gives up after a time budget. SymPy work cannot be interrupted
from inside Python, so the attempt runs in a daemon thread and is abandoned, not waited for,
when it overruns: the verdict is then "undecided", which is never an accept. Only one attempt
runs at a time: while an abandoned one is still busy, new pairs are undecided at once, so a
stream of hard pairs cannot pile up threads or slow every later check.
"""

from __future__ import annotations

import threading

from recall.formula.expression import Expression
from recall.formula.nodes import BinOp, Number, walk

MAX_NODES = 80
MAX_INTEGER_POWER = 12
TIME_BUDGET_S = 0.04

_busy = threading.Lock()


def _bounded(expression: Expression) -> bool:
    if expression.size > MAX_NODES:
        return False
    for node in walk(expression.tree):
        if isinstance(node, BinOp) and node.op == "^" and isinstance(node.right, Number):
            if abs(node.right.value) > MAX_INTEGER_POWER:
                return False
    return True


def _attempt(reference: Expression, answer: Expression, out: list) -> None:
    try:
        out.append(_prove(reference, answer))
    except Exception:  # noqa: BLE001 - any SymPy failure means "no proof", never a crash
        out.append(None)
    finally:
        _busy.release()


def _prove(reference: Expression, answer: Expression) -> bool | None:
    import sympy

    difference = reference.to_sympy() - answer.to_sympy()
    for rewrite in (
        lambda d: d,
        sympy.cancel,
        sympy.expand,
        lambda d: sympy.logcombine(sympy.expand_log(d, force=False), force=False),
        lambda d: sympy.powsimp(sympy.expand(d)),
        sympy.trigsimp,
    ):
        current = rewrite(difference)
        if current == 0:
            return True
        if current.is_number and current.is_zero is False:
            return False
    return None


def prove_equal(reference: Expression, answer: Expression) -> bool | None:
    """``True`` if proved equal, ``False`` if proved different, ``None`` if undecided."""
    if not (_bounded(reference) and _bounded(answer)):
        return None
    if not _busy.acquire(blocking=False):
        return None  # an abandoned attempt is still running
    out: list = []
    worker = threading.Thread(target=_attempt, args=(reference, answer, out), daemon=True)
    worker.start()
    worker.join(TIME_BUDGET_S)
    return out[0] if out else None
