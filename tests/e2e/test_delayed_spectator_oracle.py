"""A delayed spectator learns nothing of a hidden move's timing from its own answers.

The attack: a caller watches a game whose spectators are three moves behind,
and after each move of that game (which it cannot see yet) it makes one
move in a game of its own, and at last resigns it.  Every answer it gets
(its moves', its ending's, its reads of the watched game) is recorded as
the differences it could compute: positions less its own events, the
read token's shape (the version it is shown of the watched game moves
three moves late, as the delay allows, and is left out).  The
same caller is run against a watched game where nobody moves: what it
records must be the same, move for move.

And the read token it gets instead still reads its own writes: the
ratings include its game once it passes the token, another caller's token
is refused, and no two tokens are alike.
"""

from __future__ import annotations

import random
import uuid
from typing import Any

import grpc
import pytest

from domain.games import find_game
from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import read_service_pb2 as rpb
from ledger.v1 import read_service_pb2_grpc as rpc
from services.api.client import Table, create, play_one
from services.proto import convert
from tests.support.database import ledger_for

pytestmark = pytest.mark.e2e

HIDDEN = 8
"""Moves of the watched game the spectator cannot see yet (or would not)."""


@pytest.fixture(scope="module")
def settings(quiet_settings):
    """A database of this module's own: no other test's moves in the log."""
    return quiet_settings


@pytest.fixture(scope="module")
def ledger(settings):
    with ledger_for(settings) as app:
        yield app


def watched(server: Any) -> Table:
    ruleset = find_game("thalara")
    setup = ruleset.setup_model.model_validate(
        {"players": 2, "characters": ["myrja", "canto"]}
    )
    response = server.call(
        "CreateGame",
        pb.CreateGameRequest(
            game_type="thalara",
            setup=convert.model_to_any(ruleset, setup),
            spectator_delay=pb.SpectatorDelay(moves=3),
        ),
    )
    tokens = {seat: t.token for t in response.tokens for seat in t.seats}
    return Table(response.game.game_id, tokens, response)


def observe(server: Any, hidden_moves: bool) -> list[tuple[Any, ...]]:
    """What the attacker can compute, after each move of the watched game."""
    target = watched(server)
    rnd = random.Random(5)
    for _ in range(4):  # moves the spectator has seen by the time it starts
        play_one(server, target, rnd)
    own = create(server, "thalara", players=2, characters=["myrja", "canto"])
    own_rnd = random.Random(9)
    seen: list[tuple[Any, ...]] = []
    last = 0
    for _ in range(HIDDEN):
        if hidden_moves:
            assert play_one(server, target, rnd) is not None
        mine = play_one(server, own, own_rnd)
        assert mine is not None
        seen.append(
            (
                "move",
                mine.log_position - last - len(mine.events) if last else 0,
                len(mine.read_token),
            )
        )
        last = mine.log_position
    seat = min(own.tokens)
    ended = server.call(
        "Resign", pb.ResignRequest(game_id=own.game_id, seat=seat), own.tokens[seat]
    )
    seen.append(
        ("ended", ended.log_position - last - len(ended.events), len(ended.read_token))
    )
    shown = server.call("GetGame", pb.GetGameRequest(game_id=target.game_id)).game
    real = server.call(
        "GetGame", pb.GetGameRequest(game_id=target.game_id), target.tokens[0]
    ).game
    if hidden_moves:  # the spectator is held back: the last moves are hidden
        assert shown.version < real.version
    return seen


def test_a_delayed_spectator_sees_no_difference_between_hidden_moves_and_none(
    grpc_server,
):
    with_hidden = observe(grpc_server, hidden_moves=True)
    without = observe(grpc_server, hidden_moves=False)
    assert with_hidden == without
    assert all(seen[2] > 0 for seen in with_hidden), "no read token was answered"


def rated(server: Any) -> tuple[Table, Any, str]:
    """A rated game of two new players, ended by a resignation: (its table,
    the ending's answer, the first player's id)."""
    players = (f"oracle-{uuid.uuid4().hex[:8]}", f"oracle-{uuid.uuid4().hex[:8]}")
    table = create(server, "terralore", players=2, player_ids=players)
    play_one(server, table, random.Random(1))
    ended = server.call(
        "Resign", pb.ResignRequest(game_id=table.game_id, seat=0), table.tokens[0]
    )
    return table, ended, players[0]


def test_the_read_token_reads_the_callers_own_write_and_no_one_elses(grpc_server):
    ratings = rpc.RatingServiceStub(grpc_server.channel)
    table, ended, player = rated(grpc_server)
    assert ended.log_position == 0, "a player was told the global position"
    assert ended.read_token
    history = ratings.GetRatingHistory(
        rpb.GetRatingHistoryRequest(
            game_type="terralore", player_id=player, min_read_token=ended.read_token
        ),
        metadata=(("authorization", f"Bearer {table.tokens[0]}"),),
        timeout=30,
    )
    assert [c.game_id for c in history.changes] == [table.game_id]
    assert history.changes[0].log_position == 0

    # another caller (the other seat, a spectator) cannot use it
    for metadata in ((("authorization", f"Bearer {table.tokens[1]}"),), None):
        with pytest.raises(grpc.RpcError) as refused:
            ratings.GetLeaderboard(
                rpb.GetLeaderboardRequest(
                    game_type="terralore", min_read_token=ended.read_token
                ),
                metadata=metadata,
                timeout=30,
            )
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "min_read_token" in (refused.value.details() or "")

    # tokens are never alike, and their length says nothing
    tokens = {rated(grpc_server)[1].read_token for _ in range(3)}
    assert len(tokens) == 3
    assert len({len(t) for t in tokens}) == 1


def test_the_admin_still_gets_the_global_position(grpc_server):
    table = create(grpc_server, "terralore", players=2)
    ended = grpc_server.call(
        "Adjudicate",
        pb.AdjudicateRequest(game_id=table.game_id, ranks=[1, 2], reason="a ruling"),
        grpc_server.admin_token,
    )
    assert ended.log_position > 0
    assert ended.read_token
