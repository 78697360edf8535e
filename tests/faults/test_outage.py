"""A database outage looks like one: health, status codes, and no dead connections.

Against a PostgreSQL of the test's own (stopped and restarted here), with the
server in this process so its event hub can be watched.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from types import TracebackType
from typing import Any

import grpc
import psycopg
import pytest
from eventsourcing.persistence import PersistenceError
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_status import rpc_status
from pydantic import SecretStr

from ledger.v1 import game_service_pb2 as pb
from services.api.client import Connection, create, legal_moves
from tests.support.database import scratch_database
from tests.support.server import server_in_thread, wait_until

pytestmark = [pytest.mark.faults, pytest.mark.e2e]
SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


class start_server:
    """``(running, ledger, url)``: a server in this process on a fresh database
    of the scratch PostgreSQL, which is running again when the block ends.
    ``settings`` override the server's (a pool of 4 by default)."""

    def __init__(
        self, scratch_pg: Any, tmp_path: Any, health_interval: float, **settings: Any
    ):
        self.pg, self.tmp, self.interval = scratch_pg, tmp_path, health_interval
        self.settings = {"pool_size": 4, **settings}

    def __enter__(self) -> tuple[Any, Any, str]:
        from services.runtime.bootstrap import Wiring, build_ledger
        from services.runtime.settings import Settings

        self._db = scratch_database(self.pg.url, "ledger_outage")
        url = self._db.__enter__()
        settings = Settings(
            database_url=url,
            data_dir=self.tmp,
            admin_token=SecretStr("outage-admin"),
            health_interval=self.interval,
            projections=False,
            **self.settings,
        )
        self.ledger = build_ledger(settings, url)
        self._server = server_in_thread(
            Wiring(settings, url, self.ledger, "outage-admin")
        )
        return self._server.__enter__(), self.ledger, url

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            self._server.__exit__(exc_type, exc, tb)
            self.ledger.close()
        finally:
            self.pg.start_if_stopped()
            self._db.__exit__(exc_type, exc, tb)


@pytest.fixture
def health_of() -> Iterator[Any]:
    channels: list[grpc.Channel] = []

    def check(port: int) -> int:
        channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        channels.append(channel)
        stub = health_pb2_grpc.HealthStub(channel)
        return stub.Check(health_pb2.HealthCheckRequest(), timeout=5).status

    yield check
    for channel in channels:
        channel.close()


def unavailable_details(call: Any, *args: Any, **kw: Any) -> dict[str, Any]:
    """Call, expect UNAVAILABLE, and return its ErrorInfo/RetryInfo."""
    with pytest.raises(grpc.RpcError) as raised:
        call(*args, **kw)
    error = raised.value
    assert error.code() == grpc.StatusCode.UNAVAILABLE, (error.code(), error.details())
    status = rpc_status.from_call(error)
    assert status is not None, "no google.rpc.Status details"
    found: dict[str, Any] = {}
    for detail in status.details:
        for kind in (error_details_pb2.ErrorInfo, error_details_pb2.RetryInfo):
            if detail.Is(kind.DESCRIPTOR):
                message = kind()
                detail.Unpack(message)
                found[kind.__name__] = message
    return found


def test_datastores_are_the_outage_aware_subclass(scratch_pg, tmp_path):
    from services.storage.datastore import RECONNECT_TIMEOUT, LedgerDatastore

    with start_server(scratch_pg, tmp_path, 1.0) as (running, ledger, _):
        assert type(ledger.datastore) is LedgerDatastore
        # The subclass adds behaviour only (the factory swaps the instance's class).
        assert "__init__" not in vars(LedgerDatastore)
        # a lost slot is given up soon, so the pool regrows at once on recovery
        assert ledger.datastore.pool.reconnect_timeout == RECONNECT_TIMEOUT
        assert running.watcher is not None and running.watcher.up


def test_health_and_every_call_follow_the_database_down_and_back(
    scratch_pg, tmp_path, health_of
):
    with start_server(scratch_pg, tmp_path, 0.2) as (running, ledger, url):
        conn = Connection.open(f"127.0.0.1:{running.port}")
        played, fresh = (
            create(conn, "terralore", players=2),
            create(conn, "terralore", players=2),
        )
        move = legal_moves(conn, played, 0)[0]
        request = pb.SubmitMoveRequest(
            game_id=played.game_id, command_id=str(uuid.uuid4()), move=move, seat=0
        )
        assert health_of(running.port) == SERVING
        assert running.hub.connected

        scratch_pg.stop("fast")
        wait_until(lambda: health_of(running.port) == NOT_SERVING, "still SERVING")
        read = unavailable_details(
            conn.call, "GetGame", pb.GetGameRequest(game_id=played.game_id)
        )
        assert read["ErrorInfo"].reason == "DATABASE_UNAVAILABLE"
        assert read["RetryInfo"].retry_delay.seconds >= 1
        # A token this server has not seen yet: the interceptor's lookup needs
        # the database, and must answer like every other call.
        lookup = unavailable_details(
            conn.call,
            "GetGame",
            pb.GetGameRequest(game_id=fresh.game_id),
            fresh.tokens[0],
        )
        assert lookup["ErrorInfo"].reason == "DATABASE_UNAVAILABLE"
        write = unavailable_details(conn.call, "SubmitMove", request, played.tokens[0])
        assert write["ErrorInfo"].reason == "DATABASE_UNAVAILABLE"
        wait_until(lambda: not running.hub.connected, "the hub did not notice")

        scratch_pg.start()
        wait_until(lambda: health_of(running.port) == SERVING, "not SERVING again")
        first = conn.call("SubmitMove", request, played.tokens[0])
        again = conn.call("SubmitMove", request, played.tokens[0])
        assert (again.first_version, again.last_version) == (
            first.first_version,
            first.last_version,
        )
        with psycopg.connect(url) as db:
            (stored,) = db.execute(
                "SELECT count(*) FROM ledger_commands WHERE command_id = %s",
                (request.command_id,),
            ).fetchone()
        assert stored == 1
        wait_until(lambda: running.hub.connected, "the LISTEN connection is not back")
        assert ledger.heads.epoch != 0
        conn.channel.close()


def test_right_after_a_restart_no_call_meets_a_dead_pooled_connection(
    scratch_pg, tmp_path
):
    # A health interval longer than the test: the watcher does not refresh the
    # pools, so every pooled connection is still the dead one from before.
    with start_server(scratch_pg, tmp_path, 60.0) as (running, _, _):
        conn = Connection.open(f"127.0.0.1:{running.port}")
        tables = [create(conn, "terralore", players=2) for _ in range(12)]
        rnd = random.Random(7)
        scratch_pg.restart("fast")
        answered = []
        for table in tables:  # each token is new to the server: a lookup each
            seat = rnd.choice(list(table.tokens))
            answered.append(
                conn.call(
                    "GetGame",
                    pb.GetGameRequest(game_id=table.game_id),
                    table.tokens[seat],
                ).game.game_id
            )
        assert answered == [t.game_id for t in tables]
        conn.channel.close()


def test_calls_in_flight_when_the_database_stops_answer_unavailable_soon(
    scratch_pg, tmp_path
):
    """Moves and reads waiting on PostgreSQL (held by a lock) when it stops
    are answered UNAVAILABLE with RetryInfo within ``LEDGER_DB_WAIT_SECONDS``,
    long before their own deadline; the database stays down meanwhile."""
    import threading
    import time

    from services.runtime.settings import Settings

    deadline = 10.0  # a client's usual deadline: the calls were held past it
    with start_server(scratch_pg, tmp_path, 1.0) as (running, _, url):
        conn = Connection.open(f"127.0.0.1:{running.port}")
        calls: list[tuple[str, Any, str | None]] = []
        for _ in range(8):
            table = create(conn, "terralore", players=2)
            game = conn.call("GetGame", pb.GetGameRequest(game_id=table.game_id)).game
            seat = game.to_act[0]
            move = legal_moves(conn, table, seat)[0]
            calls.append(
                (
                    "SubmitMove",
                    pb.SubmitMoveRequest(
                        game_id=table.game_id,
                        command_id=str(uuid.uuid4()),
                        move=move,
                        seat=seat,
                    ),
                    table.tokens[seat],
                )
            )
            calls.append(("ListGames", pb.ListGamesRequest(page_size=5), None))
        answers: list[tuple[str, Any, float, dict[str, Any]]] = []

        def call(method: str, request: Any, token: str | None) -> None:
            started = time.monotonic()
            try:
                conn.call(method, request, token, timeout=deadline)
                answers.append((method, grpc.StatusCode.OK, 0.0, {}))
            except grpc.RpcError as error:
                status = rpc_status.from_call(error)
                kinds = (
                    {d.type_url.rpartition(".")[2] for d in status.details}
                    if status
                    else set()
                )
                answers.append(
                    (
                        method,
                        error.code(),
                        time.monotonic() - started,
                        {"details": kinds},
                    )
                )

        blocker = psycopg.connect(url)
        blocker.execute("LOCK TABLE ledger_games IN ACCESS EXCLUSIVE MODE")
        threads = [threading.Thread(target=call, args=c) for c in calls]
        for thread in threads:
            thread.start()

        def waiting() -> int:
            with psycopg.connect(url, autocommit=True) as watcher:
                row = watcher.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                ).fetchone()
            return int(row[0]) if row else 0

        wait_until(lambda: waiting() >= 2, "no call is waiting on the database")
        stopped = time.monotonic()
        scratch_pg.stop("fast")
        blocker.close()
        for thread in threads:
            thread.join(deadline + 10)
        held = time.monotonic() - stopped
        scratch_pg.start()
        conn.channel.close()
    wait = Settings().db_wait_seconds
    print(
        f"in flight: {len(answers)} calls; all answered {held:.1f}s after the stop;"
        f" longest {max(a[2] for a in answers):.1f}s (LEDGER_DB_WAIT_SECONDS={wait})"
    )
    assert len(answers) == len(calls)
    refused = [(m, code) for m, code, _, _ in answers if code != grpc.StatusCode.OK]
    assert {code for _, code in refused} == {grpc.StatusCode.UNAVAILABLE}, answers
    assert all("RetryInfo" in d["details"] for _, _, _, d in answers if d)


def test_views_started_while_the_database_is_away_follow_the_log_once_it_is_back(
    scratch_pg, tmp_path
):
    """A views process that starts during a restart waits for the database
    instead of dying at start (and leaving the views behind for good)."""
    from projections import registry
    from projections.projector import Projector
    from services.runtime.bootstrap import build_ledger
    from services.runtime.settings import Settings

    with scratch_database(scratch_pg.url, "ledger_views_start") as url:
        ledger = build_ledger(
            Settings(database_url=url, data_dir=tmp_path, pool_size=2), url
        )
        try:
            ledger.create_game("terralore", {"players": 2})
            (runner,) = registry.runners(ledger.datastore, ["stats"])
            projector = Projector([runner], listen_url=None)
            scratch_pg.stop("fast")
            try:
                projector.start()
            finally:
                scratch_pg.start()

            def caught_up() -> bool:
                try:
                    status = runner.status()
                except (psycopg.Error, PersistenceError):  # not back or not set up yet
                    return False
                return status.position >= status.head > 0

            try:
                wait_until(caught_up, "the view never set up and caught up", 60)
            finally:
                projector.stop()
        finally:
            ledger.close()


def test_a_seat_session_answers_an_outage_unavailable_and_goes_on_after(
    scratch_pg, tmp_path, health_of
):
    """A move sent on an open session while the database is down is refused
    in the stream with UNAVAILABLE (and RetryInfo); a session opened by a
    token the server has not seen is refused UNAVAILABLE; once the database
    is back the same command id is recorded, once, on the same session."""
    from ledger.v1 import session_service_pb2 as spb
    from services.api.session_client import SeatSessionClient

    with start_server(scratch_pg, tmp_path, 0.2) as (running, _, url):
        conn = Connection.open(f"127.0.0.1:{running.port}")
        played, fresh = (
            create(conn, "terralore", players=2),
            create(conn, "terralore", players=2),
        )
        session = SeatSessionClient(
            conn.channel, played.game_id, played.tokens[0], timeout=120
        )
        page = next(m for m in session if m.HasField("moves")).moves
        scratch_pg.stop("fast")
        wait_until(lambda: health_of(running.port) == NOT_SERVING, "still SERVING")
        session.move(page.moves[0], command_id="during-outage")
        refused = next(m for m in session if m.HasField("refused")).refused
        assert refused.code == grpc.StatusCode.UNAVAILABLE.value[0]
        kinds = {d.type_url.rsplit(".", 1)[-1] for d in refused.details}
        assert {"ErrorInfo", "RetryInfo"} <= kinds
        other = SeatSessionClient(conn.channel, fresh.game_id, fresh.tokens[0])
        with pytest.raises(grpc.RpcError) as opening:
            next(iter(other))
        assert opening.value.code() is grpc.StatusCode.UNAVAILABLE

        scratch_pg.start()
        wait_until(lambda: health_of(running.port) == SERVING, "not SERVING again")
        session.move(page.moves[0], command_id="during-outage")
        answer = next(
            m for m in session if m.HasField("accepted") or m.HasField("refused")
        )
        assert answer.HasField("accepted"), answer
        session.send(spb.PlayRequest(resign=spb.SessionResign()))
        assert any(m.HasField("control") for m in session)
        session.close()
        with psycopg.connect(url) as db:
            (stored,) = db.execute(
                "SELECT count(*) FROM ledger_commands WHERE command_id = %s",
                ("during-outage",),
            ).fetchone()
        assert stored == 1
        conn.channel.close()
