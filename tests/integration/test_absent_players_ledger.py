"""Absent players through the ledger application and its ratings view.

The ledger's clock is moved by hand; each timeout is recorded by the call
that finds it (no timekeeper runs), and ``by`` on the ending names that
caller.
"""

from __future__ import annotations

import asyncio
import json
import random
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from domain.contract.core import Termination
from domain.contract.endings import ClockFlaggedError
from domain.games import find_game
from domain.ledger.clocks import ClockKind, TimeControl
from domain.ledger.records import ENDING_KINDS
from projections.ratings import RatingsView, leaderboard
from projections.runner import ViewRunner
from services.ledger.audit import audit_game
from tests.support.manual_clock import ManualClock
from tests.support.random_moves import play_random

pytestmark = pytest.mark.postgres

NO_SHOW = TimeControl(kind=ClockKind.PER_MOVE, per_move_seconds=600, no_show_seconds=60)
THALARA = find_game("thalara")


@pytest.fixture
def clock(ledger: Any) -> Iterator[ManualClock]:
    manual = ManualClock()
    before, ledger.clock = ledger.clock, manual
    yield manual
    ledger.clock = before


def new_game(ledger: Any, players: int, names: tuple[str, ...] = ()) -> uuid.UUID:
    setup = THALARA.example(f"thalara-{players}p").setup
    created = ledger.create_game(
        "thalara", setup, player_ids=names, time_control=NO_SHOW
    )
    return created.game_id


def move(ledger: Any, game_id: uuid.UUID, seat: int, rnd: random.Random) -> None:
    game = ledger.load(game_id)
    command = THALARA.random_command(game.state, seat, rnd)
    ledger.submit(game_id, command, seat, str(uuid.uuid4()))


def ending_by(ledger: Any, game_id: uuid.UUID) -> list[str]:
    """Who recorded each of the ledger's endings of the game, in order."""
    return [
        json.loads(data)["body"]["by"]
        for _, topic, data in ledger.read_records(game_id)
        if topic in ENDING_KINDS
    ]


def test_a_resignation_after_the_seats_own_deadline_records_its_timeout(
    ledger: Any, clock: ManualClock
) -> None:
    game_id = new_game(ledger, 2)
    rnd = random.Random(1)
    move(ledger, game_id, 0, rnd)
    move(ledger, game_id, 1, rnd)
    clock.advance(601)  # past the 600 s per-move limit of the seat to act
    (late,) = ledger.load(game_id).to_act()
    with pytest.raises(ClockFlaggedError):
        asyncio.run(ledger.resign(game_id, late))
    game = ledger.load(game_id)
    assert game.outcome is not None
    assert game.outcome.termination is Termination.TIMED_OUT
    assert ending_by(ledger, game_id) == [f"seat:{late}"]


def test_a_flag_found_by_a_late_move_is_recorded_by_that_seat_not_the_timekeeper(
    ledger: Any, clock: ManualClock
) -> None:
    game_id = new_game(ledger, 2)
    rnd = random.Random(2)
    move(ledger, game_id, 0, rnd)
    clock.advance(61)  # seat 1 never moved within its window
    with pytest.raises(ClockFlaggedError):
        move(ledger, game_id, 1, rnd)
    game = ledger.load(game_id)
    assert game.outcome is not None
    assert game.outcome.termination is Termination.FORFEITED
    assert game.outcome.absent == (1,) and game.outcome.winners == (0,)
    assert ending_by(ledger, game_id) == ["seat:1"]


def test_an_abort_after_the_no_show_deadline_records_the_forfeit(
    ledger: Any, clock: ManualClock
) -> None:
    game_id = new_game(ledger, 2)
    clock.advance(61)
    with pytest.raises(ClockFlaggedError):
        asyncio.run(ledger.abort(game_id, "seat:1", "changed my mind"))
    game = ledger.load(game_id)
    assert game.outcome is not None
    assert game.outcome.termination is Termination.FORFEITED
    assert game.outcome.winners == () and game.outcome.absent == (0, 1)
    assert ending_by(ledger, game_id) == ["seat:1"]


def test_a_player_who_never_moved_is_not_rated_in_a_three_player_game(
    ledger: Any, clock: ManualClock
) -> None:
    tag = uuid.uuid4().hex[:6]
    names = (f"{tag}-absent", f"{tag}-bea", f"{tag}-cal")
    game_id = new_game(ledger, 3, names)
    rnd = random.Random(3)
    move(ledger, game_id, 1, rnd)
    move(ledger, game_id, 2, rnd)
    clock.advance(61)
    asyncio.run(ledger.claim_timeout(game_id))
    assert ledger.load(game_id).dropped == (0,)
    play_random(ledger, game_id, rnd)
    outcome = ledger.load(game_id).outcome
    assert outcome is not None and outcome.absent == (0,)
    assert outcome.termination is not Termination.FORFEITED  # played on, rated
    runner = ViewRunner(ledger.datastore, RatingsView())
    runner.ensure_tables()
    runner.catch_up()
    with ledger.datastore.transaction(commit=False) as curs:
        board = {r["player_id"] for r in leaderboard(curs, "thalara", 100_000, 0)}
    assert names[0] not in board
    assert {names[1], names[2]} <= board
    report = audit_game(ledger, game_id)
    assert report.ok, report.failures
