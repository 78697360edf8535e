"""Automatic rounds across ``ledger serve`` processes, with ``kill -9``.

Two servers run a Swiss tournament with automatic rounds.  During the wait
for round 2, the server holding the round scheduler's lock is killed with
``kill -9``; the other starts the round, once, on time.  During the wait for
round 3 the last server is killed too and a new one is started: it starts
round 3, once, on time, from what the database holds (nothing about the
wait lived in the killed process).  "On time": the round's start is recorded
at least the gap after the result that completed the round before, and
within a few scheduler intervals of it.
"""

from __future__ import annotations

import json
import uuid
import zlib
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest

from ledger.v1 import game_service_pb2 as gpb
from ledger.v1 import tournament_service_pb2 as pb
from ledger.v1 import tournament_service_pb2_grpc as rpc
from services.api.client import Connection
from services.storage.leader_lock import LOCK_CLASS
from services.tournaments.round_scheduler import RoundScheduler
from tests.deploy.shipped import free_ports
from tests.faults.harness import serve_env
from tests.support.database import scratch_database
from tests.support.server import ledger_serve, wait_until

pytestmark = [pytest.mark.faults, pytest.mark.e2e]
GAP = 25
"""Long enough for a new server to start within the wait."""
INTERVAL = 0.2
ADMIN = (("authorization", "Bearer faults-admin"),)
LATE = 3.0
"""Seconds a round may start after its due time: a few scheduler intervals,
the results policy's lag, a server's start."""


def _holder(conn: psycopg.Connection[Any]) -> int | None:
    """The OS pid of the server holding the round scheduler's lock, if any."""
    key = (zlib.crc32(RoundScheduler.job.encode()) - 2**31) & 0xFFFFFFFF
    row = conn.execute(
        "SELECT a.application_name FROM pg_locks l"
        " JOIN pg_stat_activity a ON a.pid = l.pid"
        " WHERE l.locktype = 'advisory' AND l.classid = %s AND l.objid = %s"
        # advisory locks are per database: other tests' servers on the shared
        # cluster hold the same key in theirs
        " AND l.granted AND l.database = (SELECT oid FROM pg_database"
        "  WHERE datname = current_database())",
        (LOCK_CLASS, key),
    ).fetchone()
    return int(row[0].rsplit("-", 1)[1]) if row else None


def _events(conn: psycopg.Connection[Any], tid: str) -> list[tuple[str, datetime]]:
    return [
        (topic, datetime.fromisoformat(json.loads(bytes(state))["timestamp"]))
        for topic, state in conn.execute(
            "SELECT topic, state FROM tournaments_events WHERE originator_id = %s"
            " ORDER BY originator_version",
            (uuid.UUID(tid),),
        ).fetchall()
    ]


def _finish_round(client: Connection, stub: Any, tid: str) -> None:
    current = stub.GetPairings(pb.GetPairingsRequest(tournament_id=tid))
    for table in current.tables:
        client.call(
            "Adjudicate",
            gpb.AdjudicateRequest(game_id=table.game_id, ranks=[1, 2], reason="quick"),
            "faults-admin",
        )


def _started(conn: psycopg.Connection[Any], tid: str) -> int:
    return sum(1 for t, _ in _events(conn, tid) if t == "tournament.RoundStarted")


def _check_on_time(
    conn: psycopg.Connection[Any], tid: str, number: int, up_at: datetime | None = None
) -> None:
    """Round ``number`` started once, not before its due time, and within
    :data:`LATE` of it (or of ``up_at``, when the only server came up later)."""
    events = _events(conn, tid)
    starts = [at for t, at in events if t == "tournament.RoundStarted"]
    assert len(starts) == number, events
    completed = max(
        at for t, at in events if t == "tournament.ResultRecorded" and at < starts[-1]
    )
    due = completed + timedelta(seconds=GAP)
    assert starts[-1] >= due, (number, starts[-1], due)
    late = (starts[-1] - max(due, up_at or due)).total_seconds()
    assert late < LATE, (number, late, up_at, due)


def test_kill_9_during_the_wait_starts_each_round_once_and_on_time(
    server_url: str, tmp_path: Any
) -> None:
    with scratch_database(server_url, "ledger_round_scheduler") as url:
        env = serve_env(
            url,
            tmp_path,
            LEDGER_ROUND_SCHEDULER_INTERVAL=str(INTERVAL),
            LEDGER_TIMEKEEPER_INTERVAL="0",
        )
        base = free_ports(3)
        with (
            ledger_serve(env, port=base) as first,
            ledger_serve(env, port=base + 1) as second,
            psycopg.connect(url, autocommit=True) as conn,
        ):
            servers = {s.proc.pid: s for s in (first, second)}
            client = Connection.open(first.target)
            stub = rpc.TournamentServiceStub(client.channel)
            tid = stub.CreateTournament(
                pb.CreateTournamentRequest(
                    name="night",
                    game_type="terralore",
                    format="swiss",
                    rounds=3,
                    automatic_rounds=pb.AutomaticRounds(gap_seconds=GAP),
                ),
                metadata=ADMIN,
            ).tournament.tournament_id
            for player in ("ann", "bob", "cat", "dan"):
                stub.RegisterPlayer(
                    pb.RegisterPlayerRequest(tournament_id=tid, player_id=player),
                    metadata=ADMIN,
                )
            stub.StartRound(pb.StartRoundRequest(tournament_id=tid), metadata=ADMIN)

            # round 2: the scheduler's holder dies during the wait
            _finish_round(client, stub, tid)
            wait_until(lambda: _holder(conn) in servers, "no server took the lock")
            holder = _holder(conn)
            assert holder is not None and _started(conn, tid) == 1
            servers[holder].proc.kill()
            servers[holder].proc.wait()
            (survivor,) = [s for pid, s in servers.items() if pid != holder]
            wait_until(lambda: _started(conn, tid) == 2, "round 2 never started", 60)
            _check_on_time(conn, tid, 2)

            # round 3: the last server dies during the wait; a new one starts
            client = Connection.open(survivor.target)
            stub = rpc.TournamentServiceStub(client.channel)
            _finish_round(client, stub, tid)
            wait_until(
                lambda: stub.GetTournament(
                    pb.GetTournamentRequest(tournament_id=tid)
                ).HasField("next_round_at"),
                "round 2's results were not recorded",
            )
            stub_due = (
                stub.GetTournament(pb.GetTournamentRequest(tournament_id=tid))
                .next_round_at.ToDatetime(tzinfo=UTC)
                .isoformat()
            )
            survivor.proc.kill()
            survivor.proc.wait()
            with ledger_serve(env, port=base + 2):
                up_at = datetime.now(UTC)
                wait_until(
                    lambda: _started(conn, tid) == 3, "round 3 never started", 60
                )
                _check_on_time(conn, tid, 3, up_at)
                assert up_at < datetime.fromisoformat(  # it did restart mid-wait
                    stub_due
                ), (up_at, stub_due)
            assert _started(conn, tid) == 3
