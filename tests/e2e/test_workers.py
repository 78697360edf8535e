"""`ledger serve --workers 2`: two processes share the port and the database."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from services.client import Connection, create, play_to_end

pytestmark = pytest.mark.e2e


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def own_database(server_url):  # type: ignore[no-untyped-def]
    """A database no other test's projector touches, so view progress is ours."""
    import secrets

    import psycopg

    from tests.support.database import _with_dbname

    name = f"ledger_workers_{secrets.token_hex(5)}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield _with_dbname(server_url, name)
    finally:
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _views_caught_up(database_url: str) -> bool:
    import psycopg

    with psycopg.connect(database_url) as conn:
        head = conn.execute("SELECT coalesce(max(notification_id), 0) FROM ledger_events").fetchone()[0]
        rows = conn.execute("SELECT position FROM projection_tracking").fetchall()
    return head > 0 and len(rows) >= 4 and all(position >= head for (position,) in rows)


def test_two_worker_processes_serve_complete_games_on_one_port(own_database, tmp_path):
    database_url = own_database
    port = _free_port()
    env = {**os.environ, "LEDGER_DATABASE_URL": database_url, "LEDGER_ADMIN_TOKEN": "workers-admin",
           "LEDGER_DATA_DIR": str(tmp_path), "XDG_RUNTIME_DIR": str(tmp_path)}
    server = subprocess.Popen(
        [sys.executable, "-m", "services.cli", "serve", "--listen", f"127.0.0.1:{port}", "--workers", "2"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                health = health_pb2_grpc.HealthStub(grpc.insecure_channel(f"127.0.0.1:{port}"))
                if health.Check(health_pb2.HealthCheckRequest(), timeout=2).status == health_pb2.HealthCheckResponse.SERVING:
                    break
            except grpc.RpcError:
                pass
            assert time.monotonic() < deadline and server.poll() is None, "workers did not start"
            time.sleep(0.5)
        for seed in range(4):  # fresh channels: connections spread over the workers
            conn = Connection.open(f"127.0.0.1:{port}")
            table = create(conn, "terralore", players=2)
            assert play_to_end(conn, table, seed=seed) > 2
            conn.channel.close()
        deadline = time.monotonic() + 30  # the supervisor process runs the views
        while not _views_caught_up(database_url):
            assert time.monotonic() < deadline, "projections did not catch up with --workers 2"
            time.sleep(0.3)
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=30)
    assert output.count("listening on port") == 2, output
    assert server.returncode is not None
