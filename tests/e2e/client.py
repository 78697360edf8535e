"""The e2e tests drive the server through the shipped rule-blind client."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

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
    "refused",
    "thalara_in_play",
]


def refused(call: Callable[[], Any]) -> tuple[grpc.StatusCode, str, list[str]]:
    """The status code, message and ``BadRequest`` field names of a call that
    must fail (a stream is drained, so its refusal is seen too)."""
    with pytest.raises(grpc.RpcError) as caught:
        answer = call()
        if hasattr(answer, "__iter__") and not hasattr(answer, "ListFields"):
            list(answer)
    status = rpc_status.from_call(caught.value)
    fields: list[str] = []
    for detail in status.details if status is not None else ():
        bad = error_details_pb2.BadRequest()
        if detail.Unpack(bad):
            fields += [v.field for v in bad.field_violations]
    return caught.value.code(), caught.value.details() or "", fields


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
