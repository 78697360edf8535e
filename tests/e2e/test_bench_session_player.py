"""The bench's session client plays the scenario-1 mix to the end over seat sessions.

What the bench's "over sessions" rows stand on: every game of the mix is
played by one message per move and its answer, the server pushing each
seat's legal moves, until every session ends with the game.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest

from bench import loadgen
from bench.session_player import SessionPlayer
from bench.setups import game_mix
from services.ledger.audit import audit_game
from tests.support.server import serve_in_process

pytestmark = pytest.mark.e2e


def test_every_game_of_the_mix_is_played_to_its_end_over_sessions(
    settings: Any, ledger: Any
) -> None:
    mix = game_mix()
    with serve_in_process(settings, ledger) as server:
        target = f"127.0.0.1:{server.port}"

        async def play_each() -> tuple[loadgen.Recorder, dict[str, int]]:
            rec = loadgen.Recorder()
            player = SessionPlayer(target, mix, 0, rec)
            games = {}
            try:
                for _ in mix:
                    table = await player.create()
                    assert table is not None
                    await player.play(table, deadline=float("inf"))
                    games[table.game_id] = table.moves
            finally:
                await player.close()
            return rec, games

        rec, games = asyncio.run(play_each())
    assert rec.games_finished == len(mix), rec.errors
    assert not rec.errors, rec.errors
    # each move the server recorded was timed once, and nothing else was
    assert len(rec.submit) == sum(games.values())
    for game_id, moves in games.items():
        game = ledger.load(uuid.UUID(game_id))
        assert game.is_over
        assert len(ledger.command_rows(uuid.UUID(game_id))) == moves
        report = audit_game(ledger, uuid.UUID(game_id))
        assert report.ok, report.failures
