"""The click-target contract between the drawn boards and a page that moves by
clicking them (:mod:`domain.words.targets`), and the doctests of the board
modules (names, layouts and their lines)."""

from __future__ import annotations

import doctest

import pytest

from domain.games.terralore.commands import Lane, PlaceCards, Play
from domain.games.thorgal.commands import Choose, Option, PickEnemy, TakeAction
from domain.words import board_layout, board_svg, board_text, targets
from domain.words.targets import alternatives, command_pairs, pair, selects


@pytest.mark.parametrize("module", [targets, board_layout, board_text, board_svg])
def test_the_doctests_of_the_board_modules_hold(module):
    assert doctest.testmod(module).failed == 0


def test_pairs_are_named_by_each_fields_own_name_at_any_depth():
    move = PlaceCards(
        plays=(Play(card="imp", lane=Lane.ATTACKING),),
        discards=("hound", "drake"),
    )
    assert command_pairs(move) == {
        "card:imp",
        "lane:attacking",
        "discards:hound",
        "discards:drake",
    }


def test_an_alternative_selects_only_when_all_its_pairs_are_in_the_move():
    token = "location:keep,index:1"
    assert selects(
        token, Choose(option=Option(pick_enemy=PickEnemy(location="keep", index=1)))
    )
    assert not selects(
        token, Choose(option=Option(pick_enemy=PickEnemy(location="keep", index=0)))
    )
    assert not selects(token, TakeAction(chip=1, slot=1))
    assert selects("slot:2 chip:0", TakeAction(chip=0, slot=5))
    assert alternatives("a:1 b:2,c:3") == [{"a:1"}, {"b:2", "c:3"}]


def test_a_value_that_would_break_the_list_is_refused():
    with pytest.raises(ValueError, match="space or comma"):
        pair("card", "two words")
    with pytest.raises(ValueError, match="space or comma"):
        pair("card", "a,b")
