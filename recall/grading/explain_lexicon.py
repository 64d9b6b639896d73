"""Which typed words are words, for :mod:`recall.grading.explain`'s forgiven slips.

The matcher forgives a key or two off in a long word of a point ("varience" is "variance"). A
typed word that is itself a real word is no such slip, though: "sample" is one key from
"simple", "chance" from "change", "situation" two from "saturation", and a learner who wrote
them meant what they wrote. A word is taken as real when the built-in decks use it anywhere
(their prompts, model answers and phrasings: the vocabulary of the subject) or when it is one
of a short list of everyday English words that sit a slip away from some word of the decks.
Only an inflection of the point's own word stays a slip: "infinity" for "infinite", "drives"
for "driven" share all but their last letters.
"""

from __future__ import annotations

import re
from functools import lru_cache

from recall.grading.explain_words import normalised
from recall.paths import builtin_decks_dir

#: Everyday words a slip or two from a word of the decks that the decks themselves never use
#: (kept short: only words near the subject's own matter).
EVERYDAY_WORDS = frozenset(
    """
    situation situations exploration explorations exploring explore explored stimulation
    simulate simulated sampler samplers sampled sampling simply simpler simplest single
    chances changed changes changing chancy charge charged charges charging choice choices
    chooser choosers closed closer closest though thought through throughout tough trough
    quite quiet quit quotient latter later layer lesser lessen lesson letter better bitter
    batter butter matter mattered matters master metric matrix modal model modest moderate
    normal formal former format formed forms form from affect affects affected effect effects
    except accept accepted expect expected expects extent extend extended extends intent
    intend intended content context contest contrast contract contracts contraction counter
    contour course coarse source sources resource resources record records regard regards
    reward rewards rewind wander wonder wandered wondered wondering weight weights weighs
    weigh height eight right rights light slight slightly tight tightly might mighty night
    sight fight bright brighter brightly direct directs director directly indirect indirectly
    decent descent dissent recent recently resent resents reset present presents prevent
    prevents persistent consistent constant constants instant instance instances distance
    distant density destiny dentist diverse divers divert inverse invert inverted reverse
    revert reverted average averse adverse advert advent expert experts export exports
    import imports impart report reports support supports suppose supposed propose proposed
    purpose purposes process processes progress progresses produce product production
    predict predicts predicted prediction verdict verdicts district strict stricter
    scalar scales scaled scale stale state stated states status statue statute static
    station stationary nation notion motion motions emotion option options
    portion portions potion proportion lotion ration ratio rations relation relations
    relative relatives related elated elevate elevated relate relates release released
    minimal minimum maximal maximum animal nominal normally formally formerly
    """.split()
)

#: A word of the decks: letters only, case folded.
_DECK_WORD = re.compile(r"[a-z]{3,}")
#: Deck words the reader would spell otherwise (British "-ise", "-our", "-yse"): folded as a
#: typed word is, so that "normalized" is found where the decks wrote "normalised".
_FOLDED_AWAY = re.compile(r"is|our|ys")
#: "centre", "centred", "metres": the British "-tre" that the reader leaves as typed.
_BRITISH_TRE = re.compile(r"tre(s|d)?$")


@lru_cache(maxsize=1)
def _vocabulary() -> frozenset[str]:
    """Every word of the built-in decks and of :data:`EVERYDAY_WORDS`, read once (about a
    tenth of a second, on the first slip a text holds)."""
    words = set(EVERYDAY_WORDS)
    for path in sorted(builtin_decks_dir().glob("*.toml")):
        words.update(_DECK_WORD.findall(path.read_text(encoding="utf-8").lower()))
    return frozenset(words | {normalised(w) for w in words if _FOLDED_AWAY.search(w)})


def known_word(word: str) -> bool:
    """Whether ``word`` (folded to lower case) is a word of the decks or an everyday one."""
    return word in _vocabulary()


def another_word(typed: str, meant: str) -> bool:
    """Whether ``typed`` is a real word other than ``meant``, so no slip of it: a word of the
    decks or an everyday one, neither another spelling of ``meant`` ("centred") nor one of its
    inflections (the two differ only in their last letter: "infinity", "drives" for
    "driven")."""
    if typed not in _vocabulary() or _american(typed) == meant:
        return False
    shared = next((i for i, (a, b) in enumerate(zip(typed, meant, strict=False)) if a != b), None)
    if shared is None:  # one is the other with letters added at its end ("chooser")
        return False
    return shared < min(len(typed), len(meant)) - 1


def _american(word: str) -> str:
    """A British "-tre" word spelt the American way ("centred" is "centered")."""
    return _BRITISH_TRE.sub(
        lambda m: {"d": "tered", "s": "ters"}.get(m.group(1) or "", "ter"), word
    )
