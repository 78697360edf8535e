"""Setup, secret Assignment, turn order, end of round, end of game, views."""

from __future__ import annotations

import pytest

from domain.contract.chance import commit
from domain.contract.core import (
    ADMIN,
    SPECTATOR,
    GameOverError,
    IllegalCommandError,
    InvalidCommandError,
    NotYourTurnError,
    Viewer,
)
from domain.games.vaalbara import GAME
from domain.games.vaalbara import commands as cmd
from domain.games.vaalbara import events as ev
from domain.games.vaalbara.content import LANDS, PACK
from domain.games.vaalbara.evolve import evolve
from domain.games.vaalbara.rules.decide import choice_payload
from domain.games.vaalbara.setup import VaalbaraSetup
from domain.games.vaalbara.state import (
    ASSIGNMENT,
    LAND_STEP,
    OVER,
    RESOLUTION,
    VaalbaraState,
)
from domain.games.vaalbara.view import VaalbaraView
from tests.support.typed import of, redacted
from tests.unit.test_vaalbara_support import Lands, decide, forced, position, rng


def view(state: VaalbaraState, viewer: Viewer) -> VaalbaraView:
    return of(VaalbaraView, GAME.view(state, viewer))


def started(players: int, **kw):
    state = GAME.initial_state(VaalbaraSetup(players=players, **kw))
    events = list(GAME.start(state, rng()))
    return events, GAME.replay(state, events)


@pytest.mark.parametrize(("players", "cards"), [(2, 21), (3, 31), (4, 41), (5, 51)])
def test_setup_keeps_only_the_lands_whose_mark_fits_the_player_count(
    players: int, cards: int
) -> None:
    state = GAME.initial_state(VaalbaraSetup(players=players))
    assert len(state.land_deck) == cards
    assert all(LANDS[c].mark <= players for c in state.land_deck)


def test_sample_pack_is_labelled_and_has_51_lands_of_six_types() -> None:
    assert PACK.label.startswith("SAMPLE CONTENT")
    assert len(PACK.lands) == 51
    assert {land.type for land in PACK.lands} == {
        "meadow",
        "forest",
        "mountain",
        "field",
        "village",
        "river",
    }
    assert len({land.omens for land in PACK.lands}) == 51  # every back differs


def test_start_deals_two_rows_five_cards_and_two_vp_each() -> None:
    events, state = started(3)
    assert state.phase == ASSIGNMENT and state.round == 1
    assert len(state.first_row) == len(state.second_row) == 3
    assert len(state.land_deck) == 31 - 6
    assert all(
        len(p.hand) == 5 and len(p.deck) == 7 and p.vp == 2 for p in state.players
    )
    assert GAME.to_act(state) == (0, 1, 2)
    dealt = [e for e in events if isinstance(e, ev.LandsDealt)]
    assert [d.row for d in dealt] == [1, 2]
    assert events[-1] == ev.RoundStarted(round=1)


def test_clans_are_assigned_to_seats() -> None:
    _, state = started(2, clans=("green", "red"))
    assert [p.clan for p in state.players] == ["green", "red"]
    _, state = started(3)
    assert [p.clan for p in state.players] == ["blue", "purple", "yellow"]


@pytest.mark.parametrize(
    "setup",
    [
        VaalbaraSetup(players=1),
        VaalbaraSetup(players=6),
        VaalbaraSetup(players=2, clans=("red", "red")),
        VaalbaraSetup(players=2, clans=("red", "orange")),
        VaalbaraSetup(players=3, clans=("red", "blue")),
    ],
)
def test_bad_setups_are_rejected(setup: VaalbaraSetup) -> None:
    with pytest.raises(InvalidCommandError):
        GAME.initial_state(setup)


def test_choices_are_committed_secretly_and_revealed_together() -> None:
    _, state = started(2)
    first = state.players[0].hand[0]
    events, state = decide(state, cmd.ChooseCharacter(character=first), 0)
    (chosen,) = events
    assert isinstance(chosen, ev.CharacterChosen) and chosen.character == first
    payload = choice_payload(0, 1, first)
    assert chosen.commitment == commit(bytes.fromhex(chosen.nonce or ""), payload)
    hidden = redacted(GAME, chosen, Viewer.player(1))
    assert hidden.character is None and hidden.nonce is None
    assert redacted(GAME, chosen, Viewer.player(0)) == chosen
    assert view(state, Viewer.player(1)).players[0].chosen is None
    assert view(state, Viewer.player(1)).players[0].has_chosen
    assert GAME.to_act(state) == (1,)

    second = state.players[1].hand[0]
    events, state = decide(state, cmd.ChooseCharacter(character=second), 1)
    reveal = events[1]
    assert reveal == ev.CharactersRevealed(
        characters=(first, second),
        nonces=(chosen.nonce or "", of(ev.CharacterChosen, events[0]).nonce or ""),
    )
    assert state.phase == RESOLUTION
    assert isinstance(events[2], ev.TurnStarted)


def test_a_seat_chooses_once_and_only_from_its_hand() -> None:
    _, state = started(2)
    hand = state.players[0].hand
    missing = next(
        c
        for c in ("fighter", "bard", "hunter", "oracle", "carpenter", "falconer")
        if c not in hand
    )
    with pytest.raises(IllegalCommandError) as err:
        decide(state, cmd.ChooseCharacter(character=missing), 0)
    assert err.value.rule == "vaalbara.not-in-hand"
    with pytest.raises(InvalidCommandError):
        decide(state, cmd.ChooseCharacter(character="wizard"), 0)
    _, state = decide(state, cmd.ChooseCharacter(character=hand[0]), 0)
    with pytest.raises(IllegalCommandError) as err:
        decide(state, cmd.ChooseCharacter(character=hand[1]), 0)
    assert err.value.rule == "vaalbara.already-chosen"
    assert list(GAME.legal_commands(state, 0)) == []


def test_turn_order_is_ascending_initiative() -> None:
    events, _state = forced(
        position(("farmer", "fighter", "rider"), land_deck=(Lands()("meadow"),))
    )
    assert events[0] == ev.TurnStarted(seat=1)


def test_land_action_takes_a_first_row_card_of_the_current_player_only() -> None:
    pick = Lands()
    first, second = pick("meadow"), pick("field")
    state = position(
        ("bard", "farmer"),
        first_row=(first,),
        second_row=(second,),
        current=0,
        step=LAND_STEP,
    )
    assert list(GAME.legal_commands(state, 0)) == [cmd.TakeLand(card=first)]
    with pytest.raises(NotYourTurnError):
        decide(state, cmd.TakeLand(card=first), 1)
    with pytest.raises(IllegalCommandError) as err:
        decide(state, cmd.TakeLand(card=second), 0)
    assert err.value.rule == "vaalbara.land-row"
    with pytest.raises(InvalidCommandError):
        decide(state, cmd.TakeLand(card="L99"), 0)
    with pytest.raises(InvalidCommandError):
        decide(state, cmd.TakeLand(card=first), 7)
    with pytest.raises(IllegalCommandError) as err:
        decide(state, cmd.GiveBardPoints(target=1), 0)
    assert err.value.rule == "vaalbara.wrong-step"


def test_end_of_round_slides_the_rows_deals_and_refills_hands() -> None:
    pick = Lands()
    second = pick.many("meadow", 2)
    deck = (pick("field"), pick("forest"), pick("river"))
    state = position(("bard", "farmer"), done=(0, 1), second_row=second, land_deck=deck)
    state = state.model_copy(
        update={
            "players": (
                state.players[0],
                state.players[1].model_copy(update={"deck": ()}),
            )
        }
    )
    events, state = forced(state)
    assert events[:2] == [ev.RoundEnded(round=2), ev.LandsDealt(row=2, cards=deck[:2])]
    drawn = [e for e in events if isinstance(e, ev.CharactersDrawn)]
    assert [(d.seat, d.count) for d in drawn] == [(0, 1)]  # seat 1's deck is empty
    assert events[-1] == ev.RoundStarted(round=3)
    assert state.first_row == second and state.second_row == deck[:2]
    assert state.land_deck == deck[2:]
    assert len(state.players[0].hand) == 5 and len(state.players[1].hand) == 4
    assert state.phase == ASSIGNMENT and state.revealed == () and state.done == ()


def test_the_game_ends_after_round_nine_and_rejects_further_moves() -> None:
    pick = Lands()
    state = position(
        ("bard", "farmer"), done=(0, 1), round=9, land_deck=(pick("meadow"),)
    )
    _, state = forced(state)
    assert state.phase == OVER and GAME.is_over(state) and GAME.to_act(state) == ()
    with pytest.raises(GameOverError):
        decide(state, cmd.ChooseCharacter(character="bard"), 0)


@pytest.mark.parametrize(
    ("omens", "winner"), [(("blue", "purple"), 0), (("purple", "blue"), 1)]
)
def test_a_final_tie_goes_to_the_higher_clan_on_the_final_omens(
    omens: tuple[str, str], winner: int
) -> None:
    state = position(
        ("bard", "farmer"),
        done=(0, 1),
        round=9,
        vps={0: 30, 1: 30},
        land_deck=(Lands().ranking(*omens),),
    )
    _, state = forced(state)
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == (winner,) and outcome.scores == (30, 30)
    assert outcome.ranks[winner] == 1 and outcome.ranks[1 - winner] == 2


def test_views_show_own_hand_and_vp_only_until_the_end() -> None:
    _, state = started(3)
    mine = view(state, Viewer.player(1))
    assert mine.players[1].hand == state.players[1].hand and mine.players[1].vp == 2
    assert mine.players[0].hand == () and mine.players[0].vp is None
    assert mine.players[0].hand_size == 5
    assert mine.land_deck == () and mine.land_deck_size == len(state.land_deck)
    assert mine.players[1].deck == ()  # a face-down deck's order is unknown to all
    assert mine.omens == LANDS[state.land_deck[0]].omens
    spectator = view(state, SPECTATOR)
    assert all(p.hand == () and p.vp is None for p in spectator.players)
    admin = view(state, ADMIN)
    assert (
        admin.land_deck == state.land_deck
        and admin.players[0].deck == state.players[0].deck
    )


def test_vp_amounts_are_redacted_for_other_players() -> None:
    scored_event = ev.PointsScored(seat=0, reason="river", points=12)
    assert redacted(GAME, scored_event, Viewer.player(1)).points is None
    assert redacted(GAME, scored_event, Viewer.player(0)) == scored_event
    stolen = ev.PointsStolen(thief=0, victim=1, points=2)
    assert redacted(GAME, stolen, Viewer.player(1)) == stolen
    assert redacted(GAME, stolen, Viewer.player(2)).points is None
    assert redacted(GAME, stolen, SPECTATOR).points is None


def test_evolve_rejects_unknown_events() -> None:
    _, state = started(2)
    with pytest.raises(TypeError, match="vaalbara cannot apply TakeLand"):
        GAME.evolve(state, cmd.TakeLand(card="L01"))  # type: ignore[arg-type]


def test_evolve_has_one_handler_for_each_declared_event_and_no_other() -> None:
    assert set(evolve.handlers) == set(GAME.event_types)
