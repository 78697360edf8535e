"""One hand-made position per character (and its tie or edge cases)."""

from __future__ import annotations

import pytest

from domain.contract.core import IllegalCommandError, InvalidCommandError
from domain.games.vaalbara import GAME
from domain.games.vaalbara import commands as cmd
from domain.games.vaalbara import events as ev
from domain.games.vaalbara.content import LANDS
from domain.games.vaalbara.state import CHARACTER_STEP, FIGHTER_STEP, LAND_STEP

# ---------------------------------------------------------------- Fighter
from tests.support.typed import of
from tests.unit.test_vaalbara_support import (
    Lands,
    at_character_step,
    decide,
    forced,
    of_type,
    position,
    scored,
)


def test_fighter_asks_the_others_and_a_revealed_fighter_gains_one_vp() -> None:
    pick = Lands()
    state = position(
        ("fighter", "bard", "oracle"),
        hands={1: ("fighter", "hunter"), 2: ("hunter", "rider")},
        land_deck=(pick("meadow"),),
        first_row=pick.many("field", 3),
    )
    events, state = forced(state)
    assert events == [ev.TurnStarted(seat=0), ev.FighterCalled(seats=(1, 2))]
    assert GAME.to_act(state) == (1, 2)
    assert list(GAME.legal_commands(state, 1)) == [
        cmd.RevealFighter(),
        cmd.DeclineFighter(),
    ]
    assert list(GAME.legal_commands(state, 2)) == [cmd.DeclineFighter()]

    events, state = decide(state, cmd.RevealFighter(), 1)
    assert events == [
        ev.FighterRevealed(seat=1),
        ev.PointsScored(seat=1, reason="fighter", points=1),
    ]
    assert state.step == FIGHTER_STEP and GAME.to_act(state) == (2,)

    events, state = decide(state, cmd.DeclineFighter(), 2)
    assert events == [
        ev.FighterDeclined(seat=2),
        ev.CharacterDiscarded(seat=0, character="fighter"),
    ]
    assert state.step == LAND_STEP and state.current == 0
    assert [p.vp for p in state.players] == [2, 3, 2]
    assert "fighter" in state.players[1].hand


def test_a_player_without_a_fighter_in_hand_cannot_reveal_one() -> None:
    state = position(
        ("fighter", "bard"), hands={1: ("hunter",)}, land_deck=(Lands()("meadow"),)
    )
    _, state = forced(state)
    with pytest.raises(IllegalCommandError) as err:
        decide(state, cmd.RevealFighter(), 1)
    assert err.value.rule == "vaalbara.fighter-reveal"


def test_fighter_does_not_wait_for_seats_whose_fighter_is_known_elsewhere() -> None:
    state = position(
        ("fighter", "fighter", "bard"),
        discards={2: ("fighter",)},
        land_deck=(Lands().ranking("blue", "purple"),),
    )
    events, state = forced(state)
    assert events == [
        ev.TurnStarted(seat=0),
        ev.CharacterDiscarded(seat=0, character="fighter"),
    ]
    assert state.step == LAND_STEP


# ---------------------------------------------------------------- Bard


def test_bard_gives_two_vp_to_the_chosen_other_player() -> None:
    state = at_character_step(position(("bard", "farmer", "rider")), 0)
    assert list(GAME.legal_commands(state, 0)) == [
        cmd.GiveBardPoints(target=1),
        cmd.GiveBardPoints(target=2),
    ]
    events, state = decide(state, cmd.GiveBardPoints(target=2), 0)
    assert events == [
        ev.PointsScored(seat=2, reason="bard", points=2),
        ev.CharacterDiscarded(seat=0, character="bard"),
    ]
    assert [p.vp for p in state.players] == [2, 2, 4]


def test_bard_cannot_target_herself_or_a_missing_seat() -> None:
    state = at_character_step(position(("bard", "farmer")), 0)
    with pytest.raises(IllegalCommandError) as err:
        decide(state, cmd.GiveBardPoints(target=0), 0)
    assert err.value.rule == "vaalbara.bard-target"
    with pytest.raises(InvalidCommandError):
        decide(state, cmd.GiveBardPoints(target=5), 0)


def test_only_the_player_of_the_bard_chooses_the_bard_target() -> None:
    state = at_character_step(position(("bard", "farmer")), 0)
    with pytest.raises(IllegalCommandError) as err:
        decide(state, cmd.GiveBardPoints(target=0), 1)
    assert err.value.rule == "turn-order"


# ---------------------------------------------------------------- Hunter


def test_hunter_playing_before_both_neighbours_gains_three() -> None:
    # Seat 2 is not a neighbour of seat 0 at a 4-player table.
    state = position(("hunter", "tracker", "fighter", "farmer"), done=(2,))
    events, _ = forced(state)
    assert scored(events) == [(0, "hunter", 3)]


def test_hunter_playing_after_a_neighbour_gains_nothing() -> None:
    state = position(("hunter", "fighter", "farmer"), done=(1,))
    events, _ = forced(state)
    assert events[0] == ev.TurnStarted(seat=0)
    assert scored(events) == []


@pytest.mark.parametrize(
    ("omens", "winner"), [(("blue", "purple"), 0), (("purple", "blue"), 1)]
)
def test_hunter_tie_goes_to_the_clan_ranked_higher_on_the_current_omens(
    omens: tuple[str, str], winner: int
) -> None:
    state = position(("hunter", "hunter"), land_deck=(Lands().ranking(*omens),))
    events, _ = forced(state)
    assert events[0] == ev.TurnStarted(seat=winner)
    assert scored(events) == [(winner, "hunter", 3)]


# ---------------------------------------------------------------- Oracle


def test_oracle_gains_two_per_neighbour_with_an_odd_initiative() -> None:
    state = position(("oracle", "fighter", "hunter", "bard"), done=(1, 3, 2))
    events, _ = forced(state)
    # Neighbours are seats 1 (Fighter, 1) and 3 (Bard, 2): one odd.
    assert scored(events) == [(0, "oracle", 2)]


@pytest.mark.parametrize(
    ("other", "points"), [("tracker", [(0, "oracle", 2)]), ("midwife", [])]
)
def test_oracle_in_a_two_player_game_has_one_neighbour(
    other: str, points: list
) -> None:
    state = position(("oracle", other))
    events, _ = forced(state)
    assert scored(events) == points


# ---------------------------------------------------------------- Carpenter


def test_carpenter_counts_forests_before_the_land_action() -> None:
    pick = Lands()
    forest = pick("forest", 5)
    state = position(
        ("carpenter", "farmer"),
        realms={0: (pick("forest"), pick("forest"), pick("meadow"))},
        first_row=(forest, pick("field")),
        land_deck=(pick("river"),),
    )
    events, state = forced(state)
    assert scored(events) == [(0, "carpenter", 6)]
    events, _ = decide(state, cmd.TakeLand(card=forest), 0)
    assert scored(events) == [(0, "forest", 5)]


# ---------------------------------------------------------------- Falconer


def test_falconer_steals_two_from_the_player_just_before() -> None:
    state = position(("falconer", "hunter", "fighter"), done=(2, 1), vps={1: 9, 2: 9})
    events, state = forced(state)
    assert of_type(events, ev.PointsStolen) == [
        ev.PointsStolen(thief=0, victim=1, points=2)
    ]
    assert [p.vp for p in state.players] == [4, 7, 9]


def test_falconer_playing_first_gains_nothing() -> None:
    state = position(("falconer", "rider"))
    events, _ = forced(state)
    assert events == [
        ev.TurnStarted(seat=0),
        ev.CharacterDiscarded(seat=0, character="falconer"),
    ]


def test_falconer_cannot_steal_more_than_the_victim_has() -> None:
    state = position(("falconer", "bard"), done=(1,), vps={1: 1})
    events, state = forced(state)
    assert of_type(events, ev.PointsStolen) == [
        ev.PointsStolen(thief=0, victim=1, points=1)
    ]
    assert state.players[1].vp == 0


# ---------------------------------------------------------------- Tracker


def test_tracker_swaps_a_row_card_with_the_top_of_the_land_deck() -> None:
    pick = Lands()
    top, under = pick("river"), pick("meadow")
    first, second = (pick("field"), pick("forest")), (pick("village"), pick("mountain"))
    state = at_character_step(
        position(
            ("tracker", "farmer"),
            first_row=first,
            second_row=second,
            land_deck=(top, under),
        ),
        0,
    )
    tracked = [of(cmd.TrackLand, c).card for c in GAME.legal_commands(state, 0)]
    assert tracked == [*first, *second]
    events, state = decide(state, cmd.TrackLand(card=second[1]), 0)
    assert events == [
        ev.LandTracked(seat=0, card=second[1], new_card=top),
        ev.CharacterDiscarded(seat=0, character="tracker"),
    ]
    assert state.second_row == (second[0], top)
    assert state.land_deck == (second[1], under)
    assert state.omens == LANDS[second[1]].omens


def test_tracker_changes_the_omens_for_the_rest_of_the_round() -> None:
    pick = Lands()
    purple_first = pick.ranking("purple", "yellow")
    yellow_first = pick.ranking("yellow", "purple")
    state = at_character_step(
        position(
            ("tracker", "crafter", "crafter"),
            first_row=(yellow_first, pick("meadow"), pick("meadow")),
            second_row=pick.many("field", 3),
            land_deck=(purple_first, pick("river")),
        ),
        0,
    )
    _, state = decide(state, cmd.TrackLand(card=yellow_first), 0)
    assert state.omens == LANDS[yellow_first].omens
    events, state = decide(state, cmd.TakeLand(card=state.first_row[1]), 0)
    # The tied Crafters now go yellow (seat 2) first; purple plays last and
    # alone gains the Crafter's 5 (tie goes to the lower Omens rank).
    assert events[2] == ev.TurnStarted(seat=2)
    assert scored(events) == [(0, "meadow", 1)]
    events, _ = decide(state, cmd.TakeLand(card=state.first_row[0]), 2)
    assert events[2] == ev.TurnStarted(seat=1)
    assert scored(events, seat=1) == [(1, "crafter", 5)]


# ---------------------------------------------------------------- Midwife


def test_midwife_takes_a_discarded_character_back_but_not_herself() -> None:
    state = at_character_step(
        position(("midwife", "bard"), discards={0: ("bard", "fighter")}), 0
    )
    assert list(GAME.legal_commands(state, 0)) == [
        cmd.TakeBackCharacter(character="bard"),
        cmd.TakeBackCharacter(character="fighter"),
    ]
    with pytest.raises(IllegalCommandError) as err:
        decide(state, cmd.TakeBackCharacter(character="midwife"), 0)
    assert err.value.rule == "vaalbara.midwife-self"
    with pytest.raises(IllegalCommandError):
        decide(state, cmd.TakeBackCharacter(character="rider"), 0)
    events, state = decide(state, cmd.TakeBackCharacter(character="fighter"), 0)
    assert events == [
        ev.CharacterTakenBack(seat=0, character="fighter"),
        ev.CharacterDiscarded(seat=0, character="midwife"),
    ]
    assert "fighter" in state.players[0].hand
    assert state.players[0].discard == ("bard", "midwife")


def test_midwife_with_an_empty_discard_has_no_effect() -> None:
    events, _state = forced(position(("midwife", "farmer")))
    assert events == [
        ev.TurnStarted(seat=0),
        ev.CharacterDiscarded(seat=0, character="midwife"),
    ]


# ---------------------------------------------------------------- Rider


def test_rider_swaps_a_first_row_land_with_a_second_row_land() -> None:
    pick = Lands()
    first, second = (
        pick.many("meadow", 2),
        (pick("river"), pick("forest"), pick("meadow")),
    )
    state = at_character_step(
        position(("rider", "bard", "hunter"), first_row=first, second_row=second), 0
    )
    assert len(list(GAME.legal_commands(state, 0))) == 6
    events, state = decide(state, cmd.SwapLands(first=first[1], second=second[0]), 0)
    assert events[0] == ev.LandsSwapped(seat=0, first=first[1], second=second[0])
    assert state.first_row == (first[0], second[0])
    assert state.second_row == (first[1], second[1], second[2])
    with pytest.raises(IllegalCommandError):
        decide(
            at_character_step(
                position(("rider", "bard"), first_row=first, second_row=second), 0
            ),
            cmd.SwapLands(first=second[0], second=first[0]),
            0,
        )


def test_rider_may_swap_two_lands_of_the_same_type() -> None:
    pick = Lands()
    first, second = (pick("meadow"),), (pick("meadow"), pick("river"))
    state = at_character_step(
        position(("rider", "bard"), first_row=first, second_row=second), 0
    )
    _, state = decide(state, cmd.SwapLands(first=first[0], second=second[0]), 0)
    assert state.first_row == (second[0],)


# ---------------------------------------------------------------- Crafter


def test_crafter_playing_after_both_neighbours_gains_five() -> None:
    events, _ = forced(position(("crafter", "bard", "tracker"), done=(1, 2)))
    assert scored(events) == [(0, "crafter", 5)]


def test_crafter_playing_before_a_neighbour_gains_nothing() -> None:
    events, _ = forced(position(("crafter", "bard", "farmer"), done=(1,)))
    assert events[0] == ev.TurnStarted(seat=0)
    assert scored(events) == []


@pytest.mark.parametrize(
    ("omens", "winner"), [(("blue", "purple"), 1), (("purple", "blue"), 0)]
)
def test_crafter_tie_goes_to_the_clan_ranked_lowest_on_the_current_omens(
    omens: tuple[str, str], winner: int
) -> None:
    loser = 1 - winner
    state = position(
        ("crafter", "crafter"), done=(loser,), land_deck=(Lands().ranking(*omens),)
    )
    events, _ = forced(state)
    assert scored(events) == [(winner, "crafter", 5)]


# ---------------------------------------------------------------- Pioneer


def test_pioneer_swaps_with_the_deck_bottom_and_scores_the_new_land() -> None:
    pick = Lands()
    mountain, forest, bottom = pick("mountain"), pick("forest"), pick("mountain")
    top = pick("meadow")
    state = at_character_step(
        position(
            ("pioneer", "bard"), realms={0: (mountain, forest)}, land_deck=(top, bottom)
        ),
        0,
    )
    assert list(GAME.legal_commands(state, 0)) == [
        cmd.SwapWithDeckBottom(card=mountain),
        cmd.SwapWithDeckBottom(card=forest),
    ]
    events, state = decide(state, cmd.SwapWithDeckBottom(card=forest), 0)
    assert events == [
        ev.RealmLandSwapped(seat=0, card=forest, new_card=bottom),
        ev.PointsScored(seat=0, reason="mountain", points=10),
        ev.CharacterDiscarded(seat=0, character="pioneer"),
    ]
    assert state.players[0].realm == (mountain, bottom)
    assert state.land_deck == (top, forest)


def test_pioneer_with_an_empty_realm_has_no_effect() -> None:
    events, _ = forced(position(("pioneer", "farmer"), land_deck=(Lands()("meadow"),)))
    assert events == [
        ev.TurnStarted(seat=0),
        ev.CharacterDiscarded(seat=0, character="pioneer"),
    ]


def test_pioneer_cannot_give_away_a_land_outside_the_realm() -> None:
    pick = Lands()
    state = at_character_step(
        position(
            ("pioneer", "bard"),
            realms={0: (pick("field"),)},
            land_deck=(pick("meadow"),),
        ),
        0,
    )
    with pytest.raises(IllegalCommandError) as err:
        decide(state, cmd.SwapWithDeckBottom(card=pick("field")), 0)
    assert err.value.rule == "vaalbara.pioneer-card"


# ---------------------------------------------------------------- Farmer


def test_farmer_doubles_the_land_reward() -> None:
    pick = Lands()
    field = pick("field")
    state = position(
        ("farmer", "bard"),
        done=(1,),
        realms={0: (pick("field"), pick("field"))},
        first_row=(field,),
        land_deck=(pick("meadow"),),
    )
    events, state = forced(state)
    assert scored(events) == [] and state.step == LAND_STEP
    events, state = decide(state, cmd.TakeLand(card=field), 0)
    assert scored(events) == [(0, "field", 6), (0, "farmer", 6)]
    assert state.players[0].vp == 14


def test_a_character_choice_waits_for_its_player() -> None:
    pick = Lands()
    state = position(
        ("rider", "farmer"), first_row=(pick("meadow"),), second_row=(pick("field"),)
    )
    events, state = forced(state)
    assert events == [ev.TurnStarted(seat=0)]
    assert state.step == CHARACTER_STEP and GAME.to_act(state) == (0,)
