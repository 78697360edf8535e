"""The ledger's own endings and clocks, on the aggregate alone (no database).

Each test drives a real ``Game`` with the ledger's clock reading passed in
as data, then checks the recorded events, the outcome, a replay of the
stored records and the audit of them.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from domain.audit.game_audit import audit_records
from domain.contract.core import GameOverError, InvalidCommandError, Termination
from domain.contract.endings import (
    AbortTooLateError,
    ClockFlaggedError,
    ClockRunningError,
    Consequence,
    EndingKind,
    seat_leaves,
)
from domain.games import find_game
from domain.ledger.aggregate import Game
from domain.ledger.clocks import UNTIMED, Clock, ClockKind, TimeControl, remaining
from domain.ledger.records import decode_aggregate_state, encode_aggregate_state
from domain.ledger.replay import replay
from domain.ledger.stored_events import decode
from services.storage.mapper import LedgerMapper

SEED = b"r" * 32
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
FISCHER = TimeControl(kind=ClockKind.FISCHER, base_seconds=60, increment_seconds=2)


def new_game(
    example: str = "thalara-2p", control: TimeControl | None = FISCHER
) -> Game:
    game_name = example.split("-")[0]
    ruleset = find_game(game_name)
    setup = ruleset.setup_model(**ruleset.example(example).setup)
    return Game.create(ruleset, setup, SEED, ("referee",), time_control=control, now=T0)


def play(game: Game, moves: int, seconds: int, rnd: random.Random) -> datetime:
    """``moves`` random moves, each ``seconds`` after the one before."""
    at = T0
    for _ in range(moves):
        seat = game.to_act()[0]
        command = game.ruleset.random_command(game.state, seat, rnd)
        assert command is not None
        at += timedelta(seconds=seconds)
        game.act(command, seat, SEED, None, now=at)
    return at


def stored(game: Game) -> list[tuple[int, str, bytes]]:
    mapper = LedgerMapper()
    out = []
    for event in game.collect_events():
        row = mapper.to_stored_event(event)
        out.append((row.originator_version, row.topic, row.state))
    return out


def audited(game: Game) -> tuple[Any, Any]:
    rows = stored(game)
    report = audit_records(str(game.id), rows)
    rebuilt = replay(None, [decode(game.id, v, t, d) for v, t, d in rows])
    return report, rebuilt


@pytest.fixture
def example() -> str:
    return next(e.name for e in find_game("thalara").examples if e.players == 2)


def test_a_move_after_the_deadline_is_refused_and_the_timeout_is_recorded(
    example: str,
) -> None:
    game = new_game(example)
    at = play(game, 3, 5, random.Random(3))
    seat, deadline = game.next_deadline() or (None, None)
    assert seat is not None and deadline is not None
    late = datetime.fromtimestamp(deadline / 1000, UTC) + timedelta(seconds=1)
    command = game.ruleset.random_command(game.state, seat, random.Random(1))
    assert command is not None
    with pytest.raises(ClockFlaggedError) as refused:
        game.act(command, seat, SEED, None, now=late)
    assert refused.value.rule == "clock.flagged"
    assert refused.value.seat == seat
    events = game.time_out(SEED, late, "timekeeper")
    assert [game.type_name(e) for e in events] == [
        "ledger.SeatTimedOut",
        "ledger.GameConcluded",
    ]
    assert game.outcome is not None
    assert game.outcome.termination is Termination.TIMED_OUT
    assert game.outcome.winners == (1 - seat,)
    with pytest.raises(GameOverError):
        game.time_out(SEED, late, "timekeeper")
    assert at < late
    report, rebuilt = audited(game)
    assert report.ok, report.failures
    assert rebuilt.clock == game.clock
    assert rebuilt.outcome == game.outcome


def test_a_timeout_before_the_deadline_is_refused(example: str) -> None:
    game = new_game(example)
    play(game, 2, 5, random.Random(4))
    with pytest.raises(ClockRunningError):
        game.time_out(SEED, T0 + timedelta(seconds=20), "timekeeper")
    assert game.outcome is None


def test_remaining_time_follows_from_the_event_timestamps(example: str) -> None:
    game = new_game(example)
    seat = game.to_act()[0]
    play(game, 1, 5, random.Random(5))
    assert game.clock is not None
    # the mover paid its 5 s of thinking and gained its 2 s increment
    assert game.clock.bank_ms[seat] == 60_000 - 5_000 + 2_000
    later = int(T0.timestamp() * 1000) + 20_000
    for other, since in enumerate(game.clock.since_ms):
        if since is not None:
            shown = remaining(game.clock, game.control, later)[other]
            assert shown == game.clock.bank_ms[other] - (later - since)


def test_resigning_in_a_two_player_game_gives_the_other_seat_the_win(
    example: str,
) -> None:
    game = new_game(example)
    play(game, 3, 5, random.Random(6))
    game.resign(0, SEED, "seat:0", now=T0 + timedelta(seconds=30))
    assert game.outcome is not None
    assert game.outcome.termination is Termination.RESIGNED
    assert game.outcome.winners == (1,)
    report, _ = audited(game)
    assert report.ok, report.failures


def test_resigning_a_cooperative_game_loses_it_for_the_team() -> None:
    game = new_game("thorgal-2p", control=None)
    assert game.ruleset.consequence(game.state, 0) is Consequence.TEAM_LOSES
    game.resign(1, SEED, "seat:1")
    assert game.outcome is not None
    assert game.outcome.termination is Termination.RESIGNED
    assert game.outcome.winners == ()
    report, _ = audited(game)
    assert report.ok, report.failures


def test_a_ruleset_without_a_hook_makes_the_seat_lose(example: str) -> None:
    game = new_game(example)
    assert game.ruleset.consequence(game.state, 0) is Consequence.SEAT_LOSES


def test_abort_is_allowed_only_before_the_configured_moves(example: str) -> None:
    early = new_game(example)
    play(early, 1, 5, random.Random(7))
    early.abort("admin", "wrong opponent", SEED, now=T0 + timedelta(seconds=9))
    assert early.outcome is not None
    assert early.outcome.termination is Termination.ABORTED
    assert early.outcome.winners == ()
    report, _ = audited(early)
    assert report.ok, report.failures
    late = new_game(example)
    play(late, 2, 5, random.Random(7))
    with pytest.raises(AbortTooLateError):
        late.abort("admin", "", SEED, now=T0 + timedelta(seconds=11))
    assert late.outcome is None


def test_adjudication_records_the_ranks_and_needs_a_reason(example: str) -> None:
    game = new_game(example, control=None)
    with pytest.raises(InvalidCommandError):
        game.adjudicate((1, 2), "  ", "admin", SEED)
    with pytest.raises(InvalidCommandError):
        game.adjudicate((2, 2), "no first place", "admin", SEED)
    with pytest.raises(InvalidCommandError):
        game.adjudicate((1,), "one rank short", "admin", SEED)
    game.adjudicate((2, 1), "arbiter: illegal help", "organiser:o1", SEED)
    assert game.outcome is not None
    assert game.outcome.termination is Termination.ADJUDICATED
    assert game.outcome.winners == (1,)
    report, _ = audited(game)
    assert report.ok, report.failures


def test_a_seat_that_never_moves_within_the_no_show_window_forfeits(
    example: str,
) -> None:
    control = TimeControl(
        kind=ClockKind.PER_MOVE, per_move_seconds=600, no_show_seconds=30
    )
    game = new_game(example, control=control)
    due = game.next_deadline()
    assert due is not None and due[1] == int(T0.timestamp() * 1000) + 30_000
    game.time_out(SEED, T0 + timedelta(seconds=31), "timekeeper")
    assert game.outcome is not None
    assert game.outcome.termination is Termination.FORFEITED
    report, _ = audited(game)
    assert report.ok, report.failures


def test_the_audit_finds_a_move_stored_after_a_deadline(
    example: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game(
        example, control=TimeControl(kind=ClockKind.PER_MOVE, per_move_seconds=10)
    )
    monkeypatch.setattr(Game, "_check_flag", lambda self, now: None)
    play(game, 3, 30, random.Random(8))
    report, _ = audited(game)
    assert {f.check for f in report.failures} == {"clock"}


def test_the_audit_finds_an_outcome_that_is_not_the_endings(example: str) -> None:
    game = new_game(example)
    play(game, 2, 5, random.Random(9))
    game.resign(0, SEED, "seat:0", now=T0 + timedelta(seconds=20))
    rows = stored(game)
    forged = rows[-1][2].replace(b'"winners":[1]', b'"winners":[0]')
    assert forged != rows[-1][2]
    report = audit_records(str(game.id), [*rows[:-1], (*rows[-1][:2], forged)])
    assert not report.ok


def test_a_snapshot_keeps_the_clock(example: str) -> None:
    game = new_game(example)
    play(game, 2, 5, random.Random(10))
    state = dict(vars(game))
    back = decode_aggregate_state(_json_roundtrip(encode_aggregate_state(state)))
    assert isinstance(back["clock"], Clock)
    assert back["clock"] == game.clock
    assert back["control"] == game.control
    assert back["moves_made"] == 2


def _json_roundtrip(data: dict[str, Any]) -> dict[str, Any]:
    import json

    loaded: dict[str, Any] = json.loads(json.dumps(data, default=str))
    return loaded


def test_time_controls_are_validated() -> None:
    with pytest.raises(ValueError):
        TimeControl(kind=ClockKind.FISCHER)
    with pytest.raises(ValueError):
        TimeControl(kind=ClockKind.PER_MOVE, per_move_seconds=-1)
    assert not TimeControl().is_timed
    assert TimeControl(no_show_seconds=5).is_timed


def test_a_multi_player_game_a_resignation_ended_before_seats_could_drop_out_still_verifies() -> (
    None
):
    """Logs recorded when a seat's leaving ended every game: placed last."""
    game = new_game("thalara-3p")
    play(game, 2, 5, random.Random(11))
    outcome = seat_leaves(
        Termination.RESIGNED, 1, 3, Consequence.SEAT_LOSES, "seat 1 resigned"
    )
    game._end(
        EndingKind.RESIGNED, 1, "seat:1", "", outcome, SEED, T0 + timedelta(seconds=20)
    )
    assert game.outcome is not None
    assert game.outcome.ranks == (1, 2, 1)
    assert game.outcome.winners == (0, 2)
    report, _ = audited(game)
    assert report.ok, report.failures


def test_games_without_a_clock_share_one_control_and_timed_ones_keep_theirs():
    """An untimed game holds the shared ``UNTIMED`` control, not a copy of
    its own: with 10,000 open games the copies were ~6 MiB of the server."""
    untimed = [new_game(control=None) for _ in range(2)]
    assert untimed[0].control is untimed[1].control is UNTIMED
    assert not UNTIMED.is_timed
    timed = new_game(control=TimeControl(kind=ClockKind.FISCHER, base_seconds=60))
    assert timed.control.kind is ClockKind.FISCHER
    assert timed.control.base_seconds == 60
