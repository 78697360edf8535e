"""The e2e tests drive the server through the shipped rule-blind client."""

from __future__ import annotations

import uuid
from typing import Any

from domain.games import find_game
from ledger.v1 import game_service_pb2 as pb
from services.api.client import Table, create, legal_moves, play_one, play_to_end
from services.proto import convert

__all__ = [
    "Table",
    "create",
    "legal_moves",
    "play_one",
    "play_to_end",
    "thalara_in_play",
]


def thalara_in_play(server: Any) -> Table:
    """A 2p standard Thalara game past the secret hand selection (both seats
    chose the first listed hand), checked through the admin's view."""
    table = create(server, "thalara", players=2, characters=["myrja", "canto"])
    for seat in (0, 1):
        selection = legal_moves(server, table, seat, limit=1)[0]
        server.call(
            "SubmitMove",
            pb.SubmitMoveRequest(
                game_id=table.game_id, command_id=str(uuid.uuid4()), move=selection
            ),
            table.tokens[seat],
        )
    thalara = find_game("thalara")
    response = server.call(
        "GetGame", pb.GetGameRequest(game_id=table.game_id), server.admin_token
    )
    assert (
        convert.model_from_any(thalara, response.view, thalara.view_model).phase
        == "play"
    )
    return table
