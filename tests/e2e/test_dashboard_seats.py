"""Seats as people read them: a player's name, else "seat N" counted from 1.

The API counts seats from 0 (``winners: [1]`` is the second seat); a page
must never print that number as if it were a person's seat, nor pair a seat
with the wrong player.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from ledger.v1 import game_service_pb2 as pb
from services.api.client import play_to_end
from tests.e2e.client import create

pytestmark = pytest.mark.e2e


def test_the_game_page_names_the_winner_the_api_numbers_from_0(
    grpc_server: Any, dashboard_url: str
) -> None:
    for seed in range(20):
        table = create(grpc_server, "terralore", players=2, player_ids=("rita", "sam"))
        play_to_end(grpc_server, table, seed=seed)
        game = grpc_server.call(
            "GetGame", pb.GetGameRequest(game_id=table.game_id)
        ).game
        if list(game.outcome.winners) == [1]:
            break
    else:
        pytest.fail("sam (seat 1 in the API) never won in 20 games")
    html = httpx.get(f"{dashboard_url}/games/{table.game_id}").text
    outcome = next(line for line in html.splitlines() if "Outcome:" in line)
    assert "winner: sam" in outcome
    assert "seat" not in outcome  # neither the API's "1" nor a 1-based "seat 2"
