"""The sharded schema of docs/scale-out.md is valid, meets Citus's rules, and
is today's schema with new keys.

Why stand-ins: Citus is in neither Debian's archive nor PyPI here, so the
DDL runs on plain PostgreSQL with ``create_distributed_table`` and
``create_reference_table`` defined to enforce what Citus checks when a
table is distributed: the distribution column exists, every unique index
and primary key includes it, and co-located tables are distributed by
columns of one type.  The same stand-ins refuse today's schema where Citus
would, so they are shown to bite.  Routing, two-phase commit and CDC are not
tested here (the doc says so).
"""

from __future__ import annotations

import re
from pathlib import Path

import psycopg
import pytest
from pydantic import SecretStr

from services.runtime.bootstrap import build_ledger
from services.runtime.settings import Settings
from tests.support.database import scratch_database

DOC = Path(__file__).parents[2] / "docs" / "scale-out.md"
MARKER = "<!-- citus-ready DDL"

DROPPED = {("ledger_events", "notification_id")}
"""Columns of today's schema the sharded one drops on purpose (the doc says why)."""

STAND_INS = """
CREATE TABLE citus_stand_in (
    relation regclass PRIMARY KEY, kind text NOT NULL, column_name text
);
CREATE FUNCTION create_distributed_table(
    table_name regclass, distribution_column text, colocate_with text DEFAULT 'default'
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    col int2;
    col_type oid;
    bad text;
BEGIN
    SELECT attnum, atttypid INTO col, col_type FROM pg_attribute
        WHERE attrelid = table_name AND attname = distribution_column AND NOT attisdropped;
    IF col IS NULL THEN
        RAISE EXCEPTION 'column "%" of relation "%" does not exist',
            distribution_column, table_name;
    END IF;
    SELECT string_agg(indexrelid::regclass::text, ', ') INTO bad FROM pg_index
        WHERE indrelid = table_name AND (indisunique OR indisexclusion)
          AND NOT col = ANY (indkey);
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION 'cannot distribute "%": unique index % does not include the '
            'distribution column "%"', table_name, bad, distribution_column;
    END IF;
    IF colocate_with <> 'default' AND NOT EXISTS (
        SELECT 1 FROM citus_stand_in s JOIN pg_attribute a
            ON a.attrelid = s.relation AND a.attname = s.column_name
        WHERE s.relation = colocate_with::regclass AND s.kind = 'distributed'
          AND a.atttypid = col_type
    ) THEN
        RAISE EXCEPTION 'cannot colocate "%" with "%"', table_name, colocate_with;
    END IF;
    INSERT INTO citus_stand_in VALUES (table_name, 'distributed', distribution_column);
END $$;
CREATE FUNCTION create_reference_table(table_name regclass) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO citus_stand_in VALUES (table_name, 'reference', NULL);
$$;
"""


def proposed_ddl() -> str:
    """The DDL block that follows the marker in docs/scale-out.md."""
    text = DOC.read_text()
    found = re.search(
        re.escape(MARKER) + r"[^\n]*\n```text\n(.*?)\n```", text, re.DOTALL
    )
    assert found, f"{DOC.name}: no ```text block after {MARKER!r}"
    return found.group(1)


def columns(conn: psycopg.Connection, tables: list[str]) -> set[tuple[str, str, str]]:
    rows = conn.execute(
        "SELECT table_name, column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = 'public' AND table_name = ANY(%s)",
        (tables,),
    ).fetchall()
    return {(t, c, d) for t, c, d in rows}


@pytest.fixture(scope="module")
def sharded(server_url: str):
    """A database holding the doc's DDL, run through the stand-ins."""
    with (
        scratch_database(server_url, "ledger_citus") as url,
        psycopg.connect(url, autocommit=True) as conn,
    ):
        conn.execute(STAND_INS)
        conn.execute(proposed_ddl())
        yield conn


def test_every_table_of_the_design_is_distributed_or_a_reference_table(
    sharded: psycopg.Connection,
) -> None:
    placed: dict[str, str] = dict(
        sharded.execute(
            "SELECT relation::text, coalesce(column_name, kind) FROM citus_stand_in"
        ).fetchall()
    )
    tables = {
        r[0]
        for r in sharded.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            " AND tablename <> 'citus_stand_in'"
        )
    }
    assert set(placed) == tables
    assert placed["ledger_events"] == "originator_id"
    assert placed["ledger_seat_tokens"] == "game_id"
    assert placed["organiser_tokens"] == "reference"


def test_the_designs_columns_are_todays_but_the_dropped_ones(
    sharded: psycopg.Connection, ledger, database_url: str
) -> None:
    tables = [
        r[0]
        for r in sharded.execute(
            "SELECT relation::text FROM citus_stand_in WHERE relation::text LIKE 'ledger%'"
        )
    ]
    with psycopg.connect(database_url) as today:
        now = columns(today, tables)
    design = columns(sharded, tables)
    assert {(t, c) for t, c, _ in now - design} == DROPPED
    assert design - now == set()


def test_the_stand_ins_refuse_todays_log_and_token_tables(
    server_url: str, tmp_path: Path
) -> None:
    """Today's unique indexes are what Citus rejects, and the stand-ins say so."""
    with scratch_database(server_url, "ledger_today") as url:
        app = build_ledger(
            Settings(
                database_url=url,
                data_dir=tmp_path,
                admin_token=SecretStr("test-admin-token"),
            )
        )
        app.close()
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(STAND_INS)
            with pytest.raises(psycopg.errors.RaiseException, match="notification_id"):
                conn.execute(
                    "SELECT create_distributed_table('ledger_events', 'originator_id')"
                )
            with pytest.raises(psycopg.errors.RaiseException, match="seat_tokens_pkey"):
                conn.execute(
                    "SELECT create_distributed_table('ledger_seat_tokens', 'game_id')"
                )
            conn.execute(
                "SELECT create_distributed_table('ledger_commands', 'game_id')"
            )
