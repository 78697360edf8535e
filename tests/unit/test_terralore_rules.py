"""Terralore rules from hand-made positions: given state -> decide -> expected events."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import pytest

from domain.contract.core import (
    Event,
    GameOverError,
    IllegalCommandError,
    InvalidCommandError,
    NotYourTurnError,
    Viewer,
)
from domain.games.terralore import GAME
from domain.games.terralore.commands import Lane, PlaceCards, Play
from domain.games.terralore.events import (
    CardsDrawn,
    CastleDamaged,
    CreatureDestroyed,
    CreaturePlayed,
    DeckRanOut,
    DeckShuffled,
    GameEnded,
    LaneRef,
    LanesCounted,
    PlacementCommitted,
    PlacementRevealed,
    RevealOrderDecided,
    TurnStarted,
)
from domain.games.terralore.setup import TerraloreSetup, resolve_decks
from domain.games.terralore.state import PlayerState, TerraloreState

D, A = Lane.DEFENDING, Lane.ATTACKING
FILLER0 = (
    "ember-imp",
    "cinder-hound",
    "flame-warden",
    "magma-golem",
    "pyre-drake",
    "phoenix-sovereign",
    "moss-sprite",
    "stone-sentinel",
    "root-guardian",
    "boulder-troll",
)
FILLER1 = (
    "reef-crab",
    "tide-caller",
    "coral-knight",
    "deep-serpent",
    "leviathan",
    "gust-wisp",
    "sky-lancer",
    "storm-hawk",
    "thunderbird",
    "tempest-djinn",
)
from domain.games.terralore.view import TerraloreView
from tests.support.typed import redacted


def view(state: TerraloreState, viewer: Viewer) -> TerraloreView:
    shown = GAME.view(state, viewer)
    assert isinstance(shown, TerraloreView)
    return shown


class ScriptedRng:
    """An Rng with scripted die rolls, identity shuffles and zero nonces."""

    def __init__(self, rolls: tuple[int, ...] = ()) -> None:
        self.rolls = list(rolls)

    def roll(self, sides: int) -> int:
        return self.rolls.pop(0)

    def randbelow(self, n: int) -> int:
        return 0

    def shuffle(self, items):
        return tuple(items)

    def token(self, nbytes: int = 16) -> bytes:
        return bytes(nbytes)


def position(
    p0: dict | None = None, p1: dict | None = None, turn: int = 2
) -> TerraloreState:
    """A Play-phase position; unspecified decks hold 10 cards so nobody runs out."""
    players = []
    for spec, filler in ((p0 or {}), FILLER0), ((p1 or {}), FILLER1):
        spec = {"deck": filler, **spec}
        players.append(PlayerState(**spec))
    return TerraloreState(
        decks=resolve_decks(TerraloreSetup()),
        players=tuple(players),
        turn=turn,
        phase="play",
    )


def place(
    *plays: tuple[str, Lane],
    discards: tuple[str, ...] = (),
    destroys: tuple[str, ...] = (),
) -> PlaceCards:
    return PlaceCards(
        plays=tuple(Play(card=c, lane=l) for c, l in plays),
        discards=discards,
        destroys=destroys,
    )


def play_turn(
    state: TerraloreState,
    plan0: PlaceCards,
    plan1: PlaceCards,
    rolls: tuple[int, ...] = (6, 1),
) -> tuple[list, TerraloreState]:
    """Both seats commit; returns the events of the deciding (second) commit.

    ``rolls`` are only consumed when the reveal order is rolled for.
    """
    rng = ScriptedRng(rolls)
    state = GAME.replay(state, GAME.decide(state, plan0, 0, rng))
    events = GAME.decide(state, plan1, 1, rng)
    return list(events), GAME.replay(state, events)


E = TypeVar("E", bound=Event)


def of(events: Sequence[Event], cls: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, cls)]


# ------------------------------------------------------------------ opening


def test_start_shuffles_both_decks_and_deals_four_cards_without_a_turn_one_draw() -> (
    None
):
    state = GAME.initial_state(TerraloreSetup())
    events = GAME.start(state, ScriptedRng())
    assert [type(e) for e in events] == [
        DeckShuffled,
        DeckShuffled,
        TurnStarted,
        CardsDrawn,
        CardsDrawn,
    ]
    state = GAME.replay(state, events)
    assert [len(p.hand) for p in state.players] == [4, 4]
    assert [len(p.deck) for p in state.players] == [16, 16]
    assert state.turn == 1 and GAME.to_act(state) == (0, 1)


def test_deck_order_is_hidden_from_players_and_the_opponents_draw_from_them() -> None:
    events = GAME.start(GAME.initial_state(TerraloreSetup()), ScriptedRng())
    seat0 = Viewer.player(0)
    shuffled = redacted(GAME, of(events[:1], DeckShuffled)[0], seat0)
    assert shuffled.order == () and shuffled.hidden
    draw1 = redacted(GAME, of(events[4:5], CardsDrawn)[0], seat0)
    assert draw1.cards == () and draw1.count == 4
    assert redacted(GAME, events[3], seat0) == events[3]


# ------------------------------------------------------------------ play phase


def test_a_committed_placement_is_secret_and_moves_no_card() -> None:
    state = position({"hand": ("ember-imp", "rally")})
    events = GAME.decide(state, place(("ember-imp", A)), 0, ScriptedRng())
    assert len(events) == 1 and isinstance(events[0], PlacementCommitted)
    hidden = redacted(GAME, events[0], Viewer.player(1))
    assert hidden.hidden and hidden.plays == () and hidden.nonce == ""
    after = GAME.replay(state, events)
    assert after.players[0].hand == ("ember-imp", "rally")
    assert GAME.to_act(after) == (1,)
    opp_view = view(after, Viewer.player(1)).players[0]
    assert opp_view.committed and opp_view.plan is None and opp_view.hand == ()


def test_a_seat_cannot_place_twice_in_one_turn() -> None:
    state = position({"hand": ("ember-imp",)})
    state = GAME.replay(state, GAME.decide(state, place(), 0, ScriptedRng()))
    with pytest.raises(NotYourTurnError):
        GAME.decide(state, place(), 0, ScriptedRng())


def test_paying_a_cost_means_discarding_that_many_other_cards() -> None:
    state = position({"hand": ("magma-golem", "ember-imp", "rally", "fireball")})
    with pytest.raises(IllegalCommandError) as err:
        GAME.decide(
            state, place(("magma-golem", A), discards=("ember-imp",)), 0, ScriptedRng()
        )
    assert err.value.rule == "terralore.cost"
    events, after = play_turn(
        state, place(("magma-golem", A), discards=("rally", "ember-imp")), place()
    )
    assert of(events, PlacementRevealed)[0].discards == ("ember-imp", "rally")
    p = after.players[0]
    assert p.attacking == ("magma-golem",) and set(p.graveyard) == {
        "ember-imp",
        "rally",
    }


def test_cards_must_be_in_hand_exist_and_be_listed_once() -> None:
    state = position({"hand": ("ember-imp",)})
    with pytest.raises(IllegalCommandError) as err:
        GAME.decide(state, place(("moss-sprite", A)), 0, ScriptedRng())
    assert err.value.rule == "terralore.not-in-hand"
    with pytest.raises(InvalidCommandError):
        GAME.decide(state, place(("no-such-card", A)), 0, ScriptedRng())
    with pytest.raises(InvalidCommandError):
        GAME.decide(state, place(("ember-imp", A), ("ember-imp", D)), 0, ScriptedRng())
    with pytest.raises(InvalidCommandError):
        GAME.decide(state, place(), 2, ScriptedRng())


def test_a_fifth_creature_in_a_lane_needs_one_of_yours_destroyed_first() -> None:
    full = ("ember-imp", "cinder-hound", "flame-warden", "moss-sprite")
    state = position(
        {"attacking": full, "hand": ("wandering-squire",), "deck": FILLER0[4:]}
    )
    with pytest.raises(IllegalCommandError) as err:
        GAME.decide(state, place(("wandering-squire", A)), 0, ScriptedRng())
    assert err.value.rule == "terralore.lane-full"
    with pytest.raises(IllegalCommandError):  # only the full lane may lose a creature
        GAME.decide(
            state,
            place(("wandering-squire", D), destroys=("ember-imp",)),
            0,
            ScriptedRng(),
        )
    events, after = play_turn(
        state, place(("wandering-squire", A), destroys=("cinder-hound",)), place()
    )
    assert of(events, CreatureDestroyed) == [
        CreatureDestroyed(seat=0, lane=A, card="cinder-hound", reason="room")
    ]
    assert after.players[0].attacking == (
        "ember-imp",
        "flame-warden",
        "moss-sprite",
        "wandering-squire",
    )
    assert "cinder-hound" in after.players[0].graveyard


# ------------------------------------------------------------------ reveal order


def _order(first: int) -> tuple[LaneRef, ...]:
    other = 1 - first
    return (
        LaneRef(seat=first, lane=D),
        LaneRef(seat=other, lane=A),
        LaneRef(seat=other, lane=D),
        LaneRef(seat=first, lane=A),
    )


def test_round_one_order_is_a_die_roll_and_the_winner_goes_first() -> None:
    state = position(turn=1)
    events, _ = play_turn(state, place(), place(), rolls=(2, 5))
    decided = of(events, RevealOrderDecided)[0]
    assert (decided.first, decided.reason, decided.rolls) == (1, "round-one", (2, 5))
    assert decided.order == _order(1)


def test_equal_die_rolls_are_rolled_again() -> None:
    events, _ = play_turn(position(turn=1), place(), place(), rolls=(4, 4, 6, 1))
    decided = of(events, RevealOrderDecided)[0]
    assert decided.rolls == (4, 4, 6, 1) and decided.first == 0


def test_the_player_with_less_castle_hp_reveals_their_defending_lane_first() -> None:
    state = position({"hp": 9}, {"hp": 4, "defending": ("leviathan",)})
    events, _ = play_turn(state, place(), place())
    decided = of(events, RevealOrderDecided)[0]
    assert (decided.first, decided.reason, decided.rolls) == (1, "lower-hp", ())
    assert decided.order == _order(1)


def test_on_equal_hp_the_player_with_fewer_field_points_is_losing() -> None:
    state = position(
        {"hp": 6, "defending": ("ember-imp",)}, {"hp": 6, "attacking": ("tide-caller",)}
    )
    events, _ = play_turn(state, place(), place())
    decided = of(events, RevealOrderDecided)[0]
    assert (decided.first, decided.reason) == (0, "fewer-points")
    assert decided.order == _order(0)


def test_a_perfect_tie_of_hp_and_field_points_is_settled_by_the_die() -> None:
    state = position(
        {"hp": 6, "defending": ("cinder-hound",)},
        {"hp": 6, "defending": ("tide-caller",)},
    )
    events, _ = play_turn(state, place(), place(), rolls=(1, 3))
    decided = of(events, RevealOrderDecided)[0]
    assert (decided.first, decided.reason, decided.rolls) == (1, "perfect-tie", (1, 3))


def test_lanes_resolve_in_the_decided_order() -> None:
    state = position(
        {"hand": ("ember-imp", "moss-sprite")},
        {"hand": ("reef-crab", "gust-wisp"), "hp": 3},
    )
    plan0 = place(("ember-imp", D), ("moss-sprite", A))
    plan1 = place(("reef-crab", D), ("gust-wisp", A))
    events, _ = play_turn(state, plan0, plan1)
    played = [(e.seat, e.lane) for e in of(events, CreaturePlayed)]
    assert played == [(1, D), (0, A), (0, D), (1, A)]


# ------------------------------------------------------------------ counting


def test_attack_points_beyond_the_opposing_defence_damage_the_castle() -> None:
    state = position(
        {"attacking": ("pyre-drake",), "defending": ("cinder-hound",)},
        {"defending": ("reef-crab",), "attacking": ("coral-knight",)},
    )
    events, after = play_turn(state, place(), place())
    assert of(events, LanesCounted) == [LanesCounted(attack=(6, 3), defense=(2, 1))]
    assert of(events, CastleDamaged) == [
        CastleDamaged(seat=0, amount=1, hp=9, source="combat"),
        CastleDamaged(seat=1, amount=5, hp=5, source="combat"),
    ]
    assert [p.hp for p in after.players] == [9, 5]


def test_from_turn_two_each_player_draws_two_at_the_start_of_the_turn() -> None:
    events, after = play_turn(position(), place(), place())
    assert events[-3] == TurnStarted(turn=3)
    assert [len(e.cards) for e in of(events, CardsDrawn)] == [2, 2]
    assert [len(p.hand) for p in after.players] == [2, 2]


def test_surplus_draws_over_the_hand_limit_go_to_the_graveyard() -> None:
    hand = FILLER0[:6]
    state = position({"hand": hand, "deck": ("iron-colossus", "fireball", "quake")})
    events, after = play_turn(state, place(), place())
    drawn = of(events, CardsDrawn)[0]
    assert (drawn.cards, drawn.burned) == (("iron-colossus",), ("fireball",))
    assert redacted(GAME, drawn, Viewer.player(1)).burned == ("fireball",)
    p = after.players[0]
    assert len(p.hand) == 7 and p.graveyard == ("fireball",) and p.deck == ("quake",)


# ------------------------------------------------------------------ ending


def test_a_castle_at_zero_loses() -> None:
    state = position({"attacking": ("phoenix-sovereign",)}, {"hp": 5})
    events, after = play_turn(state, place(), place())
    assert events[-1] == GameEnded(ranks=(1, 2), reason="castle-destroyed")
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (0,) and GAME.to_act(after) == ()
    with pytest.raises(GameOverError):
        GAME.decide(after, place(), 0, ScriptedRng())


def test_both_castles_at_zero_are_tied_so_field_points_decide() -> None:
    state = position(
        {"hp": 2, "attacking": ("pyre-drake",)}, {"hp": 2, "attacking": ("leviathan",)}
    )
    events, _after = play_turn(state, place(), place())
    assert events[-1] == GameEnded(ranks=(2, 1), reason="both-castles-destroyed")


def test_running_out_of_deck_loses() -> None:
    state = position({"deck": ("quake",), "hp": 1}, {"hp": 10})
    events, _after = play_turn(state, place(), place())
    assert of(events, DeckRanOut) == [DeckRanOut(seat=0)]
    assert events[-1] == GameEnded(ranks=(2, 1), reason="deck-out")
    assert of(events, CardsDrawn) == []


def test_both_decks_out_in_one_draw_phase_goes_to_castle_hp() -> None:
    state = position({"deck": (), "hp": 7}, {"deck": ("banish",), "hp": 8})
    events, _ = play_turn(state, place(), place())
    assert of(events, DeckRanOut) == [DeckRanOut(seat=0), DeckRanOut(seat=1)]
    assert events[-1] == GameEnded(ranks=(2, 1), reason="both-decks-out")


def test_tied_castles_at_the_end_go_to_total_field_points() -> None:
    state = position(
        {"deck": (), "hp": 7, "defending": ("pyre-drake",)},
        {"deck": (), "hp": 7, "defending": ("reef-crab",), "attacking": ("gust-wisp",)},
    )
    events, after = play_turn(state, place(), place())
    assert events[-1] == GameEnded(ranks=(1, 2), reason="both-decks-out")
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.scores == (7, 7)


def test_tied_castles_and_field_points_are_a_draw() -> None:
    state = position(
        {"deck": (), "hp": 7, "defending": ("cinder-hound",)},
        {"deck": (), "hp": 7, "defending": ("tide-caller",)},
    )
    events, after = play_turn(state, place(), place())
    assert events[-1] == GameEnded(ranks=(1, 1), reason="both-decks-out")
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (0, 1)


# ------------------------------------------------------------------ legal commands


def test_legal_commands_enumerates_every_distinct_plan_and_each_decides() -> None:
    state = position({"hand": ("ember-imp", "cinder-hound", "rally")})
    plans = list(GAME.legal_commands(state, 0))
    # Without the hound: imp and rally each kept/D/A = 9, +2 orders when they
    # share a lane = 11.  Hound (cost 1) in D or A, paid with a kept card:
    # both kept 2 x 2 = 4; one kept and the other played 2 x 2 x 3 = 12.
    assert plans[0] == PlaceCards()
    assert len(plans) == len(set(plans)) == 27
    for plan in plans:
        GAME.decide(state, plan, 0, ScriptedRng())
    assert (
        list(
            GAME.legal_commands(
                GAME.replay(state, GAME.decide(state, plans[0], 0, ScriptedRng())), 0
            )
        )
        == []
    )


def test_the_revealed_plan_and_nonce_match_the_published_commitment() -> None:
    from domain.contract.chance import commit
    from domain.games.terralore.rules import plan_payload

    state = position({"hand": ("cinder-hound", "rally", "ember-imp")})
    plan = place(("rally", A), ("cinder-hound", D), discards=("ember-imp",))
    (first,) = of(GAME.decide(state, plan, 0, ScriptedRng())[:1], PlacementCommitted)
    events, _ = play_turn(state, plan, place())
    revealed = of(events, PlacementRevealed)[0]
    canonical = PlaceCards(
        plays=revealed.plays, discards=revealed.discards, destroys=revealed.destroys
    )
    assert revealed.plays[0].card == "cinder-hound"  # defending lane listed first
    assert first.commitment == commit(
        bytes.fromhex(revealed.nonce), plan_payload(canonical)
    )


def test_a_player_sees_their_own_hand_and_plan_but_never_a_deck_order() -> None:
    state = position({"hand": ("ember-imp", "rally")})
    state = GAME.replay(
        state, GAME.decide(state, place(("rally", A)), 0, ScriptedRng())
    )
    mine = view(state, Viewer.player(0)).players[0]
    assert mine.hand == ("ember-imp", "rally") and mine.plan is not None
    assert mine.deck_size == 10
    assert "deck" not in type(mine).model_fields


class NotATerraloreEvent(Event):
    seat: int = 0


def test_evolve_refuses_an_event_it_does_not_know() -> None:
    state = GAME.initial_state(TerraloreSetup())
    with pytest.raises(TypeError, match="terralore cannot apply NotATerraloreEvent"):
        GAME.evolve(state, NotATerraloreEvent())


def test_evolve_removes_a_destroyed_creature_from_its_lane_only() -> None:
    state = position({"deck": (), "defending": ("ember-imp", "cinder-hound")})
    after = GAME.evolve(
        state, CreatureDestroyed(seat=0, lane=D, card="ember-imp", reason="effect")
    )
    mine = after.players[0]
    assert mine.defending == ("cinder-hound",)
    assert mine.graveyard == (*state.players[0].graveyard, "ember-imp")
    assert after.players[1] is state.players[1]
