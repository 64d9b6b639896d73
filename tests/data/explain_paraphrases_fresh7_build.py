"""Build and verify ``tests/data/explain_paraphrases_fresh7.jsonl`` from hand-written text.

Usage::

    python tests/data/explain_paraphrases_fresh7_build.py          # rewrite the corpus file
    python tests/data/explain_paraphrases_fresh7_build.py --check  # verify it, change nothing

A seventh, blind batch of learner answers to the built-in explain cards (issue 23), written in
session 9 by three more engineers (a third of the decks each; voices: an anxious student before
an oral exam, with self-corrections; an engineer in a chat channel, with ASCII math and a few
formal non-native paragraphs; a teaching assistant quoting students' typical mistakes, in British
spelling) who never saw the matcher, the decks' phrasings, the tests or the earlier corpora: only
each explain card's id, prompt, model answer, figures and each point's ``say`` statement. A
fourth blind engineer audited every label against the cards (10 of 1,040 lines corrected, all of
them a second point a wrong claim also contradicts). Kept unread while the matcher was tuned on
fresh5 and fresh6, and measured once at the session's end.

Answers are typed by hand into ``explain_paraphrases_fresh7_src/*.txt``, one per line as
``STATES :: DENIES :: WHY :: TEXT`` under ``== deck/card`` lines. The format, its checks and the
build are those of ``explain_paraphrases_fresh3_build.py`` (its docstring describes them), run
from it with this batch's folder and file.
"""

from __future__ import annotations

import sys

from explain_paraphrases_fresh3_build import DATA, main

SOURCE = DATA / "explain_paraphrases_fresh7_src"
CORPUS = DATA / "explain_paraphrases_fresh7.jsonl"

if __name__ == "__main__":
    sys.exit(main(SOURCE, CORPUS, __doc__))
