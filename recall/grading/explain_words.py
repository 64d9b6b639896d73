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
)
_DENIED_REST = "deniedrest"
#: Negators that end a clause to deny all of it, the rest left unsaid ("clipping *neither*").
_TRAILING_NEGATORS = frozenset({"neither", "nor"})
#: Negators that may stand after the verb they deny ("the prompt teaches *nothing*").
_OBJECT_NEGATORS = frozenset({"nothing", "none"})
#: Words that carry no point: never required by a phrasing.
SMALL_WORDS = frozenset(
    """a an the of to in on at by for from with as and or is are was were be been being it its
    this that these those there here which who whom whose what so than then do does did has have
    had will would can could should may might must shall we you they he she i our your their
    his her them us my me just very really also number amount""".split()
)
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
#: Verbs that deny what follows them: "fails to converge" is "does not converge", and "stops
#: the weights from growing" says they do not grow.
_FAILS_TO = re.compile(r"\b(?:fails|fail|failed|failing) to\b")
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
    why how while whereas until unless ie eg wrt versus etc cf""".split()
)
#: A clause of this many words or more with no link at all is a list of terms, not a statement
#: ("bce mse sigmoid log cancel slope"); shorter ones are terse notes ("small batches give noisy
#: statistics" is five).
LIST_CLAUSE = 6
#: A run of this many words with no link between any two of them (commas do not link) is a list
#: wherever it stands: the longest such run in a written sentence is about eight words.
LIST_RUN = 9
#: This many comma-parted items in a row, each one or two words with no link, are a list
#: ("bce, mse, sigmoid, slope").
LIST_ITEMS = 4
#: This many comma-parted items in a row, each of at most :data:`TERM_WORDS` words and none
#: stating anything (no verb of :data:`STATING_WORDS`, no ``=``), are a list of terms as well,
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
    #: which step of a chain of reasons in its piece the word stands in: "the L2 part is convex
    #: *so* correlated features group" is two steps (:data:`_STEP_WORDS`)
    step: int = 0


def read_clauses(text: str) -> Iterator[tuple[Token, ...]]:
    """The text's clauses as tokens, each marked when a negation governs it.

    A ``not``/``never``/``nothing`` governs the next few words up to a comma or a word of
    :data:`_SCOPE_ENDS`; a ``no``/``without`` (and "rather than", "instead of") only the phrase
    it introduces, up to the first small word after it ("without the limit the critic ..."); a
    ``nothing`` right after a verb denies the verb too ("teaches nothing")."""
    # ", which ..." says more of what the comma follows ("unlike L2's push, which shrinks"):
    # it stays in that piece.
    text = _CONTRAST_MARKERS.sub("conversely", _RELATIVE.sub(r" \1", normalised(text)))
    for piece in _CLAUSE_BREAK.split(text):
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
        # What parts each word from the one before: "link" (a small word, a negation, a sign,
        # a side break), "comma", nothing but a space, or nothing at all ("start").
        joint = "start"
        joints: list[str] = []
        depth = 0  # brackets open around the word ("(x_0, ε)": a formula's arguments)
        # comma-parted items outside brackets, for the list rule, and those that state
        item = 0
        step = 0
        items: list[int] = []
        stating: set[int] = set()
        for raw in _WORD_OR_SIGN.findall(piece):
            if raw != "," and not raw[0].isalnum():
                # a colon starts afresh ("answer: bce mse sigmoid ..." is still a list)
                joint = "start" if raw == ":" else "link"
                depth = max(0, depth + (raw in "([{") - (raw in ")]}"))
                if raw in _STATING_SIGNS:
                    stating.add(item)
                continue
            # "however small the weight" is no contrast: only "..., however," and a clause's
            # first "however" part it.
            side_break = raw in _SIDE_BREAKS and (raw != "however" or last_raw == ",")
            after_comma = last_raw == ","
            last_raw = raw
            if side_break or raw in STATING_WORDS:
                stating.add(item)
            if (raw == "," and not depth) or side_break:
                item += 1
                stating.update({item} if side_break else set())
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
            if word == _DENIED_REST:
                denied_from = len(tokens)  # what follows "it is not the case that" is denied
                joint = "link"
                continue
            if word in NEGATORS:
                if word in _OBJECT_NEGATORS and tokens and previous == tokens[-1].word:
                    tokens[-1] = replace(tokens[-1], negated=True)
                scope = _NEGATION_SCOPE
                phrase_only = word in _PHRASE_NEGATORS
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
                elif phrase_only and governed and word not in _PHRASE_JOINERS:
                    scope = 0
                previous = word
                continue
            tokens.append(
                Token(
                    stem(word),
                    word,
                    negated=scope > 0 or concessive,
                    piece=comma_piece,
                    bracketed=depth > 0,
                    foil=previous in _FOIL_MARKERS,
                    copula=gap in (["is"], ["are"]),
                    lead="from" if "from" in gap else "to" if "to" in gap else "",
                    step=step,
                )
            )
            joints.append(joint)
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
            tokens = tokens[:denied_from] + [
                replace(token, negated=True) for token in tokens[denied_from:]
            ]
        if tokens:
            yield _mark_lists(tokens, joints, items, stating)


def _mark_lists(
    tokens: list[Token],
    joints: list[str],
    item_of: list[int] | None = None,
    stating: set[int] | frozenset[int] = frozenset(),
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
    for first, end in zip(starts, [*starts[1:], len(tokens)], strict=True):
        if end - first >= LIST_CLAUSE and "link" not in joints[first:end]:
            listed[first:end] = [True] * (end - first)
    start = 0
    for i in range(1, len(tokens) + 1):
        if i == len(tokens) or joints[i] in ("link", "start"):
            if i - start >= LIST_RUN:
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
        short = end - first <= 2
        if short and run and joints[first] == "comma":
            run.append((first, end))
        else:
            run = [(first, end)] if short else []
        last_of_run = n + 1 == len(items) or not (
            joints[items[n + 1][0]] == "comma" and items[n + 1][1] - items[n + 1][0] <= 2
        )
        if last_of_run and len(run) >= LIST_ITEMS:
            for a, b in run:
                listed[a:b] = [True] * (b - a)
    if item_of is not None:
        _mark_term_items(tokens, item_of, stating, listed)
    if not any(listed):
        return tuple(tokens)
    return tuple(
        replace(t, listed=True) if flag else t for t, flag in zip(tokens, listed, strict=True)
    )


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


def normalised(text: str) -> str:
    """Text (or a phrasing) folded so that spellings of one word meet: Unicode compatibility
    forms (``k₁`` is ``k1``, ``σ²`` is ``σ2``), a minus sign read as "minus", named methods in
    one spelling, abbreviations opened, contractions opened, British spellings made American,
    and "not only"-style intensifiers kept from reading as negations."""
    text = unicodedata.normalize("NFKC", text).replace("−", " minus ")
    text = _SPACED_MINUS.sub(" minus ", text)
    text = _SPACED_LETTERS.sub(_joined_letters, text)
    text = _SIGNS.sub(lambda m: _SIGN_WORDS[m.group()], text)
    text = _ABOUT.sub(" about ", text)
    text = _CASED_RE.sub(lambda m: _CASED[m.group()], text)
    text = text.lower().replace("’", "'").replace("+", " plus ")
    text = _ARROW.sub(" so ", text)
    text = _CONTRACTION.sub(lambda m: f"{_IRREGULAR_NOT.get(m.group(1), m.group(1))} not", text)
    text = _BARE_CONTRACTION.sub(
        lambda m: f"{_IRREGULAR_NOT.get(m.group(1) + 'n', m.group(1))} not", text
    )
    text = text.replace("cannot", "can not").replace("no longer", "not longer")
    text = text.replace("no matter", "regardless")
    text = _DENY_REST.sub(f" {_DENIED_REST} ", text)
    text = _FAILS_TO.sub("do not", text)
    text = _KEEPS_FROM.sub(r"\1 not", text)
    text = _INTENSIFIED.sub(lambda m: "nodoubt" if m.group().endswith("doubt") else "notonly", text)
    text = _BRITISH_ISE.sub(r"iz\1", text)
    text = _BRITISH_YSE.sub(r"yz\1", text)
    text = _BRITISH_OUR.sub(r"or\1", text)
    text = _DOTTED_RE.sub(lambda m: _DOTTED[m.group()], text)
    text = _ABBREVIATION_RE.sub(lambda m: _ABBREVIATIONS[m.group()], text)
    text = _SPELT_OUT_RE.sub(lambda m: _SPELT_OUT[m.group()], text)
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
}
_SIGNS = re.compile("|".join(re.escape(sign) for sign in _SIGN_WORDS))
#: "~" or "≈" before a number is "about" ("gradient ~ 0"); "X ~ N(0, 1)" stays a sign.
_ABOUT = re.compile(r"(?:~|≈)\s*(?=[-−]?\.?\d)")


def folded(word: str) -> str:
    """A word without its possessive ("L2's" is ``l2``, "PPO's" is ``ppo``: short names the
    stemmer leaves alone), apostrophes or underscores (``d_k`` is ``dk``)."""
    if word.endswith("'s") and len(word) > 3:
        word = word[:-2]
    return word.replace("'", "").replace("_", "")


#: Snowball is pure Python (tens of microseconds a word): every word seen is stemmed once.
@lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    return _stemmer().stemWord(word)


@lru_cache(maxsize=1)
def _stemmer():  # type: ignore[no-untyped-def]
    import snowballstemmer

    return snowballstemmer.stemmer("english")
