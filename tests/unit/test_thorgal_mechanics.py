"""One hand-made position per mechanic that random games used to cover alone."""

from __future__ import annotations

from domain.contract.chance import HmacRng
from domain.games.thorgal import events as E
from domain.games.thorgal.commands import TakeAction
from domain.games.thorgal.rules.combat import _ask_mods
from domain.games.thorgal.rules.engine import Ctx
from domain.games.thorgal.rules.options import PROCEED
from domain.games.thorgal.state import Act, Chip, Combat, Pending, Task
from tests.unit.test_thorgal_choices import then
from tests.unit.test_thorgal_rules import choose, do, fresh, hero, opts, slot


def fighting(state, **act):
    """Seat 0 starts a Combat action (value 1 plus ``act``) in its Area."""
    return then(
        state,
        Task(op="do", arg="combat", seat=0),
        act=Act(seat=0, action="combat", value=1, **act),
        round=3,
    )


def rolled(state, faces, dice=("yellow",), **act):
    """Seat 0's dice are rolled; the after-roll step is open."""
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
    s = hero(state, 0, area="forest", items=(), skill_active=False).model_copy(
        update={
            "phase": "resolve",
            "combat": c,
            "act": Act(seat=0, action="combat", value=1, **act),
            "pending": Pending(kind="heal", seat=0, options=(PROCEED,)),
        }
    )
    ctx = Ctx(s, HmacRng(b"k" * 32, "t"))
    ctx.emit(E.ChoiceMade(seat=0, kind="heal", option=PROCEED))
    _ask_mods(ctx, 0)
    return ctx.state


# ------------------------------------------------------------------ Combat effects


def test_a_die_upgrade_raises_one_die_colour_before_the_roll():
    s = fighting(hero(fresh(), 0, area="forest", items=()), upgrades=1)
    s, _ = do(s, choose("enemy:wolf_den:0"))
    assert s.pending.kind == "prepare"  # the Skill may be used before the roll
    s, _ = do(s, choose("proceed"))
    assert s.pending.kind == "upgrade_die" and opts(s)[-1] == "proceed"
    s, ev = do(s, choose("die:0"))
    assert E.DieUpgraded(index=0, colour="orange") in ev  # Thorgal's yellow die
    assert any(isinstance(e, E.DiceRolled) for e in ev)  # no upgrade left: roll


def test_a_reroll_rerolls_one_die():
    s = rolled(fresh(), (0, 0), dice=("yellow", "orange"), rerolls=1)
    assert opts(s) == ("reroll:0", "reroll:1", "proceed")
    s, ev = do(s, choose("reroll:1"))
    assert [e.index for e in ev if isinstance(e, E.DieRerolled)] == [1]
    assert s.act.rerolls == 0


def test_a_critical_uses_the_black_shape_only_when_activated():
    s = rolled(fresh(), (4,), criticals=1)  # yellow face 4 = "I1:I3"
    assert opts(s) == ("crit:0", "proceed")
    s, ev = do(s, choose("crit:0"))
    assert E.CriticalActivated(index=0) in ev
    assert s.combat.left == ("I3",)
    plain = rolled(fresh(), (4,))  # no critical effect: the white shape
    assert plain.combat.left == ("I1",)


def test_the_left_bonus_gives_a_critical_per_chip_to_the_left():
    s = hero(fresh(), 0, area="forest", items=())
    chips = (Chip(slot=0, active=False), Chip(slot=1, active=False), Chip(), Chip())
    s = s.model_copy(update={"chips": chips})
    s, _ = do(s, TakeAction(chip=2, slot=slot(s, "C11")))
    assert s.act.criticals == 2 and s.act.rerolls == 1  # printed reroll + 2 chips left


def test_the_below_bonus_upgrade_counts_the_chips_under_the_card():
    s = fresh().model_copy(update={"row": ("C02", "C05", "C07", "A08", "C09", "C13")})
    s = s.model_copy(
        update={"chips": (Chip(slot=3, active=False), Chip(), Chip(), Chip())}
    )
    s, ev = do(s, TakeAction(chip=1, slot=3))
    act = next(e.act for e in ev if isinstance(e, E.ActionPrepared))
    assert act.value == 2 and act.upgrades == 2


def test_a_special_action_card_modifies_every_action_of_its_type():
    s = fresh()
    s = then(s, Task(op="special_card", arg="B", seat=0))
    assert s.specials == ("B",)
    s = s.model_copy(update={"phase": "action", "turn": 0})
    s, ev = do(s, TakeAction(chip=0, slot=slot(s, "C11")))
    act = next(e.act for e in ev if isinstance(e, E.ActionPrepared))
    assert act.dice == ("yellow",) and act.rerolls == 2  # card reroll + Special B


# ------------------------------------------------------------------ Location tokens


def test_a_blockade_stops_combat_assign_and_new_enemies_at_its_location():
    s = fresh()
    s = then(s, Task(op="blockade", seat=0))
    assert s.pending.kind == "token_blockade"
    s, ev = do(s, choose("loc:crossing"))
    assert E.LocationMarked(location="crossing", token="blockade") in ev
    unblocked = fighting(hero(fresh(), 0, area="village", items=()))
    assert opts(unblocked) == ("enemy:crossing:0",)  # the Enemy in reach, unblocked
    s = fighting(hero(s, 0, area="village", items=()))
    assert s.pending is None  # blocked: no target is offered
    s = then(s, Task(op="place_enemy", arg="minor", seat=0))
    assert "loc:crossing" not in opts(s)


def test_a_sacrifice_cover_turns_an_assign_location_into_a_sacrifice_of_two():
    s = then(fresh(), Task(op="sacrifice_cover", seat=0))
    s, _ = do(s, choose("loc:smithy"))
    assert s.site("smithy").cover
    s = then(
        s,
        Task(op="do", arg="sacrifice", seat=0),
        act=Act(seat=0, action="sacrifice", value=1),
    )
    assert "loc:smithy" in opts(s)
    s, _ = do(s, choose("loc:smithy"))
    assert s.pending.kind == "place_wound" and opts(s) == ("I2",)
    s2 = then(
        s.model_copy(update={"pending": None}),
        Task(op="do", arg="assign", seat=0),
        act=Act(seat=0, action="assign", value=2),
    )
    assert s2.pending is None  # the sacrificed Location is the only one: none to assign
    control = then(
        fresh(),
        Task(op="do", arg="assign", seat=0),
        act=Act(seat=0, action="assign", value=2),
    )
    assert opts(control) == ("loc:smithy",)  # without the cover it is assignable


def test_a_cost_token_raises_what_must_be_assigned():
    s = hero(fresh(), 0, goods=(0, 3, 0, 0, 0, 0))
    s = then(s, Task(op="cost_token", seat=0))
    s, _ = do(s, choose("loc:smithy"))
    s = then(
        s,
        Task(op="do", arg="assign", seat=0),
        act=Act(seat=0, action="assign", value=3),
    )
    s, _ = do(s, choose("loc:smithy"))
    for _ in range(2):
        s, ev = do(s, choose("give:0:ore"))
        assert not any(isinstance(e, E.AssignedGoodsDiscarded) for e in ev)
    s, ev = do(s, choose("give:0:ore"))
    assert E.AssignedGoodsDiscarded(location="smithy", goods=(0, 3, 0, 0, 0, 0)) in ev


# ------------------------------------------------------------------ cards and decks


def test_a_discovery_card_is_drawn_resolved_and_discarded():
    s = fresh()
    top = s.deck("discovery").cards[0]
    s2, ev = do(
        s.model_copy(
            update={
                "phase": "resolve",
                "tasks": (Task(op="discovery", seat=0),),
                "pending": Pending(kind="heal", seat=0, options=(PROCEED,)),
            }
        ),
        choose("proceed"),
    )
    assert E.CardsDrawn(deck="discovery", cards=(top,), to="resolve") in ev
    assert E.CardDiscarded(deck="discovery", card=top) in ev
    assert s2.deck("discovery").discard == (top,)


def test_an_enemy_token_is_placed_where_the_player_chooses():
    s = then(fresh(), Task(op="place_enemy", arg="minor", seat=0))
    assert s.pending.kind == "place_enemy" and "loc:keep" in opts(s)
    s, ev = do(s, choose("loc:smithy"))
    assert E.EnemiesChanged(location="smithy", enemies=("minor",)) in ev


def test_the_event_deck_switches_when_the_team_holds_enough_threats():
    s = fresh()
    calm = then(s, Task(op="draw_event", seat=0))
    assert calm.active_event.startswith("M")  # the Mountain deck
    tense = then(
        hero(hero(s, 0, threats=2), 1, threats=1), Task(op="draw_event", seat=0)
    )
    assert tense.active_event.startswith("W")  # 3 Threats: the Warrior deck


# ------------------------------------------------------------------ Healing


def test_heal_three_of_size_one_discards_up_to_three_small_wounds_and_never_splits():
    from domain.games.thorgal.state import Tile

    wounds = (
        Tile(shape="I1", cells=(0,)),
        Tile(shape="I2", cells=(1, 2)),
        Tile(shape="I1", cells=(3,)),
    )
    s = then(hero(fresh(), 0, wounds=wounds), Task(op="heal", n=3, arg="1", seat=0))
    assert s.pending.kind == "heal" and opts(s) == ("tile:0", "tile:2", "proceed")
    s, _ = do(s, choose("tile:0"))
    assert s.pending.kind == "heal" and opts(s) == ("tile:1", "proceed")  # the I2 stays
    s, _ = do(s, choose("tile:1"))
    assert [w.shape for w in s.hero(0).wounds] == ["I2"] and s.pending is None


def test_an_unspecified_heal_discards_one_wound_of_any_size():
    from domain.games.thorgal.state import Tile

    wounds = (Tile(shape="I1", cells=(0,)), Tile(shape="I3", cells=(1, 2, 3)))
    s = then(hero(fresh(), 0, wounds=wounds), Task(op="heal", n=1, seat=0))
    assert opts(s) == ("tile:0", "tile:1", "proceed")
    s, _ = do(s, choose("tile:1"))
    assert [w.shape for w in s.hero(0).wounds] == ["I1"] and s.pending is None
