"""Typed moves: Choose carries a typed Option, PlaceTile a pose; both cross the API as protobuf."""

from __future__ import annotations

import pytest

from domain.contract.core import ADMIN, InvalidCommandError
from domain.games.thorgal import GAME
from domain.games.thorgal import events as E
from domain.games.thorgal.commands import (
    Choose,
    GiveGood,
    MoveTo,
    Option,
    PickEnemy,
    PlaceTile,
    Proceed,
)
from domain.games.thorgal.rules import polyomino as P
from domain.games.thorgal.rules.options import PROCEED, notation, parse_option
from ledger.v1 import thorgal_pb2
from services.proto import convert
from tests.unit.test_thorgal_choices import moving
from tests.unit.test_thorgal_rules import combat_position, do, fresh, hero, opts


@pytest.mark.parametrize(
    "name",
    [
        "proceed",
        "agree",
        "refuse",
        "skill",
        "refresh",
        "cancel",
        "item:bow",
        "swap:A04",
        "cell:33",
        "terrain:1",
        "loc:smithy",
        "give:1:ore",
        "take:axe",
        "discard:axe",
        "plot:0",
        "enemy:keep:0",
        "good:fate",
        "card:N1",
        "die:2",
        "reroll:0",
        "crit:1",
        "seat:3",
        "tile:0",
        "track:journey",
        "area:forest:red0:blue1",
    ],
)
def test_every_option_name_reads_back_to_the_same_typed_option(name):
    assert notation(parse_option(name)) == name


def test_an_option_sets_exactly_one_answer():
    with pytest.raises(ValueError):
        Option()
    with pytest.raises(ValueError):
        Option(proceed=Proceed(), give_good=GiveGood(from_seat=0, good="ore"))


def test_a_choose_move_is_a_typed_protobuf_oneof_not_a_string():
    cmd = Choose(option=Option(pick_enemy=PickEnemy(location="keep", index=0)))
    packed = convert.command_to_any(GAME, cmd)
    move = thorgal_pb2.Move()
    packed.Unpack(move)
    assert move.choose.option.WhichOneof("kind") == "pick_enemy"
    assert move.choose.option.pick_enemy.location == "keep"
    assert convert.command_from_any(GAME, packed) == cmd


def test_a_choose_with_no_option_or_two_options_is_malformed():
    for choose in (
        thorgal_pb2.Choose(),
        thorgal_pb2.Choose(option=thorgal_pb2.Option()),
    ):
        packed = convert.pack(thorgal_pb2.Move(choose=choose))
        with pytest.raises(InvalidCommandError):
            convert.command_from_any(GAME, packed)


def test_the_view_lists_exactly_the_options_choose_accepts():
    s = hero(fresh(), 0, area="forest", goods=(0, 0, 0, 1, 0, 0))
    s = moving(s, 3)
    shown = GAME.view(s, ADMIN).pending.options
    legal = [c.option for c in GAME.legal_commands(s, 0)]
    assert list(shown) == legal
    assert Option(move_to=MoveTo(area="ruins", reds=0, blues=1)) in legal
    back = convert.model_from_any(
        GAME, convert.model_to_any(GAME, GAME.view(s, ADMIN)), GAME.view_model
    )
    assert back.pending.options == shown


def test_the_decision_records_the_typed_option():
    s = hero(fresh(), 0, area="forest", goods=(0, 0, 0, 1, 0, 0))
    s = moving(s, 3)
    _, ev = do(s, Choose(option=parse_option("area:ruins:red1:blue0")))
    assert (
        E.ChoiceMade(seat=0, kind="move", option=parse_option("area:ruins:red1:blue0"))
        in ev
    )
    assert opts(s)[0].startswith("area:")
    assert PROCEED not in GAME.view(s, ADMIN).pending.options


def test_a_tile_pose_is_mirror_then_quarter_turns_clockwise():
    assert P.posed("V3", 0, False) == frozenset({(0, 0), (1, 0), (1, 1)})
    assert P.posed("V3", 1, False) == frozenset({(0, 0), (0, 1), (1, 0)})
    assert P.posed("V3", 0, True) == frozenset({(0, 1), (1, 0), (1, 1)})
    for shape in P.SHAPES:
        for o, form in enumerate(P.orientations(shape)):
            assert P.posed(shape, *P.pose(shape, o)) == form


def test_any_pose_covering_the_listed_cells_is_the_same_placement():
    s = combat_position(("hh",), ("I2",))
    listed = [c for c in GAME.legal_commands(s, 0) if isinstance(c, PlaceTile)]
    assert listed == [PlaceTile(shape="I2", rotation=0, mirrored=False, row=0, col=0)]
    _, ev = do(s, PlaceTile(shape="I2", rotation=2, mirrored=True, row=0, col=0))
    assert E.CombatTilePlaced(shape="I2", cells=(0, 1)) in ev
    with pytest.raises(InvalidCommandError):
        do(s, PlaceTile(shape="I2", rotation=4, row=0, col=0))


def test_each_constructor_declares_its_message_fields_in_order():
    """The constructors are built from a table, so mypy checks callers against
    the declared ``Callable`` alone: the declaration must match the message."""
    from typing import get_args, get_type_hints

    from domain.games.thorgal.rules import options

    declared = {
        name: hint
        for name, hint in get_type_hints(options).items()
        if not name.startswith("_")
    }
    assert len(declared) == 19
    for name, hint in declared.items():
        message = get_args(Option.model_fields[name].annotation)[0]
        params, result = get_args(hint)
        fields = [info.annotation for info in message.model_fields.values()]
        assert (params, result) == (fields, Option), name
        values = [1 if t is int else "x" for t in fields]
        assert getattr(options, name)(*values) == Option(
            **{name: message(**dict(zip(message.model_fields, values)))}
        )
