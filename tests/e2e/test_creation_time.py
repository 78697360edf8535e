"""A game has one creation time: ``GetGame`` and ``ListGames`` agree on it."""

from __future__ import annotations

import pytest

from ledger.v1 import game_service_pb2 as pb
from services.api.client import create

pytestmark = pytest.mark.e2e


def test_get_game_and_list_games_show_the_same_creation_time(grpc_server):
    tables = [create(grpc_server, "terralore", players=2) for _ in range(3)]
    listed = {
        g.game_id: g.created_at
        for g in grpc_server.call(
            "ListGames", pb.ListGamesRequest(page_size=500), grpc_server.admin_token
        ).games
    }
    for table in tables:
        got = grpc_server.call(
            "GetGame", pb.GetGameRequest(game_id=table.game_id), grpc_server.admin_token
        ).game
        assert got.created_at == listed[table.game_id], table.game_id
