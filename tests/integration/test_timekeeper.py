"""Timeouts through PostgreSQL: exactly once, never beside a move, after restarts.

Every ledger here runs on the test's clock (``GameLedger.clock``), moved by
hand, so nothing waits for real seconds and no assertion is about timing.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from datetime import UTC, datetime, timedelta

import pytest

from domain.contract.core import RuleError, Termination
from domain.contract.endings import ClockFlaggedError
from domain.games import find_game
from domain.ledger.clocks import ClockKind, TimeControl
from services.ledger.audit import audit_game
from services.ledger.timekeeper import Timekeeper
from tests.support.manual_clock import ManualClock

pytestmark = pytest.mark.postgres
THALARA = find_game("thalara")
SETUP = {"players": 2, "mode": "standard", "characters": ["myrja", "canto"]}
PER_MOVE = TimeControl(kind=ClockKind.PER_MOVE, per_move_seconds=10)


def _ledgers(settings, count: int, clock: ManualClock):
    from services.runtime.bootstrap import build_ledger

    apps = [build_ledger(settings) for _ in range(count)]
    for app in apps:
        app.clock = clock
    return apps


def _timeouts(ledger, game_id) -> list[str]:
    return [t for _, t, _ in ledger.read_records(game_id) if t == "ledger.SeatTimedOut"]


def _audit_ok(ledger, game_id) -> None:
    """``ledger audit``'s checks: the log, the listing row, the idempotency
    rows and every receipt."""
    report = audit_game(ledger, game_id)
    assert report.ok, report.failures


def _one_move(ledger, game_id, rnd) -> None:
    game = ledger.load(game_id)
    seat = game.to_act()[0]
    command = THALARA.random_command(game.state, seat, rnd)
    ledger.submit(game_id, command, seat, str(uuid.uuid4()))


def test_three_timekeepers_record_exactly_one_timeout_per_game(settings) -> None:
    clock = ManualClock()
    apps = _ledgers(settings, 3, clock)
    try:
        games = [
            apps[0].create_game("thalara", SETUP, time_control=PER_MOVE).game_id
            for _ in range(6)
        ]
        rnd = random.Random(1)
        for game_id in games:
            clock.advance(1)
            _one_move(apps[0], game_id, rnd)
        clock.advance(30)
        keepers = [Timekeeper(app) for app in apps]

        async def all_at_once() -> list[int]:
            return list(await asyncio.gather(*(k.sweep() for k in keepers)))

        recorded = asyncio.run(all_at_once())
        assert sum(recorded) >= len(games)  # other tests' games may be due too
        for game_id in games:
            assert len(_timeouts(apps[1], game_id)) == 1
            game = apps[2].load(game_id)
            assert game.outcome is not None
            assert game.outcome.termination in (
                Termination.TIMED_OUT,
                Termination.FORFEITED,
            )
            _audit_ok(apps[2], game_id)
        assert asyncio.run(all_at_once()) == [0, 0, 0]
    finally:
        for app in apps:
            app.close()


def test_a_move_racing_the_deadline_is_stored_or_refused_never_both(
    settings,
) -> None:
    early, late = ManualClock(), ManualClock()
    mover, keeper_app = _ledgers(settings, 1, early)[0], _ledgers(settings, 1, late)[0]
    outcomes = set()
    try:
        for round_ in range(8):
            early.now = late.now = datetime.now(UTC)
            game_id = mover.create_game("thalara", SETUP, time_control=PER_MOVE).game_id
            rnd = random.Random(round_)
            while len(mover.load(game_id).to_act()) != 1:  # one clock running
                _one_move(mover, game_id, rnd)
            due = mover.load(game_id).next_deadline()
            assert due is not None
            deadline = datetime.fromtimestamp(due[1] / 1000, UTC)
            early.now = deadline - timedelta(milliseconds=1)  # the move: in time
            late.now = deadline  # the timekeeper: the deadline has come
            game = mover.load(game_id)
            seat = due[0]
            command = THALARA.random_command(game.state, seat, random.Random(round_))

            async def race(game_id=game_id, seat=seat, command=command, n=round_):
                return await asyncio.gather(
                    mover.submit_move(game_id, command, seat, f"race-{n}"),
                    keeper_app.claim_timeout(game_id),
                    return_exceptions=True,
                )

            moved, timed_out = asyncio.run(race())
            for result in (moved, timed_out):
                assert not isinstance(result, BaseException) or isinstance(
                    result, RuleError
                ), result
            recorded = {row["command_id"] for row in mover.command_rows(game_id)}
            if _timeouts(mover, game_id):
                assert isinstance(moved, RuleError)
                assert f"race-{round_}" not in recorded
                outcomes.add("timeout")
            else:
                assert not isinstance(moved, BaseException)
                assert isinstance(timed_out, RuleError)
                assert f"race-{round_}" in recorded
                outcomes.add("move")
            _audit_ok(mover, game_id)
    finally:
        mover.close()
        keeper_app.close()
    assert outcomes  # each round went one way or the other


def test_a_late_move_is_refused_as_flagged_and_the_timeout_is_recorded(
    settings,
) -> None:
    clock = ManualClock()
    (app,) = _ledgers(settings, 1, clock)
    try:
        game_id = app.create_game("thalara", SETUP, time_control=PER_MOVE).game_id
        game = app.load(game_id)
        seat = game.to_act()[0]
        command = THALARA.random_command(game.state, seat, random.Random(3))
        clock.advance(11)
        with pytest.raises(ClockFlaggedError) as refused:
            app.submit(game_id, command, seat, "too-late")
        assert refused.value.rule == "clock.flagged"
        assert len(_timeouts(app, game_id)) == 1
        assert "too-late" not in {r["command_id"] for r in app.command_rows(game_id)}
        _audit_ok(app, game_id)
    finally:
        app.close()


def test_a_server_started_after_the_deadline_records_the_timeout(settings) -> None:
    clock = ManualClock()
    (first,) = _ledgers(settings, 1, clock)
    game_id = first.create_game("thalara", SETUP, time_control=PER_MOVE).game_id
    _one_move(first, game_id, random.Random(5))
    first.close()  # the only server stops before the deadline
    clock.advance(3600)
    (restarted,) = _ledgers(settings, 1, clock)
    try:
        assert game_id in restarted.due_games(1000)
        asyncio.run(Timekeeper(restarted).sweep())
        assert len(_timeouts(restarted, game_id)) == 1
        assert game_id not in restarted.due_games(1000)
        _audit_ok(restarted, game_id)
    finally:
        restarted.close()


def test_ledger_audit_accepts_every_ending(settings) -> None:
    clock = ManualClock()
    (app,) = _ledgers(settings, 1, clock)
    try:
        endings = {
            "resign": lambda g: asyncio.run(app.resign(g, 0)),
            "abort": lambda g: asyncio.run(app.abort(g, "admin", "test")),
            "adjudicate": lambda g: asyncio.run(
                app.adjudicate(g, (1, 2), "arbiter", "admin")
            ),
        }
        for name, end in endings.items():
            game_id = app.create_game("thalara", SETUP, time_control=PER_MOVE).game_id
            _one_move(app, game_id, random.Random(len(name)))
            end(game_id)
            row = app.game_row(game_id)
            assert row["status"] == "ended" and row["next_deadline"] is None, name
            _audit_ok(app, game_id)
    finally:
        app.close()
