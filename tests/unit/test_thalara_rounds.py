"""Thalara: conflict resolution, end of round, refill, end of game, Casual Chaos."""

from __future__ import annotations

import pytest

from domain.contract.core import (
    ADMIN,
    SPECTATOR,
    Event,
    GameOverError,
    Termination,
    Viewer,
)
from domain.games.thalara import GAME
from domain.games.thalara import events as ev
from domain.games.thalara.commands import Pass, PlayCard, ReturnRemnants, SelectHand
from domain.games.thalara.rules.rounds import REASON_ARTIFACTS, REASON_SUPPLY
from domain.games.thalara.setup import ThalaraSetup
from domain.games.thalara.state import (
    OVER,
    PLAY,
    RETURN,
    SELECT,
    ThalaraState,
)
from domain.games.thalara.view import ThalaraView
from tests.support.typed import of, redacted
from tests.unit.test_thalara_support import RNG, act, given, in_play, r
from tests.unit.test_thalara_turns import placed, rule_of


def view(state: ThalaraState, viewer: Viewer) -> ThalaraView:
    return of(ThalaraView, GAME.view(state, viewer))


def end_of_round(state: ThalaraState) -> tuple[ThalaraState, list[Event]]:
    """Everyone passes, the last seat by command."""
    last = state.seats - 1
    state = given(state, *(ev.Passed(seat=s) for s in range(last)))
    return act(state.model_copy(update={"current": last}), last, Pass())


def resolved(events: list[Event]) -> dict[str, int | None]:
    return {e.conflict: e.winner for e in events if isinstance(e, ev.ConflictResolved)}


def with_player(state: ThalaraState, seat: int, **changes: object) -> ThalaraState:
    players = list(state.players)
    players[seat] = players[seat].model_copy(update=changes)
    return state.model_copy(update={"players": tuple(players)})


def table_with(strengths: dict[int, list[int]], players: int) -> ThalaraState:
    """Conflict a01 holding red Remnants of the given strengths per seat."""
    state = in_play(players)
    for seat, values in strengths.items():
        for value in values:
            state = placed(state, seat, r(value, seat))
    return state


# ------------------------------------------------------------------ resolution


def test_the_highest_total_wins_the_artifact_into_their_hand() -> None:
    state, events = end_of_round(table_with({0: [5], 1: [1, 2]}, 2))
    assert events[1] == ev.ConflictResolved(conflict="a01", totals=(5, 3), winner=0)
    assert resolved(events) == {"a01": 0, "a02": None, "a03": None}
    assert "a01" in state.players[0].hand and state.players[0].won == ("a01",)
    assert [c.artifact for c in state.conflicts] == ["a02", "a03", "a04"]


def test_a_two_player_tie_leaves_the_artifact_for_the_next_round() -> None:
    state, events = end_of_round(table_with({0: [3], 1: [1, 2]}, 2))
    assert resolved(events)["a01"] is None
    assert [c.artifact for c in state.conflicts] == ["a01", "a02", "a03"]
    assert state.conflicts[0].plays == ()


@pytest.mark.parametrize(
    ("strengths", "players", "winner"),
    [
        ({0: [5], 1: [5], 2: [3]}, 3, 2),
        ({0: [5], 1: [5]}, 3, None),
        ({0: [5], 1: [5], 2: [3], 3: [3]}, 4, None),
        ({0: [5], 1: [5], 2: [5], 3: [2]}, 4, 3),
        ({0: [5], 1: [3], 2: [3], 3: [1]}, 4, 0),
        ({0: [4], 1: [4], 2: [2], 3: [1]}, 4, 2),
    ],
)
def test_a_multi_player_tie_passes_the_artifact_to_the_next_highest_total(
    strengths: dict[int, list[int]], players: int, winner: int | None
) -> None:
    _, events = end_of_round(table_with(strengths, players))
    assert resolved(events)["a01"] == winner


def test_a_player_whose_cards_were_all_destroyed_is_not_in_the_conflict() -> None:
    state = table_with({0: [5], 1: [5], 2: [3]}, 3)
    state = given(state, ev.CardDestroyed(card=r(3, 2), owner=2, conflict="a01"))
    _, events = end_of_round(state)
    assert resolved(events)["a01"] is None


def test_used_remnants_go_to_their_owners_discard_and_artifacts_back_to_hand() -> None:
    state = in_play(hands={0: [r(1, 0)], 1: ["a09"]})
    state = with_player(state, 1, won=("a09",))
    state = placed(
        placed(placed(state, 0, r(5, 0)), 1, "a09", "a02"), 1, r(4, 1), "a03"
    )
    state = given(state, ev.CardDestroyed(card="a09", owner=1, conflict="a02"))
    state, _ = end_of_round(state)
    assert state.players[0].discard == (r(5, 0),)
    assert state.players[1].discard == (r(4, 1),)
    assert "a09" in state.players[1].hand
    assert all(c.plays == () for c in state.conflicts)


def test_when_the_stack_runs_short_the_round_has_fewer_conflicts() -> None:
    state = in_play(stack=("a01", "a02", "a03", "a04"))
    state = placed(placed(state, 0, r(5, 0)), 1, r(5, 1), "a02")
    state, events = end_of_round(state)
    assert [e for e in events if isinstance(e, ev.ArtifactsRefilled)] == [
        ev.ArtifactsRefilled(artifacts=("a04",))
    ]
    assert [c.artifact for c in state.conflicts] == ["a03", "a04"]
    assert state.phase == SELECT and state.round == 2


def test_the_next_round_starts_with_whoever_last_played_a_card() -> None:
    state, _ = act(in_play(), 0, PlayCard(card=r(1, 0), conflict="a01"))
    state, _ = act(state, 1, PlayCard(card=r(1, 1), conflict="a01"))
    state, _ = act(state, 0, Pass())
    state, _ = act(state, 1, PlayCard(card=r(2, 1), conflict="a02"))
    state, events = act(state, 1, Pass())
    assert ev.RoundStarted(round=2, starter=1) in events


def test_a_round_without_cards_is_started_by_the_most_recent_player_again() -> None:
    state = in_play(first=1)
    _, events = end_of_round(state)
    assert ev.RoundStarted(round=2, starter=1) in events
    state = in_play(first=0).model_copy(update={"last_player": 1})
    _, events = end_of_round(state)
    assert ev.RoundStarted(round=2, starter=1) in events


def test_the_refill_selection_fills_the_hand_to_seven_with_the_artifacts() -> None:
    state, _ = end_of_round(table_with({0: [5]}, 2))
    assert state.players[0].hand == ("a01",)
    assert all(
        len(of(SelectHand, c).cards) == 6
        for c, _ in zip(GAME.legal_commands(state, 0), range(3))
    )
    assert all(
        len(of(SelectHand, c).cards) == 7
        for c, _ in zip(GAME.legal_commands(state, 1), range(3))
    )


# ------------------------------------------------------------------ end of game


def test_the_game_ends_when_a_supply_cannot_fill_the_hand() -> None:
    state = in_play()
    state = with_player(
        state, 0, supply=tuple(r(n, 0) for n in range(15, 21)), hand=(), won=("a14",)
    )
    state = state.model_copy(update={"stack": state.stack[1:]})
    _, events = end_of_round(state)
    assert events[-1] == ev.GameEnded(reason=REASON_SUPPLY, scores=(3, 0))
    assert not any(isinstance(e, ev.RoundStarted) for e in events)


def test_the_supply_check_counts_the_artifacts_in_hand() -> None:
    state = in_play(hands={0: [], 1: []})
    state = with_player(
        state,
        0,
        supply=tuple(r(n, 0) for n in range(15, 21)),
        hand=("a14",),
        won=("a14",),
    )
    after, events = end_of_round(state)
    assert isinstance(events[-1], ev.RoundStarted) and after.phase == SELECT


def test_the_game_ends_when_a_player_has_won_seven_artifacts() -> None:
    won = ("a04", "a05", "a06", "a07", "a08", "a09")
    state = in_play(hands={0: list(won) + [r(5, 0)]})
    state = with_player(state, 0, won=won)
    state = placed(state, 0, r(5, 0))
    state, events = end_of_round(state)
    assert events[-1] == ev.GameEnded(
        reason=REASON_ARTIFACTS, scores=(1 + 3 + 2 + 2 + 1 + 4 + 3, 0)
    )
    assert state.phase == OVER and GAME.is_over(state) and GAME.to_act(state) == ()
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.termination is Termination.COMPLETED
    assert outcome.ranks == (1, 2) and outcome.winners == (0,)
    with pytest.raises(GameOverError):
        act(state, 1, Pass())


def test_equal_victory_points_are_a_shared_win() -> None:
    state = in_play()
    state = with_player(state, 0, won=("a01", "a02"), supply=(), hand=())
    state = with_player(state, 1, won=("a07", "a10"))
    _, events = end_of_round(state)
    state = given(state, ev.GameEnded(reason=REASON_SUPPLY, scores=(2, 2)))
    assert events[-1] == ev.GameEnded(reason=REASON_SUPPLY, scores=(2, 2))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.ranks == (1, 1) and outcome.winners == (0, 1)


# ------------------------------------------------------------------ casual chaos


def chaos_in_play(players: int = 2) -> ThalaraState:
    """Round 1 of Casual Chaos; with no shuffling each seat drew r01-r07."""
    state = GAME.initial_state(_setup(players))
    return GAME.replay(state, GAME.start(state, RNG))


def _setup(players: int) -> ThalaraSetup:
    return ThalaraSetup(
        players=players,
        mode="casual_chaos",
        characters=("myrja", "canto", "accaina", "kandhran")[:players],
    )


def test_casual_chaos_draws_seven_random_cards_hidden_from_others() -> None:
    state = GAME.initial_state(_setup(2))
    events = GAME.start(state, RNG)
    drawn = [e for e in events if isinstance(e, ev.CardsDrawn)]
    shuffled = [e for e in events if isinstance(e, ev.SupplyShuffled)]
    assert [d.count for d in drawn] == [7, 7] and len(shuffled) == 2
    assert redacted(GAME, drawn[0], Viewer.player(0)).cards == drawn[0].cards
    assert redacted(GAME, drawn[0], Viewer.player(1)).cards == ()
    assert redacted(GAME, shuffled[0], Viewer.player(0)).order == ()
    assert redacted(GAME, shuffled[0], ADMIN).order == shuffled[0].order
    after = GAME.replay(state, events)
    assert (
        after.phase == PLAY
        and len(after.players[0].hand) == 7
        and len(after.players[0].supply) == 13
    )
    assert view(after, SPECTATOR).players[0].hand == ()


def test_casual_chaos_passing_keeps_the_remnants_and_the_round_ends_with_a_return_choice() -> (
    None
):
    state = chaos_in_play()
    state, _ = act(state, 0, PlayCard(card=r(5, 0), conflict="a01"))
    state, _ = act(state, 1, Pass())
    state, _ = act(state, 0, Pass())
    assert len(state.players[0].hand) == 6 + 1 and "a01" in state.players[0].hand
    assert state.phase == RETURN and GAME.to_act(state) == (0, 1)
    assert len(list(GAME.legal_commands(state, 0))) == 2**6
    assert rule_of(state, 0, ReturnRemnants(cards=("a01",))) == "thalara.artifacts-stay"
    assert rule_of(state, 0, ReturnRemnants(cards=(r(5, 0),))) == "thalara.not-in-hand"
    state, events = act(state, 0, ReturnRemnants(cards=(r(1, 0), r(2, 0))))
    assert events == [ev.RemnantsReturned(seat=0, cards=(r(1, 0), r(2, 0)), count=2)]
    returned = of(ev.RemnantsReturned, events[0])
    assert redacted(GAME, returned, Viewer.player(1)).cards == ()
    assert rule_of(state, 0, ReturnRemnants()) == "thalara.already-chosen"
    state, events = act(state, 1, ReturnRemnants())
    assert [type(e) for e in events][:3] == [
        ev.RemnantsReturned,
        ev.RoundStarted,
        ev.SupplyShuffled,
    ]
    draws = {e.seat: e.count for e in events if isinstance(e, ev.CardsDrawn)}
    assert draws == {0: 2}
    assert len(state.players[0].hand) == 7 and len(state.players[1].hand) == 7
    assert (
        len(state.players[0].supply)
        + len(state.players[0].hand)
        + len(state.players[0].discard)
        == 20 + 1
    )


def test_casual_chaos_skips_the_return_choice_when_the_game_is_over() -> None:
    state = chaos_in_play()
    won = ("a04", "a05", "a06", "a07", "a08", "a09")
    state = with_player(state, 0, won=won)
    state = placed(state, 0, r(5, 0))
    state, events = end_of_round(state)
    assert isinstance(events[-1], ev.GameEnded) and state.phase == OVER
