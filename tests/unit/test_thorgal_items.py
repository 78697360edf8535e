"""Items: single-use, tied to an action type, offered at every moment the rulebook allows."""

from __future__ import annotations

from domain.contract.chance import HmacRng
from domain.games.thorgal import GAME
from domain.games.thorgal import events as E
from domain.games.thorgal.commands import Choose, PlaceTile
from domain.games.thorgal.rules.combat import _ask_mods
from domain.games.thorgal.rules.engine import Ctx
from domain.games.thorgal.rules.options import PROCEED, notation
from domain.games.thorgal.state import Act, Combat, Pending, Task, Tile
from tests.unit.test_thorgal_choices import then
from tests.unit.test_thorgal_rules import choose, do, fresh, hero, opts

WOUNDED = (Tile(shape="I1", cells=(0,)),)


def starting(state, action, value=1, round=3):
    """Seat 0 (Thorgal, whose Skill is a Combat Skill) begins a main ``action``."""
    return then(
        state,
        Task(op="action", arg=action, n=value, seat=0, loc="main"),
        act=Act(seat=0, action=action, value=value),
        round=round,
    )


def offered(state, seat=0):
    return {
        notation(c.option)
        for c in GAME.legal_commands(state, seat)
        if isinstance(c, Choose)
    }


def after_roll(state, items, faces=(0,), dice=("yellow",)):
    """Seat 0's Combat dice are rolled; the after-roll step is open."""
    c = Combat(
        seat=0,
        location="wolf_den",
        tokens=(0,),
        cards=("N1",),
        rows=("h.r", "Xh.", "..#"),
        dice=dice,
        faces=faces,
        critical=(False,) * len(dice),
        rolled=True,
    )
    s = hero(state, 0, area="forest", items=items, skill_active=False, wounds=WOUNDED)
    s = s.model_copy(
        update={
            "phase": "resolve",
            "combat": c,
            "tasks": (),
            "act": Act(seat=0, action="combat", value=1),
            "pending": Pending(kind="heal", seat=0, options=(PROCEED,)),
        }
    )
    ctx = Ctx(s, HmacRng(b"k" * 32, "t"))
    ctx.emit(E.ChoiceMade(seat=0, kind="heal", option=PROCEED))
    _ask_mods(ctx, 0)
    return ctx.state


def test_journey_items_are_used_at_step_one_and_never_partway_through_the_journey():
    s = starting(hero(fresh(), 0, items=("lantern", "map")), "journey", value=2)
    assert s.pending.kind == "prepare"
    assert offered(s) == {"item:lantern", "item:map", "proceed"}
    s, ev = do(s, choose("item:lantern"))
    assert E.ItemUsed(seat=0, item="lantern") in ev
    assert (
        s.pending.kind == "xp" and not s.path
    )  # its effect resolves at once, before any tile
    s, _ = do(s, choose("track:journey"))
    assert s.pending.kind == "prepare" and offered(s) == {"item:map", "proceed"}
    s, _ = do(s, choose("item:map"))
    assert s.act.value == 3 and s.hero(0).items == ()
    assert s.pending.kind == "place_journey"  # nothing left to use: the first tile
    s, _ = do(s, next(iter(GAME.legal_commands(s, 0))))
    while s.pending is not None and s.pending.kind != "place_journey":
        s, _ = do(
            s, next(iter(GAME.legal_commands(s, s.pending.seat))), seat=s.pending.seat
        )
    assert s.pending.kind == "place_journey"  # the second tile: no Item may be used now
    assert all(isinstance(c, PlaceTile) for c in GAME.legal_commands(s, 0))


def test_a_move_item_raises_the_value_before_moving():
    s = starting(hero(fresh(), 0, items=("boots",)), "move")
    assert s.pending.kind == "prepare" and offered(s) == {"item:boots", "proceed"}
    s, _ = do(s, choose("item:boots"))
    assert (
        s.act.value == 2 and s.pending.kind == "move"
    )  # nothing else to use: the Move


def test_an_any_action_item_resolves_its_effect_when_used_before_the_action():
    s = starting(hero(fresh(), 0, items=("salve",), wounds=WOUNDED), "move")
    s, _ = do(s, choose("item:salve"))
    assert s.pending.kind == "heal" and s.act.action == "move"
    s, ev = do(s, choose("tile:0"))
    assert E.WoundHealed(seat=0, index=0) in ev and s.hero(0).wounds == ()
    assert s.pending.kind == "move"


def test_combat_items_are_offered_once_the_enemy_card_is_drawn_and_before_the_roll():
    s = hero(
        fresh(), 0, area="forest", items=("axe",), skill_active=False, goods=(0,) * 6
    )
    s = starting(s, "combat")
    assert s.pending.kind == "target"  # nothing to decide before the Enemy is chosen
    s, _ = do(s, choose("enemy:wolf_den:0"))
    assert s.combat.cards and not s.combat.rolled
    assert s.pending.kind == "prepare" and offered(s) == {"item:axe", "proceed"}
    dice = s.combat.dice
    s, ev = do(s, choose("item:axe"))
    assert E.DieAdded(colour="orange") in ev and s.combat.dice == (*dice, "orange")
    rolled = next(e for e in ev if isinstance(e, E.DiceRolled))
    assert len(rolled.faces) == len(dice) + 1


def test_after_the_roll_only_items_adding_no_dice_or_upgrades_are_offered():
    s = after_roll(fresh(), ("axe", "whetstone", "bow", "rune_stone", "salve"))
    assert s.pending.kind == "combat_mod"
    assert offered(s) == {"item:bow", "item:rune_stone", "item:salve", "proceed"}


def test_an_effect_item_used_after_the_roll_resolves_before_the_tiles_are_placed():
    s = after_roll(fresh(), ("salve",))
    s, _ = do(s, choose("item:salve"))
    assert s.pending.kind == "heal" and not s.combat.left
    s, _ = do(s, choose("tile:0"))
    assert s.pending.kind == "place_combat"  # nothing else to use: the tiles


def test_a_reroll_item_used_after_the_roll_grants_its_rerolls():
    s = after_roll(fresh(), ("bow",))
    s, ev = do(s, choose("item:bow"))
    assert E.ItemUsed(seat=0, item="bow") in ev and s.act.rerolls == 2
    assert "reroll:0" in offered(s) and "item:bow" not in offered(s)


def test_an_after_item_is_offered_only_once_the_action_is_resolved():
    s = starting(
        hero(fresh(), 0, items=("herbs",), wounds=WOUNDED, goods=(0,) * 6), "move"
    )
    assert s.pending.kind == "move"  # not before the action
    s, _ = do(s, choose(opts(s)[0]))
    while s.pending.kind != "after_item":
        s, _ = do(
            s, next(iter(GAME.legal_commands(s, s.pending.seat))), seat=s.pending.seat
        )
    assert offered(s) == {"item:herbs", "proceed"}
    s, ev = do(s, choose("item:herbs"))
    assert E.ItemUsed(seat=0, item="herbs") in ev and s.pending.kind == "heal"
    s, ev = do(s, choose("tile:0"))
    assert E.GoodsGained(seat=0, good="magic", n=1) in ev
    assert s.hero(0).items == () and "herbs" in s.deck("items").discard


def test_items_of_another_action_type_are_never_offered():
    s = starting(hero(fresh(), 0, items=("boots", "sack", "herbs")), "collect")
    assert s.pending.kind == "prepare" and offered(s) == {"item:sack", "proceed"}
