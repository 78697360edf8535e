"""The Event phase as a sequence, special rounds, and Collect/Sacrifice/Craft details.

Hand-made positions: decks are stacked so every draw is known.
"""

from __future__ import annotations

from domain.games.thorgal import GAME
from domain.games.thorgal import events as E
from domain.games.thorgal.content import load
from domain.games.thorgal.rules.options import PROCEED
from domain.games.thorgal.state import Act, Chip, Pending, Task, Tile, enc
from tests.unit.test_thorgal_choices import then
from tests.unit.test_thorgal_rules import choose, do, fresh, hero, opts

C = load()
SHOWN = (E.ChoiceOffered, E.ChoiceMade)


def facts(events):
    """The events that change the table (not the task and question bookkeeping)."""
    return [e for e in events if not isinstance(e, SHOWN)]


def stacked(state, name, cards, discard=()):
    return state.model_copy(
        update={
            "decks": tuple(
                d.model_copy(update={"cards": cards, "discard": discard})
                if d.name == name
                else d
                for d in state.decks
            )
        }
    )


def run_event_phase(state, round, active_event="", first=0):
    """Every chip used (under slots 0-3); the Event phase of ``round`` resolves."""
    chips = tuple(Chip(slot=i, active=False) for i in range(4))
    state = state.model_copy(
        update={
            "chips": chips,
            "active_event": active_event,
            "turns_taken": (4,) * round,
            "first": first,
            "round": round,
            "phase": "resolve",
            "act": None,
            "tasks": (Task(op="event_phase", seat=first),),
            "pending": Pending(kind="heal", seat=first, options=(PROCEED,), n=0),
        }
    )
    return do(state, choose("proceed"), seat=first)


# ------------------------------------------------------------------ Event phase


def test_the_event_phase_runs_its_five_steps_in_order():
    s = stacked(fresh(), "mountain", ("M3", "M2"))
    # M1's "Next Event phase": icon 0 = every character gains 1 Threat.
    # M3's immediate effect: every character gains 1 material.
    s, ev = run_event_phase(s, 2, active_event="M1")
    assert facts(ev) == [
        E.RoundAdvanced(round=3),
        E.ChipsFlipped(),
        E.ThreatsChanged(seat=0, threats=1),
        E.ThreatsChanged(seat=1, threats=1),
        E.CardsDrawn(deck="mountain", cards=("M3",), to="event"),
        E.GoodsGained(seat=0, good="material", n=1),
        E.GoodsGained(seat=1, good="material", n=1),
        E.FirstPlayerPassed(first=1),
        E.TurnBegan(round=3, turn=0, seat=1),
    ]
    assert [c.slot for c in s.chips] == [0, 1, 2, 3] and all(c.active for c in s.chips)
    assert s.active_event == "M3" and s.deck("mountain").discard == ("M1",)
    assert s.first == 1 and s.phase == "action" and s.turn_seat() == 1


def test_the_event_deck_is_chosen_after_the_next_phase_effect_adds_threats():
    s = stacked(
        stacked(hero(fresh(), 0, threats=2), "mountain", ("M3",)), "warrior", ("W3",)
    )
    s, ev = run_event_phase(s, 2, active_event="M1")  # 2 + 1 + 1 = 4 Threats >= 3
    assert E.CardsDrawn(deck="warrior", cards=("W3",), to="event") in ev
    assert s.active_event == "W3"


def test_a_special_round_resolves_after_the_new_events_immediate_effects():
    special = {r.round: r.effects for r in C.adventure.special_rounds}
    assert special[4][0].op == "place_enemy" and special[4][0].arg == "mystical"
    s = stacked(
        fresh(), "mountain", ("M1",)
    )  # M1: every character gains a 1-cell Wound
    s, ev = run_event_phase(s, 3)
    assert E.RoundAdvanced(round=4) in ev
    for seat in (0, 1):
        assert s.pending.kind == "place_wound" and s.pending.seat == seat
        s, ev = do(s, next(iter(GAME.legal_commands(s, seat))), seat)
    assert s.pending.kind == "place_enemy" and s.pending.arg == "mystical"
    assert s.first == 0  # the First player passes only after the special round
    s, ev = do(s, choose("loc:smithy"))
    assert facts(ev)[:3] == [
        E.EnemiesChanged(location="smithy", enemies=("mystical",)),
        E.FirstPlayerPassed(first=1),
        E.TurnBegan(round=4, turn=0, seat=1),
    ]


def test_a_round_without_special_effects_has_none():
    s = stacked(fresh(), "mountain", ("M3",))
    s, ev = run_event_phase(s, 4)  # round 5 is not special
    assert not any(isinstance(e, E.EnemiesChanged) for e in ev)
    assert s.phase == "action" and s.round == 5


def test_solo_passes_the_first_player_between_the_two_characters():
    s, ev = run_event_phase(stacked(fresh(players=1), "mountain", ("M3",)), 1)
    assert E.FirstPlayerPassed(first=1) in ev and s.turn_seat() == 1
    s, ev = run_event_phase(stacked(fresh(players=1), "mountain", ("M3",)), 1, first=1)
    assert E.FirstPlayerPassed(first=0) in ev and s.turn_seat() == 0


# ------------------------------------------------------------------ Collect


def collecting(state, value, terrain=("T4",), area="village"):
    state = hero(state, 0, area=area, goods=(0,) * 6)
    state = state.model_copy(
        update={"terrain": terrain, "path": (), "collect_tokens": ()}
    )
    return then(
        state,
        Task(op="do", arg="collect", seat=0),
        act=Act(seat=0, action="collect", value=value),
    )


def test_collect_offers_only_goods_and_area_icons():
    s = collecting(fresh(), 3)  # T4: "O.y" / "H*G" / "MYX"
    assert s.pending.kind == "collect"
    assert set(opts(s)) == {
        f"cell:{enc(r, c)}" for r, c in ((0, 0), (1, 1), (1, 2), (2, 0), (2, 1))
    }


def test_a_collect_penalty_resolves_once_whatever_the_value():
    s = collecting(fresh(), 3)
    s, ev = do(s, choose(f"cell:{enc(2, 1)}"))  # Y: Area icon + yellow penalty
    assert C.terrain_card("T4").yellow[0].op == "lose"  # lose 1 gossip
    assert facts(ev)[:3] == [
        E.CollectTokenPlaced(seat=0, cell=enc(2, 1)),
        E.GoodsGained(seat=0, good="gossip", n=3),  # the Village's only Source
        E.GoodsSpent(seat=0, good="gossip", n=1),
    ]
    assert sum(isinstance(e, (E.GoodsGained, E.GoodsSpent)) for e in ev) == 2
    assert s.hero(0).goods == (0, 0, 2, 0, 0, 0) and s.collect_tokens == (enc(2, 1),)
    assert s.pending is None and s.phase == "action"


def test_collect_resolves_no_effect_other_than_goods():
    s = collecting(fresh(), 2)
    s, ev = do(s, choose(f"cell:{enc(1, 2)}"))  # G, next to a Heal and an Experience
    assert [
        e for e in facts(ev) if not isinstance(e, (E.ActionEnded, E.TurnBegan))
    ] == [
        E.CollectTokenPlaced(seat=0, cell=enc(1, 2)),
        E.GoodsGained(seat=0, good="gossip", n=2),
    ]
    assert s.pending is None


# ------------------------------------------------------------------ Sacrifice


def sacrificing(state, value, wounds=()):
    state = hero(state, 0, area="shrine", wounds=wounds)
    return then(
        state,
        Task(op="do", arg="sacrifice", seat=0),
        act=Act(seat=0, action="sacrifice", value=value),
        round=2,
    )


def test_a_sacrifice_gains_every_wound_before_its_effect():
    s = sacrificing(fresh(), 2)
    s, _ = do(s, choose("loc:altar"))  # Altar: Wound I2; gain 1 fate, Entry E2
    assert s.pending.kind == "place_wound" and opts(s) == ("I2",) and s.pending.n == 2
    s, ev = do(s, next(iter(GAME.legal_commands(s, 0))))
    assert not any(isinstance(e, (E.GoodsGained, E.EntryRead)) for e in ev)
    assert s.pending.kind == "place_wound" and s.pending.n == 1
    s, ev = do(s, next(iter(GAME.legal_commands(s, 0))))
    assert E.GoodsGained(seat=0, good="fate", n=1) in ev
    assert len(s.hero(0).wounds) == 2 and s.hero(0).goods[5] == 1


def test_a_sacrifice_is_never_partial_a_wound_that_does_not_fit_kills():
    # Thorgal's Wound area has 16 cells; all but (1, 0)-(2, 0) are wounded:
    # the first I2 fits, the second cannot, and the Altar's effect never happens.
    area = C.character("thorgal").wound_rows
    free = {(1, 0), (2, 0)}
    cells = tuple(
        enc(r, c)
        for r, row in enumerate(area)
        for c, ch in enumerate(row)
        if ch != "#" and (r, c) not in free
    )
    s = sacrificing(fresh(), 2, wounds=(Tile(shape="I1", cells=cells),))
    s, _ = do(s, choose("loc:altar"))
    assert s.pending.kind == "place_wound" and s.pending.n == 2
    s, ev = do(s, next(iter(GAME.legal_commands(s, 0))))
    assert GAME.is_over(s) and GAME.outcome(s).winners == () and "died" in s.reason
    assert not any(isinstance(e, (E.GoodsGained, E.EntryRead)) for e in ev)
    assert s.hero(0).goods[5] == 0 and "E2" not in s.entries_read


# ------------------------------------------------------------------ Craft


def crafting(state, value, deck, discard):
    state = stacked(hero(state, 0, items=()), "items", deck, discard)
    return then(
        state,
        Task(op="do", arg="craft", seat=0),
        act=Act(seat=0, action="craft", value=value),
    )


def test_craft_refills_the_display_by_reshuffling_the_discard():
    s = crafting(fresh(), 1, deck=(), discard=("boots", "map", "sack"))
    taken = s.display[0]
    s, _ = do(s, choose(f"take:{taken}"))
    assert s.pending.kind == "craft_discard"
    s, ev = do(s, choose("proceed"))
    shuffled = [e for e in ev if isinstance(e, E.DeckShuffled)]
    assert len(shuffled) == 1 and shuffled[0].from_discard and shuffled[0].size == 3
    assert sorted(shuffled[0].cards) == ["boots", "map", "sack"]
    assert E.CardsDrawn(deck="items", cards=(shuffled[0].cards[0],), to="display") in ev
    assert len(s.display) == 5 and s.hero(0).items == (taken,)
    assert (
        s.deck("items").cards == shuffled[0].cards[1:] and s.deck("items").discard == ()
    )


def test_an_item_discarded_from_the_display_is_reshuffled_into_the_refill():
    s = crafting(fresh(), 1, deck=(), discard=())
    taken, dropped = s.display[0], s.display[1]
    s, _ = do(s, choose(f"take:{taken}"))
    s, ev = do(s, choose(f"discard:{dropped}"))
    shuffled = [e for e in ev if isinstance(e, E.DeckShuffled)]
    assert len(shuffled) == 1 and shuffled[0].cards == (dropped,)
    assert len(s.display) == 4 and dropped in s.display  # one card was all the deck had
    assert s.deck("items").cards == () and s.deck("items").discard == ()
