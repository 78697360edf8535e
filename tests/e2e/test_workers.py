"""`ledger serve --workers 2`: two processes share the port and the database."""

from __future__ import annotations

import psycopg
import pytest

from services.api.client import Connection, create, play_to_end
from tests.support.database import scalar, scratch_database
from tests.support.server import ledger_serve, wait_until

pytestmark = pytest.mark.e2e


def _views_caught_up(database_url: str) -> bool:
    with psycopg.connect(database_url) as conn:
        head = scalar(
            conn.execute("SELECT coalesce(max(notification_id), 0) FROM ledger_events")
        )
        rows = conn.execute("SELECT position FROM projection_tracking").fetchall()
    return head > 0 and len(rows) >= 4 and all(position >= head for (position,) in rows)


def test_two_worker_processes_serve_complete_games_on_one_port(server_url, tmp_path):
    # a database of its own: no other test's projector moves these views
    with scratch_database(server_url, "ledger_workers") as database_url:
        env = {
            "LEDGER_DATABASE_URL": database_url,
            "LEDGER_ADMIN_TOKEN": "workers-admin",
            "LEDGER_DATA_DIR": str(tmp_path),
            "XDG_RUNTIME_DIR": str(tmp_path),
        }
        with ledger_serve(env, "--workers", "2") as served:
            for seed in range(4):  # fresh channels: connections spread over the workers
                conn = Connection.open(served.target)
                table = create(conn, "terralore", players=2)
                assert play_to_end(conn, table, seed=seed) > 2
                conn.channel.close()
            wait_until(
                lambda: _views_caught_up(database_url),
                "projections did not catch up with --workers 2 (the supervisor runs them)",
            )
    assert served.output.count("listening on port") == 2, served.output
    assert served.proc.returncode is not None
