"""Build and verify ``tests/data/explain_paraphrases_fresh4.jsonl`` from hand-written text.

Usage::

    python tests/data/explain_paraphrases_fresh4_build.py          # rewrite the corpus file
    python tests/data/explain_paraphrases_fresh4_build.py --check  # verify it, change nothing

A fourth, blind batch of learner answers to the built-in explain cards (issue 23), written blind
in session 7 by engineer fresh4 from the same allowed material, to measure how the matcher
generalises to text nobody tuned it on. Its author saw only each explain card's id, prompt, model
answer and each point's ``say`` statement (never the phrasings a deck accepts for a point, the
matcher, the explain tests or the earlier corpora and reports), plus the two formula sheets for
facts.

Answers are typed by hand into ``explain_paraphrases_fresh4_src/*.txt``, one per line as
``STATES :: DENIES :: WHY :: TEXT`` under ``== deck/card`` lines. The format, its checks and the
build are those of ``explain_paraphrases_fresh3_build.py`` (its docstring describes them), run
from it with this batch's folder and file.
"""

from __future__ import annotations

import sys

from explain_paraphrases_fresh3_build import DATA, main

SOURCE = DATA / "explain_paraphrases_fresh4_src"
CORPUS = DATA / "explain_paraphrases_fresh4.jsonl"

if __name__ == "__main__":
    sys.exit(main(SOURCE, CORPUS, __doc__))
