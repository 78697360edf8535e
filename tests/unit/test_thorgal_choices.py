"""Choices the rules leave to players, and sharing goods with the owner's consent."""

from __future__ import annotations

from domain.games.thorgal import events as E
from domain.games.thorgal.commands import TakeAction
from domain.games.thorgal.rules.options import PROCEED, parse_option
from domain.games.thorgal.state import Act, Combat, Pending, Task
from tests.unit.test_thorgal_rules import choose, do, fresh, hero, opts


def then(state, *tasks, act=None, round=None):
    """A table where answering a trivial question resolves ``tasks`` next."""
    update = {
        "phase": "resolve",
        "act": act,
        "tasks": tasks,
        "pending": Pending(kind="heal", seat=0, options=(PROCEED,), n=0),
    }
    if round is not None:
        update["round"] = round
    state, _ = do(state.model_copy(update=update), choose("proceed"))
    return state


def moving(state, value):
    return then(
        state,
        Task(op="do", arg="move", seat=0),
        act=Act(seat=0, action="move", value=value),
        round=3,
    )


def test_move_offers_each_route_that_differs_in_red_or_blue_crossings():
    s = hero(hero(fresh(), 0, area="forest", goods=(0, 0, 0, 1, 0, 0)), 1, area="fjord")
    s = moving(s, 3)
    assert s.pending.kind == "move"
    assert "area:ruins:red0:blue1" in opts(s)  # through the Shrine
    assert "area:ruins:red1:blue0" in opts(s)  # through the Pass and the Citadel
    assert "area:village:red0:blue0" in opts(s)  # one sensible route
    s, _ev = do(s, choose("area:ruins:red1:blue0"))
    assert s.hero(0).area == "ruins" and s.hero(0).threats == 1
    assert s.hero(0).goods[3] == 1  # the magic was not spent


def test_the_blue_route_spends_magic():
    s = hero(hero(fresh(), 0, area="forest", goods=(0, 0, 0, 1, 0, 0)), 1, area="fjord")
    s, ev = do(moving(s, 3), choose("area:ruins:red0:blue1"))
    assert E.GoodsSpent(seat=0, good="magic", n=1) in ev
    assert s.hero(0).area == "ruins" and s.hero(0).threats == 0


def test_without_magic_nearby_blue_routes_are_not_offered():
    s = hero(
        hero(fresh(), 0, area="forest", goods=(0,) * 6),
        1,
        area="fjord",
        goods=(0, 0, 0, 5, 0, 0),
    )
    s = moving(s, 3)
    assert not any("blue1" in o or o.startswith("area:shrine:") for o in opts(s))


def test_a_blue_border_may_be_paid_by_a_consenting_character_in_the_area():
    s = hero(
        hero(fresh(), 0, area="forest", goods=(0,) * 6),
        1,
        area="forest",
        goods=(0, 0, 0, 1, 0, 0),
    )
    s = moving(s, 1)
    assert "area:shrine:red0:blue1" in opts(s)
    s, _ = do(s, choose("area:shrine:red0:blue1"))
    assert s.pending.kind == "pay_from" and opts(s) == ("seat:1", "cancel")
    s, _ = do(s, choose("seat:1"))
    assert s.pending.kind == "pay_consent" and s.pending.seat == 1
    s, ev = do(s, choose("agree"), seat=1)
    assert E.GoodsSpent(seat=1, good="magic", n=1) in ev
    assert s.hero(0).area == "shrine"


def test_a_refusal_cancels_the_move_it_would_have_paid_for():
    s = hero(
        hero(fresh(), 0, area="forest", goods=(0,) * 6),
        1,
        area="forest",
        goods=(0, 0, 0, 1, 0, 0),
    )
    s, _ = do(moving(s, 1), choose("area:shrine:red0:blue1"))
    s, _ = do(s, choose("seat:1"))
    s, ev = do(s, choose("refuse"), seat=1)
    assert any(isinstance(e, E.TasksDropped) for e in ev)
    assert s.hero(0).area == "forest" and s.hero(1).goods[3] == 1


def test_a_side_plot_may_be_paid_with_another_characters_gossip():
    s = hero(hero(fresh(), 0, goods=(0,) * 6), 1, goods=(0, 0, 1, 0, 0, 0))
    s = then(s, Task(op="plots", arg="E1", seat=0))
    assert s.pending.kind == "plot"
    s, _ = do(s, choose("plot:1"))
    s, _ = do(s, choose("seat:1"))
    s, ev = do(s, choose("agree"), seat=1)
    assert E.GoodsSpent(seat=1, good="gossip", n=1) in ev
    assert E.SidePlotChosen(entry="E1", plot=1) in ev


def test_side_plots_are_not_offered_when_nobody_in_the_area_can_pay():
    s = hero(
        hero(fresh(), 0, goods=(0,) * 6), 1, area="village", goods=(0, 0, 3, 0, 0, 0)
    )
    s, ev = do(
        s.model_copy(
            update={
                "phase": "resolve",
                "act": None,
                "tasks": (Task(op="plots", arg="E1", seat=0),),
                "pending": Pending(kind="heal", seat=0, options=(PROCEED,), n=0),
            }
        ),
        choose("proceed"),
    )
    assert not any(
        isinstance(e, E.ChoiceOffered) and e.pending.kind == "plot" for e in ev
    )
    assert not any(isinstance(e, (E.GoodsSpent, E.SidePlotChosen)) for e in ev)
    assert s.pending is None and s.phase == "action"  # nothing to ask: play goes on
    assert s.hero(1).goods == (0, 0, 3, 0, 0, 0)


def test_a_skill_refresh_may_use_another_characters_goods():
    s = hero(
        hero(fresh(), 1, goods=(0,) * 6, skill_active=False),
        0,
        goods=(0, 0, 1, 1, 0, 0),
    )
    s = s.model_copy(update={"turn": 1})
    s, _ = do(s, TakeAction(chip=0, slot=s.row.index("C13")), seat=1)
    assert "refresh" in opts(s)
    s, _ = do(s, choose("refresh"), seat=1)
    for _ in range(2):  # magic, then gossip: both from seat 0
        assert s.pending.kind == "pay_from"
        s, _ = do(s, choose("seat:0"), seat=1)
        s, _ = do(s, choose("agree"), seat=0)
    assert s.hero(1).skill_active and s.hero(0).goods == (0,) * 6
    assert s.pending.kind == "prepare" and "skill" in opts(s)


def test_the_player_chooses_which_good_a_cost_token_raises():
    s = fresh().model_copy(
        update={
            "phase": "resolve",
            "pending": Pending(
                kind="token_cost",
                seat=0,
                options=(parse_option("loc:gate"), parse_option("loc:smithy")),
            ),
        }
    )
    s, _ = do(s, choose("loc:gate"))
    assert s.pending.kind == "cost_good" and opts(s) == (
        "good:fate",
        "good:power",
        "good:magic",
    )
    s, ev = do(s, choose("good:power"))
    assert E.LocationMarked(location="gate", token="cost", good="power") in ev
    assert s.site("gate").extra_cost == (0, 0, 0, 0, 1, 0)


def test_a_cost_token_on_a_single_good_location_needs_no_choice():
    s = fresh().model_copy(
        update={
            "phase": "resolve",
            "pending": Pending(
                kind="token_cost",
                seat=0,
                options=(parse_option("loc:gate"), parse_option("loc:smithy")),
            ),
        }
    )
    s, ev = do(s, choose("loc:smithy"))
    assert E.LocationMarked(location="smithy", token="cost", good="ore") in ev
    assert s.site("smithy").extra_cost == (0, 1, 0, 0, 0, 0)


def test_merged_enemy_cards_are_laid_out_in_the_players_order():
    s = hero(fresh(), 0, area="pass", items=())
    s = then(
        s,
        Task(op="do", arg="combat", seat=0),
        act=Act(seat=0, action="combat", value=1),
        round=3,
    )
    s, _ = do(s, choose("enemy:bandit_camp:0"))
    assert s.pending.kind == "enemy_order" and len(opts(s)) == 2
    drawn = s.combat.cards
    s, _ = do(s, choose(f"card:{drawn[1]}"))
    assert s.combat.cards == (drawn[1], drawn[0])
    assert s.combat.rows[0].startswith(GAME_CONTENT().enemy(drawn[1]).rows[0])
    assert s.combat.tokens == (0, 1) and s.combat.dice


def GAME_CONTENT():
    from domain.games.thorgal.content import load

    return load()


def test_a_combat_item_can_be_used_in_the_reroll_step():
    s = hero(fresh(), 0, area="citadel", items=("bow",))
    c = Combat(
        seat=0,
        location="keep",
        tokens=(0,),
        cards=("D1",),
        rows=("hh",),
        dice=("yellow",),
        faces=(0,),
        critical=(False,),
        rolled=True,
    )
    s = s.model_copy(
        update={
            "phase": "resolve",
            "combat": c,
            "act": Act(seat=0, action="combat", value=1),
            "tasks": (),
            "pending": Pending(kind="heal", seat=0, options=(PROCEED,)),
        }
    )
    from domain.contract.chance import HmacRng
    from domain.games.thorgal.rules.combat import _ask_mods
    from domain.games.thorgal.rules.engine import Ctx

    ctx = Ctx(s, HmacRng(b"k" * 32, "t"))
    ctx.emit(E.ChoiceMade(seat=0, kind="heal", option=PROCEED))
    _ask_mods(ctx, 0)
    s = ctx.state
    assert s.pending.kind == "combat_mod" and opts(s) == (
        "item:bow",
        "skill",
        "proceed",
    )
    s, ev = do(s, choose("item:bow"))
    assert E.ItemUsed(seat=0, item="bow") in ev and s.act.rerolls == 2
    assert "reroll:0" in opts(s) and "item:bow" not in opts(s)
