"""The move encoders' value caches never change what goes in or out."""

from __future__ import annotations

import pytest
from google.protobuf import any_pb2

from domain.contract.core import InvalidCommandError
from domain.games import find_game
from domain.games.thalara.commands import Pass, PlayCard, SelectHand, SpellActivation
from services.proto import convert

THALARA = find_game("thalara")


def test_equal_commands_encode_equally_and_different_ones_differently():
    a = convert.command_to_any(THALARA, PlayCard(card="r01", conflict="a01"))
    b = convert.command_to_any(THALARA, PlayCard(card="r01", conflict="a01"))
    c = convert.command_to_any(THALARA, PlayCard(card="r01", conflict="a02"))
    d = convert.command_to_any(
        THALARA,
        PlayCard(
            card="r01",
            conflict="a01",
            spell=SpellActivation(spell="s1", conflict="a01"),
        ),
    )
    assert a.SerializeToString() == b.SerializeToString()
    assert (
        len({a.SerializeToString(), c.SerializeToString(), d.SerializeToString()}) == 3
    )


@pytest.mark.parametrize(
    "command",
    [
        Pass(),
        SelectHand(cards=("r01", "r02")),
        PlayCard(card="r03", conflict="a02"),
        PlayCard(
            card="r03",
            conflict="a02",
            spell=SpellActivation(spell="s2", conflict="a01", target="r09"),
        ),
    ],
)
def test_a_move_parsed_twice_is_the_same_move(command):
    packed = convert.command_to_any(THALARA, command)
    first = convert.command_from_any(THALARA, packed)
    again = convert.command_from_any(
        THALARA, any_pb2.Any(type_url=packed.type_url, value=packed.value)
    )
    assert first == again == command


def test_refused_input_is_refused_every_time_not_remembered():
    wrong_type = any_pb2.Any(
        type_url="type.googleapis.com/ledger.v1.terralore.Move", value=b""
    )
    empty = convert.command_to_any(THALARA, Pass())
    no_kind = any_pb2.Any(type_url=empty.type_url, value=b"")
    for _ in range(2):
        with pytest.raises(InvalidCommandError):
            convert.command_from_any(THALARA, wrong_type)
        with pytest.raises(InvalidCommandError, match="no kind"):
            convert.command_from_any(THALARA, no_kind)
