"""A PostgreSQL that hangs is an outage too: calls answer UNAVAILABLE soon,
the server recovers by itself, and no move is lost or stored twice.

A database that closes its connections (a stop, a restart) is
``test_outage.py``'s.  Here every process of the test's own cluster is
stopped with ``SIGSTOP`` (:meth:`ScratchPostgres.paused`): connections stay
open, the kernel accepts new ones and acknowledges every packet, and nothing
is ever answered, which is how a frozen host or a network partition looks
to a client.  The server runs in this process, so its watcher and its cache
can be looked at too.
"""

from __future__ import annotations

import threading
import time
import uuid
from dataclasses import dataclass
from typing import Any

import grpc
import psycopg
import pytest
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_status import rpc_status

from domain.audit.game_audit import audit_records
from domain.games import find_game
from ledger.v1 import game_service_pb2 as pb
from services.api.client import Connection, create, legal_moves
from services.proto import convert
from tests.faults.test_outage import start_server
from tests.support.server import wait_until

pytestmark = [pytest.mark.faults, pytest.mark.e2e]
SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING

HEALTH_INTERVAL = 0.5
"""Seconds between the watcher's probes (the fault suite's ``serve_env`` value)."""
POOL = 6
"""Pooled connections, all open from the start: each call here that needs one
finds it idle and waits on the hung database, the case this file is about (a
call waiting for the pool to open one is answered when that wait,
``LEDGER_DB_WAIT_SECONDS``, ends, as in ``test_outage.py``)."""
BOUND = 10.0
"""Seconds within which every call is answered ``UNAVAILABLE`` once PostgreSQL hangs.

The calls here are sent as it stops, and each waits on a connection in use
until the watcher declares the outage: the next probe (within
:data:`HEALTH_INTERVAL`), its ``SELECT 1`` cut after
``LEDGER_DB_WAIT_SECONDS`` (3, the default) and one reconnect bounded by
libpq's ``connect_timeout`` (2 s), so 5.5 s at most on an idle machine.
The other 4.5 s are room for a loaded CI machine's thread and event-loop
latency, not for another mechanism: a call that waited for PostgreSQL to
wake would wait for the end of the pause, which comes only after every call
here has been answered or has reached :data:`CALL_DEADLINE`."""
CALL_DEADLINE = BOUND + 10
"""The client's own deadline: a call still waiting then fails the test as
``DEADLINE_EXCEEDED`` instead of hanging it."""


@dataclass
class Answer:
    method: str
    code: grpc.StatusCode
    seconds: float
    """From the moment PostgreSQL was stopped."""
    reason: str = ""
    retry_info: bool = False


def call_timed(
    conn: Connection, method: str, request: Any, token: str | None, since: float
) -> Answer:
    try:
        conn.call(method, request, token, timeout=CALL_DEADLINE)
        return Answer(method, grpc.StatusCode.OK, time.monotonic() - since)
    except grpc.RpcError as error:
        answer = Answer(method, error.code(), time.monotonic() - since)
        status = rpc_status.from_call(error)
        for detail in status.details if status is not None else ():
            if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                info = error_details_pb2.ErrorInfo()
                detail.Unpack(info)
                answer.reason = info.reason
            answer.retry_info |= detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR)
        return answer


def _play_a_legal_move(conn: Connection, table: Any) -> Any:
    """The first listed move of the seat to act, under a fresh command id."""
    game = conn.call("GetGame", pb.GetGameRequest(game_id=table.game_id)).game
    seat = game.to_act[0]
    return conn.call(
        "SubmitMove",
        pb.SubmitMoveRequest(
            game_id=table.game_id,
            command_id=str(uuid.uuid4()),
            move=legal_moves(conn, table, seat)[0],
            seat=seat,
        ),
        table.tokens[seat],
    )


def health(port: int) -> int:
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        return stub.Check(health_pb2.HealthCheckRequest(), timeout=2).status


def listed(answers: list[Answer]) -> str:
    return ", ".join(f"{a.method} {a.code.name} {a.seconds:.2f}s" for a in answers)


def is_outage_answer(answer: Answer) -> bool:
    return (
        answer.code == grpc.StatusCode.UNAVAILABLE
        and answer.reason == "DATABASE_UNAVAILABLE"
        and answer.retry_info
        and answer.seconds <= BOUND
    )


def test_a_hung_database_answers_unavailable_soon_and_recovers_by_itself(
    scratch_pg, tmp_path
):
    with start_server(
        scratch_pg, tmp_path, HEALTH_INTERVAL, pool_size=POOL, pool_min=POOL
    ) as (running, ledger, url):
        conn = Connection.open(f"127.0.0.1:{running.port}")
        table = create(conn, "terralore", players=2)
        other = create(conn, "terralore", players=2)  # its tokens: never used yet
        first = _play_a_legal_move(conn, table)
        game = conn.call("GetGame", pb.GetGameRequest(game_id=table.game_id)).game
        seat = game.to_act[0]
        retried = pb.SubmitMoveRequest(  # in flight when PostgreSQL hangs
            game_id=table.game_id,
            command_id=str(uuid.uuid4()),
            move=legal_moves(conn, table, seat)[0],
            seat=seat,
        )
        terralore = find_game("terralore")
        calls: list[tuple[str, Any, str | None]] = [
            ("SubmitMove", retried, table.tokens[seat]),
            (
                "CreateGame",
                pb.CreateGameRequest(
                    game_type="terralore",
                    setup=convert.model_to_any(
                        terralore, terralore.setup_model(players=2)
                    ),
                ),
                None,
            ),
            # a token the server has not seen: its lookup needs the database
            ("GetGame", pb.GetGameRequest(game_id=other.game_id), other.tokens[0]),
            (
                "ListLegalMoves",
                pb.ListLegalMovesRequest(game_id=other.game_id, seat=1, page_size=5),
                other.tokens[1],
            ),
        ]
        assert health(running.port) == SERVING and running.hub.connected

        with scratch_pg.paused():
            hung = time.monotonic()
            in_flight: list[Answer] = []
            threads = [
                threading.Thread(
                    target=lambda c=c: in_flight.append(call_timed(conn, *c, hung))
                )
                for c in calls
            ]
            for thread in threads:
                thread.start()
            wait_until(
                lambda: health(running.port) == NOT_SERVING,
                "health still SERVING",
                timeout=BOUND,
            )
            declared = time.monotonic() - hung
            for thread in threads:
                thread.join(CALL_DEADLINE + 5)
            # answered from memory before (the game held, the token known):
            # not once the LISTEN connection is cut and nothing is vouched for
            wait_until(
                lambda: not running.hub.connected,
                "the hub still listens",
                timeout=max(0.0, hung + BOUND - time.monotonic()),
            )
            after = [
                call_timed(
                    conn,
                    "GetGame",
                    pb.GetGameRequest(game_id=table.game_id),
                    None,
                    time.monotonic(),
                ),
                call_timed(
                    conn,
                    "ListLegalMoves",
                    pb.ListLegalMovesRequest(game_id=table.game_id, seat=seat),
                    table.tokens[seat],
                    time.monotonic(),
                ),
            ]
            resumed = time.monotonic()
        wait_until(lambda: health(running.port) == SERVING, "not SERVING again")
        recovered = time.monotonic() - resumed

        print(
            f"hung: in flight {listed(in_flight)}; NOT_SERVING at {declared:.2f}s;"
            f" then {listed(after)}; SERVING {recovered:.2f}s after SIGCONT"
        )
        assert len(in_flight) == len(calls), "a call is still waiting"
        assert all(is_outage_answer(a) for a in in_flight), in_flight
        assert all(is_outage_answer(a) for a in after), after
        assert running.watcher.up

        # A client retries the move it got no answer for, with the same command
        # id, until it is answered: the move is recorded once either way.
        tries, answered = 0, None
        while answered is None:
            tries += 1
            try:
                answered = conn.call("SubmitMove", retried, table.tokens[seat])
            except grpc.RpcError as error:
                assert error.code() == grpc.StatusCode.UNAVAILABLE, error
                assert tries < 50, "the move is never accepted"
                time.sleep(0.2)
        with psycopg.connect(url) as db:
            stored = db.execute(
                "SELECT first_version, last_version FROM ledger_commands"
                " WHERE game_id = %s AND command_id = %s",
                (table.game_id, retried.command_id),
            ).fetchall()
        assert stored == [(answered.first_version, answered.last_version)]
        assert answered.first_version == first.last_version + 1
        print(f"retried move: {tries} tries, replayed={answered.replayed}")

        # memory does not claim a version the store does not have, or lack one
        game = conn.call("GetGame", pb.GetGameRequest(game_id=table.game_id)).game
        assert game.version == answered.last_version
        later = _play_a_legal_move(conn, table)
        assert later.first_version == answered.last_version + 1
        conn.channel.close()

        with psycopg.connect(url) as db:
            versions = [
                v
                for (v,) in db.execute(
                    "SELECT originator_version FROM ledger_events"
                    " WHERE originator_id = %s ORDER BY originator_version",
                    (table.game_id,),
                )
            ]
            commands = db.execute(
                "SELECT first_version, last_version FROM ledger_commands"
                " WHERE game_id = %s ORDER BY first_version",
                (table.game_id,),
            ).fetchall()
            games = [str(g) for (g,) in db.execute("SELECT game_id FROM ledger_games")]
        created = table.created.game.version if table.created else 0
        assert versions == list(range(1, later.last_version + 1))
        assert commands == [
            (first.first_version, first.last_version),
            (answered.first_version, answered.last_version),
            (later.first_version, later.last_version),
        ]
        assert created + sum(last - f + 1 for f, last in commands) == len(versions)
        for game_id in games:  # the CreateGame that got no answer may be stored
            report = audit_records(
                game_id,
                ledger.read_records(uuid.UUID(game_id)),
                server_seed=ledger.seed_of(uuid.UUID(game_id)),
            )
            assert report.ok, str(report)
