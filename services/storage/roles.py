"""Two database roles: the owner runs the DDL, the service only reads and appends.

Why: the triggers on the events tables refuse ``UPDATE``, ``DELETE`` and
``TRUNCATE``, but a table's *owner* may ``ALTER TABLE ... DISABLE TRIGGER`` or
drop them, so a service that connects as the owner could still rewrite
history.  ``ledger db setup --service-role NAME``, run by the owner, creates
every table, trigger and function and grants ``NAME`` exactly what the code
uses (:data:`GRANTS`); the service then connects as ``NAME`` with
``LEDGER_CREATE_TABLES=false`` and runs no DDL.  Only a superuser or the owner
can then touch the triggers or set ``session_replication_role``.

The one privilege that table grants cannot give narrowly: eventsourcing takes
``LOCK TABLE <events> IN EXCLUSIVE MODE`` before every insert (so
notification ids commit in order), and PostgreSQL 15 allows that lock only to
a role with ``UPDATE``, ``DELETE`` or ``TRUNCATE`` on the table.  Rather than
grant one of those, the owner's ``SECURITY DEFINER`` function
``ledger_lock_events(table)`` takes the same lock on the two events tables
only, and :class:`ServiceRoleRecorder` calls it instead of ``LOCK TABLE``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, cast

import psycopg
from psycopg import sql

from projections.runner import SetupRequiredError
from services.storage import migrations
from services.storage.recorder import LedgerRecorder

log = logging.getLogger(__name__)

SERVICE_ROLE_RECORDER = "services.storage.roles:ServiceRoleRecorder"
"""Recorder topic used when ``LEDGER_CREATE_TABLES`` is false."""

EVENTS_TABLES = ("ledger_events", "tournaments_events")
"""eventsourcing's ``<application name>_events`` of ``GameLedger`` and ``TournamentDesk``."""

READ_APPEND = ("SELECT", "INSERT")
GRANTS: dict[str, tuple[str, ...]] = {
    # append-only: the code never updates or deletes these rows
    "ledger_events": READ_APPEND,
    "ledger_snapshots": READ_APPEND,
    "tournaments_events": READ_APPEND,
    "ledger_commands": READ_APPEND,
    "ledger_seat_tokens": READ_APPEND,
    "ledger_game_secrets": READ_APPEND,
    "ledger_receipts": READ_APPEND,
    "tournament_tokens": READ_APPEND,
    "organiser_tokens": READ_APPEND,
    "tournament_games": READ_APPEND,
    "tournament_seat_tokens": READ_APPEND,
    # mutable side tables
    "ledger_games": ("SELECT", "INSERT", "UPDATE"),  # version/status per move
    "tournament_round_intents": ("SELECT", "INSERT", "DELETE"),
    "tournament_pending_games": ("SELECT", "INSERT", "UPDATE", "DELETE"),
    "tournament_alarms": ("SELECT", "INSERT"),  # results a tournament refused
    "tournament_round_schedule": ("SELECT", "INSERT", "UPDATE", "DELETE"),
    # written by ``ledger db setup`` only; the service checks its version at start
    "ledger_schema_migrations": ("SELECT",),
    # setup inserts every view's row; ``ledger projections rebuild`` runs as the owner
    "projection_tracking": ("SELECT", "UPDATE"),
    # a view records each game it stops applying; a rebuild (owner) clears them
    "projection_game_stops": ("SELECT", "INSERT"),
}
"""Table privileges of the service role, besides each view's own tables (:func:`service_grants`)."""
VIEW_TABLE = ("SELECT", "INSERT", "UPDATE")
"""A view's tables: upserts; a rebuild (``TRUNCATE``) runs as the owner."""

LOCK_FUNCTION = "ledger_lock_events"
LOCK_FUNCTION_DDL = """
CREATE OR REPLACE FUNCTION {schema}.ledger_lock_events(events_table text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF events_table NOT IN ('ledger_events', 'tournaments_events') THEN
        RAISE EXCEPTION 'ledger_lock_events: % is not an events table', events_table
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    EXECUTE format('LOCK TABLE %I.%I IN EXCLUSIVE MODE', {schema_name}, events_table);
END
$$;
REVOKE ALL ON FUNCTION {schema}.ledger_lock_events(text) FROM PUBLIC;
"""


def service_grants() -> dict[str, tuple[str, ...]]:
    """Every table the service uses, with the privileges it needs."""
    from projections import registry

    grants = dict(GRANTS)
    for name in registry.VIEWS:
        grants.update(dict.fromkeys(registry.view(name).tables, VIEW_TABLE))
    return grants


class ServiceRoleRecorder(LedgerRecorder):
    """The ledger's recorder for a role that owns nothing: locks through the owner's function."""

    def __init__(
        self, datastore: Any, *, events_table_name: str = "stored_events"
    ) -> None:
        super().__init__(datastore, events_table_name=events_table_name)
        kept = [
            s
            for s in self.lock_table_statements
            # eventsourcing builds these with psycopg.sql, so each is a Composable
            if "LOCK TABLE" not in cast(sql.Composable, s).as_string()
        ]
        if len(kept) != len(self.lock_table_statements) - 1:
            raise RuntimeError(
                "eventsourcing's lock statements changed; update ServiceRoleRecorder"
            )
        self.lock_table_statements = [
            *kept,
            sql.SQL("SELECT {}.{}({})").format(
                sql.Identifier(datastore.schema),
                sql.Identifier(LOCK_FUNCTION),
                sql.Literal(events_table_name),
            ),
        ]


class ServiceRoleError(ValueError):
    """Raised when the role named for the service could undo the append-only triggers."""


@dataclass
class SetupReport:
    role: str | None
    tables: dict[str, tuple[str, ...]] = field(default_factory=dict)
    sequences: list[str] = field(default_factory=list)
    not_granted: list[str] = field(default_factory=list)
    """Tables in the schema that :data:`GRANTS` does not know (should be empty)."""
    schema_version: int = 0
    migrated: list[str] = field(default_factory=list)
    """The migrations this setup applied (version and name)."""


def finish_setup(curs: Any, schema: str, service_role: str | None) -> SetupReport:
    """Create the lock function and, with ``service_role``, grant it what the service needs.

    Runs after the normal table creation, in one transaction, as the owner
    (or a superuser).  Earlier grants to the role on this schema are revoked
    first, so a re-run leaves exactly :func:`service_grants`.

    :raises SetupRequiredError: when a table is missing after setup.
    :raises ServiceRoleError: when the role does not exist, is a superuser,
        may create roles, owns ledger objects, or is a member of the events
        tables' owner (each would let it undo the triggers).
    """
    ident = sql.Identifier(schema)
    curs.execute("SELECT pg_advisory_xact_lock(7301)")  # the DDL lock of LedgerRecorder
    curs.execute(
        sql.SQL(LOCK_FUNCTION_DDL).format(schema=ident, schema_name=sql.Literal(schema))
    )
    report = SetupReport(service_role)
    if service_role is None:
        return report
    grants = service_grants()
    curs.execute(
        "SELECT relname FROM pg_class WHERE relnamespace = %s::regnamespace AND relkind IN ('r', 'p')",
        (schema,),
    )
    present = {row["relname"] for row in curs.fetchall()}
    if missing := sorted(set(grants) - present):
        raise SetupRequiredError(f"tables missing after setup: {', '.join(missing)}")
    _check_role(curs, schema, service_role)
    role = sql.Identifier(service_role)
    for kind in ("TABLES", "SEQUENCES", "FUNCTIONS"):
        curs.execute(
            sql.SQL(f"REVOKE ALL ON ALL {kind} IN SCHEMA {{}} FROM {{}}").format(
                ident, role
            )
        )
    curs.execute(sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(ident, role))
    for table, privileges in sorted(grants.items()):
        curs.execute(
            sql.SQL("GRANT {} ON {}.{} TO {}").format(
                sql.SQL(", ").join(map(sql.SQL, privileges)),
                ident,
                sql.Identifier(table),
                role,
            )
        )
        report.tables[table] = privileges
    for table in EVENTS_TABLES:
        curs.execute(
            "SELECT pg_get_serial_sequence(%s, 'notification_id') AS seq",
            (f"{schema}.{table}",),
        )
        sequence = curs.fetchone()["seq"]
        curs.execute(
            sql.SQL("GRANT USAGE, SELECT ON SEQUENCE {} TO {}").format(
                sql.SQL(sequence), role
            )
        )
        report.sequences.append(sequence)
    curs.execute(
        sql.SQL("GRANT EXECUTE ON FUNCTION {}.{}(text) TO {}").format(
            ident,
            sql.Identifier(LOCK_FUNCTION),
            role,
        )
    )
    report.not_granted = sorted(present - set(grants))
    return report


def _check_role(curs: Any, schema: str, role: str) -> None:
    curs.execute(
        "SELECT oid, rolsuper, rolcreaterole FROM pg_roles WHERE rolname = %s", (role,)
    )
    row = curs.fetchone()
    if row is None:
        raise ServiceRoleError(
            f"role {role!r} does not exist; CREATE ROLE {role} LOGIN PASSWORD '...' first"
        )
    if row["rolsuper"] or row["rolcreaterole"]:
        raise ServiceRoleError(
            f"role {role!r} is a superuser or may create roles; use a plain LOGIN role"
        )
    curs.execute(
        "SELECT c.relname, pg_get_userbyid(c.relowner) AS owner FROM pg_class c"
        " WHERE c.oid = ANY(ARRAY[%s::regclass, %s::regclass]) AND pg_has_role(%s, c.relowner, 'MEMBER')",
        (*(f"{schema}.{t}" for t in EVENTS_TABLES), role),
    )
    if owned := curs.fetchall():
        raise ServiceRoleError(
            f"role {role!r} is (a member of) {owned[0]['owner']}, the owner of {owned[0]['relname']}; "
            "the service role must own nothing (REASSIGN OWNED BY it TO the owner first)"
        )
    curs.execute(
        "SELECT relname AS name FROM pg_class WHERE relnamespace = %s::regnamespace AND relowner = %s"
        " UNION ALL SELECT proname FROM pg_proc WHERE pronamespace = %s::regnamespace AND proowner = %s",
        (schema, row["oid"], schema, row["oid"]),
    )
    if owned := [r["name"] for r in curs.fetchall()]:
        raise ServiceRoleError(
            f"role {role!r} owns {', '.join(sorted(owned))}; REASSIGN OWNED BY it TO the owner first"
        )


# The service's side: what it checks at every start with LEDGER_CREATE_TABLES=false,
# reading only the catalogue, so a missing table, grant or view is one clear error
# naming ``ledger db setup`` instead of a permission error on the first request.
def check_ready(url: str, schema: str = "public") -> None:
    """Fail fast when a service that may not create tables finds the database unprepared.

    Checks every table of :func:`service_grants` and its privileges, the
    sequences, the lock function and each view's tracking row.

    :raises SetupRequiredError: naming what is missing and ``ledger db setup``.
    """
    from projections import registry

    grants = service_grants()
    pairs = [
        (table, privilege)
        for table, privileges in grants.items()
        for privilege in privileges
    ]
    with psycopg.connect(url, connect_timeout=10, autocommit=True) as conn:
        user = conn.execute("SELECT current_user").fetchone()[0]  # type: ignore[index]
        rows = conn.execute(
            "SELECT x.t, x.p, c.oid IS NOT NULL AS present,"
            " c.oid IS NOT NULL AND has_table_privilege(c.oid, x.p) AS granted,"
            " c.oid IS NOT NULL AND pg_get_userbyid(c.relowner) = current_user AS owned"
            " FROM unnest(%s::text[], %s::text[]) AS x(t, p)"
            " LEFT JOIN pg_class c ON c.relname = x.t AND c.relnamespace = %s::regnamespace",
            ([t for t, _ in pairs], [p for _, p in pairs], schema),
        ).fetchall()
        absent = sorted({t for t, _, present, _, _ in rows if not present})
        problems = [f"missing tables: {', '.join(absent)}"] if absent else []
        denied = [
            f"{p} on {t}"
            for t, p, present, granted, _ in rows
            if present and not granted
        ]
        if denied:
            problems.append(f"missing grants: {', '.join(denied)}")
        if not absent:
            function = f"{schema}.{LOCK_FUNCTION}(text)"
            ok = conn.execute(  # strict functions: a missing function gives NULL, not an error
                "SELECT coalesce(has_function_privilege(to_regprocedure(%s), 'EXECUTE'), false)"
                " AND bool_and(has_sequence_privilege(pg_get_serial_sequence(t, 'notification_id'), 'USAGE'))"
                " FROM unnest(%s::text[]) AS t",
                (function, [f"{schema}.{t}" for t in EVENTS_TABLES]),
            ).fetchone()
            if not (ok and ok[0]):
                problems.append(
                    f"no EXECUTE on {function} or no USAGE on the events sequences"
                )
            if not denied:
                if (
                    found := migrations.schema_version(conn)
                ) < migrations.SCHEMA_VERSION:
                    problems.append(
                        f"schema at version {found}, this release needs {migrations.SCHEMA_VERSION}"
                    )
                tracked: dict[str, int] = dict(
                    conn.execute(
                        "SELECT view, schema_version FROM projection_tracking"
                    ).fetchall()
                )
                stale = [
                    n
                    for n in registry.VIEWS
                    if tracked.get(n) != registry.view(n).schema_version
                ]
                if stale:
                    problems.append(
                        f"views not set up at their schema version: {', '.join(stale)}"
                    )
        if any(owned for *_, owned in rows):
            log.warning(
                "LEDGER_CREATE_TABLES is false but %s owns the ledger's tables: "
                "it could still disable the append-only triggers",
                user,
            )
    if problems:
        raise SetupRequiredError(
            f"LEDGER_CREATE_TABLES is false and the database is not ready for role {user}: "
            f"{'; '.join(problems)}. As the owner, run `ledger db setup --service-role {user}` "
            "(LEDGER_DATABASE_URL of the owner)."
        )
