"""How a typed explanation is read as words, for :mod:`recall.grading.explain`.

Text and phrasings alike are folded to one spelling per word (Unicode compatibility forms,
British spellings, contractions, abbreviations, named methods), cut into clauses and, inside a
clause, into comma-delimited pieces, with every word marked when a negation governs it. What
the words then say of a card's key points is :mod:`recall.grading.explain`'s business.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache

from recall.grading.explain_notation import named_densities
from recall.grading.explain_shorthand import read_shorthand
from recall.greek import GREEK_LETTERS

NEGATORS = frozenset(
    {"not", "no", "never", "none", "nothing", "neither", "nor", "without", "nobody", "nowhere"}
)
#: Negators that govern a noun phrase only ("*without* the Lipschitz limit the critic could ...",
#: "*no* noise in the ODE"): their reach ends at the first small word after a word they govern.
_PHRASE_NEGATORS = frozenset({"without", "no"})
#: Phrases that deny the whole clause after them ("it is not the case that ...", "it's a myth
#: that ...", "it is false that ..."), read as one marker word.
_DENY_REST = re.compile(
    r"\b(?:(?:it\s+is|it's|its|is)\s+)?not\s+(?:the\s+case|true|so)\s+that\b"
    r"|\b(?:it\s+is|it's|its|is)\s+(?:a\s+myth|false|untrue|a\s+misconception)\s+that\b"
    r"|\bmyth\s+that\b"
    # "It's not that the gradient vanishes", "the bug is not that ...": the claim denied
    r"|\bnot\s+that\b(?!\s+(?:much|many|big|large|small|high|low|far|long|bad|different|hard"
    r"|easy|simple|good|important|complicated|clear|obvious|useful|common|rare|expensive|cheap"
    r"|strong|weak|bad|surprising)\b)"
    # "I don't think (it's true) that ...", "I don't buy that ..."
    r"|\b(?:do|does|did)\s+not\s+(?:think|believe|buy|agree)\s+(?:(?:it\s+is|it's)\s+"
    r"(?:true|the\s+case)\s+)?that\b"
    r"|\b(?:it\s+is|it's|is)\s+(?:wrong|incorrect)\s+(?:to\s+say\s+)?that\b"
)
#: "..., not because it needs extra gradients": the reason given after it is denied, and the
#: "because" stays (a step of the chain of reasons).
_NOT_BECAUSE = re.compile(r"\bnot\s+(because|since)\b")
_DENIED_REST = "deniedrest"
#: Negators that end a clause to deny all of it, the rest left unsaid ("clipping *neither*").
_TRAILING_NEGATORS = frozenset({"neither", "nor"})
#: Negators that may stand after the verb they deny ("the prompt teaches *nothing*").
_OBJECT_NEGATORS = frozenset({"nothing", "none"})
#: Small words that may stand between such a verb and its negator ("matters *for* nothing").
_OBJECT_JOINERS = frozenset({"for", "to", "with"})
#: "noise-free", "critic-free": without it ("the SDE is noise-free" says it adds no noise); not
#: the name "classifier-free guidance". Only with its hyphen (or typed as one word before
#: "free" with a hyphen-like space is not one): "the policy is free to exploit", "for free",
#: "free energy" are other senses.
_FREE_OF = re.compile(r"\b(?!classifier\b)([^\W\d_]{2,})-free\b")
#: "no better than", "not better than": a comparison ("accuracy is no better than chance"),
#: not a denial that the thing helps.
_NO_BETTER_THAN = re.compile(r"\b(?:no|not|nothing)\s+better\s+than\b")
#: Words that carry no point: never required by a phrasing.
SMALL_WORDS = frozenset(
    """a an the of to in on at by for from with as and or is are was were be been being it its
    this that these those there here which who whom whose what so than then do does did has have
    had will would can could should may might must shall we you they he she i our your their
    his her them us my me very also number amount""".split()
)
#: The lead words of "rather than", "instead of", "as opposed to" (read "rather without").
_REJECTING_LEADS = frozenset({"rather", "instead", "opposed"})
#: Nouns after which "no ... for" denies what follows "for" ("no *need* for a master copy").
_NEEDS = frozenset({"need", "reason", "call", "use"})
#: Small words a phrase negator reaches across ("without noise *or* drift", "no sign *of* it").
_PHRASE_JOINERS = frozenset({"or", "nor", "of"})
#: Words that part the two sides of a contrast inside a clause, as a comma does ("decode is
#: memory-bound *while* prefill ..."), without ending it: "AUC reads 0.9 *even though* the
#: model is useless" is one point.
_SIDE_BREAKS = frozenset(
    {"while", "whilst", "yet", "although", "though", "however", "conversely", "meanwhile"}
)
#: Markers of contrast written in several words, read as one side break ("prefill, on the
#: other hand, is compute-bound" keeps prefill with what is said of it).
_CONTRAST_MARKERS = re.compile(r"\b(?:on the other hand|in contrast|by contrast)\b")
_CLAUSE_BREAK = re.compile(r"[.;!?\n]+(?:\s|$)|[.;!?\n]+(?=[^\w])|\b(?:but|whereas)\b")
WORD = re.compile(r"[^\W_]+(?:[_'’][^\W_]+)*|,")
#: A word, a comma, or a sign (``=``, ``+``, ``→``, ``:``, a bracket): signs link words as a
#: verb does ("H(p) constant", "loss: unbounded"), which is all the list rule asks of them.
_WORD_OR_SIGN = re.compile(WORD.pattern + r"|[^\w\s,]")
_CONTRACTION = re.compile(r"(\w+)n['’]t\b")
#: The same contractions typed without their apostrophe ("doesnt", "isnt", "cant"): only the
#: auxiliaries, so that no other word ending in "nt" ("current", "gradient") is opened.
_BARE_CONTRACTION = re.compile(
    r"\b(do|does|did|is|are|was|were|has|have|had|should|could|would|must|need|ca|wo)nt\b"
)
_IRREGULAR_NOT = {"can": "can", "won": "will", "shan": "shall", "ain": "is"}
_BRITISH_ISE = re.compile(r"(?<=\w{3})is(e|es|ed|ing|ation|ations|er|ers)\b")
_BRITISH_OUR = re.compile(r"(?<=\w{3})our(s?)\b")
_BRITISH_YSE = re.compile(r"(?<=\w{3})ys(e|es|ed|ing)\b")
_NEGATION_SCOPE = 6
#: How many words a negation right after a relative pronoun governs ("a model *that never*
#: predicts positive ..."): the relative clause's verb and its object, no further.
RELATIVE_SCOPE = 2
_RELATIVE_PRONOUNS = frozenset({"that", "which", "who"})
#: Words that end a negation's reach ("does not depend on the data, *so* the KL is what moves").
_SCOPE_ENDS = frozenset(
    """so because since which that then therefore thus hence while whereas and when whenever if
    unless once""".split()
)
#: "not only", "not just", "no doubt": they add, they do not negate (read as one word, so a
#: phrasing may still ask for "not only").
_INTENSIFIED = re.compile(r"\bnot\s+(?:only|just|merely|simply|solely)\b|\bno\s+doubt\b")
#: Phrases that reject what follows them as "without" does ("the derivative stays *rather than
#: cancelling*", "a group mean *instead of* a critic"); the lead word stays a word.
_REJECTING = re.compile(r"\b(rather) than\b|\b(instead) of\b|\bas (opposed) to\b")
#: Verbs that deny what follows them: "fails to converge" is "does not converge" (and so is
#: "impossible to write in closed form"), and "stops the weights from growing" says they do
#: not grow.
_FAILS_TO = re.compile(r"\b(?:fails|fail|failed|failing|impossible|unable) to\b")
#: A relation denied, read as the plain negation the clause reader scopes: "X has nothing to
#: do with Y" and "X is unrelated to Y" are "X does not depend on Y" (so "H(p) has nothing to
#: do with θ" states independence, and "none of this has anything to do with gradients" says
#: nothing of gradients); "X plays no part in Y" is "X does not matter for Y"; "X has no effect
#: on Y" is "X does not affect Y". With "anything"/"any" the negation stands earlier in the
#: clause ("*none* of the range has anything to do with Y"), too far for its reach: it is
#: repeated where the relation is.
_NOTHING_TO_DO = re.compile(
    r"\b(?:has|have|had|having)\s+(?:got\s+)?nothing\s+(?:whatsoever\s+|at\s+all\s+|much\s+)?"
    r"to\s+do\s+with\b|\b(?:is|are|was|were)\s+(?:completely\s+|totally\s+|entirely\s+)?"
    r"unrelated\s+to\b"
)
_NO_PART_IN = re.compile(
    r"\b(?:plays?|played|playing)\s+no\s+(?:part|role)\s+(?:whatsoever\s+|at\s+all\s+)?in\b"
    r"|\b(?:is|are|was|were)\s+(?:completely\s+|totally\s+|entirely\s+)?irrelevant\s+(?:to|for)\b"
)
_NO_EFFECT_ON = re.compile(
    r"\b(?:has|have|had|bears?)\s+no\s+(?:bearing|effect|influence|impact|connection|relation"
    r"(?:ship)?)\s+(?:whatsoever\s+|at\s+all\s+)?(?:on|to|with)\b"
)
_ANY_RELATION = re.compile(
    r"\b(none|nothing|not|never|no)\b(?!\s+(?:only|just|merely)\b)"
    r"((?:(?!\b(?:whether|if)\b)[^,.;:!?]){0,60}?)\b(?:has|have|had|having|bears?|plays?)"
    r"\s+(?:anything\s+(?:whatsoever\s+|at\s+all\s+)?to\s+do\s+with|any\s+(?:part|role)\s+in)\b"
)
_ANY_EFFECT = re.compile(
    r"\b(none|nothing|not|never|no)\b(?!\s+(?:only|just|merely)\b)"
    r"((?:(?!\b(?:whether|if)\b)[^,.;:!?]){0,60}?)\b(?:has|have|had|having|bears?)\s+any\s+"
    r"(?:bearing|effect|influence|impact|connection|relation(?:ship)?)\s+(?:on|to|with)\b"
)


_KEEPS_FROM = re.compile(
    r"\b((?:prevents?|prevented|preventing|stops?|stopped|stopping|keeps?|kept|keeping|blocks?"
    r"|blocked)\b[^,.;:!?]{0,40}?\bfrom)\b(?=\s+(?:\w+\s+){0,2}\w+ing\b)"
)
#: A minus between operands (``log p(x) - KL``, ``−log p``), read as the word "minus".
_SPACED_MINUS = re.compile(r"(?<=[\w)\]|])\s+-\s+(?=[\w(\[|])|(?:^|(?<=[\s(=]))-(?=[^\W\d_]|\()")
#: Abbreviations with dots, which would otherwise end a clause.
_DOTTED = {
    "e.g.": "eg",
    "i.e.": "ie",
    "w.r.t.": "wrt",
    "w.r.t": "wrt",
    "vs.": "vs",
    "etc.": "etc",
    "cf.": "cf",
    "dr.": "dr",
    "et al.": "et al",
}
_DOTTED_RE = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(k) for k in _DOTTED) + r")")
#: Capitals that name a method where the lower case means something else (``ln`` is the log).
_CASED = {
    "LN": "layernorm",
    "GN": "groupnorm",
    "IS": "inceptionscore",
    "RM": "reward model",
    "GD": "gradient descent",
}
_CASED_RE = re.compile(r"\b(?:" + "|".join(_CASED) + r")\b")
#: Common abbreviations and spellings of one name, read as the name they stand for.
_ABBREVIATIONS = {
    "bn": "batchnorm",
    "grad": "gradient",
    "grads": "gradients",
    "param": "parameter",
    "params": "parameters",
    "prob": "probability",
    "probs": "probabilities",
    "stat": "statistic",
    "stats": "statistics",
    "dim": "dimension",
    "dims": "dimensions",
    "with respect to": "wrt",
    "w/o": "without",
    "dkl": "kl",
    "d_kl": "kl",
    "lr": "learning rate",
    "fwd": "forward",
    "bwd": "backward",
    "avg": "average",
    "var": "variance",
    "eps": "epsilon",
    "approx": "approximately",
    "vs": "versus",
    "bc": "because",
    "b/c": "because",
    "info": "information",
    "ppl": "perplexity",
    "const": "constant",
    "lik": "likelihood",
    "tok": "token",
    "toks": "tokens",
    "b/w": "between",
    "avgs": "averages",
    "feat": "feature",
    "feats": "features",
    "w/": "with",
    "est": "estimate",
    "ests": "estimates",
    "diff": "difference",
    "distrib": "distribution",
    "init": "initialization",
    "expt": "experiment",
    "tho": "though",
    "thru": "through",
    "bcs": "because",
    "bcz": "because",
    "cuz": "because",
    "coz": "because",
    "wt": "weight",
    "wts": "weights",
    "reg": "regularization",
    "corr": "correlation",
    "prev": "previous",
    "gigabytes": "gb",
    "gigabyte": "gb",
    "megabytes": "mb",
    "adv": "advantage",
    "advs": "advantages",
    "pts": "points",
    "pt": "point",
    "bw": "bandwidth",
    "mem": "memory",
    "emb": "embedding",
    "embs": "embeddings",
    "seq": "sequence",
    "seqs": "sequences",
    "attn": "attention",
    "ctx": "context",
    "wd": "weight decay",
    "hparams": "hyperparameters",
    "neg": "negative",
    "negs": "negatives",
    "temp": "temperature",
    "ref": "reference",
    "denom": "denominator",
    "full precision": "fp32",
    "full-precision": "fp32",
    "single precision": "fp32",
    "single-precision": "fp32",
    "half precision": "fp16",
    "half-precision": "fp16",
    "numer": "numerator",
}
_ABBREVIATION_RE = re.compile(
    r"(?<![\w/])(?:" + "|".join(re.escape(k) for k in _ABBREVIATIONS) + r")(?![\w/])"
)
#: Abbreviations that open into several words ("CE" is "cross entropy", "NLL" is "negative
#: log likelihood"). A phrasing lists alternatives with ``|`` and ties words with ``>``: inside
#: such a group one word cannot become several, so there the abbreviation stays as written.
_SPELT_OUT = {
    "nll": "negative log likelihood",
    "loglik": "log likelihood",
    "std": "standard deviation",
}
#: Words an abbreviation inside a formula opens into ("PPL = exp(−CE)" reads "cross entropy").
SPELT_OUT_WORDS = frozenset(word for words in _SPELT_OUT.values() for word in words.split())
_SPELT_OUT_RE = re.compile(
    r"(?<![\w/|>])(?:" + "|".join(re.escape(k) for k in _SPELT_OUT) + r")(?![\w/|>])"
)
#: An arrow between words reads "so" ("the entropy doesn't involve θ → max likelihood is min
#: KL"): it ends a negation's reach. An arrow into a number or a symbol ("p → 0") is a limit.
_ARROW = re.compile(r"\s(?:→|=>|->|⇒)\s+(?=[^\W\d_]{2})")
#: One method, several spellings: "batch norm", "batch-normalization", "batchnorm".
_COMPOUND_NAMES = re.compile(r"\b(batch|layer|group)[\s-]?norm(?:alization|alizations|s)?\b")
_INCEPTION_SCORE = re.compile(r"\binception[\s-]?scores?\b")
#: Cross-entropy in one word however it is written ("cross entropy", "cross-entropy", "CE",
#: "xent"): spelt as two words its "entropy" would read as the entropy a point speaks of
#: ("CE(p, q)" is no "entropy of p, q").
_CROSS_ENTROPY = re.compile(r"\b(?:cross[\s>-]?entropy|ce|xent)\b")
#: A mention after these is the foil of a contrast, not the subject of what follows
#: ("decode, *unlike* prefill, is memory-bound").
_FOIL_MARKERS = frozenset({"unlike", "than", "versus", "not", "opposed"})

_RELATIVE = re.compile(r",\s*(which|who|whose)\b")
#: Words that start the next step of a chain of reasons inside a piece ("... is convex *so*
#: correlated features group"); an arrow between words reads "so".
_STEP_WORDS = frozenset("so because since therefore thus hence".split())
#: Words that, after a comma, start another claim of the same sentence (a step of its own).
_CLAIM_JOINERS = frozenset("and but while whereas".split())


#: Words that link the terms of a clause into a statement, besides the small words, the
#: negations and signs: prepositions and conjunctions ("per feature", "before big steps").
LINKS = frozenset(
    """over per into onto towards toward across through between about under above below
    after before like via plus minus times when if each every all only but because since
    why how while whereas until unless ie eg wrt versus etc cf where wherever whenever whereby
    once whether unlike past beyond within against along among than""".split()
)
#: A clause of this many words or more with no link at all is a list of terms, not a statement
#: ("bce mse sigmoid log cancel slope"); shorter ones are terse notes ("small batches give noisy
#: statistics" is five).
LIST_CLAUSE = 6
#: A run of this many words with no link between any two of them (commas do not link) is a list
#: wherever it stands: the longest such run in a written sentence is about eight words.
LIST_RUN = 9
#: A run of this many words joined by nothing but spaces, hyphens and prepositions, with no small
#: word, negation, verb or sign among them, is a bag of words, not a statement ("20 activations
#: flops gradients inference over-train parameter per scales six size tokens weights"); the
#: longest such run in a written sentence is about nine ("deployed model costs about 2N FLOPs
#: per served token").
BAG_RUN = 12
#: This many comma-parted items in a row, each one or two words with no link, are a list
#: ("bce, mse, sigmoid, slope").
LIST_ITEMS = 4
#: This many comma-parted items in a row, each of at most :data:`TERM_WORDS` words and none
#: stating anything (no word of :data:`STATING_WORDS` or :data:`VERB_FORMS`, no ``=``), are a
#: list of terms as well,
#: whatever signs or prepositions stand inside an item ("variance d_k, softmax saturation,
#: one-hot, vanishing gradients, sqrt(d_k)"; "KL to reference, beta tradeoff, no RL").
TERM_ITEMS = 4
TERM_WORDS = 4
#: Words that make an item a statement rather than a term: the auxiliaries and copulas, and
#: words that tie one claim to another ("so", "because", "which").
STATING_WORDS = frozenset(
    """is are was were be been being do does did has have had will would can could should may
    might must shall so because since therefore thus hence then if when which that whereas
    while""".split()
)
#: Verbs said of the terms in a terse note ("variance grows with d_k, softmax saturates,
#: gradients vanish"): an item holding one states something. Only forms that are seldom nouns
#: ("scales", "rewards", "costs" are often plural nouns, and are left out).
VERB_FORMS = frozenset(
    """grows grow grew shrinks shrink shrank saturates saturate vanishes vanish vanished
    cancels cancel cancelled canceled fixes dominates dominate explodes explode exploded
    blows keeps keep kept makes make made gives give gave depends depend stays stay becomes
    become became goes go went gets get got takes take took lets turns brings bring brought
    puts stops prevents prevent causes cause avoids avoid beats beat pushes pulls adds
    removes reduces reduce increases decreases lowers raises penalizes penalize learns learn
    equals matters helps hurts breaks moves behaves differs ignores ignore couples discards
    discard uses replaces replace""".split()
)
#: Pronouns that are a clause's subject: an item holding one states something ("he" and "i"
#: are names too: "He init", "sum over i").
SUBJECT_PRONOUNS = frozenset("it they we you".split())
#: A "+" the learner typed, kept as a sign beside the word "plus" it is read as (the bag rule
#: reads a sign as a tie, a word "plus" in a list of keywords as none).
_PLUS_SIGN = "\u2295"
#: Signs that state a relation between the terms either side ("var = 1", "n > k").
_STATING_SIGNS = frozenset("=≈<>≤≥≠∝⇒→")


@dataclass(frozen=True)
class Token:
    """A word of the text: its stem, the word as written (folded), whether a negation governs
    it, which comma-delimited piece of its clause it stands in, whether it follows a foil
    marker ("unlike prefill"), whether only an "is" parts it from the word before, whether
    it stands in a list of terms with no statement (:func:`_mark_lists`), and whether it stands
    inside brackets (a formula's argument, "(x_0, ε)")."""

    stem: str
    word: str
    negated: bool
    piece: int = 0
    foil: bool = False
    copula: bool = False
    listed: bool = False
    bracketed: bool = False
    #: "from" or "to" when that small word stands right before the word's phrase ("the KL
    #: *from* the encoder *to* the posterior"), else empty
    lead: str = ""
    #: on a clause's first word: the clause opens with a pronoun ("*It* does not depend on the
    #: weights", "*This term* is fixed"), so it speaks of what the clause before named (an
    #: object pronoun does not: "the simple loss makes *them* depend on t" has its own subject)
    refers: bool = False
    #: which step of a chain of reasons in its piece the word stands in: "the L2 part is convex
    #: *so* correlated features group" is two steps (:data:`_STEP_WORDS`)
    step: int = 0
    #: a number glued to more of one number after it ("0" of "0.0013", "1" of "1/d" or "one
    #: over d_k") or before it ("6" after "6."): a piece of a figure, not the figure itself
    glued_ahead: bool = False
    glued_behind: bool = False
    #: a small word, negation, verb or stating sign stands between this word and the one before
    #: it, or it is a verb, or it opens the clause (or follows a colon): what the bag rule
    #: looks for (:data:`BAG_RUN`)
    tied: bool = True
    #: set aside by "rather than" or "instead of" ("normalises the values *rather than the
    #: queries*")
    rejected: bool = False
    #: in a claim the text explicitly denies ("it is not true that ...", "not because ..."):
    #: the learner rejects what these words say, rather than saying they are absent
    denied: bool = False
    #: which comma-parted item of its clause the word stands in: like ``piece``, but a comma
    #: inside brackets ("KL(p, q)") parts nothing
    item: int = 0
    #: the word is one the card itself uses (its model sentences, phrasings, prompt): read as
    #: itself, never as a slip of another ("straying" is no "staying" on a card that says "stray")
    known: bool = False


#: The most words of one text that are read. A 4,000-character explanation holds about 700;
#: reading signs as words ("≥" is "at least") could make a hostile text of signs several
#: thousand, each matched against every phrasing of the card.
MAX_WORDS = 1000


def _first_words(text: str) -> str:
    """``text`` up to the end of its :data:`MAX_WORDS`-th word."""
    for count, match in enumerate(WORD.finditer(text), 1):
        if count == MAX_WORDS:
            return text[: match.end()]
    return text


def read_clauses(text: str) -> Iterator[tuple[Token, ...]]:
    """The text's clauses as tokens, each marked when a negation governs it.

    A ``not``/``never``/``nothing`` governs the next few words up to a comma or a word of
    :data:`_SCOPE_ENDS`; a ``no``/``without`` (and "rather than", "instead of") only the phrase
    it introduces, up to the first small word after it ("without the limit the critic ..."); a
    ``nothing`` right after a verb denies the verb too ("teaches nothing")."""
    # ", which ..." says more of what the comma follows ("unlike L2's push, which shrinks"):
    # it stays in that piece.
    # a "+" typed is read "plus" and stays a sign (_PLUS_SIGN): "DPM-Solver++" is no bag
    text = _first_words(normalised(text.replace("+", "+" + _PLUS_SIGN)))
    text = _CONTRAST_MARKERS.sub("conversely", _RELATIVE.sub(r" \1", text))
    for piece in _CLAUSE_BREAK.split(text):
        opening = next((w for w in _OPENING_WORD.findall(piece[:60]) if w not in _CONNECTIVES), "")
        tokens: list[Token] = []
        scope = 0
        phrase_only = False
        governed = 0
        comma_piece = 0
        previous = ""
        gap: list[str] = ["|"]
        last_raw = ","
        concessive = False
        denied_from: int | None = None
        denied_until: int | None = None
        rejecting = False
        # What parts each word from the one before: "link" (a small word, a negation, a sign,
        # a side break), "comma", nothing but a space, or nothing at all ("start").
        joint = "start"
        joints: list[str] = []
        # whether something states or relates between each word and the one before (a small
        # word, a negation, a stating sign, "plus"), or the word is a verb: the bag rule
        tie = False
        ties: list[bool] = []
        depth = 0  # brackets open around the word ("(x_0, ε)": a formula's arguments)
        # comma-parted items outside brackets, for the list rule, and those that state
        item = 0
        step = 0
        items: list[int] = []
        stating: set[int] = set()
        found = list(_WORD_OR_SIGN.finditer(piece))
        raws = [match.group() for match in found]
        # a negation's reach pauses inside an aside in brackets ("never below zero (Gibbs'
        # inequality)"), and takes up again after it; a call's brackets ("f(x)") are no aside
        aside: tuple[int, int] | None = None
        for n, raw in enumerate(raws):
            if (
                raw == "("
                and aside is None
                and (found[n].start() == 0 or piece[found[n].start() - 1].isspace())
            ):
                aside, scope = (depth, scope), 0
            elif raw == ")" and aside is not None and depth == aside[0] + 1:
                scope, aside = aside[1], None
            if raw != "," and not raw[0].isalnum():
                # a colon starts afresh ("answer: bce mse sigmoid ..." is still a list), and
                # ends a negation's reach ("it isn't constant: it moves with the parameters")
                joint = "start" if raw == ":" else "link"
                if raw == ":":
                    scope = 0
                    denied_until = _denial_end(denied_from, denied_until, len(tokens))
                    # what follows a colon is a part of its own ("a pessimistic bound: when a
                    # change makes things worse ..." says no harm of the bound)
                    comma_piece += not depth
                depth = max(0, depth + (raw in "([{") - (raw in ")]}"))
                if raw in _STATING_SIGNS:
                    stating.add(item)
                # any sign but a hyphen ties: a formula is no bag of words
                tie = tie or raw != "-"
                # "RMSNorm = LayerNorm without ..." names RMSNorm again; so does a colon after
                # a note's one head word ("RMSNorm: LayerNorm without the centring")
                if raw == "=" or (raw == ":" and len(tokens) == 1):
                    gap.append("is")
                continue
            # "however small the weight" is no contrast: only "..., however," and a clause's
            # first "however" part it.
            side_break = raw in _SIDE_BREAKS and (raw != "however" or last_raw == ",")
            after_comma = last_raw == ","
            last_raw = raw
            # a subject pronoun makes its item a clause ("..., *it* loses fluency")
            if side_break or raw in STATING_WORDS or raw in VERB_FORMS or raw in SUBJECT_PRONOUNS:
                stating.add(item)
            tie = tie or side_break or raw == ","
            if (raw == "," and not depth) or side_break:
                item += 1
                stating.update({item} if side_break else set())
            if raw == "," and raws[n + 1 : n + 2] and raws[n + 1] in _DENIAL_ENDS:
                denied_until = _denial_end(denied_from, denied_until, len(tokens))
            if raw == "," or side_break:
                scope = 0
                gap = ["|"]
                comma_piece += 1
                previous = ""
                joint = "link" if side_break else "comma" if joint in ("space", "start") else joint
                continue
            if raw == "however":
                # "however small the weight" says nothing is small: the next word is no claim.
                concessive = True
                joint = "link"
                continue
            word = folded(raw)
            # ", and" joins a second claim: "CE = H(p) + KL, and H(p) is fixed" says "fixed"
            # of H(p), not of the cross-entropy the first claim names.
            step += word in _STEP_WORDS or (after_comma and word in _CLAIM_JOINERS)
            if word in NEGATORS or word in SMALL_WORDS or word in LINKS:
                joint = "link"
            tie = tie or word in STATING_WORDS or word in NEGATORS or word in SMALL_WORDS
            if word == _DENIED_REST:
                denied_from = len(tokens)  # what follows "it is not the case that" is denied
                joint = "link"
                continue
            if word in NEGATORS:
                # "teaches nothing", "matters *for* nothing": the verb before is denied
                after_verb = previous in _OBJECT_JOINERS and gap[-1:] == [previous]
                if (
                    word in _OBJECT_NEGATORS
                    and tokens
                    and (previous == tokens[-1].word or (after_verb and len(gap) == 1))
                ):
                    tokens[-1] = replace(tokens[-1], negated=True)
                # "a model *that never* predicts positive gets 1% accuracy": a relative
                # clause's negation ends with its verb's object, before the main verb; a
                # "which" clause a comma closes ends there ("post-norm, which does not keep a
                # clean residual path, trains ...")
                closed = "that" not in gap and "," in raws[n + 1 : n + 2 + 2 * _NEGATION_SCOPE]
                relative = bool(_RELATIVE_PRONOUNS & set(gap)) and not closed
                scope = RELATIVE_SCOPE if relative else _NEGATION_SCOPE
                phrase_only = word in _PHRASE_NEGATORS
                # "rather than X", "instead of X": X is set aside for what the clause says
                rejecting = word == "without" and previous in _REJECTING_LEADS
                governed = 0
                previous = word
                gap.append(word)
                continue
            if word in _SCOPE_ENDS:
                scope = 0
            if word in SMALL_WORDS:
                gap.append(word)
                if phrase_only and scope and word == "to":
                    # "no need to retrain it", "without having to ...": the phrase is a verb's.
                    phrase_only, scope = False, _NEGATION_SCOPE
                elif phrase_only and scope and word == "for" and previous in _NEEDS:
                    # "no need for an fp32 copy", "no reason for it": what is not needed
                    governed = 0
                elif phrase_only and governed and word not in _PHRASE_JOINERS:
                    scope = 0
                previous = word
                continue
            glued = _glued(piece, found[n]) if raw[0].isdigit() or raw == "one" else (False, False)
            tokens.append(
                Token(
                    stem(word),
                    word,
                    glued_ahead=glued[0],
                    glued_behind=glued[1],
                    negated=scope > 0 or concessive,
                    rejected=scope > 0 and rejecting,
                    piece=comma_piece,
                    bracketed=depth > 0,
                    foil=previous in _FOIL_MARKERS,
                    copula=gap in (["is"], ["are"]),
                    lead="from" if "from" in gap else "to" if "to" in gap else "",
                    step=step,
                    item=item,
                )
            )
            joints.append(joint)
            ties.append(tie or word in STATING_WORDS or word in VERB_FORMS)
            tie = False
            items.append(item)
            joint = "space"
            gap = []
            concessive = False
            governed += scope > 0
            scope = max(scope - 1, 0)
            previous = word
        if tokens and previous in _TRAILING_NEGATORS:
            # "gradient clipping neither": a clause that ends on its negation says it of all
            tokens = [replace(token, negated=True) for token in tokens]
        if denied_from is not None:
            # a denial the learner's own claim follows ("it's not that X: Y") rejects no more
            # than its words; one running to the clause's end rejects the clause's claim
            end = len(tokens) if denied_until is None else denied_until
            rejects = denied_until is None
            tokens = [
                replace(token, negated=True, denied=rejects) if denied_from <= i < end else token
                for i, token in enumerate(tokens)
            ]
        if tokens and (
            opening in _REFERRING
            or opening in VERB_FORMS | _ELIDED_AUXILIARIES
            or _OBJECT_IT.search(piece) is not None
        ):
            # "MAPE is scale-free but *explodes* near zero": a clause that opens with its verb
            # has the subject of the clause before
            tokens[0] = replace(tokens[0], refers=True)
        if tokens:
            yield _mark_lists(tokens, joints, items, stating, ties)


#: What glues a number to more of one figure after it: a decimal point and digits that are not
#: all zeros ("0.0013", not "1.0"), a slash ("1/d", "1 / 61"), a spoken "over" ("one over d_k").
_GLUED_AHEAD = re.compile(r"\.(?!0+(?![\w.]))\d|\s*/\s*[\w√(]|\s+over\s+(?:\d|[^\W\d]\w{0,3}\b)")
#: What glues a number to a figure before it: a decimal point or a slash after digits.
_GLUED_BEHIND = re.compile(r"(?:\d\.|\w\s*/\s*)$")


def _glued(piece: str, found: re.Match[str]) -> tuple[bool, bool]:
    """Whether the number ``found`` of ``piece`` is glued to more of one figure after it, and
    to one before it (:attr:`Token.glued_ahead`): "6.6" and "1/61" are no "6" nor "1"."""
    ahead = _GLUED_AHEAD.match(piece, found.end()) is not None
    if found.group() == "one":
        return ahead and "over" in piece[found.end() : found.end() + 7], False
    return ahead, _GLUED_BEHIND.search(piece, 0, found.start()) is not None


#: Words after a comma that end what "it is not true that ..." denies: the learner's own claim
#: follows ("it's not that the model is small, *it's* that the softmax saturates"), as after a
#: colon.
_DENIAL_ENDS = frozenset("it it's its rather instead but".split())


def _denial_end(denied_from: int | None, denied_until: int | None, at: int) -> int | None:
    """Where an explicit denial that began at ``denied_from`` ends: at ``at`` if it is open."""
    if denied_from is None or denied_until is not None:
        return denied_until
    return at


#: Words that open a clause speaking of what the clause before named ("It", "This term",
#: "They"), and the connectives that may come before them ("so it", "and this").
_REFERRING = frozenset("it this that these those they its such".split())
#: "it" as an object ("extra data reduces *it*", "more of *it*"): the clause speaks of what
#: the clause before named, as one that opens with a pronoun does. Not any "it": "you need 0.8
#: before *it* means anything" has a subject of its own.
_OBJECT_IT = re.compile(r"\b(?:of|[a-z]{3,}(?<!ha)s) it\b")
#: Auxiliaries that open a clause whose subject is the one before ("... but *is* undefined at
#: zero", "... but *can* blow up").
_ELIDED_AUXILIARIES = frozenset("is are was were has have can cannot will does do".split())
_CONNECTIVES = frozenset("so and then thus hence therefore because since also".split())
_OPENING_WORD = re.compile(r"[a-z']+")


def _mark_lists(
    tokens: list[Token],
    joints: list[str],
    item_of: list[int] | None = None,
    stating: set[int] | frozenset[int] = frozenset(),
    ties: list[bool] | None = None,
) -> tuple[Token, ...]:
    """The clause's tokens, those that stand in a list of terms marked ``listed``.

    A point is a statement: its terms linked by a verb, a preposition, a sign. Terms merely
    listed ("bce mse sigmoid log cancel slope extra factor saturate") say none of the relations
    between them, and the matcher gives them no point. Three shapes are lists: a clause of
    :data:`LIST_CLAUSE` words or more with no link at all; a run of :data:`LIST_RUN` words with
    nothing but spaces and commas between them; :data:`LIST_ITEMS` comma-parted items in a row
    of one or two words each. A colon starts afresh: "answer: bce mse ..." is a list after it.
    ``joints[i]`` is what parts token ``i`` from the one before."""
    listed = [False] * len(tokens)
    # stretches from one fresh start (the clause's, a colon's) to the next
    starts = [i for i, joint in enumerate(joints) if joint == "start" or i == 0]
    # in a short clause a verb of the third person links its terms as a small word does ("IDF
    # still *makes* rare terms count more"); a bare "cancel" may be a keyword of a list, and a
    # run of LIST_RUN words is a list whatever stands in it
    links = [j == "link" or _third_person(t.word) for j, t in zip(joints, tokens, strict=True)]
    for first, end in zip(starts, [*starts[1:], len(tokens)], strict=True):
        if end - first >= LIST_CLAUSE and not any(links[first:end]):
            listed[first:end] = [True] * (end - first)
    start = 0
    for i in range(1, len(tokens) + 1):
        if i == len(tokens) or joints[i] in ("link", "start"):
            if i - start >= LIST_RUN:
                listed[start:i] = [True] * (i - start)
            start = i
    # a bag of words: a run of BAG_RUN words with no small word, negation, verb or stating
    # sign among them states nothing, whatever prepositions and hyphens stand between
    # ("20 activations flops gradients inference over-train parameter per scales six")
    if ties is not None:
        start = 0
        for i in range(1, len(tokens) + 1):
            if i == len(tokens) or ties[i] or joints[i] == "start":
                if i - start >= BAG_RUN:
                    listed[start:i] = [True] * (i - start)
                start = i
    # items: runs of space-joined words, parted by commas
    items: list[tuple[int, int]] = []
    for i, joint in enumerate(joints):
        if i and joint == "space":
            items[-1] = (items[-1][0], i + 1)
        else:
            items.append((i, i + 1))
    run: list[tuple[int, int]] = []
    for n, (first, end) in enumerate(items):
        short = _short_item(tokens, first, end)
        if short and run and joints[first] == "comma":
            run.append((first, end))
        else:
            run = [(first, end)] if short else []
        last_of_run = n + 1 == len(items) or not (
            joints[items[n + 1][0]] == "comma" and _short_item(tokens, *items[n + 1])
        )
        if last_of_run and len(run) >= LIST_ITEMS:
            for a, b in run:
                listed[a:b] = [True] * (b - a)
    if item_of is not None:
        _mark_term_items(tokens, item_of, stating, listed)
    if ties is not None:
        tokens = [
            t if ties[i] or joints[i] == "start" else replace(t, tied=False)
            for i, t in enumerate(tokens)
        ]
    if not any(listed):
        return tuple(tokens)
    return tuple(
        replace(t, listed=True) if flag else t for t, flag in zip(tokens, listed, strict=True)
    )


def _third_person(word: str) -> bool:
    return word in VERB_FORMS and word.endswith("s") and not word.endswith("ss")


def _short_item(tokens: list[Token], first: int, end: int) -> bool:
    """Whether tokens ``first:end`` are an item of a list: one or two words, no verb among
    them ("softmax saturates", "gradients vanish" state something)."""
    return end - first <= 2 and not any(t.word in VERB_FORMS for t in tokens[first:end])


def _mark_term_items(
    tokens: list[Token], item_of: list[int], stating: set[int] | frozenset[int], listed: list[bool]
) -> None:
    """Mark in ``listed`` the runs of :data:`TERM_ITEMS` comma-parted items or more, each of
    at most :data:`TERM_WORDS` words (links aside) and none stating anything: terms named one
    after another with nothing said of them. ``item_of[i]`` is token ``i``'s item (commas inside
    brackets part none), ``stating`` the items with a verb or a relating sign."""
    spans: dict[int, list[int]] = {}
    for i, item in enumerate(item_of):
        spans.setdefault(item, []).append(i)
    run: list[int] = []
    ordered: list[int | None] = [*sorted(spans), None]
    for at in ordered:
        if at is not None and at not in stating:
            if sum(tokens[i].word not in LINKS for i in spans[at]) <= TERM_WORDS:
                run.append(at)
                continue
        # "no reward model, no sampling, no value net, no RL loop" states absences
        denying = sum(any(tokens[i].negated for i in spans[member]) for member in run)
        if len(run) >= TERM_ITEMS and 2 * denying <= len(run):
            for member in run:
                for i in spans[member]:
                    listed[i] = True
        run = []


#: "means" as a verb ("drops the bias, *which means* fewer parameters", "*this means* that",
#: ", *meaning* fewer"), read as "signifies": its stem would be the noun "mean" of a norm's
#: centring. "does not mean" and "the means that ..." are left alone.
_MEANS_VERB = re.compile(
    r"\b((?:which|this|that|it|what|so|also|just|simply)\s+)means\b|(,\s*)meaning\b"
)


def _means_verb(match: re.Match[str]) -> str:
    if match.group(1) is not None:
        return match.group(1) + "signifies"
    return match.group(2) + "signifying"


#: "never below zero", "not less than 0", "at least zero", "≥ 0": one word, "nonnegative"
#: (a figure after the zero is another number: "at least 0.25").
_NONNEGATIVE = re.compile(
    r"\b(?:(?:never|not|no)\s+(?:below|under|(?:less|smaller|lower)\s+than)|at\s+least)\s+"
    r"(?:zero|0)\b(?![.,]\d)|(?:>=|≥)\s*(?:zero|0)\b(?![.,]\d)"
)
#: A function of two arguments said unequal (or equal) to itself with them swapped,
#: "KL(p||q) != KL(q||p)", "D(p, q) ≠ D(q, p)": it is "asymmetric" ("symmetric").
_SWAPPED = re.compile(
    r"\b(\w+)\s*\(\s*(\w+)\s*(\|\||‖|,|;)\s*(\w+)\s*\)\s*(!=|≠|=/=|==|=)\s*"
    r"\1\s*\(\s*\4\s*\3\s*\2\s*\)"
)


def _swapped(match: re.Match[str]) -> str:
    equal = match.group(5) in ("==", "=")
    return f"{match.group(1)} {'symmetric' if equal else 'asymmetric'}"


def normalised(text: str) -> str:
    """Text (or a phrasing) folded so that spellings of one word meet: Unicode compatibility
    forms (``k₁`` is ``k1``, ``σ²`` is ``σ2``), a minus sign read as "minus", named methods in
    one spelling, abbreviations opened, contractions opened, British spellings made American,
    and "not only"-style intensifiers kept from reading as negations."""
    # "<<", "∝", "indep", "#neg"; "p(θ)" is the prior
    text = read_shorthand(named_densities(unicodedata.normalize("NFKC", text)))
    text = text.replace("−", " minus ")
    text = _SPACED_MINUS.sub(" minus ", text)
    text = _SPACED_LETTERS.sub(_joined_letters, text)
    text = _SWAPPED.sub(_swapped, text)
    text = _SIGNS.sub(lambda m: _SIGN_WORDS[m.group()], text)
    text = _ABOUT.sub(" about ", text)
    text = _BIG_O.sub(_big_o, text)
    text = _BLOW_UP_THE.sub(r"enlarge \1", text)
    text = _MOVED.sub(lambda m: f"{m.group()} {_MOVED_WORDS[m.group(1)]}", text)
    text = _ORDERS.sub(lambda m: _ORDER_WORDS[m.group(1)], text)
    text = _CASED_RE.sub(lambda m: _CASED[m.group()], text)
    text = text.lower().replace("’", "'").replace("+", " plus ")
    text = _PRIMED.sub(r"\1 prime", text)
    text = _ARROW.sub(" so ", text)
    text = _CONTRACTION.sub(lambda m: f"{_IRREGULAR_NOT.get(m.group(1), m.group(1))} not", text)
    text = _BARE_CONTRACTION.sub(
        lambda m: f"{_IRREGULAR_NOT.get(m.group(1) + 'n', m.group(1))} not", text
    )
    text = text.replace("cannot", "can not").replace("no longer", "not longer")
    text = text.replace("no matter", "regardless")
    text = _NONNEGATIVE.sub(" nonnegative ", text)
    text = _HOWEVER_HOW.sub("regardless ", text)
    text = _NO_BETTER_THAN.sub("as poor as", text)
    text = _FREE_OF.sub(r"without \1", text)
    text = _DENY_REST.sub(f" {_DENIED_REST} ", text)
    text = _NOT_BECAUSE.sub(rf"\1 {_DENIED_REST} ", text)
    text = _FAILS_TO.sub("do not", text)
    text = _KEEPS_FROM.sub(r"\1 not", text)
    text = _ANY_RELATION.sub(r"\1\2 does not depend on", text)
    text = _ANY_EFFECT.sub(r"\1\2 does not affect", text)
    text = _NOTHING_TO_DO.sub("does not depend on", text)
    text = _NO_PART_IN.sub("does not matter for", text)
    text = _NO_EFFECT_ON.sub("does not affect", text)
    text = _MEANS_VERB.sub(_means_verb, text)
    text = _INTENSIFIED.sub(lambda m: "nodoubt" if m.group().endswith("doubt") else "notonly", text)
    text = _BRITISH_ISE.sub(r"iz\1", text)
    text = _BRITISH_YSE.sub(r"yz\1", text)
    text = _BRITISH_OUR.sub(r"or\1", text)
    text = _DOTTED_RE.sub(lambda m: _DOTTED[m.group()], text)
    text = _ABBREVIATION_RE.sub(lambda m: _ABBREVIATIONS[m.group()], text)
    text = _SPELT_OUT_RE.sub(lambda m: _SPELT_OUT[m.group()], text)
    text = _NON.sub("non", text)
    text = _PHRASAL.sub(lambda m: _PHRASAL_WORDS[m.group(1) or m.group(2) or m.group(3)], text)
    text = _COMPOUND_NAMES.sub(r"\1norm", text)
    text = _INCEPTION_SCORE.sub("inceptionscore", text)
    text = _CROSS_ENTROPY.sub("crossentropy", text)
    return _REJECTING.sub(lambda m: f"{m.group(m.lastindex or 0)} without", text)


#: An abbreviation spoken letter by letter ("C E", "K L", "M S E"), read as one word where it
#: is one of these.
_SPELT_LETTERS = frozenset(
    """ce kl bn ln gn mse mae bce nll mle map sgd auc roc kv qk sft rl ppo dpo grpo rlhf moe ema
    fid ode sde svd pca lr elbo""".split()
)
_SPACED_LETTERS = re.compile(r"\b[A-Z](?: [A-Z]){1,3}\b")


def _joined_letters(match: re.Match[str]) -> str:
    joined = match.group().replace(" ", "")
    return joined if joined.lower() in _SPELT_LETTERS else match.group()


#: Signs of terse notes read as the words they stand for: "train != test" says they differ
#: (and "!" would end the clause), "min CE <=> min KL" that the two are one, "BN @ inference".
_SIGN_WORDS = {
    "!=": " differs from ",
    "≠": " differs from ",
    "=/=": " differs from ",
    "<=>": " equivalent to ",
    "<->": " equivalent to ",
    "⟺": " equivalent to ",
    "⇔": " equivalent to ",
    "==": " equals ",
    "@": " at ",
    "&": " and ",
    # a bound typed as a sign: "bound <= log N" is "at most log N"
    "<=": " at most ",
    "≤": " at most ",
    ">=": " at least ",
    "≥": " at least ",
}
_SIGNS = re.compile("|".join(re.escape(sign) for sign in _SIGN_WORDS))
#: "~" or "≈" before a number is "about" ("gradient ~ 0"); "X ~ N(0, 1)" stays a sign.
_ABOUT = re.compile(r"(?:~|≈)\s*(?=[-−]?\.?\d)")
#: A cost in big-O notation of one power of one name ("O(L^2)", "O(d³)"): read with the word
#: for its growth as well, "quadratic" or "cubic".
_BIG_O = re.compile(r"\bO\(\s*[^\W\d_]\w{0,8}\s*(?:\^\s*|\*\*\s*)?([23²³])\s*\)")
_GROWTH = {"2": "quadratic", "²": "quadratic", "3": "cubic", "³": "cubic"}


#: A derivative written with a prime after a one-letter or Greek name ("σ′(z)", "sigma'(z)",
#: "A'"): the name and the word "prime" ("the extra sigma prime factor").
_PRIMED = re.compile(
    r"(?<![\w'])([^\W\d_]|"
    + "|".join(sorted((name for name in GREEK_LETTERS if name.islower()), key=len, reverse=True))
    + r")['′](?![\w'])"
)
#: Orders of magnitude as notes write them ("100s-1000s tok/param"): hundreds, thousands.
_ORDERS = re.compile(r"(?<![\w.,])(100|1000|1,000)s\b")
_ORDER_WORDS = {"100": "hundreds", "1000": "thousands", "1,000": "thousands"}


#: The entropy written as a call: "H(p)" is the entropy, "H(p, q)" the cross-entropy
#: (:func:`entropy_named`).
_ENTROPY_CALL = re.compile(
    r"(?<![\w.])[hH]\(\s*[^\W\d_]\w{0,9}\s*(?:([,;]|\|\||‖)\s*[^\W\d_]\w{0,9}\s*)?\)"
)


#: "Blow up" with an object ("*blow up* the scores"): make it large, not "blows up" (explodes,
#: unbounded), which it says of itself.
_BLOW_UP_THE = re.compile(
    r"\bblow(?:s|ing|n)? up (the|a|an|all|its|their|these|those|your|every|each)\b",
    re.IGNORECASE,
)
#: A verb of motion with "down" or "up" after its object ("more data *brings* the variance
#: *down*", "it *drives* the loss *up*"): the particle, parted from its verb, is read with the
#: verb it stands for as well, "decreases" or "increases". Not "brings up" (mentions), nor a
#: particle right after its verb ("goes down" says "down", and a word more would make a terse
#: note a list), nor a deck's phrasing ("push|pushed probability down" asks for "down").
_MOVED = re.compile(
    r"(?<![\w|>])(?:(?:brings?|brought|bringing|knocks?|knocked)(?=(?:\s+[\w']+){1,3}\s+down\b)"
    r"|drives?|drove|driven|driving|push|pushes|pushed|pushing|pulls?|pulled|pulling)"
    r"(?:\s+[\w']+){1,3}?\s+(down|up)\b"
)
_MOVED_WORDS = {"down": "decreases", "up": "increases"}


def entropy_named(text: str) -> str:
    """The text with the word for each entropy it writes as a call put before the call: "the
    floor is H(p)" names the entropy, as "the floor is the data's entropy" does. (Not part of
    :func:`normalised`: a phrasing's "h(p)" is made by a learner's "H of p".)"""
    return _ENTROPY_CALL.sub(_entropy_call, text)


def _entropy_call(match: re.Match[str]) -> str:
    return f"{'crossentropy' if match.group(1) else 'entropy'} {match.group()}"


def _big_o(match: re.Match[str]) -> str:
    return f"{match.group()} {_GROWTH[match.group(1)]}"


#: Words a learner uses for one another, each family one idea in the decks' sense: a phrasing's
#: word is made by any word of its family ("the entropy does not *move* when the *weights*
#: move" says "entropy not depend|change parameters"). Families never cross the two sides of a
#: pair of :mod:`recall.grading.explain_polarity` (large and small stay apart), and words with a
#: second meaning in the decks are left out ("divergence" shares a stem with "diverge",
#: "fixed" one with "fixes", "derivative" and "gradient" are different points of one card; "shift"
#: is also the bias β a norm adds, so "does not change" would say "has no shift"; "drop" is also
#: "decrease", "the loss drops"; "correction" keeps a stem of its own, apart from "correct" and
#: "right": :data:`_OWN_STEMS`). The verb "means" is read apart from the noun "mean"
#: (:data:`_MEANS_VERB`).
SYNONYM_FAMILIES: tuple[str, ...] = (
    "change changes changed changing move moves moved moving alter alters budge budges",
    "parameters parameter params theta θ",
    "large larger big bigger huge enormous massive giant",
    "small smaller tiny little compact slim slimmer",
    "constant unchanged static",
    "freeze freezes frozen",
    "depend depends dependent rely relies",
    "punish punishes punished penalize penalizes penalized",
    "remove removes removed discard discards eliminate eliminates ditch ditches",
    "need needs require requires",
    "prevent prevents avoid avoids",
    "error errors mistake mistakes",
    "example examples instance instances datapoint datapoints",
    "keep keeps retain retains preserve preserves maintain maintains",
    "use uses used using employ employs utilize utilizes",
    "vanish vanishes vanishing disappear disappears",
    "choose chooses pick picks select selects",
    "cheap cheaper inexpensive",
    "expensive pricey",
    "fast faster quick quicker rapid",
    "same identical",
    "ignore ignores disregard disregards",
    "increase increases raise raises boost boosts grow grows rise rises",
    "reduce reduces decrease decreases shrink shrinks cut cuts diminish diminishes",
    "help helps aid aids",
    "wrong incorrect",
    "right correct",
    "exactly precisely",
    "formula equation expression",
    "term part component piece",
    "split splits decompose decomposes decomposition",
    "dominate dominates swamp swamps overwhelm overwhelms drown drowns",
    "idle unused",
    "mean average",
    "copy copies duplicate duplicates replica replicas",
    "update updates updated refresh refreshes refreshed overwrite overwrites overwritten "
    "rewrite rewrites rewritten",
    "stuck pinned trapped",
    "drift drifts drifted drifting wander wanders wandered wandering stray strays strayed straying",
    "hard harder difficult",
    "gibberish nonsense garbage junk",
    "amplify amplifies amplified magnify magnifies magnified",
    "thin thinner skinny narrow narrower",
    "inflate inflates inflated climb climbs",
    "spread spreads spreading smear smears smeared smearing",
    "gap gaps slack shortfall",
    "few handful",
    "up uphill upward upwards",
)


@lru_cache(maxsize=1)
def _synonym_stems() -> dict[str, tuple[str, ...]]:
    families: dict[str, tuple[str, ...]] = {}
    for family in SYNONYM_FAMILIES:
        stems = tuple(dict.fromkeys(stem(folded(word)) for word in family.split()))
        for one in stems:
            families[one] = tuple(dict.fromkeys(families.get(one, ()) + stems))
    return families


#: Greek letters spelt out and written as symbols are one word ("sigma" is "σ"): the lower-case
#: letters of the one Greek table (a text is read lower-cased).
GREEK = {name: symbol for name, symbol in GREEK_LETTERS.items() if name.islower()}
_GREEK_NAMES = {symbol: name for name, symbol in GREEK.items()}


def synonyms(word_stem: str) -> tuple[str, ...]:
    """The stems of the words a learner says for the word of ``word_stem`` (its family of
    :data:`SYNONYM_FAMILIES`, itself among them; a Greek letter's name and symbol), or
    ``()``."""
    if word_stem in GREEK:
        return (word_stem, GREEK[word_stem])
    if word_stem in _GREEK_NAMES:
        return (word_stem, _GREEK_NAMES[word_stem])
    return _synonym_stems().get(word_stem, ())


#: "however" inside a sentence before a subject ("the L1 norm is the same *however you* split
#: the weight") is "regardless of how", not a contrast nor "however small" (no claim).
_HOWEVER_HOW = re.compile(
    r"(?<=[^\W\d_] )however\s+(?=(?:you|it|we|they|one|the|this|that|these|those|its|their|"
    r"a|an|i)\b)"
)
#: "non-negative", "non negative" and "nonnegative" are one word.
_NON = re.compile(r"\bnon[\s-]+(?=[a-z])")
#: Verbs of two or three words read as the one word a phrasing asks for ("GRPO *throws away*
#: the critic" discards it, "*gets rid of*" removes).
_PHRASAL = re.compile(
    r"\b(thr(?:ow|ows|owing|ew|own) (?:away|out))\b"
    r"|\b((?:get|gets|getting|got) rid of)\b"
    r"|\b((?:do|does|doing|did|done) away with)\b"
)
_PHRASAL_WORDS = {
    **{
        f"{verb} {particle}": "discards"
        for verb in "throw throws throwing threw thrown".split()
        for particle in ("away", "out")
    },
    **{f"{verb} rid of": "removes" for verb in "get gets getting got".split()},
    **{f"{verb} away with": "removes" for verb in "do does doing did done".split()},
}


def folded(word: str) -> str:
    """A word without its possessive ("L2's" is ``l2``, "PPO's" is ``ppo``: short names the
    stemmer leaves alone), apostrophes or underscores (``d_k`` is ``dk``)."""
    if word.endswith("'s") and len(word) > 3:
        word = word[:-2]
    return word.replace("'", "").replace("_", "")


#: Words whose Snowball stem is a word of another sense in the decks: Adam's bias "correction"
#: is no "correct" (nor, by its family, "right") answer.
_OWN_STEMS = {"correction": "correction", "corrections": "correction"}


#: Snowball is pure Python (tens of microseconds a word): every word seen is stemmed once.
@lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    return _OWN_STEMS.get(word) or _stemmer().stemWord(word)


@lru_cache(maxsize=1)
def _stemmer():  # type: ignore[no-untyped-def]
    import snowballstemmer

    return snowballstemmer.stemmer("english")
