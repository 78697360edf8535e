"""SubmitMove's response_mask: the answer holds the fields asked for, the
move is recorded the same, and a mask that names no real field is refused."""

from __future__ import annotations

import uuid

import grpc
import pytest
from google.protobuf.field_mask_pb2 import FieldMask

from ledger.v1 import game_service_pb2 as pb
from tests.e2e.client import legal_moves, refused, thalara_in_play

pytestmark = pytest.mark.e2e


def _submit(server, table, paths, command_id=None):
    game = server.call(
        "GetGame", pb.GetGameRequest(game_id=table.game_id), table.tokens[0]
    ).game
    seat = game.to_act[0]
    request = pb.SubmitMoveRequest(
        game_id=table.game_id,
        command_id=command_id or str(uuid.uuid4()),
        move=legal_moves(server, table, seat, limit=1)[0],
        seat=seat,
    )
    if paths is not None:
        request.response_mask.CopyFrom(FieldMask(paths=paths))
    return server.call("SubmitMove", request, table.tokens[seat]), request


def test_an_acknowledgement_only_answer_skips_the_events_and_the_game(grpc_server):
    table = thalara_in_play(grpc_server)
    before = grpc_server.call(
        "GetGame", pb.GetGameRequest(game_id=table.game_id), table.tokens[0]
    ).game.version
    answer, _ = _submit(grpc_server, table, ["last_version", "receipt"])
    assert answer.last_version > before
    assert answer.receipt.version == answer.last_version
    assert answer.first_version == 0 and answer.read_token == ""
    assert not answer.events and not answer.HasField("game")
    after = grpc_server.call(
        "GetGame", pb.GetGameRequest(game_id=table.game_id), table.tokens[0]
    ).game
    assert after.version == answer.last_version  # recorded all the same


@pytest.mark.parametrize("paths", [None, [], ["*"]])
def test_no_mask_an_empty_mask_or_a_star_fill_every_field(grpc_server, paths):
    table = thalara_in_play(grpc_server)
    answer, _ = _submit(grpc_server, table, paths)
    assert answer.events and answer.HasField("game") and answer.HasField("receipt")
    assert answer.first_version and answer.read_token


def test_a_replayed_command_answers_with_the_fields_asked_for(grpc_server):
    table = thalara_in_play(grpc_server)
    first, request = _submit(grpc_server, table, None)
    request.response_mask.CopyFrom(FieldMask(paths=["replayed", "last_version"]))
    seat = request.seat
    again = grpc_server.call("SubmitMove", request, table.tokens[seat])
    assert again.replayed and again.last_version == first.last_version
    assert not again.events and not again.HasField("receipt")


def test_a_mask_naming_no_field_of_the_answer_is_refused_and_stores_nothing(
    grpc_server,
):
    table = thalara_in_play(grpc_server)
    version = grpc_server.call(
        "GetGame", pb.GetGameRequest(game_id=table.game_id), table.tokens[0]
    ).game.version
    code, message, fields = refused(
        lambda: _submit(grpc_server, table, ["last_version", "game.status", "nope"])
    )
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert fields == ["response_mask.paths[1]", "response_mask.paths[2]"]
    assert "last_version" in message  # it says which fields there are
    assert (
        grpc_server.call(
            "GetGame", pb.GetGameRequest(game_id=table.game_id), table.tokens[0]
        ).game.version
        == version
    )
