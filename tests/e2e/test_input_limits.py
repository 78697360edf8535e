"""Strings are bounded, NUL-free and echoed only in short excerpts."""

from __future__ import annotations

from typing import Any

import grpc
import pytest
from grpc_status import rpc_status

from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import read_service_pb2 as rpb
from ledger.v1 import tournament_service_pb2 as tpb
from services.proto import limits
from tests.e2e.client import create

pytestmark = pytest.mark.e2e
ADMIN = (("authorization", "Bearer test-admin-token"),)


def answer(server: Any, path: str, request: Any) -> tuple[grpc.StatusCode, str]:
    call = server.channel.unary_unary(
        path,
        request_serializer=type(request).SerializeToString,
        response_deserializer=lambda b: b,
    )
    try:
        call(request, timeout=10, metadata=ADMIN)
    except grpc.RpcError as exc:
        status = rpc_status.from_call(exc)
        if status:
            return exc.code(), status.message
        details = exc.details()
        assert details is not None
        return exc.code(), details
    return grpc.StatusCode.OK, ""


def nul_requests(game_id: str) -> dict[str, Any]:
    return {
        "game_type": (
            "/ledger.v1.GameService/ListGames",
            pb.ListGamesRequest(game_type="thalara\x00"),
        ),
        "player_ids": (
            "/ledger.v1.GameService/CreateGame",
            pb.CreateGameRequest(game_type="thalara", player_ids=["a\x00", "b"]),
        ),
        "player_id": (
            "/ledger.v1.StatsService/GetPlayerHistory",
            rpb.GetPlayerHistoryRequest(player_id="ann\x00"),
        ),
        "key": (
            "/ledger.v1.StatsService/GetFacetStats",
            rpb.GetFacetStatsRequest(game_type="thalara", key="character\x00"),
        ),
        "game_id": (
            "/ledger.v1.GameService/GetGame",
            pb.GetGameRequest(game_id=game_id + "\x00"),
        ),
        "name": (
            "/ledger.v1.TournamentService/CreateTournament",
            tpb.CreateTournamentRequest(
                name="cup\x00", game_type="thalara", format="swiss", rounds=1
            ),
        ),
    }


@pytest.mark.parametrize(
    "field", ["game_type", "player_ids", "player_id", "key", "game_id", "name"]
)
def test_a_nul_character_in_any_string_is_invalid_argument(
    grpc_server: Any, field: str
) -> None:
    table = create(grpc_server, "thalara", players=2, characters=["myrja", "canto"])
    path, request = nul_requests(table.game_id)[field]
    code, message = answer(grpc_server, path, request)
    assert code is grpc.StatusCode.INVALID_ARGUMENT
    assert "NUL" in message


def test_a_10_kb_game_id_is_invalid_argument_with_a_short_message(
    grpc_server: Any,
) -> None:
    code, message = answer(
        grpc_server,
        "/ledger.v1.GameService/GetGame",
        pb.GetGameRequest(game_id="x" * 10_000),
    )
    assert code is grpc.StatusCode.INVALID_ARGUMENT
    assert len(message) < 100 and "at most 64 characters" in message


def test_a_bad_game_id_is_quoted_only_in_an_excerpt(grpc_server: Any) -> None:
    code, message = answer(
        grpc_server,
        "/ledger.v1.GameService/GetGame",
        pb.GetGameRequest(game_id="y" * 60),
    )
    assert code is grpc.StatusCode.INVALID_ARGUMENT
    assert "y" * limits.EXCERPT not in message and "yyyy" in message


def test_setup_json_nested_100000_deep_is_invalid_argument(grpc_server: Any) -> None:
    for setup_json in ("[" * 100_000, "[" * 10_000, '{"a":' * 40 + "1" + "}" * 40):
        code, _ = answer(
            grpc_server,
            "/ledger.v1.TournamentService/CreateTournament",
            tpb.CreateTournamentRequest(
                name="deep",
                game_type="thalara",
                format="swiss",
                rounds=1,
                setup_json=setup_json,
            ),
        )
        assert code is grpc.StatusCode.INVALID_ARGUMENT


@pytest.mark.parametrize(
    ("path", "request_"),
    [
        (
            "/ledger.v1.RatingService/GetLeaderboard",
            rpb.GetLeaderboardRequest(game_type="chess"),
        ),
        (
            "/ledger.v1.RatingService/GetRatingHistory",
            rpb.GetRatingHistoryRequest(game_type="chess", player_id="ann"),
        ),
        (
            "/ledger.v1.StatsService/GetGameTypeStats",
            rpb.GetGameTypeStatsRequest(game_type="chess"),
        ),
        (
            "/ledger.v1.StatsService/GetFairness",
            rpb.GetFairnessRequest(game_type="chess"),
        ),
        (
            "/ledger.v1.StatsService/GetPlayerHistory",
            rpb.GetPlayerHistoryRequest(game_type="chess", player_id="ann"),
        ),
    ],
)
def test_an_unknown_game_type_is_invalid_argument_on_every_read(
    grpc_server: Any, path: str, request_: Any
) -> None:
    assert answer(grpc_server, path, request_)[0] is grpc.StatusCode.INVALID_ARGUMENT


def test_a_request_just_under_the_size_limit_arrives_whole(grpc_server: Any) -> None:
    """The server does not probe bandwidth (:mod:`services.api.transport`), so
    no probe grows its receive window: a request of almost 1 MiB still
    arrives whole and is answered on its content; one over the limit is
    refused unread."""
    request = pb.GetGameRequest()
    request.game_id = "z" * (limits.MAX_REQUEST_BYTES - 8)
    assert request.ByteSize() <= limits.MAX_REQUEST_BYTES
    code, message = answer(grpc_server, "/ledger.v1.GameService/GetGame", request)
    assert code is grpc.StatusCode.INVALID_ARGUMENT
    assert "at most 64 characters" in message
    request.game_id += "z" * 16
    code, _ = answer(grpc_server, "/ledger.v1.GameService/GetGame", request)
    assert code is grpc.StatusCode.RESOURCE_EXHAUSTED
