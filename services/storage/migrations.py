"""Versioned schema migrations: an ordered list, and a table of the ones a database has.

Why: ``ledger db setup`` used to run every ``CREATE ... IF NOT EXISTS`` it
knew, so a database carried no record of what it was built by, and an
upgrade was "run the new code's DDL and hope".  Now each schema change is one
numbered :class:`Migration`; :func:`apply` runs, in order and each in its own
transaction, the ones ``ledger_schema_migrations`` does not list, and a
service that may not run DDL refuses to start on a database older than
:data:`SCHEMA_VERSION` (:func:`services.storage.roles.check_ready`).

Rolling upgrades share one database between the old release and the new,
so migrations are *expand* or *contract* (docs/decisions.md, "Schema
migrations and rolling upgrades"): an expand migration only adds (a table, a
nullable column or one with a default, an index, a function, a grant), so
the old code, which never names what was added, keeps working beside the
new; a contract migration (drop, rename, ``NOT NULL``, a type change) ships
one release after the code stopped using what it removes, when no server of
the release before is left.  :func:`check_expand_only` enforces the rule's
mechanical part.

Version 1 is the baseline: the tables, triggers and functions the code's
create paths make (eventsourcing builds the events tables' DDL itself, so the
baseline is code, passed in by the composition root, not SQL); every
``CREATE`` in it is ``IF NOT EXISTS``, so it also adopts a database built
before versions existed.  Every later change is SQL here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import psycopg

VERSION_TABLE = "ledger_schema_migrations"
VERSION_TABLE_DDL = f"""
CREATE TABLE IF NOT EXISTS {VERSION_TABLE} (
    version int PRIMARY KEY,
    name text NOT NULL,
    phase text NOT NULL CHECK (phase IN ('expand', 'contract')),
    applied_at timestamptz NOT NULL DEFAULT now()
);
"""
MIGRATION_LOCK = 7309
"""Session advisory lock held for a whole :func:`apply`: two setups never interleave
(7301 is the recorder's DDL lock, 7302 the views', 7303 the projector's)."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str = ""
    """Empty for the baseline, whose DDL is the code's create paths."""
    phase: Literal["expand", "contract"] = "expand"


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "baseline: events, snapshots, side tables, tournaments and views",
    ),
    Migration(
        2,
        "referee deadlines and stopped views",
        """
        ALTER TABLE ledger_games ADD COLUMN IF NOT EXISTS next_deadline timestamptz;
        CREATE INDEX IF NOT EXISTS ledger_games_next_deadline ON ledger_games (next_deadline)
            WHERE status = 'active' AND next_deadline IS NOT NULL;
        ALTER TABLE projection_tracking ADD COLUMN IF NOT EXISTS stalled_at bigint;
        ALTER TABLE projection_tracking ADD COLUMN IF NOT EXISTS stalled_reason text;
        """,
    ),
    Migration(
        3,
        "games a view stopped applying (an event after the game's conclusion)",
        """
        CREATE TABLE IF NOT EXISTS projection_game_stops (
            view text NOT NULL,
            game_id uuid NOT NULL,
            position bigint NOT NULL,
            reason text NOT NULL,
            stopped_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (view, game_id)
        );
        """,
    ),
)
SCHEMA_VERSION = MIGRATIONS[-1].version
"""The version this code needs: the last migration's."""

CONTRACTING = re.compile(
    r"\b(DROP|RENAME|TRUNCATE|SET\s+NOT\s+NULL|ALTER\s+COLUMN\s+\S+\s+(SET\s+DATA\s+)?TYPE)\b",
    re.IGNORECASE,
)
"""Statements an old server beside the new one could break on."""


def check_expand_only(migrations: tuple[Migration, ...] = MIGRATIONS) -> list[str]:
    """The expand migrations that contract (should be none), and out-of-order versions."""
    problems = [
        f"{m.version} {m.name}: {match.group(0)} in an expand migration"
        for m in migrations
        if m.phase == "expand" and (match := CONTRACTING.search(m.sql))
    ]
    versions = [m.version for m in migrations]
    if versions != list(range(1, len(versions) + 1)):
        problems.append(f"versions must be 1..n in order, not {versions}")
    return problems


@dataclass
class MigrationReport:
    version: int = 0
    applied: list[Migration] = field(default_factory=list)


def schema_version(conn: psycopg.Connection) -> int:
    """The highest migration applied to the database (0 before versions existed)."""
    row = conn.execute(
        "SELECT to_regclass(%s) IS NOT NULL", (VERSION_TABLE,)
    ).fetchone()
    if row is None or not row[0]:
        return 0
    row = conn.execute(
        f"SELECT coalesce(max(version), 0) FROM {VERSION_TABLE}"
    ).fetchone()
    return int(row[0]) if row else 0


def apply(
    url: str,
    baseline: Callable[[], None],
    migrations: tuple[Migration, ...] = MIGRATIONS,
) -> MigrationReport:
    """Run the migrations the database lacks, in order; ``baseline`` is version 1's DDL.

    :raises RuntimeError: when the database is newer than this code (a
        migration it does not know is recorded): an old release's setup must
        not run against a newer schema.
    """
    report = MigrationReport()
    with psycopg.connect(url, autocommit=True) as lock:
        lock.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
        lock.execute(VERSION_TABLE_DDL)
        done = {v for (v,) in lock.execute(f"SELECT version FROM {VERSION_TABLE}")}
        if unknown := sorted(done - {m.version for m in migrations}):
            raise RuntimeError(
                f"the database has schema migrations {unknown} this release does not know: "
                "run `ledger db setup` of the newer release"
            )
        for migration in migrations:
            if migration.version in done:
                continue
            if migration.sql:
                with psycopg.connect(url) as conn, conn.transaction():
                    conn.execute(migration.sql.encode())
                    _record(conn, migration)
            else:
                baseline()
                _record(lock, migration)
            report.applied.append(migration)
        report.version = schema_version(lock)
    return report


def _record(conn: psycopg.Connection, migration: Migration) -> None:
    conn.execute(
        f"INSERT INTO {VERSION_TABLE} (version, name, phase) VALUES (%s, %s, %s)",
        (migration.version, migration.name, migration.phase),
    )
