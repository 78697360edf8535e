"""Seats dropping out of three-player games through PostgreSQL and the timekeeper.

The ledger runs on the test's clock (``GameLedger.clock``), moved by hand, so
nothing waits for real seconds and no assertion is about timing.
"""

from __future__ import annotations

import asyncio
import random
import uuid

import pytest

from domain.contract.core import Termination
from domain.games import find_game
from domain.ledger.clocks import ClockKind, TimeControl
from services.ledger.audit import audit_game
from services.ledger.timekeeper import Timekeeper
from tests.support.manual_clock import ManualClock

pytestmark = pytest.mark.postgres
THALARA = find_game("thalara")
SETUP_3P = THALARA.example("thalara-3p").setup
PER_MOVE = TimeControl(kind=ClockKind.PER_MOVE, per_move_seconds=10)


def _ledger(settings, clock: ManualClock):
    from services.runtime.bootstrap import build_ledger

    app = build_ledger(settings)
    app.clock = clock
    return app


def _records(app, game_id, type_: str) -> int:
    return sum(1 for _, t, _ in app.read_records(game_id) if t == type_)


def _move(app, game_id, rnd, clock: ManualClock) -> None:
    clock.advance(1)
    game = app.load(game_id)
    seat = game.to_act()[0]
    assert seat not in game.dropped  # the ledger never waits on a dropped seat
    command = game.ruleset.random_command(game.state, seat, rnd)
    app.submit(game_id, command, seat, str(uuid.uuid4()))


def _audit_ok(app, game_id) -> None:
    report = audit_game(app, game_id)
    assert report.ok, report.failures


def test_a_seat_resigns_and_the_other_two_finish_the_game(settings) -> None:
    clock = ManualClock()
    app = _ledger(settings, clock)
    try:
        game_id = app.create_game("thalara", SETUP_3P, time_control=PER_MOVE).game_id
        rnd = random.Random(21)
        for _ in range(3):
            _move(app, game_id, rnd, clock)
        leaver = next(s for s in range(3) if s not in app.load(game_id).to_act())
        asyncio.run(app.resign(game_id, leaver))
        row = app.game_row(game_id)
        assert row["status"] == "active" and row["next_deadline"] is not None
        assert _records(app, game_id, "ledger.SeatResigned") == 1
        while not app.load(game_id).is_over:
            _move(app, game_id, rnd, clock)
        game = app.load(game_id)
        assert game.outcome is not None
        assert game.outcome.termination is Termination.COMPLETED
        assert game.outcome.ranks[leaver] == 3
        assert leaver not in game.outcome.winners and game.outcome.winners
        assert app.game_row(game_id)["status"] == "ended"
        _audit_ok(app, game_id)
    finally:
        app.close()


@pytest.mark.parametrize("game_type", ["thalara", "vaalbara"])
def test_the_timekeeper_drops_a_seat_out_and_the_game_plays_on_to_a_winner(
    settings, game_type: str
) -> None:
    clock = ManualClock()
    app = _ledger(settings, clock)
    keeper = Timekeeper(app)
    setup = find_game(game_type).example(f"{game_type}-3p").setup
    try:
        game_id = app.create_game(game_type, setup, time_control=PER_MOVE).game_id
        rnd = random.Random(22)
        for _ in range(4):
            _move(app, game_id, rnd, clock)
        first = app.load(game_id).next_deadline()
        assert first is not None
        clock.advance(30)
        asyncio.run(keeper.sweep())
        assert _records(app, game_id, "ledger.SeatTimedOut") == 1
        game = app.load(game_id)
        assert not game.is_over and game.dropped == (first[0],)
        row = app.game_row(game_id)
        assert row["status"] == "active" and row["next_deadline"] is not None
        assert game_id not in app.due_games(1000)  # the new deadline lies ahead
        for _ in range(4):
            _move(app, game_id, rnd, clock)
        second = app.load(game_id).next_deadline()
        assert second is not None and second[0] != first[0]
        clock.advance(30)
        asyncio.run(keeper.sweep())
        assert _records(app, game_id, "ledger.SeatTimedOut") == 2
        game = app.load(game_id)
        assert game.outcome is not None
        (last,) = {0, 1, 2} - {first[0], second[0]}
        assert game.outcome.termination is Termination.TIMED_OUT
        assert game.outcome.winners == (last,)
        assert game.outcome.ranks[second[0]] == 2 and game.outcome.ranks[first[0]] == 3
        row = app.game_row(game_id)
        assert row["status"] == "ended" and row["next_deadline"] is None
        assert list(row["winners"]) == [last]
        _audit_ok(app, game_id)
    finally:
        app.close()
