"""Every interchange format in one place: what recall reads from and writes for other tools.

* :mod:`recall.interop.text_import`: notes from CSV/TSV, Anki's plain-text export and Quizlet,
  turned into a recall deck;
* :mod:`recall.interop.text_export`: a deck out as Anki-readable CSV, or as JSON;
* :mod:`recall.interop.review_csv`: review logs in the FSRS tools' CSV format.

The package sits above the deck format (:mod:`recall.cards`) and the scheduling types, and below
the commands: it reads and writes files and turns them into plain data, and the callers decide
what to store. It never imports the formula engine, the store's SQL or the TUI (import-linter
contracts in ``pyproject.toml``), so reading a file stays cheap and a formula writer is passed in
by the caller when one is needed.
"""
