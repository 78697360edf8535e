"""Seats dropping out of multi-player games: the rulesets' consequences and
the ledger's automatic moves, on the aggregate alone (no database).

A seat that resigns or runs out of time at a table of three or more drops
out: the ledger moves for it whenever the game waits on it, its clock stops,
it ranks below every seat still playing, and the last seat playing wins.
Every test audits the recorded log and replays it.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from domain.audit.game_audit import audit_records
from domain.contract.chance import HmacRng
from domain.contract.core import Termination
from domain.contract.endings import ClockFlaggedError, Consequence, DroppedOutError
from domain.games import find_game
from domain.ledger.aggregate import Game
from domain.ledger.clocks import ClockKind, TimeControl
from domain.ledger.replay import replay
from domain.ledger.stored_events import decode
from services.storage.mapper import LedgerMapper

SEED = b"d" * 32
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
PER_MOVE = TimeControl(kind=ClockKind.PER_MOVE, per_move_seconds=30)


def new_game(example: str, control: TimeControl | None = PER_MOVE) -> Game:
    ruleset = find_game(example.split("-")[0])
    setup = ruleset.setup_model(**ruleset.example(example).setup)
    return Game.create(ruleset, setup, SEED, ("dropout",), time_control=control, now=T0)


def play(game: Game, rnd: random.Random, at: datetime, moves: int = 10_000) -> datetime:
    """Random moves by the seats still playing, 5 s apart, until the game ends."""
    for _ in range(moves):
        if game.is_over:
            break
        seat = game.to_act()[0]
        assert seat not in game.dropped  # the ledger never waits on a dropped seat
        command = game.ruleset.random_command(game.state, seat, rnd)
        assert command is not None
        at += timedelta(seconds=5)
        game.act(command, seat, SEED, None, now=at)
    return at


def rows(game: Game) -> list[tuple[int, str, bytes]]:
    mapper = LedgerMapper()
    out = []
    for event in game.collect_events():
        row = mapper.to_stored_event(event)
        out.append((row.originator_version, row.topic, row.state))
    return out


def audited(game: Game) -> tuple[Any, Game]:
    stored = rows(game)
    report = audit_records(str(game.id), stored)
    rebuilt = replay(None, [decode(game.id, v, t, d) for v, t, d in stored])
    return report, rebuilt


def automatic_decisions(game: Game, seat: int) -> list[Any]:
    return [
        e
        for e in game.pending_events
        if isinstance(e, Game.Decided) and e.actor == seat and e.command is not None
    ]


# ------------------------------------------------------------ the rulesets


@pytest.mark.parametrize(
    ("example", "expected"),
    [
        ("thalara-2p", Consequence.SEAT_LOSES),
        ("thalara-3p", Consequence.DROPS_OUT),
        ("thalara-4p", Consequence.DROPS_OUT),
        ("vaalbara-2p", Consequence.SEAT_LOSES),
        ("vaalbara-3p", Consequence.DROPS_OUT),
        ("vaalbara-5p", Consequence.DROPS_OUT),
    ],
)
def test_each_competitive_ruleset_drops_a_leaver_out_only_at_three_or_more(
    example: str, expected: Consequence
) -> None:
    game = new_game(example)
    for seat in range(game.seat_count):
        assert game.ruleset.consequence(game.state, seat) is expected


def test_a_dropped_thalara_seat_passes_in_play_and_takes_a_legal_hand_otherwise() -> (
    None
):
    from domain.games.thalara.commands import Pass
    from domain.games.thalara.state import PLAY, SELECT

    game = new_game("thalara-3p", control=None)
    rules = game.ruleset
    assert game.state.phase == SELECT
    for seat in game.to_act():
        command = rules.automatic_command(game.state, seat)
        assert rules.decide(game.state, command, seat, HmacRng(b"x", "t"))  # legal
        assert command == rules.automatic_command(game.state, seat)  # deterministic
    rnd = random.Random(3)
    while game.state.phase != PLAY:
        seat = game.to_act()[0]
        move = rules.random_command(game.state, seat, rnd)
        assert move is not None
        game.act(move, seat, SEED, None)
    seat = game.to_act()[0]
    assert rules.automatic_command(game.state, seat) == Pass()


def test_a_dropped_vaalbara_seat_declines_its_fighter_and_otherwise_takes_a_legal_option() -> (
    None
):
    from domain.games.vaalbara.commands import DeclineFighter
    from domain.games.vaalbara.state import FIGHTER_STEP

    rules = find_game("vaalbara")
    checked_fighter = False
    for seed in range(40):
        game = new_game("vaalbara-4p", control=None)
        rnd = random.Random(seed)
        while not game.is_over:
            for seat in game.to_act():
                command = rules.automatic_command(game.state, seat)
                legal = list(rules.legal_commands(game.state, seat))
                assert command in legal
                if game.state.step == FIGHTER_STEP:
                    assert command == DeclineFighter()
                    checked_fighter = True
            seat = game.to_act()[0]
            move = rules.random_command(game.state, seat, rnd)
            assert move is not None
            game.act(move, seat, SEED, None)
        if checked_fighter:
            break
    assert checked_fighter


# ------------------------------------------------------------ the ledger


@pytest.mark.parametrize("example", ["thalara-3p", "vaalbara-3p", "vaalbara-4p"])
def test_a_seat_that_resigns_drops_out_and_the_others_finish_the_game(
    example: str,
) -> None:
    game = new_game(example)
    rnd = random.Random(7)
    at = play(game, rnd, T0, moves=4)
    leaver = next(s for s in range(game.seat_count) if s not in game.to_act())
    at += timedelta(seconds=1)
    game.resign(leaver, SEED, f"seat:{leaver}", now=at)
    assert not game.is_over
    assert game.dropped == (leaver,)
    assert game.ending is None
    with pytest.raises(DroppedOutError):
        game.resign(leaver, SEED, f"seat:{leaver}", now=at)
    play(game, rnd, at)
    assert game.outcome is not None
    assert game.outcome.termination is Termination.COMPLETED
    assert game.outcome.ranks[leaver] == game.seat_count
    assert leaver not in game.outcome.winners
    assert min(r for s, r in enumerate(game.outcome.ranks) if s != leaver) == 1
    assert automatic_decisions(game, leaver), "the ledger moved for the dropped seat"
    report, rebuilt = audited(game)
    assert report.ok, report.failures
    assert rebuilt.outcome == game.outcome
    assert rebuilt.dropped == (leaver,)


def test_a_dropped_seat_may_not_move_and_its_clock_stops() -> None:
    game = new_game("thalara-3p")
    at = T0 + timedelta(seconds=1)
    seat = game.to_act()[0]
    game.resign(seat, SEED, f"seat:{seat}", now=at)
    assert game.clock is not None
    assert game.clock.since_ms[seat] is None
    assert seat not in game.to_act()
    command = game.ruleset.legal_moves(game.state, seat)
    with pytest.raises(DroppedOutError):
        game.act(command[0] if command else None, seat, SEED, None, now=at)  # type: ignore[arg-type]


def test_a_seat_that_times_out_drops_out_and_the_last_seat_playing_wins() -> None:
    game = new_game("thalara-3p")
    rnd = random.Random(5)
    at = play(game, rnd, T0, moves=3)
    due = game.next_deadline()
    assert due is not None
    first, deadline = due
    at = datetime.fromtimestamp(deadline / 1000, UTC) + timedelta(seconds=1)
    game.time_out(SEED, at, "timekeeper")
    assert not game.is_over
    assert game.dropped == (first,)
    at = play(game, rnd, at, moves=3)
    assert not game.is_over
    second = next(s for s in game.to_act() if s not in game.dropped)
    at += timedelta(seconds=1)
    game.resign(second, SEED, f"seat:{second}", now=at)
    assert game.outcome is not None
    last = ({0, 1, 2} - {first, second}).pop()
    assert game.outcome.winners == (last,)
    assert game.outcome.termination is Termination.RESIGNED
    assert game.outcome.ranks[last] == 1
    assert game.outcome.ranks[second] == 2
    assert game.outcome.ranks[first] == 3
    report, rebuilt = audited(game)
    assert report.ok, report.failures
    assert rebuilt.outcome == game.outcome


def test_the_audit_refuses_a_dropped_seat_move_other_than_its_automatic_one() -> None:
    """A log where a dropped seat made a move of the ledger's choosing other
    than the ruleset's automatic one fails the audit."""
    from domain.games.thalara.rules import leaving
    from domain.ledger.records import command_record

    game = new_game("thalara-3p")
    rnd = random.Random(9)
    at = play(game, rnd, T0, moves=4)
    seat = game.to_act()[0]
    rules = game.ruleset

    def forged(state: Any, s: int) -> Any:
        honest = leaving.automatic_command(state, s)
        others = (
            c
            for c in rules.legal_moves(state, s)
            if command_record(c) != command_record(honest)
        )
        return next(others, honest)

    object.__setattr__(rules, "autoplay", forged)
    try:
        game.resign(seat, SEED, f"seat:{seat}", now=at + timedelta(seconds=1))
        play(game, rnd, at + timedelta(seconds=2), moves=30)
    finally:
        object.__setattr__(rules, "autoplay", leaving.automatic_command)
    assert automatic_decisions(game, seat)
    report, _ = audited(game)
    assert not report.ok
    assert any(f.check == "dropped-out" for f in report.failures), report.failures


def test_in_a_game_with_seat_keys_the_ledgers_moves_for_a_dropped_seat_need_no_signature() -> (
    None
):
    """Every seat still playing signs its moves; the ledger's automatic moves
    for a dropped seat carry no signature, and the audit accepts the game."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    from domain.ledger.signatures import SignedMove, move_message

    keys = [Ed25519PrivateKey.generate() for _ in range(3)]
    ruleset = find_game("thalara")
    setup = ruleset.setup_model(**ruleset.example("thalara-3p").setup)
    game = Game.create(
        ruleset,
        setup,
        SEED,
        ("dropout",),
        seat_keys=tuple(
            k.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
            for k in keys
        ),
        time_control=None,
        now=T0,
    )
    rnd = random.Random(4)
    leaver = 1
    game.resign(leaver, SEED, "seat:1", now=T0)
    moves = 0
    while not game.is_over:
        seat = game.to_act()[0]
        command = ruleset.random_command(game.state, seat, rnd)
        assert command is not None
        command_id = f"m{moves}"
        body = command.model_dump_json().encode()
        signature = keys[seat].sign(
            move_message(str(game.id), command_id, game.version, "t/x.Move", body)
        )
        signed = SignedMove("t/x.Move", body, signature, game.version)
        game.act(command, seat, SEED, command_id, signed)
        moves += 1
    assert automatic_decisions(game, leaver)
    report, _ = audited(game)
    assert report.ok, report.failures


@pytest.mark.parametrize(
    "example", ["thalara-3p", "thalara-4p", "vaalbara-3p", "vaalbara-4p", "vaalbara-5p"]
)
def test_random_drop_outs_never_stall_a_game_and_every_log_verifies(
    example: str,
) -> None:
    """Seats leave at random moments, by resigning or on time; whatever the
    table, the game is never left waiting on a dropped seat, it concludes,
    the dropped seats rank below the others, and the audit re-derives it."""
    for seed in range(6):
        rnd = random.Random(seed)
        game = new_game(example)
        at = T0
        while not game.is_over:
            try:
                if rnd.random() < 0.04:
                    playing = [
                        s for s in range(game.seat_count) if s not in game.dropped
                    ]
                    leaver = rnd.choice(playing)
                    at += timedelta(seconds=1)
                    game.resign(leaver, SEED, f"seat:{leaver}", now=at)
                elif rnd.random() < 0.02:
                    due = game.next_deadline()
                    assert due is not None
                    at = datetime.fromtimestamp(due[1] / 1000, UTC)
                    game.time_out(SEED, at, "timekeeper")
                else:
                    at = play(game, rnd, at, moves=1)
            except ClockFlaggedError:  # seats asked together run out together
                game.time_out(SEED, at, "timekeeper")
        assert game.outcome is not None
        playing = [s for s in range(game.seat_count) if s not in game.dropped]
        assert all(
            game.outcome.ranks[d] > game.outcome.ranks[p]
            for d in game.dropped
            for p in playing
        )
        assert set(game.outcome.winners) <= set(playing)
        report, rebuilt = audited(game)
        assert report.ok, (seed, report.failures)
        assert rebuilt.outcome == game.outcome


def test_a_snapshot_keeps_the_seats_that_dropped_out() -> None:
    import json

    from domain.ledger.records import decode_aggregate_state, encode_aggregate_state

    game = new_game("vaalbara-4p")
    game.resign(3, SEED, "seat:3", now=T0 + timedelta(seconds=1))
    game.resign(0, SEED, "seat:0", now=T0 + timedelta(seconds=2))
    encoded = json.loads(
        json.dumps(encode_aggregate_state(dict(vars(game))), default=str)
    )
    back = decode_aggregate_state(encoded)
    assert back["dropped"] == (3, 0)
    del encoded["dropped"]  # a snapshot taken before seats could drop out
    assert decode_aggregate_state(encoded)["dropped"] == ()


def test_the_ledgers_moves_for_a_dropped_seat_do_not_count_towards_the_abort_limit() -> (
    None
):
    game = new_game("thalara-3p")
    game.resign(2, SEED, "seat:2", now=T0 + timedelta(seconds=1))
    assert automatic_decisions(game, 2)  # the ledger selected its hand
    assert game.moves_made == 0
    play(game, random.Random(1), T0 + timedelta(seconds=1), moves=1)
    assert game.moves_made == 1  # below the default limit of two
    game.abort("admin", "a player left at once", SEED, now=T0 + timedelta(seconds=9))
    assert game.outcome is not None
    assert game.outcome.termination is Termination.ABORTED
    report, _ = audited(game)
    assert report.ok, report.failures
