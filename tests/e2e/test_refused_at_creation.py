"""What could never work is refused by the call that would create it.

A tournament whose setup no table could start, an admin's legal-move query
for a seat the game does not have, a replay from before the first event and
the pairings of a round that has not started: each answers with its status
and the request field named in ``google.rpc.BadRequest`` (or, for a state
that may still change, ``FAILED_PRECONDITION``), never a silent OK.
"""

from __future__ import annotations

import grpc
import pytest

from ledger.v1 import game_service_pb2 as gpb
from ledger.v1 import read_service_pb2 as rpb
from ledger.v1 import read_service_pb2_grpc as rgrpc
from ledger.v1 import tournament_service_pb2 as tpb
from ledger.v1 import tournament_service_pb2_grpc as tgrpc
from tests.e2e.client import create, refused

pytestmark = pytest.mark.e2e


def auth(token):
    return (("authorization", f"Bearer {token}"),)


def tournament(server, setup_json):
    return tgrpc.TournamentServiceStub(server.channel).CreateTournament(
        tpb.CreateTournamentRequest(
            name="club night",
            game_type="thalara",
            format="swiss",
            rounds=2,
            table_size=2,
            setup_json=setup_json,
        ),
        metadata=auth(server.admin_token),
        timeout=30,
    )


@pytest.mark.parametrize(
    "setup_json",
    [
        '{"content": "no-such-pack"}',
        '{"mode": "standard", "characters": ["zed", "canto"]}',
    ],
)
def test_a_tournament_no_table_could_start_is_refused(grpc_server, setup_json):
    code, message, fields = refused(lambda: tournament(grpc_server, setup_json))
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert fields == ["setup_json"]
    assert "no-such-pack" in message or "zed" in message


@pytest.mark.parametrize("seat", [-1, 2, 7])
def test_the_admin_cannot_list_moves_for_a_seat_the_game_lacks(grpc_server, seat):
    table = create(grpc_server, "thalara", players=2, characters=["myrja", "canto"])
    code, _, fields = refused(
        lambda: grpc_server.call(
            "ListLegalMoves",
            gpb.ListLegalMovesRequest(game_id=table.game_id, seat=seat),
            grpc_server.admin_token,
        )
    )
    assert (code, fields) == (grpc.StatusCode.INVALID_ARGUMENT, ["seat"])
    listed = grpc_server.call(
        "ListLegalMoves",
        gpb.ListLegalMovesRequest(game_id=table.game_id, seat=1),
        grpc_server.admin_token,
    )
    assert listed.seat == 1


def test_a_replay_from_before_the_first_event_is_refused_by_every_reader(
    grpc_server,
):
    table = create(grpc_server, "thalara", players=2, characters=["myrja", "canto"])
    replay = rgrpc.ReplayServiceStub(grpc_server.channel)
    admin = auth(grpc_server.admin_token)
    for call in (
        lambda: replay.StreamReplay(
            rpb.StreamReplayRequest(game_id=table.game_id, after_version=-1),
            metadata=admin,
            timeout=30,
        ),
        lambda: replay.ListFrames(
            rpb.ListFramesRequest(game_id=table.game_id, after_version=-1),
            metadata=admin,
            timeout=30,
        ),
        lambda: grpc_server.stub.StreamGameEvents(
            gpb.StreamGameEventsRequest(game_id=table.game_id, after_version=-1),
            metadata=admin,
            timeout=30,
        ),
    ):
        code, _, fields = refused(call)
        assert (code, fields) == (grpc.StatusCode.INVALID_ARGUMENT, ["after_version"])


def test_pairings_before_the_first_round_say_no_round_has_started(grpc_server):
    created = tournament(
        grpc_server, '{"mode": "standard", "characters": ["myrja", "canto"]}'
    )
    stub = tgrpc.TournamentServiceStub(grpc_server.channel)
    tid = created.tournament.tournament_id
    code, message, _ = refused(
        lambda: stub.GetPairings(tpb.GetPairingsRequest(tournament_id=tid), timeout=30)
    )
    assert code == grpc.StatusCode.FAILED_PRECONDITION
    assert "no round has started" in message
    organiser = auth(created.organiser_token)
    for player in ("ann", "bob"):
        stub.RegisterPlayer(
            tpb.RegisterPlayerRequest(tournament_id=tid, player_id=player),
            metadata=organiser,
            timeout=30,
        )
    stub.StartRound(
        tpb.StartRoundRequest(tournament_id=tid), metadata=organiser, timeout=30
    )
    assert stub.GetPairings(tpb.GetPairingsRequest(tournament_id=tid)).round == 1
    code, _, fields = refused(
        lambda: stub.GetPairings(
            tpb.GetPairingsRequest(tournament_id=tid, round=2), timeout=30
        )
    )
    assert (code, fields) == (grpc.StatusCode.INVALID_ARGUMENT, ["round"])
