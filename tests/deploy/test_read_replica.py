"""Rating, stats and dashboard reads served from a streaming replica (``LEDGER_READ_DATABASE_URL``).

A primary and a hot standby of their own (initdb + ``pg_basebackup``, free
ports; the shared PostgreSQL is left alone).  With the replica's replay
paused, a read that must see a just-written move (``min_log_position``) waits
and answers DEADLINE_EXCEEDED even though the primary's views have the move:
so reads do go to the replica, and do wait for it.  Resumed, the same read
answers with the move's effect.  The dashboard's home page, served with the
same setting, shows the replica's views: without the new game while replay
is paused, 504 when asked for the move's position, the game once resumed.
"""

from __future__ import annotations

import random
import socket

import grpc
import httpx
import psycopg
import pytest
from pydantic import SecretStr

from ledger.v1 import read_service_pb2 as rpb
from ledger.v1 import read_service_pb2_grpc as rpb_grpc
from services.api.client import Connection, create, play_one
from services.dashboard.reader import Reader
from tests.support.scratch_postgres import scratch_primary_and_replica
from tests.support.server import server_in_thread, wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]


def _position(url: str) -> int:
    with psycopg.connect(url) as db:
        row = db.execute(
            "SELECT min(position) FROM projection_tracking WHERE view = 'stats'"
        ).fetchone()
    return int(row[0] or 0) if row else 0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_reads_wait_for_the_replica_to_pass_the_move(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from services.dashboard.serve import start_in_thread
    from services.runtime.bootstrap import Wiring, build_ledger
    from services.runtime.settings import Settings

    monkeypatch.setattr(Reader, "wait_s", 1.5)

    with scratch_primary_and_replica() as (primary, replica):
        settings = Settings(
            database_url=primary.url,
            read_database_url=replica.url,
            admin_token=SecretStr("replica-admin"),
            data_dir=tmp_path,
            pool_size=2,
        )
        ledger = build_ledger(settings, primary.url)
        wiring = Wiring(settings, primary.url, ledger, "replica-admin")
        try:
            with server_in_thread(wiring) as running:
                conn = Connection.open(f"127.0.0.1:{running.port}")
                stats = rpb_grpc.StatsServiceStub(conn.channel)
                wait_until(
                    lambda: _table_on(replica.url), "the replica has no views", 30
                )
                port = _free_port()
                stop_dashboard = start_in_thread(
                    ledger, f"127.0.0.1:{port}", settings.read_database_url
                )
                assert stop_dashboard is not None
                web = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
                with psycopg.connect(replica.url, autocommit=True) as standby:
                    standby.execute("SELECT pg_wal_replay_pause()")
                    table = create(
                        conn, "thalara", players=2, characters=["myrja", "canto"]
                    )
                    moved = play_one(conn, table, random.Random(3))
                    assert moved is not None and moved.read_token
                    # the admin's position: a player's answer no longer has it
                    with psycopg.connect(primary.url) as head:
                        found = head.execute(
                            "SELECT max(notification_id) FROM ledger_events"
                        ).fetchone()
                    assert found is not None
                    position = found[0]
                    wait_until(
                        lambda: _position(primary.url) >= position,
                        "the primary's stats view did not apply the move",
                    )
                    request = rpb.GetGameTypeStatsRequest(
                        game_type="thalara", min_log_position=position
                    )
                    with pytest.raises(grpc.RpcError) as waited:
                        stats.GetGameTypeStats(request, timeout=1.5)
                    assert waited.value.code() is grpc.StatusCode.DEADLINE_EXCEEDED
                    assert _position(replica.url) < position
                    stale = web.get("/")
                    assert stale.status_code == 200
                    assert f"/games/{table.game_id}" not in stale.text
                    behind = web.get("/", params={"min_log_position": position})
                    assert behind.status_code == 504
                    assert f"log position {position}" in behind.text
                    standby.execute("SELECT pg_wal_replay_resume()")
                    answer = stats.GetGameTypeStats(request, timeout=30)
                    page = web.get("/", params={"min_log_position": position})
                assert answer.started == 1
                assert _position(replica.url) >= position
                assert page.status_code == 200
                assert f"/games/{table.game_id}" in page.text
                web.close()
                stop_dashboard()
                conn.channel.close()
        finally:
            ledger.close()


def _table_on(url: str) -> bool:
    with psycopg.connect(url) as db:
        row = db.execute("SELECT to_regclass('projection_tracking')").fetchone()
        assert row is not None
        return row[0] is not None
