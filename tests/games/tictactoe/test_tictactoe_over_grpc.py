"""Tic-tac-toe, registered only through ``LEDGER_GAMES``, played over gRPC by a
real ``ledger serve`` process: the proof that adding a game needs its folder,
its ``.proto`` and one registry line, and no edit anywhere else.

This test process never registers the game: it talks to the server with the
game's generated messages alone, as a client in another language would.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import any_pb2, descriptor_pool
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)

from ledger.v1 import game_service_pb2 as pb
from services.api.client import Connection
from tests.games.tictactoe import tictactoe_pb2 as ttt
from tests.support.database import scratch_database
from tests.support.server import ledger_serve

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[3]
SETTING = {"LEDGER_GAMES": "tictactoe=tests.games.tictactoe"}


class Served:
    def __init__(self, target: str, env: dict[str, str]) -> None:
        self.target = target
        self.env = env
        self.conn = Connection.open(target)


@pytest.fixture(scope="module")
def served(
    server_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Served]:
    data_dir = tmp_path_factory.mktemp("tictactoe-server")
    with scratch_database(server_url, "ledger_tictactoe") as database_url:
        env = {
            **SETTING,
            "LEDGER_DATABASE_URL": database_url,
            "LEDGER_ADMIN_TOKEN": "tictactoe-admin",
            "LEDGER_DATA_DIR": str(data_dir),
            "LEDGER_POOL_SIZE": "2",
            "XDG_RUNTIME_DIR": str(data_dir),
            "PYTHONPATH": str(ROOT),
        }
        with ledger_serve(env) as process:
            served = Served(process.target, env)
            yield served
            served.conn.channel.close()


def packed(message: Any) -> any_pb2.Any:
    out = any_pb2.Any()
    out.Pack(message)
    return out


def new_game(served: Served) -> tuple[str, dict[int, str]]:
    created = served.conn.call(
        "CreateGame",
        pb.CreateGameRequest(
            game_type="tictactoe", setup=packed(ttt.TicTacToeSetup(players=2))
        ),
    )
    tokens = {seat: t.token for t in created.tokens for seat in t.seats}
    return created.game.game_id, tokens


def listed_cells(served: Served, game_id: str, seat: int, token: str) -> list[int]:
    listed = served.conn.call(
        "ListLegalMoves",
        pb.ListLegalMovesRequest(game_id=game_id, seat=seat, page_size=20),
        token,
    )
    cells = []
    for move in listed.moves:
        unpacked = ttt.Move()
        assert move.Unpack(unpacked)
        cells.append(unpacked.place.cell)
    return cells


def play(served: Served, cells: list[int]) -> tuple[str, dict[int, str]]:
    """Alternate X (seat 0) and O on ``cells``, each a move the server listed."""
    game_id, tokens = new_game(served)
    for turn, cell in enumerate(cells):
        seat = turn % 2
        assert cell in listed_cells(served, game_id, seat, tokens[seat])
        served.conn.call(
            "SubmitMove",
            pb.SubmitMoveRequest(
                game_id=game_id,
                command_id=str(uuid.uuid4()),
                move=packed(ttt.Move(place=ttt.Place(cell=cell))),
            ),
            tokens[seat],
        )
    return game_id, tokens


def get_game(served: Served, game_id: str, token: str) -> Any:
    return served.conn.call("GetGame", pb.GetGameRequest(game_id=game_id), token)


def test_three_in_a_row_wins_and_the_game_audits(served: Served):
    game_id, tokens = play(served, [0, 3, 1, 4, 2])
    got = get_game(served, game_id, tokens[1])
    assert got.game.status == "ended"
    assert list(got.game.outcome.winners) == [0]
    assert list(got.game.outcome.ranks) == [1, 2]
    view = ttt.TicTacToeView()
    assert got.view.Unpack(view)
    assert list(view.board) == [0, 0, 0, 1, 1, -1, -1, -1, -1]
    audit = subprocess.run(
        [sys.executable, "-m", "services.cli", "audit", game_id],
        env={**os.environ, **served.env, "COLUMNS": "200"},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert audit.returncode == 0, audit.stdout + audit.stderr


def test_a_full_board_without_a_line_is_a_draw(served: Served):
    game_id, tokens = play(served, [0, 1, 2, 4, 3, 5, 7, 6, 8])
    outcome = get_game(served, game_id, tokens[0]).game.outcome
    assert outcome.reason == "draw"
    assert list(outcome.ranks) == [1, 1]
    assert list(outcome.winners) == [0, 1]


def test_the_event_stream_carries_the_games_typed_events(served: Served):
    game_id, _ = play(served, [4, 0, 8])
    events = list(
        served.conn.call(
            "StreamGameEvents",
            pb.StreamGameEventsRequest(game_id=game_id, stop_at_head=True),
        )
    )
    assert [e.type for e in events] == [
        "ledger.GameCreated",
        "tictactoe.GameStarted",
        "tictactoe.MarkPlaced",
        "tictactoe.MarkPlaced",
        "tictactoe.MarkPlaced",
    ]
    marks = []
    for event in events[2:]:
        wrapper = ttt.Event()
        assert event.payload.Unpack(wrapper)
        marks.append((wrapper.mark_placed.seat, wrapper.mark_placed.cell))
    assert marks == [(0, 4), (1, 0), (0, 8)]


def test_a_taken_cell_is_refused_with_the_rule_and_nothing_is_stored(served: Served):
    game_id, tokens = play(served, [4])
    with pytest.raises(grpc.RpcError) as refused:
        served.conn.call(
            "SubmitMove",
            pb.SubmitMoveRequest(
                game_id=game_id,
                command_id=str(uuid.uuid4()),
                move=packed(ttt.Move(place=ttt.Place(cell=4))),
            ),
            tokens[1],
        )
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "tictactoe.cell-taken" in (refused.value.details() or "")
    assert get_game(served, game_id, tokens[0]).game.version == 3


def test_list_game_types_and_reflection_know_the_game(served: Served):
    types = served.conn.call("ListGameTypes", pb.ListGameTypesRequest())
    (entry,) = [t for t in types.game_types if t.name == "tictactoe"]
    assert entry.move_message == "ledger.v1.tictactoe.Move"
    assert entry.view_message == "ledger.v1.tictactoe.TicTacToeView"
    assert len(entry.content_packs[0].example_setups) == 1
    pool = descriptor_pool.DescriptorPool(
        ProtoReflectionDescriptorDatabase(served.conn.channel)
    )
    move = pool.FindMessageTypeByName("ledger.v1.tictactoe.Move")
    assert [f.name for f in move.fields] == ["place"]
    assert move.file.name == "tests/games/tictactoe/tictactoe.proto"
