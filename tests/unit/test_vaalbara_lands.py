"""Each Land reward, the variety bonus and the rulebook's worked examples."""

from __future__ import annotations

import pytest

from domain.games.vaalbara import GAME
from domain.games.vaalbara import commands as cmd
from domain.games.vaalbara import events as ev
from domain.games.vaalbara.rules.lands import variety_bonus
from domain.games.vaalbara.state import LAND_STEP, OVER
from tests.unit.test_vaalbara_support import Lands, decide, forced, position, scored


def take(revealed: tuple[str, ...], card: str, realms: dict, seat: int = 0) -> list:
    """Seat ``seat`` takes ``card`` as its Land action; the rewards scored."""
    state = position(
        revealed,
        realms=realms,
        first_row=(card,),
        current=seat,
        step=LAND_STEP,
        land_deck=(Lands()("meadow"),),
    )
    events, _ = decide(state, cmd.TakeLand(card=card), seat)
    assert events[0] == ev.LandTaken(seat=seat, card=card)
    return scored(events, seat)


def test_meadow_counts_meadows_of_your_realm_and_both_neighbours() -> None:
    pick = Lands()
    realms: dict[int, tuple[str, ...]] = {
        0: (pick("meadow"), pick("field")),
        1: (pick("meadow"),),
        2: pick.many("meadow", 3),  # not a neighbour of seat 0 at 4 players
        3: pick.many("meadow", 2),
    }
    assert take(("bard", "hunter", "rider", "farmer"), pick("meadow"), realms) == [
        (0, "meadow", 5)
    ]


def test_meadow_in_a_two_player_game_counts_the_single_neighbour_once() -> None:
    pick = Lands()
    realms = {1: pick.many("meadow", 2)}
    assert take(("bard", "hunter"), pick("meadow"), realms) == [(0, "meadow", 3)]


@pytest.mark.parametrize("value", [3, 4, 5, 6])
def test_forest_scores_its_printed_value(value: int) -> None:
    pick = Lands()
    assert take(("bard", "hunter"), pick("forest", value), {}) == [(0, "forest", value)]


@pytest.mark.parametrize(
    ("owned", "points"), [(0, 0), (1, 10), (2, 0), (3, 20), (4, 0)]
)
def test_mountain_scores_ten_on_the_second_and_twenty_more_on_the_fourth(
    owned: int, points: int
) -> None:
    pick = Lands()
    realms = {0: pick.many("mountain", owned)}
    assert take(("bard", "hunter"), pick("mountain"), realms) == [
        (0, "mountain", points)
    ]


def test_field_scores_two_per_field_including_this_one() -> None:
    pick = Lands()
    realms = {0: (*pick.many("field", 2), pick("meadow")), 1: pick.many("field", 3)}
    assert take(("bard", "hunter"), pick("field"), realms) == [(0, "field", 6)]


def test_village_scores_two_per_different_land_type_including_itself() -> None:
    pick = Lands()
    realms = {0: (pick("meadow"), pick("forest"), pick("forest"), pick("village"))}
    assert take(("bard", "hunter"), pick("village"), realms) == [(0, "village", 6)]


@pytest.mark.parametrize(
    ("character", "rivers", "points"),
    [("bard", 0, 2), ("oracle", 2, 12), ("falconer", 1, 12), ("farmer", 1, 24)],
)
def test_river_scores_initiative_capped_at_six_times_the_rivers(
    character: str, rivers: int, points: int
) -> None:
    pick = Lands()
    realms = {0: pick.many("river", rivers)}
    rewards = take((character, "hunter"), pick("river"), realms)
    assert sum(p for _, _, p in rewards) == points


@pytest.mark.parametrize(("kinds", "bonus"), [(4, 0), (5, 5), (6, 10)])
def test_variety_bonus_rewards_five_or_six_land_types(kinds: int, bonus: int) -> None:
    pick = Lands()
    types = ("meadow", "forest", "mountain", "field", "village", "river")[:kinds]
    realm = tuple(pick(t) for t in types) + tuple(
        pick("field") for _ in range(9 - kinds)
    )
    assert variety_bonus(realm) == bonus


# ------------------------------------------------------- rulebook examples


def test_rulebook_round_two_example() -> None:
    """BLUE and PURPLE tie; Yellow's Crafter fails; River 6 x 2 = 12;
    the Farmer doubles Red's Field (2 x 2 = 4)."""
    pick = Lands()
    omens = pick.ranking("blue", "purple", "yellow", "red")
    river, field = pick("river"), pick("field")
    realms: dict[int, tuple[str, ...]] = {
        0: (pick("forest"),),
        1: (pick("meadow"),),
        2: (pick("river"),),
        3: (pick("village"),),
    }
    state = position(
        ("oracle", "oracle", "crafter", "farmer"), realms=realms, land_deck=(omens,)
    )
    state = state.model_copy(
        update={"first_row": (pick("meadow"), pick("forest"), river, field)}
    )
    events, state = forced(state)
    assert events[0] == ev.TurnStarted(seat=0)  # the tie goes to BLUE
    _, state = decide(state, cmd.TakeLand(card=state.first_row[0]), 0)
    assert state.current == 1
    events, state = decide(state, cmd.TakeLand(card=state.first_row[0]), 1)
    # Yellow (Crafter, 10) plays before Red (Farmer, 12): no Crafter bonus.
    assert events[-2:] == [
        ev.TurnStarted(seat=2),
        ev.CharacterDiscarded(seat=2, character="crafter"),
    ]
    events, state = decide(state, cmd.TakeLand(card=river), 2)
    assert scored(events, 2) == [(2, "river", 12)]
    assert state.first_row == (field,)  # Red has to pick the last card
    events, state = decide(state, cmd.TakeLand(card=field), 3)
    assert scored(events, 3) == [(3, "field", 2), (3, "farmer", 2)]
    assert state.players[3].vp == 2 + 4


def test_rulebook_end_of_game_example() -> None:
    """Marie: 57 VP and 5 Land types (3 Fields, 2 Meadows, 2 Forests, a Village,
    a River) -> 57 + 5 = 62."""
    pick = Lands()
    marie = (
        *pick.many("field", 3),
        *pick.many("meadow", 2),
        *pick.many("forest", 2),
        pick("village"),
        pick("river"),
    )
    other = (*pick.many("meadow", 6), *pick.many("mountain", 3))
    state = position(
        ("farmer", "bard"),
        realms={0: marie, 1: other},
        vps={0: 57, 1: 40},
        done=(1, 0),
        round=9,
        second_row=(pick("field"), pick("field")),
        land_deck=(pick.ranking("purple", "blue"),),
    )
    events, state = forced(state)
    assert events == [
        ev.PointsScored(seat=0, reason="variety", points=5),
        ev.GameEnded(scores=(62, 40), omens=state.final_omens),
    ]
    assert state.phase == OVER
    outcome = GAME.outcome(state)
    assert (
        outcome is not None and outcome.winners == (0,) and outcome.scores == (62, 40)
    )
