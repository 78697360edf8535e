"""Whatever bytes a client sends, the answer is a clear status, never UNKNOWN.

Raw garbage, invalid UTF-8 and corrupt ``Any`` payloads reach every RPC of
every service (enumerated from the descriptors) through a raw channel, with
no client-side serializer in the way.
"""

from __future__ import annotations

import uuid
from typing import Any

import grpc
import pytest
from google.protobuf import any_pb2
from google.protobuf.message import DecodeError
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from ledger.v1 import game_service_pb2 as pb
from tests.e2e.client import create
from tests.support.rpcs import all_methods

pytestmark = pytest.mark.e2e

GARBAGE = {
    "truncated varint": b"\x08\xff\xff\xff",
    "invalid UTF-8 in field 1": b"\x0a\x02\xc3\x28",
    "wrong wire type": b"\x0d\x00",
    "length past the end": b"\x0a\x7fabc",
}


def _fails(method: Any, body: bytes) -> bool:
    """Whether ``body`` is not a ``method.request`` (protobuf keeps unknown fields)."""
    try:
        method.request.FromString(body)
    except DecodeError:
        return True
    return False


def raw_call(server: Any, path: str, streaming: bool, body: bytes) -> grpc.StatusCode:
    if streaming:
        call = server.channel.unary_stream(path)
        try:
            for _ in call(body, timeout=10):
                pass
        except grpc.RpcError as exc:
            return exc.code()
        return grpc.StatusCode.OK
    try:
        server.channel.unary_unary(path)(body, timeout=10)
    except grpc.RpcError as exc:
        return exc.code()
    return grpc.StatusCode.OK


@pytest.mark.parametrize("body", list(GARBAGE.values()), ids=list(GARBAGE))
def test_undecodable_requests_are_invalid_argument_on_every_rpc(
    grpc_server: Any, body: bytes
) -> None:
    undecodable = [
        m for m in all_methods() if not m.client_streaming and _fails(m, body)
    ]
    assert len(undecodable) >= 20
    answers = {
        m.path: raw_call(grpc_server, m.path, m.server_streaming, body)
        for m in undecodable
    }
    assert {
        path: code
        for path, code in answers.items()
        if code is not grpc.StatusCode.INVALID_ARGUMENT
    } == {}


def test_an_undecodable_request_names_the_problem_in_google_rpc_details(
    grpc_server: Any,
) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        grpc_server.channel.unary_unary("/ledger.v1.GameService/CreateGame")(
            GARBAGE["invalid UTF-8 in field 1"], timeout=10
        )
    status = rpc_status.from_call(caught.value)
    assert status is not None
    assert "DecodeError" not in status.message and "UTF-8" in status.message
    kinds = {d.type_url.rpartition("/")[2] for d in status.details}
    assert kinds == {"google.rpc.ErrorInfo", "google.rpc.BadRequest"}
    info = error_details_pb2.ErrorInfo()
    status.details[0].Unpack(info)
    assert info.reason == "MALFORMED"


def corrupt_any(type_name: str, value: bytes) -> any_pb2.Any:
    return any_pb2.Any(type_url=f"type.googleapis.com/{type_name}", value=value)


# field 2 (mode) of ThalaraSetup holding invalid UTF-8, or no message at all
@pytest.mark.parametrize("value", [b"\xff\xff\xff", b"\x12\x02\xc3\x28"])
def test_a_corrupt_setup_is_invalid_argument(grpc_server: Any, value: bytes) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        grpc_server.stub.CreateGame(
            pb.CreateGameRequest(
                game_type="thalara",
                setup=corrupt_any("ledger.v1.thalara.ThalaraSetup", value),
            ),
            timeout=10,
        )
    assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    details = caught.value.details()
    assert details is not None
    assert "could not be decoded" in details


@pytest.mark.parametrize(
    "value",
    [
        b"\xff\xff\xff",
        # SelectHand (field 1 of Move) with cards = [b"\xc3\x28"]: invalid UTF-8
        b"\x0a\x04\x0a\x02\xc3\x28",
    ],
)
def test_a_corrupt_move_is_invalid_argument(grpc_server: Any, value: bytes) -> None:
    table = create(grpc_server, "thalara", players=2, characters=["myrja", "canto"])
    with pytest.raises(grpc.RpcError) as caught:
        grpc_server.stub.SubmitMove(
            pb.SubmitMoveRequest(
                game_id=table.game_id,
                command_id=str(uuid.uuid4()),
                move=corrupt_any("ledger.v1.thalara.Move", value),
            ),
            metadata=(("authorization", f"Bearer {table.tokens[0]}"),),
            timeout=10,
        )
    assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    details = caught.value.details()
    assert details is not None
    assert "could not be decoded" in details


def paginated_requests(table: Any) -> dict[str, Any]:
    """One request per paginated RPC, valid but for the page token."""
    from ledger.v1 import read_service_pb2 as rpb

    return {
        "/ledger.v1.GameService/ListLegalMoves": pb.ListLegalMovesRequest(
            game_id=table.game_id, seat=0
        ),
        "/ledger.v1.GameService/ListGames": pb.ListGamesRequest(),
        "/ledger.v1.RatingService/GetLeaderboard": rpb.GetLeaderboardRequest(
            game_type="thalara"
        ),
        "/ledger.v1.RatingService/GetRatingHistory": rpb.GetRatingHistoryRequest(
            game_type="thalara", player_id="ann"
        ),
        "/ledger.v1.StatsService/GetPlayerHistory": rpb.GetPlayerHistoryRequest(
            player_id="ann"
        ),
        "/ledger.v1.StatsService/GetFacetStats": rpb.GetFacetStatsRequest(
            game_type="thalara", key="character"
        ),
    }


FORGED_TOKENS = {
    "offset -1": "eyJvIjogLTF9",
    "offset 2^63": "eyJvIjogOTIyMzM3MjAzNjg1NDc3NTgwOH0=",
    "not JSON": "bm90IGpzb24=",
    "a list": "WzEsIDIsIDNd",
    "bad MAC": "eyJvIjoxfQ.AAAAAAAAAAAAAAAAAAAAAA",
    "NUL": "\x00",
}


@pytest.mark.parametrize("token", list(FORGED_TOKENS.values()), ids=list(FORGED_TOKENS))
def test_forged_page_tokens_are_invalid_argument_on_every_paginated_rpc(
    grpc_server: Any, token: str
) -> None:
    table = create(grpc_server, "thalara", players=2, characters=["myrja", "canto"])
    answers = {}
    for path, request in paginated_requests(table).items():
        request.page_token = token
        call = grpc_server.channel.unary_unary(
            path, request_serializer=type(request).SerializeToString
        )
        try:
            call(
                request,
                timeout=10,
                metadata=(("authorization", "Bearer test-admin-token"),),
            )
            answers[path] = grpc.StatusCode.OK
        except grpc.RpcError as exc:
            answers[path] = exc.code()
    assert answers == dict.fromkeys(answers, grpc.StatusCode.INVALID_ARGUMENT)


@pytest.mark.parametrize(
    ("content", "code"),
    [
        ("", grpc.StatusCode.OK),
        ("sample", grpc.StatusCode.OK),
        ("../../thalara/content/sample", grpc.StatusCode.INVALID_ARGUMENT),
        ("/etc/passwd", grpc.StatusCode.INVALID_ARGUMENT),
    ],
)
def test_thorgal_content_is_a_pack_name_and_unset_means_the_default(
    grpc_server: Any, content: str, code: grpc.StatusCode
) -> None:
    from ledger.v1 import thorgal_pb2

    setup = any_pb2.Any()
    setup.Pack(thorgal_pb2.ThorgalSetup(players=2, content=content))
    try:
        created = grpc_server.stub.CreateGame(
            pb.CreateGameRequest(game_type="thorgal", setup=setup), timeout=10
        )
        answered = grpc.StatusCode.OK
        assert created.game.content
    except grpc.RpcError as exc:
        answered = exc.code()
    assert answered is code
