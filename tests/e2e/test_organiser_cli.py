"""The organiser's command line: a single game's seat tokens, and a tournament
created with a clock, a no-show window and automatic rounds, then withdrawn
from, adjudicated, replayed and finished -- each mistake one line and a
non-zero exit."""

from __future__ import annotations

import asyncio
import re
import uuid
from typing import Any

import pytest
from typer.testing import CliRunner

from ledger.v1 import game_service_pb2 as gpb

pytestmark = pytest.mark.e2e


def run(
    settings: Any, monkeypatch: pytest.MonkeyPatch, *args: str, code: int = 0
) -> str:
    from services.cli import app

    monkeypatch.setenv("LEDGER_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("LEDGER_DATA_DIR", str(settings.data_dir))
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})
    assert result.exit_code == code, result.output
    if code:
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert len(lines) == 1 and "Traceback" not in result.output, result.output
    return result.output


def test_games_create_prints_a_working_seat_token_per_player(
    settings: Any, monkeypatch: pytest.MonkeyPatch, grpc_server: Any
) -> None:
    target = f"127.0.0.1:{grpc_server.port}"
    out = run(
        settings, monkeypatch, "games", "create", "thalara",
        "--player", "ann", "--player", "bob", "--clock", "fischer:300+2",
        "--no-show", "60", "--plain", "--target", target,
    )  # fmt: skip
    game_id, *lines = out.splitlines()
    tokens = dict(line.split() for line in lines)
    assert set(tokens) == {"ann", "bob"}
    listed = grpc_server.call("ListGames", gpb.ListGamesRequest(page_size=5))
    game = listed.games[0]
    assert game.game_id == game_id
    seen = grpc_server.call(
        "GetGame", gpb.GetGameRequest(game_id=game.game_id), tokens["bob"]
    ).game
    assert list(seen.your_seats) == [1] and list(seen.player_ids) == ["ann", "bob"]
    assert (
        seen.time_control.kind == "fischer" and seen.time_control.no_show_seconds == 60
    )

    for args in (
        ["--player", "ann", "--clock", "fischer:300"],  # no increment
        ["--player", "ann", "--player", "ann"],  # the same player twice
        ["--player", "ann"],  # too few for thalara
        ["--player", "ann", "--player", "bob", "--no-show", "30"],  # no clock
        ["--player", "ann", "--player", "bob", "--setup", "[1]"],
    ):
        run(settings, monkeypatch, "games", "create", "thalara", *args,
            "--target", target, code=2)  # fmt: skip


def test_a_tournament_from_the_command_line(
    settings: Any, monkeypatch: pytest.MonkeyPatch, grpc_server: Any, ledger: Any
) -> None:
    target = ("--target", f"127.0.0.1:{grpc_server.port}")
    admin = ("--token", grpc_server.admin_token)
    out = run(
        settings, monkeypatch, "tournament", "create", "club night",
        "--game", "terralore", "--format", "swiss", "--rounds", "2",
        "--clock", "fischer:600+5", "--no-show", "120", "--round-gap", "3600",
        *admin, *target,
    )  # fmt: skip
    tid = re.search(r"created tournament (\S+)", out).group(1)  # type: ignore[union-attr]
    assert "clock: fischer:600+5, no-show 120s" in out
    assert "start 3600s after the previous one ends" in out
    run(settings, monkeypatch, "tournament", "register", tid, "ann", "bob", "cat",
        "dan", "eve", *admin, *target)  # fmt: skip
    out = run(
        settings, monkeypatch, "tournament", "withdraw", tid, "eve", *admin, *target
    )
    assert "eve withdrew" in out
    out = run(settings, monkeypatch, "tournament", "start", tid, *admin, *target)
    games = re.findall(r"[0-9a-f]{8}-[0-9a-f-]{27}", out)
    assert len(games) == 2
    first, second = games
    assert ledger.load(uuid.UUID(first)).time_control["increment_seconds"] == 5

    # mistakes: one line each, nothing recorded
    run(settings, monkeypatch, "tournament", "adjudicate", first, "--ranks", "1,x",
        "--reason", "r", *admin, *target, code=2)  # fmt: skip
    run(settings, monkeypatch, "tournament", "adjudicate", first, "--ranks", "2,2",
        "--reason", "r", *admin, *target, code=1)  # fmt: skip
    run(settings, monkeypatch, "tournament", "finish", tid, *admin, *target, code=1)
    run(settings, monkeypatch, "tournament", "replay", tid, second, *admin, *target,
        code=1)  # fmt: skip
    run(settings, monkeypatch, "tournament", "withdraw", "not-an-id", "ann", code=2)
    run(settings, monkeypatch, "tournament", "create", "x", "--game", "terralore",
        "--clock", "sundial:3", *admin, *target, code=2)  # fmt: skip
    assert ledger.load(uuid.UUID(first)).outcome is None

    out = run(settings, monkeypatch, "tournament", "adjudicate", first, "--ranks",
              "1,2", "--reason", "illegal help", *admin, *target)  # fmt: skip
    assert f"game {first} adjudicated: ranks 1, 2" in out
    asyncio.run(ledger.abort(uuid.UUID(second), "admin", "wrong board"))
    out = run(
        settings, monkeypatch, "tournament", "replay", tid, second, *admin, *target
    )
    replayed = re.search(rf"{second} is replayed as (\S+)", out)
    assert replayed is not None and replayed.group(1) != second
    out = run(settings, monkeypatch, "tournament", "show", tid, *target)
    assert "automatic rounds: 3600s after each round" in out
    assert "eve (withdrawn)" in out
