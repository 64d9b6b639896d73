"""Typed explanations checked point by point, without a language model.

An explain card may declare its key points (:class:`recall.cards.model.KeyPoint`): the model
sentence, and the phrasings that count as saying it. This module decides which points a typed
explanation makes, and the verdict and suggested rating that follow.

How a phrasing is matched, and why (reading the text as words, clauses and negations is
:mod:`recall.grading.explain_words`):

* **Words, not strings.** Text and phrasing are cut into words, lower-cased, with British
  spellings folded into American ones (``normalise`` and ``normalize``) and contractions opened
  (``doesn't`` is ``does not``), then reduced to their stems (Snowball's English stemmer), so
  ``depends``, ``depending`` and ``dependence`` are one word. Small words (``the``, ``of``, ``is``)
  carry no point and are left out of phrasings.
* **One spelling.** Sub- and superscripts fold (``k₁`` is ``k1``), a minus sign between
  operands is the word "minus", and common abbreviations are read as the name they stand for
  (``BN`` is ``batchnorm``, ``grads`` is ``gradients``, "with respect to" is ``wrt``; ``CE``
  and "cross-entropy" are ``crossentropy``); a negation typed without its apostrophe
  ("doesnt") is still one. An abbreviation spoken letter by letter ("C E", "K L") is the
  abbreviation, and the signs of terse notes are words ("train != test" says they differ,
  "min CE <=> min KL" that they are one, "BN @ inference").
* **A word's family.** A phrasing's word is made by the words a learner says for it
  (:data:`~recall.grading.explain_words.SYNONYM_FAMILIES`: "static" for "fixed", "relies"
  for "depends", "overwhelm" for "dominate"); no family crosses a pair of opposites, and an
  adjective's family is not a verb's of the same stem ("corrects|correct bias" is not made by
  "the *right* size"). A
  Greek letter's name is its symbol ("sigma" is "σ").
* **One clause.** Every word of a phrasing must occur in the same clause of the text (clauses end
  at ``.``, ``;``, ``!``, ``?``, a line break, and at ``but``/``whereas``; a clause that opens
  with a pronoun, "It does not depend on the weights", or with its verb ("... but explodes near
  zero"), is also read together with the clause before it, and for a point whose model
  sentence holds a contrast of its own, "unbiased but very noisy", the two halves of a
  learner's "but" are read as one clause too), in any order: a learner who writes "the KL
  divergence is the only part that moves" says the same as "only the KL term changes". Where
  order carries the meaning a phrasing says so: ``a>b`` wants ``b`` close after ``a`` and
  before any comma outside brackets ("over the batch", not "each example over its features",
  nor "under p, so q" for ``under>q``).
* **Slips forgiven.** A word of six letters or more may be one key off (``preceeding``), ten or
  more two keys, the same as the deck format's spelling rule (:mod:`recall.spelling`), never in
  its first letter nor from ``min`` to ``max``: "minimizing" is two keys from "maximizing" and
  means the opposite. A word of four or five letters may have two neighbouring letters swapped
  ("lable") or a doubled letter typed once ("clas"), the slips that make no other word. A word
  the card itself uses (its prompt, model sentences, phrasings) is never a slip of another:
  "straying" is no "staying" on a card that says "stray".
* **Negation flips a point.** A ``not``/``never``/``nothing`` (or ``n't``) governs the words
  after it up to a comma or the clause's end (at most six words; two in a relative clause, "a
  model *that never* predicts positive gets 1% accuracy", unless a comma closes it); a
  ``no``/``without``/"rather than"/"instead of" only the phrase it introduces ("no need *for*
  a master copy" reaches the copy); a ``nothing``
  after a verb denies the verb ("teaches nothing"). An aside in brackets is out of a negation's
  reach ("never negative (Gibbs' inequality)"); "never below zero", "at least 0" and "≥ 0" are
  "nonnegative", and "KL(p||q) != KL(q||p)" is "asymmetric". A phrasing without a negation
  is not made by negated words ("does *not* depend on the parameters" does not say "depends on the
  parameters"), and a phrasing with one needs a negated word after its ``not`` and none before
  it.
* **A rejected claim is no point.** "It is not true that ...", "it's not that ...", "I don't
  think that ...", "..., not because ...", and a next clause taking the claim back ("but that
  never happens") deny what they introduce to the clause's end; a clause where such a denial
  holds a word the point claims (of its model sentence and phrasings) makes none of the point's
  phrasings, whatever else it says ("twice the forward because it walks the layers again, *not
  because* it computes more gradients"). A denial the learner's own claim follows after a comma
  or colon ("it's not that X, it's that Y") denies X only. So does "instead of" or "rather
  than" set before a word the model sentence asserts outright and the clause does not ("QK-Norm
  normalises the values *rather than the queries*").
* **Contrasts are bound.** A point about one side of a contrast names its ``subject`` and what it
  is ``versus``; each word of a clause is said of the term mentioned nearest before it in its
  part of the clause (parts end at commas, ``while``, ``though``, "on the other hand" and the
  like), and only words said of the phrasing's
  own term count: "prefill is memory-bound, decode compute-bound" does not say "decode is
  memory-bound". A clause opening with a pronoun speaks of the clause before's subject, not
  of the last term it named ("RMSNorm is basically LayerNorm. *It* skips the centring").
* **A list of terms is no statement.** A point's words must be linked (a small word, a
  negation, a preposition, a sign): a clause of six words or more with no link at all, a run of
  nine with only spaces and commas between, or four comma-parted items of one or two words in a
  row ("bce, mse, sigmoid, slope") is a list, its words make no point, and the verdict says so;
  so are four comma-parted items in a row of up to four words each with no verb or relating
  sign among them, whatever stands inside an item ("one-hot, sqrt(d_k), KL to reference"),
  unless most of them deny something ("no reward model, no sampling, no value net, no RL").
  The longest unlinked run in a written sentence is about eight words ("small batches give noisy
  statistics" is five and still a statement). A bag of keywords joined by spaces, prepositions
  and hyphens is a list too: twelve words in a row with no small word, negation, verb or sign
  among them ("20 activations flops gradients inference over-train parameter per scales six
  size tokens"); so is a clause of five or more of the card's own keywords with nothing tying
  them and no preposition ("RMSE MAE MAPE outliers median"), and a run of nine such words (one
  preposition and one word of the learner's own allowed) inside a clause. Nor does a clause
  make a point whose every word is a word of the card's prompt
  or hint (the question typed back), nor the words that made one point make a second.
* **A point leans one way.** Its model sentence takes one side of pairs such as
  negative/positive, right/wrong, maximum/minimum, larger/smaller, cheaper/more expensive
  (:mod:`recall.grading.explain_polarity`); the part of a clause that makes a phrasing and
  uses the other word of such a pair, beside what the point says its own word of, and never
  the point's own word, says the opposite ("the *positive* log-probability of the *wrong*
  class"); the "B" of a model sentence's "A instead of B" is such an other word ("RoPE *adds* a
  position vector" against "instead of adding a position vector, RoPE rotates"), and "X-free"
  is "without X". Harm or no good said there ("makes it *worse*", "is *useless*", "doesn't *help*",
  "is no *better*", "has no *effect*")
  denies a point that does not say so itself, and a multiple the model sentence sets between
  two things ("the backward costs *twice* the forward") said with its sides swapped or its
  direction turned (not both) says the point the other way. So does a phrasing whose word of such a
  pair ("needs *large* batches") stands apart from another of its words, in parts of the
  clause (commas, ", and", "so") where that word stands with the other side ("BatchNorm needs
  *small* batches, large batches make it noisy").
* **Roles follow the model sentence.** A point with no ``subject`` on a card whose points
  declare contrast terms, or whose model sentence names members of a family learners mix up
  in parts of their own ("the *generator* always gets a useful gradient, and the *critic's*
  value tracks sample quality"; those members are then its terms), is read for who does what:
  each word of its ``say`` is said of the term mentioned nearest before it there (a term
  inside brackets is a formula's argument, no mention), and a clause that says more of the
  phrasing's words of another term than of the same ("cross-entropy mutes the errors that MSE
  keeps loud") makes none of them.
* **Figures go with their terms.** A phrasing of two figures and two terms ("two forward four
  backward") is not made by a clause that pairs them the other way round from the model
  sentence: the figures in one order and the terms in the other ("the forward pass is the
  expensive one, about four FLOPs, and the backward only needs two").
* **A claim is of the thing the model sentence names.** Things learners mix up come in
  families (BatchNorm, LayerNorm, RMSNorm; the prior and the posterior; the entropy and the
  KL; the policy and the reward model, a name of two words read where they stand in a row;
  :mod:`recall.grading.explain_attribution`): a phrasing made in a step of a clause (steps
  end at "so", "because" and the like) that names another member of a family the ``say``
  names, and not all of the ``say``'s own, is said of the wrong thing ("the ELBO is a
  reconstruction term minus a KL to the *posterior*" for "... a KL to the prior").
* **Opposites unmake.** A clause that says one of a point's ``opposites`` ("the loss is
  bounded") makes none of its phrasings, and a text that says one makes it with no number or
  formula.
* **A formula is of the quantity the model sentence names.** A right formula stated as the
  value of another of a few distinct quantities (variance, KL, entropy, distance, inner
  product, inference, training, ...) than the words before the formula in the ``say`` ("the
  *variance* of the mean is σ/√n" for "the standard error σ/√n") makes no point.
* **A figure is read whole.** A phrasing's number is no piece of a longer figure of the text
  ("6" of "6.6", "0" of "0.0013", "1" of "1/d" or "one over d"), unless the phrasing goes on
  with the figure's other pieces ("0 5" is "0.5"); a figure that a negation governs, not as a
  bound ("it never lasts anything like a thousand steps", not "never exceeds 0.25"), states
  no value.
* **Numbers in words are numbers.** A number spelt in several words ("seven hundred
  sixty-eight", "point zero one three", "seven tenths") is read as its digits
  (:mod:`recall.grading.explain_numbers`); a phrasing's digit takes the word for it
  ("2>minus>2>cos" is made by "two minus two times the cosine") inside a chain of close words;
  "0" and "zero" anywhere ("the weight is exactly 0"), unless the "0" is a piece of a figure.
* **Formulas and numbers are graded, not read.** Runs of the text that look like math are read
  with the engine's own grammar and compared with the point's formulas by the engine, an
  equation as an equation (:mod:`recall.grading.explain_formulas`); numbers are compared within
  the point's margin. A phrasing whose words were all read off a formula of the text that the
  engine grades wrong for the point (``√(p(1 + p)/n)`` for ``p 1 p n``) does not make it, nor
  do words in a clause that writes the point's formula wrongly as a value ("is", "=", "by a
  factor of h*g") or as an equation ("z = σ + μ·ε moves the noise out of the graph"). Nor does a
  text that performs the ``say``'s operation on another operand of the same names ("dividing
  by *d_k* itself" for "dividing by √d_k"; :mod:`recall.grading.explain_operands`), nor one
  that gives a figure of the ``say`` wrongly where its words are ("the logits get *64 times*
  smaller" for "an 8x smaller logit scale"; :mod:`recall.grading.explain_figures`), nor one
  whose sentence writes a divergence of the point the other way round ("H(p) + KL(q||p)" where
  the sentence or the card's model answer means KL(p‖q);
  :mod:`recall.grading.explain_directions`).

The verdict is correct when at least half the points are made; the rating it suggests is Good
when every point is made and Hard when some are missed (Hard still passes), Again below half.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from recall.cards.model import Card, KeyPoint
from recall.formula import Status, SymbolTable, Verdict
from recall.grading.explain_attribution import Attribution, attribution, named_members
from recall.grading.explain_denials import blanked, blanked_spans, denied_spans, rejected_claims
from recall.grading.explain_directions import meant as meant_direction
from recall.grading.explain_directions import reversed_kl
from recall.grading.explain_dismissed import dismisses
from recall.grading.explain_figures import contradicted, sentences
from recall.grading.explain_formulas import FormulaGrader
from recall.grading.explain_formulas import formula_spans as formula_spans
from recall.grading.explain_lexicon import another_word
from recall.grading.explain_litotes import plain_litotes
from recall.grading.explain_markers import with_markers
from recall.grading.explain_numbers import spelt_numbers, twins
from recall.grading.explain_operands import wrong_operand
from recall.grading.explain_pairing import crosses_figures
from recall.grading.explain_parts import said_of_other_part
from recall.grading.explain_polarity import Leaning, leaning, reverses_pair
from recall.grading.explain_prefixes import says_twin, with_prefixed_twins
from recall.grading.explain_purpose import denies_purpose
from recall.grading.explain_purpose_denied import denies_purpose_words
from recall.grading.explain_questions import answered_questions
from recall.grading.explain_quote import learner_words
from recall.grading.explain_regardless import ignores_dependency
from recall.grading.explain_retracted import without_retracted
from recall.grading.explain_roles import SaidOf, said_of
from recall.grading.explain_sides import said_of_other_side, say_stems
from recall.grading.explain_termlists import only_in_terms
from recall.grading.explain_words import (
    LINKS,
    NEGATORS,
    SMALL_WORDS,
    SPELT_OUT_WORDS,
    WORD,
    Token,
    folded,
    normalised,
    read_clauses,
    stem,
    synonyms,
)
from recall.inert import quote
from recall.spelling import edit_distance
from recall.verdicts import LISTED_TERMS, PointOutcome

#: Longest explanation read (characters); the rest is ignored, said in the verdict.
MAX_TEXT = 4000
#: Share of the points that makes an explanation pass.
PASS_SHARE = 0.5

_NUMBER = re.compile(
    r"(?<![\w.])[-−]?\d+(?:[.,]\d+)?(?:[eE][-+−]?\d+)?(%|\s*per\s?cent\b)?", re.IGNORECASE
)
#: Numbers written as words ("eightfold", "twenty tokens", "a thousand steps"); "one" is left
#: out, being mostly not a number ("one-hot", "one token at a time").
_NUMBER_WORDS = {
    word: number
    for number, word in enumerate(
        """zero _ two three four five six seven eight nine ten eleven twelve thirteen fourteen
        fifteen sixteen seventeen eighteen nineteen twenty""".split()
    )
    if word != "_"
} | {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "hundred": 100, "thousand": 1000}
_NUMBER_WORD = re.compile(r"\b(" + "|".join(_NUMBER_WORDS) + r")(?:fold|x)?\b", re.IGNORECASE)
_MATHY_CHARS = set("+-−*/^()=√·×<>≤≥≈_'ᵀ|!²³")
_FUNCTION_WORDS = frozenset(
    """log ln exp sqrt softmax sigmoid tanh relu max min sum mean var cov kl e""".split()
)
#: Greek letters spelt out, as learners type them in a formula ("mu + sigma * eps").
_GREEK_NAMES = frozenset(
    """alpha beta gamma delta epsilon eps zeta eta theta iota kappa lambda mu nu xi pi rho
    sigma tau phi chi psi omega""".split()
)
#: Numbers a phrasing's word takes in the learner's other spelling wherever it stands ("exactly
#: 0" for "zero"); other numbers only in a chain of close words ("log 2" is no "two bits").
_ZERO = frozenset({"zero", "0"})
#: ``a>b`` in a phrasing: ``b`` among the next this many words of the text after ``a``.
NEAR = 2


@dataclass(frozen=True)
class _Slot:
    """A word a phrasing requires: any of its alternatives (``a|b``); ``near`` when it must
    follow the slot before it closely (``a>b``); ``denied`` when it stands after the
    phrasing's negation."""

    stems: tuple[str, ...]
    words: tuple[str, ...]
    near: bool = False
    denied: bool = False
    #: a number's other spelling ("two" for "2"), taken only in a chain of near slots
    #: ("2>minus>2>cos"): loose, "log 2" would be made by "log 4, two bits"
    twins: tuple[str, ...] = ()
    #: a number (one of its words digits), which takes a piece of a longer figure of the text only
    #: where the phrasing goes on with it: ahead when the next slot follows it closely or is a
    #: number too ("0" of "0.25", "0 5"), behind likewise; otherwise "0" is no "0.0013" and "6"
    #: no "6.6"
    figure: bool = False
    open_ahead: bool = False
    open_behind: bool = False


@dataclass(frozen=True)
class Phrasing:
    """A phrasing read once: its required word slots and whether it is negated."""

    slots: tuple[_Slot, ...]
    negated: bool

    @classmethod
    def read(cls, text: str) -> Phrasing:
        """``"entropy not depend weights|parameters"`` → three slots, the last two after the
        negation; ``"across|over>batch"`` → two slots, the second close after the first."""
        slots: list[_Slot] = []
        negated = False
        for raw in normalised(text).split():
            near = False
            for part in raw.split(">"):
                added = cls._slots(part, near=near, denied=negated)
                if added is None:
                    negated = True
                    continue
                slots.extend(added)
                near = True
        chained = [
            slot.near or (k + 1 < len(slots) and slots[k + 1].near) for k, slot in enumerate(slots)
        ]
        figures = [any(w.isdigit() for w in slot.words) for slot in slots]
        slots = [
            replace(
                slot if chain or _ZERO & set(slot.words) else replace(slot, twins=()),
                figure=figures[k],
                open_ahead=k + 1 < len(slots) and (slots[k + 1].near or figures[k + 1]),
                open_behind=slot.near or (k > 0 and figures[k - 1]),
            )
            for k, (slot, chain) in enumerate(zip(slots, chained, strict=True))
        ]
        return cls(tuple(slots), negated)

    @staticmethod
    def _slots(raw: str, *, near: bool, denied: bool) -> list[_Slot] | None:
        """The slots one phrasing word stands for; ``None`` for a negation."""
        # A phrasing word is cut as the text is ("one-hot", "0.2" and "h(p)" are several words
        # there), else it could never match; each piece is then a word of its own, close after
        # the one before ("one-hot" is "one" then "hot"). (Alternatives, "a|b", are taken whole.)
        if "|" not in raw and len(WORD.findall(raw)) > 1:
            pieces = [w for w in WORD.findall(raw) if w != "," and w not in SMALL_WORDS | NEGATORS]
            return [
                _Slot(
                    (stem(folded(w)),),
                    (folded(w),),
                    near=near or i > 0,
                    denied=denied,
                    twins=twins(folded(w)),
                )
                for i, w in enumerate(pieces)
            ]
        options = [option for option in raw.split("|") if option]
        plain = [option for option in options if option not in SMALL_WORDS]
        if plain and all(option in NEGATORS for option in plain):
            return None
        if not plain:
            return []
        words = tuple(folded(option) for option in plain)
        numbers = tuple(t for w in words for t in twins(w))
        verbs = _verb_senses(words)
        stems = tuple(
            dict.fromkeys(
                s
                for w in words
                for s in (stem(w), *(() if stem(w) in verbs else synonyms(stem(w))))
            )
        )
        return [_Slot(stems, words, near=near, denied=denied, twins=numbers)]


#: Words whose family of :data:`~recall.grading.explain_words.SYNONYM_FAMILIES` holds for the
#: adjective only: "correct" is "right", but the verb "corrects" (one stem) is no "right".
ADJECTIVE_FAMILIES = frozenset({stem("correct")})


def _verb_senses(words: Sequence[str]) -> frozenset[str]:
    """The stems of :data:`ADJECTIVE_FAMILIES` that a phrasing word's alternatives take as a
    verb, by listing an inflected form of it ("corrects|correct|fixes bias"): such a slot is
    not made by the adjective's family ("it's the *right* size")."""
    return frozenset(
        stem(w)
        for w in words
        if stem(w) in ADJECTIVE_FAMILIES and w != stem(w) and w.endswith(("s", "ed", "ing"))
    )


def phrasing_problem(text: str) -> str | None:
    """What is wrong with a phrasing as a deck writes it, or ``None``: a negation among a
    word's alternatives (``"differ|not same"`` reads as a word "not" the text never has, so
    the phrasing can only be made with "same"), or a negation with no word after it to deny
    (``"b 0 none"`` can never be made)."""
    denied_words = 0
    negated = False
    for raw in normalised(text).split():
        for part in raw.split(">"):
            options = [option for option in part.split("|") if option]
            negators = [option for option in options if option in NEGATORS]
            if negators and len(negators) < len(options):
                return (
                    f"'{'|'.join(options)}' mixes a negation with words; give the negated "
                    "wording as a phrasing of its own"
                )
            if negators:
                negated = True
            elif negated:
                denied_words += any(option not in SMALL_WORDS for option in options)
    if negated and not denied_words:
        return "its negation has no word after it to deny; put 'not' before the words it denies"
    return None


def loose_phrasing(card: Card, text: str) -> str | None:
    """Why a phrasing of ``card``'s points is too loose to state anything, or ``None``: one
    word (or one list of alternatives) that is a word of the card's own prompt or hint
    ("classification" on a card whose hint says "Classification among N candidates") is made
    by any answer that types the question back beside one other word of the point."""
    phrasing = _phrasing(text)
    if len(phrasing.slots) != 1 or phrasing.negated:
        return None
    asked = _asked_stems(card)
    slot = phrasing.slots[0]
    if all(stem(word) in asked for word in slot.words):
        return (
            "one word that the card's prompt or hint already says states nothing; add what is "
            "said of it (a second word)"
        )
    return None


#: Words after which a term is what something named before it is compared with, not what the
#: words around it are said of: "RMSNorm: *like* LayerNorm without subtracting the mean".
_LIKENING = frozenset({"like", "similar", "resembles", "resembling"})


@dataclass(frozen=True)
class _Contrast:
    """A point's contrast read once: its terms (the subject first, when it has one)."""

    terms: tuple[_Slot, ...]
    has_subject: bool

    @classmethod
    def of(cls, point: KeyPoint) -> _Contrast | None:
        if not point.versus:
            return None
        names = ((point.subject,) if point.subject else ()) + point.versus
        terms = []
        for name in names:
            words = tuple(folded(w) for w in normalised(name).split("|") if w.strip())
            terms.append(_Slot(tuple(stem(w) for w in words), words))
        return cls(tuple(terms), bool(point.subject))

    def bound_term(self, phrasing: Phrasing) -> int | None:
        """The term a phrasing is said of: the one it names, else the subject; ``None`` when
        it names several (it states the contrast itself) or none and there is no subject."""
        named = {
            k
            for k, term in enumerate(self.terms)
            for slot in phrasing.slots
            if set(slot.stems) & set(term.stems)
        }
        if len(named) == 1:
            return named.pop()
        if not named and self.has_subject:
            return 0
        return None

    def term_of(self, token: Token) -> int | None:
        """The term a word names, said plainly (not negated, nor a foil), or ``None``."""
        if token.negated or token.foil:
            return None
        return next((k for k, term in enumerate(self.terms) if _slot_takes(term, token)), None)

    def mentions(self, token: Token) -> bool:
        """Whether the word names one of the terms."""
        return any(_slot_takes(term, token) for term in self.terms)

    def owners_of(
        self, clauses: Sequence[tuple[Token, ...]], *, prose: bool = False
    ) -> list[list[int | None]]:
        """:meth:`owners` of every clause, each clause starting from the last term the clauses
        before it spoke of ("Decode reads every weight. So it is memory-bound.")."""
        result = []
        carry: int | None = None
        subject: int | None = None
        for clause in clauses:
            # "RMSNorm is basically LayerNorm. *It* skips the centring": a clause opening with
            # a pronoun speaks of the clause before's subject, not of its last term named
            start = subject if clause and clause[0].refers and subject is not None else carry
            owned, carry = self.owners(clause, start, prose=prose)
            subject = _subject(self, clause, subject)
            result.append(owned)
        return result

    def owners(
        self, clause: tuple[Token, ...], carry: int | None = None, *, prose: bool = False
    ) -> tuple[list[int | None], int | None]:
        """Which term each word of the clause is said of, and the term the clause leaves
        spoken of: the nearest term mentioned before it in its comma-delimited piece, else
        after it in that piece, else before it in the clause or, failing that, ``carry`` (a
        subject carries across commas and sentences: "decode reads the weights, so it is
        memory-bound"). A mention after "unlike"/"than"/"not" is a foil: it owns the words of
        its own piece ("unlike L2's 2λw") but carries across no comma. A term right after
        another and "is" (or "=") names the first again ("RMSNorm is LayerNorm without the
        centring"). A term named in brackets owns only the words inside them ("JS (a smoothed
        KL) is symmetric" is JS's).
        With ``prose`` (who does what), a term inside brackets is a formula's argument ("(x_0,
        ε)"), no mention, and only a term named before a word owns it."""
        mention: list[int | None] = []
        for i, token in enumerate(clause):
            named = None
            if not (prose and token.bracketed):
                named = next(
                    (k for k, term in enumerate(self.terms) if _slot_takes(term, token)), None
                )
            if named is not None and token.copula and i and mention[i - 1] is not None:
                named = None
            if i and clause[i - 1].word in _LIKENING and any(m is not None for m in mention):
                # "RMSNorm: *like LayerNorm* without the mean" is RMSNorm's; with nothing named
                # before, "like" is "such as" ("like BatchNorm falling apart at tiny batches")
                named = None
            mention.append(named)
        # One sweep forward (the last mention in the piece and in the clause so far) and one
        # back (the next mention in the piece): linear in the clause's length.
        before: list[int | None] = []
        earlier: list[int | None] = []
        last_in_piece = None
        # a term named in an aside or a formula's brackets ("JS (a smoothed KL) is ...",
        # "(Gibbs / Jensen: ...)") owns the words in its brackets, not those after them
        in_aside = None
        last = carry
        for i, token in enumerate(clause):
            if i and token.piece != clause[i - 1].piece:
                last_in_piece = None
            if not token.bracketed:
                in_aside = None
            if i and token.refers:
                # a pronoun's clause read after the one before it: that clause's subject
                last = _subject(self, clause[:i], carry) if mention[i] is None else last
            if mention[i] is not None and token.bracketed:
                in_aside = mention[i]
            elif mention[i] is not None:
                last_in_piece = mention[i]
                # a term in brackets is an aside or a formula's argument ("(x_0, ε)"): it speaks
                # for its own piece, and the clause goes on about what it spoke of before
                if not token.foil and not token.bracketed:
                    last = mention[i]
            before.append(in_aside if in_aside is not None else last_in_piece)
            earlier.append(last)
        after: list[int | None] = [None] * len(clause)
        following: int | None = None
        for i in reversed(range(len(clause))):
            if i + 1 < len(clause) and clause[i + 1].piece != clause[i].piece:
                following = None
            after[i] = following
            if mention[i] is not None:
                following = mention[i]
        if prose:
            # who does what: only a term named before a word is its doer ("so it shows the
            # cost ROC hides": "shows" is not ROC's)
            return [b if b is not None else e for b, e in zip(before, earlier, strict=True)], last
        owned = [
            b if b is not None else a if a is not None else e
            for b, a, e in zip(before, after, earlier, strict=True)
        ]
        return owned, last


def _subject(contrast: _Contrast, clause: Sequence[Token], carry: int | None) -> int | None:
    """The term a clause is about: the first it names outside a foil ("*unlike* BatchNorm")
    and brackets, else the one it carried over (``carry``)."""
    for token in clause:
        if token.foil or token.bracketed:
            continue
        named = next((k for k, t in enumerate(contrast.terms) if _slot_takes(t, token)), None)
        if named is not None:
            return named
    return carry


@dataclass(frozen=True)
class _Roles:
    """Who does what in a point's model sentence, for a point with no ``subject`` of its own on
    a card whose points declare contrasts: the card's contrast terms (``subject`` and
    ``versus`` of its points), and which of them the model sentence says each of its words of
    ("Cross-entropy keeps errors *loud* exactly where MSE *mutes* them": ``loud`` of
    cross-entropy, ``mutes`` of MSE). A text that says the point's words of the other term
    ("cross-entropy mutes the errors that MSE keeps loud") swaps the roles."""

    contrast: _Contrast
    said_of: dict[str, int]
    #: the terms are a family's members the model sentence names (:func:`named_members`), the
    #: doers of its parts: a phrasing naming one of them says its words of that one
    by_family: bool = False

    @classmethod
    def of(cls, card: Card, point: KeyPoint) -> _Roles | None:
        if point.subject:
            return None  # bound to its subject already (:class:`_Contrast`)
        # the members of a family of things learners mix up that the model sentence names in
        # parts of their own ("GQA makes groups ...; MQA is the extreme ..."), else the card's
        # contrast terms: who does what there
        names: list[str] = list(named_members(point.say))
        seen: set[str] = set()
        for name in [p.subject for p in card.points if p.subject] + [
            v for p in card.points for v in p.versus
        ]:
            if names and not seen:
                break
            words = {w for w in normalised(name).split("|") if w.strip()}
            if words & seen:
                continue
            seen |= words
            names.append(name)
        if len(names) < 2:
            return None
        terms = tuple(
            _Slot(
                tuple(stem(folded(w)) for w in normalised(n).split("|") if w.strip()),
                tuple(folded(w) for w in normalised(n).split("|") if w.strip()),
            )
            for n in names
        )
        contrast = _Contrast(terms, has_subject=False)
        said_of: dict[str, int] = {}
        mixed: set[str] = set()
        clauses = list(read_clauses(point.say))
        for clause, owned in zip(clauses, contrast.owners_of(clauses, prose=True), strict=True):
            for token, owner in zip(clause, owned, strict=True):
                if owner is None or contrast.mentions(token):
                    continue
                if said_of.get(token.stem, owner) != owner:
                    mixed.add(token.stem)
                said_of[token.stem] = owner
        said_of = {s: o for s, o in said_of.items() if s not in mixed}
        by_family = bool(named_members(point.say))
        return cls(contrast, said_of, by_family) if said_of else None

    def swapped(self, phrasing: Phrasing, clause: tuple[Token, ...]) -> bool:
        """Whether the clause says more of the phrasing's words of another term than the model
        sentence does (or the phrasing, where it names one) than of the same term."""
        own = {stem for slot in phrasing.slots for stem in slot.stems}
        owned, _ = self.contrast.owners(clause, prose=True)
        # a phrasing that names one of the terms says its words of that term ("mqa all share")
        named = {
            k
            for k, term in enumerate(self.contrast.terms)
            if any(set(slot.stems) & set(term.stems) for slot in phrasing.slots)
        }
        bound = named.pop() if len(named) == 1 and self.by_family else None
        agree: set[str] = set()
        clash: set[str] = set()
        for token, owner in zip(clause, owned, strict=True):
            said = self.said_of.get(token.stem)
            if said is not None and bound is not None:
                said = bound
            if token.stem not in own or said is None or owner is None:
                continue
            if self.contrast.mentions(token):
                continue
            (agree if owner == said else clash).add(token.stem)
        clash -= agree
        return len(clash) > len(agree)


@lru_cache(maxsize=1 << 10)
def _roles(card: Card, index: int) -> _Roles | None:
    return _Roles.of(card, card.points[index])


@dataclass(frozen=True)
class Explanation:
    """What a checked explanation made of the card's points."""

    outcomes: tuple[PointOutcome, ...]
    #: Runs of the text read as lists of terms, not statements (they make no point).
    listed: tuple[str, ...] = ()

    @property
    def made(self) -> int:
        return sum(outcome.made for outcome in self.outcomes)

    @property
    def total(self) -> int:
        return len(self.outcomes)

    @property
    def passed(self) -> bool:
        return self.total > 0 and self.made >= PASS_SHARE * self.total

    @property
    def complete(self) -> bool:
        return self.total > 0 and self.made == self.total


#: Most rejected claims read in one explanation, and the most characters read of each.
_MAX_DENIED, _MAX_DENIED_CHARS = 16, 400


def check_explanation(card: Card, text: str, table: SymbolTable | None = None) -> Explanation:
    """Which of ``card``'s key points ``text`` makes."""
    # "seven hundred sixty-eight", "point zero one three": numbers read as their digits
    text = spelt_numbers(text[:MAX_TEXT])
    # "instaed of adding a position vector": a slip of a steering word is that word
    text = with_markers(text)
    # "people say X, but none of that is true": a claim reported to be rejected says nothing
    kept, text = text, without_retracted(text)
    # "some say X; none of that actually happens", "nothing about X lets Y": denied claims
    denials = denied_spans(text)
    rejected = blanked_spans(kept, text) + denials + rejected_claims(text)
    # each claim read once and at most _MAX_DENIED_CHARS long: a hostile text of "none of x, "
    # repeated made hundreds of overlapping spans, each as long as the text
    spans = sorted({(s, min(e, s + _MAX_DENIED_CHARS)) for s, e in rejected})[:_MAX_DENIED]
    denied = [_read_alone(kept[s:e], card) for s, e in spans]
    text = blanked(text, denials)
    # "Is the loss capped? No, ...": the question read as the statement its answer makes
    text = answered_questions(text)
    # "not uninformative", "never starved of", "nothing stops X from": the plain statement
    text = plain_litotes(text)
    # "the estimates are not reliable": the "unreliable" a phrasing says
    text = with_prefixed_twins(text, (w for point in card.points for w in point.words))
    keywords, stems = _keywords(card), _card_stems(card)
    read = [
        _known(_bagged(clause, keywords), stems) for clause in _retracted(list(read_clauses(text)))
    ]
    plain = _with_referents(read)
    # words that stand only in lists of terms: a number or formula among them states nothing
    only_listed = _only_listed(plain)
    # a clause that types the prompt or hint back makes no point with its words, nor with a
    # number of the prompt's ("is it 16 bytes?"); a formula written there is the learner's own
    clauses = [_unless_echoed(clause, _asked_stems(card)) for clause in plain]
    # a figure denied ("it never lasts anything like a thousand steps") states no value either
    echoed_values = _only_listed(clauses) | _only_denied(clauses)
    # a point whose model sentence holds its own contrast ("unbiased *but* very noisy",
    # "highest at the origin, *yet* not typical") is also read over the two halves of a
    # learner's "but", which otherwise ends the clause
    contrasted: list[tuple[Token, ...]] | None = None
    formulas: FormulaGrader | None = None
    # only a text that states some math as a value can state a point's formula wrongly
    states_math = _STATED_MATH.search(text) is not None
    outcomes: list[PointOutcome] = []
    for index, point in enumerate(card.points):
        if _holds_contrast(point.say) and _BUT.search(text):
            if contrasted is None:
                seen = set(read)
                contrasted = clauses + [
                    _unless_echoed(_known(c, _card_stems(card)), _asked_stems(card))
                    for c in read_clauses(_BUT.sub(", yet", text))
                    if _known(c, _card_stems(card)) not in seen
                ]
            point_clauses = contrasted
        else:
            point_clauses = clauses
        contrast = _Contrast.of(point)
        # A clause that says the point's contrary makes none of its phrasings; a text that
        # says it anywhere makes the point with no bare number or formula.
        owners = contrast.owners_of(point_clauses) if contrast else None
        opposed = _clauses_saying(point.opposites, point_clauses, contrast, owners)
        # a clause that makes a phrasing the other way (the point's leaning) counts as an
        # opposite said: no bare number or formula makes the point then either
        leaned: set[int] = set()
        said = _said_in(
            point.words,
            point_clauses,
            contrast,
            owners,
            skip=opposed,
            leaning=leaning(point.say),
            leaned=leaned,
            roles=_roles(card, index),
            attribution=attribution(point.say),
            said_of=said_of(point.say),
            say=point.say,
            taken=frozenset(frozenset(o.said.split()) for o in outcomes if o.made),
            anchors=_anchors(point, card.prompt),
            claim=_claim_stems(point),
            asserted=_asserted_stems(point),
        )
        evidence, clause = said if said is not None else (None, ())
        if evidence is not None and (
            denies_purpose(point.say, text, clause) or denies_purpose_words(point.say, text, clause)
        ):
            evidence = None  # "so that the estimates do NOT become unbiased"
        if evidence is not None and dismisses(point.say, text, evidence):
            evidence = None  # "per-class numbers are not needed"
        if evidence is not None and _denied(point, denied):
            evidence = None  # the learner rejects a claim that makes the point
        if (
            evidence is not None
            and contrast is not None
            and contrast.has_subject
            and owners is not None
            and not _names_versus(contrast, point.say)
            and said_of_other_side(
                _own_stems(card, index), point_clauses, owners, contrast.mentions
            )
        ):
            evidence = None  # "the ODE uses the full score, the SDE half of it plus noise"
        if evidence is not None and wrong_operand(point.say, text) is not None:
            evidence = None  # words beside "dividing by d_k itself" for "dividing by √d_k"
        if evidence is None:
            opposed |= leaned
        if evidence is None and point.values and not opposed:
            evidence = _by_value(point, text, echoed_values)
            if evidence is not None and _formula_leans_against(
                leaning(point.say), evidence, point_clauses
            ):
                evidence = None  # "σ'(z) is at *least* 0.25" against "at most 0.25"
        # A formula makes the point only where words did not and no opposite was said; it
        # unmakes words read off a formula the engine grades wrong for the point, and words
        # whose clause writes the point's formula wrongly ("the standard error is σ/n").
        wants_formula = evidence is None and not opposed
        if (
            evidence is not None
            and point.formulas
            and (any(ch.isdigit() for ch in evidence) or _read_from_math(evidence))
            and _said_of_another(text, evidence, point.say)
        ):
            evidence = None  # words read off a formula ("6nd") said to be another quantity
        checks_words = evidence is not None and (
            _read_from_math(evidence)
            or (states_math and _read_from_math(" ".join(t.word for t in clause)))
        )
        if point.formulas and (wants_formula or checks_words):
            if formulas is None:
                formulas = FormulaGrader.of(text, table or SymbolTable.build(strict=False))
            if evidence is None:
                evidence = formulas.evidence(point.formulas)
                if evidence is not None and (
                    _listed_only(evidence, only_listed)  # a formula in a list of terms
                    or _formula_leans_against(leaning(point.say), evidence, point_clauses)
                    or _said_of_another(text, evidence, point.say)
                ):
                    evidence = None
            elif evidence is not None:
                # a piece of a sum said in words ("2 JS minus 2 log 2") is no formula of its own
                wrong = [
                    part for part in formulas.miswritten(point.formulas) if not _summed(text, part)
                ]
                stated = [part for part in wrong if _stated_as_value(text, part)]
                # a wrong equation beside the words takes their credit back as well ("z = σ +
                # μ·ε moves the noise out of the graph"): an equation states itself
                equations = [part for part in wrong if re.search(r"\s[=≠]\s", part)]
                if (
                    _read_off_wrong(evidence, wrong)
                    or _any_within(stated, clause)
                    or _any_within(equations, clause)
                ):
                    evidence = None
        if evidence is not None and _figure_contradicted(point, text, evidence):
            evidence = None  # "the logits get 64 times smaller" for "an 8x smaller logit scale"
        if evidence is not None and _divergence_swapped(card, point, text, evidence):
            evidence = None  # "CE = H(p) + KL(q||p)" for "... plus the KL from p to the model"
        if evidence is not None and only_in_terms(text, evidence):
            evidence = None  # "RRF, k = 60, ranks, 1/(k + rank), hybrid, BM25."
        if evidence is not None and _said_of_versus(point, point_clauses, contrast):
            evidence = None  # "the ODE subtracts the full score, and the SDE only half"
        if evidence is not None and ignores_dependency(point.say, text, evidence):
            evidence = None  # "6 FLOPs per token regardless of the parameters": not per parameter
        outcomes.append(PointOutcome(say=point.say, made=evidence is not None, said=evidence or ""))
    # quoted back as the learner typed them: "not bounded", never the bare "bounded"
    quoted = (replace(o, said=learner_words(text, o.said)) if o.made else o for o in outcomes)
    return Explanation(tuple(quoted), _listed_runs(read))


@lru_cache(maxsize=1 << 10)
def _own_stems(card: Card, index: int) -> frozenset[str]:
    """The words of a contrast point's model sentence that the card's points about the other
    side do not use: what it says of its subject alone."""
    point = card.points[index]
    others = [q.say for q in card.points if q.subject and q.subject in point.versus]
    return say_stems(point.say).difference(*(say_stems(say) for say in others))


@lru_cache(maxsize=1 << 10)
def _names_versus(contrast: _Contrast, say: str) -> bool:
    """Whether the model sentence names a term its point is contrasted with."""
    tokens = [token for clause in read_clauses(say) for token in clause]
    return any(_slot_takes(term, t) for term in contrast.terms[1:] for t in tokens)


def _read_alone(claim: str, card: Card) -> list[tuple[Token, ...]]:
    """The clauses of a claim the learner rejects, read as if asserted: whether it makes a
    point is whether the learner denies that point."""
    return [_known(clause, _card_stems(card)) for clause in read_clauses(claim)]


def _denied(point: KeyPoint, denied: Sequence[list[tuple[Token, ...]]]) -> bool:
    """Whether a claim the learner rejects makes one of ``point``'s phrasings with two words
    or more (one word is no claim of the point's)."""
    for clauses in denied:
        said = _said_in(point.words, clauses, None, None)
        if said is not None and len(said[0].split()) > 1:
            return True
    return False


def _only_listed(clauses: Sequence[tuple[Token, ...]]) -> frozenset[str]:
    """The words that stand only among ``listed`` tokens of the clauses."""
    return frozenset(t.word for c in clauses for t in c if t.listed) - frozenset(
        t.word for c in clauses for t in c if not t.listed
    )


#: Words before a denied figure that make the denial a bound ("never *exceeds* 0.25", "not
#: *above* a quarter"): the figure is still stated, as a limit.
_BOUNDING = frozenset(
    stem(word)
    for word in """exceed exceeds above below over under beyond more less past greater larger
    smaller higher lower bigger""".split()
)


def _only_denied(clauses: Sequence[tuple[Token, ...]]) -> frozenset[str]:
    """The numbers (as words) that stand only where a negation governs them, and not as a
    bound ("never exceeds 0.25"): "the bias never lasts anything like a thousand steps" states
    no thousand steps."""
    denied: set[str] = set()
    said: set[str] = set()
    for clause in clauses:
        for i, token in enumerate(clause):
            if not (token.word[:1].isdigit() or token.word in _NUMBER_WORDS):
                continue
            bound = i > 0 and clause[i - 1].stem in _BOUNDING
            (denied if token.negated and not bound else said).add(token.word)
    return frozenset(denied - said)


@lru_cache(maxsize=1 << 10)
def _asked_stems(card: Card) -> frozenset[str]:
    """The stems of the words of the card's prompt and hint: what the learner was given."""
    asked = f"{card.prompt}\n{card.hint}"
    return frozenset(token.stem for clause in read_clauses(asked) for token in clause)


@lru_cache(maxsize=1 << 10)
def _card_stems(card: Card) -> frozenset[str]:
    """The stems of every word the card itself uses: its prompt, hint and model answer, and its
    points' model sentences, phrasings, opposites and contrast terms."""
    texts = [card.prompt, card.hint, card.model_answer]
    for point in card.points:
        texts += [point.say, *point.words, *point.opposites, point.subject, *point.versus]
    joined = normalised("\n".join(texts).replace("|", " ").replace(">", " "))
    return frozenset(stem(folded(raw)) for raw in WORD.findall(joined) if raw != ",")


def _known(clause: tuple[Token, ...], stems: frozenset[str]) -> tuple[Token, ...]:
    """The clause, each word the card itself uses marked ``known`` (no slip of another)."""
    return tuple(replace(t, known=True) if t.stem in stems else t for t in clause)


def _unless_echoed(clause: tuple[Token, ...], asked: frozenset[str]) -> tuple[Token, ...]:
    """The clause, its words marked ``listed`` (they make no point) when every one of them is a
    word of the card's prompt or hint: typing the question or its hint back says nothing the
    card did not ("Exponentiate the loss; think uniform over k choices" on the card whose hint
    it is). A clause with a word of its own is read as usual."""
    if not clause or any(token.stem not in asked for token in clause):
        return clause
    return tuple(replace(token, listed=True) for token in clause)


_BUT = re.compile(r",?\s+but\b", re.IGNORECASE)
_CONTRAST_SAID = re.compile(r"\b(?:but|yet|though|although|whereas)\b|, while\b", re.IGNORECASE)


@lru_cache(maxsize=1 << 10)
def _holds_contrast(say: str) -> bool:
    """Whether a model sentence states a contrast inside itself ("unbiased but very noisy")."""
    return _CONTRAST_SAID.search(say) is not None


#: A clause of this many words or more with nothing tying any two of them (:attr:`Token.tied`),
#: every one of them a keyword of the card and none a preposition, is a bag of keywords ("RMSE
#: MAE MAPE outliers median"): a learner's sentence has a verb, a small word or a preposition
#: among its terms, or words of its own ("same learned score *drives* both"). Inside a longer
#: clause, a run of :data:`BAG_RUN_KEYWORDS` such words with at most one preposition and one
#: word of the learner's own is one ("a deployed model costs *about* 2N FLOPs *per* served
#: token" is a sentence).
BAG_KEYWORDS = 5
BAG_RUN_KEYWORDS = 9


@lru_cache(maxsize=1 << 10)
def _keywords(card: Card) -> frozenset[str]:
    """The stems the card asks for: every word of every point's phrasings (with their
    families), and of its prompt and hint."""
    asked = {
        s
        for p in card.points
        for text in p.words
        for slot in _phrasing(text).slots
        for s in slot.stems
    }
    return frozenset(asked | _asked_stems(card))


def _bagged(clause: tuple[Token, ...], keywords: frozenset[str]) -> tuple[Token, ...]:
    """The clause, each run of :data:`BAG_KEYWORDS` words or more with nothing tying them that
    is nearly all the card's ``keywords`` marked ``listed``: a bag of the card's words states
    nothing ("GRPO group z-score critic baseline")."""
    runs: list[tuple[int, int]] = []
    start = 0
    for i in range(1, len(clause) + 1):
        if i == len(clause) or clause[i].tied:
            whole = start == 0 and i == len(clause)
            if i - start >= (BAG_KEYWORDS if whole else BAG_RUN_KEYWORDS):
                runs.append((start, i))
            start = i
    flagged = [
        (a, b)
        for a, b in runs
        if sum(t.stem not in keywords for t in clause[a:b]) <= (b - a >= BAG_RUN_KEYWORDS)
        and sum(t.word in LINKS for t in clause[a:b]) <= (b - a >= BAG_RUN_KEYWORDS)
    ]
    if not flagged:
        return clause
    listed = {i for a, b in flagged for i in range(a, b)}
    return tuple(replace(t, listed=True) if i in listed else t for i, t in enumerate(clause))


#: What a clause opening with "that" or "this" says to take back the clause before ("...; that
#: never *happens*", "but this is *false*"): said denied, or said outright.
_HOLDING = frozenset(stem(w) for w in "happen happens hold holds true case".split())
_FALSE = frozenset(stem(w) for w in "false untrue wrong myth nonsense misconception".split())
#: What else a taking back may say ("that never holds *during training*"); a clause that names
#: something else qualifies rather than takes back ("that doesn't happen with LayerNorm").
_RETRACT_FILLER = frozenset(
    stem(w)
    for w in """during training practice reality really actually ever always general simply
    just completely totally""".split()
)


def _retracted(clauses: list[tuple[Token, ...]]) -> list[tuple[Token, ...]]:
    """The clauses, each one that the next takes back ("People say the entropy stays fixed,
    but *that never holds*"; "...; *this is a myth*") read as explicitly denied
    (:attr:`Token.denied`): the taking back opens its clause with a pronoun and a denied
    "happens", "holds", "is true" or an outright "false", "wrong", "myth", and names nothing
    else in its first part ("that doesn't happen *with LayerNorm*" qualifies, it does not take
    back)."""
    result = list(clauses)
    for k in range(len(clauses) - 1):
        after = clauses[k + 1]
        if not after[0].refers:
            continue
        first = [t for t in after if t.step == after[0].step and t.piece == after[0].piece]
        taking_back = [
            t
            for t in first
            if (t.negated and t.stem in _HOLDING) or (not t.negated and t.stem in _FALSE)
        ]
        if taking_back and all(t in taking_back or t.stem in _RETRACT_FILLER for t in first):
            result[k] = tuple(replace(t, negated=True, denied=True) for t in clauses[k])
    return result


def _with_referents(clauses: list[tuple[Token, ...]]) -> list[tuple[Token, ...]]:
    """The clauses, and after them each clause that opens with a pronoun ("It does not depend
    on the weights") read together with the clause before it ("The entropy of the labels is
    set by the data"): a point said over the two is said. The joined clause keeps each word's
    negation and its own comma pieces, and a list of terms stays a list."""
    joined = []
    for before, clause in zip(clauses, clauses[1:], strict=False):
        if clause[0].refers:
            shift = before[-1].piece + 1
            joined.append(before + tuple(replace(t, piece=t.piece + shift) for t in clause))
    return clauses + joined


def _figure_contradicted(point: KeyPoint, text: str, evidence: str) -> bool:
    """Whether a sentence of the text that holds the words ``evidence`` gives one of the
    point's figures wrongly (:mod:`recall.grading.explain_figures`)."""
    wanted = {folded(raw) for raw in WORD.findall(normalised(evidence)) if raw != ","}
    wanted -= SMALL_WORDS | NEGATORS
    values = [value.value for value in point.values]
    # a model sentence of several parts ("an 8x smaller logit scale; QK-Norm ...") is
    # contradicted by a figure in any sentence; one of one part, where its words are said
    several = len(sentences(point.say)) > 1
    for sentence in sentences(text):
        if not contradicted(point.say, sentence, values):
            continue
        if several:
            return True
        words = {token.word for clause in read_clauses(sentence) for token in clause}
        if wanted <= words:
            return True
    return False


def _divergence_swapped(card: Card, point: KeyPoint, text: str, evidence: str) -> bool:
    """Whether the text writes the point's divergence (its model sentence's, else the card's
    model answer's) only the other way round, or a sentence of it that holds the words
    ``evidence`` does (:mod:`recall.grading.explain_directions`): "the gap is KL(p(z|x) ||
    q(z|x))" for the KL from q to p."""
    point_direction = meant_direction(point.say, card.model_answer)
    if point_direction is None or "kl" not in text.lower():
        return False
    if reversed_kl(point_direction, text):
        return True
    wanted = {folded(raw) for raw in WORD.findall(normalised(evidence)) if raw != ","}
    wanted -= SMALL_WORDS | NEGATORS
    for sentence in sentences(text):
        if not reversed_kl(point_direction, sentence):
            continue
        words = {token.word for clause in read_clauses(sentence) for token in clause}
        if wanted <= words:
            return True
    return False


def _said_of_versus(
    point: KeyPoint, clauses: Sequence[tuple[Token, ...]], contrast: _Contrast | None
) -> bool:
    """Whether a clause gives a phrasing of the point's subject to a ``versus`` term named in a
    piece of its own, and not to the subject it names in another piece: the two swapped ("the
    ODE subtracts the full score, and the SDE only half of it plus noise" for "the reverse SDE
    subtracts the full score"). A point whose model sentence speaks of a versus term too ("does
    what LayerNorm does but ...", "high curvature ..., while low ...") is left alone: its
    phrasings may be the other term's."""
    if contrast is None or not contrast.has_subject or _names_versus(contrast, point.say):
        return False
    phrasings = [
        phrasing
        for phrasing in map(_phrasing, point.words)
        if phrasing.slots and contrast.bound_term(phrasing) == 0
    ]
    for clause in clauses:
        named = [contrast.term_of(token) for token in clause]
        subject = {t.piece for t, k in zip(clause, named, strict=True) if k == 0}
        for piece in {t.piece for t, k in zip(clause, named, strict=True) if k} - subject:
            if not subject:
                break
            theirs = [t.piece == piece and k is None for t, k in zip(clause, named, strict=True)]
            own = [t.piece in subject and not k for t, k in zip(clause, named, strict=True)]
            if any(
                _match(phrasing, clause, theirs) is not None
                and _match(phrasing, clause, own) is None
                for phrasing in phrasings
            ):
                return True
    return False


def _listed_runs(clauses: Sequence[tuple[Token, ...]]) -> tuple[str, ...]:
    """The runs of listed words in the text, as the verdict quotes them."""
    runs: list[str] = []
    for clause in clauses:
        run: list[str] = []
        for token in (*clause, None):
            if token is not None and token.listed:
                run.append(token.word)
            elif run:
                runs.append(" ".join(run))
                run = []
    return tuple(runs)


def _read_from_math(said: str) -> bool:
    """Whether a phrasing's matched words could have been read off a formula (a short word,
    a number, a Greek letter, a function's name or a word an abbreviation opens into among
    them): only then is the formula path asked about them."""
    return any(
        len(word) <= 2
        or not word.isascii()
        or word.isdigit()
        or word in _FUNCTION_WORDS
        or word in SPELT_OUT_WORDS
        for word in said.split()
    )


#: What says a formula is the value of the quantity before it: "the standard error *is* σ/n",
#: "*=* 2 + 2cos θ", "*equals* one minus the cosine", "shrinks by a *factor of* h/g" (not
#: "dividing *by* 1 − βᵗ", where the
#: formula is an operand of what the sentence does, nor "memory *∝* N", a proportion).
_STATED_AS = re.compile(
    r"(?:\b(?:is|are|was|were|be|being|equals?|equal\s+to|becomes?|gives?|scales\s+(?:as|like)"
    r"|factor(?:\s+of)?)|[=≈])\s*$",
    re.IGNORECASE,
)


#: A stating word or sign with math after it: the cheap test of whether a text states any
#: formula as a value at all.
_STATED_MATH = re.compile(
    r"(?:\b(?:is|are|was|were|be|being|equals?|becomes?|gives?|factor)\b|[=≈])"
    r"[^.;!?\n]{0,30}?[\d(/^*+√∑=≈²·×\u0370-\u03ff]",
    re.IGNORECASE,
)


def _stated_as_value(text: str, part: str) -> bool:
    """Whether ``part`` (a formula of the text) follows a word or sign that states it as a
    value (:data:`_STATED_AS`) somewhere in the text. A part the formula reader rewrote
    (``σ times √n`` read as ``σ * √n``) is looked for by its first word."""
    if part not in text:
        part = part.split()[0] if part.split() else part
    start = text.find(part)
    while start >= 0:
        if _STATED_AS.search(text[max(0, start - 20) : start]):
            return True
        start = text.find(part, start + 1)
    return False


#: Quantities a formula is said to be that are not one another: a right formula said to be
#: one of these while the point's model sentence says it is something else is said of the
#: wrong quantity ("the *variance* of the mean is σ/√n" for the standard error).
QUANTITIES = frozenset(
    stem(word)
    for word in """variance std deviation kl divergence entropy crossentropy distance cosine
    similarity product loss gradient likelihood probability perplexity bias inference training
    precision recall accuracy""".split()
)
#: What states a formula as the value of the words before it.
_STATING = re.compile(
    r"(?:\b(?:is|are|was|were|equals?|equal\s+to|becomes?|costs?|gives?)|[=≈])\s*$",
    re.IGNORECASE,
)
#: How many words before "is" or "=" name what a formula is said to be.
NAMING_WORDS = 3


def _naming_words(head: str) -> frozenset[str]:
    """The stems of the last :data:`NAMING_WORDS` content words of ``head`` after its last
    comma, colon or full stop."""
    head = re.split(r"[,;:.!?\n]", head)[-1]
    words = [
        stem(folded(w))
        for w in WORD.findall(normalised(head))
        if w != "," and folded(w) not in SMALL_WORDS | NEGATORS | LINKS
    ]
    return frozenset(words[-NAMING_WORDS:])


@lru_cache(maxsize=1 << 10)
def _say_names(say: str) -> frozenset[str]:
    """What the model sentence says its formula is: its words before its first formula
    ("... has an error bar: the standard error σ/√n"), or all its words when it writes none."""
    spans = [span for span in formula_spans(say) if any(not c.isdigit() for c in span)]
    start = say.find(spans[0]) if spans else -1
    if start > 0:
        say = say[:start]
    return frozenset(
        stem(folded(w))
        for w in WORD.findall(normalised(say))
        if w != "," and folded(w) not in SMALL_WORDS
    )


def _said_of_another(text: str, formula: str, say: str) -> bool:
    """Whether the text states the point's (right) formula as the value of another quantity
    than the model sentence does: "the variance of the mean is σ/√n" for "the standard error
    σ/√n", "inference costs 6ND" for "training costs 6ND". Only the distinct quantities of
    :data:`QUANTITIES` count, so a synonym the list does not hold ("SE = σ/√n") is no claim."""
    found = re.search(r"(?<!\w)" + re.escape(formula), text, re.IGNORECASE)
    if found is None and formula.split():
        # words read off a formula ("2 minus 2 cos"): where the first of them stands with the
        # others after it ("MI ≥ log N − L", not the "log N" of "chance loss = log N" before)
        found = _where_read(text, formula.split())
    if found is None:
        return False
    head = text[max(0, found.start() - 80) : found.start()]
    stating = _STATING.search(head)
    if stating is None:
        return False
    named = _naming_words(head[: stating.start()]) & QUANTITIES
    return bool(named) and not named & _say_names(say)


def _where_read(text: str, words: list[str]) -> re.Match[str] | None:
    """Where the text writes the formula whose words are ``words`` (as the matcher read them):
    the first occurrence of the first word followed closely by all the others in its sentence,
    else its first occurrence."""
    first = None
    for found in re.finditer(r"(?<!\w)" + re.escape(words[0]), text, re.IGNORECASE):
        first = first or found
        ahead = normalised(re.split(r"[.;!?\n](?:\s|$)", text[found.start() :][:60])[0])
        if set(words) <= {folded(w) for w in WORD.findall(ahead)}:
            return found
    return first


_SPOKEN_SUM = re.compile(r"\b(?:minus|plus)\s*$|^\s*(?:minus|plus)\b", re.IGNORECASE)


def _summed(text: str, part: str) -> bool:
    """Whether ``part`` (a formula of the text) stands beside a "plus" or "minus" said in words
    ("2 JS *minus* 2 log 2", "*minus* log 4"): the formula reader leaves such sums unread, their
    grouping being open, so the part is a piece of what the learner wrote, not a wrong formula
    of its own."""
    start = text.find(part)
    while start >= 0:
        end = start + len(part)
        if _SPOKEN_SUM.search(text[max(0, start - 8) : start]) or _SPOKEN_SUM.search(
            text[end : end + 8]
        ):
            return True
        start = text.find(part, end)
    return False


def _read_off_wrong(said: str, wrong: Sequence[str]) -> bool:
    """Whether a phrasing's words were read off a formula the engine grades wrong for the
    point: a wrong part, or an equation with one ("PPL = exp(−CE)"), unless every word came
    from the side of the equation facing the wrong part ("||a − b||² = 2 − 2cos": the words
    are the right side's, and only the left side, a part on its own, uses the point's names
    wrongly). A wrong equation of an equation point is wrong as a whole."""
    for text in wrong:
        sides = re.split(r"\s[=≠]\s", text)
        if len(sides) == 2 and any(
            side not in wrong and other in wrong and _within_any(said, [side])
            for side, other in (sides, sides[::-1])
        ):
            continue
        if _within_any(said, [text]):
            return True
    return False


def _any_within(texts: Sequence[str], clause: tuple[Token, ...]) -> bool:
    """Whether every word of one of ``texts`` (formulas of the text) is a word of ``clause``:
    the formula was written in that clause."""
    words = {token.word for token in clause}
    for text in texts:
        wanted = {folded(raw) for raw in WORD.findall(normalised(text)) if raw != ","}
        if wanted and wanted <= words:
            return True
    return False


def _within_any(said: str, texts: Sequence[str]) -> bool:
    """Whether every word of ``said`` is a word of one of ``texts``, read as the text is."""
    wanted = set(said.split())
    for text in texts:
        words = {folded(raw) for raw in WORD.findall(normalised(text)) if raw != ","}
        if wanted <= words:
            return True
    return False


def grade_explanation(card: Card, text: str, table: SymbolTable | None = None) -> Verdict:
    """The verdict on a typed explanation of an explain card with key points."""
    result = check_explanation(card, text, table)
    if result.complete:
        message = f"Every key point made ({result.total} of {result.total})."
    elif result.passed:
        message = f"{result.made} of {result.total} key points made: passed, with some left out."
    else:
        message = f"{result.made} of {result.total} key points made: fewer than half."
    if result.listed:
        message += f" {LISTED_TERMS} ('{quote(result.listed[0], 60)}'): say it in a sentence."
    if len(text) > MAX_TEXT:
        message += f" (only the first {MAX_TEXT:,} characters were read)"
    return Verdict(
        status=Status.CORRECT if result.passed else Status.INCORRECT,
        method="points",
        message=message,
        expected=card.model_answer,
        points=result.outcomes,
    )


# --- words ------------------------------------------------------------------------------------


def _clauses_saying(
    phrasings: Sequence[str],
    clauses: Sequence[tuple[Token, ...]],
    contrast: _Contrast | None,
    owners: Sequence[list[int | None]] | None,
) -> frozenset[int]:
    """The indices of the clauses that say any of ``phrasings``."""
    if not phrasings:
        return frozenset()
    return frozenset(
        c
        for c in range(len(clauses))
        if _said_in(phrasings, clauses, contrast, owners, only=c) is not None
    )


def _said_in(
    phrasings: Sequence[str],
    clauses: Sequence[tuple[Token, ...]],
    contrast: _Contrast | None,
    owners: Sequence[list[int | None]] | None,
    *,
    skip: frozenset[int] = frozenset(),
    only: int | None = None,
    leaning: Leaning | None = None,
    leaned: set[int] | None = None,
    roles: _Roles | None = None,
    attribution: Attribution | None = None,
    said_of: SaidOf | None = None,
    say: str | None = None,
    taken: frozenset[frozenset[str]] = frozenset(),
    anchors: frozenset[str] | None = None,
    claim: frozenset[str] = frozenset(),
    asserted: frozenset[str] = frozenset(),
) -> tuple[str, tuple[Token, ...]] | None:
    """The words of the first clause that says one of ``phrasings``, and that clause (leaving
    out the clauses
    in ``skip``, or looking at clause ``only``), or ``None``; ``owners`` are the contrast's
    :meth:`_Contrast.owners_of` the clauses. With the point's ``leaning``, a clause that uses
    the other word of a pair the point leans on (besides the phrasing's own words) says the
    point's opposite and makes none of its phrasings; its index is added to ``leaned``. So
    does a clause that says the phrasing's words of the wrong thing (``roles``, and the
    point's ``attribution``: "*LayerNorm* swaps in running averages"). Words that made an
    earlier point (``taken``) make no other: "uniform over k" is one point, not two."""
    for phrase_text in phrasings:
        phrasing = _phrasing(phrase_text)
        if not phrasing.slots:
            continue
        bound = contrast.bound_term(phrasing) if contrast else None
        for c, clause in enumerate(clauses):
            if c in skip or (only is not None and c != only):
                continue
            allowed = None
            if owners is not None and bound is not None:
                allowed = [owner in (None, bound) for owner in owners[c]]
            matched = _match(phrasing, clause, allowed)
            if matched is not None and frozenset(matched.split()) in taken:
                continue  # these words made an earlier point: one stretch, one point
            if (
                matched is not None
                and anchors is not None
                and not _anchored(phrasing, clause, anchors)
            ):
                continue  # one word alone, in a clause that says nothing else of the point
            if (
                matched is not None
                and leaning is not None
                and _figures_swapped(phrase_text, clause, say or "")
            ):
                if leaned is not None:
                    leaned.add(c)
                continue  # "the forward pass is four FLOPs, the backward only two"
            if matched is not None and _rejects(clause, claim, asserted):
                if leaned is not None:
                    leaned.add(c)
                continue  # "it walks the layers twice, *not because* it needs more gradients"
            if matched is not None and leaning is not None:
                if (
                    _leans_against(leaning, phrasing, clause, allowed)
                    or (roles is not None and roles.swapped(phrasing, clause))
                    or (attribution is not None and _misattributed(attribution, phrasing, clause))
                    or (said_of is not None and said_of.swapped(_stems_of(phrasing), clause))
                    or (say is not None and says_twin(say, _stems_of(phrasing), clause))
                    or (
                        say is not None
                        and said_of_other_part(say, phrasing.slots[-1].stems, clause)
                    )
                    or crosses_figures(
                        [(s.words, frozenset(s.stems)) for s in phrasing.slots], clause
                    )
                ):
                    if leaned is not None:
                        leaned.add(c)
                    continue
            if matched is not None:
                return matched, clause
    return None


@lru_cache(maxsize=1 << 10)
def _claim_stems(point: KeyPoint) -> frozenset[str]:
    """The stems of what the point claims: the words of its model sentence that its phrasings
    also ask for (its small words and linking words aside)."""
    said = {
        stem(folded(raw))
        for raw in WORD.findall(normalised(point.say))
        if raw != "," and folded(raw) not in SMALL_WORDS | NEGATORS | LINKS
    }
    asked = {s for text in point.words for slot in _phrasing(text).slots for s in slot.stems}
    return frozenset(said & asked)


def _figure_of(token: Token) -> str | None:
    """The digits a word of the text writes ("four" is "4"), or ``None``."""
    if token.word.isdigit():
        return token.word
    spelt = twins(token.word)
    return spelt[0] if spelt and spelt[0].isdigit() else None


@lru_cache(maxsize=1 << 12)
def _phrasing_figures(text: str) -> tuple[tuple[str, ...], tuple[frozenset[str], ...]]:
    """A phrasing's figures (as digits) and its other words' stems that are words of three
    letters or more (terms: "forward", not a formula's "e" or "x3")."""
    phrasing = _phrasing(text)
    numeric = [slot.figure or any(twins(w) for w in slot.words) for slot in phrasing.slots]
    figures = tuple(
        digits
        for slot, is_figure in zip(phrasing.slots, numeric, strict=True)
        if is_figure
        for w in slot.words[:1]
        if (digits := w if w.isdigit() else (twins(w) or ("",))[0]).isdigit()
    )
    terms = tuple(
        frozenset(slot.stems)
        for slot, is_figure in zip(phrasing.slots, numeric, strict=True)
        if not is_figure and all(len(w) >= 3 and w.isalpha() for w in slot.words)
    )
    return figures, terms


def _pairing(
    tokens: Sequence[Token], figures: Sequence[str], terms: Sequence[frozenset[str]]
) -> bool | None:
    """Whether the two figures stand in the same order as the two terms among ``tokens``
    ("2 ... forward ... 4 ... backward" and "forward ... 2 ... backward ... 4" both pair 2 with
    forward), or ``None`` where a figure or term is missing or said twice."""
    at_figures = [[i for i, t in enumerate(tokens) if _figure_of(t) == f] for f in figures]
    at_terms = [[i for i, t in enumerate(tokens) if t.stem in term] for term in terms]
    if any(len(found) != 1 for found in at_figures + at_terms):
        return None
    return (at_figures[0][0] < at_figures[1][0]) == (at_terms[0][0] < at_terms[1][0])


@lru_cache(maxsize=1 << 12)
def _say_pairing(say: str, phrasing: str) -> bool | None:
    figures, terms = _phrasing_figures(phrasing)
    tokens = [t for clause in read_clauses(say) for t in clause]
    return _pairing(tokens, figures, terms)


def _figures_swapped(phrasing: str, clause: tuple[Token, ...], say: str) -> bool:
    """Whether the clause pairs the two figures of a phrasing of two figures and two terms
    ("two forward four backward") with its terms the other way round from the model sentence
    ("the forward pass costs *four*, the backward only *two*" against "2 in the forward pass,
    4 in the backward pass"): the figures in one order and the terms in the other."""
    figures, terms = _phrasing_figures(phrasing)
    if len(figures) != 2 or len(terms) != 2 or figures[0] == figures[1]:
        return False
    meant = _say_pairing(say, phrasing)
    said = _pairing(clause, figures, terms)
    return meant is not None and said is not None and meant != said


#: Verbs that say a thing is done without ("avoids the sequential update", "drops the
#: critic"): the words after them are not asserted.
_PRIVATIVE = frozenset(
    stem(w)
    for w in """avoid avoids drop drops remove removes skip skips discard discards eliminate
    eliminates replace replaces lack lacks omit omits ignore ignores instead rather""".split()
)


@lru_cache(maxsize=1 << 10)
def _asserted_stems(point: KeyPoint) -> frozenset[str]:
    """The stems of :func:`_claim_stems` that the model sentence says outright: in a part of it
    (commas part them) with no negation or privative verb, and in no other part ("r(d + k)
    instead of d·k" asserts neither d nor k)."""
    said: set[str] = set()
    unsaid: set[str] = set()
    for clause in read_clauses(point.say):
        for piece in {t.piece for t in clause}:
            words = [t for t in clause if t.piece == piece]
            # a part that denies or does without something ("no parameters are added", "avoids
            # the sequential update") asserts none of its words
            plain = not any(t.negated or t.stem in _PRIVATIVE for t in words)
            (said if plain else unsaid).update(t.stem for t in words)
    return _claim_stems(point) & frozenset(said - unsaid)


def _rejects(
    clause: tuple[Token, ...], claim: frozenset[str], asserted: frozenset[str] = frozenset()
) -> bool:
    """Whether the clause explicitly denies a claim of the point's (words of ``claim`` after
    "it is not true that", "it's not that", "not because"; :attr:`Token.denied`), or sets aside
    one its model sentence asserts (``asserted``, after "rather than", "instead of";
    :attr:`Token.rejected`) and the clause does not also say outright: the learner rejects
    the point there ("the backward costs twice the forward because it walks the layers again,
    *not because* it computes more gradients";
    "QK-Norm normalises the values *rather than the queries*"), whatever else the clause
    says."""
    kept = {token.stem for token in clause if not token.negated}
    # a compound kept keeps its head: "costs the cross-entropy H(p, q) instead of H(p)" still
    # speaks of entropy ("crossentropy" holds "entropy")
    kept |= {word for word in asserted if any(k != word and k.endswith(word) for k in kept)}
    return any(
        (token.denied and token.stem in claim)
        or (token.rejected and token.stem in asserted and token.stem not in kept)
        for token in clause
    )


@lru_cache(maxsize=1 << 10)
def _anchors(point: KeyPoint, prompt: str) -> frozenset[str]:
    """The stems of the point's model sentence, phrasings and subject and of the card's
    prompt (the things it speaks of: "KL"): what a clause making a one-word phrasing must say
    besides that word (:func:`_anchored`)."""
    words = [point.say, *point.words, prompt, point.subject or ""]
    return frozenset(
        s
        for text in words
        for raw in WORD.findall(normalised(text.replace("|", " ").replace(">", " ")))
        if raw != "," and folded(raw) not in SMALL_WORDS | NEGATORS
        for s in (stem(folded(raw)), *synonyms(stem(folded(raw))))
    )


def _anchored(phrasing: Phrasing, clause: tuple[Token, ...], anchors: frozenset[str]) -> bool:
    """Whether a clause may make the phrasing: a phrasing of one word (or one list of
    alternatives) states nothing by itself, any text holding the word would make it ("GANs do
    not use it" for "... the original GAN ..."), so its clause must hold another word of the
    point's model sentence or phrasings besides the word itself ("correlated features move
    *together*" has "correlated", "features")."""
    if len(phrasing.slots) != 1 or phrasing.negated:
        return True
    own = set(phrasing.slots[0].stems)
    if clause and clause[0].refers:
        return True  # "It can't dip under zero (by Jensen)": "it" is what the card asks about
    return any(token.stem in anchors and token.stem not in own for token in clause)


def _formula_leans_against(
    leaning: Leaning, formula: str, clauses: Sequence[tuple[Token, ...]]
) -> bool:
    """Whether the clause a formula of the text was written in says the point the other way
    ("2λw *grows* as the weight goes to zero" against "2λw shrinks to zero"), read as
    :func:`_leans_against` reads a phrasing's clause, the formula's words standing for it."""
    own = {folded(raw) for raw in WORD.findall(normalised(formula)) if raw != ","}
    for clause in clauses:
        if own and own <= {token.word for token in clause}:
            pieces = {token.piece for token in clause if token.word in own}
            among = [t.piece in pieces and t.word not in own for t in clause]
            anywhere = [t.word not in own for t in clause]
            return leaning.contrary_word(clause, among, anywhere) is not None
    return False


def _leans_against(
    leaning: Leaning,
    phrasing: Phrasing,
    clause: tuple[Token, ...],
    allowed: Sequence[bool] | None = None,
) -> bool:
    """Whether the clause uses the other word of a pair the point leans on, beside what the
    point says its own word of, or (for harm and either-or pairs, which need no such word) in
    the parts of the clause holding the phrasing's words; the phrasing's own words aside: a
    deck may ask for them. Of a point bound to one side of a contrast, only the words said of
    that side (``allowed``) count: "unlike BatchNorm, which swaps in running averages,
    LayerNorm computes the *same* thing" says "same" of LayerNorm."""
    own = {stem for slot in phrasing.slots for stem in slot.stems}
    pieces = {token.piece for token in clause if token.stem in own}
    kept = allowed if allowed is not None else [True] * len(clause)
    among = [
        k and t.piece in pieces and t.stem not in own for t, k in zip(clause, kept, strict=True)
    ]
    anywhere = [k and t.stem not in own for t, k in zip(clause, kept, strict=True)]
    # a phrasing of one figure stands for the figure the point says its side of ("quarter"
    # for "at most 0.25")
    heads = frozenset(own) if _one_figure(phrasing) else frozenset()
    return (
        leaning.contrary_word(clause, among, anywhere, heads) is not None
        or leaning.reverses(clause, [t.piece in pieces for t in clause])
        or leaning.turns(clause)
        or reverses_pair([frozenset(slot.stems) for slot in phrasing.slots], clause)
    )


#: Fractions spelt as words, which a one-word phrasing may give for a figure.
_FRACTION_WORDS = frozenset("half third quarter fifth tenth hundredth thousandth".split())


def _stems_of(phrasing: Phrasing) -> frozenset[str]:
    return frozenset(s for slot in phrasing.slots for s in slot.stems)


def _one_figure(phrasing: Phrasing) -> bool:
    """Whether a phrasing is one figure: a number, or a fraction in words ("quarter")."""
    if len(phrasing.slots) != 1:
        return False
    words = phrasing.slots[0].words
    return all(w in _FRACTION_WORDS or w.replace(".", "", 1).isdigit() for w in words)


def _misattributed(attribution: Attribution, phrasing: Phrasing, clause: tuple[Token, ...]) -> bool:
    """Whether the steps of the clause's chain of reasons holding the phrasing's words name
    another member of a family the point names, and not all of its own
    (:mod:`recall.grading.explain_attribution`): "RMSNorm is *BatchNorm* without the
    centring, dividing by the root mean square" says nothing of RMSNorm's, but "the L2 part
    is convex, *so* correlated features group" says the grouping of what the point does."""
    # The steps holding the phrasing's last word (its claim: "fixed" in "h(p) constant|fixed"),
    # or, where no token takes it, every step holding one of its words: "CE = H(p) + KL, and
    # H(p) is fixed" says "fixed" in its second step, of H(p), whatever the first step names.
    last = set(phrasing.slots[-1].stems)
    steps = {token.step for token in clause if token.stem in last}
    if not steps:
        own = {stem for slot in phrasing.slots for stem in slot.stems}
        steps = {token.step for token in clause if token.stem in own}
    return attribution.misattributes(clause, [t.step in steps for t in clause])


def _match(
    phrasing: Phrasing, clause: tuple[Token, ...], allowed: list[bool] | None = None
) -> str | None:
    """The clause's words that say the phrasing, or ``None``.

    Every slot needs a word of the clause (said of the phrasing's term, where ``allowed``
    says which words are); a slot before the phrasing's negation needs a word no negation
    governs, and a negated phrasing needs at least one negated word after its negation. A
    ``near`` slot's word follows the previous slot's within :data:`NEAR` words. Slots are
    searched chain by chain (a slot and the near slots after it), so the work stays linear in
    the clause's length."""
    candidates: list[list[int]] = []
    for slot in phrasing.slots:
        takers = [
            i
            for i, token in enumerate(clause)
            if (allowed is None or allowed[i])
            and not token.listed
            and (slot.denied or not token.negated)
            and _slot_takes(slot, token)
        ]
        if not takers:
            return None
        # A word may occur twice, once negated: try first the occurrence that suits the slot.
        takers.sort(key=lambda i: clause[i].negated != slot.denied)
        candidates.append(takers)
    chains: list[list[int]] = []
    for k, slot in enumerate(phrasing.slots):
        if slot.near and chains:
            chains[-1].append(k)
        else:
            chains.append([k])
    plain: list[tuple[int, ...]] = []
    denying: list[tuple[int, ...] | None] = []
    for chain in chains:
        some, negated = _chain_assignments(chain, phrasing.slots, candidates, clause)
        if some is None:
            return None
        plain.append(some)
        denying.append(negated)
    if phrasing.negated:
        which = next((n for n, found in enumerate(denying) if found is not None), None)
        if which is None:
            return None
        plain[which] = denying[which] or plain[which]
    chosen = [i for assignment in plain for i in assignment]
    return " ".join(dict.fromkeys(clause[i].word for i in chosen))


def _chain_assignments(
    chain: list[int],
    slots: Sequence[_Slot],
    candidates: list[list[int]],
    clause: tuple[Token, ...],
) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
    """One way to place a chain of near slots in the clause, and one that puts a negated word
    on a slot after the phrasing's negation (``None`` where there is no such way)."""
    some: tuple[int, ...] | None = None
    negated: tuple[int, ...] | None = None

    def place(k: int, chosen: tuple[int, ...]) -> None:
        nonlocal some, negated
        if some is not None and negated is not None:
            return
        if k == len(chain):
            if some is None:
                some = chosen
            if negated is None and any(
                clause[i].negated and slots[s].denied for i, s in zip(chosen, chain, strict=True)
            ):
                negated = chosen
            return
        for i in candidates[chain[k]]:
            if k and not 0 < i - chosen[-1] <= NEAR:
                continue
            if k and clause[i].item != clause[chosen[-1]].item:
                continue  # "all failures, so pass@k" says no "all pass": a comma parts them
            place(k + 1, (*chosen, i))

    place(0, ())
    return some, negated


def _slot_takes(slot: _Slot, token: Token) -> bool:
    """Whether a word of the text is one of the slot's: the same stem, or a slip of a long
    word that keeps its first letter and does not turn it into its opposite ("minimizing" is
    two keys from "maximizing"); a number slot takes no piece of a longer figure
    (:attr:`_Slot.figure`)."""
    if slot.figure and (
        (token.glued_ahead and not slot.open_ahead) or (token.glued_behind and not slot.open_behind)
    ):
        return False
    if token.stem in slot.stems:
        return True
    if token.word in slot.twins:
        # "exactly 0" says "zero", but "0.5" has no zero of its own
        return slot.figure or not (token.glued_ahead or token.glued_behind)
    if token.known:
        return False  # a word the card uses is itself, no slip of another
    for word in slot.words:
        allowance = 2 if len(word) >= 10 else 1 if len(word) >= 6 else 0
        slip = allowance and word[0] == token.word[:1] and not _opposed_prefixes(word, token.word)
        if (slip and edit_distance(word, token.word, allowance) <= allowance) or (
            4 <= len(word) <= 5 and short_slip(word, token.word)
        ):
            if not another_word(token.word, word):
                return True  # "sample" is no slip of "simple": a word of its own
    return False


def short_slip(word: str, typed: str) -> bool:
    """Whether ``typed`` is a short word (four or five letters) with the one slip that cannot
    make another word of it: two neighbouring letters swapped ("lable", "bacth", "nrom") or a
    doubled letter typed once ("clas", "smal"). Other slips of short words are left alone:
    "steps" is one key from "stops", "token" from "taken"."""
    if word[0] != typed[:1] or typed == word:
        return False
    if len(typed) == len(word):
        diff = [i for i in range(len(word)) if word[i] != typed[i]]
        return (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and word[diff[0]] == typed[diff[1]]
            and word[diff[1]] == typed[diff[0]]
        )
    if len(typed) + 1 == len(word):
        i = next((k for k in range(len(typed)) if word[k] != typed[k]), len(typed))
        return i > 0 and word[i] == word[i - 1] and word[i + 1 :] == typed[i:]
    return False


#: Word beginnings that say opposite things a slip or two apart ("minimization",
#: "maximization").
_OPPOSED_PREFIXES = (frozenset({"min", "max"}),)


def _opposed_prefixes(word: str, other: str) -> bool:
    return frozenset({word[:3], other[:3]}) in _OPPOSED_PREFIXES


@lru_cache(maxsize=1 << 13)
def _phrasing(text: str) -> Phrasing:
    return Phrasing.read(text)


# --- numbers and formulas --------------------------------------------------------------------


def _by_value(point: KeyPoint, text: str, only_listed: frozenset[str] = frozenset()) -> str | None:
    """The first number of the text within one of the point's values, or ``None``; a number
    whose words stand only in lists of terms (``only_listed``) is no statement of a value."""
    for match in _NUMBER.finditer(text):
        if _listed_only(match.group(), only_listed):
            continue
        number = _number(match)
        if number is None:
            continue
        percent = bool(match.group(1))
        candidates = (number / 100, number) if percent else (number,)
        if _within(point, candidates) and not _paired_elsewhere(point.say, text, match):
            return match.group()
    for match in _NUMBER_WORD.finditer(text):
        if _listed_only(match.group(), only_listed):
            continue
        if _within(point, (float(_NUMBER_WORDS[match.group(1).lower()]),)):
            return match.group()
    return None


_PIECE_BREAK = re.compile(r"[,;:]|\.(?:\s|$)|\n")


def _numbers_in(piece: str) -> list[float]:
    return [number for match in _NUMBER.finditer(piece) if (number := _number(match)) is not None]


def _number(match: re.Match[str]) -> float | None:
    """The number a :data:`_NUMBER` match writes (its percent sign or word left aside)."""
    raw = match.group()[: match.start(1) - match.start()] if match.group(1) else match.group()
    try:
        return float(raw.replace("−", "-").replace(",", "."))
    except ValueError:
        return None


def _paired_elsewhere(say: str, text: str, match: re.Match[str]) -> bool:
    """Whether the text pairs a value with a number the model sentence pairs with another
    ("a 400-point gap means 64%" against "about 100 is 64%, 400 is 91%"): another number in
    the value's part of the text (parts end at commas, colons and full stops) stands in the
    ``say`` only in other parts than the value does, and none stands in the value's own."""
    say_parts = [_numbers_in(part) for part in _PIECE_BREAK.split(say)]
    (value,) = _numbers_in(match.group()) or (None,)
    if value is None:
        return False
    own = [k for k, numbers in enumerate(say_parts) if value in numbers]
    if len(own) != 1:
        return False
    start = max((m.end() for m in _PIECE_BREAK.finditer(text, 0, match.start())), default=0)
    end = next((m.start() for m in _PIECE_BREAK.finditer(text, match.end())), len(text))
    others = _numbers_in(text[start : match.start()] + " " + text[match.end() : end])
    wheres = [{k for k, numbers in enumerate(say_parts) if n in numbers} for n in others]
    # paired as the say pairs it somewhere in the part ("100 is 64% and 400 is 91%"): fine
    if any(own[0] in where for where in wheres):
        return False
    return any(where and own[0] not in where for where in wheres)


def _listed_only(number: str, only_listed: frozenset[str]) -> bool:
    words = [folded(w) for w in WORD.findall(normalised(number)) if w != ","]
    return bool(words) and all(word in only_listed for word in words)


def _within(point: KeyPoint, candidates: Sequence[float]) -> bool:
    for value in point.values:
        margin = value.within + 1e-12 * max(1.0, abs(value.value))
        if any(abs(candidate - value.value) <= margin for candidate in candidates):
            return True
    return False
