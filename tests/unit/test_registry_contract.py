"""Every registered ruleset honours the decider and protobuf contracts."""

from __future__ import annotations

import pytest

from domain.games import REGISTRY, UnknownGameError, all_games, find_game, modules
from domain.ledger.simulate import play_random_game
from tests.support.contract import (
    assert_proto_contract,
    assert_replay_equals_live,
    assert_round_trips,
)

GAMES = all_games()


def test_find_game_raises_on_unknown_names():
    with pytest.raises(UnknownGameError):
        find_game("chess")
    assert find_game(" THALARA ").name == "thalara"


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_each_game_has_a_complete_protobuf_twin(game):
    assert_proto_contract(game)


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_each_game_plays_to_an_end_and_replays_identically(game):
    setup = game.setup_model(players=game.min_players)
    for seed in range(3):
        play = play_random_game(game, setup, seed)
        assert game.is_over(play.state) and game.outcome(play.state) is not None
        assert_replay_equals_live(play)
        assert_round_trips(play)


def test_every_game_has_a_labelled_content_pack():
    assert {g.name for g in GAMES} == set(modules())
    assert all(g.content_label for g in GAMES)


WITH_CHANCE = [g for g in GAMES if g.chance_outcomes is not None]
"""Games that draw chance (a registered tic-tac-toe draws none)."""


def test_every_shipped_game_reports_its_chance():
    assert set(REGISTRY) <= {g.name for g in WITH_CHANCE}


@pytest.mark.parametrize("game", WITH_CHANCE, ids=[g.name for g in WITH_CHANCE])
def test_chance_events_cover_every_event_with_chance_outcomes(game):
    """The fairness view reads only ``chance_events``: a draw anywhere else would be lost."""
    assert game.chance_outcomes and game.chance_events
    found: set[type] = set()
    for seed in range(4):
        play = play_random_game(
            game, game.setup_model(players=game.min_players), 100 + seed
        )
        with_chance = {type(e) for e in play.events if game.chance_outcomes(e)}
        assert with_chance <= set(game.chance_events), with_chance - set(
            game.chance_events
        )
        found |= with_chance
    assert found, "random games recorded no chance at all"


def test_a_ruleset_that_declares_no_hooks_gets_the_contract_defaults():
    """One seat a player, the leaver loses, a dropped seat plays the first
    legal command and a random command comes from the legal list."""
    import dataclasses
    import random

    from domain.contract.chance import HmacRng
    from domain.contract.core import Consequence
    from tests.games.tictactoe import GAME as TICTACTOE
    from tests.games.tictactoe.models import Place

    game = TICTACTOE
    assert (game.sampler, game.autoplay) == (None, None)
    setup = game.setup_model(players=2)
    state = game.replay(game.initial_state(setup), [])
    state = game.replay(state, game.start(state, HmacRng(b"seed", "t")))
    seat = game.to_act(state)[0]
    legal = list(game.legal_commands(state, seat))
    assert game.player_seats(setup) == ((0,), (1,))
    assert game.consequence(state, seat) is Consequence.SEAT_LOSES
    assert game.automatic_command(state, seat) == legal[0]
    picks = {game.random_command(state, seat, random.Random(n)) for n in range(40)}
    assert picks <= set(legal) and len(picks) > 1

    corner = Place(cell=8)
    own = dataclasses.replace(
        game, sampler=lambda *_: corner, autoplay=lambda *_: corner
    )
    assert own.random_command(state, seat, random.Random(0)) == corner
    assert own.automatic_command(state, seat) == corner
