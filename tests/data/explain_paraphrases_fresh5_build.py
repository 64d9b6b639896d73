"""Build and verify ``tests/data/explain_paraphrases_fresh5.jsonl`` from hand-written text.

Usage::

    python tests/data/explain_paraphrases_fresh5_build.py          # rewrite the corpus file
    python tests/data/explain_paraphrases_fresh5_build.py --check  # verify it, change nothing

A fifth, blind batch of learner answers to the built-in explain cards (issue 23), written in
session 8 by three engineers (a third of the decks each) who never saw the matcher, the decks'
phrasings, the explain tests or the earlier corpora and reports: only each explain card's id,
prompt, model answer and each point's ``say`` statement, plus the two formula sheets for facts.
Eight cards' points were missing from the first card summaries the writers got (a model answer's
blank line cut them off); two more engineers, as blind, relabelled those cards' answers against
the real points. Measured once on the matcher of the session's start, then used as training data.

Answers are typed by hand into ``explain_paraphrases_fresh5_src/*.txt``, one per line as
``STATES :: DENIES :: WHY :: TEXT`` under ``== deck/card`` lines. The format, its checks and the
build are those of ``explain_paraphrases_fresh3_build.py`` (its docstring describes them), run
from it with this batch's folder and file.
"""

from __future__ import annotations

import sys

from explain_paraphrases_fresh3_build import DATA, main

SOURCE = DATA / "explain_paraphrases_fresh5_src"
CORPUS = DATA / "explain_paraphrases_fresh5.jsonl"

if __name__ == "__main__":
    sys.exit(main(SOURCE, CORPUS, __doc__))
