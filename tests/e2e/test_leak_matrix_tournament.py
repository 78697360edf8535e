"""The leak matrix's TournamentService rows: every tournament
read x every role (organiser, each player's tournament token, a seat token,
a spectator, another game's token, a garbage token, the admin), while the
tournament's game runs and after it ends."""

from __future__ import annotations

import random
import uuid

import grpc
import pytest

from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import tournament_service_pb2 as tpb
from ledger.v1 import tournament_service_pb2_grpc as trpc
from services.api.client import Table, create, play_one
from tests.e2e.leak_probe import log_head, meta, refused

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def other_token(grpc_server) -> str:
    return create(grpc_server, "terralore", players=2).tokens[0]


def test_tournament_reads_show_every_role_the_same_public_facts(
    grpc_server, ledger, other_token
):
    """TournamentService reads x every role, while its game runs and after it
    ends: pairings, rounds and standings are public and identical for every
    role, a result appears only once the game has ended, seat tokens reach only
    their player, and the tournament's spectator delay holds its game back."""
    stub = trpc.TournamentServiceStub(grpc_server.channel)
    created = stub.CreateTournament(
        tpb.CreateTournamentRequest(
            name="matrix cup",
            game_type="terralore",
            format="swiss",
            rounds=1,
            table_size=2,
            spectator_delay=pb.SpectatorDelay(moves=2),
        ),
        metadata=(("authorization", f"Bearer {grpc_server.admin_token}"),),
    )
    tid, organiser = created.tournament.tournament_id, created.organiser_token
    names = [f"tm-{uuid.uuid4().hex[:6]}-{n}" for n in ("ann", "bob")]
    player_tokens = {
        n: stub.RegisterPlayer(
            tpb.RegisterPlayerRequest(tournament_id=tid, player_id=n),
            metadata=meta(organiser),
        ).player_token
        for n in names
    }
    (table,) = stub.StartRound(
        tpb.StartRoundRequest(tournament_id=tid), metadata=meta(organiser)
    ).tables
    seat_tokens = {}
    for name, token in player_tokens.items():
        (mine,) = stub.GetMyGames(
            tpb.GetMyGamesRequest(tournament_id=tid), metadata=meta(token)
        ).games
        assert mine.game_id == table.game_id
        assert list(mine.seats) == [list(table.players).index(name)]
        seat_tokens[mine.seats[0]] = mine.seat_token
    roles = {
        "organiser": organiser,
        **{f"player {n}": t for n, t in player_tokens.items()},
        "seat 0": seat_tokens[0],
        "spectator": None,
        "other game's token": other_token,
        "admin": grpc_server.admin_token,
    }
    garbage = "not-a-token-" + uuid.uuid4().hex

    def public(token: str | None, position: int) -> list[bytes]:
        request = tpb.GetTournamentRequest(tournament_id=tid)
        return [
            stub.GetTournament(request, metadata=meta(token)).SerializeToString(),
            stub.ListRounds(
                tpb.ListRoundsRequest(tournament_id=tid), metadata=meta(token)
            ).SerializeToString(),
            stub.GetPairings(
                tpb.GetPairingsRequest(tournament_id=tid), metadata=meta(token)
            ).SerializeToString(),
            stub.GetStandings(
                tpb.GetStandingsRequest(tournament_id=tid, min_log_position=position),
                metadata=meta(token),
            ).SerializeToString(),
        ]

    def check(label: str, position: int) -> list[bytes]:
        stub.GetStandings(  # the results view has reached the game's last event
            tpb.GetStandingsRequest(tournament_id=tid, min_log_position=position)
        )
        answers = {role: public(token, position) for role, token in roles.items()}
        for role, answer in answers.items():
            assert answer == answers["spectator"], f"{label} / {role}"
        for role, token in roles.items():
            if not role.startswith("player"):
                code = refused(
                    lambda t=token: stub.GetMyGames(
                        tpb.GetMyGamesRequest(tournament_id=tid), metadata=meta(t)
                    )
                )
                assert code == grpc.StatusCode.UNAUTHENTICATED, f"{label} / {role}"
        assert refused(lambda: public(garbage, 0)) == grpc.StatusCode.UNAUTHENTICATED
        return answers["spectator"]

    tables = Table(table.game_id, seat_tokens, pb.CreateGameResponse())
    rnd = random.Random(8)
    for _ in range(3):  # no Terralore game ends in fewer than 4 placements
        play_one(grpc_server, tables, rnd)
    running = check("running", log_head(ledger))
    pairing = tpb.Round.FromString(running[2])
    assert not pairing.tables[0].finished and not pairing.tables[0].ranks
    spectator = grpc_server.call("GetGame", pb.GetGameRequest(game_id=table.game_id))
    live = grpc_server.call(
        "GetGame", pb.GetGameRequest(game_id=table.game_id), seat_tokens[0]
    )
    assert spectator.game.spectator_delay.moves == 2
    assert spectator.game.version < live.game.version
    while play_one(grpc_server, tables, rnd) is not None:
        pass
    ended = check("ended", log_head(ledger))
    pairing = tpb.Round.FromString(ended[2])
    assert pairing.tables[0].finished and list(pairing.tables[0].ranks)
