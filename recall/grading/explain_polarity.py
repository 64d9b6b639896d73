"""Which way a key point leans, and whether a clause of a learner's text leans the other way.

A phrasing names what a point is about ("log likelihood", "inner product length"); the point's
model sentence (``say``) also says which way it goes: the *negative* log-probability of the
*right* class, the inner product *rewards* length, the *maximum* of the likelihood. A learner
who writes the same terms with the other word of such a pair ("the *positive* log-probability
of the *wrong* classes", "inner product *penalises* length") uses the point's words and says its
opposite. This module knows pairs of words that say opposite things (:data:`ANTONYMS`), reads a
point's leaning from its ``say`` once, and tells :mod:`recall.grading.explain` when the clause
that made a phrasing uses the other word of a pair the point leans on and never the point's own.

A pair counts only when the model sentence uses one side of it and not the other ("a small β
chases reward, a large β stays close" leans on neither side of large/small: that point is about
the contrast itself); a word a negation governs counts for neither side.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from recall.grading.explain_words import LINKS, Token, folded, normalised, read_clauses, stem

#: Pairs of word families that say opposite things of the same subject. Words that are also
#: common nouns or names in the decks ("bias", "cost", "reward", "true"/"false" of "false
#: positive") are left out: they would read a leaning into a sentence that has none.
ANTONYMS: tuple[tuple[str, str], ...] = (
    ("positive", "negative"),
    ("right correct", "wrong incorrect"),
    (
        "maximum maximize maximizing maximizes maximized maximal max highest",
        "minimum minimize minimizing minimizes minimized minimal min lowest",
    ),
    ("more", "less fewer"),
    (
        "large larger largest big bigger biggest huge enormous massive high higher",
        "small smaller smallest tiny little low lower lowest",
    ),
    (
        "increase increases increasing increased raise raises raising raised grow grows growing "
        "rise rises rising up upward upwards",
        "decrease decreases decreasing decreased reduce reduces reducing reduced lower lowers "
        "lowering lowered shrink shrinks shrinking drop drops dropping fall falls falling down "
        "downward downwards",
    ),
    ("upper above", "lower below"),
    ("fast faster fastest quickly quick", "slow slower slowest slowly"),
    ("strong stronger strongest strengthen strengthens", "weak weaker weakest weaken weakens"),
    (
        "same identical equal equally symmetric symmetrically",
        "different differ differs unequal unequally asymmetric asymmetrically",
    ),
    ("sparse sparsity", "dense"),
    ("stable stability", "unstable instability"),
    ("cheap cheaper cheapest cheaply", "expensive pricier"),
    ("better best improves improve", "worse worst hurts hurt harms harm degrades"),
    ("rare rarer", "common frequent"),
    ("near nearby", "far farther"),
    ("sharpen sharpens sharpening", "soften softens softening"),
    # whose distribution: the data's (true, empirical) or the model's (predicted); not
    # "target", which names the large model in speculative decoding
    ("data true empirical", "model predicted predictive"),
    ("bounded capped finite", "unbounded uncapped infinite"),
    # "it catches mode dropping" against "it misses mode dropping"
    ("catches catch catching detects detect detecting", "misses miss missing ignores ignore"),
    # "at most 0.25" against "at least 0.25"
    ("most", "least"),
    # "every layer needs an inverse" against "the inverse is optional"
    ("need needs needed required requires necessary essential", "optional unnecessary"),
    # "the forward KL, data first" against "the reverse KL"
    ("forward", "reverse"),
    # "left in train mode" against "in eval mode"
    ("train training", "eval evaluation"),
    # "a classifier that works on noisy x_t" against "trained on clean images"
    ("noisy", "clean noiseless"),
)
#: Nouns that name a quantity and share a stem with a side of a pair: "a rating *difference*
#: maps to a win probability" says nothing differs, and "equal ratings mean 50%" is no
#: contrary of it.
QUANTITY_NOUNS = frozenset({"difference", "differences"})
#: Pairs with nothing between their two sides, so that a negated word is the other side ("no
#: upper *bound*" is unbounded, "*not* bounded" too), and either side said anywhere beside the
#: point's words is said of what the point is about (a loss that *saturates* has a ceiling,
#: whatever else the sentence names). The other pairs are read where a word stands beside what
#: the model sentence says it of.
EITHER_OR: tuple[tuple[str, str], ...] = (
    (
        "bounded bound capped cap ceiling finite saturates saturate saturating saturated "
        "plateaus plateau",
        "unbounded uncapped infinite infinity explodes explode exploding blows",
    ),
    # "correlated features enter or leave together" against "are forced apart", "kept one by one"
    ("together jointly", "apart separately individually"),
)


#: Words that say a thing named does harm or no good ("label smoothing makes it *worse*",
#: "clipping is *useless*"): said beside a point's terms, they deny a point that does not say
#: them itself.
UNDERMINING = """worse worsen worsens hurts hurt harms harm useless pointless counterproductive
backfires backfire ineffective irrelevant"""
#: Words that name a fault: a model sentence that names one ("the classic *bug*: ... silently
#: overwrites the running statistics", "make the loss *spike*") speaks of harm itself, so harm
#: said beside its words ("and the model gets quietly worse") agrees with it.
FAULTS = """bug bugs pitfall pitfalls spike spikes"""
#: Words that say a thing does good: negated beside a point's terms ("clipping doesn't *help*"),
#: they undermine it the same way.
HELPING = """help helps helped fix fixes fixed guard guards guarded prevent prevents prevented
protect protects mitigate mitigates work works matter matters better improve improves improved
effect effects affect affects affected impact impacts influence influences"""


#: Words that set one thing at a multiple of another, upward ("the backward pass costs
#: *twice* the forward") or downward ("the forward pass is *half* the backward"): the same
#: comparison with the two sides swapped says the opposite, and so does the other direction
#: with them in place. Comparatives of a quality ("lower variance than REINFORCE") are left to
#: the antonym pairs: what stands beside them is the quality as often as a side.
COMPARING_UP = """twice double doubles doubled 2x triple thrice threefold"""
COMPARING_DOWN = """half halves halved"""
#: How many words either side of a comparison name its two sides.
SIDE_WORDS = 3


def _stems(words: str) -> frozenset[str]:
    return frozenset(stem(folded(w)) for w in normalised(words).split())


_PAIRS: tuple[tuple[frozenset[str], frozenset[str]], ...] = tuple(
    (_stems(a), _stems(b)) for a, b in ANTONYMS
)
_EITHER_OR: tuple[tuple[frozenset[str], frozenset[str]], ...] = tuple(
    (_stems(a), _stems(b)) for a, b in EITHER_OR
)


#: How far (in words, small words not counted) a word of a pair reaches for what it says of:
#: forward two words ("a far *smaller* auxiliary term" ties "smaller" to "auxiliary" and
#: "term") and back one ("the penalty *gets* stronger", "under-*prediction* unequally"), no
#: further: in "predict ~0 for the *right* class" the "right" is not said of "predict".
AHEAD = 2
BEHIND = 1


def _near(clause: Sequence[Token], i: int) -> Sequence[Token]:
    return (*clause[max(0, i - BEHIND) : i], *clause[i + 1 : i + 1 + AHEAD])


_UP = _stems(COMPARING_UP)
_DOWN = _stems(COMPARING_DOWN)
_UNDERMINING = _stems(UNDERMINING)
_FAULTS = _stems(FAULTS)
_HELPING = _stems(HELPING)


@dataclass(frozen=True)
class Side:
    """One pair a point leans on: the stems of its own side, of the other side, and of the
    words its own side is said of in the model sentence (:func:`_near` it)."""

    own: frozenset[str]
    other: frozenset[str]
    heads: frozenset[str]
    #: an :data:`EITHER_OR` pair: a negated word is the other side, and no head is needed
    either_or: bool = False

    def sides_of(self, token: Token) -> tuple[bool, bool]:
        """Whether ``token`` says this pair's own side, and whether it says the other."""
        if (token.negated and not self.either_or) or token.word in QUANTITY_NOUNS:
            return False, False
        own, other = token.stem in self.own, token.stem in self.other
        return (other, own) if token.negated else (own, other)


@dataclass(frozen=True)
class Leaning:
    """The sides a point's model sentence takes."""

    sides: tuple[Side, ...]
    #: Whether the model sentence itself says harm or no good (then saying so is no denial).
    undermines: bool = False
    #: The model sentence's comparison: the stems before it, after it, and whether it goes up.
    comparison: tuple[frozenset[str], frozenset[str], bool] | None = None
    #: The model sentence's one direction, "from" a word "to" another (stems).
    direction: tuple[str, str] | None = None
    #: The model sentence's rates, "A per B" (stems), where a part of it has one "per".
    rates: frozenset[tuple[str, str]] = frozenset()

    def turns(self, clause: tuple[Token, ...]) -> bool:
        """Whether the clause takes the model sentence's direction the other way ("the KL
        from the posterior to the encoder" against "from the encoder to the posterior"), or
        one of its rates ("parameters per token" against "tokens per parameter")."""
        text_rates = _rates(clause)
        if any((b, a) in text_rates and (a, b) not in text_rates for a, b in self.rates):
            return True  # "20 parameters per token" against "20 tokens per parameter"
        if self.direction is None:
            return False
        source, target = self.direction
        leads = {(t.lead, t.stem) for t in clause if t.lead and not t.negated}
        return ("from", target) in leads and ("to", source) in leads

    def reverses(self, clause: tuple[Token, ...], among: Sequence[bool]) -> bool:
        """Whether the clause (where ``among`` allows) makes the point's comparison the other
        way: its two sides swapped ("the forward pass costs twice the backward") or its
        direction turned ("the backward costs half the forward"), not both."""
        if self.comparison is None:
            return False
        before, after, up = self.comparison
        for i, token in enumerate(clause):
            if not among[i] or token.negated or token.stem not in _UP | _DOWN:
                continue
            ahead, behind = _comparison_sides(clause, i)
            kept = bool(before & ahead and after & behind)
            swapped = bool(before & behind and after & ahead)
            if kept == swapped:
                continue
            if swapped != ((token.stem in _UP) != up):
                return True
        return False

    def contrary_word(
        self,
        clause: tuple[Token, ...],
        among: Sequence[bool],
        anywhere: Sequence[bool],
        heads: frozenset[str] = frozenset(),
    ) -> str | None:
        """The first word of ``clause`` on the other side of a pair the point leans on, when
        the clause never uses the point's own side of that pair: said of a word the point says
        its own side of ("the *positive* log-probability" against "the negative
        log-probability"; or of one of ``heads``, the word a one-word phrasing stands in for:
        "at *least* a quarter" against "at most 0.25"), where ``anywhere`` allows; for harm
        and either-or pairs, where ``among`` allows (the parts beside the point's words).
        ``None`` when there is none."""
        if not self.undermines:
            for i, token in enumerate(clause):
                if among[i] and (
                    (token.stem in _UNDERMINING and not token.negated)
                    or (token.stem in _HELPING and token.negated)
                ):
                    return token.word
        for side in self.sides:
            # the point's own word counts where it is said of what the model sentence says it
            # of ("positives are common and negatives rare": "rare" is said of negatives)
            if any(
                side.sides_of(token)[0]
                and (
                    side.either_or
                    or any(o.stem in side.heads or o.stem in heads for o in _near(clause, i))
                )
                for i, token in enumerate(clause)
            ):
                continue
            for i, token in enumerate(clause):
                if not (among if side.either_or else anywhere)[i]:
                    continue
                if not side.sides_of(token)[1]:
                    continue
                # a word opening a part is said of nothing before its comma ("= 0 iff
                # p = q, asymmetric" says nothing asymmetric of q)
                if side.either_or or any(
                    (o.stem in side.heads or o.stem in heads) and o.piece >= token.piece
                    for o in _near(clause, i)
                ):
                    return token.word
        return None


def reverses_pair(slots: Sequence[frozenset[str]], clause: Sequence[Token]) -> bool:
    """Whether the clause pairs a phrasing's words the other way round: a phrasing word on one
    side of a pair of :data:`ANTONYMS` ("needs *large* batches") stands only in parts of the
    clause apart from another of its words, and that word's part says the other side ("BatchNorm
    needs *small* batches, large batches make it noisy"; "adding capacity *lowers* variance
    and more data *raises* it"). ``slots`` are the stems each of the phrasing's words may
    take; a part ends at a comma and at a step of a chain of reasons (:attr:`Token.step`). A
    phrasing with a word of each side (nothing else) places both itself, by its own order."""
    for slot in slots:
        for a, b in _PAIRS:
            if all(any(word <= side for word in slots) for side in (a, b)):
                continue  # the phrasing needs both sides itself ("tpr>positives fpr>negatives")
            for own, other in ((a, b), (b, a)):
                if not slot & own or slot & other:
                    continue
                if not any(t.stem in slot & own for t in clause):
                    continue  # the clause takes the slot with another of its words
                owned = {
                    (t.piece, t.step)
                    for t in clause
                    if (t.stem in own or t.stem in slot) and not t.negated
                }
                contrary = {(t.piece, t.step) for t in clause if t.stem in other and not t.negated}
                if not contrary:
                    continue
                for word in slots:
                    if word is slot:
                        continue
                    parts = {
                        (t.piece, t.step)
                        for t in clause
                        if t.stem in word and t.stem not in own | other
                    }
                    if parts and not parts & owned and parts & contrary:
                        return True
    return False


def _comparison_sides(clause: Sequence[Token], i: int) -> tuple[frozenset[str], frozenset[str]]:
    """The stems of the words before and after the comparison at ``i`` in its part of the
    clause (at most :data:`SIDE_WORDS` each way)."""
    piece = clause[i].piece
    before = [t.stem for t in clause[max(0, i - SIDE_WORDS) : i] if t.piece == piece]
    after = [t.stem for t in clause[i + 1 : i + 1 + SIDE_WORDS] if t.piece == piece]
    return frozenset(before) - frozenset(after), frozenset(after) - frozenset(before)


def _comparison(
    clauses: Sequence[tuple[Token, ...]],
) -> tuple[frozenset[str], frozenset[str], bool] | None:
    """The model sentence's one comparison, or ``None`` (none, or several)."""
    found = [
        (clause, i)
        for clause in clauses
        for i, token in enumerate(clause)
        if not token.negated and token.stem in _UP | _DOWN
    ]
    if len(found) != 1:
        return None
    clause, i = found[0]
    before, after = _comparison_sides(clause, i)
    if not before or not after:
        return None
    return before, after, clause[i].stem in _UP


@lru_cache(maxsize=1 << 12)
def leaning(say: str) -> Leaning:
    """Which side of each pair of :data:`ANTONYMS` the model sentence ``say`` takes, and what
    it says that side of."""
    clauses = [tuple(t for t in clause if not t.negated) for clause in read_clauses(say)]
    stems = {
        token.stem for clause in clauses for token in clause if token.word not in QUANTITY_NOUNS
    }
    sides = []
    for a, b in _PAIRS:
        for own, other in ((a, b), (b, a)):
            if stems & own and not stems & other:
                heads = {
                    near.stem
                    for clause in clauses
                    for i, token in enumerate(clause)
                    if token.stem in own
                    for near in _near(clause, i)
                }
                sides.append(Side(own, other, frozenset(heads)))
    sides.extend(_rejected_sides(say))
    undermines = any(
        token.stem in _UNDERMINING | _FAULTS or (token.negated and token.stem in _HELPING)
        for clause in read_clauses(say)
        for token in clause
    )
    tokens = [token for clause in read_clauses(say) for token in clause]
    for a, b in _EITHER_OR:
        said_a = any((t.stem in a) != t.negated and t.stem in a | b for t in tokens)
        said_b = any((t.stem in b) != t.negated and t.stem in a | b for t in tokens)
        if said_a != said_b:
            own, other = (a, b) if said_a else (b, a)
            sides.append(Side(own, other, frozenset(), either_or=True))
    return Leaning(
        tuple(sides),
        undermines,
        _comparison(list(read_clauses(say))),
        _direction(clauses),
        frozenset(rate for clause in clauses for rate in _rates(clause)),
    )


#: The lead words of "instead of", "rather than", "as opposed to" (the rest read as "without").
_REJECTING_LEADS = frozenset({"instead", "rather", "opposed"})


def _rejected_sides(say: str) -> list[Side]:
    """The model sentence's "A instead of B" read as a pair of its own: B, the word after
    "instead of" (or "rather than"), is the other side, said of the words the sentence puts
    beside it ("*Instead of adding* a position vector, RoPE rotates ..." against "RoPE *adds* a
    learned position vector"). A word the sentence also says outright is no side."""
    clauses = list(read_clauses(say))
    plain = {t.stem for clause in clauses for t in clause if not t.negated}
    sides = []
    for clause in clauses:
        for i, token in enumerate(clause):
            if not (i and token.negated and clause[i - 1].word in _REJECTING_LEADS):
                continue
            if token.stem in plain or token.word in LINKS or token.word[:1].isdigit():
                continue  # "instead of about 1000": a figure, left to the numbers
            heads = frozenset(t.stem for t in _near(clause, i) if t.word not in _REJECTING_LEADS)
            sides.append(Side(frozenset(), frozenset({token.stem}), heads))
    return sides


def _rates(clause: Sequence[Token]) -> frozenset[tuple[str, str]]:
    """The clause's "A per B" (stems of the words either side), in parts of the clause with
    one "per" only ("FLOPs per parameter per token" names no single rate)."""
    found = set()
    for piece in {t.piece for t in clause}:
        words = [t for t in clause if t.piece == piece]
        at = [i for i, t in enumerate(words) if t.word == "per"]
        if len(at) == 1 and 0 < at[0] < len(words) - 1:
            found.add((words[at[0] - 1].stem, words[at[0] + 1].stem))
    return frozenset(found)


def _direction(clauses: Sequence[tuple[Token, ...]]) -> tuple[str, str] | None:
    """The model sentence's one "from X to Y" (X before Y in one clause), or ``None``."""
    found = []
    for clause in clauses:
        sources = [i for i, t in enumerate(clause) if t.lead == "from"]
        targets = [i for i, t in enumerate(clause) if t.lead == "to"]
        if len(sources) == 1 and len(targets) == 1 and sources[0] < targets[0]:
            found.append((clause[sources[0]].stem, clause[targets[0]].stem))
    return found[0] if len(found) == 1 and found[0][0] != found[0][1] else None
