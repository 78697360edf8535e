"""Absent players, aborts and forfeits: the referee's convention (docs/endings.md).

On the aggregate alone, with the ledger's clock passed in as data; every
game's stored records are replayed and audited after it ends.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from domain.audit.game_audit import audit_records
from domain.contract.core import InvalidCommandError, Termination
from domain.contract.endings import (
    AbortAfterLeavingError,
    ClockFlaggedError,
    DroppedOutError,
)
from domain.games import find_game
from domain.ledger.aggregate import Game
from domain.ledger.clocks import ClockKind, TimeControl
from domain.ledger.replay import replay
from domain.ledger.stored_events import decode
from services.storage.mapper import LedgerMapper

SEED = b"a" * 32
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
NO_SHOW = TimeControl(kind=ClockKind.PER_MOVE, per_move_seconds=10, no_show_seconds=60)


def new_game(
    example: str, control: TimeControl = NO_SHOW, rules: int | None = None
) -> Game:
    ruleset = find_game(example.split("-")[0])
    setup = ruleset.setup_model(**ruleset.example(example).setup)
    return Game.create(
        ruleset,
        setup,
        SEED,
        ("absent",),
        time_control=control,
        now=T0,
        referee_rules=rules,
    )


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def audited(game: Game) -> Any:
    mapper = LedgerMapper()
    rows = []
    for event in game.collect_events():
        row = mapper.to_stored_event(event)
        rows.append((row.originator_version, row.topic, row.state))
    report = audit_records(str(game.id), rows)
    assert report.ok, report.failures
    rebuilt = replay(None, [decode(game.id, v, t, d) for v, t, d in rows])
    assert rebuilt.outcome == game.outcome
    assert rebuilt.absent == game.absent
    return rows


def move(game: Game, seat: int, when: datetime, rnd: random.Random) -> None:
    command = game.ruleset.random_command(game.state, seat, rnd)
    assert command is not None
    game.act(command, seat, SEED, None, now=when)


def test_two_seats_that_never_move_both_forfeit_and_nobody_wins() -> None:
    game = new_game("thalara-2p")
    assert game.to_act() == (0, 1)
    game.time_out(SEED, at(61), "timekeeper")
    outcome = game.outcome
    assert outcome is not None
    assert outcome.termination is Termination.FORFEITED
    assert outcome.winners == ()
    assert outcome.absent == (0, 1)
    rows = audited(game)
    assert b'"absent":[0,1]' in rows[-1][2]


def test_three_seats_that_never_move_all_forfeit_and_the_third_does_not_win() -> None:
    game = new_game("thalara-3p")
    assert game.to_act() == (0, 1, 2)
    game.time_out(SEED, at(60), "timekeeper")
    outcome = game.outcome
    assert outcome is not None
    assert (outcome.termination, outcome.winners, outcome.absent) == (
        Termination.FORFEITED,
        (),
        (0, 1, 2),
    )
    audited(game)


def test_an_absent_seat_in_a_game_that_plays_on_is_named_by_the_final_outcome() -> None:
    game = new_game("thalara-3p")
    rnd = random.Random(5)
    move(game, 1, at(5), rnd)
    move(game, 2, at(6), rnd)
    game.time_out(SEED, at(61), "timekeeper")  # seat 0 never showed
    assert game.outcome is None and game.dropped == (0,) and game.absent == (0,)
    second = at(61)
    while game.outcome is None:
        seat = game.to_act()[0]
        second += timedelta(seconds=1)
        move(game, seat, second, rnd)
    assert game.outcome.absent == (0,)
    assert 0 not in game.outcome.winners
    audited(game)


def test_the_seat_never_asked_wins_when_the_first_seat_never_shows() -> None:
    game = new_game("thalara-2p-casual-chaos")
    (first,) = game.to_act()
    game.time_out(SEED, at(60), "timekeeper")
    outcome = game.outcome
    assert outcome is not None
    assert (outcome.termination, outcome.winners, outcome.absent) == (
        Termination.FORFEITED,
        (1 - first,),
        (first,),
    )
    audited(game)


def test_the_no_show_window_alone_governs_the_first_move() -> None:
    game = new_game("thalara-2p")
    deadline = game.next_deadline()
    assert deadline is not None
    assert deadline[1] == int(T0.timestamp() * 1000) + 60_000  # not the 10 s limit
    move(game, 0, at(30), random.Random(1))  # 30 s: inside the window
    assert game.outcome is None
    audited(game)


def test_an_abort_after_a_passed_deadline_is_refused_as_flagged() -> None:
    game = new_game("thalara-2p")
    with pytest.raises(ClockFlaggedError):
        game.abort("seat:0", "", SEED, now=at(61), seat=0)
    game.time_out(SEED, at(61), "seat:0")
    assert game.outcome is not None
    assert game.outcome.termination is Termination.FORFEITED


def test_a_seat_that_left_cannot_abort_nor_can_a_seat_after_it_left() -> None:
    three = new_game(
        "thalara-3p", TimeControl(kind=ClockKind.PER_MOVE, per_move_seconds=10)
    )
    assert three.control.abort_before_moves == 2
    three.resign(1, SEED, "seat:1", now=at(1))
    assert three.dropped == (1,)
    with pytest.raises(DroppedOutError):
        three.abort("seat:1", "", SEED, now=at(2), seat=1)
    with pytest.raises(AbortAfterLeavingError) as refused:
        three.abort("seat:0", "", SEED, now=at(2), seat=0)
    assert refused.value.rule == "referee.abort-after-leaving"
    assert three.outcome is None
    three.abort("admin", "a player left at once", SEED, now=at(2))  # an arbiter may
    assert three.outcome is not None
    audited(three)


def test_abort_before_moves_is_capped_at_one_move_per_seat() -> None:
    with pytest.raises(InvalidCommandError) as refused:
        new_game("thalara-2p", TimeControl(abort_before_moves=20))
    assert "abort_before_moves" in str(refused.value)
    game = new_game("thalara-3p", TimeControl(abort_before_moves=3))
    assert game.control.abort_before_moves == 3


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"kind": "fischer", "base_seconds": 60, "per_move_seconds": 5}, "per_move"),
        ({"kind": "per_move", "per_move_seconds": 5, "increment_seconds": 2}, "incr"),
        ({"kind": "none", "days_per_move": 3}, "days_per_move"),
        ({"kind": "correspondence", "days_per_move": 3, "base_seconds": 9}, "base"),
        ({"kind": "fischer", "base_seconds": 60, "rules": 1}, "rules"),
        ({"kind": "fischer", "base_seconds": 60, "bonus": 1}, "bonus"),
    ],
)
def test_a_client_time_control_names_the_field_it_would_ignore(
    fields: dict[str, Any], named: str
) -> None:
    with pytest.raises(InvalidCommandError) as refused:
        TimeControl.checked(fields)
    assert named in str(refused.value)
    assert refused.value.violations[0][0].startswith("time_control.")


def test_a_game_recorded_under_the_first_rules_keeps_its_outcome() -> None:
    """A log stored before the convention: the lower seat forfeited and the
    other, absent too, won; it replays and audits as recorded."""
    game = new_game("thalara-2p", rules=1)
    assert game.time_control is not None and "rules" not in game.time_control
    assert game.next_deadline() == (0, int(T0.timestamp() * 1000) + 10_000)
    game.time_out(SEED, at(61), "timekeeper")
    assert game.outcome is not None
    assert game.outcome.winners == (1,) and game.outcome.absent == ()
    rows = audited(game)
    assert b"absent" not in rows[-1][2]


def test_the_doctests_of_the_convention_hold() -> None:
    import doctest

    import domain.contract.endings
    import domain.ledger.clocks
    import domain.words.narration
    import services.cli.endings

    for module in (
        domain.contract.endings,
        domain.ledger.clocks,
        domain.words.narration,
        services.cli.endings,
    ):
        assert doctest.testmod(module).failed == 0, module.__name__


def test_two_absent_seats_of_three_forfeit_and_the_one_who_moved_wins() -> None:
    game = new_game("thalara-3p")
    move(game, 2, at(5), random.Random(4))
    game.time_out(SEED, at(61), "timekeeper")
    assert game.outcome is None and game.absent == (0, 1)
    game.time_out(SEED, at(61), "timekeeper")
    outcome = game.outcome
    assert outcome is not None
    assert (outcome.winners, outcome.absent) == ((2,), (0, 1))
    audited(game)


def test_a_first_move_inside_the_window_costs_no_fischer_time() -> None:
    control = TimeControl(kind=ClockKind.FISCHER, base_seconds=60, no_show_seconds=120)
    game = new_game("thalara-2p", control)
    move(game, 0, at(90), random.Random(6))  # later than the bank, inside the window
    assert game.clock is not None
    assert game.clock.bank_ms[0] == 60_000
    assert game.outcome is None
    audited(game)


def test_an_arbiters_result_after_a_no_show_is_recorded_as_given() -> None:
    game = new_game("thalara-3p")
    rnd = random.Random(7)
    move(game, 1, at(5), rnd)
    move(game, 2, at(6), rnd)
    game.time_out(SEED, at(61), "timekeeper")
    assert game.absent == (0,)
    game.adjudicate((1, 2, 3), "seat 0's connection failed", "admin", SEED, at(70))
    assert game.outcome is not None
    assert (game.outcome.winners, game.outcome.absent) == ((0,), ())
    audited(game)
