"""``ledger games resign|abort|claim-timeout`` against a running server.

Each command makes the same call any client makes; a refusal is one line
and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from ledger.v1 import game_service_pb2 as pb
from services.api.client import create

pytestmark = pytest.mark.e2e


def cli(server, *args: str):
    from services.cli import app

    return CliRunner().invoke(
        app, [*args, "--target", f"127.0.0.1:{server.port}"], terminal_width=300
    )


def thalara(server):
    return create(server, "thalara", players=2, characters=["myrja", "canto"])


def outcome_of(server, game_id: str) -> pb.Outcome:
    got = server.call("GetGame", pb.GetGameRequest(game_id=game_id), server.admin_token)
    return got.game.outcome


def test_resign_ends_the_game_for_the_token_holders_seat(grpc_server) -> None:
    table = thalara(grpc_server)
    got = cli(grpc_server, "games", "resign", table.game_id, "--token", table.tokens[1])
    assert got.exit_code == 0, got.output
    assert got.output.strip() == (
        f"game {table.game_id} ended: resigned; winners: seat 1"
    )
    assert list(outcome_of(grpc_server, table.game_id).winners) == [0]


def test_abort_by_a_seat_before_any_move(grpc_server) -> None:
    table = thalara(grpc_server)
    got = cli(
        grpc_server,
        "games",
        "abort",
        table.game_id,
        "--token",
        table.tokens[0],
        "--reason",
        "wrong opponent",
    )
    assert got.exit_code == 0, got.output
    assert "ended: aborted (wrong opponent); winners: none" in got.output
    assert outcome_of(grpc_server, table.game_id).termination == "aborted"


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (("resign", "not-a-uuid", "--token", "x"), "is not a game id"),
        (("resign", "{game}"), "resign needs your seat token"),
        (("resign", "{game}", "--token", "forged"), "UNAUTHENTICATED"),
        (("claim-timeout", "{game}"), "clock.running"),
    ],
)
def test_a_mistake_is_one_line_and_a_non_zero_exit(grpc_server, args, line) -> None:
    table = thalara(grpc_server)
    got = cli(grpc_server, "games", *(a.format(game=table.game_id) for a in args))
    assert got.exit_code != 0
    assert line in got.output
    assert len(got.output.strip().splitlines()) == 1, got.output
    assert "Traceback" not in got.output
