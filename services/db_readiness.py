"""Startup check of a service that may not create tables: is the database set up?

Why apart from :mod:`services.db_roles`: that module is what the *owner* runs
once (``ledger db setup``: DDL and grants); this is what the *service* runs at
every start with ``LEDGER_CREATE_TABLES=false``, reading only the catalogue,
so a missing table, grant or view is one clear error naming ``ledger db
setup`` instead of a permission error on the first request.
"""

from __future__ import annotations

import logging

import psycopg

from projections.runner import SetupRequiredError
from services.db_roles import EVENTS_TABLES, LOCK_FUNCTION, service_grants

log = logging.getLogger(__name__)


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
