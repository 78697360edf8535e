"""``domain.ledger.simulate``: replay rebuilds from stored records, so replay == live can fail."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from pydantic import Field

from domain.contract.core import (
    Command,
    Event,
    Model,
    Outcome,
    Ruleset,
    State,
    Termination,
)
from domain.games import all_games
from domain.ledger.records import canonical_json
from domain.ledger.simulate import apply, begin, decode_event, play_random_game, rng_for
from tests.support.contract import assert_accepted, assert_replay_equals_live


class CountSetup(Model):
    players: int = 1


class Add(Command):
    pass


class Added(Event):
    amount: int
    note: str = Field(default="", exclude=True)
    """Excluded from dumps: lost in storage, which is the bug the toy models."""


class Tally(State):
    total: int = 0
    notes: tuple[str, ...] = ()


class TallyView(Model):
    total: int


def toy_ruleset(note: str) -> Ruleset[Tally]:
    """Three ``Add`` moves end the game; each event carries ``note`` (unstored)."""

    def evolve(state: Tally, event: Event) -> Tally:
        if not isinstance(event, Added):
            raise TypeError(event)
        return Tally(total=state.total + event.amount, notes=(*state.notes, event.note))

    def is_over(state: Tally) -> bool:
        return len(state.notes) >= 3

    return Ruleset(
        name="toy",
        title="Toy",
        min_players=1,
        max_players=1,
        setup_model=CountSetup,
        command_types=(Add,),
        event_types=(Added,),
        view_model=TallyView,
        state_model=Tally,
        initial_state=lambda setup: Tally(),
        start=lambda state, rng: [Added(amount=rng.roll(6), note=note)],
        decide=lambda state, cmd, seat, rng: [Added(amount=rng.roll(6), note=note)],
        evolve=evolve,
        view=lambda state, viewer: TallyView(total=state.total),
        redact=lambda event, viewer: event,
        legal_commands=lambda state, seat: [Add()],
        to_act=lambda state: () if is_over(state) else (0,),
        is_over=is_over,
        outcome=lambda state: Outcome(
            termination=Termination.COMPLETED,
            ranks=(1,),
            scores=(state.total,),
            winners=(0,),
        ),
    )


def test_replay_equals_live_when_every_event_survives_storage():
    play = play_random_game(toy_ruleset(note=""), CountSetup(), 1)
    assert play.replayed() == play.state
    assert play.state.total >= 3


def test_replay_differs_from_live_when_an_event_loses_a_field_in_storage():
    play = play_random_game(toy_ruleset(note="kept only in memory"), CountSetup(), 1)
    assert play.state.notes == ("kept only in memory",) * 3
    replayed = play.replayed()
    assert replayed.total == play.state.total
    assert replayed.notes == ("",) * 3
    with pytest.raises(AssertionError):
        assert_replay_equals_live(play)


def test_stored_records_are_the_ledger_body_in_canonical_json():
    play = play_random_game(toy_ruleset(note="x"), CountSetup(), 2)
    records = play.stored_records()
    assert [t for t, _ in records] == ["toy.Added"] * 3
    for (type_, data), event in zip(records, play.events):
        body = json.loads(data)
        assert data == canonical_json(body)
        assert body["payload"] == {"amount": event.amount}
        assert set(body) == {"payload", "decision", "actor", "command_id", "command"}
        assert decode_event(play.ruleset, type_, data) == event.model_copy(
            update={"note": ""}
        )


def test_decode_event_refuses_another_games_type_name():
    play = play_random_game(toy_ruleset(note=""), CountSetup(), 3)
    _, data = play.stored_records()[0]
    with pytest.raises(KeyError):
        decode_event(play.ruleset, "thalara.Added", data)
    with pytest.raises(KeyError):
        decode_event(play.ruleset, "toy.Nope", data)


@pytest.mark.parametrize("game", all_games(), ids=[g.name for g in all_games()])
def test_real_games_replay_from_stored_records_equal_live(game: Ruleset[Any]):
    setup = game.setup_model.model_validate({"players": game.min_players})
    play = play_random_game(game, setup, 11)
    decoded = [decode_event(game, t, d) for t, d in play.stored_records()]
    assert decoded == play.events
    assert all(a is not b for a, b in zip(decoded, play.events))
    assert play.replayed() == play.state


def test_replayed_follows_events_applied_after_an_earlier_call():
    game = toy_ruleset(note="")
    play = play_random_game(game, CountSetup(), 4)
    first = play.replayed()
    assert play.replayed() is first
    apply(play, 0, Add(), (Added(amount=100),))
    assert play.replayed() == play.state and play.replayed().total == first.total + 100


def test_replayed_notices_an_event_swapped_in_place():
    play = play_random_game(toy_ruleset(note=""), CountSetup(), 5)
    before = play.replayed()
    play.events[1] = Added(amount=play.events[1].amount + 1)
    assert play.replayed().total == before.total + 1


@pytest.mark.parametrize("game", all_games(), ids=[g.name for g in all_games()])
def test_a_decide_that_records_nothing_fails_the_random_game_checks(
    game: Ruleset[Any],
):
    """The random-game tests do not merely check that ``decide`` does not raise."""
    silent = dataclasses.replace(game, decide=lambda state, command, seat, rng: [])
    setup = game.setup_model.model_validate({"players": game.min_players})
    with pytest.raises(AssertionError, match="recorded no event"):
        play_random_game(silent, setup, 3)
    play = begin(game, setup, b"\x03" * 32)
    seat = game.to_act(play.state)[0]
    command = next(iter(game.legal_commands(play.state, seat)))
    assert_accepted(game, play.state, command, seat, rng_for(b"k", 2))
    with pytest.raises(AssertionError, match="recorded no event"):
        assert_accepted(silent, play.state, command, seat, rng_for(b"k", 2))
    idle = dataclasses.replace(
        game, decide=lambda state, command, seat, rng: [Added(amount=0)]
    )
    idle = dataclasses.replace(idle, evolve=lambda state, event: state)
    with pytest.raises(AssertionError, match="changed nothing"):
        assert_accepted(idle, play.state, command, seat, rng_for(b"k", 2))
