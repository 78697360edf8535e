"""Random complete games: conservation, VP bookkeeping, replay, contract, no leaks.

300 games per player count (2-5).  The cheap invariants run on every game;
the protobuf round trip, which costs more than the game itself, runs on a
smaller sample per count (the contract code is shared and game-independent).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.contract.core import SPECTATOR, Viewer
from domain.games.vaalbara import GAME, GAME_V1
from domain.games.vaalbara import events as ev
from domain.games.vaalbara.content import CHARACTERS, LANDS, PACK, ROUNDS, STARTING_VP
from domain.games.vaalbara.setup import VaalbaraSetup
from domain.games.vaalbara.state import OVER, VaalbaraState
from domain.ledger.simulate import Playthrough, play_random_game, rng_for
from tests.support.contract import (
    assert_admin_view_is_complete,
    assert_proto_contract,
    assert_replay_equals_live,
    assert_round_trips,
)
from tests.support.sizes import examples

PLAYER_COUNTS = [2, 3, 4, 5]
seeds = st.binary(min_size=32, max_size=32)


def assert_cards_conserved(state: VaalbaraState, players: int) -> None:
    """Every Land and every character card is in exactly one place."""
    lands = [*state.land_deck, *state.first_row, *state.second_row]
    for p in state.players:
        lands += p.realm
        characters = [*p.deck, *p.hand, *p.discard]
        characters += [c for c in (p.chosen, p.played) if c is not None]
        assert sorted(characters) == sorted(CHARACTERS)
    assert sorted(lands) == sorted(PACK.for_players(players))


def vp_from_events(events: list, players: int) -> list[int]:
    """VP as the log's point events add up (bookkeeping only, not the rules)."""
    vp = [STARTING_VP] * players
    for event in events:
        if isinstance(event, ev.PointsScored):
            vp[event.seat] += event.points or 0
        elif isinstance(event, ev.PointsStolen):
            vp[event.thief] += event.points or 0
            vp[event.victim] -= event.points or 0
    return vp


# --------------------------------------------------------------- a referee
#
# VP recomputed from the printed rules and the facts of the game (who took
# which Land into which Realm, who played which character, who revealed a
# Fighter), never from the points the events carry: a wrong Land reward, a
# missing Farmer doubling or a wrong character payout makes the totals differ.


def _kinds(realm: tuple[str, ...]) -> list[str]:
    return [LANDS[card].type for card in realm]


def _neighbours(n: int, seat: int) -> set[int]:
    return {(seat - 1) % n, (seat + 1) % n} - {seat}


def _printed_land_reward(
    state: VaalbaraState, seat: int, card: str, realm: tuple[str, ...]
) -> int:
    """The reward printed on ``card`` joining ``seat``'s Realm (now ``realm``)."""
    kind, kinds = LANDS[card].type, _kinds(realm)
    if kind == "meadow":  # 1 per Meadow in your and your neighbours' Realms
        return kinds.count("meadow") + sum(
            _kinds(state.players[n].realm).count("meadow")
            for n in _neighbours(len(state.players), seat)
        )
    if kind == "forest":  # the printed value, 3 to 6
        value = LANDS[card].value
        assert value is not None and 3 <= value <= 6
        return value
    if kind == "mountain":  # 10 for the 2nd, 20 more for the 4th
        return {2: 10, 4: 20}.get(kinds.count("mountain"), 0)
    if kind == "field":
        return 2 * kinds.count("field")
    if kind == "village":
        return 2 * len(set(kinds))
    assert kind == "river"  # initiative (max 6) x Rivers
    return min(6, CHARACTERS.index(state.revealed[seat]) + 1) * kinds.count("river")


def _turn_key(state: VaalbaraState, seat: int) -> tuple[int, int]:
    omens = LANDS[state.land_deck[0]].omens
    return (
        CHARACTERS.index(state.revealed[seat]),
        omens.index(state.players[seat].clan),
    )


def _character_points(state: VaalbaraState, seat: int, vp: list[int]) -> dict[int, int]:
    """VP changes of ``seat``'s character action, from the table it resolves on."""
    character = state.revealed[seat]
    others = _neighbours(len(state.players), seat)
    mine = _turn_key(state, seat)
    if character == "hunter" and all(mine < _turn_key(state, n) for n in others):
        return {seat: 3}
    if character == "crafter" and all(mine > _turn_key(state, n) for n in others):
        return {seat: 5}
    if character == "oracle":
        odd = sum((CHARACTERS.index(state.revealed[n]) + 1) % 2 for n in others)
        return {seat: 2 * odd}
    if character == "carpenter":  # before the Land action: the Realm so far
        return {seat: 3 * _kinds(state.players[seat].realm).count("forest")}
    if character == "falconer" and state.done:
        victim = state.done[-1]
        stolen = min(2, vp[victim])
        return {seat: stolen, victim: -stolen}
    return {}


def vp_by_the_rules(play: Playthrough) -> list[int]:
    players = play.setup.players
    vp = [STARTING_VP] * players
    for i, event in enumerate(play.events):
        before = play.states[i]
        gains: dict[int, int] = {}
        match event:
            case ev.LandTaken(seat=seat, card=card):
                reward = _printed_land_reward(
                    before, seat, card, before.players[seat].realm + (card,)
                )
                doubled = before.revealed[seat] == "farmer"
                gains = {seat: reward * (2 if doubled else 1)}
            case ev.RealmLandSwapped(seat=seat, card=card, new_card=new):
                realm = tuple(
                    new if c == card else c for c in before.players[seat].realm
                )
                gains = {seat: _printed_land_reward(before, seat, new, realm)}
            case ev.FighterRevealed(seat=seat):
                gains = {seat: 1}
            case ev.CharacterDiscarded(seat=seat, character="bard"):
                target = play.events[i - 1]  # the Bard's chosen player
                assert isinstance(target, ev.PointsScored) and target.seat != seat
                gains = {target.seat: 2}
            case ev.CharacterDiscarded(seat=seat):
                gains = _character_points(before, seat, vp)
            case ev.GameEnded():
                for seat, p in enumerate(before.players):
                    gains[seat] = {5: 5, 6: 10}.get(len(set(_kinds(p.realm))), 0)
        for seat, n in gains.items():
            vp[seat] += n
    return vp


def assert_legal_commands_match_to_act(state: VaalbaraState) -> None:
    acting = set(GAME.to_act(state))
    for seat in range(state.player_count):
        has_moves = next(iter(GAME.legal_commands(state, seat)), None) is not None
        assert has_moves == (seat in acting), (seat, acting, state.phase, state.step)


def settled_states(play: Playthrough) -> list[VaalbaraState]:
    """The states between decisions (not the transient ones inside a decision)."""
    out, version = [], 0
    for _, _, events in play.decisions:
        version += len(events)
        out.append(play.states[version])
    return out


def assert_game_invariants(play: Playthrough) -> None:
    players = play.setup.players
    for state in play.states:
        assert_cards_conserved(state, players)
        assert all(p.vp >= 0 for p in state.players)
    for state in settled_states(play):
        assert_legal_commands_match_to_act(state)
    final = play.state
    assert final.phase == OVER and final.round == ROUNDS
    assert all(len(p.realm) == ROUNDS for p in final.players)
    live = [p.vp for p in final.players]
    assert vp_from_events(play.events, players) == live
    assert vp_by_the_rules(play) == live
    assert list(final.final_scores) == live
    old = GAME_V1.outcome(final)  # rules v1: the Omens order every tie
    assert old is not None and sorted(old.ranks) == list(range(1, players + 1))
    outcome = GAME.outcome(final)  # v2: the Omens pick the winner only
    assert outcome is not None and outcome.winners == old.winners
    assert outcome.ranks.count(1) == 1
    for a in range(players):
        for b in range(players):
            if live[a] > live[b]:
                assert outcome.ranks[a] < outcome.ranks[b]
            elif live[a] == live[b] and 1 not in (outcome.ranks[a], outcome.ranks[b]):
                assert outcome.ranks[a] == outcome.ranks[b]
    assert_replay_equals_live(play)


# --------------------------------------------------------------- no leaks


def _perturbed(
    state: VaalbaraState, viewer: Viewer, rnd: random.Random
) -> VaalbaraState:
    """``state`` with everything ``viewer`` may not see shuffled or changed."""
    players = []
    for seat, p in enumerate(state.players):
        if viewer.can_see(seat):
            players.append(p)
            continue
        pool = list(p.hand + p.deck + ((p.chosen,) if p.chosen else ()))
        rnd.shuffle(pool)
        chosen = pool.pop() if p.chosen else None
        update: dict[str, Any] = {
            "chosen": chosen,
            "nonce": "00" if chosen else None,
            "hand": tuple(pool[: len(p.hand)]),
            "deck": tuple(pool[len(p.hand) :]),
        }
        if state.phase != OVER:
            update["vp"] = p.vp + rnd.randint(1, 30)
        players.append(p.model_copy(update=update))
    below = list(state.land_deck[1:])
    rnd.shuffle(below)
    return state.model_copy(
        update={
            "players": tuple(players),
            "land_deck": state.land_deck[:1] + tuple(below),
        }
    )


def assert_no_leaks(play: Playthrough) -> None:
    """Views and redacted events of non-admin viewers ignore hidden information."""
    rnd = random.Random(0)
    seats = range(play.setup.players)
    for viewer in [SPECTATOR, *(Viewer.player(s) for s in seats)]:
        for state in play.states[1::7] + [play.state]:
            assert GAME.view(state, viewer) == GAME.view(
                _perturbed(state, viewer, rnd), viewer
            )
        for event in play.events:
            shown = GAME.redact(event, viewer)
            match shown:
                case (
                    ev.LandDeckShuffled(cards=cards) | ev.ClanDeckShuffled(cards=cards)
                ):
                    assert cards == ()
                case ev.CharactersDrawn(seat=seat, cards=cards) if not viewer.can_see(
                    seat
                ):
                    assert cards == ()
                case ev.CharacterChosen(seat=seat) if not viewer.can_see(seat):
                    assert shown.character is None and shown.nonce is None
                case ev.PointsScored(seat=seat) if not viewer.can_see(seat):
                    assert shown.points is None
                case ev.PointsStolen(thief=a, victim=b) if not (
                    viewer.can_see(a) or viewer.can_see(b)
                ):
                    assert shown.points is None
                case _:
                    assert shown == event


# --------------------------------------------------------------- tests


def test_proto_contract() -> None:
    assert_proto_contract(GAME)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@examples(300)
@given(seed=seeds)
def test_random_games_keep_every_invariant(players: int, seed: bytes) -> None:
    play = play_random_game(GAME, VaalbaraSetup(players=players), seed)
    assert_game_invariants(play)
    assert_no_leaks(play)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@examples(40)
@given(seed=seeds)
def test_random_games_round_trip_and_accept_every_legal_command(
    players: int, seed: bytes
) -> None:
    play = play_random_game(GAME, VaalbaraSetup(players=players), seed)
    assert_round_trips(play)
    assert_admin_view_is_complete(play)
    chance = rng_for(seed, 0)
    for state in settled_states(play)[::3]:
        for seat in range(players):
            for command in GAME.legal_commands(state, seat):
                assert GAME.decide(state, command, seat, chance)


def test_every_character_and_land_type_is_exercised_by_random_play() -> None:
    """Guards the property tests against a policy that never reaches a rule."""
    characters: Counter[str] = Counter()
    rewards: Counter[str] = Counter()
    for seed in range(40):
        play = play_random_game(GAME, VaalbaraSetup(players=2 + seed % 4), seed)
        for event in play.events:
            if isinstance(event, ev.CharacterDiscarded):
                characters[event.character] += 1
            elif isinstance(event, ev.PointsScored):
                rewards[event.reason] += 1
    assert set(characters) == set(CHARACTERS)
    assert {
        "meadow",
        "forest",
        "mountain",
        "field",
        "village",
        "river",
        "variety",
    } <= set(rewards)
    assert {
        "fighter",
        "bard",
        "hunter",
        "oracle",
        "carpenter",
        "crafter",
        "farmer",
    } <= set(rewards)
