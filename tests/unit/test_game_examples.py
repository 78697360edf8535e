"""Every registered game declares named example setups that cover it, and they work.

The bench, ``ledger demo``, the end-to-end tests and the fuzzer take their
tables from these examples, so an example that does not validate, or a player
count or mode no example shows, would go untested everywhere at once.
"""

from __future__ import annotations

import typing
from typing import Any, Literal

import pytest

from domain import games
from domain.contract.chance import HmacRng
from domain.contract.core import Ruleset
from domain.games import all_games, find_game, parse_games_setting, register

GAMES = all_games()


def closed_sets(ruleset: Ruleset[Any]) -> dict[str, set[str]]:
    """Setup fields with a ``Literal`` annotation (a mode), and their values."""
    out = {}
    for name, info in ruleset.setup_model.model_fields.items():
        if typing.get_origin(info.annotation) is Literal:
            out[name] = set(typing.get_args(info.annotation))
    return out


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_examples_cover_every_player_count_and_mode(game):
    assert {e.players for e in game.examples} == set(
        range(game.min_players, game.max_players + 1)
    )
    default = game.setup_model.model_validate({"players": game.min_players})
    for field, values in closed_sets(game).items():
        shown = {e.setup.get(field, getattr(default, field)) for e in game.examples}
        assert shown == values, f"{game.name}.{field}: no example for {values - shown}"


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_every_example_validates_and_starts_a_table(game):
    names = [e.name for e in game.examples]
    assert len(set(names)) == len(names)
    for example in game.examples:
        assert example.name.startswith(f"{game.name}-")
        setup = game.setup_model.model_validate(dict(example.setup))
        state = game.initial_state(setup)
        opening = game.start(state, HmacRng(b"example-seed", "v1"))
        state = game.replay(state, opening)
        assert game.to_act(state), f"{example.name}: nobody can move after start"


def test_an_example_is_found_by_name_and_a_typo_names_the_known_ones():
    thalara = find_game("thalara")
    assert thalara.example("thalara-2p-casual-chaos").setup["mode"] == "casual_chaos"
    with pytest.raises(KeyError, match="thalara-4p"):
        thalara.example("thalara-5p")


def test_the_games_setting_is_name_equals_module_pairs():
    assert parse_games_setting(" a=pkg.a, b = pkg.b ,") == {"a": "pkg.a", "b": "pkg.b"}
    with pytest.raises(ValueError, match="name=module"):
        parse_games_setting("tictactoe")


@pytest.fixture
def fresh_registry(monkeypatch):
    """The registry's caches and extras as if nothing had been registered yet."""
    monkeypatch.setattr(games, "_extra", {})
    monkeypatch.setattr(games, "_by_name", {})
    monkeypatch.delenv(games.ENV_VAR, raising=False)


def test_a_game_named_in_the_environment_is_registered(fresh_registry, monkeypatch):
    with pytest.raises(games.UnknownGameError):
        find_game("tictactoe")
    monkeypatch.setenv(games.ENV_VAR, "tictactoe=tests.games.tictactoe")
    assert find_game("tictactoe").title == "Tic-tac-toe"
    assert [g.name for g in all_games()][-1] == "tictactoe"


def test_register_adds_a_game_but_never_replaces_one(fresh_registry):
    register("tictactoe", "tests.games.tictactoe")
    assert find_game("tictactoe").stubs_module == "tests.games.tictactoe.tictactoe_pb2"
    with pytest.raises(ValueError, match="already registered"):
        register("thalara", "tests.games.tictactoe")


def test_a_registration_naming_no_game_module_is_a_clear_configuration_error(
    fresh_registry, monkeypatch
):
    monkeypatch.setenv(games.ENV_VAR, "typo=tests.games.tictactoo")
    with pytest.raises(games.UnknownGameError, match=r"'typo'.*LEDGER_GAMES"):
        all_games()
    monkeypatch.setenv(games.ENV_VAR, "nogame=tests.games")  # a package, no GAME
    with pytest.raises(games.UnknownGameError, match=r"'nogame'.*has no GAME"):
        all_games()
