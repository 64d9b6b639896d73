"""The commented deck that ``recall decks new NAME`` writes: one example card of every kind, so
a learner can copy a card and change it rather than start from a blank page.

The examples are written commented out (``# `` before each of their lines, ``## `` before the
words about them): a deck with no card yet loads, and nothing of it enters today's plan until
the learner writes or uncomments a card of their own. Uncommented, they are a valid deck
(``tests/test_cards_commands.py``)."""

from __future__ import annotations

from recall.cards.writer import toml_string

_TEMPLATE = """\
# A recall deck. The format: `recall help decks`; the typed math syntax: `recall help syntax`.
# Check it with:  recall decks validate {path_hint}
#
# Every card needs an `id` that stays the same forever: your review history is keyed by it,
# so reword a card freely but never change its id. Scheduling never goes in this file.

[deck]
id = {deck_id}
name = {name}
description = "What this deck is for, in a sentence."
tags = ["mine"]

# Names declared here are known to every card of the deck (a card can add or override them).
[deck.symbols]
x = {{ domain = "real", meaning = "any real number" }}

# The example cards below are commented out, so they stay out of your reviews until
# you make one yours: remove the "# " in front of its lines (or copy them) and edit it.

## formula: the learner types an expression; the engine checks it is equivalent to `answer`.
# [[card]]
# id = "sigmoid-derivative"
# kind = "formula"
# prompt = "Derivative of the sigmoid σ(x), written with σ itself."
# answer = "sigma(x)*(1 - sigma(x))"
# hint = "σ times one minus σ."
# source = "where you learned it"
## Claims the card makes, checked with the engine by `recall decks validate`'s test suite:
# identities = [{{ derivative_of = "sigma(x)", wrt = "x", rhs = "sigma(x)*(1 - sigma(x))" }}]
# [card.functions]
# sigma = {{ means = "sigmoid", meaning = "the logistic sigmoid" }}

## numeric: values are drawn per review for each {{NAME}} in the prompt; the engine computes
## the answer.
# [[card]]
# id = "training-flops"
# kind = "numeric"
# prompt = "A {{N}}-parameter model trains on {{D}} tokens. About how many FLOPs is that?"
# answer = "6*N*D"
# unit = "FLOPs"
# tolerance = {{ relative = 0.05 }}
# hint = "Six FLOPs per parameter per token."
# [card.params]
# N = {{ low = 1e8, high = 7e10, log = true, sigfigs = 2, meaning = "parameters" }}
# D = {{ low = 1e9, high = 2e12, log = true, sigfigs = 2, meaning = "training tokens" }}

## fact: a reference value (or `range = [low, high]`), typed as a number.
# [[card]]
# id = "adam-bytes"
# kind = "fact"
# prompt = "Bytes per parameter for mixed-precision Adam training (weights, grads, m, v, master)?"
# value = 16
# unit = "bytes/param"
# tolerance = {{ exact = true }}

## reverse: the formula is shown; the learner names it (case, spaces and hyphens do not matter).
# [[card]]
# id = "name-mse"
# kind = "reverse"
# prompt = "Name this loss."
# shown = '\\frac{{1}}{{n}}\\sum_i (\\hat y_i - y_i)^2'
# accept = ["mean squared error", "MSE", "L2 loss"]

## cloze: one blank `{{{{}}}}`; `answer` for a math blank (engine-graded), `accept` for words.
# [[card]]
# id = "batchnorm-axis"
# kind = "cloze"
# text = "BatchNorm computes its statistics over the {{{{}}}} dimension, per feature."
# accept = ["batch"]

## explain: say it out loud, then compare with the model answer and rate yourself.
# [[card]]
# id = "why-cross-entropy"
# kind = "explain"
# prompt = "Why is cross-entropy the loss for classification?"
# model_answer = \"\"\"
# It is the average negative log-probability of the right class, so minimising it is maximum
# likelihood; and since it equals entropy plus KL, with the entropy fixed, it pulls the model's
# distribution onto the data's.\"\"\"
# numbers = ["H(p, q) = H(p) + KL(p || q)"]
"""


def new_deck_text(name: str, deck_id: str, *, path_hint: str = "FILE") -> str:
    """The template deck, with ``name`` and ``deck_id`` filled in; raises :class:`DeckError` for
    a name or id the deck could not be stored with (so no unusable deck is ever written)."""
    from recall.cards.schema import DECK_ID, MAX_ID, MAX_NAME
    from recall.errors import DeckError

    if len(name) > MAX_NAME:
        raise DeckError(
            f"the deck name is {len(name)} characters long; the most is {MAX_NAME}",
            suggestion="pick a shorter name",
        )
    if len(deck_id) > MAX_ID or not DECK_ID.match(deck_id):
        raise DeckError(
            f"'{deck_id[:MAX_ID]}' is not a usable deck id (at most {MAX_ID} lowercase letters, "
            "digits, '-' and '_')",
            suggestion="pass --id with a shorter one",
        )
    return _TEMPLATE.format(
        deck_id=toml_string(deck_id, multiline=False),
        name=toml_string(name, multiline=False),
        path_hint=path_hint,
    )
