"""The referee's controls on the aggregate alone: pause, resume, added time
and draw offers, each replayed from its stored records and audited.

The ledger's clock reading is passed in as data, as in
``test_referee_endings``; a forged log is re-chained as a database superuser
would (every hash recomputed), so only the audit's re-derivation can catch it.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import hypothesis
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.audit.game_audit import audit_records
from domain.contract.core import Termination
from domain.ledger.clocks import ClockKind, TimeControl
from domain.ledger.controls import (
    AddTimeError,
    DrawOfferError,
    GamePausedError,
    PauseStateError,
)
from domain.ledger.records import canonical_json, load, recomputed_hash
from domain.ledger.records.names import CONTROL_TYPES
from tests.unit.test_referee_endings import SEED, T0, audited, new_game, play, stored

PER_MOVE = TimeControl(kind=ClockKind.PER_MOVE, per_move_seconds=30)


def ms(at: datetime) -> int:
    return int(at.timestamp() * 1000)


def moving_seat_command(game: Any, rnd: random.Random) -> tuple[int, Any]:
    seat = game.to_act()[0]
    command = game.ruleset.random_command(game.state, seat, rnd)
    assert command is not None
    return seat, command


@pytest.fixture
def example() -> str:
    return "thalara-2p"


def test_a_pause_holds_every_clock_and_a_resume_continues_from_where_it_stood(
    example: str,
) -> None:
    game = new_game(example, control=PER_MOVE)
    at = play(game, 2, 5, random.Random(1))
    seat, deadline = game.next_deadline() or (None, 0)
    assert deadline == ms(at) + 30_000
    game.pause("admin", now=at + timedelta(seconds=10))
    assert game.paused and game.next_deadline() is None
    # long past the deadline: nothing is due while paused
    assert game.flagged(at + timedelta(hours=1)) is None
    seat_, command = moving_seat_command(game, random.Random(2))
    with pytest.raises(GamePausedError) as refused:
        game.act(command, seat_, SEED, None, now=at + timedelta(seconds=11))
    assert refused.value.rule == "game.paused"
    with pytest.raises(PauseStateError):
        game.pause("admin", now=at + timedelta(seconds=12))
    game.resume("admin", now=at + timedelta(minutes=5, seconds=10))
    # 10 s were spent before the pause: 20 s are left after the resume
    assert game.next_deadline() == (seat, ms(at) + 300_000 + 30_000)
    game.act(command, seat_, SEED, None, now=at + timedelta(minutes=5, seconds=20))
    report, rebuilt = audited(game)
    assert report.ok, report.failures
    assert rebuilt.clock == game.clock and not rebuilt.paused


def test_a_fischer_clock_paid_while_paused_nothing(example: str) -> None:
    game = new_game(example)  # Fischer 60 + 2
    at = play(game, 1, 5, random.Random(3))
    seat = game.to_act()[0]
    assert game.clock is not None
    bank, since = game.clock.bank_ms[seat], game.clock.since_ms[seat]
    assert since is not None
    thought = ms(at) - since  # before the last move, while it was asked too
    game.pause("admin", now=at + timedelta(seconds=4))
    game.resume("admin", now=at + timedelta(seconds=304))
    _, command = moving_seat_command(game, random.Random(4))
    game.act(command, seat, SEED, None, now=at + timedelta(seconds=310))
    assert game.clock.bank_ms[seat] == bank - thought - 10_000 + 2_000
    report, _ = audited(game)
    assert report.ok, report.failures


def test_added_time_moves_the_deadline(example: str) -> None:
    game = new_game(example, control=PER_MOVE)
    at = play(game, 2, 5, random.Random(5))
    seat, deadline = game.next_deadline() or (0, 0)
    other = 1 - seat
    with pytest.raises(AddTimeError) as idle:
        game.add_time(other, 10_000, "admin", now=at)
    assert idle.value.rule == "clock.not-running"
    game.add_time(seat, 45_000, "admin", now=at + timedelta(seconds=1))
    assert game.next_deadline() == (seat, deadline + 45_000)
    # the added time was for that move only
    _, command = moving_seat_command(game, random.Random(6))
    moved = at + timedelta(seconds=60)
    game.act(command, seat, SEED, None, now=moved)
    game_seat, next_deadline = game.next_deadline() or (0, 0)
    assert game_seat == other and next_deadline == ms(moved) + 30_000
    report, _ = audited(game)
    assert report.ok, report.failures


def test_a_fischer_seat_keeps_added_time(example: str) -> None:
    game = new_game(example)
    game.add_time(1, 30_000, "organiser:t", now=T0 + timedelta(seconds=1))
    assert game.clock is not None and game.clock.bank_ms == (60_000, 90_000)
    with pytest.raises(Exception, match="added time must be"):
        game.add_time(1, 0, "admin", now=T0 + timedelta(seconds=2))


def test_an_untimed_game_pauses_but_takes_no_added_time(example: str) -> None:
    game = new_game(example, control=None)
    game.pause("admin", now=T0 + timedelta(seconds=1))
    with pytest.raises(AddTimeError):
        game.add_time(0, 1_000, "admin", now=T0 + timedelta(seconds=2))
    game.resume("admin", now=T0 + timedelta(seconds=3))
    report, _ = audited(game)
    assert report.ok, report.failures


def test_a_draw_offer_accepted_ends_the_game_drawn(example: str) -> None:
    game = new_game(example)
    at = play(game, 2, 5, random.Random(7))
    seat = game.to_act()[0]
    other = 1 - seat
    with pytest.raises(DrawOfferError) as not_turn:
        game.offer_draw(other, now=at)
    assert not_turn.value.rule == "draw.not-your-turn"
    game.offer_draw(seat, now=at + timedelta(seconds=1))
    with pytest.raises(DrawOfferError) as own:
        game.accept_draw(seat, SEED, now=at + timedelta(seconds=2))
    assert own.value.rule == "draw.own-offer"
    events = game.accept_draw(other, SEED, now=at + timedelta(seconds=3))
    assert [game.type_name(e) for e in events] == [
        "ledger.DrawAgreed",
        "ledger.GameConcluded",
    ]
    assert events[0].by == f"seat:{other}"
    assert game.outcome is not None
    assert game.outcome.termination is Termination.AGREED
    assert game.outcome.ranks == (1, 1) and game.ending == "agreed"
    report, rebuilt = audited(game)
    assert report.ok, report.failures
    assert rebuilt.outcome == game.outcome


def test_an_offer_lapses_when_the_opponent_moves_and_is_limited_to_once_a_move(
    example: str,
) -> None:
    game = new_game(example)
    rnd = random.Random(8)
    at = play(game, 2, 5, rnd)
    seat = game.to_act()[0]
    game.offer_draw(seat, now=at + timedelta(seconds=1))
    game.decline_draw(1 - seat, now=at + timedelta(seconds=2))
    assert game.draw_offer is None
    with pytest.raises(DrawOfferError) as again:
        game.offer_draw(seat, now=at + timedelta(seconds=3))
    assert again.value.rule == "draw.offer-once-per-move"
    # play on until the same seat is to act again, offering after its move
    when = at + timedelta(seconds=4)
    while game.to_act() != (seat,) or game.moves_made == game.offered_at[seat]:
        mover, command = moving_seat_command(game, rnd)
        when += timedelta(seconds=1)
        game.act(command, mover, SEED, None, now=when)
    game.offer_draw(seat, now=when + timedelta(seconds=1))
    while game.to_act() == (seat,):
        _, command = moving_seat_command(game, rnd)
        when += timedelta(seconds=2)
        game.act(command, seat, SEED, None, now=when)
    assert game.draw_offer == seat  # its own move keeps it standing
    mover, command = moving_seat_command(game, rnd)
    assert mover != seat
    game.act(command, mover, SEED, None, now=when + timedelta(seconds=3))
    assert game.draw_offer is None  # the opponent moved on: lapsed
    with pytest.raises(DrawOfferError):
        game.accept_draw(mover, SEED, now=when + timedelta(seconds=4))
    report, _ = audited(game)
    assert report.ok, report.failures


def test_draws_are_offered_only_in_two_player_games() -> None:
    game = new_game("thalara-3p")
    with pytest.raises(DrawOfferError) as refused:
        game.offer_draw(game.to_act()[0], now=T0 + timedelta(seconds=1))
    assert refused.value.rule == "draw.two-players-only"


def _rechained(game_id: str, rows: list[tuple[int, str, bytes]], edit: Any) -> list:
    """``rows`` with ``edit(version, type, record)`` applied and every hash
    after it recomputed, as a superuser rewriting the table would."""
    out, prev = [], None
    for version, type_, data in rows:
        record = load(data)
        if prev is not None:
            record["prev_hash"] = prev
        edit(version, type_, record)
        record["hash"] = recomputed_hash(game_id, version, type_, record)
        prev = record["hash"]
        out.append((version, type_, canonical_json(record)))
    return out


def test_the_audit_finds_a_pause_whose_effect_was_changed(example: str) -> None:
    game = new_game(example, control=PER_MOVE)
    at = play(game, 2, 5, random.Random(9))
    game.pause("admin", now=at + timedelta(seconds=10))
    game.resume("admin", now=at + timedelta(minutes=10))
    _, deadline = game.next_deadline() or (0, 0)
    game.time_out(SEED, datetime.fromtimestamp(deadline / 1000 + 1, UTC), "timekeeper")
    rows = stored(game)
    assert audit_records(str(game.id), rows).ok
    resumed = next(v for v, t, _ in rows if t == CONTROL_TYPES["resumed"])

    def earlier_resume(version: int, type_: str, record: dict) -> None:
        if version == resumed:  # the pause made shorter: the seat had less time
            record["timestamp"] = (at + timedelta(minutes=5)).isoformat()

    report = audit_records(str(game.id), _rechained(str(game.id), rows, earlier_resume))
    assert {f.check for f in report.failures} == {"clock"}

    def dropped_pause(version: int, type_: str, record: dict) -> None:
        if type_ == CONTROL_TYPES["paused"]:
            record["body"]["kind"] = "time_added"  # no longer a pause

    report = audit_records(str(game.id), _rechained(str(game.id), rows, dropped_pause))
    assert not report.ok


def test_the_audit_finds_a_draw_without_a_standing_offer(example: str) -> None:
    game = new_game(example)
    at = play(game, 2, 5, random.Random(10))
    seat = game.to_act()[0]
    game.offer_draw(seat, now=at + timedelta(seconds=1))
    game.accept_draw(1 - seat, SEED, now=at + timedelta(seconds=2))
    rows = stored(game)
    assert audit_records(str(game.id), rows).ok
    offer = next(v for v, t, _ in rows if t == CONTROL_TYPES["draw_offered"])

    def offered_by_the_acceptor(version: int, type_: str, record: dict) -> None:
        if version == offer:
            record["body"]["seat"] = 1 - seat
            record["body"]["by"] = f"seat:{1 - seat}"

    report = audit_records(
        str(game.id), _rechained(str(game.id), rows, offered_by_the_acceptor)
    )
    assert {f.check for f in report.failures} == {"control", "draw"}


def test_a_paused_clock_shows_as_paused_and_holds_its_time(example: str) -> None:
    from services.cli.clock_lines import clock_line
    from services.dashboard.clock_rows import clock_rows

    game = new_game(example, control=PER_MOVE)
    at = play(game, 2, 5, random.Random(11))
    game.pause("admin", now=at + timedelta(seconds=5))
    later, much_later = at + timedelta(hours=1), at + timedelta(hours=2)
    rows = clock_rows(game, later)
    assert rows == clock_rows(game, much_later)  # nothing ticks while paused
    assert all(r["paused"] and not r["running"] for r in rows)
    line = clock_line(game, later)
    assert line is not None and "paused by the arbiter" in line
    assert "(running)" not in line and "must move by" not in line
    game.resume("admin", now=much_later)
    assert not any(r["paused"] for r in clock_rows(game, much_later))


def test_the_controls_doctests_hold() -> None:
    import doctest

    import domain.contract.endings
    import domain.ledger.clocks
    import domain.ledger.controls
    import domain.words.narration

    for module in (
        domain.ledger.clocks,
        domain.ledger.controls,
        domain.contract.endings,
        domain.words.narration,
    ):
        assert doctest.testmod(module).failed == 0, module.__name__


def test_the_controls_are_worded_as_the_server_sends_them(example: str) -> None:
    from google.protobuf import any_pb2

    from domain.ledger.aggregate import Game
    from services.proto.clock_messages import control_message, ended_message
    from services.proto.event_words import sentence

    game = new_game(example)
    at = play(game, 2, 5, random.Random(12))
    seat = game.to_act()[0]
    events = [
        *game.add_time(1 - seat, 30_000, "admin", now=at + timedelta(seconds=1)),
        *game.offer_draw(seat, now=at + timedelta(seconds=2)),
        *game.accept_draw(1 - seat, SEED, now=at + timedelta(seconds=3)),
    ]
    names = {0: "ann", 1: "bob"}
    words = []
    for event in events[:3]:
        packed = any_pb2.Any()
        if isinstance(event, Game.Controlled):
            packed.Pack(control_message(event))
        else:
            packed.Pack(ended_message(event))
        words.append(sentence(game.ruleset, names, game.type_name(event), packed))
    other = names[1 - seat]
    assert words == [
        f"admin gives {other} 30 s more.",
        f"{names[seat]} offers a draw.",
        f"{other} accepts the draw offer: the game is drawn.",
    ]


def test_a_snapshot_keeps_the_pause_the_added_time_and_the_offer(example: str) -> None:
    import json

    from domain.ledger.records import decode_aggregate_state, encode_aggregate_state

    game = new_game(example, control=PER_MOVE)
    at = play(game, 2, 5, random.Random(13))
    seat = game.to_act()[0]
    game.offer_draw(seat, now=at + timedelta(seconds=1))
    game.add_time(seat, 7_000, "admin", now=at + timedelta(seconds=2))
    game.pause("admin", now=at + timedelta(seconds=3))
    state = encode_aggregate_state(dict(vars(game)))
    encoded = json.loads(json.dumps(state, default=str))
    back = decode_aggregate_state(encoded)
    assert back["clock"] == game.clock and back["clock"].paused
    assert back["clock"].extra(seat) == 7_000
    assert (back["paused"], back["draw_offer"]) == (True, seat)
    assert back["offered_at"] == game.offered_at
    controls = ("paused", "draw_offer", "offered_at")
    older = {k: v for k, v in encoded.items() if k not in controls}
    before = decode_aggregate_state(older)  # a snapshot from before the controls
    assert (before["paused"], before["draw_offer"]) == (False, None)
    assert before["offered_at"] == (-1, -1)


def test_the_audit_finds_a_move_stored_while_paused(example: str) -> None:
    game = new_game(example, control=PER_MOVE)
    at = play(game, 2, 5, random.Random(14))
    game.pause("admin", now=at + timedelta(seconds=1))
    game.paused = False  # a server that ignored the pause
    seat, command = moving_seat_command(game, random.Random(15))
    game.act(command, seat, SEED, None, now=at + timedelta(seconds=2))
    report, _ = audited(game)
    assert {f.check for f in report.failures} == {"pause"}


CONTROL_STEPS = st.lists(
    st.tuples(
        st.sampled_from(
            ["move", "pause", "resume", "add", "offer", "decline", "accept"]
        ),
        st.integers(min_value=0, max_value=1),
        st.integers(min_value=1, max_value=40),
    ),
    max_size=25,
)


@settings(max_examples=100, deadline=None)
@given(steps=CONTROL_STEPS, fischer=st.booleans())
@hypothesis.example(steps=[("add", 0, 10)], fischer=True)
@hypothesis.example(
    steps=[("move", 0, 5), ("pause", 0, 9), ("resume", 0, 30)], fischer=False
)
def test_any_mix_of_controls_and_moves_replays_and_audits(
    steps: list[tuple[str, int, int]], fischer: bool
) -> None:
    """Whatever an arbiter and the players do, in any order, the game the
    log rebuilds is the one recorded, and the audit re-derives every clock
    (a refused control records nothing)."""
    from domain.contract.core import RuleError

    control = (
        TimeControl(kind=ClockKind.FISCHER, base_seconds=600, increment_seconds=1)
        if fischer
        else TimeControl(kind=ClockKind.PER_MOVE, per_move_seconds=60)
    )
    game = new_game("thalara-2p", control=control)
    rnd, at = random.Random(len(steps)), T0
    for kind, seat, seconds in steps:
        if game.is_over:
            break
        at += timedelta(seconds=seconds)
        if game.flagged(at) is not None:
            game.time_out(SEED, at, "timekeeper")
            break
        try:
            if kind == "move":
                mover, command = moving_seat_command(game, rnd)
                game.act(command, mover, SEED, None, now=at)
            elif kind == "pause":
                game.pause("admin", now=at)
            elif kind == "resume":
                game.resume("admin", now=at)
            elif kind == "add":
                game.add_time(seat, seconds * 1000, "admin", now=at)
            elif kind == "offer":
                game.offer_draw(seat, now=at)
            elif kind == "decline":
                game.decline_draw(seat, now=at)
            else:
                game.accept_draw(seat, SEED, now=at)
        except RuleError:
            continue
    if not game.is_over:  # the audit must find the very deadline recorded
        if game.paused:
            at += timedelta(seconds=1)
            game.resume("admin", now=at)
        due = game.next_deadline()
        if due is not None:
            when = datetime.fromtimestamp(due[1] / 1000, UTC)
            game.time_out(SEED, max(when, at + timedelta(milliseconds=1)), "timekeeper")
    report, rebuilt = audited(game)
    assert report.ok, report.failures
    assert rebuilt.clock == game.clock
    assert (rebuilt.paused, rebuilt.draw_offer) == (game.paused, game.draw_offer)
    assert rebuilt.outcome == game.outcome
