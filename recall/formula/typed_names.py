"""How a name the card does not declare may still be one of its names, as typed.

Two readings, both shown to the learner as read: one-letter names typed side by side are their
product (``6ND`` is ``N*D``, as the prompts write it), and a name typed in another of its
spellings is the card's name (``ε_u`` for ``eps_u``, ``p`` for ``p_i`` where a letter index is
the only thing dropped; never a number: ``β`` is not ``beta_2``). Anything else stays an
unknown name, answered with a suggestion.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from recall.formula.lexer import Token


def juxtaposed_parts(name: str, known: set[str], before: Sequence[Token] = ()) -> list[str] | None:
    """The card's names ``name`` is a run of, when it splits into them in exactly one way and
    every part is one letter with its subscript (``Ld`` → ``L``, ``d``; ``XW_Q`` → ``X``,
    ``W_Q``); ``None`` for a word, a run of longer names, a run that splits two ways, or a run
    in an exponent (:func:`in_exponent`, given the tokens ``before`` the run)."""
    if in_exponent(before):
        return None
    parts = split_into(name, known)
    if parts is None or not all(_one_letter(part) for part in parts):
        return None
    if _split_count(name, known) != 1:
        return None
    return parts


def in_exponent(before: Sequence[Token]) -> bool:
    """Whether a name comes right after ``^`` (or after a sign right after ``^``), given the
    tokens before it: ``2^ND`` read as a run would be ``2^N*D``, the exponent binding its first
    letter only, which is not what was meant, so such a run is never split silently."""
    if before[-1:] and before[-1].kind == "op" and before[-1].text in "+-":
        before = before[:-1]
    return bool(before) and before[-1].kind == "op" and before[-1].text == "^"


def card_spelling(name: str, known: Mapping[str, object]) -> str | None:
    """The card's name for a name it does not know, when the card's meaning is plain:
    ``ε_θ`` (``epsilon_theta``) where the card spells it ``eps_theta``; a dropped index
    (``p`` for ``p_i``, ``γ`` for ``gamma_i``, ``m̂`` for ``m_hat_t``) when exactly one of the
    card's names extends it by a letter index. A number is never dropped: ``β`` is not read as
    ``beta_2`` on a card with only that β, because which β belongs there (Adam's ``beta_1`` or
    ``beta_2``) is what such a card asks. ``p`` on a card with
    ``p_i`` and ``p_j`` stays unknown (and is answered with the names), and so does ``d``
    beside ``d_k``: a subscript that names something (key, head, weight) is not an index,
    and ``d`` is the model width, not the key width."""
    for spelled in dict.fromkeys(
        (name, _swap_prefix(name, "epsilon", "eps"), _swap_prefix(name, "eps", "epsilon"))
    ):
        if spelled in known:
            return spelled
        longer = [v for v in known if v.startswith(spelled + "_")]
        if len(longer) == 1 and _is_index(longer[0][len(spelled) + 1 :]):
            return longer[0]
    return None


def superscript_index(name: str, superscript: str, known: Mapping[str, object]) -> str | None:
    """``W^Q`` for the card's ``W_Q``, as the sheets write projection matrices (``W_i^Q``): a
    name typed as a superscript after an unknown name is its index when together they are one
    of the card's names and the superscript is not (so nothing is raised to a power)."""
    if not superscript or superscript in known:
        return None
    joined = f"{name}_{superscript}"
    return joined if joined in known else None


def split_into(name: str, known: set[str]) -> list[str] | None:
    """Split ``name`` into a product of known names (``Vd`` → ``V``, ``d``), if possible.

    A lower-case word of four letters or more is a word, not a product of one-letter names
    (``margin`` is not ``m*a*r*g*i*n``, even on a card that declares those letters).
    """
    if len(name) > 24:
        return None
    best: dict[int, list[str]] = {0: []}
    for end in range(1, len(name) + 1):
        for start in range(end):
            if start in best and name[start:end] in known:
                best[end] = best[start] + [name[start:end]]
                break
    parts = best.get(len(name))
    if not parts or len(parts) < 2:
        return None
    if len(name) >= 4 and name.isalpha() and name.islower() and all(len(p) == 1 for p in parts):
        return None
    return parts


#: Subscripts that index a coordinate, an example, a step or a class (dropped in typing). A
#: numbered name (``beta_1``, ``z_2``, ``p_1``) is not among them: the number tells which one.
_INDICES = frozenset({"i", "j", "t", "n", "m", "c"})


def _is_index(subscript: str) -> bool:
    return subscript in _INDICES


def _swap_prefix(name: str, old: str, new: str) -> str:
    """``epsilon_u`` → ``eps_u`` (``old`` → ``new`` as the whole first part of the name)."""
    head, sep, rest = name.partition("_")
    return new + sep + rest if head == old else name


def _one_letter(name: str) -> bool:
    """``N``, ``f_i``, ``W_Q``: one letter, with or without a subscript."""
    head = name.split("_", 1)[0]
    return len(head) == 1 and head.isalpha()


def _split_count(name: str, known: set[str]) -> int:
    """In how many ways ``name`` splits into known names (counted up to 2; ``name`` is at most
    24 characters, checked by :func:`split_into` first)."""
    ways = [0] * (len(name) + 1)
    ways[0] = 1
    for end in range(1, len(name) + 1):
        ways[end] = min(
            2, sum(ways[start] for start in range(end) if ways[start] and name[start:end] in known)
        )
    return ways[len(name)]
