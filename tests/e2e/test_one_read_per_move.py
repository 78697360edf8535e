"""``SubmitMove`` reads its game once: the servicer's copy, loaded for the seat
check and the command's type, is the one the move is decided on.

Why it matters: when memory cannot vouch for the game, each read is a round
trip to the store, and a second one per move is pure cost on the write path.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from ledger.v1 import game_service_pb2 as pb
from tests.e2e.client import legal_moves, thalara_in_play

pytestmark = pytest.mark.e2e


def _count_games_handed_out(ledger: Any, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The cache's getters that handed out a game, in order."""
    handed: list[str] = []
    for name in ("vouched", "load", "refresh"):
        real = getattr(ledger.cache, name)

        def spy(*args: Any, _real: Any = real, _name: str = name) -> Any:
            game = _real(*args)
            if game is not None:
                handed.append(_name)
            return game

        monkeypatch.setattr(ledger.cache, name, spy)
    return handed


@pytest.mark.parametrize("memory_vouches", [True, False])
def test_a_move_reads_its_game_once(grpc_server, ledger, monkeypatch, memory_vouches):
    table = thalara_in_play(grpc_server)
    head = grpc_server.call(
        "GetGame", pb.GetGameRequest(game_id=table.game_id), table.tokens[0]
    ).game
    seat = head.to_act[0]
    move = legal_moves(grpc_server, table, seat, limit=1)[0]
    if not memory_vouches:
        ledger.cache.doubt(uuid.UUID(table.game_id))  # the next read goes to the store
    handed = _count_games_handed_out(ledger, monkeypatch)
    answer = grpc_server.call(
        "SubmitMove",
        pb.SubmitMoveRequest(
            game_id=table.game_id, command_id=str(uuid.uuid4()), move=move, seat=seat
        ),
        table.tokens[seat],
    )
    assert answer.last_version > head.version
    assert handed == ["vouched" if memory_vouches else "load"]
