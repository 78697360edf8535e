"""A finished game whose ending was deleted never audits OK.

The rewrite: a DBA deletes the concluding decision of a finished game (its
events, its receipt and command rows) and sets the listing row back to a
running game at the version before, so the database is self-consistent
again.  The server still holds the game as ended in memory until it
restarts, so its export stays public: verified alone, that export is a
running game's ("0 decisions re-derived"), which proves nothing about an
ending.  The dashboard's badge, ``ledger audit`` and ``ledger verify`` must
all fail it, naming the version the signer signed.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from tests.e2e.client import create, play_one

pytestmark = pytest.mark.postgres


def delete_the_ending(superuser: Any, game_id: str, first: int) -> None:
    """Events ``first``.. gone with their side rows; the row set back to ``first - 1``."""
    (state,) = superuser.execute(
        "SELECT state FROM ledger_events WHERE originator_id = %s"
        " AND originator_version = %s",
        (game_id, first - 1),
    ).fetchone()
    with superuser.transaction():  # a DBA bypassing the append-only trigger
        superuser.execute("SET LOCAL session_replication_role = replica")
        for sql in (
            "DELETE FROM ledger_events WHERE originator_id = %s AND originator_version >= %s",
            "DELETE FROM ledger_snapshots WHERE originator_id = %s AND originator_version >= %s",
            "DELETE FROM ledger_receipts WHERE game_id = %s AND version >= %s",
            "DELETE FROM ledger_commands WHERE game_id = %s AND last_version >= %s",
        ):
            superuser.execute(sql, (game_id, first))
        superuser.execute(
            "UPDATE ledger_games SET status = 'active', version = %s, head_hash = %s,"
            " ended_at = NULL, winners = NULL WHERE game_id = %s",
            (first - 1, json.loads(bytes(state))["hash"], game_id),
        )


def test_a_finished_game_whose_ending_was_deleted_fails_the_badge_and_the_audit(
    grpc_server: Any,
    dashboard_url: str,
    superuser: Any,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import random

    from services.cli import app

    table = create(grpc_server, "terralore", players=2)
    rnd = random.Random(8)
    last = None
    while (answer := play_one(grpc_server, table, rnd)) is not None:
        last = answer
    assert last is not None
    audit = f"{dashboard_url}/games/{table.game_id}/audit"
    assert "Audit OK" in httpx.post(audit).text
    kept = httpx.get(f"{dashboard_url}/checkpoint.json").json()  # signed at the end
    assert kept["context"] == "ledger-checkpoint/v1" and kept["tree_size"] >= 1
    delete_the_ending(superuser, table.game_id, last.first_version)

    page = httpx.post(audit).text
    assert "Audit FAILED" in page, page
    assert "✘ signed head" in page and "✘ signed history" in page
    assert (
        f"event {last.first_version}: signer: the ledger signed version {last.last_version}"
        in page
    )
    assert f"event {last.last_version}: checkpoint: the checkpoint pins version" in page

    monkeypatch.setenv("LEDGER_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("LEDGER_DATA_DIR", str(settings.data_dir))
    audited = CliRunner().invoke(app, ["audit", table.game_id])
    assert audited.exit_code == 1, audited.output
    assert f"the ledger signed version {last.last_version}" in audited.output
