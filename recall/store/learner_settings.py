"""A learner's own settings in a shared database (``learner_settings``, schema 0009).

On a learner's own machine the settings are ``config.toml`` and today's "learn N more" raise is
``today.json``, both in the data directory. Several learners sharing one database (any
PostgreSQL database, or a database with more than one learner) each have their own: the values
a learner set (the text a person gives ``recall config set``, validated by
:mod:`recall.config` when read, applied over ``config.toml``) and the day's raise
(:data:`recall.store.models.EXTRA_NEW_KEY`), keyed by learner and name. What a value means is
the caller's business; this module only keeps text, one learner's only.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import delete, func, insert, select, update

from recall.store.engine import DATABASE_ERRORS, store_error
from recall.store.models import STORE_RECORD_PREFIX, LearnerRow, LearnerSettingRow
from recall.store.store import Store

#: The longest name and value kept (a setting's text is short; a bound before any work).
MAX_KEY = 60
MAX_VALUE = 4096


class LearnerSettings:
    """The settings ``store``'s learner keeps in the database."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._mine = LearnerSettingRow.learner_id == store.learner_id

    def shared(self) -> bool:
        """Whether several learners share the database: a PostgreSQL database (a server is
        where a group meets), or any database holding more than one learner. A learner's own
        SQLite file is not: its settings stay in the data directory."""
        if self._store.dialect == "postgresql":
            return True
        try:
            with self._store._read() as conn:
                learners = conn.execute(select(func.count()).select_from(LearnerRow)).scalar()
        except DATABASE_ERRORS as error:
            raise store_error(error, self._store.url) from error
        return int(learners or 0) > 1

    def values(self) -> dict[str, str]:
        """Every name and value the learner set, by name (not the store's own records kept
        beside them, :data:`~recall.store.models.STORE_RECORD_PREFIX`)."""
        try:
            with self._store._read() as conn:
                rows = conn.execute(
                    select(LearnerSettingRow.key, LearnerSettingRow.value)
                    .where(self._mine, ~LearnerSettingRow.key.startswith(STORE_RECORD_PREFIX))
                    .order_by(LearnerSettingRow.key)
                )
                return {key: value for key, value in rows}
        except DATABASE_ERRORS as error:
            raise store_error(error, self._store.url) from error

    def set(self, key: str, value: str | None) -> None:
        """Keep ``value`` under ``key`` (``None``: forget it)."""
        self.update(key, lambda _old: value)

    def update(self, key: str, change: Callable[[str | None], str | None]) -> str | None:
        """Replace the value under ``key`` with ``change(old)`` (``old``: ``None`` when there is
        none; a new ``None`` forgets it) in one write transaction, so two windows raising the
        same limit at once both count; returns the new value."""
        _check(key, None)
        learner = self._store.learner_id
        try:
            with self._store._write() as conn:
                old = conn.execute(
                    select(LearnerSettingRow.value)
                    .where(self._mine, LearnerSettingRow.key == key)
                    .with_for_update()
                ).scalar_one_or_none()
                new = change(old)
                _check(key, new)
                if new is None:
                    if old is not None:
                        conn.execute(
                            delete(LearnerSettingRow).where(
                                self._mine, LearnerSettingRow.key == key
                            )
                        )
                elif old is None:
                    conn.execute(
                        insert(LearnerSettingRow).values(learner_id=learner, key=key, value=new)
                    )
                elif new != old:
                    conn.execute(
                        update(LearnerSettingRow)
                        .where(self._mine, LearnerSettingRow.key == key)
                        .values(value=new)
                    )
                return new
        except DATABASE_ERRORS as error:
            raise store_error(error, self._store.url) from error


def _check(key: str, value: str | None) -> None:
    if not key or len(key) > MAX_KEY:
        raise ValueError(f"a setting's name is 1 to {MAX_KEY} characters, not {len(key)}")
    if value is not None and len(value) > MAX_VALUE:
        raise ValueError(f"a setting's value is at most {MAX_VALUE} characters")


__all__ = ["LearnerSettings"]
