"""StreamStandings answers a change as it is recorded, not on its next poll."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.v1 import tournament_service_pb2 as pb
from ledger.v1 import tournament_service_pb2_grpc as rpc

pytestmark = pytest.mark.e2e


def test_a_registration_reaches_an_open_standings_stream(grpc_server: Any) -> None:
    stub = rpc.TournamentServiceStub(grpc_server.channel)
    admin = (("authorization", f"Bearer {grpc_server.admin_token}"),)
    created = stub.CreateTournament(
        pb.CreateTournamentRequest(
            name="push", game_type="terralore", format="swiss", rounds=1
        ),
        metadata=admin,
        timeout=10,
    )
    tid = created.tournament.tournament_id
    # The hub's safety net re-reads after 15 s; this deadline is shorter, so
    # only a notification can deliver the second message in time.
    stream = stub.StreamStandings(pb.GetStandingsRequest(tournament_id=tid), timeout=10)
    assert [r.player_id for r in next(stream).rows] == []
    stub.RegisterPlayer(
        pb.RegisterPlayerRequest(tournament_id=tid, player_id="ann"),
        metadata=admin,
        timeout=10,
    )
    assert [r.player_id for r in next(stream).rows] == ["ann"]
    stream.cancel()
