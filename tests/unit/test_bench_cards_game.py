"""The bench's cards game (the peer benchmark's game) through its pure decider."""

from __future__ import annotations

import random

import pytest

from bench.games.cards import GAME
from bench.games.cards.models import MOVES, CardPlayed, CardsSetup, PlayCard
from domain.contract.core import GameOverError, InvalidCommandError, NotYourTurnError
from domain.ledger.simulate import play_random_game, rng_for


def test_a_game_goes_on_until_move_100_and_ends_exactly_there() -> None:
    state = GAME.initial_state(CardsSetup())
    for event in GAME.start(state, rng_for(b"s", 1)):
        state = GAME.evolve(state, event)
    played = 0
    while not GAME.is_over(state):
        (seat,) = GAME.to_act(state)
        assert seat == played % 2, "the seats alternate, seat 0 first"
        assert GAME.outcome(state) is None
        command = PlayCard(card=played % 10 + 1)
        assert command in tuple(GAME.legal_commands(state, seat))
        events = GAME.decide(state, command, seat, rng_for(b"s", played + 2))
        assert events == (CardPlayed(seat=seat, card=command.card),)
        for event in events:
            state = GAME.evolve(state, event)
        played += 1
        assert played <= MOVES, "the game must end at move 100"
    assert played == MOVES == 100
    assert GAME.to_act(state) == ()
    assert tuple(GAME.legal_commands(state, 0)) == ()
    with pytest.raises(GameOverError):
        GAME.decide(state, PlayCard(card=1), played % 2, rng_for(b"s", 200))
    # seat 0 played 1,3,5,7,9 and seat 1 2,4,6,8,10 ten times over
    assert state.totals == (250, 300)
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == (1,) and outcome.ranks == (2, 1)


def test_equal_totals_are_a_draw() -> None:
    state = GAME.initial_state(CardsSetup())
    for event in GAME.start(state, rng_for(b"s", 1)):
        state = GAME.evolve(state, event)
    for n in range(MOVES):
        state = GAME.evolve(state, CardPlayed(seat=n % 2, card=5))
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == (0, 1) and outcome.ranks == (1, 1)


def test_random_legal_games_all_last_exactly_100_moves() -> None:
    for seed in range(5):
        play = play_random_game(GAME, CardsSetup(), seed)
        moves = [e for e in play.events if isinstance(e, CardPlayed)]
        assert len(moves) == MOVES
        assert GAME.is_over(play.state)
        assert not any(GAME.is_over(s) for s in play.states[:-1])


def test_a_card_off_the_range_or_out_of_turn_is_refused() -> None:
    state = GAME.initial_state(CardsSetup())
    for event in GAME.start(state, rng_for(b"s", 1)):
        state = GAME.evolve(state, event)
    rng = rng_for(b"s", 2)
    for card in (0, 11):
        with pytest.raises(InvalidCommandError):
            GAME.decide(state, PlayCard(card=card), 0, rng)
    with pytest.raises(NotYourTurnError):
        GAME.decide(state, PlayCard(card=random.randint(1, 10)), 1, rng)
