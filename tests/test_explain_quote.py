"""A made point is quoted back in the learner's own words (issue 23): the stretch of their text
that made it, negations included, never the matcher's bare keywords, which read as the
opposite of a negated statement ("you said: bounded" for "it is not bounded above")."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from recall.cards.loader import load_decks
from recall.cards.model import Card, CardKind
from recall.grading.explain import check_explanation
from recall.grading.explain_quote import MAX_QUOTE, learner_words
from recall.paths import builtin_decks_dir

CORPUS = Path(__file__).parent / "data" / "explain_paraphrases.jsonl"


@pytest.mark.parametrize(
    ("text", "evidence", "quoted"),
    [
        ("It is not bounded above, sadly.", "bounded", "not bounded"),
        ("The loss has no ceiling at all.", "ceiling", "no ceiling"),
        ("H(p) doesn't depend on theta, so", "depend theta", "doesn't depend on theta"),
        (
            "the entropy of the labels does not depend on the weights",
            "entropy depend weights",
            "entropy of the labels does not depend on the weights",
        ),
        ("Colour me normalised: it normalises the colour", "color", "Colour"),
        ("a b c weights x y entropy z", "entropy weights", "weights x y entropy"),
    ],
)
def test_the_quote_is_the_learners_stretch_with_its_negation(
    text: str, evidence: str, quoted: str
) -> None:
    assert learner_words(text, evidence) == quoted


def test_words_that_do_not_map_back_or_a_long_stretch_fall_back_to_the_evidence() -> None:
    assert learner_words("nothing of the sort", "entropy") == "entropy"
    far = "entropy " + "filler " * (MAX_QUOTE // 6) + "weights"
    assert learner_words(far, "entropy weights") == "entropy weights"
    assert learner_words("any text", "") == ""


def _explain_cards() -> dict[str, Card]:
    loaded = load_decks([builtin_decks_dir()])
    return {card.key: card for card in loaded.cards if card.kind is CardKind.EXPLAIN}


def _collapsed(text: str) -> str:
    return " ".join(text.split())


def test_every_made_point_of_the_corpus_quotes_a_stretch_of_the_text_or_its_words() -> None:
    cards = _explain_cards()
    entries = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
    stretches = 0
    for entry in entries[::3]:
        card = cards[entry["card"]]
        for outcome in check_explanation(card, entry["text"]).outcomes:
            if not outcome.made:
                assert outcome.said == ""
                continue
            assert outcome.said, entry["text"]
            assert len(outcome.said) <= MAX_QUOTE or " " not in outcome.said.strip()
            if outcome.said in _collapsed(entry["text"]):
                stretches += 1
    # most quotes are the learner's own stretch (a spelt number or an opened abbreviation may
    # not map back, and then the matched words are quoted)
    assert stretches > 0.8 * sum(
        o.made
        for entry in entries[::3]
        for o in check_explanation(cards[entry["card"]], entry["text"]).outcomes
    )


def test_a_negated_point_is_quoted_with_its_negation() -> None:
    card = _explain_cards()["losses/why-cross-entropy"]
    text = "The entropy of the labels does not depend on the weights. It is not bounded above."
    said = [o.said for o in check_explanation(card, text).outcomes if o.made]
    assert said, "the negated points are made"
    assert all(re.search(r"\bnot\b", quote) for quote in said), said


def test_a_text_of_signs_is_read_as_at_most_max_words_words() -> None:
    """Signs read as words ("≥" is "at least") cannot make a hostile text longer than a long
    explanation: the reader stops at MAX_WORDS words."""
    from recall.grading.explain_words import MAX_WORDS, read_clauses

    for hostile in ("≥" * 4000, "≪∝" * 2000, "a -> b " * 600):
        assert sum(len(clause) for clause in read_clauses(hostile)) <= MAX_WORDS


def test_the_quote_of_a_long_repetitive_text_is_the_shortest_stretch() -> None:
    text = "maximum " * 490 + ". minimising it is maximum likelihood."
    assert learner_words(text, "maximum likelihood") == "maximum likelihood"
    assert learner_words("a " * 999 + "b", "a b") == "a b"
