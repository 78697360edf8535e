"""``SeatSessionService.Play`` against a real server: a seat's whole game on one stream.

Each test names the promise it checks: every declared example played to its
end over sessions audits OK; a session shows its seat exactly what
``StreamGameEvents`` shows the same token (no other seat's hidden data, no
other seat's legal moves); moves are idempotent per command id; a resumed
session neither loses nor doubles an event; refusals are answered in the
stream, which goes on; and only a seat of the game opens a session.
"""

from __future__ import annotations

import uuid
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2

from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import session_service_pb2 as spb
from services.api.session_client import SeatSessionClient
from services.ledger.audit import audit_game
from tests.e2e.client import create
from tests.e2e.sessions import play_over_sessions
from tests.support.examples import every_example, every_example_id, examples

pytestmark = pytest.mark.e2e


def bare(event: pb.GameEvent) -> bytes:
    """An event without the fields that depend on when it was read."""
    copy = pb.GameEvent()
    copy.CopyFrom(event)
    for name in ("hash", "prev_hash", "clocks", "next_deadline", "next_deadline_seat"):
        copy.ClearField(name)
    return copy.SerializeToString()


def until(client: SeatSessionClient, kind: str) -> list[spb.PlayResponse]:
    """Messages up to and including the next one of ``kind``."""
    seen = []
    while True:
        message = client.next()
        seen.append(message)
        if message.WhichOneof("kind") == kind:
            return seen


def info_of(refusal: spb.SessionRefusal) -> error_details_pb2.ErrorInfo:
    info = error_details_pb2.ErrorInfo()
    for detail in refusal.details:
        if detail.Unpack(info):
            return info
    raise AssertionError("no ErrorInfo")


@pytest.mark.parametrize(("game_type", "setup"), every_example(), ids=every_example_id())
def test_every_example_played_over_sessions_audits_and_each_seat_sees_its_stream(
    grpc_server: Any, ledger: Any, game_type: str, setup: dict[str, Any]
) -> None:
    table = create(grpc_server, game_type, **setup)
    got = play_over_sessions(grpc_server.channel, table.game_id, table.tokens, seed=3)
    report = audit_game(ledger, uuid.UUID(table.game_id))
    assert report.ok, report.failures
    for token, received in got.items():
        assert received.status is grpc.StatusCode.OK, received.kinds()
        events = received.events()
        # every event once, in order, up to the conclusion
        assert [e.version for e in events] == list(range(1, len(events) + 1))
        assert events[-1].type == "ledger.GameConcluded"
        # what StreamGameEvents shows this token: its redaction (hashes
        # and clocks depend on when each was read, and the last move's
        # events on whether the game had ended when they were read)
        last = events[-1].decision
        assert [bare(e) for e in events if e.decision < last] == [
            bare(e) for e in received.streamed if e.decision < last
        ]
        assert len(received.streamed) == len(events)
        kinds = received.kinds()
        assert kinds[0] == "opened" and "refused" not in kinds[:1]
        # pages only for this token's own seats
        seats = {s for s, t in table.tokens.items() if t == token}
        assert {m.moves.seat for m in received.messages if m.HasField("moves")} <= seats
