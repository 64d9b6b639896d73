"""Row-level security on PostgreSQL: the database itself keeps each learner to their own rows.

The store filters every statement by learner (:class:`recall.store.store.Store`), but on a shared
server every learner holds a database URL and could send SQL of their own. So PostgreSQL enforces
the same boundary, keyed on the login and nothing a session can change:

* ``current_learner()`` is a ``SECURITY DEFINER`` SQL function returning the id of the learner
  whose ``learners.role_name`` is ``session_user``. ``session_user`` is the role that logged in:
  ``SET ROLE`` changes ``current_user`` but never it, and no session variable is consulted, so
  ``SET recall.learner_id = ...`` changes nothing. Its ``search_path`` is pinned to the schema it
  was created in (then ``pg_temp``), so a learner cannot put a table of their own named
  ``learners`` in front of it.
* Every per-learner table has row-level security **enabled and forced** and the policy
  ``recall_learner``: ``USING`` and ``WITH CHECK`` ``learner_id = current_learner()`` (a learner
  reads, inserts, updates and deletes only their own rows; a role that is no learner, such as a
  group reader, sees none). ``learners`` itself lets a learner read their own row only;
  ``recall_meta`` lets anyone read it and update only ``last_opened_at`` (what opening the store
  writes).
* **The owner.** Forced means the tables' owner is held to the policies too (unforced, an owner
  bypasses them silently, and so would whatever runs as the owner). The owner, the role that ran
  the migrations, gets its own policy ``recall_owner`` (``TO`` that role, ``USING (true)``):
  it must see every row to migrate data, add and remove learners, and serve the group's
  aggregate views. A named policy was chosen over ``BYPASSRLS`` because it is visible in
  ``pg_policies`` next to the learners' one, is created by the migration itself (``BYPASSRLS``
  needs a superuser to grant) and covers these tables only, not every table of the cluster.
  ``TO`` a role applies to its members too: never grant the owner role to a learner.
* ``decks`` and ``cards``: a learner sees the shared (built-in) decks and their own custom
  decks, with their cards, never another learner's custom deck; a learner inserts and updates
  their own custom decks and their cards only (migration 0011, :func:`seal_shared_rows`). The
  shared rows are the owner's to write: the owner's sync of the built-in decks (``recall decks
  sync``, ``recall learners add``) brings them in line for everyone, and a learner's sync only
  reads them (:func:`recall.store.sync.sync_decks`). A trigger keeps a row's identity (which
  deck, which owner) out of a learner's reach on their own rows too.
* What a learner role may touch at all is ``recall_grant_learner(role)``, a function in the
  database (so each migration can keep the list whole): ``CONNECT`` on the database (so the
  owner may revoke it from ``PUBLIC``), every table with a ``learner_id``
  and forced row security, the decks and cards, reading ``alembic_version`` and
  ``recall_meta``, and the sequences the store's inserts draw ids from.

A new database is created from the models (:mod:`recall.store.schema`) and an old one upgraded
by migrations 0010 and 0011: both call :func:`install` with the per-learner tables they have,
then :func:`seal_shared_rows`. A later
migration adding a per-learner table calls :func:`protect_table` for it and then
:func:`regrant_learners`.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection, text

#: Function names, in the schema the tables live in.
CURRENT_LEARNER = "current_learner"
GRANT_LEARNER = "recall_grant_learner"
GRANT_READER = "recall_grant_group_reader"
#: The group's views and function (no learner's rows or answers: aggregates only).
GROUP_CARDS_VIEW = "group_card_stats"
GROUP_READINESS = "group_readiness"
#: Policy names.
LEARNER_POLICY = "recall_learner"
OWNER_POLICY = "recall_owner"

#: The tables every learner shares (read by every learner; their shared rows written by the
#: owner's sync, a learner's custom decks by that learner's).
SHARED_TABLES = ("decks", "cards")


def _sql(conn: Connection, statement: str) -> None:
    conn.execute(text(statement))


def is_postgresql(conn: Connection) -> bool:
    return conn.dialect.name == "postgresql"


def install(conn: Connection, per_learner_tables: Sequence[str]) -> None:
    """Create the function, enable and force the policies, create the grant functions and the
    group views (PostgreSQL; nothing on SQLite, whose file has one learner). Run as the owner.
    The table names come from recall's own schema, never from a user."""
    if not is_postgresql(conn):
        return
    _sql(
        conn,
        f"""
        CREATE FUNCTION {CURRENT_LEARNER}() RETURNS integer
        LANGUAGE sql STABLE SECURITY DEFINER
        AS $$ SELECT id FROM learners WHERE role_name = session_user $$
        """,
    )
    _pin_search_path(conn, f"{CURRENT_LEARNER}()")
    for table in per_learner_tables:
        protect_table(conn, table)
    _protect_decks(conn)
    _owner_policy(conn, "learners")
    _sql(
        conn,
        f"CREATE POLICY {LEARNER_POLICY} ON learners FOR SELECT USING (id = {CURRENT_LEARNER}())",
    )
    _force(conn, "learners")
    _owner_policy(conn, "recall_meta")
    _sql(conn, "CREATE POLICY recall_read ON recall_meta FOR SELECT USING (true)")
    _sql(
        conn,
        "CREATE POLICY recall_touch ON recall_meta FOR UPDATE "
        "USING (key = 'last_opened_at') WITH CHECK (key = 'last_opened_at')",
    )
    _force(conn, "recall_meta")
    _group_views(conn)
    _grant_functions(conn)


def protect_table(conn: Connection, table: str) -> None:
    """Row-level security, enabled and forced, on one per-learner table: a learner's own rows,
    the owner's every row."""
    _owner_policy(conn, table)
    _sql(
        conn,
        f"CREATE POLICY {LEARNER_POLICY} ON {table} "
        f"USING (learner_id = {CURRENT_LEARNER}()) "
        f"WITH CHECK (learner_id = {CURRENT_LEARNER}())",
    )
    _force(conn, table)


#: A deck a learner sees: a shared one (built-in), or their own custom deck.
VISIBLE_DECK = f"owner_learner_id IS NULL OR owner_learner_id = {CURRENT_LEARNER}()"
#: A card a learner sees: one of a deck they see (the decks' policy applies in the subquery).
VISIBLE_CARD = "EXISTS (SELECT 1 FROM decks WHERE decks.id = cards.deck_id)"


#: The trigger function that keeps who a deck belongs to, and which deck a card is in, out of a
#: learner's reach (:func:`_protect_decks`).
KEEP_IDENTITY = "recall_keep_identity"
#: Per shared table: the columns a learner's login may never change (a sync never does).
IDENTITY_COLUMNS = {"decks": ("id", "slug", "owner_learner_id"), "cards": ("id", "deck_id", "key")}


def _protect_decks(conn: Connection) -> None:
    """Shared decks for everyone, a custom deck for its learner only (its name, path and
    cards' ids are theirs). At migration 0010 both were written by every learner's sync, so
    one policy let a learner add and update every row they see; 0011 keeps a learner's writes
    to their own custom decks (:func:`seal_shared_rows`).

    The policy alone would let a learner's login move a shared deck into their own hands
    (``SET owner_learner_id = current_learner()`` passes both USING and WITH CHECK), hiding it
    and its cards from every other learner, whose next sync would then add the built-in cards
    again under new ids, away from their history; or move cards between decks. A trigger
    refuses any change to a row's identity (:data:`IDENTITY_COLUMNS`) by a learner's login, and
    a shared deck's ``builtin`` flag; the owner, who is no learner, is not refused."""
    _sql(
        conn,
        f"""
        CREATE FUNCTION {KEEP_IDENTITY}() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            moved boolean;
        BEGIN
            IF {CURRENT_LEARNER}() IS NULL THEN
                RETURN NEW;
            END IF;
            IF TG_TABLE_NAME = 'decks' THEN
                moved := (NEW.id, NEW.slug, NEW.owner_learner_id)
                        IS DISTINCT FROM (OLD.id, OLD.slug, OLD.owner_learner_id)
                    OR (OLD.owner_learner_id IS NULL
                        AND NEW.builtin IS DISTINCT FROM OLD.builtin);
            ELSE
                moved := (NEW.id, NEW.deck_id, NEW.key)
                    IS DISTINCT FROM (OLD.id, OLD.deck_id, OLD.key);
            END IF;
            IF moved THEN
                RAISE EXCEPTION 'a learner may not change which deck or owner a row has'
                    USING ERRCODE = 'insufficient_privilege';
            END IF;
            RETURN NEW;
        END $$
        """,
    )
    _pin_search_path(conn, f"{KEEP_IDENTITY}()")
    for table, visible in (("decks", VISIBLE_DECK), ("cards", VISIBLE_CARD)):
        _owner_policy(conn, table)
        _sql(
            conn,
            f"CREATE POLICY {LEARNER_POLICY} ON {table} USING ({visible}) WITH CHECK ({visible})",
        )
        _force(conn, table)
        _sql(
            conn,
            f"CREATE TRIGGER {KEEP_IDENTITY} BEFORE UPDATE ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION {KEEP_IDENTITY}()",
        )


#: A deck a learner's login may write: their own custom deck. A shared (built-in) deck is
#: written by the owner alone (:func:`seal_shared_rows`).
OWN_DECK = f"owner_learner_id = {CURRENT_LEARNER}()"
#: A card a learner's login may write: one of their own custom deck's.
OWN_CARD = (
    "EXISTS (SELECT 1 FROM decks WHERE decks.id = cards.deck_id "
    f"AND decks.owner_learner_id = {CURRENT_LEARNER}())"
)
#: The policies :func:`seal_shared_rows` puts on ``decks`` and ``cards`` beside the read
#: policy (:data:`LEARNER_POLICY`, then ``FOR SELECT``).
ADD_POLICY = "recall_learner_add"
EDIT_POLICY = "recall_learner_edit"


def seal_shared_rows(conn: Connection) -> None:
    """Shared (built-in) decks and their cards are written by the owner only (migration 0011).

    Migration 0010's one policy on ``decks`` and ``cards`` let a learner's login write every
    row it sees, the shared ones included (each learner's sync wrote the built-in decks), so a
    learner with ``psql`` could change a shared card's content hash, position or sibling group,
    or add a card to a shared deck or a "built-in" deck of their own making, for every learner.
    Now a learner's login reads what it sees (the shared decks and its own custom ones) and
    inserts and updates its own custom decks and their cards only: an insert or update whose row
    is not theirs is an error (``WITH CHECK``), whatever the column. A learner's sync writes no
    shared row (:func:`recall.store.sync.sync_decks` reads them); the owner, whose policy lets
    it write every row, syncs the built-in decks (``recall decks sync``, ``recall learners
    add``). Deleting was never granted to a learner. The trigger of :func:`_protect_decks`
    stays: a learner may not move their own rows to another deck or owner either.

    Those syncs run as the database's learner 1, so the group's readiness counts the learners
    with a login only (:data:`WITH_A_LOGIN`)."""
    if not is_postgresql(conn):
        return
    _readiness(conn, "CREATE OR REPLACE", WITH_A_LOGIN)
    for table, visible, own in (
        ("decks", VISIBLE_DECK, OWN_DECK),
        ("cards", VISIBLE_CARD, OWN_CARD),
    ):
        _sql(conn, f"DROP POLICY {LEARNER_POLICY} ON {table}")
        _sql(conn, f"CREATE POLICY {LEARNER_POLICY} ON {table} FOR SELECT USING ({visible})")
        _sql(conn, f"CREATE POLICY {ADD_POLICY} ON {table} FOR INSERT WITH CHECK ({own})")
        _sql(
            conn,
            f"CREATE POLICY {EDIT_POLICY} ON {table} FOR UPDATE "
            f"USING ({visible}) WITH CHECK ({own})",
        )


def unseal_shared_rows(conn: Connection) -> None:
    """Undo :func:`seal_shared_rows` (migration 0011's downgrade): 0010's one policy again,
    and its readiness over every learner."""
    if not is_postgresql(conn):
        return
    _readiness(conn, "CREATE OR REPLACE", "")
    for table, visible in (("decks", VISIBLE_DECK), ("cards", VISIBLE_CARD)):
        for policy in (LEARNER_POLICY, ADD_POLICY, EDIT_POLICY):
            _sql(conn, f"DROP POLICY {policy} ON {table}")
        _sql(
            conn,
            f"CREATE POLICY {LEARNER_POLICY} ON {table} USING ({visible}) WITH CHECK ({visible})",
        )


def _force(conn: Connection, table: str) -> None:
    _sql(conn, f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
    _sql(conn, f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")


def _owner_policy(conn: Connection, table: str) -> None:
    """Every row, for the role running this (the owner); its name quoted by the server."""
    _sql(
        conn,
        f"""
        DO $$ BEGIN
            EXECUTE format('CREATE POLICY {OWNER_POLICY} ON {table} TO %I '
                           'USING (true) WITH CHECK (true)', current_user);
        END $$
        """,
    )


def _pin_search_path(conn: Connection, function: str) -> None:
    """A ``SECURITY DEFINER`` function resolves names in the schema it was created in only."""
    _sql(
        conn,
        f"""
        DO $$ BEGIN
            EXECUTE format('ALTER FUNCTION {function} SET search_path = %I, pg_temp',
                           current_schema());
        END $$
        """,
    )


def _group_views(conn: Connection) -> None:
    """Aggregates for whoever runs the group: per card across learners, and per learner
    counts without the learner (no id, no name, no answer, no single review)."""
    _sql(
        conn,
        f"""
        CREATE VIEW {GROUP_CARDS_VIEW} WITH (security_barrier = true) AS
        SELECT d.slug AS deck, c.key AS card, c.kind AS kind,
               coalesce(r.learners, 0) AS learners,
               coalesce(r.reviews, 0) AS reviews,
               coalesce(r.misses, 0) AS misses,
               coalesce(s.lapses, 0) AS lapses
        FROM cards c
        JOIN decks d ON d.id = c.deck_id
        LEFT JOIN (
            SELECT card_id, count(DISTINCT learner_id) AS learners, count(*) AS reviews,
                   count(*) FILTER (WHERE rating = 1) AS misses
            FROM review_log GROUP BY card_id
        ) r ON r.card_id = c.id
        LEFT JOIN (
            SELECT card_id, sum(lapses) AS lapses FROM card_state GROUP BY card_id
        ) s ON s.card_id = c.id
        WHERE c.retired_at IS NULL AND d.owner_learner_id IS NULL
        """,
    )
    _readiness(conn, "CREATE", "")
    _sql(conn, f"REVOKE ALL ON FUNCTION {GROUP_READINESS}(bigint) FROM PUBLIC")


#: The learners :data:`GROUP_READINESS` counts from migration 0011: those with a login. The
#: database's own learner 1 has none on a shared server; the owner's syncs of the shared decks
#: run as it and give it a state of every shared card, which made it one more learner "not on
#: track" in the group's figures.
WITH_A_LOGIN = "WHERE learner_id IN (SELECT id FROM learners WHERE role_name IS NOT NULL)"


def _readiness(conn: Connection, verb: str, which: str) -> None:
    """``verb`` (``CREATE`` or ``CREATE OR REPLACE``) the group's readiness function over the
    learners ``which`` selects (``""``: every one): one row per learner, unnamed: the active
    cards (neither suspended nor retired), those seen at least once, and those in review whose
    next due moment is at or after the exam (FSRS expects them still recalled then at the
    learner's desired retention)."""
    _sql(
        conn,
        f"""
        {verb} FUNCTION {GROUP_READINESS}(exam_at bigint)
        RETURNS TABLE (active integer, seen integer, ready integer)
        LANGUAGE sql STABLE SECURITY DEFINER
        AS $$
            SELECT count(*) FILTER (WHERE NOT suspended AND queue <> -2)::integer,
                   count(*) FILTER (WHERE NOT suspended AND queue <> -2 AND phase <> 0)::integer,
                   count(*) FILTER (
                       WHERE NOT suspended AND queue <> -2 AND phase = 2 AND due >= exam_at
                   )::integer
            FROM card_state {which} GROUP BY learner_id
        $$
        """,
    )
    # Replacing a function resets what its command does not say (its privileges stay): pinned
    # again, every time.
    _pin_search_path(conn, f"{GROUP_READINESS}(bigint)")


def _grant_functions(conn: Connection) -> None:
    """``recall_grant_learner(role)`` and ``recall_grant_group_reader(role)``: the privileges of
    a learner's role and of a group reader's, in the database (each migration keeps them
    whole). The role name is quoted by the server (``%I``); run by the owner."""
    _sql(
        conn,
        f"""
        CREATE FUNCTION {GRANT_LEARNER}(role_name text) RETURNS void
        LANGUAGE plpgsql AS $$
        DECLARE
            t text;
            s text;
        BEGIN
            EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I', current_database(), role_name);
            EXECUTE format('GRANT SELECT ON alembic_version, recall_meta, learners TO %I',
                           role_name);
            EXECUTE format('GRANT UPDATE (value) ON recall_meta TO %I', role_name);
            EXECUTE format('GRANT SELECT, INSERT, UPDATE ON decks, cards TO %I', role_name);
            FOR t IN
                SELECT c.relname FROM pg_class c
                JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'learner_id'
                WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
                  AND c.relforcerowsecurity
            LOOP
                EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO %I', t, role_name);
            END LOOP;
            FOR s IN
                SELECT pg_get_serial_sequence(format('%I', c.relname), 'id') FROM pg_class c
                JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'id'
                WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
                  AND c.relname <> 'learners'
            LOOP
                IF s IS NOT NULL THEN
                    EXECUTE format('GRANT USAGE ON SEQUENCE %s TO %I', s, role_name);
                END IF;
            END LOOP;
        END $$
        """,
    )
    _sql(
        conn,
        f"""
        CREATE FUNCTION {GRANT_READER}(role_name text) RETURNS void
        LANGUAGE plpgsql AS $$
        BEGIN
            EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I', current_database(), role_name);
            EXECUTE format('GRANT SELECT ON {GROUP_CARDS_VIEW} TO %I', role_name);
            EXECUTE format('GRANT EXECUTE ON FUNCTION {GROUP_READINESS}(bigint) TO %I',
                           role_name);
        END $$
        """,
    )
    for function in (GRANT_LEARNER, GRANT_READER):
        _sql(conn, f"REVOKE ALL ON FUNCTION {function}(text) FROM PUBLIC")
        # Run by the owner: names (format() among them) resolve in recall's schema and the
        # catalog only, never in one a learner could create objects in.
        _pin_search_path(conn, f"{function}(text)")


def regrant_learners(conn: Connection) -> None:
    """Give every learner role the privileges ``recall_grant_learner`` lists now (after a
    migration that added a table)."""
    if is_postgresql(conn):
        _sql(
            conn,
            f"SELECT {GRANT_LEARNER}(role_name) FROM learners WHERE role_name IS NOT NULL",
        )


def uninstall(conn: Connection, per_learner_tables: Sequence[str]) -> None:
    """Undo :func:`install` (migration 0010's downgrade)."""
    if not is_postgresql(conn):
        return
    for function in (f"{GRANT_LEARNER}(text)", f"{GRANT_READER}(text)"):
        _sql(conn, f"DROP FUNCTION {function}")
    _sql(conn, f"DROP FUNCTION {GROUP_READINESS}(bigint)")
    _sql(conn, f"DROP VIEW {GROUP_CARDS_VIEW}")
    protected = (*per_learner_tables, *SHARED_TABLES, "learners")
    for table in (*protected, "recall_meta"):
        _sql(conn, f"ALTER TABLE {table} NO FORCE ROW LEVEL SECURITY")
        _sql(conn, f"ALTER TABLE {table} DISABLE ROW LEVEL SECURITY")
    for table in protected:
        _sql(conn, f"DROP POLICY {LEARNER_POLICY} ON {table}")
    for table in (*protected, "recall_meta"):
        _sql(conn, f"DROP POLICY {OWNER_POLICY} ON {table}")
    _sql(conn, "DROP POLICY recall_read ON recall_meta")
    _sql(conn, "DROP POLICY recall_touch ON recall_meta")
    for table in SHARED_TABLES:
        _sql(conn, f"DROP TRIGGER {KEEP_IDENTITY} ON {table}")
    _sql(conn, f"DROP FUNCTION {KEEP_IDENTITY}()")
    _sql(conn, f"DROP FUNCTION {CURRENT_LEARNER}()")
