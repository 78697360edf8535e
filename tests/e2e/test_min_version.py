"""Reads with ``min_version``: read-your-writes across servers, and nothing revealed by it.

A second ledger process on the same database stands for "another server"
whose NOTIFY has not arrived: its memory vouches for the version before the
move, so a plain read is stale and a read with ``min_version`` is not.
Over gRPC, a version not reached fails with DEADLINE_EXCEEDED, and a
delayed spectator cannot tell a version recorded but hidden from one not
recorded at all.
"""

from __future__ import annotations

import asyncio
import random
import uuid

import grpc
import pytest

from domain.games import find_game
from ledger.v1 import game_service_pb2 as pb
from services.api.client import Table, play_one
from services.ledger.application import GameLedger
from services.proto import convert

pytestmark = pytest.mark.e2e
SETUP = {"players": 2, "characters": ["myrja", "canto"]}


def test_another_process_reads_the_store_for_a_version_its_memory_has_not_seen(
    own_ledger,
):
    other = GameLedger(dict(own_ledger.env_for_peers))
    try:
        other.heads.listening()  # connected, but the move's NOTIFY has not arrived
        game_id = own_ledger.create_game("thalara", SETUP).game_id
        before = asyncio.run(other.game(game_id)).version  # held, vouched for
        game = own_ledger.load(game_id)
        rnd = random.Random(3)
        seat = rnd.choice(game.to_act())
        command = find_game("thalara").random_command(game.state, seat, rnd)
        moved = own_ledger.submit(game_id, command, seat, str(uuid.uuid4()))
        assert moved.last_version > before
        assert asyncio.run(other.game(game_id)).version == before  # the stale read
        fresh = asyncio.run(other.game_at_least(game_id, moved.last_version))
        assert fresh.version == moved.last_version
        # and memory now holds the newer one
        assert asyncio.run(other.game(game_id)).version == moved.last_version
    finally:
        other.close()


def _delayed(server, moves: int) -> Table:
    ruleset = find_game("thalara")
    response = server.call(
        "CreateGame",
        pb.CreateGameRequest(
            game_type="thalara",
            setup=convert.model_to_any(ruleset, ruleset.setup_model(**SETUP)),
            spectator_delay=pb.SpectatorDelay(moves=moves),
        ),
    )
    tokens = {seat: t.token for t in response.tokens for seat in t.seats}
    return Table(response.game.game_id, tokens, response)


def _refused(server, method: str, request, token=None) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        answer = server.call(method, request, token, timeout=1.5)
        if method == "StreamGameEvents":
            list(answer)
    return caught.value


def test_min_version_waits_for_what_the_caller_may_see_and_reveals_nothing(
    grpc_server,
):
    table = _delayed(grpc_server, moves=2)
    seat_token = table.tokens[min(table.tokens)]
    rnd = random.Random(11)
    for _ in range(4):
        assert play_one(grpc_server, table, rnd) is not None
    head = grpc_server.call(
        "GetGame", pb.GetGameRequest(game_id=table.game_id), seat_token
    ).game.version
    seen = grpc_server.call("GetGame", pb.GetGameRequest(game_id=table.game_id)).game
    assert seen.version < head  # the spectator is held back

    # a player: its own version at once, a future one fails in time
    for method, request in [
        ("GetGame", pb.GetGameRequest(game_id=table.game_id, min_version=head)),
        (
            "ListLegalMoves",
            pb.ListLegalMovesRequest(game_id=table.game_id, min_version=head),
        ),
    ]:
        answer = grpc_server.call(method, request, table.tokens[0])
        version = answer.game.version if method == "GetGame" else answer.version
        assert version == head
    late = _refused(
        grpc_server,
        "GetGame",
        pb.GetGameRequest(game_id=table.game_id, min_version=head + 1),
        seat_token,
    )
    assert late.code() == grpc.StatusCode.DEADLINE_EXCEEDED

    # the spectator: what it may see answers; recorded-but-hidden and
    # not-recorded fail alike, for every read that takes min_version
    shown = grpc_server.call(
        "GetGame", pb.GetGameRequest(game_id=table.game_id, min_version=seen.version)
    ).game
    assert shown.version == seen.version
    for method, request_for in [
        ("GetGame", lambda v: pb.GetGameRequest(game_id=table.game_id, min_version=v)),
        (
            "StreamGameEvents",
            lambda v: pb.StreamGameEventsRequest(
                game_id=table.game_id, stop_at_head=True, min_version=v
            ),
        ),
        (
            "ListLegalMoves",
            lambda v: pb.ListLegalMovesRequest(game_id=table.game_id, min_version=v),
        ),
    ]:
        hidden = _refused(grpc_server, method, request_for(head))
        absent = _refused(grpc_server, method, request_for(head + 40))
        assert hidden.code() == absent.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        assert hidden.details().replace(str(head), "N") == absent.details().replace(
            str(head + 40), "N"
        )

    bad = _refused(
        grpc_server, "GetGame", pb.GetGameRequest(game_id=table.game_id, min_version=-1)
    )
    assert bad.code() == grpc.StatusCode.INVALID_ARGUMENT
