"""The form a card asks for: names and functions an answer must use (``require``) or avoid
(``forbid``).

"Type the sigmoid's definition with exp" is not answered by ``sigmoid(x)``, though the engine
rightly finds the two equal. A card says so in its deck file::

    require = ["exp"]
    forbid = ["sigmoid"]

and grading checks the names an answer uses *before* equivalence: an answer that breaks the rule
is *invalid* with the reason ("this card asks for it without sigmoid"), which costs nothing and is
never Correct.

This module is the pure half: the rule as the deck states it, the problems a deck author can make
with it (checked while the deck is built, without the engine), and the check itself, a function
over the set of names an answer uses (the engine reads those from the parsed answer:
:attr:`recall.formula.Expression.names`). Rule names are in typed syntax, ASCII (``sigmoid``,
``exp``, ``sigma``); a name the card declares as an alias of a builtin (``sigma = "sigmoid"``)
stands for that builtin, since the engine resolves the alias when it parses an answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from recall.inert import quote

#: Spellings that are one mathematical function to a learner: ``e^(-x)`` is written "with exp"
#: as much as ``exp(-x)`` is, so requiring or forbidding ``exp`` covers the constant ``e``.
_SAME_FORM: dict[str, frozenset[str]] = {"exp": frozenset({"exp", "e"})}


@dataclass(frozen=True)
class FormRule:
    """What an answer must use and must not use, as resolved names (aliases already applied)."""

    require: tuple[str, ...] = ()
    forbid: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.require or self.forbid)


def resolve(
    require: Iterable[str], forbid: Iterable[str], aliases: Mapping[str, str] | None = None
) -> FormRule:
    """The rule with each card alias replaced by the builtin it names (``sigma`` → ``sigmoid``).

    ``aliases`` maps a declared function name to what it ``means`` (``unknown`` keeps the name).
    """
    aliases = aliases or {}

    def real(name: str) -> str:
        means = aliases.get(name, "unknown")
        return name if means == "unknown" else means

    return FormRule(
        tuple(dict.fromkeys(real(n) for n in require)),
        tuple(dict.fromkeys(real(n) for n in forbid)),
    )


def problems(require: Iterable[str], forbid: Iterable[str]) -> list[str]:
    """What is wrong with a rule as written (no engine needed): empty or repeated entries, and a
    name both required and forbidden."""
    out: list[str] = []
    required, forbidden = list(require), list(forbid)
    for key, names in (("require", required), ("forbid", forbidden)):
        seen: set[str] = set()
        for name in names:
            if not name.strip():
                out.append(f"'{quote(key)}' has an empty name")
            elif name in seen:
                out.append(f"'{quote(key)}' lists '{quote(name)}' twice")
            seen.add(name)
    for name in sorted(set(required) & set(forbidden)):
        out.append(f"'{quote(name)}' is both required and forbidden")
    return out


def _uses(name: str, used: frozenset[str]) -> bool:
    return bool(_SAME_FORM.get(name, frozenset({name})) & used)


def breach(rule: FormRule, used: Iterable[str]) -> str | None:
    """Why an answer that uses the names ``used`` breaks ``rule``, or ``None`` when it obeys.

    ``used`` is every variable, function and constant the answer mentions, by canonical name.
    """
    names = frozenset(used)
    forbidden = [name for name in rule.forbid if _uses(name, names)]
    missing = [name for name in rule.require if not _uses(name, names)]
    reasons = []
    if forbidden:
        reasons.append(f"without {_listing(forbidden)}")
    if missing:
        reasons.append(f"with {_listing(missing)}")
    if not reasons:
        return None
    return f"This card asks for it {' and '.join(reasons)}."


def _listing(names: list[str]) -> str:
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]
