"""Build and verify ``tests/data/explain_paraphrases_fresh6.jsonl`` from hand-written text.

Usage::

    python tests/data/explain_paraphrases_fresh6_build.py          # rewrite the corpus file
    python tests/data/explain_paraphrases_fresh6_build.py --check  # verify it, change nothing

A sixth, blind batch of learner answers to the built-in explain cards (issue 23), written in
session 8 by three more engineers (a third of the decks each; voices: an oral exam and an
interview, terse study notes with ASCII formulas, non-native English and analogies) who never saw
the matcher, the decks' phrasings, the explain tests or the earlier corpora and reports: only each
explain card's id, prompt, model answer, figures and each point's ``say`` statement. Kept unread
while the matcher was tuned on fresh4 and fresh5, and measured at the session's end: the honest
figure of how the matcher does on answers nobody tuned it on.

Answers are typed by hand into ``explain_paraphrases_fresh6_src/*.txt``, one per line as
``STATES :: DENIES :: WHY :: TEXT`` under ``== deck/card`` lines. The format, its checks and the
build are those of ``explain_paraphrases_fresh3_build.py`` (its docstring describes them), run
from it with this batch's folder and file.
"""

from __future__ import annotations

import sys

from explain_paraphrases_fresh3_build import DATA, main

SOURCE = DATA / "explain_paraphrases_fresh6_src"
CORPUS = DATA / "explain_paraphrases_fresh6.jsonl"

if __name__ == "__main__":
    sys.exit(main(SOURCE, CORPUS, __doc__))
