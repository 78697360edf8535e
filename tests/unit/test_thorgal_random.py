"""Random complete Thorgal adventures: invariants, replay, proto contract, no leaks."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from domain.contract.core import ADMIN, SPECTATOR, Termination, Viewer
from domain.games.thorgal import GAME
from domain.games.thorgal import events as E
from domain.games.thorgal.content import load
from domain.games.thorgal.setup import ThorgalSetup
from domain.games.thorgal.state import dec
from domain.ledger.simulate import play_random_game
from tests.support.contract import (
    assert_accepted,
    assert_admin_view_is_complete,
    assert_proto_contract,
    assert_replay_equals_live,
    assert_round_trips,
)
from tests.support.sizes import examples

SEEDS = st.binary(min_size=32, max_size=32)


def wound_area(character: str) -> frozenset[tuple[int, int]]:
    """The cells of a character's Wound area (``#`` is outside it)."""
    rows = load().character(character).wound_rows
    return frozenset(
        (r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "#"
    )


def check_invariants(play) -> None:
    state = play.state
    assert GAME.is_over(state)
    out = GAME.outcome(state)
    assert out is not None
    assert out.termination in (Termination.TEAM_WON, Termination.TEAM_LOST)
    assert (out.winners == ()) == (out.termination is Termination.TEAM_LOST)
    # 4 turns in every completed round (the last one may be cut short by a loss)
    assert all(t == 4 for t in state.turns_taken[:-1])
    assert state.turns_taken[-1] <= 4
    # chips never stay under the same card; a Wound touches the Wounds already there
    previous = {i: -1 for i in range(4)}
    for before, event in zip(play.states, play.events):
        if isinstance(event, E.ChipPlaced):
            assert event.slot != previous[event.chip]
            previous[event.chip] = event.slot
        elif isinstance(event, E.WoundPlaced):
            old = {dec(c) for w in before.hero(event.seat).wounds for c in w.cells}
            new = [dec(c) for c in event.cells]
            assert not old or any(
                (r + dr, c + dc) in old
                for r, c in new
                for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
            )
    # goods never negative; wound tiles never overlap and lie inside the wound area
    for s in play.states:
        for hero in s.heroes:
            assert min(hero.goods) >= 0
            cells = [dec(c) for w in hero.wounds for c in w.cells]
            assert len(cells) == len(set(cells))
            assert set(cells) <= wound_area(hero.character), hero
            assert 0 <= hero.threats <= 5
        for site in s.sites:
            assert min(site.assigned) >= 0
    assert_replay_equals_live(play)


def run_many(players: int, seed: bytes) -> None:
    play = play_random_game(GAME, ThorgalSetup(players=players), seed)
    check_invariants(play)


@examples(300)
@given(seed=SEEDS)
def test_random_solo_adventures_end_in_a_win_or_a_loss(seed):
    run_many(1, seed)


@examples(300)
@given(seed=SEEDS)
def test_random_two_player_adventures_end_in_a_win_or_a_loss(seed):
    run_many(2, seed)


@examples(300)
@given(seed=SEEDS)
def test_random_three_player_adventures_end_in_a_win_or_a_loss(seed):
    run_many(3, seed)


@examples(300)
@given(seed=SEEDS)
def test_random_four_player_adventures_end_in_a_win_or_a_loss(seed):
    run_many(4, seed)


def test_proto_contract_holds():
    assert_proto_contract(GAME)


@examples(8)
@given(seed=SEEDS, players=st.integers(1, 4))
def test_commands_events_and_views_round_trip_and_views_are_functions_of_state(
    seed, players
):
    play = play_random_game(GAME, ThorgalSetup(players=players), seed)
    assert_round_trips(play)
    assert_admin_view_is_complete(play)


@examples(20)
@given(seed=SEEDS, players=st.integers(1, 4))
def test_deck_order_never_leaks_to_players_or_spectators(seed, players):
    play = play_random_game(GAME, ThorgalSetup(players=players), seed)
    viewers = [SPECTATOR, *(Viewer.player(s) for s in range(play.state.seats))]
    for viewer in viewers:
        v = GAME.view(play.state, viewer)
        assert v.deck_orders == ()
        for event in play.events:
            shown = GAME.redact(event, viewer)
            if isinstance(shown, E.DeckShuffled):
                assert shown.cards == () and shown.hidden
    assert GAME.view(play.state, ADMIN).deck_orders == play.state.decks
    read = set(play.state.entries_read)
    assert {e.id for e in GAME.view(play.state, SPECTATOR).entries} == read


@examples(25)
@given(seed=SEEDS, players=st.integers(1, 4))
def test_every_legal_command_is_accepted_along_a_random_game(seed, players):
    play = play_random_game(GAME, ThorgalSetup(players=players), seed)
    from domain.contract.chance import HmacRng

    for state in play.states[:: max(1, len(play.states) // 15)]:
        for seat in GAME.to_act(state):
            for command in list(GAME.legal_commands(state, seat))[:30]:
                assert_accepted(GAME, state, command, seat, HmacRng(b"k", "x"))


def test_solo_is_one_player_with_two_seats():
    setup = ThorgalSetup(players=1)
    assert GAME.player_seats(setup) == ((0, 1),)
    assert GAME.initial_state(setup).seats == 2


def test_cells_are_encoded_compactly():
    assert dec(33) == (1, 1)


def test_the_wound_area_excludes_the_cut_corners():
    area = wound_area("thorgal")  # "#...#" / "....." / "....." / "#...#"
    assert len(area) == 16 and (0, 0) not in area and (3, 4) not in area
    assert (0, 1) in area and (3, 3) in area and (4, 0) not in area
