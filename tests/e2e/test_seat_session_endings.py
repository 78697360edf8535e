"""A seat's session learns at once of an ending it did not cause, and of a drain.

The timekeeper of another server flags a seat; the opponent resigns; an
arbiter aborts: each waiting seat's session receives the last events and
the conclusion, then ends OK, without the client asking anything.  A
draining server ends its sessions with UNAVAILABLE (reason DRAINING), so a
client resumes on another server with ``after_version``.
"""

from __future__ import annotations

import asyncio
from typing import Any

import grpc
import pytest

from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import session_service_pb2 as spb
from services.api.session_client import SeatSessionClient
from services.ledger.timekeeper import Timekeeper
from tests.e2e.test_referee_over_grpc import new_game
from tests.support.manual_clock import ManualClock
from tests.support.server import serve_in_process

pytestmark = pytest.mark.e2e
BOUND = 60.0
"""Bounds a failing test only (a session that never ends): never a timing assert."""


def opened(server: Any, table: Any, seat: int) -> tuple[SeatSessionClient, list[Any]]:
    """A session of ``seat``, read up to its first state."""
    client = SeatSessionClient(
        server.channel, table.game_id, table.tokens[seat], timeout=BOUND
    )
    seen = []
    for message in client:
        seen.append(message)
        if message.HasField("state"):
            break
    return client, seen


def to_the_end(client: SeatSessionClient) -> list[Any]:
    """Everything until the server ends the session (with OK)."""
    try:
        return list(client)
    finally:
        client.close()


def concluded(messages: list[Any]) -> pb.Outcome:
    events = [m.event for m in messages if m.HasField("event")]
    assert events and events[-1].type == "ledger.GameConcluded"
    ending = pb.GameConcluded()
    events[-1].payload.Unpack(ending)
    return ending.outcome


def test_the_timekeeper_of_another_server_ends_the_session_at_once(
    server: Any, other_server: Any, clock: ManualClock
) -> None:
    table = new_game(server, kind="per_move", per_move_seconds=30)
    client, first = opened(server, table, 1)
    state = first[-1].state
    assert state.clocks and state.HasField("next_deadline")
    clock.advance(31)
    asyncio.run(Timekeeper(other_server).sweep())
    rest = to_the_end(client)
    outcome = concluded(rest)
    assert outcome.termination_kind == pb.TERMINATION_TIMED_OUT
    final = [m.state for m in rest if m.HasField("state")][-1]
    assert final.status == "ended" and not final.HasField("next_deadline")


def test_a_resignation_and_an_abort_reach_the_waiting_seat(server: Any) -> None:
    table = new_game(server)
    waiting, _ = opened(server, table, 1)
    resigning, _ = opened(server, table, 0)
    resigning.send(spb.PlayRequest(resign=spb.SessionResign()))
    outcome = concluded(to_the_end(waiting))
    assert outcome.termination_kind == pb.TERMINATION_RESIGNED
    assert list(outcome.winners) == [1]
    assert concluded(to_the_end(resigning)) == outcome

    table = new_game(server)
    waiting, _ = opened(server, table, 0)
    server.call(
        "Abort",
        pb.AbortRequest(game_id=table.game_id, reason="fire alarm"),
        server.admin_token,
    )
    assert concluded(to_the_end(waiting)).termination_kind == pb.TERMINATION_ABORTED


def test_a_finished_game_opens_only_to_replay_its_events_and_end(server: Any) -> None:
    table = new_game(server)
    server.call("Resign", pb.ResignRequest(game_id=table.game_id), table.tokens[0])
    client = SeatSessionClient(
        server.channel, table.game_id, table.tokens[1], timeout=BOUND
    )
    got = to_the_end(client)
    assert got[0].HasField("opened") and got[0].opened.game.status == "ended"
    assert concluded(got).termination_kind == pb.TERMINATION_RESIGNED
    assert not any(m.HasField("moves") for m in got)


def test_a_draining_server_ends_its_sessions_unavailable(
    settings: Any, ledger: Any
) -> None:
    with serve_in_process(settings, ledger) as own:
        table = new_game(own)
        client, _ = opened(own, table, 0)
        loop = own.running.server._loop  # the server's own background loop
        stopping = asyncio.run_coroutine_threadsafe(own.running.stop(5.0), loop)
        with pytest.raises(grpc.RpcError) as ended:
            list(client)
        stopping.result(BOUND)
        assert ended.value.code() is grpc.StatusCode.UNAVAILABLE
        assert "draining" in (ended.value.details() or "")
