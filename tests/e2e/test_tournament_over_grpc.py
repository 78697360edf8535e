"""A full 4-player Thalara round robin over gRPC: pairings, games, results, standings."""

from __future__ import annotations

import random
import threading
import uuid
from itertools import combinations

import grpc
import pytest

from domain.tournament.standings import GameResult, compute_standings
from ledger.v1 import game_service_pb2 as gpb
from ledger.v1 import tournament_service_pb2 as pb
from ledger.v1 import tournament_service_pb2_grpc as rpc
from services.api.client import Table, play_one
from tests.e2e.leak_probe import log_head

pytestmark = pytest.mark.e2e


def auth(token):
    return (("authorization", f"Bearer {token}"),) if token else None


def test_a_four_player_thalara_round_robin_produces_correct_standings(
    grpc_server, ledger
):
    stub = rpc.TournamentServiceStub(grpc_server.channel)
    created = stub.CreateTournament(
        pb.CreateTournamentRequest(
            name="club night",
            game_type="thalara",
            format="round_robin",
            rounds=0,
            table_size=2,
            setup_json='{"mode": "standard", "characters": ["myrja", "canto"]}',
        ),
        metadata=auth(grpc_server.admin_token),
    )
    tid, organiser = created.tournament.tournament_id, created.organiser_token
    players = [f"{uuid.uuid4().hex[:5]}-{n}" for n in ("ann", "bob", "cyd", "dee")]
    tokens = {}
    for p in players:
        tokens[p] = stub.RegisterPlayer(
            pb.RegisterPlayerRequest(tournament_id=tid, player_id=p),
            metadata=auth(organiser),
        ).player_token
    with pytest.raises(grpc.RpcError) as denied:
        stub.RegisterPlayer(
            pb.RegisterPlayerRequest(tournament_id=tid, player_id="mallory"),
            metadata=auth(tokens[players[0]]),
        )
    assert denied.value.code() == grpc.StatusCode.PERMISSION_DENIED
    with pytest.raises(grpc.RpcError) as anonymous:
        stub.StartRound(pb.StartRoundRequest(tournament_id=tid))
    assert anonymous.value.code() == grpc.StatusCode.UNAUTHENTICATED

    updates: list[pb.Standings] = []
    watcher = threading.Thread(
        target=lambda: updates.extend(
            stub.StreamStandings(pb.GetStandingsRequest(tournament_id=tid), timeout=300)
        )
    )
    watcher.start()

    results, met = [], []
    for number in (1, 2, 3):
        round_ = stub.StartRound(
            pb.StartRoundRequest(tournament_id=tid), metadata=auth(organiser)
        )
        assert round_.round == number and len(round_.tables) == 2 and not round_.byes
        last_position = 0
        for table in round_.tables:
            met.append(frozenset(table.players))
            seat_tokens = {}
            for seat, player in enumerate(table.players):
                mine = stub.GetMyGames(
                    pb.GetMyGamesRequest(tournament_id=tid),
                    metadata=auth(tokens[player]),
                )
                (game,) = [g for g in mine.games if g.game_id == table.game_id]
                assert list(game.seats) == [seat]
                seat_tokens[seat] = game.seat_token
            game_table, rnd = (
                Table(table.game_id, seat_tokens, None),
                random.Random(number),
            )
            while play_one(grpc_server, game_table, rnd) is not None:
                last_position = log_head(ledger)
            assert last_position > 0
            outcome = grpc_server.call(
                "GetGame", gpb.GetGameRequest(game_id=table.game_id)
            ).game
            results.append(
                GameResult(
                    players=tuple(table.players), ranks=tuple(outcome.outcome.ranks)
                )
            )
        standings = stub.GetStandings(
            pb.GetStandingsRequest(tournament_id=tid, min_log_position=last_position),
            timeout=30,
        )
        assert standings.round == number
    assert set(met) == {frozenset(pair) for pair in combinations(players, 2)}

    final = stub.GetStandings(pb.GetStandingsRequest(tournament_id=tid))
    assert final.status == "finished"
    expected = compute_standings(tuple(players), tuple(results))
    assert [
        (r.player_id, r.rank, r.points, r.buchholz, r.wins, r.draws, r.losses)
        for r in final.rows
    ] == [
        (r.player_id, r.rank, r.points, r.buchholz, r.wins, r.draws, r.losses)
        for r in expected
    ]
    assert list(final.tie_breaks)[:2] == ["points", "buchholz"]
    watcher.join(30)
    assert not watcher.is_alive() and updates[-1].status == "finished"
    with pytest.raises(grpc.RpcError) as over:
        stub.StartRound(
            pb.StartRoundRequest(tournament_id=tid), metadata=auth(organiser)
        )
    assert over.value.code() == grpc.StatusCode.FAILED_PRECONDITION
