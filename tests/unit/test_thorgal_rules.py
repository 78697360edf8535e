"""Hand-made Thorgal positions: given a table -> decide -> expected events."""

from __future__ import annotations

import pytest

from domain.contract.chance import HmacRng
from domain.contract.core import Event, IllegalCommandError
from domain.games.thorgal import GAME
from domain.games.thorgal import events as E
from domain.games.thorgal.commands import Choose, Option, PlaceTile, TakeAction
from domain.games.thorgal.rules.engine import PLACING
from domain.games.thorgal.rules.options import PROCEED, notation, parse_option
from domain.games.thorgal.setup import ThorgalSetup
from domain.games.thorgal.state import Combat, Pending, Task, Tile


def fresh(players: int = 2) -> object:
    state = GAME.initial_state(
        ThorgalSetup(
            players=players, characters=("thorgal", "aaricia") if players <= 2 else ()
        )
    )
    state = GAME.replay(state, GAME.start(state, HmacRng(b"s" * 32, "v1")))
    return state.model_copy(update={"first": 0, "turn": 0})


def do(state, command, seat=None):
    seat = GAME.to_act(state)[0] if seat is None else seat
    events = GAME.decide(state, command, seat, HmacRng(b"k" * 32, "t"))
    return GAME.replay(state, events), events


def choose(name):
    """``Choose`` the option named ``name`` (``options.notation``), or a typed Option."""
    return Choose(option=name if isinstance(name, Option) else parse_option(name))


def opts(state):
    """The open question's answers by name: option names, or shapes for tiles."""
    p = state.pending
    return p.shapes if p.kind in PLACING else tuple(notation(o) for o in p.options)


def hero(state, seat, **update):
    heroes = list(state.heroes)
    heroes[seat] = heroes[seat].model_copy(update=update)
    return state.model_copy(update={"heroes": tuple(heroes)})


def kinds(events):
    return [type(e).__name__ for e in events]


def slot(state, card):
    return state.row.index(card)


def test_a_chip_must_move_to_a_different_card():
    s = fresh()
    chips = tuple(c.model_copy(update={"slot": 0}) for c in s.chips)
    s = s.model_copy(update={"chips": chips})
    with pytest.raises(IllegalCommandError) as err:
        do(s, TakeAction(chip=0, slot=0))
    assert err.value.rule == "thorgal.chip-same-card"
    assert all(cmd.slot != 0 for cmd in GAME.legal_commands(s, 0))


def test_move_only_enters_open_areas_and_the_only_chip_bonus_raises_the_value():
    s = fresh()
    s, _ev = do(s, TakeAction(chip=0, slot=slot(s, "C02")))
    assert s.act.value == 2  # 1 + "exactly one chip" bonus
    assert opts(s) == ("area:village:red0:blue0",)  # forest is numbered 2
    s = s.model_copy(update={"round": 2})
    s2, _ev = do(
        s.model_copy(
            update={
                "pending": Pending(
                    kind="move", seat=0, options=(parse_option("area:forest"),)
                )
            }
        ),
        choose("area:forest"),
    )
    assert s2.hero(0).area == "forest"
    assert (
        s2.hero(0).threats == 0
    )  # Move 2: the route through the Village avoids the Red border


def test_collect_gains_the_value_and_the_below_bonus_gives_an_extra_move():
    s = fresh().model_copy(
        update={"terrain": ("T1",), "path": (), "collect_tokens": ()}
    )
    material = s.hero(0).goods[0]
    s, _ = do(s, TakeAction(chip=0, slot=slot(s, "C05")))
    s, ev = do(s, choose("cell:0"))  # T1's top-left space: material
    assert E.CollectTokenPlaced(seat=0, cell=0) in ev
    assert [e for e in ev if isinstance(e, E.GoodsGained)] == [
        E.GoodsGained(seat=0, good="material", n=2)
    ]  # Collect 2: the below bonus is an extra Move, not a "+"
    assert s.hero(0).goods[0] == material + 2
    assert (
        s.pending.kind == "move" and s.act.action == "move" and s.act.value == 1
    )  # extra Move 1


def test_journey_first_tile_touches_the_left_edge_and_the_left_bonus_heals():
    s = fresh()
    s = hero(s, 0, wounds=(Tile(shape="I1", cells=(33,)),))
    chips = list(s.chips)
    chips[1] = chips[1].model_copy(update={"slot": 0, "active": False})
    s = s.model_copy(update={"chips": tuple(chips)})
    s, _ = do(s, TakeAction(chip=0, slot=slot(s, "C07")))
    if s.pending.kind == "prepare":
        s, _ = do(s, choose("proceed"))
    assert s.pending.kind == "place_journey"
    moves = list(GAME.legal_commands(s, 0))
    assert moves and all(isinstance(m, PlaceTile) for m in moves)
    s, ev = do(s, moves[0])
    assert isinstance(ev[1], E.JourneyTilePlaced)
    assert any(c % 32 == 0 for c in ev[1].cells)
    while s.pending is not None and s.pending.kind != "heal":
        s, ev = do(s, next(iter(GAME.legal_commands(s, s.pending.seat))))
    assert s.pending.kind == "heal"  # one chip to the left -> Heal 1
    s, ev = do(s, choose("tile:0"))
    assert s.hero(0).wounds == ()


def test_assigning_another_characters_goods_needs_their_consent():
    s = fresh()
    s = hero(s, 0, goods=(0, 1, 0, 0, 0, 0))
    s = hero(s, 1, goods=(0, 1, 0, 0, 0, 0))
    s, _ = do(s, TakeAction(chip=0, slot=slot(s, "C09"), option=0))
    s, _ = do(s, choose("loc:smithy"))
    assert "give:1:ore" in opts(s)
    s, _ = do(s, choose("give:1:ore"))
    assert s.pending.kind == "consent" and s.pending.seat == 1
    assert GAME.to_act(s) == (1,)
    s, _ = do(s, choose("agree"), seat=1)
    s, ev = do(s, choose("give:0:ore"))
    assert any(isinstance(e, E.AssignedGoodsDiscarded) for e in ev)
    assert s.site("smithy").assigned == (0,) * 6
    assert s.pending.kind == "pick_item"  # the Location's effect


def test_a_refused_owner_cannot_be_asked_again():
    s = fresh()
    s = hero(hero(s, 0, goods=(0, 1, 0, 0, 0, 0)), 1, goods=(0, 2, 0, 0, 0, 0))
    s, _ = do(s, TakeAction(chip=0, slot=slot(s, "C09"), option=0))
    s, _ = do(s, choose("loc:smithy"))
    assert opts(s) == ("give:0:ore", "give:1:ore", "proceed")
    s, _ = do(s, choose("give:1:ore"))
    s, ev = do(s, choose("refuse"), seat=1)
    assert not any(isinstance(e, E.GoodsAssigned) for e in ev)
    assert s.pending.kind == "assign_good" and s.pending.seat == 0
    assert opts(s) == ("give:0:ore", "proceed")  # seat 1 is never asked again
    s, _ = do(s, choose("give:0:ore"))
    assert s.pending is None and s.site("smithy").assigned == (0, 1, 0, 0, 0, 0)
    assert s.hero(1).goods[1] == 2  # the refusal kept seat 1's ore


def test_a_refusal_with_nobody_else_to_give_ends_the_assign():
    s = hero(hero(fresh(), 0, goods=(0,) * 6), 1, goods=(0, 2, 0, 0, 0, 0))
    s, _ = do(s, TakeAction(chip=0, slot=slot(s, "C09"), option=0))
    s, _ = do(s, choose("loc:smithy"))
    s, _ = do(s, choose("give:1:ore"))
    s, ev = do(s, choose("refuse"), seat=1)
    assert s.pending is None and s.phase == "action"  # no question left: the next turn
    assert E.ActionEnded(seat=0, action="assign") in ev
    assert s.site("smithy").assigned == (0,) * 6 and s.hero(1).goods[1] == 2


def test_sacrifice_gains_every_wound_then_resolves_the_location():
    s = fresh()
    s = hero(s, 0, area="village")
    s, _ = do(s, TakeAction(chip=0, slot=slot(s, "C09"), option=1))
    s, _ = do(s, choose("loc:well"))
    placed = 0
    while s.pending and s.pending.kind == "place_wound":
        s, _ = do(s, next(iter(GAME.legal_commands(s, 0))))
        placed += 1
    assert placed == 3  # value 2 + one chip below (the one just placed)
    assert s.pending.kind == "heal"


def test_craft_takes_items_may_discard_one_and_refills_the_display():
    s = fresh()
    s, _ = do(s, TakeAction(chip=0, slot=slot(s, "C13")))
    if s.pending.kind == "prepare":
        s, _ = do(s, choose("proceed"))
    item = opts(s)[0][5:]
    s, _ = do(s, choose(f"take:{item}"))
    assert item in s.hero(0).items
    s, _ = do(s, choose(opts(s)[0]))
    assert len(s.display) == 5
    assert s.pending.kind == "xp"  # "only chip" bonus: 1 Experience


def combat_position(rows, left, location="keep", seat=0):
    s = fresh()
    s = hero(s, seat, area="citadel")
    c = Combat(
        seat=seat,
        location=location,
        tokens=(0,),
        cards=("J1",),
        rows=rows,
        dice=("yellow",),
        faces=(0,),
        critical=(False,),
        left=left,
        rolled=True,
    )
    return s.model_copy(
        update={
            "phase": "resolve",
            "combat": c,
            "pending": Pending(kind="place_combat", seat=seat, shapes=left),
        }
    )


def test_covering_every_heart_of_the_warlord_wins_the_adventure():
    s = combat_position(("hh",), ("I2",))
    s, ev = do(s, PlaceTile(shape="I2", rotation=0, row=0, col=0))
    assert E.CombatEnded(won=True, uncovered=0) in ev
    assert s.site("keep").enemies == ()
    assert GAME.outcome(s).winners == (0, 1)


def test_an_uncovered_heart_loses_the_combat_and_gives_threats():
    s = combat_position(("h.h", "..."), ("I1",))
    s, ev = do(s, PlaceTile(shape="I1", rotation=0, row=1, col=1))
    assert E.CombatEnded(won=False, uncovered=2) in ev
    assert s.hero(0).threats == 2 and s.site("keep").enemies == ("moderate",)


def test_combat_tiles_must_touch_the_tiles_already_placed():
    s = combat_position(("h...h",), ("I1", "I1"))
    s, _ = do(s, PlaceTile(shape="I1", rotation=0, row=0, col=0))
    with pytest.raises(IllegalCommandError):
        do(s, PlaceTile(shape="I1", rotation=0, row=0, col=4))


def test_a_wound_that_cannot_be_placed_kills_and_loses_for_everyone():
    s = fresh()
    full = tuple(
        r * 32 + c
        for r in range(4)
        for c in range(5)
        if (r, c) not in ((0, 0), (0, 4), (3, 0), (3, 4))
    )
    s = hero(s, 0, wounds=(Tile(shape="I1", cells=full),))
    s = s.model_copy(
        update={
            "phase": "resolve",
            "pending": Pending(
                kind="xp",
                seat=0,
                options=(parse_option("track:combat"), parse_option("track:journey")),
                n=1,
            ),
            "tasks": (Task(op="wound", arg="I1", seat=0),),
        }
    )
    s, _ev = do(s, choose("track:combat"))
    assert GAME.is_over(s) and GAME.outcome(s).winners == ()
    assert "died" in s.reason


def test_running_out_of_rounds_loses():
    last = GAME_CONTENT().adventure.rounds
    s = fresh().model_copy(
        update={"round": last, "turns_taken": (4,) * (last - 1) + (3,)}
    )
    while not GAME.is_over(s):
        seat = GAME.to_act(s)[0]
        s, _ = do(s, next(iter(GAME.legal_commands(s, seat))))
    assert "out of time" in s.reason


def test_a_sixth_threat_becomes_a_wound_the_size_of_the_threats():
    s = hero(fresh(), 0, threats=5)
    s = s.model_copy(
        update={
            "phase": "resolve",
            "pending": Pending(
                kind="xp", seat=0, options=(parse_option("track:combat"),), n=1
            ),
            "tasks": (Task(op="threat", n=1, seat=0),),
        }
    )
    s, _ = do(s, choose("track:combat"))
    assert s.pending.kind == "place_wound" and all(len(x) == 2 for x in opts(s))
    assert set(opts(s)) <= {"P5", "L5", "U5"} and s.hero(0).threats == 5


def test_losing_goods_you_lack_is_unfulfilled_and_wounds():
    s = hero(fresh(), 0, goods=(0,) * 6)
    s = s.model_copy(
        update={
            "phase": "resolve",
            "pending": Pending(
                kind="xp", seat=0, options=(parse_option("track:combat"),), n=1
            ),
            "tasks": (Task(op="lose", arg="ore", n=1, seat=0),),
        }
    )
    s, _ = do(s, choose("track:combat"))
    assert s.pending.kind == "place_wound" and opts(s) == ("I1",)


def test_experience_beyond_seven_gives_the_track_bonus():
    s = hero(fresh(), 0, combat_level=7, threats=0)
    s = s.model_copy(
        update={
            "phase": "resolve",
            "pending": Pending(
                kind="xp",
                seat=0,
                options=(parse_option("track:combat"), parse_option("track:journey")),
                n=1,
            ),
        }
    )
    s, ev = do(s, choose("track:combat"))
    assert E.GoodsGained(seat=0, good="power", n=1) in ev  # Thorgal's Combat bonus


def test_upgrading_a_massive_enemy_wounds_every_character():
    s = fresh().model_copy(
        update={
            "phase": "resolve",
            "pending": Pending(
                kind="upgrade", seat=0, options=(parse_option("enemy:lair:0"),), n=1
            ),
        }
    )
    s, _ = do(s, choose("enemy:lair:0"))
    assert s.pending.kind == "place_wound" and opts(s) == ("I1",)
    assert [t.op for t in s.tasks] == ["wound"]  # the second character's Wound
    assert s.site("lair").enemies == ("massive",)


def test_entries_are_read_once_and_mark_the_location():
    s = hero(fresh(), 0, area="village", goods=(0, 0, 2, 0, 0, 0))
    s, _ = do(s, TakeAction(chip=0, slot=slot(s, "C09"), option=0))
    s, _ = do(s, choose("loc:elder"))
    s, ev = do(s, choose("give:0:gossip"))
    assert any(isinstance(e, E.EntryRead) and e.entry == "E1" for e in ev)
    while s.pending is not None and s.pending.kind != "plot":
        s, ev = do(s, next(iter(GAME.legal_commands(s, s.pending.seat))))
    assert s.site("elder").entry_token and "E1" in s.entries_read
    s, ev = do(s, choose("plot:0"))
    assert E.SidePlotChosen(entry="E1", plot=0) in ev


def test_swapping_an_action_card_keeps_the_chips_in_their_slots():
    s = fresh()
    chips = s.chips
    s = s.model_copy(
        update={
            "phase": "resolve",
            "pending": Pending(
                kind="swap",
                seat=0,
                options=(parse_option("swap:A04"), PROCEED),
                arg="A04",
            ),
        }
    )
    s2, _ev = do(s, choose("swap:A04"))
    assert "A04" in s2.row and "C02" not in s2.row and s2.chips == chips
    assert list(s2.row) == sorted(s2.row, key=lambda c: GAME_CONTENT().card(c).number)


def GAME_CONTENT():
    from domain.games.thorgal.content import load

    return load()


def test_as_a_group_the_team_chooses_who_pays():
    s = hero(hero(fresh(), 0, goods=(1, 0, 0, 0, 0, 0)), 1, goods=(1, 0, 0, 0, 0, 0))
    s = s.model_copy(
        update={
            "phase": "resolve",
            "pending": Pending(
                kind="xp", seat=0, options=(parse_option("track:combat"),), n=1
            ),
            "tasks": (Task(op="group_lose", arg="material", n=2, seat=0),),
        }
    )
    s, _ = do(s, choose("track:combat"))
    assert s.pending.kind == "group_pay"
    s, _ = do(s, choose("seat:1"))
    s, _ = do(s, choose("seat:0"))
    assert s.hero(0).goods[0] == 0 and s.hero(1).goods[0] == 0


def test_the_skill_is_used_once_and_refreshed_by_spending_goods():
    s = hero(fresh(), 1, goods=(0, 0, 1, 1, 0, 0))
    s = s.model_copy(update={"turn": 1})
    s, _ = do(s, TakeAction(chip=0, slot=slot(s, "C13")), seat=1)
    assert "skill" in opts(s)
    s, _ = do(s, choose("skill"), seat=1)
    assert not s.hero(1).skill_active and "skill" not in opts(s)
    assert "refresh" in opts(s)
    s, _ = do(s, choose("refresh"), seat=1)
    assert s.hero(1).skill_active and s.hero(1).goods == (0,) * 6
    assert "skill" not in opts(s)  # once per round


class NotAThorgalEvent(Event):
    seat: int = 0


def test_evolve_refuses_an_event_it_does_not_know():
    with pytest.raises(TypeError, match="thorgal cannot apply NotAThorgalEvent"):
        GAME.evolve(fresh(), NotAThorgalEvent())


def test_taking_an_item_from_the_display_moves_that_one_copy_to_the_hero():
    state = fresh()
    item = state.display[0]
    after = GAME.evolve(state, E.ItemGained(seat=1, item=item, source="display"))
    assert after.display == state.display[1:]
    assert after.heroes[1].items == (*state.heroes[1].items, item)
    assert after.heroes[0] is state.heroes[0]


def test_evolve_refuses_an_item_the_display_does_not_hold():
    """A rule that hands out an Item it never offered is a bug replay must show."""
    state = fresh()
    with pytest.raises(ValueError):
        GAME.evolve(state, E.ItemGained(seat=0, item="no-such-item", source="display"))
