"""``ledger games show`` and ``ledger replay`` show the clocks and how a game ended."""

from __future__ import annotations

import random
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from typer.testing import CliRunner

from domain.games import find_game
from domain.ledger.clocks import ClockKind, TimeControl
from tests.support.manual_clock import ManualClock

pytestmark = pytest.mark.e2e
THALARA = find_game("thalara")
SETUP = {"players": 2, "mode": "standard", "characters": ["myrja", "canto"]}


@pytest.fixture
def timed_out_game(ledger: Any) -> str:
    """A Fischer game: two moves five seconds apart, then the seat to move runs out."""
    clock = ManualClock(datetime(2026, 6, 1, 12, 0, tzinfo=UTC))
    before, ledger.clock = ledger.clock, clock
    try:
        control = TimeControl(
            kind=ClockKind.FISCHER, base_seconds=30, increment_seconds=2
        )
        game_id = ledger.create_game("thalara", SETUP, time_control=control).game_id
        rnd = random.Random(2)
        for _ in range(2):
            clock.advance(5)
            game = ledger.load(game_id)
            seat = game.to_act()[0]
            command = THALARA.random_command(game.state, seat, rnd)
            ledger.submit(game_id, command, seat, str(uuid.uuid4()))
        clock.now += timedelta(seconds=60)
        import asyncio

        asyncio.run(ledger.claim_timeout(game_id))
    finally:
        ledger.clock = before
    return str(game_id)


def run(settings: Any, monkeypatch: pytest.MonkeyPatch, *args: str) -> str:
    from services.cli import app

    monkeypatch.setenv("LEDGER_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("LEDGER_DATA_DIR", str(settings.data_dir))
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def test_games_show_prints_how_the_game_ended_and_its_stopped_clocks(
    settings: Any, monkeypatch: pytest.MonkeyPatch, timed_out_game: str, ledger: Any
) -> None:
    out = run(settings, monkeypatch, "games", "show", timed_out_game)
    assert "ended by timed_out (timed_out): seat " in out
    assert "ran out of time" in out
    # the seed draws who starts, so which seat ran out varies from run to run
    (winner,) = ledger.load(uuid.UUID(timed_out_game)).outcome.winners
    assert f"The game is over (timed out): seat {winner + 1} wins" in out  # from 1
    clocks = next(line for line in out.splitlines() if line.startswith("clocks"))
    assert clocks.startswith("clocks (fischer): seat 1 ")  # people count from 1
    assert "0:00.0" in clocks  # the seat that ran out shows nothing left
    assert "(running)" not in clocks


def test_replay_shows_the_clocks_at_each_event_and_the_ending(
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    timed_out_game: str,
    grpc_server: Any,
) -> None:
    out = run(
        settings,
        monkeypatch,
        "replay",
        timed_out_game,
        "--target",
        f"127.0.0.1:{grpc_server.port}",
        "--token",
        grpc_server.admin_token,
    )
    lines = out.splitlines()
    ending = next(line for line in lines if "runs out of time" in line)
    assert "(timekeeper records it)" in ending
    clocked = [line for line in lines if "[clocks: seat 1 " in line]
    assert len(clocked) == len(lines)  # every event of a timed game shows them
    assert any("seat 1 0:30.0 (to move)" in line for line in clocked)
    assert "0:00.0" in lines[-1]  # the seat that ran out has nothing left


def test_games_show_names_the_seats_that_dropped_out(
    settings: Any, monkeypatch: pytest.MonkeyPatch, ledger: Any
) -> None:
    import asyncio

    setup = THALARA.example("thalara-3p").setup
    game_id = ledger.create_game("thalara", setup).game_id
    asyncio.run(ledger.resign(game_id, 2))
    out = run(settings, monkeypatch, "games", "show", str(game_id))
    assert "(active)" in out
    assert "dropped out: seat 3 (the ledger moves for it)" in out
