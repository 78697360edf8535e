"""Borders and the Journey path, from hand-made positions.

Borders: the sample Map has a double Border (Forest-Pass, ``count: 2``) and
two Impassable ones (Pass-Ruins, Village-Shrine).  Journey: the tiles at or
below the Journey tracker, the marked column revealing a Terrain card with
its bonus (only for the first tile in that column), and the exhausted deck.
"""

from __future__ import annotations

import pytest

from domain.contract.core import IllegalCommandError
from domain.games.thorgal import GAME
from domain.games.thorgal import events as E
from domain.games.thorgal.commands import PlaceTile
from domain.games.thorgal.content import load
from domain.games.thorgal.rules import polyomino as P
from domain.games.thorgal.state import Act, Task, Tile, enc
from tests.unit.test_thorgal_choices import then
from tests.unit.test_thorgal_rules import choose, do, fresh, hero, opts

C = load()


def moving(state, value, round=3):
    return then(
        state,
        Task(op="do", arg="move", seat=0),
        act=Act(seat=0, action="move", value=value),
        round=round,
    )


def alone_in(area, goods=(0,) * 6):
    """Seat 0 in ``area``; seat 1 far away in the Fjord, so nobody shares magic."""
    return hero(
        hero(fresh(), 0, area=area, goods=goods), 1, area="fjord", goods=(0,) * 6
    )


def moved(events):
    return [e for e in events if isinstance(e, E.CharacterMoved)]


# ------------------------------------------------------------------ borders


def test_the_sample_map_has_a_double_and_impassable_borders():
    kinds = {(b.a, b.b): (b.kind, b.count) for b in C.borders}
    assert kinds[("forest", "pass")] == ("green", 2)
    assert kinds[("pass", "ruins")][0] == "impassable"
    assert kinds[("village", "shrine")][0] == "impassable"


def test_a_double_border_is_out_of_reach_of_a_move_of_one():
    s = moving(alone_in("forest"), 1)
    # Fjord (Red), Village (green); not the Shrine (Blue, no magic), not the Pass (double)
    assert s.pending.kind == "move" and opts(s) == (
        "area:fjord:red1:blue0",
        "area:village:red0:blue0",
    )


def test_a_double_border_costs_two_of_the_move_value():
    s = moving(alone_in("forest"), 2)
    assert "area:pass:red0:blue0" in opts(s)
    s, ev = do(s, choose("area:pass:red0:blue0"))
    assert moved(ev) == [E.CharacterMoved(seat=0, area="pass", borders=2)]
    assert s.hero(0).area == "pass" and s.hero(0).threats == 0


def test_an_impassable_border_is_never_crossed_even_when_it_is_the_shortest_way():
    s = moving(alone_in("pass"), 1)
    assert opts(s) == (
        "area:citadel:red0:blue0",
    )  # not the Ruins next door, not the Forest
    s = moving(alone_in("pass"), 3)
    assert "area:ruins:red1:blue0" in opts(s)  # only around, through the Citadel
    s, ev = do(s, choose("area:ruins:red1:blue0"))
    assert moved(ev) == [E.CharacterMoved(seat=0, area="ruins", borders=2)]
    assert s.hero(0).threats == 1  # the Citadel-Ruins Border is Red


def test_the_village_never_leads_straight_to_the_shrine():
    s = moving(alone_in("village", goods=(0, 0, 0, 5, 0, 0)), 1, round=2)
    assert opts(s) == (
        "area:fjord:red0:blue0",
        "area:forest:red0:blue0",
    )  # Citadel still closed


# ------------------------------------------------------------------ journey


def journeying(
    state, value=1, terrain=("T5",), deck=("T1", "T2", "T3"), path=(), level=1
):
    """Seat 0 (Thorgal) begins a Journey of ``value`` tiles on a hand-made path."""
    decks = tuple(
        d.model_copy(update={"cards": deck, "discard": ()})
        if d.name == "terrain"
        else d
        for d in state.decks
    )
    state = hero(state, 0, journey_level=level)
    state = state.model_copy(
        update={"terrain": terrain, "path": path, "collect_tokens": (), "decks": decks}
    )
    return then(
        state,
        Task(op="do", arg="journey", seat=0),
        act=Act(seat=0, action="journey", value=value),
    )


def place(state, shape, cells):
    """The legal PlaceTile covering exactly ``cells`` (row, col pairs)."""
    want = frozenset(cells)
    for cmd in GAME.legal_commands(state, state.pending.seat):
        if (
            isinstance(cmd, PlaceTile)
            and cmd.shape == shape
            and P.cells_posed(shape, cmd.rotation, cmd.mirrored, cmd.row, cmd.col)
            == want
        ):
            return do(state, cmd)
    raise AssertionError(f"{shape} on {sorted(want)} is not a legal placement")


def drawn(events):
    return [e for e in events if isinstance(e, E.CardsDrawn)]


@pytest.mark.parametrize(
    ("level", "tiles"),
    [
        (1, ("I2",)),
        (2, ("I2", "V3")),
        (3, ("I2", "V3", "I3")),
    ],
)
def test_the_journey_offers_the_tiles_at_or_below_the_tracker(level, tiles):
    s = journeying(fresh(), level=level)
    assert s.pending.kind == "place_journey" and opts(s) == tiles
    assert {c.shape for c in GAME.legal_commands(s, 0)} == set(tiles)


def test_a_tile_above_the_tracker_is_refused():
    s = journeying(fresh(), level=3)
    with pytest.raises(IllegalCommandError) as err:
        do(s, PlaceTile(shape="L4", rotation=0, row=0, col=0))
    assert err.value.rule == "thorgal.tile-not-offered"


def test_covering_the_marked_column_reveals_a_terrain_card_and_gains_its_bonus():
    s = journeying(fresh())  # T5 is marked in its column 1; T1's bonus is 1 material
    assert (
        C.terrain_card("T5").marked == 1
        and C.terrain_card("T1").bonus[0].arg == "material"
    )
    material = s.hero(0).goods[0]
    s, ev = place(s, "I2", [(0, 0), (0, 1)])
    assert drawn(ev) == [E.CardsDrawn(deck="terrain", cards=("T1",), to="terrain")]
    assert E.GoodsGained(seat=0, good="material", n=1) in ev
    assert s.terrain == ("T5", "T1") and s.deck("terrain").cards == ("T2", "T3")
    assert s.hero(0).goods[0] == material + 1


def test_a_tile_missing_the_marked_column_reveals_nothing():
    s = journeying(fresh())
    s, ev = place(s, "I2", [(0, 0), (1, 0)])
    assert drawn(ev) == [] and s.terrain == ("T5",)
    assert not any(isinstance(e, E.GoodsGained) for e in ev)


def test_only_the_first_tile_in_the_marked_column_reveals_a_card():
    earlier = (Tile(shape="I2", cells=(enc(0, 0), enc(0, 1))),)
    s = journeying(fresh(), path=earlier)
    s, ev = place(s, "I2", [(1, 1), (2, 1)])  # column 1 again
    assert (
        drawn(ev) == [] and s.terrain == ("T5",) and s.deck("terrain").cards[0] == "T1"
    )


def test_a_card_revealed_by_another_effect_gives_no_bonus():
    s = fresh().model_copy(update={"terrain": ("T5",)})
    s = s.model_copy(
        update={
            "decks": tuple(
                d.model_copy(update={"cards": ("T1",)}) if d.name == "terrain" else d
                for d in s.decks
            )
        }
    )
    goods = s.hero(0).goods
    s = then(s, Task(op="reveal_terrain", seat=0))
    assert s.terrain == ("T5", "T1") and s.hero(0).goods == goods
    assert s.pending is None and s.phase == "action"


def test_with_no_terrain_cards_left_the_marked_column_reveals_nothing_and_the_journey_goes_on():
    s = journeying(fresh(), value=2, deck=())
    s, ev = place(s, "I2", [(0, 0), (0, 1)])
    assert drawn(ev) == [] and s.terrain == ("T5",)
    assert s.pending.kind == "place_journey" and s.pending.n == 1  # the second tile


def test_an_exhausted_terrain_deck_with_a_tile_in_the_last_column_ends_journeys():
    # T1 has no blocked cell: an I2 still fits down the last column, (1, 2)-(2, 2)
    last = (Tile(shape="I3", cells=(enc(0, 0), enc(0, 1), enc(0, 2))),)
    still = journeying(fresh(), terrain=("T1",), deck=("T2",), path=last)
    assert still.pending.kind == "place_journey"  # cards left: the rule does not apply
    assert {
        frozenset(P.cells_posed(c.shape, c.rotation, c.mirrored, c.row, c.col))
        for c in GAME.legal_commands(still, 0)
    } == {frozenset({(1, 2), (2, 2)})}
    s = journeying(fresh(), terrain=("T1",), deck=(), path=last)
    assert (
        s.pending is None and s.phase == "action"
    )  # no Journey any more: the turn is over
    assert s.path == last
    open_end = journeying(
        fresh(),
        terrain=("T1",),
        deck=(),
        path=(Tile(shape="I2", cells=(enc(0, 0), enc(0, 1))),),
    )
    assert open_end.pending.kind == "place_journey"  # the last column is still free
