"""An arbiter's controls through PostgreSQL: once across servers, never beside a timeout.

Two ledgers over one database stand for two servers, on one clock the test
moves by hand (as in ``test_timekeeper``).
"""

from __future__ import annotations

import asyncio
import random
import uuid
from datetime import UTC, datetime, timedelta

import pytest

from domain.contract.core import RuleError, Termination
from domain.games import find_game
from domain.ledger.clocks import ClockKind, TimeControl
from domain.ledger.controls import GamePausedError, PauseStateError
from services.ledger.audit import audit_game
from services.ledger.timekeeper import Timekeeper
from tests.integration.test_tamper import dba  # noqa: F401  (a fixture)
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


def _types(ledger, game_id) -> list[str]:
    return [t for _, t, _ in ledger.read_records(game_id)]


def test_two_servers_pausing_at_once_record_one_pause(settings) -> None:
    clock = ManualClock()
    one, two = _ledgers(settings, 2, clock)
    try:
        for n in range(4):
            game_id = one.create_game("thalara", SETUP, time_control=PER_MOVE).game_id
            two.load(game_id)  # both hold it in memory

            async def both(game_id=game_id, n=n):
                return await asyncio.gather(
                    one.pause(game_id, "admin"),
                    two.pause(game_id, f"organiser:{n}"),
                    return_exceptions=True,
                )

            results = asyncio.run(both())
            refused = [r for r in results if isinstance(r, BaseException)]
            assert len(refused) == 1 and isinstance(refused[0], PauseStateError)
            assert _types(one, game_id).count("ledger.GamePaused") == 1
            assert two.load(game_id).paused
            report = audit_game(one, game_id)
            assert report.ok, report.failures
    finally:
        one.close()
        two.close()


def test_a_pause_racing_the_deadline_is_a_pause_or_a_timeout_never_both(
    settings,
) -> None:
    early, late = ManualClock(), ManualClock()
    arbiter_app = _ledgers(settings, 1, early)[0]
    keeper_app = _ledgers(settings, 1, late)[0]
    outcomes = set()
    try:
        for _ in range(8):
            early.now = late.now = datetime.now(UTC)
            game_id = arbiter_app.create_game(
                "thalara", SETUP, time_control=PER_MOVE
            ).game_id
            due = arbiter_app.load(game_id).next_deadline()
            assert due is not None
            deadline = datetime.fromtimestamp(due[1] / 1000, UTC)
            early.now = deadline - timedelta(milliseconds=1)  # the pause: in time
            late.now = deadline  # the timekeeper: the deadline has come

            async def race(game_id=game_id):
                return await asyncio.gather(
                    arbiter_app.pause(game_id, "admin"),
                    keeper_app.claim_timeout(game_id),
                    return_exceptions=True,
                )

            paused, timed_out = asyncio.run(race())
            for result in (paused, timed_out):
                assert not isinstance(result, BaseException) or isinstance(
                    result, RuleError
                ), result
            types = _types(arbiter_app, game_id)
            assert ("ledger.SeatTimedOut" in types) != ("ledger.GamePaused" in types)
            outcomes.add("timeout" if "ledger.SeatTimedOut" in types else "pause")
            assert types.count("ledger.SeatTimedOut") <= 1
            report = audit_game(arbiter_app, game_id)
            assert report.ok, report.failures
    finally:
        arbiter_app.close()
        keeper_app.close()
    assert outcomes  # each round went one way or the other


def test_a_paused_game_is_skipped_by_every_timekeeper_and_refuses_moves(
    settings,
) -> None:
    clock = ManualClock()
    apps = _ledgers(settings, 2, clock)
    try:
        game_id = apps[0].create_game("thalara", SETUP, time_control=PER_MOVE).game_id
        clock.advance(4)
        asyncio.run(apps[0].pause(game_id, "admin"))
        clock.advance(3600)
        keepers = [Timekeeper(app) for app in apps]

        async def sweeps() -> None:
            await asyncio.gather(*(k.sweep() for k in keepers))

        asyncio.run(sweeps())
        assert game_id not in apps[1].due_games()
        game = apps[1].load(game_id)
        assert game.outcome is None and game.paused
        seat = game.to_act()[0]
        command = THALARA.random_command(game.state, seat, random.Random(1))
        with pytest.raises(GamePausedError):
            apps[1].submit(game_id, command, seat, str(uuid.uuid4()))
        asyncio.run(apps[1].resume(game_id, "admin"))
        clock.advance(5)
        asyncio.run(sweeps())
        assert apps[0].load(game_id).outcome is None  # 4 + 5 of 10 s spent
        clock.advance(2)
        asyncio.run(sweeps())
        outcome = apps[0].load(game_id).outcome
        assert outcome is not None and outcome.termination is Termination.TIMED_OUT
        report = audit_game(apps[0], game_id)
        assert report.ok, report.failures
    finally:
        for app in apps:
            app.close()


def test_a_pause_rewritten_by_a_superuser_fails_the_audit(
    isolated_ledger,
    dba,  # noqa: F811  (the fixture imported above)
) -> None:
    from tests.integration.test_tamper import checks, rewrite, rows

    ledger = isolated_ledger
    clock = ManualClock()
    before, ledger.clock = ledger.clock, clock
    try:
        game_id = ledger.create_game("thalara", SETUP, time_control=PER_MOVE).game_id
        clock.advance(3)
        asyncio.run(ledger.pause(game_id, "admin"))
        clock.advance(60)
        asyncio.run(ledger.resume(game_id, "admin"))
        clock.advance(8)
        asyncio.run(ledger.claim_timeout(game_id))
    finally:
        ledger.clock = before
    assert audit_game(ledger, game_id).ok
    records = rows(dba, game_id)
    resumed = next(r for r in records if r[1] == "ledger.GameResumed")
    paused = next(r for r in records if r[1] == "ledger.GamePaused")
    # the pause made 30 s shorter: the timeout now came 30 s after its deadline
    at = datetime.fromisoformat(resumed[2]["timestamp"]) - timedelta(seconds=30)
    assert at > datetime.fromisoformat(paused[2]["timestamp"])
    resumed[2]["timestamp"] = at.isoformat()
    rewrite(dba, game_id, records)
    report = audit_game(ledger, game_id)
    assert {"clock", "receipt (stored)"} <= checks(report)
