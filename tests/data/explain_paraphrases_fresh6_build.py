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

Answers are typed by hand into ``explain_paraphrases_fresh6_src/*.txt``. A ``== deck/card`` line
starts a card's block, ``#`` lines are comments, blank lines are skipped, and every other line is
one answer::

    STATES :: DENIES :: WHY :: TEXT

``STATES`` and ``DENIES`` are comma-separated point indices (``-`` for none): the points the text
clearly makes (must be credited) and the points it contradicts, reverses or gets wrong (must not
be credited). ``WHY`` is a short label of the case's class. A point the text leaves out is in
neither list.

The format, the checks and the build are those of ``explain_paraphrases_fresh3_build.py``
(run from it with this batch's folder and file). Checks (the build fails on any): the card
exists in ``decks/*.toml`` and has key points; every index names one of its points; no point
is both stated and denied; every entry labels at least one point; no text repeats within a
card; every explain card has at least 8 entries and the sheet's four "Saying it out loud"
cards at least 25; at least 700 entries in all; and, with ``--check``, the JSONL file equals
what the source builds.
"""

from __future__ import annotations

import sys

from explain_paraphrases_fresh3_build import DATA, main

SOURCE = DATA / "explain_paraphrases_fresh6_src"
CORPUS = DATA / "explain_paraphrases_fresh6.jsonl"

if __name__ == "__main__":
    sys.exit(main(SOURCE, CORPUS, __doc__))
