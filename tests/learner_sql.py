"""Every statement over a per-learner table names ``learner_id`` (issue 22's "every statement
filtered"), checked on every SQL string any engine sends, for the whole suite, on both backends.

recall uses SQLAlchemy Core, so no ORM hook adds the learner filter: each statement in
``recall/store`` states it. This listener (``before_cursor_execute`` on the ``Engine`` class, so
every engine recall or a test creates) counts the references to a per-learner table in a
statement (``FROM``/``JOIN``/``UPDATE``/``INTO``/``DELETE FROM`` it) and the learner conditions
(``learner_id =``/``learner_id IN``, or ``learner_id`` in an ``INSERT``'s column list), and fails
the test when there are fewer conditions than references: a forgotten filter in a subquery is
caught too, not only a statement that never names the learner. DDL (``CREATE``/``ALTER``/
``DROP``/``PRAGMA``) and Alembic's table copies (``_alembic_tmp_*``, a migration moving every
row) are allowed; so are tests marked ``learner_sql_unchecked`` (raw SQL written on purpose
against a schema from before learners existed, to test migrating it).
"""

from __future__ import annotations

import re
from typing import Any

from recall.store.models import PER_LEARNER_TABLES

_NAMES = "|".join(PER_LEARNER_TABLES)
#: A reference to a per-learner table (optionally quoted) as a row source or target.
REFERENCE = re.compile(rf"\b(?:FROM|JOIN|UPDATE|INTO)\s+\"?(?:{_NAMES})\"?(?![\w.])", re.I)
#: A condition on the learner: ``[table.]learner_id = ...`` or ``... IN (...)``.
CONDITION = re.compile(r"\blearner_id\"?\s*(?:=|IN\b)", re.I)
#: An insert naming the learner of its new row.
INSERT = re.compile(rf"^\s*INSERT\s+INTO\s+\"?(?:{_NAMES})\"?\s*\(([^)]*)\)", re.I)
ALLOWED = re.compile(r"^\s*(?:CREATE|ALTER|DROP|PRAGMA)\b", re.I)


def unfiltered(statement: str) -> bool:
    """Whether ``statement`` names a per-learner table more often than it names the learner."""
    if ALLOWED.match(statement) or "_alembic_tmp_" in statement:
        return False
    references = len(REFERENCE.findall(statement))
    if not references:
        return False
    conditions = len(CONDITION.findall(statement))
    insert = INSERT.match(statement)
    if insert is not None and re.search(r"\blearner_id\b", insert.group(1)):
        conditions += 1
    return conditions < references


class LearnerSqlCheck:
    """Records the unfiltered statements sent while it is on (one test at a time)."""

    def __init__(self) -> None:
        self.enabled = False
        self.seen: list[str] = []

    def __call__(
        self,
        _conn: Any,
        _cursor: Any,
        statement: str,
        _parameters: Any,
        _context: Any,
        _executemany: bool,
    ) -> None:
        if self.enabled and unfiltered(statement):
            self.seen.append(statement)
            raise AssertionError(f"SQL over a per-learner table without learner_id:\n{statement}")
