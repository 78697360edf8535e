"""Empty fields take their defaults: proto3 cannot tell "unset" from "empty"."""

from __future__ import annotations

import dataclasses

import pytest
from google.protobuf import any_pb2

from domain.contract.core import InvalidCommandError, Model
from domain.games import all_games, find_game
from ledger.v1 import terralore_pb2, thalara_pb2
from services.api.game_types import game_type
from services.proto import convert

THALARA = find_game("thalara")


def _packed(message):
    return convert.pack(message)


def test_an_empty_content_pack_name_means_the_default_pack():
    setup = convert.setup_from_any(
        THALARA, _packed(thalara_pb2.ThalaraSetup(players=2, mode="standard"))
    )
    assert setup.content == "sample"
    assert setup.characters == ()  # none named: the pack's first ones are dealt
    dealt = THALARA.initial_state(setup)
    assert [p.character for p in dealt.players] == ["myrja", "canto"]


def test_an_empty_setup_is_the_default_setup():
    setup = convert.setup_from_any(THALARA, _packed(thalara_pb2.ThalaraSetup()))
    assert setup == THALARA.setup_model()


def test_values_that_are_set_are_kept():
    setup = convert.setup_from_any(
        THALARA,
        _packed(
            thalara_pb2.ThalaraSetup(
                players=3, mode="casual_chaos", characters=["myrja", "canto", "myrja"]
            )
        ),
    )
    assert (setup.players, setup.mode) == (3, "casual_chaos")


def test_nested_empty_fields_take_their_defaults_too():
    ruleset = find_game("terralore")
    setup = convert.setup_from_any(
        ruleset,
        _packed(
            terralore_pb2.TerraloreSetup(
                players=2,
                decks=[terralore_pb2.DeckChoice(), terralore_pb2.DeckChoice()],
            )
        ),
    )
    assert [d.name for d in setup.decks] == ["", ""]


def test_a_value_outside_a_closed_set_is_refused_with_a_field_violation():
    with pytest.raises(InvalidCommandError) as caught:
        convert.setup_from_any(THALARA, _packed(thalara_pb2.ThalaraSetup(mode="chaos")))
    assert [field for field, _ in caught.value.violations] == ["mode"]


def test_the_mode_enum_is_the_typed_twin_of_the_mode_string():
    chaos = thalara_pb2.THALARA_MODE_CASUAL_CHAOS
    setup = convert.setup_from_any(
        THALARA, _packed(thalara_pb2.ThalaraSetup(mode_kind=chaos))
    )
    assert setup.mode == "casual_chaos"
    both = thalara_pb2.ThalaraSetup(mode="casual_chaos", mode_kind=chaos)
    assert convert.setup_from_any(THALARA, _packed(both)).mode == "casual_chaos"
    encoded = thalara_pb2.ThalaraSetup()
    convert.model_to_any(THALARA, setup).Unpack(encoded)
    assert (encoded.mode, encoded.mode_kind) == ("casual_chaos", chaos)


def test_a_mode_string_and_enum_that_disagree_are_refused():
    clash = thalara_pb2.ThalaraSetup(
        mode="standard", mode_kind=thalara_pb2.THALARA_MODE_CASUAL_CHAOS
    )
    with pytest.raises(InvalidCommandError, match="disagree"):
        convert.setup_from_any(THALARA, _packed(clash))


def test_views_and_events_are_read_back_exactly_not_defaulted():
    # a server-encoded model keeps its zero values (e.g. a score of 0)
    view = THALARA.view(THALARA.initial_state(THALARA.setup_model()), None or _admin())
    back = convert.model_from_any(
        THALARA, convert.model_to_any(THALARA, view), THALARA.view_model
    )
    assert back == view


def _admin():
    from domain.contract.core import ADMIN

    return ADMIN


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_no_setup_or_an_empty_any_is_every_games_default_two_player_table(game):
    for omitted in (None, any_pb2.Any()):
        setup = convert.setup_from_any(game, omitted)
        assert setup == game.setup_model() and setup.players == 2
        game.initial_state(setup)  # a table that sets up


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_list_game_types_offers_players_with_its_default(game):
    for pack in game_type(game).content_packs:
        (players,) = [f for f in pack.setup_fields if f.name == "players"]
        assert not players.required and players.default_json == "2"


def test_a_required_field_left_out_is_named_even_in_an_empty_any():
    class Needs(Model):
        players: int

    game = dataclasses.replace(THALARA, setup_model=Needs)
    for omitted in (None, any_pb2.Any()):
        with pytest.raises(InvalidCommandError) as caught:
            convert.setup_from_any(game, omitted)
        assert [field for field, _ in caught.value.violations] == ["players"]


def test_an_enum_number_the_enum_does_not_define_is_malformed_not_internal():
    with pytest.raises(InvalidCommandError) as caught:
        convert.setup_from_any(THALARA, _packed(thalara_pb2.ThalaraSetup(mode_kind=9)))
    assert [field for field, _ in caught.value.violations] == ["mode_kind"]
