"""Three ``ledger serve`` processes, the timekeeper's holder killed with ``kill -9``
at the first deadline: every game still times out exactly once (those due
after the kill by a surviving server), and audits clean.

Real seconds here (the servers' own clocks): games with a three-second move
limit, the holder found by its advisory lock in ``pg_locks`` and killed once
the deadline has come; the waits are bounded polls, never timing asserts.
"""

from __future__ import annotations

import uuid
from typing import Any

import psycopg
import pytest

from domain.audit.game_audit import audit_records
from domain.games import find_game
from ledger.v1 import game_service_pb2 as pb
from services.api.client import Connection
from services.proto import convert
from services.storage.leader_lock import LOCK_CLASS
from tests.faults.harness import serve_env
from tests.support.database import scratch_database
from tests.support.server import ledger_serve, wait_until

pytestmark = [pytest.mark.faults, pytest.mark.e2e]
THALARA = find_game("thalara")
SETUP = {"players": 2, "mode": "standard", "characters": ["myrja", "canto"]}
GAMES = 12


def _holder(conn: psycopg.Connection[Any]) -> int | None:
    """The OS pid of the server holding the timekeeper's lock, if any."""
    row = conn.execute(
        "SELECT a.application_name FROM pg_locks l"
        " JOIN pg_stat_activity a ON a.pid = l.pid"
        " WHERE l.locktype = 'advisory' AND l.classid = %s AND l.granted"
        # advisory locks are per database: other tests' servers on the shared
        # cluster hold the same key in theirs
        " AND l.database = (SELECT oid FROM pg_database"
        "  WHERE datname = current_database())",
        (LOCK_CLASS,),
    ).fetchone()
    return int(row[0].rsplit("-", 1)[1]) if row else None


def _scalar(conn: psycopg.Connection[Any], sql: str) -> Any:
    row = conn.execute(sql).fetchone()
    assert row is not None
    return row[0]


def _rows(conn: psycopg.Connection[Any], game_id: str) -> list[tuple[int, str, bytes]]:
    return [
        (v, t, bytes(s))
        for v, t, s in conn.execute(
            "SELECT originator_version, topic, state FROM ledger_events"
            " WHERE originator_id = %s ORDER BY originator_version",
            (uuid.UUID(game_id),),
        ).fetchall()
    ]


def test_kill_9_of_the_timekeeper_at_the_deadline_times_out_each_game_once(
    server_url: str, tmp_path: Any
) -> None:
    with scratch_database(server_url, "ledger_timekeeper") as url:
        env = serve_env(
            url, tmp_path, LEDGER_TIMEKEEPER_INTERVAL="0.2", LEDGER_VIEWS="off"
        )
        with (
            ledger_serve(env) as first,
            ledger_serve(env) as second,
            ledger_serve(env) as third,
            psycopg.connect(url, autocommit=True) as conn,
        ):
            servers = {s.proc.pid: s for s in (first, second, third)}
            client = Connection.open(second.target)
            games = []
            for n in range(GAMES):
                # half the games run out at the kill, half only after it: those
                # can only be timed out by a surviving server
                request = pb.CreateGameRequest(
                    game_type="thalara",
                    setup=convert.model_to_any(THALARA, THALARA.setup_model(**SETUP)),
                    time_control=pb.TimeControl(
                        kind="per_move", per_move_seconds=3 if n % 2 else 10
                    ),
                )
                games.append(client.call("CreateGame", request).game.game_id)
            wait_until(lambda: _holder(conn) in servers, "no server took the lock")
            holder = _holder(conn)
            assert holder is not None
            wait_until(
                lambda: _scalar(
                    conn,
                    "SELECT bool_or(next_deadline <= now() OR status = 'ended')"
                    " FROM ledger_games",
                ),
                "the deadline did not come",
            )
            servers[holder].proc.kill()  # kill -9, at the deadline
            servers[holder].proc.wait()
            wait_until(
                lambda: (
                    _scalar(
                        conn, "SELECT count(*) FROM ledger_games WHERE status = 'ended'"
                    )
                    == GAMES
                ),
                "the surviving servers did not time the games out",
                60,
            )
            for game_id in games:
                rows = _rows(conn, game_id)
                assert [t for _, t, _ in rows].count("ledger.SeatTimedOut") == 1
                report = audit_records(game_id, rows)
                assert report.ok, report.failures
