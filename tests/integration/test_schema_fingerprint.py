"""A start on a database that already has this version's schema runs no DDL.

Servers restarted beside live ones (a rolling restart, a key rotation) used
to run every ``CREATE ... IF NOT EXISTS`` again: the DDL took table locks in
its order while writers took them in theirs, and PostgreSQL failed the start
with "deadlock detected".  The recorder now leaves a fingerprint of its DDL
as the events table's comment and skips the DDL when it finds it.
"""

from __future__ import annotations

import threading

import psycopg
import pytest

from services.runtime.bootstrap import build_ledger
from services.tournaments.desk import TournamentDesk
from tests.support.database import scratch_database

pytestmark = pytest.mark.postgres


@pytest.fixture
def scratch_url(server_url):
    with scratch_database(server_url, "ledger_ddl") as url:
        yield url


def _start(settings, url: str):
    """What a server's start builds on the database: the ledger and the desk."""
    ledger = build_ledger(settings, url)
    desk = TournamentDesk(ledger.env_for_peers, ledger)
    return ledger, desk


def _close(started) -> None:
    ledger, desk = started
    desk.close()
    ledger.close()


def _comment(url: str, table: str) -> str | None:
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT obj_description(to_regclass(%s), 'pg_class')", (table,)
        ).fetchone()
    return row[0] if row else None


def test_a_start_beside_a_writer_holding_the_tables_does_not_wait(
    scratch_url, settings
) -> None:
    _close(_start(settings, scratch_url))  # sets the schema up
    assert (_comment(scratch_url, "ledger_events") or "").startswith("ledger schema ")
    assert (_comment(scratch_url, "tournament_tokens") or "").startswith(
        "ledger schema "
    )

    # a writer mid-transaction on every table a start's DDL would lock
    holder = psycopg.connect(scratch_url)
    holder.execute(
        "LOCK TABLE ledger_events, ledger_games, tournaments_events,"
        " tournament_tokens, tournament_seat_tokens IN ACCESS EXCLUSIVE MODE"
    )
    started: list[tuple[object, object]] = []
    thread = threading.Thread(
        target=lambda: started.append(_start(settings, scratch_url)),
        daemon=True,
    )
    thread.start()
    thread.join(20)
    blocked = thread.is_alive()
    holder.rollback()  # lets a blocked start finish, so nothing leaks
    holder.close()
    thread.join(60)
    for pair in started:
        _close(pair)
    assert not blocked, "the second start waited on the tables: it ran DDL"


def test_a_schema_without_this_versions_fingerprint_gets_the_ddl(
    scratch_url, settings
) -> None:
    _close(_start(settings, scratch_url))
    with psycopg.connect(scratch_url, autocommit=True) as conn:
        # an older version's schema: its trigger missing, no fingerprint
        conn.execute("DROP TRIGGER ledger_events_append_only ON ledger_events")
        conn.execute("COMMENT ON TABLE ledger_events IS 'ledger schema older'")
    _close(_start(settings, scratch_url))
    with psycopg.connect(scratch_url) as conn:
        triggers = conn.execute(
            "SELECT count(*) FROM pg_trigger WHERE tgname = 'ledger_events_append_only'"
        ).fetchone()
    assert triggers == (1,)
    assert _comment(scratch_url, "ledger_events") != "ledger schema older"


@pytest.mark.parametrize(
    "tampering",
    [
        "DROP TRIGGER ledger_events_append_only ON ledger_events",
        "ALTER TABLE ledger_receipts DISABLE TRIGGER ledger_receipts_no_truncate",
    ],
)
def test_a_start_puts_back_an_append_only_trigger_a_dba_removed(
    scratch_url, settings, tampering
) -> None:
    _close(_start(settings, scratch_url))
    with psycopg.connect(scratch_url, autocommit=True) as conn:
        conn.execute(tampering)  # the fingerprint stays: the schema looks current
    _close(_start(settings, scratch_url))
    with psycopg.connect(scratch_url) as conn:
        enabled = conn.execute(
            "SELECT count(*) FROM pg_trigger WHERE tgenabled <> 'D' AND tgname IN"
            " ('ledger_events_append_only', 'ledger_receipts_no_truncate')"
        ).fetchone()
    assert enabled == (2,)
